/* The round clock: every [data-ends-at] counts down to its time (an ISO date the server gave),
   each second, as h:mm:ss or m:ss; at 0 it says data-time-up. Without JavaScript the time left
   the page was served with stays. A live page's new clock is counted down too. */
(function () {
  "use strict";
  // read again each second: a live page (live.js) may have put in a new clock, or a first one
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-ends-at]").forEach(function (clock) {
      var left = Math.max(0, Math.ceil((Date.parse(clock.dataset.endsAt) - now) / 1000));
      var text = clock.querySelector(".clock-left");
      if (!text) return;
      if (left === 0) {
        text.textContent = clock.dataset.timeUp;
        clock.classList.add("over");
        return;
      }
      var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      text.textContent = h ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
    });
  }
  tick();
  window.setInterval(tick, 1000);
})();
