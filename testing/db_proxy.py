"""A TCP relay between one bot process and PostgreSQL that a test can cut, as a network would: the database out of
reach for that process alone (``cut``/``restore``), or one statement's reply lost after the server did it
(``lose_reply_to``: the client sent it, the server committed and answered, the answer never arrives and the
connection drops). The server and the other processes see nothing unusual.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit


@dataclass(eq=False)
class Relayed:
    """One client connection and its server connection."""

    client: asyncio.StreamWriter
    server: asyncio.StreamWriter
    losing: bool = False  # the server's bytes are thrown away (the reply to a marked statement)

    def drop(self) -> None:
        for writer in (self.client, self.server):
            writer.close()


@dataclass
class DatabaseProxy:
    target_host: str
    target_port: int
    port: int = 0
    reachable: bool = True
    relayed: set[Relayed] = field(default_factory=set)
    marker: bytes | None = None
    marked: asyncio.Future[Relayed] | None = None

    def url(self, url: str) -> str:
        """``url`` (a ``postgresql://`` address of the target server) through this relay."""
        parts = urlsplit(url)
        user = parts.netloc.rpartition("@")[0]
        netloc = f"{user}@127.0.0.1:{self.port}" if user else f"127.0.0.1:{self.port}"
        return urlunsplit(parts._replace(netloc=netloc))

    def cut(self) -> None:
        """The database is out of reach: every connection drops, and a new one is closed as soon as it opens."""
        self.reachable = False
        for connection in list(self.relayed):
            connection.drop()

    def restore(self) -> None:
        self.reachable = True

    def lose_reply_to(self, marker: bytes) -> asyncio.Future[Relayed]:
        """The next statement whose bytes hold ``marker`` reaches the server, and whatever the server answers on that
        connection from then on is thrown away; the future gives the connection, for the test to ``drop`` once the
        statement's effect is in the database."""
        self.marker = marker
        self.marked = asyncio.get_running_loop().create_future()
        return self.marked

    async def _serve(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        if not self.reachable:
            client_writer.close()
            return
        try:
            server_reader, server_writer = await asyncio.open_connection(self.target_host, self.target_port)
        except OSError:
            client_writer.close()
            return
        connection = Relayed(client_writer, server_writer)
        self.relayed.add(connection)
        try:
            await asyncio.gather(
                self._pump(client_reader, server_writer, connection, upstream=True),
                self._pump(server_reader, client_writer, connection, upstream=False),
            )
        finally:
            self.relayed.discard(connection)
            connection.drop()

    async def _pump(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, connection: Relayed, *, upstream: bool
    ) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while chunk := await reader.read(65536):
                if upstream and self.marker is not None and self.marker in chunk:
                    connection.losing = True
                    self.marker = None
                    if self.marked is not None and not self.marked.done():
                        self.marked.set_result(connection)
                if not upstream and connection.losing:
                    continue
                writer.write(chunk)
                await writer.drain()
        connection.drop()  # one side closed: so does the other

    @staticmethod
    @asynccontextmanager
    async def start(url: str) -> AsyncIterator[DatabaseProxy]:
        """A relay to the server of ``url`` on a free local port, for the block's duration."""
        parts = urlsplit(url)
        proxy = DatabaseProxy(parts.hostname or "127.0.0.1", parts.port or 5432)
        server = await asyncio.start_server(proxy._serve, "127.0.0.1", 0)
        proxy.port = server.sockets[0].getsockname()[1]
        try:
            yield proxy
        finally:
            proxy.cut()
            server.close()
            await server.wait_closed()
