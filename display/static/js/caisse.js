/* The sales desk at the door: scan or type cartons and plaques, the tiers' price, payment, encaisser.
   Each line is read by the hall as it joins the basket (GET /api/sales/check: the sale's own reader), so a
   mistyped number is caught there with the real carton one keystroke away, never at « Encaisser ». */
import {tell, choose} from "./ask.js";
import {$, api, el, live, money, t, tn} from "./common.js";
import {node, show} from "./ids.js";
import {cardIdFrom, scanButton} from "./scan.js";

const PAY = {especes: t("pay_especes"), carte: t("pay_carte"), cheque: t("pay_cheque")};
const DEFAULT_PAYMENT = "especes";   // each sale starts here: the next buyer is never booked on the last one's card
/* what will be sold, a line as typed or scanned: {text, ids, count, unknown: [{card_id, suggestions}], sold, error} */
const basket = [];
let busy = false, suggested = null, touched = false;

const euros = (n) => (n === null || n === undefined ? "" : money(n));
const count = () => new Set(basket.flatMap((line) => line.ids)).size;      // a carton in two lines is sold once
const troubled = (line) => line.error || line.unknown.length || line.sold.length;

async function refreshPrice() {
  const n = count();
  $("sell").disabled = n === 0 || basket.some(troubled);
  if (n === 0) { suggested = null; $("suggested").textContent = ""; if (!touched) $("amount").value = ""; sellLabel(); return; }
  const res = await api("GET", "/api/sales/price?count=" + n);
  suggested = res.ok ? res.data.amount_eur : null;
  $("suggested").textContent = suggested === null ? "" : tn("suggested", n, {eur: euros(suggested)});
  if (!touched) $("amount").value = suggested === null ? "" : euros(suggested);
  sellLabel();
}
/* « Encaisser » cashes; with « Réservé, pas encore payé » ticked the button says it reserves, to be paid later */
function sellLabel() {
  const n = count();
  $("sell").textContent = basket.some(troubled) ? t("sell_fix_first")
    : n ? tn($("reserved").checked ? "reserve_button" : "sell_button", n, {eur: $("amount").value || "?"}) : t("sell_empty");
}

/* a basket line as people read it: one carton with its check character set apart, or a plaque and its count */
function lineLabel(line) {
  if (line.ids && line.ids.length === 1 && !line.text.includes("..")) return node(line.ids[0]);
  const ends = line.ids && line.ids.length > 1 ? show(line.ids[0]) + " … " + show(line.ids[line.ids.length - 1]) : line.text;
  return el("span", {class: "id"}, ends + (line.count > 1 ? " (" + line.count + ")" : ""));
}

/* what the hall said of a line: unknown (with the real carton to take instead), already sold, unreadable */
function lineProblem(line, i) {
  if (line.error) return el("div", {class: "basket-problem", text: line.error});
  if (line.unknown.length) {
    const u = line.unknown[0], near = u.suggestions || [];
    return el("div", {class: "basket-problem"},
      near.length ? t("v_near", {cards: near.map(show).join(", ")}) : t("basket_unknown", {card: show(u.card_id)}),
      ...near.map((s) => el("button", {type: "button", class: "suggestion", text: t("take_this", {card: show(s)}),
                                      onclick: () => { basket.splice(i, 1); add(s); }})));
  }
  if (line.sold.length) return el("div", {class: "basket-problem", text: t("basket_sold", {cards: line.sold.map(show).join(", ")})});
  return null;
}

function drawBasket() {
  $("basket").replaceChildren(...basket.map((line, i) => el("li", {class: troubled(line) ? "trouble" : ""},
    el("span", {class: "basket-mark", "aria-hidden": "true", text: troubled(line) ? "✗" : "✓"}),
    lineLabel(line),
    el("button", {type: "button", class: "remove", "aria-label": t("remove") + " " + line.text, text: "✕",
                  onclick: () => { basket.splice(i, 1); drawBasket(); }}),
    lineProblem(line, i))));
  refreshPrice();
}

async function add(text) {
  $("result").hidden = true;
  const parts = String(text).replace(/\s*\.\.\s*/g, "..").split(/[,;\s]+/).map((p) => p.trim().toUpperCase());
  for (const part of parts) {
    if (!part || basket.some((line) => line.text === part)) continue;
    const line = {text: part, ids: [], count: 0, unknown: [], sold: [], error: ""};
    basket.push(line);
    drawBasket();
    const res = await api("GET", "/api/sales/check?cards=" + encodeURIComponent(part));
    if (res.ok) Object.assign(line, {ids: res.data.cards, count: res.data.count, unknown: res.data.unknown, sold: res.data.sold});
    else line.error = res.data.message + (res.data.why ? " (" + res.data.why + ")" : "");
    drawBasket();
  }
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
  const body = {cards: basket.map((line) => line.text), payment: document.querySelector("input[name=payment]:checked").value,
                amount_eur: $("amount").value.trim() || undefined, note: $("sale-note").value.trim() || undefined,
                buyer: $("buyer").value.trim(), paid: !reserved, partie: $("partie").value.trim() || undefined};
  const res = await api("POST", "/api/sales", body);
  busy = false;
  if (res.ok) {
    const s = res.data;
    showSale(tn(s.paid ? "sold_ok" : "reserved_ok", s.cards.length, {eur: euros(s.amount_eur)}), s);
    basket.length = 0; touched = false;
    $("buyer").value = ""; $("reserved").checked = false; $("more").open = false;
    document.querySelector(`input[name=payment][value=${DEFAULT_PAYMENT}]`).checked = true;
    drawBasket();
    summary();
  } else {
    const box = $("result");
    box.hidden = false;
    box.className = "result bad";
    box.dataset.sale = ""; box.dataset.saleId = "";
    const named = res.data.cards && res.data.cards.length ? res.data.cards.join(", ") : "";
    box.replaceChildren(el("div", {text: res.data.message}),
                        named && res.data.error === "unknown_card" ? el("div", {class: "small", text: named}) : "");
    $("sell").disabled = false;
    box.scrollIntoView({block: "nearest"});
  }
}

/* the green banner of one sale and of no other: what was done, its number and buyer, its QR code once paid */
function showSale(what, s) {
  const box = $("result");
  box.hidden = false;
  box.className = "result good";
  box.dataset.sale = s.paid ? "" : String(s.sale_id);      // a reservation: its banner changes once it is paid
  box.dataset.saleId = String(s.sale_id);
  box.replaceChildren(el("div", {class: "result-what", text: what}),
                      el("div", {class: "small", text: t("sale_number", {id: s.sale_id}) + (s.buyer ? " · " + s.buyer : "")}),
                      s.offered_eur !== null && s.offered_eur !== s.amount_eur   // said here and in the report
                        ? el("div", {class: "small", text: t("off_tier", {eur: euros(s.offered_eur)})}) : "",
                      s.paid && s.phones_url ? phonesQr(s.phones_url) : "");
  box.scrollIntoView({block: "nearest"});     // a phone or a full tablet: the answer is never below the fold
}

async function summary() {
  const res = await api("GET", "/api/sales/summary");
  if (!res.ok) return;
  const s = res.data, m = s.takings_eur;
  $("tiers").textContent = t("tiers_line", {tiers: s.tiers.map((x) => t(x.cards === 1 ? "tier_one" : "tier_many",
                                                                       {n: x.cards, eur: euros(x.eur)})).join(" · ")});
  $("totals").replaceChildren(
    el("strong", {text: tn("sold_count", s.cards_sold)}),
    el("span", {text: t("takings", {eur: euros(m.total)})}),
    el("span", {class: "dim", text: ["especes", "carte", "cheque"].map((p) => PAY[p] + " " + euros(m.by_payment[p])).join(" · ")}),
    s.cards_reserved ? el("span", {class: "dim", text: tn("reserved_count", s.cards_reserved, {eur: euros(m.reserved)})}) : "");
  $("recent").replaceChildren(...s.recent.slice(0, 12).map((r) => el("li", {class: r.voided ? "voided" : r.paid ? "" : "reserved"},
    el("span", {class: "sale-no", text: "n° " + r.sale_id}),
    el("span", {text: tn("sale_line", r.count, {eur: euros(r.amount_eur), pay: PAY[r.payment]})}),
    el("span", {class: "dim", text: [r.buyer, r.seller, r.voided ? t("voided") : r.paid ? "" : t("reserved")].filter(Boolean).join(" · ")}),
    !r.paid && !r.voided ? el("button", {type: "button", text: t("mark_paid"), onclick: () => pay(r)}) : "")));
  paidBanner(s.recent);
  // the banner belongs to its sale: a hall whose newest sale is older has started another evening (after a restart)
  const newest = s.recent.length ? s.recent[0].sale_id : 0, shown = Number($("result").dataset.saleId || 0);
  if (shown > newest) { $("result").hidden = true; $("result").dataset.saleId = ""; $("result").dataset.sale = ""; }
}

/* the green banner of a reservation, once that sale is paid (here or at another desk): it says so, never « à payer » */
function paidBanner(recent) {
  const box = $("result"), id = box.dataset.sale;
  const sale = id ? recent.find((r) => String(r.sale_id) === id) : null;
  if (!sale || !sale.paid || box.hidden) return;
  box.dataset.sale = "";
  box.querySelector(".result-what").textContent = tn("paid_ok", sale.count, {eur: euros(sale.amount_eur), pay: PAY[sale.payment]});
}

/* a reservation paid: the desk says how, in a question of its own (never the payment ticked for the next sale) */
async function pay(r) {
  const how = await choose(t("pay_title", {id: r.sale_id}), {
    text: tn("pay_what", r.count, {eur: euros(r.amount_eur), buyer: r.buyer || "—"}),
    choices: ["especes", "carte", "cheque"].map((p) => ({value: p, label: PAY[p]}))});
  if (!how) return;
  const p = await api("POST", "/api/sales/" + r.sale_id + "/pay", {payment: how});
  // the banner is now this buyer's, never the last sale's: his cartons, his QR code
  if (p.ok) {
    showSale(tn("paid_ok", p.data.count, {eur: euros(p.data.amount_eur), pay: PAY[p.data.payment]}), p.data);
  } else {
    const box = $("result");                 // another buyer's banner must not stay under the refusal
    box.hidden = true; box.dataset.sale = ""; box.dataset.saleId = "";
    await tell(t("pay_refused", {id: r.sale_id}), p.data.message);
  }
  summary();
}

$("add-form").addEventListener("submit", (ev) => { ev.preventDefault(); add($("cards").value); $("cards").value = ""; });
$("amount").addEventListener("input", () => { touched = true; sellLabel(); });
$("reserved").addEventListener("change", sellLabel);
$("sell").addEventListener("click", sell);
scanButton("scan_cards", (text) => add(cardIdFrom(text)));
drawBasket();
summary();
// connected again — after a restart, maybe on the next evening: the takings and the last sales as they are now
let connected = false;
live({state() { if (connected) summary(); connected = true; }, event(name, ev) {
  if (ev.type && ev.type.startsWith("sales:")) summary();
  if (ev.type === "sales:prices_set") refreshPrice();       // the next sale's price by the new tiers
}});
