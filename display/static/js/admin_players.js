/* /admin: how much the players' phones help (« Mes cartons », [players]), for every phone at once (journalled). */
import {$, api, t} from "./common.js";

function show(p) {
  document.querySelectorAll("#players-form input[name=help]").forEach((r) => { r.checked = r.value === p.help; });
  $("players-one").checked = p.one_to_go;
  $("players-call").checked = p.phone_call;
  $("players-max").value = String(p.max_cards);
}

async function load() {
  const res = await api("GET", "/api/state");
  if (res.ok && res.data.players) show(res.data.players);
}

$("players-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const checked = document.querySelector("#players-form input[name=help]:checked");
  const res = await api("POST", "/api/admin/players", {help: checked ? checked.value : undefined,
    one_to_go: $("players-one").checked, phone_call: $("players-call").checked,
    max_cards: parseInt($("players-max").value, 10)});
  $("players-msg").textContent = res.ok ? t("players_help_" + res.data.help) : res.data.message;
  if (res.ok) show(res.data);
});
load();
