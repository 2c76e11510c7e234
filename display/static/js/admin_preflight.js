/* /admin: the pre-flight before the doors open — every check green or red, each red with what to do (journalled). */
import {$, api, t} from "./common.js";

function row(check) {
  const tr = document.createElement("tr");
  tr.className = "preflight-" + check.state;
  for (const text of [check.name, t("preflight_" + check.state), check.detail, check.fix]) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.appendChild(td);
  }
  return tr;
}

$("preflight-run").addEventListener("click", async () => {
  $("preflight-run").disabled = true;
  $("preflight-msg").textContent = t("preflight_running");
  const res = await api("POST", "/api/preflight", {});
  $("preflight-run").disabled = false;
  if (!res.ok) { $("preflight-msg").textContent = res.data.message; return; }
  $("preflight").querySelector("tbody").replaceChildren(...res.data.checks.map(row));
  $("preflight").hidden = false;
  $("preflight-msg").textContent = t(res.data.ready ? "preflight_ready" : "preflight_not_ready", {seq: res.data.seq});
});
