// Tableside Referee: keeps the page live. The box pushes the whole page body as a
// server-sent event after every accepted command; a reconnecting phone gets it at once.
// Read-only: nothing here sends anything to the box.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource) { return; }
  var source = new EventSource(live.getAttribute("data-events"));
  source.onmessage = function (e) {
    live.innerHTML = e.data;
    document.body.setAttribute("data-version", e.lastEventId);
  };
  source.addEventListener("gone", function (e) {
    source.close();
    var note = document.createElement("p");
    note.className = "next gone";
    note.textContent = e.data;
    live.insertBefore(note, live.firstChild);
  });
  source.onopen = function () { document.body.classList.remove("reconnecting"); };
  source.onerror = function () { document.body.classList.add("reconnecting"); };
}());
