/* A tie at the award: the speaker chooses how it is settled — the hall's draw, tokens drawn by
   hand in the hall whose numbers he types, or sharing. Who wins a draw (the lowest or the highest number) is the
   hall's rule for the evening ([rules] ties), said here and on the projector, never chosen per lot.
   The way chosen is announced to the hall at once (POST /api/lots/tie, journalled) and binds (docs L14c): « Revenir »
   keeps it, the dialog reopens on it, and another way asks for a reason, journalled too.
   Keypad: a digit picks, the numbers are typed then Enter, / or Escape goes back. */
import {$, api, boot, el, lotName, t} from "./common.js";
import {node, show} from "./ids.js";
import {question} from "./question.js";

const CHOICES = [
  {method: "draw", body: {draw: true}, label: "tie_choice_draw"},
  {method: "physical", physical: true, label: "tie_choice_physical"},
  {method: "share", body: {share: true}, label: "tie_choice_share"},
];
const rule = boot.ties || "draw_lowest";
const PREFERRED = rule === "share" ? 3 : rule.startsWith("physical") ? 2 : 1;
const ruleText = () => t(rule.endsWith("highest") ? "tie_highest_wins" : "tie_lowest_wins");
const tie = question($("tie-dialog"), () => null);
let cards = [];
let announced = null;      // the way already said to the hall for this tie ({method, previous, reason}), or null
let changing = null;       // the choice waiting for its reason (another way than the one announced)
const finish = tie.answer;

function showChoices() {
  const fixed = announced && announced.method;
  $("tie-choices").replaceChildren(...CHOICES.map((c, i) => el("li", {"data-n": String(i + 1),
    class: fixed ? (c.method === fixed ? "preferred" : "off") : (i + 1 === PREFERRED ? "preferred" : "")},
    el("kbd", {text: String(i + 1)}), " " + t(c.label))));
  const said = CHOICES.find((c) => c.method === fixed);
  $("tie-announced").textContent = said ? t("tie_announced", {way: t(said.label)}) : "";
  $("tie-numbers").hidden = true;
  $("tie-change").hidden = true;
  $("tie-choices").hidden = false;
  changing = null;
}

/* resolves to the body of POST /api/lots/award, or null when the speaker goes back; ``said``: the way already
   announced for this tie (the console's state), which the dialog opens on */
export function choose(cardIds, said) {
  cards = cardIds;
  announced = said || null;
  $("tie-title").textContent = t("tie_title", {n: cardIds.length});
  $("tie-hall-rule").textContent = t("tie_rule_of_the_evening", {rule: ruleText()});
  $("tie-cards").replaceChildren(...cardIds.map((c) => node(c)));
  $("tie-msg").textContent = "";
  showChoices();
  const asked = tie.ask();
  if (announced && announced.method === "physical") numbers();
  return asked;
}

/* the way said to the hall (journalled); false, with the refusal shown, when the hall refused it */
async function announce(method, reason) {
  const res = await api("POST", "/api/lots/tie", reason ? {method, reason} : {method});
  if (!res.ok) { $("tie-msg").textContent = res.data.message; return false; }
  announced = {method};
  return true;
}

export async function pick(n) {
  const c = CHOICES[n - 1];
  if (!c) return;
  if (announced && announced.method !== c.method) {     // another way than the one the hall heard: why?
    changing = c;
    $("tie-choices").hidden = true;
    $("tie-change-what").textContent = t("tie_change_to", {way: t(c.label)});
    $("tie-reason").value = "";
    $("tie-change").hidden = false;
    setTimeout(() => $("tie-reason").focus(), 0);
    return;
  }
  if (!announced && !(await announce(c.method))) return;
  go(c);
}
function go(c) {
  if (!c.physical) { finish(c.body); return; }
  numbers();
}
$("tie-change").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const reason = $("tie-reason").value.trim();
  if (!reason || !changing) { $("tie-reason").focus(); return; }
  const c = changing;
  if (await announce(c.method, reason)) go(c);
});
$("tie-change-back").addEventListener("click", () => showChoices());
$("tie-other").addEventListener("click", () => showChoices());

function numbers() {
  $("tie-choices").hidden = true;
  $("tie-change").hidden = true;
  const form = $("tie-numbers");
  form.querySelector("ol").replaceChildren(...cards.map((cid, i) => el("li", {},
    el("label", {for: "tie-n-" + i}, node(cid)), " ",
    el("input", {id: "tie-n-" + i, type: "text", inputmode: "numeric", maxlength: "2", "data-card": cid,
                 autocomplete: "off", "aria-label": show(cid)}))));
  $("tie-rule").textContent = ruleText();
  form.hidden = false;
  setTimeout(() => $("tie-n-0").focus(), 0);
}

$("tie-choices").addEventListener("click", (ev) => { const li = ev.target.closest("li"); if (li) pick(parseInt(li.dataset.n, 10)); });
$("tie-numbers").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const inputs = [...$("tie-numbers").querySelectorAll("input")];
  const empty = inputs.find((i) => !i.value.trim());
  if (empty && document.activeElement === empty) return;
  if (empty) { empty.focus(); return; }           // Enter moves on to the next carton's number
  const typed = {};
  for (const i of inputs) {
    const n = parseInt(i.value, 10);
    if (!/^\d{1,2}$/.test(i.value.trim()) || n < 1 || n > 90) { $("tie-msg").textContent = t("tie_bad_number"); i.select(); return; }
    typed[i.dataset.card] = n;
  }
  finish({tie_break: typed});
});
$("tie-back").addEventListener("click", () => finish(null));

// ---------------------------------------------------------------- démarquez with lots still unwon
const clearing = question($("clear-dialog"), () => null);
const CLEAR = [{body: {force: true, carry: true}, label: "clear_carry"}, {body: {force: true}, label: "clear_lose"}];
export function chooseClear(lots) {
  $("clear-lots").replaceChildren(...lots.map((l) => el("li", {text: lotName(l)})));
  $("clear-choices").replaceChildren(...CLEAR.map((c, i) => el("li", {"data-n": String(i + 1)},
    el("kbd", {text: String(i + 1)}), " " + t(c.label))));
  return clearing.ask();
}
export function pickClear(n) {
  const c = CLEAR[n - 1];
  if (c) clearing.answer(c.body);
}
$("clear-choices").addEventListener("click", (ev) => { const li = ev.target.closest("li"); if (li) pickClear(parseInt(li.dataset.n, 10)); });
$("clear-back").addEventListener("click", () => clearing.answer(null));

export const back = () => tie.answer(null);
export const backClear = () => clearing.answer(null);
