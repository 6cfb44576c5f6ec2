"""Designers' card tools: ``arbiter card`` (one text, or ``--batch``) and ``arbiter lint``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grammar import ast as A
from grammar.lint import ambiguous_referents, foreign_terms, lint_card, name_exists
from verifier.cli import app

ROOT = Path(__file__).resolve().parents[1]
SHARED_CARDS = ROOT.parent / "shared" / "cards"
SHIPPED = sorted((ROOT / "spec").glob("*/cards/*.toml"))


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()


# ------------------------------------------------------------------ arbiter card


def test_card_prints_a_readable_outline(runner: CliRunner) -> None:
    result = runner.invoke(app, ["card", "Roll a d6; if the result is 4 or more, draw two cards.", "--type", "Potion"])
    assert result.exit_code == 0
    assert "spell" in result.output and "cost:" in result.output
    assert "draw player='you' amount=2" in result.output


def test_card_json_is_the_tree(runner: CliRunner) -> None:
    result = runner.invoke(app, ["card", "Draw two cards.", "--json"])
    assert result.exit_code == 0
    assert A.from_json(result.output.strip()) == A.CardText((A.Spell((A.Draw("you", 2),)),))


def test_card_points_at_the_problem(runner: CliRunner) -> None:
    result = runner.invoke(app, ["card", "Draw two bananas."])
    assert result.exit_code == 1
    assert "line 1, column 10" in result.output and "^" in result.output and "expected" in result.output


def test_card_batch_writes_one_result_per_record(runner: CliRunner, tmp_path: Path) -> None:
    pool = tmp_path / "pool.jsonl"
    pool.write_text("\n".join([
        json.dumps({"name": "Good", "type": "Food", "text": "Draw a card."}),
        json.dumps({"name": "Bad", "type": "Food", "text": "Draw a banana."}),
        "{not json",
        json.dumps(["not", "an", "object"]),
    ]) + "\n", encoding="utf-8")
    out = tmp_path / "results.jsonl"
    result = runner.invoke(app, ["card", "--game", "neopets", "--batch", str(pool), "-o", str(out)])
    assert result.exit_code == 1  # some texts do not parse
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["line"] for r in rows] == [1, 2, 3, 4]
    assert rows[0] == {"name": "Good", "parsed": True, "unknown": 0, "error": None, "line": 1}
    assert rows[1]["name"] == "Bad" and not rows[1]["parsed"] and rows[1]["unknown"] == 1
    assert "column" in rows[1]["error"] and "^" in rows[1]["error"]
    assert "not JSON" in rows[2]["error"] and ":3" in rows[2]["error"]
    assert "text" in rows[3]["error"]


@pytest.mark.skipif(not SHARED_CARDS.is_dir(), reason="../shared/cards is not beside the checkout")
@pytest.mark.parametrize("game", ["bakugan", "ttcg", "battle_monsters"])
def test_card_batch_reads_the_real_pools(runner: CliRunner, tmp_path: Path, game: str) -> None:
    source = SHARED_CARDS / f"{game}.dev.jsonl"
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["card", "--game", game, "--batch", str(source), "-o", str(out)])
    assert result.exit_code in (0, 1)
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    records = [line for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(rows) == len(records)
    assert all(set(r) == {"name", "parsed", "unknown", "error", "line"} for r in rows)
    assert all(r["parsed"] == (r["error"] is None) for r in rows)


# ------------------------------------------------------------------ arbiter lint


@pytest.mark.parametrize("path", SHIPPED, ids=[str(p.relative_to(ROOT)) for p in SHIPPED])
def test_every_shipped_card_file_is_lint_clean(runner: CliRunner, path: Path) -> None:
    result = runner.invoke(app, ["lint", str(path)])
    assert result.exit_code == 0, result.output


def test_lint_notes_a_card_the_rules_specification_does_not_run(runner: CliRunner, tmp_path: Path) -> None:
    """A card whose text parses but which the spec cannot run (an effect type the TTCG
    rulebook does not define) gets a ``meaning`` note; notes do not fail the lint."""
    path = tmp_path / "new.toml"
    path.write_text('database = "ttcg/new"\ngame = "ttcg"\nversion = 1\n'
                    '[[card]]\nname = "Hushwing"\ntype = "Unit (Dark)"\nlevel = 1\ncost = 1\nstats = { attack = 100, defense = 100 }\n'
                    'text = "Echo: Your opponent cannot play light cards next turn."\n'
                    '[[card]]\nname = "Plainwing"\ntype = "Unit (Dark)"\nlevel = 1\ncost = 1\nstats = { attack = 100, defense = 100 }\n'
                    'text = "Draw one card."\n', encoding="utf-8")
    result = runner.invoke(app, ["lint", str(path), "--json"])
    findings = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    assert result.exit_code == 0, result.output
    assert [(f["card"], f["kind"], f["severity"]) for f in findings] == [("Hushwing", "meaning", "note")]
    assert "Echo" in findings[0]["message"] and "unverifiable" in findings[0]["message"]
    text = runner.invoke(app, ["lint", str(path)]).output
    assert "Hushwing: note [meaning]" in text and "2 cards, 0 finding(s), 1 note(s)" in text


def test_lint_notes_the_shipped_cards_the_spec_does_not_run(runner: CliRunner) -> None:
    result = runner.invoke(app, ["lint", str(ROOT / "spec" / "bakugan" / "cards" / "base.toml"), "--json"])
    findings = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    assert result.exit_code == 0
    assert [(f["card"], f["kind"]) for f in findings] == [("Ashen Mirror", "meaning")]
    assert "Copy" in str(findings[0]["message"])


def _lint_file(runner: CliRunner, tmp_path: Path, cards: str) -> tuple[int, list[dict[str, object]]]:
    path = tmp_path / "new.toml"
    path.write_text('database = "neopets/new"\ngame = "neopets"\nversion = 1\n' + cards, encoding="utf-8")
    result = runner.invoke(app, ["lint", str(path), "--json"])
    return result.exit_code, [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]


def test_lint_reports_a_parse_failure_with_what_was_expected(runner: CliRunner, tmp_path: Path) -> None:
    code, found = _lint_file(runner, tmp_path, '[[card]]\nname = "Odd"\ntype = "Food"\ntext = "Draw two bananas."\n')
    assert code == 1
    assert found[0]["kind"] == "parse" and found[0]["line"] == 1 and found[0]["column"] == 10
    assert found[0]["expected"]


def test_lint_proposes_the_canonical_wording(runner: CliRunner, tmp_path: Path) -> None:
    code, found = _lint_file(runner, tmp_path, '[[card]]\nname = "Odd"\ntype = "Food"\ntext = "Draw 2 cards."\n')
    assert code == 1
    assert found == [{"card": "Odd", "kind": "wording", "severity": "warning", "message": "not the canonical wording",
                      "fix": "Draw two cards."}]


def test_lint_names_the_words_the_canonical_wording_leaves_out() -> None:
    """The canonical form is how the spec reads a text; when it lacks a word of the text that
    is not a mere function word, the warning names it, so a designer checks the meaning before
    pasting the fix (here the canonical "your hand" says less than "its owner's hand")."""
    from grammar.lint import left_out, lint_card

    [finding] = lint_card("Homeward", "Draw a card. Return this to its owner's hand.", "bakugan", "Action")
    assert finding.kind == "wording" and finding.fix == "Draw a card. Return this to your hand."
    assert "leaves out \"owner's\"" in finding.message
    assert left_out("Choose a Hero. Its controller must Energize it.", "Choose a Hero card. Energize it.") == ["controller", "must"]
    assert left_out("Draw 2 cards.", "Draw two cards.") == []  # no word lost, only spelt another way


def test_lint_finds_names_no_card_has(runner: CliRunner, tmp_path: Path) -> None:
    code, found = _lint_file(runner, tmp_path, (
        '[[card]]\nname = "Lost Map"\ntype = "Map Piece"\n'
        'text = "This card can be collected as a Map Piece of Nowhere Lagoon."\n'
        '[[card]]\nname = "Seeker"\ntype = "Food"\n'
        'text = "Search your Main Deck for a card with \\"Pumpernickel\\" in its name and put it into your Inventory."\n'
        '[[card]]\nname = "Finder"\ntype = "Food"\n'
        'text = "Search your Main Deck for a card with \\"Omelette\\" in its name and put it into your Inventory."\n'))
    assert code == 1
    assert [(f["card"], f["kind"]) for f in found] == [("Lost Map", "reference"), ("Seeker", "reference")]


def test_lint_names_a_term_of_another_game() -> None:
    foreign = foreign_terms("neopets")
    term = "graveyard" if "graveyard" in foreign else min(w for w in foreign if w.isalpha())
    assert "neopets" not in foreign[term]
    found = lint_card("Odd", f"Send target Equipment to its owner's {term}.", "neopets", "Food")
    assert [f.kind for f in found] == ["parse", "term"]
    assert all(game in found[1].message for game in foreign[term])


def test_ambiguous_it_is_flagged() -> None:
    two = A.CardText((A.Spell((A.Reveal(A.Selector("a", "card", zone="Inventory")),
                               A.Send(A.Selector("target", "card"), "Discard"),
                               A.Send(A.Selector("it"), "Void"))),))
    one = A.CardText((A.Spell((A.Reveal(A.Selector("a", "card", zone="Inventory")),
                               A.Send(A.Selector("it"), "Void"))),))
    assert ambiguous_referents(two) == [0]
    assert ambiguous_referents(one) == []


def test_name_references_match_words_of_names() -> None:
    names = ["Thornberry Omelette", "Sunken Grotto"]
    assert name_exists("Omelette", True, names)
    assert name_exists("Omelettes", True, names)
    assert not name_exists("Omelette", False, names)
    assert name_exists("Sunken Grotto", False, names)


def test_lint_refuses_an_unreadable_file(runner: CliRunner, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("database = \n", encoding="utf-8")
    result = runner.invoke(app, ["lint", str(bad)])
    assert result.exit_code == 2 and "bad.toml" in result.output
