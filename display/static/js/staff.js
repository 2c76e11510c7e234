/* A verdict as the staff read it: its sentence and its colour (the controller's phone, the speaker's checks). */
import {kind, t} from "./common.js";
import {show} from "./ids.js";
import {missedText, prizeText, rowName} from "./lines.js";

/* the verdict's sign, beside its colour and its words: green and red have the same luminance (a colour-blind
   controller reads them alike), so the colour is never the only thing that says valid or refused */
export const MARKS = {good: "✓", bad: "✗", warn: "!", hint: "?"};

/* {line, tone}: tone good (green), bad (red), warn (orange), hint (a near miss: blue) */
export function verdictText(v) {
  switch (v.verdict) {
    case "valid": return {line: t("v_valid", {lot: v.lot ? kind(v.lot.kind) : ""}) + (v.prize ? " " + prizeText(v) : ""), tone: "good"};
    case "incomplete":      // its complete rows paid for this kind already (L12a); a named row: another row is no claim (L21)
      if (v.reason === "row_already_paid" && v.lot) return {line: t("v_incomplete_paid_" + v.lot.kind), tone: "bad"};
      if (v.lot && v.lot.row) return {line: t("v_incomplete_row", {row: rowName(v.lot.row)}), tone: "bad"};
      return {line: t("v_incomplete", {n: (v.missing || []).length}), tone: "bad"};
    case "missed": return {line: missedText("v_", v.reason, v.lot, v.last), tone: "warn"};   // which reason holds
    case "unknown_card":   // a near miss is "vérifiez le numéro" in its own colour, never a refusal
      if ((v.suggestions || []).length) return {line: t("v_near", {cards: v.suggestions.map(show).join(", ")}), tone: "hint"};
      return v.check_character_ok === false ? {line: t("v_typo"), tone: "hint"} : {line: t("v_unknown_card"), tone: "bad"};
    default: return {line: t("v_" + v.verdict), tone: "bad"};
  }
}
