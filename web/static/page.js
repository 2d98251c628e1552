// Tableside Referee: keeps the page live. The box pushes the whole page body as a
// server-sent event after every accepted command; a reconnecting phone gets it at once.
// Read-only: nothing here sends anything to the box.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource) { return; }
  var source = new EventSource(live.getAttribute("data-events"));
  // The log lists the newest line first: a reader scrolled down into it keeps their place
  // when a line arrives (the box scrolls by what was added above); one at the top sees it.
  // An opened list of earlier verdicts stays open.
  source.onmessage = function (e) {
    var log = live.querySelector("ol.log");
    var top = log ? log.scrollTop : 0;
    var height = log ? log.scrollHeight : 0;
    var earlier = live.querySelector("#verdict details");
    var opened = earlier ? earlier.open : false;
    live.innerHTML = e.data;
    document.body.setAttribute("data-version", e.lastEventId);
    log = live.querySelector("ol.log");
    if (log && top > 0) { log.scrollTop = top + (log.scrollHeight - height); }
    earlier = live.querySelector("#verdict details");
    if (earlier && opened) { earlier.open = true; }
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
