/* Lots as lines (RULES L6–L9, L12, L12a, L19–L21), as every page says them. This file draws, it never judges: which
   lines win a lot, a maxi-bingo's balls left and its prize, where a carton stands and why a claim was missed are the
   hall's (hall/loto/claims.py, its verdicts and standings; the state's and events' `jackpots`), never worked out here.
   Pure: no page element is touched here. */
import {kind, lotName, t} from "./common.js";

/* "ligne du milieu" (a quine on a named row; rows 1–3 from the top) */
export const rowName = (row) => t("row_name_" + row);

/* the partie's maxi-bingo counts as the hall gave them (`jackpots` of the state's partie, or of the latest event):
   the one of lot `index`, or null */
export const jackpotOf = (jackpots, index) => (jackpots || []).find((j) => j.lot === index) || null;

/* a maxi-bingo's lot as it is played: once the hall says its jackpot is lost, its fallback (label, value, donor) */
export function playedLot(lot, j) {
  return j && j.lost && lot && lot.fallback
    ? {...lot, label: lot.fallback.label, value_eur: lot.fallback.value_eur, within: null, fallback: null, fallback_of: lot.label}
    : lot;
}

/* an awarded lot as the hall says it was won: its fallback when the award's `prize` is "fallback" */
export const prizeOf = (lot) => (lot && lot.prize === "fallback" && lot.fallback ? playedLot(lot, {lost: true}) : lot);

/* the sentence that counts a maxi-bingo's balls: « Jackpot : encore 12 boules » … « dernière boule », then lost */
export function jackpotText(lot, j) {
  if (!j || !lot) return "";
  if (j.lost) return t("jackpot_lost", {lot: lot.fallback ? lot.fallback.label : lot.label});
  return j.left === 0 ? t("jackpot_last_ball") : t(j.left === 1 ? "jackpot_left_one" : "jackpot_left", {n: j.left});
}

/* the lots a carton won in this partie (never its consolations) */
export const wonLots = (partie, cardId) => ((partie && partie.lots) || []).filter((l) => (l.winners || []).includes(cardId));

/* the words for a valid claim on a maxi-bingo: « JACKPOT ! » or the fallback with its ball count */
export function prizeText(v) {
  if (!v || !v.prize || !v.lot) return "";
  const n = v.lot.within;
  return t(v.prize === "jackpot" ? "v_jackpot" : "v_fallback", {ball: v.ball, n});
}

/* why a `missed` was missed, as the hall said it (its `reason`), for `lot` (its kind, a named row) and the last ball:
   `prefix` picks the reader's words (« v_ » the controller's, « mc_ » the phone's) */
export function missedText(prefix, reason, lot, last) {
  const k = lot ? lot.kind : "";
  if (reason === "row_already_paid") return t(prefix + "missed_paid_" + k);
  if (reason === "last_not_in_rows" && lot && lot.row) return t(prefix + "missed_named", {kind: kind(k), last, row: rowName(lot.row)});
  if (reason === "last_not_in_rows") return t(prefix + "missed_rows", {kind: kind(k), last});
  return t(prefix + "missed_late", {kind: kind(k), last});
}

/* the banner and news for a missed claim, without the carton (the public's) */
export const missedPublic = (reason) => t("missed_public_" + (reason || "late"));

/* a lot as a verdict or an award names it, its prize as the hall said it (`prize`: "fallback" after ball N) */
export const awardedLot = (v) => (v.prize === "fallback" && v.lot ? playedLot(v.lot, {lost: true}) : v.lot);
export const verdictLot = (v) => lotName(awardedLot(v));
