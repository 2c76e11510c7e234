// The projector during the first start: once the phone closes setup, the hall's own projector page takes over.
const WAIT_MS = 2000;

async function watch() {
  try {
    const resp = await fetch("/api/state", { cache: "no-store" });
    if (resp.ok && (await resp.json()).setup === false) {
      location.reload();
      return;
    }
  } catch {
    // the hall restarting: ask again
  }
  setTimeout(watch, WAIT_MS);
}
setTimeout(watch, WAIT_MS);
