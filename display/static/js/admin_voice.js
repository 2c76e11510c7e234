/* /admin and the hall's voice (INTERFACE §11): the voice test, the flash mode, the nicknames and their table, the
   pace per partie (POST /api/admin/calling, journalled), and the hall's own recordings of the 90 numbers: the
   microphone through MediaRecorder (or a sound file), decoded here and sent as a 16-bit PCM WAV of 22 050 Hz mono
   (PUT /api/admin/speech/recordings/{n}): the hall keeps and serves one format, checked with Python's wave. */
import {$, api, boot, el, t} from "./common.js";

const RATE = 22050, MAX_S = 6;
let settings = null, recorded = new Set(), chosen = null, recorder = null, chunks = [];

function say(id, res, ok) {
  $(id).textContent = res.ok ? ok : res.data.message;
  $(id).className = res.ok ? "ok-line" : "error-line";
}

// ---- the calling: flash, nicknames, pace
function nicknameTable() {
  const box = $("nickname-table");
  const cells = [];
  for (let n = 1; n <= 90; n++) {
    cells.push(el("label", {class: "nickname-cell"}, el("span", {class: "nickname-n", text: String(n)}),
      el("input", {type: "text", maxlength: "60", "data-n": String(n), value: settings.nicknames[String(n)] || "",
                   "aria-label": t("nickname_for", {n})})));
  }
  box.replaceChildren(...cells);
}
function paceTable(parties) {
  $("pace-table").replaceChildren(...parties.map((n) => el("label", {class: "pace-cell"}, t("pace_for", {n}) + " ",
    el("input", {type: "number", min: "0", max: "600", step: "1", inputmode: "numeric", "data-partie": String(n),
                 value: settings.paces[String(n)] !== undefined ? String(settings.paces[String(n)]) : "",
                 placeholder: String(settings.pace_s || 0)}))));
}
async function load() {
  const [speech, admin, recs] = await Promise.all([api("GET", "/api/speech"), api("GET", "/api/admin"),
                                                   api("GET", "/api/admin/speech/recordings")]);
  if (!speech.ok) return;
  settings = speech.data;
  $("voice-state").textContent = settings.enabled ? t("voice_state_on", {voice: settings.voice, rate: settings.rate})
                                                  : t("voice_state_off");
  $("calling-flash").checked = settings.flash;
  $("calling-nicknames").checked = settings.nicknames_on;
  nicknameTable();
  const parties = admin.ok ? admin.data.programme.map((p) => p.number) : [1];
  paceTable(parties.length ? parties : [1]);
  if (recs.ok) { recorded = new Set(recs.data.recorded); recGrid(); }
}
$("calling-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const nicknames = {}, pace = {};
  for (const input of document.querySelectorAll("#nickname-table input")) if (input.value.trim()) nicknames[input.dataset.n] = input.value.trim();
  for (const input of document.querySelectorAll("#pace-table input")) if (input.value !== "") pace[input.dataset.partie] = Number(input.value);
  const res = await api("POST", "/api/admin/calling", {flash: $("calling-flash").checked,
    nicknames_on: $("calling-nicknames").checked, nicknames, pace});
  say("calling-msg", res, t("voice_saved"));
  if (res.ok) { settings = res.data; }
});
$("admin-test-voice").addEventListener("click", async () => say("calling-msg", await api("POST", "/api/speech/test"), t("test_voice_sent")));

// ---- the recordings
function recGrid() {
  $("rec-grid").replaceChildren(...Array.from({length: 90}, (_, i) => i + 1).map((n) => el("button", {type: "button",
    class: "rec-cell" + (recorded.has(n) ? " recorded" : "") + (n === chosen ? " chosen" : ""), "data-n": String(n),
    "aria-pressed": String(n === chosen), text: String(n)})));
  $("rec-count").textContent = t("rec_count", {n: recorded.size});
}
function choose(n) {
  chosen = n;
  $("rec-number").textContent = String(n);
  $("rec-start").disabled = !(navigator.mediaDevices && window.MediaRecorder);
  $("rec-file").disabled = false;
  $("rec-listen").disabled = !recorded.has(n);
  if ($("rec-start").disabled) $("rec-msg").textContent = t("rec_no_mic");
  recGrid();
}
$("rec-grid").addEventListener("click", (ev) => { const b = ev.target.closest("button"); if (b) choose(Number(b.dataset.n)); });

/* a sound (any format the browser reads) as a 16-bit PCM WAV, 22 050 Hz mono */
async function asWav(blob) {
  const bytes = await blob.arrayBuffer();
  const decoded = await new AudioContext().decodeAudioData(bytes);
  if (decoded.duration > MAX_S) throw new Error("rec_too_long");
  const frames = Math.max(1, Math.ceil(decoded.duration * RATE));
  const offline = new OfflineAudioContext(1, frames, RATE);
  const source = offline.createBufferSource();
  source.buffer = decoded; source.connect(offline.destination); source.start();
  const pcm = (await offline.startRendering()).getChannelData(0);
  const out = new DataView(new ArrayBuffer(44 + pcm.length * 2));
  const text = (at, s) => [...s].forEach((c, i) => out.setUint8(at + i, c.charCodeAt(0)));
  text(0, "RIFF"); out.setUint32(4, 36 + pcm.length * 2, true); text(8, "WAVE"); text(12, "fmt ");
  out.setUint32(16, 16, true); out.setUint16(20, 1, true); out.setUint16(22, 1, true); out.setUint32(24, RATE, true);
  out.setUint32(28, RATE * 2, true); out.setUint16(32, 2, true); out.setUint16(34, 16, true); text(36, "data");
  out.setUint32(40, pcm.length * 2, true);
  pcm.forEach((v, i) => out.setInt16(44 + i * 2, Math.max(-1, Math.min(1, v)) * 0x7fff, true));
  return new Blob([out.buffer], {type: "audio/wav"});
}
async function keep(blob) {
  const n = chosen;
  let wav;
  try { wav = await asWav(blob); } catch (e) { $("rec-msg").textContent = t(e.message === "rec_too_long" ? "rec_too_long" : "rec_bad_file"); return; }
  const res = await fetch("/api/admin/speech/recordings/" + n, {method: "PUT", body: wav, credentials: "same-origin",
    headers: {"Content-Type": "audio/wav", "X-CSRF-Token": boot.csrf}});
  const data = await res.json();
  say("rec-msg", {ok: res.ok, data}, t("rec_saved", {n}));
  if (res.ok) { recorded = new Set(data.recorded); choose(n); }
}
$("rec-start").addEventListener("click", async () => {
  let stream;
  try { stream = await navigator.mediaDevices.getUserMedia({audio: true}); } catch (e) { $("rec-msg").textContent = t("rec_no_mic"); return; }
  chunks = [];
  recorder = new MediaRecorder(stream);
  recorder.addEventListener("dataavailable", (e) => { if (e.data.size) chunks.push(e.data); });
  recorder.addEventListener("stop", () => { stream.getTracks().forEach((tr) => tr.stop()); keep(new Blob(chunks, {type: recorder.mimeType})); });
  recorder.start();
  $("rec-start").disabled = true; $("rec-stop").disabled = false;
  $("rec-msg").textContent = t("rec_recording", {n: chosen}); $("rec-msg").className = "";
  setTimeout(() => { if (recorder && recorder.state === "recording") $("rec-stop").click(); }, MAX_S * 1000 - 200);
});
$("rec-stop").addEventListener("click", () => {
  if (recorder && recorder.state === "recording") recorder.stop();
  $("rec-stop").disabled = true; $("rec-start").disabled = false;
});
$("rec-file").addEventListener("change", () => { const f = $("rec-file").files[0]; if (f) keep(f); $("rec-file").value = ""; });
$("rec-listen").addEventListener("click", () => {
  const audio = $("rec-audio");
  audio.src = "/api/admin/speech/recordings/" + chosen + ".wav?at=" + Date.now();
  audio.play();
});
load();
