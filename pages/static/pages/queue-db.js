/* The table page's queue of hands saved on this phone, in IndexedDB ("xuezhan", store "hands",
   by session): shared by the page (offline.js) and the service worker (sw.js, served with this
   file before it), which queues a hand form whose sending failed. An item: {key (its
   Idempotency-Key), session, fields ([[name, value]…], the form's, without its CSRF token),
   number, at, state ("waiting" or "refused"), errors, next}. */
var HandQueue = (function () {
  "use strict";
  function request(r) {
    return new Promise(function (resolve, reject) {
      r.onsuccess = function () { resolve(r.result); };
      r.onerror = function () { reject(r.error); };
    });
  }
  var opened = null;
  function open() {
    if (!opened) {
      var r = indexedDB.open("xuezhan", 1);
      r.onupgradeneeded = function () {
        r.result.createObjectStore("hands", { keyPath: "key" }).createIndex("session", "session");
      };
      opened = request(r);
    }
    return opened;
  }
  function store(mode) {
    return open().then(function (db) { return db.transaction("hands", mode).objectStore("hands"); });
  }
  function newKey() {
    if (self.crypto.randomUUID) { return self.crypto.randomUUID(); }
    var bytes = self.crypto.getRandomValues(new Uint8Array(16));
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }
  return {
    of: function (session) {
      return store("readonly").then(function (s) { return request(s.index("session").getAll(String(session))); })
        .then(function (items) { return items.sort(function (a, b) { return a.at - b.at; }); });
    },
    put: function (item) { return store("readwrite").then(function (s) { return request(s.put(item)); }); },
    drop: function (item) { return store("readwrite").then(function (s) { return request(s.delete(item.key)); }); },
    add: function (session, fields) {
      var number = 0;
      fields = fields.filter(function (pair) {
        if (pair[0] === "number") { number = Number(pair[1]); }
        return pair[0] !== "csrfmiddlewaretoken";
      });
      var item = { key: newKey(), session: String(session), fields: fields, number: number,
                   at: Date.now(), state: "waiting" };
      return this.put(item).then(function () { return item; });
    }
  };
})();
