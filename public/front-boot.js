// Server-rendered public pages (issue 18, server/front-render.ts): start the app only after the
// page has been painted, so that the server's HTML is on screen before the app's JavaScript runs.
(function () {
  var self = document.currentScript;
  var entry = self && self.getAttribute('data-entry');
  if (!entry) return;
  requestAnimationFrame(function () {
    setTimeout(function () {
      var script = document.createElement('script');
      script.type = 'module';
      script.crossOrigin = '';
      script.src = entry;
      document.head.appendChild(script);
    }, 0);
  });
})();
