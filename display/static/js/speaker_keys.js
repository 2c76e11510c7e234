/* The speaker's console from a USB numeric keypad on the laptop (NumLock on or off) or the keyboard.

   Keys are read by their physical place (KeyboardEvent.code), through the table the hall serves at
   /api/keypad/keys: the same one the keypad plugged into the Pi uses (hall/loto/keypad_keys.py). With NumLock
   off the keypad sends End, ArrowDown… with code still "Numpad1", "Numpad2"…: they stay digits, and the page
   never scrolls. After any action the focus goes back to the draw entry, so the next number typed is a ball.
     digits: the number · Enter: draw (alone: confirm the machine's ball) · . erase · / clear
     −: undo (asks: − or Enter again) · +: resume a stopped draw (after a false claim or any award), else stop it
     for a claim · *: the numbered actions
*/
import {$, api, t} from "./common.js";
import {answer, backToEntry, key, state, typedNumber} from "./speaker.js";
import {back, backClear, pick, pickClear} from "./speaker_ties.js";

const FALLBACK = {Enter: "enter", NumpadEnter: "enter", Escape: "cancel", Backspace: "erase"};
let table = Object.assign({}, FALLBACK);
for (let d = 0; d <= 9; d++) { table["Digit" + d] = String(d); table["Numpad" + d] = String(d); }

api("GET", "/api/keypad/keys").then((res) => {
  if (res.ok && res.data.keys) { table = res.data.keys; document.body.dataset.keys = "loaded"; }
});

let askedBy = null;      // the key that opened the confirmation: pressed again, it says yes

// ---------------------------------------------------------------- focus
// a click on any button outside a dialog or a form field: the focus goes back to the draw entry afterwards
document.addEventListener("click", (ev) => {
  const b = ev.target.closest("button");
  if (!b || b.closest("dialog, form#check-form")) return;
  setTimeout(() => { if (!document.querySelector("dialog[open]") && !document.activeElement.closest("input, select, textarea")) backToEntry(); }, 0);
});
// (a close event may come after the next dialog opened: that one keeps the focus)
for (const d of document.querySelectorAll("dialog")) {
  d.addEventListener("close", () => setTimeout(() => { if (!document.querySelector("dialog[open]")) backToEntry(); }, 0));
}

// ---------------------------------------------------------------- the numbered actions (*)
const MENU = [
  {id: "resume", label: "menu_resume"},
  {id: "award", label: "menu_award"},
  {id: "clear", label: "menu_clear"},
  {id: "start", label: "menu_start"},
  {id: "check-id", label: "menu_check", field: true},
  {id: "announce", label: "menu_announce"},
  {id: "say-again", label: "say_again"},          // speaker_voice.js: the projector says the last ball again
];
function menuItems() {
  return MENU.map((m, i) => {
    const node = $(m.id);
    const hidden = !node || node.closest("[hidden]");
    const usable = !!node && !hidden && !node.disabled;
    return Object.assign({n: i + 1, usable}, m);
  });
}
function openMenu() {
  const d = $("key-menu");
  const list = $("key-menu-list");
  list.replaceChildren(...menuItems().map((m) => {
    const li = document.createElement("li");
    li.className = m.usable ? "" : "off";
    li.dataset.n = String(m.n);
    const k = document.createElement("kbd"); k.textContent = String(m.n);
    li.append(k, " " + t(m.label));
    return li;
  }));
  d.showModal();
}
function runMenu(n) {
  const m = menuItems().find((x) => x.n === n);
  $("key-menu").close();
  if (!m) return;
  if (!m.usable) { sayError(t("menu_unavailable", {action: t(m.label)})); return; }
  if (m.field) { setTimeout(() => $(m.id).focus(), 0); return; }
  $(m.id).click();
}
function sayError(text) { const line = $("entry-msg"); line.textContent = text; line.className = "error-line"; }

// ---------------------------------------------------------------- a dialog is open
function inDialog(d, meaning, ev) {
  if (d.id === "key-menu") {
    if (/^[0-9]$/.test(meaning)) runMenu(parseInt(meaning, 10));
    else if (meaning) d.close();          // any other key of the table closes the menu
    return true;
  }
  if (d.id === "confirm") {
    // Enter, or the same key that asked (− for undo), says yes; any other key says no
    const yes = meaning === "enter" || (meaning && meaning === askedBy);
    if (meaning) answer(yes);
    return true;
  }
  if (d.id === "tie-dialog") {
    if (ev.target.closest && ev.target.closest("input")) {
      if (meaning === "cancel") { back(); return true; }
      return typeIn(ev.target, meaning, ev);
    }
    if (/^[0-9]$/.test(meaning)) { pick(parseInt(meaning, 10)); return true; }
    if (meaning === "cancel") { back(); return true; }
  }
  if (d.id === "clear-dialog") {
    if (/^[0-9]$/.test(meaning)) { pickClear(parseInt(meaning, 10)); return true; }
    if (meaning === "cancel") { backClear(); return true; }
  }
  if (d.id === "ask" && ev.target.closest && ev.target.closest("input")) return false;   // a word typed: its own keys
  // other dialogs handle their own keys; Enter/Space on their buttons stay native
  return ev.code === "Enter" || ev.code === "Space" || ev.code === "NumpadEnter" ? false : !!meaning && meaning !== "cancel";
}

/* a keypad digit with NumLock off (End, ArrowDown…) typed into a field as the digit it is; true if handled */
function typeIn(input, meaning, ev) {
  if (!/^[0-9]$/.test(meaning || "") || ev.key === meaning || input.tagName !== "INPUT") return false;
  const max = parseInt(input.getAttribute("maxlength") || "64", 10);
  if (input.value.length < max) input.value += meaning;
  return true;
}

// ---------------------------------------------------------------- the keys
document.addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.altKey || ev.metaKey) return;
  const meaning = table[ev.code];
  const open = [...document.querySelectorAll("dialog[open]")].pop();   // the one on top
  if (open) {
    if (inDialog(open, meaning, ev)) ev.preventDefault();
    return;
  }
  const target = ev.target;
  if (target.closest && target.closest("input, textarea, select")) {
    // a form field keeps its keys; Escape (or the keypad's /) leaves it for the draw entry
    if (meaning === "cancel" && ev.code !== "NumpadDivide") { ev.preventDefault(); target.value = target.id === "check-id" ? "" : target.value; backToEntry(); }
    else if (typeIn(target, meaning, ev)) ev.preventDefault();
    return;
  }
  const onButton = target.closest && target.closest("button") && target !== $("entry");
  if (onButton && (ev.code === "Enter" || ev.code === "Space" || ev.code === "NumpadEnter") && !typedNumber()) return;   // native click
  if (meaning === undefined) {
    if (ev.code && ev.code.startsWith("Numpad")) ev.preventDefault();   // NumLock off: never scroll
    return;
  }
  ev.preventDefault();
  act(meaning);
});

function act(meaning) {
  const S = state();
  if (!S) return;
  if (/^[0-9]$/.test(meaning)) key(meaning);
  else if (meaning === "enter") key("Enter");
  else if (meaning === "erase") key("Backspace");
  else if (meaning === "cancel") key("Escape");
  else if (meaning === "undo") {
    if ($("undo").disabled) { sayError(t("nothing_to_undo")); return; }
    askedBy = "undo";
    $("undo").click();
  } else if (meaning === "claim") {     // + resumes a stopped draw, stops a running one (docs L11a, as the Pi's keypad)
    if (!$("resume").disabled) $("resume").click();
    else if (!$("announce").disabled) $("announce").click();
    else if (S.paused) sayError(t("resume_blocked"));
  } else if (meaning === "menu") openMenu();
  backToEntry();
}

// a confirmation opened by a real click (mouse, Enter on the button) is answered by Enter only
document.addEventListener("click", (ev) => { if (ev.isTrusted) askedBy = null; }, true);

$("menu-button").addEventListener("click", (ev) => { ev.stopPropagation(); openMenu(); });
$("key-menu-list").addEventListener("click", (ev) => { const li = ev.target.closest("li"); if (li) runMenu(parseInt(li.dataset.n, 10)); });

backToEntry();
