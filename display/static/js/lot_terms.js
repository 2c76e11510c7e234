/* A lot's terms as /admin's programme and the speaker's lots editor type them (RULES L20–L21): the row a quine
   names, a carton plein's ball limit and its fallback. Which kind takes which is the hall's table (boot.lot_kinds,
   hall/lots.py), never a list of this page's own. termsFields draws them, termsOf reads them back as the API takes
   them ({row} or {within, fallback: {label, value_eur, sponsor}}; {} for a plain lot). */
import {amountField, boot, el, t} from "./common.js";

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
export function termsOf(box) {
  const get = (term) => { const f = box.querySelector(`[data-term="${term}"]`); return f ? f.value.trim() : ""; };
  const out = {};
  if (get("row")) out.row = parseInt(get("row"), 10);
  if (get("within") || get("fallback_label")) {
    out.within = /^\d+$/.test(get("within")) ? parseInt(get("within"), 10) : get("within");   // the hall says what is wrong
    out.fallback = {label: get("fallback_label"), value_eur: get("fallback_value") || null, sponsor: get("fallback_sponsor")};
  }
  return out;
}

/* a lot's terms, comparable (the speaker's start sends the lots only when he changed them) */
export const termsKey = (lot) => JSON.stringify([lot.row || null, lot.within || null,
  lot.fallback ? [lot.fallback.label, Number(String(lot.fallback.value_eur ?? "").replace(",", ".")) || null, lot.fallback.sponsor || ""] : null]);
