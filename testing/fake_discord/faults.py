"""Per-test fault injection (429 / 5xx / arbitrary errors) and the per-route request log.

Routes are named like discord.py's ``Route.key``: ``"POST /channels/{channel_id}/messages"``.
A matcher may also be a concrete path (``"POST /channels/123/messages"``) or omit the
method (``"/channels/{channel_id}/messages"`` matches every method).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

HTTP_METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE"})


def route_matches(matcher: str, method: str, route: str, path: str) -> bool:
    head, _, rest = matcher.partition(" ")
    if head.upper() in HTTP_METHODS and rest:
        if head.upper() != method:
            return False
        target = rest
    else:
        target = matcher
    return target in (route, path)


@dataclass
class RequestRecord:
    method: str
    route: str  # template, e.g. /channels/{channel_id}/messages
    path: str  # concrete, e.g. /channels/123/messages
    status: int | None = None
    started: float = field(default_factory=time.monotonic)
    fault: str | None = None  # "rate_limit", "server_error", "error" when injected

    @property
    def key(self) -> str:
        return f"{self.method} {self.route}"


@dataclass
class FaultRule:
    matcher: str
    kind: str  # "rate_limit" | "server_error" | "error" | "lost_answer" | "held"
    remaining: int
    retry_after: float = 0.05
    is_global: bool = False
    status: int = 500
    code: int = 0
    message: str = ""
    hits: int = 0
    hold: float = 0.0  # "lost_answer", "held": seconds the answer is withheld
    skip: int = 0  # matching requests let through before the rule applies (the n-th send of a route)


class FaultPlan:
    """Faults to inject, consumed in the order they were added."""

    def __init__(self) -> None:
        self.rules: list[FaultRule] = []
        # Seconds every REST call takes before Discord handles it, as from a slow network or a slow Discord: the
        # bot waits that long for each answer, and an interaction's callback counts as received that late.
        self.latency = 0.0

    def rate_limit(
        self, route: str, *, times: int = 1, retry_after: float = 0.05, is_global: bool = False
    ) -> FaultRule:
        """Answer the next ``times`` matching requests with HTTP 429 (with Discord's headers and body)."""
        rule = FaultRule(route, "rate_limit", times, retry_after=retry_after, is_global=is_global, status=429)
        self.rules.append(rule)
        return rule

    def server_error(self, route: str, *, times: int = 1, status: int = 500) -> FaultRule:
        """Answer the next ``times`` matching requests with a 5xx. (discord.py sleeps 1s, 3s, ... between retries.)"""
        rule = FaultRule(route, "server_error", times, status=status, message="500: Internal Server Error")
        self.rules.append(rule)
        return rule

    def error(self, route: str, *, status: int, code: int, message: str, times: int = 1) -> FaultRule:
        """Answer the next ``times`` matching requests with an arbitrary Discord JSON error."""
        rule = FaultRule(route, "error", times, status=status, code=code, message=message)
        self.rules.append(rule)
        return rule

    def lost_answer(
        self, route: str, *, times: int = 1, hold: float = 0.0, status: int = 500, skip: int = 0
    ) -> FaultRule:
        """Do the next ``times`` matching requests (the message is created, the edit made), then withhold the answer
        for ``hold`` seconds and answer a 5xx instead: Discord did the thing and the bot never heard so (a cut
        connection, Discord's own "answers an error after doing the thing"). A long ``hold`` keeps the bot waiting
        there, to be killed."""
        rule = FaultRule(
            route, "lost_answer", times, status=status, message="500: Internal Server Error", hold=hold, skip=skip
        )
        self.rules.append(rule)
        return rule

    def held(self, route: str, *, skip: int = 0, hold: float = 0.0, status: int = 500) -> FaultRule:
        """Withhold the matching request, after ``skip`` others went through, for ``hold`` seconds without doing it,
        then answer a 5xx: it never reached Discord. A long ``hold`` keeps the bot waiting there, to be killed (a crash
        just before a send)."""
        rule = FaultRule(route, "held", 1, status=status, message="500: Internal Server Error", hold=hold, skip=skip)
        self.rules.append(rule)
        return rule

    def clear(self) -> None:
        self.rules.clear()
        self.latency = 0.0

    def take(self, method: str, route: str, path: str) -> FaultRule | None:
        for rule in self.rules:
            if rule.remaining > 0 and route_matches(rule.matcher, method, route, path):
                if rule.skip > 0:
                    rule.skip -= 1
                    continue
                rule.remaining -= 1
                rule.hits += 1
                return rule
        return None


class RequestLog:
    """Every REST request the bot made, in order, with the status it got."""

    def __init__(self) -> None:
        self.records: list[RequestRecord] = []
        self.in_flight = 0
        self.last_activity = time.monotonic()

    def start(self, method: str, route: str, path: str) -> RequestRecord:
        record = RequestRecord(method, route, path)
        self.records.append(record)
        self.in_flight += 1
        self.last_activity = time.monotonic()
        return record

    def finish(self, record: RequestRecord, status: int) -> None:
        record.status = status
        self.in_flight -= 1
        self.last_activity = time.monotonic()

    def matching(self, route: str | None = None, *, status: int | None = None) -> list[RequestRecord]:
        out = []
        for r in self.records:
            if route is not None and not route_matches(route, r.method, r.route, r.path):
                continue
            if status is not None and r.status != status:
                continue
            out.append(r)
        return out

    def count(self, route: str | None = None, *, status: int | None = None) -> int:
        return len(self.matching(route, status=status))

    def counts(self) -> dict[str, int]:
        """Number of requests per route key, e.g. ``{"POST /channels/{channel_id}/messages": 3}``."""
        out: dict[str, int] = {}
        for r in self.records:
            out[r.key] = out.get(r.key, 0) + 1
        return out

    def clear(self) -> None:
        self.records.clear()
