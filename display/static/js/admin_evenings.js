/* /admin: the caisse's price tiers (edited here, journalled, offered from the next sale on) and the
   past evenings (archived by `loto-hall evening new`) with their totals and their reports as written then. */
import {adminAlert} from "./admin.js";
import {$, amountField, api, el, euros, live, t} from "./common.js";

let tiers = [];
// "2026-11-14_20h00(-2)" → "14/11/2026 20h00 (2)": the folder's own date, as people write it
const when = (name) => name.replace(/^(\d{4})-(\d\d)-(\d\d)_(\d\dh\d\d)(?:-(\d+))?$/,
  (all, y, m, d, hm, n) => d + "/" + m + "/" + y + " " + hm + (n ? " (" + n + ")" : ""));

function drawTiers() {
  const perCarton = (x) => { const v = parseFloat(String(x.eur).replace(",", ".")); return x.cards > 0 && !isNaN(v) ? v / x.cards : null; };
  $("tiers").replaceChildren(el("tr", {}, el("th", {text: t("tier_cards")}), el("th", {text: t("tier_price")}),
                                   el("th", {text: t("tier_each")}), el("th", {}, el("span", {class: "visually-hidden", text: t("remove")}))),
    ...tiers.map((x, i) => {
      const each = perCarton(x);
      return el("tr", {class: each !== null && each >= 20 ? "over-law" : ""},
        el("td", {}, el("input", {type: "number", min: "1", max: "10000", value: x.cards, class: "tier-cards",
          "aria-label": t("tier_cards"), oninput: (ev) => { x.cards = parseInt(ev.target.value, 10) || 0; drawEach(); }})),
        el("td", {}, el("input", {type: "text", inputmode: "decimal", size: "6", value: x.eur, class: "tier-eur",
          "aria-label": t("tier_price"), oninput: (ev) => { x.eur = ev.target.value; drawEach(); }})),
        el("td", {class: "tier-each", text: each === null ? "" : euros(each)}),
        el("td", {}, el("button", {type: "button", text: "✕", "aria-label": t("remove"), onclick: () => { tiers.splice(i, 1); drawTiers(); }})));
    }));
  function drawEach() {
    [...$("tiers").querySelectorAll("tr")].slice(1).forEach((tr, i) => {
      const each = perCarton(tiers[i]);
      tr.querySelector(".tier-each").textContent = each === null ? "" : euros(each);
      tr.classList.toggle("over-law", each !== null && each >= 20);
    });
    lawSays();
  }
  lawSays();
}
/* the law's words where the tiers are typed: a carton at 20 € or more is said as soon as it is typed (the hall
   refuses it) and a refusal stays beside the button, not only at the top of the page */
function lawSays(refused) {
  const msg = $("tiers-msg"), over = $("tiers").querySelector("tr.over-law");
  msg.classList.toggle("law", Boolean(refused || over));
  msg.setAttribute("role", refused || over ? "alert" : "status");
  if (refused) msg.textContent = refused;
  else if (over) msg.textContent = t("tier_over_law");
  else if (msg.classList.contains("was-law")) msg.textContent = "";
  msg.classList.toggle("was-law", Boolean(refused || over));
}
async function loadTiers() {
  const res = await api("GET", "/api/sales/prices");
  if (!res.ok) return;
  tiers = res.data.tiers.map((x) => ({cards: x.cards, eur: amountField(x.eur)}));
  drawTiers();
}
$("add-tier").addEventListener("click", () => { tiers.push({cards: 1, eur: ""}); drawTiers(); });
$("save-tiers").addEventListener("click", async () => {
  const res = await api("POST", "/api/sales/prices", {tiers: tiers.map((x) => ({cards: x.cards, eur: String(x.eur).trim()}))});
  if (!res.ok) { adminAlert(res.data.message); lawSays(res.data.message); $("tiers-msg").scrollIntoView({block: "nearest"}); return; }
  adminAlert("");
  lawSays("");
  $("tiers-msg").textContent = t("tiers_saved");
  loadTiers();
});

// the archived journal's chain checked again (and against its fingerprint noted at archiving): display/record.py
const record = (r) => el("td", {class: "record " + (r.ok ? "ok" : "bad"), title: r.fingerprint || "",
  text: r.ok ? t(r.noted ? "record_ok_noted" : "record_ok") : t("record_" + r.problem, {seq: r.seq})});
async function loadEvenings() {
  const res = await api("GET", "/api/evenings");
  if (!res.ok) return;
  const d = res.data;
  $("evenings-year").textContent = t("evenings_year", {year: d.year, n: d.archived_this_year});
  if (!d.evenings.length) { $("evenings").replaceChildren(el("tr", {}, el("td", {text: t("evenings_none")}))); return; }
  $("evenings").replaceChildren(
    el("tr", {}, ...["evening_when", "evening_parties", "evening_cards", "evening_receipts", "evening_lots", "evening_balance", "evening_record", ""]
      .map((k) => el("th", {text: t(k || "evening_files")}))),
    ...d.evenings.map((e) => el("tr", {"data-evening": e.name},
      el("td", {class: "when", text: when(e.name)}), el("td", {text: String(e.parties)}), el("td", {text: String(e.cards_sold)}),
      el("td", {class: "num", text: euros(e.receipts_eur)}), el("td", {class: "num", text: euros(e.lots_declared_eur)}),
      el("td", {class: "num", text: euros(e.balance_eur)}), record(e.record),
      el("td", {class: "files"}, el("a", {href: "/api/evenings/" + e.name + "/rapport.pdf", text: "PDF"}), " · ",
                   el("a", {href: "/api/evenings/" + e.name + "/rapport.csv", text: "CSV"})))));
}
loadTiers();
loadEvenings();
// connected again — after a restart, maybe on the next evening: the tiers and the archived evenings as they are now
let connected = false;
live({state() { if (connected) { loadTiers(); loadEvenings(); } connected = true; },
      event(name, ev) { if (ev.type === "sales:prices_set") loadTiers(); }});
