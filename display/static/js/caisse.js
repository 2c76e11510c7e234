/* The sales desk at the door: scan or type cartons and plaques, the tiers' price, payment, encaisser. */
import {$, api, el, live, money, t} from "./common.js";
import {cardIdFrom, scanButton} from "./scan.js";

const PAY = {especes: t("pay_especes"), carte: t("pay_carte"), cheque: t("pay_cheque")};
const basket = [];           // what will be sold: carton IDs and ranges "FIRST..LAST", as typed or scanned
let busy = false, suggested = null, touched = false;

const euros = (n) => (n === null || n === undefined ? "" : money(n));

/* how many cartons a basket line holds (the server decides; this only drives the suggested price) */
function end(text) {
  const s = text.trim().toUpperCase();
  let m = s.match(/^([A-Z]{1,3})-?(\d{5})[0-9A-Z]$/) || s.match(/^([A-Z]{1,3})-?(\d{1,5})$/);
  return m ? {series: m[1], n: parseInt(m[2], 10)} : null;
}
function countOf(line) {
  if (!line.includes("..")) return 1;
  const [a, b] = line.split("..").map(end);
  return a && b && a.series === b.series && b.n >= a.n ? b.n - a.n + 1 : 1;
}
const count = () => basket.reduce((s, line) => s + countOf(line), 0);

async function refreshPrice() {
  const n = count();
  $("sell").disabled = n === 0;
  if (n === 0) { suggested = null; $("suggested").textContent = ""; if (!touched) $("amount").value = ""; sellLabel(); return; }
  const res = await api("GET", "/api/sales/price?count=" + n);
  suggested = res.ok ? res.data.amount_eur : null;
  $("suggested").textContent = suggested === null ? "" : t("suggested", {n: n, eur: euros(suggested)});
  if (!touched) $("amount").value = suggested === null ? "" : euros(suggested);
  sellLabel();
}
function sellLabel() {
  const n = count();
  $("sell").textContent = n ? t("sell_button", {n: n, eur: $("amount").value || "?"}) : t("sell_empty");
}

function drawBasket() {
  $("basket").replaceChildren(...basket.map((line, i) => el("li", {},
    el("span", {text: line + (line.includes("..") ? " (" + countOf(line) + ")" : "")}),
    el("button", {type: "button", class: "remove", "aria-label": t("remove") + " " + line, text: "✕",
                  onclick: () => { basket.splice(i, 1); drawBasket(); }}))));
  refreshPrice();
}

function add(text) {
  for (const part of String(text).replace(/\s*\.\.\s*/g, "..").split(/[,;\s]+/)) {
    const line = part.trim().toUpperCase();
    if (line && !basket.includes(line)) basket.push(line);
  }
  $("result").hidden = true;
  drawBasket();
}

/* the sale's cartons on the buyer's phone: the QR code of /s/{code}, at the hall's address, for that sale only */
function phonesQr(url) {
  return el("figure", {class: "sale-qr"},
            el("img", {src: url + "/qr.svg", alt: t("sale_phones"), width: "220", height: "220", "data-link": url}),
            el("figcaption", {text: t("sale_phones")}));
}

async function sell() {
  if (busy || !basket.length) return;
  busy = true;
  $("sell").disabled = true;
  const reserved = $("reserved").checked;
  const body = {cards: basket.slice(), payment: document.querySelector("input[name=payment]:checked").value,
                amount_eur: $("amount").value.trim() || undefined, seller: $("seller").value.trim(),
                buyer: $("buyer").value.trim(), paid: !reserved, partie: $("partie").value.trim() || undefined};
  const res = await api("POST", "/api/sales", body);
  busy = false;
  const box = $("result");
  box.hidden = false;
  if (res.ok) {
    const s = res.data;
    box.className = "result good";
    box.replaceChildren(el("div", {text: t(s.paid ? "sold_ok" : "reserved_ok", {n: s.cards.length, eur: euros(s.amount_eur)})}),
                        el("div", {class: "small", text: t("sale_number", {id: s.sale_id}) + (s.buyer ? " · " + s.buyer : "")}),
                        s.offered_eur !== null && s.offered_eur !== s.amount_eur   // said here and in the report
                          ? el("div", {class: "small", text: t("off_tier", {eur: euros(s.offered_eur)})}) : "",
                        s.paid && s.phones_url ? phonesQr(s.phones_url) : "");
    basket.length = 0; touched = false;
    $("buyer").value = ""; $("reserved").checked = false; $("more").open = false;
    drawBasket();
    summary();
  } else {
    box.className = "result bad";
    const named = res.data.cards && res.data.cards.length ? res.data.cards.join(", ") : "";
    box.replaceChildren(el("div", {text: res.data.message}),
                        named && res.data.error === "unknown_card" ? el("div", {class: "small", text: named}) : "");
    $("sell").disabled = false;
  }
  box.scrollIntoView({block: "nearest"});     // a phone or a full tablet: the answer is never below the fold
}

async function summary() {
  const res = await api("GET", "/api/sales/summary");
  if (!res.ok) return;
  const s = res.data, m = s.takings_eur;
  $("tiers").textContent = t("tiers_line", {tiers: s.tiers.map((x) => t(x.cards === 1 ? "tier_one" : "tier_many",
                                                                       {n: x.cards, eur: euros(x.eur)})).join(" · ")});
  $("totals").replaceChildren(
    el("strong", {text: t("sold_count", {n: s.cards_sold})}),
    el("span", {text: t("takings", {eur: euros(m.total)})}),
    el("span", {class: "dim", text: ["especes", "carte", "cheque"].map((p) => PAY[p] + " " + euros(m.by_payment[p])).join(" · ")}),
    s.cards_reserved ? el("span", {class: "dim", text: t("reserved_count", {n: s.cards_reserved, eur: euros(m.reserved)})}) : "");
  $("recent").replaceChildren(...s.recent.slice(0, 12).map((r) => el("li", {class: r.voided ? "voided" : r.paid ? "" : "reserved"},
    el("span", {class: "sale-no", text: "n° " + r.sale_id}),
    el("span", {text: t("sale_line", {n: r.count, eur: euros(r.amount_eur), pay: PAY[r.payment]})}),
    el("span", {class: "dim", text: [r.buyer, r.seller, r.voided ? t("voided") : r.paid ? "" : t("reserved")].filter(Boolean).join(" · ")}),
    !r.paid && !r.voided ? el("button", {type: "button", text: t("mark_paid"), onclick: async () => {
      const p = await api("POST", "/api/sales/" + r.sale_id + "/pay", {payment: document.querySelector("input[name=payment]:checked").value});
      if (!p.ok) alert(p.data.message);
      summary();
    }}) : "")));
}

$("add-form").addEventListener("submit", (ev) => { ev.preventDefault(); add($("cards").value); $("cards").value = ""; });
$("amount").addEventListener("input", () => { touched = true; sellLabel(); });
$("sell").addEventListener("click", sell);
$("seller").value = localStorage.getItem("loto-seller") || "";
$("seller").addEventListener("change", () => localStorage.setItem("loto-seller", $("seller").value.trim()));
scanButton("scan_cards", (text) => add(cardIdFrom(text)));
drawBasket();
summary();
live({state() {}, event(name, ev) {
  if (ev.type && ev.type.startsWith("sales:")) summary();
  if (ev.type === "sales:prices_set") refreshPrice();       // the next sale's price by the new tiers
}});
