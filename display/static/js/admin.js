/* The admin page: programme, cartons (import, generate, sold), PINs, devices. */
import {$, api, boot, COLON, el, lotName, t, tn} from "./common.js";

/* errors at the top of the page, in red, where the eye is (a CSV import's lines, a refused programme) */
export function adminAlert(message, lines) {
  const box = $("admin-alert");
  if (!message) { box.hidden = true; box.replaceChildren(); return; }
  box.replaceChildren(el("strong", {text: message.split(" l.")[0]}),
    lines && lines.length ? el("ul", {}, ...lines.slice(0, 12).map((e) => el("li", {text: t("line_n", {n: e[0]}) + " " + e[1]}))) : "",
    el("button", {type: "button", text: "✕", "aria-label": t("close"), onclick: () => { box.hidden = true; }}));
  box.hidden = false;
  box.scrollIntoView({block: "start"});
}

async function load() {
  const res = await api("GET", "/api/admin");
  if (!res.ok) return;
  const info = res.data;
  $("programme").replaceChildren(el("ol", {}, ...info.programme.map((p) => el("li", {class: p.number <= info.parties_played ? "played" : ""},
    el("strong", {text: t("partie", {n: p.number}) + COLON}),
    p.lots.map(lotName).join(" · ") + " (" + p.consolation + ")"))));
  $("cards-count").textContent = info.sales_recorded === false ? t("cards_count_unrecorded", {n: info.cards})
    : tn("cards_total", info.cards) + tn("of_them_sold", info.sold);
  // who opens what: each PIN with the pages it opens (the desk's opens the caisse, the prize table and the tournament)
  $("pins").replaceChildren(...Object.entries(info.pins).map(([role, pin]) => el("tr", {},
    el("th", {text: t("role_" + role)}), el("td", {class: "pin", text: pin || t("pin_changed")}), el("td", {class: "dim", text: t("opens_" + role)}))));
  const fp = info.fingerprint;
  $("journal-fingerprint").textContent = fp.seq ? t("journal_fingerprint", {fp: groups(fp.shown), seq: fp.seq, at: clock(fp.at)}) : t("journal_empty");
  const devices = Object.values(info.devices);
  $("devices-admin").replaceChildren(...(devices.length ? devices.map((d) => el("div", {class: "device " + d.status,
    text: d.detail || t("device_" + d.device) + COLON + t("device_" + d.status)})) : [el("div", {class: "device none", text: t("no_devices")})]));
}
/* the page's picture again once the journal has moved on — its fingerprint above all, which the treasurer copies at
   the end of the evening: it must be the last record's, not the one of when the page was opened (once a second) */
let again = null;
export function refresh() { if (!again) again = setTimeout(() => { again = null; load(); }, 1000); }
const clock = (iso) => new Date(iso).toLocaleTimeString(boot.lang || "fr", {hour: "2-digit", minute: "2-digit"});
const groups = (shown) => shown.replace(/ /g, "\u00a0");    // a fingerprint's groups kept on one line, as on paper
$("print-ticket").addEventListener("click", async () => {
  const res = await api("POST", "/api/report/ticket");
  $("ticket-msg").textContent = res.ok ? t("ticket_asked", {fp: groups(res.data.fingerprint.shown)}) : res.data.message;
  if (res.ok) load();
});
function msg(res, ok) {
  $("cards-msg").textContent = res.ok ? ok(res.data) : res.data.message + (res.data.errors ? " " + res.data.errors.slice(0, 5).map((e) => "l." + e[0] + " " + e[1]).join(" ; ") : "") + (res.data.why ? " " + res.data.why : "");
  if (res.ok) load();
  adminAlert(res.ok ? "" : $("cards-msg").textContent, res.ok ? null : (res.data.errors || []));
}
$("import").addEventListener("click", async () => {
  const file = $("import-file").files[0];
  if (!file) return;
  const text = await file.arrayBuffer();    // the bytes as saved: the hall reads UTF-8 or Windows-1252
  const r = await fetch("/api/cards/import", {method: "POST", body: text, credentials: "same-origin",
    headers: {"Content-Type": "text/csv", "X-CSRF-Token": boot.csrf}});
  msg({ok: r.ok, data: await r.json()}, (d) => "+" + d.added + " → " + d.total);
});
$("generate-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const body = {count: parseInt($("gen-count").value, 10), series: $("gen-series").value.trim().toUpperCase()};
  if ($("gen-seed").value.trim()) body.seed = $("gen-seed").value.trim();
  msg(await api("POST", "/api/cards/generate", body), (d) => "+" + d.added + " → " + d.total);
});
/* the planches: a refusal (no such series, a range the book lacks) is said here, never a tab of raw JSON */
$("print-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const form = ev.target, query = new URLSearchParams(new FormData(form));
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const res = await fetch(form.action + "?" + query, {credentials: "same-origin"});
    if (!res.ok) {
      let data = {};
      try { data = await res.json(); } catch (e) { data = {message: t("error")}; }
      adminAlert(data.message + (data.why ? " " + data.why : ""));
      return;
    }
    adminAlert("");
    const link = el("a", {href: URL.createObjectURL(await res.blob()),
                          download: (res.headers.get("Content-Disposition") || "").split("filename=")[1] || "cartons.pdf"});
    document.body.append(link); link.click(); link.remove();
  } catch (e) { adminAlert(t("network")); }
  finally { button.disabled = false; }
});
$("sold-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  msg(await api("POST", "/api/cards/sold", {ranges: $("ranges").value, sold: true}), (d) => "✓ " + d.count);
});
document.querySelectorAll("[data-test]").forEach((b) => b.addEventListener("click", async () => {
  const res = await api("POST", "/api/devices/" + b.dataset.test + "/test");
  $("devices-msg").textContent = res.ok ? "→ " + t("device_" + b.dataset.test) : res.data.message;
}));
load();
// sockets connected now (projectors, staff screens, phones), every 10 s: one small request, a counter read
async function connections() {
  const res = await api("GET", "/api/network");
  if (!res.ok) return;
  $("connections").textContent = t("connections", {n: res.data.connections});
  const relays = res.data.relays || [];      // a hall with relays: each one's phones, as nginx deals them
  $("relay-spread").textContent = relays.length ? t("relay_spread", {list: relays.map((r) => r.clients).join(" · ")}) : "";
}
connections();
setInterval(connections, 10000);
