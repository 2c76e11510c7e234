/* The buvette's section of /admin: the products as lines « nom ; prix ; stock », the goods' cost, the stock counted
   at the close against the stock expected (the gap shown as it is typed), the Z at the close. */
import {$, api, el, money, t} from "./common.js";

const PAY = {cash: t("bv_pay_cash"), card: t("bv_pay_card"), free: t("bv_pay_free")};

const lines = (products) => products.map((p) => p.name + " ; " + money(p.price_eur) + " ; " + p.stock).join("\n");

function parse(text) {
  return text.split("\n").map((l) => l.trim()).filter(Boolean).map((l) => {
    const [name, price, stock] = l.split(";").map((x) => (x || "").trim());
    return {name, price_eur: price, stock: /^\d+$/.test(stock) ? Number(stock) : stock};
  });
}

const signed = (n) => (n > 0 ? "+" : n < 0 ? "\u2212" : "") + Math.abs(n);

function gapsOf(z) {
  const counted = z.counted.filter((c) => c.counted !== null);
  return counted.length ? " — " + t("bv_z_gaps", {gaps: counted.map((c) => c.product + " " + signed(c.difference)).join(", ")}) : "";
}

function drawZ(closes) {
  $("buvette-z").replaceChildren(...closes.map((z) => el("li", {}, t("bv_z_done", {z: z.z, eur: money(z.takings_eur)})
    + " — " + Object.entries(z.by_payment_eur).map(([p, e]) => PAY[p] + " " + money(e) + " €").join(", ") + gapsOf(z))));
}

function drawCount(products) {
  $("buvette-count").tBodies[0].replaceChildren(...products.map((p) => {
    const gap = el("td", {class: "bv-gap", "aria-live": "polite"});
    const input = el("input", {type: "number", min: 0, max: 10000, step: 1, inputmode: "numeric", "data-product": p.name,
      "data-expected": p.stock, "aria-label": t("bv_counted_of", {name: p.name}), size: 6});
    input.addEventListener("input", () => {
      const v = input.value.trim();
      gap.textContent = v === "" ? "" : signed(Number(v) - p.stock);
      gap.classList.toggle("bv-short", v !== "" && Number(v) < p.stock);
    });
    return el("tr", {}, el("th", {scope: "row", text: p.name}), el("td", {text: String(p.stock)}), el("td", {}, input), gap);
  }));
}

function counted() {
  const out = {};
  for (const input of $("buvette-count").querySelectorAll("input[data-product]")) {
    const v = input.value.trim();
    if (v !== "") out[input.dataset.product] = /^\d+$/.test(v) ? Number(v) : v;
  }
  return out;
}

async function load() {
  const res = await api("GET", "/api/buvette");
  if (!res.ok) return;
  $("buvette-products").value = lines(res.data.products);
  $("buvette-costs").value = money(res.data.costs_eur);
  drawCount(res.data.products);
  drawZ(res.data.closes);
}

$("buvette-save").addEventListener("click", async () => {
  const res = await api("POST", "/api/buvette/products",
    {products: parse($("buvette-products").value), costs_eur: $("buvette-costs").value.trim() || 0});
  $("buvette-msg").textContent = res.ok ? t("bv_products_saved") : res.data.message;
  if (res.ok) load();
});
$("buvette-close").addEventListener("click", async () => {
  const res = await api("POST", "/api/buvette/close", {counted: counted()});
  $("buvette-msg").textContent = res.ok ? t("bv_z_done", {z: res.data.z, eur: money(res.data.takings_eur)}) + gapsOf(res.data)
    : res.data.message;
  if (res.ok) load();  // a refused count stays typed, to correct
});
load();
