/* The speaker's console and the hall's voice (INTERFACE §11): « Répéter le dernier numéro » (the R key, or * 7 on the
   keypad), « Tester la voix » (the projector says its test phrase; whether it spoke shows with the devices), and
   the pace: a countdown to the next ball ([draw] pace_s, or the partie's own set on /admin), frozen while a claim is
   checked. It never draws: the speaker does. */
import {$, api, el, t} from "./common.js";
import {backToEntry, state} from "./speaker.js";

const again = el("button", {type: "button", id: "say-again", title: t("say_again") + " (R)"}, t("say_again"), " ",
  el("kbd", {text: "R"}));
const test = el("button", {type: "button", id: "test-voice"}, t("test_voice"));
const pace = el("p", {id: "pace", class: "pace", role: "timer", hidden: true});
const line = $("entry-msg");
line.after(pace);
$("undo").parentElement.append(again, test);

function said(res, ok) {
  line.textContent = res.ok ? ok : res.data.message;
  line.className = res.ok ? "ok-line" : "error-line";
}
again.addEventListener("click", async () => said(await api("POST", "/api/speech/again"), ""));
test.addEventListener("click", async () => said(await api("POST", "/api/speech/test"), t("test_voice_sent")));
document.addEventListener("keydown", (ev) => {
  if (ev.code !== "KeyR" || ev.ctrlKey || ev.altKey || ev.metaKey || document.querySelector("dialog[open]")) return;
  if (ev.target.closest && ev.target.closest("input, textarea, select")) return;
  ev.preventDefault();
  again.click();
  backToEntry();
});

// ---- the pace: the console's own clock from the last ball it saw, the partie's pace from the hall
let paceS = 0, seen = null, due = 0, frozenLeft = null, askedFor = null, askedAt = 0;

async function askPace(partie) {          // at each partie, and every 30 s (/admin may change it meanwhile)
  askedFor = partie; askedAt = Date.now();
  const res = await api("GET", "/api/speech");
  if (res.ok && askedFor === partie) paceS = res.data.pace_now || 0;
}

function tick() {
  const S = state();
  if (!S) return;
  const p = S.partie, running = p && !["waiting", "cleared"].includes(S.status);
  const key = running ? p.number + ":" + S.draws.length : null;
  if (running && (askedFor !== p.number || Date.now() - askedAt > 30000)) askPace(p.number);
  if (key !== seen) { seen = key; due = Date.now() + paceS * 1000; frozenLeft = null; }
  const checking = S.paused || S.status === "checking";
  pace.hidden = !running || paceS <= 0 || !S.draws.length;
  if (pace.hidden) return;
  if (checking) {
    if (frozenLeft === null) frozenLeft = Math.max(0, due - Date.now());
    pace.textContent = t("pace_frozen", {s: Math.ceil(frozenLeft / 1000)});
    pace.dataset.pace = "frozen";
    return;
  }
  if (frozenLeft !== null) { due = Date.now() + frozenLeft; frozenLeft = null; }
  const left = Math.ceil((due - Date.now()) / 1000);
  pace.textContent = left > 0 ? t("pace_next", {s: left}) : t("pace_now");
  pace.dataset.pace = left > 0 ? "waiting" : "now";
}
setInterval(tick, 250);
