/* /admin « + Salle annexe » (RULES L23): name a room (POST /api/rooms), show its one-time code big with the command
   its device runs and a QR code of it (POST /api/rooms/{room}/command), a new code for a room (POST
   /api/rooms/{room}/code, asked first), and each room's link (GET /api/rooms), refreshed every two seconds. */
import {$, api, el, t} from "./common.js";
import {ask} from "./ask.js";

const EVERY_MS = 2000;

function say(text, ok) {
  $("annex-msg").textContent = text;
  $("annex-msg").className = ok ? "lead ok-line" : "lead error-line";
}

/* the code just made: big, with the command line and its QR code */
async function offer(room, code) {
  const res = await api("POST", "/api/rooms/" + encodeURIComponent(room) + "/command", {code});
  if (!res.ok) { say(res.data.message, false); return; }
  $("annex-offer-room").textContent = room;
  $("annex-code").textContent = res.data.code;
  $("annex-command").textContent = res.data.command;
  $("annex-qr").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(res.data.qr_svg);
  $("annex-offer").hidden = false;
  say(t("rooms_admin_made", {room}), true);
}

function state(r) {
  if (r.going_on) return ["degraded", t("rooms_admin_going_on")];
  if (r.online) return ["ok", t("rooms_admin_online")];
  if (r.last_seen_s === null || r.last_seen_s === undefined) return ["none", t("rooms_admin_never")];
  return ["absent", t("rooms_admin_lost")];
}

async function newCode(room) {
  if (!await ask(t("rooms_admin_new_code_ask", {room}), {text: t("rooms_admin_new_code_text"), yes: t("rooms_admin_new_code")})) return;
  const res = await api("POST", "/api/rooms/" + encodeURIComponent(room) + "/code");
  if (!res.ok) { say(res.data.message, false); return; }
  await offer(res.data.room, res.data.code);
  load();
}

async function load() {
  const res = await api("GET", "/api/rooms");
  if (!res.ok) return;
  const rooms = res.data.rooms;
  $("annex-none").textContent = rooms.length ? "" : t("rooms_admin_none");
  $("annex-list").replaceChildren(...rooms.map((r) => {
    const [tone, words] = state(r);
    const seen = r.last_seen_s === null || r.last_seen_s === undefined ? "—" : t("rooms_admin_seen", {s: r.last_seen_s});
    return el("tr", {"data-room": r.room, "data-online": String(r.online)},
      el("th", {scope: "row", text: r.room}),
      el("td", {}, el("span", {class: "device " + tone, text: words})),
      el("td", {class: "dim", text: seen}),
      el("td", {}, el("button", {type: "button", class: "annex-new-code", text: t("rooms_admin_new_code"),
                                 "aria-label": t("rooms_admin_new_code") + " — " + r.room, onclick: () => newCode(r.room)})));
  }));
}

$("annex-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const room = $("annex-name").value.trim();
  const res = await api("POST", "/api/rooms", {room});
  if (!res.ok) { say(res.data.message, false); return; }
  $("annex-name").value = "";
  await offer(res.data.room, res.data.code);
  load();
});
$("annex-copy").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("annex-command").textContent);
    say(t("rooms_admin_copied"), true);
  } catch (e) {  // no clipboard outside HTTPS and localhost: the command stays selected to copy by hand
    const range = document.createRange();
    range.selectNodeContents($("annex-command"));
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }
});
load();
setInterval(load, EVERY_MS);
