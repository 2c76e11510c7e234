/* The hall's voice on a screen (INTERFACE §11): each ball's clip from the hall (/speech/{n}.wav, rendered on the Pi
   by espeak-ng, or the hall's own recordings), the claim ritual's clips (/speech/phrase/{key}.wav), played by one
   media element (#voice). Never the browser's own voices: a kiosk without a French one would stay silent, or worse
   speak English. The clips are fetched once into memory when the page opens (and again when /admin changes what they
   say), so a ball is heard as soon as it is shown. The screen tells the hall whether it speaks
   (POST /api/speech/report: the console shows it with the devices). */
import {api, boot} from "./common.js";

export let settings = {enabled: false, nicknames_on: false, nicknames: {}, flash: false, clips: ""};
const listeners = [];
// one media element per clip, its bytes in memory and its decoder ready: a ball is heard 2–5 ms after play()
// (one element whose source changes: p50 14 ms, 157–203 ms for the first; bench/bench_voice_element.py)
const box = document.createElement("div");
box.id = "voice";
box.hidden = true;
document.body.append(box);

let muted = false;                 // ?speech=0: this screen stays silent (a second projector)
const players = new Map();         // clip path → its <audio>, fetched once
let queue = [], current = null, reported = "", pending = null, sending = false;

const ballPath = (n) => "/speech/" + n + ".wav";
const phrasePath = (key) => "/speech/phrase/" + key + ".wav";

/* what the screen last did, told to the hall each time it changes (a new ball said is news: the console shows « dernier
   son : 42 », never the evening's first ball). The hall takes one report a second from a screen: the latest waits its
   turn, one refused for that is sent again, and an older one never overtakes it. */
function report(state, what) {
  pending = {state, what: String(what || "")};
  flush();
}
async function flush() {
  if (sending || !pending) return;
  const next = pending, key = next.state + ":" + next.what;
  pending = null;
  if (key === reported && next.what !== "test") return;     // nothing new to say (a test is said each time)
  sending = true;
  const res = await api("POST", "/api/speech/report", next);
  if (res.ok) reported = key;
  else if (res.status === 429 && !pending) pending = next;
  setTimeout(() => { sending = false; flush(); }, 1100);
}

function element(src, path) {
  const audio = document.createElement("audio");
  audio.preload = "auto";
  audio.dataset.clip = path.split("/").pop().replace(".wav", "");
  audio.src = src;
  box.append(audio);
  return audio;
}

/* fetch the clips into memory (the balls, then the ritual's sentences), a few at a time */
async function preload(paths) {
  const version = settings.clips;
  for (const audio of players.values()) { URL.revokeObjectURL(audio.src); audio.remove(); }
  players.clear();
  const todo = paths.slice();
  async function worker() {
    while (todo.length && settings.clips === version) {
      const path = todo.shift();
      try {
        const res = await fetch(path + "?v=" + version, {credentials: "same-origin"});
        if (res.ok && settings.clips === version) players.set(path, element(URL.createObjectURL(await res.blob()), path));
      } catch (e) { /* the clip is asked again when it is played */ }
    }
  }
  await Promise.all([worker(), worker(), worker()]);
  document.body.dataset.voiceClips = String(players.size);
}

// the ritual's sentences (display/voice_words.py RITUAL): a verdict's for each kind of lot the hall plays
const RITUAL_CLIPS = ["no_unmark", "good", "bad", ...(boot.kinds || []).flatMap((k) => ["good_" + k, "bad_" + k, "missed_paid_" + k]),
  "late", "missed_rows", "missed_paid", "not_out_one", "not_out_many", "and", "others", "unmark", "test"];

/* the hall's calling, asked again when /admin changes it; ``opts.enabled === false`` mutes this screen */
export async function load(opts) {
  if (opts && opts.enabled === false) muted = true;
  const res = await api("GET", "/api/speech");
  if (!res.ok) return settings;
  const before = settings.clips;
  settings = res.data;
  document.body.dataset.voice = settings.enabled && !muted ? settings.voice : "off";
  listeners.forEach((fn) => fn(settings));
  if (!settings.enabled || muted) return settings;        // a hall without a voice: nothing to tell the console
  if (settings.clips !== before) {
    const paths = [];
    for (let n = 1; n <= 90; n++) paths.push(ballPath(n));
    preload(paths.concat(RITUAL_CLIPS.map(phrasePath)));
  }
  return settings;
}
export const onSettings = (fn) => listeners.push(fn);

function next() {
  if (current) { current.pause(); current.currentTime = 0; }
  const item = queue.shift();
  current = null;
  if (!item) return;
  if (!players.has(item.path)) players.set(item.path, element(item.path + "?v=" + settings.clips, item.path));   // asked now
  current = players.get(item.path);
  const playing = current.play();
  if (playing && playing.catch) {
    playing.catch((e) => {
      if (e && e.name === "NotAllowedError") report("blocked", item.name);
      else if (e && e.name !== "AbortError") report("failed", item.name);
    });
  }
}
// media events do not bubble: the box hears its elements' in the capture phase
box.addEventListener("playing", (e) => report("speaks", e.target.dataset.clip), true);
box.addEventListener("ended", (e) => { if (e.target === current) next(); }, true);
box.addEventListener("error", (e) => { if (e.target === current) { report("failed", e.target.dataset.clip); next(); } }, true);

/* play ``items`` ([{name, path}]) one after the other, cutting what was being said (after it, when ``keep``) */
function play(items, keep) {
  if (!settings.enabled || muted) return false;
  const busy = current && !current.paused && !current.ended;
  queue = keep && busy ? queue.concat(items) : items.slice();
  if (!(keep && busy)) next();
  return true;
}

/* says ball n (its words, digits and nickname as the hall says them); false when this screen is silent */
export function say(n, options) {
  if (options && options.enabled === false) muted = true;
  return play([{name: String(n), path: ballPath(n)}]);
}

/* says the ritual's clips ("no_unmark", "le_8"…), after the ball being said when ``keep`` */
export function sayPhrases(keys, keep) {
  return play(keys.map((key) => ({name: key, path: phrasePath(key)})), keep);
}

/* the test phrase: the screen reports whether it was heard (the console shows it) */
export function sayTest() {
  reported = "";
  if (!settings.enabled || muted) { report("off", "test"); return false; }
  return sayPhrases(["test"]);
}

export const nickname = (n) => (settings.nicknames_on && n ? settings.nicknames[String(n)] || "" : "");
