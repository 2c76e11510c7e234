/* The speaker's "Jeux" panel: open, start, show, close the rooms; the two screen buttons. On /admin: the switches. */
import {$, api, COLON, connect, el, t} from "./common.js";
import {ask} from "./ask.js";
import {games as registered} from "./room_common.js";

let rooms = [], screen = {show: "loto"}, gameList = [];

/* the "players" choice of the chosen game (its own range; none for a game with a fixed table) */
function players() {
  const box = $("room-players");
  if (!box) return;
  const game = gameList.find((g) => g.game === $("room-game").value);
  box.hidden = !(game && game.players);
  if (box.hidden) return;
  const [low, high] = game.players;
  const chosen = parseInt(box.value, 10);
  const keep = chosen >= low && chosen <= high ? chosen : game.default_players;
  box.replaceChildren();
  for (let n = low; n <= high; n++) {
    box.append(el("option", {value: String(n), ...(n === keep ? {selected: ""} : {})},
      n === 1 ? t("solitaire") : t("players_n", {n})));
  }
  box.value = String(keep);
}
function options() {
  const box = $("room-players");
  return box && !box.hidden ? {players: parseInt(box.value, 10)} : {};
}
const say = (text) => { $("rooms-msg").textContent = text || ""; };

async function act(method, path, body) {
  const res = await api(method, path, body);
  say(res.ok ? "" : res.data.message);
  if (res.ok) refresh();
  return res;
}

async function refresh() {
  const [list, scr] = await Promise.all([api("GET", "/api/games/rooms"), api("GET", "/api/screen")]);
  if (list.ok) rooms = list.data;
  if (scr.ok) screen = scr.data;
  render();
}

function render() {
  if ($("games-switches")) return;
  $("screen-line").textContent = screen.show === "game" ? t("on_screen") + COLON + t("code") + " " + screen.code
    : t("on_screen") + COLON + "loto";
  $("screen-loto").disabled = screen.show !== "game";
  const list = $("rooms-list");
  list.replaceChildren();
  const open = rooms.filter((r) => r.status !== "closed");
  if (!open.length) list.append(el("li", {class: "empty"}, t("no_rooms")));
  for (const r of open) {
    const names = el("div", {class: "room-names"});
    r.seats.forEach((s, i) => {
      if (i) names.append(", ");
      names.append(s.name + (s.bot ? " (" + t("bot") + ")" : ""));
      if (r.status === "lobby" && !s.bot) {     // a squatted seat, a name typed twice: freed before the start
        names.append(" ", el("button", {type: "button", class: "seat-remove", "data-remove": r.code + ":" + s.seat,
          "aria-label": t("remove_seat", {name: s.name}), title: t("remove_seat", {name: s.name}), onclick: async () => {
            if (await ask(t("confirm_remove", {name: s.name, code: r.code}), {yes: t("remove_seat", {name: s.name}), danger: true})) {
              act("POST", `/api/games/rooms/${r.code}/remove`, {seat: s.seat, name: s.name});
            }
          }}, "×"));
      }
    });
    if (!r.seats.length) names.append("—");
    const buttons = el("div", {class: "row-buttons"});
    if (r.status === "lobby") buttons.append(el("button", {type: "button", class: "ok", "data-start": r.code,
      onclick: () => act("POST", `/api/games/rooms/${r.code}/start`)}, t("start")));
    buttons.append(el("button", {type: "button", "data-show": r.code, disabled: screen.code === r.code,
      onclick: () => act("POST", "/api/screen", {show: "game", code: r.code})}, t("show")));
    const own = registered[r.game];      // a game's own console controls (Bid Euchre: the referee's actions)
    if (r.status === "playing" && own && own.staff) buttons.append(own.staff({code: r.code, api, say}));
    buttons.append(el("button", {type: "button", class: "danger", "data-close": r.code, onclick: async () => {
      if (await ask(t("confirm_close", {code: r.code}), {yes: t("close"), danger: true})) act("POST", `/api/games/rooms/${r.code}/close`); }}, t("close")));
    list.append(el("li", {class: "room-row" + (screen.code === r.code ? " on" : "")},
      el("b", {}, r.code), " · ", t(r.game), " · ", t(r.status), names, buttons));
  }
}

async function games() {
  const res = await api("GET", "/api/games");
  if (!res.ok) return;
  if ($("room-game")) {
    gameList = res.data.filter((g) => g.enabled);
    $("room-game").replaceChildren(...gameList.map((g) => el("option", {value: g.game}, t(g.game))));
    players();
  }
  const switches = $("games-switches");
  if (switches) {
    switches.replaceChildren(...res.data.map((g) => {
      const box = el("input", {type: "checkbox", id: "game-" + g.game, checked: g.enabled});
      box.addEventListener("change", async () => {
        const r = await api("POST", "/api/games/switch", {game: g.game, enabled: box.checked});
        say(r.ok ? "" : r.data.message); games();
      });
      return el("li", {}, box, " ", el("label", {for: "game-" + g.game}, t(g.game)));
    }));
  }
}

if ($("room-open")) {
  $("room-open").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const game = $("room-game").value;
    act("POST", "/api/games/rooms", {game, options: options()});
  });
  $("room-game").addEventListener("change", players);
  $("screen-loto").addEventListener("click", () => act("POST", "/api/screen", {show: "loto"}));
  $("screen-games").addEventListener("click", async () => {
    // the newest table still open goes on screen; with none, a Lobo 77 table is opened first
    let target = rooms.filter((r) => r.status !== "closed").slice(-1)[0];
    if (!target) {
      const res = await act("POST", "/api/games/rooms", {game: $("room-game").value || "lobo77", options: options()});
      if (!res.ok) return;
      target = res.data;
    }
    act("POST", "/api/screen", {show: "game", code: target.code});
  });
  const socket = connect();
  socket.on("connect", () => socket.emit("rooms_watch"));
  socket.on("rooms", (data) => { rooms = data.rooms; screen = data.screen; render(); });
}
games();
refresh();
