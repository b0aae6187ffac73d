// The service worker (served at /sw.js so that it covers the whole app): the static files
// come from its cache when the network is slow or gone, and are refreshed behind; the live
// state (API calls, the socket) always comes from the server.
const CACHE = "phz-static-v1";
const SHELL = ["/", "/static/style.css", "/static/app.js", "/static/api.js", "/static/cards.js",
  "/static/game.js", "/static/i18n.js", "/static/table.js", "/static/sound.js", "/static/motion.js", "/static/tip.js",
  "/static/vendor/htm-preact-standalone.js", "/static/manifest.webmanifest", "/static/icons/icon-192.png"];

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (e) => {
  e.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (e) => {
  const url = new URL(e.request.url);
  const shell = url.origin === location.origin && e.request.method === "GET"
    && (url.pathname === "/" || url.pathname.startsWith("/static/"));
  if (!shell) return; // the API and the socket: the network only
  // Network first (a fresh page after a deploy), the cache when offline.
  e.respondWith(fetch(e.request).then((r) => {
    if (r.ok) { const copy = r.clone(); caches.open(CACHE).then((c) => c.put(e.request, copy)); }
    return r;
  }).catch(() => caches.match(e.request)));
});
