/* /admin: the takings live, voiding a sale, the programme editor (with loto-traditionnel flags), PINs. */
import {adminAlert, refresh} from "./admin.js";
import {ask} from "./ask.js";
import {$, amountField, api, boot, COLON, el, euros, kind, live, lotName, t, tn} from "./common.js";
import {termsFields} from "./lot_terms.js";

const PAY = {especes: t("pay_especes"), carte: t("pay_carte"), cheque: t("pay_cheque")};
const KINDS = boot.kinds;    // hall/loto/lots.py's table, handed by the page
// a prize in money (the same test as hall/loto/programme.py): forbidden in a loto traditionnel
const CASH = /(\d\s*(€|eur\b|euros?\b))|\besp[eè]ces\b|\bcash\b|\bargent\b|\bbillets?\b|\bch[eè]que\s+de\b/i;
const VOUCHER = /\bbons?\b|\bcartes?\s+cadeau|\bch[eè]ques?[-\s]cadeau/i;
let programme = null;
let edited = false;          // the programme typed here and not saved yet: a reconnection never redraws it

async function takings() {
  const res = await api("GET", "/api/sales/summary");
  if (!res.ok) return;
  const s = res.data, m = s.takings_eur;
  const rows = [[tn("sold_count", s.cards_sold), euros(m.total)],
    ...["especes", "carte", "cheque"].map((p) => ["· " + PAY[p], euros(m.by_payment[p])])];
  if (s.cards_reserved) rows.push([tn("reserved_count", s.cards_reserved, {eur: euros(m.reserved).replace(" €", "")}), ""]);
  const sellers = Object.entries(m.by_seller), parties = Object.entries(m.by_partie).filter(([k]) => k);
  $("takings").replaceChildren(
    el("table", {}, ...rows.map(([a, b], i) => el("tr", {class: i === 0 ? "total" : ""}, el("th", {text: a}), el("td", {text: b})))),
    sellers.length ? el("p", {}, el("strong", {text: t("by_seller") + COLON}), sellers.map(([k, v]) => k + " " + euros(v)).join(" · ")) : "",
    parties.length ? el("p", {}, el("strong", {text: t("by_partie") + COLON}), parties.map(([k, v]) => t("partie_n", {n: k}) + " " + euros(v)).join(" · ")) : "");
  const list = await api("GET", "/api/sales");
  if (!list.ok) return;
  $("sales-list").replaceChildren(...list.data.sales.slice().reverse().map((r) => el("li", {class: r.voided ? "voided" : r.paid ? "" : "reserved"},
    el("span", {class: "sale-no", text: "n° " + r.sale_id}),
    el("span", {text: tn("sale_line", r.count, {eur: euros(r.amount_eur).replace(" €", ""), pay: PAY[r.payment]})}),
    el("span", {class: "dim", text: [r.cards[0] + (r.count > 1 ? ".." + r.cards[r.count - 1] : ""), r.buyer, r.seller].filter(Boolean).join(" · ")}),
    r.voided ? el("span", {text: t("voided")}) : el("button", {type: "button", class: "danger", text: t("void"), onclick: async () => {
      if (!await ask(t("confirm_void", {id: r.sale_id}), {yes: t("void"), danger: true})) return;
      const v = await api("POST", "/api/sales/" + r.sale_id + "/void", {});
      if (!v.ok) adminAlert(v.data.message); else adminAlert("");
      takings();
    }}))));
}

function flagsOf(lot, limit) {
  const out = [];
  const text = (lot.label || "") + " " + (lot.sponsor || "");
  if (CASH.test(text) && !VOUCHER.test(text)) out.push(t("flag_cash"));
  const v = parseFloat(String(lot.value_eur ?? "").replace(",", "."));
  if (limit && !isNaN(v) && v > limit) out.push(t("flag_over_limit", {eur: limit}));
  return out;
}

function drawProgramme() {
  const box = $("programme-editor");
  const limit = programme.lot_value_limit_eur;
  box.replaceChildren(...programme.parties.map((p, pi) => {
    const head = el("div", {class: "partie-head"}, el("strong", {text: t("partie_n", {n: p.number})}));
    if (p.played) {      // started: no longer editable; "jouée" only once démarquée
      head.append(el("span", {class: "dim", text: " — " + t(p.status === "running" ? "running" : "partie_played")}));
      return el("div", {class: "partie played"}, head, el("p", {text: p.lots.map(lotName).join(" · ")}));
    }
    const move = (d) => () => { const j = pi + d; if (j < 0 || j >= programme.parties.length || programme.parties[j].played) return;
      [programme.parties[pi], programme.parties[j]] = [programme.parties[j], programme.parties[pi]]; renumber(); drawProgramme(); };
    head.append(el("button", {type: "button", text: "↑", "aria-label": t("up"), onclick: move(-1)}),
                el("button", {type: "button", text: "↓", "aria-label": t("down"), onclick: move(1)}),
                el("button", {type: "button", class: "danger", text: "✕", "aria-label": t("remove"), onclick: () => { programme.parties.splice(pi, 1); renumber(); drawProgramme(); }}));
    const lots = p.lots.map((lot, li) => {
      const flags = flagsOf(lot, limit);
      const input = (key, attrs) => el("input", {type: "text", value: lot[key] ?? "", ...attrs,
        oninput: (ev) => { lot[key] = ev.target.value; const f = ev.target.closest(".lot").querySelector(".flags"); f.replaceChildren(...flagsOf(lot, limit).map((x) => el("span", {class: "flag", text: "⚠ " + x}))); }});
      const select = el("select", {"aria-label": t("kind"), onchange: (ev) => { lot.kind = ev.target.value; drawProgramme(); }},
        ...KINDS.map((k) => el("option", {value: k, selected: k === lot.kind, text: kind(k)})));
      return el("div", {class: "lot"}, select,
        input("label", {class: "label", placeholder: t("lot_label"), "aria-label": t("lot_label"), maxlength: 200}),
        input("value_eur", {class: "value", placeholder: t("lot_value"), "aria-label": t("lot_value"), inputmode: "decimal", size: 6}),
        input("sponsor", {class: "sponsor", placeholder: t("lot_sponsor"), "aria-label": t("lot_sponsor"), maxlength: 200}),
        el("button", {type: "button", text: "✕", "aria-label": t("remove"), onclick: () => { p.lots.splice(li, 1); drawProgramme(); }}),
        termsFields(lot, (terms) => { Object.assign(lot, {row: null, within: null, fallback: null}, terms); }),   // lot_terms.js
        el("div", {class: "flags"}, ...flags.map((x) => el("span", {class: "flag", text: "⚠ " + x}))));
    });
    return el("div", {class: "partie"}, head, ...lots,
      el("div", {class: "row-buttons"},
        el("button", {type: "button", text: t("add_lot"), onclick: () => { p.lots.push({kind: KINDS[0], label: "", value_eur: "", sponsor: ""}); drawProgramme(); }}),
        el("label", {}, t("consolation_label") + " ", el("input", {type: "text", value: p.consolation || "", maxlength: 200, oninput: (ev) => { p.consolation = ev.target.value; }}))));
  }));
}
/* a lot's terms as typed or as the hall gave them, only those its kind takes (a kind changed drops them) */
function termsKept(l) {
  const k = (boot.lot_kinds || {})[l.kind] || {};
  return {...(k.row && l.row ? {row: l.row} : {}), ...(k.within && l.within ? {within: l.within, fallback: l.fallback} : {})};
}
function renumber() { programme.parties.forEach((p, i) => { p.number = i + 1; }); }

async function loadProgramme() {
  const res = await api("GET", "/api/programme");
  if (!res.ok) return;
  programme = res.data;
  edited = false;
  for (const p of programme.parties) for (const lot of p.lots) lot.value_eur = amountField(lot.value_eur);
  drawProgramme();
}
for (const what of ["input", "change"]) $("programme-editor").addEventListener(what, () => { edited = true; });
$("programme-editor").addEventListener("click", (ev) => { if (ev.target.closest("button")) edited = true; });
$("add-partie").addEventListener("click", () => {
  edited = true;
  programme.parties.push({number: programme.parties.length + 1, played: false, consolation: "",
    lots: KINDS.map((k) => ({kind: k, label: "", value_eur: "", sponsor: ""}))});
  drawProgramme();
});
$("save-programme").addEventListener("click", async () => {
  const parties = programme.parties.filter((p) => !p.played).map((p) => ({consolation: p.consolation,
    lots: p.lots.map((l) => ({kind: l.kind, label: l.label, sponsor: l.sponsor, ...termsKept(l),
                              value_eur: l.value_eur === null || l.value_eur === "" ? null : String(l.value_eur)}))}));
  const res = await api("POST", "/api/programme", {parties});
  if (!res.ok) { adminAlert(res.data.message); $("programme-msg").textContent = ""; return; }
  adminAlert("");
  programme = res.data;
  edited = false;
  for (const p of programme.parties) for (const lot of p.lots) lot.value_eur = amountField(lot.value_eur);
  drawProgramme();
  $("programme-msg").textContent = t("programme_saved", {n: programme.first_editable});
});
$("pin-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const role = $("pin-role").value;
  const res = await api("POST", "/api/pins", {role, pin: $("pin-new").value});
  $("pin-new").value = "";
  $("pin-msg").textContent = res.ok ? t("pin_saved", {role: t("role_" + role)}) : "";
  if (!res.ok) adminAlert(res.data.message); else adminAlert("");
});
takings();
loadProgramme();
// connected again — after a restart, maybe on the next evening: the takings and the programme as they are now
let connected = false;
live({state() { if (connected) { takings(); if (!edited) loadProgramme(); refresh(); } connected = true; }, event(name, ev) {
  if (ev.type && ev.type.startsWith("sales:")) takings();
  if (name === "partie") loadProgramme();
  refresh();
}});
