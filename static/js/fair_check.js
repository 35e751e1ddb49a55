/* "Check this deal": the replay page's deal recomputed in the browser, with Web Crypto
   (HMAC-SHA256, SHA-256) and exactly the recipe of game/engine/fair.py (docs/TABLES.md,
   "Fairness"): no library, no network. The page gives the revealed seeds and the cards
   as dealt in data- attributes (#fair-check, .replay-hands [data-deal]); this file
   compares them and writes "matches" or "does not match" beside each hand (backgammon's
   replay: beside the game's throws, [data-dice]).
   window.BaithakFair exposes the recipe (deal, dice, sha256Hex, chainMatches) for the
   browser tests, which compare it with the Python engine. */
(function () {
  "use strict";
  var enc = new TextEncoder();

  function hex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function sha256Hex(text) {
    return crypto.subtle.digest("SHA-256", enc.encode(text)).then(hex);
  }

  // The stream of 32-bit big-endian integers: HMAC-SHA256(server_seed, msg + ":" + counter).
  function Stream(key, msg) {
    this.key = key; this.msg = msg; this.counter = 0; this.buffer = [];
  }
  Stream.prototype.next = async function () {
    if (this.buffer.length === 0) {
      var block = await crypto.subtle.sign("HMAC", this.key, enc.encode(this.msg + ":" + this.counter));
      var view = new DataView(block);
      for (var i = 0; i < 32; i += 4) { this.buffer.push(view.getUint32(i, false)); }
      this.counter += 1;
    }
    return this.buffer.shift();
  };

  async function below(ints, bound) {  // unbiased: reject the top sliver of 2**32
    var limit = Math.floor(4294967296 / bound) * bound;
    for (;;) {
      var x = await ints.next();
      if (x < limit) { return x % bound; }
    }
  }

  async function stream(serverSeed, clientSeeds, n, purpose) {
    var key = await crypto.subtle.importKey(
      "raw", enc.encode(serverSeed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return new Stream(key, purpose + ":" + n + ":" + clientSeeds.join(":"));
  }

  async function deal(serverSeed, clientSeeds, n) {
    var deck = [];
    "SHDC".split("").forEach(function (s) {
      "AKQJT98765432".split("").forEach(function (r) { deck.push(r + s); });
    });
    var ints = await stream(serverSeed, clientSeeds, n, "deal");
    for (var i = 51; i > 0; i--) {  // Fisher–Yates
      var j = await below(ints, i + 1);
      var t = deck[i]; deck[i] = deck[j]; deck[j] = t;
    }
    return [0, 1, 2, 3].map(function (s) {  // one card to each seat in turn, seat 0 first
      return deck.filter(function (_c, k) { return k % 4 === s; });
    });
  }

  async function dice(serverSeed, clientSeeds, n) {
    var ints = await stream(serverSeed, clientSeeds, n, "dice");
    var a = await below(ints, 6);
    var b = await below(ints, 6);
    return [a + 1, b + 1];
  }

  // Seed k (counted from 0) hashes k + 1 times to the commitment shown before the first deal.
  async function chainMatches(seed, commitment, counter) {
    var s = seed;
    for (var i = 0; i <= counter; i++) { s = await sha256Hex(s); }
    return s === commitment;
  }

  window.BaithakFair = { deal: deal, dice: dice, sha256Hex: sha256Hex, chainMatches: chainMatches };

  function say(el, ok, box) {
    el.textContent = ok ? "\u2714 " + box.dataset.matches : "\u2718 " + box.dataset.mismatch;
    el.classList.toggle("fair-ok", ok);
    el.classList.toggle("fair-bad", !ok);
  }

  async function check(box) {
    var status = box.querySelector("[data-fair-status]");
    if (!window.crypto || !crypto.subtle) {
      status.textContent = box.dataset.insecure;
      return;
    }
    status.textContent = box.dataset.checking;
    var seed = box.dataset.serverSeed;
    var clients = JSON.parse(box.dataset.clientSeeds);
    var counter = parseInt(box.dataset.counter, 10);
    var shift = parseInt(box.dataset.shift || "0", 10);
    var chainOk = await chainMatches(seed, box.dataset.commitment, counter);
    var all = chainOk;
    if (box.dataset.dice !== undefined) {  // backgammon: throw n of the game is dice(seed, clients, n)
      var throws = box.dataset.dice.split(" ").filter(Boolean);
      var same = true;
      for (var n = 0; n < throws.length; n++) {
        same = same && (await dice(seed, clients, n)).join("-") === throws[n];
      }
      all = all && same;
      say(box.querySelector("[data-dice-check]"), same, box);
    } else {
      var hands = await deal(seed, clients, counter);
      document.querySelectorAll("[data-deal]").forEach(function (section) {
        var seat = parseInt(section.dataset.seat, 10);
        var ok = hands[(seat + shift) % 4].join(" ") === section.dataset.deal;
        all = all && ok;
        say(section.querySelector("[data-deal-check]"), ok, box);
      });
    }
    say(box.querySelector("[data-chain-check]"), chainOk, box);
    status.textContent = all ? box.dataset.allMatch : box.dataset.someMismatch;
    box.dataset.result = all ? "matches" : "does-not-match";
  }

  function run(button) {
    var box = document.getElementById("fair-check");
    button.disabled = true;
    check(box).catch(function () {
      box.querySelector("[data-fair-status]").textContent = box.dataset.insecure;
    }).finally(function () { button.disabled = false; });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-check-deal]");
    if (button) { run(button); }
  });

  // The table's "Check this deal" link lands here with #fair-check: the check runs at once.
  if (location.hash === "#fair-check") {
    var button = document.querySelector("[data-check-deal]");
    if (button) { run(button); }
  }
})();
