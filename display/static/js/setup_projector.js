// The projector during the first start: it plays the voice test the phone asks for, and once the phone closes
// setup, the hall's own projector page takes over.
const WAIT_MS = 2000;
let played = 0;

async function ask(path) {
  const resp = await fetch(path, { cache: "no-store" });
  return resp.ok ? resp.json() : null;
}

async function say(url, tries = 10) {
  // the clip is made on the Pi the first time (503 while espeak-ng works): ask again, then play it
  const resp = await fetch(url, { cache: "no-store" });
  if (resp.status === 503 && tries > 1) return setTimeout(() => say(url, tries - 1), 1000);
  if (resp.ok) new Audio(URL.createObjectURL(await resp.blob())).play().catch(() => {});
}

async function watch() {
  try {
    const state = await ask("/api/state");
    if (state && state.setup === false) {
      location.reload();
      return;
    }
    const asked = await ask("/api/setup/projector");
    const test = asked?.voice_test;
    if (test && test.seq !== played) {
      played = test.seq;
      say(`/api/setup/voice/${encodeURIComponent(test.voice)}.wav`);
    }
  } catch {
    // the hall restarting: ask again
  }
  setTimeout(watch, WAIT_MS);
}
setTimeout(watch, WAIT_MS);
