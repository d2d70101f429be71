"""Bot benchmark: many 6-player games on the local fake Discord, every player answering at once.

    python bench/bot.py [--tables 50] [--runs 1] [--games-ended 0] [--flow dm|decide] [--json]

Measures how fast the bot acknowledges interactions (Discord allows 3 s), how soon the player sees the
receipt of an answer, how many answers per second it records, the bot's CPU time per answer, its memory,
and whether any acknowledged answer was lost or recorded twice. Loopback only, bounded in count and time.

``receipt_p50_ms``/``receipt_p99_ms``: from the Submit click (the fake builds the interaction) to the moment
the fake stores the edit that says "Recorded". ``cpu_ms_per_answer``: the CPU time (user + system) of the
bot process *and its children* (the image pool's workers) over the burst, divided by the answers recorded.
``main_cpu_ms_per_answer``: the main process's alone (``bot_main_cpu_s`` per answer, its threads included), to set
beside bench/ack_floor.py's ``cpu_ms_per_click``. ``requests_before_last_ack``: the requests other than
acknowledgements (receipts, posts, DMs) the bot made before the burst's last acknowledgement: 0 when every click is
acknowledged before any work goes out; an order, which a loaded machine does not blur as it does the latencies.
``ack_cpu_ms_per_click``: the main process's CPU time from the burst's start to its last acknowledgement, per click
(whatever ran before the last acknowledgement; beside the floor's ``cpu_ms_per_click``, in 10 ms ticks of the kernel).
``rss_mb``: the bot process's resident memory after the burst (``rss_children_mb``: its workers').
``--games-ended N`` first creates, starts and ends N 3-player games through Discord, and reports the
bot's memory before and after (``ended_rss_growth_mb``) and how many snapshots other than a game's first
and last remain in the database for ended games (``ended_intermediate_snapshots``, expected 0).

An acknowledgement is timed as Discord times it: from the event's frame being written to the bot's
socket to the callback's bytes arriving back (the fake's own queues are not the bot's);
``ack_p99_from_click_ms`` also counts the fake's time to build and send the event. Every player
clicks Submit on the form its decision DM carries, all at the same instant (``--flow dm``, the default);
with ``--flow decide`` every player first opens the form with /decide at the same instant, then submits
as soon as it arrives (the path of a player whose DMs are closed): the open figures are that burst.
With ``--runs N`` the whole benchmark is repeated on fresh processes and the top-level figures are
the medians of the runs, ``spread`` giving each figure's lowest and highest (losses are summed);
``--worst`` reports the worst of the runs instead (latency and memory highest, throughput lowest).

``--ai-tables N`` (issue 42): N more 6-player tables, each one member and five AI seats (``/game new ai_seats:5``),
are started just before the burst, so that the AI thinks for them (25 orders per 5 tables, 2 s of CPU each at the
default budget, in the bot's AI pool: ``AI_WORKERS``) while the measured tables answer. Compare its figures with a run
without it: the answers must not be slowed. ``ai_answers_in_burst`` counts the AI's answers committed between the
burst's first click and its last receipt (the AI was thinking then), ``ai_answers`` those by the end of the run; the
CPU figures count the AI's processes too (they are the bot's children, as the image pool's workers are).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import gc
import json
import os
import signal
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.store import Store
from testing.bot_process import BotProcess
from testing.fake_discord import FakeDiscord
from testing.forms import form_control

PLAYERS = 6


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def read_metrics(port: int) -> str:
    """The bot's ``/metrics`` page (Prometheus's text format), from its loopback port."""
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/metrics") as response:
        return await response.text()


def bot_rss_mb(bot: BotProcess) -> float:
    """Resident memory of the bot process (Linux /proc)."""
    assert bot.proc is not None
    for line in Path(f"/proc/{bot.proc.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far, every thread's (ended ones too), read off its CPU clock
    (clock_getcpuclockid(3)) to the nanosecond; /proc's count in ticks when that clock cannot be had. A tick is 10 ms:
    a ninth of what bench/ack_floor.py's 300 clicks cost, whose CPU per click read 0.267 or 0.300 ms by a tick more or
    less, and each of the 20-odd processes summed over a scale-out burst was off by up to one."""
    clock = ctypes.c_int()
    if LIBC is not None and LIBC.clock_getcpuclockid(pid, ctypes.byref(clock)) == 0:
        with contextlib.suppress(OSError):
            return time.clock_gettime(clock.value)
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


LIBC = _libc()


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (the image pool's workers)."""
    out: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*/children"):
            try:
                kids = [int(k) for k in task.read_text().split()]
            except OSError:
                continue
            out.extend(kids)
            todo.extend(kids)
    return out


def tree_cpu_seconds(pid: int) -> dict[int, float]:
    """CPU time so far of a process and of each of its live descendants, by pid."""
    out = {pid: cpu_seconds(pid)}
    for child in descendants(pid):
        with contextlib.suppress(OSError):  # ended meanwhile
            out[child] = cpu_seconds(child)
    return out


def all_cpu_seconds(pids: list[int]) -> dict[int, float]:
    """``tree_cpu_seconds`` of several processes at once."""
    out: dict[int, float] = {}
    for pid in pids:
        out.update(tree_cpu_seconds(pid))
    return out


def rss_of(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def children_rss_mb(bot: BotProcess) -> float:
    assert bot.proc is not None
    total = 0.0
    for child in descendants(bot.proc.pid):
        with contextlib.suppress(OSError):
            total += rss_of(child)
    return round(total, 1)


async def end_games(fake: Any, guild: Any, moderator: Any, count: int) -> None:
    """Create, start and end ``count`` 3-player games in one channel, one after another, through Discord."""
    channel = fake.add_text_channel(guild, "ended-games")
    players = [fake.add_member(guild, f"ended-p{i}") for i in range(3)]
    for _ in range(count):
        lobby = await (await fake.slash(moderator, channel, "game new", players=3)).wait_response(timeout=30)
        game_id = int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])
        for p in players:
            await (await fake.click(p, lobby, f"lobby:{game_id}:join")).wait_response(timeout=30)
        await (await fake.click(moderator, lobby, f"lobby:{game_id}:start")).wait_response(timeout=30)
        await (await fake.slash(moderator, channel, "mod end")).wait_reply(timeout=30)
        fake.world.messages.clear()  # the harness's own transcript is not the bot's memory


async def intermediate_snapshots_of_ended_games(store: Store) -> int:
    """Snapshots of ended games other than each game's first and last (the start, and the final state)."""
    row = await store.db.fetchone(
        "SELECT COUNT(*) FROM snapshots s JOIN games g ON g.id = s.game_id WHERE g.status = 'ended'"
        " AND s.version > (SELECT MIN(version) FROM snapshots WHERE game_id = s.game_id)"
        " AND s.version < g.version"
        " AND s.version NOT IN (SELECT version FROM answers a WHERE a.game_id = s.game_id AND a.prompt_id = 'repair')"
    )
    return int(row[0]) if row else 0


async def ai_answers(store: Store, game_ids: list[int]) -> int:
    """The AI's answers committed in these games (``source = 'ai'``, app/ai.py)."""
    count = 0
    for game_id in game_ids:
        count += sum(1 for a in await store.answers(game_id) if a.source == "ai")
    return count


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def postgres_cpu_seconds() -> float:
    """CPU time so far of every PostgreSQL server process on this machine (the database's share of the work)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/comm"):
        with contextlib.suppress(OSError, ValueError):
            if stat.read_text().strip() == "postgres":
                total += cpu_seconds(int(stat.parent.name))
    return total


async def run(
    games: int,
    profile: Path | None = None,
    games_ended: int = 0,
    spy: Path | None = None,
    flow: str = "dm",
    *,
    database: Path | str | None = None,
    workers: int = 0,
    metrics_out: Path | None = None,
    ai_tables: int = 0,
    ai_budget_ms: float | None = None,
) -> dict[str, Any]:
    """``database``: a PostgreSQL address (default: a new SQLite file); ``workers``: run ``bot.py`` as a gateway and
    this many workers instead of one process (PostgreSQL only). CPU is counted over every process of the bot, their
    image workers, and, on PostgreSQL, the database server's processes (``db_cpu_s``)."""
    folder = Path(tempfile.mkdtemp())
    db = database or folder / "bench.sqlite3"
    on_postgres = isinstance(db, str)
    async with FakeDiscord.start(point_discord_py=False) as fake:
        guild = fake.add_guild("Bench", locale="en-US")
        moderator = fake.add_member(guild, "mod", manage_guild=True)
        tables = []
        for g in range(games):
            channel = fake.add_text_channel(guild, f"game-{g}")
            players = [fake.add_member(guild, f"g{g}p{i}") for i in range(PLAYERS)]
            tables.append((channel, players))
        # The real bot.py in its own processes, as in production.
        role = "gateway" if workers else "all"
        # ``--metrics``: the bot serves /metrics on a free loopback port, read once the burst is over.
        health = {"HEALTH_PORT": str(free_port())} if metrics_out is not None else {}
        # ``profile``: every process profiles the burst only (SIGUSR1 ... SIGUSR2, testing/cpu_profile.py).
        window = {"PROFILE_WINDOW": "1"} if profile is not None else {}
        bot = BotProcess(fake, db, profile=profile, role=role, log_path=folder / "bot.log", env=health | window)
        helpers = [
            BotProcess(
                fake,
                db,
                role="worker",
                log_path=folder / f"worker{i}.log",
                profile=profile.with_name(f"{profile.name}.worker{i}") if profile else None,
                env=window,
            )
            for i in range(workers)
        ]
        await bot.sync_commands()
        store: Store | None = None
        ended: dict[str, Any] = {}
        try:
            # Started inside the ``try``: a worker that never gets ready must not leave the processes started before
            # it running (a gateway left over listened to the next run's notifications and took its CPU).
            await bot.start()
            for helper in helpers:
                await helper.start()
            store = await Store.open(db, shared=bool(workers))
            if games_ended:
                await fake.wait_idle(quiet=1.0, timeout=60)
                rss_start = bot_rss_mb(bot)
                started = time.perf_counter()
                await end_games(fake, guild, moderator, games_ended)
                await fake.wait_idle(quiet=2.0, timeout=120)
                ended = {
                    "games_ended": games_ended,
                    "ended_s": round(time.perf_counter() - started, 1),
                    "ended_rss_start_mb": rss_start,
                    "ended_rss_end_mb": bot_rss_mb(bot),
                    "ended_rss_growth_mb": round(bot_rss_mb(bot) - rss_start, 1),
                    "ended_intermediate_snapshots": await intermediate_snapshots_of_ended_games(store),
                }
            # Lobbies: create, join, start (not measured: set-up).
            game_ids = []
            for channel, players in tables:
                lobby = await (await fake.slash(moderator, channel, "game new", players=PLAYERS)).wait_response()
                game_id = int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])
                for p in players:
                    await (await fake.click(p, lobby, f"lobby:{game_id}:join")).wait_response()
                await (await fake.click(moderator, lobby, f"lobby:{game_id}:start")).wait_response()
                game_ids.append(game_id)
            # The AI's tables: one member and five AI seats each, started just before the burst (below).
            ai_lobbies = []
            for t in range(ai_tables):
                channel = fake.add_text_channel(guild, f"ai-{t}")
                member = fake.add_member(guild, f"ai{t}p")
                made = await fake.slash(moderator, channel, "game new", players=PLAYERS, ai_seats=PLAYERS - 1)
                lobby = await made.wait_response()
                ai_game = int(lobby.components[0]["components"][0]["custom_id"].split(":")[1])
                await (await fake.click(member, lobby, f"lobby:{ai_game}:join")).wait_response()
                if ai_budget_ms is not None:  # the game's setting, as a moderator's /mod settings would store it
                    row = await store.game(ai_game)
                    assert row is not None
                    await store.update_settings(ai_game, {**row.settings, "ai_budget_ms": ai_budget_ms})
                ai_lobbies.append((ai_game, lobby))
            # Every player opens the decision from their DM: this is the measured burst.
            houses = {}
            for game_id in game_ids:
                seats = await store.seats(game_id)
                for house, user in seats.items():
                    houses[user] = (game_id, house)
            all_players = [p for _, players in tables for p in players]
            dms = {p.id: await fake.wait_for_dm(p, timeout=30) for p in all_players}
            # Let the set-up's own traffic (status messages, pins) finish: the burst is measured on its own.
            await fake.wait_idle(quiet=3.0, timeout=60)
            acks_by_kind: dict[str, list[float]] = {"open": [], "submit": []}
            receipts: list[float] = []
            from_click: list[float] = []  # including the fake's own time to build and send the event

            def record(kind: str, interaction: Any) -> None:
                acks_by_kind[kind].append(interaction.acked_after * 1000)
                queued = (interaction.sent_at or interaction.created_at) - interaction.created_at
                from_click.append((interaction.acked_after + queued) * 1000)

            channel_of = {p.id: channel for channel, players in tables for p in players}
            acked_cpu: list[float] = []  # the main process's CPU time once every click was acknowledged

            async def answer(player: Any) -> bool:
                game_id, house = houses[player.id]
                form = dms[player.id]  # the decision DM carries the form
                if flow == "decide":  # a player without the DM opens the form with /decide in the game channel
                    opened = await fake.slash(player, channel_of[player.id], "decide")
                    await opened.wait_ack(timeout=10)
                    record("open", opened)
                    form = await opened.wait_response(timeout=10)
                submitted = await fake.click(player, form, form_control(form, game_id, house))
                await submitted.wait_ack(timeout=10)
                record("submit", submitted)
                if len(acks_by_kind["submit"]) == len(all_players):  # the burst's last acknowledgement
                    acked_cpu.append(cpu_seconds(bot.proc.pid) if bot.proc is not None else 0.0)
                seen: list[float] = []

                def recorded() -> bool:
                    message = submitted.response
                    if submitted.failed or bool(message and "Recorded" in message.text()):
                        seen.append(time.monotonic())  # when the fake stored it, not when this task wakes
                        return True
                    return False

                await fake.world.wait_until(recorded, 20, f"the receipt of {submitted!r}")
                if submitted.failed:
                    return False
                receipts.append((seen[0] - submitted.created_at) * 1000)
                return True

            ai_games = []
            for ai_game, lobby in ai_lobbies:  # the AI starts thinking for its seats' orders now
                await (await fake.click(moderator, lobby, f"lobby:{ai_game}:start")).wait_response()
                ai_games.append(ai_game)
            # Their start's posts go out first, before the CPU counters are read: the burst and its CPU are measured
            # beside the AI's thinking and answers, not beside the AI tables' start.
            if ai_games:
                await asyncio.sleep(2.0)
            assert bot.proc is not None
            pids = [p.proc.pid for p in (bot, *helpers) if p.proc is not None]
            cpu_before, own_before = all_cpu_seconds(pids), time.process_time()
            db_before = postgres_cpu_seconds() if on_postgres else 0.0
            requests_before = len(fake.requests.records)
            if profile is not None:
                for pid in pids:
                    os.kill(pid, signal.SIGUSR1)
            samplers = []
            if spy is not None:  # py-spy samples each process on its CPU over the burst only (pip install py-spy)
                spied = zip([spy, *(spy.with_name(f"{spy.name}.worker{i}") for i in range(workers))], pids, strict=True)
                for output, pid in spied:
                    # Only the thread holding the GIL (``--gil``): without it a third of the samples were the loop
                    # waiting in epoll and the SQLite thread waiting for work, which py-spy cannot tell from CPU.
                    command = ["py-spy", "record", "--pid", str(pid), "--rate", "250", "--gil", "--format", "raw"]
                    command += ["--output", str(output), "--nonblocking"]
                    quiet = asyncio.subprocess.DEVNULL
                    samplers.append(await asyncio.create_subprocess_exec(*command, stdout=quiet, stderr=quiet))
                await asyncio.sleep(1.0)
            # The harness's own garbage collection would pause the fake mid-burst (20-40 ms full passes were
            # seen) and be counted against the bot: as timeit does, collect first and pause it for the burst.
            ai_before = await ai_answers(store, ai_games)
            gc.collect()
            gc.disable()
            try:
                start = time.perf_counter()
                results = await asyncio.gather(*[answer(p) for p in all_players])
                elapsed = time.perf_counter() - start
            finally:
                gc.enable()
            ai_in_burst = await ai_answers(store, ai_games) - ai_before
            acks = acks_by_kind["open"] + acks_by_kind["submit"]
            # Let the burst's own after-work (channel posts, images) finish: it is the answers' CPU too.
            await fake.wait_idle(quiet=2.5, timeout=60)
            cpu_after = all_cpu_seconds(pids)
            if profile is not None:
                for pid in pids:
                    os.kill(pid, signal.SIGUSR2)
            db_cpu = (postgres_cpu_seconds() - db_before) if on_postgres else 0.0
            for sampler in samplers:
                sampler.send_signal(signal.SIGINT)
                await sampler.wait()
            bot_cpu = sum(cpu_after.values()) - sum(cpu_before.get(pid, 0.0) for pid in cpu_after)
            by_process = {
                name: round(
                    sum(tree_cpu_seconds(pid).values())
                    - sum(cpu_before.get(child, 0.0) for child in tree_cpu_seconds(pid)),
                    2,
                )
                for name, pid in zip(["bot", *(f"worker{i}" for i in range(workers))], pids, strict=True)
            }
            # Each process alone, without its image workers (what drawing costs is theirs).
            main_by_process = {
                name: round(cpu_after.get(pid, 0.0) - cpu_before.get(pid, 0.0), 2)
                for name, pid in zip(["bot", *(f"worker{i}" for i in range(workers))], pids, strict=True)
            }
            loop_cpu = cpu_after[bot.proc.pid] - cpu_before[bot.proc.pid]
            ack_cpu = (acked_cpu[0] - cpu_before[bot.proc.pid]) if acked_cpu else 0.0
            routes: dict[str, int] = {}
            burst_requests = fake.requests.records[requests_before:]
            for request in burst_requests:
                routes[request.key] = routes.get(request.key, 0) + 1
            # What the bot sent before the burst's last acknowledgement (receipts, posts, DMs): work that went before
            # an acknowledgement. An order, not a time: a loaded machine stretches both alike.
            callbacks = [i for i, r in enumerate(burst_requests) if r.route.endswith("/callback")]
            before_last_ack = sum(1 for r in burst_requests[: callbacks[-1]] if not r.route.endswith("/callback"))
            harness_cpu = time.process_time() - own_before
            acknowledged = sum(results)
            # What the database holds: every acknowledged answer exactly once.
            recorded: dict[tuple[int, str], int] = {}
            for game_id in game_ids:
                for a in await store.answers(game_id):
                    if a.source == "player" and ":orders:" in a.prompt_id:
                        recorded[(game_id, a.house)] = recorded.get((game_id, a.house), 0) + 1
            lost = sum(1 for user, key in houses.items() if key not in recorded)
            duplicated = sum(n - 1 for n in recorded.values() if n > 1)
            failed = len(fake.failed_interactions)
            ai_total = await ai_answers(store, ai_games)
            rss_mb = bot_rss_mb(bot)
            rss_children = children_rss_mb(bot)
            if metrics_out is not None:
                metrics_out.write_text(await read_metrics(int(health["HEALTH_PORT"])))
        finally:
            if store is not None:
                await store.close()
            for process in (bot, *helpers):
                await process.stop()
    return {
        "games": games,
        "players": games * PLAYERS,
        "answers": acknowledged,
        "ack_p50_ms": round(statistics.median(acks), 2),
        "ack_p99_ms": round(percentile(acks, 0.99), 2),
        "ack_max_ms": round(max(acks), 2),
        "flow": flow,
        "ack_p99_open_ms": round(percentile(acks_by_kind["open"], 0.99), 2) if acks_by_kind["open"] else None,
        "ack_p99_submit_ms": round(percentile(acks_by_kind["submit"], 0.99), 2),
        "ack_p99_from_click_ms": round(percentile(from_click, 0.99), 2),
        "receipt_p50_ms": round(statistics.median(receipts), 2) if receipts else None,
        "receipt_p99_ms": round(percentile(receipts, 0.99), 2),
        "answers_per_s": round(acknowledged / elapsed, 1),
        "burst_s": round(elapsed, 2),
        "bot_cpu_s": round(bot_cpu, 2),
        "bot_main_cpu_s": round(loop_cpu, 2),
        "main_cpu_ms_per_answer": round(loop_cpu * 1000 / max(1, acknowledged), 2),
        "ack_cpu_ms_per_click": round(ack_cpu * 1000 / len(all_players), 3),
        "cpu_ms_per_answer": round((bot_cpu + db_cpu) * 1000 / max(1, acknowledged), 2),
        "db_cpu_s": round(db_cpu, 2),
        "cpu_s_by_process": by_process,  # each process with its image workers
        "main_cpu_s_by_process": main_by_process,  # each process alone
        "processes": 1 + workers,
        "harness_cpu_s": round(harness_cpu, 2),
        "lost": lost,
        "duplicated": duplicated,
        "failed_interactions": failed,
        "rss_mb": rss_mb,
        "rss_children_mb": rss_children,
        "requests_per_answer": round(sum(routes.values()) / max(1, acknowledged), 2),
        "requests_before_last_ack": before_last_ack,
        "requests_by_route": dict(sorted(routes.items(), key=lambda kv: -kv[1])),
        "ai_tables": ai_tables,
        "ai_answers_in_burst": ai_in_burst,
        "ai_answers": ai_total,
        **ended,
    }


WORST = {"answers_per_s": min, "answers": min, "lost": sum, "duplicated": sum, "failed_interactions": sum}
SUMMED = {"lost", "duplicated", "failed_interactions"}


def worst_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One figure per key, the least favourable across runs (max unless WORST says otherwise)."""
    out: dict[str, Any] = {}
    for key, value in runs[0].items():
        values = [r[key] for r in runs]
        out[key] = WORST.get(key, max)(values) if isinstance(value, (int, float)) else value
    if len(runs) > 1:
        out["runs"] = runs
    return out


def median_of(runs: list[dict[str, Any]], *, digits: int = 2) -> dict[str, Any]:
    """One figure per key, the median across runs (losses summed), with each figure's spread (min, max)."""
    out: dict[str, Any] = {}
    spread: dict[str, list[float]] = {}
    for key, value in runs[0].items():
        values = [r[key] for r in runs if isinstance(r.get(key), (int, float))]
        if not isinstance(value, (int, float)) or len(values) != len(runs):
            out[key] = value
        elif key in SUMMED:
            out[key] = sum(values)
        else:
            out[key] = round(statistics.median(values), digits)
            if len(runs) > 1:
                spread[key] = [min(values), max(values)]
    if len(runs) > 1:
        out["spread"] = spread
        out["runs"] = runs
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", "--games", dest="tables", type=int, default=50, help="6-player tables")
    parser.add_argument("--runs", type=int, default=1, help="repeat on fresh processes")
    parser.add_argument("--worst", action="store_true", help="report the worst of the runs instead of the median")
    parser.add_argument("--games-ended", type=int, default=0, help="create and end this many games first")
    parser.add_argument(
        "--flow", choices=("dm", "decide"), default="dm", help="answer from the DM, or open with /decide"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the bot process to this file")
    parser.add_argument("--spy", type=Path, help="write py-spy's raw samples of the bot over the burst to this file")
    parser.add_argument("--metrics", type=Path, help="serve /metrics (HEALTH_PORT) and write it after the burst here")
    parser.add_argument(
        "--ai-tables", type=int, default=0, help="tables of one member and five AI seats, thinking during the burst"
    )
    parser.add_argument(
        "--ai-budget-ms", type=float, default=None, help="the AI tables' budget per decision (the game's default: 2 s)"
    )
    args = parser.parse_args(argv)
    limit = 600 + 2 * args.games_ended
    runs = [
        asyncio.run(
            asyncio.wait_for(
                run(
                    args.tables,
                    args.profile,
                    args.games_ended,
                    args.spy,
                    args.flow,
                    metrics_out=args.metrics,
                    ai_tables=args.ai_tables,
                    ai_budget_ms=args.ai_budget_ms,
                ),
                timeout=limit,
            )
        )
        for _ in range(args.runs)
    ]
    figures = worst_of(runs) if args.worst else median_of(runs)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            if key not in ("runs", "spread"):
                print(f"{key:>20}: {value}")
        for number, run_figures in enumerate(figures.get("runs", []), start=1):
            print(
                f"run {number}: ack p50 {run_figures['ack_p50_ms']} ms, p99 {run_figures['ack_p99_ms']} ms,"
                f" receipt p99 {run_figures['receipt_p99_ms']} ms, {run_figures['cpu_ms_per_answer']} ms CPU/answer"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
