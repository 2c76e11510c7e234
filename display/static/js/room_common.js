/* Mini-game rooms: what the phone page and the projector share (words, card labels, the socket). */
"use strict";
(function () {
  const S = window.ROOM_STRINGS || {};
  function t(key, vars) {
    let text = S[key] !== undefined ? S[key] : Loto.t(key);
    if (vars) text = text.replace(/%\((\w+)\)s/g, (m, name) => (vars[name] !== undefined ? vars[name] : m));
    return text;
  }
  const CARD = {"rev": "⇄", "x2": "×2", "-10": "−10", "0": "0"};
  function card(c) { return CARD[c] !== undefined ? CARD[c] : c; }
  function cardKind(c) { return c === "rev" || c === "x2" || c === "0" || c === "-10" ? "action" : "number"; }
  function gameName(g) { return t(g); }
  const DIE = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
  function seatName(room, seat) { const s = room.seats[seat]; return s ? s.name : "?"; }

  /* one socket for the room; calls onGame(event) for every `game` event, watching again after a reconnect.
     The audience follows on the relays when the hall has some (boot.socket_path); a seat's phone on the core,
     where its presence counts: taking or losing a seat moves the socket. */
  function watch(code, tokenFn, onGame, onError) {
    let version = -1;
    let socket = null;
    const pathFor = () => (tokenFn() ? null : (Loto.boot.socket_path || null));
    const again = () => { const token = tokenFn(); socket.emit("game_watch", token ? {code, token} : {code}); };
    function open() {
      const path = pathFor();
      socket = io(Loto.socketOptions(path));
      socket.loto_path = path;
      socket.on("connect", again);
      socket.on("game", (ev) => {
        if (!ev || ev.code !== code) return;
        if (ev.version < version) return;                 // an older event overtaken by a newer one
        version = ev.version;
        onGame(ev);
      });
      socket.on("game_error", (err) => { if (onError) onError(err); });
      window.roomSocket = socket;
    }
    open();
    const live = {again, reset: () => {
      version = -1;
      if (socket.loto_path !== pathFor()) { socket.disconnect(); open(); live.socket = socket; } else again();
    }};
    live.socket = socket;
    return live;
  }

  /* each game's own drawing, registered by static/js/games/<game>.js (loaded before the pages' scripts):
     Room.games[name] = {phone(ctx), screen(ctx)} — see room_phone.js and room_screen.js for what ctx holds */
  const games = {};

  window.Room = {t, card, cardKind, gameName, DIE, seatName, watch, games};
})();
