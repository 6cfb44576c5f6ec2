"""Every shipped replay reaches the verdict its header expects (verdict, seq, rule)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec import load_game
from verifier.replay import HeaderReader, read
from verifier.verify import Verifier, _decoder_for, expectation_matches, verify_file

ROOT = Path(__file__).resolve().parents[1]
REPLAYS = sorted((ROOT / "replays").rglob("*.jsonl"))


def test_the_corpus_is_there() -> None:
    games = {p.relative_to(ROOT / "replays").parts[0] for p in REPLAYS}
    assert "neopets" in games
    legal = [p for p in REPLAYS if "/neopets/legal/" in str(p)]
    illegal = [p for p in REPLAYS if "/neopets/illegal/" in str(p)]
    assert len(legal) >= 10
    assert len(illegal) >= 30


@pytest.mark.parametrize("path", REPLAYS, ids=[str(p.relative_to(ROOT / "replays")) for p in REPLAYS])
def test_replay_meets_its_expectation(path: Path) -> None:
    header = read(path, HeaderReader())
    assert header is not None and header.expect is not None, "every shipped replay carries its expected verdict"
    folder = path.parent.name
    assert (header.expect.verdict == "legal") == (folder == "legal")
    report = verify_file(path)
    ok, why = expectation_matches(report, header.expect)
    assert ok, f"{path.name}: {why}"


def test_illegal_replays_each_break_a_different_rule() -> None:
    rules = []
    for path in REPLAYS:
        if path.parent.name == "illegal":
            header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
            rules.append(header["expect"]["rule"])
    assert len(rules) == len(set(rules))


def test_legal_replays_show_the_situations_the_issue_names() -> None:
    shown: set[str] = set()
    for path in REPLAYS:
        if path.parent.name == "legal" and "/neopets/" in str(path):
            header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
            shown |= set(header["meta"].get("shows", []))
    for situation in ("three rounds", "mulligan", "agility reroll", "critical", "exhaustion",
                      "food in opponent's turn", "paint brush", "location", "map piece"):
        assert situation in shown, situation


def test_every_rule_check_is_broken_by_a_replay_or_a_unit_case() -> None:
    """Per check, not per rule: several checks may cite one rule, each must be proven."""
    from tests.test_neopets_checks import CASES, check_fired_by

    book = load_game("neopets").book
    checks = {c.name for a in book.actions.values() for c in a.checks}
    broken: set[str] = set()
    for path in REPLAYS:
        if path.parent.name == "illegal" and "/neopets/" in str(path):
            header = read(path, HeaderReader())
            assert header is not None and header.expect is not None
            verifier = Verifier()
            read(path, verifier, _decoder_for)
            first = next((name for seq, name in verifier.checks if seq == header.expect.seq), None)
            if first is not None:
                broken.add(first)
    broken |= {check_fired_by(case) for case in CASES}
    assert sorted(checks - broken) == []


def test_legal_replays_exercise_every_ability_kind() -> None:
    """Issue 3 (executable meaning): cards of every ability kind are played in a legal replay."""
    from grammar import ast as A
    from spec.core.cards import CardDatabase, shipped_database

    cards = CardDatabase.load(shipped_database("neopets", "base"))
    kinds: set[str] = set()
    for path in REPLAYS:
        if path.parent.name != "legal" or "/neopets/" not in str(path):
            continue
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            event = json.loads(line)
            if event["do"] not in ("play", "activate", "collect", "choose"):
                continue
            name = event.get("card") or event.get("neopet")
            if name not in cards:
                continue
            tree = cards.tree(name)
            assert isinstance(tree, A.CardText)
            for ability in tree.abilities:
                kinds.add(type(ability).__name__)
                if any(isinstance(step, A.Delay) for step in getattr(ability, "effect", ())):
                    kinds.add("Delay")
    assert kinds >= {"Spell", "Activated", "Triggered", "Passive", "Replacement", "Conditional", "Keyword", "Delay"}
