/* loto-hall: what every page shares — words, the API, the live connection with seq/resync, PIN login. */
"use strict";
(function () {
  const boot = window.LOTO || {};
  const S = boot.strings || {};

  function t(key, vars) {
    let text = S[key] !== undefined ? S[key] : key;
    if (vars) text = text.replace(/%\((\w+)\)s/g, (m, name) => (vars[name] !== undefined ? vars[name] : m));
    return text;
  }

  function kind(k) { return t("kind_" + k); }

  function el(tag, attrs, ...children) {
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
  async function api(method, path, body) {
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

  /* Where a page's socket goes: the core by default; a phone's page whose boot names the relays' path (a hall
     with relays, INTERFACE §10) goes there, WebSocket only (several relays share one port, no sticky session). */
  function socketOptions(path) {
    const again = {reconnectionDelay: 500, reconnectionDelayMax: 4000};
    return path ? {path, transports: ["websocket"], ...again}
                : {transports: ["websocket", "polling"], tryAllTransports: true, ...again};
  }

  /* The live connection, one strategy for every page: a state, then events with seq +1; any gap → resync.
     Events that arrive before the state (the server joins the room, then reads its snapshot) are kept and
     replayed after it when they follow on. ``console`` (speaker room) is the speaker's whole picture after a
     record: a page that wants it passes ``handlers.console``; it never costs a refetch. */
  function live(handlers) {
    const socket = io(socketOptions(boot.socket_path));
    let seq = null;
    const setOnline = (on) => {
      const offline = document.getElementById("offline");
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
      seq = state.seq; handlers.state(state);
      const kept = early.sort((a, b) => a[1].seq - b[1].seq); early = [];
      for (const [name, data] of kept) if (data.seq === seq + 1) { seq = data.seq; handlers.event(name, data); }
    });
    socket.on("console", (data) => { if (handlers.console && data && seq !== null && data.seq >= seq) handlers.console(data); });
    socket.onAny((name, data) => {
      if (name === "state" || name === "console") return;
      if (!data || typeof data.seq !== "number") { if (handlers.notice) handlers.notice(name, data || {}); return; }
      if (seq === null) { if (early.length < 200) early.push([name, data]); return; }   // the state is on its way
      if (data.seq <= seq) return;          // already in our snapshot
      if (data.seq !== seq + 1) {
        window.lotoGaps = (window.lotoGaps || 0) + 1;      // never expected: counted for tests and benchmarks
        seq = null; socket.emit("resync"); return;
      }
      seq = data.seq;
      handlers.event(name, data);
    });
    window.lotoSocket = socket;     // for tests and benchmarks
    return {socket, resync: () => socket.emit("resync")};
  }

  function loginForm() {
    const form = document.getElementById("login-form");
    const err = document.getElementById("login-error");
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const res = await api("POST", "/api/login", {pin: document.getElementById("pin").value});
      if (res.ok) location.reload();
      else { err.textContent = res.data.message; document.getElementById("pin").select(); }
    });
  }

  /* the carton grid: 3 rows × 9 columns, drawn numbers marked, complete rows and the last number shown */
  function cardGrid(card) {
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

  window.Loto = {boot, t, kind, el, api, live, loginForm, cardGrid, socketOptions};
})();
