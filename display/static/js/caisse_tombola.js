/* The tombola's sale at /caisse: tickets or whole carnets to a named buyer (POST /api/tombola/sales); the numbers
   sold are shown to the seller, and the print queue prints each ticket with its stub. */
import {$, api, money, reconnected, t} from "./common.js";

let tb = null;

/* [1,2,3,7] → « 1 à 3, 7 » */
function ranges(numbers) {
  const out = [];
  for (const n of numbers) {
    const last = out[out.length - 1];
    if (last && n === last[1] + 1) last[1] = n;
    else out.push([n, n]);
  }
  return out.map(([a, b]) => (a === b ? String(a) : a + (b === a + 1 ? ", " : " " + t("tb_to") + " ") + b)).join(", ");
}

function typed() {
  return $("tb-numbers").value.split(/[\s,;]+/).filter(Boolean).map((x) => (/^\d+$/.test(x) ? Number(x) : x));
}

function unit() {
  return document.querySelector("input[name=tb-unit]:checked").value;
}

function tickets() {
  const numbers = typed();
  if (numbers.length) return numbers.length;
  const n = Number($("tb-count").value) || 0;
  return unit() === "carnets" ? n * tb.carnet : n;
}

function total() {
  if (tb) $("tb-total").textContent = t("tb_total", {eur: money(tickets() * tb.price_eur)});
}

async function load() {
  const res = await api("GET", "/api/tombola");
  if (!res.ok) return;
  if (!res.data.prepared) {  // none prepared (or a new evening without one yet): the caisse sells cartons only
    tb = null;
    $("tombola-sell").hidden = true;
    return;
  }
  tb = res.data;
  $("tombola-sell").hidden = false;
  $("tb-carnet-word").textContent = t("tb_carnets", {n: tb.carnet});
  $("tb-sell-state").textContent = tb.closed ? t("tb_closed", {sold: tb.sold})
    : t("tb_state", {sold: tb.sold, tickets: tb.tickets, takings: money(tb.takings_eur)});
  $("tb-sell").disabled = tb.closed;
  total();
}

$("tb-sell-form").addEventListener("input", total);
$("tb-sell-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const b = {buyer: $("tb-buyer").value.trim(), payment: document.querySelector("input[name=tb-payment]:checked").value};
  const numbers = typed();
  const count = Number($("tb-count").value);
  if (numbers.length) b.tickets = numbers;
  else if (unit() === "carnets") b.carnets = count;
  else b.count = count;
  const res = await api("POST", "/api/tombola/sales", b);
  const out = $("tb-result");
  out.hidden = false;
  out.className = res.ok ? "tb-numbers result good" : "tb-numbers result bad";
  out.textContent = res.ok ? t("tb_sold", {numbers: ranges(res.data.tickets), buyer: res.data.buyer,
    eur: money(res.data.amount_eur)}) : res.data.message;
  if (res.ok) {
    $("tb-buyer").value = "";
    $("tb-numbers").value = "";
  }
  load();
});
load();
reconnected(load);  // back after a restart, maybe on the next evening: its own tombola, or none
