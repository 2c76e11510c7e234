/* The projector's voice and what hard-of-hearing players see (INTERFACE §11): each ball said (speech.js), the claim
   ritual in words and voice (#ritual, [data-ritual] = its step), « Y a-t-il d'autres gagnants ? » with the tie
   window's countdown, the last ball said again from the console, the voice test, and the flash mode ([display]
   flash, or /admin): each new ball fills the screen (#flash) for flash_s — one flash a ball, never more than
   MAX_FLASHES_PER_S (WCAG 2.3.1: three a second) — the verdicts fill it in words, and the hearing loop's pictogram
   ([hall] hearing_loop). */
import {$, el, t} from "./common.js";
import {ritualLine, ritualStep} from "./ritual.js";
import {load, nickname, onSettings, say, sayPhrases, sayTest, settings} from "./speech.js";

const MAX_FLASHES_PER_S = 2;              // below WCAG's three: a flash starts 500 ms after the last one at the soonest
const GAP_MS = 1000 / MAX_FLASHES_PER_S;
const WORDS_MS = 6000;                    // a verdict in words on the whole screen (flash mode)

const ritual = el("div", {id: "ritual", class: "ritual", role: "status", "aria-live": "assertive", hidden: true},
  el("div", {id: "ritual-words", class: "ritual-words"}), el("div", {id: "ritual-sub", class: "ritual-sub"}),
  el("div", {id: "ritual-others", class: "ritual-others"}));
const flash = el("div", {id: "flash", class: "flash", "aria-hidden": "true", hidden: true});
const loop = el("div", {id: "hearing-loop", class: "hearing-loop", hidden: true, title: t("hearing_loop")});
// the hearing loop's sign: an ear and the T of the telecoil setting
loop.innerHTML = '<svg viewBox="0 0 64 64" aria-hidden="true"><path d="M18 26a14 14 0 1 1 28 0c0 8-7 10-8 17-1 6-5 ' +
  '9-10 9" fill="none" stroke="currentColor" stroke-width="5" stroke-linecap="round"/><path d="M26 27a6 6 0 1 1 12 0" ' +
  'fill="none" stroke="currentColor" stroke-width="4" stroke-linecap="round"/><path d="M44 44h16M52 44v16" ' +
  'stroke="currentColor" stroke-width="5" stroke-linecap="round"/></svg>';
loop.append(el("span", {class: "hearing-loop-text", text: t("hearing_loop")}));
($("banner") || document.body).append(ritual);        // a line of the banner the claim raised
document.body.append(flash);
// the sign has its own row under the board (or between the parties' view), never laid over the last five
($("right") || document.body).append(loop);

/* the ball count (/stats) over the whole screen during a break, while the speaker wants it (the next ball ends it) */
function showCount(on) {
  const shown = $("count-screen");
  if (on && !shown) document.body.append(el("iframe", {id: "count-screen", class: "count-screen", src: "/stats",
                                                         title: t("count_title"), tabindex: "-1"}));
  if (!on && shown) shown.remove();
}

let othersTimer = null, flashTimer = null, lastFlashAt = -Infinity, pendingFlash = null;
let last = null;                  // the last ball shown, for its nickname when the table changes

function showRitual(step) {
  clearInterval(othersTimer); othersTimer = null;
  ritual.dataset.ritual = step ? step.step : "";
  $("ritual-words").textContent = step ? step.words : "";
  $("ritual-sub").textContent = step && step.sub ? step.sub : "";
  $("ritual-others").textContent = "";
  ritual.hidden = !step;
  if (step && step.others) countOthers();
  if (step && settings.flash && step.step !== "claim") flashWords(ritualLine(step));
}

/* « Y a-t-il d'autres gagnants ? — encore 15 s », then « dernier appel » until the lot is given */
function countOthers() {
  const line = $("ritual-others");
  let left = Math.round(settings.others_s || 0);
  const tell = () => {
    line.textContent = t("ritual_others") + " — " + (left > 0 ? t("ritual_others_left", {s: left}) : t("ritual_others_last"));
    line.dataset.left = String(Math.max(0, left));
    if (left <= 0) { clearInterval(othersTimer); othersTimer = null; }
    left -= 1;
  };
  tell();
  if (left >= 0) othersTimer = setInterval(tell, 1000);
}

function showFlash(content, ms, kind) {
  clearTimeout(flashTimer);
  lastFlashAt = performance.now();
  flash.className = "flash flash-" + kind;
  flash.replaceChildren(content);
  flash.hidden = false;
  flash.dataset.shownAt = String(Math.round(lastFlashAt));
  flashTimer = setTimeout(() => { flash.hidden = true; }, ms);
}

/* the new ball on the whole screen: at most one flash every GAP_MS (a ball sooner waits its turn, the latest wins) */
function flashBall(n) {
  if (!settings.flash) return;
  const wait = lastFlashAt + GAP_MS - performance.now();
  clearTimeout(pendingFlash);
  const go = () => showFlash(el("span", {class: "flash-number", text: String(n)}), (settings.flash_s || 2) * 1000, "ball");
  if (wait > 0) pendingFlash = setTimeout(go, wait); else go();
}
function flashWords(text) {
  const wait = lastFlashAt + GAP_MS - performance.now();
  const go = () => showFlash(el("span", {class: "flash-words", text}), WORDS_MS, "words");
  if (wait > 0) setTimeout(go, wait); else go();
}

function applySettings() {
  document.body.classList.toggle("flash-mode", !!settings.flash);
  showCount(!!settings.count_shown);
  loop.hidden = !settings.hearing_loop;
  document.body.classList.toggle("has-loop", !!settings.hearing_loop);
  const nick = $("nickname");
  if (nick && last) nick.textContent = nickname(last);
}
onSettings(applySettings);

/* after each event of the hall (projector.js has applied it to the board) */
export function voiceEvent(name, ev, S) {
  if (name === "draw") {
    last = ev.number;
    showRitual(null);
    showCount(false);
    flashBall(ev.number);
  } else if (name === "again") {
    if (!S || S.last !== ev.number) return;
    say(ev.number);
    flashBall(ev.number);
    const ball = $("ball");          // the ball arrives again (the same calm animation)
    if (ball) { ball.classList.remove("arrive"); void ball.offsetWidth; ball.classList.add("arrive"); }
    document.body.dataset.again = String(ev.number);
  } else if (name === "count") {
    showCount(ev.shown);
  } else if (name === "voice_test") {
    sayTest();
  } else if (name === "calling") {
    load();
  } else if (name === "resume" || name === "award" || (name === "partie" && ev.status === "started")) {
    showRitual(null);
  }
  const step = ritualStep(name, ev);
  if (step) { showRitual(step); sayPhrases(step.clips, name === "verdict"); }
}

/* a state from the hall (first load, resync) */
export function voiceState(S) {
  last = S.last;
  const winners = S.winners || [], p = S.partie;
  if (S.status !== "checking") { if (ritual.dataset.ritual === "claim" || ritual.dataset.ritual === "valid") showRitual(null); }
  else if (!winners.length) showRitual(ritualStep("claim", {}));
  else {           // joined while a valid carton waits for its lot: its words (the countdown starts again here)
    const lot = p && p.current_lot !== null && p.current_lot !== undefined ? p.lots[p.current_lot] : null;
    showRitual(ritualStep("verdict", {verdict: "valid", card_id: winners[winners.length - 1].card_id, lot}));
  }
}

load().then(applySettings);
setInterval(load, 60000);     // a number recorded on /admin meanwhile (no event says it): its clip is fetched then
