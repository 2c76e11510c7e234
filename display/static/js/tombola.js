// The projector's tombola draw: the page asks for itself again every 3 s and puts its new lots in place (no
// reload: the screen does not flash between draws). A winner newly drawn is called big and, when the hall's voice
// is on, said: « le billet numéro N » (/speech/tombola/N.wav, rendered on the Pi as the balls are).
const REFRESH_MS = 3000;
const won = (main) => ((main && main.dataset.won) || "").split(" ").filter(Boolean);
const said = new Set(won(document.querySelector("main")));  // the winners already drawn when the page opened
const toSay = [];
let saying = false;

/* each winner newly drawn, in the draw's order, one clip after the other */
function sayNext() {
  if (saying || !toSay.length) return;
  saying = true;
  const clip = new Audio("/speech/tombola/" + toSay.shift() + ".wav");
  const done = () => { saying = false; sayNext(); };
  clip.addEventListener("ended", done);
  clip.addEventListener("error", done);
  clip.play().catch(done);  // a screen that may not play sound yet still shows the winner
}

function call(main) {
  for (const ticket of won(main)) {
    if (said.has(ticket)) continue;
    said.add(ticket);
    if (main.dataset.voice === "1") toSay.push(ticket);
  }
  sayNext();
}

async function refresh() {
  try {
    const res = await fetch(location.pathname, { headers: { Accept: "text/html" }, cache: "no-store" });
    if (res.ok) {
      const next = new DOMParser().parseFromString(await res.text(), "text/html").querySelector("main");
      const here = document.querySelector("main");
      if (next && here && (next.innerHTML !== here.innerHTML || next.dataset.won !== here.dataset.won)) {
        here.replaceWith(next);
        call(next);
      }
    }
  } finally {
    setTimeout(refresh, REFRESH_MS);
  }
}

setTimeout(refresh, REFRESH_MS);
