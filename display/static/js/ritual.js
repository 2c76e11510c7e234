/* The claim ritual as a caller says it (INTERFACE §11), driven by what already happens: a claim announced
   → « Ne démarquez pas ! »; the verdict → « La quine est bonne » with the carton, or « n'est pas bonne : le 8 n'est
   pas sorti » (the missing numbers of its best line), or a missed one and why (« Cette ligne a déjà gagné une
   quine. »: the hall's reason, RULES L12a); after a valid claim « Y a-t-il d'autres gagnants ? »; the
   démarquez → « Vous pouvez démarquer ». Each step: its words in the reader's language and the clips the voice says.
   Shared by the projector and the phones. */
import {boot, t} from "./common.js";
import {show} from "./ids.js";

const MAX_SAID = 5;         // missing numbers said and shown (a carton plein may miss more: « … »)

const first = (text) => text.charAt(0).toUpperCase() + text.slice(1);
/* the ritual's key for a kind of lot: its own sentence (« La quine est bonne »), else the carton's */
const own = (key, kind) => (t("ritual_" + key + "_" + kind) !== "ritual_" + key + "_" + kind ? key + "_" + kind : key);

/* « le 8 et le 23 ne sont pas sortis. » and its clips */
function missingWords(missing) {
  const said = missing.slice(0, MAX_SAID);
  const names = said.map((n) => t("ritual_the_number", {n}));
  const list = names.length > 1 ? names.slice(0, -1).join(", ") + " " + t("ritual_and") + " " + names[names.length - 1]
                                : names[0];
  const clips = [];
  said.forEach((n, i) => { if (i && i === said.length - 1) clips.push("and"); clips.push("le_" + n); });
  const plural = missing.length > 1;
  clips.push(plural ? "not_out_many" : "not_out_one");
  return {text: first(list + (missing.length > MAX_SAID ? " …" : "")) + " " + t(plural ? "ritual_not_out_many" : "ritual_not_out_one"), clips};
}

/* the ritual's step for an event of the hall, or null: {step, words, sub, clips, others} */
export function ritualStep(name, ev) {
  if (name === "claim") return {step: "claim", words: t("ritual_no_unmark"), clips: ["no_unmark"]};
  if (name === "partie" && ev.status !== "started") return {step: "clear", words: t("ritual_unmark"), clips: ["unmark"]};
  if (name !== "verdict") return null;
  const lotKind = ev.lot ? ev.lot.kind : (boot.kinds || [])[0];
  if (ev.verdict === "valid") {
    const good = own("good", lotKind);
    return {step: "valid", words: t("ritual_" + good), sub: ev.card_id ? t("ritual_card", {card: show(ev.card_id)}) : "",
            card: ev.card_id, clips: [good, "others"], others: true};
  }
  if (ev.verdict === "incomplete" && ev.reason === "row_already_paid") {   // a false claim on rows paid for this kind
    const bad = own("bad", lotKind), paid = own("missed_paid", lotKind);
    return {step: "false", words: t("ritual_" + bad), sub: t("ritual_" + paid), clips: [bad, paid]};
  }
  if (ev.verdict === "incomplete") {
    const missing = Array.isArray(ev.missing) ? ev.missing.filter((n) => Number.isInteger(n)) : [];
    const bad = own("bad", lotKind);
    if (!missing.length) return {step: "false", words: t("ritual_" + bad), clips: [bad]};
    const m = missingWords(missing);
    return {step: "false", words: t("ritual_" + bad), sub: m.text, clips: [bad].concat(m.clips)};
  }
  if (ev.verdict === "missed") {     // which reason holds (RULES L12a), said as the controller read it
    const key = ev.reason === "row_already_paid" ? own("missed_paid", lotKind) : ev.reason === "last_not_in_rows" ? "missed_rows" : "late";
    return {step: "late", reason: ev.reason || "late", words: t("ritual_" + key), clips: [key]};
  }
  return null;
}

/* the step's words on one line (the phones' news) */
export const ritualLine = (step) => (step ? [step.words, step.sub].filter(Boolean).join(" ") : "");
