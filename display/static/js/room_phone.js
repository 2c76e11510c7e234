/* The phone at a table: a first name → a seat (token kept in localStorage), then the seat's own view.
   Every control that plays carries data-move = that move's JSON as listed in `legal`; nothing else is enabled. */
import {$, boot, COLON, el, t} from "./common.js";
import {DIE, PAWN, card, cardKind, games, seatName, watch} from "./room_common.js";

const code = boot.code;
const KEY = "loto-room-" + code;
let mine = load();          // {token, seat} or null
let room = null, view = null, busy = false, wasMyTurn = false;
let kept = [];              // La Linotte: indexes of the dice the player holds for the next roll

function load() { try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { return null; } }
function save(v) { mine = v; if (v) localStorage.setItem(KEY, JSON.stringify(v)); else localStorage.removeItem(KEY); }
const auth = () => (mine ? {"Authorization": "Bearer " + mine.token} : {});

async function call(method, path, body) {
  const headers = {"Accept": "application/json", ...auth()};
  const init = {method, headers};
  if (body !== undefined) { headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
  try {
    const res = await fetch(path, init);
    let data = {};
    try { data = await res.json(); } catch (e) { data = {message: t("error")}; }
    return {ok: res.ok, status: res.status, data};
  } catch (e) { return {ok: false, status: 0, data: {message: t("network")}}; }
}

function say(text) { $("msg").textContent = text || ""; }

const live = watch(code, () => (mine ? mine.token : null), onGame, (err) => {
  if (err.error === "bad_token" || err.error === "seat_removed") {   // the seat is gone: follow as audience
    save(null); view = null; live.reset();
    if (err.error === "seat_removed") say(err.message);
  }
  else say(err.message);
});

function onGame(ev) {
  room = ev.room;
  document.body.dataset.version = String(ev.version);     // the room's version this phone shows
  if (ev.seat_view) {
    view = ev.seat_view;
    if (mine && mine.seat !== view.seat) save({...mine, seat: view.seat});   // a seat before ours was freed
  }
  else if (mine && room.status === "lobby" && !room.seats[mine.seat]) {
    // a lobby event older than our join (they all carry version 0) may arrive after the join's answer:
    // the server, not that event, says whether our seat is gone
    const token = mine.token;
    call("GET", `/api/games/rooms/${code}/seat`).then((res) => {
      if (res.status === 401 && mine && mine.token === token) { save(null); view = null; render(); }
    });
  }
  render();
}

$("join-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const res = await call("POST", `/api/games/rooms/${code}/join`, {name: $("join-name").value});
  if (res.ok) { save({token: res.data.token, seat: res.data.seat}); say(""); live.reset(); }
  else say(res.data.message);
});
$("back").addEventListener("click", async () => {
  const res = await call("GET", `/api/games/rooms/${code}/seat`);
  if (res.ok) { view = res.data; render(); } else say(res.data.message);
});

async function play(button) {
  if (busy || !view) return;
  busy = true;
  const move = JSON.parse(button.dataset.move);
  const res = await call("POST", `/api/games/rooms/${code}/moves`, {move, version: view.version});
  busy = false;
  if (res.ok) { say(""); kept = []; }
  else {
    say(t("refused") + COLON + res.data.message);
    const fresh = await call("GET", `/api/games/rooms/${code}/seat`);
    if (fresh.ok) { view = fresh.data; render(); }
  }
}

function moveButton(move, label, attrs) {
  const b = el("button", {type: "button", "data-move": JSON.stringify(move), ...(attrs || {})}, label);
  b.addEventListener("click", () => play(b));
  return b;
}

function render() {
  if (!room) return;
  const seated = mine && view && view.seat === mine.seat;
  const audience = !seated;
  $("join-form").hidden = !(audience && room.status === "lobby" && room.seats.length < room.max_seats);
  document.body.classList.toggle("is-audience", audience && !( $("join-form").hidden === false));
  // a seat taken over by a bot (silent past its turn's clock) is not asked to play: the bot plays it
  const myTurn = seated && room.status === "playing" && view.legal.length > 0 && !view.away;
  document.body.classList.toggle("my-turn", myTurn);
  if (myTurn && !wasMyTurn && navigator.vibrate) { try { navigator.vibrate([120, 60, 120]); } catch (e) { /* not allowed */ } }
  wasMyTurn = myTurn;
  $("away").hidden = !(seated && view.away);
  const turn = $("turn");
  turn.className = "rp-turn" + (myTurn ? " yours" : "");
  if (room.status === "over" && room.outcome) {
    const names = room.outcome.winner_names;
    turn.textContent = names.length === 1 ? t("winner", {name: names[0]}) : t("winners", {names: names.join(", ")});
  } else if (room.status === "lobby") {
    turn.textContent = seated ? t("waiting_start", {name: seatName(room, mine.seat)}) : ($("join-form").hidden ? t("audience") : "");
  } else if (room.status === "closed") {
    turn.textContent = t("table_closed");
  } else if (myTurn) {
    turn.textContent = t("your_turn");
  } else if (seated && view.away && (room.to_move || []).includes(mine.seat)) {
    turn.textContent = t("bot_plays_for_you");
  } else {
    const movers = room.to_move || [];
    turn.textContent = movers.length ? t("turn_of", {name: seatName(room, movers[0])}) : "";
  }
  $("after").hidden = !["closed", "over"].includes(room.status);    // a table that ended: the ways back
  const table = $("table"), controls = $("controls");
  table.replaceChildren(); controls.replaceChildren();
  if (room.status === "lobby") {
    table.append(el("ol", {class: "rp-seats"}, ...room.seats.map((s) =>
      el("li", {class: seated && s.seat === mine.seat ? "me" : ""}, s.name))));
    return;
  }
  if (!room.view) return;
  const me = seated ? view : null;
  if (room.game === "lobo77") lobo(table, controls, me, myTurn);
  else if (room.game === "linotte") linotte(table, controls, me, myTurn);
  else if (games[room.game]) {
    // a game of its own script: it draws the public table and, for a seated phone, its own controls
    games[room.game].phone({room, me, myTurn, table, controls, moveButton, render, say, call, code});
  }
}

// ---------------------------------------------------------------- Lobo 77
function lobo(table, controls, me, myTurn) {
  const v = room.view;
  table.append(el("div", {class: "rp-total", role: "group", "aria-label": t("total")}, el("small", {}, t("total")), String(v.total).replace("-", "−")));
  const info = [t(v.direction), t("round", {n: v.round})];
  if (v.to_play === 2) info.push(t("double_play", {n: 2}));
  table.append(el("div", {class: "rp-info"}, info.join(" · ")));
  const list = el("ol", {class: "rp-players"});
  for (const p of v.players) {
    const state = p.out ? t("out") : p.swimming ? t("swimming") : "●".repeat(p.chips);
    list.append(el("li", {class: (p.seat === v.turn ? "on " : "") + (p.out ? "out " : "") + (me && p.seat === me.seat ? "me" : "")},
      el("span", {class: "n"}, seatName(room, p.seat)), el("span", {class: "c"}, state)));
  }
  table.append(list);
  if (v.last) {
    const who = seatName(room, v.last.seat);
    let text = t("played", {name: who, card: card(v.last.card)});
    if (v.last.eliminated) text += " — " + t("eliminated", {name: who});
    else if (v.last.loss) text += " — " + t("lost_chip", {name: who});
    table.append(el("div", {class: "rp-last"}, text));
  }
  if (!me || !me.hand) return;
  const legal = new Map(me.legal.map((m) => [JSON.stringify(m), m]));
  const hand = el("div", {class: "rp-hand", role: "group", "aria-label": t("hand")});
  me.hand.forEach((c) => {
    const move = ["play", c];
    const ok = myTurn && legal.has(JSON.stringify(move));
    const b = moveButton(ok ? legal.get(JSON.stringify(move)) : move, card(c),
      {class: "rp-card " + cardKind(c), disabled: !ok, "aria-label": card(c)});
    hand.append(b);
  });
  controls.append(el("div", {class: "rp-label"}, t("hand")), hand);
}

// ---------------------------------------------------------------- La Linotte
function linotte(table, controls, me, myTurn) {
  const v = room.view;
  const scores = el("div", {class: "rp-scores"});
  [0, 1].forEach((s) => scores.append(el("span", {class: "pawn-" + s + (v.turn === s ? " on" : "")},
    el("span", {class: "n"}, el("span", {class: "pawn-mark", "aria-hidden": "true"}, PAWN[s]), " " + seatName(room, s)),
    el("b", {}, t("score", {n: v.scores[s]})))));
  table.append(scores);
  const legal = me && myTurn ? me.legal : [];
  const keyOf = (m) => JSON.stringify(m);
  const legalMap = new Map(legal.map((m) => [keyOf(m), m]));
  // the dice
  if (v.dice.length) {
    const dice = el("div", {class: "rp-dice"});
    v.dice.forEach((d, i) => {
      const held = kept.includes(i);
      const b = el("button", {type: "button", class: "rp-die" + (held ? " held" : ""), disabled: !myTurn || v.rolls >= 3,
                              "aria-pressed": held ? "true" : "false", "aria-label": String(d)}, DIE[d]);
      b.addEventListener("click", () => { kept = held ? kept.filter((k) => k !== i) : kept.concat([i]); render(); });
      dice.append(b);
    });
    table.append(el("div", {class: "rp-info"}, t("rolls_left", {n: v.rolls}) + (v.sec ? " · " + t("sec") : "")
      + (v.appel ? " · " + t("appel") + " " + t(v.appel) : "")), dice);
  }
  // the grid: free cells open to a pawn are buttons
  const grid = el("div", {class: "rp-grid"});
  v.grid.forEach((row, r) => row.forEach((cell, c) => {
    const index = r * 5 + c;
    const label = t(cell.label) !== cell.label ? t(cell.label) : cell.label;
    const move = ["place", index];
    if (legalMap.has(keyOf(move))) grid.append(moveButton(legalMap.get(keyOf(move)), label, {class: "rp-cell open"}));
    else if (cell.pawn === null) grid.append(el("div", {class: "rp-cell"}, label));
    else grid.append(el("div", {class: "rp-cell pawn-" + cell.pawn, role: "img", "aria-label": t("pawn_on", {cell: label, name: seatName(room, cell.pawn)})},
      el("span", {class: "pawn-mark", "aria-hidden": "true"}, PAWN[cell.pawn]), el("span", {"aria-hidden": "true"}, label)));
  }));
  if (!myTurn) { controls.append(grid); return; }
  const canPlace = legal.some((m) => m[0] === "place");
  if (canPlace) controls.append(el("div", {class: "rp-label rp-place"}, t("place")), grid);
  const keptDice = kept.map((i) => v.dice[i]).sort((a, b) => a - b);
  const rerolls = el("div", {class: "rp-row"});
  const plain = ["keep", keptDice, null];
  if (legalMap.has(keyOf(plain))) {
    controls.append(el("div", {class: "rp-label"}, t("keep_hint")));
    rerolls.append(moveButton(legalMap.get(keyOf(plain)), t("roll"), {class: "rp-big"}));
  }
  for (const appel of ["FULL", "QUINTE", "CARRE", "SMALL", "YAM"]) {
    const m = ["keep", keptDice, appel];
    if (legalMap.has(keyOf(m))) rerolls.append(moveButton(legalMap.get(keyOf(m)), t("appel") + " " + t(appel), {class: "rp-appel"}));
  }
  controls.append(rerolls);
  if (!canPlace) controls.append(grid);
  if (legalMap.has(keyOf(["stop"]))) controls.append(moveButton(["stop"], t("stop"), {class: "rp-stop"}));
}

// first look: our seat if this phone already has one, else the join form (or the audience view)
(async () => {
  if (mine) {
    const res = await call("GET", `/api/games/rooms/${code}/seat`);
    if (res.ok) { view = res.data; } else if (res.status === 401) { save(null); }
  }
  const res = await call("GET", `/api/games/rooms/${code}`);
  if (res.ok) { room = res.data; render(); }
  live.reset();
})();
