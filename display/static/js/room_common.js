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

  /* one socket for the room; calls onGame(event) for every `game` event, watching again after a reconnect */
  function watch(code, tokenFn, onGame, onError) {
    const socket = io({transports: ["websocket", "polling"], tryAllTransports: true,
                       reconnectionDelay: 500, reconnectionDelayMax: 4000});
    let version = -1;
    const again = () => { const token = tokenFn(); socket.emit("game_watch", token ? {code, token} : {code}); };
    socket.on("connect", again);
    socket.on("game", (ev) => {
      if (!ev || ev.code !== code) return;
      if (ev.version < version) return;                 // an older event overtaken by a newer one
      version = ev.version;
      onGame(ev);
    });
    socket.on("game_error", (err) => { if (onError) onError(err); });
    window.roomSocket = socket;
    return {socket, again, reset: () => { version = -1; again(); }};
  }

  /* each game's own drawing, registered by static/js/games/<game>.js (loaded before the pages' scripts):
     Room.games[name] = {phone(ctx), screen(ctx)} — see room_phone.js and room_screen.js for what ctx holds */
  const games = {};

  window.Room = {t, card, cardKind, gameName, DIE, seatName, watch, games};
})();
