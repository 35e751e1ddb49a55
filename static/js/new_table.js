// The create-table form: only the chosen game's house rules are shown. Without
// JavaScript every game's rules are shown, grouped and labelled by game, and the server
// ignores the other games' groups while they stay at their defaults (game/forms.py).
(function () {
  "use strict";
  function sync(form) {
    var select = form.querySelector("select[name='variant']");
    if (!select) { return; }
    var shown = 0;
    form.querySelectorAll("fieldset[data-variant]").forEach(function (set) {
      // A group the server refused stays in view, so the player can set it back.
      var mine = set.dataset.variant === select.value || !!set.querySelector(".errorlist");
      set.hidden = !mine;
      set.disabled = !mine;  // a hidden game's rules are not even sent
      if (mine) { shown += 1; }
    });
    var none = form.querySelector(".no-house-rules");
    if (none) { none.hidden = shown > 0; }
    var note = form.querySelector(".no-js-note");
    if (note) { note.hidden = true; }
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-variant-form]").forEach(function (form) {
      sync(form);
      form.addEventListener("change", function (ev) {
        if (ev.target && ev.target.name === "variant") { sync(form); }
      });
    });
  });
})();
