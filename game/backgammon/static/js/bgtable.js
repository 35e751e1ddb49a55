// The live backgammon table (game/bgrender.py draws it; board.js raises the events).
// The only state kept here is the list of steps made so far in this turn, and it lives
// in the board itself (data-steps, codes of points and dice, nothing secret). Each step
// or undo asks the server to draw the partial turn from the table's current state
// (game.backgammon.views.board_partial); Confirm sends the play over the table's WebSocket, like a card.
(function () {
  "use strict";

  function live() { return document.getElementById("table-live"); }
  function slot() { return document.getElementById("bg-board-slot"); }
  function errorBox() { return document.getElementById("bg-board-error"); }

  function stepsOf(board) {
    var raw = board.dataset.steps || "";
    return raw ? raw.split(";") : [];
  }

  function redraw(steps) {
    var root = live();
    if (!root) { return; }
    var url = "board/?version=" + encodeURIComponent(root.dataset.version) +
      "&steps=" + encodeURIComponent(steps.join(";"));
    htmx.ajax("GET", url, { target: "#bg-board-slot", swap: "innerHTML" });
  }

  // Refusals (409 stale or not on roll, 422 an illegal step) go to the error line and
  // leave the board as it was.
  document.addEventListener("htmx:beforeSwap", function (ev) {
    var d = ev.detail;
    if (d.target !== slot()) { return; }
    var box = errorBox();
    if (d.xhr.status >= 400) {
      d.shouldSwap = false;
      if (box) { box.innerHTML = d.xhr.responseText; }
    } else if (box) {
      box.innerHTML = "";
    }
  });

  // After a redraw, focus goes back into the board (keyboard play goes on).
  document.addEventListener("htmx:afterSwap", function (ev) {
    if (ev.detail.target !== slot()) { return; }
    var shown = visibleBoard();
    if (!shown) { return; }
    // Say the step in the page's persistent live region (a region that arrives with the
    // new board is often not read out).
    var say = document.getElementById("table-announce");
    if (say && shown.dataset.announce) { say.textContent = shown.dataset.announce; }
    var next = shown.querySelector(".bg-src") || shown.querySelector("[data-bg-action='confirm']") ||
      shown.querySelector("[data-bg-action='undo']");
    if (next) { next.focus({ preventScroll: true }); }
  });

  function visibleBoard() {
    var boards = Array.prototype.slice.call(document.querySelectorAll("#bg-board-slot .bg-board"));
    return boards.filter(function (b) { return b.offsetParent !== null; })[0] || boards[0];
  }

  document.addEventListener("bg:step", function (ev) {
    var board = ev.target.closest(".bg-board");
    var d = ev.detail;
    var steps = stepsOf(board);
    // One click may be a combined move (one checker, both dice): send it as the single
    // move src,dst; the server's planner resolves it exactly as board.js was offered it.
    steps.push(d.dice.length > 1 ? d.from + "," + d.to : d.from + "," + d.to + "," + d.die);
    redraw(steps);
  });

  document.addEventListener("bg:undo", function (ev) {
    var steps = stepsOf(ev.target.closest(".bg-board"));
    steps.pop();
    redraw(steps);
  });

  // A guest has no profile: the home side is a per-browser choice (localStorage); a
  // signed-in player's comes from the profile and the page already carries it.
  var HOME_KEY = "baithak.bgHome";
  function page() { return document.querySelector(".table-page[data-bg-home]"); }
  document.addEventListener("DOMContentLoaded", function () {
    var flip = document.getElementById("bg-flip"), root = page();
    if (!flip || !root) { return; }
    var stored = null;
    try { stored = window.localStorage.getItem(HOME_KEY); } catch (e) { stored = null; }
    if (stored === "left" || stored === "right") { root.dataset.bgHome = stored; }
    flip.addEventListener("click", function () {
      var next = root.dataset.bgHome === "left" ? "right" : "left";
      root.dataset.bgHome = next;
      try { window.localStorage.setItem(HOME_KEY, next); } catch (e) { /* private mode */ }
    });
  });

  document.addEventListener("bg:confirm", function (ev) {
    var form = document.getElementById("bg-move-form");
    if (!form) { return; }
    form.querySelector("input[name='action']").value = "move:" + ev.detail.play;
    form.requestSubmit();
  });
})();
