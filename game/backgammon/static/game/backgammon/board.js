// The backgammon board's clicks and keys (game/bgboard.py draws it). Pick a movable
// checker (click, or Tab/arrow keys then Enter), then one of its destinations. Nothing is
// decided here: the board carries only what the server's planner offered, and this file
// raises events for the table page to send on:
//   bg:step     detail {from, to, die, dice}   one click = one step or a combined move
//   bg:undo     detail {}
//   bg:confirm  detail {play}
// The page's table code listens on the .bg-board (events bubble) and sends the frame.
(function () {
  "use strict";

  function board(el) { return el.closest(".bg-board"); }
  function sources(root) { return Array.from(root.querySelectorAll(".bg-src")); }
  function shown(root) { return Array.from(root.querySelectorAll(".bg-dst.bg-on")); }

  function pick(root, src, focusFirst) {
    const from = src ? src.dataset.from : null;
    sources(root).forEach(function (s) {
      s.setAttribute("aria-pressed", s === src ? "true" : "false");
    });
    root.querySelectorAll(".bg-dst").forEach(function (d) {
      const on = from !== null && d.dataset.from === from;
      d.classList.toggle("bg-on", on);
      d.setAttribute("tabindex", on ? "0" : "-1");
    });
    if (from === null) delete root.dataset.selected; else root.dataset.selected = from;
    if (focusFirst) { const first = shown(root)[0]; if (first) first.focus(); }
  }

  function step(root, dst) {
    const dice = dst.dataset.dice.split(",").map(Number);
    root.dispatchEvent(new CustomEvent("bg:step", {
      bubbles: true,
      detail: { from: Number(dst.dataset.from), to: Number(dst.dataset.to), die: dice[0], dice: dice },
    }));
  }

  function cycle(list, current, delta) {
    if (!list.length) return;
    const i = list.indexOf(current);
    list[(i + delta + list.length) % list.length].focus();
  }

  document.addEventListener("click", function (e) {
    const root = board(e.target);
    if (!root) return;
    const src = e.target.closest(".bg-src");
    const dst = e.target.closest(".bg-dst");
    const action = e.target.closest("[data-bg-action]");
    if (dst) { step(root, dst); return; }
    if (src) { pick(root, root.dataset.selected === src.dataset.from ? null : src, false); return; }
    if (action && !action.disabled) {
      const name = action.dataset.bgAction;
      const detail = name === "confirm" ? { play: action.dataset.play } : {};
      root.dispatchEvent(new CustomEvent("bg:" + name, { bubbles: true, detail: detail }));
    }
  });

  document.addEventListener("keydown", function (e) {
    const root = board(e.target);
    if (!root) return;
    const src = e.target.closest(".bg-src");
    const dst = e.target.closest(".bg-dst");
    const next = e.key === "ArrowRight" || e.key === "ArrowDown";
    const prev = e.key === "ArrowLeft" || e.key === "ArrowUp";
    if (src) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(root, src, true); }
      else if (next || prev) { e.preventDefault(); cycle(sources(root), src, next ? 1 : -1); }
      else if (e.key === "Escape") { pick(root, null, false); }
    } else if (dst) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); step(root, dst); }
      else if (next || prev) { e.preventDefault(); cycle(shown(root), dst, next ? 1 : -1); }
      else if (e.key === "Escape") {
        e.preventDefault();
        const back = root.querySelector('.bg-src[data-from="' + dst.dataset.from + '"]');
        pick(root, null, false);
        if (back) back.focus();
      }
    }
  });
})();
