"""REST plumbing: route registration under ``/api/v{N}``, auth, fault injection, request log, errors.

Route handlers live in ``routes_*.py``; each exposes ``routes(ctx) -> list[RouteSpec]``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import secrets
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from .context import FakeContext, InternalError
from .errors import ApiError
from .faults import FaultRule

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
API_PREFIX = r"/api/v{api_version:\d+}"


@dataclass
class RouteSpec:
    method: str
    path: str  # discord.py-style template, e.g. /channels/{channel_id}/messages
    handler: Handler
    auth: bool = True  # interaction callbacks and webhooks are authenticated by their token instead


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py only parses JSON when Content-Type is exactly "application/json" (no charset).
    return web.Response(
        body=json.dumps(data, separators=(",", ":")).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def no_content() -> web.Response:
    return web.Response(status=204)


def error_response(error: ApiError, headers: dict[str, str] | None = None) -> web.Response:
    return json_response(error.body(), status=error.status, headers=headers)


def _rate_limited(rule: FaultRule) -> web.Response:
    retry = rule.retry_after
    headers = {
        "Via": "1.1 google",  # discord.py treats a 429 without Via as a Cloudflare ban
        "Retry-After": str(max(1, math.ceil(retry))),
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{time.time() + retry:.3f}",
        "X-RateLimit-Reset-After": f"{retry:.3f}",
        "X-RateLimit-Bucket": secrets.token_hex(8),
        "X-RateLimit-Scope": "global" if rule.is_global else "user",
    }
    if rule.is_global:
        headers["X-RateLimit-Global"] = "true"
    body = {"message": "You are being rate limited.", "retry_after": retry, "global": rule.is_global}
    return json_response(body, status=429, headers=headers)


class RestRouter:
    def __init__(self, ctx: FakeContext) -> None:
        self.ctx = ctx

    def install(self, app: web.Application, specs: list[RouteSpec]) -> None:
        for spec in specs:
            app.router.add_route(spec.method, API_PREFIX + spec.path, self._wrap(spec))
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._unsupported)

    def _authorized(self, request: web.Request) -> bool:
        header = request.headers.get("Authorization", "")
        if not header.startswith("Bot "):
            return False
        return secrets.compare_digest(header[4:].strip(), self.ctx.token)

    def _wrap(self, spec: RouteSpec) -> Handler:
        ctx = self.ctx

        async def handler(request: web.Request) -> web.StreamResponse:
            path = "/" + request.path.split("/", 3)[-1]
            record = ctx.requests.start(spec.method, spec.path, path)
            status = 500
            try:
                response, record.fault = await self._respond(spec, request, path)
                status = response.status
                return response
            finally:
                ctx.requests.finish(record, status)

        return handler

    async def _respond(self, spec: RouteSpec, request: web.Request, path: str) -> tuple[web.StreamResponse, str | None]:
        ctx = self.ctx
        key = f"{spec.method} {spec.path}"
        if ctx.faults.latency > 0:
            await asyncio.sleep(ctx.faults.latency)
            ctx.arrivals.shift(request.transport, ctx.faults.latency)
        if spec.auth and not self._authorized(request):
            return json_response({"message": "401: Unauthorized", "code": 0}, status=401), None
        rule = ctx.faults.take(spec.method, spec.path, path)
        if rule is not None and rule.kind in ("lost_answer", "held"):
            if rule.kind == "lost_answer":
                await self._handle(spec, request, key)  # done, whatever it answers
            until = time.monotonic() + rule.hold
            while time.monotonic() < until and request.transport is not None and not request.transport.is_closing():
                await asyncio.sleep(0.05)  # withheld until the hold ends or the client is gone (a killed bot)
            return json_response({"message": rule.message, "code": 0}, status=rule.status), rule.kind
        if rule is not None:
            if rule.kind == "rate_limit":
                return _rate_limited(rule), rule.kind
            if rule.kind == "server_error":
                return json_response({"message": rule.message, "code": 0}, status=rule.status), rule.kind
            return error_response(ApiError(rule.status, rule.code, rule.message)), rule.kind
        return await self._handle(spec, request, key), None

    async def _handle(self, spec: RouteSpec, request: web.Request, key: str) -> web.StreamResponse:
        try:
            return await spec.handler(request)
        except ApiError as exc:
            return error_response(exc)
        except Exception as exc:  # a bug in the fake: make it loud but don't trigger 5xx retries
            log.exception("fake_discord internal error in %s", key)
            self.ctx.internal_errors.append(InternalError(key, traceback.format_exc()))
            return json_response({"message": f"fake_discord internal error: {exc!r}", "code": 0}, status=400)

    async def _unsupported(self, request: web.Request) -> web.StreamResponse:
        tail = request.match_info.get("tail", "")
        key = f"{request.method} /{tail}"
        self.ctx.unsupported.append(key)
        record = self.ctx.requests.start(request.method, "/" + tail, "/" + tail)
        self.ctx.requests.finish(record, 404)
        log.warning("fake_discord: unsupported endpoint %s", key)
        return json_response({"message": f"404: Not Found (fake_discord does not implement {key})", "code": 0}, 404)
