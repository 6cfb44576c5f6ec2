"""Epic Battles: the project's rule index matches the shared one, and coverage has no gap."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from spec import load_game

SHARED = Path(__file__).resolve().parents[2] / "shared" / "rules" / "epic_battles.tsv"
BOOK = load_game("epic_battles").book


@pytest.mark.skipif(not SHARED.exists(), reason="../shared is not beside the checkout")
def test_ids_and_kinds_match_the_shared_index() -> None:
    with SHARED.open(encoding="utf-8") as handle:
        shared = [(r["id"], r["kind"], r["summary"]) for r in csv.DictReader(handle, delimiter="\t")]
    ours = [(e.id, e.kind, e.summary) for e in BOOK.index]
    assert [(i, k) for i, k, _s in ours] == [(i, k) for i, k, _s in shared]
    for (rule, _kind, mine), (_rule, _k, theirs) in zip(ours, shared, strict=True):
        assert mine.strip().lower() != theirs.strip().lower(), f"{rule}: the summary is the shared index's, not our own words"


def test_every_entry_has_an_own_words_summary() -> None:
    assert all(len(e.summary.split()) >= 4 for e in BOOK.index)


def test_not_checkable_rules_say_why() -> None:
    for entry in BOOK.index:
        if BOOK.status(entry.id) == "not checkable":
            assert len(entry.not_checkable) > 10
        if entry.kind == "physical":
            assert entry.not_checkable, f"{entry.id}: say why a log cannot show it"


def test_coverage_has_no_gap() -> None:
    counts = BOOK.coverage()
    assert counts["missing"] == 0
    normative = sum(1 for e in BOOK.index if e.kind == "normative")
    assert counts["encoded"] + counts["not checkable"] == normative


def test_every_check_cites_a_normative_rule_and_says_what_it_requires() -> None:
    for action in BOOK.actions.values():
        for check in action.checks:
            rule = check.rule.split(":", 1)[1]
            assert BOOK.index.entries[rule].kind == "normative", (action.name, check.name, rule)
            assert len(check.requires.split()) >= 5, (action.name, check.name)


def test_check_names_are_unique() -> None:
    """The corpus meta-test proves every check by its name: two checks may not share one."""
    names = [c.name for a in BOOK.actions.values() for c in a.checks]
    assert len(names) == len(set(names))


def test_the_cli_reports_no_missing_rule() -> None:
    from typer.testing import CliRunner

    from verifier.cli import app

    result = CliRunner().invoke(app, ["rules", "epic_battles", "--coverage"])
    assert result.exit_code == 0
    assert "missing        0" in result.output


def test_decisions_cite_rules_of_the_index_and_are_each_pinned_by_a_test() -> None:
    import re

    root = Path(__file__).resolve().parents[1]
    text = (root / "docs" / "epic_battles-decisions.rst").read_text(encoding="utf-8")
    tests = (root / "tests" / "test_epic_battles_checks.py").read_text(encoding="utf-8")
    numbers = [int(n) for n in re.findall(r"^(\d+)\. ", text, re.MULTILINE)]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 20
    cited = [rule for line in re.findall(r"^\*\*Rules:\*\*(.*)$", text, re.MULTILINE) for rule in re.findall(r"EB\.[\w.]+\w", line)]
    assert len(re.findall(r"^\*\*Rules:\*\*", text, re.MULTILINE)) == len(numbers)
    for rule in cited:
        assert rule in BOOK.index, f"the decisions page cites {rule}, which is not in the rule index"
    pinned = re.findall(r"``(test_d\d+\w*)``", text)
    for name in pinned:
        assert f"def {name}(" in tests, f"{name} is named on the decisions page but does not exist"
    for n in numbers:
        assert any(re.fullmatch(rf"test_d{n}b?_\w+", name) for name in pinned), f"decision {n} is pinned by no test"
