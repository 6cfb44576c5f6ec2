"""TTCG: one case per rule check, and the decisions of docs/ttcg-decisions.rst, pinned.

Each :class:`Case` builds a small game state (two players, ``ann`` active, with the
hands and fields the rule is about), applies one event and names the check that must
judge it first. Remove the check and its case fails. (Many checks are also broken by a
replay of ``replays/ttcg/illegal``; ``tests/test_corpus.py`` makes sure every check
has one or the other.)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from spec import load_game
from spec.core.cards import CardDatabase, shipped_database
from spec.core.game import Ruling, Setup
from spec.ttcg import board as B
from spec.ttcg import events as E
from spec.ttcg.state import Lasting, Pile, TtcgState

GAME: Any = load_game("ttcg")
CARDS = CardDatabase.load(shipped_database("ttcg", "base"), "ttcg")


def fresh(hands: dict[str, list[str]] | None = None, fields: dict[str, list[str]] | None = None, turn: int = 3,
          node: str = "main", active: str = "ann", explicit: bool = True, stage: str = "turn",
          cards: CardDatabase = CARDS) -> TtcgState:
    """A state in ``active``'s turn ``turn``, phase ``node``, with the cards given (decks unregistered)."""
    state = GAME.setup(Setup(("ann", "ben"), {}, {"passes": "explicit" if explicit else "implicit"}, cards))
    if stage == "turn":
        state.stage, state.first, state.turn, state.active, state.node = "turn", "ann", turn, active, node
        state.flags.drew = node != "draw"
        for side in state.sides.values():
            side.opening_draws = 7
    state.priority.reset(active)
    for player, names in (hands or {}).items():
        for name in names:
            give(state, player, name)
    for player, names in (fields or {}).items():
        for name in names:
            put(state, player, name)
    return state


def give(state: TtcgState, player: str, name: str) -> None:
    state.sides[player].hand.add(state.new_card(name, player, state.cards[name]))
    state.sides[player].knowledge.reveal(name)
    state.sides[player].deck.hidden -= 1


def put(state: TtcgState, player: str, name: str, tapped: bool = False) -> Pile:
    card = state.new_card(name, player, state.cards[name])
    state.sides[player].knowledge.reveal(name)
    pile = Pile(state.new_id(), card, "creature" if B.is_creature(state.cards[name]) else "magic", tapped=tapped,
                tapped_turn=1 if tapped else -1)
    (state.sides[player].creatures if pile.row == "creature" else state.sides[player].magic).append(pile)
    return pile


def judged(state: TtcgState, event: Any) -> list[Ruling]:
    return [r for r in GAME.apply(state, event) if r.violation.severity in ("illegal", "inconsistent")]


def ok(state: TtcgState, *events: Any) -> None:
    """Apply events that must all be accepted."""
    for event in events:
        rulings = [r for r in GAME.apply(state, event) if r.violation.severity != "info"]
        assert not rulings, f"{event}: {[(r.rule, r.violation.message) for r in rulings]}"


def restrict(state: TtcgState, pile: Pile, what: str) -> None:
    state.lasting.append(Lasting("restrict", pile.card.owner, what, uids=(pile.card.uid,)))


@dataclass(frozen=True)
class Case:
    check: str
    rule: str
    state: Callable[[], TtcgState]
    event: Callable[[TtcgState], Any]
    note: str = field(default="")


def _setup(first: str | None = None) -> TtcgState:
    state = fresh(stage="setup")
    state.first = first
    return state


def _tapped(name: str, turn: int = 1) -> Callable[[], TtcgState]:
    def make() -> TtcgState:
        state = fresh()
        pile = put(state, "ann", name, tapped=True)
        pile.tapped_turn = turn
        return state
    return make


def _answering(name: str) -> Callable[[], TtcgState]:
    """``ben`` used an effect in ``ann``'s turn; ``ann`` holds priority with ``name`` on her field."""
    def make() -> TtcgState:
        state = fresh(fields={"ann": [name], "ben": ["Hush Veil"]})
        ok(state, E.Pass(0, "ann"), E.Activate(0, "ben", "Hush Veil", 1), E.Pass(0, "ben"))
        return state
    return make


def _full(row: str) -> Callable[[], TtcgState]:
    names = ["Pebble Imp"] * 5 if row == "creature" else ["Hush Veil"] * 5
    return lambda: fresh(hands={"ann": ["Mire Tentacle", "Undertow"]}, fields={"ann": names})


def _under() -> TtcgState:
    state = fresh()
    pile = put(state, "ann", "Kiln Drake")
    pile.under.append(state.new_card("Ember Whelp", "ann", CARDS["Ember Whelp"]))
    return state


def _shielded(what: str, owner: str) -> Callable[[], TtcgState]:
    def make() -> TtcgState:
        state = fresh(node="battle", fields={"ann": ["Mire Tentacle"], "ben": ["Pebble Imp"]})
        restrict(state, state.sides[owner].creatures[0], what)
        return state
    return make


def _prohibited(action: str, hands: dict[str, list[str]] | None = None, fields: dict[str, list[str]] | None = None,
                node: str = "main") -> Callable[[], TtcgState]:
    """Ann under a prohibition (``play golem cards``, ``attack``...) an effect of ben's left (decision 31)."""
    def make() -> TtcgState:
        state = fresh(hands=hands, fields=fields, node=node)
        state.lasting.append(Lasting("prohibit", "ben", action, 0, (B.player_key(state, "ann"),), B.prohibited_kind(action),
                                     until_end=4))
        return state
    return make


def _attacked() -> TtcgState:
    state = fresh(node="battle", fields={"ann": ["Mire Tentacle"]})
    state.flags.attacked.add(state.sides["ann"].creatures[0].id)
    return state


def _over_ten(extra: list[str] | None = None) -> TtcgState:
    return fresh(node="end", hands={"ann": ["Pebble Imp"] * 2 + ["Hush Veil"] * 2 + ["Undertow"] * 2 + ["Static Wisp"] * 2
                                    + ["Gale Step"] * 2 + ["Ember Whelp"] + (extra or [])})


def _empty_deck_draw() -> TtcgState:
    state = fresh(node="draw")
    state.sides["ann"].deck.hidden = 0
    return state


def _indestructible_shatterpoint() -> TtcgState:
    state = fresh(fields={"ann": ["Shatterpoint"]})
    restrict(state, state.sides["ann"].magic[0], "be destroyed")
    return state


def _spared() -> TtcgState:
    """ann's Gravelhide Boar beat ben's Mire Tentacle, which an effect says cannot be destroyed."""
    state = fresh(fields={"ann": ["Gravelhide Boar"], "ben": ["Mire Tentacle"]}, node="battle")
    restrict(state, state.sides["ben"].creatures[0], "be destroyed")
    ok(state, E.Attack(0, "ann", "Gravelhide Boar", None, E.Ref("Mire Tentacle", "ben")), E.Pass(0, "ann"), E.Pass(0, "ben"))
    assert state.sides["ben"].creatures and state.spared
    return state


def _third_play(s: TtcgState) -> E.Play:
    """Event: ``ann`` has made her two plays this turn and plays Mire Tentacle."""
    s.flags.plays = 2
    return E.Play(0, "ann", "Mire Tentacle")


def _out_of_turn(name: str) -> Callable[[TtcgState], E.Activate]:
    """Event: ``ben`` is given priority in ``ann``'s turn and activates effect 0 of ``name``."""
    def event(s: TtcgState) -> E.Activate:
        s.priority.reset("ben")
        return E.Activate(0, "ben", name, 0)
    return event


CASES: list[Case] = [
    Case("roll_once", "ttcg:2.2.2.a.p1", lambda: _setup("ann"), lambda s: E.Roll(0, None, 3)),
    Case("die_face", "ttcg:2.2.2.a.p2", lambda: _setup(), lambda s: E.Roll(0, None, 7)),
    Case("first_once", "ttcg:2.2.2.a.p1", lambda: _setup(), lambda s: E.First(0, None, "zed")),
    Case("shuffle_called_for", "ttcg:2.2.2.b", fresh, lambda s: E.Shuffle(0, "ann")),
    Case("opening_hand", "ttcg:2.2.2.b", lambda: _setup(), lambda s: E.Draw(0, "ann", None)),
    Case("no_draw_first_turn", "ttcg:2.2.2.c.p2", lambda: fresh(turn=1, node="draw"), lambda s: E.Draw(0, "ann", None)),
    Case("draw_in_draw_phase", "ttcg:2.2.3.a.1", fresh, lambda s: E.Draw(0, "ann", None)),
    Case("draw_from_cards", "ttcg:2.2.11.a", _empty_deck_draw, lambda s: E.Draw(0, "ann", None)),
    Case("pass_with_priority", "ttcg:2.2.3.a", fresh, lambda s: E.Pass(0, "ben")),
    Case("no_pass_before_draw", "ttcg:2.2.3.a.1", lambda: fresh(node="draw"), lambda s: E.Pass(0, "ann")),
    Case("no_pass_over_hand_limit", "ttcg:2.2.10.b", _over_ten, lambda s: E.Pass(0, "ann")),
    Case("play_in_main_phase", "ttcg:2.2.3.a.2.a", lambda: fresh(node="battle", hands={"ann": ["Pebble Imp"]}),
         lambda s: E.Play(0, "ann", "Pebble Imp")),
    Case("play_from_hand", "ttcg:2.2.3.a.2.a", lambda: fresh(hands={"ann": ["Pebble Imp"]}), lambda s: E.Play(0, "ann", "Static Wisp")),
    Case("two_plays", "ttcg:2.2.3.a.2.a", lambda: fresh(hands={"ann": ["Pebble Imp", "Static Wisp", "Mire Tentacle"]}),
         _third_play),
    Case("play_not_prohibited", "ttcg:2.2.5.b", _prohibited("play golem cards", hands={"ann": ["Pebble Imp"]}),
         lambda s: E.Play(0, "ann", "Pebble Imp")),
    Case("high_rank_levels_up", "ttcg:2.2.6.a", lambda: fresh(hands={"ann": ["Kiln Drake"]}), lambda s: E.Play(0, "ann", "Kiln Drake")),
    Case("level_up_fits", "ttcg:2.2.6.b", lambda: fresh(hands={"ann": ["Quarry Colossus"]}, fields={"ann": ["Ember Whelp"]}),
         lambda s: E.Play(0, "ann", "Quarry Colossus", E.Ref("Ember Whelp"))),
    Case("creature_room", "ttcg:2.2.9.b", _full("creature"), lambda s: E.Play(0, "ann", "Mire Tentacle")),
    Case("magic_room", "ttcg:2.2.9.c", _full("magic"), lambda s: E.Play(0, "ann", "Undertow")),
    Case("equip_target", "ttcg:2.2.5.i.4", lambda: fresh(hands={"ann": ["Hush Veil"]}, fields={"ann": ["Pebble Imp"]}),
         lambda s: E.Play(0, "ann", "Hush Veil", None, E.Ref("Pebble Imp"))),
    Case("activate_on_field", "ttcg:2.2.5.c", lambda: fresh(hands={"ann": ["Gravelhide Boar"]}),
         lambda s: E.Activate(0, "ann", "Gravelhide Boar", 0)),
    Case("activate_not_under", "ttcg:2.2.6.e", _under, lambda s: E.Activate(0, "ann", "Ember Whelp", 0)),
    Case("activatable_effect", "ttcg:2.2.5.c", lambda: fresh(fields={"ann": ["Mossback Golem"]}),
         lambda s: E.Activate(0, "ann", "Mossback Golem", 1)),
    Case("activate_not_prohibited", "ttcg:2.2.5.b", _prohibited("activate effects", fields={"ann": ["Gravelhide Boar"]}),
         lambda s: E.Activate(0, "ann", "Gravelhide Boar", 0)),
    Case("activate_when_acting", "ttcg:2.2.5.c", lambda: fresh(fields={"ben": ["Hush Veil"]}),
         lambda s: E.Activate(0, "ben", "Hush Veil", 1)),
    Case("creature_effect_own_turn", "ttcg:2.2.4.c.2", lambda: fresh(fields={"ben": ["Gravelhide Boar"]}),
         _out_of_turn("Gravelhide Boar")),
    Case("counter_answers", "ttcg:2.2.5.i.3", lambda: fresh(fields={"ben": ["Hush Veil"]}),
         _out_of_turn("Hush Veil")),
    Case("creature_untapped", "ttcg:2.2.5.e", _tapped("Gravelhide Boar"), lambda s: E.Activate(0, "ann", "Gravelhide Boar", 0)),
    Case("magic_untapped", "ttcg:2.2.5.f.2", _tapped("Hush Veil"), lambda s: E.Activate(0, "ann", "Hush Veil", 1)),
    Case("dormant_needs_tapped", "ttcg:2.2.5.i.6.p1", lambda: fresh(fields={"ann": ["Static Wisp"]}),
         lambda s: E.Activate(0, "ann", "Static Wisp", 1)),
    Case("dormant_not_same_turn", "ttcg:2.2.5.i.6.p2", _tapped("Static Wisp", turn=3), lambda s: E.Activate(0, "ann", "Static Wisp", 1)),
    Case("cost_payable", "ttcg:2.2.5.b", _indestructible_shatterpoint, lambda s: E.Activate(0, "ann", "Shatterpoint", 0)),
    Case("attack_in_battle_phase", "ttcg:2.2.3.a.3", lambda: fresh(fields={"ann": ["Mire Tentacle"]}),
         lambda s: E.Attack(0, "ann", "Mire Tentacle")),
    Case("no_attack_first_turn", "ttcg:2.2.2.c.p1", lambda: fresh(turn=1, node="battle", fields={"ann": ["Mire Tentacle"]}),
         lambda s: E.Attack(0, "ann", "Mire Tentacle")),
    Case("attacker_on_field", "ttcg:2.2.7.b", lambda: fresh(node="battle", fields={"ann": ["Hush Veil"]}),
         lambda s: E.Attack(0, "ann", "Hush Veil")),
    Case("attack_once", "ttcg:2.2.7.b", _attacked, lambda s: E.Attack(0, "ann", "Mire Tentacle")),
    Case("attack_not_forbidden", "ttcg:2.2.5.b", _shielded("attack", "ann"), lambda s: E.Attack(0, "ann", "Mire Tentacle", None,
                                                                                                   E.Ref("Pebble Imp", "ben"))),
    Case("attack_not_prohibited", "ttcg:2.2.5.b", _prohibited("attack", fields={"ann": ["Mire Tentacle"]}, node="battle"),
         lambda s: E.Attack(0, "ann", "Mire Tentacle")),
    Case("attack_targets_creature", "ttcg:2.2.7.c", _shielded("nothing", "ben"), lambda s: E.Attack(0, "ann", "Mire Tentacle")),
    Case("target_attackable", "ttcg:2.2.5.b", _shielded("be attacked", "ben"),
         lambda s: E.Attack(0, "ann", "Mire Tentacle", None, E.Ref("Pebble Imp", "ben"))),
    Case("discard_to_hand_limit", "ttcg:2.2.10.b", lambda: fresh(hands={"ann": ["Pebble Imp"]}), lambda s: E.Discard(0, "ann", "Pebble Imp")),
    Case("discard_from_hand", "ttcg:2.2.10.b", _over_ten, lambda s: E.Discard(0, "ann", "Kiln Drake")),
    Case("_unasked", "ttcg:2.1.ac", fresh, lambda s: E.Choose(0, "ann", [])),
    Case("phase_claim", "ttcg:2.2.3.a", fresh, lambda s: E.Phase(0, None, "battle")),
    Case("destroyed_claim_spared", "ttcg:2.1.aj", lambda: _spared(), lambda s: E.Destroyed(0, None, "Mire Tentacle", "ben"),
         "the battle's destruction gave way to the shield (2.1.aj): the log went the other way"),
    Case("destroyed_claim", "ttcg:2.2.7.g", fresh, lambda s: E.Destroyed(0, None, "Pebble Imp", "ben")),
    Case("points_claim", "ttcg:2.2.8.a", fresh, lambda s: E.Points(0, None, "ben", 19)),
    Case("game_claim", "ttcg:2.2.8.c", fresh, lambda s: E.GameOver(0, None, "ann")),
]


def check_fired_by(case: Case) -> str | None:
    """The name of the check that judged the case's event first (None if it was accepted)."""
    state = case.state()
    rulings = judged(state, case.event(state))
    return rulings[0].check if rulings else None


@pytest.mark.parametrize("case", CASES, ids=[c.check for c in CASES])
def test_rule_check_fires(case: Case) -> None:
    state = case.state()
    event = case.event(state)
    rulings = judged(state, event)
    assert rulings, f"{event} was accepted"
    assert (rulings[0].rule, rulings[0].check) == (case.rule, case.check)


def test_every_check_has_a_case() -> None:
    checks = {c.name for a in GAME.book.actions.values() for c in a.checks}
    assert checks == {c.check for c in CASES}


# ----------------------------------------------------------------- decisions (docs/ttcg-decisions.rst)


def points(state: TtcgState) -> tuple[int, int]:
    return state.sides["ann"].points, state.sides["ben"].points


def test_d1_points_count_down_and_the_game_ends_at_zero() -> None:
    """Decision 1 (2.2.8.a-c): a destroyed creature costs its owner its level; no points left ends the game."""
    state = fresh(node="battle", fields={"ann": ["Ember Whelp"], "ben": ["Static Wisp"]})
    state.sides["ben"].points = 1
    ok(state, E.Attack(0, "ann", "Ember Whelp", None, E.Ref("Static Wisp", "ben")), E.Pass(0, "ann"), E.Pass(0, "ben"))
    assert points(state) == (20, 0)
    assert state.stage == "over" and state.winner == "ann"
    ok(state, E.Destroyed(0, None, "Static Wisp", "ben"), E.Points(0, None, "ben", 0), E.GameOver(0, None, "ann"))
    assert judged(state, E.Pass(0, "ann"))[0].rule == "ttcg:2.2.8.c"


def test_d2_a_tie_in_battle_destroys_nothing() -> None:
    """Decision 2 (2.2.7.g): neither creature is stronger, so neither is destroyed."""
    state = fresh(node="battle", fields={"ann": ["Murkfang Bat"], "ben": ["Ironroot Sentinel"]})
    state.sides["ann"].creatures[0].card.defn = CARDS["Murkfang Bat"]
    state.lasting.append(Lasting("set", "ann", "attack", 740, uids=(state.sides["ann"].creatures[0].card.uid,)))
    ok(state, E.Attack(0, "ann", "Murkfang Bat", None, E.Ref("Ironroot Sentinel", "ben")), E.Pass(0, "ann"), E.Pass(0, "ben"))
    assert state.destroyed_log == [] and points(state) == (20, 20)


def test_d2_the_weaker_attacker_is_destroyed() -> None:
    state = fresh(node="battle", fields={"ann": ["Pebble Imp"], "ben": ["Ember Whelp"]})
    ok(state, E.Attack(0, "ann", "Pebble Imp", None, E.Ref("Ember Whelp", "ben")), E.Pass(0, "ann"), E.Pass(0, "ben"))
    assert state.destroyed_log == [("ann", "Pebble Imp")] and points(state) == (19, 20)


def test_d3_there_is_no_untap_step() -> None:
    """Decision 3: a tapped card stays tapped into later turns; its Dormant effect is usable from the next turn."""
    state = fresh(fields={"ann": ["Static Wisp"]}, explicit=False)
    ok(state, E.Activate(0, "ann", "Static Wisp", 0), E.Choose(0, "ann", []))
    assert judged(state.copy(), E.Activate(0, "ann", "Static Wisp", 1))[0].rule == "ttcg:2.2.5.i.6.p2"
    ok(state, E.Draw(0, "ben", None), E.Phase(0, None, "end"), E.Draw(0, "ann", None))
    assert state.turn == 5 and state.sides["ann"].creatures[0].tapped
    ok(state, E.Activate(0, "ann", "Static Wisp", 1))
    assert judged(state.copy(), E.Activate(0, "ann", "Static Wisp", 1))[0].rule == "ttcg:2.2.5.i.6.p2"  # used: tapped anew


def test_d4_the_official_die_gives_even_faces_to_the_first_player_listed() -> None:
    for die, first in ((2, "ann"), (5, "ben")):
        state = _setup()
        ok(state, E.Roll(0, None, die))
        assert state.first == first


def test_d5_the_chain_resolves_last_in_first_out() -> None:
    """Decision 5 (2.1.ah, 2.2.5.d.p1): everything on the chain resolves when both pass, the last first."""
    state = fresh(fields={"ann": ["Gravelhide Boar", "Hush Veil"]})
    state.sides["ben"].points = 1
    ok(state, E.Activate(0, "ann", "Gravelhide Boar", 0), E.Activate(0, "ann", "Hush Veil", 1))
    assert [link.source.name for link in state.chain] == ["Gravelhide Boar", "Hush Veil"]
    ok(state, E.Pass(0, "ann"), E.Pass(0, "ben"))
    assert points(state) == (23, 1) and state.chain == []


def test_d5_simultaneous_triggers_resolve_in_reverse_order() -> None:
    """Two cards answer the same play: they join the chain in field order and resolve the other way round."""
    state = fresh(hands={"ann": ["Hush Veil"]}, fields={"ben": ["Stormherald", "Murkfang Bat"]})
    ok(state, E.Play(0, "ann", "Hush Veil"))
    assert [link.source.name for link in state.chain] == ["Stormherald", "Murkfang Bat"]
    ok(state, E.Pass(0, "ann"), E.Pass(0, "ben"))
    assert points(state) == (19, 20)  # Murkfang Bat first ...
    assert state.resolution is not None and state.resolution.need is not None and state.resolution.need.kind == "mill"  # ... then Stormherald


def test_d6_a_creature_counter_answers_in_the_opponents_turn() -> None:
    """Decision 6 (2.2.5.i.3 over 2.2.4.c.2): Rubble Giant counters a creature effect in ann's turn."""
    state = fresh(fields={"ann": ["Gravelhide Boar"], "ben": ["Rubble Giant"]})
    ok(state, E.Activate(0, "ann", "Gravelhide Boar", 0), E.Pass(0, "ann"), E.Activate(0, "ben", "Rubble Giant", 0),
       E.Pass(0, "ben"), E.Pass(0, "ann"))
    assert points(state) == (20, 19)  # the counter's cost paid, ann's gain countered


def test_d6_a_counter_does_nothing_to_an_effect_of_another_kind() -> None:
    state = fresh(fields={"ann": ["Hush Veil"], "ben": ["Rubble Giant"]})
    ok(state, E.Activate(0, "ann", "Hush Veil", 1), E.Pass(0, "ann"), E.Activate(0, "ben", "Rubble Giant", 0),
       E.Pass(0, "ben"), E.Pass(0, "ann"))
    assert points(state) == (21, 19)  # a magic card's effect is not a unit card's


def test_d7_magic_cards_use_any_effect_in_either_turn() -> None:
    """Decision 7 (2.2.4.b.2 over 2.2.5.i.1): a magic card's Normal effect in the opponent's turn."""
    state = fresh(fields={"ben": ["Hush Veil"]})
    ok(state, E.Pass(0, "ann"), E.Activate(0, "ben", "Hush Veil", 1), E.Pass(0, "ben"), E.Pass(0, "ann"))
    assert points(state) == (20, 21)


def test_d8_triggers_need_an_untapped_card_and_tap_it_passive_ones_do_not() -> None:
    """Decision 8 (2.2.5.e, 2.2.5.i.5, 2.2.5.i.7): Duskmire Shade's trigger taps it; a tapped one stays silent."""
    state = fresh(fields={"ann": ["Pyre Drake"], "ben": ["Duskmire Shade", "Gloomcap Wretch", "Rubble Giant", "Pebble Imp"]})
    ok(state, E.Activate(0, "ann", "Pyre Drake", 0), E.Pass(0, "ann"), E.Pass(0, "ben"),
       E.Choose(0, "ann", [E.Ref("Gloomcap Wretch", "ben")]))
    shade = state.sides["ben"].creatures[0]
    assert shade.tapped and [link.source.name for link in state.chain] == ["Duskmire Shade", "Gloomcap Wretch"]
    state = fresh(fields={"ann": ["Pyre Drake"], "ben": ["Rubble Giant", "Pebble Imp"]})
    state.sides["ben"].creatures[0].tapped = True
    ok(state, E.Activate(0, "ann", "Pyre Drake", 0), E.Pass(0, "ann"), E.Pass(0, "ben"), E.Choose(0, "ann", [E.Ref("Pebble Imp", "ben")]))
    assert [link.source.name for link in state.chain] == ["Rubble Giant"]  # Passive: tapped or not


def test_d8_a_card_leaving_the_field_answers_only_with_its_own_this_card_effects() -> None:
    """2.2.5.h.1, 2.2.5.h.3: Gloomcap Wretch draws only if untapped; Kiln Drake ignores its own destruction."""
    state = fresh(fields={"ann": ["Pyre Drake"], "ben": ["Gloomcap Wretch"]})
    state.sides["ben"].creatures[0].tapped = True
    ok(state, E.Activate(0, "ann", "Pyre Drake", 0), E.Pass(0, "ann"), E.Pass(0, "ben"),
       E.Choose(0, "ann", [E.Ref("Gloomcap Wretch", "ben")]))
    assert state.chain == []
    state = fresh(fields={"ann": ["Pyre Drake"], "ben": ["Kiln Drake"]})
    ok(state, E.Activate(0, "ann", "Pyre Drake", 0), E.Pass(0, "ann"), E.Pass(0, "ben"), E.Choose(0, "ann", [E.Ref("Kiln Drake", "ben")]))
    assert state.chain == [] and points(state) == (20, 18)


def test_d9_levelling_up_counts_as_a_play_and_keeps_to_one_rank_more() -> None:
    """Decision 9 (2.2.3.a.2.a, 2.2.6.b): a level up is one of the two plays; permissions lift the type only."""
    state = fresh(hands={"ann": ["Kiln Drake", "Bloomcaller Dryad", "Grove Warden", "Mire Tentacle"]},
                  fields={"ann": ["Ember Whelp", "Mossback Golem"]})
    assert judged(state.copy(), E.Play(0, "ann", "Grove Warden", E.Ref("Mossback Golem")))[0].rule == "ttcg:2.2.6.b"
    ok(state, E.Play(0, "ann", "Kiln Drake", E.Ref("Ember Whelp")), E.Play(0, "ann", "Bloomcaller Dryad", E.Ref("Mossback Golem")))
    assert judged(state, E.Play(0, "ann", "Mire Tentacle"))[0].check == "two_plays"


def test_d9_magic_cards_level_up_magic_cards() -> None:
    state = fresh(hands={"ann": ["Time Fold", "Grave Pact"]}, fields={"ann": ["Hush Veil", "Pebble Imp"]})
    assert judged(state.copy(), E.Play(0, "ann", "Time Fold", E.Ref("Pebble Imp")))[0].rule == "ttcg:2.2.6.b"
    ok(state, E.Play(0, "ann", "Time Fold", E.Ref("Hush Veil")))


def test_d9_a_lowered_rank_is_the_rank_a_level_up_builds_on() -> None:
    state = fresh(hands={"ann": ["Gravelhide Boar"]}, fields={"ann": ["Pebble Imp"]})
    state.lasting.append(Lasting("boost", "ben", "rank", -1, uids=(state.sides["ann"].creatures[0].card.uid,)))
    ok(state, E.Play(0, "ann", "Gravelhide Boar", E.Ref("Pebble Imp")))


def test_d10_numbers_printed_on_magic_cards_change_nothing() -> None:
    state = fresh(fields={"ann": ["Pebble Imp", "Arc Lance"]})
    state.sides["ann"].magic[0].equipped_to = state.sides["ann"].creatures[0].id
    assert B.stat(state, state.sides["ann"].creatures[0], "attack") == 90 + 120  # the Equip effect, not the printed 40
    assert B.stat(state, state.sides["ann"].creatures[0], "defense") == 410


def test_d11_the_hand_limit_is_met_at_the_end_of_the_turn_only() -> None:
    """Decision 11 (2.2.10.a, 2.2.10.b): eleven cards are fine in the Main Phase, not when the turn ends."""
    state = _over_ten(["Kiln Drake"])
    state.node = "main"
    ok(state, E.Pass(0, "ann"), E.Pass(0, "ben"))
    assert state.node == "battle"
    state.node = "end"
    assert judged(state.copy(), E.Pass(0, "ann"))[0].rule == "ttcg:2.2.10.b"
    ok(state, E.Discard(0, "ann", "Kiln Drake"), E.Discard(0, "ann", "Ember Whelp"), E.Pass(0, "ann"), E.Pass(0, "ben"))
    assert state.active == "ben" and len(state.sides["ann"].hand) == 10


def test_d12_an_empty_deck_costs_five_points_at_the_draw_phase_only() -> None:
    """Decision 12 (2.2.11.a, 2.2.11.b): an effect's draw from an empty deck just draws nothing."""
    state = fresh(fields={"ann": ["Pebble Imp"]}, explicit=False)
    state.sides["ann"].deck.hidden = 0
    ok(state, E.Activate(0, "ann", "Pebble Imp", 1), E.Phase(0, None, "battle"))
    assert points(state) == (20, 20)
    ok(state, E.Draw(0, "ben", None), E.Phase(0, None, "end"), E.Phase(0, None, "main"))
    assert state.active == "ann" and points(state) == (15, 20)


def test_d13_equipment_is_attached_as_it_is_played_and_goes_with_its_creature() -> None:
    """Decision 13 (2.2.5.i.4, 2.2.5.i.4.a): Arc Lance is destroyed with the creature it is attached to."""
    state = fresh(hands={"ann": ["Arc Lance"]}, fields={"ann": ["Ember Whelp"], "ben": ["Pyre Drake"]}, explicit=False)
    ok(state, E.Play(0, "ann", "Arc Lance", None, E.Ref("Ember Whelp")))
    assert B.stat(state, state.sides["ann"].creatures[0], "attack") == 365 + 120
    ok(state, E.Draw(0, "ben", None), E.Activate(0, "ben", "Pyre Drake", 0), E.Pass(0, "ben"), E.Pass(0, "ann"),
       E.Choose(0, "ben", [E.Ref("Ember Whelp", "ann")]))
    assert state.destroyed_log == [("ann", "Ember Whelp"), ("ann", "Arc Lance")] and points(state) == (19, 20)


def test_d13_a_levelled_up_equip_card_is_no_longer_attached() -> None:
    state = fresh(hands={"ann": ["Time Fold"]}, fields={"ann": ["Ember Whelp", "Arc Lance"]})
    state.sides["ann"].magic[0].equipped_to = state.sides["ann"].creatures[0].id
    ok(state, E.Play(0, "ann", "Time Fold", E.Ref("Arc Lance")))
    assert state.sides["ann"].magic[0].equipped_to is None


def test_d14_a_card_discarded_from_the_field_takes_its_pile_and_costs_no_points() -> None:
    state = fresh(fields={"ann": ["Kiln Drake"]})
    state.sides["ann"].creatures[0].under.append(state.new_card("Ember Whelp", "ann", CARDS["Ember Whelp"]))
    ok(state, E.Activate(0, "ann", "Kiln Drake", 1))
    assert state.sides["ann"].creatures == [] and sorted(state.sides["ann"].discard.names()) == ["Ember Whelp", "Kiln Drake"]
    assert points(state) == (20, 20) and state.destroyed_log == []


def test_d16_cards_under_others_work_only_where_their_text_says_so() -> None:
    """Decision 16 (2.2.6.e, 2.2.5.b): Quarry Colossus beneath another card boosts golems; Brine Skitter beneath does not."""
    state = fresh(fields={"ann": ["Bastion Hulk", "Pebble Imp"]})
    hulk = state.sides["ann"].creatures[0]
    hulk.under.append(state.new_card("Quarry Colossus", "ann", CARDS["Quarry Colossus"]))
    assert B.stat(state, state.sides["ann"].creatures[1], "defense") == 410 + 75
    hulk.under = [state.new_card("Brine Skitter", "ann", CARDS["Brine Skitter"])]
    assert B.stat(state, state.sides["ann"].creatures[1], "defense") == 410


def test_d17_a_latent_effect_while_dormant_never_applies() -> None:
    """Decision 17 (2.2.5.i.5): Latent wants the card untapped, 'dormant' means tapped: Lantern Moth's boost never holds."""
    state = fresh(fields={"ann": ["Lantern Moth"]})
    moth = state.sides["ann"].creatures[0]
    assert B.stat(state, moth, "attack") == 195
    moth.tapped = True
    assert B.stat(state, moth, "attack") == 195


def test_d18_undefined_effect_types_and_unmodelled_steps_are_unverifiable() -> None:
    state = fresh(fields={"ann": ["Voidcaller", "Sparkjaw"]})
    rulings = GAME.apply(state.copy(), E.Activate(0, "ann", "Voidcaller", 0))
    assert rulings[0].violation.severity == "unverifiable" and "Overload" in rulings[0].violation.message
    state.sides["ann"].discard.add(state.new_card("Voltfang Stalker", "ann", CARDS["Voltfang Stalker"]))
    ok(state, E.Activate(0, "ann", "Sparkjaw", 0), E.Pass(0, "ann"))
    rulings = GAME.apply(state, E.Pass(0, "ben"))
    assert rulings[0].violation.severity == "unverifiable" and "Sparkjaw" in rulings[0].violation.message


def test_d19_for_the_next_turns_counts_turns_after_this_one() -> None:
    """Decision 19: 'for the next two turns' lasts to the end of the second turn after this one."""
    state = fresh(fields={"ann": ["Last Stand", "Glimmer Knight"]})
    ok(state, E.Activate(0, "ann", "Last Stand", 0), E.Pass(0, "ann"), E.Pass(0, "ben"))
    knight = state.sides["ann"].creatures[0].card
    assert B.indestructible(state, knight, "effect")
    for turn in (4, 5):
        state.turn = turn
        GAME._expire_turn_end(state)
    assert not B.indestructible(state, knight, "effect")


def test_d20_the_first_player_is_known_before_the_opening_hands() -> None:
    state = _setup()
    assert judged(state.copy(), E.Draw(0, "ann", None))[0].rule == "ttcg:2.2.2.b"
    ok(state, E.Shuffle(0, "ann"), E.First(0, None, "ben"), *[E.Draw(0, p, None) for p in ("ann", "ben") for _ in range(7)])
    assert state.stage == "turn" and state.active == "ben" and state.turn == 1


def test_d21_a_skipped_turn_passes_as_a_turn() -> None:
    state = fresh(fields={"ann": ["Cavern Lurker"]}, explicit=False)
    ok(state, E.Activate(0, "ann", "Cavern Lurker", 0), E.Phase(0, None, "battle"), E.Draw(0, "ben", None))
    assert state.sides["ann"].skips == 1
    ok(state, E.Phase(0, None, "end"), E.Draw(0, "ben", None))
    assert state.active == "ben" and state.turn == 6


def test_d22_a_direct_attack_costs_the_attackers_level() -> None:
    state = fresh(node="battle", fields={"ann": ["Quarry Colossus"]})
    ok(state, E.Attack(0, "ann", "Quarry Colossus"), E.Pass(0, "ann"), E.Pass(0, "ben"))
    assert points(state) == (20, 18)


def test_d23_exactly_needs_the_full_number() -> None:
    """2.1.al: Bastion Hulk destroys exactly two rank 3 knights or nothing."""
    state = fresh(fields={"ann": ["Bastion Hulk"], "ben": ["Prism Warden"]})
    ok(state, E.Activate(0, "ann", "Bastion Hulk", 1), E.Pass(0, "ann"), E.Pass(0, "ben"))
    assert state.resolution is None and state.destroyed_log == []


def test_d25_an_effect_whose_card_left_the_field_does_nothing() -> None:
    """Decision 25 (2.2.5.d.p2): Gravelhide Boar's gain is lost when Arc Lance destroys the Boar first; Arc Lance's own cost does not stop it."""
    state = fresh(fields={"ann": ["Static Wisp", "Arc Lance"]})
    ok(state, E.Activate(0, "ann", "Static Wisp", 0), E.Activate(0, "ann", "Arc Lance", 1), E.Pass(0, "ann"), E.Pass(0, "ben"),
       E.Choose(0, "ann", [E.Ref("Static Wisp", "ann")]))
    assert state.fizzled == 1 and state.destroyed_log == [("ann", "Arc Lance"), ("ann", "Static Wisp")]
    assert state.sides["ann"].creatures[0:] == [] and state.resolution is None


def test_d15_destroy_is_defined_twice_and_read_once() -> None:
    assert any(set(ids) == {"2.1.r", "2.1.ai"} for ids, _why in GAME.book.contradictions)
    assert "2.1.r" in GAME.book.encoded_ids()


def test_d24_a_dormant_effect_is_used_once_a_turn() -> None:
    state = _tapped("Static Wisp")()
    ok(state, E.Activate(0, "ann", "Static Wisp", 1))
    assert state.sides["ann"].creatures[0].tapped_turn == state.turn
    assert judged(state, E.Activate(0, "ann", "Static Wisp", 1))[0].check == "dormant_not_same_turn"


def test_d26_continuous_effects_and_rank_ups_asked_by_effects() -> None:
    state = fresh(fields={"ann": ["Quake Sigil", "Pebble Imp"]})
    imp = state.sides["ann"].creatures[0]
    ok(state, E.Activate(0, "ann", "Quake Sigil", 1))
    assert state.chain == [] and B.stat(state, imp, "attack") == 90 + 40
    state = fresh(hands={"ann": ["Quarry Colossus", "Mire Tentacle", "Gloomcap Wretch"]}, fields={"ann": ["Ember Whelp"]})
    state.flags.plays = 1
    ok(state, E.Activate(0, "ann", "Ember Whelp", 0), E.Pass(0, "ann"), E.Pass(0, "ben"))
    assert state.resolution is not None and state.resolution.need is not None and state.resolution.need.kind == "rank_up"
    ok(state, E.Play(0, "ann", "Quarry Colossus", E.Ref("Ember Whelp")))
    assert state.sides["ann"].creatures[0].card.name == "Quarry Colossus" and state.flags.plays == 1
    ok(state, E.Play(0, "ann", "Mire Tentacle"))
    assert judged(state, E.Play(0, "ann", "Gloomcap Wretch"))[0].check == "two_plays"


def test_a_move_that_lets_an_optional_rank_up_go_is_offered_after_the_decline_it_stands_for() -> None:
    """The verifier reads a move made while an effect allows a rank up as letting it go (a
    ``decline``), so mutation testing must find such a move offered: a log that leaves the
    ``decline`` out is legal, not a miss of legal_moves."""
    state = fresh(hands={"ann": ["Quarry Colossus"]}, fields={"ann": ["Ember Whelp", "Quake Sigil"]})
    ok(state, E.Activate(0, "ann", "Ember Whelp", 0), E.Pass(0, "ann"), E.Pass(0, "ben"))
    assert state.resolution is not None and state.resolution.need is not None and state.resolution.need.optional
    move = E.Activate(0, "ann", "Quake Sigil", 1)
    assert move not in GAME.legal_moves(state) and GAME.offers(state, move)
    ok(state.copy(), move)
    assert not GAME.offers(state, E.Activate(0, "ann", "Ember Whelp", 0))  # tapped: refused after the decline too


def test_every_decision_is_pinned_by_its_tests() -> None:
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "ttcg-decisions.rst").read_text(encoding="utf-8")
    numbers = [int(n) for n in re.findall(r"^(\d+)\. ", text, re.MULTILINE)]
    assert numbers == list(range(1, len(numbers) + 1))
    pinned = re.findall(r"``(test_d\d+_\w+)``", text)
    for number in numbers:
        assert any(name.startswith(f"test_d{number}_") for name in pinned), f"decision {number} names no test"
    for name in pinned:
        assert callable(globals().get(name)), f"{name} is not a test of this module"
    index = GAME.book.index
    for line in re.findall(r"^\*\*Rules:\*\*(.*)$", text, re.MULTILINE):
        for rule in re.findall(r"\d+(?:\.[0-9a-z]+)+", line):
            assert rule in index, f"the decisions cite {rule}, which is not in the rule index"


# ----------------------------------------------------------------- never silently legal, bad input


def _replay(tmp_path: Any, events: list[str], cards: Any = "ttcg/base") -> Any:
    import json

    from verifier.verify import verify_file

    header = {"replay": 1, "game": "ttcg", "ruleset": "ttcg/1", "players": ["ann", "ben"], "decks": {"ann": None, "ben": None},
              "cards": cards, "options": {"passes": "implicit"}}
    opening = [json.dumps({"seq": 1, "do": "first", "player": "ann"})]
    opening += [json.dumps({"seq": i + 2, "do": "draw", "by": p, "card": None}) for i, p in enumerate(["ann"] * 7 + ["ben"] * 7)]
    body = [line.replace('"seq": 0', f'"seq": {16 + i}') for i, line in enumerate(events)]
    path = tmp_path / "replay.jsonl"
    path.write_text("\n".join([json.dumps(header), *opening, *body]) + "\n", encoding="utf-8")
    return verify_file(path)


def test_a_card_whose_text_does_not_parse_is_unverifiable_and_named(tmp_path: Any) -> None:
    cards = [{"name": "Odd Newt", "type": "Unit (Water)", "text": "Frobnicate the moon.\nDraw one card.",
              "stats": {"attack": 100, "defense": 100}}]
    report = _replay(tmp_path, ['{"seq": 0, "do": "play", "by": "ann", "card": "Odd Newt"}'], cards)
    assert report.verdict == "unverifiable"
    assert any("Odd Newt" in f.message for f in report.findings)


def test_an_unknown_card_or_action_is_reported_never_legal(tmp_path: Any) -> None:
    report = _replay(tmp_path, ['{"seq": 0, "do": "play", "by": "ann", "card": "Nowhere Card"}'])
    assert report.verdict == "unverifiable" and "Nowhere Card" in report.findings[0].message
    report = _replay(tmp_path, ['{"seq": 0, "do": "summon", "by": "ann", "card": "Pebble Imp"}'])
    assert report.verdict == "malformed" and report.findings[0].line == 17
    report = _replay(tmp_path, ['{"seq": 0, "do": "play", "by": "ann", "card": "Pebble Imp", "face": "down"}'])
    assert report.verdict == "malformed" and report.findings[0].line == 17


def test_an_undefined_effect_type_in_a_log_is_unverifiable(tmp_path: Any) -> None:
    report = _replay(tmp_path, ['{"seq": 0, "do": "play", "by": "ann", "card": "Grave Pact"}'])
    assert report.verdict == "illegal"  # rank 2: it needs a card to level up (2.2.6.a)
    report = _replay(tmp_path, ['{"seq": 0, "do": "play", "by": "ann", "card": "Gloomcap Wretch"}',
                                '{"seq": 0, "do": "play", "by": "ann", "card": "Voidcaller", "on": {"card": "Gloomcap Wretch"}}'])
    assert report.verdict == "illegal" and report.findings[0].rule == "ttcg:2.2.6.b"  # rank 3 on rank 1


def test_a_registered_deck_is_checked_and_revealed_cards_must_fit_it(tmp_path: Any) -> None:
    import json

    from verifier.verify import verify_file

    deck = {"deck": {name: 2 for name in sorted(c.name for c in CARDS)[:24]}}
    header = {"replay": 1, "game": "ttcg", "ruleset": "ttcg/1", "players": ["ann", "ben"], "decks": {"ann": deck, "ben": deck},
              "cards": "ttcg/base"}
    path = tmp_path / "decks.jsonl"
    path.write_text(json.dumps(header) + "\n", encoding="utf-8")
    report = verify_file(path)
    assert report.verdict == "illegal" and report.findings[0].rule == "ttcg:2.2.1.a"
    deck = {"deck": {name: 3 if i == 0 else 2 for i, name in enumerate(sorted(c.name for c in CARDS)[:25])}}
    header["decks"] = {"ann": deck, "ben": None}
    path.write_text(json.dumps(header) + "\n", encoding="utf-8")
    report = verify_file(path)
    assert report.verdict == "illegal" and report.findings[0].rule == "ttcg:2.2.1.b"
    deck = {"deck": {name: 2 for name in sorted(c.name for c in CARDS)[:25]}}
    header["decks"] = {"ann": deck, "ben": None}
    outside = sorted(c.name for c in CARDS)[30]
    lines = [json.dumps(header), json.dumps({"seq": 1, "do": "first", "player": "ann"}),
             json.dumps({"seq": 2, "do": "draw", "by": "ann", "card": outside})]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = verify_file(path)
    assert report.verdict == "inconsistent" and report.findings[0].rule == "ttcg:2.2.1.b"


def test_a_random_deck_from_a_pool_rich_in_rank_1_cards_keeps_within_the_deck_size() -> None:
    """Forty rank 1 Units, two copies each, would make 80 cards: the deck builder takes only
    as many as the size it drew allows (2.2.1.a), and the deck passes the construction check."""
    import random

    from spec.core.cards import CardDef

    pool = [CardDef(name=f"Pebble Sprite {i}", type="Unit (Earth)", level=1, cost=1, traits=["Golem"],
                    stats={"attack": 100, "defense": 100}, text="Draw one card.") for i in range(40)]
    cards = CardDatabase("ttcg/rich", "ttcg", 1, pool)
    for seed in range(20):
        deck = GAME.random_deck(cards, random.Random(seed))
        assert 50 <= sum(deck["deck"].values()) <= 70 and max(deck["deck"].values()) <= 2
        setup = Setup(("ann", "ben"), {"ann": deck, "ben": deck}, {}, cards)
        GAME.setup(setup)
        assert not [r for r in setup.rulings if r.violation.severity != "info"], setup.rulings


# ----------------------------------------------------------------- decisions 27 and 28 (issue 6)


def test_d27_clashes_are_settled_by_the_policy_or_left_unverifiable() -> None:
    from spec.ttcg.state import Lasting

    state = fresh(fields={"ann": ["Gravelhide Boar"], "ben": ["Mire Tentacle"]}, node="battle")
    restrict(state, state.sides["ben"].creatures[0], "be destroyed")
    found: list[Ruling] = []
    for event in (E.Attack(0, "ann", "Gravelhide Boar", None, E.Ref("Mire Tentacle", "ben")), E.Pass(0, "ann"), E.Pass(0, "ben")):
        found += GAME.apply(state, event)
    assert state.sides["ben"].creatures and [r.rule for r in found if r.check == "conflicts"] == ["ttcg:2.1.aj"]
    assert [r.rule for r in judged(state, E.Destroyed(0, None, "Mire Tentacle", "ben"))] == ["ttcg:2.1.aj"]
    gap = fresh(fields={"ann": ["Mire Tentacle"]})
    uid = gap.sides["ann"].creatures[0].card.uid
    gap.lasting += [Lasting("set", "ann", "attack", 100, uids=(uid,), order=1), Lasting("set", "ben", "attack", 500, uids=(uid,), order=2)]
    assert [r.violation.severity for r in GAME.conflicts_met(gap, {})] == ["unverifiable"]


def test_d28_a_copy_more_than_the_deck_holds_is_explained_from_the_journal() -> None:
    state = fresh()
    state.sides["ann"].knowledge.registered = __import__("collections").Counter({"Mire Tentacle": 1})
    state.sides["ann"].knowledge.now = 9
    assert GAME.draw(state, "ann", "Mire Tentacle") == []
    state.sides["ann"].knowledge.now = 10
    found = GAME.draw(state, "ann", "Mire Tentacle")
    assert [(r.rule, r.violation.severity) for r in found] == [("ttcg:2.2.1.b", "inconsistent")]
    assert "holds 1 copy of Mire Tentacle" in found[0].violation.message and "at seq 9, ann drew Mire Tentacle" in found[0].violation.message
    assert state.sides["ann"].knowledge.marks == 0


def test_a_choice_among_cards_in_play_is_offered_whichever_cards_it_picks() -> None:
    """legal_moves samples a few picks for a choice among cards in play; ``offers`` (what
    mutation testing asks of a mutant the verifier accepts) takes any pick legal_moves could
    have listed: distinct cards of its pool, as many as the choice allows, judged legal.
    A recorded legal pick outside the sample was counted a miss before."""
    from spec.ttcg.corpus import replay_states
    from spec.ttcg.effects import Choice
    from verifier.simulate import simulate

    def outside_the_sample(state: TtcgState, event: Any) -> bool:
        """A recorded pick of one card among more than three in play that legal_moves did not list."""
        need = state.resolution.need if state.resolution is not None else None
        if type(event) is not E.Choose or need is None or not isinstance(need.detail, Choice) \
                or need.detail.zone in ("deck", "hand", "revealed") or (need.detail.low, need.detail.high) != (1, 1) \
                or len(GAME._pool_refs(state, need.detail)) <= 3:
            return False
        key = GAME.choice_key(event)
        return not any(GAME.choice_key(move) == key for move in GAME.legal_moves(state))

    state, event = next((s.copy(), e) for seed in range(1, 6) for s, e, _raw in replay_states(simulate("ttcg", seed, passes="explicit"))
                        if outside_the_sample(s, e))
    need = state.resolution.need if state.resolution is not None else None
    assert need is not None and isinstance(need.detail, Choice)
    assert GAME.offers(state, event)
    pool = GAME._pool_refs(state, need.detail)
    assert len(pool) > 3 and all(GAME.offers(state, E.Choose(0, event.by, [ref])) for ref in pool)
    assert not GAME.offers(state, E.Choose(0, event.by, pool[:2]))  # more cards than the choice allows
    assert not GAME.offers(state, E.Choose(0, event.by, []))  # fewer
    assert not GAME.offers(state, E.Choose(0, event.by, [E.Ref("No Such Card", event.by)]))  # not in the pool
    assert not GAME.offers(state, E.Choose(0, "nobody", [pool[0]]))  # not the chooser: legal_moves lists none


def test_d29_a_card_named_without_its_slot_where_two_share_the_name_is_the_first() -> None:
    """ranks-20 with two plays swapped: a second Hush Veil comes first, then Time Fold ranks
    up "Hush Veil" with no slot. The verifier takes the first pile of that name, and
    ``offers`` (mutation testing's oracle) reads the event the same way: before, this
    legal mutant was counted a miss."""
    import json
    from pathlib import Path

    import msgspec

    from spec.ttcg.corpus import replay_states

    lines = (Path(__file__).resolve().parents[1] / "replays" / "ttcg" / "legal" / "ranks-20.jsonl").read_bytes().splitlines()
    at = next(i for i, line in enumerate(lines) if json.loads(line).get("seq") == 52)
    lines[at], lines[at + 1] = lines[at + 1].replace(b'"seq":53', b'"seq":52'), lines[at].replace(b'"seq":52', b'"seq":53')
    state, event = next((s.copy(), e) for s, e, raw in replay_states(lines) if raw["seq"] == 53)
    assert type(event) is E.Play and event.on == E.Ref("Hush Veil")
    veils = [i for i, pile in enumerate(state.sides["alice"].magic) if pile.card.name == "Hush Veil"]
    assert len(veils) == 2  # the name alone does not say which
    assert GAME.offers(state, event)
    assert not GAME.offers(state, msgspec.structs.replace(event, on=E.Ref("Hush Veil", None, 7)))  # no such slot
    rulings = GAME.apply(state, event)
    assert not [r for r in rulings if r.violation.severity != "info"]
    assert [state.sides["alice"].magic[i].card.name for i in veils] == ["Time Fold", "Hush Veil"]
    # and the judge is told that the log left it open, citing the rule the pile matters to
    notes = [r for r in rulings if r.check == "unslotted"]
    assert [(r.rule, r.violation.severity) for r in notes] == [("ttcg:2.2.6.b", "info")]
    assert f"slot {veils[0]}" in notes[0].violation.message and "decision 29" in notes[0].violation.message


def test_d29_an_attacker_or_target_named_without_its_slot_is_the_first_and_noted() -> None:
    """Two Gravelhide Boars, the first of which has attacked: an attack naming the Boar with
    no slot is the first Boar's, refused (2.2.7.b), with a note that the log named no slot;
    with its slot the second Boar attacks, and no note is made. A target named without its
    slot among two Mire Tentacles is noted too (2.2.7.c); a name held once is not."""
    state = fresh(node="battle", fields={"ann": ["Gravelhide Boar", "Gravelhide Boar"], "ben": ["Mire Tentacle", "Mire Tentacle"]})
    state.flags.attacked.add(state.sides["ann"].creatures[0].id)
    target = E.Ref("Mire Tentacle", "ben", 0)
    rulings = GAME.apply(state.copy(), E.Attack(0, "ann", "Gravelhide Boar", None, target))
    assert [(r.rule, r.check) for r in rulings] == [("ttcg:2.2.7.b", "attack_once"), ("ttcg:2.2.7.b", "unslotted")]
    assert "slot 0" in rulings[1].violation.message and rulings[1].violation.severity == "info"
    assert GAME.apply(state.copy(), E.Attack(0, "ann", "Gravelhide Boar", 1, target)) == []
    rulings = GAME.apply(state.copy(), E.Attack(0, "ann", "Gravelhide Boar", 1, E.Ref("Mire Tentacle", "ben")))
    assert [(r.rule, r.violation.severity) for r in rulings] == [("ttcg:2.2.7.c", "info")]
    state.sides["ben"].creatures.pop()
    assert GAME.apply(state.copy(), E.Attack(0, "ann", "Gravelhide Boar", 1, E.Ref("Mire Tentacle", "ben"))) == []


def test_d29_an_activated_or_equipped_card_named_without_its_slot_is_noted_with_its_rule() -> None:
    """The note cites the rule the pile matters to: the card an activation taps (2.2.5.f.1
    for a creature, 2.2.5.g.1 for a magic card) and the creature an equip card goes on
    (2.2.5.i.4). With the slot given there is no note."""
    state = fresh(hands={"ann": ["Arc Lance"]}, fields={"ann": ["Gravelhide Boar", "Gravelhide Boar", "Hush Veil", "Hush Veil"]})

    def noted(event: Any) -> list[str | None]:
        return [r.rule for r in GAME.apply(state.copy(), event) if r.check == "unslotted"]

    assert noted(E.Activate(0, "ann", "Gravelhide Boar", 0)) == ["ttcg:2.2.5.f.1"]
    assert noted(E.Activate(0, "ann", "Hush Veil", 0)) == ["ttcg:2.2.5.g.1"]
    assert noted(E.Activate(0, "ann", "Hush Veil", 0, 1)) == []
    assert noted(E.Play(0, "ann", "Arc Lance", None, E.Ref("Gravelhide Boar"))) == ["ttcg:2.2.5.i.4"]
    assert noted(E.Play(0, "ann", "Arc Lance", None, E.Ref("Gravelhide Boar", None, 1))) == []


def test_d29_an_attacker_named_without_its_slot_is_offered_as_the_first() -> None:
    """``offers`` (mutation testing's oracle) reads an attack naming one of two same-named
    creatures without a slot as the verifier does: the first one's attack, which
    legal_moves lists with slot 0."""
    state = fresh(node="battle", fields={"ann": ["Gravelhide Boar", "Gravelhide Boar"]})
    assert E.Attack(0, "ann", "Gravelhide Boar", 0, None) in GAME.legal_moves(state)
    assert GAME.offers(state, E.Attack(0, "ann", "Gravelhide Boar", None, None))


def test_lint_names_a_rank_up_it_cannot_carry_out_before_play() -> None:
    """``unsupported`` names a step the spec does not carry out whatever the state, so lint
    notes the card and the simulator leaves it out; the handler raises the same reason. A
    rank up an effect carries out may use a card from the hand or the deck (decision 32); an
    always-on permission may not use the deck (a play in the Main Phase comes from the hand),
    and no rank up uses the discard pile."""
    from spec.core.cards import CardDef

    stats = {"rank": "1", "attack": "100", "defense": "100", "element": "Water"}
    texts = {
        "Deep Climber": ("Rank up this creature using a creature from your deck.", None),
        "Shore Climber": ("Rank up this creature using a water creature.", None),
        "Grave Climber": ("Rank up this creature using a creature from your discard pile.",
                          "ranking up with a card from the discard pile is not modelled"),
        "Tide Climber": ("Continuous: While this card is under another, nature cards can rank up using nature cards from your deck.",
                         "an always-on permission to rank up with a card from the deck is not modelled"),
    }
    cards = CardDatabase("test", "ttcg", 1, [CardDef(n, "Unit (Water)", t, stats=stats) for n, (t, _) in texts.items()])
    for name, (_, reason) in texts.items():
        assert GAME.unsupported(cards, name) == reason, name


def test_d32_a_rank_up_with_a_card_from_the_deck_takes_it_out_of_the_deck() -> None:
    from collections import Counter

    from spec.core.cards import CardDef

    cards = CardDatabase("ttcg/climb", "ttcg", 1, [
        *CARDS, CardDef("Deep Climber", "Unit (Water)", "Rank up this creature using a creature from your deck.", level=1, cost=1,
                        traits=["Naiad"], stats={"attack": 100, "defense": 100})])

    def climbing(copies: int) -> TtcgState:
        state = fresh(fields={"ann": ["Deep Climber"]}, hands={"ann": ["Pebble Imp"]}, cards=cards)
        state.sides["ann"].knowledge.registered = Counter({"Deep Climber": 1, "Pebble Imp": 1, "Bastion Hulk": 1,
                                                           "Tidecaller Naida": copies})
        ok(state, E.Activate(0, "ann", "Deep Climber", 0), E.Pass(0, "ann"), E.Pass(0, "ben"))
        assert state.resolution is not None and state.resolution.need is not None
        assert state.resolution.need.kind == "rank_up"
        return state

    state = climbing(1)
    ann = state.sides["ann"]
    deck, hand = len(ann.deck), len(ann.hand)
    ranked = {m.card for m in GAME.legal_moves(state) if isinstance(m, E.Play)}
    assert ranked == {"Tidecaller Naida"}  # rank 2, and the decklist holds it
    found = judged(state.copy(), E.Play(0, "ann", "Bastion Hulk", E.Ref("Deep Climber")))
    assert found and found[0].rule == "ttcg:2.2.6.b"  # rank 4 on rank 1
    ok(state, E.Play(0, "ann", "Tidecaller Naida", E.Ref("Deep Climber")))
    assert ann.creatures[0].card.name == "Tidecaller Naida" and [c.name for c in ann.creatures[0].under] == ["Deep Climber"]
    assert (len(ann.deck), len(ann.hand)) == (deck - 1, hand) and ann.knowledge.located["Tidecaller Naida"] == 1
    state = climbing(0)  # a copy the decklist does not hold
    found = [r for r in GAME.apply(state, E.Play(0, "ann", "Tidecaller Naida", E.Ref("Deep Climber")))
             if r.violation.severity == "inconsistent"]
    assert found and found[0].rule == "ttcg:2.2.1.b" and "from the deck" in found[0].violation.message
    state = fresh(fields={"ann": ["Deep Climber"]}, hands={"ann": ["Tidecaller Naida"]}, cards=cards)
    state.sides["ann"].deck.hidden = 0  # an empty deck: nothing to rank up with (the hand does not count)
    ok(state, E.Activate(0, "ann", "Deep Climber", 0), E.Pass(0, "ann"), E.Pass(0, "ben"))
    assert state.resolution is None


# ----------------------------------------------------------------- decision 30: revealed cards

def _revealing(deck: dict[str, int] | None = None) -> TtcgState:
    """Ann's turn with two invented Golems on her field that turn up the top of her deck:
    Cairn Diviner reveals three cards and plays a golem among them, Cairn Seer looks at two
    and takes a golem among them into the hand. ``deck`` registers her decklist."""
    from spec.core.cards import CardDef

    stats = {"attack": 100, "defense": 100}
    cards = CardDatabase("ttcg/reveal", "ttcg", 1, [
        *CARDS,
        CardDef("Cairn Diviner", "Unit (Earth)", "Reveal the top three cards of your deck. Play one golem card from among them.",
                level=1, cost=1, traits=["Golem"], stats=stats),
        CardDef("Cairn Seer", "Unit (Earth)", "Look at the top two cards of your deck and add one golem card from among them "
                "to your hand.", level=1, cost=1, traits=["Golem"], stats=stats),
    ])
    state = fresh(fields={"ann": ["Cairn Diviner", "Cairn Seer"]}, cards=cards)
    if deck is not None:
        from collections import Counter

        knowledge = state.sides["ann"].knowledge
        knowledge.registered = Counter(deck)
    return state


def _resolve(state: TtcgState, card: str) -> None:
    """Use ``card``'s effect (untapped first, to use it again) and let it resolve."""
    for pile in state.sides["ann"].creatures:
        pile.tapped = False
    ok(state, E.Activate(0, "ann", card, 0), E.Pass(0, "ann"), E.Pass(0, "ben"))


def test_d30_revealed_cards_are_named_picked_from_and_put_back() -> None:
    state = _revealing()
    ann = state.sides["ann"]
    size = len(ann.deck)
    assert judged(state, E.Reveal(0, "ann", "Pebble Imp"))[0].rule == "ttcg:2.1.ac"  # no effect asks for it
    _resolve(state, "Cairn Diviner")
    assert state.resolution is not None and state.resolution.need is not None
    assert (state.resolution.need.kind, state.resolution.need.count) == ("reveal", 3)
    ok(state, E.Reveal(0, "ann", "Pebble Imp"), E.Reveal(0, "ann", "Ember Whelp"), E.Reveal(0, "ann", "Mossback Golem"))
    assert len(ann.deck) == size - 3 and ann.knowledge.located["Pebble Imp"] == 1
    ok(state, E.Choose(0, "ann", [E.Ref("Mossback Golem")]))
    assert state.resolution is None
    assert [p.card.name for p in ann.creatures] == ["Cairn Diviner", "Cairn Seer", "Mossback Golem"]
    assert len(ann.deck) == size - 1  # the two not taken went back, hidden again
    assert ann.knowledge.located["Pebble Imp"] == 0 and ann.knowledge.located["Ember Whelp"] == 0
    assert state.flags.plays == 0  # a play by an effect is no play of the turn (2.2.3.a.2.b)
    # none of the kind turned up: nothing to pick, and all go back
    _resolve(state, "Cairn Seer")
    ok(state, E.Reveal(0, "ann", "Ember Whelp"), E.Reveal(0, "ann", "Thornwhip Sprite"))
    assert state.resolution is None and len(ann.deck) == size - 1 and len(ann.hand) == 0
    # a look takes its golem into the hand
    _resolve(state, "Cairn Seer")
    ok(state, E.Reveal(0, "ann", "Pebble Imp"), E.Reveal(0, "ann", "Ember Whelp"), E.Choose(0, "ann", [E.Ref("Pebble Imp")]))
    assert ann.hand.names() == ["Pebble Imp"] and len(ann.deck) == size - 2


def test_d30_a_pick_outside_the_revealed_cards_or_of_another_kind_is_refused() -> None:
    state = _revealing()
    _resolve(state, "Cairn Diviner")
    ok(state, E.Reveal(0, "ann", "Pebble Imp"), E.Reveal(0, "ann", "Ember Whelp"), E.Reveal(0, "ann", "Thornwhip Sprite"))
    for name in ("Ember Whelp", "Mossback Golem"):  # not a golem; a golem not turned up
        found = judged(state, E.Choose(0, "ann", [E.Ref(name)]))
        assert found and found[0].rule == "ttcg:2.2.3.a.2.b" and "cannot be picked" in found[0].violation.message
    assert judged(state, E.Choose(0, "ann", []))[0].rule == "ttcg:2.2.3.a.2.b"  # one must be played
    assert judged(state, E.Pass(0, "ann"))  # the effect waits for the pick
    ok(state, E.Choose(0, "ann", [E.Ref("Pebble Imp")]))


def test_d30_a_reveal_must_name_its_card_and_a_look_the_log_cannot_name_is_unverifiable() -> None:
    state = _revealing({"Pebble Imp": 1, "Ember Whelp": 2})
    _resolve(state, "Cairn Diviner")
    found = judged(state, E.Reveal(0, "ann", None))
    assert found and found[0].rule == "ttcg:2.2.5.b" and "does not show" in found[0].violation.message
    ok(state, E.Reveal(0, "ann", "Pebble Imp"))
    found = judged(state, E.Reveal(0, "ann", "Pebble Imp"))  # a second copy the decklist does not hold
    assert found and found[0].rule == "ttcg:2.2.1.b" and found[0].violation.severity == "inconsistent"
    state = _revealing()
    size = len(state.sides["ann"].deck)
    _resolve(state, "Cairn Seer")
    ok(state, E.Reveal(0, "ann", "Pebble Imp"))
    rulings = GAME.apply(state, E.Reveal(0, "ann", None))
    assert [r.violation.severity for r in rulings] == ["unverifiable"] and "looked at" in rulings[0].violation.message
    assert state.resolution is None and len(state.sides["ann"].deck) == size  # given up, the card put back
    ok(state, E.Pass(0, "ann"))
    state = _revealing()
    state.sides["ann"].deck.hidden = 2
    _resolve(state, "Cairn Diviner")  # three to reveal, two in the deck
    assert state.resolution is not None and state.resolution.need is not None and state.resolution.need.count == 2


def test_d30_an_effect_given_up_after_a_reveal_puts_the_cards_back() -> None:
    """Decision 30: an effect the spec cannot follow past its reveal (a step it does not model)
    is unverifiable, and the cards turned up go back all the same; before, they were lost, the
    deck counted short, and a later draw could be refused as one from an empty deck."""
    from spec.core.cards import CardDef

    cards = CardDatabase("ttcg/swap", "ttcg", 1, [*CARDS, CardDef(
        "Tidal Trickster", "Unit (Water)", "Reveal the top two cards of your deck. Swap one hound card you control with "
        "one hound card from your discard pile.", level=1, cost=1, traits=["Naiad"], stats={"attack": 100, "defense": 100})])
    state = fresh(fields={"ann": ["Tidal Trickster"]}, cards=cards)
    deck = len(state.sides["ann"].deck)
    ok(state, E.Activate(0, "ann", "Tidal Trickster", 0), E.Pass(0, "ann"), E.Pass(0, "ben"), E.Reveal(0, "ann", "Pebble Imp"))
    rulings = GAME.apply(state, E.Reveal(0, "ann", "Ember Whelp"))
    assert [r.violation.severity for r in rulings] == ["unverifiable"] and "ttcg_swap" in rulings[0].violation.message
    assert state.resolution is None and len(state.sides["ann"].deck) == deck
    assert state.sides["ann"].knowledge.located["Pebble Imp"] == 0


def test_d30_the_real_reveal_cards_run_and_the_simulator_offers_their_events() -> None:
    """The three real cards that reveal the top of the deck pass lint, and at each step of such
    an effect legal_moves offers what the log may show: a reveal of any card the deck can
    still give, then a pick among the golems turned up only."""
    from pathlib import Path

    real = Path(__file__).resolve().parents[2] / "shared" / "cards" / "ttcg.dev.jsonl"
    if not real.exists():
        pytest.skip("../shared/cards is not beside the checkout")
    pool = CardDatabase.cached(real, "ttcg")
    for name in ("Gribbledigirf", "Crystalline Sky Turtle", "Peace By Fire"):
        assert GAME.unsupported(pool, name) is None, name
    state = _revealing({"Pebble Imp": 1, "Ember Whelp": 2, "Mossback Golem": 1})
    _resolve(state, "Cairn Diviner")
    offered = {m.card for m in GAME.legal_moves(state)}
    assert offered == {"Pebble Imp", "Ember Whelp", "Mossback Golem"}
    ok(state, E.Reveal(0, "ann", "Pebble Imp"))
    assert {m.card for m in GAME.legal_moves(state)} == {"Ember Whelp", "Mossback Golem"}
    ok(state, E.Reveal(0, "ann", "Ember Whelp"), E.Reveal(0, "ann", "Mossback Golem"))
    picks = {tuple(r.card for r in m.cards) for m in GAME.legal_moves(state)}
    assert picks == {("Pebble Imp",), ("Mossback Golem",)}


# ----------------------------------------------------------------- decision 31: prohibitions on players

def _edicts(explicit: bool = False) -> TtcgState:
    """Ann's turn 3 with invented Spells that forbid her opponent things for the next turn:
    Ash Edict (fire cards, then attacks) and Hush Edict (effects); ben's hand holds a fire
    and a dark card."""
    from spec.core.cards import CardDef

    cards = CardDatabase("ttcg/edicts", "ttcg", 1, [
        *CARDS,
        CardDef("Ash Edict", "Spell", "Your opponent cannot play fire cards next turn.\nYour opponent cannot attack next turn.",
                level=1, cost=1),
        CardDef("Hush Edict", "Spell", "Your opponent cannot activate their effects next turn.", level=1, cost=1),
        CardDef("Kiln Warden", "Unit (Earth)", "Reveal the top two cards of your deck. Play one card from among them.\n"
                "Play one card from your hand.", level=1, cost=1, traits=["Golem"], stats={"attack": 100, "defense": 100}),
    ])
    state = fresh(fields={"ann": ["Ash Edict", "Hush Edict"], "ben": ["Ember Whelp"]}, hands={"ben": ["Ember Whelp", "Gloomcap Wretch"]},
                  explicit=explicit, cards=cards)
    return state


def _to_bens_turn(state: TtcgState) -> None:
    ok(state, E.Phase(0, None, "battle"), E.Phase(0, None, "end"), E.Draw(0, "ben", None), E.Phase(0, None, "main"))
    assert state.active == "ben" and state.turn == 4


def test_d31_a_player_forbidden_to_play_a_kind_plays_none_of_it_for_the_turn_it_names() -> None:
    state = _edicts()
    ok(state, E.Activate(0, "ann", "Ash Edict", 0))
    _to_bens_turn(state)
    found = judged(state.copy(), E.Play(0, "ben", "Ember Whelp"))
    assert found and found[0].rule == "ttcg:2.2.5.b" and found[0].check == "play_not_prohibited"
    assert "cannot play fire cards" in found[0].violation.message
    ok(state.copy(), E.Play(0, "ben", "Gloomcap Wretch"))  # not fire
    # beyond the two plays: an extra play that names fire cards clashes with it, no rule settles that
    extra = state.copy()
    extra.flags.plays = 2
    extra.flags.extra.append((1, ("fire",)))
    found = [r for r in GAME.apply(extra.copy(), E.Play(0, "ben", "Ember Whelp")) if r.violation.severity != "info"]
    assert [r.violation.severity for r in found] == ["unverifiable"] and "decision 27" in found[0].violation.message
    extra.flags.extra[-1] = (1, ())  # an extra play of any card: the prohibition still holds
    assert judged(extra, E.Play(0, "ben", "Ember Whelp"))[0].check == "play_not_prohibited"
    state.turn = 4
    GAME._expire_turn_end(state)  # the end of the next turn: over
    ok(state, E.Play(0, "ben", "Ember Whelp"))


def test_d31_attacks_and_effects_forbidden_to_a_player() -> None:
    state = _edicts()
    ok(state, E.Activate(0, "ann", "Ash Edict", 1), E.Activate(0, "ann", "Hush Edict", 0))
    _to_bens_turn(state)
    found = judged(state.copy(), E.Activate(0, "ben", "Ember Whelp", 0))
    assert found and found[0].check == "activate_not_prohibited" and found[0].rule == "ttcg:2.2.5.b"
    ok(state, E.Phase(0, None, "battle"))
    found = judged(state.copy(), E.Attack(0, "ben", "Ember Whelp"))
    assert found and found[0].check == "attack_not_prohibited" and found[0].rule == "ttcg:2.2.5.b"


def test_d31_an_effect_does_not_play_a_card_its_player_is_forbidden_to_play() -> None:
    """A card an effect would play is held to the prohibition too: among revealed cards it
    cannot be picked, and a rank up the effect asks for cannot use it."""
    from spec.ttcg.state import Lasting

    state = _edicts()
    put(state, "ann", "Kiln Warden")
    state.lasting.append(Lasting("prohibit", "ben", "play fire cards", 0, (B.player_key(state, "ann"),),
                                 B.prohibited_kind("play fire cards"), until_end=5))
    ok(state, E.Activate(0, "ann", "Kiln Warden", 0), E.Pass(0, "ann"), E.Pass(0, "ben"))
    ok(state, E.Reveal(0, "ann", "Ember Whelp"), E.Reveal(0, "ann", "Pebble Imp"))
    found = judged(state.copy(), E.Choose(0, "ann", [E.Ref("Ember Whelp")]))
    assert found and "cannot be picked" in found[0].violation.message
    assert {tuple(r.card for r in m.cards) for m in GAME.legal_moves(state)} == {("Pebble Imp",)}
    ok(state, E.Choose(0, "ann", [E.Ref("Pebble Imp")]))
    for name in ("Ember Whelp", "Pebble Imp"):
        give(state, "ann", name)
    state.sides["ann"].creatures[-2].tapped = False  # (Kiln Warden again: a card from the hand)
    ok(state, E.Activate(0, "ann", "Kiln Warden", 1), E.Pass(0, "ann"), E.Pass(0, "ben"))
    found = judged(state.copy(), E.Choose(0, "ann", [E.Ref("Ember Whelp")]))
    assert found and "cannot play fire cards" in found[0].violation.message
    assert [tuple(r.card for r in m.cards) for m in GAME.legal_moves(state)] == [(), ("Pebble Imp",)]  # (a hidden hand: none)
    # a rank up an effect asks for (Ember Whelp's: with an earth card)
    state = _edicts()
    state.lasting.append(Lasting("prohibit", "ben", "play rank 2 cards", 0, (B.player_key(state, "ann"),),
                                 B.prohibited_kind("play rank 2 cards"), until_end=5))
    put(state, "ann", "Ember Whelp")
    give(state, "ann", "Quarry Colossus")
    ok(state, E.Activate(0, "ann", "Ember Whelp", 0), E.Pass(0, "ann"), E.Pass(0, "ben"))
    found = judged(state.copy(), E.Play(0, "ann", "Quarry Colossus", E.Ref("Ember Whelp")))
    assert found and "cannot play rank 2 cards" in found[0].violation.message
    assert B.prohibited_kind("play rank 2 or higher water or fire cards") == \
        B.T.Cards("any", 1, ("water", "fire"), 2, ">=")


def test_d31_lint_names_the_prohibitions_and_always_on_steps_it_cannot_carry_out() -> None:
    from spec.core.cards import CardDef

    texts = {
        "Dry Edict": ("Your opponent cannot draw cards next turn.", "a prohibition to draw cards is not modelled"),
        "Endless Edict": ("Your opponent cannot attack.", "a prohibition without a duration is not modelled"),
        "Odd Edict": ("Your opponent cannot play rank X cards next turn.", "a prohibition to play rank X cards is not modelled"),
        "Warded Edict": ("Continuous: While this card is on the field, your opponent cannot attack.",
                         "the step Prohibit as an always-on effect is not modelled"),
        "Bounty Edict": ("Continuous: While this card is on the field, you can play one more card.",
                         "the step ExtraPlay as an always-on effect is not modelled"),
        "Ash Edict": ("Your opponent cannot play fire cards next turn.", None),
        "Truce Edict": ("Each player cannot attack next turn.", None),
    }
    cards = CardDatabase("ttcg/lint", "ttcg", 1, [CardDef(n, "Spell", t, level=1, cost=1) for n, (t, _) in texts.items()])
    for name, (_, reason) in texts.items():
        assert GAME.unsupported(cards, name) == reason, name
