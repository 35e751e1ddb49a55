// The live table's few behaviours on top of htmx: countdown, roving focus over the legal
// cards (arrows move, Enter plays), auto-play of a forced card (the player's choice, kept
// in localStorage), the connection notice, a confirmation the player opened kept open
// across frames, the last hand's summary kept until the player moves or closes it, and a
// waiting table's list of seats kept live. Without JavaScript the deadline shows as text.
(function () {
  "use strict";
  var AUTO_KEY = "baithak.autoplayForced";
  var hadFocus = false;
  var lastCard = null;

  function live() { return document.getElementById("table-live"); }
  // The hand is laid out left to right in every language (a card's index is top left).
  function rtl(el) { return window.getComputedStyle(el).direction === "rtl"; }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("time.countdown").forEach(function (el) {
      var end = Date.parse(el.getAttribute("datetime"));
      if (isNaN(end)) { return; }
      var left = Math.max(0, Math.round((end - now) / 1000));
      var m = Math.floor(left / 60), s = left % 60;
      el.textContent = m + ":" + (s < 10 ? "0" : "") + s;
      el.classList.toggle("urgent", left <= 5);
    });
  }

  function cards() {
    var root = live();
    return root ? Array.prototype.slice.call(root.querySelectorAll(".hand-cards button.card")) : [];
  }

  function setRoving(target) {
    cards().forEach(function (b) { b.tabIndex = b === target ? 0 : -1; });
  }

  function initRoving() {
    var list = cards();
    if (!list.length) { return; }
    var keep = list.filter(function (b) { return b.dataset.action === lastCard; })[0];
    setRoving(keep || list[0]);
  }

  function onKey(ev) {
    var btn = ev.target.closest && ev.target.closest(".hand-cards button.card");
    if (!btn) { return; }
    var list = cards(), i = list.indexOf(btn), next = null;
    var forward = rtl(btn) ? "ArrowLeft" : "ArrowRight", back = rtl(btn) ? "ArrowRight" : "ArrowLeft";
    if (ev.key === forward || ev.key === "ArrowDown") { next = list[(i + 1) % list.length]; }
    else if (ev.key === back || ev.key === "ArrowUp") { next = list[(i - 1 + list.length) % list.length]; }
    else if (ev.key === "Home") { next = list[0]; }
    else if (ev.key === "End") { next = list[list.length - 1]; }
    if (next) { ev.preventDefault(); setRoving(next); next.focus(); lastCard = next.dataset.action; }
  }

  // After a new frame: keep keyboard players where they were (the old buttons are gone).
  function restoreFocus() {
    if (!hadFocus) { return; }
    var root = live();
    var active = document.activeElement;
    if (!root || (active !== root && root.contains(active))) { return; }
    // A button inside a closed <details> (the claim's confirmation) cannot take focus:
    // its <summary> can.
    var choices = Array.prototype.filter.call(
      root.querySelectorAll(".choices button, .choices summary"),
      function (el) { return el.getClientRects().length > 0; });
    var target = root.querySelector(".hand-cards button.card[tabindex='0']") ||
      choices[0] || root;
    if (target === root) { root.tabIndex = -1; }
    if (target === active) { return; }
    target.focus({ preventScroll: true });
  }

  function autoPlay() {
    var root = live(), box = document.getElementById("autoplay-forced");
    if (!root || !box || !box.checked || !root.dataset.forced) { return; }
    var version = root.dataset.version, action = root.dataset.forced;
    window.setTimeout(function () {
      var now = live();
      if (!now || now.dataset.version !== version) { return; }
      var btn = now.querySelector("button[data-action='" + action + "']");
      if (btn) { autoClicking = true; try { btn.click(); } finally { autoClicking = false; } }
    }, 900);
  }

  // A waiting table that starts: reload once, so the seat controls give way to the game.
  function statusChange() {
    var page = document.querySelector("[data-initial-status]"), root = live();
    if (page && root && page.dataset.initialStatus === "waiting" &&
        root.dataset.status && root.dataset.status !== "waiting") {
      window.location.reload();
    }
  }

  // An emote names its seat; put the player's name (as this page shows it) in front.
  function emoteNames() {
    document.querySelectorAll("#table-emote .emote-bubble").forEach(function (p) {
      var who = document.querySelector(".seat[data-seat='" + p.dataset.seat + "'] .who");
      var slot = p.querySelector(".emote-who");
      if (who && slot && !slot.textContent) { slot.textContent = who.textContent + ":"; }
    });
  }

  // A frame redraws the table; a confirmation the player had opened stays open.
  var openBefore = [], focusedIn = null;
  function rememberOpen() {
    var root = live();
    openBefore = root ? Array.prototype.map.call(
      root.querySelectorAll("details[data-keep-open][open]"),
      function (d) { return d.dataset.keepOpen; }) : [];
    var active = document.activeElement;
    var holder = active && active.closest && active.closest("details[data-keep-open]");
    focusedIn = holder ? holder.dataset.keepOpen : null;
  }
  function reopen() {
    var root = live();
    if (!root) { return; }
    openBefore.forEach(function (key) {
      var d = root.querySelector("details[data-keep-open='" + key + "']");
      if (d) { d.open = true; }
    });
    var again = focusedIn && root.querySelector("details[data-keep-open='" + focusedIn + "'] summary");
    if (again) { again.focus({ preventScroll: true }); }
  }

  // The summary of the hand that just ended stays until the player themself acts in the
  // next hand or closes it: bots may play the next hand's first cards within seconds, and a
  // frame without the slot would otherwise take it away unread (a newcomer saw that).
  var keptSummary = null, closedSummaries = {}, autoClicking = false;
  function summarySlot(root) { return root ? root.querySelector(".hand-summary-slot") : null; }
  function rememberSummary() {
    var slot = summarySlot(live());
    // Kept even while its summary is still being fetched: bots quick to play the next
    // hand's first card took the slot away before it was filled, and the result never showed.
    keptSummary = slot && !closedSummaries[slot.id] && (slot.querySelector(".hand-summary") ||
      slot.hasAttribute("hx-get")) ? slot : keptSummary;
  }
  function closeSummary(slot) {
    if (!slot) { return; }
    closedSummaries[slot.id] = true;
    // Hidden, not removed: the frames of calling and bidding carry a slot of the same id
    // (hx-preserve keeps this element), which would otherwise fetch the summary again.
    slot.hidden = true;
    if (keptSummary === slot) { keptSummary = null; }
  }
  function restoreSummary() {
    var root = live(), slot = summarySlot(root);
    if (!root) { return; }
    if (slot) {
      if (closedSummaries[slot.id]) { slot.hidden = true; }
      if (keptSummary && keptSummary.id !== slot.id) { keptSummary = null; }  // a newer hand ended
      return;
    }
    if (!keptSummary || closedSummaries[keptSummary.id]) { return; }
    var felt = root.querySelector(".felt");  // laid over the felt, first in it
    if (felt) { felt.insertBefore(keptSummary, felt.firstChild); }
  }
  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest && ev.target.closest("[data-close-summary]");
    if (!btn) { return; }
    closeSummary(btn.closest(".hand-summary-slot"));
    var root = live(), next = root && (root.querySelector(".hand-cards button.card[tabindex='0']") || root);
    if (next === root) { root.tabIndex = -1; }
    if (next) { next.focus({ preventScroll: true }); }
  });
  // Any move the player sends (not an emote, not a forced card played for them) ends it.
  document.addEventListener("submit", function (ev) {
    var form = ev.target, root = live();
    if (autoClicking || !root || !form.matches || !form.matches("form[ws-send]") || !root.contains(form)) { return; }
    var type = form.querySelector("input[name='type']");
    if (type && type.value === "action") { closeSummary(summarySlot(root)); }
  }, true);

  // A waiting table: the frame's doorbell says who sits where now; when that is not what
  // the list of seats shows (a friend sat down, someone left), fetch the list again. Its
  // forms carry this page's CSRF token and invite, which no socket frame can draw.
  function seatsChanged() {
    var bell = document.getElementById("seats-bell"), list = document.getElementById("waiting-seats");
    if (!bell || !list || !window.htmx || !list.dataset.url || bell.dataset.seats === list.dataset.seats) { return; }
    list.dataset.seats = bell.dataset.seats;  // asked once; the new list brings its own
    window.htmx.ajax("GET", list.dataset.url, { target: list, swap: "outerHTML" });
  }

  // A tap on a card that may not be played: say why (the frame carries the reason, in
  // the page's language, on the card: data-why), over the hand, for a few seconds.
  var whyTimer = null;
  document.addEventListener("click", function (ev) {
    var root = live(), card = ev.target.closest && ev.target.closest(".hand-cards .card[data-why]");
    var box = document.getElementById("card-why");
    if (!root || !card || !box || !root.contains(card)) { return; }
    box.textContent = card.dataset.why;
    box.classList.add("shown");
    window.clearTimeout(whyTimer);
    whyTimer = window.setTimeout(function () {
      var now = document.getElementById("card-why");
      if (now) { now.classList.remove("shown"); now.textContent = ""; }
    }, 4000);
  });

  function afterFrame() { restoreSummary(); reopen(); initRoving(); restoreFocus(); autoPlay(); tick(); emoteNames(); seatsChanged(); statusChange(); }

  document.addEventListener("focusin", function (ev) {
    var root = live();
    hadFocus = !!(root && root.contains(ev.target));
    var b = ev.target.closest && ev.target.closest(".hand-cards button.card");
    if (b) { lastCard = b.dataset.action; setRoving(b); }
  });
  document.addEventListener("keydown", onKey);
  document.addEventListener("htmx:wsBeforeMessage", function () { rememberOpen(); rememberSummary(); });
  document.addEventListener("htmx:wsAfterMessage", function () { window.setTimeout(afterFrame, 0); });
  document.addEventListener("htmx:wsOpen", function () { setConn(""); });
  document.addEventListener("htmx:wsClose", function () { setConn("closed"); });

  function setConn(state) {
    var el = document.getElementById("conn-status");
    if (el) { el.textContent = state ? el.dataset.closed : ""; }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("autoplay-forced");
    if (box) {
      box.checked = window.localStorage.getItem(AUTO_KEY) === "1";
      box.addEventListener("change", function () {
        window.localStorage.setItem(AUTO_KEY, box.checked ? "1" : "0");
        autoPlay();
      });
    }
    afterFrame();
    window.setInterval(tick, 500);
  });
})();
