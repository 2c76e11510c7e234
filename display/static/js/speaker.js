/* The speaker's console: type and draw numbers, confirm machine balls, claims, award, démarquer, devices. */
import {$, api, boot, COLON, defaultLabel, el, kind, live, lotName, money, t} from "./common.js";
import {node, show} from "./ids.js";
import {question} from "./question.js";
import {awardedLot, jackpotOf, jackpotText, playedLot} from "./lines.js";
import {choiceOf, kindChoice, termsFields, termsKey} from "./lot_terms.js";
import {choose, chooseClear} from "./speaker_ties.js";
import {MARKS, verdictText} from "./staff.js";
import {renderRooms, roomClaim} from "./speaker_rooms.js";

let S = null, typed = "";

// ------------------------------------------------------------------ typing a number
/* the focus back on the draw entry: the next number typed is a ball (keys: speaker_keys.js) */
export function backToEntry() {
  const entry = $("entry");
  if (document.activeElement && document.activeElement !== entry && document.activeElement.blur) document.activeElement.blur();
  entry.focus({preventScroll: true});
}
function showEntry() {
  $("entry").textContent = typed || "—";
  $("entry").classList.toggle("empty", !typed);
}
/* a player's phone says one of its cartons holds the lot (« Mes cartons », [players] phone_call): the carton and the
   ball it was made on, so the speaker may stop the draw and send a controller; the latest five are kept */
function phoneCall(c) {
  const list = $("phone-calls");
  list.prepend(el("li", {text: t("phone_call", {card: show(c.card_id), lot: lotName(c.lot), n: c.ball, index: c.index})}));
  while (list.children.length > 5) list.lastChild.remove();
  list.hidden = false;
}

/* the console's message line: a refusal (error), a word of the Pi's keypad (info) or a draw done (true / "ok") */
function say(msg, tone) {
  $("entry-msg").textContent = msg || "";
  $("entry-msg").className = tone === true || tone === "ok" ? "ok-line" : tone === "info" ? "hint-line" : "error-line";
}
async function draw() {
  if (!typed) {   // Enter alone: the machine's proposed ball, or ask the machine that waits (demo) for one
    if (S && S.proposed && S.proposed.number) act("POST", "/api/draws/confirm", {});
    else if (S && S.status === "playing") act("POST", "/api/draws/request");
    return;
  }
  const number = parseInt(typed, 10);
  typed = ""; showEntry();
  // One key per typed number: a retry after a network failure answers the first result, never a second draw.
  const request_id = (self.crypto && crypto.randomUUID) ? crypto.randomUUID()
    : Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 12);
  let res = await api("POST", "/api/draws", {number, request_id});
  for (let retry = 0; res.status === 0 && retry < 3; retry++) {
    await new Promise((done) => setTimeout(done, 700 * (retry + 1)));
    res = await api("POST", "/api/draws", {number, request_id});
  }
  say(res.ok ? t("drawn_ok", {n: res.data.number}) : res.data.message, res.ok);
}
// a refusal stays on the console until the next action (a digit typed is not one: the word is still read)
export function key(k) {
  if (/^[0-9]$/.test(k)) { typed = (typed.length >= 2 ? "" : typed) + k; if (typed === "0" || typed === "00") typed = ""; showEntry(); }
  else if (k === "Enter") draw();
  else if (k === "Escape") { if (!typed && S && S.proposed && S.proposed.number) act("POST", "/api/draws/reject"); typed = ""; showEntry(); say(""); }
  else if (k === "Backspace") { typed = typed.slice(0, -1); showEntry(); }
}
// the keyboard and the laptop's numeric keypad: speaker_keys.js (one table with the Pi's keypad)
$("pad").addEventListener("click", (ev) => { const b = ev.target.closest("button"); if (b) key(b.dataset.key); });

const confirmation = question($("confirm"), () => $("confirm").returnValue === "yes");
function confirmBox(text) {
  $("confirm-text").textContent = text;
  return confirmation.ask();
}
async function act(method, path, body, target) {
  const res = await api(method, path, body);
  const line = target || $("entry-msg");
  if (!res.ok) { line.textContent = res.data.message; line.className = "error-line"; }
  else if (!target) say("");          // done: the last refusal has been acted on
  return res;
}

$("undo").addEventListener("click", async () => {
  if (!S || S.last === null) return;
  if (await confirmBox(t("confirm_undo", {n: S.last}))) act("POST", "/api/draws/undo");
});
$("announce").addEventListener("click", () => act("POST", "/api/claims/announce"));
$("resume").addEventListener("click", () => act("POST", "/api/draws/resume"));
$("clear").addEventListener("click", async () => {
  const p = S && S.partie, left = p && p.current_lot !== null ? p.lots.slice(p.current_lot) : [];
  if (!left.length) { if (await confirmBox(t("confirm_clear"))) act("POST", "/api/partie/clear", {}); return; }
  const body = await chooseClear(left);   // names the lots still unwon and asks again: carry or lose
  if (body) act("POST", "/api/partie/clear", body);
});
$("proposed-ok").addEventListener("click", () => act("POST", "/api/draws/confirm", {}));
$("proposed-fix").addEventListener("click", () => { if (typed) { act("POST", "/api/draws/confirm", {number: parseInt(typed, 10)}); typed = ""; showEntry(); } });
$("proposed-no").addEventListener("click", () => act("POST", "/api/draws/reject"));
$("start").addEventListener("click", async () => {
  // The programme's lots as they are (values and donors kept by the hall), unless the speaker changed them here:
  // then the lots as he left them, and the report says which he changed.
  const np = S && S.next_partie, planned = np ? np.lots : [];
  const lots = [...document.querySelectorAll("#lots-editor li")].map((li) => {
    const chosen = choiceOf(li);      // the kind and its terms; a label left empty is the kind's own (the hall's default)
    return {...chosen, label: li.querySelector(".lot-line input").value.trim() || (boot.kind_labels || {})[chosen.kind] || ""};
  });
  const same = lots.length === planned.length && lots.every((l, i) => l.kind === planned[i].kind && l.label === planned[i].label
                                                                   && termsKey(l) === termsKey(planned[i]));
  const res = await act("POST", "/api/partie/start", same ? {} : {lots});
  if (res.ok) { $("award-result").hidden = true; $("lots-editor").dataset.dirty = ""; }
});
$("lots-editor").addEventListener("input", () => { $("lots-editor").dataset.dirty = "1"; });
$("check-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const id = $("check-id").value.trim();
  if (!id) return;
  $("check-id").value = "";
  backToEntry();     // the next number typed is a ball, never a carton check
  if (/^\d{1,2}$/.test(id)) { typed = id; showEntry(); draw(); return; }   // a ball number typed in the wrong field
  const res = await act("POST", "/api/claims", {card_id: id}, $("check-msg"));
  if (res.ok) { const v = verdictText(res.data); $("check-msg").textContent = MARKS[v.tone] + " " + v.line; $("check-msg").className = {good: "ok-line", warn: "warn-line", hint: "hint-line"}[v.tone] || "error-line"; }
});
$("award").addEventListener("click", async () => {
  // the last award's result goes at once: its cartons and voucher codes never read as this lot's (a tie's question,
  // a refusal, a console that lost the hall would leave it under the new lot)
  $("award-result").hidden = true;
  $("award-result").replaceChildren();
  const tied = S.pending_claims.map((c) => c.card_id);
  const choice = tied.length > 1 ? await choose(tied, S.tie) : {};   // a tie: the speaker chooses how (or as said)
  if (choice === null) return;
  $("award").disabled = true;
  const res = await act("POST", "/api/lots/award", choice, $("check-msg"));
  if (!res.ok) { $("award").disabled = false; return; }
  const r = res.data, box = $("award-result");
  box.replaceChildren(el("div", {class: "status-line", text: lotName(awardedLot(r)) + COLON + t("award_result", {card: r.winners.map(show).join(", ")})}));
  // a draw that gave the stage's next lots too (docs L14b): each lot with its carton, in the draw's order
  if ((r.stage || []).length) box.append(el("ul", {class: "stage-lots"}, ...r.stage.slice(1).map((g) =>
    el("li", {class: "status-line", text: t("stage_line", {lot: lotName(g.lot), card: show(g.winner)})}))));
  if (r.shared) box.append(el("div", {text: t("lot_shared")}));
  if (r.tie_break.length) {
    box.append(el("div", {text: t("tie_break") + " — " + t((r.tie_mode || "").endsWith("highest") ? "tie_highest_wins" : "tie_lowest_wins")}),
               el("ul", {}, ...r.tie_break.map((d) => el("li", {class: d.card_id === r.winner ? "tie-winner" : "",
                                                            text: t("tie_line", {card: show(d.card_id), n: d.number})}))));
    if (r.consolation.length) box.append(el("div", {text: t("consolation_for", {cards: r.consolation.map(show).join(", ")})}));
  }
  box.append(el("div", {text: t("vouchers_title")}), el("div", {class: "voucher-codes"}, ...r.vouchers.map((c) => el("span", {class: "voucher-code", text: c}))));
  box.dataset.partie = S.partie ? String(S.partie.number) : "";
  box.hidden = false;
});

// ------------------------------------------------------------------ rendering the state
const mini = $("mini-board"), cells = [null];
for (let n = 1; n <= 90; n++) { const c = el("div", {text: String(n)}); cells.push(c); mini.append(c); }

function renderDevices() {
  const box = $("devices");
  const devices = Object.values(S.devices || {});
  if (!devices.length) { box.replaceChildren(el("span", {class: "device none", text: t("no_devices")})); return; }
  box.replaceChildren(...devices.map((d) => el("span", {class: "device " + d.status,
    text: d.detail || t("device_" + d.device) + COLON + t("device_" + d.status)})));
}

// the next partie's lots as the programme says (redrawn when the admin edits it, unless the speaker typed here)
function lotsEditor() {
  const box = $("lots-editor");
  const np = S.next_partie;
  const sig = np ? JSON.stringify([np.number, np.lots]) : "";
  if (!np || box.dataset.sig === sig || (box.dataset.dirty && box.dataset.partie === String(np.number))) return;
  box.dataset.sig = sig; box.dataset.partie = String(np.number); box.dataset.dirty = "";
  box.replaceChildren(...np.lots.map((lot) => {
    // the kind and its terms in one list (lot_terms.js); a maxi-bingo's ball limit and fallback on a line below
    const li = el("li", {});
    let more = lot.within ? termsFields(lot) : null;
    const sel = kindChoice(lot, () => {
      const maxi = sel.value.endsWith("@maxi");
      if (maxi && !more) { more = termsFields({kind: sel.value.split("@")[0]}); li.append(more); }
      if (!maxi && more) { more.remove(); more = null; }
    });
    const value = lot.value_eur === null || lot.value_eur === undefined ? "" : t("lot_worth", {eur: money(lot.value_eur)});
    li.append(el("div", {class: "lot-line"}, sel,
      el("input", {type: "text", value: defaultLabel(lot) ? "" : lot.label, placeholder: kind(lot.kind), maxlength: "200",
                   "aria-label": t("lot_label"), title: defaultLabel(lot) ? "" : lot.label}),
      el("span", {class: "lot-worth", text: value})), ...(more ? [more] : []));
    return li;
  }));
}

function render() {
  renderDevices();
  renderRooms(S, say);
  const p = S.partie, running = p && !["waiting", "cleared"].includes(S.status);
  $("sp-partie").textContent = running ? t("partie", {n: p.number}) : t("status_waiting");
  const lot = running && p.current_lot !== null ? p.lots[p.current_lot] : null;
  const j = lot ? jackpotOf(p.jackpots, p.current_lot) : null;       // a maxi-bingo: the hall's count
  $("sp-lot").textContent = lot ? lotName(playedLot(lot, j)) + (j ? " · " + jackpotText(lot, j) : "") : "";
  const stopped = running && S.status === "playing" && S.held;      // after an award: + resumes (docs L11a)
  const said = stopped ? "held" : S.status === "cleared" ? "waiting" : S.status;
  $("sp-status").textContent = t("status_" + said) + " · " +
    (S.draws.length === 0 ? t("drawn_zero") : t(S.draws.length === 1 ? "drawn_one" : "drawn_many", {n: S.draws.length}));
  $("sp-last").textContent = S.last === null ? "—" : String(S.last);
  const drawn = new Set(S.draws);
  for (let n = 1; n <= 90; n++) { cells[n].className = n === S.last ? "last" : drawn.has(n) ? "drawn" : ""; }
  $("start-box").hidden = running;
  document.body.classList.toggle("sp-between", !running);   // between parties the lots editor takes the board's place
  if (!running) lotsEditor();
  $("undo").disabled = !S.undo_available;
  $("entry-state").textContent = running && said !== "playing" ? t("status_" + said) : "";
  $("entry-state").dataset.state = running ? said : "";
  $("announce").disabled = !running || S.paused;
  $("resume").disabled = !running || !(S.paused || S.held) || S.pending_claims.length > 0;
  $("resume").classList.toggle("primary", !$("resume").disabled);      // the next thing to do stands out
  $("announce").classList.toggle("primary", $("resume").disabled);
  $("clear").disabled = !running;
  $("draw-button").disabled = !running;
  $("award").disabled = S.pending_claims.length === 0;
  const mark = (tone) => el("span", {class: "v-mark", "aria-hidden": "true", text: MARKS[tone]});
  $("pending").replaceChildren(...S.pending_claims.map((c) => el("li", {class: "v-valid"}, mark("good"), node(c.card_id))));
  $("checks").replaceChildren(...(S.recent_checks.length ? S.recent_checks.slice().reverse().slice(0, 12).map((c) =>
    el("li", {class: "v-" + c.verdict}, mark(verdictText(c).tone), node(c.card_id), " — " + t("vs_" + c.verdict + (c.verdict === "missed" && c.reason ? "_" + c.reason : "")) + (c.last ? " (" + c.last + ")" : ""))) : [el("li", {text: t("no_checks")})]));
  const w = S.watch || {can_claim: [], can_claim_count: 0, slept: []};
  $("watch-count").textContent = lot && w.can_claim_count ? t("can_claim", {n: w.can_claim_count, kind: kind(lot.kind).toLowerCase()}) : t("can_claim_none");
  $("watch-list").textContent = w.can_claim.slice(0, 12).join(", ");
  $("slept").replaceChildren(...(w.slept.length ? [el("h3", {text: t("slept")}),
    el("div", {text: w.slept.slice(-12).map((s) => s.card_id + " (" + s.ball + ")").join(", ")})] : []));
  const prop = S.proposed;
  $("proposed").hidden = !(prop && prop.number);
  if (prop && prop.number) $("proposed-text").textContent = t("proposed", {n: prop.number});
}

export const state = () => S;
export const typedNumber = () => typed;
export const answer = confirmation.answer;        // the confirmation's yes or no, from the keys

// events with seq, as the projector: a draw shows at once; right after each record the speaker room sends
// ``console``, the speaker's whole picture at that seq (claims, watch, devices) — no refetch, no timer
live({
  state(state) {
    S = state;
    // an award belongs to its partie: connected again to another (the next evening, after a restart), it goes
    if (!S.partie || String(S.partie.number) !== $("award-result").dataset.partie) $("award-result").hidden = true;
    render();
  },
  event(name, ev) {
    if (name === "partie" && ev.status === "started") {   // a new partie: yesterday's messages go
      for (const id of ["entry-msg", "check-msg"]) $(id).textContent = "";
      $("award-result").hidden = true;
    }
    if (name === "room:claim") roomClaim(ev, say);
    if (name === "draw") {
      S.last = ev.number; if (!S.draws.includes(ev.number)) S.draws.push(ev.number); S.undo_available = true;
      if (S.partie) S.partie.jackpots = ev.jackpots || [];
      render();
    }
  },
  console(state) { S = state; render(); },
  // every passing notice, one handler (display/notices.py words them all): a device, a held ball and a phone's
  // call have their own places; any notice's ``entry`` (the Pi keypad's typing) and ``message`` show, whatever it is
  notice(name, data) {
    if (!S) return;
    if (name === "device") { S.devices = Object.assign({}, S.devices, {[data.device]: data}); renderDevices(); }
    else if (name === "proposed") { S.proposed = data.number ? data : null; render(); }
    else if (name === "phone_call") phoneCall(data);
    if (typeof data.entry === "string") { $("entry").textContent = data.entry || "—"; $("entry").classList.toggle("empty", !data.entry); }
    if (typeof data.message === "string") say(data.message, data.tone);
  },
});
