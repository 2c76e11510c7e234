/* The game on the projector: the QR code and the code to join, whose turn, the table large, the winner.
   On `/` it follows what the speaker puts on screen (GET /api/screen, then `screen` events); on /jeux/<code>
   it always shows that room. Read-only: no control here. */
import {$, connect, el, t} from "./common.js";
import {DIE, PAWN, card, cardKind, games, seatName, watch} from "./room_common.js";

const box = $("game-screen");
const fixed = box.dataset.code || null;
let code = null, live = null, room = null, lastKey = "";

function show(newCode) {
  if (newCode === code) return;
  code = newCode;
  box.hidden = !code;
  document.body.classList.toggle("is-game", !!code);
  room = null; lastKey = "";
  if (!code) return;
  $("gs-qr").src = `/jeux/${code}/qr.svg`;
  $("gs-code").textContent = code;
  fetch(`/api/games/rooms/${code}`).then((r) => r.json()).then((r) => {
    if (r.join_url) $("gs-url").textContent = r.join_url.replace(/^https?:\/\//, "").replace(/\/j\/[A-Z]+$/, "/j");
  }).catch(() => {});
  if (live) live.socket.disconnect();
  live = watch(code, () => null, (ev) => { room = ev.room; render(); });
}

function render() {
  if (!room) return;
  $("gs-game").textContent = t(room.game);
  $("gs-status").textContent = t(room.status);
  const players = $("gs-players"), table = $("gs-table"), turn = $("gs-turn");
  players.replaceChildren(); table.replaceChildren();
  const movers = room.to_move || [];
  turn.textContent = room.status === "lobby" ? t("waiting_players")
    : room.status === "playing" && movers.length ? t("turn_of", {name: seatName(room, movers[0])}) : "";
  const winner = $("gs-winner");
  winner.hidden = !(room.status === "over" && room.outcome);
  turn.hidden = !winner.hidden;                 // the winners take the turn's line
  if (!winner.hidden) {
    const names = room.outcome.winner_names;
    winner.textContent = names.length === 1 ? t("winner", {name: names[0]}) : t("winners", {names: names.join(", ")});
  }
  if (!room.view) {
    room.seats.forEach((s) => players.append(el("li", {class: s.bot ? "bot" : ""}, s.name)));
    if (room.status === "lobby") {
      const n = room.seats.length;        // the places of the table the speaker opened (more may join, up to the game's)
      table.append(el("div", {class: "gs-lobby"}, t(n <= 1 ? "joined_one" : "joined", {n, max: room.table_size})),
                   el("div", {class: "gs-lobby-hint"}, t("lobby_hint")));
    }
    return;
  }
  if (room.game === "lobo77") lobo(table, players);
  else if (room.game === "linotte") linotte(table, players);
  else if (games[room.game]) games[room.game].screen({room, table, players, fresh});
}

function fresh(key) { const changed = key !== lastKey; lastKey = key; return changed; }

function lobo(table, players) {
  const v = room.view;
  const key = v.last ? `${room.version}` : "";
  const arrive = v.last && fresh(key);
  const total = el("div", {class: "gs-total" + (arrive ? " arrive" : "")}, String(v.total).replace("-", "−"));
  const side = el("div", {class: "gs-side"});
  if (v.discard_top !== null) side.append(el("div", {class: "gs-card " + cardKind(v.discard_top) + (arrive ? " arrive" : "")}, card(v.discard_top)));
  side.append(el("div", {class: "gs-dir"}, t(v.direction)));
  if (v.to_play === 2) side.append(el("div", {class: "gs-x2"}, t("double_play", {n: 2})));
  table.append(el("div", {class: "gs-lobo"}, el("div", {class: "gs-total-box"}, el("div", {class: "gs-total-label"}, t("total")), total), side));
  if (v.last) {
    const who = seatName(room, v.last.seat);
    let text = t("played", {name: who, card: card(v.last.card)});
    if (v.last.eliminated) text += " — " + t("eliminated", {name: who});
    else if (v.last.loss) text += " — " + t("lost_chip", {name: who});
    table.append(el("div", {class: "gs-last" + (v.last.loss ? " loss" : "")}, text));
  }
  for (const p of v.players) {
    const chips = p.out ? t("out") : p.swimming ? t("swimming") : "●".repeat(p.chips);
    players.append(el("li", {class: (p.seat === v.turn ? "on " : "") + (p.out ? "out " : "") + (room.seats[p.seat].bot ? "bot" : "")},
      el("span", {class: "n"}, seatName(room, p.seat)),
      el("span", {class: "c"}, chips)));
  }
}

function linotte(table, players) {
  const v = room.view;
  const cell = v.last ? v.last.cell : null;
  const arrive = fresh(`${v.last ? JSON.stringify(v.last) : ""}`);
  const grid = el("div", {class: "gs-grid"});
  v.grid.forEach((row, r) => row.forEach((c, k) => {
    const index = r * 5 + k;
    const label = t(c.label) !== c.label ? t(c.label) : c.label;
    const cls = "gs-cell" + (c.pawn === null ? "" : " pawn-" + c.pawn) + (index === cell && arrive ? " arrive" : "")
      + (v.open_cells.includes(index) ? " open" : "");
    grid.append(c.pawn === null ? el("div", {class: cls}, label)
      : el("div", {class: cls, role: "img", "aria-label": t("pawn_on", {cell: label, name: seatName(room, c.pawn)})},
        el("span", {class: "pawn-mark", "aria-hidden": "true"}, PAWN[c.pawn]), el("span", {"aria-hidden": "true"}, label)));
  }));
  const dice = el("div", {class: "gs-dice"}, ...v.dice.map((d) => el("span", {class: "gs-die"}, DIE[d])));
  const info = [];
  if (v.rolls) info.push(t("rolls_left", {n: v.rolls}));
  if (v.sec) info.push(t("sec"));
  if (v.appel) info.push(t("appel") + " " + t(v.appel));
  table.append(el("div", {class: "gs-linotte"}, grid, el("div", {class: "gs-side"}, dice,
    el("div", {class: "gs-info"}, info.join(" · ")))));
  [0, 1].forEach((s) => players.append(el("li", {class: "pawn-" + s + (v.turn === s ? " on" : "")},
    el("span", {class: "n"}, el("span", {class: "pawn-mark", "aria-hidden": "true"}, PAWN[s]), " " + seatName(room, s)),
    el("span", {class: "c"}, t("score", {n: v.scores[s]})))));
}

if (fixed) show(fixed);
else {    // the projector `/`: what the speaker put on screen
  const follow = (screen) => show(screen && screen.show === "game" ? screen.code : null);
  fetch("/api/screen").then((r) => r.json()).then(follow).catch(() => {});
  const screenSocket = connect();
  screenSocket.on("screen", follow);
  screenSocket.on("connect", () => fetch("/api/screen").then((r) => r.json()).then(follow).catch(() => {}));
}
