/* The speaker's console's salle annexe (RULES L23): each annex room's link, and while one is lost the
   « Continuer sans la salle annexe » button (POST /api/rooms/{room}/go-on, asked first: the room's players may miss
   a ball); a claim there is said here too. */
import {$, api, el, t} from "./common.js";
import {annexChime} from "./annex_chime.js";
import {ask} from "./ask.js";

function line(r) {
  if (r.going_on) return t("annex_going_on", {room: r.room});
  if (r.online) return t("annex_online", {room: r.room});
  if (r.last_seen_s === null || r.last_seen_s === undefined) return t("annex_never", {room: r.room});
  return t("annex_offline", {room: r.room, s: r.last_seen_s});
}

async function goOn(room, said) {
  if (!await ask(t("annex_go_on_ask", {room}), {text: t("annex_go_on_text"), yes: t("annex_go_on"), danger: true})) return;
  const res = await api("POST", "/api/rooms/" + encodeURIComponent(room) + "/go-on");
  if (!res.ok) said(res.data.message, "error");
}

/* the rooms' links as the state says them (``rooms``); ``said(text, tone)`` shows a refusal on the console */
export function renderRooms(S, said) {
  const box = $("annex-rooms");
  const rooms = (S && S.rooms) || [];
  box.hidden = !rooms.length;
  box.replaceChildren(...rooms.map((r) => {
    const lost = !r.online && !r.going_on && r.last_seen_s !== null && r.last_seen_s !== undefined;
    const item = el("span", {class: "device annex " + (r.online ? "ok" : r.going_on ? "degraded" : "absent"),
                             "data-room": r.room, text: line(r)});
    if (!lost) return item;
    const button = el("button", {type: "button", class: "primary annex-go-on", text: t("annex_go_on")});
    button.addEventListener("click", () => goOn(r.room, said));
    return el("span", {class: "annex-lost"}, item, button);
  }));
}

/* « Quine ! » in the annex: said on the console with the annex's own chime */
export function roomClaim(ev, said) {
  said(t("annex_claim") + " — " + t("annex_claim_sub", {room: ev.room}), "warning");
  annexChime();
}
