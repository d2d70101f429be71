"""The rules-coverage report reads both checklists with one naming rule (issue M1).

The IDs below are built from parts, so that this file does not itself name them for the real report.
"""

from __future__ import annotations

from pathlib import Path

from engine.coverage import CHECKLISTS, build_report

GIFT_1, GIFT_2, ALT_1, LEAVE_1 = (
    f"M-{topic}-0{n}" for topic, n in (("GIFT", 1), ("GIFT", 2), ("ALT", 1), ("LEAVE", 1))
)


def test_test_names_and_docstrings_name_ids_of_either_checklist(tmp_path: Path) -> None:
    checklist = tmp_path / "checklist.md"
    items = [f"{i}. **{rule}** A rule." for i, rule in enumerate((GIFT_1, GIFT_2, ALT_1, LEAVE_1), 1)]
    checklist.write_text("\n".join(items) + "\n", encoding="utf-8")
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_x.py").write_text(
        f"def test_{GIFT_1.replace('-', '_')}_gifts() -> None:\n    pass\n\n\n"
        f'def test_second() -> None:\n    """{GIFT_2} in a docstring."""\n',
        encoding="utf-8",
    )
    report = build_report(checklist, tests, CHECKLISTS["mother-of-dragons"])
    status = {r["id"]: r["status"] for r in report["rows"]}  # type: ignore[union-attr]
    assert status == {GIFT_1: "covered", GIFT_2: "covered", ALT_1: "not-applicable", LEAVE_1: "missing"}
    base = build_report(checklist, tests, CHECKLISTS["base"])
    assert base["total"] == 0  # the base game's report ignores the expansion's items


def test_ids_whose_topic_holds_a_digit_are_read_from_the_checklist_and_the_tests(tmp_path: Path) -> None:
    """Issue T: the expansion's Westeros deck IV items (topic ``DECK`` and a 4) were missing from the report, whose
    pattern took letters only; 134 IDs are now counted, not 130."""
    deck_1, deck_2 = (f"M-DECK{4}-0{n}" for n in (1, 2))
    checklist = tmp_path / "checklist.md"
    checklist.write_text(f"1. **{deck_1}** A card.\n2. **{deck_2}** Another.\n", encoding="utf-8")
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_y.py").write_text(f"def test_{deck_1.replace('-', '_')}_a_card() -> None:\n    pass\n")
    report = build_report(checklist, tests, CHECKLISTS["mother-of-dragons"])
    assert {r["id"]: r["status"] for r in report["rows"]} == {deck_1: "covered", deck_2: "missing"}  # type: ignore[union-attr]
