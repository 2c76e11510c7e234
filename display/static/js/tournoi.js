/* The tournament desk: registration, the tables of the current game (codes, paper sheets typed here),
   the next game's movement, defaults, playoffs and the documents. */
import {ask, askText} from "./ask.js";
import {$, api, boot, COLON, el, t} from "./common.js";
import {pair, poll, score} from "./tournoi_common.js";

let day = null, entryTable = null;

function message(res) {
  $("td-msg").textContent = res.ok ? "" : res.data.message;
  return res.ok;
}

async function act(method, path, body) {
  const res = await api(method, path, body);
  if (message(res)) { day = null; poller.now(); }
  return res;
}

function teamName(id) {
  const team = (day.teams || []).find((x) => x.team === id);
  return team ? team.name : id;
}

function renderTeams(data) {
  const out = new Map((data.out || []).map((o) => [o.team, o.why]));
  const open = data.phase === "registration";
  $("td-team-form").hidden = !open;
  $("td-teams").replaceChildren(...data.teams.map((team) => el("li", {class: team.arrived ? "" : "away"},
    el("span", {class: "tname", text: team.team + " · " + team.name}),
    el("span", {class: "tplayers", text: team.players.join(" & ")}),
    out.has(team.team) ? el("em", {text: t(out.get(team.team))}) :
      open ? el("button", {type: "button", "data-team": team.team,
                           onclick: () => act("POST", "/api/tournoi/teams/" + team.team + (team.arrived ? "/absent" : "/arrive"))},
                team.arrived ? t("mark_absent") : t("arrive")) :
      data.phase === "running" ? el("button", {type: "button", class: "danger",
        onclick: async () => { if (await ask(t("confirm_default", {name: team.name}), {yes: t("make_default"), danger: true})) act("POST", "/api/tournoi/teams/" + team.team + "/default"); }},
        t("make_default")) : null,
    open ? el("span", {class: "state", text: team.arrived ? t("arrived") : t("not_arrived")}) : null)));
  const named = data.floater && data.floater[0];
  $("td-floater-now").textContent = named ? t("floater") + COLON + data.floater.join(" & ") : "";
}

function renderTables(data) {
  const tables = data.tables || [];
  $("td-game").textContent = data.phase === "running" ? t("game", {n: data.game, total: data.games}) + " · " + t("session", {n: data.session}) : "";
  $("td-tables").replaceChildren(...tables.map((table) => el("article", {class: "td-table" + (table.done ? " done" : ""), "data-table": table.table},
    el("header", {}, el("strong", {text: t("table", {n: table.table})}), el("span", {class: "code", text: t("code") + " " + table.code})),
    table.held_s ? el("p", {class: "held", role: "status", text: t("held", {min: Math.ceil(table.held_s / 60)})}) : null,
    table.printed === false ? el("p", {class: "fresh", text: t("fresh_code")}) : null,
    el("p", {class: "pairs", text: pair(table.seats, 0, 2)}),
    el("p", {class: "pairs", text: pair(table.seats, 1, 3)}),
    el("p", {class: "score", text: score(table.totals[0], table.totals[1]) + " · " + (table.closed ? t("sheet_closed") : t("hands_done", {n: table.hands.length}))}),
    el("button", {type: "button", onclick: () => openEntry(table.table)}, t("enter")),
    el("button", {type: "button", "data-recode": table.table, onclick: async () => {       // captains held: a fresh code
      if (await ask(t("new_code_ask", {n: table.table}), {yes: t("new_code")})) act("POST", "/api/tournoi/tables/" + table.table + "/code");
    }}, t("new_code")))));
  if (entryTable) openEntry(entryTable);
}

function renderRank(data) {
  const running = data.phase === "running";
  $("td-rank").querySelector("tbody").replaceChildren(...(data.standings || []).map((r) => el("tr", {class: r.playoff_needed ? "tied" : ""},
    el("td", {text: String(r.place)}), el("td", {text: r.name + " (" + r.players.join(" & ") + ")"}),
    el("td", {text: String(r.ranking)}), el("td", {text: String(r.game_points)}),
    el("td", {text: r.playoff_needed ? t("tied") : r.playoff_wins ? t("playoff_wins", {n: r.playoff_wins}) : ""}))));
  const groups = data.playoff_groups || [];
  $("td-playoff").hidden = !groups.length;
  const options = groups.flat().map((id) => el("option", {value: id, text: teamName(id)}));
  $("td-playoff-winner").replaceChildren(...options);
  $("td-playoff-loser").replaceChildren(...options.map((o) => o.cloneNode(true)));
  if (options.length > 1) $("td-playoff-loser").selectedIndex = 1;
  $("td-start").hidden = data.phase !== "registration";
  $("td-next").hidden = !running;
  $("td-sheets").hidden = !running;
  for (const id of ["td-standings-pdf", "td-standings-csv"]) $(id).hidden = !data.standings || !data.standings.length;
}

function openEntry(number) {
  const table = (day.tables || []).find((x) => x.table === number);
  if (!table) { $("td-entry").hidden = true; entryTable = null; return; }
  entryTable = number;
  $("td-entry").hidden = false;
  $("td-entry-title").textContent = t("table", {n: number}) + " — " + pair(table.seats, 0, 2) + " / " + pair(table.seats, 1, 3);
  if (document.activeElement.closest && !document.activeElement.closest("#td-entry")) $("td-entry-hand").value = Math.min(8, table.hands.length + 1);
  $("td-entry-close").hidden = table.done;
  $("td-entry-reopen").hidden = !table.closed;
  $("td-entry-hands").replaceChildren(...table.hands.map((h, i) => el("li", {text: t("hand", {n: i + 1}) + COLON + score(h[0], h[1])})));
}

function render(data) {
  if (!data) return;
  day = data;
  $("td-title").textContent = data.title || $("td-title").textContent;
  $("td-phase").textContent = {none: t("no_day"), registration: t("registration"), playoffs: t("playoffs"),
                               finished: t("finished")}[data.phase] || "";
  renderTeams(data);
  renderTables(data);
  renderRank(data);
}

$("td-team-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const res = await act("POST", "/api/tournoi/teams", {name: $("td-team-name").value,
    players: [$("td-team-a").value, $("td-team-b").value], arrived: $("td-team-arrived").checked});
  if (res.ok) { $("td-team-form").reset(); $("td-team-name").focus(); }
});
$("td-floater-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const res = await act("POST", "/api/tournoi/floater", {players: [$("td-floater-a").value, $("td-floater-b").value]});
  if (res.ok) $("td-floater-form").reset();
});
$("td-start").addEventListener("click", () => act("POST", "/api/tournoi/start"));
$("td-next").addEventListener("click", async () => { if (await ask(t("confirm_next"))) act("POST", "/api/tournoi/next"); });
$("td-new-day").addEventListener("click", async () => {
  // one question: the new day's name (the day under way, if any, is closed: said in the question)
  const running = day && day.phase && day.phase !== "none";
  const title = await askText(t("new_day"), {text: running ? t("new_day_closes") : "", label: t("day_title"),
    value: t("day_default", {date: new Date().toLocaleDateString(boot.lang || "fr")}), maxlength: 80, yes: t("new_day_open")});
  if (title !== null) act("POST", "/api/tournoi/day", {title});
});
$("td-entry").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const num = (id) => { const v = $(id).value.trim(); return /^-?\d+$/.test(v) ? parseInt(v, 10) : v; };
  const hand = num("td-entry-hand");
  const res = await act("POST", "/api/tournoi/tables/" + entryTable + "/hands", {hand, ns: num("td-entry-ns"), ew: num("td-entry-ew")});
  if (res.ok) { $("td-entry-ns").value = ""; $("td-entry-ew").value = ""; $("td-entry-hand").value = Math.min(8, hand + 1); $("td-entry-ns").focus(); }
});
$("td-entry-close").addEventListener("click", async () => { if (await ask(t("confirm_close"), {danger: true})) act("POST", "/api/tournoi/tables/" + entryTable + "/close"); });
$("td-entry-reopen").addEventListener("click", () => act("POST", "/api/tournoi/tables/" + entryTable + "/reopen"));
$("td-entry-cancel").addEventListener("click", () => { entryTable = null; $("td-entry").hidden = true; });
$("td-playoff").addEventListener("submit", (ev) => {
  ev.preventDefault();
  act("POST", "/api/tournoi/playoffs", {winner: $("td-playoff-winner").value, loser: $("td-playoff-loser").value});
});

const poller = poll("/api/tournoi/desk", render, 4000);
