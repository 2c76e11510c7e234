/* The prize desk: scan or type a voucher's code or a tombola ticket's, hand the lot over. Which kind of code it
   is, the hall says (POST /api/lots/read reads its shape in Python): the page never guesses. */
import {$, api, boot, el, kind, t} from "./common.js";
import {node} from "./ids.js";
import {scanButton} from "./scan.js";

/* « n° 12 » never broken between the sign and its number */
const nb = (text) => String(text).replace(/n° /g, "n°\u00a0");

function show(box, className, error, ...children) {
  box.className = "result " + className;
  box.replaceChildren(...children);
  box.dataset.error = error || "";
  box.hidden = false;
  box.scrollIntoView({block: "nearest"});      // a phone: the answer in sight, never under the bottom edge
}

async function redeem(code) {
  if (!code) return;
  const res = await api("POST", "/api/vouchers/" + encodeURIComponent(code) + "/redeem");
  const box = $("result"), what = el("div", {class: "small code-kind", text: t("code_voucher")});
  if (res.ok) {
    const v = res.data;
    const [before, after] = t("redeemed_detail", {partie: v.partie, card: "\u0000"}).split("\u0000");
    show(box, "good", "", what, el("div", {text: t("redeemed", {lot: v.lot})}),
      el("div", {}, (v.consolation ? t("consolation") + " · " : kind(v.kind) + " · ") + before, node(v.card_id), after || ""));
  } else if ((res.data.suggestions || []).length) {    // a near miss: "vérifiez le code", never a refusal
    show(box, "hint", res.data.error, what, el("div", {text: t("v_near_code")}), el("div", {class: "voucher-code", text: code}),
      ...res.data.suggestions.map((s) => el("button", {type: "button", class: "suggestion voucher-code",
                                                        text: t("redeem_this", {code: s}), onclick: () => redeem(s)})));
  } else {
    show(box, res.data.error === "already_redeemed" ? "warn" : "bad", res.data.error,
      what, el("div", {text: res.data.message}), el("div", {class: "voucher-code", text: code}));
  }
}

const WARN = new Set(["already_collected", "not_drawn"]);   // the ticket is genuine: said calmly, not in red

/* a tombola ticket read: the lot it is owed and « Remettre le lot », or the refusal in words */
function ticket(r) {
  const box = $("result");
  const what = el("div", {class: "small code-kind", text: r.ticket ? nb(t("code_tombola_n", {ticket: r.ticket})) : t("code_tombola")});
  if (r.refused) {
    show(box, WARN.has(r.refused.error) ? "warn" : "bad", r.refused.error,
      what, el("div", {text: nb(r.refused.message)}), el("div", {class: "voucher-code", text: r.code}));
    return;
  }
  const hand = el("button", {type: "button", id: "hand-lot", class: "primary hand-lot", text: t("hand_lot")});
  hand.addEventListener("click", () => collect(r, hand));
  show(box, "offer", "", what, el("div", {text: nb(t("tombola_lot", {lot: r.lot, label: r.label}))}),
    el("div", {class: "small", text: t("tombola_buyer", {buyer: r.buyer})}), hand);
  hand.focus();
}

async function collect(r, button) {
  button.disabled = true;
  const res = await api("POST", "/api/tombola/collect", {code: r.code});
  const box = $("result"), what = el("div", {class: "small code-kind", text: nb(t("code_tombola_n", {ticket: r.ticket}))});
  if (res.ok) show(box, "good", "", what, el("div", {text: nb(t("lot_handed", {lot: res.data.lot, label: r.label}))}));
  else show(box, WARN.has(res.data.error) ? "warn" : "bad", res.data.error, what, el("div", {text: nb(res.data.message)}));
  owed();
}

async function read(text) {
  text = String(text || "").trim();
  if (!text) return;
  $("code").value = "";
  const res = await api("POST", "/api/lots/read", {code: text.slice(0, 200)});
  if (!res.ok) { show($("result"), "bad", res.data.error, el("div", {text: res.data.message})); return; }
  if (res.data.kind === "tombola") ticket(res.data);
  else await redeem(res.data.code);
}

const day = (iso) => {
  const d = new Date(String(iso).slice(0, 10) + "T12:00:00");
  return isNaN(d) ? String(iso) : d.toLocaleDateString(boot.lang || "fr", {day: "numeric", month: "long", year: "numeric"});
};

/* the tombola's lots drawn and not yet handed over, with the deadline to collect them */
async function owed() {
  const res = await api("GET", "/api/tombola");
  const section = $("tombola-left");
  if (!res.ok || !res.data.prepared) { section.hidden = true; return; }
  const tb = res.data, left = tb.winners.filter((w) => !w.collected);
  section.hidden = false;
  $("tombola-until").textContent = t("tombola_until", {date: day(tb.collect_until)})
    + (tb.unclaimed ? " " + t("tombola_unclaimed", {what: tb.unclaimed}) : "");
  const items = left.map((w) => el("li", {},
    el("strong", {text: nb(t("tombola_lot", {lot: w.lot, label: w.label}))}),
    el("span", {text: " · " + nb(t("tombola_ticket_of", {ticket: w.ticket})) + (w.buyer ? " · " + w.buyer : "")})));
  const none = !tb.winners.length ? t("tombola_not_drawn_yet") : !left.length ? t("tombola_all_handed") : "";
  $("tombola-lots").replaceChildren(...(none ? [el("li", {class: "none", text: none})] : items));
}

$("code-form").addEventListener("submit", (ev) => { ev.preventDefault(); read($("code").value); });
scanButton(null, (text) => read(text));
owed();
setInterval(owed, 20000);    // the draw comes during the evening: the list follows it
document.addEventListener("visibilitychange", () => { if (!document.hidden) owed(); });
$("sold-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const res = await api("POST", "/api/cards/sold", {ranges: $("ranges").value, sold: $("sold-value").value === "1"});
  $("sold-msg").textContent = res.ok ? "✓ " + res.data.count : res.data.message + (res.data.why ? " " + res.data.why : "");
});
