/* The projector: the last number huge, the board, the lot, banners. Public, read-only. */
import {$, api, boot, COLON, el, kind, live, lotName, t} from "./common.js";
import {show} from "./ids.js";
import {addWinner, clearWinners, hallTieRule, tieRule, tiersText, winnerIds, withIds} from "./projector_evening.js";
import {awardedLot, jackpotOf, missedPublic, prizeText, verdictLot} from "./lines.js";
import {announced, countedJackpot, jackpotLost, renderJackpot, shownLot} from "./projector_lines.js";
import {voiceEvent, voiceState} from "./projector_voice.js";
import {annexChime} from "./annex_chime.js";
import {nickname, say} from "./speech.js";

const params = new URLSearchParams(location.search);
const speech = Object.assign({}, boot.speech || {});
if (params.has("speech")) speech.enabled = params.get("speech") !== "0";
if (params.has("nicknames")) speech.nicknames = params.get("nicknames") !== "0";
if (params.has("rate")) speech.rate = parseFloat(params.get("rate")) || speech.rate;

let S = null;               // the state as the server last described it, kept up to date by events
let bannerTimer = null, tieTimers = [];
let telling = null;         // the lot whose tie-break is being told: the header stays on it until its winner is said
let tiersShown = "", tiersAsked = false;   // the caisse's tiers, shown when [hall] prices is empty

async function loadTiers() {
  tiersAsked = true;
  const res = await api("GET", "/api/sales/prices");
  if (!res.ok) return;
  tiersShown = tiersText(res.data.tiers);
  if (S && !S.prices && !document.body.classList.contains("is-over")) $("between-prices").textContent = tiersShown;
}

// the board: 9 rows of 10, built once
const board = $("board");
const cells = [null];
for (let n = 1; n <= 90; n++) {
  const c = el("div", {class: "cell", text: String(n), "data-n": String(n)});
  cells.push(c);
  board.append(c);
}

/* « ensuite : » and the next lots on one line, never cut in the middle of a label: a smaller size first, then the
   lots that do not fit are counted (« +2 ») rather than cut */
function fitNext(box, names) {
  box.classList.remove("tight");
  if (!names.length) return;
  const say = (k) => box.replaceChildren(el("span", {class: "then", text: t("then") + COLON}),
    names.slice(0, k).join(" · ") + (k < names.length ? " · +" + (names.length - k) : ""));
  say(names.length);
  if (box.scrollWidth <= box.clientWidth) return;
  box.classList.add("tight");
  for (let k = names.length; k >= 1; k--) { say(k); if (box.scrollWidth <= box.clientWidth) return; }
}

function countText(n) { return n === 0 ? t("drawn_zero") : t(n === 1 ? "drawn_one" : "drawn_many", {n}); }

function render() {
  const p = S.partie;
  const playing = p && S.status !== "waiting" && S.status !== "cleared";
  $("partie").textContent = p && playing ? t("partie", {n: p.number}) : (S.hall || "");
  const shown = telling !== null ? telling : p && p.current_lot;
  const current = p && playing && shown !== null && shown !== undefined ? p.lots[shown] : null;
  $("lot").textContent = current ? shownLot(current, jackpotOf(p.jackpots, shown)) : (playing ? t("all_awarded") : "");
  renderJackpot(p, playing ? countedJackpot(p, shown) : null);   // a maxi-bingo: its balls left, from the partie's start
  const next = $("next-lots");
  next.replaceChildren();
  if (current) fitNext(next, p.lots.slice(shown + 1).map(lotName));
  $("count").textContent = playing ? countText(S.draws.length) : "";
  const drawn = new Set(S.draws);
  for (let n = 1; n <= 90; n++) {
    cells[n].classList.toggle("drawn", drawn.has(n));
    cells[n].classList.toggle("last", n === S.last);
  }
  renderLast(false);
  const prev = $("previous");
  prev.replaceChildren(...S.draws.slice(-5).reverse().map((n) => el("li", {text: String(n)})));   // [data-recent]
  const between = !playing;
  document.body.classList.toggle("is-between", between);
  $("between").hidden = !between;
  board.hidden = between;
  if (between) {
    $("between-hall").textContent = S.hall || t("welcome");
    const np = S.next_partie;
    const over = Boolean(S.journal && S.journal.closed);  // the evening's close: no next partie
    $("between-title").textContent = np ? t("next_partie", {n: np.number}) : (over ? t("evening_over") : "");
    $("between-lots").replaceChildren(...(np ? np.lots.map((l) => el("li", {text: announced(l)})) : []));
    // once the evening is closed, no price, tie rule or phone help: its end and its fingerprint, big
    document.body.classList.toggle("is-over", over);
    $("between-prices").textContent = over ? "" : S.prices || tiersShown;
    $("between-ties").textContent = over ? "" : hallTieRule();
    const help = S.players && !over ? S.players.help : "off";    // « Mes cartons »: how the hall follows its cartons
    $("between-players").replaceChildren(...(help === "off" ? [] : [el("div", {text: t("players_follow")}),
                                                                     el("div", {class: "dim", text: t("players_help_" + help)})]));
    if (!S.prices && !tiersAsked) loadTiers();
  }
  renderWifi(between ? S.wifi : null);
  renderJournal(between ? S.journal : null);
  if (S.status === "checking" && $("banner").hidden) banner("checking", t("checking"));
  if (S.status !== "checking" && bannerKind === "checking") hideBanner();
}

// after a « Démarquez »: the journal's fingerprint then, big, for anyone in the hall to photograph (docs/record.md)
function renderJournal(j) {
  $("journal").hidden = !j;
  document.body.classList.toggle("has-journal", Boolean(j));
  if (!j) return;
  $("journal-title").textContent = j.closed ? t("journal_closed") : t("journal_after", {n: j.partie});
  $("journal-fp").textContent = j.shown;
  $("journal-how").textContent = t("journal_how", {seq: j.seq});
}

// a QR code drawn by the hall (display/qrcode_svg.py), fetched again only when its text changes
function showQr(holder, src, text, label) {
  if (holder.dataset.qr === text) return;
  holder.dataset.qr = text;
  const img = document.createElement("img");
  img.src = src + "?v=" + encodeURIComponent(text);
  img.alt = label || "";
  holder.replaceChildren(img);
}

// between parties: the hall's Wi-Fi QR code, then the page's own (INTERFACE §1 [network])
function renderWifi(wifi) {
  document.body.classList.toggle("has-wifi", !!wifi);
  $("wifi").hidden = !wifi;
  if (!wifi) return;
  showQr($("wifi-qr"), "/api/wifi/qr.svg", wifi.qr, t("wifi_join", {ssid: wifi.ssid}));
  showQr($("page-qr"), "/api/wifi/page-qr.svg", wifi.url, wifi.url);
  // the network's name on one line, as it is typed (« Loto-Comite » never broken at its hyphen)
  // with its quotation marks (a « » alone at the start of a line reads as a stray sign)
  const [before, after = ""] = t("wifi_join", {ssid: "\u0000"}).split("\u0000");
  const open = (before.match(/[«"“]\s*$/) || [""])[0], close = (after.match(/^\s*[»"”]/) || [""])[0];
  $("wifi-join").replaceChildren(before.slice(0, before.length - open.length),
    el("span", {class: "nowrap"}, open, el("span", {class: "ssid", text: wifi.ssid}), close), after.slice(close.length));
  $("wifi-password").textContent = wifi.password ? t("wifi_password", {password: wifi.password}) : "";
  $("page-open").textContent = t("wifi_then_open");
  $("page-url").textContent = wifi.url;
}

function renderLast(animate) {
  const ball = $("ball");
  $("last").textContent = S.last === null || S.last === undefined ? "" : String(S.last);
  ball.classList.toggle("empty", S.last === null || S.last === undefined);
  $("nickname").textContent = S.last ? nickname(S.last) : "";      // the hall's table, as /admin has it
  if (animate) {
    ball.classList.remove("arrive");
    void ball.offsetWidth;          // restart the (calm, non-flashing) arrival animation
    ball.classList.add("arrive");
  }
}

let bannerKind = null;
function banner(kindName, text, opts) {
  const o = opts || {};
  clearTimeout(bannerTimer);
  bannerKind = kindName;
  const b = $("banner");
  // raised while a game is on screen (the break: an undo, a claim, its verdict), it is shown over the game's view;
  // one raised before stays with the loto, under the game
  b.className = "banner banner-" + kindName + (document.body.classList.contains("is-game") ? " over-game" : "");
  withIds($("banner-text"), text, o.ids);
  document.body.classList.add("has-banner");
  $("banner-sub").textContent = o.sub || "";
  $("banner-lines").replaceChildren();
  b.hidden = false;
  if (o.ms) bannerTimer = setTimeout(hideBanner, o.ms);
}
function hideBanner() {
  clearTimeout(bannerTimer);
  tieTimers.forEach(clearTimeout); tieTimers = [];
  if (telling !== null) { telling = null; if (S) render(); }
  bannerKind = null;
  $("banner").hidden = true;
  document.body.classList.remove("has-banner");
  if (S && S.status === "checking") banner("checking", t("checking"));
}

let followers = [];         // the stage's next lots given by the same draw (docs L14b), said with the winner
const WAYS = {draw: "tie_way_draw", physical: "tie_way_physical", share: "tie_way_share"};

/* a tie's way, said to the hall before any number is drawn (docs L14c), and again if the speaker changes it */
function showTieWay(ev) {
  const way = WAYS[ev.method];
  if (!way) return;
  const wins = t((boot.ties || "").endsWith("highest") ? "tie_highest_wins" : "tie_lowest_wins");
  banner("tie", t(way), {sub: lotName(ev.lot) + (ev.method === "share" ? "" : " — " + wins)});
}

function showTieBreak(ev) {
  const lot = lotName(awardedLot(ev));
  telling = ev.lot.index;
  followers = [];
  banner("tie", t("tie_break"), {sub: tieRule(ev)});   // who wins is said before the numbers
  const lines = $("banner-lines");
  ev.tie_break.forEach((draw, i) => {
    tieTimers.push(setTimeout(() => {
      const li = el("li", {class: "tie-line" + (draw.card_id === ev.winner ? " tie-winner-pending" : "")});
      withIds(li, t("tie_line", {card: show(draw.card_id), n: draw.number}), [draw.card_id]);
      lines.append(li);
    }, 1200 * (i + 1)));
  });
  tieTimers.push(setTimeout(() => {
    for (const li of lines.children) if (li.classList.contains("tie-winner-pending")) li.classList.add("tie-winner");
    telling = null; render();                   // the winner is said: the header moves on to the next lot
    $("banner-text").textContent = t("tie_break") + " — " + tieRule(ev).split(" — ").pop();   // the rule stays said
    const consoled = [...ev.consolation, ...followers.flatMap((f) => f.consolation)];
    withIds($("banner-sub"), [t("won", {lot, card: show(ev.winner)}),
      ...followers.map((f) => t("won", {lot: lotName(f.lot), card: show(f.winner)})),
      ...(consoled.length ? [t("consolation_for", {cards: consoled.map(show).join(", ")})] : [])].join(" · "),
      [ev.winner, ...followers.map((f) => f.winner), ...consoled]);
    bannerTimer = setTimeout(hideBanner, 12000);
  }, 1200 * (ev.tie_break.length + 1)));
}

const on = {
  draw(ev) {
    if (S.draws.includes(ev.number)) return;
    S.draws.push(ev.number); S.last = ev.number; S.status = "playing";
    if (["false", "missed", "won", "start", "undo", "tie", "jackpot"].includes(bannerKind)) hideBanner();
    clearWinners();
    const p = S.partie, before = p ? p.jackpots : [];
    if (p) p.jackpots = ev.jackpots || [];
    render(); renderLast(true);
    const lost = jackpotLost(p, before, p && p.jackpots);
    if (lost) banner("jackpot", lost.text, {sub: lost.sub, ms: 12000});     // ball N + 1: now for the fallback
    say(ev.number, speech);
  },
  undo(ev) {
    const i = S.draws.lastIndexOf(ev.number);
    if (i >= 0) S.draws.splice(i, 1);
    S.last = S.draws.length ? S.draws[S.draws.length - 1] : null;
    if (S.partie) S.partie.jackpots = ev.jackpots || [];
    clearWinners();
    render(); renderLast(true);
    banner("undo", t("undone", {n: ev.number}), {sub: S.last ? t("last_number", {n: S.last}) : "", ms: 10000});
  },
  claim() { S.status = "checking"; if (bannerKind !== "checking") banner("checking", t("checking")); },
  "room:claim"(ev) {               // « Quine ! » in the salle annexe: said on screen, its own chime in this room
    S.status = "checking";
    banner("checking", t("annex_claim"), {sub: t("annex_claim_sub", {room: ev.room})});
    annexChime();
  },
  tie(ev) { showTieWay(ev); },
  resume() { S.status = "playing"; if (bannerKind === "checking") hideBanner(); render(); },
  verdict(ev) {
    S.status = ev.status || S.status;
    const lotKind = ev.lot ? ev.lot.kind : boot.kinds[0];
    if (ev.verdict === "valid") {
      addWinner(ev);
      const all = winnerIds().length > 1 ? winnerIds() : [ev.card_id];
      banner("valid", all.length > 1 ? t("valid_many", {n: all.length, kind: kind(lotKind), cards: all.map(show).join(", ")})
                                      : t("valid_" + lotKind, {card: show(ev.card_id)}),
             {sub: verdictLot(ev) + (ev.prize ? " — " + prizeText(ev) : "") +
                   (all.length > 1 ? " — " + hallTieRule() : ""), ids: all});
    }
    else if (ev.verdict === "incomplete") banner("false", t("false_claim"), {ms: 10000});
    else if (ev.verdict === "missed") banner("missed", missedPublic(ev.reason), {ms: 10000});   // which reason holds
    render();
  },
  award(ev) {
    const p = S.partie;
    if (p && ev.lot) {
      p.lots[ev.lot.index].status = "awarded";
      p.current_lot = ev.current_lot;
      if (ev.current_lot !== null && ev.current_lot !== undefined) p.lots[ev.current_lot].status = "open";
      p.jackpots = ev.jackpots || [];
    }
    S.status = ev.current_lot === null || ev.current_lot === undefined ? "finished" : "playing";
    if (ev.rank) { followers.push(ev); render(); return; }     // said with the draw that gave it (L14b)
    if (ev.tie_break && ev.tie_break.length) showTieBreak(ev);
    else if (ev.shared) banner("won", t("shared", {lot: lotName(awardedLot(ev)), cards: ev.winners.map(show).join(", ")}), {ms: 15000, ids: ev.winners});
    else banner("won", t("won", {lot: lotName(awardedLot(ev)), card: show(ev.winner)}), {ms: 15000, ids: ev.winners});
    render();
  },
  partie(ev) {
    if (ev.status === "started") {
      S.partie = {number: ev.number, lots: ev.lots, current_lot: 0, jackpots: ev.jackpots || []};
      S.draws = []; S.last = null; S.status = "playing"; clearWinners();
      banner("start", t("partie_starts", {n: ev.number}), {sub: ev.lots.map(announced).join(" · "), ms: 8000});
      render();
    } else {
      S.draws = []; S.last = null; S.status = "waiting"; clearWinners();
      banner("clear", t("demarquez"), {ms: 12000});
      render();
      tiersAsked = false;          // the tiers may have changed on /admin since
      connection.resync();         // to learn the next partie's lots
    }
  },
  players(ev) {                    // the phones' help changed on /admin: said to the whole hall
    S.players = ev;
    render();
    banner("start", t("players_help_" + ev.help), {ms: 8000});
  },
  tick(ev) { if (ev.type === "sales:prices_set") { tiersAsked = false; if (S && !S.prices) loadTiers(); } },
};

const connection = live({
  state(state) {
    const first = S === null;
    S = state;
    clearWinners();
    (state.winners || []).forEach((w) => addWinner(w));   // joined during a check: the cartons too
    render();
    if (first && S.status === "checking") banner("checking", t("checking"));
    voiceState(S);
  },
  event(name, ev) { if (on[name]) on[name](ev); voiceEvent(name, ev, S); },
});
