"""Settings from the environment (and an optional ``.env`` file). Secrets never reach logs."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit


def load_dotenv(path: Path) -> dict[str, str]:
    """Read KEY=VALUE lines; blank lines and # comments are ignored. Quotes around values are stripped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        values[key.strip()] = value.strip().strip('"').strip("'")
    return values


# How much lower than the bot the AI's processes think (AI_NICENESS): the image pool's ten.
AI_NICENESS = 10


@dataclass(frozen=True)
class Config:
    token: str | None
    database: Path | str  # a SQLite file, or a ``postgresql://`` address (DATABASE_URL)
    api_base: str | None = None  # points discord.py at another API (the local fake in tests)
    gateway_url: str | None = None
    moderator_role: str | None = None
    image_workers: int = 2  # processes drawing images (IMAGE_WORKERS)
    ai_workers: int = 1  # processes where the agent thinks for AI seats and absent players (AI_WORKERS; app/ai.py)
    ai_niceness: int = AI_NICENESS  # how much lower than the bot's CPU priority the AI thinks (AI_NICENESS, 0 to 19)
    worker_slots: int = 8  # answers a worker applies side by side (WORKER_SLOTS; ``--role worker``)
    deadline_sweep_s: float = 30.0  # how often each process looks for overdue deadlines nobody fires (DEADLINE_SWEEP_S)
    deadline_lease_s: float = 300.0  # how long a process firing a deadline holds it (DEADLINE_LEASE_S)
    lease_s: float = 30.0  # a process's leases (its role, its shards) free themselves this long after it dies (LEASE_S)
    # A gateway waits this long for an answer's outcome, at most 14 minutes (the interaction's token lasts 15)
    # (OUTCOME_TIMEOUT_S), and looks this often for outcomes it could not read in time (UNTOLD_SWEEP_S).
    outcome_timeout_s: float = 600.0
    untold_sweep_s: float = 30.0
    # /healthz and /metrics (HEALTH_PORT, HEALTH_HOST; cogs/health.py): off unless a port is given, and on the
    # loopback unless another address is given, since they are for the host's own monitoring.
    health_port: int | None = None
    health_host: str = "127.0.0.1"
    # The gateway's shards (SHARD_COUNT, SHARD_IDS): None when the process holds one unsharded connection (no
    # SHARD_COUNT, or a worker, which holds no gateway); else the total and, in order, the ids this process holds.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    startup_timeout_s: float = 60.0  # how long start-up waits for a database that does not answer (STARTUP_TIMEOUT_S)
    backup_every_hours: float = 0.0  # the one-process bot backs up this often; 0: never (BACKUP_EVERY_HOURS)
    backup_keep: int = 7  # the newest backups kept in backup_dir (BACKUP_KEEP)
    backup_dir: Path | None = None  # BACKUP_DIR; None: ``backups/`` beside the database (app/backup.py)
    # An ended game's command log is removed this many days after it ended, its final standing kept
    # (KEEP_ENDED_DAYS; app/retention.py, docs/privacy.md); 0 keeps it for good.
    keep_ended_days: float = 180.0
    log_level: str = "INFO"  # LOG_LEVEL
    log_format: str = "text"  # LOG_FORMAT: ``text``, or ``json`` (one object per line, for hosts that collect logs)
    extra: dict[str, str] = field(default_factory=dict)

    def __repr__(self) -> str:  # never print the token
        return f"Config(token={'set' if self.token else 'missing'}, database={shown_database(self.database)!r})"


def shown_database(database: Path | str) -> str:
    """A database's address fit for a log: a PostgreSQL address without its user and password."""
    text = str(database)
    if "://" not in text or text.startswith("sqlite:"):
        return text
    parts = urlsplit(text)
    return f"{parts.scheme}://{parts.hostname or ''}{f':{parts.port}' if parts.port else ''}{parts.path}"


def database_target(env: dict[str, str], root: Path) -> Path | str:
    """DATABASE_URL (``postgresql://...`` or ``sqlite:///...``), else DATABASE_PATH, else ``westeros.sqlite3`` beside
    the bot."""
    url = env.get("DATABASE_URL", "").strip()
    if url:
        return url
    return Path(env.get("DATABASE_PATH", str(root / "westeros.sqlite3")))


def default_image_workers() -> int:
    """Two drawing processes, or one on a single core (they run at a lower priority than the bot anyway)."""
    return max(1, min(2, os.cpu_count() or 1))


def _workers(raw: str | None) -> int:
    try:
        return max(1, min(8, int(raw))) if raw else default_image_workers()
    except ValueError:
        return default_image_workers()


def _niceness(raw: str | None, default: int) -> int:
    try:
        return max(0, min(19, int(raw))) if raw else default
    except ValueError:
        return default


WORKER_SLOTS = 8  # answers one worker applies side by side: each mostly waits for the database


def _slots(raw: str | None) -> int:
    try:
        return max(1, min(32, int(raw))) if raw else WORKER_SLOTS
    except ValueError:
        return WORKER_SLOTS


def _seconds(raw: str | None, default: float) -> float:
    try:
        return max(0.1, min(3600.0, float(raw))) if raw else default
    except ValueError:
        return default


class ConfigError(ValueError):
    """A setting the bot refuses to start with; its message says which and what to set instead."""


def _health_port(raw: str) -> int | None:
    """HEALTH_PORT: unset or empty turns health and metrics off; anything but a port refuses to start."""
    if not raw:
        return None
    try:
        port = int(raw)
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise ConfigError(f"HEALTH_PORT must be a port number from 1 to 65535, not {raw!r} (unset it to turn it off)")
    return port


MAX_SHARDS = 1024  # Discord asks for a shard per 2,500 guilds at most: this is room for 2.5 million guilds

ROLES = ("all", "gateway", "worker")


def _shard_count(raw: str) -> int:
    try:
        count = int(raw)
    except ValueError:
        count = 0
    if not 1 <= count <= MAX_SHARDS:
        raise ConfigError(f"SHARD_COUNT must be a whole number from 1 to {MAX_SHARDS}, not {raw!r}")
    return count


def _shard_id_list(raw: str, count: int) -> tuple[int, ...]:
    """``0,1`` or ``0-3`` (ranges included), each id once and below ``count``, in ascending order."""
    ids: list[int] = []
    for part in (p.strip() for p in raw.split(",")):
        first, dash, last = part.partition("-")
        try:
            span = range(int(first), int(last) + 1) if dash else range(int(first), int(first) + 1)
        except ValueError:
            raise ConfigError(
                f"SHARD_IDS must be shard ids separated by commas, ranges allowed (0,1 or 0-3), not {raw!r}"
            ) from None
        if not span:
            raise ConfigError(f"SHARD_IDS: the range {part!r} holds no shard (write the lower id first)")
        for shard in span:
            if not 0 <= shard < count:
                raise ConfigError(
                    f"SHARD_IDS names shard {shard}, but SHARD_COUNT={count} numbers the shards 0 to {count - 1}"
                )
            if shard in ids:
                raise ConfigError(f"SHARD_IDS names shard {shard} twice")
            ids.append(shard)
    return tuple(sorted(ids))


def shard_settings(env: dict[str, str], role: str) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT (the shards of the whole bot) and SHARD_IDS (those this process holds; all when unset) for a
    process of ``role``. A worker holds no gateway and ignores both; the one-process bot must hold every shard,
    since no other process serves the rest."""
    raw_count = env.get("SHARD_COUNT", "").strip()
    raw_ids = env.get("SHARD_IDS", "").strip()
    if role == "worker" or not (raw_count or raw_ids):
        return None, None
    if not raw_count:
        raise ConfigError(
            f"SHARD_IDS={raw_ids} needs SHARD_COUNT, the number of shards over all gateway processes (docs/deploy.md)"
        )
    count = _shard_count(raw_count)
    ids = _shard_id_list(raw_ids, count) if raw_ids else tuple(range(count))
    if role == "all" and len(ids) < count:
        missing = [str(s) for s in range(count) if s not in ids]
        shards = f"shard{'s' if len(missing) > 1 else ''} {', '.join(missing)}"
        raise ConfigError(
            f"SHARD_IDS={raw_ids} leaves {shards} to no process: `python bot.py` alone holds every shard."
            " To share the shards between processes, run each as `python bot.py --role gateway` (docs/deploy.md)"
        )
    return count, ids


def load_config(root: Path | None = None, environ: dict[str, str] | None = None, *, role: str = "all") -> Config:
    """The settings of a process of ``role`` (``bot.py --role``); a setting it cannot start with raises ConfigError."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    root = root or Path.cwd()
    env = {**load_dotenv(root / ".env"), **(environ if environ is not None else os.environ)}
    shard_count, shard_ids = shard_settings(env, role)
    return Config(
        token=env.get("DISCORD_TOKEN") or None,
        database=database_target(env, root),
        api_base=env.get("DISCORD_API_BASE") or None,
        gateway_url=env.get("DISCORD_GATEWAY_URL") or None,
        moderator_role=env.get("MODERATOR_ROLE") or None,
        image_workers=_workers(env.get("IMAGE_WORKERS")),
        ai_workers=min(4, _workers(env.get("AI_WORKERS") or "1")),
        ai_niceness=_niceness(env.get("AI_NICENESS"), AI_NICENESS),
        worker_slots=_slots(env.get("WORKER_SLOTS")),
        deadline_sweep_s=_seconds(env.get("DEADLINE_SWEEP_S"), 30.0),
        deadline_lease_s=_seconds(env.get("DEADLINE_LEASE_S"), 300.0),
        lease_s=_seconds(env.get("LEASE_S"), 30.0),
        outcome_timeout_s=min(_seconds(env.get("OUTCOME_TIMEOUT_S"), 600.0), 840.0),
        untold_sweep_s=_seconds(env.get("UNTOLD_SWEEP_S"), 30.0),
        health_port=_health_port(env.get("HEALTH_PORT", "").strip()),
        health_host=env.get("HEALTH_HOST", "").strip() or "127.0.0.1",
        shard_count=shard_count,
        shard_ids=shard_ids,
        startup_timeout_s=_seconds(env.get("STARTUP_TIMEOUT_S"), 60.0),
        backup_every_hours=_hours(env.get("BACKUP_EVERY_HOURS")),
        backup_keep=_keep(env.get("BACKUP_KEEP")),
        backup_dir=Path(env["BACKUP_DIR"]) if env.get("BACKUP_DIR", "").strip() else None,
        keep_ended_days=_keep_days(env.get("KEEP_ENDED_DAYS")),
        log_level=_log_level(env.get("LOG_LEVEL")),
        log_format=_log_format(env.get("LOG_FORMAT")),
    )


def _hours(raw: str | None) -> float:
    """BACKUP_EVERY_HOURS: hours between backups (a fraction is allowed); unset or 0: no automatic backups."""
    try:
        hours = float(raw) if raw else 0.0
    except ValueError:
        raise ConfigError(f"BACKUP_EVERY_HOURS must be a number of hours (24 for daily), not {raw!r}") from None
    return hours if hours > 0 else 0.0


def _keep(raw: str | None) -> int:
    try:
        keep = int(raw) if raw else 7
    except ValueError:
        keep = 0
    if keep < 1:
        raise ConfigError(f"BACKUP_KEEP must be a whole number of backups, 1 or more, not {raw!r}")
    return keep


def _keep_days(raw: str | None) -> float:
    """KEEP_ENDED_DAYS: days an ended game's command log is kept (180 unless set; 0: for good)."""
    try:
        days = float(raw) if raw and raw.strip() else 180.0
    except ValueError:
        days = -1.0
    if days < 0:
        raise ConfigError(
            f"KEEP_ENDED_DAYS must be a number of days, 0 to keep ended games' logs for good, not {raw!r}"
        )
    return days


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _log_level(raw: str | None) -> str:
    level = (raw or "INFO").strip().upper()
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {raw!r}")
    return level


def _log_format(raw: str | None) -> str:
    shape = (raw or "text").strip().lower()
    if shape not in ("text", "json"):
        raise ConfigError(f"LOG_FORMAT must be text or json, not {raw!r}")
    return shape


TOKEN_HELP = """\
DISCORD_TOKEN is not set, so the bot cannot log in.

To get a token:
  1. Open https://discord.com/developers/applications and create an application.
  2. In "Bot", press "Reset Token" and copy the token.
  3. Put it in a file named .env next to bot.py:   DISCORD_TOKEN=your-token-here
     (or export DISCORD_TOKEN in your shell). Never commit that file.
To invite the bot to your server:
  4. In "OAuth2 > URL Generator" tick the scopes "bot" and "applications.commands",
     and the permissions "Send Messages", "Attach Files", "Embed Links",
     "Create Public Threads", "Send Messages in Threads" and "Manage Messages".
  5. Open the generated URL and choose your server.
Then run `make run` again. The first time, register the slash commands with `make sync-commands`.
"""
