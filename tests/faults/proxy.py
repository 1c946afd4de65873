"""A TCP proxy the fault tests put in front of PostgreSQL: it forwards 127.0.0.1:<port> to
the server, and can be told to stop answering, or to lose the answer to one commit.

* :meth:`Proxy.pause`: nothing passes any more, either way. Connections already open stay
  open and hold what they carry; new ones are accepted and held too (so connecting hangs, as
  to a server that stopped answering, until the client's connect timeout).
  :meth:`Proxy.resume` lets everything held through, in order.
* :meth:`Proxy.lose_next_commit_answer`: the next ``COMMIT`` a client sends reaches the
  server (which commits), then the connection is cut before the answer comes back: the
  client cannot know whether its write was stored.

Plain threads and sockets, no dependency: one thread accepts, two pump each connection.
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading

#: PostgreSQL's simple-query message for a commit (psycopg sends its commits so)
COMMIT = b"Q\x00\x00\x00\x0bCOMMIT\x00"


class Proxy:
    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self._server = socket.create_server(("127.0.0.1", 0))
        self._server.settimeout(0.1)
        self.port: int = self._server.getsockname()[1]
        self._flowing = threading.Event()
        self._flowing.set()
        self._stop = threading.Event()
        self._lose_commit = threading.Event()
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._threads: list[threading.Thread] = []
        #: how many commit answers were lost, and connections accepted while paused
        self.commits_lost = 0
        self.held_connections = 0
        self._accepter = threading.Thread(target=self._accept, name="proxy-accept", daemon=True)
        self._accepter.start()

    # --- what a test does -------------------------------------------------------------------

    def pause(self) -> None:
        self._flowing.clear()

    def resume(self) -> None:
        self._flowing.set()

    def lose_next_commit_answer(self) -> None:
        self._lose_commit.set()

    @property
    def commit_answer_pending(self) -> bool:
        """A commit's answer is still to be lost (no commit came through since the call)."""
        return self._lose_commit.is_set()

    def close(self) -> None:
        self._stop.set()
        self._flowing.set()
        self._accepter.join(5)
        with self._lock:
            for sock in self._sockets:
                _close(sock)
        for thread in self._threads:
            thread.join(5)
        self._server.close()

    # --- inside -----------------------------------------------------------------------------

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._server.accept()
            except TimeoutError:
                continue
            if not self._flowing.is_set():
                self.held_connections += 1
            try:
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                _close(client)
                continue
            server.settimeout(None)
            client.settimeout(None)
            with self._lock:
                self._sockets |= {client, server}
            cut = threading.Event()  # this connection's commit answer is being lost
            for source, target, client_side in ((client, server, True), (server, client, False)):
                thread = threading.Thread(
                    target=self._pump, args=(source, target, client_side, cut), daemon=True
                )
                thread.start()
                self._threads.append(thread)

    def _take_the_commit(self) -> bool:
        """This commit is the one whose answer is to be lost (only one of those that race)."""
        with self._lock:
            if not self._lose_commit.is_set():
                return False
            self._lose_commit.clear()
            self.commits_lost += 1
            return True

    def _pump(
        self, source: socket.socket, target: socket.socket, client_side: bool, cut: threading.Event
    ) -> None:
        try:
            while not self._stop.is_set():
                readable, _, _ = select.select([source], [], [], 0.1)
                if not readable:
                    continue
                data = source.recv(65536)
                self._flowing.wait()  # paused: what was read is held here
                if not data or self._stop.is_set():
                    break
                if cut.is_set():  # the server's answer to the lost commit: dropped
                    continue
                if client_side and COMMIT in data and self._take_the_commit():
                    cut.set()
                    # the client is cut off first, then the server gets the commit (and reads
                    # it before the end of the stream); the other pump drops its answer
                    _close(source)
                    target.sendall(data)
                    target.shutdown(socket.SHUT_WR)
                    return
                target.sendall(data)
        except (OSError, ValueError):  # ValueError: the other pump closed the socket
            pass
        finally:
            if not (cut.is_set() and client_side):
                _close(source)
                _close(target)


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()
