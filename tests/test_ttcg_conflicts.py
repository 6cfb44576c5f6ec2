"""TTCG: the precedence policy wired into the verifier, and hidden cards counted (issue 6).

Each precedence rule the verifier asks is shown to matter: the same situation under
``POLICY.without(rule)`` ends differently (another rule cited, the other effect
prevailing, or a gap: ``unverifiable``). The three replays of issue 6 meet their
expectations, and a clash no rule settles is never judged legal.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spec.core import conflicts as C
from spec.core.hidden_z3 import needs_solver
from spec.ttcg import conflicts as TC
from spec.ttcg import events as E
from spec.ttcg.state import Lasting
from tests.test_ttcg_checks import GAME, fresh, put, restrict
from verifier.verify import verify_file

ROOT = Path(__file__).resolve().parent.parent
LEGAL = ROOT / "replays/ttcg/legal/conflicts-542.jsonl"
OTHER_WAY = ROOT / "replays/ttcg/illegal/breaks-2-1-aj.jsonl"
THIRD_COPY = ROOT / "replays/ttcg/illegal/inconsistent-third-copy.jsonl"
POLICY = TC.POLICY
STATED = "a stated override prevails"
RULES_STAND = "the rules stand unless overridden"


@pytest.fixture(autouse=True)
def fresh_solver() -> Iterator[None]:
    """Forget cached resolutions (tests swap policies)."""
    C._RESOLVED.clear()
    yield
    C._RESOLVED.clear()


def without(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    monkeypatch.setattr(TC, "POLICY", POLICY.without(*names))


def rulings(state: Any, *events: Any) -> list[Any]:
    out = []
    for event in events:
        out += GAME.apply(state, event)
    return out


# ============================================================================ 2.1.aj: destruction against a shield


def battle(shield: str = "be destroyed") -> Any:
    """ann's Gravelhide Boar (330 attack) attacks ben's Mire Tentacle (90 defense), which cannot be destroyed."""
    state = fresh(fields={"ann": ["Gravelhide Boar"], "ben": ["Mire Tentacle"]}, node="battle")
    restrict(state, state.sides["ben"].creatures[0], shield)
    return state


def fight(state: Any) -> list[Any]:
    return rulings(state, E.Attack(0, "ann", "Gravelhide Boar", None, E.Ref("Mire Tentacle", "ben")), E.Pass(0, "ann"),
                   E.Pass(0, "ben"))


def test_a_shield_keeps_its_creature_in_battle_by_2_1_aj() -> None:
    state = battle()
    found = fight(state)
    assert state.sides["ben"].creatures, "the shield prevails: the Mire Tentacle stays"
    notes = [r for r in found if r.check == "conflicts"]
    assert [(r.rule, r.violation.severity) for r in notes] == [("ttcg:2.1.aj", "info")]
    assert "ttcg:2.2.7.g" in notes[0].violation.actual  # the battle rule gave way


def test_without_2_1_aj_the_battle_rule_stands_and_destroys(monkeypatch: pytest.MonkeyPatch) -> None:
    without(monkeypatch, "indestructible")
    state = battle()
    found = fight(state)
    assert not state.sides["ben"].creatures, "2.2.5.b read the other way: the card's shield gives way to 2.2.7.g"
    assert [r.rule for r in found if r.check == "conflicts"] == ["ttcg:2.2.5.b"]


def test_without_both_the_battle_is_a_gap_never_legal(monkeypatch: pytest.MonkeyPatch) -> None:
    without(monkeypatch, "indestructible", RULES_STAND)
    found = fight(battle())
    assert [r.violation.severity for r in found if r.check == "conflicts"] == ["unverifiable"]
    assert "gap in the rules" in next(r for r in found if r.check == "conflicts").violation.message


def test_an_effects_destruction_of_a_shielded_card_is_settled_by_2_1_aj_and_a_gap_without_it(monkeypatch: pytest.MonkeyPatch) -> None:
    state = battle("be destroyed by effects")
    card = state.sides["ben"].creatures[0].card
    cause = state.sides["ann"].creatures[0].card
    destroyed, found = TC.judge_destroy(state, "ben", card, "effect", cause)
    assert not destroyed and [r.rule for r in found] == ["ttcg:2.1.aj"]
    without(monkeypatch, "indestructible")
    destroyed, found = TC.judge_destroy(state, "ben", card, "effect", cause)
    assert not destroyed and [r.violation.severity for r in found] == ["unverifiable"]  # two card effects: a gap


def test_a_claim_that_the_shielded_card_was_destroyed_is_illegal_citing_2_1_aj() -> None:
    state = battle()
    fight(state)
    found = rulings(state, E.Destroyed(0, None, "Mire Tentacle", "ben"))
    assert [(r.rule, r.violation.severity) for r in found] == [("ttcg:2.1.aj", "illegal")]
    assert "Mire Tentacle" in found[0].violation.message and "2.2.7.g" in found[0].violation.message


# ============================================================================ 2.2.5.b and 2.2.3.a.2.a: extra plays


def extra_plays() -> Any:
    """ann has played two cards this Main Phase; Time Fold granted two more."""
    state = fresh(hands={"ann": ["Mire Tentacle"]})
    state.flags.plays = 2
    state.flags.extra.append((2, ()))
    state.flags.extra_sources.append("Time Fold")
    return state


def third_play(state: Any) -> list[Any]:
    return rulings(state, E.Play(0, "ann", "Mire Tentacle"))


def test_a_third_play_under_extra_plays_is_settled_by_2_2_5_b() -> None:
    state = extra_plays()
    found = third_play(state)
    assert [(r.rule, r.violation.severity) for r in found] == [("ttcg:2.2.5.b", "info")]
    assert "Time Fold" in found[0].violation.expected and "2.2.3.a.2.a" in found[0].violation.actual
    assert state.flags.plays == 3


def test_without_2_2_5_b_the_two_plays_defer_to_card_text_by_2_2_3_a_2_a(monkeypatch: pytest.MonkeyPatch) -> None:
    without(monkeypatch, STATED)
    found = third_play(extra_plays())
    assert [(r.rule, r.violation.severity) for r in found] == [("ttcg:2.2.3.a.2.a", "info")]


def test_without_either_the_third_play_is_unverifiable(monkeypatch: pytest.MonkeyPatch) -> None:
    without(monkeypatch, STATED, "two plays barring card text")
    found = third_play(extra_plays())
    assert [r.violation.severity for r in found] == ["unverifiable"]
    assert "gap in the rules" in found[0].violation.message


def test_a_third_play_without_extra_plays_meets_no_clash() -> None:
    state = extra_plays()
    state.flags.extra, state.flags.extra_sources = [], []
    found = third_play(state)
    assert [(r.rule, r.violation.severity) for r in found] == [("ttcg:2.2.3.a.2.a", "illegal")]


# ============================================================================ 2.2.5.b: a level up with another type


def level_up() -> tuple[Any, Any]:
    """ann's Mossback Golem (earth) may be ranked up with a nature card (its Passive)."""
    state = fresh(hands={"ann": ["Bloomcaller Dryad"]})
    put(state, "ann", "Mossback Golem")
    return state, E.Play(0, "ann", "Bloomcaller Dryad", E.Ref("Mossback Golem"))


def test_a_permission_to_rank_up_with_another_type_is_settled_by_2_2_5_b() -> None:
    state, move = level_up()
    found = rulings(state, move)
    assert [(r.rule, r.violation.severity) for r in found if r.violation.severity != "info" or r.check == "conflicts"] == [
        ("ttcg:2.2.5.b", "info")]
    assert "ttcg:2.2.6.b" in found[0].violation.actual


def test_without_2_2_5_b_the_permission_is_a_gap(monkeypatch: pytest.MonkeyPatch) -> None:
    without(monkeypatch, "ttcg:2.2.5.b")
    state, move = level_up()
    found = rulings(state, move)
    assert [r.violation.severity for r in found] == ["unverifiable"]


# ============================================================================ effects in force together


def test_two_settings_of_one_stat_in_force_are_a_gap_in_a_replay() -> None:
    state = fresh()
    pile = put(state, "ann", "Mire Tentacle")
    for order, value in ((1, 100), (2, 500)):
        state.lasting.append(Lasting("set", "ben" if order == 1 else "ann", "attack", value, uids=(pile.card.uid,), order=order))
    found = GAME.conflicts_met(state, {})
    assert [r.violation.severity for r in found] == ["unverifiable"]
    assert "gap in the rules" in found[0].violation.message and "100" in found[0].violation.message


def test_conflicts_met_reports_each_clash_once_and_nothing_without_clashes() -> None:
    state = fresh(fields={"ann": ["Mire Tentacle"]})
    memo: dict[str, Any] = {}
    assert GAME.conflicts_met(state, memo) == []
    pile = state.sides["ann"].creatures[0]
    state.lasting.append(Lasting("set", "ben", "attack", 100, uids=(pile.card.uid,), order=1))
    state.lasting.append(Lasting("set", "ann", "attack", 500, uids=(pile.card.uid,), order=2))
    state.next_order = 3
    assert len(GAME.conflicts_met(state, memo)) == 1
    state.next_uid += 1  # something changed, the same clash is still in force
    assert GAME.conflicts_met(state, memo) == []


# ============================================================================ the replays of issue 6


def expectation(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0])["expect"]


def test_the_legal_game_lists_the_conflicts_it_met_and_how_they_were_settled() -> None:
    report = verify_file(LEGAL)
    assert report.verdict == "legal"
    assert report.conflicts and {c.rule for c in report.conflicts} >= {"ttcg:2.1.aj"}
    assert all(c.severity == "info" for c in report.conflicts)
    shield = next(c for c in report.conflicts if c.rule == "ttcg:2.1.aj")
    assert "Ember Brand" in shield.message and "ttcg:2.2.7.g" in shield.message


def test_the_legal_game_is_not_legal_without_2_1_aj(monkeypatch: pytest.MonkeyPatch) -> None:
    shielded = min(c.seq for c in verify_file(LEGAL).conflicts if c.rule == "ttcg:2.1.aj")
    without(monkeypatch, "indestructible")
    report = verify_file(LEGAL)
    assert report.verdict == "illegal"  # the shielded creature would be destroyed: a later event of the log disagrees
    assert next(f for f in report.findings if f.severity == "illegal").seq > shielded


def test_the_game_going_the_other_way_is_illegal_citing_the_precedence_rule() -> None:
    report = verify_file(OTHER_WAY)
    expect = expectation(OTHER_WAY)
    first = next(f for f in report.findings if f.severity != "info")
    assert (report.verdict, first.seq, first.rule) == ("illegal", expect["seq"], "ttcg:2.1.aj")
    assert expect["rule"] == "ttcg:2.1.aj"


def test_without_2_1_aj_the_other_way_is_what_the_rules_say(monkeypatch: pytest.MonkeyPatch) -> None:
    without(monkeypatch, "indestructible")
    assert verify_file(OTHER_WAY).verdict == "legal"  # the battle rule would stand (2.2.5.b): the claim would be right


def test_a_third_copy_drawn_is_inconsistent_in_plain_words() -> None:
    report = verify_file(THIRD_COPY)
    expect = expectation(THIRD_COPY)
    first = next(f for f in report.findings if f.severity != "info")
    assert (report.verdict, first.seq, first.rule) == ("inconsistent", expect["seq"], "ttcg:2.2.1.b")
    assert "no arrangement of alice's deck" in first.message
    assert "2 copies of Ember Brand" in first.message and first.message.count("alice drew Ember Brand") == 3  # the two before


# ============================================================================ hidden cards


def test_the_journal_records_draws_searches_and_cards_shown_from_the_hand_by_name() -> None:
    state = fresh(hands={"ann": []})
    GAME.draw(state, "ann", "Mire Tentacle")
    GAME.draw(state, "ann", None)
    observations = state.sides["ann"].knowledge.observations()
    assert [o.words for o in observations] == ["drew Mire Tentacle"]
    assert not needs_solver(observations), "a TTCG log shows every card by name: counting decides (decision 28)"


def test_a_hidden_card_played_beyond_the_decklist_is_inconsistent() -> None:
    from collections import Counter

    state = fresh()
    side = state.sides["ann"]
    side.knowledge.registered = Counter({"Mire Tentacle": 1, "Brine Skitter": 1})
    put(state, "ann", "Mire Tentacle")  # the one copy is on the field
    side.hand.add(state.new_card(None, "ann"))  # a card drawn face down
    found = rulings(state, E.Play(0, "ann", "Mire Tentacle"))
    assert [(r.rule, r.violation.severity) for r in found][:1] == [("ttcg:2.2.3.a.2.a", "inconsistent")]
    assert "registered deck holds 1 copy of Mire Tentacle" in found[0].violation.message


def test_a_card_shown_only_as_a_kind_would_go_to_z3() -> None:
    """No TTCG event shows a kind alone today; if one did, the journal's mark reaches the solver."""
    from collections import Counter

    state = fresh()
    knowledge = state.sides["ann"].knowledge
    knowledge.registered = Counter({"Mire Tentacle": 1, "Brine Skitter": 1})
    knowledge.now = 5
    knowledge.reveal("Mire Tentacle", "drew Mire Tentacle")
    knowledge.now = 6
    knowledge.reveal("Brine Skitter", "drew Brine Skitter")
    knowledge.now = 7
    knowledge.mark({"Mire Tentacle", "Brine Skitter"}, "showed a water card from the deck")
    found = GAME._hidden_contradiction(state.sides["ann"])
    assert [(r.rule, r.violation.severity) for r in found] == [("ttcg:2.2.1.b", "inconsistent")]
    assert "at seq 7" in found[0].violation.message
