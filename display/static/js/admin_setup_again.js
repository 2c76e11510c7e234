/* /admin: a device's first-start step again (the printer, the ball machine, the voice), after setup closed. */
import {$, api} from "./common.js";

const words = JSON.parse($("setup-again-words").textContent);
const say = (key, values = {}) => words[key].replace(/\{(\w+)\}/g, (_, k) => String(values[k] ?? ""));
const msg = (text) => { $("setup-again-msg").textContent = text; };

async function load() {
  const res = await api("GET", "/api/devices/setup");
  if (!res.ok || !res.data.own) { msg(res.data.message); return; }  // a hand-written configuration: changed in the file
  $("setup-again-steps").hidden = false;
  $("setup-again-url").value = (res.data.printer || {}).url || "";
  if ((res.data.speech || {}).voice) $("setup-again-voice-name").value = res.data.speech.voice;
}

async function answered(step, body) {
  const res = await api("POST", "/api/devices/setup/" + step, body);
  msg(res.ok ? say("kept", {seq: res.data.seq}) : res.data.message);
  return res;
}

$("setup-again-printer").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  msg(say("printing"));
  await answered("imprimante", {url: $("setup-again-url").value.trim()});
});

$("setup-again-voice").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  await answered("voix", {voice: $("setup-again-voice-name").value, heard: true});
});

async function follow() {
  const res = await api("GET", "/api/devices/setup");
  const balls = res.ok ? res.data.balls : null;
  if (!balls || balls.state === "listening") { setTimeout(follow, 500); return; }
  $("setup-again-listen").disabled = false;
  $("setup-again-balls").textContent = "";
  msg(balls.state === "found" ? say("found", balls.found) : say("not_found"));
}

$("setup-again-listen").addEventListener("click", async () => {
  const res = await api("POST", "/api/devices/setup/boules", {action: "listen"});
  if (!res.ok) { msg(res.data.message); return; }
  $("setup-again-listen").disabled = true;
  $("setup-again-balls").textContent = res.data.balls.balls.join(" · ");
  msg(say("drop", {balls: res.data.balls.balls.join(", ")}));
  setTimeout(follow, 500);
});

load();
