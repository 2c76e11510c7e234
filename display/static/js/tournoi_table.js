/* A table's captain on a phone: the code from the sheet's QR code, each hand's points, time called. */
import {ask} from "./ask.js";
import {$, boot, COLON, el, t} from "./common.js";
import {pair, score} from "./tournoi_common.js";

const table = boot.table;
const params = new URLSearchParams(location.search);
const key = "tournoi-code-" + table;
let code = (params.get("code") || sessionStorage.getItem(key) || "").toUpperCase();
let pass = sessionStorage.getItem(key + "-pass") || "";   // the server's pass once the code was right
let sheet = null, editing = null;

async function call(method, path, body) {
  const init = {method, credentials: "omit", headers: {"Accept": "application/json", "X-Table-Code": code}};
  if (pass) init.headers["X-Table-Pass"] = pass;
  if (body !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
  try {
    const res = await fetch(path, init);
    const given = res.headers.get("X-Table-Pass");
    if (given) { pass = given; sessionStorage.setItem(key + "-pass", given); }
    return {ok: res.ok, status: res.status, data: await res.json()};
  } catch (e) { return {ok: false, status: 0, data: {message: t("network")}}; }
}

/* Without a valid code: ask for it, and show who sits at this table now (the movement, from the public state). */
async function askCode(message) {
  $("tt-sheet").hidden = true;
  $("tt-code-form").hidden = false;
  $("tt-game").textContent = message || "";
  try {
    const data = await (await fetch("/api/tournoi", {headers: {"Accept": "application/json"}})).json();
    const here = (data.tables || []).find((x) => x.table === table);
    $("tt-now").textContent = here ? t("seating", {n: data.game}) + COLON + pair(here.seats, 0, 2) + " " +
                                     t("vs") + " " + pair(here.seats, 1, 3) : "";
  } catch (e) { $("tt-now").textContent = ""; }
}

function render(data) {
  sheet = data.table;
  $("tt-code-form").hidden = true;
  $("tt-sheet").hidden = false;
  $("tt-game").textContent = t("game", {n: data.game, total: data.games});
  $("tt-ns-names").textContent = pair(sheet.seats, 0, 2);
  $("tt-ew-names").textContent = pair(sheet.seats, 1, 3);
  $("tt-ns-total").textContent = String(sheet.totals[0]);
  $("tt-ew-total").textContent = String(sheet.totals[1]);
  const next = sheet.hands.length + 1;
  const number = editing || next;
  const closed = sheet.done && !editing;
  $("tt-form").hidden = closed || sheet.closed;
  $("tt-close").hidden = sheet.done;
  $("tt-hand-title").textContent = t("hand", {n: number});
  $("tt-save").textContent = editing ? t("fix_hand", {n: number}) : t("save_hand", {n: number});
  if (closed) $("tt-msg").textContent = sheet.closed ? t("sheet_closed") : t("done");
  $("tt-hands").replaceChildren(...sheet.hands.map((h, i) => el("li", {},
    el("button", {type: "button", class: "tt-hand" + (editing === i + 1 ? " editing" : ""), "data-hand": i + 1,
                  disabled: sheet.closed, onclick: () => { editing = i + 1; $("tt-ns").value = h[0]; $("tt-ew").value = h[1];
                                              render({table: sheet, game: data.game, games: data.games}); $("tt-ns").focus(); }},
      el("span", {class: "n", text: t("hand", {n: i + 1})}), el("span", {text: score(h[0], h[1])})))));
}

let last = null;
async function load() {
  if (!code) { askCode($("tt-game").textContent); return; }  // keep the last sentence; no guessing
  const res = await call("GET", "/api/tournoi/tables/" + table);
  if (!res.ok) {
    const had = sessionStorage.getItem(key) === code && sheet !== null;  // the game moved on: a new sheet, a new code
    sessionStorage.removeItem(key);
    code = "";  // never retried on its own: wrong codes are rate-limited
    askCode(had ? t("new_game") : res.data.message);
    return;
  }
  $("tt-now").textContent = "";
  sessionStorage.setItem(key, code);
  last = res.data;
  render(res.data);
}

function number(id) {
  const text = $(id).value.trim().replace("−", "-");
  return /^-?\d{1,3}$/.test(text) ? parseInt(text, 10) : NaN;
}

$("tt-code-form").addEventListener("submit", (ev) => { ev.preventDefault(); code = $("tt-code").value.trim().toUpperCase(); load(); });
for (const b of document.querySelectorAll(".tt-sign")) {
  b.addEventListener("click", () => {
    const input = $(b.dataset.for);
    input.value = input.value.startsWith("-") ? input.value.slice(1) : "-" + input.value;
    input.focus();
  });
}
$("tt-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const hand = editing || sheet.hands.length + 1;
  const ns = number("tt-ns"), ew = number("tt-ew");
  const res = await call("POST", "/api/tournoi/tables/" + table + "/hands",
                         {hand, ns: isNaN(ns) ? $("tt-ns").value : ns, ew: isNaN(ew) ? $("tt-ew").value : ew});
  $("tt-msg").textContent = res.ok ? t("saved", {n: hand}) : res.data.message;
  $("tt-msg").className = "tt-msg " + (res.ok ? "ok" : "bad");
  if (res.ok) { editing = null; $("tt-ns").value = ""; $("tt-ew").value = ""; await load(); $("tt-ns").focus(); }
});
$("tt-close").addEventListener("click", async () => {
  if (!await ask(t("confirm_close"), {danger: true})) return;
  const res = await call("POST", "/api/tournoi/tables/" + table + "/close");
  $("tt-msg").textContent = res.ok ? t("done") : res.data.message;
  await load();
});
load();
setInterval(() => { if (!editing && document.activeElement.tagName !== "INPUT") load(); }, 5000);
