// Lessons and practice: where the keyboard focus goes once htmx has put an answer's
// feedback in #feedback. A right answer disables the question it answered (the server
// sends it back disabled), which would drop the focus on the page itself; it moves to the
// way on instead ("Next step", "Next lesson", "Next position"), so Enter goes on. A wrong
// answer keeps the question: a typed number is selected, ready to be typed again.
"use strict";

document.addEventListener("htmx:afterSettle", (event) => {
  const box = document.getElementById("feedback");
  if (!box || event.detail.target !== box) {
    return;
  }
  const onward = box.querySelector(".feedback-actions a.button");
  if (onward) {
    onward.focus();
    return;
  }
  const typed = document.querySelector("#step-ask input[name=answer]");
  if (typed && box.querySelector(".feedback--wrong")) {
    typed.focus();
    typed.select();
  }
});
