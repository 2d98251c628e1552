// Tableside Referee: keeps the page live. The box pushes the whole page body as a
// server-sent event after every accepted command; a reconnecting phone gets it at once.
// Read-only: nothing here sends anything to the box.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource) { return; }
  var source = new EventSource(live.getAttribute("data-events"));
  // The log lists the newest line first: a reader scrolled down into it keeps their place
  // when a line arrives (the line at the top of the box stays where it was); one at the top
  // sees the new line. An opened list of earlier verdicts stays open.
  function anchor(log) {
    var items = log.children;
    for (var i = 0; i < items.length; i++) {
      if (items[i].offsetTop + items[i].offsetHeight > log.scrollTop) {
        return { seq: items[i].getAttribute("data-seq"),
                 offset: items[i].offsetTop - log.scrollTop };
      }
    }
    return null;
  }
  source.onmessage = function (e) {
    var log = live.querySelector("ol.log");
    var place = log && log.scrollTop > 0 ? anchor(log) : null;
    var earlier = live.querySelector("#verdict details");
    var opened = earlier ? earlier.open : false;
    live.innerHTML = e.data;
    document.body.setAttribute("data-version", e.lastEventId);
    log = live.querySelector("ol.log");
    if (log && place && place.seq) {
      var items = log.children;
      for (var i = 0; i < items.length; i++) {
        if (items[i].getAttribute("data-seq") === place.seq) {
          log.scrollTop = items[i].offsetTop - place.offset;
          break;
        }
      }
    }
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
