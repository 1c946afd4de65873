/* Tile picker: turns each [data-tile-picker] (templates/pages/includes/tile_picker.html) into
 * tiles to tap, keeps its text input in compact notation (RULES §1), and asks the rules engine
 * (/api/v1/engine/evaluate, /api/v1/engine/waits) what the hand is. Without this file the text
 * input still works. Every picker on a page is independent. No rule is computed here: the only
 * checks are the tile counts (4 copies of a kind, 14 tiles), everything else is the engine's. */
(function () {
  "use strict";
  if (window.TilePicker) { window.TilePicker.initAll(); return; }

  var SUITS = ["m", "p", "s"];
  var SUIT_MARK = { "m": "m", "p": "p", "s": "s", "万": "m", "萬": "m", "筒": "p", "饼": "p",
    "餅": "p", "铜": "p", "条": "s", "條": "s", "索": "s" };
  var SVGNS = "http://www.w3.org/2000/svg";

  function kind(tile) { return SUITS.indexOf(tile[1]) * 9 + (+tile[0] - 1); }
  function byKind(a, b) { return kind(a) - kind(b); }

  /* "123m45p" → ["1m","2m","3m","4p","5p"]; null when the text is not notation (the engine
   * then says why). */
  function parse(text) {
    var out = [], digits = [];
    var chars = Array.from(text || "");
    for (var i = 0; i < chars.length; i++) {
      var c = chars[i];
      if (/\s/.test(c)) continue;
      if (c >= "1" && c <= "9") { digits.push(c); continue; }
      var suit = SUIT_MARK[c] || SUIT_MARK[c.toLowerCase()];
      if (!suit || !digits.length) return null;
      digits.forEach(function (d) { out.push(d + suit); });
      digits = [];
    }
    return digits.length ? null : out;
  }

  /* ["1m","2m","5p"] → "12m5p" (sorted m, p, s then rank, as the engine writes it). */
  function format(tiles) {
    var sorted = tiles.slice().sort(byKind), text = "", run = "", suit = null;
    sorted.forEach(function (t) {
      if (suit && t[1] !== suit) { text += run + suit; run = ""; }
      suit = t[1]; run += t[0];
    });
    return suit ? text + run + suit : "";
  }

  /* The page's words (the JSON block templates/pages/includes/tile_picker.html writes once):
   * {t: {key: sentence}, names: {code: name}}. */
  var WORDS = null;
  function words() {
    if (WORDS === null) {
      var block = document.getElementById("tile-picker-words");
      try { WORDS = block ? JSON.parse(block.textContent) : {}; } catch (e) { WORDS = {}; }
      WORDS.t = WORDS.t || {}; WORDS.names = WORDS.names || {};
    }
    return WORDS;
  }

  function fill(template, values) {
    return (template || "").replace(/\{(\w+)\}/g, function (m, k) {
      return values[k] === undefined ? m : values[k];
    });
  }

  /* --- drawing: a tile face as inline SVG (30 × 40) -------------------------------------- */
  function el(name, attrs, parent) {
    var node = document.createElementNS(SVGNS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(node);
    return node;
  }
  // The faces are the server's drawing (pages/tilefaces.py), written once on the page as a
  // sprite of <symbol id="tile-face-5s">: a tile shows its face by <use>, never drawn here.
  function drawTile(tile) {
    var svg = el("svg", { viewBox: "0 0 30 40", "aria-hidden": "true", focusable: "false", "class": "tp-face" });
    el("use", { href: "#tile-face-" + tile }, svg);
    return svg;
  }

  /* --- one picker ------------------------------------------------------------------------ */
  function Picker(root) {
    this.root = root;
    this.input = root.querySelector(".tp-input");
    this.winInput = root.querySelector(".tp-winning");
    this.result = root.querySelector(".tp-result");
    this.hand = [];
    this.win = null;
    this.choosing = false;
    this.seq = 0;
    this.timer = null;
    this.build();
    this.readInputs();
    this.render();
    this.refresh();
  }

  Picker.prototype.t = function (key, values) {
    var t = words().t;
    return fill(key in t ? t[key] : this.root.getAttribute("data-t-" + key), values || {});
  };
  Picker.prototype.json = function (attr, fallback) {
    try { var v = JSON.parse(this.root.getAttribute(attr) || ""); return v === "" || v === null ? fallback : v; }
    catch (e) { return fallback; }
  };
  Picker.prototype.melds = function () {
    var m = this.json("data-melds", []);
    return Array.isArray(m) ? m : [];
  };
  Picker.prototype.max = function () { return 14 - 3 * this.melds().length; };
  Picker.prototype.label = function (tile) { return this.t(tile[1], { rank: tile[0] }); };
  Picker.prototype.count = function (tile) {
    var n = this.hand.filter(function (t) { return t === tile; }).length + (this.win === tile ? 1 : 0);
    this.melds().forEach(function (m) {
      var tiles = parse(m && m.tile);
      if (tiles && tiles[0] === tile) n += m.kind === "kong" ? 4 : 3;
    });
    return n;
  };
  Picker.prototype.total = function () { return this.hand.length + (this.win ? 1 : 0); };

  Picker.prototype.build = function () {
    var self = this;
    var ui = document.createElement("div");
    ui.className = "tp-ui";
    ui.innerHTML =
      '<div class="tp-head"><span class="tp-title"></span><span class="tp-count"></span></div>' +
      '<div class="tp-picked" role="group"></div>' +
      '<div class="tp-tools"><button type="button" class="tp-choose" aria-pressed="false"></button>' +
      '<button type="button" class="tp-clear"></button></div>' +
      '<p class="tp-note" role="alert"></p>' +
      '<div class="tp-palette" role="group"></div>';
    this.root.insertBefore(ui, this.result);
    this.ui = ui;
    ui.querySelector(".tp-title").textContent = this.t("hand");
    this.picked = ui.querySelector(".tp-picked");
    this.picked.setAttribute("aria-label", this.t("hand"));
    this.note = ui.querySelector(".tp-note");
    this.countEl = ui.querySelector(".tp-count");
    var choose = ui.querySelector(".tp-choose");
    choose.textContent = this.t("choose");
    choose.addEventListener("click", function () {
      self.choosing = !self.choosing;
      choose.setAttribute("aria-pressed", String(self.choosing));
      self.say(self.choosing ? self.t("choose-help") : "");
    });
    this.chooseButton = choose;
    var clear = ui.querySelector(".tp-clear");
    clear.textContent = this.t("clear");
    clear.addEventListener("click", function () { self.hand = []; self.win = null; self.changed(); });
    var palette = ui.querySelector(".tp-palette");
    palette.setAttribute("aria-label", this.t("pick"));
    this.buttons = {};
    SUITS.forEach(function (suit) {
      var row = document.createElement("div");
      row.className = "tp-row tp-" + suit;
      for (var rank = 1; rank <= 9; rank++) {
        var tile = rank + suit;
        var b = self.tileButton(tile, self.label(tile));
        b.addEventListener("click", self.add.bind(self, tile));
        self.buttons[tile] = b;
        row.appendChild(b);
      }
      palette.appendChild(row);
    });
    this.input.addEventListener("input", function () {
      self.readInputs();
      if (self.moved) self.writeInputs(); // a 14th tile typed: it goes to the winning tile's field
      self.render(); self.refresh();
    });
    if (this.winInput) {
      this.winInput.addEventListener("input", function () { self.readInputs(); self.render(); self.refresh(); });
    }
    this.root.addEventListener("tilepicker:refresh", function () { self.render(); self.refresh(); });
  };

  Picker.prototype.tileButton = function (tile, label) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "tp-tile " + tile[1];
    b.setAttribute("data-tile", tile);
    b.setAttribute("aria-label", label);
    b.title = label;
    b.appendChild(drawTile(tile));
    var text = document.createElement("span");
    text.className = "tp-fallback";
    text.textContent = tile[0] + { m: "万", p: "筒", s: "条" }[tile[1]];
    b.appendChild(text);
    return b;
  };

  /* The state from the text inputs (typed, or given by the server). With a winning tile's
   * field, the hand's field holds the hand without it; a full hand typed there (14 tiles, 3
   * fewer per meld) gives its last tile to the winning field when that is empty, as the table
   * form reads it without script (pages/tables/forms.py: split_winning_tile). */
  Picker.prototype.readInputs = function () {
    var tiles = parse(this.input.value);
    this.invalidText = tiles === null;
    this.moved = false;
    if (tiles === null) return;
    var win = null;
    if (this.winInput) {
      var w = parse(this.winInput.value);
      win = w && w.length === 1 ? w[0] : null;
      if (!win && !this.winInput.value.trim() && tiles.length === this.max()) {
        win = tiles.pop(); this.moved = true;
      }
    } else if (tiles.length === this.max()) {
      win = tiles.pop(); // the last tile written is the one that won
    }
    this.hand = tiles;
    this.win = win;
  };

  Picker.prototype.writeInputs = function () {
    if (this.winInput) {
      this.input.value = format(this.hand);
      this.winInput.value = this.win || "";
    } else {
      this.input.value = format(this.hand.concat(this.win ? [this.win] : []));
    }
    this.invalidText = false;
  };

  Picker.prototype.say = function (text) { this.note.textContent = text; };

  Picker.prototype.add = function (tile) {
    if (this.count(tile) >= 4) { this.say(this.t("copies", { tile: this.label(tile) })); return; }
    var max = this.max();
    if (this.total() >= max) { this.say(this.t("full", { max: max })); return; }
    if (!this.win && this.hand.length === max - 1) this.win = tile;
    else this.hand.push(tile);
    this.say("");
    this.changed();
  };

  Picker.prototype.removeAt = function (index) {
    if (this.choosing) { // this tile won: the winning tile so far goes back to the hand
      var tile = this.hand.splice(index, 1)[0];
      if (this.win) this.hand.push(this.win);
      this.win = tile;
      this.choosing = false;
      this.chooseButton.setAttribute("aria-pressed", "false");
    } else {
      this.hand.splice(index, 1);
    }
    this.say("");
    this.changed();
  };

  Picker.prototype.changed = function () { this.writeInputs(); this.render(); this.refresh(); };

  Picker.prototype.render = function () {
    var self = this;
    this.hand.sort(byKind);
    this.picked.textContent = "";
    this.hand.forEach(function (tile, i) {
      var b = self.tileButton(tile, self.t("remove", { tile: self.label(tile) }));
      b.addEventListener("click", function () { self.removeAt(i); });
      self.picked.appendChild(b);
    });
    if (this.win) {
      var w = this.tileButton(this.win, this.t("remove", { tile: this.label(this.win) }) + " · " + this.t("winning"));
      w.classList.add("winning");
      w.addEventListener("click", function () { self.win = null; self.say(""); self.changed(); });
      this.picked.appendChild(w);
    }
    this.countEl.textContent = this.t("count", { n: this.total(), max: this.max() });
    Object.keys(this.buttons).forEach(function (tile) {
      self.buttons[tile].setAttribute("aria-disabled", String(self.count(tile) >= 4 || self.total() >= self.max()));
    });
    this.chooseButton.hidden = this.hand.length === 0;
  };

  /* --- asking the engine ----------------------------------------------------------------- */
  Picker.prototype.refresh = function () {
    var self = this;
    clearTimeout(this.timer);
    this.timer = setTimeout(function () { self.ask(); }, 120);
  };

  Picker.prototype.ask = function () {
    var max = this.max(), total = this.total(), body, url, kind;
    var base = { ruleset: this.json("data-ruleset", "qq") };
    var melds = this.melds();
    if (melds.length) base.melds = melds;
    var v = this.root.getAttribute("data-void");
    if (v) base.declared_void = v;
    var seq = ++this.seq;
    if (this.invalidText) { // what was typed is not notation: the engine says where
      url = this.root.getAttribute("data-waits-url"); kind = "waits";
      body = Object.assign(base, { concealed: this.input.value });
    } else if (total === max && this.win) {
      url = this.root.getAttribute("data-evaluate-url"); kind = "win";
      body = Object.assign(base, {
        concealed: format(this.hand), winning_tile: this.win,
        self_draw: this.root.getAttribute("data-self-draw") === "true",
        situation: this.json("data-situation", [])
      });
    } else if (total === max - 1) {
      url = this.root.getAttribute("data-waits-url"); kind = "waits";
      body = Object.assign(base, { concealed: format(this.hand.concat(this.win ? [this.win] : [])) });
    } else if (total > max) {
      this.show("short", null, '<p class="error">' + esc(this.t("full", { max: max })) + "</p>");
      return;
    } else {
      this.show("short", null, '<p class="muted">' + esc(this.t("short", { n: max - 1 - total })) + "</p>");
      return;
    }
    var self = this;
    this.root.classList.add("tp-busy");
    fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json",
        "X-CSRFToken": this.root.getAttribute("data-csrf") || "" },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (data) { return { ok: r.ok, data: data }; });
    }).then(function (answer) {
      if (seq !== self.seq) return;
      if (!answer.ok) return self.showErrors(answer.data);
      if (kind === "win") self.showWin(answer.data); else self.showWaits(answer.data);
    }).catch(function () {
      if (seq === self.seq) self.show("error", null, '<p class="error">' + esc(self.t("offline")) + "</p>");
    });
  };

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  Picker.prototype.show = function (kind, data, html) {
    this.root.classList.remove("tp-busy");
    this.result.innerHTML = html;
    this.result.setAttribute("data-kind", kind);
    this.root.dispatchEvent(new CustomEvent("tilepicker:result", { bubbles: true, detail: { kind: kind, data: data } }));
  };

  Picker.prototype.showErrors = function (data) {
    var errors = (data && data.errors) || [];
    var known = words().errors || {};
    var items = errors.map(function (e) {
      // the words the pages use for the code, then the engine's own (it says where)
      if (!known[e.code]) return "<li>" + esc(e.message) + "</li>";
      return "<li>" + esc(known[e.code]) + ' <small class="muted">' + esc(e.message) + "</small></li>";
    }).join("");
    this.show("error", data, '<div class="errors tp-errors"><ul>' + items + "</ul></div>");
  };

  Picker.prototype.name = function (code) {
    var names = words().names;
    return names[code] || this.json("data-names", {})[code] || code;
  };

  Picker.prototype.amount = function (n, unit) { return this.t(unit, { n: n }); };

  /* The engine's explanation lines as one expression (pages/words.py writes it the same way). */
  Picker.prototype.expression = function (win) {
    var self = this, unit = win.unit || "fan", terms = [], roots = [], rootsAt = -1, cap = null, bonus = 0;
    (win.lines || []).forEach(function (line, i) {
      if (line.code === "cap") cap = line;
      else if (line.value !== undefined && line[unit] === undefined) bonus += line.value;
      else if (i > 0 && line.code === "gen") {
        if (rootsAt < 0) { rootsAt = terms.length; terms.push(null); }
        roots.push(line);
      } else terms.push(self.lineName(line) + " " + self.amount(line[unit], unit));
    });
    if (rootsAt >= 0) {
      var steps = roots.map(function (r) { return r[unit]; });
      var amount = unit === "multiple" ? steps.reduce(function (a, b) { return a * b; }, 1)
        : steps.reduce(function (a, b) { return a + b; }, 0);
      var term = this.t(roots.length === 1 ? "root" : "roots", { n: roots.length });
      if (unit === "multiple" || amount !== roots.length) term += " " + this.amount(amount, unit);
      terms[rootsAt] = term;
    }
    var text = terms.join(unit === "multiple" ? " × " : " + ");
    if (terms.length > 1) text += " = " + this.amount(win.total, unit);
    if (cap) text += this.t("capped", { cap: this.amount(cap[unit], unit) });
    text += " → " + (win.value - bonus);
    if (bonus) text += " + " + this.t("bonus") + " " + bonus + " = " + win.value;
    return text;
  };

  Picker.prototype.lineName = function (line) {
    var zh = document.documentElement.lang.toLowerCase().indexOf("zh") === 0;
    return zh ? line.zh : line.zh + " (" + line.en + ")";
  };

  Picker.prototype.showWin = function (data) {
    if (!data.win) {
      this.show("not-win", data, '<p class="error tp-not-win">' + esc(this.t("not-win", { reason: this.t("r-" + data.reason) || data.reason })) + "</p>");
      return;
    }
    var pattern = data.lines && data.lines.length ? this.lineName(data.lines[0]) : this.name(data.pattern);
    this.show("win", data,
      '<p class="tp-pattern">' + esc(pattern) + ' <span class="tp-value">' + esc(data.value) + "</span></p>" +
      '<p class="tp-expression">' + esc(this.expression(data)) + "</p>" +
      '<p class="muted tp-per-payer">' + esc(this.t("per-payer")) + "</p>");
  };

  Picker.prototype.showWaits = function (data) {
    var self = this, html;
    if (data.huazhu) html = '<p class="error">' + esc(this.t("huazhu")) + "</p>";
    else if (!data.ready) html = '<p class="error">' + esc(this.t("not-ready")) + "</p>";
    else {
      html = '<p class="tp-waits-title">' + esc(this.t("waits")) + "</p><ul class=\"tp-waits\">" +
        data.waits.map(function (w) {
          return '<li><span class="tp-wait-tile">' + esc(self.label(w.tile)) + "</span> " +
            esc(self.name(w.pattern)) + ' <span class="tp-value">' + esc(w.value) + "</span></li>";
        }).join("") + "</ul>";
      if (data.chajiao_value !== null && data.chajiao_value !== undefined) {
        html += '<p class="muted">' + esc(this.t("chajiao", { value: data.chajiao_value })) + "</p>";
      }
    }
    this.show("waits", data, html);
  };

  /* A control with data-tp-set="data-ruleset" (or "data-self-draw") sets that attribute on every
   * picker of its form and asks again: the calculator's preset and 自摸 controls. */
  document.addEventListener("change", function (e) {
    var control = e.target, attr = control.getAttribute && control.getAttribute("data-tp-set");
    if (!attr || !control.form) return;
    var value = control.type === "checkbox" ? String(control.checked) : JSON.stringify(control.value);
    control.form.querySelectorAll("[data-tile-picker]").forEach(function (root) {
      root.setAttribute(attr, value);
      root.dispatchEvent(new CustomEvent("tilepicker:refresh"));
    });
  });

  function initAll() {
    document.querySelectorAll("[data-tile-picker]").forEach(function (root) {
      if (root.tilePicker) return;
      root.tilePicker = new Picker(root);
      root.classList.add("tp-ready");
    });
  }

  window.TilePicker = { initAll: initAll, parse: parse, format: format, drawTile: drawTile };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", initAll);
  else initAll();
})();
