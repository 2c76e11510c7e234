/* loto-hall: what the tournament pages share — their words (say), names of a pair, a poll of the day's state. */
"use strict";
(function () {
  const boot = window.LOTO || {};
  const W = boot.words || {};

  function say(key, vars) {
    let text = W[key] !== undefined ? W[key] : key;
    if (vars) text = text.replace(/%\((\w+)\)s/g, (m, name) => (vars[name] !== undefined ? vars[name] : m));
    return text;
  }

  function pair(seats, a, b) { return seats[a].name + " & " + seats[b].name; }

  /* Poll ``path`` every ``ms``; ``onData`` gets each answer whose event count changed (and the first). */
  function poll(path, onData, ms, headers) {
    let last = -1, timer = null;
    async function tick() {
      const init = {headers: Object.assign({"Accept": "application/json"}, headers ? headers() : {}),
                    credentials: "same-origin"};
      try {
        const res = await fetch(path, init);
        const data = await res.json();
        const offline = document.getElementById("offline");
        if (offline) offline.hidden = true;
        if (!res.ok) onData(null, data);
        else if (data.events !== last) { last = data.events; onData(data); }
      } catch (e) {
        const offline = document.getElementById("offline");
        if (offline) offline.hidden = false;
      }
      timer = setTimeout(tick, ms);
    }
    tick();
    return {now: () => { clearTimeout(timer); last = -1; tick(); }};
  }

  window.Tournoi = {boot, say, pair, poll};
})();
