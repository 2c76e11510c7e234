/* The controller's phone: scan or type a carton, see the verdict full screen with the carton drawn. */
import {$, api, cardGrid, el, live, lotName, lotTerms, t} from "./common.js";
import {node, show} from "./ids.js";
import {verdictLot} from "./lines.js";
import {cardIdFrom, scanButton} from "./scan.js";
import {MARKS, verdictText} from "./staff.js";

let busy = false;

/* a quine on a named row: that row framed on the carton drawn (RULES L21), the only one that counts */
function namedRow(table, lot) {
  if (lot && lot.row && table.rows[lot.row - 1]) table.rows[lot.row - 1].classList.add("row-named");
  return table;
}

async function check(cardId) {
  if (busy || !cardId) return;
  busy = true;
  $("id-msg").textContent = "";
  const res = await api("POST", "/api/claims", {card_id: cardId});
  busy = false;
  if (!res.ok) { $("id-msg").textContent = res.data.message; return; }
  showVerdict(res.data);
}

function showVerdict(v) {
  const said = verdictText(v);
  const again = (v.checked_before || []).length;
  // checked before for this very lot and refused again: orange; a valid carton is green whatever came before
  // (a double quine checked at its quine is valid: orange would be announced as a refusal)
  const repeat = v.verdict !== "valid" && said.tone !== "hint" && (v.checked_before || []).some((c) => v.lot && c.lot_index === v.lot.index);
  const tone = repeat ? "warn" : said.tone;
  const box = $("verdict");
  box.className = "verdict " + tone;
  box.dataset.tone = tone;
  $("verdict-mark").textContent = MARKS[tone];
  $("verdict-line").textContent = said.line;
  $("verdict-note").hidden = !again;
  $("verdict-note").textContent = again ? t("already_checked", {n: again}) : "";
  $("verdict-card").replaceChildren(node(v.card_id));
  $("verdict-suggestions").replaceChildren(...(v.suggestions || []).map((s) => el("button", {type: "button",
    class: "suggestion", text: t("check_this", {card: show(s)}), onclick: () => { $("verdict").hidden = true; check(s); }})));
  $("verdict-grid").replaceChildren(v.card ? namedRow(cardGrid(v.card), v.lot) : "");
  $("verdict-sub").textContent = [v.lot && (v.verdict === "valid" || lotTerms(v.lot)) ? verdictLot(v) : "",
                                  v.last ? t("last_number", {n: v.last}) : ""].filter(Boolean).join(" · ");
  box.dataset.verdict = v.verdict;
  box.dataset.ball = String(v.last || "");
  const nav = document.querySelector("nav.nav");       // the top bar stays reachable above the verdict
  box.style.top = nav ? Math.max(0, nav.getBoundingClientRect().bottom) + "px" : "0";
  box.hidden = false;
  stopScan();
  $("verdict-close").focus();
}
function closeVerdict() { $("verdict").hidden = true; $("card-id").value = ""; }

$("verdict-close").addEventListener("click", closeVerdict);
$("id-form").addEventListener("submit", (ev) => { ev.preventDefault(); check($("card-id").value.trim()); });
$("announce").addEventListener("click", async () => {
  const res = await api("POST", "/api/claims/announce");
  $("id-msg").textContent = res.ok ? t("checking") : res.data.message;
});
const stopScan = scanButton("scan_start", (text) => check(cardIdFrom(text)));

// the lot in play and a check in progress, so the controller knows what is being claimed
function showPlay(s) {
  const p = s.partie, lot = p && p.current_lot !== null && p.current_lot !== undefined && !["waiting", "cleared"].includes(s.status) ? p.lots[p.current_lot] : null;
  $("ctl-lot").textContent = lot ? lotName(lot) : "";
  $("ctl-checking").hidden = s.status !== "checking";
}
function showLast(s) {
  const last = s.draws && s.draws.length ? s.draws[s.draws.length - 1] : s.last;
  $("ctl-last").textContent = last ? t("last_number", {n: last}) : t("status_" + (s.status === "cleared" ? "waiting" : s.status));
}
/* each event moves the state on by what it says (its status, its ball, its lot): never the whole state asked again */
const ON = {
  draw(s, ev) { s.draws = (s.draws || []).concat(ev.number); s.status = "playing"; return true; },
  undo(s, ev) {
    const i = (s.draws || []).lastIndexOf(ev.number);
    if (i >= 0) s.draws.splice(i, 1);
    s.status = ev.status || s.status;
    return true;
  },
  claim(s, ev) { s.status = ev.status; },
  resume(s, ev) { s.status = ev.status; },
  verdict(s, ev) { s.status = ev.status || s.status; },
  award(s, ev) {
    const p = s.partie;
    if (p && ev.lot) {
      p.lots[ev.lot.index].status = "awarded";
      p.current_lot = ev.current_lot;
      if (ev.current_lot !== null && ev.current_lot !== undefined) p.lots[ev.current_lot].status = "open";
    }
    s.status = ev.status || (ev.current_lot === null || ev.current_lot === undefined ? "finished" : "playing");
  },
  partie(s, ev) {
    s.partie = ev.status === "started" ? {number: ev.number, lots: ev.lots, current_lot: 0} : s.partie;
    s.draws = []; s.last = null;
    s.status = ev.status === "started" ? "playing" : "waiting";
    return true;
  },
};
let now = null;            // the state as last described, kept up to date by the events
live({
  state(s) { now = s; showPlay(s); showLast(s); },
  event(name, ev) {
    if (!now || !ON[name]) return;
    // a verdict belongs to its ball: a new ball, an undo or another partie sends it away
    if (ON[name](now, ev) && !$("verdict").hidden) closeVerdict();
    showPlay(now); showLast(now);
  },
});
