/* Mini-game rooms: what the phone page, the projector and the console share (card labels, dice, the socket). */
import {boot, connect} from "./common.js";

const CARD = {"rev": "⇄", "x2": "×2", "-10": "−10", "0": "0"};
export function card(c) { return CARD[c] !== undefined ? CARD[c] : c; }
export function cardKind(c) { return c === "rev" || c === "x2" || c === "0" || c === "-10" ? "action" : "number"; }
export const DIE = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
/* La Linotte's two pawns told apart by shape as well as colour (their red and blue have the same lightness):
   the morpion's cross and ring, on the grid, the scores and the projector */
export const PAWN = ["✕", "◯"];
export function seatName(room, seat) { const s = room.seats[seat]; return s ? s.name : "?"; }

/* one socket for the room; calls onGame(event) for every `game` event, watching again after a reconnect.
   The audience follows on the relays when the hall has some (boot.socket_path); a seat's phone on the core,
   where its presence counts: taking or losing a seat moves the socket. */
export function watch(code, tokenFn, onGame, onError) {
  let version = -1, socket = null, path = null;
  const pathFor = () => (tokenFn() ? null : (boot.socket_path || null));
  const again = () => { const token = tokenFn(); socket.emit("game_watch", token ? {code, token} : {code}); };
  function open() {
    path = pathFor();
    socket = connect(path);
    socket.on("connect", again);
    socket.on("game", (ev) => {
      if (!ev || ev.code !== code) return;
      if (ev.version < version) return;                 // an older event overtaken by a newer one
      version = ev.version;
      onGame(ev);
    });
    socket.on("game_error", (err) => { if (onError) onError(err); });
    return socket;
  }
  const live = {socket: open(), again, reset: () => {
    version = -1;
    if (path !== pathFor()) { socket.disconnect(); live.socket = open(); } else again();
  }};
  return live;
}

/* each game's own drawing, registered by static/js/games/<game>.js (loaded before the pages' scripts):
   games[name] = {phone(ctx), screen(ctx), staff(ctx)?} — see room_phone.js, room_screen.js, room_staff.js */
export const games = {};
