"""The round loop (B-ROUND-01..05): Westeros (not in round 1) -> Planning -> Action, ten rounds."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import data, victory
from engine.flow import Frame, Step, register
from engine.rulesets import ruleset

if TYPE_CHECKING:
    from engine.game import Game


@register
class GameLoop(Step):
    type = "game"

    def advance(self, g: Game, f: Frame) -> None:
        s = g.s
        nxt = f["next"]
        if nxt == "westeros":
            if s.round >= data.setups()["rounds"]:
                winner = victory.final_winner(s)
                g.end_game(winner, "round-limit")
                return
            s.round += 1
            s.phase = "westeros"
            f["next"] = "planning"
            g.emit("round-started", round=s.round)
            g.push("westeros")
            rs = ruleset(s)  # after the phase's frame, so what a hook pushes is decided before any card is drawn
            rs.round_started(g)
            rs.westeros_started(g)
        elif nxt == "planning":
            s.phase = "planning"
            f["next"] = "action"
            g.push("planning")
            ruleset(s).planning_started(g)
        elif nxt == "action":
            s.phase = "action"
            f["next"] = "westeros"
            g.push("action", stage="raid", last=None)
        else:  # pragma: no cover - corrupted state
            raise RuntimeError(f"unknown round step {nxt!r}")
