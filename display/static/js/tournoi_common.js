/* loto-hall: what the tournament pages share — names of a pair, a poll of the day's state (their words are the
   boot's, read by the shared t). */
import {$, t} from "./common.js";

export function pair(seats, a, b) { return seats[a].name + " & " + seats[b].name; }

/* a hand's or a sheet's points, each side named: "N–S −2 · E–O 3" (a minus sign, never a hyphen beside a dash) */
const signed = (n) => String(n).replace("-", "\u2212");
export function score(ns, ew) { return t("score_sides", {ns: signed(ns), ew: signed(ew)}); }

/* Poll ``path`` every ``ms``; ``onData`` gets each answer whose event count changed (and the first). */
export function poll(path, onData, ms, headers) {
  let last = -1, timer = null;
  async function tick() {
    const init = {headers: Object.assign({"Accept": "application/json"}, headers ? headers() : {}),
                  credentials: "same-origin"};
    try {
      const res = await fetch(path, init);
      const data = await res.json();
      const offline = $("offline");
      if (offline) offline.hidden = true;
      if (!res.ok) onData(null, data);
      else if (data.events !== last) { last = data.events; onData(data); }
    } catch (e) {
      const offline = $("offline");
      if (offline) offline.hidden = false;
    }
    timer = setTimeout(tick, ms);
  }
  tick();
  return {now: () => { clearTimeout(timer); last = -1; tick(); }};
}

