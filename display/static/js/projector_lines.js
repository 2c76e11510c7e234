/* The projector's maxi-bingo (RULES L20): the count of balls left before the jackpot is lost, under the ball, and
   the lot played switched to the fallback as ball N + 1 comes out. projector.js calls these; lines.js says the rule. */
import {$, el, lotName, t} from "./common.js";
import {jackpot, playedLot} from "./lines.js";

/* the header's lot as it is played after `balls` balls: a maxi-bingo's ball limit is said in its box under the
   ball (the header keeps the prize whole at 1080p), the fallback once the jackpot is lost */
export const shownLot = (lot, balls) => lotName({...playedLot(lot, balls), within: null});

/* a lot as announced before its partie (RULES L17, L20): a maxi-bingo with its ball limit and both its lots */
export const announced = (lot) => lotName(lot) + (lot.within && lot.fallback ? " · " + t("lot_else", {lot: lot.fallback.label}) : "");

/* the jackpot's box, shown while a maxi-bingo is the lot in play: « Jackpot en 18 boules », then the count */
export function renderJackpot(lot, balls) {
  const box = $("jackpot");
  const j = jackpot(lot, balls);
  box.hidden = !j;
  document.body.classList.toggle("has-jackpot", !!j);
  if (!j) { box.replaceChildren(); return; }
  const count = j.lost ? t("jackpot_lost", {lot: j.prize.label})
    : j.left === 0 ? t("jackpot_last") : t(j.left === 1 ? "jackpot_more_one" : "jackpot_more", {n: j.left});
  box.replaceChildren(el("span", {class: "jackpot-caption", text: j.lost ? "" : t("jackpot_caption", {n: j.within})}),
                      el("span", {class: "jackpot-count", text: count}));
  box.dataset.left = j.lost ? "lost" : String(j.left);
  box.classList.toggle("lost", j.lost);
  box.classList.toggle("last", !j.lost && j.left === 0);
}

/* the banner's words when `balls` is the ball that loses the jackpot (N + 1), else null */
export function jackpotLost(lot, balls) {
  const j = jackpot(lot, balls);
  return j && j.lost && balls === j.within + 1 ? {text: t("jackpot_lost_banner"), sub: t("jackpot_lost", {lot: j.prize.label})} : null;
}
