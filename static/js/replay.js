// A finished Court Piece hand, card by card (the replay page's stepper).
// The page carries the steps as JSON (#replay-data, made by game/courtpiece/steps.py, every
// word already in the page's language); this script draws one step at a time: the four
// hands shrinking, the trick on the table, the running score, and says each step in a live
// region. Buttons, ← → Home End, and a link to each step (#step-N, or ?step=N).
// "Show the analysis" fetches /api/tables/<id>/analysis and marks each card with its
// double-dummy cost (the better cards on hover and focus). No inline script or style.
(function () {
  "use strict";
  var root = document.getElementById("stepper");
  var source = document.getElementById("replay-data");
  if (!root || !source) return;
  var data = JSON.parse(source.textContent);
  var steps = data.steps;
  var words = data.words;
  var total = steps.length;
  var current = 0;
  var marks = null; // the analysis' entry for each step (1..total), once loaded
  var SUITS = "SHDC";
  var PIPS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var RANKS = "AKQJT98765432";

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // A worth to one decimal place, halves up: the analysis stores hundredths (6.45), counted
  // in whole hundredths first so 6.45 is never 6.4499… here.
  function tenths(v) { return Math.round(Math.round(v * 100) / 10) / 10; }
  function rankText(code) { return code[0] === "T" ? "10" : code[0]; }

  function cardNames(codes) {
    return codes.map(function (c) { return words.names[c] || c; }).join(", ");
  }

  function face(code) {
    var wrap = el("span", "card-static");
    wrap.setAttribute("role", "img");
    wrap.setAttribute("aria-label", words.names[code] || code);
    var found = document.querySelector('.replay-hands [data-code="' + code + '"] svg');
    if (found) wrap.appendChild(found.cloneNode(true));
    else wrap.textContent = rankText(code) + PIPS[code[1]];
    return wrap;
  }

  function costText(mark) {
    if (!mark) return "";
    if (mark.cost === 0) return "=";
    return "\u2212" + mark.cost;
  }

  function verdict(mark) {
    if (!mark) return "";
    var parts = [];
    if (mark.cost === undefined) { /* no double-dummy mark: the knowable verdict only */ }
    else if (mark.cost === 0) parts.push(words.best);
    else {
      var better = mark.best_cards.map(function (c) { return words.names[c] || c; }).join(", ");
      parts.push(words.cost[String(mark.cost)].replace("%(better)s", better));
    }
    if (mark.knowable) {
      var k = mark.knowable;
      // The cost as the difference of the two worths shown to a tenth (the mistakes
      // puzzle says "worth 6.5 ... 5.2: it cost 1.3", tutorials/mistakes.py): the same
      // number on both pages.
      var diff = tenths(k.best) - tenths(k.played);
      if (diff >= 0.05) {
        parts.push(words.knowable_worse.text
          .replace("%(better)s", cardNames(k.better))
          .replace("%(diff)s", diff.toFixed(1)));
      } else parts.push(words.knowable_same);
    }
    return parts.join(" ");
  }

  // A cost badge that shows the better cards on hover and on keyboard focus.
  function badge(mark) {
    var b = el("span", "cost" + (mark.cost > 0 ? " lost" : ""));
    b.tabIndex = 0;
    var sign = el("span", "cost-mark", costText(mark));
    sign.setAttribute("dir", "ltr"); // "−1", not "1−", in Urdu's right-to-left lines
    b.appendChild(sign);
    b.setAttribute("aria-label", verdict(mark));
    var tip = el("span", "cost-tip", verdict(mark));
    tip.setAttribute("aria-hidden", "true");
    b.appendChild(tip);
    return b;
  }

  function drawHands(k) {
    var played = {};
    for (var i = 0; i < k; i++) played[steps[i].card] = true;
    data.seats.forEach(function (s) {
      var box = root.querySelector('.seat[data-seat="' + s.seat + '"] .step-hand');
      box.textContent = "";
      var cards = data.hands[s.seat].filter(function (c) { return !played[c]; });
      var list = el("ul", "step-suits");
      list.setAttribute("aria-label", s.name + ": " + (cards.length ? cardNames(cards) : "\u2014"));
      SUITS.split("").forEach(function (suit) {
        var ofSuit = cards.filter(function (c) { return c[1] === suit; });
        ofSuit.sort(function (a, b) { return RANKS.indexOf(a[0]) - RANKS.indexOf(b[0]); });
        var row = el("li", "suit-row suit-" + suit);
        row.setAttribute("aria-hidden", "true");
        row.appendChild(el("span", "pip", PIPS[suit]));
        row.appendChild(el("span", "ranks", ofSuit.length ? ofSuit.map(rankText).join(" ") : "\u2014"));
        list.appendChild(row);
      });
      box.appendChild(list);
    });
  }

  function placeOf(seat) {
    for (var i = 0; i < data.seats.length; i++) if (data.seats[i].seat === seat) return data.seats[i].place;
    return "bottom";
  }

  function drawTrick(k) {
    root.querySelectorAll(".step-trick .slot").forEach(function (slot) { slot.textContent = ""; });
    if (k === 0) return;
    var trick = steps[k - 1].trick;
    for (var i = 0; i < k; i++) {
      if (steps[i].trick !== trick) continue;
      var slot = root.querySelector(".step-trick .slot-" + placeOf(steps[i].seat));
      var card = face(steps[i].card);
      if (i === k - 1) card.classList.add("last");
      if (steps[k - 1].won_by !== null && steps[k - 1].won_by === steps[i].seat) card.classList.add("won");
      slot.appendChild(card);
      if (marks && marks[i + 1] && marks[i + 1].cost !== undefined) slot.appendChild(badge(marks[i + 1]));
    }
  }

  function show(k, announce) {
    current = Math.max(0, Math.min(total, k));
    drawHands(current);
    drawTrick(current);
    var step = current ? steps[current - 1] : data.start;
    root.querySelector(".step-score").textContent = step.score;
    root.querySelector(".step-say").textContent = step.say;
    var mark = marks && current ? marks[current] : null;
    var v = root.querySelector(".step-verdict");
    v.hidden = !mark;
    v.textContent = verdict(mark);
    v.classList.toggle("lost", !!(mark && (mark.cost > 0 || (mark.knowable && tenths(mark.knowable.best) - tenths(mark.knowable.played) >= 0.05))));
    var count = root.querySelector(".step-count");
    count.textContent = words.step.replace("%(n)s", current).replace("%(total)s", total);
    count.href = "#step-" + current;
    root.querySelector('[data-go="first"]').disabled = current === 0;
    root.querySelector('[data-go="prev"]').disabled = current === 0;
    root.querySelector('[data-go="next"]').disabled = current === total;
    root.querySelector('[data-go="last"]').disabled = current === total;
    document.querySelectorAll(".replay-tricks li.current").forEach(function (li) { li.classList.remove("current"); });
    var inList = document.querySelector('.replay-tricks li[data-step="' + current + '"]');
    if (inList) inList.classList.add("current");
    if (announce && window.history && window.history.replaceState) {
      var params = new URLSearchParams(window.location.search);
      params.delete("step");
      var query = params.toString();
      window.history.replaceState(null, "", window.location.pathname + (query ? "?" + query : "") + "#step-" + current);
    }
    if (announce) {
      root.querySelector("[data-live]").textContent =
        count.textContent + ". " + step.say + " " + step.score + (mark ? " " + verdict(mark) : "");
    }
  }

  function go(where) {
    if (where === "first") show(0, true);
    else if (where === "prev") show(current - 1, true);
    else if (where === "next") show(current + 1, true);
    else if (where === "last") show(total, true);
  }

  root.querySelectorAll("[data-go]").forEach(function (button) {
    button.addEventListener("click", function () {
      go(button.getAttribute("data-go"));
      if (button.disabled) {
        var other = root.querySelector(button.getAttribute("data-go") === "next" || button.getAttribute("data-go") === "last" ? '[data-go="prev"]' : '[data-go="next"]');
        if (other) other.focus();
      }
    });
  });

  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var where = KEYS[event.key];
    if (!where) return;
    var target = event.target;
    var inside = root.contains(target);
    var idle = target === document.body || target === document.documentElement;
    if (!inside && !idle) return;
    if (target.matches && target.matches("input, textarea, select")) return;
    event.preventDefault();
    go(where);
  });

  function markTrickList() {
    document.querySelectorAll(".replay-tricks li[data-step]").forEach(function (li) {
      var mark = marks[Number(li.getAttribute("data-step"))];
      var old = li.querySelector(".cost");
      if (old) old.remove();
      if (mark && mark.cost !== undefined) li.appendChild(badge(mark));
    });
  }

  function showAnalysis(answer) {
    var box = root.querySelector(".analysis-box");
    box.hidden = false;
    var note = box.querySelector(".analysis-note");
    var par = box.querySelector(".par");
    par.textContent = "";
    if (answer.kind === "unsupported") {
      note.textContent = answer.reason;
    } else {
      note.textContent = "";
      if (answer.par) {
        var texts = [];
        [0, 1].forEach(function (team) {
          var text = words.par[team + ":" + answer.par[team]];
          if (text) texts.push(text);
        });
        par.textContent = texts.join(" ");
      }
    }
    marks = {};
    (answer.cards || []).forEach(function (entry, i) {
      if (steps[i] && steps[i].card === entry.card) marks[i + 1] = entry;
    });
    markTrickList();
    show(current, true);
    if (data.me !== null) loadKnowable();
  }

  // The knowable verdicts on the viewer's own cards: slower (deals sampled from what the
  // seat knew, each solved), so asked for after the double-dummy marks are shown.
  function loadKnowable() {
    var note = root.querySelector(".knowable-note");
    note.hidden = false;
    note.textContent = words.knowable_loading;
    fetchAnalysis(root.getAttribute("data-analysis") + "&knowable=1", 30)
      .then(function (answer) {
        (answer.cards || []).forEach(function (entry) {
          for (var i = 0; i < total; i++) {
            if (steps[i].seat === entry.seat && steps[i].card === entry.card) {
              marks[i + 1] = marks[i + 1] || {};
              marks[i + 1].knowable = entry;
            }
          }
        });
        note.textContent = (answer.cards || []).length ? words.knowable_done : words.knowable_none;
        markTrickList();
        show(current, false);
      })
      .catch(function () { note.textContent = words.failed; });
  }

  // The analysis may be being computed by the server right now (it starts as soon as
  // the hand ends): a 503 with Retry-After asks again after that many seconds, a while.
  function fetchAnalysis(url, triesLeft) {
    return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (response.status === 503 && triesLeft > 0) {
          var wait = Number(response.headers.get("Retry-After")) || 2;
          return new Promise(function (resolve) { setTimeout(resolve, wait * 1000); })
            .then(function () { return fetchAnalysis(url, triesLeft - 1); });
        }
        if (!response.ok) throw new Error(String(response.status));
        return response.json();
      });
  }

  var analyse = root.querySelector("[data-analyse]");
  analyse.addEventListener("click", function () {
    analyse.disabled = true;
    var box = root.querySelector(".analysis-box");
    box.hidden = false;
    box.querySelector(".analysis-note").textContent = words.loading;
    root.querySelector("[data-live]").textContent = words.loading;
    fetchAnalysis(root.getAttribute("data-analysis"), 30)
      .then(function (answer) {
        showAnalysis(answer);
        analyse.hidden = true;
      })
      .catch(function () {
        box.querySelector(".analysis-note").textContent = words.failed;
        root.querySelector("[data-live]").textContent = words.failed;
        analyse.disabled = false;
      });
  });

  function fromAddress() {
    var m = /^#step-(\d+)$/.exec(window.location.hash);
    if (m) return Number(m[1]);
    var q = /[?&]step=(\d+)/.exec(window.location.search);
    return q ? Number(q[1]) : 0;
  }
  window.addEventListener("hashchange", function () { show(fromAddress(), true); });

  root.hidden = false;
  show(fromAddress(), false);
})();
