"""The ASGI application the web server runs (``tournaments.serve``, uvicorn).

:class:`PooledHandler` is Django's ASGI handler with one change in how a
request reaches the view. It reads the whole request (head and body) in the
event loop; only then does the request go to one of the process's request
threads (``WEB_THREADS``, a fixed pool), which runs the middleware chain and
the view the way the WSGI handler does, in one hop. An idle or slow
connection, or a request waiting for a free thread, holds no thread.

Django's own ASGI handler runs every async-capable middleware (most of
Django's) in async mode and hops into a thread and back for each of their
hooks — about 30 hops a request, which tripled the CPU per answer (1.6 → 5 ms
for a 404 measured in-process; 1.4 → 4.9 ms per answer under
``bench_venue``) — and starts a new thread for every request. An async view
(a push stream) runs in the server's event loop, and its streaming
response is sent from there: it holds no thread while it streams.

:class:`RequestGuard` in front of it keeps what gunicorn's limits used to keep:

- a request announcing a body above the limits of ``tournaments.limits``
  reaches Django with its body unread (the 413 page of
  ``BodySizeLimitMiddleware`` answers from the headers and closes the
  connection); a chunked body without a length is read only up to the limit;
- at most ``MAX_HEADER_FIELDS`` header fields, and a request target of at
  most ``MAX_REQUEST_LINE`` bytes, a head of at most ``MAX_HEAD_BYTES``.

Behind a proxy named in ``TRUSTED_PROXIES`` (:func:`behind_proxies`) a
request's address is the client's that proxy forwarded, never one a client
wrote in a header of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import os
import warnings
from concurrent.futures import ThreadPoolExecutor

import django
from asgiref.sync import SyncToAsync
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import FileResponse
from django.urls import set_script_prefix

# WhiteNoise's file responses iterate a file (a sync iterator): Django serves
# them chunk by chunk and warns once per process that it does
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators"
)

#: as gunicorn's --limit-request-fields / --limit-request-line had them
MAX_HEADER_FIELDS = 60
MAX_REQUEST_LINE = 4094
#: the whole head (h11 holds at most this much of an incomplete one:
#: tournaments.serve; a head that arrived in one piece is checked here)
MAX_HEAD_BYTES = 16 * 1024


async def _plain(send, status: int, text: str) -> None:
    body = text.encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class RequestGuard:
    """ASGI middleware: the request limits that hold before Django reads a byte
    of the body."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = scope["headers"]
        if len(headers) > MAX_HEADER_FIELDS or (
            sum(len(name) + len(value) + 4 for name, value in headers) > MAX_HEAD_BYTES
        ):
            return await _plain(send, 431, "Request Header Fields Too Large")
        if (
            len(scope.get("raw_path") or b"")
            + len(scope.get("query_string") or b"")
            + len(scope["method"])
            + 10
            > MAX_REQUEST_LINE
        ):
            return await _plain(send, 414, "URI Too Long")
        from tournaments.middleware import body_limit_for

        content_type = length = chunked = None
        for name, value in headers:
            if name == b"content-type":
                content_type = value.decode("latin-1")
            elif name == b"content-length":
                length = value
            elif name == b"transfer-encoding":
                chunked = b"chunked" in value.lower()
        limit = body_limit_for(content_type or "")
        if length is not None:
            try:
                too_large = int(length) > limit
            except ValueError:
                too_large = True  # BodySizeLimitMiddleware refuses it from the header
            if too_large:
                return await self.app(scope, _unread(receive), send)
            return await self.app(scope, receive, send)
        if chunked:
            return await self._chunked(scope, receive, send, limit)
        return await self.app(scope, receive, send)

    async def _chunked(self, scope, receive, send, limit):
        """A body without a length: read up to the limit; above it Django gets
        the length read so far (and refuses it with its 413 page)."""
        parts, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            parts.append(message.get("body", b""))
            size += len(parts[-1])
            if size > limit:
                scope = dict(scope)
                scope["headers"] = [
                    *(h for h in scope["headers"] if h[0] != b"transfer-encoding"),
                    (b"content-length", str(size).encode()),
                ]
                return await self.app(scope, _unread(receive), send)
            if not message.get("more_body", False):
                break
        return await self.app(scope, _replay(b"".join(parts), receive), send)


def _unread(receive):
    """A body Django never reads: it sees an empty one; afterwards only the
    client's disconnect (what is still sent is dropped)."""
    given = False

    async def wrapped():
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": b"", "more_body": False}
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return message

    return wrapped


def _replay(body: bytes, receive):
    given = False

    async def wrapped():
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return wrapped


class PooledHandler(ASGIHandler):
    """Django's ASGI handler with the WSGI handler's middleware chain, run in
    a fixed pool of threads once the whole request has arrived."""

    def __init__(self, threads: int):
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="request")

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django serves HTTP only, not {scope['type']}")
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()
        response = None
        try:
            response = await loop.run_in_executor(
                self.pool, context.run, self.respond, loop, scope, body_file
            )
            if response.streaming:
                await self._send_until_disconnect(response, send, receive)
            else:
                await self.send_response(response, send)
        finally:
            if response is not None and response.streaming:
                await loop.run_in_executor(self.pool, context.run, response.close)
            body_file.close()

    async def _send_until_disconnect(self, response, send, receive) -> None:
        """Send a streaming response until it ends or the client leaves: a
        push stream never ends by itself, and the server drops what is sent
        to a closed connection without a word, so the client's disconnect
        (the next message after the body) cancels the sending, and the
        stream's generator is closed."""

        async def disconnected():
            while (await receive())["type"] != "http.disconnect":
                pass

        sender = asyncio.ensure_future(self.send_response(response, send))
        watcher = asyncio.ensure_future(disconnected())
        try:
            await asyncio.wait({sender, watcher}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (sender, watcher):
                task.cancel()
            for task in (sender, watcher):
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            # the view's own generator (Django wraps it anew on each access)
            stream = getattr(response, "_iterator", None)
            if response.is_async and hasattr(stream, "aclose"):
                with contextlib.suppress(Exception):
                    await stream.aclose()

    def respond(self, loop, scope, body_file):
        """In a thread of the pool: the request through the middleware chain
        and the view, as the WSGI handler runs it."""
        # An async view (a push stream) runs in the server's event loop, as
        # under asgiref's own sync_to_async: it returns its streaming response
        # at once, and the stream is then sent from the loop, holding no thread.
        SyncToAsync.threadlocal.main_event_loop = loop
        SyncToAsync.threadlocal.main_event_loop_pid = os.getpid()
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size
        if not response.streaming:
            # the content is complete: close now, in this thread, so the
            # request's database connection is closed where it was opened
            response.close()
        return response


os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")
django.setup(set_prefix=False)
#: threads of one web process that run requests (whole requests only: a
#: connection waiting for its request or its answer holds none)
THREADS = int(os.environ.get("WEB_THREADS", "8"))
application = RequestGuard(PooledHandler(THREADS))


def behind_proxies(app, proxies: list[str]):
    """``app`` with the client's address (and scheme) of a request that came
    through one of ``proxies`` (``TRUSTED_PROXIES``): uvicorn's proxy-headers
    middleware believes ``X-Forwarded-For`` and ``X-Forwarded-Proto`` from
    those peers only, taking the nearest address in the chain that is not one
    of them, and leaves every other request as it came. Without proxies: the
    connection's address, whatever a request's headers say."""
    if not proxies:
        return app
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    return ProxyHeadersMiddleware(app, trusted_hosts=proxies)


application = behind_proxies(application, settings.TRUSTED_PROXIES)

# One cache object per process for every request's thread (Django keeps them
# per context, and each request runs in a context of its own): the Redis
# client then keeps its connections instead of opening one per request.
from django.core.cache import caches  # noqa: E402

caches["default"]
