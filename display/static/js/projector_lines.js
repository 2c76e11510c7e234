/* The projector's maxi-bingo (RULES L20), as the hall counts it (the partie's `jackpots`): from the partie's first ball,
   whichever lot is open, the count of balls left before the jackpot is lost, under the ball; the top bar names the
   lot « en 16 boules » while its jackpot is to win, then its fallback. projector.js calls these; nothing is counted
   here. */
import {$, el, lotName, t} from "./common.js";
import {jackpotOf, playedLot} from "./lines.js";

/* the header's lot as it is played: its ball limit said (« Carton plein en 16 boules — Téléviseur ») while the hall
   counts its jackpot as still to win, its fallback once the hall says the jackpot is lost */
export const shownLot = (lot, j) => lotName(playedLot(lot, j));

/* a lot as announced before its partie (RULES L17, L20): a maxi-bingo with its ball limit and both its lots */
export const announced = (lot) => lotName(lot) + (lot.within && lot.fallback ? " · " + t("lot_else", {lot: lot.fallback.label}) : "");

/* the maxi-bingo the box counts: the open lot's, else the partie's first one still to play (its balls are counted
   from the partie's first ball, the quines' included) */
export function countedJackpot(partie, open) {
  const js = (partie && partie.jackpots) || [];
  return jackpotOf(js, open) || js[0] || null;
}

/* the jackpot's box: « Jackpot en 16 boules » and the count, from the partie's start */
export function renderJackpot(partie, j) {
  const box = $("jackpot");
  const lot = j && partie ? partie.lots[j.lot] : null;
  box.hidden = !lot;
  document.body.classList.toggle("has-jackpot", !!lot);
  if (!lot) { box.replaceChildren(); delete box.dataset.left; return; }
  const count = j.lost ? t("jackpot_lost", {lot: lot.fallback ? lot.fallback.label : lot.label})
    : j.left === 0 ? t("jackpot_last") : t(j.left === 1 ? "jackpot_more_one" : "jackpot_more", {n: j.left});
  box.replaceChildren(el("span", {class: "jackpot-caption", text: j.lost ? "" : t("jackpot_caption", {n: j.within})}),
                      el("span", {class: "jackpot-count", text: count}));
  box.dataset.left = j.lost ? "lost" : String(j.left);
  box.dataset.lot = String(j.lot);
  box.classList.toggle("lost", j.lost);
  box.classList.toggle("last", !j.lost && j.left === 0);
}

/* the banner's words when the hall's count just turned to lost (ball N + 1), else null */
export function jackpotLost(partie, before, after) {
  const lost = (after || []).find((j) => j.lost && !(before || []).some((b) => b.lot === j.lot && b.lost));
  const lot = lost && partie ? partie.lots[lost.lot] : null;
  return lot ? {text: t("jackpot_lost_banner"), sub: t("jackpot_lost", {lot: lot.fallback ? lot.fallback.label : lot.label})} : null;
}
