"""Issue 6 for Bakugan: the precedence policy wired into the verifier, and hidden cards.

Each wired precedence rule is shown to matter: with it removed from the policy
(:meth:`spec.core.conflicts.Policy.without`), the same replay is no longer judged the
same way. Pins decisions 30 and 31 of ``docs/bakugan-decisions.rst``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from spec import load_game
from spec.bakugan import conflicts as BC
from spec.bakugan import events as E
from spec.bakugan.corpus import replay_states
from spec.bakugan.state import Lasting
from spec.core import conflicts as C
from spec.core.cards import CardDatabase, shipped_database
from spec.core.game import Setup
from verifier.verify import verify_file

ROOT = Path(__file__).resolve().parents[1] / "replays" / "bakugan"
LEGAL = ROOT / "legal" / "conflict-settled-26.jsonl"
ILLEGAL = ROOT / "illegal" / "breaks-1-3-3-2.jsonl"
INCONSISTENT = ROOT / "illegal" / "inconsistent-reveal-4-2-1-p2.jsonl"
POLICY = BC.POLICY
GAME = load_game("bakugan")


@pytest.fixture
def fresh_solver() -> Iterator[None]:
    """Forget cached resolutions (tests swap policies)."""
    C._RESOLVED.clear()
    yield
    C._RESOLVED.clear()


def _expect(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0])["expect"]


def _first(report: object, severity: str) -> object:
    return next(f for f in report.findings if f.severity == severity)  # type: ignore[attr-defined]


def _state_with_marek() -> object:
    """The legal game's state once Marek Stillwater is in alice's play (bob's Vesperhorn on his team)."""
    lines = LEGAL.read_bytes().splitlines()
    for state, _event, _raw in replay_states(lines):
        if any(h.name == "Marek Stillwater" for h in state.sides["alice"].heroes) and state.stage == "turn":
            return state.copy()
    raise AssertionError("Marek Stillwater never enters play in the legal game")


# ----------------------------------------------------------------- the three replays


def test_the_legal_game_lists_each_conflict_met_and_how_it_was_settled() -> None:
    report = verify_file(LEGAL)
    assert report.verdict == "legal"
    assert {f.rule for f in report.conflicts} == {"bakugan:1.3/3.1", "bakugan:1.3/3.2"}
    assert all(f.severity == "info" for f in report.conflicts)
    assert all(f.severity == "info" for f in report.findings)
    marek = next(f for f in report.conflicts if f.rule == "bakugan:1.3/3.2")
    assert "Marek Stillwater" in marek.message and "Vesperhorn" in marek.message and "overrides" in marek.message
    keyword = next(f for f in report.conflicts if f.rule == "bakugan:1.3/3.1")
    assert "bakugan:5.5.1" in keyword.message and "Vesperhorn" in keyword.message
    assert len([f for f in report.conflicts if f.rule == "bakugan:1.3/3.2"]) == 1  # listed once, not after every event


def test_d30_a_cant_overrides_the_reroll_keyword() -> None:
    report = verify_file(ILLEGAL)
    expect = _expect(ILLEGAL)
    first = _first(report, "illegal")
    assert report.verdict == "illegal" == expect["verdict"]
    assert first.rule == "bakugan:1.3/3.2" == expect["rule"] and first.seq == expect["seq"]  # type: ignore[attr-defined]
    assert "Marek Stillwater" in first.message and "Vesperhorn" in first.message  # type: ignore[attr-defined]


def test_d31_a_fourth_copy_turned_over_is_inconsistent_and_explained() -> None:
    report = verify_file(INCONSISTENT)
    expect = _expect(INCONSISTENT)
    first = _first(report, "inconsistent")
    assert report.verdict == "inconsistent" == expect["verdict"]
    assert first.rule == "bakugan:4.2.1.p2" == expect["rule"] and first.seq == expect["seq"]  # type: ignore[attr-defined]
    message = first.message  # type: ignore[attr-defined]
    assert message.startswith("no arrangement of bob's deck gives this log")
    assert "bob's registered deck holds 3 copies of Rook Castellan" in message
    assert message.count("Rook Castellan") >= 5  # the registered entry and the four events that showed it
    assert f"at seq {expect['seq']}, bob turned over Rook Castellan for damage" in message


# ----------------------------------------------------------------- each wired rule matters


@pytest.mark.parametrize("rule", ["bakugan:1.3/3.1", "bakugan:1.3/3.2"])
def test_the_legal_game_is_no_longer_legal_without_a_policy_rule(rule: str, monkeypatch: pytest.MonkeyPatch,
                                                                  fresh_solver: None) -> None:
    monkeypatch.setattr(BC, "POLICY", POLICY.without(rule))
    report = verify_file(LEGAL)
    assert report.verdict == "unverifiable"
    assert rule not in {f.rule for f in report.conflicts}
    assert any("gap in the rules" in f.message for f in report.findings)


def test_without_1_3_3_2_the_illegal_reroll_is_a_gap_not_illegal(monkeypatch: pytest.MonkeyPatch, fresh_solver: None) -> None:
    monkeypatch.setattr(BC, "POLICY", POLICY.without("bakugan:1.3/3.2"))
    report = verify_file(ILLEGAL)
    assert report.verdict == "unverifiable"
    assert not any(f.severity == "illegal" for f in report.findings)


def test_a_z3_limit_in_a_replay_is_unverifiable(monkeypatch: pytest.MonkeyPatch, fresh_solver: None) -> None:
    monkeypatch.setattr(C, "_SHARED", C.ConflictSolver(rlimit=1))
    report = verify_file(ILLEGAL)
    assert report.verdict == "unverifiable"
    assert any("could not decide" in f.message for f in report.findings)


# ----------------------------------------------------------------- gaps, effects in force


def test_two_base_values_of_one_bakugan_are_a_gap_and_unverifiable(fresh_solver: None) -> None:
    state = _state_with_marek()
    bak = state.sides["bob"].team["Mossjaw"]  # type: ignore[attr-defined]
    state.lasting += [Lasting("bob", "Mossjaw", "BPower", 300, base=True, uid=bak.character.uid, source="A (alice)"),  # type: ignore[attr-defined]
                      Lasting("bob", "Mossjaw", "BPower", 900, base=True, uid=bak.character.uid, source="B (bob)")]
    rulings = BC.conflicts_met(state, {})  # type: ignore[arg-type]
    gaps = [r for r in rulings if r.violation.severity == "unverifiable"]
    assert gaps and "gap in the rules" in gaps[0].violation.message and "Mossjaw" in gaps[0].violation.message
    assert all(r.violation.severity in ("info", "unverifiable") for r in rulings)


def test_effects_in_force_name_each_bakugan_the_cant_speaks_of() -> None:
    state = _state_with_marek()
    effects = BC.effects_in_force(state)  # type: ignore[arg-type]
    cants = {e.subject for e in effects if e.kind == "cant" and e.topic == BC.REROLL}
    assert cants == {"bob's Vesperhorn", "bob's Halcyon Drake", "bob's Mossjaw"}
    assert any(e.kind == "can" and e.subject == "bob's Vesperhorn" for e in effects)


def test_a_reroll_an_effect_asks_for_is_skipped_under_the_cant(fresh_solver: None) -> None:
    state = _state_with_marek()
    assert BC.prohibited(state, "bob", "Vesperhorn", BC.REROLL, "Kindle Rush (bob)")  # type: ignore[arg-type]
    assert not BC.prohibited(state, "alice", "Gloamwing", BC.REROLL, "Kindle Rush (alice)")  # type: ignore[arg-type]
    monkeypatched = POLICY.without("bakugan:1.3/3.2")
    original = BC.POLICY
    BC.POLICY = monkeypatched
    try:
        from spec.bakugan.board import Unmodelled

        with pytest.raises(Unmodelled, match="gap in the rules"):
            BC.prohibited(state, "bob", "Vesperhorn", BC.REROLL, "Kindle Rush (bob)")  # type: ignore[arg-type]
    finally:
        BC.POLICY = original


# ----------------------------------------------------------------- hidden cards


def test_the_journal_records_each_card_shown_with_its_event() -> None:
    lines = LEGAL.read_bytes().splitlines()
    state = None
    for state, _event, _raw in replay_states(lines):
        pass
    assert state is not None
    words = [o.words for side in state.sides.values() for o in side.knowledge.observations()]
    assert any(w.startswith("drew ") for w in words)
    assert any(w.endswith(" for damage") for w in words)
    assert all(o.seq is not None for side in state.sides.values() for o in side.knowledge.observations())
    assert all(side.knowledge.marks == 0 for side in state.sides.values())  # a Bakugan log never shows a card as a kind


def test_without_a_decklist_a_fourth_copy_is_inconsistent_by_the_copy_limit() -> None:
    cards = CardDatabase.load(shipped_database("bakugan", "base"), "bakugan")
    state = GAME.setup(Setup(("alice", "bob"), {}, {"passes": "explicit"}, cards))
    for seq in range(1, 4):
        for side in state.sides.values():
            side.knowledge.now = seq
        assert not GAME._draw(state, "alice", "Tidebreak")  # type: ignore[attr-defined]
    for side in state.sides.values():
        side.knowledge.now = 4
    rulings = GAME._turn_over(state, "alice", "Tidebreak", "turned over Tidebreak for damage")[1]  # type: ignore[attr-defined]
    assert [r.violation.severity for r in rulings] == ["inconsistent"]
    assert rulings[0].rule == "bakugan:4.2.1.p2"
    assert "the construction rules allow at most 3 copies of Tidebreak" in rulings[0].violation.message
    assert "at seq 4, alice turned over Tidebreak for damage" in rulings[0].violation.message


def test_a_card_put_back_can_be_shown_again() -> None:
    cards = CardDatabase.load(shipped_database("bakugan", "base"), "bakugan")
    state = GAME.setup(Setup(("alice", "bob"), {}, {"passes": "explicit"}, cards))
    knowledge = state.sides["alice"].knowledge
    for _ in range(3):
        knowledge.reveal("Tidal Recall", "drew Tidal Recall")
    knowledge.conceal("Tidal Recall", "put Tidal Recall on the bottom of the deck")
    assert not GAME._draw(state, "alice", "Tidal Recall")  # type: ignore[attr-defined]


def test_the_reroll_event_is_unchanged_where_no_cant_is_in_force() -> None:
    """A reroll by the keyword with no can't in force stays legal (and notes the 1.3/3.1 settlement)."""
    report = verify_file(LEGAL)
    notes = [f for f in report.conflicts if f.rule == "bakugan:1.3/3.1"]
    assert notes and all(isinstance(f.seq, int) for f in notes)
    assert E.Reroll(0, "bob", "Vesperhorn").bakugan == "Vesperhorn"
