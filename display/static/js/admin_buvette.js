/* The buvette's section of /admin: the products as lines « nom ; prix ; stock », the goods' cost, the Z at the close. */
import {$, api, el, money, t} from "./common.js";

const PAY = {cash: t("bv_pay_cash"), card: t("bv_pay_card"), free: t("bv_pay_free")};

const lines = (products) => products.map((p) => p.name + " ; " + money(p.price_eur) + " ; " + p.stock).join("\n");

function parse(text) {
  return text.split("\n").map((l) => l.trim()).filter(Boolean).map((l) => {
    const [name, price, stock] = l.split(";").map((x) => (x || "").trim());
    return {name, price_eur: price, stock: /^\d+$/.test(stock) ? Number(stock) : stock};
  });
}

function drawZ(closes) {
  $("buvette-z").replaceChildren(...closes.map((z) => el("li", {}, t("bv_z_done", {z: z.z, eur: money(z.takings_eur)})
    + " — " + Object.entries(z.by_payment_eur).map(([p, e]) => PAY[p] + " " + money(e) + " €").join(", "))));
}

async function load() {
  const res = await api("GET", "/api/buvette");
  if (!res.ok) return;
  $("buvette-products").value = lines(res.data.products);
  $("buvette-costs").value = money(res.data.costs_eur);
  drawZ(res.data.closes);
}

$("buvette-save").addEventListener("click", async () => {
  const res = await api("POST", "/api/buvette/products",
    {products: parse($("buvette-products").value), costs_eur: $("buvette-costs").value.trim() || 0});
  $("buvette-msg").textContent = res.ok ? t("bv_products_saved") : res.data.message;
  if (res.ok) load();
});
$("buvette-close").addEventListener("click", async () => {
  const res = await api("POST", "/api/buvette/close", {});
  $("buvette-msg").textContent = res.ok ? t("bv_z_done", {z: res.data.z, eur: money(res.data.takings_eur)}) : res.data.message;
  load();
});
load();
