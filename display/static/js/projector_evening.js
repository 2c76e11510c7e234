/* The projector's winners: every valid carton of the lot drawn large with its numbers lit and its
   winning rows framed, beside a board that stays visible; the tie-break rule said; "26 annulé"; IDs that never
   wrap. projector.js calls these; the board is never covered (banners sit above it, the board shrinks). */
import {$, boot, el, money, t} from "./common.js";
import {show} from "./ids.js";

let winners = [];        // the valid cartons on the current ball for the open lot

/* text where each carton ID is a span that never wraps (its hyphen is no break point) */
export function withIds(node, text, ids) {
  const shown = (ids || []).map(show).filter(Boolean);
  if (!shown.length) { node.textContent = text; return; }
  const parts = [];
  let rest = text;
  while (rest) {
    let at = -1, hit = null;
    for (const s of shown) { const i = rest.indexOf(s); if (i >= 0 && (at < 0 || i < at)) { at = i; hit = s; } }
    if (at < 0) { parts.push(rest); break; }
    if (at > 0) parts.push(rest.slice(0, at));
    parts.push(el("span", {class: "id", text: hit}));
    rest = rest.slice(at + hit.length);
  }
  node.replaceChildren(...parts);
}

function carton(card, rows) {
  const framed = new Set(rows || []);
  const marked = new Set(card.marked || []);
  const table = el("table", {class: "win-carton"});
  card.grid.forEach((row, r) => {
    const tr = el("tr", {class: framed.has(r) ? "win-row" : ""});
    for (const n of row) {
      const cls = n === null ? "blank" : n === card.last ? "last" : marked.has(n) ? "lit" : "";
      tr.append(el("td", {class: cls, text: n === null ? "" : String(n)}));
    }
    table.append(tr);
  });
  const box = el("figure", {class: "win-card"});
  box.append(table, el("figcaption", {class: "id", text: show(card.card_id)}));
  return box;
}

function renderWinners() {
  const box = $("winners");
  box.replaceChildren(...winners.map((w) => carton(w.card, w.rows)));
  box.dataset.count = String(winners.length);
  document.body.classList.toggle("show-winners", winners.length > 0);
}

/* a valid verdict: add its carton (a tie shows every one); a carton valid for another lot than those shown (the
   next lot claimed on the same ball, RULES L11) replaces them: last lot's winner is never shown among its ties */
export function addWinner(ev) {
  if (!ev.card) return;
  const lot = ev.lot ? ev.lot.index : null;
  winners = winners.filter((w) => w.card.card_id !== (ev.card_id || ev.card.card_id) && (lot === null || w.lot === null || w.lot === lot));
  winners.push({card: ev.card, rows: ev.rows, lot});
  renderWinners();
}
export function clearWinners() { winners = []; renderWinners(); }
export function winnerIds() { return winners.map((w) => w.card.card_id); }

/* the sentence that says who wins a tie-break, said before the numbers come out */
export function tieRule(ev) {
  const mode = ev.tie_mode || "";
  const rule = mode.endsWith("highest") ? t("tie_highest_wins") : t("tie_lowest_wins");
  return (mode.startsWith("physical") ? t("tie_physical") : t("tie_by_hall")) + " — " + rule;
}

/* the hall's rule for simultaneous winners, fixed for the evening ([rules] ties): said between parties and
   while a tie waits for its draw (RULES L14, docs/loto-rules.md L14a) */
export function hallTieRule() {
  const rule = boot.ties || "draw_lowest";
  if (rule === "share") return t("ties_rule_share");
  const way = rule.endsWith("highest") ? "highest" : "lowest";
  return t(rule.startsWith("physical") ? "ties_rule_physical_" + way : "ties_rule_" + way);   // by hand: in the room
}

/* the price tiers as the caisse offers them, when the hall wrote no prices text of its own */
export function tiersText(tiers) {
  return tiers.map((x) => t(x.cards === 1 ? "tier_one" : "tier_many", {n: x.cards, eur: money(x.eur)})).join(" · ");
}
