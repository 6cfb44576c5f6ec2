"""The Battle Monsters replay corpus: every replay meets its ``expect``; the situations and checks are covered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec import load_game
from spec.battle_monsters.corpus import SITUATIONS, features
from verifier.replay import HeaderReader, read
from verifier.verify import Verifier, _decoder_for, expectation_matches, verify_file

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "replays" / "battle_monsters"
LEGAL = sorted((CORPUS / "legal").glob("*.jsonl"))
ILLEGAL = sorted((CORPUS / "illegal").glob("*.jsonl"))


def _header(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0])


def test_the_corpus_is_there() -> None:
    assert len(LEGAL) >= 8
    assert len(ILLEGAL) >= 20


@pytest.mark.parametrize("path", LEGAL + ILLEGAL, ids=[f"{p.parent.name}/{p.name}" for p in LEGAL + ILLEGAL])
def test_replay_meets_its_expectation(path: Path) -> None:
    header = read(path, HeaderReader())
    assert header is not None and header.expect is not None, "every shipped replay carries its expected verdict"
    assert (header.expect.verdict == "legal") == (path.parent.name == "legal")
    report = verify_file(path)
    ok, why = expectation_matches(report, header.expect)
    assert ok, f"{path.name}: {why}"


def test_illegal_replays_each_break_a_different_rule() -> None:
    rules = [_header(p)["expect"]["rule"] for p in ILLEGAL]
    assert len(rules) == len(set(rules))
    assert all(rule.startswith("battle_monsters:") for rule in rules)


def test_illegal_replays_break_their_rule_at_the_last_event() -> None:
    """A legal prefix, then one bad event: the expected seq is the last one."""
    for path in ILLEGAL:
        lines = path.read_text(encoding="utf-8").splitlines()
        assert _header(path)["expect"]["seq"] == len(lines) - 1, path.name


def test_legal_replays_show_the_situations_the_issue_names() -> None:
    shown: set[str] = set()
    for path in LEGAL:
        shown |= set(_header(path)["meta"].get("shows", []))
    for situation in SITUATIONS:
        assert situation in shown, situation


@pytest.mark.parametrize("path", LEGAL[:3], ids=[p.name for p in LEGAL[:3]])
def test_the_situations_a_header_lists_are_in_its_game(path: Path) -> None:
    lines = path.read_bytes().splitlines()
    assert set(_header(path)["meta"]["shows"]) == features(lines)


def test_legal_games_are_complete() -> None:
    """Every legal replay plays a game to its end and claims the result."""
    for path in LEGAL:
        last = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
        assert last["do"] == "game", path.name


def test_every_rule_check_is_broken_by_a_replay_or_a_unit_case() -> None:
    """Per check, not per rule: several checks may cite one rule, each must be proven."""
    from tests.test_battle_monsters_checks import CASES, check_fired_by

    book = load_game("battle_monsters").book
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
    broken |= {check_fired_by(case) for case in CASES}
    assert sorted(checks - broken) == []


def test_arbiter_verify_check_expect_passes_on_the_corpus() -> None:
    from typer.testing import CliRunner

    from verifier.cli import app

    result = CliRunner().invoke(app, ["verify", "--check-expect", str(CORPUS)])
    assert result.exit_code == 0, result.output
    assert f"{len(LEGAL) + len(ILLEGAL)} of {len(LEGAL) + len(ILLEGAL)} replays match" in result.output
