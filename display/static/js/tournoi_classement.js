/* The projector's standings: big rows, paged when the hall has more teams than fit; the current seating. */
import {$, el, t} from "./common.js";
import {pair, poll, score} from "./tournoi_common.js";

const body = document.querySelector("#tp-table tbody");
let rows = [], page = 0, PER_PAGE = 8, seating = [], TABLES_PER_PAGE = 10;
const list = $("tp-tables");

/* the seating pages too when a big hall has more tables than fit beside the standings */
function showTables() {
  const pages = Math.max(1, Math.ceil(seating.length / TABLES_PER_PAGE));
  const p = page % pages;
  list.replaceChildren(...seating.slice(p * TABLES_PER_PAGE, (p + 1) * TABLES_PER_PAGE));
  const first = list.querySelector("li");
  if (!first) return;
  const status = $("tp-status").getBoundingClientRect();
  const room = (status.height ? status.top : window.innerHeight) - list.getBoundingClientRect().top - 10;
  const fits = Math.max(2, Math.floor(room / (first.getBoundingClientRect().height + 8)));
  if (fits !== TABLES_PER_PAGE) { TABLES_PER_PAGE = fits; showTables(); }
}

/* as many rows as fit above the status line (measured once a row is on screen) */
function fit() {
  const first = body.querySelector("tr");
  if (!first) return;
  const box = document.querySelector(".tp-standings").getBoundingClientRect();
  const head = document.querySelector("#tp-table thead").getBoundingClientRect();
  const status = $("tp-status").getBoundingClientRect();
  const bottom = Math.min(box.bottom, status.height ? status.top : box.bottom) - 40;
  PER_PAGE = Math.max(3, Math.floor((bottom - head.bottom) / first.getBoundingClientRect().height));
}

function showPage() {
  const pages = Math.max(1, Math.ceil(rows.length / PER_PAGE));
  page = page % pages;
  body.replaceChildren(...rows.slice(page * PER_PAGE, (page + 1) * PER_PAGE).map((r) => el("tr",
    {class: (r.place <= 3 ? "medal m" + r.place : "") + (r.playoff_needed ? " tied" : "")},
    el("td", {class: "num", text: String(r.place)}),
    el("td", {class: "name"}, el("span", {class: "team", text: r.name}),
       el("span", {class: "who", text: r.players.join(" & ") +
         (r.playoff_needed ? " — " + t("tied") : r.playoff_wins ? " — " + t("playoff_wins", {n: r.playoff_wins}) : "")})),
    el("td", {class: "num big", text: String(r.ranking)}),
    el("td", {class: "num", text: String(r.game_points)}))));
  $("tp-page").textContent = pages > 1 ? (page + 1) + " / " + pages : "";
  showTables();
}

function render(data) {
  if (!data) return;
  $("tp-title").textContent = data.title || $("tp-title").textContent;
  const status = $("tp-status");
  const game = $("tp-game");
  rows = data.standings || [];
  if (data.phase === "none") { game.textContent = t("no_day"); }
  else if (data.phase === "registration") { game.textContent = t("registration"); }
  else if (data.phase === "running") {
    game.textContent = t("game", {n: data.game, total: data.games}) + " · " + t("session", {n: data.session});
  } else game.textContent = data.phase === "playoffs" ? t("playoffs") : t("finished");
  const tables = data.tables || [];
  $("tp-seating-title").textContent = tables.length ? t("seating", {n: data.game}) : "";
  seating = tables.map((table) => el("li", {class: table.done ? "done" : ""},
    el("span", {class: "tn", text: String(table.table)}),
    el("span", {class: "pairs"}, el("span", {text: pair(table.seats, 0, 2)}),
       el("span", {}, el("span", {class: "vs", text: t("vs") + " "}), pair(table.seats, 1, 3))),
    el("span", {class: "score", text: table.hands.length ? score(table.totals[0], table.totals[1]) : ""})));
  const waiting = tables.filter((table) => !table.done).map((table) => table.table);
  status.textContent = data.phase === "running" ? (waiting.length ? t("waiting_tables", {tables: waiting.join(", ")})
                                                                   : t("all_done")) : "";
  showPage();
  const before = PER_PAGE;
  fit();
  if (PER_PAGE !== before) showPage();
}

poll("/api/tournoi", render, 3000);
setInterval(() => { page += 1; showPage(); }, 12000);
