// Cards that travel: a discard from the hand (or the other seat's panel) to the centre, a
// card turned from the stock (底牌) to the centre, a card passed to a seat's 出牌 pile, and a
// claimed group (吃/碰/偎/跑/提) to the claimer's groups. FLIP with the Web Animations API:
// the source box is measured when the live event arrives (the table still shows the moment
// before), the target box after the table has re-rendered with it; a fixed-position copy
// of the target flies between them by transform only. The real table updates at once; the
// copy is decoration (pointer-events none, aria-hidden, removed when it lands).

const DURATION = 280; // ms
const EASING = "cubic-bezier(.2, .8, .2, 1)"; // fast out, soft landing
const MAX_FLYING = 3; // more at once: the oldest is cancelled
const WAIT_MS = 1500; // an event whose table never shows up in time flies nowhere
const MELDS = new Set(["chi", "peng", "wei", "pao", "ti"]);

let pending = []; // [{seq, ev, from, at, before}]: noted, waiting for their table
let flying = []; // [{done}]: the copies in the air
let chosen = null; // {face, box}: the hand card this page just discarded (picked, then sent)
let lastDraw = null; // the last draw noted: a 偎/提/跑 right after it takes the drawn card

// A page sent to the background lands every card at once (and notes nothing while hidden).
if (typeof document !== "undefined") {
  document.addEventListener("visibilitychange", () => { if (document.hidden) resetMotion(); });
}

/** Whether cards may fly now: motion allowed, the page visible, the API there. */
export function motionAllowed() {
  if (typeof document === "undefined" || document.hidden) return false;
  if (typeof Element.prototype.animate !== "function") return false;
  return !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

function box(el) {
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 ? { left: r.left, top: r.top, width: r.width, height: r.height } : null;
}

function last(selector, face) {
  const all = [...document.querySelectorAll(selector)].filter((e) => !face || e.dataset.face === face);
  return all.length ? all[all.length - 1] : null;
}

const panelOf = (seat) => document.querySelector(`.table .seat-panel[data-seat="${seat}"]`);
const offerCard = (face) => document.querySelector(`.table .offer .card[data-face="${face}"]`);
const groupLabels = (seat) => [...document.querySelectorAll(
  `.table .seat-panel[data-seat="${seat}"] .seat-groups > .group`)].map((g) => g.getAttribute("aria-label"));

/** Where an event's card starts: {exact} a card's own box, or {area} a box to start inside. */
function source(ev, me) {
  const panel = box(panelOf(ev.seat));
  const mine = me !== null && me !== undefined && ev.seat === me;
  if (ev.kind === "draw") {
    const b = box(document.querySelector(".table .center-info .stock"));
    return b && { area: b };
  }
  if (ev.kind === "discard") {
    if (mine) {
      const card = last(".hand .hand-card", ev.face);
      const b = chosen && chosen.face === ev.face ? chosen.box : box(card && card.querySelector(".card"));
      chosen = null;
      if (b) return { exact: b };
    }
    return panel && { area: panel };
  }
  if (ev.kind === "pile") {
    const b = box(offerCard(ev.face));
    return b && { exact: b };
  }
  if (MELDS.has(ev.kind)) {
    const offered = box(ev.face ? offerCard(ev.face) : null);
    if (offered) return { exact: offered };
    if (lastDraw && lastDraw.seq === ev.seq - 1 && lastDraw.from) return lastDraw.from;
    const hand = mine ? box(document.querySelector(".table .hand")) : null;
    if (hand) return { area: hand };
    return panel && { area: panel };
  }
  return null;
}

/** The element an event's card lands on, in the table as it is now (null: not shown). */
function target(p) {
  const { ev } = p;
  const pile = `.table .seat-panel[data-seat="${ev.seat}"] .seat-pile .card`;
  if (ev.kind === "discard" || ev.kind === "draw") return offerCard(ev.face) || last(pile, ev.face);
  if (ev.kind === "pile") return last(pile, ev.face);
  if (MELDS.has(ev.kind)) {
    const groups = [...document.querySelectorAll(
      `.table .seat-panel[data-seat="${ev.seat}"] .seat-groups > .group`)];
    const before = new Map();
    for (const l of p.before) before.set(l, (before.get(l) || 0) + 1);
    for (const g of groups) { // the first group the table did not show before
      const l = g.getAttribute("aria-label");
      if (before.get(l)) before.set(l, before.get(l) - 1); else return g;
    }
    return null;
  }
  return null;
}

/** This page is about to discard: remember the picked card's box (the table redraws it). */
export function noteChoice() {
  const card = document.querySelector(".hand-card.selected") || document.activeElement;
  const isHand = card && card.classList && card.classList.contains("hand-card");
  const b = isHand ? box(card.querySelector(".card") || card) : null; // the card, not its 44 px slot
  chosen = b ? { face: card.dataset.face, box: b } : null;
}

/**
 * A live event (never one caught up after a connect, a reload or a resync): measure where
 * its card is now. ``me``: the seat at the bottom (null: a spectator).
 */
export function noteEvent(msg, me) {
  if (!motionAllowed()) { pending = []; return; }
  const ev = msg.event;
  if (!ev || ev.seat === undefined) return;
  const from = source({ ...ev, seq: msg.seq }, me);
  if (ev.kind === "draw") lastDraw = { seq: msg.seq, from };
  if (!from) return;
  const before = MELDS.has(ev.kind) ? groupLabels(ev.seat) : [];
  pending.push({ seq: msg.seq, ev, from, at: performance.now(), before });
  if (pending.length > MAX_FLYING * 2) pending.splice(0, pending.length - MAX_FLYING * 2);
}

/** Forget every noted event and land every card now (a new game, leaving the table). */
export function resetMotion() {
  pending = [];
  lastDraw = null;
  chosen = null;
  for (const f of flying.slice()) f.done();
}

/** After a render: fly the noted events that the table now shows (``seq``: its last event). */
export function landEvents(seq) {
  if (!pending.length) return;
  if (!motionAllowed()) { pending = []; return; }
  const now = performance.now();
  const ready = pending.filter((p) => seq !== null && seq !== undefined && p.seq <= seq);
  pending = pending.filter((p) => !ready.includes(p) && now - p.at < WAIT_MS);
  for (const p of ready.slice(-MAX_FLYING)) {
    const el = target(p);
    if (el) fly(p, el);
  }
}

/** The first box: the exact source, or the target's shape centred inside the source area. */
function startBox(from, to) {
  if (from.exact) return from.exact;
  const a = from.area;
  const k = Math.min(1, a.width / to.width, a.height / to.height);
  const w = to.width * k;
  const h = to.height * k;
  return { left: a.left + (a.width - w) / 2, top: a.top + (a.height - h) / 2, width: w, height: h };
}

function fly(p, el) {
  // The target's own entrance (CSS pop/deal) would move its box: the flight replaces it.
  for (const a of el.getAnimations ? el.getAnimations() : []) a.cancel();
  const to = box(el);
  if (!to) return;
  const from = startBox(p.from, to);
  while (flying.length >= MAX_FLYING) flying[0].done(); // bounded: the oldest lands now
  const clone = el.cloneNode(true);
  clone.classList.add("flying");
  clone.classList.remove("enter", "selected");
  clone.removeAttribute("id");
  clone.setAttribute("aria-hidden", "true");
  clone.dataset.flight = p.ev.kind;
  clone.dataset.seat = String(p.ev.seat);
  if (p.ev.face) clone.dataset.face = p.ev.face;
  Object.assign(clone.style, {
    left: `${to.left}px`, top: `${to.top}px`, width: `${to.width}px`, height: `${to.height}px`,
  });
  document.body.appendChild(clone);
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  const sx = from.width / to.width;
  const sy = from.height / to.height;
  const move = clone.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})` }, { transform: "none" }],
    { duration: DURATION, easing: EASING },
  );
  // The real card waits, invisible, under its copy (an animation: nothing of the DOM is touched).
  const hide = el.animate([{ opacity: 0 }, { opacity: 0 }], { duration: DURATION });
  const f = {
    done() { // idempotent: finished, cancelled, or pushed out by a newer flight
      flying = flying.filter((x) => x !== f);
      move.onfinish = null;
      move.cancel();
      hide.cancel();
      clone.remove();
    },
  };
  flying.push(f);
  move.onfinish = f.done;
}
