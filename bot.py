"""Start the bot: ``python bot.py`` (``make run``). ``--sync-commands`` registers the slash commands.

Operating it (docs/deploy.md, "Operating it"): ``python bot.py backup [PATH]``, ``python bot.py restore PATH`` and
``python bot.py migrate [--check]``.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from app.config import TOKEN_HELP, Config, ConfigError, load_config, shown_database
from app.database import is_postgres, name_connections, sqlite_path

EX_CONFIG = 78  # sysexits.h: the configuration is incomplete (``make run`` prints the help, not make's error line)
EX_DATAERR = 65  # sysexits.h: the database's schema is newer than this code
EX_UNAVAILABLE = 69  # sysexits.h: the database did not answer within STARTUP_TIMEOUT_S
EX_IN_USE = 3  # another process holds what this one needs (the same status a held lease gives, cogs/client.py)

ROOT = Path(__file__).resolve().parent
log = logging.getLogger("westeros.bot")


class JsonFormatter(logging.Formatter):
    """One JSON object per line, for hosts that collect logs (LOG_FORMAT=json): a traceback is one string field,
    never lines of its own."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exc_info"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack_info"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False)


def set_up_logging(config: Config) -> None:
    handler = logging.StreamHandler()
    if config.log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=config.log_level, handlers=[handler], force=True)
    logging.captureWarnings(True)  # a library's warning is a log line too, not loose text among the JSON
    if logging.getLogger().getEffectiveLevel() > logging.DEBUG:
        # Every run of every job, and every migration plugin, at INFO would bury what the bot itself says.
        logging.getLogger("apscheduler").setLevel(logging.WARNING)
        logging.getLogger("alembic").setLevel(logging.WARNING)


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="A Game of Thrones: The Board Game on Discord.")
    parser.add_argument("--sync-commands", action="store_true", help="register slash commands with Discord, then exit")
    parser.add_argument(
        "--role",
        choices=("all", "gateway", "worker"),
        default="all",
        help="all: one process does everything (default); gateway and worker: one gateway and any number of workers"
        " sharing a PostgreSQL database (docs/deploy.md)",
    )
    operations = parser.add_subparsers(dest="operation", metavar="{backup,restore,migrate}")
    backup = operations.add_parser("backup", help="write a consistent copy of the database, also while the bot runs")
    backup.add_argument("path", nargs="?", type=Path, help="the copy's file (default: a new file in BACKUP_DIR)")
    restore = operations.add_parser("restore", help="restore a backup (refused while a bot uses the database)")
    restore.add_argument("path", type=Path, help="the backup's file")
    migrate = operations.add_parser("migrate", help="upgrade the database's schema to this code's")
    migrate.add_argument("--check", action="store_true", help="only tell: exit 0 if it is at this code's, else 1")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        # Registering commands talks to the HTTP API only, and the operations only to the database: like a worker,
        # they hold no shard, so a gateway's SHARD_IDS left in the environment does not stop them.
        worker_like = args.sync_commands or args.operation is not None
        config = load_config(ROOT, role="worker" if worker_like else args.role)
    except ConfigError as err:
        print(err, file=sys.stderr)
        return EX_CONFIG
    set_up_logging(config)
    name_connections(args.operation or args.role)  # a gateway's statements told from a worker's, on the server
    if args.operation is not None:
        return operate(args, config)
    if not config.token:
        print(TOKEN_HELP, file=sys.stderr)
        return EX_CONFIG
    refused = database_ready(config)
    if refused is not None:
        return refused
    lock = None
    if args.role == "all" and not args.sync_commands and not is_postgres(config.database):
        lock = hold_sqlite_lock(sqlite_path(config.database))
        if lock is None:
            return EX_IN_USE
    from cogs.client import run_bot

    try:
        return run_bot(config, sync_commands=args.sync_commands, role=args.role)
    finally:
        if lock:
            lock.close()


def database_ready(config: Config, *, ahead: int = EX_DATAERR, doing: str = "start") -> int | None:
    """Wait for the database to answer and refuse a schema newer than the code (exit status ``ahead``), each in one
    line: None when it is ready, else the exit status."""
    from app import migrate
    from app.startup import DatabaseUnavailable, wait_for_database

    try:
        wait_for_database(config.database, config.startup_timeout_s)
        migrate.refuse_if_ahead(config.database, migrate.current_revision(config.database))
    except DatabaseUnavailable as err:
        log.error("%s", err)
        return EX_UNAVAILABLE
    except migrate.SchemaAhead as err:
        log.error("refusing to %s: %s", doing, err)
        return ahead
    return None


def hold_sqlite_lock(path: Path) -> IO[str] | None:
    """The one-process bot on SQLite holds its database's lock file as long as it runs: ``restore`` refuses while
    it is held, and so does a second bot (app/backup.py). None: another process holds it."""
    from app.backup import lock_path, try_lock

    handle = try_lock(path)
    if handle is None:
        log.error("refusing to start: another bot process uses %s (it holds %s)", path, lock_path(path).name)
    return handle


def operate(args: argparse.Namespace, config: Config) -> int:
    """``backup``, ``restore`` and ``migrate``: each answers in one line (stdout when it did it, stderr when not)."""
    from app import migrate
    from app.backup import BackupError, backup, backup_dir, backup_name, restore

    # ``migrate --check`` answers 1 for any database not at this code's revision, a newer one included.
    check = args.operation == "migrate" and args.check
    if args.operation != "restore":  # a restore may make the database: it checks the copy instead
        refused = database_ready(config, ahead=1 if check else EX_DATAERR, doing=args.operation)
        if refused is not None:
            return refused
    shown = shown_database(config.database)
    try:
        if args.operation == "migrate":
            return migrate_database(config, check=args.check)
        if args.operation == "backup":
            path = args.path or backup_dir(config, ROOT) / backup_name(config.database)
            done = backup(config.database, path)
            if done.command is not None:
                print(
                    f"pg_dump is not on PATH: run this where it is (the password, if any, in PGPASSWORD):"
                    f"\n  {done.command.shown()}",
                    file=sys.stderr,
                )
                return 1
            print(f"backed {shown} up to {done.path} ({done.path.stat().st_size / 1e6:.1f} MB)")
            return 0
        result = restore(config.database, args.path)
        if result.command is not None:
            print(
                f"pg_restore is not on PATH: run this where it is, with every process of the bot stopped (the password,"
                f" if any, in PGPASSWORD):\n  {result.command.shown()}\n  then: python bot.py migrate",
                file=sys.stderr,
            )
            return 1
        upgraded = f", upgraded to {result.now}" if result.now != result.copied else ""
        print(f"restored {args.path} (schema revision {result.copied}{upgraded}) into {shown}")
        return 0
    except (BackupError, migrate.SchemaAhead) as err:
        print(err, file=sys.stderr)
        return 1


def migrate_database(config: Config, *, check: bool) -> int:
    from app import migrate

    shown = shown_database(config.database)
    now = migrate.current_revision(config.database)
    if now == migrate.HEAD:
        print(f"{shown} is at schema revision {now}, this code's")
        return 0
    if check:
        standing = f"at schema revision {now}" if now else "without a schema yet (or from before Alembic)"
        print(f"{shown} is {standing}; this code's is {migrate.HEAD}: run `python bot.py migrate`", file=sys.stderr)
        return 1
    migrate.upgrade(config.database)
    print(f"upgraded {shown} from schema revision {now or 'none'} to {migrate.current_revision(config.database)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
