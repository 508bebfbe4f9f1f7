// The service worker: one cache per build holds every file of the site, filled on the first
// visit to any page, so every calculator then opens and computes offline. Requests are
// answered from the cache of the build this worker belongs to, so an open page keeps its
// build; a new build installs alongside, waits until the page's "Reload" (site.js), then
// deletes the older caches. scripts/build-site.sh writes the build's file list and version
// in place of the two placeholders.
const VERSION = "@VERSION@";
const FILES = ["@FILES@"];
const PREFIX = "scalewise " + self.registration.scope + " ";
const CACHE = PREFIX + VERSION;

self.addEventListener("install", (e) => {
  // cache: "reload" skips the HTTP cache, so the files are this build's.
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES.map((f) => new Request(f, { cache: "reload" })))));
});

self.addEventListener("activate", (e) => {
  e.waitUntil(caches.keys().then((keys) =>
    Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k)))));
});

self.addEventListener("message", (e) => {
  if (e.data === "activate") self.skipWaiting();
});

self.addEventListener("fetch", (e) => {
  const req = e.request;
  if (req.method !== "GET" || !req.url.startsWith(self.registration.scope)) return;
  // A page's address carries ?embed=, ?s= and ?theme=, which the cached page reads itself.
  e.respondWith(caches.open(CACHE)
    .then((c) => c.match(req, { ignoreSearch: req.mode === "navigate" }))
    .then((hit) => hit || fetch(req)));
});
