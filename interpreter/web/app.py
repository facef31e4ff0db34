"""The web table's HTTP side: a Starlette app over one WebTable (web.table).

Routes: `/` the page (plain HTML/CSS/JS from web/static, nothing fetched from elsewhere); the seat's
token travels in the link's fragment (`/#t=TOKEN`, never sent in a page request) and in each call's
`X-Token` header — in the query only for the live stream (`EventSource` cannot set headers; the access
log is off). `/api/page` the seat's page, `/api/rules` the rules, `/api/events` server-sent events (a
fresh page each time the table moves), `/api/decide` a decision. Bodies are bounded
(MAX_BODY), decisions rate-limited per seat, live streams per seat capped; a stream only reads, so a
vanished browser holds nothing up.
"""
from __future__ import annotations

import asyncio
import json
import time
from importlib import resources

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from .table import Refused, WebTable

MAX_BODY = 1024                 # a decision is a few dozen bytes
RATE = 20                       # requests a seat may make per second to /api/decide
STREAMS = 8                     # live streams open at once per seat (tabs, reconnects)
KEEPALIVE = 10.0                # seconds between comments on a quiet stream (finds closed connections)
POLL = 0.05                     # how often a stream looks at the table's version
STATIC = {"app.js": "text/javascript", "style.css": "text/css"}


def dumps(data) -> bytes:
    """The one encoding of everything sent: sorted keys, so equal observations give equal bytes."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def _asset(name: str) -> bytes:
    return resources.files(__package__).joinpath("static", name).read_bytes()


def _error(sentence: str, status: int) -> Response:
    return Response(dumps({"error": sentence}), status, media_type="application/json")


def make_app(table: WebTable, rate: int = RATE) -> Starlette:
    recent: dict = {}            # seat -> times of its recent decisions (rate limit)
    streams: dict = {}           # seat -> live streams open

    def seat_from(request: Request, query: bool = False):
        token = request.query_params.get("t") if query else request.headers.get("x-token")
        return table.seat_of(token)

    async def index(_request):
        return Response(_asset("index.html"), media_type="text/html; charset=utf-8",
                        headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})

    async def static(request):
        name = request.path_params["name"]
        if name not in STATIC:
            return _error("no such file", 404)
        return Response(_asset(name), media_type=STATIC[name] + "; charset=utf-8")

    async def page(request):
        try:
            seat = seat_from(request)
        except Refused as e:
            return _error(str(e), e.status)
        return Response(await run_in_threadpool(lambda: dumps(table.page(seat))), media_type="application/json")

    async def rules(request):
        try:
            seat_from(request)
        except Refused as e:
            return _error(str(e), e.status)
        return JSONResponse({"rules": table.rules()})

    async def decide(request):
        try:
            seat = seat_from(request)
        except Refused as e:
            return _error(str(e), e.status)
        now = time.monotonic()
        times = [t for t in recent.get(seat, []) if now - t < 1.0]
        if len(times) >= rate:
            return _error("too many decisions at once: wait a moment", 429)
        recent[seat] = times + [now]
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return _error(f"a decision is at most {MAX_BODY} bytes", 413)
        try:
            data = json.loads(body or b"null")
        except (ValueError, UnicodeDecodeError):
            return _error("a decision is JSON: {\"version\": N, \"option\": K}", 400)
        if not isinstance(data, dict):
            return _error("a decision is JSON: {\"version\": N, \"option\": K}", 400)
        try:
            label = await run_in_threadpool(table.decide, seat, data.get("version"), data.get("option"))
        except Refused as e:
            return _error(str(e), e.status)
        return Response(dumps({"taken": label}), media_type="application/json")

    async def events(request):
        try:
            seat = seat_from(request, query=True)
        except Refused as e:
            return _error(str(e), e.status)
        if streams.get(seat, 0) >= STREAMS:
            return _error(f"this seat has {STREAMS} live pages open already: close one", 429)

        async def stream():
            streams[seat] = streams.get(seat, 0) + 1
            try:
                sent, quiet = None, 0.0
                while True:
                    if table.version != sent:
                        sent = table.version
                        data = await run_in_threadpool(lambda: dumps(table.page(seat)))
                        yield b"data: " + data + b"\n\n"
                        quiet = 0.0
                    elif quiet >= KEEPALIVE:
                        yield b": still here\n\n"
                        quiet = 0.0
                    await asyncio.sleep(POLL)
                    quiet += POLL
            finally:
                streams[seat] -= 1
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    return Starlette(routes=[
        Route("/", index),
        Route("/static/{name}", static),
        Route("/api/page", page),
        Route("/api/rules", rules),
        Route("/api/decide", decide, methods=["POST"]),
        Route("/api/events", events),
    ])
