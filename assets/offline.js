// The page's side of the service worker (sw.js), which keeps the app, its
// course and its assets for offline use. The app (src/components/app.rs)
// fires `tellers:offline` once start-up has settled, in release builds
// only (a cached app would hide every rebuild under `make serve`); then
// the worker is registered. When a new version has been downloaded and is
// waiting, this fires `tellers:update-ready` (the app shows "A new version
// of Tellers is ready"); on `tellers:apply-update` (its Reload button) the
// waiting worker takes over and this page reloads. Other tabs keep the
// version they run until they reload.

(function () {
  if (!('serviceWorker' in navigator)) return;
  const container = navigator.serviceWorker;
  const ready = () => window.dispatchEvent(new Event('tellers:update-ready'));
  // A worker that installs while another controls the page is a new version.
  const watch = (worker) => {
    if (!worker) return;
    worker.addEventListener('statechange', () => {
      if (worker.state === 'installed' && container.controller) ready();
    });
  };
  let reloadOnTakeover = false;
  container.addEventListener('controllerchange', () => {
    if (reloadOnTakeover) window.location.reload();
  });

  window.addEventListener(
    'tellers:offline',
    () => {
      container
        .register('sw.js')
        .then((registration) => {
          if (registration.waiting && container.controller) ready();
          watch(registration.installing);
          registration.addEventListener('updatefound', () => watch(registration.installing));
        })
        // Offline, or a host without sw.js: the app works as before, online.
        .catch(() => {});
    },
    { once: true },
  );

  window.addEventListener('tellers:apply-update', () => {
    reloadOnTakeover = true;
    container.getRegistration().then((registration) => {
      if (registration && registration.waiting) registration.waiting.postMessage('skip-waiting');
      // Nothing waiting any more (another tab took it over): just reload.
      else window.location.reload();
    });
  });
})();
