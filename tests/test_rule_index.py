"""Every game's rule index matches the shared one, is in our words, and its coverage has no gap.

Parametrized by game; what only one game's index has (its turn graph, its registered
contradictions, its decisions page) is tested in ``tests/test_<game>_rules.py``.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from spec import GAMES, load_game

SHARED = Path(__file__).resolve().parents[2] / "shared" / "rules"
ALL = sorted(GAMES)


def _shared(game: str) -> list[dict[str, str]]:
    path = SHARED / f"{game}.tsv"
    if not path.exists():
        pytest.skip("../shared is not beside the checkout")
    with path.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


@pytest.mark.parametrize("game", ALL)
def test_ids_and_kinds_match_the_shared_index(game: str) -> None:
    shared = [(r["id"], r["kind"]) for r in _shared(game)]
    assert [(e.id, e.kind) for e in load_game(game).book.index] == shared


@pytest.mark.parametrize("game", ALL)
def test_summaries_are_our_own_words(game: str) -> None:
    theirs = {r["id"]: r["summary"].strip().lower() for r in _shared(game)}
    for entry in load_game(game).book.index:
        assert entry.summary and entry.summary.strip().lower() != theirs[entry.id], entry.id


@pytest.mark.parametrize("game", ALL)
def test_not_checkable_rules_say_why(game: str) -> None:
    book = load_game(game).book
    for entry in book.index:
        if book.status(entry.id) == "not checkable":
            assert len(entry.not_checkable) > 10, entry.id


@pytest.mark.parametrize("game", ALL)
def test_coverage_has_no_missing_rule(game: str) -> None:
    book = load_game(game).book
    assert [e.id for e in book.index if e.kind == "normative" and book.status(e.id) == "missing"] == []
    counts = book.coverage()
    assert counts["missing"] == 0
    assert counts["encoded"] + counts["not checkable"] == sum(1 for e in book.index if e.kind == "normative")


@pytest.mark.parametrize("game", ALL)
def test_every_check_cites_a_rule_of_its_game_and_says_what_it_requires(game: str) -> None:
    book = load_game(game).book
    for action in book.actions.values():
        for check in action.checks:
            prefix, _, rule = check.rule.partition(":")
            assert prefix == game and rule in book.index, check.rule
            assert book.index.entries[rule].kind != "informative", check.rule
            assert len(check.requires.split()) >= 4, (action.name, check.name)


@pytest.mark.parametrize("game", ALL)
def test_the_cli_reports_no_missing_rule(game: str) -> None:
    from typer.testing import CliRunner

    from verifier.cli import app

    result = CliRunner().invoke(app, ["rules", game, "--coverage"])
    assert result.exit_code == 0
    assert result.output.strip().splitlines()[-1].split() == ["missing", "0"]


@pytest.mark.parametrize("game", ALL)
def test_each_function_carries_one_encoding_of_its_own(game: str) -> None:
    """A rule encoding (``@BOOK.encodes``) credits the function it decorates. A function
    inserted between another's decorator and its ``def`` takes that decorator too, and the
    rules are then credited to the wrong code while the coverage count stays the same: so no
    function of a game's spec carries two."""
    import ast

    root = Path(__file__).resolve().parents[1] / "spec" / game
    for path in sorted(root.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                encodings = [d for d in node.decorator_list
                             if isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr == "encodes"]
                assert len(encodings) <= 1, f"{path.name}:{node.lineno} {node.name} carries {len(encodings)} rule encodings"
