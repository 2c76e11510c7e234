/* « Mes cartons »: the player's own paper cartons, followed live (INTERFACE §9). The list is kept in this browser
   (no account, no name); the page marks the drawn numbers from the public events of §5, and each carton's standing —
   one to go, complete, valid now or missed and why, the rows paid — is the hall's own claim check, told per carton
   (display/cartons.py: « follow » with the keys the hall handed for the printed codes, then « cartons » and « carton »;
   a relay carries them as the core does). The page never works a verdict out. Page hooks: data-card, data-n,
   data-marked, data-one-to-go, data-complete, and data-verdict, data-reason (the hall's). */
import {$, api, boot, el, kind, live, lotName, t} from "./common.js";
import {node} from "./ids.js";
import {jackpotOf, jackpotText, missedPublic, missedText, playedLot, prizeOf, wonLots} from "./lines.js";
import {caughtUp, hallSays, toldOf} from "./mes_cartons_told.js";
import {followCalling} from "./mes_cartons_voice.js";

const KEY = "loto-mes-cartons";
const DEFAULT_PLAYERS = {help: "auto", one_to_go: true, phone_call: false, max_cards: 24};

let saved = load();          // {cards: [{card_id, display_id, rows}], taps: {partie, numbers}}
let S = null;                // the hall as followed: {partie, draws, last, status, players, valid}
let oneBefore = {};          // card_id → the number it waited for at the last drawing (for the vibration)
let relinked = false;        // the cartons' keys asked again once (a hall that no longer knows them)

function load() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || "null");
    if (v && Array.isArray(v.cards)) return {taps: null, ...v};
  } catch (e) { /* a damaged list starts again empty */ }
  return {cards: [], taps: null};
}
function save() { localStorage.setItem(KEY, JSON.stringify(saved)); }
const players = () => (S && S.players) || DEFAULT_PLAYERS;

// ---- linking -------------------------------------------------------------------------------------------
/* a carton is asked for with the code printed on it (its QR code's ?k=, or typed): the hall shows a grid only then */
const asked = (x) => (typeof x === "string" ? {card_id: x.trim()} : {card_id: String(x.card_id).trim(), code: x.code});
async function link(texts) {
  const have = saved.cards.map((c) => ({card_id: c.card_id, code: c.code}));
  const fresh = texts.map(asked).filter((x) => x.card_id && !have.some((h) => h.card_id === x.card_id));
  $("mc-msg").textContent = "";
  $("mc-suggestions").replaceChildren();
  if (!fresh.length) { render(); return; }
  const res = await api("POST", "/api/players/cards", {card_ids: [...have, ...fresh]});
  if (res.status === 429 && res.data.error === "hall_busy") {      // the whole hall scans at once: wait our turn
    $("mc-msg").textContent = t("mc_busy");
    setTimeout(() => link(fresh), 1000 * (res.data.retry_after || 5));
    return;
  }
  if (!res.ok) { $("mc-msg").textContent = res.data.message || t("network"); return; }
  saved.cards = res.data.cards;
  save();
  follow();
  const refused = res.data.refused.filter((r) => fresh.some((f) => f.card_id === r.text));
  const coded = refused.find((r) => r.error === "bad_card_code");
  if (coded) { $("mc-id").value = coded.card_id; $("mc-code").focus(); }
  $("mc-msg").textContent = refused.map((r) => t("mc_refused_" + r.error, {card: r.card_id})).join(" ");
  $("mc-suggestions").replaceChildren(...refused.flatMap((r) => (r.suggestions || []).map((s) => [s, fresh.find((f) => f.card_id === r.text).code])).map(([s, code]) =>
    el("button", {type: "button", class: "mc-button", text: t("mc_is_it", {card: s}), onclick: () => link([{card_id: s, code}])})));
  render();
}

function remove(cardId) {
  saved.cards = saved.cards.filter((c) => c.card_id !== cardId);
  save();
  render();
}

// ---- what the hall says of each carton ------------------------------------------------------------------
function currentLot() {
  const p = S && S.partie;
  if (!p || S.status === "waiting" || p.current_lot === null || p.current_lot === undefined) return null;
  return p.lots[p.current_lot] || null;
}
/* the hall follows these cartons for this socket: their standings come now, and at every change */
function follow() {
  const keys = saved.cards.map((c) => c.follow).filter(Boolean);
  if (keys.length && conn.socket.connected) conn.socket.emit("follow", {keys});
}

/* cartons linked before the hall handed keys, or whose keys it no longer knows: linked again once, codes kept */
async function relink() {
  if (relinked || !saved.cards.length) return;
  relinked = true;
  const res = await api("POST", "/api/players/cards", {card_ids: saved.cards.map((c) => ({card_id: c.card_id, code: c.code}))});
  if (!res.ok) return;
  const fresh = new Map(res.data.cards.map((c) => [c.card_id, c]));
  saved.cards = saved.cards.map((c) => fresh.get(c.card_id) || c);
  save();
  follow();
}

function marks() {
  const drawn = new Set(S ? S.draws : []);
  if (players().help !== "tap") return drawn;
  const taps = saved.taps && S && S.partie && saved.taps.partie === S.partie.number ? saved.taps.numbers : [];
  return new Set(taps.filter((n) => drawn.has(n)));       // an undrawn number cannot be marked
}

/* the standing the hall told for this carton, for the partie on the page (a standing of another partie is no news) */
function standingOf(card) {
  const c = toldOf(card.card_id);
  if (!c || !S || !S.partie || S.status === "waiting" || c.lot === null) return null;
  return c;
}

// ---- drawing --------------------------------------------------------------------------------------------
function cell(n, marked, tap) {
  if (n === null) return el("td", {class: "blank", "aria-hidden": "true"});
  const on = marked.has(n);
  const label = on ? t("mc_marked", {n}) : String(n);
  const td = el("td", {"data-n": String(n), "data-marked": on ? "1" : null, class: S && n === S.last ? "last" : ""});
  if (tap) {
    td.append(el("button", {type: "button", "aria-pressed": on ? "true" : "false", "aria-label": label, text: String(n),
                            onclick: () => tapNumber(n)}));
  } else {
    td.setAttribute("aria-label", label);
    td.textContent = String(n);
  }
  return td;
}

function cardView(card, marked, tap) {
  const c = standingOf(card);
  const lot = c && S.partie.lots[c.lot] ? S.partie.lots[c.lot] : null;
  const section = el("section", {class: "mc-card", "data-card": card.card_id, "aria-label": t("mc_card", {card: card.display_id})});
  const status = el("p", {class: "mc-status", role: "status"});
  const won = wonLots(S && S.partie, card.card_id).map((l) => lotName(prizeOf(l))).join(", ");
  // with « tap », the player's own marks first: the hall's word on a carton once every drawn number on it is marked
  const drawn = new Set(S ? S.draws : []);
  const behind = tap && card.rows.some((row) => row.some((n) => n !== null && drawn.has(n) && !marked.has(n)));
  const extra = [];
  if (c && lot && !behind) {
    section.dataset.verdict = c.verdict;
    if (c.reason) section.dataset.reason = c.reason;
    if (c.prize) section.dataset.prize = c.prize;             // a maxi-bingo's: jackpot or fallback
    if (c.verdict === "valid" || c.verdict === "missed") section.dataset.complete = lot.kind;
    const playing = playedLot(lot, jackpotOf(S.partie.jackpots, c.lot));
    if (c.verdict === "valid" && S.valid.has(card.card_id)) {     // checked valid on this ball: its lot is being awarded
      status.className = "mc-status valid";
      status.textContent = t("mc_valid_pending", {lot: lotName(playing)});
    } else if (c.verdict === "valid") {
      status.className = "mc-status call";
      const prize = c.prize === "jackpot" ? t("mc_prize_jackpot") : c.prize === "fallback" ? t("mc_prize_fallback", {lot: lot.fallback ? lot.fallback.label : lot.label}) : "";
      status.textContent = t("mc_call", {kind: kind(lot.kind)}) + (prize ? " " + prize : "");
    } else if (c.verdict === "missed") {
      status.className = "mc-status late";
      status.textContent = missedText("mc_", c.reason, lot, S.last);
    } else if (c.verdict === "cancelled_card") {
      status.className = "mc-status late";
      status.textContent = t("mc_cancelled");
    }
    if (c.verdict !== "valid" && c.to_go.length === 1 && players().one_to_go) {
      section.dataset.oneToGo = String(c.to_go[0]);
      const line = t("mc_one_to_go", {n: c.to_go[0]});
      if (status.textContent) extra.push(el("p", {class: "mc-status one", text: line}));
      else { status.className = "mc-status one"; status.textContent = line; }
    }
  }
  if (!status.textContent && won) {
    status.className = "mc-status won";
    status.textContent = t("mc_won", {lot: won});
  }
  const wonLine = won && !status.className.includes("won") ? el("p", {class: "mc-won", text: t("mc_won", {lot: won})}) : null;
  const paid = new Set(c ? Object.values(c.paid || {}).flat() : []);       // rows paid in this partie, any kind
  const table = el("table", {class: "mc-grid", role: "grid", "aria-label": t("mc_card", {card: card.display_id})});
  card.rows.forEach((row, r) => table.append(el("tr", {class: paid.has(r) ? "mc-paid" : ""}, ...row.map((n) => cell(n, marked, tap)))));
  const head = el("div", {class: "mc-card-head"},
    el("span", {class: "mc-card-id"}, node(card.card_id)),
    el("button", {type: "button", class: "mc-remove", text: t("remove"), "aria-label": t("mc_remove_card", {card: card.display_id}),
                  onclick: () => remove(card.card_id)}));
  section.append(head, status, ...extra, ...(wonLine ? [wonLine] : []), table);
  if (c && lot && c.verdict === "valid" && players().phone_call) {
    section.append(el("button", {type: "button", class: "mc-call", text: t("mc_call_button", {kind: kind(lot.kind)}),
                                 onclick: () => phoneCall(card)}));
  }
  // best first: a complete carton, then the fewest numbers still to come, as the hall counts them
  const count = !c || !lot || behind ? 99 : c.verdict === "valid" || c.verdict === "missed" ? 0 : c.to_go.length || 98;
  return {section, count};
}

function render() {
  const p = players();
  const closed = p.help === "off", board = p.help === "board", tap = p.help === "tap";
  $("mc-closed").hidden = !closed;
  $("mc-board-box").hidden = !board;
  $("mc-tools").hidden = !tap;
  $("mc-tap-help").hidden = !tap;
  $("mc-catch-up").hidden = !tap;
  $("mc-add").hidden = closed || board;
  const lot = currentLot();
  const last = S ? S.last : null;
  $("mc-last").textContent = last === null ? "—" : String(last);
  $("mc-last").dataset.n = last === null ? "" : String(last);
  const partie = S && S.partie, open = partie ? partie.current_lot : null;
  $("mc-lot").textContent = lot ? lotName(playedLot(lot, jackpotOf(partie.jackpots, open)))
    : (partie && S.status !== "waiting" ? t("all_awarded") : t("status_waiting"));
  // a maxi-bingo's balls left as the hall counts them, from the partie's first ball (the open one's, else the next)
  const j = lot ? jackpotOf(partie.jackpots, open) || (partie.jackpots || [])[0] : null;
  $("mc-jackpot").textContent = j ? jackpotText(partie.lots[j.lot], j) : "";
  between();
  const n = S ? S.draws.length : 0;
  $("mc-count").textContent = t(n === 0 ? "drawn_zero" : n === 1 ? "drawn_one" : "drawn_many", {n});
  if (board) drawBoard();
  const shown = closed || board ? [] : saved.cards;
  const marked = marks();
  const views = shown.map((c, i) => ({...cardView(c, marked, tap), i}));
  views.sort((a, b) => a.count - b.count || a.i - b.i);          // best first: fewest numbers missing
  $("mc-cards").replaceChildren(...views.map((v) => v.section));
  $("mc-empty").hidden = closed || board || saved.cards.length > 0;
  const now = {};
  for (const v of views) if (v.section.dataset.oneToGo) now[v.section.dataset.card] = v.section.dataset.oneToGo;
  const fresh = Object.entries(now).some(([c, x]) => oneBefore[c] !== x);
  if (fresh && navigator.vibrate) navigator.vibrate([120, 80, 120]);
  oneBefore = now;
}

/* between parties: the next partie and its lots, as the projector shows them */
function between() {
  const next = S && (!S.partie || S.status === "waiting") ? S.next : null;
  $("mc-next").hidden = !next;
  if (!next) return;
  $("mc-next-title").textContent = t("next_partie", {n: next.number});
  $("mc-next-lots").replaceChildren(...next.lots.map((l) => el("li", {text: lotName(l)})));
}

function drawBoard() {
  const drawn = new Set(S ? S.draws : []);
  const cells = [];
  for (let n = 1; n <= 90; n++) {
    cells.push(el("span", {"data-n": String(n), "data-marked": drawn.has(n) ? "1" : null,
                           class: S && n === S.last ? "last" : "", "aria-label": drawn.has(n) ? t("mc_marked", {n}) : String(n)}, String(n)));
  }
  $("mc-board").replaceChildren(...cells);
}

function news(text) { $("mc-news").textContent = text; }
/* a sentence naming cartons: each ID as the cards show it (its check character apart), never broken at its dash */
function newsOf(key, params, cards) {
  const [before, after = ""] = t(key, {...params, card: "\u0000"}).split("\u0000");
  $("mc-news").replaceChildren(before, ...cards.flatMap((c, i) => (i ? [", ", node(c)] : [node(c)])), after);
}

// ---- the player's own acts ------------------------------------------------------------------------------
function tapNumber(n) {
  if (!S || !S.partie || !S.draws.includes(n)) { news(t("mc_not_drawn", {n})); return; }
  if (!saved.taps || saved.taps.partie !== S.partie.number) saved.taps = {partie: S.partie.number, numbers: []};
  const at = saved.taps.numbers.indexOf(n);
  if (at >= 0) saved.taps.numbers.splice(at, 1); else saved.taps.numbers.push(n);
  save();
  render();
}

function catchUp() {
  if (!S || !S.partie) return;
  saved.taps = {partie: S.partie.number, numbers: S.draws.slice()};
  save();
  render();
}

async function phoneCall(card) {
  const res = await api("POST", "/api/players/call", {card_id: card.card_id, code: card.code});
  news(res.ok ? t("mc_call_sent") : res.data.message);
}

// ---- the hall's events ----------------------------------------------------------------------------------
function onState(s) {
  // the strip's news belongs to its partie: connected again to another (the next evening, after a restart), it goes
  if (S && (S.partie && S.partie.number) !== (s.partie && s.partie.number)) news("");
  S = {partie: s.partie, draws: (s.draws || []).slice(), last: s.last, status: s.status, players: s.players || DEFAULT_PLAYERS,
       valid: new Set((s.winners || []).map((w) => w.card_id)),
       next: s.next_partie || null};
  caughtUp();
  render();
  followCalling("state", s, S);
}
const mine = (cardId) => saved.cards.some((c) => c.card_id === cardId);

function onEvent(name, ev) {
  if (!S) return;
  caughtUp();                       // the standings told for this record, now the page has it
  if (name === "draw") {
    if (!S.partie || S.partie.number !== ev.partie) { conn.resync(); return; }
    S.draws.push(ev.number); S.last = ev.number; S.status = "playing"; S.valid.clear();
    S.partie.jackpots = ev.jackpots || [];
    news("");
  } else if (name === "undo") {
    S.draws = S.draws.filter((x) => x !== ev.number);
    S.last = S.draws.length ? S.draws[S.draws.length - 1] : null;
    S.valid.clear();
    if (S.partie) S.partie.jackpots = ev.jackpots || [];
    if (saved.taps) { saved.taps.numbers = saved.taps.numbers.filter((x) => x !== ev.number); save(); }
    news(t("undone", {n: ev.number}));
  } else if (name === "partie") {
    if (ev.status === "started") {
      const open = ev.lots.findIndex((l) => l.status === "open");
      S.partie = {number: ev.number, lots: ev.lots, current_lot: open >= 0 ? open : 0, jackpots: ev.jackpots || []};
      S.draws = []; S.last = null; S.status = "playing"; S.valid.clear(); S.next = null;
      saved.taps = null; save();
      news(t("partie_starts", {n: ev.number}));
    } else {
      S.partie = {...(S.partie || {}), number: ev.number, lots: ev.lots};
      S.draws = []; S.last = null; S.status = "waiting"; S.valid.clear(); S.next = ev.next_partie || null;
      news(t("demarquez"));
    }
  } else if (name === "award") {
    const lots = S.partie ? S.partie.lots : [];
    const lot = ev.lot && lots[ev.lot.index];
    if (lot) {
      lot.status = "awarded"; lot.winners = ev.winners; lot.rows = ev.rows || [];
      if (ev.prize) lot.prize = ev.prize;            // a maxi-bingo's prize, as the hall gave it
    }
    if (S.partie) {
      S.partie.current_lot = ev.current_lot;
      S.partie.jackpots = ev.jackpots || [];
      if (ev.current_lot !== null && ev.current_lot !== undefined && lots[ev.current_lot]) lots[ev.current_lot].status = "open";
    }
    S.valid.clear();
    newsOf(ev.winners.some(mine) ? "mc_won_news" : "won", {lot: lotName(lot || ev.lot)}, ev.winners);
  } else if (name === "claim") {
    S.status = "checking";
    news(t("checking"));
  } else if (name === "resume") {
    S.status = "playing";
    news("");
  } else if (name === "verdict" && ev.verdict === "valid") {
    // a carton valid on this ball: said as the hall says it, « votre carton » when it is one of ours; the strip never
    // keeps an earlier false claim while our own carton is being validated
    S.valid.add(ev.card_id);
    const lot = ev.lot ? lotName(ev.lot) : "";
    newsOf(mine(ev.card_id) ? "mc_valid_mine" : "mc_valid_other", {lot}, [ev.card_id]);
  } else if (name === "verdict") {
    news(ev.verdict === "missed" ? missedPublic(ev.reason) : t("false_claim"));   // which reason holds
  } else if (name === "players") {
    S.players = {help: ev.help, one_to_go: ev.one_to_go, phone_call: ev.phone_call, max_cards: ev.max_cards};
  }
  render();
  followCalling(name, ev, S);       // « Je n'ai pas entendu », the ritual's words
}

/* the hall's word on our own cartons (no seq: not journal events) */
function onNotice(name, data) {
  if (name === "cartons") {
    (data.items || []).forEach(hallSays);
    if ((data.unknown || []).length) relink();     // keys the hall does not know (any more): the codes again
  } else if (name === "carton") hallSays(data);
  else return;
  if (S) render();
}

const conn = live({state: onState, event: onEvent, notice: onNotice});
const online = (on) => { $("mc-net").hidden = on; document.body.classList.toggle("is-offline", !on); };
// the hall says something at least every 2 s ([server] ping_s): an event, else its « beat » (the core's or a relay's);
// nothing heard for 4.5 s is « hors ligne », said at once. A beat names the hall's last event: one past ours was
// lost on the way, so we ask for the state again. Nothing for 12 s: the connection is dead without knowing it
// (Engine.IO's own ping is 25 s apart), so it is dropped and the client reconnects; the page catches up by seq.
const QUIET_MS = 4500, DEAD_MS = 12000;
let heard = Date.now();
const alive = () => { heard = Date.now(); if (conn.socket.connected && navigator.onLine !== false) online(true); };
conn.socket.io.on("ping", alive);
conn.socket.onAny(alive);
conn.socket.on("beat", (b) => {
  const ours = document.body.dataset.seq;
  if (b && typeof b.at_seq === "number" && ours !== undefined && b.at_seq > Number(ours)) conn.resync();
});
setInterval(() => {
  const quiet = Date.now() - heard;
  if (quiet > QUIET_MS) online(false);
  if (quiet > DEAD_MS && conn.socket.connected) { heard = Date.now(); conn.socket.io.engine.close(); }
}, 500);
conn.socket.on("connect", () => { alive(); follow(); });     // every socket, a relay's too, follows our cartons
conn.socket.on("disconnect", () => online(false));
conn.socket.on("connect_error", () => online(false));
window.addEventListener("offline", () => online(false));          // the phone left the hall's Wi-Fi: say it at once
window.addEventListener("online", () => online(conn.socket.connected));

$("mc-add").addEventListener("submit", (e) => {
  e.preventDefault();
  const v = {card_id: $("mc-id").value, code: $("mc-code").value};
  $("mc-id").value = $("mc-code").value = "";
  link([v]);
});
$("mc-catch-up").addEventListener("click", catchUp);
render();
if (saved.cards.some((c) => !c.follow)) relink();   // linked before the hall handed keys
if (boot.link_error) $("mc-msg").textContent = t("mc_refused_" + boot.link_error, {card: ""});
if (boot.link && boot.link.length) {
  history.replaceState(null, "", "/mes-cartons");
  link(boot.link);
}
