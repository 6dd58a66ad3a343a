// Tellers' service worker: the app, its course and its assets are kept in
// the browser's cache on the first visit, so the lab starts and works with
// no network (on a train, in a classroom whose network has gone).
//
// The build fills in FILES (every file of the build) and VERSION (a hash of
// their contents): scripts/service-worker.mjs, a trunk hook. So each
// deployment is a new worker. It installs in the background and waits; the
// app shows "A new version of Tellers is ready" and, when the learner
// presses Reload, posts 'skip-waiting'. Until then the page keeps its own
// version, whole.
//
// Every request the app makes is for a file of its build, so all are served
// from this version's cache, index.html too: a page and its files always
// come from one version. (The wasm, JS, CSS and course files have their
// content's hash in their names.) Anything not in the cache goes to the
// network.

const VERSION = 'unstamped';
const FILES = [];
const CACHE = `tellers-${VERSION}`;

self.addEventListener('install', (event) => {
  // `reload`: fetch each file from the server, never from the HTTP cache.
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: 'reload' })))),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith('tellers-') && name !== CACHE) await caches.delete(name);
      }
      // The first visit's page is looked after from now on, not from its next load.
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  // Every page of the app is index.html (the route is in the hash).
  const key = request.mode === 'navigate' ? new URL('./', self.registration.scope).href : request;
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(key, { ignoreSearch: true }))
      .then((cached) => cached || fetch(request)),
  );
});
