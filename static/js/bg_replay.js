// A finished backgammon game, move by move (the replay page's stepper). The server drew
// the board after each checker play (game/backgammon/steps.py); this script shows one at
// a time with the buttons, ← → Home End and #step-N links, says each step in a live
// region, and "Show the analysis" fetches /api/tables/<id>/analysis (the "equity" form):
// each play's equity loss on the move list and under the board, blunders and errors
// marked, and both players' performance ratings; the cube decisions ("cube": double or
// not, take or drop) on their rows of the move list and on the board they were made on.
// No inline script or style.
(function () {
  "use strict";
  var root = document.getElementById("bg-stepper");
  var source = document.getElementById("bg-replay-data");
  if (!root || !source) return;
  var data = JSON.parse(source.textContent);
  var words = data.words;
  var items = Array.prototype.slice.call(root.querySelectorAll(".bg-steps > li"));
  var total = items.length - 1;
  var current = 0;
  var losses = null; // move number -> the analysis' entry
  var cubes = null; // "move:seat:action" -> the analysis' cube entry

  function kindOf(entry) {
    if (entry.equity_loss > 0.08) return "blunder";
    if (entry.equity_loss > 0.04) return "error";
    return "";
  }

  function verdict(entry) {
    if (!entry) return "";
    if (entry.equity_loss === 0) return words.best;
    var text = words.loss.replace("%(loss)s", entry.equity_loss.toFixed(3)).replace("%(best)s", entry.best);
    var kind = kindOf(entry);
    if (kind) text += " " + words[kind];
    return text;
  }

  function cubeVerdict(entry) {
    var values = { "%(who)s": data.players[entry.seat], "%(action)s": words.actions[entry.action],
      "%(best)s": words.actions[entry.best], "%(loss)s": entry.equity_loss.toFixed(3) };
    var text = entry.equity_loss === 0 ? words.cube_best : words.cube_loss;
    Object.keys(values).forEach(function (key) { text = text.replace(key, values[key]); });
    var kind = kindOf(entry);
    if (kind) text += " " + words[kind];
    return text;
  }

  // The cube decisions made on the board this step shows (after checker play k).
  function cubeAt(k) {
    if (!cubes) return [];
    return Object.keys(cubes).filter(function (key) { return cubes[key].move === k; })
      .map(function (key) { return cubes[key]; });
  }

  function show(k, announce) {
    current = Math.max(0, Math.min(total, k));
    items.forEach(function (li, i) { li.hidden = i !== current; });
    var item = items[current];
    var move = Number(item.getAttribute("data-move"));
    var entry = losses ? losses[move] : null;
    var decided = cubeAt(move);
    var texts = (entry ? [verdict(entry)] : []).concat(decided.map(cubeVerdict));
    var v = item.querySelector(".step-verdict");
    v.hidden = texts.length === 0;
    v.textContent = texts.join(" ");
    v.classList.toggle("lost", !!(entry && kindOf(entry)) || decided.some(function (c) { return kindOf(c); }));
    var count = root.querySelector(".step-count");
    count.textContent = words.step.replace("%(n)s", current).replace("%(total)s", total);
    count.href = "#step-" + current;
    root.querySelector('[data-go="first"]').disabled = current === 0;
    root.querySelector('[data-go="prev"]').disabled = current === 0;
    root.querySelector('[data-go="next"]').disabled = current === total;
    root.querySelector('[data-go="last"]').disabled = current === total;
    if (announce) {
      if (window.history && window.history.replaceState) {
        window.history.replaceState(null, "", window.location.pathname + window.location.search + "#step-" + current);
      }
      root.querySelector("[data-live]").textContent =
        count.textContent + ". " + item.querySelector(".step-say").textContent + (texts.length ? " " + texts.join(" ") : "");
    }
  }

  function go(where) {
    if (where === "first") show(0, true);
    else if (where === "prev") show(current - 1, true);
    else if (where === "next") show(current + 1, true);
    else if (where === "last") show(total, true);
  }

  root.querySelectorAll("[data-go]").forEach(function (button) {
    button.addEventListener("click", function () { go(button.getAttribute("data-go")); });
  });
  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var where = KEYS[event.key];
    if (!where) return;
    var target = event.target;
    if (!root.contains(target) && target !== document.body && target !== document.documentElement) return;
    event.preventDefault();
    go(where);
  });

  function showAnalysis(answer) {
    var box = root.querySelector(".analysis-box");
    box.hidden = false;
    var note = box.querySelector(".analysis-note");
    note.textContent = answer.kind === "unsupported" ? answer.reason : "";
    losses = {};
    (answer.moves || []).forEach(function (entry) { losses[entry.move] = entry; });
    document.querySelectorAll(".bg-moves tr[data-move]").forEach(function (row) {
      var entry = losses[Number(row.getAttribute("data-move"))];
      var cell = row.querySelector(".loss");
      if (!entry || !cell) return;
      cell.textContent = entry.equity_loss.toFixed(3);
      var kind = kindOf(entry);
      if (kind) {
        row.classList.add(kind);
        cell.textContent += " (" + words[kind].replace(/[.\u06d4\u0964]$/, "") + ")";
      }
    });
    cubes = {};
    (answer.cube || []).forEach(function (entry) {
      cubes[entry.move + ":" + entry.seat + ":" + entry.action] = entry;
    });
    document.querySelectorAll(".bg-moves tr[data-cube]").forEach(function (row) {
      var entry = cubes[row.getAttribute("data-cube")];
      var cell = row.querySelector(".loss");
      if (!entry || !cell) return;
      cell.textContent = words.actions[entry.action] + ": " + entry.equity_loss.toFixed(3);
      var kind = kindOf(entry);
      if (kind) {
        row.classList.add(kind);
        cell.textContent += " (" + words[kind].replace(/[.\u06d4\u0964]$/, "") + ")";
      }
      if (entry.equity_loss > 0) cell.textContent += " · " + words.right.replace("%(best)s", words.actions[entry.best]);
    });
    var list = box.querySelector(".bg-ratings");
    list.textContent = "";
    (answer.rating || []).forEach(function (pr, seat) {
      if (pr === null || pr === undefined) return;
      var li = document.createElement("li");
      li.textContent = words.rating.replace("%(who)s", data.players[seat]).replace("%(pr)s", pr.toFixed(1));
      list.appendChild(li);
    });
    show(current, true);
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
      .then(function (answer) { showAnalysis(answer); analyse.hidden = true; })
      .catch(function () {
        box.querySelector(".analysis-note").textContent = words.failed;
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
