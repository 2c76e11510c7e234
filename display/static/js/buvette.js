/* The buvette's till on a tablet: a big button per product (touch adds one), the running total, cash with the
   change worked out, card, or free for a volunteer; « Encaisser » records the ticket (POST /api/buvette/sales). */
import {$, api, el, money, t} from "./common.js";

const PAY = {cash: t("bv_pay_cash"), card: t("bv_pay_card"), free: t("bv_pay_free")};

const basket = new Map();   // product name → units
let products = [], payment = "cash", busy = false;

const cents = (eur) => Math.round(Number(eur) * 100);
const eur = (c) => money(c / 100);
const total = () => [...basket].reduce((sum, [name, qty]) => sum + qty * cents(priceOf(name)), 0);
const priceOf = (name) => (products.find((p) => p.name === name) || {price_eur: 0}).price_eur;
const tendered = () => { const v = $("tendered").value.trim().replace(",", "."); return v === "" ? null : Number(v); };

function drawProducts() {
  $("products").replaceChildren(...(products.length ? products.map((p) => {
    const left = p.stock - (basket.get(p.name) || 0);
    return el("button", {type: "button", class: "bv-product", disabled: left <= 0, "data-product": p.name,
                         onclick: () => { basket.set(p.name, (basket.get(p.name) || 0) + 1); draw(); }},
      el("span", {class: "bv-name", text: p.name}),
      el("span", {class: "bv-price", text: money(p.price_eur) + " €"}),
      el("span", {class: "bv-left", text: left > 0 ? t("bv_left", {n: left}) : t("bv_out")}));
  }) : [el("p", {class: "lead", text: t("bv_no_products")})]));
}

function drawBasket() {
  $("basket").replaceChildren(...[...basket].map(([name, qty]) => el("li", {},
    el("span", {text: qty + " × " + name}),
    el("span", {class: "bv-line", text: eur(qty * cents(priceOf(name))) + " €"}),
    el("button", {type: "button", class: "remove", "aria-label": t("bv_remove_one") + " " + name, text: "−",
                  onclick: () => { qty > 1 ? basket.set(name, qty - 1) : basket.delete(name); draw(); }}))));
  const sum = total(), given = tendered();
  $("total").textContent = basket.size ? t("bv_total", {eur: eur(payment === "free" ? 0 : sum)}) : t("bv_empty");
  $("cash-row").hidden = payment !== "cash";
  const short = payment === "cash" && given !== null && cents(given) < sum;
  $("change").textContent = payment !== "cash" || given === null || isNaN(given) ? ""
    : short ? t("bv_short", {eur: eur(sum - cents(given))}) : t("bv_change", {eur: eur(cents(given) - sum)});
  $("sell").disabled = busy || !basket.size || short;
}

function draw() { drawProducts(); drawBasket(); }

function drawRecent(recent) {
  $("recent").replaceChildren(...recent.map((x) => el("li", {},
    "n° " + x.ticket + " — " + x.items.map((i) => i.qty + " × " + i.product).join(", ") + " — "
      + money(x.total_eur) + " € (" + PAY[x.payment] + ")")));
}

async function load() {
  const res = await api("GET", "/api/buvette");
  if (!res.ok) return;
  products = res.data.products;
  drawRecent(res.data.recent);
  draw();
}

for (const b of document.querySelectorAll(".bv-payment")) {
  b.addEventListener("click", () => {
    payment = b.dataset.payment;
    for (const o of document.querySelectorAll(".bv-payment")) o.setAttribute("aria-pressed", String(o === b));
    drawBasket();
  });
}
$("tendered").addEventListener("input", drawBasket);
$("clear").addEventListener("click", () => { basket.clear(); $("tendered").value = ""; $("result").hidden = true; draw(); });
$("sell").addEventListener("click", async () => {
  busy = true; drawBasket();
  const body = {items: [...basket].map(([product, qty]) => ({product, qty})), payment};
  if (payment === "cash" && tendered() !== null) body.tendered_eur = $("tendered").value.trim();
  if ($("print").checked) body.print = "receipt";
  const res = await api("POST", "/api/buvette/sales", body);
  busy = false;
  const box = $("result");
  box.hidden = false;
  box.className = "result " + (res.ok ? "ok" : "refused");
  if (res.ok) {
    const d = res.data;
    box.textContent = d.tendered_eur !== null && d.change_eur
      ? t("bv_done_change", {n: d.ticket, eur: money(d.total_eur), change: money(d.change_eur)})
      : t("bv_done", {n: d.ticket, eur: money(d.total_eur)});
    basket.clear(); $("tendered").value = "";
  } else {
    box.textContent = res.data.message;
  }
  await load();
});
load();
