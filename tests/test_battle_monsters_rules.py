"""The Battle Monsters rule index matches the shared one, is in our words, and coverage has no gap."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from spec import load_game

SHARED = Path(__file__).resolve().parents[2] / "shared" / "rules"
BOOK = load_game("battle_monsters").book


@pytest.mark.skipif(not (SHARED / "battle_monsters.tsv").exists(), reason="../shared is not beside the checkout")
def test_ids_and_kinds_match_the_shared_index() -> None:
    with (SHARED / "battle_monsters.tsv").open(encoding="utf-8") as handle:
        shared = [(r["id"], r["kind"]) for r in csv.DictReader(handle, delimiter="\t")]
    ours = [(e.id, e.kind) for e in BOOK.index]
    assert ours == shared


@pytest.mark.skipif(not (SHARED / "battle_monsters.tsv").exists(), reason="../shared is not beside the checkout")
def test_summaries_are_our_own_words() -> None:
    with (SHARED / "battle_monsters.tsv").open(encoding="utf-8") as handle:
        theirs = {r["id"]: r["summary"] for r in csv.DictReader(handle, delimiter="\t")}
    for entry in BOOK.index:
        assert entry.summary and entry.summary != theirs[entry.id], entry.id


def test_not_checkable_rules_say_why() -> None:
    for entry in BOOK.index:
        if BOOK.status(entry.id) == "not checkable":
            assert len(entry.not_checkable) > 40, entry.id
        if entry.not_checkable:
            assert entry.kind == "normative", f"{entry.id}: only normative rules need a reason"


def test_coverage_has_no_missing_rule() -> None:
    counts = BOOK.coverage()
    assert counts["missing"] == 0
    normative = sum(1 for e in BOOK.index if e.kind == "normative")
    assert counts["encoded"] + counts["not checkable"] == normative


def test_every_check_cites_a_rule_and_says_what_it_requires() -> None:
    for action in BOOK.actions.values():
        for check in action.checks:
            rule_id = check.rule.split(":", 1)[1]
            assert rule_id in BOOK.index, check.rule
            assert BOOK.index.entries[rule_id].kind != "informative", check.rule
            assert len(check.requires) > 20, check.name


def test_the_cli_reports_no_missing_rule() -> None:
    from typer.testing import CliRunner

    from verifier.cli import app

    result = CliRunner().invoke(app, ["rules", "battle_monsters", "--coverage"])
    assert result.exit_code == 0
    assert result.output.strip().splitlines()[-1].split() == ["missing", "0"]


def test_the_turn_graph_names_rules_of_the_index() -> None:
    from spec.battle_monsters.turn import TURN

    graph = TURN.graph()
    assert set(graph.nodes) == {name for name, _rule in TURN.nodes}
    for _name, rule in TURN.nodes:
        assert rule.split(":", 1)[1] in BOOK.index
    assert "game over" in graph.nodes and graph.has_edge("action", "turn start")


def test_the_books_contradictions_are_registered() -> None:
    pairs = {ids for ids, _why in BOOK.contradictions}
    assert ("BM.start.direct_attack", "BM.monster.direct") in pairs
