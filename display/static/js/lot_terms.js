/* A lot's terms as /admin's programme and the speaker's lots editor type them (RULES L20–L21): the row a quine
   names, a carton plein's ball limit and its fallback. Which kind takes which is the hall's table (boot.lot_kinds,
   hall/loto/lots.py), never a list of this page's own. termsFields draws them, termsOf reads them back as the API takes
   them ({row} or {within, fallback: {label, value_eur, sponsor}}; {} for a plain lot). */
import {amountField, boot, el, kind as kindName, t} from "./common.js";

const TABLE = boot.lot_kinds || {};

/* the fields for `lot`'s terms (none for a kind without): `changed` is called with the terms as typed */
export function termsFields(lot, changed) {
  const kind = TABLE[lot.kind] || {};
  const box = el("span", {class: "lot-terms"});
  const tell = () => { if (changed) changed(termsOf(box)); };
  if (kind.row) {
    box.append(el("label", {class: "lot-term"}, t("lot_row_label") + " ",
      el("select", {"data-term": "row", "aria-label": t("lot_row_label"), onchange: tell},
        el("option", {value: "", text: t("lot_row_any"), selected: !lot.row}),
        ...[1, 2, 3].map((r) => el("option", {value: String(r), text: t("row_name_" + r), selected: lot.row === r})))));
  }
  if (kind.within) {
    const f = lot.fallback || {};
    const input = (term, attrs) => el("input", {type: "text", "data-term": term, oninput: tell, ...attrs});
    box.append(el("label", {class: "lot-term"}, t("lot_within_label") + " ",
        input("within", {value: lot.within || "", inputmode: "numeric", maxlength: 2, class: "lot-within",
                         placeholder: "45", "aria-label": t("lot_within_label")})),
      el("label", {class: "lot-term lot-fallback"}, t("lot_fallback_label") + " ",
        input("fallback_label", {value: f.label || "", maxlength: 200, "aria-label": t("lot_fallback_label")})),
      input("fallback_value", {value: amountField(f.value_eur), inputmode: "decimal", class: "value",
                               placeholder: t("lot_value"), "aria-label": t("lot_fallback_value")}),
      input("fallback_sponsor", {value: f.sponsor || "", maxlength: 200,
                                 placeholder: t("lot_sponsor"), "aria-label": t("lot_fallback_sponsor")}));
  }
  return box;
}

/* the terms typed in `box` (a lot's line): what the API takes beside kind and label */
function termsOf(box) {
  const get = (term) => { const f = box.querySelector(`[data-term="${term}"]`); return f ? f.value.trim() : ""; };
  const out = {};
  if (get("row")) out.row = parseInt(get("row"), 10);
  if (get("within") || get("fallback_label")) {
    out.within = /^\d+$/.test(get("within")) ? parseInt(get("within"), 10) : get("within");   // the hall says what is wrong
    out.fallback = {label: get("fallback_label"), value_eur: get("fallback_value") || null, sponsor: get("fallback_sponsor")};
  }
  return out;
}

/* The speaker's lots editor must stay short (« Démarrer la partie » in sight at 720p): one list says the kind and
   its terms at once — « Quine sur la ligne du milieu », « Carton plein : maxi-bingo » — and only a maxi-bingo adds a
   line, its ball limit and fallback (termsFields). `changed` is called when the choice changes. */
export function kindChoice(lot, changed) {
  const options = [];
  for (const k of boot.kinds || []) {
    const terms = TABLE[k] || {};
    options.push(el("option", {value: k, text: kindName(k), selected: k === lot.kind && !lot.row && !lot.within}));
    if (terms.row) {              // short words, the list stays narrow: « Quine du milieu »
      for (const r of [1, 2, 3]) {
        options.push(el("option", {value: k + "@" + r, text: said(`choice_${k}_row_${r}`, kindName(k) + " " + t("lot_row_" + r)),
                                   selected: k === lot.kind && lot.row === r}));
      }
    }
    if (terms.within) {
      options.push(el("option", {value: k + "@maxi", text: said(`choice_${k}_maxi`, kindName(k) + " " + t("lot_within", {n: "N"})),
                                 selected: k === lot.kind && !!lot.within}));
    }
  }
  return el("select", {"data-choice": "", "aria-label": t("kind"), onchange: changed}, ...options);
}

/* a word of the catalogue, or `otherwise` for a kind the catalogue has no short word for */
const said = (key, otherwise) => (t(key) !== key ? t(key) : otherwise);

/* the kind and terms chosen on a lot's line (its kindChoice, and a maxi-bingo's fields) */
export function choiceOf(line) {
  const [k, term] = line.querySelector("[data-choice]").value.split("@");
  if (term === "maxi") return {kind: k, ...termsOf(line)};
  return term ? {kind: k, row: parseInt(term, 10)} : {kind: k};
}

/* a lot's terms, comparable (the speaker's start sends the lots only when he changed them) */
export const termsKey = (lot) => JSON.stringify([lot.row || null, lot.within || null,
  lot.fallback ? [lot.fallback.label, Number(String(lot.fallback.value_eur ?? "").replace(",", ".")) || null, lot.fallback.sponsor || ""] : null]);
