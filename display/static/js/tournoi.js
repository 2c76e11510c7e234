/* The tournament desk: registration, the tables of the current game (codes, paper sheets typed here),
   the next game's movement, defaults, playoffs and the documents. */
"use strict";
(function () {
  const {say, pair, poll} = window.Tournoi;
  const {el, api} = window.Loto;
  const $ = (id) => document.getElementById(id);
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
    const t = (day.teams || []).find((x) => x.team === id);
    return t ? t.name : id;
  }

  function renderTeams(data) {
    const out = new Map((data.out || []).map((o) => [o.team, o.why]));
    const open = data.phase === "registration";
    $("td-team-form").hidden = !open;
    $("td-teams").replaceChildren(...data.teams.map((t) => el("li", {class: t.arrived ? "" : "away"},
      el("span", {class: "tname", text: t.team + " · " + t.name}),
      el("span", {class: "tplayers", text: t.players.join(" & ")}),
      out.has(t.team) ? el("em", {text: say(out.get(t.team))}) :
        open ? el("button", {type: "button", "data-team": t.team,
                             onclick: () => act("POST", "/api/tournoi/teams/" + t.team + (t.arrived ? "/absent" : "/arrive"))},
                  t.arrived ? say("mark_absent") : say("arrive")) :
        data.phase === "running" ? el("button", {type: "button", class: "danger",
          onclick: () => { if (confirm(say("confirm_default", {name: t.name}))) act("POST", "/api/tournoi/teams/" + t.team + "/default"); }},
          say("make_default")) : null,
      open ? el("span", {class: "state", text: t.arrived ? say("arrived") : say("not_arrived")}) : null)));
    const named = data.floater && data.floater[0];
    $("td-floater-now").textContent = named ? say("floater") + " : " + data.floater.join(" & ") : "";
  }

  function renderTables(data) {
    const tables = data.tables || [];
    $("td-game").textContent = data.phase === "running" ? say("game", {n: data.game, total: data.games}) + " · " + say("session", {n: data.session}) : "";
    $("td-tables").replaceChildren(...tables.map((t) => el("article", {class: "td-table" + (t.done ? " done" : ""), "data-table": t.table},
      el("header", {}, el("strong", {text: say("table", {n: t.table})}), el("span", {class: "code", text: say("code") + " " + t.code})),
      el("p", {class: "pairs", text: pair(t.seats, 0, 2)}),
      el("p", {class: "pairs", text: pair(t.seats, 1, 3)}),
      el("p", {class: "score", text: t.totals[0] + " – " + t.totals[1] + " · " + (t.closed ? say("sheet_closed") : say("hands_done", {n: t.hands.length}))}),
      el("button", {type: "button", onclick: () => openEntry(t.table)}, say("enter")))));
    if (entryTable) openEntry(entryTable);
  }

  function renderRank(data) {
    const running = data.phase === "running";
    $("td-rank").querySelector("tbody").replaceChildren(...(data.standings || []).map((r) => el("tr", {class: r.playoff_needed ? "tied" : ""},
      el("td", {text: String(r.place)}), el("td", {text: r.name + " (" + r.players.join(" & ") + ")"}),
      el("td", {text: String(r.ranking)}), el("td", {text: String(r.game_points)}),
      el("td", {text: r.playoff_needed ? say("tied") : r.playoff_wins ? say("playoff_wins", {n: r.playoff_wins}) : ""}))));
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
    const t = (day.tables || []).find((x) => x.table === number);
    if (!t) { $("td-entry").hidden = true; entryTable = null; return; }
    entryTable = number;
    $("td-entry").hidden = false;
    $("td-entry-title").textContent = say("table", {n: number}) + " — " + pair(t.seats, 0, 2) + " / " + pair(t.seats, 1, 3);
    if (document.activeElement.closest && !document.activeElement.closest("#td-entry")) $("td-entry-hand").value = Math.min(8, t.hands.length + 1);
    $("td-entry-close").hidden = t.done;
    $("td-entry-reopen").hidden = !t.closed;
    $("td-entry-hands").replaceChildren(...t.hands.map((h, i) => el("li", {text: say("hand", {n: i + 1}) + " : " + h[0] + " – " + h[1]})));
  }

  function render(data) {
    if (!data) return;
    day = data;
    $("td-title").textContent = data.title || $("td-title").textContent;
    $("td-phase").textContent = {none: say("no_day"), registration: say("registration"), playoffs: say("playoffs"),
                                 finished: say("finished")}[data.phase] || "";
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
  $("td-next").addEventListener("click", () => { if (confirm(say("confirm_next"))) act("POST", "/api/tournoi/next"); });
  $("td-new-day").addEventListener("click", () => {
    if (!confirm(say("confirm_new_day"))) return;
    const title = prompt(document.getElementById("td-title").textContent, day && day.title || "");
    if (title !== null) act("POST", "/api/tournoi/day", {title});
  });
  $("td-entry").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const num = (id) => { const v = $(id).value.trim(); return /^-?\d+$/.test(v) ? parseInt(v, 10) : v; };
    const hand = num("td-entry-hand");
    const res = await act("POST", "/api/tournoi/tables/" + entryTable + "/hands", {hand, ns: num("td-entry-ns"), ew: num("td-entry-ew")});
    if (res.ok) { $("td-entry-ns").value = ""; $("td-entry-ew").value = ""; $("td-entry-hand").value = Math.min(8, hand + 1); $("td-entry-ns").focus(); }
  });
  $("td-entry-close").addEventListener("click", () => { if (confirm(say("confirm_close"))) act("POST", "/api/tournoi/tables/" + entryTable + "/close"); });
  $("td-entry-reopen").addEventListener("click", () => act("POST", "/api/tournoi/tables/" + entryTable + "/reopen"));
  $("td-entry-cancel").addEventListener("click", () => { entryTable = null; $("td-entry").hidden = true; });
  $("td-playoff").addEventListener("submit", (ev) => {
    ev.preventDefault();
    act("POST", "/api/tournoi/playoffs", {winner: $("td-playoff-winner").value, loser: $("td-playoff-loser").value});
  });

  const poller = poll("/api/tournoi/desk", render, 4000);
})();
