// One seat's live connection: snapshot + numbered events + prompts, resync by number,
// intents resent after a reconnect (the server applies a client id once).

const WS_PATH = (code, invite) =>
  `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${code}${invite ? `?key=${encodeURIComponent(invite)}` : ""}`;

const RESEND_MS = 500; // before an act dropped over the socket's rate goes again

export class Game {
  /**
   * ``onChange(game)`` after anything changed; ``onEvent(msg, live)`` for each event
   * (``live`` false while catching up after a (re)connect).
   */
  constructor({ code, invite = null, token, spectate = false, onChange, onEvent, onError, onVote, onSaid, onTimeout = () => {} }) {
    Object.assign(this, { code, invite, token, spectate, onChange, onEvent, onError, onVote, onSaid, onTimeout });
    this.seats = null; // [{seat, bot, connected, tuoguan, reason}]
    this.dissolve = null; // the open 解散 vote
    this.deadline = null;
    this.clocks = [null, null, null]; // each seat's deadline (this machine's ms) as shown to us
    this.skew = 0; // this machine's clock less the server's, seconds
    this.ready = null; // the wait for 准备 between rounds (readiness), with ``until``
    this.seq = 0; // events received, numbered 1, 2, …
    this.events = []; // [{seq, round, event}]
    this.snapshot = null; // the last snapshot message (its view is the table)
    this.prompt = null; // the latest snapshot: the view and its legal actions, one moment
    this.lastPrompt = null;
    this.waiting = null; // the waiting message before the start
    this.over = null; // match_over
    this.pending = null; // an act not yet acknowledged
    this.connected = false;
    this.closed = false;
    this.synced = false; // the first snapshot after a connect has come
    this.resyncing = false;
    this.dirty = false; // a prompt came after the resync was asked
    this.extra = {}; // messages this client does not model (托管, deadlines, votes) by type
    this.retry = 0;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const ws = new WebSocket(WS_PATH(this.code, this.invite));
    this.ws = ws;
    this.synced = false;
    this.resyncing = false;
    ws.onopen = () => {
      this.connected = true;
      this.retry = 0;
      const hello = { type: "auth", token: this.token, since: this.seq, views: true };
      if (this.spectate) hello.spectate = true;
      ws.send(JSON.stringify(hello));
      if (this.pending) ws.send(JSON.stringify(this.pending));
      this.onChange(this);
    };
    ws.onmessage = (e) => this.receive(JSON.parse(e.data));
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.connected = false;
      this.onChange(this);
      if (this.closed || this.over) return;
      const delay = Math.min(3000, 300 * 2 ** this.retry++);
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  /** Ask for a fresh snapshot (the view after the latest decision). */
  resync() {
    if (this.resyncing) { this.dirty = true; return; }
    this.resyncing = true;
    this.dirty = false;
    this.send({ type: "resync" });
  }

  receive(m) {
    switch (m.type) {
      case "event":
        if (m.seq !== this.seq + 1) { // a gap: ask for the table as it is now
          this.resync();
          return;
        }
        this.seq = m.seq;
        this.events.push(m);
        if (this.events.length > 400) this.events.splice(0, this.events.length - 400);
        this.onEvent(m, this.synced);
        break;
      case "snapshot":
        this.seq = m.seq;
        if (m.seats) this.seats = m.seats;
        this.dissolve = m.dissolve ? { ...m.dissolve, until: Date.now() + m.dissolve.remaining * 1000 } : null;
        this.clock(m);
        this.readiness(m.ready || null);
        this.snapshot = m;
        this.prompt = m;
        this.synced = true;
        this.waiting = null;
        this.resyncing = false;
        if (this.dirty) this.resync();
        break;
      case "prompt":
        this.lastPrompt = m;
        // Our decision was open, our clock had run out, we sent nothing, and the question
        // moved on: the server answered for us (过, or the heuristic's card). Say so.
        if (this.prompt && this.prompt.legal.length && !this.pending && this.deadline !== null
            && Date.now() >= this.deadline - 250 && m.since !== this.prompt.since) this.onTimeout();
        this.clock(m);
        if (this.ready && m.round >= this.ready.round) this.ready = null; // dealt
        // The auth asked for ``views``: the prompt carries the table after the decision. A
        // prompt without one (an older server) or one that outran a resync asks for a snapshot.
        if (m.view && this.snapshot && this.synced && !this.resyncing) this.adopt(m);
        else this.resync();
        break;
      case "ack":
        if (this.pending && this.pending.client_id === m.client_id) this.pending = null;
        break;
      case "error":
        if (this.pending && m.client_id === this.pending.client_id) {
          this.pending = null;
          this.actedAt = null;
        } else if (this.pending && m.code === "rate_limited" && m.client_id == null) {
          // Dropped unread over the socket's rate, which cannot say which message: the act
          // in flight goes again after a pause (its client_id makes a repeat harmless);
          // left alone it would wait for an ack forever.
          const act = this.pending;
          setTimeout(() => { if (this.pending === act) this.send(act); }, RESEND_MS);
        }
        this.onError(m);
        break;
      case "waiting":
        this.waiting = m;
        this.synced = true;
        break;
      case "match_over":
        this.over = m;
        break;
      case "seats":
        this.seats = m.seats;
        break;
      case "readiness":
        this.readiness(m);
        break;
      case "said":
        this.onSaid && this.onSaid(m);
        break;
      case "dissolve_vote":
        this.dissolve = m.outcome ? null : { ...m, until: Date.now() + m.remaining * 1000 };
        this.onVote && this.onVote(m);
        break;
      case "pong":
        return;
      default:
        this.extra[m.type] = m;
    }
    this.onChange(this);
  }

  /** Take a prompt's view and legal actions as the table now (as a snapshot would). */
  adopt(m) {
    const snap = { ...this.snapshot, round: m.round, step: m.step, since: m.since, seq: this.seq, view: m.view, legal: m.legal };
    this.snapshot = snap;
    this.prompt = snap;
  }

  /** The seat's decision deadline as this machine's clock reads it (null: none). */
  clock(m) {
    if (m.remaining === undefined) return;
    this.deadline = m.remaining === null ? null : Date.now() + m.remaining * 1000;
    if (m.deadline !== null && m.deadline !== undefined) this.skew = Date.now() / 1000 - (m.deadline - m.remaining);
    if (m.clocks) this.clocks = m.clocks.map((d) => (d === null ? null : (d + this.skew) * 1000));
  }

  /** The wait for 准备 (a readiness message or a snapshot's ``ready``; null: none). */
  readiness(m) {
    this.ready = m ? { ...m, until: Date.now() + m.remaining * 1000 } : null;
  }

  /** 快捷语: say phrase ``id`` (0-15) to the table. */
  say(id) { this.send({ type: "chat", phrase: id }); }

  /** 准备: ready for the next round. */
  readyUp() {
    if (!this.ready || this.spectate) return;
    this.send({ type: "ready" });
    this.pressed = this.ready.round;
    this.onChange(this);
  }

  /** 托管 on or off for this seat. */
  tuoguan(on) { this.send({ type: "tuoguan", on }); }

  /** Propose 解散, or vote on the open proposal. */
  vote(agree) { this.send({ type: "dissolve", agree }); }

  /** Whether a decision of ours is in flight or the table has not yet shown it. */
  get busy() {
    if (this.pending) return true;
    return this.actedAt !== null && this.actedAt !== undefined && this.snapshot && this.snapshot.step <= this.actedAt;
  }

  /** Send a decision made against the latest prompt; resent after a reconnect until acked. */
  act(actionId) {
    if (!this.prompt || this.busy) return false;
    const id = (crypto.randomUUID && crypto.randomUUID()) || `${Date.now()}-${Math.random()}`;
    this.pending = { type: "act", action: actionId, step: this.prompt.step, client_id: id };
    this.actedAt = this.prompt.step;
    this.send(this.pending);
    this.onChange(this);
    return true;
  }
}
