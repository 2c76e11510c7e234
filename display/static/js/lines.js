/* Lots as lines (RULES L6–L9, L12, L19–L21), as every page reads them: a lot's own lines come from the hall
   (state.partie.lots[i].lines = {need, among}: hall/loto/lots.py's lines_of), never from a table of the page's own.
   The jackpot of a maxi-bingo (a carton plein with "within" and "fallback"), a named row, where a carton stands
   against a lot. Pure: no page element is touched here. */
import {t} from "./common.js";

const ANY = {need: 1, among: [0, 1, 2]};

/* "ligne du milieu" (a quine on a named row; rows 1–3 from the top) */
export const rowName = (row) => t("row_name_" + row);

/* the jackpot of a maxi-bingo after `balls` balls: {within, left (balls still to come with it), lost, prize}; null
   for any other lot. A carton plein on ball N (N = within) or before wins the jackpot; from ball N + 1 the fallback. */
export function jackpot(lot, balls) {
  if (!lot || !lot.within || !lot.fallback) return null;
  const lost = balls > lot.within;
  return {within: lot.within, left: lost ? 0 : lot.within - balls, lost, prize: lost ? lot.fallback : lot};
}

/* the lot as it is played now: a maxi-bingo past its ball N plays for its fallback (label, value, donor) */
export function playedLot(lot, balls) {
  const j = jackpot(lot, balls);
  return j && j.lost ? {...lot, label: lot.fallback.label, value_eur: lot.fallback.value_eur, within: null, fallback: null,
                        fallback_of: lot.label} : lot;
}

/* a lot named by an award or a verdict (its terms included) as it was won on ball `ball` */
export const awardedLot = (lot, ball) => (lot && lot.within && ball ? playedLot(lot, ball) : lot);

/* what an awarded lot gave: a maxi-bingo won after its ball N, its fallback (the hall says "prize": "fallback") */
export const prizeOf = (lot) => (lot && lot.prize === "fallback" && lot.within ? playedLot(lot, lot.within + 1) : lot);

/* the sentence that counts a maxi-bingo's balls: « Jackpot : encore 12 boules » … « dernière boule », then lost */
export function jackpotText(lot, balls) {
  const j = jackpot(lot, balls);
  if (!j) return "";
  if (j.lost) return t("jackpot_lost", {lot: j.prize.label});
  return j.left === 0 ? t("jackpot_last_ball") : t(j.left === 1 ? "jackpot_left_one" : "jackpot_left", {n: j.left});
}

/* the rows of a carton already paid in this partie: each lot it won, with the rows it won with (RULES L12) */
export function paidRows(partie, cardId) {
  const paid = new Set();
  for (const lot of (partie && partie.lots) || []) {
    (lot.winners || []).forEach((c, i) => { if (c === cardId) for (const r of (lot.rows || [])[i] || []) paid.add(r); });
  }
  return paid;
}

/* the lots a carton won in this partie (never its consolations) */
export const wonLots = (partie, cardId) => ((partie && partie.lots) || []).filter((l) => (l.winners || []).includes(cardId));

function combos(list, size) {
  if (size === 0) return [[]];
  if (list.length < size) return [];
  const [first, ...rest] = list;
  return [...combos(rest, size - 1).map((c) => [first, ...c]), ...combos(rest, size)];
}

/* where a carton stands against `lot`: its rows (numbers and nulls), the numbers it has marked, the rows already paid,
   the last ball. {missing: [n…], count, complete: [row…], call, late, cannot}: `count` numbers still to come on the
   fewest lines that can make the lot (a new line among the lot's own, never a paid one as the new line); `call` the
   lot is made with the last ball (« Criez-le ! »), `late` made without it (too late), `cannot` no line left for it. */
export function standing(rows, marked, lot, paid, last) {
  const gaps = rows.map((row) => row.filter((n) => n !== null && !marked.has(n)));
  const complete = gaps.flatMap((g, i) => (g.length ? [] : [i]));
  if (!lot) return {missing: [], count: gaps.reduce((a, g) => a + g.length, 0), complete, call: false, late: false, cannot: false};
  const lines = lot.lines || ANY;
  const usable = complete.filter((r) => lines.among.includes(r));
  if (usable.length >= lines.need) {
    const call = usable.some((r) => !paid.has(r) && rows[r].includes(last));
    return {missing: [], count: 0, complete, call, late: !call, cannot: false};
  }
  let best = null;
  for (const c of combos(lines.among, lines.need)) {
    if (c.every((r) => paid.has(r))) continue;              // a lot needs a new line
    const n = c.reduce((a, r) => a + gaps[r].length, 0);
    if (!best || n < best.n) best = {n, c};
  }
  if (!best) return {missing: [], count: Infinity, complete, call: false, late: false, cannot: true};
  return {missing: best.c.flatMap((r) => gaps[r]), count: best.n, complete, call: false, late: false, cannot: false};
}

/* the words for a valid claim on a maxi-bingo: « JACKPOT ! » or the fallback with its ball count */
export function prizeText(v) {
  if (!v || !v.prize || !v.lot) return "";
  const n = v.lot.within;
  return t(v.prize === "jackpot" ? "v_jackpot" : "v_fallback", {ball: v.ball, n});
}
