/* Tournament pages. The printed seating: a Print button. The projector: it scrolls the board
   by itself (slower / faster / pause), sets the text size and the background, and reads the
   board again every data-refresh seconds, keeping its place; the settings stay in this browser
   (localStorage). Without JavaScript the projector reloads itself (<noscript> meta refresh). */
(function () {
  "use strict";

  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });

  var body = document.body;
  if (!body.classList.contains("projector")) return;

  var root = document.documentElement;
  var scroller = document.getElementById("proj-scroll");
  var SPEEDS = [10, 20, 35, 50, 75, 110, 160]; // pixels a second
  var SIZES = [0.7, 0.85, 1, 1.2, 1.45, 1.75, 2.1];
  var HOLD_TOP = 4000, HOLD_END = 5000; // ms at the top and at the end before moving on

  function load(key, fallback) {
    try {
      var v = window.localStorage.getItem("xz.projector." + key);
      return v === null ? fallback : JSON.parse(v);
    } catch (e) { return fallback; }
  }
  function save(key, value) {
    try { window.localStorage.setItem("xz.projector." + key, JSON.stringify(value)); } catch (e) { /* private mode */ }
  }
  function clamp(n, lo, hi) { n = Number(n); return isNaN(n) ? lo : Math.max(lo, Math.min(hi, n)); }

  var state = {
    speed: clamp(load("speed", 2), 0, SPEEDS.length - 1),
    size: clamp(load("size", 2), 0, SIZES.length - 1),
    paused: load("paused", false) === true,
    light: load("light", false) === true
  };

  document.querySelectorAll("[data-js]").forEach(function (el) { el.hidden = false; });
  var pause = document.querySelector("[data-pause]");
  var theme = document.querySelector("[data-theme]");
  var speedValue = document.querySelector("[data-speed-value]");

  function apply() {
    root.style.setProperty("--proj-scale", String(SIZES[state.size]));
    root.classList.toggle("light", state.light);
    if (pause) pause.setAttribute("aria-pressed", String(state.paused));
    if (theme) theme.setAttribute("aria-pressed", String(state.light));
    if (speedValue) speedValue.textContent = state.paused ? "‖" : (state.speed + 1) + "/" + SPEEDS.length;
    save("speed", state.speed); save("size", state.size);
    save("paused", state.paused); save("light", state.light);
  }

  document.querySelectorAll("[data-speed]").forEach(function (b) {
    b.addEventListener("click", function () {
      state.speed = clamp(state.speed + Number(b.dataset.speed), 0, SPEEDS.length - 1);
      state.paused = false;
      apply();
    });
  });
  document.querySelectorAll("[data-size]").forEach(function (b) {
    b.addEventListener("click", function () {
      state.size = clamp(state.size + Number(b.dataset.size), 0, SIZES.length - 1);
      apply();
    });
  });
  if (pause) pause.addEventListener("click", function () { state.paused = !state.paused; apply(); });
  if (theme) theme.addEventListener("click", function () { state.light = !state.light; apply(); });
  document.addEventListener("keydown", function (e) {
    if (e.target && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
    if (e.key === " " && !(e.target && /^(BUTTON|A)$/.test(e.target.tagName))) { state.paused = !state.paused; e.preventDefault(); }
    else if (e.key === "+" || e.key === "=") state.size = clamp(state.size + 1, 0, SIZES.length - 1);
    else if (e.key === "-") state.size = clamp(state.size - 1, 0, SIZES.length - 1);
    else if (e.key === "ArrowUp") state.speed = clamp(state.speed + 1, 0, SPEEDS.length - 1);
    else if (e.key === "ArrowDown") state.speed = clamp(state.speed - 1, 0, SPEEDS.length - 1);
    else return;
    apply();
  });

  // the controls show while the mouse moves or a control has the focus, and fade after
  var sleep = null;
  function wake() {
    body.classList.add("awake");
    clearTimeout(sleep);
    sleep = setTimeout(function () { body.classList.remove("awake"); }, 3000);
  }
  document.addEventListener("mousemove", wake);
  document.addEventListener("touchstart", wake, { passive: true });

  // auto-scroll: down at the chosen speed, a pause at the end, back to the top, a pause
  var pos = scroller.scrollTop, last = null, holdUntil = 0, phase = "top";
  function step(now) {
    if (last === null) { last = now; holdUntil = now + HOLD_TOP; }
    var dt = Math.min((now - last) / 1000, 0.25);
    last = now;
    var max = scroller.scrollHeight - scroller.clientHeight;
    if (state.paused || max <= 0) {
      pos = scroller.scrollTop;
    } else if (now >= holdUntil) {
      if (phase === "end") {
        pos = 0; phase = "top"; holdUntil = now + HOLD_TOP;
      } else {
        phase = "down";
        pos = Math.min(pos + SPEEDS[state.speed] * dt, max);
        if (pos >= max) { phase = "end"; holdUntil = now + HOLD_END; }
      }
      scroller.scrollTop = pos;
    }
    window.requestAnimationFrame(step);
  }
  apply();
  window.requestAnimationFrame(step);

  // refresh: read the page again and put in its board, stamp and clock, keeping the scroll place
  var seconds = Number(body.dataset.refresh) || 30;
  function refresh() {
    window.fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        ["proj-board", "proj-stamp", "proj-clock"].forEach(function (id) {
          var fresh = doc.getElementById(id), here = document.getElementById(id);
          if (fresh && here) here.innerHTML = fresh.innerHTML;
        });
        var max = scroller.scrollHeight - scroller.clientHeight;
        pos = Math.min(pos, Math.max(max, 0));
        scroller.scrollTop = pos;
      })
      .catch(function () {
        var offline = document.querySelector("[data-offline]");
        if (offline) offline.hidden = false;
      });
  }
  setInterval(refresh, seconds * 1000);
  // and at once when the tournament changes (live.js, the page's live channel)
  document.addEventListener("live:changed", refresh);
})();
