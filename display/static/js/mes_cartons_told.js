/* What the hall told « Mes cartons » of each of its cartons (display/cartons.py): the newest standing by its record
   (`at`), held until the page has that record itself — a ball and its verdicts are shown together. Nothing here
   judges: a standing is the hall's claim check, kept as it came. */

const told = {};             // card_id → its standing, shown (the page has its record)
const ahead = {};            // card_id → a standing of a record the page has not had yet

const pageSeq = () => (document.body.dataset.seq === undefined ? -1 : Number(document.body.dataset.seq));

/* a standing told by the hall (``cartons`` items, a ``carton``) */
export function hallSays(c) {
  if (!c || typeof c.at !== "number") return;
  const kept = c.at <= pageSeq() ? told : ahead;
  if (!kept[c.card_id] || kept[c.card_id].at <= c.at) kept[c.card_id] = c;
  caughtUp();
}

/* the page has a new record: the standings held for it are shown now */
export function caughtUp() {
  const seq = pageSeq();
  for (const [cid, c] of Object.entries(ahead)) {
    if (c.at <= seq) { if (!told[cid] || told[cid].at <= c.at) told[cid] = c; delete ahead[cid]; }
  }
}

/* the standing shown for a carton, or null */
export const toldOf = (cardId) => told[cardId] || null;
