"""Rules-coverage report: which tests name each checklist ID, for the base game (B- IDs) and Mother of Dragons (M-).

    python -m engine.coverage [--ruleset base|mother-of-dragons] [--checklist PATH] [--write FILE] [--json]

The checklists live outside the project (``../shared/rules/``); when one is absent, as on a fresh clone, the report
says so and exits 0. A test names an ID in its name (``test_M_SETUP_01_...``) or its docstring (``M-SETUP-01``).
The project adds IDs of its own where a checklist leaves rules to card data (``PROJECT_IDS_MOD``: the texts of
Targaryen's house cards); the report lists them after the checklist's.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT.parent / "shared" / "rules"
DEFAULT_CHECKLIST = RULES / "base-game-checklist.md"

# IDs that describe the physical game or table talk rather than rules software can enforce.
NOT_APPLICABLE: dict[str, str] = {
    "B-DIPLO-01": "Negotiation happens between players outside the engine; nothing to enforce.",
    "B-DIPLO-03": "There is no action in the engine that transfers items between houses, so it cannot happen.",
    "B-BOARD-04": "Decorative islands are not areas; the board data simply has no such areas.",
}


# IDs of the expansion that describe the physical game, or rules whose texts are not in the references.
NOT_APPLICABLE_MOD: dict[str, str] = {
    "M-SCOPE-03": "The expansion symbol on printed cards tells physical cards apart; the engine's cards are data.",
    "M-COMP-01": "A list of the box's physical components; the engine holds the ones it plays with as data.",
    "M-ALT-01": "The texts of the A Feast for Crows and A Dance with Dragons card sets are not in the references.",
    "M-ALT-02": "The variant sets' house names are cut off in the rulebook and not in the references.",
    "M-VASSAL-20": "The circled crown is printed on the physical tokens as a reminder; the engine resolves by type.",
}

# The project's own IDs for Mother of Dragons: the checklist counts Targaryen's house cards as data (M-COMP-03) and
# leaves their texts to the cards, so each text ability gets an ID here, named by its tests as any checklist ID.
PROJECT_IDS_MOD: dict[str, str] = {
    "M-TCARD-01": "Khal Drogo: +1 strength and 1 sword per own Knight fighting in the embattled area (not "
    "supporting); after the combat the card leaves the game.",
    "M-TCARD-02": "Xaro Xhoan Daxos: with more Ships in the embattled area than the opponent, each own Ship there "
    "counts 2 instead of 1.",
    "M-TCARD-03": "Daenerys Targaryen (set A): +2 strength if a Dragon is in the embattled area.",
    "M-TCARD-04": "Viserys Targaryen: the owner may discard another card of his hand to add its printed strength; if "
    "he loses, the card leaves the game.",
    "M-TCARD-05": "Illyrio Mopatis: after the combat the owner gains Power equal to the difference of the final "
    "strengths; then, with 5 or more available Power, the card leaves the game.",
    "M-TCARD-06": "Daenerys Targaryen (set B): after the combat the opponent discards available Power equal to the "
    "difference of the final strengths.",
    "M-TCARD-07": "Captain Groleo: attacking a land with units carried by sea transport, +1 strength per Targaryen "
    "Ship in the areas next to the embattled area.",
    "M-TCARD-08": "Rakharo: in a land without castle or stronghold, each own Knight in the embattled area counts 4 "
    "instead of 2.",
    "M-TCARD-09": "Missandei: losing by 2 or less, the owner may take another card of his discard pile back into "
    "his hand.",
    "M-TCARD-10": "A house card removed from the game never comes back: not to the hand, the discard pile, nor with "
    "the refill of an empty hand.",
    "M-D4CARD-01": "Fire Made Flesh (deck IV): Targaryen chooses one: destroy one of its dragons and move a dragon "
    "strength token still on the round track onto the dragon track at once; put a destroyed dragon back into Pentos "
    "if it controls it and can; or nothing.",
    "M-D4CARD-02": "Playing With Fire (deck IV): Targaryen may discard 1 Power to pick a land nobody controls and "
    "another player; a loyalty token goes there and that player puts one of his units (his choice of type) there.",
    "M-D4CARD-03": "The Long Plan (deck IV): Targaryen may discard 1 Power to pick another player, who puts one "
    "loyalty token in each of 2 different lands of his choice.",
    "M-D4CARD-20": "Scattering Dissent: after its banner tokens (Karhold, Oldtown), each player in reverse turn order "
    "moves one loyalty token into an adjacent land, if he can; right after each move Targaryen may discard 1 Power "
    "to undo it.",
    "M-D4CARD-21": "Word Spreads Quickly: after its banner tokens (Crackclaw Point, Three Towers), each player in turn "
    "order moves one loyalty token into an adjacent land, if he can; right after each move Targaryen may discard 2 "
    "Power to undo it.",
}


@dataclass(frozen=True)
class Checklist:
    ruleset: str
    prefix: str
    path: Path
    not_applicable: dict[str, str]
    title: str
    output: str
    project_ids: dict[str, str] = field(default_factory=dict)  # IDs the project adds to the checklist's

    def id_pattern(self) -> re.Pattern[str]:
        # also in test names (test_X_Y_01_...); a topic may hold a digit (M-DECK4-01)
        return re.compile(rf"(?<![A-Za-z0-9]){self.prefix}[-_]([A-Z][A-Z0-9]*)[-_](\d{{2}})(?!\d)")

    def item_pattern(self) -> re.Pattern[str]:
        return re.compile(rf"\*\*({self.prefix}-[A-Z][A-Z0-9]*-\d{{2}})\*\*\s*(.*)")


CHECKLISTS = {
    "base": Checklist("base", "B", DEFAULT_CHECKLIST, NOT_APPLICABLE, "base game", "docs/rules-coverage.md"),
    "mother-of-dragons": Checklist(
        "mother-of-dragons",
        "M",
        RULES / "mother-of-dragons-checklist.md",
        NOT_APPLICABLE_MOD,
        "Mother of Dragons",
        "docs/rules-coverage-mother-of-dragons.md",
        PROJECT_IDS_MOD,
    ),
}
ID_PATTERN = CHECKLISTS["base"].id_pattern()
CHECKLIST_ITEM = CHECKLISTS["base"].item_pattern()


def checklist_ids(path: Path, item_pattern: re.Pattern[str] = CHECKLIST_ITEM) -> dict[str, str]:
    items: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = item_pattern.search(line)
        if m and m.group(1) not in items:
            items[m.group(1)] = m.group(2).split("`")[0].strip()
    return items


def tests_naming_ids(
    tests_dir: Path, id_pattern: re.Pattern[str] = ID_PATTERN, prefix: str = "B"
) -> dict[str, list[str]]:
    """ID -> ["tests/x.py::test_name", ...] from test names and docstrings."""
    found: dict[str, list[str]] = {}
    for path in sorted(tests_dir.rglob("test_*.py")):
        current = None
        for line in path.read_text(encoding="utf-8").splitlines():
            header = re.match(r"\s*(?:async\s+)?def (test_\w+)", line)
            if header:
                current = header.group(1)
            if current is None:
                continue
            for m in id_pattern.finditer(line):
                rule_id = f"{prefix}-{m.group(1)}-{m.group(2)}"
                ref = f"{path.relative_to(tests_dir.parent)}::{current}"
                if ref not in found.setdefault(rule_id, []):
                    found[rule_id].append(ref)
    return found


def build_report(
    checklist: Path,
    tests_dir: Path,
    kind: Checklist = CHECKLISTS["base"],
    *,
    project_ids: dict[str, str] | None = None,
) -> dict[str, object]:
    """The report on ``checklist``'s IDs, then on ``project_ids`` the checklist does not hold (the real report passes
    the ruleset's ``Checklist.project_ids``)."""
    items = checklist_ids(checklist, kind.item_pattern())
    for rule_id, text in (project_ids or {}).items():
        items.setdefault(rule_id, text)
    named = tests_naming_ids(tests_dir, kind.id_pattern(), kind.prefix)
    skip = kind.not_applicable
    rows = []
    for rule_id, text in items.items():
        tests = named.get(rule_id, [])
        status = "covered" if tests else ("not-applicable" if rule_id in skip else "missing")
        rows.append({"id": rule_id, "rule": text, "status": status, "tests": tests, "reason": skip.get(rule_id)})
    counts = {s: sum(1 for r in rows if r["status"] == s) for s in ("covered", "not-applicable", "missing")}
    return {"total": len(rows), **counts, "rows": rows}


def _lists_project_ids(rows: list[dict[str, object]], kind: Checklist) -> bool:
    return any(r["id"] in kind.project_ids for r in rows)


def markdown(report: dict[str, object], kind: Checklist = CHECKLISTS["base"]) -> str:
    rows = report["rows"]
    assert isinstance(rows, list)
    flag = "" if kind.ruleset == "base" else f" --ruleset {kind.ruleset}"
    lines = [
        f"# Rules coverage ({kind.title})",
        "",
        f"Generated by `python -m engine.coverage{flag} --write {kind.output}` from the checklist "
        f"`shared/rules/{kind.path.name}`"
        + (" and the project's own IDs in `engine/coverage.py`" if _lists_project_ids(rows, kind) else "")
        + ". Do not edit by hand.",
        "",
        f"**{report['covered']} covered, {report['not-applicable']} not applicable, {report['missing']} missing "
        f"of {report['total']} IDs.**",
        "",
        "| ID | status | tests or reason |",
        "| --- | --- | --- |",
    ]
    for r in rows:
        detail = ", ".join(f"`{t.split('::')[1]}`" for t in r["tests"][:3]) or (r["reason"] or "")
        if len(r["tests"]) > 3:
            detail += f" (+{len(r['tests']) - 3})"
        lines.append(f"| {r['id']} | {r['status']} | {detail} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ruleset", default="base", choices=sorted(CHECKLISTS))
    parser.add_argument("--checklist", type=Path, help="the checklist file (default: the ruleset's, beside the repo)")
    parser.add_argument("--tests", type=Path, default=ROOT / "tests")
    parser.add_argument("--write", type=Path, help="write the Markdown report to this file")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--missing", action="store_true", help="list the IDs no test names")
    args = parser.parse_args(argv)
    kind = CHECKLISTS[args.ruleset]
    checklist: Path = args.checklist or kind.path
    if not checklist.is_file():
        print(f"checklist not found at {checklist}; skipping the coverage report")
        return 0
    report = build_report(checklist, args.tests, kind, project_ids=kind.project_ids)
    if args.write:
        args.write.write_text(markdown(report, kind), encoding="utf-8")
    if args.json:
        print(json.dumps({k: v for k, v in report.items() if k != "rows"}))
    else:
        print(f"{report['covered']} covered, {report['not-applicable']} not applicable, {report['missing']} missing")
    if args.missing:
        rows = report["rows"]
        assert isinstance(rows, list)
        print(" ".join(r["id"] for r in rows if r["status"] == "missing"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
