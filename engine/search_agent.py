"""The searching agent (issue 42), beside the agents of ``engine/agents.py``; its parts live in ``engine/search/``."""

from __future__ import annotations

from engine.search.agent import SearchAgent

__all__ = ["SearchAgent"]
