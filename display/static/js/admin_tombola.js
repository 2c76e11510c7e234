/* The tombola's section of /admin: the form becomes the preparation's JSON; while typing, POST /api/tombola/check
   answers the 15 % check from the preparation's own core (no formula here) and what it would be refused for. */
import {$, api, boot, money, reconnected, t} from "./common.js";

const DONATED = /^(donn|offert|don|given|donated)/i;
const TEXT = {"tb-place": "place", "tb-unclaimed": "unclaimed", "tb-draw-at": "draw_at", "tb-collect": "collect_until"};

/* « 2,50 » → 2.5; what is not a number goes as typed (the server names the field it refuses) */
function amount(text) {
  const s = String(text || "").trim().replace(/\s/g, "").replace(",", ".");
  if (s === "") return undefined;
  return /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : text.trim();
}

function whole(text) {
  const s = String(text || "").trim();
  if (s === "") return undefined;
  return /^\d+$/.test(s) ? Number(s) : s;
}

function lots(text) {
  return text.split("\n").map((l) => l.trim()).filter(Boolean).map((l) => {
    const [label, value, kind] = l.split(";").map((x) => (x || "").trim());
    const lot = {label, donated: DONATED.test(kind || "")};
    const v = amount(value);
    if (v !== undefined) lot.value_eur = v;
    return lot;
  });
}

function body() {
  const b = {country: $("tb-country").value, carnet: whole($("tb-carnet").value) ?? 1};
  const number = $("tb-auth-number").value.trim(), date = $("tb-auth-date").value;
  if (number || date) b.authorisation = {number, date};
  const price = amount($("tb-price").value), tickets = whole($("tb-tickets").value), costs = amount($("tb-costs").value);
  if (price !== undefined) b.price_eur = price;
  if (tickets !== undefined) b.tickets = tickets;
  b.costs_eur = costs === undefined ? 0 : costs;
  for (const [id, key] of Object.entries(TEXT)) if ($(id).value.trim()) b[key] = $(id).value.trim();
  const l = lots($("tb-lots").value);
  if (l.length) b.lots = l;
  return b;
}

function show(check, warnings, refused) {
  const warn = $("tombola-warning"), why = $("tombola-refused");
  if (!check) {
    $("tombola-check").textContent = t("tb_no_check");
    warn.hidden = true;
  } else {
    $("tombola-check").textContent = t("tb_check", {spent: money(check.spent_eur), issued: money(check.issued_eur),
      percent: Number(check.percent).toLocaleString(boot.lang || "fr", {maximumFractionDigits: 1}) + " %", limit: money(check.limit_eur), share: "15 %"})
      + " " + (check.over ? "" : t("tb_within"));
    const lines = [];
    if (check.over) lines.push(t("tb_over", {share: "15 %", over: money(check.spent_eur - check.limit_eur)}));
    if ((warnings || []).includes("ch_ask")) lines.push(t("tb_ch_ask"));
    warn.textContent = lines.join(" ");
    warn.hidden = !lines.length;
  }
  why.textContent = refused ? refused.message : "";
  why.hidden = !refused;
}

let pending = null, asked = 0;
async function checkNow() {
  const mine = ++asked;
  const res = await api("POST", "/api/tombola/check", body());
  if (res.ok && mine === asked) show(res.data.check, res.data.warnings, res.data.refused);  // the latest typing wins
}
$("tombola-form").addEventListener("input", () => {
  clearTimeout(pending);
  pending = setTimeout(checkNow, 250);
});

function fill(tb) {
  $("tb-country").value = tb.country;
  $("tb-auth-number").value = tb.authorisation.number;
  $("tb-auth-date").value = tb.authorisation.date;
  $("tb-price").value = money(tb.price_eur);
  $("tb-tickets").value = tb.tickets;
  $("tb-carnet").value = tb.carnet;
  $("tb-draw-at").value = tb.draw_at.replace(" ", "T").slice(0, 16);
  $("tb-place").value = tb.place;
  $("tb-collect").value = tb.collect_until;
  $("tb-unclaimed").value = tb.unclaimed;
  $("tb-costs").value = money(tb.costs_eur);
  $("tb-lots").value = tb.lots.map((l) => l.label + " ; " + money(l.value_eur) + " ; "
    + (l.donated ? t("tb_donated") : t("tb_bought"))).join("\n");
}

let filled = false;  // the form shows a tombola the hall had prepared (not a volunteer's typing)

async function load() {
  const res = await api("GET", "/api/tombola");
  if (!res.ok) return;
  $("tombola-pdf").hidden = !res.data.prepared;
  if (res.data.prepared) {
    fill(res.data);
    filled = true;
    $("tombola-msg").textContent = t("tb_state", {sold: res.data.sold, tickets: res.data.tickets,
      takings: money(res.data.takings_eur)});
  } else if (filled) {  // back on the next evening: last week's tombola is not tonight's (a typing is kept)
    $("tombola-form").reset();
    $("tombola-msg").textContent = "";
    filled = false;
  }
  checkNow();
}

$("tombola-save").addEventListener("click", async () => {
  const res = await api("POST", "/api/tombola", body());
  $("tombola-msg").textContent = res.ok ? t("tb_saved", {tickets: res.data.tickets, price: money(res.data.price_eur)})
    : res.data.message;
  if (res.ok) {
    filled = true;
    $("tombola-pdf").hidden = false;
    show(res.data.check, res.data.warnings, null);
  }
});
load();
reconnected(load);  // back after a restart, maybe on the next evening: its own tombola, or none
