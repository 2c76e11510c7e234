/* « Clore la soirée » on /admin and the speaker's console: asked twice — the question, then a word typed —
   then POST /api/evening/close. Once closed (said by the close's answer, or by GET /api/evening/close to a page
   opened later) the page says so, shows the journal's fingerprint the board's copy prints and where that copy
   stands (printed, waiting for the printer, no printer), and disables what the hall would now refuse: a ball, a
   partie, a claim checked, a carton sold or a sale voided. The settings of the next evening stay open. */
import {$, api, boot, t} from "./common.js";
import {ask, askText} from "./ask.js";

const REFUSED = ["#close-evening", "#pad button", "#start", "#check-form input", "#check-form button", "#undo", "#announce",
  "#resume", "#clear", "#award", "#proposed button", "#sold-form input", "#sold-form button", "#sales-list button"].join(", ");
const groups = (shown) => shown.replace(/ /g, "\u00a0");    // a fingerprint's groups kept on one line, as on paper
const clock = (iso) => new Date(iso).toLocaleTimeString(boot.lang || "fr", {hour: "2-digit", minute: "2-digit"});
let closed = false, again = null;

function disableRefused() {
  for (const node of document.querySelectorAll(REFUSED)) node.disabled = true;
}

function show(state) {
  if (!state || !state.closed) return;
  closed = true;
  document.body.classList.add("evening-closed");
  $("close-open").hidden = true;
  $("close-done").hidden = false;
  const fp = state.fingerprint;
  $("close-state").textContent = t("close_done", {at: clock(fp.at)});
  $("close-fp").textContent = t("close_fp", {fp: groups(fp.shown), seq: fp.seq});
  const printer = {printed: "close_printed", queued: "close_queued", none: "close_none"}[state.printer];
  $("close-printer").textContent = t(printer);
  $("close-printer").dataset.printer = state.printer;
  disableRefused();
  clearTimeout(again);
  if (state.printer === "queued") again = setTimeout(load, 5000);   // the printer back: the page says it printed
}

async function load() {
  const res = await api("GET", "/api/evening/close");
  if (!res.ok) return;
  if (closed && !res.data.closed) { location.reload(); return; }   // a new evening (archived, hall restarted): afresh
  show(res.data);
}

$("close-evening").addEventListener("click", async () => {
  $("close-msg").textContent = "";
  if (!await ask(t("close_ask"), {text: t("close_ask_text"), yes: t("close_go_on"), danger: true})) return;
  const word = t("close_word");
  const typed = await askText(t("close_type_title"), {label: t("close_type_label", {word}), maxlength: 20, yes: t("close_yes")});
  if (typed === null) return;
  if (typed.toLocaleUpperCase(boot.lang || "fr") !== word.toLocaleUpperCase(boot.lang || "fr")) {
    $("close-msg").textContent = t("close_word_wrong", {word});
    return;
  }
  $("close-evening").disabled = true;
  const res = await api("POST", "/api/evening/close");
  if (!res.ok) {                       // refused (a partie running, nothing played, already closed): said here
    $("close-msg").textContent = res.data.message;
    $("close-evening").disabled = false;
    if (res.data.error === "evening_closed") load();
    return;
  }
  show(res.data);
});

// a list drawn again later (the sales on /admin) keeps its refused buttons disabled
new MutationObserver(() => { if (closed) disableRefused(); }).observe(document.body, {childList: true, subtree: true});
load();
// closed from another page, or the next evening begun: known within 15 s (one small request)
setInterval(load, 15000);
