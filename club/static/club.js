// The club's page: every table live. The server says a new version on /events (server-sent
// events); the page then fetches the new body and shows it (nothing here decides anything).
(function () {
  "use strict";
  var main = document.getElementById("club");
  var shown = Number(document.body.dataset.version || 0);
  function load(version) {
    fetch("body?v=" + version, {cache: "no-store"}).then(function (r) {
      return r.ok ? r.text() : Promise.reject(r.status);
    }).then(function (html) {
      if (version <= shown) { return; }
      main.innerHTML = html;
      shown = version;
      document.body.dataset.version = String(version);
    }).catch(function () {});
  }
  var events = new EventSource("events");
  events.onmessage = function (e) {
    var version = Number(e.data);
    if (version > shown) { load(version); }
  };
})();
