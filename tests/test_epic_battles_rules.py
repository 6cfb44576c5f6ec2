"""What only the Epic Battles rule index has (the tests common to every game are in tests/test_rule_index.py)."""

from __future__ import annotations

from pathlib import Path

from spec import load_game

BOOK = load_game("epic_battles").book


def test_every_entry_has_an_own_words_summary() -> None:
    assert all(len(e.summary.split()) >= 4 for e in BOOK.index)


def test_not_checkable_rules_say_why() -> None:
    for entry in BOOK.index:
        if BOOK.status(entry.id) == "not checkable":
            assert len(entry.not_checkable) > 10
        if entry.kind == "physical":
            assert entry.not_checkable, f"{entry.id}: say why a log cannot show it"


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
