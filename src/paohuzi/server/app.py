"""The FastAPI application: accounts and rooms over HTTP, play over a WebSocket."""

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Depends, FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..core.match import Match
from ..core.rules import HONG_GUAI_WAN, RuleSet
from . import accounts, rulesets, wirejson
from .commit import close_committer, committer_for
from .db import (
    Account,
    Decision,
    LedgerEntry,
    MatchRow,
    RoomRow,
    RoomSeat,
    RoundRow,
    make_engine,
    room_by_code,
    upgrade,
)
from .errors import ApiError
from .expiry import ExpirySettings, sweep_rooms
from .guard import BodyLimit, GuardSettings
from .headers import SecurityHeaders
from .limits import CLOSE_UNAUTHENTICATED, PlaySettings, TokenBucket
from .logouts import CHANNEL as LOGOUT_CHANNEL
from .logouts import CLOSE_LOGGED_OUT, SignedInSockets
from .metrics import Metrics, add_ops
from .protocol import (
    CLIENT_TYPES,
    CLOSE_FLOOD,
    MAX_MESSAGE,
    Auth,
    ClientMsg,
    Dissolve,
    ErrorMsg,
    Ping,
    Pong,
    Resync,
    Tuoguan,
    Waiting,
    client_adapter,
)
from .ratelimit import Rates, RateSettings
from .replays import ReplayCache, encode_record
from .rooms import check_quota, find_room, new_code, room_json
from .seating import claim_open, commit_seats, seats_of
from .tables import Connection, SeatInfo, Table, TableHandle
from .validation import MatchId
from .validation import install as install_validation
from .web import add_web

if TYPE_CHECKING:  # pragma: no cover
    from .cluster import Cluster

__all__ = ["create_app"]

log = logging.getLogger("paohuzi.server")

BOT_KINDS = ("random", "heuristic", "search", "learned", "guided")


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


# What accounts.py accepts, written into the schema (nicknames are also stripped and must
# be printable: checked there, answered 400 bad_nickname).
Username = Annotated[str, Field(pattern=r"^[A-Za-z0-9_]{3,32}$")]
Password = Annotated[str, Field(min_length=8, max_length=128)]
Nickname = Annotated[str, Field(min_length=1, max_length=32)]


class Credentials(_Body):
    """Username and password (a wrong one of either is a bad login, 401)."""

    username: Annotated[str, Field(max_length=32)]
    password: Annotated[str, Field(max_length=128)]


class RegisterBody(_Body):
    """A new account; the nickname defaults to the username."""

    username: Username
    password: Password
    nickname: Nickname | None = None


class GuestBody(_Body):
    """A guest account."""

    nickname: Nickname


class RoomBody(_Body):
    """Room options: rounds, public or private, the per-decision time limit in seconds
    (None: no limit), and RuleSet fields to change (server/rulesets.py: which, to what)."""

    rounds: Annotated[int, Field(ge=1, le=32)] = 8
    public: bool = True
    time_limit: Annotated[float, Field(ge=0.1, le=3600, allow_inf_nan=False)] | None = None
    rules: dict[str, int | bool | str] = Field(default_factory=dict)


class JoinBody(_Body):
    """Which seat to take (None: the first free one), and a private room's invite key."""

    seat: Annotated[int | None, Field(ge=0, le=2)] = None
    key: Annotated[str | None, Field(max_length=64)] = None


class BotBody(_Body):
    """Fill a seat (None: every free seat) with a bot."""

    seat: Annotated[int | None, Field(ge=0, le=2)] = None
    bot: str = "heuristic"


class ErrorBody(BaseModel):
    """Every refused HTTP request: a code a client can switch on and a reason to show."""

    code: str
    reason: str


# The refusals any call may answer with (documented in the OpenAPI schema).
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": why}
    for status, why in [
        (400, "a bad request (the code says which check failed)"),
        (401, "no valid session token, or a bad login"),
        (403, "not allowed (only the host may do this)"),
        (404, "no such room or match"),
        (409, "the room or match is not in a state for this"),
        (413, "a request body over the limit (64 KiB)"),
        (429, "too many requests (failed logins, sign-ups, rooms, look-ups, replays)"),
        (503, "not ready yet, or no free room code"),
    ]
}


class Hub:
    """The live tables, by room code, and the sockets waiting for a room to start.

    A table leaves ``tables`` when its match ends (its sockets keep it until they close);
    a finished match is served from the database afterwards.
    """

    def __init__(self, sessions: async_sessionmaker[AsyncSession], settings: PlaySettings) -> None:
        self.sessions = sessions
        self.settings = settings
        self.tables: dict[str, Table] = {}
        self.codes: dict[int, str] = {}  # match id -> room code, for the live tables
        self.waiting: dict[str, list[Connection]] = {}
        self.lock = asyncio.Lock()  # room changes (join, leave, bots, start)
        self.sockets = 0  # open WebSockets (a metric)
        self.unauthenticated: dict[str, set[Connection]] = {}  # sockets by address, until auth
        self.metrics = Metrics(lambda: len(self.tables), lambda: self.sockets)
        self.cluster: Cluster | None = None  # several workers (--redis): cluster.py
        self.signed_in = SignedInSockets()  # logout ends them (logouts.py)

    def add(self, code: str, table: Table) -> None:
        """Make ``table`` the room's live table and start its driver."""
        self.tables[code] = table
        self.codes[table.match_id] = code
        table.hooks = self.metrics
        table.launch()

    async def adopt(self, code: str, table: Table) -> None:
        """A match started here: own it (several workers), then ``add`` it."""
        if self.cluster is not None:
            await self.cluster.adopt(table)
        self.add(code, table)
        if self.cluster is not None:
            await self.cluster.announce(code)

    def release(self, table: Table) -> None:
        """Forget a finished table (its driver calls this as it ends)."""
        code = self.codes.pop(table.match_id, None)
        if code is not None and self.tables.get(code) is table:
            del self.tables[code]
        if self.cluster is not None:
            self.cluster.ended(table)

    async def started_elsewhere(self, code: str) -> None:
        """Another worker started a room: its sockets waiting here attach to it."""
        if self.cluster is None or not self.waiting.get(code):
            return
        async with self.lock:  # not while this worker is starting a room
            conns = self.waiting.pop(code, [])
        async with self.sessions() as db:
            room = await db.scalar(room_by_code(code))
            seats = {
                s.account_id: s.seat
                for s in (
                    await db.scalars(select(RoomSeat).where(RoomSeat.room_id == room.id))
                ).all()
            } if room is not None else {}  # fmt: skip
        for conn in conns:
            if not conn.spectator:
                conn.seat = seats.get(conn.account_id or -1)
            if not conn.spectator and conn.seat is None:
                continue  # left the room before it started
            handle = await self.cluster.bind(room) if room is not None else None
            if handle is None:  # not announced yet: keep waiting
                self.waiting.setdefault(code, []).append(conn)
            else:
                await handle.attach(conn, conn.since)

    async def load(self, db: AsyncSession, row: MatchRow, room: RoomRow) -> Table:
        """Rebuild a match's table from the database."""
        return await Table.load(
            self.sessions,
            row,
            await _seat_infos(db, room.id),
            time_limit=room.time_limit,
            settings=self.settings,
            on_end=self.release,
        )

    async def restore(self) -> None:
        """Rebuild every unfinished match from its log (after a restart or a crash)."""
        async with self.sessions() as db:
            rows = (await db.scalars(select(MatchRow).where(MatchRow.status == "playing"))).all()
            for row in rows:
                room = await db.get(RoomRow, row.room_id)
                assert room is not None
                self.add(room.code, await self.load(db, row, room))

    async def stop(self) -> None:
        """Stop every driver (shutdown)."""
        for table in list(self.tables.values()):
            await table.stop()


async def _seat_infos(db: AsyncSession, room_id: int) -> list[SeatInfo]:
    seats = (
        await db.scalars(
            select(RoomSeat).where(RoomSeat.room_id == room_id).order_by(RoomSeat.seat)
        )
    ).all()
    return [SeatInfo(s.account_id, s.bot, bool(s.tuoguan)) for s in seats]


def _address(conn: Request | WebSocket) -> str:
    return conn.client.host if conn.client else "?"


def _bearer(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


def create_app(
    db_url: str,
    settings: PlaySettings | None = None,
    *,
    redis_url: str | None = None,
    lease_ms: int = 2000,
    rates: RateSettings | None = None,
    expiry: ExpirySettings | None = None,
) -> FastAPI:
    """The application for the database at ``db_url`` (migrated on start); ``settings``
    default to the environment's (:meth:`PlaySettings.from_env`). With ``redis_url`` it
    is one worker of several sharing the database (cluster.py); without, the only one."""
    engine, sessions = make_engine(db_url)
    play_settings = settings or PlaySettings.from_env()
    hub = Hub(sessions, play_settings)
    limit = Rates(rates or RateSettings.from_env())
    expiry_settings = expiry or ExpirySettings.from_env()
    replays = ReplayCache()
    if redis_url is not None:
        from .cluster import Cluster

        hub.cluster = Cluster(redis_url, hub, hub.metrics, lease_ms=lease_ms)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(upgrade, db_url)
        if hub.cluster is not None:
            await hub.cluster.start()  # the orphaned matches are claimed, not all of them
        else:
            await hub.restore()
        app.state.ready = True
        log.info("ready: %d tables restored", len(hub.tables))
        sweeper = asyncio.create_task(sweep_rooms(sessions, expiry_settings))
        yield
        app.state.ready = False
        sweeper.cancel()
        await hub.stop()
        for table in hub.tables.values():
            async with table.lock:  # a commit in progress finishes first
                for conns in table.conns:
                    for c in conns:
                        c.close()
        await close_committer(sessions)
        if hub.cluster is not None:
            await hub.cluster.stop()  # hands back the leases: others take over at once
        await engine.dispose()

    app = FastAPI(
        title="paohuzi server", version="0.2.0", lifespan=lifespan, responses=ERROR_RESPONSES
    )
    app.state.ready = False
    app.state.hub = hub
    install_validation(app)  # 400 {code, reason} for what FastAPI refuses, not 422 {detail}
    app.add_middleware(SecurityHeaders)  # CSP, nosniff, no framing, no referrer
    app.state.replays = replays
    app.state.rates = limit
    app.add_middleware(BodyLimit, max_body=GuardSettings.from_env().max_body)

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        retry = getattr(exc, "retry_after", None)
        headers = {"Retry-After": str(retry)} if retry is not None else None
        return JSONResponse(
            {"code": exc.code, "reason": exc.reason}, status_code=exc.status, headers=headers
        )

    async def db_session() -> AsyncIterator[AsyncSession]:
        async with sessions() as db:
            yield db

    Db = Annotated[AsyncSession, Depends(db_session)]

    async def current(db: Db, authorization: Annotated[str | None, Header()] = None) -> Account:
        acct = await accounts.account_for_token(db, _bearer(authorization))
        if acct is None:
            raise ApiError("unauthenticated", "a valid bearer token is required", 401)
        return acct

    Me = Annotated[Account, Depends(current)]

    async def maybe_current(
        db: Db, authorization: Annotated[str | None, Header()] = None
    ) -> Account | None:
        return await accounts.account_for_token(db, _bearer(authorization))

    MaybeMe = Annotated[Account | None, Depends(maybe_current)]

    def _account_json(a: Account) -> dict[str, Any]:
        return {
            "id": a.id,
            "username": a.username,
            "nickname": a.nickname,
            "kind": a.kind,
            "balance": a.balance,
        }

    @app.get("/health")
    async def health() -> JSONResponse:
        ok = bool(app.state.ready)
        return JSONResponse({"ok": ok}, status_code=200 if ok else 503)

    async def ready() -> bool:
        return bool(app.state.ready) and (hub.cluster is None or await hub.cluster.ping())

    add_ops(app, hub.metrics, ready)

    @app.post("/accounts/register", status_code=201)
    async def register(body: RegisterBody, db: Db, request: Request) -> dict[str, Any]:
        limit.signup.take(_address(request))
        acct = await accounts.create_account(
            db,
            kind="user",
            nickname=body.nickname or body.username,
            username=body.username,
            password=body.password,
        )
        token = await accounts.new_session(db, acct)
        await db.commit()
        return {"token": token, "account": _account_json(acct)}

    limiter = accounts.LoginLimiter()

    @app.post("/accounts/login")
    async def login(body: Credentials, db: Db, request: Request) -> dict[str, Any]:
        address = request.client.host if request.client else "?"
        limiter.check(body.username, address)
        try:
            acct = await accounts.login(db, body.username, body.password)
        except ApiError:
            limiter.failed(body.username, address)
            raise
        token = await accounts.new_session(db, acct)
        await db.commit()
        return {"token": token, "account": _account_json(acct)}

    @app.post("/accounts/guest", status_code=201)
    async def guest(body: GuestBody, db: Db, request: Request) -> dict[str, Any]:
        limit.signup.take(_address(request))
        acct = await accounts.create_account(db, kind="guest", nickname=body.nickname)
        token = await accounts.new_session(db, acct)
        await db.commit()
        return {"token": token, "account": _account_json(acct)}

    @app.post("/accounts/logout", status_code=204)
    async def logout(me: Me, db: Db, authorization: Annotated[str | None, Header()] = None) -> None:
        token = _bearer(authorization)
        assert token is not None
        await accounts.logout(db, token)
        await db.commit()
        token_hash = accounts.hash_token(token)
        hub.signed_in.end(token_hash)  # this worker's sockets; the others' through Redis
        if hub.cluster is not None:
            await hub.cluster.redis.publish(LOGOUT_CHANNEL, token_hash)

    @app.get("/accounts/me")
    async def me_(me: Me) -> dict[str, Any]:
        return _account_json(me)

    @app.get("/accounts/me/ledger")
    async def ledger(me: Me, db: Db) -> list[dict[str, Any]]:
        rows = (
            await db.scalars(
                select(LedgerEntry).where(LedgerEntry.account_id == me.id).order_by(LedgerEntry.id)
            )
        ).all()
        return [_ledger_json(r) for r in rows]

    @app.get("/accounts/me/matches")
    async def my_matches(me: Me, db: Db) -> list[dict[str, Any]]:
        rows = (
            await db.execute(
                select(MatchRow, RoomSeat.seat, RoomRow.code)
                .join(RoomSeat, RoomSeat.room_id == MatchRow.room_id)
                .join(RoomRow, RoomRow.id == MatchRow.room_id)
                .where(RoomSeat.account_id == me.id)
                .order_by(MatchRow.id.desc())
            )
        ).all()
        out = []
        for match, seat, code in rows:
            net = await db.scalar(
                select(func.coalesce(func.sum(LedgerEntry.delta), 0)).where(
                    LedgerEntry.match_id == match.id, LedgerEntry.account_id == me.id
                )
            )
            out.append(
                {
                    "match_id": match.id,
                    "room": code,
                    "seat": seat,
                    "status": match.status,
                    "rounds": match.rounds_total,
                    "net": int(net or 0),  # on the ledger: 0 in a "local" match
                    "scoring": match.scoring,
                    "dissolved": bool(match.dissolve and match.dissolve.get("outcome")),
                    "started": match.created_at.isoformat(),
                }
            )
        return out

    def _ledger_json(r: LedgerEntry) -> dict[str, Any]:
        return {
            "account_id": r.account_id,
            "delta": r.delta,
            "balance_after": r.balance_after,
            "reason": r.reason,
            "match_id": r.match_id,
            "round": r.round_index,
        }

    async def _balance(db: AsyncSession, account_id: int) -> int:
        acct = await db.get(Account, account_id)
        assert acct is not None
        return acct.balance

    @app.post("/rooms", status_code=201)
    async def create_room(body: RoomBody, me: Me, db: Db, request: Request) -> dict[str, Any]:
        rules = rulesets.room_rules(dict(body.rules), body.rounds)
        await check_quota(db, limit, me, _address(request))
        room = RoomRow(
            code=await new_code(db),
            host_id=me.id,
            public=body.public,
            rounds=body.rounds,
            rules=rules.to_dict(),
            status="open",
            time_limit=body.time_limit,
            invite_key=None if body.public else secrets.token_urlsafe(16),
        )
        db.add(room)
        try:
            await db.commit()
        except IntegrityError:  # another room took the code a moment ago
            raise ApiError("busy", "that room code was just taken; try again", 503) from None
        return await room_json(db, room, me)

    @app.get("/rooms")
    async def lobby(db: Db) -> list[dict[str, Any]]:
        rooms = (
            await db.scalars(
                select(RoomRow)
                .where(RoomRow.public.is_(True), RoomRow.status == "open")
                .order_by(RoomRow.id.desc())
                .limit(100)
            )
        ).all()
        return [await room_json(db, r, None) for r in rooms]

    @app.get("/rooms/{code}")
    async def room_info(
        code: str, db: Db, request: Request, me: MaybeMe, key: str | None = None
    ) -> dict[str, Any]:
        return await room_json(db, await find_room(db, limit, code, _address(request), me, key), me)

    async def _open_room(
        db: AsyncSession,
        code: str,
        request: Request,
        me: Account,
        key: str | None = None,
        host: str | None = None,
        status: str = "open",
    ) -> tuple[RoomRow, list[RoomSeat]]:
        """The open room, claimed in the database and moved to ``status`` (seating.py: one
        change at a time, across workers too), with its seats as they are now; ``host``:
        what only the host may do, refused to anyone else."""
        room = await find_room(db, limit, code, _address(request), me, key)
        if room.status != "open":
            raise ApiError("room_started", f"room {code} has started", 409)
        if host is not None and room.host_id != me.id:
            raise ApiError("not_host", f"only the host may {host}", 403)
        await claim_open(db, room, status)
        return room, await seats_of(db, room.id)

    async def _free_seat(db: AsyncSession, seats: list[RoomSeat], wanted: int | None) -> int:
        """``wanted`` if free, else the first free seat; a refusal ends the claim."""
        taken = {s.seat for s in seats}
        if wanted is not None:
            if wanted in taken:
                await db.rollback()
                raise ApiError("seat_taken", f"seat {wanted} is taken", 409)
            return wanted
        free = [s for s in range(3) if s not in taken]
        if not free:
            await db.rollback()
            raise ApiError("room_full", "the room is full", 409)
        return free[0]

    @app.post("/rooms/{code}/join")
    async def join(code: str, body: JoinBody, me: Me, db: Db, request: Request) -> dict[str, Any]:
        async with hub.lock:
            room, seats = await _open_room(db, code, request, me, body.key)
            if any(s.account_id == me.id for s in seats):
                await db.rollback()
                raise ApiError("already_seated", "this account already has a seat here", 409)
            seat = await _free_seat(db, seats, body.seat)
            db.add(RoomSeat(room_id=room.id, seat=seat, account_id=me.id, bot=None))
            await commit_seats(db)
            return {"seat": seat, "room": await room_json(db, room, me)}

    @app.post("/rooms/{code}/leave")
    async def leave(code: str, me: Me, db: Db, request: Request) -> dict[str, Any]:
        async with hub.lock:
            room, seats = await _open_room(db, code, request, me)
            mine = [s for s in seats if s.account_id == me.id]
            if not mine:
                await db.rollback()
                raise ApiError("not_seated", "this account has no seat here", 409)
            for s in mine:
                await db.delete(s)
            await db.commit()
            for c in hub.waiting.get(code, []):
                if c.account_id == me.id:
                    c.put(ErrorMsg(code="left", reason="you left the room"))
            return await room_json(db, room, me)

    @app.post("/rooms/{code}/bots")
    async def add_bots(
        code: str, body: BotBody, me: Me, db: Db, request: Request
    ) -> dict[str, Any]:
        if body.bot not in BOT_KINDS:
            raise ApiError("bad_bot", f"a bot is one of {list(BOT_KINDS)}, got {body.bot!r}")
        async with hub.lock:
            room, seats = await _open_room(db, code, request, me, host="seat bots")
            wanted = (
                [await _free_seat(db, seats, body.seat)]
                if body.seat is not None
                else [s for s in range(3) if s not in {x.seat for x in seats}]
            )
            if not wanted:
                await db.rollback()
                raise ApiError("room_full", "the room is full", 409)
            for seat in wanted:
                bot = await accounts.create_account(
                    db, kind="bot", nickname=f"{body.bot} bot", grant=HONG_GUAI_WAN.starting_balance
                )
                db.add(RoomSeat(room_id=room.id, seat=seat, account_id=bot.id, bot=body.bot))
            await commit_seats(db)
            return await room_json(db, room, me)

    @app.post("/rooms/{code}/start")
    async def start(code: str, me: Me, db: Db, request: Request) -> dict[str, Any]:
        async with hub.lock:
            # Claimed open -> playing: of concurrent starts, on any worker, one goes on.
            room, seats = await _open_room(
                db, code, request, me, host="start the match", status="playing"
            )
            if len(seats) != 3:
                taken = len(seats)
                await db.rollback()  # the room is open again
                raise ApiError("not_full", f"{taken} of 3 seats are taken", 409)
            rules = RuleSet.from_dict(room.rules)
            rulesets.check_points(rules)  # (a room made before the allowed values were)
            scoring = rulesets.scoring_of(rules)
            balances = [rules.starting_balance] * 3  # room-local scores start here
            if scoring == "ledger":  # the standard rules play for the accounts' 悟性
                balances = [await _balance(db, s.account_id) for s in seats]
            match = Match(
                rules,
                rounds=room.rounds,
                balances=(balances[0], balances[1], balances[2]),
                seed=app.state.seeds.pop(code, None),  # None unless a test fixed it
            )
            first = match.start_round()
            row = MatchRow(
                room_id=room.id,
                rules=rules.to_dict(),
                seed=match.seed,
                rounds_total=match.rounds_total,
                balances=balances,
                status="playing",
                scoring=scoring,
            )
            db.add(row)
            await db.flush()
            db.add(
                RoundRow(
                    match_id=row.id,
                    index=0,
                    seed=match.round_seed(0),
                    dealer=first.dealer,
                    balances=balances,
                )
            )
            await db.commit()
            table = Table(
                sessions,
                row.id,
                room.id,
                [SeatInfo(s.account_id, s.bot, bool(s.tuoguan)) for s in seats],
                match,
                time_limit=room.time_limit,
                settings=play_settings,
                on_end=hub.release,
                ledger=scoring == "ledger",
            )
            for conn in hub.waiting.pop(code, []):
                if not conn.spectator:
                    conn.seat = table.seat_of(conn.account_id or -1)
                if conn.spectator or conn.seat is not None:
                    await table.attach(conn, conn.since)
            # The bots play in the table's driver task, not in this request.
            await hub.adopt(code, table)
            return {"match_id": row.id, "room": await room_json(db, room, me)}

    @app.get("/matches/{match_id}/record")
    async def match_record(match_id: MatchId, request: Request) -> Response:
        limit.replay.take(_address(request))
        data = await replays.get(match_id, lambda: _rebuild(match_id))
        return Response(data, media_type="application/json")

    async def _rebuild(match_id: int) -> bytes:
        """A finished match's record from its decisions, replayed in a thread. (Its own
        short session: the requests waiting on this rebuild hold no connection.)"""
        async with sessions() as db:
            row = await db.get(MatchRow, match_id)
            if row is None:
                raise ApiError("no_match", f"no match {match_id}", 404)
            if row.status != "finished":
                raise ApiError("not_finished", "a match's record is public once it is over", 409)
            decisions = (
                await db.execute(
                    select(Decision.seat, Decision.action_id)
                    .where(Decision.match_id == row.id)
                    .order_by(Decision.seq)
                )
            ).all()
        moves = [(int(seat), int(action)) for seat, action in decisions]
        data = await asyncio.to_thread(
            encode_record, row.rules, row.seed, row.rounds_total, row.balances, moves
        )
        log.info("match %s record rebuilt from %d decisions", row.id, len(moves))
        return data

    @app.get("/matches/{match_id}/ledger")
    async def match_ledger(match_id: MatchId, db: Db) -> list[dict[str, Any]]:
        rows = (
            await db.scalars(
                select(LedgerEntry).where(LedgerEntry.match_id == match_id).order_by(LedgerEntry.id)
            )
        ).all()
        return [_ledger_json(r) for r in rows]

    @app.get("/stats")
    async def stats(db: Db) -> dict[str, Any]:
        total = await db.scalar(select(func.count()).select_from(LedgerEntry))
        group = committer_for(sessions)
        return {
            "tables": len(hub.tables),  # a count only: live match ids are no one's business
            "ledger_rows": total,
            "commits": {"writes": group.writes, "transactions": group.batches},
        }

    @app.websocket("/ws/{code}")
    async def play(ws: WebSocket, code: str) -> None:
        await ws.accept()
        address = _address(ws)
        if not _admit(address):
            await ws.close(CLOSE_UNAUTHENTICATED, "too many unauthenticated sockets")
            return
        conn = Connection(ws.send_text)
        writer = asyncio.create_task(conn.pump())
        closing: list[asyncio.Task[None]] = []

        def kick() -> None:  # the table moved to another worker: reconnect
            conn.close()
            closing.append(asyncio.create_task(_close_moved(ws)))

        def logged_out() -> None:  # its session token was logged out
            conn.close()
            closing.append(asyncio.create_task(_close_logged_out(ws)))

        conn.kick = kick
        ends[conn] = logged_out
        hub.sockets += 1
        hub.unauthenticated[address].add(conn)
        try:
            await _serve_socket(ws, code, conn, (address, ws.query_params.get("key")))
        except WebSocketDisconnect:
            pass
        finally:
            _forget(address, conn)
            conn.kick = None  # kick and conn refer to each other: a cycle only a full GC frees
            ends.pop(conn, None)
            hub.signed_in.closed(conn)
            hub.sockets -= 1
            if conn.table is not None:
                conn.table.detach(conn)
            with contextlib.suppress(ValueError):
                hub.waiting.get(code, []).remove(conn)
            conn.close()
            # Waited on, not awaited: a send's failure raised through this frame would tie
            # the frame, the task and the exception in a cycle that only a full collection
            # frees (with the table and its rounds behind it): a long pause under load.
            await asyncio.wait([writer], timeout=1)
            writer.cancel()
            if writer.done() and not writer.cancelled():
                writer.exception()  # retrieved: a closed socket is no error here

    adapter = client_adapter()
    ends: dict[Connection, Callable[[], None]] = {}  # each open socket's logged_out

    def _admit(address: str) -> bool:
        """Whether ``address`` may open one more socket not yet authenticated."""
        waiting = hub.unauthenticated.setdefault(address, set())
        waiting -= {c for c in waiting if c.account_id is not None}
        return len(waiting) < play_settings.unauthenticated_per_address

    def _forget(address: str, conn: Connection) -> None:
        waiting = hub.unauthenticated.get(address)
        if waiting is not None:
            waiting.discard(conn)
            if not waiting:
                del hub.unauthenticated[address]

    async def _receive(ws: WebSocket, conn: Connection, deadline: float) -> Any:
        """The next frame; until the socket authenticates, only until ``deadline`` (then
        it is closed, and None)."""
        if conn.account_id is not None:
            return await ws.receive()
        with contextlib.suppress(TimeoutError):
            left = deadline - asyncio.get_running_loop().time()
            return await asyncio.wait_for(ws.receive(), max(left, 0))
        conn.close()  # what is queued goes first
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(conn.drained.wait(), 1)
        reason = f"authenticate within {play_settings.auth_seconds:g} s"
        await ws.close(CLOSE_UNAUTHENTICATED, reason)
        return None

    async def _serve_socket(
        ws: WebSocket, code: str, conn: Connection, who: tuple[str, str | None]
    ) -> None:
        """Read and handle the socket's frames; ``who`` is its address and invite key."""
        bucket = TokenBucket(play_settings.ws_rate, play_settings.ws_burst)
        deadline = asyncio.get_running_loop().time() + play_settings.auth_seconds
        while True:
            msg = await _receive(ws, conn, deadline)
            if msg is None or msg["type"] == "websocket.disconnect":
                return
            if not bucket.take():
                if bucket.flooding:
                    log.warning("room %s: closing a flooding socket", code)
                    conn.close()  # what is queued (its rate_limited errors) goes first
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(conn.drained.wait(), 1)
                    await ws.close(CLOSE_FLOOD, "flood: too many messages")
                    return
                conn.put(
                    ErrorMsg(
                        code="rate_limited",
                        reason=f"more than {play_settings.ws_rate:g} messages a second; "
                        "this one was dropped",
                    )
                )
                continue
            text = msg.get("text")
            if text is None:
                data = msg.get("bytes") or b""
                try:
                    text = data.decode()
                except UnicodeDecodeError:
                    conn.put(ErrorMsg(code="bad_json", reason="a message is UTF-8 JSON text"))
                    continue
            if len(text) > MAX_MESSAGE:
                conn.put(
                    ErrorMsg(
                        code="too_large", reason=f"a message has at most {MAX_MESSAGE} characters"
                    )
                )
                continue
            try:
                raw = wirejson.loads(text)  # nesting bounded: json.loads recurses per level
            except ValueError as e:
                conn.put(ErrorMsg(code="bad_json", reason=f"not JSON: {e}"))
                continue
            if not isinstance(raw, dict) or raw.get("type") not in CLIENT_TYPES:
                got = raw.get("type") if isinstance(raw, dict) else raw
                conn.put(
                    ErrorMsg(code="unknown_type", reason=f"unknown message type {str(got)[:40]!r}")
                )
                continue
            try:
                m = adapter.validate_python(raw)
            except ValidationError as e:
                first = e.errors()[0]
                where = ".".join(str(x) for x in first["loc"][1:])
                conn.put(ErrorMsg(code="bad_message", reason=f"{where}: {first['msg']}"))
                continue
            await _handle(m, code, conn, who)

    async def _handle(
        m: ClientMsg, code: str, conn: Connection, who: tuple[str, str | None]
    ) -> None:
        if isinstance(m, Ping):
            conn.put(Pong())
        elif isinstance(m, Auth):
            await _auth(m, code, conn, who)
        elif conn.account_id is None:
            conn.put(ErrorMsg(code="unauthenticated", reason="send an auth message first"))
        elif conn.table is None:
            conn.put(ErrorMsg(code="not_started", reason="the match has not started"))
        elif isinstance(m, Resync):
            await conn.table.attach(conn, None)
        elif isinstance(m, Tuoguan | Dissolve):
            try:
                if isinstance(m, Tuoguan):
                    await conn.table.set_tuoguan(conn, m.on)
                else:
                    await conn.table.vote_dissolve(conn, m.agree)
            except ApiError as e:
                conn.put(ErrorMsg(code=e.code, reason=e.reason))
            except Exception:
                log.exception("%s failed", m.type)
                conn.put(ErrorMsg(code="internal", reason="not applied; try again"))
        else:
            try:
                await conn.table.intent(conn, m.action, m.step, m.client_id)
            except ApiError as e:
                conn.put(ErrorMsg(code=e.code, reason=e.reason, client_id=m.client_id))
            except Exception:  # a failed commit: the table keeps its last durable state
                log.exception("intent failed")
                conn.put(
                    ErrorMsg(
                        code="internal", reason="not applied; try again", client_id=m.client_id
                    )
                )

    async def _auth(m: Auth, code: str, conn: Connection, who: tuple[str, str | None]) -> None:
        if conn.account_id is not None:
            conn.put(ErrorMsg(code="already_authenticated", reason="this socket is signed in"))
            return
        async with sessions() as db:
            acct = await accounts.account_for_token(db, m.token)
            if acct is None:
                conn.put(ErrorMsg(code="unauthenticated", reason="unknown or expired token"))
                return
            try:
                room = await find_room(db, limit, code, who[0], acct, who[1])
            except ApiError as e:
                conn.put(ErrorMsg(code=e.code, reason=e.reason))
                return
            seat = await db.scalar(
                select(RoomSeat.seat).where(
                    RoomSeat.room_id == room.id, RoomSeat.account_id == acct.id
                )
            )
        if room.status == "expired":
            conn.put(ErrorMsg(code="room_expired", reason=f"room {code} expired before it started"))
            return
        if m.spectate:
            seat = None
        elif seat is None:
            conn.put(ErrorMsg(code="not_seated", reason="this account has no seat in the room"))
            return
        conn.account_id = acct.id
        if conn in ends:
            hub.signed_in.signed_in(conn, accounts.hash_token(m.token), ends[conn])
        conn.seat = seat
        conn.spectator = m.spectate
        conn.views = m.views
        conn.since = m.since
        conn.batch = m.batch
        table: TableHandle | None = hub.tables.get(code)
        if table is None and room.status != "open":
            async with sessions() as db:
                row = await db.scalar(
                    select(MatchRow).where(MatchRow.room_id == room.id).order_by(MatchRow.id.desc())
                )
                if row is not None and row.status == "finished":
                    # A finished match, served from the database (not kept in memory).
                    table = await hub.load(db, row, room)
            table = table or hub.tables.get(code)
            if table is None and hub.cluster is not None and room.status == "playing":
                table = await hub.cluster.bind(room)  # owned by another worker, or orphaned
        if table is None:
            async with hub.lock:
                table = hub.tables.get(code)
                if table is None:
                    hub.waiting.setdefault(code, []).append(conn)
                    conn.put(Waiting(room=code, seat=seat))
                    return
        await table.attach(conn, m.since)

    async def _close_logged_out(ws: WebSocket) -> None:
        with contextlib.suppress(Exception):
            await asyncio.sleep(0.05)  # what is queued goes first
            await ws.close(CLOSE_LOGGED_OUT, "logged out: sign in again")

    async def _close_moved(ws: WebSocket) -> None:
        from .cluster import CLOSE_MOVED

        with contextlib.suppress(Exception):
            await asyncio.sleep(0.05)  # what is queued goes first
            await ws.close(CLOSE_MOVED, "the table moved to another worker; reconnect")

    add_web(app, current, db_session)  # the browser client: last, so the API comes first
    return app
