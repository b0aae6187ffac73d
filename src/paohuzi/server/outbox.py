"""One socket's outbox (``Connection``): the messages queued for it, sent in order by its
writer task, and what it talks to (``TableHandle``)."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from .protocol import encode

__all__ = ["Connection", "Outbox", "TableHandle"]


class Outbox:
    """A socket's queue of encoded messages (None: close), read by one writer task.

    A deque and the writer's one waiting future: ``asyncio.Queue`` walks its lists of
    waiting getters and putters on every put and get, and a socket is given a dozen
    messages a decision under load.
    """

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[str | None] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: str | None) -> None:
        self._items.append(item)
        w = self._waiter
        if w is not None:
            self._waiter = None
            if not w.done():
                w.set_result(None)

    def empty(self) -> bool:
        return not self._items

    def get_nowait(self) -> str | None:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    async def get(self) -> str | None:
        """The next item, once there is one (for the one writer task)."""
        while not self._items:
            w = self._waiter = asyncio.get_running_loop().create_future()
            await w
        return self._items.popleft()


class TableHandle(Protocol):
    """What a socket talks to: a local :class:`~.tables.Table`, or (several workers) a
    proxy that forwards to the worker owning the table (``cluster.RemoteTable``)."""

    async def attach(self, conn: Connection, since: int | None) -> None: ...
    def detach(self, conn: Connection) -> None: ...
    async def intent(
        self, conn: Connection, action: int | str, step: int, client_id: str
    ) -> None: ...
    async def set_tuoguan(self, conn: Connection, on: bool) -> None: ...
    async def vote_dissolve(self, conn: Connection, agree: bool) -> None: ...
    async def press_ready(self, conn: Connection) -> None: ...
    async def chat(self, conn: Connection, phrase: int) -> None: ...


class Connection:
    """One socket's outbox: messages leave in the order they were queued."""

    def __init__(self, send: Callable[[str], Any]) -> None:
        self.queue = Outbox()
        self._send = send
        self.account_id: int | None = None
        self.seat: int | None = None  # None: a spectator (once attached)
        self.spectator = False
        self.table: TableHandle | None = None
        # Closes the socket with a code asking the client to reconnect (set by the app).
        self.kick: Callable[[], Any] | None = None
        self.sent = 0  # the seat's events this socket has been given
        self.told = 0  # the audience's step of the last snapshot or prompt queued here
        self.since: int | None = None  # the auth message's ``since``
        self.views = False  # the auth message's ``views``: a view in every prompt
        self.batch = False  # the auth message's ``batch``: queued messages in one frame
        self.drained = asyncio.Event()  # the writer has sent everything and stopped

    def put_dict(self, msg: dict[str, Any]) -> None:
        """Queue a message made by its builder in ``protocol`` (the only way one is made)."""
        self.queue.put_nowait(encode(msg))

    def put_text(self, text: str) -> None:
        """Queue a message already encoded (one text shared by every socket it goes to)."""
        self.queue.put_nowait(text)

    async def pump(self) -> None:
        """Send queued messages until ``close`` (run as the socket's writer task); with
        ``batch``, those queued together go in one frame, as a JSON array."""
        try:
            closing = False
            while not closing and (text := await self.queue.get()) is not None:
                if not self.batch or self.queue.empty():
                    await self._send(text)
                    continue
                texts = [text]
                while not self.queue.empty():
                    more = self.queue.get_nowait()
                    if more is None:
                        closing = True
                        break
                    texts.append(more)
                await self._send(f"[{','.join(texts)}]" if len(texts) > 1 else text)
        finally:
            self.drained.set()

    def close(self) -> None:
        """Stop the writer after what is queued."""
        self.queue.put_nowait(None)
