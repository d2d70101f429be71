"""Pointing the real, unmodified discord.py at the fake (pure configuration: two class attributes)."""

from __future__ import annotations

from collections.abc import Callable


def point_discord_py_at(base_url: str, gateway_url: str | None = None, *, api_version: int = 10) -> Callable[[], None]:
    """Make discord.py talk to ``base_url`` instead of discord.com. Returns a function that undoes it.

    * ``discord.http.Route.BASE`` is where every REST call goes, including interaction
      callbacks and followup webhooks (``discord.webhook.async_`` builds on the same ``Route``).
    * ``DiscordWebSocket.DEFAULT_GATEWAY`` is where ``Client.connect`` opens the gateway
      (it does not ask ``GET /gateway/bot``; ``AutoShardedClient`` does, and the fake answers that too).
    """
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    base = base_url.rstrip("/")
    ws_url = gateway_url or ("ws" + base.removeprefix("http") + "/gateway/")
    old_base = Route.BASE
    old_gateway = DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = f"{base}/api/v{api_version}"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(ws_url)

    def restore() -> None:
        Route.BASE = old_base
        DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    return restore
