/* A live page (templates/pages/includes/live.html): it follows its channels over server-sent
   events and, told that what it shows changed, reads itself again and puts in the parts marked
   data-live-region (each with an id); a form field marked data-live-stale that the page now
   renders otherwise shows its notice. A part holding what was typed and not sent, or the field
   being typed in, is left as it is. After a reconnection, or when the page is
   shown again, it reads itself once more: an event missed is never a stale page. */
(function () {
  "use strict";
  var follow = document.getElementById("live-follow");
  if (!follow || !window.EventSource || !window.fetch) { return; }
  var timer = null;
  var reading = false;
  var again = false;

  function say(state) {
    follow.setAttribute("data-state", state);
    follow.textContent = follow.getAttribute("data-" + state) || "";
  }

  // a part is left as it is while a field in it is being typed in, or holds what was typed
  // and not yet sent (a dispute's words, a reason), whether or not it still has the focus
  function changed(field) {
    if (field.type === "hidden" || field.type === "submit" || field.type === "button") { return false; }
    if (field.type === "checkbox" || field.type === "radio") { return field.checked !== field.defaultChecked; }
    if (field.tagName === "SELECT") {  // none marked selected: the first is the default
      var first = Array.prototype.findIndex.call(field.options, function (o) { return o.defaultSelected; });
      return field.selectedIndex !== Math.max(first, 0);
    }
    return field.value !== field.defaultValue;
  }

  function busy(part) {
    var active = document.activeElement;
    if (active && active !== document.body && part.contains(active) &&
        /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName)) { return true; }
    return Array.prototype.some.call(part.querySelectorAll("input, textarea, select"), changed);
  }

  function swap(fresh) {
    document.querySelectorAll("[data-live-region]").forEach(function (part) {
      var next = part.id && fresh.getElementById(part.id);
      if (next && !busy(part)) { part.replaceWith(document.importNode(next, true)); }
    });
    // a form's field the page was rendered with (the hand number) that changed meanwhile:
    // say so beside the form, never change what is being entered
    document.querySelectorAll("[data-live-stale]").forEach(function (input) {
      var next = input.id && fresh.getElementById(input.id);
      var notice = document.getElementById(input.getAttribute("data-live-stale"));
      if (next && notice) { notice.hidden = next.value === input.value; }
    });
    document.dispatchEvent(new CustomEvent("live:updated"));
  }

  function read() {
    if (reading) { again = true; return; }
    reading = true;
    fetch(window.location.href, { credentials: "same-origin", headers: { "X-Live": "1" } })
      .then(function (response) {
        if (!response.ok) { say("gone"); return null; }
        return response.text();
      })
      .then(function (html) {
        if (html) { swap(new DOMParser().parseFromString(html, "text/html")); }
      })
      .catch(function () { /* offline: the next event or reconnection reads again */ })
      .then(function () {
        reading = false;
        if (again) { again = false; read(); }
      });
  }

  // a page whose own script reads it again (the projector) is only told
  var selfRead = follow.hasAttribute("data-self-read");
  function soon() {
    window.clearTimeout(timer);
    timer = window.setTimeout(function () {
      document.dispatchEvent(new CustomEvent("live:changed"));
      if (!selfRead) { read(); }
    }, 50);
  }

  var opened = false;
  var polling = false;  // a WSGI server answers what happened, then ends: no stream held
  var source = new EventSource(follow.getAttribute("data-url"));
  source.addEventListener("stream-poll", function () { polling = true; });
  source.addEventListener("changed", soon);
  source.addEventListener("stream-reset", soon);
  source.addEventListener("stream-error", function () { source.close(); say("off"); });
  source.addEventListener("open", function () {
    if (opened && !polling) { soon(); }
    opened = true;
    say("on");
  });
  source.addEventListener("error", function () {
    if (source.readyState === EventSource.CLOSED) { say("off"); }
    else if (!polling) { say("reconnecting"); }
  });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { soon(); }
  });
})();
