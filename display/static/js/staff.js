/* A verdict as the staff read it: its sentence and its colour (the controller's phone, the speaker's checks). */
import {kind, t} from "./common.js";
import {show} from "./ids.js";
import {prizeText, rowName} from "./lines.js";

/* the verdict's sign, beside its colour and its words: green and red have the same luminance (a colour-blind
   controller reads them alike), so the colour is never the only thing that says valid or refused */
export const MARKS = {good: "✓", bad: "✗", warn: "!", hint: "?"};

/* {line, tone}: tone good (green), bad (red), warn (orange), hint (a near miss: blue) */
export function verdictText(v) {
  switch (v.verdict) {
    case "valid": return {line: t("v_valid", {lot: v.lot ? kind(v.lot.kind) : ""}) + (v.prize ? " " + prizeText(v) : ""), tone: "good"};
    case "incomplete":      // a named row: another row complete is no claim for this lot (RULES L21)
      if (v.lot && v.lot.row) return {line: t("v_incomplete_row", {row: rowName(v.lot.row)}), tone: "bad"};
      return {line: t("v_incomplete", {n: (v.missing || []).length}), tone: "bad"};
    case "missed": return {line: v.reason === "row_already_paid" ? t("v_missed_paid") : t("v_missed", {last: v.last}), tone: "warn"};
    case "unknown_card":   // a near miss is "vérifiez le numéro" in its own colour, never a refusal
      if ((v.suggestions || []).length) return {line: t("v_near", {cards: v.suggestions.map(show).join(", ")}), tone: "hint"};
      return v.check_character_ok === false ? {line: t("v_typo"), tone: "hint"} : {line: t("v_unknown_card"), tone: "bad"};
    default: return {line: t("v_" + v.verdict), tone: "bad"};
  }
}
