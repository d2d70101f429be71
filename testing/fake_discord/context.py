"""The bundle of collaborators REST route handlers work with."""

from __future__ import annotations

from dataclasses import dataclass, field

from .arrivals import Arrivals
from .events import EventEmitter
from .faults import FaultPlan, RequestLog
from .gateway import Gateway
from .interactions import InteractionTracker
from .world import World


@dataclass
class InternalError:
    route: str
    error: str


@dataclass
class FakeContext:
    world: World
    gateway: Gateway
    events: EventEmitter
    interactions: InteractionTracker
    faults: FaultPlan
    requests: RequestLog
    token: str
    gateway_url: str = ""
    unsupported: list[str] = field(default_factory=list)  # "METHOD /path" the fake does not implement
    internal_errors: list[InternalError] = field(default_factory=list)
    arrivals: Arrivals = field(default_factory=Arrivals)
