// The browser client: routes (#/, #/room/CODE[/KEY], #/watch/CODE[/KEY], #/replay/ID[/KEY], #/account,
// #/clubs[/ID[/KEY]] (clubs.js);
// KEY: a private room's invite key, which its invite link carries),
// screens, and one live game at a time.
import { html, render, useEffect, useState } from "./vendor/htm-preact-standalone.js";
import { api, session, ApiError } from "./api.js";
import { Card, Group, glyphs } from "./cards.js";
import { ClubsScreen, ClubsLink } from "./clubs.js";
import { CloseBy, SameAddress, ShareLocation } from "./fairplay.js";
import { Game } from "./game.js";
import { t, lang, setLang, errorWords } from "./i18n.js";
import { Countdown, Table, eventWords, seatWord } from "./table.js";
import { AnalysisPanel, AnalysisStats } from "./analysis.js";
import { TipButton, TipPanel, tipOffered } from "./tip.js";
import { landEvents, noteChoice, noteEvent, resetMotion } from "./motion.js";

// ---------------------------------------------------------------- the store

const S = {
  route: parseRoute(),
  toast: null,
  game: null, // the live Game
  room: null, // GET /rooms/{code}
  log: [], // [{seq, ev}]: the recent events, worded by table.js logLines
  botLevel: "putong", // the level the lobby's form or the waiting room last chose for bots
  selected: null,
  hintOn: false,
  hint: null,
  tip: null, // 提示 (practice): {step, loading} | {step, error} | {step, worlds, options}
  settlement: null, // a finished round's 结算 shown over the table
  settlementQueue: [],
  asked: new Set(), // the rounds whose 结算 was fetched (live, or after a reload)
  said: [], // the last quick-chat phrases: [{seat, phrase, at}]
  chatOpen: false,
  fetching: 0,
  summaryShown: false,
  ledger: null,
  flashKey: 0,
};
let sound = null; // sound.js, loaded after the first screen
let scheduled = false;
export function rerender() {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    render(html`<${App} />`, document.getElementById("app"));
    // Cards fly once the table shows their events (motion.js; live events only).
    const snap = S.game && S.game.snapshot;
    landEvents(snap ? snap.seq : null);
  });
}

function parseRoute() {
  const h = location.hash.replace(/^#\/?/, "");
  const [name, arg, invite] = h.split("/");
  return { name: name || "lobby", arg: arg || null, invite: invite || null };
}
window.addEventListener("hashchange", () => {
  S.route = parseRoute();
  leaveGameUnlessNeeded();
  rerender();
});
const go = (path) => { location.hash = path; };

function toast(text, kind = "error") {
  S.toast = { text, kind, at: Date.now() };
  rerender();
  setTimeout(() => { if (S.toast && Date.now() - S.toast.at >= 3900) { S.toast = null; rerender(); } }, 4000);
}
function showError(e) {
  if (e instanceof ApiError) {
    if (e.code === "unauthenticated" && e.status === 401) { session.clear(); rerender(); }
    toast(errorWords(e.code, e.code === "bad_login" || e.code === "network" ? "" : e.reason));
  } else toast(String(e));
}

// ---------------------------------------------------------------- the live game

function leaveGameUnlessNeeded() {
  const r = S.route;
  const code = r.name === "room" || r.name === "watch" ? r.arg : null;
  if (S.game && (S.game.code !== code || S.game.spectate !== (r.name === "watch"))) {
    S.game.close();
    S.game = null;
    resetMotion();
    S.log = [];
    S.settlement = null;
    S.settlementQueue = [];
    S.asked = new Set();
    S.said = [];
    S.summaryShown = false;
    S.hint = null;
    S.tip = null;
  }
}

function names() {
  return S.room ? S.room.seats.map((s, i) => (s ? seatName(s, i) : null)) : [null, null, null];
}

/** The bot levels as a select's options, weakest first, ``selected`` chosen. */
function levelOptions(selected) {
  return ["rumen", "putong", "gaoshou", "dashi"].map((l) => html`<option value=${l} selected=${l === selected}>${t(`level_${l}`)}</option>`);
}

/** Where a quick-chat bubble goes: over its speaker's panel (they stacked at the top centre,
 * over the card on offer); "" (the list's place) before the table is drawn. */
function saidPlace(seat) {
  const panel = document.querySelector(`.table .seat-panel[data-seat="${seat}"]`);
  if (!panel) return "";
  const r = panel.getBoundingClientRect();
  const left = Math.max(4, Math.min(r.left + 8, innerWidth - 160));
  const top = Math.max(4, Math.min(r.top + 26, innerHeight - 48));
  return `position: fixed; left: ${left}px; top: ${top}px; max-width: ${Math.max(150, r.width - 16)}px`;
}

/** A seat's name: its nickname, or for a bot a Chinese name saying its level and seat. */
export function seatName(s, i) {
  return s.bot ? t("bot_name", { level: botLevel(s.bot), n: i + 1 }) : s.nickname;
}

/** A bot kind's level in words (入门, 普通, 高手, 大师). */
export function botLevel(kind) {
  const key = `bot_${kind}`;
  return t(key) === key ? t("bot_other") : t(key);
}

function startGame(code, spectate, invite) {
  if (S.game) return;
  S.game = new Game({
    code,
    invite,
    token: session.token,
    spectate,
    onChange: (g) => {
      // A reload during a 结算: the snapshot's wait for 准备 names the round to show again.
      if (g.ready && !S.asked.has(g.ready.round - 1)) queueSettlement(g.ready.round - 1);
      if (g.snapshot && S.hintOn && (!S.hint || S.hint.step !== g.snapshot.step)) fetchHint();
      rerender();
    },
    onTimeout: () => toast(t("timed_out"), "info"),
    onEvent: (m, live) => {
      const me = S.game ? seatOf() : null;
      // Worded when drawn (table.js logLines): a catch-up's events come before the seat is known.
      if (eventWords(m.event, null, null)) S.log.push({ seq: m.seq, ev: m.event });
      if (S.log.length > 50) S.log.splice(0, S.log.length - 50);
      if (live && (m.event.kind === "draw" || m.event.kind === "discard")) S.flashKey = m.seq;
      if (live && m.event.kind === "settle") queueSettlement(m.round);
      if (live && sound) S.lastSound = sound.play(m.event.kind) || S.lastSound;
      if (live) noteEvent(m, me); // before S.selected is cleared: the picked card flies
      if (live) S.selected = null;
    },
    onError: (m) => toast(errorWords(m.code, m.reason)),
    onSaid: (m) => {
      const at = Date.now();
      S.said = [...S.said.slice(-2), { ...m, at }];
      rerender();
      setTimeout(() => { S.said = S.said.filter((x) => x.at !== at); rerender(); }, 4000);
    },
    onVote: (m) => {
      const no = m.votes.indexOf(false);
      if (m.outcome === "refused" && no >= 0) toast(t("dissolve_refused_by", { who: seatWord(no, seatOf(), names()) }), "info");
      else if (m.outcome === "refused") toast(t("dissolve_refused"), "info");
      if (m.outcome === "expired") toast(t("dissolve_expired"), "info");
    },
  });
}

function seatOf() {
  const g = S.game;
  if (!g) return null;
  if (g.snapshot) return g.snapshot.seat;
  return g.waiting ? g.waiting.seat : null;
}

async function queueSettlement(round) {
  const mid = S.game && S.game.snapshot && S.game.snapshot.match_id;
  if (mid === undefined || mid === null || S.asked.has(round)) return;
  S.asked.add(round);
  S.fetching += 1; // the summary waits for the last 结算
  try {
    const r = await api("GET", `/matches/${mid}/rounds/${round}${keyQuery(S.game.invite)}`);
    if (S.settlement) S.settlementQueue.push(r); else S.settlement = r;
  } catch (e) { showError(e); } finally {
    S.fetching -= 1;
    rerender();
  }
}

let hintBusy = false;
async function fetchHint() {
  const g = S.game;
  if (hintBusy || !g || !g.snapshot || g.spectate || g.over || g.snapshot.view.phase === "over") return;
  hintBusy = true;
  try {
    S.hint = await api("GET", `/rooms/${S.game.code}/hint`);
  } catch (e) {
    S.hint = null;
  } finally {
    hintBusy = false;
  }
  rerender();
  if (S.game && S.game.snapshot && S.hint && S.hint.step !== null && S.hint.step !== S.game.snapshot.step) fetchHint();
}

/** 提示: value the open decision's options (practice games only); again: close it. */
async function askTip() {
  const g = S.game;
  if (!tipOffered(g)) return;
  const step = g.snapshot.step;
  if (S.tip && S.tip.step === step) { S.tip = null; rerender(); return; }
  S.tip = { step, loading: true };
  rerender();
  let tip;
  try {
    tip = { step, ...(await api("POST", `/rooms/${g.code}/hint`)) };
  } catch (e) {
    tip = { step, error: e instanceof ApiError ? errorWords(e.code, e.reason) : String(e) };
  }
  // The answer is for that decision only: once the table moved on it is dropped.
  if (S.game === g && S.tip && S.tip.step === step) { S.tip = tip; rerender(); }
}

function act(id) {
  if (!S.game) return;
  noteChoice(); // where the discarded card was, for its flight (motion.js)
  S.selected = null;
  S.game.act(id);
}

// Keyboard play with the terminal game's keys: ←→ pick, Enter discards, 1–9 claim, p passes.
document.addEventListener("keydown", (e) => {
  const g = S.game;
  if (!g || !g.snapshot || g.spectate || e.target.closest("input, textarea, select")) return;
  if (S.settlement) {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); nextSettlement(); }
    return;
  }
  const legal = g.prompt ? g.prompt.legal : [];
  const claims = legal.filter((a) => !a.text.startsWith("打:"));
  const discards = legal.filter((a) => a.text.startsWith("打:"));
  if (/^[1-9]$/.test(e.key) && claims[Number(e.key) - 1]) { act(claims[Number(e.key) - 1].id); return; }
  if (e.key === "p") { const p = claims.find((a) => a.text === "过"); if (p) act(p.id); return; }
  if (e.key === "t") { toggleHint(); return; }
  if (e.key === "h") { askTip(); return; }
  if (!discards.length) return;
  const buttons = [...document.querySelectorAll(".hand-card.can")];
  if (!buttons.length) return;
  let i = buttons.findIndex((b) => b.classList.contains("selected"));
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    e.preventDefault();
    i = i < 0 ? 0 : (i + (e.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length;
    buttons[i].focus();
    S.selected = { k: Number(buttons[i].dataset.k), g: buttons[i].dataset.face };
    rerender();
  } else if (e.key === "Enter" && i >= 0) {
    e.preventDefault();
    const a = discards.find((d) => d.text === `打:${buttons[i].dataset.face}`);
    if (a) act(a.id);
  }
});

function toggleHint() {
  S.hintOn = !S.hintOn;
  if (S.hintOn) fetchHint();
  rerender();
}

function nextSettlement() {
  const g = S.game;
  const r = S.settlement;
  // While the next round waits: the button is 准备 (the sheet closes when it is dealt).
  if (g && r && g.ready && g.ready.round === r.round + 1) {
    if (!g.spectate && g.pressed !== g.ready.round) g.readyUp();
    return;
  }
  S.settlement = S.settlementQueue.shift() || null;
  rerender();
}

/** A 结算 whose next round has been dealt closes by itself (everyone was ready). */
function closeDealtSettlement() {
  const g = S.game;
  const r = S.settlement;
  if (!g || !r || !g.snapshot || g.over) return;
  if (!g.ready && g.snapshot.round > r.round) S.settlement = S.settlementQueue.shift() || null;
}

// ---------------------------------------------------------------- screens

/** The top bar's 悟性 from the server (GET /accounts/me): the cached account goes stale as
 * matches settle, so the lobby, a room page and a match's end ask again. */
function refreshAccount(onError = () => {}) {
  if (!session.token) return;
  api("GET", "/accounts/me").then((a) => { session.setAccount(a); rerender(); }).catch(onError);
}

function TopBar() {
  const acct = session.account;
  return html`<header class="topbar">
    <a class="brand" href="#/" aria-label=${t("lobby")}>${t("brand")}</a>
    <nav class="topnav">
      ${acct && html`<a class="btn ghost" href="#/account" aria-label=${t("account")}>${acct.nickname} · ${t("balance")} ${acct.balance}</a>`}
      <button class="btn ghost" aria-label=${t("lang_toggle_label")}
        onClick=${() => { setLang(lang() === "en" ? "zh" : "en"); rerender(); }}>${t("lang_toggle")}</button>
    </nav>
  </header>`;
}

function Login() {
  const [tab, setTab] = useState("guest");
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    setBusy(true);
    try {
      let r;
      if (tab === "guest") r = await api("POST", "/accounts/guest", { nickname: f.get("nickname") || "guest" });
      else if (tab === "login") r = await api("POST", "/accounts/login", { username: f.get("username"), password: f.get("password") });
      else r = await api("POST", "/accounts/register", { username: f.get("username"), password: f.get("password"), nickname: f.get("nickname") || null });
      session.save(r.token, r.account);
      rerender();
    } catch (err) { showError(err); } finally { setBusy(false); }
  };
  return html`<main class="screen login">
    <h1>${t("title")}</h1>
    <div class="tabs" role="tablist">
      ${["guest", "login", "register"].map((k) => html`<button role="tab" aria-selected=${tab === k ? "true" : "false"}
          class=${`tab ${tab === k ? "on" : ""}`} onClick=${() => setTab(k)}>${t(k)}</button>`)}
    </div>
    <form class="card-form" onSubmit=${submit}>
      ${tab !== "login" && html`<label>${t("nickname")}<input name="nickname" maxlength="32" autocomplete="nickname" required=${tab === "guest"} /></label>`}
      ${tab !== "guest" && html`<label>${t("username")}<input name="username" maxlength="64" autocomplete="username" required /></label>
        <label>${t("password")}<input name="password" type="password" maxlength="128"
          minlength=${tab === "register" ? 8 : null} aria-describedby=${tab === "register" ? "pw-rule" : null}
          autocomplete=${tab === "login" ? "current-password" : "new-password"} required /></label>
        ${tab === "register" && html`<p class="muted" id="pw-rule" data-password-rule>${t("password_rule")}</p>`}`}
      <button class="btn primary" type="submit" disabled=${busy}>${tab === "guest" ? t("play_as_guest") : t(tab)}</button>
    </form>
  </main>`;
}

function Lobby() {
  const [rooms, setRooms] = useState(null);
  const load = () => api("GET", "/rooms").then(setRooms).catch(showError);
  useEffect(() => {
    load();
    refreshAccount(showError);
    const id = setInterval(load, 5000);
    return () => clearInterval(id);
  }, []);
  const create = async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    try {
      const body = { rounds: Number(f.get("rounds")), public: f.get("public") === "on", rules: {} };
      if (Number(f.get("time_limit"))) body.time_limit = Number(f.get("time_limit"));
      const room = await api("POST", "/rooms", body);
      await api("POST", `/rooms/${room.code}/join`, { seat: null });
      S.botLevel = f.get("bot") || S.botLevel;
      if (f.get("bots") === "on") await api("POST", `/rooms/${room.code}/bots`, { seat: null, bot: S.botLevel });
      go(`/room/${room.code}`);
    } catch (err) { showError(err); }
  };
  const joinCode = (e) => {
    e.preventDefault();
    const code = new FormData(e.target).get("code").trim();
    if (code) go(`/room/${code}`);
  };
  return html`<main class="screen lobby">
    <section class="panel">
      <h2>${t("create_room")}</h2>
      <form class="card-form" onSubmit=${create}>
        <label>${t("rounds")}<select name="rounds">${[1, 2, 4, 8, 16].map((n) => html`<option value=${n} selected=${n === 8}>${n}</option>`)}</select></label>
        <label>${t("time_limit")}<select name="time_limit">${[0, 15, 30, 60].map((n) => html`<option value=${n} selected=${n === 0}>${n ? n : t("no_limit")}</option>`)}</select></label>
        <label class="check"><input type="checkbox" name="public" checked />${t("public")}</label>
        <label class="check"><input type="checkbox" name="bots" />${t("fill_bots")}</label>
        <label class="bot-pick">${t("bot_kind")}<select name="bot">${levelOptions("putong")}</select></label>
        <button class="btn primary" type="submit">${t("create")}</button>
      </form>
    </section>
    <section class="panel">
      <h2>${t("join_by_code")}</h2>
      <form class="row-form" onSubmit=${joinCode}>
        <input name="code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" placeholder=${t("room_code")} aria-label=${t("room_code")} required />
        <button class="btn primary" type="submit">${t("join")}</button>
      </form>
      <${ClubsLink} />
    </section>
    <section class="panel">
      <h2>${t("public_rooms")} <button class="btn ghost small" onClick=${load}>${t("refresh")}</button></h2>
      ${rooms === null ? html`<p>${t("loading")}</p>` : rooms.length === 0 ? html`<p class="muted">${t("no_rooms")}</p>`
        : html`<ul class="rooms">${rooms.map((r) => html`<li class="room-row" key=${r.code} data-code=${r.code}>
          <span class="code">${r.code}</span>
          <span>${t("seats_taken", { n: r.seats.filter(Boolean).length })} · ${t("rounds")} ${r.rounds}</span>
          <span class="grow"></span>
          <a class="btn" href=${`#/room/${r.code}`}>${t("join")}</a>
          <a class="btn ghost" href=${`#/watch/${r.code}`}>${t("watch")}</a>
        </li>`)}</ul>`}
    </section>
    <p class="foot"><button class="btn ghost small" onClick=${() => { api("POST", "/accounts/logout").catch(() => {}); session.clear(); rerender(); }}>${t("logout")}</button></p>
  </main>`;
}

// A private room's invite link carries its key (only the host and the seated see it).
const inviteLink = (room) => `${location.origin}/#/room/${room.code}${room.invite_key ? `/${room.invite_key}` : ""}`;
const withKey = (invite) => (invite ? `/${invite}` : "");
// A private room's match is seen with its key too (a signed-in host or player needs none).
const keyQuery = (invite, sep = "?") => (invite ? `${sep}key=${encodeURIComponent(invite)}` : "");

function WaitingRoom({ room, invite }) {
  const me = session.account;
  const seated = room.seats.some((s) => s && s.account_id === me.id);
  // someone to be close by: a free seat, or another person's (not against bots alone)
  const others = room.seats.some((s) => !s || (!s.bot && s.account_id !== me.id));
  const host = room.host_id === me.id;
  const full = room.seats.every(Boolean);
  const link = inviteLink(room);
  const call = async (method, path, body) => {
    try { S.room = await api(method, path, body).then((r) => r.room || r); rerender(); } catch (e) { showError(e); }
  };
  return html`<main class="screen room">
    <h2>${t("room", { code: room.code })}</h2>
    <${SameAddress} room=${room} />
    <${CloseBy} room=${room} />
    ${seated && others && html`<${ShareLocation} room=${room} call=${call} say=${(text) => toast(text, "info")} />`}
    <div class="invite"><span>${t("invite")}</span><input readonly value=${link} aria-label=${t("invite")} />
      <button class="btn" onClick=${() => { navigator.clipboard && navigator.clipboard.writeText(link).catch(() => {}); toast(t("copied"), "info"); }}>${t("copy")}</button></div>
    <ol class="seats">${room.seats.map((s, i) => html`<li class="seat-row" data-seat=${i}>
      <span class="seat-no">${t("seat_n", { n: i + 1 })}</span>
      ${s ? html`<span class="grow">${seatName(s, i)}${s.account_id === room.host_id ? ` · ${t("host")}` : ""}</span>`
        : html`<span class="grow muted">${t("empty_seat")}</span>
          ${!seated && html`<button class="btn" onClick=${() => call("POST", `/rooms/${room.code}/join`, { seat: i, key: invite })}>${t("take_seat")}</button>`}
          ${host && html`<button class="btn ghost" onClick=${() => call("POST", `/rooms/${room.code}/bots`, { seat: i, bot: S.botLevel })}>${t("add_bot")}</button>`}`}
    </li>`)}</ol>
    <p class="muted" data-room-info>${t("room_info", { rounds: room.rounds, limit: room.time_limit ? t("limit_s", { s: room.time_limit }) : t("no_limit") })}</p>
    ${host && !full && html`<label class="bot-level">${t("bot_kind")} <select data-bot-level aria-label=${t("bot_kind")}
        onChange=${(e) => { S.botLevel = e.target.value; rerender(); }}>
      ${levelOptions(S.botLevel)}</select></label>`}
    <div class="actions">
      ${host && !full && html`<button class="btn" onClick=${() => call("POST", `/rooms/${room.code}/bots`, { seat: null, bot: S.botLevel })}>${t("add_bots")}</button>`}
      ${host && html`<button class="btn primary" disabled=${!full} onClick=${() => call("POST", `/rooms/${room.code}/start`)}>${t("start")}</button>`}
      ${seated && html`<button class="btn ghost" onClick=${async () => { await call("POST", `/rooms/${room.code}/leave`); go("/"); }}>${t("leave")}</button>`}
      ${!seated && html`<a class="btn ghost" href=${`#/watch/${room.code}${withKey(invite)}`}>${t("watch")}</a>`}
    </div>
    ${!seated && full && html`<p class="verdict" data-full>${t("room_full")}</p>`}
    ${seated && !host && html`<p class="muted">${t("waiting_start")}</p>`}
  </main>`;
}

/** Who is ready for the next round, and the time left before the server readies the rest. */
function ReadyLine({ ready, me, nm }) {
  return html`<div class="ready-line" role="status" data-ready=${ready.ready.filter(Boolean).length}>
    ${ready.ready.map((ok, s) => html`<span class=${`ready-seat ${ok ? "ok" : ""}`} data-seat=${s}>
      ${seatWord(s, me, nm)} ${ok ? t("is_ready") : t("not_ready")}</span>`)}
    <${Countdown} deadline=${ready.until} />
  </div>`;
}

/** 亮牌: each seat's cards left in hand when the round ended (public then, RULES.md §14);
 * nothing (not even the heading) when no seat has any left. */
function Reveal({ r, me, nm }) {
  const seats = [0, 1, 2].filter((s) => glyphs(r.hands[s] || "").length > 0);
  if (!seats.length) return null;
  return html`<section class="reveals" data-reveals aria-label=${t("hands_revealed")}>
    <h3>${t("hands_revealed")}</h3>
    ${seats.map((s) => html`<div class="reveal" data-seat=${s}><b>${seatWord(s, me, nm)}</b>
      <span class="reveal-hand">${glyphs(r.hands[s]).map((g) => html`<${Card} g=${g} size="mini" />`)}</span></div>`)}
  </section>`;
}

function Settlement({ r, me, nm, onNext, final, total, replay }) {
  // In a replay (``replay``: its number of rounds in ``total``) the live game's 准备 is no business of the sheet.
  const g = replay ? null : S.game;
  // A round settled for 悟性 moved it: the top bar says so now, not once the match is over.
  useEffect(() => { if (!replay && me !== null) refreshAccount(); }, [r.round, replay]);
  const wait = g && g.ready && g.ready.round === r.round + 1 ? g.ready : null;
  const pressed = !!wait && (g.spectate || g.pressed === wait.round || (me !== null && wait.ready[me]));
  const label = replay ? t("back_to_replay") : final ? t("match_over") : wait ? (pressed ? t("waiting_ready") : t("ready")) : t("next_round");
  const w = r.win;
  const how = w && w.how ? `（${w.how}）` : "";
  return html`<div class="overlay" role="dialog" aria-modal="true" aria-label=${t("settlement")}>
    <div class="sheet settlement">
      <h2>${t("settlement")} · ${t("round_of", { i: r.round + 1, n: total || (S.room ? S.room.rounds : "?") })}</h2>
      <p class="verdict">${r.winner === null ? t("huangzhuang") : t("winner_is", { who: seatWord(r.winner, me, nm) })}</p>
      ${w && html`<div class="win">
        <p>${t("win_card", { card: "", how })}<${Card} g=${w.card} size="mid" />${w.self_drawn ? ` ${t("zimo")}` : ""}${w.last_card ? ` ${t("haidi")}` : ""}</p>
        <h3>${t("groups_huxi")}</h3>
        <div class="win-groups">${w.groups.map((g) => html`<div class="win-group"><${Group} text=${g.text} size="mid" /><span class="gx">${g.huxi}</span></div>`)}</div>
        <p data-tun>${t("total_huxi", { n: w.huxi })} → ${w.zimo_tun ? `${w.tun - w.zimo_tun} ${t("tun")} + ${t("zimo")} ${w.zimo_tun} ${t("tun")} = ` : ""}${w.tun} ${t("tun")}</p>
        <p>${t("mingtang")}：${w.mingtang.length ? w.mingtang.map(([k, v]) => `${k} ${v} ${t("fan")}`).join("，") : t("no_mingtang")}</p>
        <p class="formula">${t("formula", { tun: w.tun, fan: w.fan, score: w.score })}</p>
      </div>`}
      <table class="deltas"><thead><tr><th></th><th>${t("before")}</th><th>${t("change")}</th><th>${t("after")}</th></tr></thead>
        <tbody>${[0, 1, 2].map((s) => html`<tr data-seat=${s}><th>${seatWord(s, me, nm)}${r.dealer === s ? ` (${t("dealer")})` : ""}</th>
          <td>${r.balances_before[s]}</td><td class=${r.deltas[s] > 0 ? "plus" : r.deltas[s] < 0 ? "minus" : ""}>${r.deltas[s] > 0 ? "+" : ""}${r.deltas[s]}</td><td>${r.balances[s]}</td></tr>`)}</tbody></table>
      <${Reveal} r=${r} me=${me} nm=${nm} />
      ${wait && html`<${ReadyLine} ready=${wait} me=${me} nm=${nm} />`}
      <button class="btn primary" data-ready-button onClick=${onNext} disabled=${pressed} autofocus>${label}</button>
    </div>
  </div>`;
}

function Vote({ d, me, nm, onVote }) {
  const mine = me !== null && me !== undefined ? d.votes[me] : true;
  return html`<div class="overlay" role="dialog" aria-modal="true" aria-label=${t("dissolve")}>
    <div class="sheet vote">
      <h2>${t("dissolve_ask", { who: seatWord(d.proposer, me, nm) })}</h2>
      <ul class="votes">${d.votes.map((v, s) => html`<li data-seat=${s}>${seatWord(s, me, nm)}：
        ${v === null ? t("vote_waiting") : v ? t("vote_yes") : t("vote_no")}</li>`)}</ul>
      <p><${Countdown} deadline=${d.until} /></p>
      ${mine === null && html`<div class="actions">
        <button class="btn primary" onClick=${() => onVote(true)}>${t("agree")}</button>
        <button class="btn" onClick=${() => onVote(false)}>${t("refuse")}</button></div>`}
    </div>
  </div>`;
}

/** The match summary: every round's changes, the totals, 大赢家, a share link to the
 * replay and 再来一局 (the same seats, a new match once all agree). */
function Summary({ over, me, nm }) {
  const [rounds, setRounds] = useState(null);
  // A private room's key: the page's link's, or the one an insider is shown (for the share link).
  const key = (S.game && S.game.invite) || (S.room && S.room.invite_key) || null;
  const [again, setAgain] = useState(null);
  useEffect(() => {
    refreshAccount(); // the top bar's 悟性 moved with the match
    // The rounds settled (a dissolved match's round in play has no 结算).
    const n = over.played ?? (S.room ? S.room.rounds : 0);
    Promise.all(Array.from({ length: n }, (_, i) => api("GET", `/matches/${over.match_id}/rounds/${i}${keyQuery(key)}`).catch(() => null)))
      .then((rs) => setRounds(rs.filter(Boolean)));
  }, [over.match_id]);
  const best = Math.max(...over.totals);
  const share = `${location.origin}${location.pathname}#/replay/${over.match_id}${withKey(key)}`;
  const playAgain = async () => {
    try {
      const r = await api("POST", `/rooms/${S.game.code}/again`);
      setAgain(r);
      go(`/room/${r.code}`);
    } catch (e) { showError(e); }
  };
  return html`<div class="overlay" role="dialog" aria-modal="true" aria-label=${t("match_over")}>
    <div class="sheet summary">
      <h2>${t("match_over")}</h2>
      ${over.dissolved && html`<p class="verdict">${t("dissolved")}</p>`}
      <div class="table-scroll"><table class="deltas"><thead><tr><th></th>
          ${(rounds || []).map((r) => html`<th data-round-col=${r.round}>${t("round_short", { i: r.round + 1 })}</th>`)}
          <th>${t("total")}</th><th>${t("balance")}</th></tr></thead>
        <tbody>${[0, 1, 2].map((s) => html`<tr data-seat=${s}><th><span class="who" title=${seatWord(s, me, nm)}>${seatWord(s, me, nm)}</span>
            ${best > 0 && over.totals[s] === best && html`<span class="badge winner" data-big-winner>${t("big_winner")}</span>`}</th>
          ${(rounds || []).map((r) => html`<td class=${r.deltas[s] > 0 ? "plus" : r.deltas[s] < 0 ? "minus" : ""}>${r.deltas[s] > 0 ? "+" : ""}${r.deltas[s]}</td>`)}
          <td data-total class=${over.totals[s] > 0 ? "plus" : over.totals[s] < 0 ? "minus" : ""}>${over.totals[s] > 0 ? "+" : ""}${over.totals[s]}</td><td>${over.balances[s]}</td></tr>`)}</tbody></table></div>
      <div class="invite"><span>${t("share_replay")}</span><input readonly value=${share} aria-label=${t("share_replay")} data-share />
        <button class="btn" onClick=${() => { navigator.clipboard && navigator.clipboard.writeText(share).catch(() => {}); toast(t("copied"), "info"); }}>${t("copy")}</button></div>
      <div class="actions">
        ${me !== null && me !== undefined && html`<button class="btn" data-again disabled=${!!again} onClick=${playAgain}>${t("play_again")}</button>`}
        <a class="btn" href=${`#/replay/${over.match_id}${withKey(key)}`}>${t("replay")}</a>
        <a class="btn primary" href="#/">${t("to_lobby")}</a>
      </div>
    </div>
  </div>`;
}

function TableScreen({ spectate }) {
  const g = S.game;
  const snap = g.snapshot;
  const me = snap.seat;
  const nm = names();
  const maxCols = Math.max(6, Math.floor((Math.min(window.innerWidth, 1100) - 16) / 47));
  const rounds = S.room ? S.room.rounds : "?";
  const mine = g.seats && me !== null ? g.seats.find((x) => x.seat === me) : null;
  const header = html`<div class="table-head">
    <span>${t("room", { code: g.code })}</span>
    <span data-round>${t("round_of", { i: snap.round + 1, n: rounds })}</span>
    ${spectate && html`<span class="badge">${t("spectating")}</span>`}
    <span class="grow"></span>
    ${!spectate && html`<button class=${`btn small ${S.hintOn ? "on" : ""}`} aria-pressed=${S.hintOn ? "true" : "false"}
        aria-label=${t("hint_label")} aria-keyshortcuts="t" onClick=${toggleHint}>${t("hint")}</button>`}
    ${!spectate && g.seats && html`<button class=${`btn small ${mine && mine.tuoguan ? "on" : ""}`} data-tuoguan
        aria-pressed=${mine && mine.tuoguan ? "true" : "false"} onClick=${() => g.tuoguan(!(mine && mine.tuoguan))}>
        ${mine && mine.tuoguan ? t("tuoguan_off") : t("tuoguan")}</button>`}
    ${!spectate && g.seats && !g.over && html`<button class="btn small" data-dissolve disabled=${!!g.dissolve}
        onClick=${() => g.vote(true)}>${t("dissolve")}</button>`}
    ${sound && html`<button class="btn small" data-mute aria-pressed=${sound.settings.muted ? "true" : "false"}
        aria-label=${sound.settings.muted ? t("sound_on") : t("sound_off")}
        onClick=${() => { sound.settings.muted = !sound.settings.muted; rerender(); }}>${sound.settings.muted ? t("sound_word_off") : t("sound_word_on")}</button>
      <input type="range" class="volume" min="0" max="1" step="0.1" value=${sound.settings.volume} data-volume
        aria-label=${t("volume")} onInput=${(e) => { sound.settings.volume = e.target.value; }} />`}
    ${!spectate && html`<button class=${`btn small ${S.chatOpen ? "on" : ""}`} data-chat aria-expanded=${S.chatOpen ? "true" : "false"}
        onClick=${() => { S.chatOpen = !S.chatOpen; rerender(); }}>${t("chat")}</button>`}
  </div>`;
  const chat = S.chatOpen && html`<div class="chat-panel" role="menu" aria-label=${t("chat")}>
    ${Array.from({ length: 16 }, (_, i) => html`<button class="btn small" role="menuitem" data-phrase=${i}
        onClick=${() => { g.say(i); S.chatOpen = false; rerender(); }}>${t(`phrase_${i}`)}</button>`)}</div>`;
  const bubbles = S.said.length > 0 && html`<ul class="said" aria-live="polite">${S.said.map((m) => html`<li key=${m.at} data-said=${m.seat}
      style=${saidPlace(m.seat)}><b>${seatWord(m.seat, me, nm)}</b>：${t(`phrase_${m.phrase}`)}</li>`)}</ul>`;
  const tipNow = !spectate && tipOffered(g);
  const tipShown = tipNow && S.tip && S.tip.step === snap.step;
  const actions = tipNow && html`<div class="tip-area">
    <${TipButton} open=${!!tipShown} busy=${!!(tipShown && S.tip.loading)} onClick=${askTip} />
    ${tipShown && html`<${TipPanel} tip=${S.tip} onClose=${() => { S.tip = null; rerender(); }} />`}</div>`;
  closeDealtSettlement();
  const showSummary = g.over && !S.settlement && !S.fetching;
  return html`<main class="screen play">
    ${!g.connected && !g.over && html`<div class="banner" role="alert">${t("disconnected")}</div>`}
    <${Table} v=${snap.view} me=${me} names=${nm} legal=${snap.legal} onAct=${spectate ? null : act}
      pending=${g.busy} log=${S.log} hint=${S.hint} showHint=${S.hintOn && !spectate}
      selected=${S.selected} onSelect=${(s) => { S.selected = s; rerender(); }} flashKey=${S.flashKey}
      maxCols=${maxCols} header=${header} actions=${actions} seats=${g.seats} deadline=${g.deadline}
      clocks=${S.settlement ? [null, null, null] : g.clocks} timeLimit=${snap.time_limit} />
    ${chat}
    ${bubbles}
    ${g.dissolve && !g.over && html`<${Vote} d=${g.dissolve} me=${me} nm=${nm} onVote=${(a) => g.vote(a)} />`}
    ${S.settlement && html`<${Settlement} r=${S.settlement} me=${me} nm=${nm} onNext=${nextSettlement} final=${!!g.over && !S.settlementQueue.length} />`}
    ${showSummary && html`<${Summary} over=${g.over} me=${me} nm=${nm} />`}
  </main>`;
}

function RoomScreen({ code, spectate, invite }) {
  const [err, setErr] = useState(null);
  useEffect(() => {
    S.room = null;
    refreshAccount(); // a room link opened directly: the cached 悟性 may be old
    let stop = false;
    const poll = async () => {
      try {
        S.room = await api("GET", `/rooms/${code}${invite ? `?key=${encodeURIComponent(invite)}` : ""}`);
        setErr(null);
        rerender();
      } catch (e) {
        setErr(e);
        // No such room (or no key): asking again will not change the answer.
        if (e instanceof ApiError && e.status >= 400 && e.status < 500) return;
      }
      if (!stop && (!S.room || S.room.status === "open")) setTimeout(poll, 1500);
    };
    poll();
    return () => { stop = true; };
  }, [code, invite]);
  if (err) return html`<main class="screen"><p class="error">${errorWords(err.code, err.reason)}</p><a class="btn" href="#/">${t("to_lobby")}</a></main>`;
  const room = S.room;
  if (!room || room.code !== code) return html`<main class="screen"><p>${t("loading")}</p></main>`;
  const me = session.account;
  const seated = room.seats.some((s) => s && s.account_id === me.id);
  if ((seated && !spectate) || (spectate && room.status !== "open")) startGame(code, spectate, invite);
  const g = S.game;
  if (g && g.snapshot) return html`<${TableScreen} spectate=${spectate} />`;
  if (room.status === "finished" && room.match_id !== null && (!g || !g.snapshot)) {
    return html`<main class="screen"><p>${t("match_over")}</p>
      <a class="btn" href=${`#/replay/${room.match_id}${withKey(invite || room.invite_key)}`}>${t("replay")}</a> <a class="btn" href="#/">${t("to_lobby")}</a></main>`;
  }
  if (room.status === "open") return html`<${WaitingRoom} room=${room} invite=${invite} />`;
  if (room.status === "expired") return html`<main class="screen"><p class="error">${errorWords("room_expired")}</p><a class="btn" href="#/">${t("to_lobby")}</a></main>`;
  if (!seated && !spectate) return html`<main class="screen"><p>${errorWords("room_started")}</p>
    <a class="btn" href=${`#/watch/${code}${withKey(invite)}`}>${t("watch")}</a></main>`;
  return html`<main class="screen"><p>${t("loading")}</p></main>`;
}

/** The match's record as a file (``paohuzi-match-ID.json``), for ``paohuzi analyse`` or
 * ``paohuzi replay``: fetched with the session's token, which a plain link would not send,
 * and saved as the server's bytes (parsed, its 64-bit seeds would lose their last digits
 * and the file would deal other cards). */
function downloadRecord(id, invite) {
  const headers = session.token ? { Authorization: `Bearer ${session.token}` } : {};
  fetch(`/matches/${id}/record${keyQuery(invite)}`, { headers }).then((r) => (r.ok ? r.blob()
    : r.json().catch(() => ({})).then((e) => Promise.reject(new ApiError(e.code || "network", e.reason, r.status))))
  ).then((blob) => {
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url; a.download = `paohuzi-match-${id}.json`;
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }).catch((e) => alert(errorWords(e.code, e.reason)));
}

function Replay({ id, invite }) {
  const [seat, setSeat] = useState(null); // a seat, null (a spectator) or "open" (every hand shown)
  const [picked, setPicked] = useState(false); // whether the viewer chose a 视角 yet
  const [rnd, setRnd] = useState(0);
  const [data, setData] = useState(null);
  const [step, setStep] = useState(0);
  const [err, setErr] = useState(null);
  const [speed, setSpeed] = useState(0); // autoplay: steps a second (0: paused)
  useEffect(() => {
    const query = seat === null ? "" : seat === "open" ? "?open=1" : `?seat=${seat}`;
    api("GET", `/matches/${id}/replay/${rnd}${query}${keyQuery(invite, query ? "&" : "?")}`)
      .then((d) => {
        setErr(null); setData(d); setStep((s) => Math.min(s, d.steps.length - 1));
        // a player's own replay opens at their seat (its 分析 at hand), not as a spectator
        const mine = (d.accounts || []).indexOf(session.account ? session.account.id : -1);
        if (!picked && seat === null && mine >= 0) { setPicked(true); setSeat(mine); }
      })
      .catch((e) => setErr(e));
  }, [id, rnd, seat, invite]);
  useEffect(() => {
    if (!speed || !data) return undefined;
    const n = data.steps.length - 1;
    const timer = setInterval(() => setStep((s) => (s >= n ? s : s + 1)), 1000 / speed);
    return () => clearInterval(timer);
  }, [speed, data]);
  useEffect(() => {
    const key = (e) => {
      if (!data || e.target.closest("input, select")) return;
      const n = data.steps.length - 1;
      if (e.key === "ArrowRight") setStep((s) => Math.min(n, s + 1));
      else if (e.key === "ArrowLeft") setStep((s) => Math.max(0, s - 1));
      else if (e.key === "Home") setStep(0);
      else if (e.key === "End") setStep(n);
    };
    document.addEventListener("keydown", key);
    return () => document.removeEventListener("keydown", key);
  }, [data]);
  if (err) {
    return html`<main class="screen"><p class="error" role="alert" data-replay-error>${errorWords(err.code, err.reason)}</p>
      <a class="btn" href="#/">${t("to_lobby")}</a></main>`;
  }
  if (!data) return html`<main class="screen"><p>${t("loading")}</p></main>`;
  const n = data.steps.length - 1;
  const st = data.steps[Math.min(step, n)];
  // A bot's seat is named by its level, as at the live table (its account's nickname is "putong bot").
  const nm = data.names.map((name, i) => (data.bots && data.bots[i] ? seatName({ bot: data.bots[i] }, i) : name));
  const log = [];
  data.steps.slice(Math.max(0, step - 3), step + 1).forEach((s, i) => s.events.forEach((ev, j) => {
    log.push({ seq: i * 100 + j, ev });
  }));
  const header = html`<div class="replay-bar">
    <a class="btn small" href="#/" data-back aria-label=${t("to_lobby")}>‹ ${t("lobby")}</a>
    <button class="btn small" data-download title=${t("download_why")} onClick=${() => downloadRecord(id, invite)}>${t("download_record")}</button>
    <label>${t("round_sel")} <select aria-label=${t("round_sel")} onChange=${(e) => { setRnd(Number(e.target.value)); setStep(0); }}>
      ${Array.from({ length: data.rounds }, (_, i) => html`<option value=${i} selected=${i === rnd}>${i + 1}</option>`)}</select></label>
    <label>${t("view_as")} <select aria-label=${t("view_as")} data-view-as
        onChange=${(e) => { const x = e.target.value; setPicked(true); setSeat(x === "" ? null : x === "open" ? "open" : Number(x)); }}>
      <option value="" selected=${seat === null}>${t("spectator")}</option>
      ${[0, 1, 2].map((s) => html`<option value=${s} selected=${seat === s}>${seatWord(s, null, nm)}</option>`)}
      <option value="open" selected=${seat === "open"}>${t("open_hands")}</option></select></label>
    <span class="grow" data-step>${t("step", { i: step, n })}</span>
    <div class="stepper">
      <button class="btn small" aria-label=${t("first")} onClick=${() => setStep(0)}>«</button>
      <button class="btn small" aria-label=${t("prev")} onClick=${() => setStep(Math.max(0, step - 1))}>‹</button>
      <input type="range" min="0" max=${n} value=${step} aria-label=${t("step", { i: step, n })} onInput=${(e) => setStep(Number(e.target.value))} />
      <button class="btn small" aria-label=${t("next")} onClick=${() => setStep(Math.min(n, step + 1))}>›</button>
      <button class="btn small" aria-label=${t("last")} onClick=${() => setStep(n)}>»</button>
      <label class="speed">${t("autoplay")} <select aria-label=${t("autoplay")} data-speed
          onChange=${(e) => setSpeed(Number(e.target.value))}>
        ${[0, 1, 2, 4].map((x) => html`<option value=${x} selected=${speed === x}>${x ? `${x}×` : t("paused")}</option>`)}</select></label>
    </div>
  </div>`;
  return html`<main class="screen play replay">
    <h2>${t("replay_of", { id })}</h2>
    <${AnalysisPanel} id=${id} seat=${seat === "open" ? null : seat} round=${rnd} onJump=${(i) => { setSpeed(0); setStep(Math.min(i, n)); }} />
    <${Table} v=${st.view} me=${seat === "open" ? null : seat} names=${nm} log=${log} header=${header}
      maxCols=${Math.max(6, Math.floor((Math.min(window.innerWidth, 1100) - 16) / 47))} />
    ${step === n && data.result && html`<${Settlement} r=${{ ...data.result, round: rnd }} me=${seat === "open" ? null : seat} nm=${nm} onNext=${() => setStep(Math.max(0, n - 1))} final=${false} total=${data.rounds} replay=${true} />`}
  </main>`;
}

function Account() {
  const [me, setMe] = useState(null);
  const [matches, setMatches] = useState([]);
  const [ledger, setLedger] = useState([]);
  useEffect(() => {
    api("GET", "/accounts/me").then((a) => { setMe(a); session.setAccount(a); }).catch(showError);
    api("GET", "/accounts/me/matches").then(setMatches).catch(showError);
    api("GET", "/accounts/me/ledger").then(setLedger).catch(showError);
  }, []);
  if (!me) return html`<main class="screen"><p>${t("loading")}</p></main>`;
  return html`<main class="screen account">
    <h2>${t("my_account")}</h2>
    <p class="big-balance">${me.nickname} · ${t("balance")} <b data-balance>${me.balance}</b></p>
    <section class="panel"><h3>${t("history")}</h3>
      ${matches.length === 0 ? html`<p class="muted">${t("no_matches")}</p>` : html`<ul class="rooms">
        ${matches.map((m) => html`<li class="room-row" key=${m.match_id}>
          <span>${t("match_n", { id: m.match_id })}</span><span class="muted">${t("room", { code: m.room })}</span>
          <span>${t(`status_${m.status}`)}</span>
          <span class=${m.net > 0 ? "plus" : m.net < 0 ? "minus" : ""}>${t("net")} ${m.net > 0 ? "+" : ""}${m.net}</span>
          <span class="grow"></span>
          ${m.status === "finished" ? html`<a class="btn small" href=${`#/replay/${m.match_id}`}>${t("replay")}</a>`
            : html`<a class="btn small" href=${`#/room/${m.room}`}>${t("join")}</a>`}
        </li>`)}</ul>`}
    </section>
    <${Record} matches=${matches} ledger=${ledger} />
    <${AnalysisStats} />
    <section class="panel"><h3>${t("ledger")}</h3>
      <table class="ledger"><tbody>${ledger.slice().reverse().slice(0, 50).map((r) => html`<tr>
        <td>${t(`reason_${r.reason}`)}${r.match_id ? ` · ${t("match_n", { id: r.match_id })}` : ""}${r.round !== null ? ` · ${t("round_n", { n: r.round + 1 })}` : ""}</td>
        <td class=${r.delta > 0 ? "plus" : r.delta < 0 ? "minus" : ""}>${r.delta > 0 ? "+" : ""}${r.delta}</td><td>${r.balance_after}</td></tr>`)}</tbody></table>
    </section>
    <a class="btn" href="#/">${t("to_lobby")}</a>
  </main>`;
}

/** The account's record over its matches for 悟性 (the ledger's rounds; a room-local
 * match's scores are not the account's): matches finished and won, rounds, 胡 (a round
 * that gained: only its winner gains), and the average a round. */
function Record({ matches, ledger }) {
  const done = matches.filter((m) => m.status === "finished" && m.scoring === "ledger");
  const rounds = ledger.filter((r) => r.reason === "round");
  if (!done.length && !rounds.length) return null;
  const hu = rounds.filter((r) => r.delta > 0).length;
  const sum = rounds.reduce((n, r) => n + r.delta, 0);
  const avg = rounds.length ? sum / rounds.length : 0;
  return html`<section class="panel" data-record><h3>${t("my_stats")}</h3>
    <p>${t("stats_line", { m: done.length, w: done.filter((m) => m.net > 0).length, r: rounds.length, h: hu,
      rate: `${rounds.length ? Math.round((100 * hu) / rounds.length) : 0}%`, avg: `${avg > 0 ? "+" : ""}${avg.toFixed(2)}` })}</p>
  </section>`;
}

function App() {
  const r = S.route;
  let body;
  if (r.name === "replay" && r.arg) body = html`<${Replay} id=${r.arg} invite=${r.invite} key=${`${r.arg}/${r.invite}`} />`;
  else if (!session.token) body = html`<${Login} />`;
  else if (r.name === "room" && r.arg) body = html`<${RoomScreen} code=${r.arg} invite=${r.invite} key=${`r${r.arg}`} spectate=${false} />`;
  else if (r.name === "watch" && r.arg) body = html`<${RoomScreen} code=${r.arg} invite=${r.invite} key=${`w${r.arg}`} spectate=${true} />`;
  else if (r.name === "account") body = html`<${Account} />`;
  else if (r.name === "clubs") body = html`<${ClubsScreen} arg=${r.arg} invite=${r.invite} go=${go} toast=${toast} key=${`clubs${r.arg}/${r.invite}`} />`;
  else body = html`<${Lobby} />`;
  return html`<${TopBar} />${body}
    ${S.toast && html`<div class=${`toast ${S.toast.kind}`} role="alert" onClick=${() => { S.toast = null; rerender(); }}>${S.toast.text}</div>`}`;
}

setLang(lang());
window.addEventListener("resize", rerender);
render(html`<${App} />`, document.getElementById("app"));
requestAnimationFrame(() => performance.mark("phz-first-screen")); // the first screen is drawn
window.__phz = S; // for tests and the curious
// Sounds after the first screen: the module now, each file on its first use.
requestAnimationFrame(() => setTimeout(() => import("./sound.js").then((m) => { sound = m; rerender(); }), 0));
// Installable: the service worker caches the static files (the live state still comes from
// the server); registered after the first screen.
if ("serviceWorker" in navigator && location.protocol !== "file:") {
  window.addEventListener("load", () => navigator.serviceWorker.register("/sw.js").catch(() => {}));
}
