/* The prize desk: scan or type a voucher code (or a tombola ticket's), hand the lot over. */
import {$, api, el, kind, t} from "./common.js";
import {node} from "./ids.js";
import {scanButton, voucherFrom} from "./scan.js";


/* a tombola ticket's signed code (T0042-XXXXXXXX, as printed on the ticket): its lot handed over (RULES L24) */
const TOMBOLA_CODE = /^T(\d{4,6})-?([A-Z2-7]{8})$/;

async function collect(code) {
  const res = await api("POST", "/api/tombola/collect", {code});
  const box = $("result");
  box.className = "result " + (res.ok ? "good" : res.data.error === "already_collected" ? "warn" : "bad");
  box.replaceChildren(el("div", {text: res.ok ? t("tb_collected", {lot: res.data.label}) : res.data.message}),
    res.ok ? el("div", {text: t("tb_collected_detail", {n: res.data.lot, ticket: res.data.ticket})})
      : el("div", {class: "voucher-code", text: code}));
  box.dataset.error = res.ok ? "" : res.data.error;
  box.hidden = false;
  box.scrollIntoView({block: "nearest"});
  $("code").value = "";
}

async function redeem(code) {
  if (!code) return;
  const ticket = TOMBOLA_CODE.exec(code.replace(/\s/g, "").toUpperCase());
  if (ticket) return collect("T" + ticket[1] + "-" + ticket[2]);
  const res = await api("POST", "/api/vouchers/" + encodeURIComponent(code) + "/redeem");
  const box = $("result");
  if (res.ok) {
    const v = res.data;
    box.className = "result good";
    const [before, after] = t("redeemed_detail", {partie: v.partie, card: "\u0000"}).split("\u0000");
    box.replaceChildren(el("div", {text: t("redeemed", {lot: v.lot})}),
      el("div", {}, (v.consolation ? t("consolation") + " · " : kind(v.kind) + " · ") + before, node(v.card_id), after || ""));
  } else if ((res.data.suggestions || []).length) {    // a near miss: "vérifiez le code", never a refusal
    box.className = "result hint";
    box.replaceChildren(el("div", {text: t("v_near_code")}), el("div", {class: "voucher-code", text: code}),
      ...res.data.suggestions.map((s) => el("button", {type: "button", class: "suggestion voucher-code",
                                                        text: t("redeem_this", {code: s}), onclick: () => redeem(s)})));
  } else {
    box.className = "result " + (res.data.error === "already_redeemed" ? "warn" : "bad");
    box.replaceChildren(el("div", {text: res.data.message}), el("div", {class: "voucher-code", text: code}));
  }
  box.dataset.error = res.ok ? "" : res.data.error;
  box.hidden = false;
  box.scrollIntoView({block: "nearest"});      // a phone: the answer in sight, never under the bottom edge
  $("code").value = "";
}

$("code-form").addEventListener("submit", (ev) => { ev.preventDefault(); redeem($("code").value.trim()); });
scanButton(null, (text) => redeem(voucherFrom(text)));
$("sold-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const res = await api("POST", "/api/cards/sold", {ranges: $("ranges").value, sold: $("sold-value").value === "1"});
  $("sold-msg").textContent = res.ok ? "✓ " + res.data.count : res.data.message + (res.data.why ? " " + res.data.why : "");
});
