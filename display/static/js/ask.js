/* A question asked in the page, never the browser's confirm(), prompt() or alert(): those stop the page's own
   keys, read "127.0.0.1 says", cannot be styled for a dark hall and break the keyboard-only console. One <dialog>
   per page, named by its title (aria-labelledby): Tab moves between its buttons, Enter or Space presses the one
   in focus (the answer that goes on, put first in focus), Escape cancels; a text question starts in its field and
   Enter sends it. The focus comes back where it was. */
import {el, t} from "./common.js";
import {question} from "./question.js";

let box = null, asking = null;

function dialog() {
  if (box) return box;
  const field = el("input", {type: "text", id: "ask-field", class: "ask-field", autocomplete: "off"});
  box = el("dialog", {id: "ask", class: "ask", "aria-labelledby": "ask-title", "aria-describedby": "ask-text"},
    el("h2", {id: "ask-title"}), el("p", {id: "ask-text"}),
    el("form", {method: "dialog", class: "ask-form"},
      el("label", {for: "ask-field", id: "ask-label", class: "ask-label"}), field,
      el("div", {id: "ask-buttons", class: "row-buttons"})));
  document.body.append(box);
  asking = question(box, () => box.returnValue || null);
  // Enter in the field sends it (the form's implicit submit would press its first button, the way out)
  field.addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); asking.answer("yes"); } });
  return box;
}

/* {title, text, field: {label, value, maxlength}, buttons: [{value, label, kind}], focus: value} → the value chosen,
   or null (Escape, the way out) */
async function open(o) {
  const d = dialog(), back = document.activeElement;
  d.querySelector("#ask-title").textContent = o.title;
  d.querySelector("#ask-text").textContent = o.text || "";
  d.querySelector("#ask-text").hidden = !o.text;
  const field = d.querySelector("#ask-field"), label = d.querySelector("#ask-label");
  field.hidden = label.hidden = !o.field;
  if (o.field) {
    label.textContent = o.field.label;
    field.value = o.field.value || "";
    field.maxLength = o.field.maxlength || 80;
  }
  const buttons = o.buttons.map((b) => el("button", {type: "submit", value: b.value, class: b.kind || "",
                                                    "data-answer": b.value}, b.label));
  d.querySelector("#ask-buttons").replaceChildren(...buttons);
  const answered = asking.ask();
  if (o.field) { field.focus(); field.select(); }
  else (buttons.find((b) => b.value === o.focus) || buttons[buttons.length - 1]).focus();
  const said = await answered;
  if (back && back.focus && document.contains(back)) back.focus({preventScroll: true});
  return said && said !== "no" ? said : null;
}

/* yes or no: ask(title, {text, yes, no, danger}) → true when confirmed */
export async function ask(title, options) {
  const o = options || {};
  return (await open({title, text: o.text, focus: "yes", buttons: [
    {value: "no", label: o.no || t("ask_no")},
    {value: "yes", label: o.yes || t("ask_yes"), kind: o.danger ? "danger" : "primary"}]})) === "yes";
}

/* a line of text: askText(title, {label, value, maxlength, yes, text}) → the text, or null when cancelled */
export async function askText(title, options) {
  const o = options || {};
  const said = await open({title, text: o.text, field: {label: o.label, value: o.value, maxlength: o.maxlength},
    buttons: [{value: "no", label: t("ask_no")}, {value: "yes", label: o.yes || t("ask_yes"), kind: "primary"}]});
  return said === "yes" ? box.querySelector("#ask-field").value.trim() : null;
}

/* one of several answers: choose(title, {text, choices: [{value, label}]}) → the value, or null (« Annuler ») */
export function choose(title, options) {
  const o = options || {};
  return open({title, text: o.text, focus: o.choices[0].value,
               buttons: [{value: "no", label: t("ask_cancel")}, ...o.choices.map((c) => ({value: c.value, label: c.label, kind: "primary"}))]});
}

/* something the person must read before going on (a refusal): one « OK » button */
export async function tell(title, text) {
  await open({title, text, buttons: [{value: "ok", label: t("ask_ok"), kind: "primary"}]});
}
