/* The tombola's public draw from the speaker's console: name the president and two witnesses, close the sales, draw
   the next lot (or all) among the sold tickets, print the winners' list. The projector shows each winner. */
import {$, api, money, reconnected, t} from "./common.js";

let tb = null;

function draw(view) {
  tb = view;
  $("tombola-draw").hidden = !view.prepared;
  if (!view.prepared) return;
  const next = view.next_lot;
  $("tb-draw-state").textContent = !view.closed ? t("tb_state", {sold: view.sold, tickets: view.tickets, takings: money(view.takings_eur)})
    : next === null ? t("tb_all_drawn") : t("tb_next", {lot: next + 1, label: view.lots[next].label});
  if (view.president && !$("tb-president").value) {
    $("tb-president").value = view.president;
    $("tb-witness-1").value = view.witnesses[0];
    $("tb-witness-2").value = view.witnesses[1];
  }
  $("tb-close").hidden = view.closed;
  $("tb-draw-next").disabled = $("tb-draw-all").disabled = !view.closed || next === null;
  $("tb-print-list").disabled = !view.winners.length;
  $("tb-winners").replaceChildren(...view.winners.map((w) => Object.assign(document.createElement("li"), {
    textContent: t("tb_drawn", {lot: w.lot, label: w.label, ticket: w.ticket}) + (w.buyer ? " — " + w.buyer : ""),
  })));
}

function say(text, ok) {
  $("tb-draw-msg").textContent = text;
  $("tb-draw-msg").className = ok ? "status-line" : "error-line";
}

async function load() {
  const res = await api("GET", "/api/tombola");
  if (res.ok) draw(res.data);
}

function conductors() {
  const president = $("tb-president").value.trim();
  const witnesses = [$("tb-witness-1").value.trim(), $("tb-witness-2").value.trim()];
  return president || witnesses.some(Boolean) ? {president, witnesses} : {};
}

async function drawLots(all) {
  const b = conductors();
  const hand = $("tb-hand").value.trim();
  if (all) b.all = true;
  else if (hand) b.ticket = /^\d+$/.test(hand) ? Number(hand) : hand;
  const res = await api("POST", "/api/tombola/draw", b);
  say(res.ok ? "" : res.data.message, res.ok);
  if (res.ok) {
    $("tb-hand").value = "";
    draw(res.data.tombola);
  }
}

$("tb-close").addEventListener("click", async () => {
  const res = await api("POST", "/api/tombola/close", {});
  say(res.ok ? "" : res.data.message, res.ok);
  if (res.ok) draw(res.data);
});
$("tb-draw-next").addEventListener("click", () => drawLots(false));
$("tb-draw-all").addEventListener("click", () => drawLots(true));
$("tb-print-list").addEventListener("click", async () => {
  const res = await api("POST", "/api/tombola/list", {});
  say(res.ok ? t("tb_list_printed") : res.data.message, res.ok);
});
load();
reconnected(load);  // back after a restart, maybe on the next evening: its own tombola, or none
