/* loto-hall: what every page imports — its boot data, $ and el, the words, the API, the live connection with
   seq/resync. Nothing here touches window: a page holds no global of its own. */
import {io} from "../vendor/socket.io/socket.io.esm.min.js";

/* what the hall rendered into the page (<script type="application/json" id="boot">): page, lang, role, csrf… */
export const boot = JSON.parse((document.getElementById("boot") || {}).textContent || "{}");

/* One table of words for the page: the boot's own, the tournament's, and those of the parts a page includes
   (<script type="application/json" data-words>: the mini-games' on the projector and the consoles). */
const WORDS = Object.assign({}, boot.strings, boot.words,
  ...[...document.querySelectorAll("script[type='application/json'][data-words]")].map((n) => JSON.parse(n.textContent)));

/* French typography: no line ever starts with the colon, the semicolon, ! ? or » (« Dernier numéro / : 89 ») */
const FRENCH = !String(boot.lang || "fr").startsWith("en");
/* a label's colon joined in code ("Partie 1 : …"): French keeps its no-break space, English has none */
export const COLON = FRENCH ? "\u00a0: " : ": ";
const typeset = (text) => (FRENCH ? text.replace(/ ([:;!?»])/g, "\u00a0$1").replace(/« /g, "«\u00a0") : text);

export function t(key, vars) {
  let text = WORDS[key] !== undefined ? typeset(WORDS[key]) : key;
  if (vars) text = text.replace(/%\((\w+)\)s/g, (m, name) => (vars[name] !== undefined ? vars[name] : m));
  return text;
}

/* a sentence with a count, in the form the page language's plural rule picks (the catalogue's ngettext forms,
   display/i18n.py JS_PLURALS): « 0 carton » and « 1 carton » in French, « 0 cards » and « 1 card » in English */
const PLURAL = new Intl.PluralRules(boot.lang || "fr");
export function tn(key, n, vars) {
  return t(key + (PLURAL.select(Number(n)) === "one" ? "_one" : "_other"), Object.assign({n: n}, vars));
}

export const kind = (k) => t("kind_" + k);

/* a label the hall gave by default (the kind's French name: "Quine"), so no label of its own: an English hall reads
   "One line", never "One line — Quine" */
export const defaultLabel = (lot) => !lot.label || lot.label === (boot.kind_labels || {})[lot.kind];

/* a lot's terms (RULES L20–L21): « sur la ligne du milieu », « en 45 boules »; "" for a plain lot */
export const lotTerms = (lot) => (!lot ? "" : lot.row ? t("lot_row_" + lot.row) : lot.within ? t("lot_within", {n: lot.within}) : "");

/* "Quine — Panier garni" (the kind alone when the label only repeats it), its terms after the kind:
   "Quine sur la ligne du milieu — Panier garni", "Carton plein en 45 boules — Téléviseur" */
export function lotName(lot) {
  if (!lot) return "";
  const terms = lotTerms(lot);
  const label = lot.label ? lot.label.replace(/(\d) (€|%)/g, "$1\u00a0$2") : "";   // « 100 € » never broken
  return kind(lot.kind) + (terms ? " " + terms : "") + (defaultLabel(lot) || lot.label === kind(lot.kind) ? "" : " — " + label);
}

/* an amount as the hall writes it: "12,50" (French) */
export const money = (n) => Number(n || 0).toLocaleString(boot.lang || "fr", {minimumFractionDigits: 2, maximumFractionDigits: 2});
export const euros = (n) => money(n) + " €";
/* an amount put back in a field as it was typed: "40,50" in French, never "40.5", no thousands separator */
export const amountField = (n) => (n === null || n === undefined || n === "" ? ""
  : Number(n).toFixed(2).replace(".", boot.lang === "en" ? "." : ","));

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/* fetch JSON; never throws: {ok, status, data} with data.message on refusals */
export async function api(method, path, body) {
  const headers = {"Accept": "application/json"};
  if (boot.csrf) headers["X-CSRF-Token"] = boot.csrf;
  const init = {method, headers, credentials: "same-origin"};
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  try {
    const res = await fetch(path, init);
    let data = {};
    try { data = await res.json(); } catch (e) { data = {error: "bad_response", message: t("error")}; }
    return {ok: res.ok, status: res.status, data};
  } catch (e) {
    return {ok: false, status: 0, data: {error: "network", message: t("network")}};
  }
}

/* A Socket.IO connection to the hall: websocket first, long polling if a proxy or a phone refuses it. Given the
   relays' path (a hall with relays, INTERFACE §10: an audience page's boot names it), there, WebSocket only
   (several relays share one port, no sticky session). While connected, the body says where (data-socket).
   A connection that gets no answer is given up after 5 s and tried again (the default waits 20 s: a phone back
   on the hall's Wi-Fi would catch up that late). */
export function connect(path) {
  const again = {reconnectionDelay: 500, reconnectionDelayMax: 4000, timeout: 5000};
  const socket = io(path ? {path, transports: ["websocket"], ...again}
                         : {transports: ["websocket", "polling"], tryAllTransports: true, ...again});
  socket.on("connect", () => { document.body.dataset.socket = socket.io.opts.path; });
  socket.on("disconnect", () => { if (document.body.dataset.socket === socket.io.opts.path) delete document.body.dataset.socket; });
  return socket;
}

/* ``fn()`` each time the page's connection to the hall comes back after it was lost (a restart, perhaps on the next
   evening): for a section that reads its state over HTTP rather than from the live connection. */
export function reconnected(fn) {
  let was = Boolean(document.body.dataset.socket), lost = false;
  new MutationObserver(() => {
    const now = Boolean(document.body.dataset.socket);
    if (!now && was) lost = true;
    if (now && !was && lost) fn();
    was = now;
  }).observe(document.body, {attributes: true, attributeFilter: ["data-socket"]});
}

/* The live connection, one strategy for every page: a state, then events with seq +1; any gap → resync.
   Events that arrive before the state (the server joins the room, then reads its snapshot) are kept and
   replayed after it when they follow on. ``console`` (speaker room) is the speaker's whole picture after a
   record: a page that wants it passes ``handlers.console``; it never costs a refetch. The body carries the seq
   the page has reached (data-seq), the #offline strip shows while the hall is unreachable. */
export function live(handlers) {
  const socket = connect(boot.socket_path);
  let seq = null;
  const reached = (n) => { seq = n; document.body.dataset.seq = String(n); };
  const setOnline = (on) => {
    const offline = $("offline");
    if (offline) offline.hidden = on; document.body.classList.toggle("is-offline", !on); };
  socket.on("connect", () => setOnline(true));
  let early = [];
  socket.on("disconnect", (reason) => {
    seq = null; early = []; setOnline(false);
    // the server drops a staff socket whose session ended (logout, PIN changed): show the login again
    if (reason === "io server disconnect" && boot.role) location.reload();
  });
  socket.on("connect_error", () => setOnline(false));
  socket.on("state", (state) => {
    reached(state.seq); handlers.state(state);
    const kept = early.sort((a, b) => a[1].seq - b[1].seq); early = [];
    for (const [name, data] of kept) if (data.seq === seq + 1) { reached(data.seq); handlers.event(name, data); }
  });
  socket.on("console", (data) => { if (handlers.console && data && seq !== null && data.seq >= seq) handlers.console(data); });
  socket.onAny((name, data) => {
    if (name === "state" || name === "console") return;
    if (!data || typeof data.seq !== "number") { if (handlers.notice) handlers.notice(name, data || {}); return; }
    if (seq === null) { if (early.length < 200) early.push([name, data]); return; }   // the state is on its way
    if (data.seq <= seq) return;          // already in our snapshot
    if (data.seq !== seq + 1) { seq = null; socket.emit("resync"); return; }       // never expected
    reached(data.seq);
    handlers.event(name, data);
  });
  return {socket, resync: () => socket.emit("resync")};
}

/* the carton grid: 3 rows × 9 columns, drawn numbers marked, complete rows and the last number shown */
export function cardGrid(card) {
  const marked = new Set(card.marked || []);
  const complete = new Set(card.complete_rows || []);
  const table = el("table", {class: "carton", "aria-label": card.card_id});
  card.grid.forEach((row, r) => {
    const tr = el("tr", {class: complete.has(r) ? "row-complete" : ""});
    for (const n of row) {
      const cls = n === null ? "blank" : (n === card.last ? "last" : marked.has(n) ? "marked" : "");
      tr.append(el("td", {class: cls, text: n === null ? "" : String(n)}));
    }
    table.append(tr);
  });
  return table;
}
