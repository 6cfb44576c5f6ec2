"""Every TTCG replay meets its expected verdict; the corpus shows what the issue names and breaks every check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec import load_game
from spec.ttcg.corpus import SITUATIONS
from verifier.replay import HeaderReader, read
from verifier.verify import Verifier, _decoder_for, expectation_matches, verify_file

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "replays" / "ttcg"
LEGAL = sorted((CORPUS / "legal").glob("*.jsonl"))
ILLEGAL = sorted((CORPUS / "illegal").glob("*.jsonl"))


def header_of(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0])


def test_the_corpus_is_there() -> None:
    assert len(LEGAL) >= 8
    assert len(ILLEGAL) >= 20


@pytest.mark.parametrize("path", LEGAL + ILLEGAL, ids=[f"{p.parent.name}/{p.name}" for p in LEGAL + ILLEGAL])
def test_replay_meets_its_expectation(path: Path) -> None:
    header = read(path, HeaderReader())
    assert header is not None and header.expect is not None, "every shipped replay carries its expected verdict"
    assert header.game == "ttcg"
    assert (header.expect.verdict == "legal") == (path.parent.name == "legal")
    report = verify_file(path)
    ok, why = expectation_matches(report, header.expect)
    assert ok, f"{path.name}: {why}"
    if header.expect.verdict != "legal":
        assert header.expect.seq is not None and header.expect.rule is not None
        first = next(f for f in report.findings if f.severity not in ("info",))
        assert (first.seq, first.rule) == (header.expect.seq, header.expect.rule), "the expected rule is the first one broken"


def test_legal_replays_are_complete_games() -> None:
    for path in LEGAL:
        last = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
        assert last["do"] == "game", f"{path.name} does not end with the game's end"


def test_illegal_replays_each_break_a_different_rule() -> None:
    rules = [header_of(p)["expect"]["rule"] for p in ILLEGAL]
    assert len(rules) == len(set(rules))


def test_legal_replays_show_the_situations_the_issue_names() -> None:
    shown: set[str] = set()
    for path in LEGAL:
        shown |= set(header_of(path)["meta"].get("shows", []))
    assert sorted(set(SITUATIONS) - shown) == []


def test_the_shows_of_a_replay_are_what_it_shows() -> None:
    """``meta.shows`` is recomputed from the events (for the shortest legal replay, to keep it quick)."""
    from spec.ttcg.corpus import features

    path = min(LEGAL, key=lambda p: p.stat().st_size)
    lines = path.read_bytes().splitlines()
    assert sorted(features(lines)) == header_of(path)["meta"]["shows"]


def test_every_rule_check_is_broken_by_a_replay_or_a_unit_case() -> None:
    """Per check, not per rule: several checks may cite one rule, each must be proven."""
    from tests.test_ttcg_checks import CASES, check_fired_by

    book = load_game("ttcg").book
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
    by_replays = set(broken)
    broken |= {check_fired_by(case) for case in CASES}  # type: ignore[misc]
    assert sorted(checks - broken) == []
    assert len(by_replays) >= 20


def test_legal_replays_use_every_effect_type() -> None:
    """Cards with each effect type of 2.2.5.i are used or set off in a legal replay."""
    from spec.core.cards import CardDatabase, shipped_database
    from spec.ttcg import board as B

    cards = CardDatabase.load(shipped_database("ttcg", "base"), "ttcg")

    class _Cards:
        def __init__(self) -> None:
            self.cards = cards

    labels: set[str] = set()
    for path in LEGAL:
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            event = json.loads(line)
            if event["do"] == "play":
                labels |= {label for label, _a in B.effects_of(_Cards(), event["card"])}  # type: ignore[arg-type]
            if event["do"] == "activate":
                labels.add(B.effects_of(_Cards(), event["card"])[event.get("effect", 0)][0])  # type: ignore[arg-type]
    assert labels >= {"normal", "continuous", "counter", "equip", "latent", "dormant", "passive"}
