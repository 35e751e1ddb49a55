// Lessons and practice: where the keyboard focus goes once htmx has put an answer's
// feedback in #feedback. A right answer disables the question it answered (the server
// sends it back disabled), which would drop the focus on the page itself; it moves to the
// way on instead ("Next step", "Next lesson", "Next position"), so Enter goes on. A wrong
// answer keeps the question: a typed number is selected, ready to be typed again, and a
// play made on the board is taken back.
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
  const typed = document.querySelector("#step-ask input[name=answer][type=number]");
  if (typed && box.querySelector(".feedback--wrong")) {
    typed.focus();
    typed.select();
  }
  // A wrong play made on the board goes back: the next try starts from the position
  // (a newcomer had to undo every checker of the wrong play first).
  const slot = document.querySelector("#step-ask .lesson-board");
  if (slot && box.querySelector(".feedback--wrong") && boardSteps(slot).length) {
    redrawBoard(slot, []);
  }
});

// Moving checkers on a lesson's board. game/static/game/backgammon/board.js shows a
// checker's destinations and raises bg:step / bg:undo / bg:confirm; nothing is decided
// here. The steps made so far live in the board (data-steps); each step or undo asks the
// server to draw the board again (tutorials.views.board, the live tables' planner), and
// Confirm posts the play as the step's answer, through the question's own form.
document.documentElement.classList.add("js");

function lessonBoard(el) {
  return el.closest(".lesson-board");
}

function boardSteps(slot) {
  const board = slot.querySelector(".bg-board");
  const raw = board ? board.dataset.steps || "" : "";
  return raw ? raw.split(";") : [];
}

function redrawBoard(slot, steps) {
  const url = slot.dataset.boardUrl + "&steps=" + encodeURIComponent(steps.join(";"));
  htmx.ajax("GET", url, { target: slot, swap: "innerHTML" });
}

document.addEventListener("bg:step", (event) => {
  const slot = lessonBoard(event.target);
  if (!slot) {
    return;
  }
  const d = event.detail;
  const steps = boardSteps(slot);
  // One click may move one checker with several dice: sent as from,to, which the
  // server's planner resolves exactly as it offered it.
  steps.push(d.dice.length > 1 ? `${d.from},${d.to}` : `${d.from},${d.to},${d.die}`);
  redrawBoard(slot, steps);
});

document.addEventListener("bg:undo", (event) => {
  const slot = lessonBoard(event.target);
  if (!slot) {
    return;
  }
  const steps = boardSteps(slot);
  steps.pop();
  redrawBoard(slot, steps);
});

document.addEventListener("bg:confirm", (event) => {
  const slot = lessonBoard(event.target);
  const form = slot && slot.closest("form");
  if (!form) {
    return;
  }
  let answer = form.querySelector("input[name=answer][data-from-board]");
  if (!answer) {
    answer = document.createElement("input");
    answer.type = "hidden";
    answer.name = "answer";
    answer.dataset.fromBoard = "1";
    form.appendChild(answer);
  }
  answer.value = event.detail.play;
  form.requestSubmit();
});

// After a redraw: say the step (a live region that arrives with the new board is often
// not read out) and put the focus back on the board, so the keyboard goes on.
document.addEventListener("htmx:afterSwap", (event) => {
  const slot = event.detail.target;
  if (!slot.classList || !slot.classList.contains("lesson-board")) {
    return;
  }
  const board = slot.querySelector(".bg-board");
  const say = slot.parentElement.querySelector(".lesson-board-say");
  if (board && say) {
    say.textContent = board.dataset.announce || "";
  }
  const next = slot.querySelector(".bg-src") || slot.querySelector("[data-bg-action='confirm']") ||
    slot.querySelector("[data-bg-action='undo']:not([disabled])");
  if (next) {
    next.focus({ preventScroll: true });
  }
});
