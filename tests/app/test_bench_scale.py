"""bench/scale.py's ratios: taken within each turn, the one process and the scale-out set-up measured side by side,
which of them first turning at each turn (no process is run: the bench's own functions on figures given)."""

from __future__ import annotations

from tests.app.test_bench_socket import load_bench


def test_the_compared_set_ups_run_side_by_side_and_take_turns_to_run_first() -> None:
    bench = load_bench()
    names = ["sqlite_1", "postgres_1", "postgres_gateway_2_workers"]
    assert bench.turn_order(names, 0) == ["sqlite_1", "postgres_gateway_2_workers", "postgres_1"]
    assert bench.turn_order(names, 1) == ["postgres_gateway_2_workers", "sqlite_1", "postgres_1"]
    assert bench.turn_order(names, 2) == bench.turn_order(names, 0)
    assert bench.turn_order(["postgres_1"], 1) == ["postgres_1"]


def test_a_turns_ratios_are_its_own_figures_over_the_one_process_measured_in_it() -> None:
    bench = load_bench()
    one = {"cpu_ms_per_answer": 4.0}
    scaled = {"cpu_ms_per_answer": 6.0, "bot_cpu_ms_per_answer": 1.0}
    assert bench.turn_ratios(one, scaled, {}) == {"cpu_ms_per_answer": 1.5, "gateway_cpu_ms_per_answer": 0.25}
    over_socket = bench.turn_ratios(one, scaled, {"cpu_ms_per_answer": 5.0})
    assert over_socket["socket_cpu_ms_per_answer"] == 1.25
