"""The web server: uvicorn serving ``tournaments.asgi`` (``make run`` through
``runall``, and ``docker/Dockerfile``). ``python -m tournaments.serve --help``.

An asyncio server: every connection is a few kilobytes in the event loop of
one worker process until its request has fully arrived (head and body); only
then does Django run the view in a thread. Idle connections (a phone on bad
Wi-Fi, a browser's speculative pre-connection) and slow ones cost no thread,
and a push connection (Server-Sent Events or WebSockets) can wait
in the same loop. README, "Server".

What uvicorn's command line cannot set, this adds:

- a deadline for a request's head (``--head-timeout``): a connection that
  has not sent a whole request head that long after it opened (or after its
  previous answer) is closed, so connections that dribble a byte now and
  then (slow loris) do not pile up for ever;
- the head is parsed by h11 and bounded (``--max-head-bytes``: request line
  and headers together; the header count and the request line are checked
  in ``tournaments.asgi``);
- as many open files as the system allows, so a thousand phones fit.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import sys

#: the laptop: two processes (one per core)
WORKERS = 2
#: request line + headers (h11's buffer for an incomplete request head)
MAX_HEAD_BYTES = 16 * 1024
#: seconds a connection may take to send a request head
HEAD_TIMEOUT = 20.0
#: idle keep-alive connections are closed after this many seconds
KEEP_ALIVE = 5


def _head_timeout() -> float:
    return float(os.environ.get("TURNIERLEITER_HEAD_TIMEOUT", HEAD_TIMEOUT))


try:
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol
except ImportError:  # pragma: no cover - uvicorn missing: runserver only
    H11Protocol = object  # type: ignore[assignment,misc]


def _no_delay(transport) -> None:
    """Send each write at once (TCP_NODELAY). asyncio sets it only on sockets
    created with the protocol number IPPROTO_TCP; uvicorn's listening socket
    has 0, and so has every connection it accepts. Without it, an answer's
    body, written after its head, waited for the client's delayed
    acknowledgement of the head: about 40 ms on nearly every request of a
    kept-alive connection."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class HeadTimeoutProtocol(H11Protocol):  # type: ignore[misc,valid-type]
    """uvicorn's h11 protocol with a deadline for each request head."""

    head_timer = None

    def connection_made(self, transport):
        super().connection_made(transport)
        _no_delay(transport)
        self._arm_head_timer()

    def connection_lost(self, exc):
        self._cancel_head_timer()
        super().connection_lost(exc)

    def data_received(self, data):
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._cancel_head_timer()  # the head is in (or the connection failed)

    def on_response_complete(self):
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm_head_timer()  # the next request on this connection

    def shutdown(self):
        """The server stops: a push stream, which never completes by itself,
        is closed at once (its browser reconnects to the next server) instead
        of holding the shutdown for the whole graceful timeout."""
        cycle = self.cycle
        if (
            cycle is not None
            and not cycle.response_complete
            and cycle.scope.get("path", "").endswith("/stream/")
        ):
            self.transport.close()
            return
        super().shutdown()

    def _arm_head_timer(self):
        self._cancel_head_timer()
        self.head_timer = self.loop.call_later(_head_timeout(), self._head_timed_out)

    def _cancel_head_timer(self):
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _head_timed_out(self):
        self.head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


def _more_open_files() -> None:
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 65536
    want = min(want, 65536)
    if soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tournaments.serve", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=WORKERS, help="processes")
    parser.add_argument("--backlog", type=int, default=2048)
    parser.add_argument("--keep-alive", type=int, default=KEEP_ALIVE, help="seconds")
    parser.add_argument("--head-timeout", type=float, default=None, help="seconds")
    parser.add_argument("--max-head-bytes", type=int, default=MAX_HEAD_BYTES)
    parser.add_argument("--graceful-timeout", type=int, default=10, help="seconds")
    parser.add_argument("--access-log", action="store_true")
    parser.add_argument("--log-level", default="info")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse(sys.argv[1:] if argv is None else argv)
    if args.head_timeout is not None:
        # the worker processes are started anew and read it from here
        os.environ["TURNIERLEITER_HEAD_TIMEOUT"] = str(args.head_timeout)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")
    _more_open_files()
    import uvicorn

    uvicorn.run(
        "tournaments.asgi:application",
        host=args.host,
        port=args.port,
        workers=args.workers,
        http="tournaments.serve:HeadTimeoutProtocol",
        h11_max_incomplete_event_size=args.max_head_bytes,
        backlog=args.backlog,
        timeout_keep_alive=args.keep_alive,
        timeout_graceful_shutdown=args.graceful_timeout,
        lifespan="off",
        # uvicorn's own default believes X-Forwarded-For from 127.0.0.1: the
        # application does it for the proxies in TRUSTED_PROXIES only
        # (tournaments/asgi.py), whichever server runs it
        proxy_headers=False,
        server_header=False,
        access_log=args.access_log,
        log_level=args.log_level,
    )


if __name__ == "__main__":
    main()
