/* The speaker's console and the hall's voice (INTERFACE §11): « Répéter le dernier numéro » (the R key, or * 7 on the
   keypad), « Tester la voix » (the projector says its test phrase; whether it spoke shows with the devices), and
   the pace: a countdown to the next ball ([draw] pace_s, or the partie's own set on /admin), frozen while a claim is
   checked. It never draws: the speaker does. */
import {$, api, el, t} from "./common.js";
import {backToEntry, state} from "./speaker.js";

const again = el("button", {type: "button", id: "say-again", title: t("say_again") + " (R)"}, t("say_again"), " ",
  el("kbd", {text: "R"}));
const test = el("button", {type: "button", id: "test-voice"}, t("test_voice"));
const count = el("button", {type: "button", id: "show-count", "aria-pressed": "false"}, t("count_show"));
const pace = el("p", {id: "pace", class: "pace", role: "timer", hidden: true});
const line = $("entry-msg");
line.after(pace);
$("undo").parentElement.append(again, test, count);

function said(res, ok) {
  line.textContent = res.ok ? ok : res.data.message;
  line.className = res.ok ? "ok-line" : "error-line";
}
again.addEventListener("click", async () => said(await api("POST", "/api/speech/again"), ""));
test.addEventListener("click", async () => said(await api("POST", "/api/speech/test"), t("test_voice_sent")));
/* the ball count on the projector during a break (the next ball takes it off) */
function counting(on) { count.setAttribute("aria-pressed", String(on)); count.textContent = t(on ? "count_hide" : "count_show"); }
count.addEventListener("click", async () => {
  const on = count.getAttribute("aria-pressed") !== "true";
  const res = await api("POST", "/api/speech/count", {shown: on});
  said(res, "");
  if (res.ok) counting(res.data.shown);
});
document.addEventListener("keydown", (ev) => {
  if (ev.code !== "KeyR" || ev.ctrlKey || ev.altKey || ev.metaKey || document.querySelector("dialog[open]")) return;
  if (ev.target.closest && ev.target.closest("input, textarea, select")) return;
  ev.preventDefault();
  again.click();
  backToEntry();
});

// ---- the pace: the console's own clock from the last ball it saw (less the time a claim froze it), the partie's
// pace from the hall
let paceS = 0, seen = null, drawnAt = 0, frozenSince = null, frozenFor = 0, askedFor = null, askedAt = 0;

async function askPace(partie) {          // at each partie, and every 30 s (/admin may change it meanwhile)
  askedFor = partie; askedAt = Date.now();
  const res = await api("GET", "/api/speech");
  if (res.ok && askedFor === partie) { paceS = res.data.pace_now || 0; counting(!!res.data.count_shown); }
}

function tick() {
  const S = state();
  if (!S) return;
  const p = S.partie, running = p && !["waiting", "cleared"].includes(S.status);
  const key = running ? p.number + ":" + S.draws.length : null;
  const now = Date.now();
  if ((askedFor !== (p && p.number) || now - askedAt > 30000)) askPace(p && p.number);
  if (key !== seen) { seen = key; drawnAt = now; frozenSince = null; frozenFor = 0; counting(false); }
  pace.hidden = !running || paceS <= 0 || !S.draws.length;
  if (pace.hidden) return;
  const checking = S.paused || S.status === "checking";
  if (checking && frozenSince === null) frozenSince = now;
  if (!checking && frozenSince !== null) { frozenFor += now - frozenSince; frozenSince = null; }
  const left = Math.ceil((paceS * 1000 - ((frozenSince !== null ? frozenSince : now) - drawnAt - frozenFor)) / 1000);
  pace.textContent = checking ? t("pace_frozen", {s: Math.max(0, left)}) : left > 0 ? t("pace_next", {s: left}) : t("pace_now");
  pace.dataset.pace = checking ? "frozen" : left > 0 ? "waiting" : "now";
}
setInterval(tick, 250);
