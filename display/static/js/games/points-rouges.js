/* Loto Points Rouges (RULES §5) on the phone and on the projector.
   Phone: the rack drawn as dots on each piece's 3×3 lattice; tap a piece, turn it (↻), pick a board, tap a
   green point to see where the piece goes, then "Poser ici" — the button carrying the move's data-move, always
   a move copied from `legal`. Several pieces in one turn (P7) are laid one at a time ("compléter cette figure":
   each piece an `add` move from `legal`, seen by the mover alone; the last one completes the board, `take_back`
   returns them); the solitaire (P11) is composed on the phone and played at once, with a hint.
   Projector: the boards with their blue points and red tokens, who took which board, scores and jokers. */
import {el, t} from "../common.js";
import {games, seatName} from "../room_common.js";

const JOKER = "J";
// RULES 5a (hall/minigames/points_rouges/pieces.py SHAPE_FIGURES; a test keeps both equal)
const SHAPE_FIGURES = {
  "S00": "oo./.../...", "S01": "o.o/.../...", "S02": "o../.o./...", "S03": "o../..o/...",
  "S04": "o../.../.o.", "S05": "o../.../..o", "S06": "ooo/.../...", "S07": "oo./o../...",
  "S08": "oo./..o/...", "S09": "oo./.../o..", "S10": "oo./.../.o.", "S11": "oo./.../..o",
  "S12": "o.o/.o./...", "S13": "o.o/.../o..", "S14": "o.o/.../.o.", "S15": "o../o../.o.",
  "S16": "o../o../..o", "S17": "o../.o./..o", "S18": "o../..o/.o.",
};

// ---------------------------------------------------------------- geometry (3×3 piece lattice, 5×5 board)
function norm(rc) {
  const r0 = Math.min(...rc.map((p) => p[0])), c0 = Math.min(...rc.map((p) => p[1]));
  return rc.map(([r, c]) => [r - r0, c - c0]);
}
const patternOf = (rc) => norm(rc).map(([r, c]) => r * 3 + c).sort((a, b) => a - b).join(",");
const cellsPattern = (cells) => patternOf(cells.map((p) => [Math.floor(p / 5), p % 5]));
const ROTATIONS = {};          // shape → its distinct rotations as pattern strings, (r, c) → (c, −r) as the engine
for (const [sid, fig] of Object.entries(SHAPE_FIGURES)) {
  let rc = [];
  fig.split("/").forEach((row, r) => [...row].forEach((ch, c) => { if (ch === "o") rc.push([r, c]); }));
  const seen = [];
  for (let i = 0; i < 4; i++) {
    const p = patternOf(rc);
    if (!seen.includes(p)) seen.push(p);
    rc = norm(rc.map(([r, c]) => [c, -r]));
  }
  ROTATIONS[sid] = seen;
}
ROTATIONS[JOKER] = ["0"];
const rotations = (sid) => ROTATIONS[sid] || ["0"];
const pieceKey = (piece) => piece[0] + ":" + piece[1].join(",");

const AT = ["pr_at_0", "pr_at_1", "pr_at_2", "pr_at_3", "pr_at_4", "pr_at_5", "pr_at_6", "pr_at_7", "pr_at_8"];
/* a piece as a screen reader says it: where its points are in that rotation (never its catalogue name "S09") */
function pieceName(sid, rot) {
  if (sid === JOKER) return t("pr_joker_name");
  const dots = rotations(sid)[(rot || 0) % rotations(sid).length].split(",").map(Number);
  return t("pr_piece_name", {n: dots.length, where: dots.map((i) => t(AT[i])).join(", ")});
}

/* a piece drawn as its dots on a 3×3 lattice */
function pieceFigure(sid, rot) {
  const dots = new Set(rotations(sid)[(rot || 0) % rotations(sid).length].split(",").map(Number));
  const box = el("span", {class: "pr-piece", "aria-hidden": "true"});
  for (let i = 0; i < 9; i++) box.append(el("i", {class: dots.has(i) ? "dot" : ""}));
  return box;
}

/* a board as its 5×5 lattice; marks: point → extra class (spot, preview, draft, hint); cellButton(point) → a button or null */
function boardFigure(b, marks, cellButton, extraClass) {
  const blue = new Set(b.points), covered = new Set(b.covered);
  const grid = el("div", {class: "pr-board" + (extraClass ? " " + extraClass : ""), "data-board": b.letter});
  for (let p = 0; p < 25; p++) {
    const cls = "pr-pt" + (covered.has(p) ? " tok" : blue.has(p) ? " blue" : "") + (marks && marks[p] ? " " + marks[p] : "");
    const button = cellButton ? cellButton(p) : null;
    if (button) { button.className = cls; grid.append(button); } else grid.append(el("span", {class: cls}));
  }
  return grid;
}

function boardLabel(b) {
  return t("pr_board", {letter: b.letter}) + " · " + t("pr_points", {n: b.value});
}

// ---------------------------------------------------------------- phone
const ui = {version: -1, code: null, sel: null, rot: 0, board: null, draft: [], compose: false, preview: null,
            swap: false, hint: null, hintPiece: null, hints: 0, turned: false, pinned: false};

function resetTurn() { ui.draft = []; ui.preview = null; ui.swap = false; ui.compose = false; ui.hintPiece = null; ui.turned = false; ui.pinned = false; }

function phone(ctx) {
  const {room, me, myTurn, table, controls} = ctx;
  const v = room.view;
  if (ui.code !== ctx.code) { Object.assign(ui, {code: ctx.code, sel: null, rot: 0, board: null, hint: null, hints: 0}); resetTurn(); }
  if (room.version !== ui.version) { ui.version = room.version; resetTurn(); ui.hint = null; ui.hints = 0; }
  const solitaire = v.players === 1;
  const seat = me ? me.seat : null;
  scoreLine(table, room, seat);
  if (v.phase === "choose") { chooser(ctx); return; }
  if (!v.boards.some((b) => b.letter === ui.board)) ui.board = v.boards.length ? v.boards[0].letter : null;

  const legal = me && myTurn ? me.legal : [];
  const places = legal.filter((m) => m[0] === "place");
  const adds = legal.filter((m) => m[0] === "add");               // P7: one more piece of a figure
  const takeBack = legal.find((m) => m[0] === "take_back");
  const swaps = legal.filter((m) => m[0] === "swap");
  const pass = legal.find((m) => m[0] === "pass");
  const staged = solitaire || !me ? [] : (me.staged || []);          // the mover's own view only (P7c)
  if (staged.length) { ui.compose = true; ui.board = me.staged_on; }  // a figure begun: its board, piece by piece
  if (!solitaire) ui.draft = staged;
  const multi = adds.length > 0;
  const placing = places.length > 0 || adds.length > 0 || solitaire;   // a piece to lay (else: stuck)
  const composing = solitaire || (ui.compose && (multi || staged.length > 0));
  if (!solitaire && !placing && swaps.length) ui.swap = true;     // stuck (P9): give a piece back

  // what is left to place: the rack (and jokers) less the pieces already composed on the board
  const rack = me ? me.my_rack.filter((s) => solitaire || s !== JOKER) : [];
  const jokers = me ? (solitaire ? 0 : v.jokers[seat]) : 0;
  const used = {};
  ui.draft.forEach(([sid]) => { used[sid] = (used[sid] || 0) + 1; });
  const left = (sid) => (sid === JOKER && !solitaire ? jokers : rack.filter((s) => s === sid).length) - (used[sid] || 0);
  if (ui.sel !== null && left(ui.sel) <= 0) { ui.sel = null; ui.rot = 0; ui.preview = null; ui.turned = false; }

  // the moves still open on a board given the pieces composed so far
  const draftKeys = ui.draft.map(pieceKey);
  const remaining = {};
  v.boards.forEach((b) => { remaining[b.letter] = b.points.length - b.covered.length; });
  const completes = (m) => m[2].reduce((n, p) => n + p[1].length, 0) === remaining[m[1]];
  function open(letter) {    // the solitaire composing: its completions; else the one-piece placements
    return places.filter((m) => m[1] === letter && (composing ? completes(m) : m[2].length === 1) && (() => {
      const keys = m[2].map(pieceKey);
      return draftKeys.every((k) => { const i = keys.indexOf(k); if (i < 0) return false; keys.splice(i, 1); return true; });
    })());
  }
  /* the spots of piece sid in rotation rot on board letter: cells key → {cells, move (the final move, if it is one)} */
  function spots(letter, sid, rot) {
    if (solitaire) return freeSpots(letter, sid, rot);
    const pattern = sid === JOKER ? "0" : rotations(sid)[rot % rotations(sid).length];
    return spotIndex(letter).get(sid + "|" + pattern) || new Map();
  }
  /* one pass over a board's open moves per redraw (`legal` can hold thousands of completions with jokers):
     shape|rotation → cells key → spot */
  const indexes = {};
  function spotIndex(letter) {
    if (indexes[letter]) return indexes[letter];
    const index = new Map();
    const spot = (p, m) => {
      const kind = p[0] + "|" + (p[0] === JOKER ? "0" : cellsPattern(p[1]));
      if (!index.has(kind)) index.set(kind, new Map());
      index.get(kind).set(p[1].join(","), {cells: p[1], move: m});
    };
    if (composing && !solitaire) {          // a figure at a table: each piece is its own `add` move
      for (const m of adds) if (m[1] === letter) spot(m[2], m);
      indexes[letter] = index;
      return index;
    }
    for (const m of open(letter)) {
      const rest = m[2].filter((p) => !draftKeys.includes(pieceKey(p)));
      for (const p of rest) {
        const kind = p[0] + "|" + (p[0] === JOKER ? "0" : cellsPattern(p[1]));
        if (!index.has(kind)) index.set(kind, new Map());
        const at = index.get(kind), k = p[1].join(",");
        const spot = at.get(k) || {cells: p[1], move: null};
        if (rest.length === 1) spot.move = m;
        at.set(k, spot);
      }
    }
    indexes[letter] = index;
    return index;
  }
  /* the solitaire is a puzzle: every spot where the piece fits on the points still free is offered (dead ends
     included: "Reprendre les pièces" starts again); the last piece's spot plays the completion `legal` lists */
  const byKey = new Map(places.map((m) => [m[1] + "#" + m[2].map(pieceKey).sort().join("|"), m]));
  function freeSpots(letter, sid, rot) {
    const out = new Map();
    const b = v.boards.find((x) => x.letter === letter);
    if (!b) return out;
    const taken = new Set(b.covered.concat(...ui.draft.map((p) => p[1])));
    const free = new Set(b.points.filter((p) => !taken.has(p)));
    const dots = rotations(sid)[rot % rotations(sid).length].split(",").map(Number).map((i) => [Math.floor(i / 3), i % 3]);
    for (let dr = 0; dr < 5; dr++) {
      for (let dc = 0; dc < 5; dc++) {
        const cells = dots.map(([r, c]) => (r + dr < 5 && c + dc < 5 ? (r + dr) * 5 + c + dc : -1)).sort((a, b) => a - b);
        if (cells.some((p) => !free.has(p))) continue;
        const key = letter + "#" + ui.draft.concat([[sid, cells]]).map(pieceKey).sort().join("|");
        const move = byKey.get(key) || null;
        if (!move && cells.length === free.size) continue;      // a full cover is always listed: never offer another
        out.set(cells.join(","), {cells, move});
      }
    }
    return out;
  }
  const anyRot = (letter, sid) => rotations(sid).some((_, r) => spots(letter, sid, r).size > 0);
  const playable = (sid) => v.boards.some((b) => anyRot(b.letter, sid));

  // a thumb's first tap is saved: on its turn, the first playable piece is already picked, on a board where it goes
  if (myTurn && placing && ui.sel === null && !ui.swap) {
    const first = [...new Set(rack.concat(jokers > 0 ? [JOKER] : []))].find((s) => left(s) > 0 && playable(s));
    if (first) { ui.sel = first; ui.rot = 0; }
  }
  if (myTurn && ui.sel !== null && ui.draft.length === 0 && !ui.pinned && !anyRot(ui.board, ui.sel)) {   // unless the player chose the board
    const where = v.boards.find((b) => anyRot(b.letter, ui.sel));
    if (where) ui.board = where.letter;
  }
  if (myTurn && ui.sel !== null && !ui.turned && spots(ui.board, ui.sel, ui.rot).size === 0) {   // turned to fit, once
    const r = rotations(ui.sel).findIndex((_, i) => spots(ui.board, ui.sel, i).size > 0);
    if (r >= 0) ui.rot = r;
  }

  // the boards: small lattices to pick from (the chosen one is drawn large below)
  const thumbs = el("div", {class: "pr-thumbs"});
  for (const b of v.boards) {
    const chosen = b.letter === ui.board;
    const goes = myTurn && ui.sel !== null && anyRot(b.letter, ui.sel);
    const done = solitaire ? places.some((m) => m[1] === b.letter && completes(m)) : false;
    const button = el("button", {type: "button", class: "pr-thumb" + (chosen ? " on" : "") + (goes ? " goes" : "") + (done ? " done" : ""),
      "data-board": b.letter, "aria-pressed": chosen ? "true" : "false", "aria-label": boardLabel(b),
      disabled: ui.draft.length > 0 && !chosen,
      onclick: () => { ui.board = b.letter; ui.preview = null; ui.pinned = true; ctx.render(); }},
    el("span", {class: "pr-thumb-name"}, b.letter, el("small", {}, " " + b.value)), boardFigure(b, null, null, "small"));
    thumbs.append(button);
  }
  if (v.boards.length > 1) table.append(thumbs);

  const board = v.boards.find((b) => b.letter === ui.board);
  if (!board) {          // the solitaire's figure once done (it has left the table)
    if (v.completed.length) table.append(boardFigure(doneBoard(v.completed[v.completed.length - 1][1]), null, null, "large"));
    return;
  }
  const here = myTurn && ui.sel !== null ? spots(board.letter, ui.sel, ui.rot) : new Map();
  if (ui.preview && !here.has(ui.preview)) ui.preview = null;
  if (!ui.preview && here.size === 1) ui.preview = [...here.keys()][0];
  const marks = {}, tappable = new Set();
  for (const [, s] of here) s.cells.forEach((p) => { marks[p] = "spot"; tappable.add(p); });
  ui.draft.forEach(([, cells]) => cells.forEach((p) => { marks[p] = "draft"; }));
  const preview = ui.preview ? here.get(ui.preview) : null;
  if (preview) preview.cells.forEach((p) => { marks[p] = "preview"; });
  if (ui.hintPiece && !ui.draft.length) ui.hintPiece[1].forEach((p) => { marks[p] = (marks[p] || "") + " hinted"; });
  const big = boardFigure(board, marks, (p) => {
    if (!myTurn || !tappable.has(p)) return null;
    return el("button", {type: "button", "data-point": String(p), "aria-label": t("pr_point_at", {row: Math.floor(p / 5) + 1, col: p % 5 + 1}),
      onclick: () => {    // a point shared by several spots: each tap shows the next one
        const at = [...here.keys()].filter((k) => here.get(k).cells.includes(p));
        const i = at.indexOf(ui.preview);
        ui.preview = at[(i + 1) % at.length];
        ctx.render();
      }});
  }, "large");
  table.append(el("div", {class: "pr-big-head"}, el("b", {}, boardLabel(board)),
    el("span", {}, t("pr_tokens", {n: board.tokens}))), big);

  if (!me) return;
  // the rack: one button per piece (taps pick it; a picked piece shows its current rotation)
  const rackBox = el("div", {class: "pr-rack", "aria-label": t("pr_rack")});
  const seen = {};
  const shown = rack.slice().sort();
  if (!solitaire && jokers > 0) shown.push(JOKER);
  for (const sid of shown) {
    seen[sid] = (seen[sid] || 0) + 1;
    const spent = sid !== JOKER || solitaire ? seen[sid] <= (used[sid] || 0) : left(JOKER) <= 0;
    const picked = ui.sel === sid && !spent && (sid === JOKER && !solitaire || seen[sid] === (used[sid] || 0) + 1);
    const swapMove = ui.swap ? swaps.find((m) => m[1] === sid) : null;
    // the jokers as the score line counts them (★6); while a figure holds some, how many are still free of 6
    const label = sid === JOKER ? (solitaire ? t("pr_joker") : used[JOKER] ? t("pr_jokers_free", {n: left(JOKER), of: jokers})
                                                                            : t("pr_jokers", {n: jokers})) : "";
    const figure = pieceFigure(sid, picked ? ui.rot : 0);
    if (swapMove) {
      rackBox.append(ctx.moveButton(swapMove, figure, {class: "pr-rack-piece give", "data-piece": sid,
        "aria-label": t("pr_give") + " — " + pieceName(sid, 0)}));
      continue;
    }
    const can = myTurn && !spent && playable(sid);
    rackBox.append(el("button", {type: "button", class: "pr-rack-piece" + (picked ? " on" : "") + (can ? " can" : "") + (spent ? " spent" : "") + (sid === JOKER ? " joker" : ""),
      "data-piece": sid, "aria-pressed": picked ? "true" : "false", disabled: spent || ui.swap,
      onclick: () => { if (ui.sel === sid) return; ui.sel = sid; ui.rot = 0; ui.preview = null; ui.turned = false; ui.pinned = false; ctx.render(); }},
    el("span", {class: "visually-hidden"}, pieceName(sid, picked ? ui.rot : 0)), figure, label ? el("small", {}, label) : null));
  }
  controls.append(el("div", {class: "pr-label"}, t("pr_rack")), rackBox);
  if (!myTurn) return;

  const say = [];
  const actions = el("div", {class: "pr-actions"});
  if (ui.swap) {
    say.push(solitaire ? t("pr_swap_pick") : t("pr_stuck") + " " + t("pr_swap_pick"));
    if (solitaire) actions.append(el("button", {type: "button", class: "pr-btn", onclick: () => { ui.swap = false; ctx.render(); }}, t("pr_cancel")));
  } else if (placing) {
    if (ui.sel !== null && rotations(ui.sel).length > 1) {
      actions.append(el("button", {type: "button", class: "pr-btn pr-rotate", "aria-label": t("pr_rotate"),
        onclick: () => { ui.rot = (ui.rot + 1) % rotations(ui.sel).length; ui.preview = null; ui.turned = true; ctx.render(); }}, t("pr_rotate")));
    }
    if (preview && preview.move && preview.move[0] === "add") {    // P7: the piece joins the figure (the last completes it)
      const left = board.points.length - board.covered.length - staged.reduce((n, p) => n + p[1].length, 0);
      actions.append(ctx.moveButton(preview.move, preview.cells.length === left ? t("pr_place") : t("pr_add"),
        {class: "pr-btn pr-go" + (preview.cells.length === left ? "" : " pr-add")}));
    } else if (preview && preview.move) {
      actions.append(ctx.moveButton(preview.move, t("pr_place"), {class: "pr-btn pr-go"}));
    } else if (preview) {
      actions.append(el("button", {type: "button", class: "pr-btn pr-go pr-add", onclick: () => {
        ui.draft.push([ui.sel, preview.cells]); ui.preview = null; ctx.render();
      }}, t("pr_add")));
    }
    if (takeBack) {
      actions.append(ctx.moveButton(takeBack, t("pr_undo"), {class: "pr-btn pr-take-back"}));
    } else if (ui.draft.length && solitaire) {
      actions.append(el("button", {type: "button", class: "pr-btn", onclick: () => { ui.draft = []; ui.preview = null; ctx.render(); }}, t("pr_undo")));
    }
  }
  if (!ui.swap && placing) {
    if (!solitaire && staged.length && !takeBack) say.push(t("pr_must_finish"));   // P7b: 3 take-backs used
    if (ui.sel === null) say.push(t("pr_pick_piece"));
    else if (here.size) say.push(composing ? t("pr_compose_on", {n: ui.draft.length}) : t("pr_pick_spot"));
    else say.push(playable(ui.sel) ? t("pr_no_spot") : t("pr_no_spot_any"));
    if (multi && !solitaire && !staged.length) {     // no piece laid yet: the player may start a figure, or not
      actions.append(el("button", {type: "button", class: "pr-btn pr-compose" + (ui.compose ? " on" : ""), "aria-pressed": ui.compose ? "true" : "false",
        onclick: () => { ui.compose = !ui.compose; ui.preview = null; ctx.render(); }},
      ui.compose ? t("pr_compose_off") : t("pr_compose")));
    }
  } else if (!solitaire && !ui.swap) {
    say.push(swaps.length ? t("pr_stuck") : t("pr_stuck_pass"));
  }
  if (!ui.swap && swaps.length && solitaire) {
    actions.append(el("button", {type: "button", class: "pr-btn pr-swap", onclick: () => { ui.swap = true; ui.preview = null; ui.draft = []; ctx.render(); }}, t("pr_swap")));
  }
  if (pass) actions.append(ctx.moveButton(pass, t("pr_pass"), {class: "pr-btn pr-pass"}));
  if (solitaire) {
    actions.append(el("button", {type: "button", class: "pr-btn pr-hint", onclick: () => askHint(ctx)},
      ui.hints >= 1 && ui.hint && ui.hint.solvable ? t("pr_hint_more") : t("pr_hint")));
  }
  controls.append(el("div", {class: "pr-say"}, say.join(" ")), actions);
  if (ui.hint) controls.append(el("div", {class: "pr-hint-text" + (ui.hint.solvable ? " yes" : ui.hint.solvable === false ? " no" : ""), role: "status"}, ui.hint.message));
}

async function askHint(ctx) {
  const more = ui.hints >= 1 && ui.hint && ui.hint.solvable;
  const res = await ctx.call("GET", `/api/games/rooms/${ctx.code}/hint` + (more ? "?show=1" : ""));
  if (!res.ok) { ctx.say(res.data.message); return; }
  ui.hint = res.data; ui.hints += 1;
  ui.hintPiece = res.data.piece || null;
  if (ui.hintPiece) {     // the piece of the hint is picked, turned and shown where it goes: "Ajouter" is one tap away
    const [sid, cells] = ui.hintPiece;
    ui.sel = sid;
    ui.rot = Math.max(0, rotations(sid).indexOf(sid === JOKER ? "0" : cellsPattern(cells)));
    ui.preview = cells.join(",");
  }
  ctx.render();
}

function scoreLine(table, room, seat) {
  const v = room.view;
  if (v.players === 1) {
    const line = [t("pr_swaps", {n: v.swaps}), t("pr_pile", {n: v.pile})];
    table.append(el("div", {class: "pr-info"}, line.join(" · ")));
    return;
  }
  const list = el("ol", {class: "pr-scores"});
  const movers = room.to_move || [];
  for (let s = 0; s < v.players; s++) {
    list.append(el("li", {class: (movers[0] === s ? "on " : "") + (s === seat ? "me" : "")},
      el("span", {class: "n"}, seatName(room, s)),
      el("b", {}, String(v.won[s])), el("span", {class: "j", "aria-label": t("pr_jokers", {n: v.jokers[s]})}, "★" + v.jokers[s])));
  }
  table.append(list);
}

/* the solitaire's first move: pick a 12- or 16-point board (each choice a data-move button) */
function chooser(ctx) {
  const {me, myTurn, controls} = ctx;
  if (!me || !myTurn) return;
  controls.append(el("div", {class: "pr-say"}, t("pr_choose")));
  const box = el("div", {class: "pr-choices"});
  for (const move of me.legal.filter((m) => m[0] === "choose")) {
    const letter = move[1];
    const b = {letter, points: BOARD_POINTS[letter] || [], covered: []};
    box.append(ctx.moveButton(move, "", {class: "pr-choice"}));
    const button = box.lastChild;      // named by what it shows ("C 12"), said in full to a screen reader
    button.append(el("span", {class: "visually-hidden"}, t("pr_board", {letter}) + " — "),
                  el("span", {class: "pr-thumb-name"}, letter, el("small", {}, " " + (BOARD_POINTS[letter] || []).length)),
                  boardFigure(b, null, null, "small"));
  }
  controls.append(box);
}

// the boards' figures (RULES 5b; pieces.py BOARD_FIGURES): the solitaire's chooser, and a board that left the table
const BOARD_FIGURES = {
  "A": "ooooo/o.o.o/o...o/o.o.o/ooooo", "B": "oo.oo/ooooo/...../ooooo/oo.oo", "C": "ooooo/o...o/o...o/o...o/ooooo",
  "D": "ooooo/.o.o./...../.o.o./ooooo", "E": ".ooo./o...o/oo.oo/o...o/.ooo.", "F": "..o../.ooo./oo.oo/.ooo./..o..",
  "G": "o.o.o/.o.o./o...o/.o.o./o.o.o", "H": "oo.oo/o...o/...../o...o/oo.oo", "I": "o...o/oo.oo/...../oo.oo/o...o",
  "J": "..o../.ooo./o...o/.ooo./..o..", "K": "ooooo/...../...../...../ooooo", "L": "ooo../o.o../ooo../...../.....",
  "M": "..o../.o.o./o...o/.o.o./..o..", "N": "o.o../...../o.o../...../o.o..",
};
/* a board that has left the table, every point covered */
function doneBoard(letter) {
  const points = BOARD_POINTS[letter] || [];
  return {letter, value: points.length, points, covered: points, tokens: points.length};
}
const BOARD_POINTS = {};
for (const [letter, fig] of Object.entries(BOARD_FIGURES)) {
  BOARD_POINTS[letter] = [];
  fig.split("/").forEach((row, r) => [...row].forEach((ch, c) => { if (ch === "o") BOARD_POINTS[letter].push(r * 5 + c); }));
}

// ---------------------------------------------------------------- projector
function screen(ctx) {
  const {room, table, players, fresh} = ctx;
  const v = room.view;
  const key = v.boards.map((b) => b.letter).join("") + "|" + v.completed.length;
  const changed = fresh(key);              // only to animate: what is new comes from the server (v.arrived)
  const row = el("div", {class: "pr-screen-boards n" + v.boards.length});
  if (v.completed.length && !(room.status === "over" && v.players > 1)) {   // at the end the winner's banner says it
    const [s, letter] = v.completed[v.completed.length - 1];
    const gone = doneBoard(letter);
    table.append(el("div", {class: "pr-took" + (changed ? " arrive" : "")},
      v.players === 1 ? t("pr_solitaire_won") : t("pr_took", {name: seatName(room, s), letter, n: gone.value})));
    if (v.players === 1) {        // the solitaire's figure, done
      row.append(el("figure", {class: "pr-screen-board", "data-board": letter},
        el("figcaption", {}, el("b", {}, letter), " " + t("pr_points", {n: gone.value})), boardFigure(gone, null, null, "screen")));
    } else {                      // the board taken leaves: drawn full, small and fading, beside the banner
      table.lastChild.prepend(boardFigure(gone, null, null, "gone" + (changed ? " leave" : "")));
    }
  } else if (v.players === 1 && room.status === "over") {
    table.append(el("div", {class: "pr-took"}, t("pr_solitaire_lost")));
  }
  for (const b of v.boards) {
    const arrive = changed && b.letter === v.arrived;
    // a figure being laid piece by piece (P7) is the mover's alone until it completes the board (P7c)
    row.append(el("figure", {class: "pr-screen-board" + (arrive ? " arrive" : ""), "data-board": b.letter},
      el("figcaption", {}, el("b", {}, b.letter), " " + t("pr_points", {n: b.value})),
      boardFigure(b, null, null, "screen"),
      el("div", {class: "pr-screen-tokens"}, el("span", {"aria-label": t("pr_tokens", {n: b.tokens})}, "● " + b.tokens),
        b.letter === v.arrived ? el("span", {class: "pr-new"}, t("pr_new_board")) : null)));
  }
  if (v.phase === "choose") row.append(el("div", {class: "pr-took"}, t("pr_choose")));
  table.append(row);
  const info = [t("pr_pile", {n: v.pile})];
  if (v.players > 1) info.push(t("pr_stack", {n: v.boards_in_stack}));
  else info.push(t("pr_swaps", {n: v.swaps}));
  if (v.players > 1) info.push(t("pr_star"));
  table.append(el("div", {class: "pr-screen-info"}, info.join(" · ")));
  const movers = room.to_move || [];
  for (let s = 0; s < v.players; s++) {
    players.append(el("li", {class: (movers[0] === s ? "on " : "") + (room.seats[s] && room.seats[s].bot ? "bot" : "")},
      el("span", {class: "n"}, seatName(room, s)),
      el("span", {class: "c", "aria-label": t("pr_tokens", {n: v.won[s]}) + (v.players > 1 ? ", " + t("pr_jokers", {n: v.jokers[s]}) : "")},
        el("span", {class: "pr-red"}, "●"), " " + v.won[s] + (v.players > 1 ? "  ★" + v.jokers[s] : ""))));
  }
}

games["points-rouges"] = {phone, screen};
