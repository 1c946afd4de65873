/* Offline first at the table. On every page: the service worker (/sw.js) that keeps the pages a
   scorer opened usable with no connection. On a table page with the hand form:
   - online, with nothing waiting on this phone, the form is sent as it always was; if it cannot
     be (no connection, or the connection dropped mid-send), the service worker keeps the hand in
     the table's queue (queue-db.js: IndexedDB, which a reload or a closed tab keeps) with an
     Idempotency-Key of its own and shows the table again;
   - offline, or with hands already waiting (they go first: the order is the table's), the hand
     joins the queue here at once, and the form is cleared for the next one.
   The queue is shown in #queue, the totals marked provisional, and sent to the server
   (form[data-send-url]) in order, each hand once — one whose answer was lost is sent again with
   its key and gets the first answer — when the connection is back (the online event, the page
   shown again, a retry with back-off). What the server refuses is shown on that hand with the
   server's words and the fix (save it as the next hand, put it back in the form, discard it);
   the hands after it wait. Without JavaScript the form posts as it always did. */
(function () {
  "use strict";
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () { /* none */ });
  }
  var form = document.querySelector("form.hand-form[data-send-url]");
  var box = document.getElementById("queue");
  if (!form || !box || !window.indexedDB || !window.fetch || !window.HandQueue) { return; }
  var session = form.getAttribute("data-session");
  var sendUrl = form.getAttribute("data-send-url");
  var numberInput = form.querySelector('input[name="number"]');
  var rendered = Number(numberInput.value);
  var title = document.getElementById("record-title");
  var ready = false;
  var sending = false;
  var delay = 1000;
  var timer = null;
  var sent = [];

  function words(name, n) { return (box.getAttribute("data-" + name) || "").replace("{n}", n); }

  function queued() { return HandQueue.of(session); }
  function put(item) { return HandQueue.put(item); }
  function drop(item) { return HandQueue.drop(item); }

  function csrf() {
    var field = form.querySelector('input[name="csrfmiddlewaretoken"]');
    return field ? field.value : "";
  }

  function fieldsOf(item) {
    var body = new URLSearchParams();
    item.fields.forEach(function (pair) {
      body.append(pair[0], pair[0] === "number" ? String(item.number) : pair[1]);
    });
    body.append("csrfmiddlewaretoken", csrf());
    return body;
  }

  /* --- the page: what waits, what was refused, the totals provisional ---------------------- */
  function button(text, action) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.addEventListener("click", action);
    return b;
  }

  function render() {
    return queued().then(function (items) {
      box.hidden = items.length === 0;
      var list = box.querySelector(".queue-hands");
      list.textContent = "";
      items.forEach(function (item) {
        var li = document.createElement("li");
        li.className = "queued " + item.state;
        li.setAttribute("data-number", String(item.number));
        var head = document.createElement("strong");
        head.textContent = words("hand", item.number);
        li.appendChild(head);
        li.appendChild(document.createTextNode(" — " + words(item.state === "refused" ? "refused" : "waiting")));
        if (item.state === "refused") {
          var errors = document.createElement("ul");
          errors.className = "errors";
          (item.errors || []).forEach(function (e) {
            var line = document.createElement("li");
            line.textContent = e.message;
            errors.appendChild(line);
          });
          li.appendChild(errors);
          if (item.race) {  // what the other phone stored under this number
            var other = document.createElement("p");
            other.textContent = (item.race.wins || []).join("; ") + " ";
            var see = document.createElement("a");
            see.href = item.race.url;
            see.textContent = words("see", item.race.number);
            other.appendChild(see);
            li.appendChild(other);
          }
          var actions = document.createElement("div");
          actions.className = "actions";
          if (item.next && item.next !== item.number) {
            actions.appendChild(button(words("as-next", item.next), function () {
              item.number = item.next; item.state = "waiting"; item.errors = [];
              put(item).then(render).then(flush);
            }));
          }
          actions.appendChild(button(words("back"), function () {
            backInForm(item);
            drop(item).then(render);
          }));
          actions.appendChild(button(words("discard"), function () {
            if (window.confirm(words("confirm-discard"))) { drop(item).then(render).then(flush); }
          }));
          li.appendChild(actions);
        }
        list.appendChild(li);
      });
      var offline = box.querySelector("[data-queue-offline]");
      offline.hidden = navigator.onLine && !/[?&]queued=1/.test(window.location.search);
      var waiting = items.length;
      box.querySelector("[data-queue-note]").textContent = waiting ? words("provisional", waiting) : "";
      ["seat-board", "sheet"].forEach(function (id) {
        var part = document.getElementById(id);
        if (part) { part.classList.toggle("provisional", waiting > 0); }
      });
      var last = items.reduce(function (top, item) { return Math.max(top, item.number); }, rendered - 1);
      numberInput.value = String(Math.max(rendered, last + 1));
      if (title) { title.textContent = words("record", numberInput.value); }
      return items;
    });
  }

  function backInForm(item) {
    form.reset();
    item.fields.forEach(function (pair) {
      if (pair[0] === "number") { return; }
      form.querySelectorAll('[name="' + pair[0] + '"]').forEach(function (input) {
        if (input.type === "radio" || input.type === "checkbox") {
          if (input.value === pair[1]) { input.checked = true; }
        } else { input.value = pair[1]; }
      });
    });
    form.dispatchEvent(new Event("change", { bubbles: true }));
    form.scrollIntoView();
  }

  /* --- sending: in order, each once, until the first that is refused ----------------------- */
  function later() {
    window.clearTimeout(timer);
    timer = window.setTimeout(flush, delay);
    delay = Math.min(delay * 2, 30000);
  }

  function answer(response) {
    var json = (response.headers.get("Content-Type") || "").indexOf("json") >= 0;
    return (json ? response.json() : Promise.resolve(null)).then(function (body) {
      return { status: response.status, body: body };
    });
  }

  function flush() {
    if (sending || !ready) { return Promise.resolve(); }
    sending = true;
    function next() {
      return queued().then(function (items) {
        var item = items[0];
        if (!item || item.state === "refused") { return items; }
        return fetch(sendUrl, {
          method: "POST", credentials: "same-origin", body: fieldsOf(item, item.number),
          headers: { "Idempotency-Key": item.key, "X-CSRFToken": csrf(), "Accept": "application/json" }
        }).then(answer).then(function (got) {
          if (got.status === 200 || got.status === 201) {
            delay = 1000;
            sent.push(got.body && got.body.number ? got.body.number : item.number);
            return drop(item).then(next);
          }
          if (got.status >= 500 || got.status === 429) { later(); return items; }
          var body = got.body || {};
          item.state = "refused";
          item.errors = body.errors || [{ message: words("unknown") }];
          item.next = body.next_number || null;
          item.race = body.race || null;
          return put(item).then(function () { return items; });
        }, function () { later(); return items; });
      });
    }
    return next().then(function (items) {
      sending = false;
      if (sent.length && !items.length) {
        var last = Math.max.apply(null, sent);
        window.location.assign(window.location.pathname + "?saved=" + last + "#saved");
        return;
      }
      return render();
    }, function () { sending = false; });
  }

  form.addEventListener("submit", function (event) {
    if (!ready || (navigator.onLine && box.hidden)) { return; }  // sent as it always was
    event.preventDefault();
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") { fields.push([name, value]); }
    });
    HandQueue.add(session, fields).then(function () {
      form.reset();
      return render();
    }).then(function () {
      box.scrollIntoView();
      return flush();
    });
  });

  render().then(function () {
    ready = true;
    return flush();
  }).catch(function () { ready = false; });
  window.addEventListener("online", function () { delay = 1000; render().then(flush); });
  window.addEventListener("offline", function () { render(); });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { flush(); }
  });
})();
