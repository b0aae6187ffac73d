// The table: every seat's groups, piles and hand sizes, the card on offer, the hand in
// columns, the claim bar and the 听牌 hint. Used live and by the replay viewer.
import { html, useEffect, useState } from "./vendor/htm-preact-standalone.js";
import { Card, Group, cardName, faceIndex, glyphs, handColumns } from "./cards.js";
import { t } from "./i18n.js";

/** Seats as a player calls them: 你, 下家 (plays after you), 上家 (plays before you);
 * without a name, numbered from 1. */
export function seatWord(seat, me, names) {
  const nick = names && names[seat] ? names[seat] : t("seat_n", { n: seat + 1 });
  if (me === null || me === undefined) return nick;
  const rel = (seat - me + 3) % 3;
  return rel === 0 ? t("you") : `${rel === 1 ? t("xiajia") : t("shangjia")} ${nick}`;
}

// 胡息 by group kind, [small, big] (RULES.md §2); 吃/比 score only as 一二三 or 二七十.
const HUXI = { 提: [9, 12], 跑: [6, 9], 偎: [3, 6], 臭偎: [3, 6], 坎: [3, 6], 碰: [1, 3] };
const SCORING = ["1,2,3", "2,7,10"];

/** 胡息 of one table group ("碰:五五五"); null when its faces are hidden from us. */
export function groupHuxi(text) {
  const [kind, faces] = text.split(":");
  const fs = glyphs(faces).map(faceIndex);
  if (fs.some((f) => f < 0)) return null;
  const big = fs.length > 0 && fs.every((f) => f >= 10);
  if (HUXI[kind]) return HUXI[kind][big ? 1 : 0];
  const sizes = new Set(fs.map((f) => f >= 10));
  const nums = fs.map((f) => (f % 10) + 1).sort((a, b) => a - b).join(",");
  return sizes.size === 1 && SCORING.includes(nums) ? (big ? 6 : 3) : 0;
}

/** A seat's public 胡息: its table groups' sum, and whether some are face down to us. */
export function publicHuxi(groups) {
  let sum = 0;
  let hidden = false;
  for (const g of groups) {
    const h = groupHuxi(g);
    if (h === null) hidden = true; else sum += h;
  }
  return { sum, hidden };
}

/** A seat's clock as a bar draining to its deadline, with the seconds (every seat sees it). */
export function SeatClock({ deadline, total }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const id = setInterval(() => tick((n) => n + 1), 250);
    return () => clearInterval(id);
  }, [deadline]);
  const left = Math.max(0, (deadline - Date.now()) / 1000);
  const s = Math.ceil(left);
  const frac = total ? Math.min(1, left / total) : 1;
  return html`<span class=${`seat-clock ${s <= 5 ? "urgent" : ""}`} data-clock=${s} role="timer"
      aria-label=${t("seconds_left", { s })}>
    <span class="clock-bar"><span style=${`width: ${(frac * 100).toFixed(1)}%`}></span></span>
    <span class="clock-s">${s}</span></span>`;
}

/** An event in words ("上家 打出 五"); null for events not worth a line. */
export function eventWords(ev, me, names) {
  const who = ev.seat !== undefined ? seatWord(ev.seat, me, names) : "";
  const card = ev.face || t("ev_face_down");
  // A 吃's groups come as "吃:贰柒拾" (the notation): the faces, then the 比 groups after "比".
  const faces = (ev.groups || []).map((g) => g.slice(g.indexOf(":") + 1));
  const groups = faces.slice(0, 1).concat(faces.length > 1 ? [`${t("ev_bi")} ${faces.slice(1).join(" ")}`] : []).join("，");
  switch (ev.kind) {
    case "reveal": case "settle": return null;
    case "deal": return t("ev_deal", { who, card });
    default: return t(`ev_${ev.kind}`, { who, card, groups });
  }
}

/** The log's lines, worded now from its events ([{seq, ev}]): the same words whether the
 * events came live, in a reconnect's catch-up (before the seat was known) or from a replay. */
export function logLines(log, me, names) {
  return log.map((l) => ({ seq: l.seq, text: eventWords(l.ev, me, names) })).filter((l) => l.text);
}

/** Split a legal action's text: {kind, face, groups} (``吃:三四五 比:五五伍``). */
export function parseAction(text) {
  if (text === "胡" || text === "过") return { kind: text, groups: [] };
  const [head, rest] = text.split(":");
  if (head === "打" || head === "碰") return { kind: head, face: rest, groups: [] };
  const groups = text.split(" ").map((p) => p.replace(/^比:/, "比:").replace(/^吃:/, "吃:"));
  return { kind: "吃", groups };
}

/** Seconds left until ``deadline`` (this machine's clock), ticking. */
export function Countdown({ deadline }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const id = setInterval(() => tick((n) => n + 1), 250);
    return () => clearInterval(id);
  }, [deadline]);
  const s = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  return html`<span class=${`countdown ${s <= 5 ? "urgent" : ""}`} data-countdown=${s}>${t("seconds_left", { s })}</span>`;
}

function SeatPanel({ v, seat, me, names, pos, turn, hideHand, status, clock, total }) {
  const groups = v.tables[seat] || [];
  const pile = glyphs(v.piles[seat]);
  const dealer = v.dealer === seat;
  const dead = v.dead && v.dead[seat];
  const handCount = v.hand_sizes[seat];
  const handShown = v.hands[seat] && (hideHand ? false : seat !== me || v.phase === "over");
  const hx = publicHuxi(groups);
  return html`<section class=${`seat-panel ${pos} ${turn ? "turn" : ""}`} data-seat=${seat}
      aria-label=${seatWord(seat, me, names)}>
    <header class="seat-head">
      <span class="seat-name">${seatWord(seat, me, names)}</span>
      ${dealer && html`<span class="badge dealer" title=${t("dealer_long")} aria-label=${t("dealer_long")}>${t("dealer")}</span>`}
      ${dead && html`<span class="badge dead">${t("dead")}</span>`}
      ${status && status.tuoguan && html`<span class="badge tuoguan">${t("tuoguan")}</span>`}
      ${status && !status.bot && !status.connected && html`<span class="badge dead">${t("offline")}</span>`}
      <span class="seat-huxi" data-huxi=${hx.sum}>${t("huxi")} <b>${hx.sum}${hx.hidden ? "+" : ""}</b></span>
      <span class="seat-count" data-hand-count=${handCount}>${t("cards_in_hand", { n: handCount })}</span>
      <span class="seat-balance" aria-label=${`${t("balance")} ${v.balances[seat]}`}>${t("balance")} ${v.balances[seat]}</span>
      ${clock && html`<${SeatClock} deadline=${clock} total=${total} />`}
    </header>
    <div class="seat-groups" aria-label=${t("table_groups")}>
      ${groups.map((g, i) => html`<${Group} key=${i} text=${g} />`)}
    </div>
    ${pile.length > 0 && html`<div class="seat-pile" aria-label=${t("pile")}>
      <span class="pile-label">${t("pile")}</span>
      ${pile.map((g, i) => html`<${Card} key=${i} g=${g} size="mini" />`)}
    </div>`}
    ${handShown && html`<div class="seat-hand">${glyphs(v.hands[seat]).map((g, i) => html`<${Card} key=${i} g=${g} size="mini" />`)}</div>`}
  </section>`;
}

function Offer({ v, me, names, flashKey }) {
  if (!v.offer) return null;
  const how = v.offer_from_draw ? t("offer_draw") : t("offer_discard");
  const who = v.offer_source !== null ? seatWord(v.offer_source, me, names) : "";
  return html`<div class="offer" key=${flashKey}>
    <${Card} g=${v.offer} size="hand" cls="enter" />
    <div class="offer-label">${t("on_offer", { who, how })}</div>
  </div>`;
}

function ClaimBar({ options, onAct, disabled }) {
  if (!options.length) return null;
  return html`<div class="claimbar" role="toolbar" aria-label=${t("your_claim")}>
    ${options.map((o, i) => {
      const a = parseAction(o.text);
      const key = i < 9 ? `${i + 1}` : "";
      const cls = a.kind === "胡" ? "hu" : a.kind === "过" ? "pass" : a.kind === "碰" ? "peng" : "chi";
      const word = { 胡: t("act_hu"), 过: t("act_pass"), 碰: t("act_peng"), 吃: t("act_chi") }[a.kind];
      const label = a.kind === "吃" ? `${key} ${a.groups.join(" ")}` : `${key} ${o.text}`;
      return html`<button class=${`claim ${cls}`} data-action=${o.id} data-text=${o.text}
          aria-label=${label} aria-keyshortcuts=${a.kind === "过" ? `${key} p` : key}
          disabled=${disabled} onClick=${() => onAct(o.id)}>
        <span class="claim-key">${key}</span>
        <span class="claim-word">${word}</span>
        ${a.kind === "碰" && html`<${Group} text=${`碰:${a.face.repeat(3)}`} />`}
        ${a.kind === "吃" && html`<span class="claim-groups">${a.groups.map((g) => html`<${Group} text=${g} />`)}</span>`}
      </button>`;
    })}
  </div>`;
}

function Hint({ hint }) {
  if (!hint) return html`<div class="hint" role="status">…</div>`;
  const line = (ws) => ws.map((w) => html`<span class="wait">
      <${Card} g=${w.face} size="mini" />
      ${w.other && html`<span>${w.other.huxi}${t("huxi")} ${w.other.score}${t("score_pts")}</span>`}
      ${w.self_drawn && html`<span class="zimo">${t("zimo")} ${w.self_drawn.score}${t("score_pts")}</span>`}
    </span>`);
  if (hint.after.length) {
    return html`<div class="hint" role="status"><b>${t("hint_after")}</b>
      ${hint.after.map((a) => html`<div class="hint-row"><span>${t("discard")}</span><${Card} g=${a.discard} size="mini" /> → ${line(a.waits)}</div>`)}
    </div>`;
  }
  if (hint.now.length) return html`<div class="hint" role="status"><b>${t("hint_now")}</b> ${line(hint.now)}</div>`;
  return html`<div class="hint" role="status">${t("hint_none")}</div>`;
}

/** The hand in columns; discardable cards are buttons (tap to pick, tap again or drag up). */
function Hand({ hand, discards, selected, onSelect, onDiscard, maxCols, marked }) {
  const cols = handColumns(hand, maxCols);
  let drag = null;
  const down = (e, g) => {
    if (discards[g] === undefined) return;
    drag = { y: e.clientY, g, el: e.currentTarget };
    e.currentTarget.setPointerCapture && e.currentTarget.setPointerCapture(e.pointerId);
  };
  const move = (e) => {
    if (!drag) return;
    const dy = Math.max(-90, Math.min(0, e.clientY - drag.y));
    drag.el.style.transform = `translateY(${dy}px)`;
  };
  const up = (e) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    d.el.style.transform = "";
    if (d.y - e.clientY > 60) { d.el.dataset.dragged = "1"; onDiscard(d.g); }
  };
  let k = 0;
  return html`<div class="hand" role="group" aria-label=${t("your_turn")}>
    ${cols.map((c, ci) => html`<div class=${`hand-col ${c.kan ? "kan" : ""}`} key=${ci} style=${`--n: ${c.cards.length}`}>
      ${c.cards.map((g, i) => {
        const can = !c.kan && discards[g] !== undefined;
        const key = k++;
        const sel = !!selected && selected.k === key;
        const label = c.kan ? `${cardName(g)} ${t("kan_locked")}` : can ? t("discard_card", { card: cardName(g) }) : cardName(g);
        return html`<button class=${`hand-card ${sel ? "selected" : ""} ${can ? "can" : ""} ${marked.has(g) && can ? "marked" : ""}`}
            key=${i} data-face=${g} data-k=${key} aria-label=${label} aria-pressed=${sel ? "true" : "false"}
            aria-disabled=${can ? "false" : "true"}
            onPointerDown=${(e) => down(e, g)} onPointerMove=${move} onPointerUp=${up}
            onClick=${(e) => {
              if (e.currentTarget.dataset.dragged) { delete e.currentTarget.dataset.dragged; return; }
              if (!can) return;
              if (sel) onDiscard(g); else onSelect({ k: key, g });
            }}>
          <${Card} g=${g} size="hand" />
        </button>`;
      })}
    </div>`)}
  </div>`;
}

/**
 * The whole table from ``v`` (a seat's view). ``me`` is the seat at the bottom (null: a
 * spectator, seat 0 at the bottom). ``legal`` and ``onAct`` make it playable; ``actions``
 * (the 提示 button and its panel) sits in the status line, above the claim bar.
 */
export function Table(props) {
  const { v, me, names, legal = [], onAct, pending, log = [], hint, showHint, selected, onSelect,
    flashKey, maxCols = 8, header, actions = null, seats, deadline, clocks = [null, null, null], timeLimit = null } = props;
  const panel = (seat, pos, extra = {}) => html`<${SeatPanel} v=${v} seat=${seat} me=${me} names=${names}
    pos=${pos} turn=${turnSeat === seat} status=${st(seat)} clock=${v.phase === "over" ? null : clocks[seat]}
    total=${timeLimit} ...${extra} />`;
  const st = (s) => (seats ? seats.find((x) => x.seat === s) : null);
  const bottom = me === null || me === undefined ? 0 : me;
  const right = (bottom + 1) % 3;
  const left = (bottom + 2) % 3;
  const discards = {};
  const claims = [];
  for (const a of legal) {
    if (a.text.startsWith("打:")) discards[a.text.slice(2)] = a.id;
    else claims.push(a);
  }
  const marked = new Set(hint && showHint ? hint.after.map((a) => a.discard) : []);
  const myTurn = Object.keys(discards).length > 0;
  const turnSeat = v.phase === "discard" ? v.turn : null;
  const status = v.phase === "over" ? "" : myTurn ? t("your_turn") : claims.length ? t("your_claim")
    : turnSeat !== null && turnSeat !== me ? t("waiting_for", { who: seatWord(turnSeat, me, names) }) : "";
  const hand = me !== null && me !== undefined ? v.hands[me] || "" : "";
  return html`<div class="table" data-phase=${v.phase}>
    ${header}
    <div class="opponents">
      ${panel(left, "left")}
      ${panel(right, "right")}
    </div>
    <div class="center">
      <div class="center-info">
        <span class="stock" aria-label=${`${t("stock")} ${v.stock_count}`}>${t("stock")} <b data-stock>${v.stock_count}</b></span>
        <span class="liang">${t("liangzhang")} <${Card} g=${v.liangzhang} size="mini" /></span>
      </div>
      <${Offer} v=${v} me=${me} names=${names} flashKey=${flashKey} />
      <ol class="log" aria-label=${t("last_moves")} aria-live="polite">
        ${logLines(log, me, names).slice(-3).map((l) => html`<li key=${l.seq}>${l.text}</li>`)}
      </ol>
    </div>
    ${panel(bottom, "bottom", { hideHand: me !== null && me !== undefined })}
    ${(status || actions) && html`<div class="status-line">
      ${status && html`<div class=${`status ${myTurn || claims.length ? "mine" : ""}`} role="status">${status}
        ${deadline && (myTurn || claims.length > 0) && html` · <${Countdown} deadline=${deadline} />`}</div>`}
      ${actions}</div>`}
    ${onAct && html`<${ClaimBar} options=${claims} onAct=${onAct} disabled=${!!pending} />`}
    ${showHint && html`<${Hint} hint=${hint} />`}
    ${me !== null && me !== undefined && html`<${Hand} hand=${hand} discards=${onAct && !pending ? discards : {}}
        selected=${selected} onSelect=${onSelect || (() => {})} marked=${marked} maxCols=${maxCols}
        onDiscard=${(g) => onAct && discards[g] !== undefined && onAct(discards[g])} />`}
  </div>`;
}
