"""Epic Battles: every replay of ``replays/epic_battles`` meets its ``expect``, and the corpus proves the spec.

* each legal replay verifies ``legal``; each illegal one finds its first finding at the
  expected seq, citing the expected rule, and no two break the same rule;
* the situations the issue names for Epic Battles are shown by legal replays (their
  header's ``meta.shows``, recomputed here from the events);
* every check of the spec is broken first by an illegal replay or by a unit case of
  ``tests/test_epic_battles_checks.py`` (per check, not per rule).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec import load_game
from spec.epic_battles.corpus import SITUATIONS, features, play
from verifier.replay import HeaderReader, read
from verifier.verify import Verifier, _decoder_for, expectation_matches, verify_file

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "replays" / "epic_battles"
REPLAYS = sorted(CORPUS.rglob("*.jsonl"))
LEGAL = [p for p in REPLAYS if p.parent.name == "legal"]
ILLEGAL = [p for p in REPLAYS if p.parent.name == "illegal"]

ISSUE_SITUATIONS = (
    "two rounds won", "deck runs out", "random first aggressor", "loser is next aggressor", "aggressor rotates",
    "events set face down", "event flipped", "events flipped together", "energy paid", "damage", "chipping",
    "top of deck discarded", "block of the same height", "HIT text", "combo", "knock down", "launcher",
    "blocked knock down", "recover by block", "recover by effect", "recover at combo end", "taunt plays an attack",
    "taunt discards", "discard to three", "side deck registered", "attack to energy pile", "block to discard pile",
    "event to discard pile", "three rounds",
)
"""The issue's Epic Battles paragraph, as situations a legal replay shows."""


def _header(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0])


def test_the_corpus_is_there() -> None:
    assert len(LEGAL) >= 8
    assert len(ILLEGAL) >= 20


@pytest.mark.parametrize("path", REPLAYS, ids=[str(p.relative_to(CORPUS)) for p in REPLAYS])
def test_replay_meets_its_expectation(path: Path) -> None:
    header = read(path, HeaderReader())
    assert header is not None and header.expect is not None, "every shipped replay carries its expected verdict"
    assert header.game == "epic_battles"
    assert (header.expect.verdict == "legal") == (path.parent.name == "legal")
    if header.expect.verdict != "legal":
        assert header.expect.rule is not None and header.expect.rule.startswith("epic_battles:")
    report = verify_file(path)
    ok, why = expectation_matches(report, header.expect)
    assert ok, f"{path.name}: {why}"


def test_illegal_replays_each_break_a_different_rule() -> None:
    rules = [_header(p)["expect"]["rule"] for p in ILLEGAL]
    assert len(rules) == len(set(rules))


def test_illegal_replays_end_with_the_breaking_event() -> None:
    """A legal prefix, then the one event that breaks the rule (set-up ones break it in the decklist)."""
    for path in ILLEGAL:
        expect = _header(path)["expect"]
        lines = path.read_text(encoding="utf-8").splitlines()
        if expect["seq"] is not None:
            assert json.loads(lines[-1])["seq"] == expect["seq"], path.name


def test_legal_replays_show_the_situations_the_issue_names() -> None:
    shown: set[str] = set()
    for path in LEGAL:
        shown |= set(_header(path)["meta"].get("shows", []))
    assert set(ISSUE_SITUATIONS) <= set(SITUATIONS)
    assert sorted(set(ISSUE_SITUATIONS) - shown) == []
    assert any(_header(p)["options"]["passes"] == "implicit" for p in LEGAL)
    assert any(_header(p)["options"]["passes"] == "explicit" for p in LEGAL)


@pytest.mark.parametrize("path", LEGAL, ids=[p.name for p in LEGAL])
def test_meta_shows_is_what_the_replay_shows(path: Path) -> None:
    lines = path.read_bytes().splitlines()
    assert sorted(features(lines) & set(SITUATIONS)) == _header(path)["meta"]["shows"]


def test_every_check_is_broken_by_a_replay_or_a_unit_case() -> None:
    """Per check, not per rule: several checks may cite one rule, each must be proven."""
    from tests.test_epic_battles_checks import CASES, check_fired_by

    book = load_game("epic_battles").book
    checks = {c.name for a in book.actions.values() for c in a.checks}
    broken: set[str] = set()
    for path in ILLEGAL:
        header = read(path, HeaderReader())
        assert header is not None and header.expect is not None
        verifier = Verifier()
        read(path, verifier, _decoder_for)
        first = next((name for seq, name in verifier.checks if seq == header.expect.seq), None)
        if first is not None:
            broken.add(first)
    broken |= {name for case in CASES if (name := check_fired_by(case)) is not None}
    assert sorted(checks - broken) == []


def test_legal_replays_play_every_main_deck_card() -> None:
    """Every card of the base set a main deck may hold is played, set, flipped or chosen in a legal replay."""
    from spec.epic_battles.corpus import cards_used, main_deck_cards

    used: set[str] = set()
    for path in LEGAL:
        used |= cards_used(path.read_bytes().splitlines())
    assert sorted(main_deck_cards() - used) == []


def test_the_game_player_is_deterministic() -> None:
    assert play(7, max_events=300) == play(7, max_events=300)


def test_the_corpus_verifies_with_the_cli() -> None:
    from typer.testing import CliRunner

    from verifier.cli import app

    result = CliRunner().invoke(app, ["verify", "--check-expect", str(CORPUS)])
    assert result.exit_code == 0, result.output
    assert f"{len(REPLAYS)} of {len(REPLAYS)} replays match" in result.output
