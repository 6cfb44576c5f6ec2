"""Epic Battles: the precedence policy wired into the verifier, and hidden cards checked with z3 (issue 6).

* each rule of the policy that the verifier uses (EB.deck.copies, EB.recover.effect,
  EB.card.event.flip.timing) settles the clash it meets in the legal replay
  ``conflicts-settled-2``; remove it and the clash is a gap: the game is no longer legal;
* the three replays of the issue meet their expectations: the legal game lists its
  conflicts, the game that went the other way is ``illegal`` citing EB.recover.effect, the
  card set face down that the registered deck cannot hold is ``inconsistent``, and only z3
  sees it;
* a clash no rule settles (a card's can't against another card's recover or can) is
  ``unverifiable``, never legal.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

import pytest

from grammar import ast as A
from spec import load_game
from spec.core.hidden import DeckKnowledge
from spec.epic_battles import conflicts as EC
from spec.epic_battles import events as E
from spec.epic_battles.corpus import HIDDEN_DECK, hidden_replay, replay_states
from spec.epic_battles.game import EpicBattles
from spec.epic_battles.state import EpicBattlesState, Lasting
from verifier.replay import HeaderReader, read
from verifier.verify import expectation_matches, verify_file

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "replays" / "epic_battles"
LEGAL = CORPUS / "legal" / "conflicts-settled-2.jsonl"
WRONG_WAY = CORPUS / "illegal" / "breaks-EB-recover-effect.jsonl"
HIDDEN = CORPUS / "illegal" / "inconsistent-hidden-event.jsonl"
GAME = cast(EpicBattles, load_game("epic_battles"))
WIRED = (EC.COPIES, EC.RECOVERY, EC.FLIP_TIMING)


def _expect(path: Path) -> None:
    header = read(path, HeaderReader())
    assert header is not None and header.expect is not None
    ok, why = expectation_matches(verify_file(path), header.expect)
    assert ok, f"{path.name}: {why}"


# =========================================================================== the replays


def test_the_legal_game_lists_each_conflict_it_meets_and_how_it_was_settled() -> None:
    _expect(LEGAL)
    report = verify_file(LEGAL)
    assert report.verdict == "legal"
    assert {c.rule for c in report.conflicts} == {f"epic_battles:{r.split(':', 1)[1]}" for r in WIRED}
    assert all(c.severity == "info" and "settled by" in c.message for c in report.conflicts)
    recovered = next(c for c in report.conflicts if c.rule == EC.RECOVERY)
    assert "stays down until the combo is over" in recovered.message
    assert recovered.actual is not None and recovered.actual.startswith("gives way: the rules")
    keys = [c.message for c in report.conflicts]
    assert len(keys) == len(set(keys))  # each conflict once


def test_the_game_that_went_the_other_way_is_illegal_citing_the_precedence_rule() -> None:
    _expect(WRONG_WAY)
    report = verify_file(WRONG_WAY)
    first = next(f for f in report.findings if f.severity == "illegal")
    assert first.rule == EC.RECOVERY and "already stood them up" in first.message and "Steady Stance" in first.message
    legal = LEGAL.read_text(encoding="utf-8").splitlines()
    wrong = WRONG_WAY.read_text(encoding="utf-8").splitlines()
    assert wrong[1:-1] == legal[1:len(wrong) - 1]  # the legal game, then the move the settled clash forbids


def test_the_inconsistent_reveal_is_found() -> None:
    _expect(HIDDEN)
    assert HIDDEN.read_bytes().splitlines() == hidden_replay()
    finding = next(f for f in verify_file(HIDDEN).findings if f.severity == "inconsistent")
    assert "holds 1 copy of Crowd Roars" in finding.message and "can only be Crowd Roars" in finding.message
    assert "at seq 18" in finding.message and "at seq 27" in finding.message


@pytest.mark.interpreted  # patches a method of spec.core.hidden, which is compiled
def test_the_inconsistent_reveal_needs_z3(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(DeckKnowledge, "contradiction", lambda self, deck_size=None: None)
    assert verify_file(HIDDEN).verdict == "legal"  # counting copies alone sees nothing wrong


def test_a_card_set_face_down_from_a_deck_without_events_is_found_by_counting(tmp_path: Path) -> None:
    lines = [json.loads(x) for x in hidden_replay()]
    main = dict(cast(dict[str, int], HIDDEN_DECK["main"]))
    del main["Crowd Roars"]
    main["Reversal Catch"] += 1
    lines[0]["decks"]["alice"]["main"] = main
    lines = lines[:19]  # up to the set
    lines[0]["expect"] = {"verdict": "inconsistent", "seq": 18, "rule": "epic_battles:EB.card.event"}
    path = tmp_path / "no-event.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    _expect(path)
    finding = next(f for f in verify_file(path).findings if f.severity == "inconsistent")
    assert "cannot hold a single event" in finding.message  # counting suffices: no event at all


def test_flipping_the_card_set_face_down_by_name_consumes_the_mark(tmp_path: Path) -> None:
    """A hidden card named later may be the marked one: the deck's one Crowd Roars set, then shown."""
    lines = hidden_replay()[:19]
    for state, _event, _raw in replay_states(lines):
        pass  # the generator applies each event once it is consumed: the state ends with the set applied
    knowledge = state.sides["alice"].knowledge
    assert knowledge.marks == 1 and knowledge.contradiction(59) is None
    card = next(c for c in state.sides["alice"].arena if not c.face_up)
    GAME.identify(state, "alice", "Crowd Roars", "flipped Crowd Roars, set face down unseen", "hidden")
    card.name = "Crowd Roars"
    assert knowledge.contradiction(59) is None
    words = [o.words for o in knowledge.observations()]
    assert any("set an unseen card" in w for w in words) and any("flipped Crowd Roars" in w for w in words)


def test_the_journal_names_what_moved_the_hidden_cards() -> None:
    """Draws, damage and chips of cards known on top, searches and cards put back are journaled in words."""
    seen: set[str] = set()
    for state, _event, _raw in replay_states(LEGAL.read_bytes().splitlines()):
        for side in state.sides.values():
            node = side.knowledge.journal
            if node is not None:
                seen.add(node[1].words.split(" ")[0])
    assert {"drew"} <= seen


# =========================================================================== each wired rule matters


@pytest.mark.parametrize("rule", WIRED, ids=[r.split(":", 1)[1] for r in WIRED])
def test_each_wired_rule_fails_when_removed(rule: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(EC, "POLICY", EC.POLICY.without(rule))
    report = verify_file(LEGAL)
    assert report.verdict == "unverifiable"
    gap = next(f for f in report.findings if f.severity == "unverifiable")
    assert gap.message.startswith("a gap in the rules") and rule not in {c.rule for c in report.conflicts}


def test_without_the_recovery_rule_the_wrong_way_no_longer_cites_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(EC, "POLICY", EC.POLICY.without(EC.RECOVERY))
    report = verify_file(WRONG_WAY)
    assert [f.severity for f in report.findings][:2] == ["unverifiable", "illegal"]  # the gap, then a plain late payment
    assert report.findings[1].rule == "epic_battles:EB.recover.block"
    assert not any(f.rule == EC.RECOVERY for f in report.findings)


# =========================================================================== gaps


def _before_the_recovering_block() -> tuple[EpicBattlesState, E.Block]:
    lines = WRONG_WAY.read_bytes().splitlines()
    for state, event, raw in replay_states(lines):
        if raw["seq"] == 111:
            assert raw["do"] == "block" and raw["card"] == "Steady Stance"
            assert isinstance(event, E.Block)
            return state.copy(), event
    raise LookupError


def test_a_cards_cant_recover_against_a_cards_recover_is_a_gap() -> None:
    state, block = _before_the_recovering_block()
    attacker = state.strikes[-1].attacker
    pin = A.Prohibit(A.Selector("the", "player", owner="opponent"), "recover", A.Duration("end_of_combo"))
    state.lasting.append(Lasting(pin, attacker, until="end_of_combo", source="Pinning Hold"))
    rulings = GAME.apply(state, block)
    gaps = [r for r in rulings if r.violation.severity == "unverifiable"]
    assert gaps and gaps[0].violation.message.startswith("a gap in the rules")
    assert "Pinning Hold" in gaps[0].violation.message and "Steady Stance" in gaps[0].violation.message
    assert state.sides[block.by or ""].down is None  # the effect happens as printed; the verdict says it was not decided
    assert not any(o.settled for o in state.recent)  # and no later move is judged by the unsettled clash


def test_the_same_block_without_the_cant_is_settled() -> None:
    state, block = _before_the_recovering_block()
    assert not [r for r in GAME.apply(state, block) if r.violation.severity != "info"]
    assert state.sides[block.by or ""].down is None
    assert any(n.rule == EC.RECOVERY for n in state.notes)


def test_a_cards_cant_flip_against_a_cards_can_flip_is_a_gap() -> None:
    state, _block = _before_the_recovering_block()
    player = "alice"
    can = A.Permit(A.Selector("the", "player", owner="you"), "flip events", A.Duration("end_of_turn"))
    cant = A.Prohibit(A.Selector("the", "player", owner="opponent"), "flip events", A.Duration("end_of_turn"))
    state.lasting += [Lasting(can, player, until="end_of_turn", source="Showboat"),
                      Lasting(cant, "bob", until="end_of_turn", source="Heckling Fans")]
    problem = EC.judge_flip(state, player, "Cornered")
    assert problem is not None and problem.severity == "unverifiable" and "Heckling Fans" in problem.message
    met = EC.conflicts_met(state, {})
    assert [r.violation.severity for r in met] == ["unverifiable"]
    state.lasting.pop()  # without the can't, the card's permission prevails over the flip timing
    assert EC.judge_flip(state, player, "Cornered") is None
    assert [r.rule for r in state.notes] == [EC.FLIP_TIMING]


def test_more_copies_than_four_of_a_card_whose_own_limit_is_lower_stays_illegal() -> None:
    ruling = EC.judge_copies("alice", "Pocket Jab", 5, 6)
    assert ruling is not None and ruling.violation.severity == "info" and ruling.rule == EC.COPIES
    monkey = EC.POLICY
    try:
        EC.POLICY = EC.POLICY.without(EC.COPIES)
        gap = EC.judge_copies("alice", "Pocket Jab", 5, 6)
        assert gap is not None and gap.violation.severity == "unverifiable"
    finally:
        EC.POLICY = monkey
