/* The controller's phone: scan or type a carton, see the verdict full screen with the carton drawn. */
import {$, api, cardGrid, el, live, lotName, lotTerms, t} from "./common.js";
import {node, show} from "./ids.js";
import {awardedLot} from "./lines.js";
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
  $("verdict-sub").textContent = [v.lot && (v.verdict === "valid" || lotTerms(v.lot)) ? lotName(awardedLot(v.lot, v.ball)) : "",
                                  v.last ? t("last_number", {n: v.last}) : ""].filter(Boolean).join(" · ");
  box.dataset.verdict = v.verdict;
  box.hidden = false;
  stopScan();
  $("verdict-close").focus();
}

$("verdict-close").addEventListener("click", () => { $("verdict").hidden = true; $("card-id").value = ""; });
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
let now = null;            // the state as last described, kept up to date by the events
const conn = live({
  state(s) { now = s; showPlay(s); $("ctl-last").textContent = s.last ? t("last_number", {n: s.last}) : t("status_" + (s.status === "cleared" ? "waiting" : s.status)); },
  event(name, ev) {
    if (name === "draw") $("ctl-last").textContent = t("last_number", {n: ev.number});
    if (now && name === "draw") { now.status = "playing"; showPlay(now); }
    else if (now && (name === "claim" || name === "resume")) { now.status = ev.status; showPlay(now); }
    else if (["award", "partie", "verdict", "undo"].includes(name)) conn.resync();
  },
});
