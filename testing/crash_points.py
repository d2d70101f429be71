"""A crash at the n-th request a bot makes from now on, whatever its route, for the fake Discord's fault plan.

The fake's rules (``testing/fake_discord/faults.py``) pick the n-th request of one route. A crash in a restarted
process's recovery must fall on any of its requests, whose routes are not known before it runs: ``CrashAt`` adds one
rule per route the bot may use, all of them sharing one count, so that exactly the n-th request among them all is
held (never done: a crash before the send) or done with its answer withheld (a crash between the send and its mark).
"""

from __future__ import annotations

from dataclasses import dataclass

from testing.fake_discord.faults import FaultPlan, FaultRule


@dataclass
class Count:
    """What the rules of one crash share: the requests still let through, whether it is still to come, and whether
    it came."""

    skip: int = 0
    remaining: int = 1
    hits: int = 0


class _SharedRule(FaultRule):
    """A rule of one route whose counts are the crash's, shared with its other routes' rules. ``FaultPlan.take``
    reads and decrements ``skip``, ``remaining`` and ``hits`` as attributes: here they are the shared ones."""

    count: Count

    def __init__(self, count: Count, matcher: str, kind: str, hold: float) -> None:
        self.count = count
        super().__init__(matcher, kind, 1, status=500, message="500: Internal Server Error", hold=hold)

    @property
    def skip(self) -> int:
        return self.count.skip

    @skip.setter
    def skip(self, value: int) -> None:
        self.count.skip = value

    @property
    def remaining(self) -> int:
        return self.count.remaining

    @remaining.setter
    def remaining(self, value: int) -> None:
        self.count.remaining = value

    @property
    def hits(self) -> int:
        return self.count.hits

    @hits.setter
    def hits(self, value: int) -> None:
        self.count.hits = value


class CrashAt:
    """The request after ``skip`` others (of the given routes, in any mix) held for ``hold`` seconds, either before
    Discord does it (``done`` False) or after (``done`` True: the answer is lost). ``remove()`` takes its rules out of
    the plan, whether it came or not."""

    def __init__(self, plan: FaultPlan, routes: set[str], *, skip: int, done: bool, hold: float) -> None:
        self.plan = plan
        self.count = Count()
        kind = "lost_answer" if done else "held"
        self.rules: list[FaultRule] = [_SharedRule(self.count, route, kind, hold) for route in sorted(routes)]
        # Set once every rule is built: each rule's construction wrote the defaults into the shared count.
        self.count.skip, self.count.remaining, self.count.hits = skip, 1, 0
        plan.rules.extend(self.rules)

    @property
    def hits(self) -> int:
        return self.count.hits

    def remove(self) -> None:
        for rule in self.rules:
            if rule in self.plan.rules:
                self.plan.rules.remove(rule)
