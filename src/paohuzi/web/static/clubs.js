// 亲友圈 (clubs): #/clubs lists mine, creates one and asks to join one by code; #/clubs/ID
// is a club (members, templates → open a room, its tables, standings, seasons);
// #/clubs/ID/KEY is its invite link (joins at once). Phone first: one column of panels.
import { html, useEffect, useState } from "./vendor/htm-preact-standalone.js";
import { api } from "./api.js";
import { lang, errorWords } from "./i18n.js";

// Words of this screen: [中文, English].
const W = {
  clubs: ["亲友圈", "Clubs"],
  my_clubs: ["我的亲友圈", "My clubs"],
  none: ["还没有亲友圈", "No club yet"],
  create_club: ["创建亲友圈", "Create a club"],
  club_name: ["圈名", "Club name"],
  create: ["创建", "Create"],
  join_code: ["输入圈号申请加入", "Ask to join by code"],
  club_code: ["圈号", "Club code"],
  ask: ["申请", "Ask"],
  asked: ["已申请，等待审核", "Asked: waiting for approval"],
  pending: ["待审核", "pending"],
  owner: ["圈主", "owner"],
  admin: ["管理员", "admin"],
  member: ["成员", "member"],
  invite: ["邀请链接", "Invite link"],
  members: ["成员", "Members"],
  online: ["在线", "online"],
  at_table: ["在桌", "at table"],
  approve: ["通过", "Approve"],
  remove: ["移除", "Remove"],
  leave: ["退出亲友圈", "Leave the club"],
  templates: ["玩法模板", "Room templates"],
  template_name: ["模板名", "Template name"],
  rounds: ["局数", "Rounds"],
  bots: ["允许机器人", "Bots may sit"],
  add_template: ["添加模板", "Add template"],
  open_room: ["开房", "Open a room"],
  tables: ["圈内牌桌", "Club tables"],
  no_tables: ["暂无牌桌", "No table"],
  join: ["加入", "Join"],
  watch: ["观战", "Watch"],
  standings: ["战绩榜", "Standings"],
  season: ["赛季", "Season"],
  player: ["玩家", "Player"],
  played: ["局", "Rounds"],
  wins: ["胡", "Wins"],
  big: ["大赢家", "Top"],
  points: ["分", "Points"],
  close_season: ["结束本赛季", "Close the season"],
  confirm_close: ["结束本赛季？榜单将存档，新赛季从零开始。", "Close the season? Its table is kept; the next starts from zero."],
  back: ["返回", "Back"],
  refresh: ["刷新", "Refresh"],
};
const w = (k) => W[k][lang() === "en" ? 1 : 0];
const role = (r) => (W[r] ? w(r) : r);

function useLoad(path, deps) {
  const [state, set] = useState({ data: null, error: null });
  const load = () => api("GET", path).then((data) => set({ data, error: null }), (error) => set({ data: null, error }));
  useEffect(() => { load(); }, deps);
  return [state, load];
}

function Failed({ error }) {
  return html`<p class="error">${errorWords(error.code, error.reason)}</p>`;
}

/** The lobby's way to the clubs. */
export function ClubsLink() {
  return html`<p class="clubs-link"><a class="btn" href="#/clubs">${w("clubs")}</a></p>`;
}

/** The clubs' screens; ``arg``: a club id, ``invite``: its invite key. */
export function ClubsScreen({ arg, invite, go, toast }) {
  if (arg) return html`<${Club} id=${arg} invite=${invite} go=${go} toast=${toast} key=${`c${arg}`} />`;
  return html`<${MyClubs} go=${go} toast=${toast} />`;
}

function MyClubs({ go, toast }) {
  const [{ data, error }, load] = useLoad("/clubs", []);
  const create = async (e) => {
    e.preventDefault();
    try {
      const c = await api("POST", "/clubs", { name: e.target.name.value });
      go(`/clubs/${c.id}`);
    } catch (err) { toast(errorWords(err.code, err.reason)); }
  };
  const ask = async (e) => {
    e.preventDefault();
    try {
      await api("POST", "/clubs/requests", { code: e.target.code.value.trim() });
      toast(w("asked"), "info");
      e.target.reset();
      load();
    } catch (err) { toast(errorWords(err.code, err.reason)); }
  };
  return html`<main class="screen clubs">
    <section class="panel">
      <h2>${w("my_clubs")}</h2>
      ${error ? html`<${Failed} error=${error} />` : data === null ? null : data.length === 0 ? html`<p class="muted">${w("none")}</p>`
        : html`<ul class="rooms">${data.map((c) => html`<li class="room-row club-row" key=${c.id} data-club=${c.id}>
          <span class="code">${c.code}</span><span>${c.name}</span><span class="muted">${role(c.role)}</span><span class="grow"></span>
          ${c.role !== "pending" && html`<a class="btn" href=${`#/clubs/${c.id}`}>${w("join")}</a>`}
        </li>`)}</ul>`}
    </section>
    <section class="panel">
      <h2>${w("create_club")}</h2>
      <form class="row-form" onSubmit=${create}>
        <input name="name" maxlength="32" placeholder=${w("club_name")} aria-label=${w("club_name")} required />
        <button class="btn primary" type="submit">${w("create")}</button>
      </form>
    </section>
    <section class="panel">
      <h2>${w("join_code")}</h2>
      <form class="row-form" onSubmit=${ask}>
        <input name="code" maxlength="6" pattern="[A-Za-z0-9]{6}" placeholder=${w("club_code")} aria-label=${w("club_code")} required />
        <button class="btn primary" type="submit">${w("ask")}</button>
      </form>
    </section>
  </main>`;
}

function Club({ id, invite, go, toast }) {
  const [joined, setJoined] = useState(!invite);
  const [club, setClub] = useState(null);
  const [error, setError] = useState(null);
  const [tick, setTick] = useState(0);
  const refresh = () => setTick((n) => n + 1);
  useEffect(() => {
    if (joined) return;
    api("POST", `/clubs/${id}/join`, { key: invite }).then(() => { setJoined(true); go(`/clubs/${id}`); }, setError);
  }, [joined]);
  useEffect(() => {
    if (joined) api("GET", `/clubs/${id}`).then(setClub, setError);
  }, [joined, tick]);
  if (error) return html`<main class="screen"><${Failed} error=${error} /><a class="btn" href="#/clubs">${w("back")}</a></main>`;
  if (!club) return html`<main class="screen"><p class="loading">…</p></main>`;
  const admin = club.role === "owner" || club.role === "admin";
  const run = (fn) => async (...a) => {
    try { await fn(...a); refresh(); } catch (err) { toast(errorWords(err.code, err.reason)); }
  };
  const link = club.invite_key ? `${location.origin}/#/clubs/${club.id}/${club.invite_key}` : null;
  return html`<main class="screen clubs club" data-club=${club.id}>
    <section class="panel">
      <h2>${club.name} <span class="code">${club.code}</span> <span class="muted">${role(club.role)}</span>
        <button class="btn ghost small" onClick=${refresh}>${w("refresh")}</button></h2>
      ${link && html`<label class="invite">${w("invite")}<input readonly value=${link} onFocus=${(e) => e.target.select()} /></label>`}
    </section>
    <${Tables} id=${club.id} tick=${tick} />
    <${Templates} id=${club.id} admin=${admin} tick=${tick} run=${run} go=${go} />
    <${Standings} id=${club.id} owner=${club.role === "owner"} tick=${tick} run=${run} />
    <${Members} id=${club.id} admin=${admin} tick=${tick} run=${run} />
    ${club.role !== "owner" && html`<p class="foot"><button class="btn ghost small" onClick=${run(async () => {
      const me = await api("GET", "/accounts/me");
      await api("DELETE", `/clubs/${club.id}/members/${me.id}`);
      go("/clubs");
    })}>${w("leave")}</button></p>`}
  </main>`;
}

function Tables({ id, tick }) {
  const [{ data }] = useLoad(`/clubs/${id}/rooms`, [tick]);
  return html`<section class="panel club-tables">
    <h2>${w("tables")}</h2>
    ${data === null ? null : data.length === 0 ? html`<p class="muted">${w("no_tables")}</p>`
      : html`<ul class="rooms">${data.map((r) => html`<li class="room-row" key=${r.code} data-code=${r.code}>
        <span class="code">${r.code}</span><span>${r.seats.filter(Boolean).length}/3 · ${w("rounds")} ${r.rounds}</span><span class="grow"></span>
        <a class="btn" href=${`#/room/${r.code}`}>${w("join")}</a><a class="btn ghost" href=${`#/watch/${r.code}`}>${w("watch")}</a>
      </li>`)}</ul>`}
  </section>`;
}

function Templates({ id, admin, tick, run, go }) {
  const [{ data }] = useLoad(`/clubs/${id}/templates`, [tick]);
  const add = run(async (e) => {
    e.preventDefault();
    const f = e.target;
    await api("POST", `/clubs/${id}/templates`, { name: f.name.value, rounds: Number(f.rounds.value), bots: f.bots.checked });
    f.reset(); // (back to the form's defaults: reset alone chose 1 round and no bots)
    f.rounds.value = "8";
    f.bots.checked = true;
  });
  const open = run(async (tid) => {
    const room = await api("POST", `/clubs/${id}/templates/${tid}/open`);
    // The member who opens the room sits in it, as a room made in the lobby seats its host.
    await api("POST", `/rooms/${room.code}/join`, { seat: null, key: room.invite_key });
    go(`/room/${room.code}`);
  });
  return html`<section class="panel templates">
    <h2>${w("templates")}</h2>
    ${data && html`<ul class="rooms">${data.map((tp) => html`<li class="room-row template-row" key=${tp.id} data-template=${tp.id}>
      <span>${tp.name}</span><span class="muted">${w("rounds")} ${tp.rounds}</span><span class="grow"></span>
      <button class="btn primary" onClick=${() => open(tp.id)}>${w("open_room")}</button>
    </li>`)}</ul>`}
    ${admin && html`<form class="card-form template-form" onSubmit=${add}>
      <input name="name" maxlength="32" placeholder=${w("template_name")} aria-label=${w("template_name")} required />
      <label>${w("rounds")}<select name="rounds">${[1, 2, 4, 8, 16].map((n) => html`<option value=${n} selected=${n === 8}>${n}</option>`)}</select></label>
      <label class="check"><input type="checkbox" name="bots" checked />${w("bots")}</label>
      <button class="btn" type="submit">${w("add_template")}</button>
    </form>`}
  </section>`;
}

function Standings({ id, owner, tick, run }) {
  const [season, setSeason] = useState("");
  const [{ data: seasons }] = useLoad(`/clubs/${id}/seasons`, [tick]);
  const [{ data }] = useLoad(`/clubs/${id}/standings${season ? `?season=${season}` : ""}`, [tick, season]);
  const close = run(async () => {
    if (!confirm(w("confirm_close"))) return;
    await api("POST", `/clubs/${id}/seasons/close`);
    setSeason("");
  });
  return html`<section class="panel standings">
    <h2>${w("standings")}
      ${seasons && html`<select aria-label=${w("season")} value=${season} onChange=${(e) => setSeason(e.target.value)}>
        ${seasons.slice().reverse().map((s) => html`<option value=${s.closed_at ? s.number : ""}>${w("season")} ${s.number}</option>`)}
      </select>`}</h2>
    ${data && html`<table class="ledger standings-table" data-season=${data.number}>
      <thead><tr><th>${w("player")}</th><th>${w("played")}</th><th>${w("wins")}</th><th>${w("big")}</th><th>${w("points")}</th></tr></thead>
      <tbody>${data.standings.map((e) => html`<tr key=${e.account_id} data-account=${e.account_id}>
        <td>${e.nickname}</td><td>${e.rounds}</td><td>${e.wins}</td><td>${e.dayingjia}</td>
        <td class=${e.points > 0 ? "plus" : e.points < 0 ? "minus" : ""}>${e.points > 0 ? "+" : ""}${e.points}</td></tr>`)}</tbody>
    </table>`}
    ${owner && !season && html`<button class="btn close-season" onClick=${close}>${w("close_season")}</button>`}
  </section>`;
}

function Members({ id, admin, tick, run }) {
  const [{ data }] = useLoad(`/clubs/${id}/members`, [tick]);
  const approve = run((aid) => api("POST", `/clubs/${id}/members/${aid}/approve`));
  const remove = run((aid) => api("DELETE", `/clubs/${id}/members/${aid}`));
  return html`<section class="panel members">
    <h2>${w("members")}</h2>
    ${data && html`<ul class="rooms">${data.map((m) => html`<li class="room-row member-row" key=${m.account_id} data-account=${m.account_id}>
      <span>${m.nickname}</span><span class="muted">${role(m.role)}</span>
      ${m.online && html`<span class="plus">${m.table ? `${w("at_table")} ${m.table}` : w("online")}</span>`}
      <span class="grow"></span>
      ${admin && m.role === "pending" && html`<button class="btn primary small" onClick=${() => approve(m.account_id)}>${w("approve")}</button>`}
      ${admin && m.role !== "owner" && html`<button class="btn ghost small" onClick=${() => remove(m.account_id)}>${w("remove")}</button>`}
    </li>`)}</ul>`}
  </section>`;
}
