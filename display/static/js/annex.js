/* The salle annexe's screen, beside the projector's own script (RULES L23): the link to the main hall said on the
   whole screen while it is lost (« liaison perdue — attendez »), the room's name, and a big « Quine ! » that asks
   the main hall to hold its draw (POST /api/room/claim), kept while the link is lost and said so until it is sent. */
import {api, boot, connect, el, kind, t} from "./common.js";

const annex = boot.annex || {};
const lost = el("div", {id: "link-lost", class: "link-lost", role: "alert", "aria-live": "assertive", hidden: true},
  el("div", {class: "link-lost-text", text: t("annex_link_lost")}),
  el("div", {class: "link-lost-sub", text: t("annex_link_lost_sub")}));
const room = el("div", {id: "annex-room", class: "annex-room", text: t("annex_room", {room: annex.room || ""})});
const said = el("div", {id: "annex-said", class: "annex-said", role: "status", hidden: true});
const claim = el("button", {id: "annex-claim", class: "annex-claim", type: "button"});
document.getElementById("stage").after(el("footer", {id: "annex-bar", class: "annex-bar"}, room, said, claim));
document.body.append(lost);

let saidTimer = null;
function showLink(link) {
  document.body.dataset.link = link || "lost";
  lost.hidden = link === "ok";
}
function showKind(state) {
  const p = state && state.partie, i = p ? p.current_lot : null;
  const lot = p && i !== null && i !== undefined ? p.lots[i] : null;
  if (lot) claim.textContent = kind(lot.kind) + " !";
  claim.disabled = !lot;
}
function say(text, stays) {
  clearTimeout(saidTimer);
  said.textContent = text;
  said.hidden = false;
  said.dataset.kept = stays ? "1" : "";
  if (!stays) saidTimer = setTimeout(() => { said.hidden = true; }, 8000);
}

showLink(annex.link);
showKind(null);
const socket = connect(boot.socket_path);
socket.on("state", (state) => { showLink(state.annex && state.annex.link); showKind(state); });
socket.on("annex", (news) => showLink(news.link));
// a « Quine ! » pressed while the link was lost is kept, and said until the main hall has it (RULES L23a)
if (annex.kept) say(t("annex_claim_kept"), true);
socket.on("annex_claim", (news) => {
  if (news.state === "kept") say(t("annex_claim_kept"), true);
  else if (news.state === "sent") say(t("annex_claim_delivered"));
  else if (news.state === "refused") say(news.message || "");
});
// a lot given, a partie begun: which lot a « Quine ! » claims now is in the main's state, asked again
for (const name of ["award", "partie"]) {
  socket.on(name, () => setTimeout(async () => { const res = await api("GET", "/api/state"); if (res.ok) showKind(res.data); }, 300));
}
claim.addEventListener("click", async () => {
  claim.disabled = true;
  const res = await api("POST", "/api/room/claim", {});
  if (res.ok && res.data.kept) say(t("annex_claim_kept"), true);
  else say(res.ok ? t("annex_claim_sent") : res.data.message);
  setTimeout(() => { claim.disabled = false; }, 3000);
});
