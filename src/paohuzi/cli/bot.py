"""``paohuzi bot``: a bot that plays a seat of a server's room over WebSockets, like a person.

It signs in as a guest, takes a free seat and plays every decision it is prompted for
with one of ``paohuzi.bots`` until the match is over. ``--new`` makes it the host of a
new room instead (``--fill`` seats the server's bots in the other seats); the host starts
the match once three seats are taken. ``--tournament CLUB/T`` plays a club's duplicate
tournament instead: as the member the ``--token`` names, every table the tournament seats
it at, until the tournament is over (docs/clubs.md).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from .app import app
from .errors import fail

__all__ = ["bot_cmd"]


@app.command("bot")
def bot_cmd(
    server: Annotated[
        str, typer.Option(help="The server, http://HOST:PORT.", envvar="PAOHUZI_SERVER")
    ],
    room: Annotated[
        str | None,
        typer.Option(help="The six-digit room code to join, or the room's invite link."),
    ] = None,
    new: Annotated[
        bool, typer.Option("--new", help="Create a room and host it (prints its code).")
    ] = False,
    bot: Annotated[
        str, typer.Option(help="random, heuristic, search, learned or guided.")
    ] = "heuristic",
    name: Annotated[str | None, typer.Option(help="Nickname (default: '<bot> bot').")] = None,
    fill: Annotated[
        str | None,
        typer.Option(help="With --new: seat the server's bots (random or heuristic) in the rest."),
    ] = None,
    rounds: Annotated[int, typer.Option(min=1, max=32, help="With --new: rounds.")] = 1,
    wait: Annotated[
        float,
        typer.Option(
            min=0,
            help="With --new: seconds to wait for the room to fill; with "
            "--tournament: for the tournament to end.",
        ),
    ] = 300,
    record: Annotated[
        Path | None, typer.Option(help="Save the finished match's record here (paohuzi replay).")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the bot's choices.")] = None,
    tournament: Annotated[
        str | None,
        typer.Option(
            help="CLUB/TOURNAMENT ids: play every table of a club's tournament "
            "this account is seated at (needs --token: a member's)."
        ),
    ] = None,
    token: Annotated[
        str | None,
        typer.Option(
            help="Play as the account this sign-in token names (default: a new guest).",
            envvar="PAOHUZI_TOKEN",
        ),
    ] = None,
) -> None:
    """Play a seat of a room on a paohuzi server with a bot until the match is over."""
    try:
        from ..bots import BOTS
        from ..server.client import ClientError, check_server_url, parse_room
    except ImportError as e:  # pragma: no cover - depends on the install
        fail(f"paohuzi bot needs: pip install 'paohuzi[server]' ({e})")
    if tournament is not None:
        if room is not None or new or fill is not None:
            fail("--tournament goes without --room, --new and --fill")
        if token is None:
            fail("--tournament needs --token (a member's sign-in token)")
        where = parse_tournament(tournament)
        if bot not in BOTS:
            fail(f"--bot {bot!r}: choose from {', '.join(sorted(BOTS))}")
        try:
            check_server_url(server)
            asyncio.run(_tournament(server, token, where, bot, wait, seed))
        except ClientError as e:
            fail(str(e), 2 if e.bad_input else 1)
        return
    if (room is None) == (not new):
        fail("give either --room CODE or --new")
    try:
        target = parse_room(room) if room is not None else None
    except ClientError as e:
        fail(str(e))
    if bot not in BOTS:
        fail(f"--bot {bot!r}: choose from {', '.join(sorted(BOTS))}")
    if fill is not None and not new:
        fail("--fill goes with --new")
    if record is not None and record.is_dir():
        fail(f"--record {record}: is a directory")
    try:
        check_server_url(server)
        asyncio.run(
            _run(server, target, bot, name or f"{bot} bot", fill, rounds, wait, record, seed)
        )
    except ClientError as e:
        fail(str(e), 2 if e.bad_input else 1)


def parse_tournament(value: str) -> tuple[int, int]:
    """``CLUB/TOURNAMENT`` (two ids) as numbers, or a clear error quoting it."""
    parts = value.split("/")
    if len(parts) != 2 or not all(p.isdigit() and 0 < len(p) <= 10 for p in parts):
        fail(f"--tournament {value[:40]!r}: give CLUB/TOURNAMENT, two ids such as 3/7")
    return int(parts[0]), int(parts[1])


async def _tournament(
    server: str, token: str, where: tuple[int, int], bot: str, wait: float, seed: int | None
) -> None:
    """Play a tournament's tables as the token's account (the tournament's rules)."""
    from ..bots import make_bot
    from ..server.client import ServerClient
    from ..server.duplicate import RULES
    from ..server.tournamentclient import play_tournament

    http = ServerClient(server, token)
    try:
        me = await http.call("GET", "/accounts/me")
        club, tid = where
        typer.echo(f"tournament {tid} of club {club}: playing as {me['nickname']}")
        done = await play_tournament(http, club, tid, make_bot(bot, seed, RULES), timeout=wait)
        typer.echo(f"tournament {tid} over: {len(done['played'])} tables played")
    finally:
        await http.aclose()


async def _run(
    server: str,
    target: tuple[str, str | None] | None,
    bot: str,
    name: str,
    fill: str | None,
    rounds: int,
    wait: float,
    record: Path | None,
    seed: int | None,
) -> None:
    from ..bots import make_bot
    from ..core.rules import RuleSet
    from ..server.client import ClientError, SeatPlayer, ServerClient

    http = ServerClient(server)
    try:
        await http.guest(name)
        assert http.token is not None
        host = target is None
        key = None
        if target is None:
            room = await http.create_room(rounds=rounds)
            seat = await http.join(room)
            if fill is not None:
                await http.add_bots(room, fill)
            typer.echo(f"room {room}: seat {seat}; others join with --room {room}")
        else:
            room, key = target
            info = await http.room(room, key)
            if info["status"] != "open":
                raise ClientError(f"room {room} has {info['status']}", bad_input=True)
            seat = await http.join(room, key=key)
            typer.echo(f"room {room}: seat {seat}")
        rules = RuleSet.from_dict((await http.room(room, key))["rules"])  # the room's, to judge by
        player = SeatPlayer(http.ws_url(room, key), http.token, make_bot(bot, seed, rules))
        play = asyncio.create_task(player.play())
        if host:
            await _start_when_full(http, room, wait, play)
        over = await play
        await _report(http, player, over, record, key)
    finally:
        await http.aclose()


async def _start_when_full(http: Any, room: str, wait: float, play: asyncio.Task[Any]) -> None:
    """As the host: start the match once three seats are taken (or give up after ``wait``).

    A server that cannot be reached (restarting) is asked again until ``wait`` runs out,
    as the seat's socket reconnects by itself; a start whose answer was lost is found
    done (the room is no longer open) rather than sent twice.
    """
    from ..server.client import ClientError

    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    trouble = ""
    while not play.done():  # (if play() failed, awaiting it reports why)
        try:
            info = await http.room(room)
            if info["status"] != "open":
                return  # started: by a start whose answer was lost
            if all(s is not None for s in info["seats"]):
                await http.start(room)
                return
            trouble = ""
        except ClientError as e:
            if e.bad_input:
                raise
            trouble = f" (last: {e})"
        if loop.time() > deadline:
            play.cancel()
            raise ClientError(f"room {room} did not fill within {wait:g} s{trouble}")
        await asyncio.sleep(0.2)


async def _report(
    http: Any, player: Any, over: dict[str, Any], record: Path | None, key: str | None
) -> None:
    seat = player.seat
    totals = over.get("totals")
    net = f", net {totals[seat]:+d} 悟性" if totals and seat is not None else ""
    again = f", reconnected {player.reconnects} times" if player.reconnects else ""
    typer.echo(
        f"match {over.get('match_id')} over: seat {seat}{net}, "
        f"{player.decisions} decisions{again}, balances {over.get('balances')}"
    )
    if record is not None and over.get("match_id") is not None:
        rec = await http.record(int(over["match_id"]), key=key)
        try:
            record.parent.mkdir(parents=True, exist_ok=True)
            record.write_text(json.dumps(rec, ensure_ascii=False, indent=1), encoding="utf-8")
        except OSError as e:
            fail(f"--record {record}: cannot write it ({e.strerror or e})", 1)
        typer.echo(f"record saved: {record} (paohuzi replay {record})")
