/* The service worker (served as /sw.js after queue-db.js, scope /): the pages a scorer has
   opened stay usable with no connection. Pages: from the network, their last copy kept; with no
   connection, the copy. Static files and icons: the copy at once, refreshed from the network
   behind it. A table page's hand form that cannot be sent (no connection, or the connection
   dropped mid-send) joins the table's queue (HandQueue) and the scorer is shown his table again,
   the hand waiting there (offline.js sends it, with its key: stored once even if the first
   sending did reach the server). Never kept: any other POST, the live pages' event streams, the
   API, the admin. Signing out empties the copies; so does a new version of this file. */
"use strict";
var VERSION = "xuezhan-2";
var KEPT = /^\/(sessions\/|t\/|g\/|clubs\/|tournaments\/|me\/|$)/;

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== VERSION; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function keep(request, response) {
  if (!response || !response.ok || response.type !== "basic") { return; }
  var copy = response.clone();
  caches.open(VERSION).then(function (cache) {
    if (!copy.redirected) { return cache.put(request, copy); }
    // a card's link (/t/<key>/) lands on its table: kept under the table's own address
    return copy.blob().then(function (body) {
      return cache.put(copy.url, new Response(body, { status: copy.status, headers: copy.headers }));
    });
  });
}

function kept(request) {
  return caches.open(VERSION).then(function (cache) {
    return cache.match(request).then(function (hit) {
      return hit || cache.match(request, { ignoreSearch: true });
    });
  });
}

var TABLE = /^\/sessions\/(\d+)\/$/;

function sendOrQueue(request, session) {
  var copy = request.clone();
  return fetch(request).catch(function () {
    return copy.formData().then(function (form) {
      var fields = [];
      form.forEach(function (value, name) {
        if (typeof value === "string") { fields.push([name, value]); }
      });
      if (!fields.some(function (pair) { return pair[0] === "number"; })) { throw new Error("not a hand"); }
      return HandQueue.add(session, fields);
    }).then(function () {
      return Response.redirect("/sessions/" + session + "/?queued=1#queue", 303);
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.method === "POST" && url.pathname === "/logout/") {
    // signing out: the copies of what this visitor could read go with him (a shared phone)
    event.respondWith(caches.delete(VERSION).then(function () { return fetch(request); }));
    return;
  }
  var table = TABLE.exec(url.pathname);
  if (request.method === "POST" && table && request.mode === "navigate") {
    event.respondWith(sendOrQueue(request, table[1]));
    return;
  }
  if (request.method !== "GET") { return; }
  if (url.pathname.indexOf("/static/") === 0 || url.pathname.indexOf("/icons/") === 0) {
    event.respondWith(kept(request).then(function (hit) {
      var fresh = fetch(request).then(function (response) { keep(request, response); return response; });
      if (hit) { fresh.catch(function () { /* offline: the copy will do */ }); return hit; }
      return fresh;
    }));
    return;
  }
  if (!KEPT.test(url.pathname)) { return; }
  event.respondWith(fetch(request).then(function (response) {
    keep(request, response);
    return response;
  }).catch(function () {
    return kept(request).then(function (hit) {
      return hit || Response.error();
    });
  }));
});
