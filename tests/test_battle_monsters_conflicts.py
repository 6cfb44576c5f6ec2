"""Battle Monsters: the precedence policy wired into the verifier, and hidden cards (issue 6).

* each rule of the policy the verifier uses settles a clash it meets: "card effects over
  the manual" (BM.rules.card) and "the later card wins" (BM.rules.conflict) in the legal
  replay ``conflicts-settled-later-card``, "unless stated" (BM.rules.conflict) on a
  Thornhide Boar facing a later "cannot"; remove one and the verdict changes (a gap,
  unverifiable, or the other card winning);
* the three replays of the issue meet their expectations: the legal game lists its
  conflicts, the game that went the other way is ``illegal`` citing BM.rules.conflict, the
  card shown from a hand of unseen draws that the registered deck cannot hold is
  ``inconsistent``, explained in plain words (counting decides; z3 only words the core);
* a clash no rule settles, or a z3 call that runs out, is ``unverifiable``, never legal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from grammar import battle_monsters_nodes as N
from spec import load_game
from spec.battle_monsters import conflicts as BC
from spec.battle_monsters import events as E
from spec.battle_monsters.corpus import conflict_replays, play, replay_states
from spec.battle_monsters.state import BattleMonstersState, Lasting
from spec.core import conflicts as C
from spec.core import hidden_z3
from spec.core.conflicts import Outcome
from verifier.replay import HeaderReader, read
from verifier.verify import expectation_matches, verify_file

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "replays" / "battle_monsters"
LEGAL = CORPUS / "legal" / "conflicts-settled-later-card.jsonl"
WRONG_WAY = CORPUS / "illegal" / "breaks-BM-rules-conflict.jsonl"
HIDDEN = CORPUS / "illegal" / "inconsistent-BM-gloss-draw.jsonl"
GAME: Any = load_game("battle_monsters")
CONFLICT = "battle_monsters:BM.rules.conflict"
CARD = "battle_monsters:BM.rules.card"


def _expect(path: Path) -> None:
    header = read(path, HeaderReader())
    assert header is not None and header.expect is not None
    ok, why = expectation_matches(verify_file(path), header.expect)
    assert ok, f"{path.name}: {why}"


def test_the_replays_are_the_ones_the_corpus_script_writes() -> None:
    for name, lines in conflict_replays().items():
        assert (CORPUS / name).read_bytes() == b"\n".join(lines) + b"\n", name


# =========================================================================== the three replays


def test_the_legal_game_lists_each_conflict_it_meets_and_how_it_was_settled() -> None:
    _expect(LEGAL)
    report = verify_file(LEGAL)
    assert report.verdict == "legal"
    assert sorted(c.rule or "" for c in report.conflicts) == [CARD, CONFLICT]
    assert all(c.severity == "info" and "settled by" in c.message for c in report.conflicts)
    later = next(c for c in report.conflicts if c.rule == CONFLICT)
    assert "the later card wins" in later.message and "Coil Adept was played later than Vigil Heron" in later.message
    manual = next(c for c in report.conflicts if c.rule == CARD)
    assert "BM.monster.reveal_turn" in manual.message
    assert manual.actual is not None and manual.actual.startswith("gives way: the rules")
    messages = [c.message for c in report.conflicts]
    assert len(messages) == len(set(messages))  # each conflict once


def test_the_game_that_went_the_other_way_is_illegal_citing_the_precedence_rule() -> None:
    _expect(WRONG_WAY)
    report = verify_file(WRONG_WAY)
    first = next(f for f in report.findings if f.severity == "illegal")
    assert first.rule == CONFLICT and first.seq == len(WRONG_WAY.read_text(encoding="utf-8").splitlines()) - 1
    assert "Vigil Heron was played later than Coil Adept" in first.message and "cannot attack" in first.message
    legal = LEGAL.read_text(encoding="utf-8").splitlines()
    wrong = WRONG_WAY.read_text(encoding="utf-8").splitlines()
    assert wrong[1:-2] == legal[1:len(wrong) - 2]  # the legal game, then the older Coil Adept revealed and attacking


def test_the_inconsistent_reveal_is_explained_in_plain_words() -> None:
    _expect(HIDDEN)
    finding = next(f for f in verify_file(HIDDEN).findings if f.severity == "inconsistent")
    assert finding.rule == "battle_monsters:BM.gloss.draw"
    assert "no arrangement of bob's deck gives this log" in finding.message
    assert "holds 1 copy of Vigil Heron" in finding.message
    assert "at seq 18, bob showed Vigil Heron from the hand" in finding.message
    assert "at seq 22, bob summoned Vigil Heron from a hand of unseen draws" in finding.message


def test_counting_decides_the_hidden_cards_and_z3_is_not_needed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every observation names its card (no marks): counting is exact; without z3 the words are counting's."""
    for state, _event, _raw in replay_states(HIDDEN.read_bytes().splitlines()):
        assert all(side.knowledge.marks == 0 for side in state.sides.values())
    assert any(o.source == "hidden" for o in state.sides["bob"].knowledge.observations())

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("no z3")

    monkeypatch.setattr(hidden_z3, "check", broken)
    monkeypatch.setattr("spec.battle_monsters.hidden.check", broken)
    report = verify_file(HIDDEN)
    assert report.verdict == "inconsistent"
    finding = next(f for f in report.findings if f.severity == "inconsistent")
    assert "holds 1 copy of Vigil Heron, and the log has already shown 1 of them" in finding.message


def test_the_journal_records_draws_set_up_graveyard_cards_and_cards_shown_from_hand() -> None:
    words: set[str] = set()
    for state, _event, _raw in replay_states(LEGAL.read_bytes().splitlines()):
        pass
    for side in state.sides.values():
        words |= {" ".join(o.words.split(" ")[:2]) for o in side.knowledge.observations()}
    assert {"drew Coil", "put Glowcap", "drew Vigil"} <= words


# =========================================================================== each wired rule matters


@pytest.mark.parametrize("rule", ["card effects over the manual", "the later card wins"])
def test_each_wired_rule_fails_when_removed(rule: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(BC, "POLICY", BC.POLICY.without(rule))
    report = verify_file(LEGAL)
    assert report.verdict == "unverifiable"
    gap = next(f for f in report.findings if f.severity == "unverifiable")
    assert gap.message.startswith("a gap in the rules")
    assert rule not in " ".join(c.message for c in report.conflicts)


def test_without_the_later_card_rule_the_wrong_way_is_a_gap_not_illegal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(BC, "POLICY", BC.POLICY.without("the later card wins"))
    report = verify_file(WRONG_WAY)
    assert report.verdict == "unverifiable"
    assert not any(f.rule == CONFLICT and f.severity == "illegal" for f in report.findings)


def _turn_open(s: BattleMonstersState) -> bool:
    return s.stage == "turn" and not s.pending and s.battle is None and not s.ending and s.turn > 2


def _state() -> BattleMonstersState:
    for state, _event, _raw in replay_states(play(1)):
        if _turn_open(state):
            return state.copy()
    raise LookupError("no open turn")


def _put(s: BattleMonstersState, player: str, name: str, **extra: Any) -> Any:
    from tests.test_battle_monsters_checks import put

    return put(s, player, name, **extra)


def _boar_against_a_later_cannot() -> tuple[BattleMonstersState, E.Attack]:
    """A Thornhide Boar summoned this turn ("regardless of other penalties") and a later "cannot attack" on it."""
    state = _state()
    me = state.active
    state.sides[me].field.clear()
    boar = _put(state, me, "Thornhide Boar", summoned_turn=state.turn, acted_turn=state.turn, acted="summon")
    state.lasting.append(Lasting(N.Cannot(N.Cards("this"), ("attack",)), state.other(me), "Fog Bank", boar.uid, state.stamp()))
    state.sides[state.other(me)].field.clear()
    return state, E.Attack(0, me, "Thornhide Boar", 1, None)


def test_unless_stated_lets_the_boar_attack_and_fails_when_removed(monkeypatch: pytest.MonkeyPatch) -> None:
    state, attack = _boar_against_a_later_cannot()
    assert [r for r in GAME.apply(state.copy(), attack) if r.violation.severity != "info"] == []
    monkeypatch.setattr(BC, "POLICY", BC.POLICY.without("unless stated"))
    rulings = GAME.apply(state.copy(), attack)
    assert (rulings[0].rule, rulings[0].violation.severity) == (CONFLICT, "illegal")
    assert "Fog Bank was played later than Thornhide Boar" in rulings[0].violation.message


def test_the_manual_ban_is_lifted_only_by_the_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Thornhide Boar against the manual's summoned-turn ban: BM.rules.card lets it attack; without it, a gap."""
    state, attack = _boar_against_a_later_cannot()
    state.lasting.clear()
    assert [r for r in GAME.apply(state.copy(), attack) if r.violation.severity != "info"] == []
    monkeypatch.setattr(BC, "POLICY", BC.POLICY.without("card effects over the manual"))
    rulings = GAME.apply(state.copy(), attack)
    assert rulings[0].violation.severity == "unverifiable" and "a gap in the rules" in rulings[0].violation.message
    assert rulings[0].rule == "battle_monsters:BM.subactions.attack.timing"


# =========================================================================== gaps and undecided checks


def test_a_clash_no_rule_settles_is_unverifiable_never_legal() -> None:
    """A "can" and a "cannot" of cards that came onto the field together: no card is later, a gap."""
    state = _state()
    me = state.active
    state.sides[me].field.clear()
    adept = _put(state, me, "Coil Adept", revealed_turn=state.turn, acted_turn=state.turn, acted="reveal")
    state.lasting.append(Lasting(N.Cannot(N.Cards("this"), ("attack",)), state.other(me), "a spell", adept.uid, adept.arrived))
    rulings = GAME.apply(state.copy(), E.Attack(0, me, "Coil Adept", 1, None))
    assert rulings and rulings[0].violation.severity == "unverifiable"
    assert rulings[0].violation.message.startswith("a gap in the rules") and "Coil Adept" in rulings[0].violation.message
    listed = GAME.conflicts_met(state, {})
    assert any(r.violation.severity == "unverifiable" and "a gap in the rules" in r.violation.message for r in listed)


def test_a_z3_call_that_runs_out_is_unverifiable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(C, "_RESOLVED", {})
    monkeypatch.setattr(C.ConflictSolver, "check", lambda self, *a, **k: Outcome("unknown", reason="canceled"))
    report = verify_file(WRONG_WAY)
    assert report.verdict == "unverifiable"
    assert any("z3 could not decide" in f.message for f in report.findings if f.severity == "unverifiable")
    assert not any(f.severity == "illegal" and f.rule == CONFLICT for f in report.findings)
