"""The rulebook lint finds the books' own defects, names a rule for each, and degrades without a book.

The tests on the real books need ``../shared`` beside the checkout and are skipped
without it; the synthetic books and the index-only checks run everywhere.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spec.core import rulebook_lint as L
from spec.core.rules import RuleBook, RuleEntry, RuleIndex
from verifier.cli import app

SHARED = L.shared_dir()
needs_books = pytest.mark.skipif(SHARED is None or not (SHARED / "seeds").is_dir(),
                                 reason="../shared/seeds is not beside the checkout")


def kinds(report: L.LintReport) -> set[str]:
    return {f.kind for f in report.findings}


# ------------------------------------------------------------------ the real books


@needs_books
def test_neopets_cites_rules_the_book_does_not_have() -> None:
    report = L.lint_game("neopets")
    dangling = {(f.rule, f.refers) for f in report.findings if f.kind == "dangling-reference"}
    assert ("neopets:3.p4", ("2.7",)) in dangling
    assert ("neopets:5.5.7e", ("2.7.1",)) in dangling
    assert report.book is not None and report.book.endswith(".txt")
    assert not report.skipped or all("contradiction" not in s for s in report.skipped)


@needs_books
def test_bakugan_repeats_and_restarts_its_numbers() -> None:
    report = L.lint_game("bakugan")
    repeated = [f for f in report.findings if f.kind == "repeated-number"]
    assert any(f.refers == ("2.1",) for f in repeated), [f.message for f in repeated]
    assert any(f.kind == "non-monotonic-number" and f.refers == ("2.1.1", "1.2") for f in report.findings)
    # Its references to numbers from another game's rules (600.1, 605.1a) are dangling.
    assert {"600.1", "605.1a"} <= {f.refers[0] for f in report.findings if f.kind == "dangling-reference"}


@needs_books
def test_spelling_variants_are_found() -> None:
    pairs = [set(f.refers) for game in ("battle_monsters", "bakugan", "neopets")
             for f in L.lint_game(game).findings if f.kind == "spelling-variant"]
    assert pairs
    assert {"defense", "defence"} in pairs


@needs_books
@pytest.mark.parametrize("game", L.shared_games(SHARED))
def test_every_finding_names_a_rule_of_the_index_and_quotes_no_sentence(game: str) -> None:
    report = L.lint_game(game)
    ids = {r.id for r in L.book_rules(game, SHARED)[0]}
    assert report.book is not None
    for finding in report.findings:
        prefix, _, rule_id = finding.rule.partition(":")
        assert prefix == game and rule_id in ids, finding
        assert finding.kind in L.CHECKS and finding.severity in ("error", "warning", "note")
        # Our words: a quoted term is short, never a sentence of the book.
        for quoted in finding.message.split("'")[1::2]:
            assert len(quoted.split()) <= 6, finding.message


# ------------------------------------------------------------------ synthetic books

CLEAN_BOOK = """\
1. Setting Up
1.1 Each player shuffles their Deck before the first turn.
1.2 A Deck holds forty cards, shuffled as 1.1 says before the first turn.
2. Playing
2.1 The Deck is the pile of cards a player draws from; the Deck stays face down.
2.2 Drawing takes the top card of the Deck.
"""
CLEAN_RULES = [
    L.BookRule("1.1", "normative", "Shuffle your deck before play begins.", 2),
    L.BookRule("1.2", "normative", "A deck has forty cards and is shuffled first.", 3),
    L.BookRule("2.1", "definition", "The deck is the face-down pile you draw from.", 5),
    L.BookRule("2.2", "normative", "A draw takes the deck's top card.", 6),
]


def test_a_clean_book_has_no_finding() -> None:
    report = L.lint("toy", CLEAN_RULES, CLEAN_BOOK, [], book_name="toy.txt")
    assert report.findings == []
    assert report.skipped == []


def test_each_defect_of_a_synthetic_book_is_found_with_its_rule() -> None:
    book = CLEAN_BOOK + (
        "2.2 Drawing from an empty Deck loses the game (see 4.7).\n"
        "2.1 A Defence Token and a Defense Token both block; the Tokens Pile holds Tokens Pile cards.\n"
        "3.1 Put every Tokens Pile card back after the Tokens Pile check.\n"
        "1.3 A late rule, printed after section 3.\n"
    )
    rules = [*CLEAN_RULES,
             L.BookRule("2.2.p2", "normative", "An empty deck loses when drawing.", 7),
             L.BookRule("2.1.p2", "normative", "Tokens block attacks.", 8),
             L.BookRule("3.1", "normative", "Return the token cards after a check.", 9),
             L.BookRule("1.3", "normative", "A late rule.", 10)]
    report = L.lint("toy", rules, book, [(("1.1", "2.2"), "they disagree on when to shuffle")])
    found = {(f.kind, f.rule) for f in report.findings}
    assert ("dangling-reference", "toy:2.2.p2") in found
    assert ("repeated-number", "toy:2.2.p2") in found
    assert ("repeated-number", "toy:2.1.p2") in found
    assert ("non-monotonic-number", "toy:1.3") in found
    assert ("spelling-variant", "toy:2.1.p2") in found
    assert ("undefined-term", "toy:2.1.p2") in found  # "Tokens Pile": used thrice, never defined
    assert ("contradiction", "toy:1.1") in found
    assert all(f.rule.startswith("toy:") and f.rule != "toy:?" for f in report.findings)


def test_the_spec_registers_contradictions_for_the_lint() -> None:
    book = RuleBook(RuleIndex("toy", [RuleEntry("1.1", "normative", "a"), RuleEntry("1.2", "normative", "b")]))
    book.contradiction("1.1", "1.2", why="one says before, the other after")
    with pytest.raises(KeyError):
        book.contradiction("9.9", why="not a rule of the index")
    report = L.lint("toy", CLEAN_RULES, None, book.contradictions)
    [finding] = [f for f in report.findings if f.kind == "contradiction"]
    assert finding.rule == "toy:1.1" and finding.refers == ("1.1", "1.2")
    assert "one says before" in finding.message


# ------------------------------------------------------------------ without a book


def test_without_a_book_the_index_checks_run_and_the_rest_is_reported_skipped(tmp_path: Path) -> None:
    report = L.lint_game("neopets", shared=tmp_path)
    assert report.book is None
    assert {s.split(":")[0] for s in report.skipped} == set(L.NEEDS_BOOK)
    assert all("not beside" in s or "no book" in s for s in report.skipped)
    # Bakugan's disambiguated IDs show its repeated numbers even without its text.
    rules = [L.BookRule("1.1/2.1", "normative"), L.BookRule("1.1/2.2", "normative"),
             L.BookRule("1.2/2.1.p1", "normative"), L.BookRule("1.2/2.1.p2", "normative"), L.BookRule("2.1.1", "normative")]
    index_only = L.lint("toy", rules, None, [])
    assert [(f.kind, f.rule) for f in index_only.findings] == [("repeated-number", "toy:1.2/2.1.p1")]


def test_mentions_and_resolution() -> None:
    assert L.reference_mentions("5.5.7e Knocked out (See 2.7.1 for the procedure).") == ["2.7.1"]
    assert L.reference_mentions("Pointer to the rules in section 8.") == ["8"]
    assert L.reference_mentions("Version - 0.001") == []
    assert L.resolve("5.5.4", ["5.5.3", "5.5.4a", "5.5.40"]) == "5.5.4a"
    assert L.resolve("5.5.4", ["5.5.40"]) is None
    assert L.resolve("4.4", ["1.4/4.4.p1"]) is None
    assert L.rule_anchor("neopets", "7.11.4.p2") == "neopets-7-11-4-p2"
    assert L.rule_url("neopets:7.11.4.p2", "docs/") == "docs/rules-neopets.html#neopets-7-11-4-p2"


# ------------------------------------------------------------------ the command


def test_cli_json_report() -> None:
    result = CliRunner().invoke(app, ["rulebook-lint", "neopets", "--json"])
    assert result.exit_code in (0, 1), result.output
    report = json.loads(result.stdout)
    assert report["game"] == "neopets" and isinstance(report["findings"], list)
    assert result.exit_code == (1 if report["findings"] else 0)
    for finding in report["findings"]:
        assert finding["rule"].startswith("neopets:") and finding["kind"] in L.CHECKS


def test_cli_text_report_and_bad_input(tmp_path: Path) -> None:
    runner = CliRunner()
    book = tmp_path / "book.txt"
    book.write_text(CLEAN_BOOK + "9.9 See 77.7 for more.\n", encoding="utf-8")
    result = runner.invoke(app, ["rulebook-lint", "neopets", "--book", str(book)])
    assert result.exit_code == 1, result.output
    assert "dangling-reference" in result.stdout and "77.7" in result.stdout
    assert runner.invoke(app, ["rulebook-lint", "no-such-game"]).exit_code == 2
    assert runner.invoke(app, ["rulebook-lint", "neopets", "--book", str(tmp_path / "missing.txt")]).exit_code == 2


def test_the_checkout_is_found_whether_the_spec_runs_compiled_or_not() -> None:
    """``ROOT`` is the checkout even when the package is imported from the compiled build's
    copy under ``.build/compiled`` (which once hid ``../shared`` from the lint)."""
    checkout = Path(__file__).resolve().parents[1]
    assert checkout == L.ROOT
    shared = checkout.parent / "shared"
    if (shared / "rules").is_dir():
        assert L.shared_dir() == shared
