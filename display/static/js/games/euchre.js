/* Bid Euchre (RULES §2): the table on the phone and on the projector, and the referee's actions in the speaker's
   console. Seats 0 and 2 play against 1 and 3; partners face each other. Every control that plays is a
   ctx.moveButton carrying the move exactly as listed in `legal`; only the legal cards are enabled. */
import {ask} from "../ask.js";
import {el, t} from "../common.js";
import {games, seatName} from "../room_common.js";

const SIGN = {S: "♠", H: "♥", D: "♦", C: "♣"};
const SUITS = ["S", "H", "D", "C"], RANKS = ["J", "Q", "K", "A"];
const SUIT_WORD = Object.fromEntries(SUITS.map((s) => [s, t("eu_word_" + s)]));
const RANK = Object.fromEntries(RANKS.map((r) => [r, t("eu_rank_" + r)]));   // V D R A: the hall's own letters
const RANK_WORD = Object.fromEntries(RANKS.map((r) => [r, t("eu_word_" + r)]));
const key = (m) => JSON.stringify(m);
const sameCards = (a, b) => key([...a].sort()) === key([...b].sort());

// the phone's own choices while it is its turn (never sent: only the move they lead to is)
const pick = {turn: "", cards: [], level: null, showLast: false};

function cardText(c) { return RANK[c[0]] + SIGN[c[1]]; }
function cardWords(c) { return t("eu_card_words", {rank: RANK_WORD[c[0]], suit: SUIT_WORD[c[1]]}); }
function cardEl(c, cls) {
  return el("span", {class: "eu-card" + (c[1] === "H" || c[1] === "D" ? " red" : " black") + (cls ? " " + cls : ""),
                     role: "img", "aria-label": cardWords(c)}, el("b", {}, RANK[c[0]]), el("i", {}, SIGN[c[1]]));
}
/* a card button's name: the glyphs it shows (what a voice-control user says), then the card in words */
const cardName = (c) => cardText(c) + " — " + cardWords(c);
function denomText(d, short) {
  if (SIGN[d]) return SIGN[d];
  return t("eu_" + d + (short ? "_short" : ""));
}
function bidText(move) {
  if (move[0] === "bid") return move[1] + " " + denomText(move[2], true);
  if (move[0] === "call") return t(move[1] === 2 ? "eu_call2_short" : "eu_call1_short");
  if (move[0] === "moon") return t("eu_moon_short");
  return t("eu_passed");
}
function contractText(room, c) {
  const level = c.level <= 8 ? c.level + " " : c.level === 9 ? t("eu_call2_short") + " " :
    c.level === 10 ? t("eu_call1_short") + " " : t("eu_moon_short") + " ";
  const denom = c.denom ? denomText(c.denom, true) : "…";
  return t("eu_by", {name: seatName(room, c.seat), bid: (level + denom).trim()});
}
function teamName(room, team) { return t("eu_team", {a: seatName(room, team), b: seatName(room, team + 2)}); }
function bidOf(v, seat) { const b = v.bids.find((x) => x[0] === seat); return b ? b[1] : null; }

/* the four seats around the trick: `bottom` is the seat drawn at the bottom (the phone's own) */
function compass(room, v, bottom, showLast, big) {
  const movers = room.status === "playing" ? (room.to_move || []) : [];
  const plays = showLast ? v.last_trick : v.trick;
  const pos = ["s", "w", "n", "e"];                // seat bottom, then clockwise: the next player sits left
  const box = el("div", {class: "eu-compass" + (big ? " big" : "") + (showLast ? " last" : "")
                              + (v.phase === "play" || showLast ? "" : " quiet")});
  const middle = el("div", {class: "eu-trick", role: "group", "aria-label": t(showLast ? "eu_last_trick" : "eu_trick")});
  for (let k = 0; k < 4; k++) {
    const seat = (bottom + k) % 4;
    const bid = bidOf(v, seat);
    const tags = [];
    if (v.dealer === seat) tags.push(el("span", {class: "eu-dealer", title: t("eu_dealer")}, big ? t("eu_dealer") : t("eu_dealer").charAt(0).toUpperCase()));
    if (v.sitting_out === seat) tags.push(el("span", {class: "eu-out"}, t("eu_out")));
    else if (v.contract && v.contract.seat === seat && v.contract.level > 8) tags.push(el("span", {class: "eu-alone"}, t("eu_alone")));
    if (bid && v.phase === "bid") tags.push(el("span", {class: "eu-bid" + (bid[0] === "pass" ? " pass" : "")}, bidText(bid)));
    if (big && v.phase !== "over") tags.push(el("span", {class: "eu-count"}, t("eu_cards", {n: v.hand_sizes[seat]})));
    box.append(el("div", {class: `eu-seat eu-${pos[k]} team-${seat % 2}` + (movers.includes(seat) ? " on" : "")
                                + (v.sitting_out === seat ? " sitting" : ""), "data-seat": String(seat)},
      el("span", {class: "n"}, seatName(room, seat)), el("span", {class: "tags"}, ...tags)));
    const played = plays.find((p) => p[0] === seat);
    middle.append(el("div", {class: `eu-slot eu-${pos[k]}`}, played ? cardEl(played[1], "team-" + (seat % 2)) : ""));
  }
  if (showLast && v.last_trick.length) {
    middle.append(el("div", {class: "eu-took"}, t("eu_took", {name: seatName(room, winnerOf(v))})));
  }
  box.append(middle);
  return box;
}

/* who took the last trick: the seat that leads now (the trick winner leads, RULES E8), or the last hand's record */
function winnerOf(v) {
  if (v.trick.length) return v.trick[0][0];
  if (v.phase === "play") return v.to_move[0];
  return null;
}

function scores(room, v, mine) {
  const box = el("div", {class: "eu-scores"});
  [0, 1].forEach((team) => box.append(el("div", {class: "eu-team team-" + team + (mine === team ? " mine" : "")},
    el("span", {class: "n"}, teamName(room, team)),
    el("b", {}, t("eu_points", {n: String(v.scores[team]).replace("-", "−")})),
    el("small", {}, t("eu_tricks", {n: v.tricks[team]})))));
  return box;
}

function info(room, v) {
  const parts = [t("eu_hand_n", {n: Math.min(v.hand, v.hands), total: v.hands})];
  parts.push(v.contract ? t("eu_contract") + " · " + contractText(room, v.contract) : t("eu_no_contract"));
  return parts;
}

// ---------------------------------------------------------------- phone
function phone(ctx) {
  const {room, me, myTurn, table, controls, moveButton, render} = ctx;
  const v = me || room.view;
  const bottom = me ? me.seat : 0;
  const turnKey = `${room.version}`;
  if (pick.turn !== turnKey) { pick.turn = turnKey; pick.cards = []; pick.level = null; }
  const top = el("div", {class: "eu-info"}, ...info(room, v).map((p) => el("span", {}, p)));
  if (v.contract && v.contract.denom && SIGN[v.contract.denom]) {
    top.append(el("span", {class: "eu-trump " + (v.contract.denom === "H" || v.contract.denom === "D" ? "red" : "black")},
      t("eu_trump") + " " + SIGN[v.contract.denom]));
  }
  table.append(top, scores(room, v, me ? me.seat % 2 : null));
  if (v.time_called && v.phase !== "over") table.append(el("div", {class: "eu-note"}, t("eu_time")));
  const hasLast = v.last_trick.length > 0;
  const showLast = pick.showLast && hasLast;
  table.append(compass(room, v, bottom, showLast, false));
  if (v.phase === "play" || hasLast) {
    const toggle = el("button", {type: "button", class: "eu-toggle", id: "eu-last", "aria-pressed": showLast ? "true" : "false",
                                 disabled: !hasLast}, showLast ? t("eu_show_trick") : t("eu_last_trick"));
    toggle.addEventListener("click", () => { pick.showLast = !showLast; render(); });
    table.append(toggle);
  }
  if (!me) return;
  const partner = (me.seat + 2) % 4;
  controls.append(el("div", {class: "eu-partner"}, t("eu_partner", {name: seatName(room, partner)})));
  if (v.sitting_out === me.seat) controls.append(el("div", {class: "eu-note"}, t("eu_sitting_out")));
  const legal = myTurn ? me.legal : [];
  const hand = me.my_hand || [];
  const suits = me.my_suits || [];
  const trump = v.contract && SIGN[v.contract.denom] ? v.contract.denom : null;

  if (v.phase === "bid" && myTurn) bidding(controls, legal, moveButton, render);
  let need = 0, choose = null;
  if (myTurn && v.phase === "declare") { need = legal[0][2].length; choose = "declare"; }
  if (myTurn && v.phase === "give") { need = legal[0][1].length; choose = "give"; }
  if (choose && pick.cards.length !== need) pick.cards = hand.map((_, i) => i).slice(hand.length - need);
  const chosen = pick.cards.map((i) => hand[i]);
  if (choose === "declare") {
    controls.append(el("div", {class: "rp-label"}, need ? t("eu_declare", {n: need}) : t("eu_declare_moon")));
    const row = el("div", {class: "eu-denoms"});
    const denoms = [...new Set(legal.map((m) => m[1]))];
    for (const d of denoms) {
      const move = legal.find((m) => m[1] === d && sameCards(m[2], chosen));
      row.append(move ? moveButton(move, denomText(d, true), {class: "eu-denom" + (d === "H" || d === "D" ? " red" : "")})
        : el("button", {type: "button", class: "eu-denom", disabled: true}, denomText(d, true)));
    }
    controls.append(row);
  }
  if (choose === "give") {
    const caller = v.contract.seat;
    controls.append(el("div", {class: "rp-label"}, t("eu_give", {name: seatName(room, caller), n: need})));
  }
  if (!myTurn && v.phase === "give" && v.contract && v.contract.seat === me.seat) {
    controls.append(el("div", {class: "rp-label"}, t("eu_wait_give", {name: seatName(room, partner)})));
  }
  if (!myTurn && v.phase === "declare") {
    controls.append(el("div", {class: "rp-label"}, t("eu_wait_declare", {name: seatName(room, v.contract.seat)})));
  }
  if (myTurn && v.phase === "play") controls.append(el("div", {class: "rp-label"}, t("eu_play")));
  // the hand: cards to play, or to pick for a discard or a gift
  const grid = el("div", {class: "eu-hand" + (v.phase === "play" ? "" : " eu-look"), role: "group", "aria-label": t("hand")});
  hand.forEach((c, i) => {
    const cls = "rp-card eu-hcard " + (c[1] === "H" || c[1] === "D" ? "red" : "black") + (trump && suits[i] === trump ? " trump" : "")
      + (i > 0 && suits[i] !== suits[i - 1] ? " new-suit" : "");
    const face = [el("b", {}, RANK[c[0]]), el("i", {}, SIGN[c[1]])];
    if (choose && need) {
      const on = pick.cards.includes(i);
      const b = el("button", {type: "button", class: cls + (on ? " picked" : ""), "aria-pressed": on ? "true" : "false",
                              "aria-label": cardName(c)}, ...face);
      b.addEventListener("click", () => {
        pick.cards = on ? pick.cards.filter((k) => k !== i) : pick.cards.concat([i]).slice(-need);
        render();
      });
      grid.append(b);
      return;
    }
    const move = ["play", c];
    const listed = v.phase === "play" ? legal.find((m) => m[0] === "play" && m[1] === c) : null;
    const b = moveButton(listed || move, "", {class: cls, disabled: !listed, "aria-label": cardName(c)});
    b.append(...face);
    grid.append(b);
  });
  controls.append(grid);
  if (choose === "give") {
    const move = legal.find((m) => sameCards(m[1], chosen));
    controls.append(move ? moveButton(move, t("eu_give_button"), {class: "rp-big"})
      : el("button", {type: "button", class: "rp-big", disabled: true}, t("eu_give_button")));
  }
}

function bidding(controls, legal, moveButton, render) {
  const levels = [...new Set(legal.filter((m) => m[0] === "bid").map((m) => m[1]))];
  if (levels.length && !levels.includes(pick.level)) pick.level = levels[0];
  if (levels.length) {
    const row = el("div", {class: "eu-levels", role: "group", "aria-label": t("eu_levees")});
    for (const n of levels) {
      const b = el("button", {type: "button", class: "eu-level" + (n === pick.level ? " on" : ""),
                              "aria-pressed": n === pick.level ? "true" : "false"}, String(n));
      b.addEventListener("click", () => { pick.level = n; render(); });
      row.append(b);
    }
    controls.append(row, el("div", {class: "rp-label"}, t("eu_denom_for", {n: pick.level})));
    const denoms = el("div", {class: "eu-denoms"});
    legal.filter((m) => m[0] === "bid" && m[1] === pick.level).forEach((m) => {
      const shown = SIGN[m[2]] ? m[1] + " " + SIGN[m[2]] : m[1] + " " + denomText(m[2], true);
      denoms.append(moveButton(m, shown, {class: "eu-denom" + (m[2] === "H" || m[2] === "D" ? " red" : ""),
        "aria-label": shown + " — " + m[1] + " " + (SIGN[m[2]] ? SUIT_WORD[m[2]] : t("eu_" + m[2]))}));
    });
    controls.append(denoms);
  }
  const calls = el("div", {class: "eu-calls"});
  const pass = legal.find((m) => m[0] === "pass");
  if (pass) calls.append(moveButton(pass, t("eu_pass"), {class: "eu-call eu-pass"}));
  legal.filter((m) => m[0] === "call" || m[0] === "moon").forEach((m) => calls.append(
    moveButton(m, m[0] === "moon" ? t("eu_moon") : t(m[1] === 2 ? "eu_call2" : "eu_call1"), {class: "eu-call"})));
  if (calls.childElementCount) controls.append(calls);
  if (!pass) controls.append(el("div", {class: "eu-note"}, t("eu_stuck")));
}

// ---------------------------------------------------------------- projector
function screen(ctx) {
  const {room, table, fresh} = ctx;        // the teams and their scores go in the side column, not ctx.players
  const v = room.view;
  const arrive = fresh(`${v.hand}:${key(v.trick)}:${key(v.last_trick)}:${v.phase}`);
  const side = el("div", {class: "eu-side"});
  side.append(el("div", {class: "eu-hands"}, t("eu_hand_n", {n: Math.min(v.hand, v.hands), total: v.hands})));
  const contract = el("div", {class: "eu-contract"}, el("div", {class: "lbl"},
    v.phase === "over" ? t("game_over") : t(v.contract ? "eu_contract" : "eu_no_contract")));
  if (v.contract) {
    contract.append(el("div", {class: "val"}, contractText(room, v.contract)));
    if (v.contract.denom) {
      contract.append(el("div", {class: "eu-trump-big " + (v.contract.denom === "H" || v.contract.denom === "D" ? "red" : "black")},
        SIGN[v.contract.denom] ? t("eu_trump") + " " + SIGN[v.contract.denom] : denomText(v.contract.denom, false)));
    }
  }
  side.append(contract);
  if (v.last_trick.length) {
    const last = el("div", {class: "eu-lastbox"}, el("div", {class: "lbl"}, t("eu_last_trick")));
    last.append(el("div", {class: "cards"}, ...v.last_trick.map((p) => cardEl(p[1], "team-" + (p[0] % 2)))));
    const who = winnerOf(v);
    if (who !== null) last.append(el("div", {class: "who"}, t("eu_took", {name: seatName(room, who)})));
    side.append(last);
  } else if (v.history.length) {
    const h = v.history[v.history.length - 1];
    side.append(el("div", {class: "eu-lastbox"}, el("div", {class: "lbl"}, t("eu_last_hand")),
      el("div", {class: "who"}, contractText(room, h.contract)),
      el("div", {class: "who"}, ...[0, 1].map((team) => el("span", {class: "eu-delta team-" + team},
        t("eu_points", {n: (h.points[team] > 0 ? "+" : "") + String(h.points[team]).replace("-", "−")}))))));
  }
  side.append(scores(room, v, null));
  if (v.time_called && v.phase !== "over") side.append(el("div", {class: "eu-note"}, t("eu_time")));
  const board = compass(room, v, 0, false, true);
  if (arrive) board.classList.add("arrive-trick");
  table.append(el("div", {class: "eu-screen"}, board, side));
}

// ---------------------------------------------------------------- the speaker's console: the referee's actions
function staff(ctx) {
  const {code, api, say} = ctx;
  const box = el("span", {class: "eu-referee"});
  const open = el("button", {type: "button", "data-referee": code}, t("eu_referee"));
  box.append(open);
  async function load() {
    const res = await api("GET", `/api/games/rooms/${code}/official`);
    if (!res.ok) { say(res.data.message); return; }
    box.replaceChildren();
    if (!res.data.officials.length) { box.append(el("span", {}, t("eu_referee_none")), open); return; }
    const select = el("select", {"aria-label": t("eu_referee_pick"), "data-referee-list": code},
      el("option", {value: ""}, t("eu_referee_pick")),
      ...res.data.officials.map((o, i) => el("option", {value: String(i)}, o.label)));
    const apply = el("button", {type: "button", class: "danger", "data-referee-apply": code}, t("eu_referee_apply"));
    apply.addEventListener("click", async () => {
      const chosen = res.data.officials[parseInt(select.value, 10)];
      if (!chosen || !await ask(t("eu_referee_confirm", {label: chosen.label}), {danger: true})) return;
      const done = await api("POST", `/api/games/rooms/${code}/official`, {move: chosen.move, version: res.data.version});
      say(done.ok ? "" : done.data.message);
      load();
    });
    box.append(select, apply);
  }
  open.addEventListener("click", load);
  return box;
}

games.euchre = {phone, screen, staff};
