"""Importing this module warms the renderer (``render.warming.warm_renderer``). The image pool's fork server
imports it once (``ImagePool(preload=...)``), so every worker forked from it, and each one that later replaces a
worker, starts with the base board's layers built and the worker's own warm-up finds nothing left to do: where each
worker spent a second or more of CPU on it, at every start of the bot."""

from __future__ import annotations

import contextlib

from render.warming import warm_renderer

# A failure here must not take the fork server down with it: each worker's own warm-up runs again and fails loudly.
with contextlib.suppress(Exception):
    warm_renderer()
