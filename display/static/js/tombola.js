// The projector's tombola draw: the page asks for itself again every 3 s and puts its new lots in place (no
// reload: the screen does not flash between draws).
const REFRESH_MS = 3000;

async function refresh() {
  try {
    const res = await fetch(location.pathname, { headers: { Accept: "text/html" }, cache: "no-store" });
    if (res.ok) {
      const next = new DOMParser().parseFromString(await res.text(), "text/html").querySelector("main");
      const here = document.querySelector("main");
      if (next && here && next.innerHTML !== here.innerHTML) here.replaceWith(next);
    }
  } finally {
    setTimeout(refresh, REFRESH_MS);
  }
}

setTimeout(refresh, REFRESH_MS);
