"""The TTCG rule index matches the shared one, and its coverage has no gap."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from spec import load_game

SHARED = Path(__file__).resolve().parents[2] / "shared" / "rules" / "ttcg.tsv"
BOOK = load_game("ttcg").book


@pytest.mark.skipif(not SHARED.exists(), reason="../shared is not beside the checkout")
def test_ids_and_kinds_match_the_shared_index() -> None:
    with SHARED.open(encoding="utf-8") as handle:
        shared = [(r["id"], r["kind"], r["summary"]) for r in csv.DictReader(handle, delimiter="\t")]
    ours = [(e.id, e.kind, e.summary) for e in BOOK.index]
    assert [(i, k) for i, k, _s in ours] == [(i, k) for i, k, _s in shared]
    for (rule, _kind, mine), (_rule, _k, theirs) in zip(ours, shared, strict=True):
        assert mine and mine.strip().lower() != theirs.strip().lower(), f"{rule}: the summary must be in our own words"


def test_coverage_has_no_missing_rule() -> None:
    counts = BOOK.coverage()
    assert counts["missing"] == 0
    normative = sum(1 for e in BOOK.index if e.kind == "normative")
    assert counts["encoded"] + counts["not checkable"] == normative
    missing = [e.id for e in BOOK.index if BOOK.status(e.id) == "missing"]
    assert missing == []


def test_not_checkable_rules_say_why() -> None:
    for entry in BOOK.index:
        if BOOK.status(entry.id) == "not checkable":
            assert len(entry.not_checkable) > 10, entry.id


def test_every_check_cites_a_rule_of_the_index_and_says_what_it_requires() -> None:
    names = set()
    for action in BOOK.actions.values():
        for check in action.checks:
            assert check.rule.startswith("ttcg:") and check.rule.split(":", 1)[1] in BOOK.index
            assert check.requires
            names.add(check.name)
    total = sum(len(a.checks) for a in BOOK.actions.values())
    assert len(names) == total - 2, "check names are unique, save the one the three events only an effect asks for share"


def test_the_game_is_registered_with_its_turn_graph() -> None:
    game = load_game("ttcg")
    graph = game.turn.graph()  # type: ignore[attr-defined]
    assert list(graph.nodes) == ["draw", "main", "battle", "end"]
    assert all(graph.nodes[n]["rule"].startswith("ttcg:") for n in graph.nodes)
