/* « Mes cartons » and the hall's calling (INTERFACE §11): « Je n'ai pas entendu » shows the last five balls, the most
   recent first (and opens by itself when the speaker has one said again); the claim ritual's words, as the
   projector shows them, for players who cannot hear the caller. */
import {$, el, t} from "./common.js";
import {ritualLine, ritualStep} from "./ritual.js";

const button = el("button", {type: "button", id: "mc-not-heard", class: "mc-button", "aria-expanded": "false"},
  t("mc_not_heard"));
const list = el("ol", {id: "mc-recent", class: "mc-heard-list", "data-recent": "", "aria-live": "polite", hidden: true});
const said = el("p", {id: "mc-recent-text", class: "mc-help", hidden: true});
const words = el("p", {id: "mc-ritual", class: "mc-ritual", role: "status", "aria-live": "assertive"});
const box = el("div", {class: "mc-heard"}, button, list, said);
$("mc-news").after(words, box);

let draws = [];

function showRecent(open) {
  const recent = draws.slice(-5).reverse();
  list.replaceChildren(...recent.map((n) => el("li", {text: String(n)})));
  said.textContent = recent.length ? t("mc_recent", {numbers: recent.join(", ")}) : t("mc_no_ball");
  if (open !== undefined) {
    list.hidden = said.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
  }
}
button.addEventListener("click", () => showRecent(list.hidden));

/* after each event of the hall (mes_cartons.js has applied it to S), and after a state */
export function followCalling(name, ev, S) {
  draws = S && S.draws ? S.draws : [];
  showRecent(name === "again" ? true : undefined);
  const step = ritualStep(name, ev || {});
  if (step) words.textContent = ritualLine(step);
  else if (name === "draw" || name === "resume" || name === "award" || name === "state") words.textContent = "";
  if (step && step.others) words.textContent += " " + t("ritual_others");
}
