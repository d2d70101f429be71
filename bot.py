"""Start the bot: ``python bot.py`` (``make run``). ``--sync-commands`` registers the slash commands."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from app.config import TOKEN_HELP, ConfigError, load_config

EX_CONFIG = 78  # sysexits.h: the configuration is incomplete (``make run`` prints the help, not make's error line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A Game of Thrones: The Board Game on Discord.")
    parser.add_argument("--sync-commands", action="store_true", help="register slash commands with Discord, then exit")
    parser.add_argument(
        "--role",
        choices=("all", "gateway", "worker"),
        default="all",
        help="all: one process does everything (default); gateway and worker: one gateway and any number of workers"
        " sharing a PostgreSQL database (docs/deploy.md)",
    )
    args = parser.parse_args(argv)
    try:
        # Registering commands talks to the HTTP API only: like a worker, it holds no shard, so a gateway's
        # SHARD_IDS left in the environment does not stop it.
        config = load_config(Path(__file__).resolve().parent, role="worker" if args.sync_commands else args.role)
    except ConfigError as err:
        print(err, file=sys.stderr)
        return EX_CONFIG
    if not config.token:
        print(TOKEN_HELP, file=sys.stderr)
        return EX_CONFIG
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # Every run of every job, and every migration plugin, at INFO would bury what the bot itself says.
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    from cogs.client import run_bot

    return run_bot(config, sync_commands=args.sync_commands, role=args.role)


if __name__ == "__main__":
    raise SystemExit(main())
