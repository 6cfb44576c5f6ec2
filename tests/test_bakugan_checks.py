"""Bakugan rule checks that random games seldom reach, and the ambiguity decisions, pinned.

Each :class:`Case` takes a state from a simulated legal game, arranges the situation the
rule is about, and applies one event: the first finding must cite the rule and come from
the named check. Remove the check and the case fails. (Most checks are also broken by a
replay of ``replays/bakugan/illegal``; ``tests/test_corpus.py`` makes sure every
check has one or the other.) The decision tests pin ``docs/bakugan-decisions.rst``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, cast

import msgspec
import pytest

from grammar import ast as A
from spec import load_game
from spec.bakugan import actions as X
from spec.bakugan import board as B
from spec.bakugan import events as E
from spec.bakugan import targets as T
from spec.bakugan.corpus import replay_states
from spec.bakugan.effects import step_gap
from spec.bakugan.game import Bakugan, card_identity
from spec.bakugan.state import BakuganState, EnergyCard, Lasting
from spec.core.cards import CardDatabase, CardDef
from spec.core.game import Setup
from spec.core.state import CardObj
from verifier.simulate import simulate

GAME = cast(Bakugan, load_game("bakugan"))


@cache
def _states(seed: int) -> list[BakuganState]:
    lines = simulate("bakugan", seed, passes="explicit")
    return [state.copy() for state, _event, _raw in replay_states(lines)]


def state_where(pred: Callable[[BakuganState], bool], seeds: tuple[int, ...] = (1, 2, 3)) -> BakuganState:
    """A copy of the first state of a simulated game where ``pred`` holds."""
    for seed in seeds:
        for state in _states(seed):
            if pred(state):
                return state.copy()
    raise LookupError("no such state in the simulated games")


def window(node: str) -> Callable[[BakuganState], bool]:
    def pred(s: BakuganState) -> bool:
        return (s.stage == "turn" and s.node == node and s.mode in ("window", "") and s.resolution is None and not s.batch
                and not s.to_roll and s.priority.passes == 0 and s.turn > 1 and bool(B.face_up(s)))
    return pred


def holder(s: BakuganState) -> str:
    return s.priority.holder


def hero(s: BakuganState, player: str, name: str) -> CardObj:
    card = s.new_card(name, player, s.cards[name])
    s.sides[player].heroes.append(card)
    return card


def energy(s: BakuganState, player: str, n: int) -> None:
    s.sides[player].energy = [EnergyCard(s.new_card(None, player)) for _ in range(n)]
    s.sides[player].pool = 0


def own_face_up(s: BakuganState, player: str) -> E.TargetRef:
    return next(E.TargetRef(b.name, player) for p, b in B.face_up(s) if p == player)


@dataclass(frozen=True)
class Case:
    rule: str
    check: str
    where: Callable[[BakuganState], bool]
    arrange: Callable[[BakuganState], Any]
    event: Callable[[BakuganState], Any]


def _empty_deck(s: BakuganState) -> None:
    s.sides[s.starting].deck.hidden = 0


def _open_one(s: BakuganState) -> None:
    next(iter(s.sides[s.starting].team.values())).open = True


def _reset_with_discards(s: BakuganState) -> None:
    s.node, s.mode = "reset", ""
    s.discarding = {holder(s): 1}


def _frost_flip(s: BakuganState) -> None:
    assert s.attack is not None
    s.attack.frost, s.attack.dealt = 3, 1
    s.sides[s.attack.to].discard.add(s.new_card("Tidebreak", s.attack.to, s.cards["Tidebreak"]))
    energy(s, s.attack.to, 3)


def _tie_started(s: BakuganState) -> None:
    s.mode = "tie"
    s.tie = {holder(s): "Scorchline"}


def _hero_with_energy(name: str, n: int) -> Callable[[BakuganState], None]:
    """Arrange: the priority holder gets the hero ``name`` in play and exactly ``n`` energy cards."""
    def arrange(s: BakuganState) -> None:
        hero(s, holder(s), name)
        energy(s, holder(s), n)
    return arrange


def _hero_with_empty_hand(name: str) -> Callable[[BakuganState], None]:
    """Arrange: the priority holder gets the hero ``name`` in play and an empty hand."""
    def arrange(s: BakuganState) -> None:
        hero(s, holder(s), name)
        s.sides[holder(s)].hand.cards.clear()
    return arrange


def in_deal(s: BakuganState) -> bool:
    return s.stage == "turn" and s.node == "damage" and s.mode == "deal" and s.attack is not None and s.resolution is None


CASES: list[Case] = [
    Case("bakugan:1.17.2", "draw_from_cards", lambda s: s.stage == "turn" and s.node == "draw" and not s.flags.drew and s.turn > 1,
         _empty_deck, lambda s: E.Draw(0, s.starting, None)),
    Case("bakugan:3.7.1", "energize_from_hand", lambda s: s.stage == "turn" and s.node == "energize" and not s.flags.energize_done,
         lambda s: None, lambda s: E.Energize(0, s.starting, next(c.name for c in s.cards if c.type == "Action"
                                                                    and s.sides[s.starting].hand.find(c.name) is None))),
    Case("bakugan:5.6.1", "select_closed", lambda s: s.stage == "turn" and s.node == "selection" and s.mode == "pick" and not s.flags.selected,
         _open_one, lambda s: E.Select(0, s.starting, next(iter(s.sides[s.starting].team)))),
    Case("bakugan:5.15.1.p2", "no_play_after_play_step", window("play"), _reset_with_discards,
         lambda s: E.Play(0, holder(s), next(n for n in s.sides[holder(s)].hand.names()))),
    Case("bakugan:1.3/3.2", "frost_flips_cannot_be_played", in_deal, _frost_flip,
         lambda s: E.Play(0, s.attack.to if s.attack else "", "Tidebreak")),
    Case("bakugan:1.14.2.p1", "activate_with_priority", in_deal, lambda s: hero(s, s.starting, "Rook Castellan"),
         lambda s: E.Activate(0, s.starting, "Rook Castellan", 0, [])),
    Case("bakugan:1.8.1.2.2", "activate_x_value", window("power"), lambda s: hero(s, holder(s), "Wren Halloway"),
         lambda s: E.Activate(0, holder(s), "Wren Halloway", 0, [own_face_up(s, holder(s))])),
    Case("bakugan:1.7.1.1.1", "activate_uncharge_as_needed", lambda s: window("power")(s) and any(p == holder(s) for p, _b in B.face_up(s)),
         _hero_with_energy("Rook Castellan", 4),
         lambda s: E.Activate(0, holder(s), "Rook Castellan", 0, [own_face_up(s, holder(s))], uncharge=4)),
    Case("bakugan:6.4.2.p1", "activate_affordable", window("power"), _hero_with_energy("Rook Castellan", 0),
         lambda s: E.Activate(0, holder(s), "Rook Castellan", 0, [])),
    Case("bakugan:6.4.3", "activate_extra_cost", window("power"),
         _hero_with_empty_hand("Sable Quint"),
         lambda s: E.Activate(0, holder(s), "Sable Quint", 0, [])),
    Case("bakugan:6.2.1.2", "activate_targets", lambda s: window("power")(s) and any(p != holder(s) for p, _b in B.face_up(s)),
         _hero_with_energy("Rook Castellan", 2),
         lambda s: E.Activate(0, holder(s), "Rook Castellan", 0,
                              [next(E.TargetRef(b.name, p) for p, b in B.face_up(s) if p != holder(s))])),
    Case("bakugan:5.6.1", "no_pass_before_selection", lambda s: s.stage == "turn" and s.node == "selection" and s.mode == "pick",
         lambda s: None, lambda s: E.Pass(0, holder(s))),
    Case("bakugan:5.5.1", "no_pass_before_roll", lambda s: s.stage == "turn" and s.node == "roll" and bool(s.to_roll),
         lambda s: None, lambda s: E.Pass(0, holder(s))),
    Case("bakugan:4.3.2.p2", "no_pass_while_discarding", window("play"), _reset_with_discards, lambda s: E.Pass(0, holder(s))),
    Case("bakugan:4.3.2.p2", "discard_from_hand", window("play"), _reset_with_discards,
         lambda s: E.Discard(0, holder(s), next(c.name for c in s.cards if c.type == "Action" and s.sides[holder(s)].hand.find(c.name) is None))),
    Case("bakugan:5.9.2.1.p1", "flip_in_tie", window("power"), _tie_started, lambda s: E.Flip(0, holder(s), None)),
    Case("bakugan:5.11.1.p1", "flip_when_dealt", window("power"), lambda s: None, lambda s: E.Flip(0, holder(s), None)),
]


def judged(case: Case) -> tuple[BakuganState, list[Any]]:
    state = state_where(case.where)
    case.arrange(state)
    rulings = [r for r in GAME.apply(state, case.event(state)) if r.violation.severity in ("illegal", "inconsistent")]
    return state, rulings


def check_fired_by(case: Case) -> str | None:
    """The name of the check that judged the case's event first (None if it was accepted)."""
    _state, rulings = judged(case)
    return rulings[0].check if rulings else None


@pytest.mark.parametrize("case", CASES, ids=[c.check for c in CASES])
def test_rule_check_fires(case: Case) -> None:
    _state, rulings = judged(case)
    assert rulings, "the event was accepted"
    assert (rulings[0].rule, rulings[0].check) == (case.rule, case.check)


# ----------------------------------------------------------------- decisions (docs/bakugan-decisions.rst)


def _brawl(s: BakuganState) -> tuple[str, Any]:
    player = next(iter(s.in_brawl))
    return player, s.sides[player].team[s.in_brawl[player]]


def test_d1_bakucore_bonuses_are_fixed_per_icon() -> None:
    """Decision 2: the spec's table of BakuCore bonuses (1.12.1, 6.5.2)."""
    from grammar import bakugan_nodes as K

    state = state_where(window("power"))
    player, bak = _brawl(state)
    named = {c for ability in B.abilities(state, bak.top.name, K.CoreStatic) for c in ability.cores}
    icon, slot = next((i, n) for n, (i, _o) in sorted(state.field_cores.items()) if i not in named)
    bak.holding = []
    before = (B.raw_stat(state, player, bak, "BPower"), B.raw_stat(state, player, bak, "Damage Rating"))
    bak.holding = [slot]
    after = (B.raw_stat(state, player, bak, "BPower"), B.raw_stat(state, player, bak, "Damage Rating"))
    assert (after[0] - before[0], after[1] - before[1]) == B.CORE_BONUS[icon]


def test_d2_strike_keywords() -> None:
    """Decision 3: FrostStrike cards come first and can't be answered; DoubleStrike doubles; ShadowStrike can't be stopped."""
    state = state_where(lambda s: s.stage == "turn" and s.node == "victor" and s.mode == "window" and s.resolution is None and not s.batch)
    victor = state.victor or ""
    bak = state.sides[victor].team[state.in_brawl[victor]]
    for stat, amount in (("FrostStrike", 2), ("DoubleStrike", 1), ("ShadowStrike", 1)):
        state.lasting.append(Lasting(victor, bak.name, stat, amount, uid=bak.character.uid))
    for side in state.sides.values():
        side.team = {n: b for n, b in side.team.items()}
    rating = B.stat(state, victor, bak, "Damage Rating")
    frost = B.stat(state, victor, bak, "FrostStrike")
    GAME._begin_attack(state)
    attack = state.attack
    assert attack is not None
    if not state.team_attack:
        assert attack.rating == rating
    assert (attack.frost, attack.strikes, attack.shadow) == (frost, 2, True)
    assert attack.total == attack.frost + 2 * attack.rating


def test_d3_an_evo_needs_the_name_not_the_faction() -> None:
    """Decision 4: 3.3.1.1 (name only) prevails over 3.3.1 (name and Faction)."""
    state = state_where(lambda s: window("power")(s) and s.priority.holder == s.starting)
    player = holder(state)
    character = next(iter(state.sides[player].team))
    other_faction = next(f for f in B.FACTIONS if f not in state.cards[character].traits and f != "Aurelus")
    evo = CardDef(f"{character} Shifted", "Evo", "", traits=[other_faction], cost=0,
                  stats={"bpower": 100, "damage": 1, "evolves_from": character})
    state.cards = CardDatabase("test", "bakugan", 1, list(state.cards) + [evo])
    state.sides[player].hand.add(state.new_card(evo.name, player, evo))
    assert not GAME.apply(state, E.Play(0, player, evo.name, on=character))


def test_d4_an_evo_id_with_a_faction_names_a_character_of_that_faction() -> None:
    """Decision 4, 3.3.1, 2.16.2.p2: an Evo ID "Aquos Coil" names a Coil whose printed icons
    include Aquos, any printing of it, and no Coil of another Faction; a play on one is legal,
    on the other refused citing 3.3.1.1. Before, "Aquos Coil" was read as a name no Character
    has, so such an Evo could never be played."""
    cards = CardDatabase("pool", "bakugan", 1, [CardDef("Coil (Aquos, BB)", "Character", "", traits=["Aquos"]),
                                                CardDef("Coil (Haos, BB)", "Character", "", traits=["Haos"]),
                                                CardDef("Aquos", "Character", "", traits=["Aquos"])])
    evo = CardDef("Hyper Coil", "Evo", "", traits=["Aquos"], stats={"bpower": 900, "damage": 5, "evolves_from": "Aquos Coil"})
    assert B.evolves(evo, "Coil (Aquos, BB)", cards) and not B.evolves(evo, "Coil (Haos, BB)", cards)
    assert not B.evolves(evo, "Coil (Aquos, BB)") and not B.evolves(evo, "Aquos", cards)
    state = state_where(lambda s: window("power")(s) and s.priority.holder == s.starting)
    player = holder(state)
    character = next(iter(state.sides[player].team))
    faction = min(state.cards[character].traits)
    evo = CardDef("Hyper Trial", "Evo", "", traits=[faction], cost=0,
                  stats={"bpower": 100, "damage": 1, "evolves_from": f"{faction} {B.plain_name(character)}"})
    state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, evo])
    state.sides[player].hand.add(state.new_card(evo.name, player, evo))
    elsewhere = state.copy()
    shifted = msgspec.structs.replace(state.cards[character], traits=[f for f in B.FACTIONS if f != faction][:1])
    elsewhere.cards = CardDatabase("test", "bakugan", 1, [shifted if c.name == character else c for c in state.cards])
    refused = GAME.apply(elsewhere, E.Play(0, player, evo.name, on=character))
    assert [r.rule for r in refused] == ["bakugan:3.3.1.1"] and f"evolves {faction} " in refused[0].violation.message
    assert not GAME.apply(state, E.Play(0, player, evo.name, on=character))


def test_an_evo_id_names_every_printing_of_its_character() -> None:
    """3.3.1.1: the Evo ID is the Character's printed name, so it names each printing of that
    name in a pool ("Serpenteze (Darkus, BB)"), but no other name with a note."""
    evo = CardDef("Diamond Coil", "Evo", "", stats={"bpower": 900, "damage": 5, "evolves_from": "Coil"})
    assert B.evolves(evo, "Coil") and B.evolves(evo, "Coil (Darkus, BB)")
    assert not B.evolves(evo, "Coil Ultra (Darkus, BB)") and not B.evolves(evo, "Coiled") and not B.evolves(evo, "Coil Ultra")
    assert not B.evolves(CardDef("Nothing", "Evo", ""), "Coil")


def test_a_plain_name_of_several_printings_is_answered_with_the_printings() -> None:
    """A log naming "Coil" where the pool holds "Coil (Aquos, BB)" and "Coil (Haos, BB)" is
    told which cards it may mean (unverifiable: the spec does not pick one)."""
    cards = CardDatabase("pool", "bakugan", 1, [CardDef("Coil (Aquos, BB)", "Character", "", traits=["Aquos"]),
                                                CardDef("Coil (Haos, BB)", "Character", "", traits=["Haos"])])
    assert B.not_held(cards, "Coil") == ("'Coil' is not in the card database pool; it holds 'Coil (Aquos, BB)', "
                                         "'Coil (Haos, BB)', each a card of its own: name the one meant")
    assert B.not_held(cards, "Coiled") == "'Coiled' is not in the card database pool"
    setup = Setup(("ann", "ben"), {"ann": {"deck": {}, "team": ["Coil"]}, "ben": None}, {}, cards)
    GAME.setup(setup)
    unknown = [r.violation for r in setup.rulings if r.violation.severity == "unverifiable"]
    assert unknown and "ann's deck lists 'Coil'" in unknown[0].message and "'Coil (Haos, BB)'" in unknown[0].message


def test_d4_evos_are_played_in_any_priority_window_and_turn_a_face_down_character_up() -> None:
    """Decision 5 and 3.3.2.p2."""
    state = state_where(lambda s: s.stage == "turn" and s.node == "selection" and s.mode == "window" and not s.batch
                        and s.priority.holder == s.starting and s.priority.passes == 0)
    player = holder(state)
    bak = next(b for b in state.sides[player].team.values() if not b.face_up) if any(
        not b.face_up for b in state.sides[player].team.values()) else next(iter(state.sides[player].team.values()))
    bak.face_up = False
    evo = next(c for c in state.cards if c.type == "Evo" and c.stats.get("evolves_from") == bak.name)
    state.sides[player].hand.add(state.new_card(evo.name, player, evo))
    energy(state, player, 9)
    assert not GAME.apply(state, E.Play(0, player, evo.name, on=bak.name))
    assert bak.face_up
    GAME.apply(state, E.Pass(0, player))
    GAME.apply(state, E.Pass(0, state.other(player)))
    assert bak.top.name == evo.name


def test_d5_a_lone_open_bakugan_is_the_victor() -> None:
    """Decision 6 (5.10.1 speaks of two Bakugan)."""
    state = state_where(lambda s: window("power")(s) and len(s.in_brawl) == 2)
    loser = next(iter(state.in_brawl))
    state.in_brawl.pop(loser)
    GAME._decide_victor(state)
    assert state.victor == state.other(loser) and state.node == "victor"


def test_d6_tie_break_reads_x_as_zero_and_repeats_on_equal_costs() -> None:
    """Decision 7: 5.9.2.1 with 1.8.1.2.1."""
    state = state_where(window("power"))
    a, b = state.starting, state.nonstarting
    state.mode, state.tie = "tie", {}
    GAME._tie_flip(state, a, "Ember Cascade")  # X: zero
    GAME._tie_flip(state, b, "Coil Charge")  # 0
    assert state.mode == "tie" and state.victor is None
    GAME._tie_flip(state, a, "Scorchline")  # 2
    GAME._tie_flip(state, b, "Tidal Recall")  # 1
    assert state.victor == a


def test_d7_tie_break_with_empty_decks() -> None:
    """5.9.2.1.1 and 5.9.2.1.1.1."""
    state = state_where(window("power"))
    state.sides[state.starting].deck.hidden = 0
    GAME._tie_round(state)
    assert (state.stage, state.winner, state.end_rule) == ("over", state.nonstarting, "5.9.2.1.1")
    state = state_where(window("power"))
    for side in state.sides.values():
        side.deck.hidden = 0
    GAME._tie_round(state)
    assert (state.stage, state.winner, state.drawn) == ("over", None, True)


def test_d8_team_attack_sums_damage_ratings_none_below_zero() -> None:
    """Decision 8: 5.12.2, 5.12.2.1, 1.8.1.1.1."""
    state = state_where(lambda s: s.stage == "turn" and s.node == "victor" and s.mode == "window" and s.resolution is None and not s.batch)
    victor = state.victor or ""
    team = state.sides[victor].team
    for bak in team.values():
        bak.open = True
    weak = next(b for n, b in team.items() if n != state.in_brawl[victor])
    state.lasting.append(Lasting(victor, weak.name, "Damage Rating", -50, uid=weak.character.uid))
    expected = sum(B.stat(state, victor, b, "Damage Rating") for b in team.values())
    assert B.stat(state, victor, weak, "Damage Rating") == 0
    GAME._begin_attack(state)
    assert state.team_attack and state.attack is not None and state.attack.rating == expected


def test_d9_flip_cards_turned_over_by_a_cards_attack_cannot_be_played() -> None:
    """Decision 9: 1.14.5.p1 over 3.6.1.p1 while a card completes."""
    from grammar import bakugan_nodes as K
    from spec.core.interpreter import Frame, Resolution

    state = state_where(window("power"))
    attacker = state.starting
    defender = state.other(attacker)
    state.sides[defender].knowledge.registered = None
    state.resolution = Resolution(attacker, None, [Frame((K.Attack("Pyrus", 2),))], None, vars={})
    GAME._continue(state)
    assert state.resolution is not None and state.resolution.need is not None and state.resolution.need.kind == "flip"
    assert not GAME.apply(state, E.Flip(0, defender, "Tidebreak"))
    assert state.offer is None and state.mode != "offer"
    rulings = GAME.apply(state.copy(), E.Play(0, defender, "Tidebreak"))
    assert rulings and rulings[0].violation.severity == "illegal"


def test_d10_damage_into_an_empty_deck_loses_when_a_point_remains() -> None:
    """Decision 10: 1.5.1 checked before each card of an attack."""
    state = state_where(in_deal)
    assert state.attack is not None
    loser = state.attack.to
    state.sides[loser].deck.hidden = 1
    state.sides[loser].knowledge.registered = None
    remaining = state.attack.remaining
    GAME.apply(state, E.Flip(0, loser, None))
    if remaining > 1:
        assert (state.stage, state.winner, state.end_rule) == ("over", state.other(loser), "1.5.1")
    else:
        assert state.stage == "turn"


def test_d11_a_negated_bakucore_is_not_checkable() -> None:
    """Decision 11: 6.10.2.3 against 4.4.4.2.p1."""
    book = GAME.book
    assert book.status("6.10.2.3") == "not checkable"
    assert "4.4.4.2.p1" in book.index.entries["6.10.2.3"].not_checkable


def test_d12_simultaneous_triggers_enter_starting_player_first() -> None:
    """Decision 12: 6.3.3, 4.4.2.p2, 1.3/3.5 - the batch ends with the other player's triggers."""
    from spec.core.queue import QueueItem

    state = state_where(window("power"))
    a, b = state.starting, state.nonstarting
    state.waiting = [QueueItem("triggered", b, None, ()), QueueItem("triggered", a, None, ()), QueueItem("triggered", a, None, ())]
    first_of_a = state.waiting[1]
    GAME._flush(state)
    assert [i.controller for i in state.batch.items] == [a, a, b]
    assert state.batch.items[0] is first_of_a
    assert state.batch.next().controller == b  # LIFO: the other player's trigger completes first


def test_d13_the_batch_completes_from_its_end_and_priority_returns_to_the_starting_player() -> None:
    """Decision 13: 4.4.3.1, 1.14.2.1, 1.14.4.p1."""
    state = state_where(lambda s: window("power")(s) and s.priority.holder == s.starting)
    a, b = state.starting, state.nonstarting
    for player, card in ((a, "Coil Charge"), (b, "Coil Charge")):
        state.sides[player].hand.add(state.new_card(card, player, state.cards[card]))
    assert not GAME.apply(state, E.Play(0, a, "Coil Charge"))
    assert state.priority.holder == a and state.priority.passes == 0
    GAME.apply(state, E.Pass(0, a))
    assert not GAME.apply(state, E.Play(0, b, "Coil Charge"))
    GAME.apply(state, E.Pass(0, b))
    GAME.apply(state, E.Pass(0, a))
    assert state.last_resolved == "Coil Charge" and len(state.batch) == 1 and state.batch.items[0].controller == a
    assert state.priority.holder == a


def test_d14_an_energized_card_enters_charged_and_a_pass_declines() -> None:
    """Decision 14: 5.4.1, 5.4.2, 7.2.4.1."""
    state = state_where(lambda s: s.stage == "turn" and s.node == "energize" and not s.flags.energize_done and len(s.sides[s.starting].hand) > 0)
    a = state.starting
    card = state.sides[a].hand.names()[0]
    before = len(state.sides[a].energy)
    assert not GAME.apply(state, E.Energize(0, a, card))
    assert len(state.sides[a].energy) == before + 1 and state.sides[a].energy[-1].charged
    assert not GAME.apply(state, E.Pass(0, state.other(a)))
    assert state.node == "selection"


def test_d15_a_deck_is_shuffled_once_in_set_up() -> None:
    """Decision 15: 1.4/4.4.p1, 4.2.2.p2."""
    state = state_where(lambda s: s.stage == "setup" and s.sides[s.players[0]].shuffled and s.sides[s.players[0]].opening_draws == 0)
    rulings = GAME.apply(state, E.Shuffle(0, state.players[0]))
    assert rulings and rulings[0].rule == "bakugan:4.2.2.p2"


def test_d16_end_of_turn_triggers_fire_as_the_play_step_would_end() -> None:
    """Decision 16: 5.15.1.p2 - Ivo Brandt's trigger joins the batch, then the step goes on."""
    state = state_where(window("play"))
    a = state.starting
    hero(state, a, "Ivo Brandt")
    state.flags.plays[a] = 2
    GAME.apply(state, E.Pass(0, a))
    GAME.apply(state, E.Pass(0, state.other(a)))
    assert state.node == "play" and [i.name for i in state.batch.items] == ["Ivo Brandt"]


def test_d17_the_hand_limit_is_kept_in_the_reset_step() -> None:
    """Decision 17: 4.3.2.p1, 4.3.2.p2."""
    state = state_where(window("play"))
    a = state.starting
    for _ in range(9):
        state.sides[a].hand.add(state.new_card("Scorchline", a, state.cards["Scorchline"]))
    over = len(state.sides[a].hand) - 7
    GAME._enter(state, "charge")
    assert state.node == "reset" and state.discarding == {a: over}
    for _ in range(over):
        assert not GAME.apply(state, E.Discard(0, a, "Scorchline"))
    assert state.node == "draw" or state.node == "energize"


def test_d18_a_reroll_keyword_rolls_at_once_and_an_open_bakugan_is_picked_up_first() -> None:
    """Decision 18 and 1.18.1.5: Vesperhorn's reroll needs no batch."""
    state = state_where(window("power"))
    player = state.starting
    name = state.flags.selected[player]
    bak = state.sides[player].team[name]
    bak.open, bak.holding = True, [1]
    assert GAME.start_reroll(state, player)
    assert not bak.open and bak.holding == [] and player not in state.in_brawl


def test_d19_a_roll_may_share_a_bakucore_of_this_brawl_only() -> None:
    """Decision 19: 5.7.2.2."""
    state = state_where(lambda s: s.stage == "turn" and s.node == "roll" and len(s.to_roll) == 2)
    a, b = state.to_roll
    slot = next(s for s in sorted(state.field_cores))
    assert not GAME.apply(state, E.Roll(0, a, opened=True, core=slot, attached=True))
    assert not GAME.apply(state.copy(), E.Roll(0, b, opened=True, core=slot, attached=True))
    other = next(n for n in state.sides[b].team if n != state.flags.selected[b])
    state.sides[b].team[other].holding = [slot]
    state.sides[a].team[state.flags.selected[a]].holding = []
    rulings = GAME.apply(state, E.Roll(0, b, opened=True, core=slot, attached=True))
    assert rulings and rulings[0].rule == "bakugan:5.7.2.2"


def test_d20_an_activated_x_cost_is_at_least_one() -> None:
    """Decision 20: 1.8.1.2, 6.4.2.p1."""
    state = state_where(lambda s: window("power")(s) and any(p == holder(s) for p, _b in B.face_up(s)))
    player = holder(state)
    hero(state, player, "Wren Halloway")
    energy(state, player, 2)
    target = [own_face_up(state, player)]
    rulings = GAME.apply(state.copy(), E.Activate(0, player, "Wren Halloway", 0, target, x=0))
    assert rulings and rulings[0].rule == "bakugan:1.8.1.2.2"
    assert not GAME.apply(state, E.Activate(0, player, "Wren Halloway", 0, target, x=2))


def test_d21_the_most_means_strictly_more() -> None:
    """Decision 21: Domination and Turbo riders."""
    from grammar import ast as A

    state = state_where(window("power"))
    a, b = state.players
    most_energy = A.Condition("most", "has", "Energy", A.Selector("the", "player", owner="you"))
    energy(state, a, 2)
    energy(state, b, 2)
    assert not B.condition_holds(state, a, most_energy, {})
    energy(state, a, 3)
    assert B.condition_holds(state, a, most_energy, {})


def test_d22_card_identity_for_the_copy_limit() -> None:
    """Decision 22: 1.2/2.1.1, 2.17.2.1."""
    plain = CardDef("Scorchline", "Action", "+300 [B].", traits=["Pyrus"], cost=2)
    foil = CardDef("Scorchline (Foil)", "Action", "+300 [B].", traits=["Pyrus"], cost=2)
    hero_a = CardDef("Tamsin Orrel (Tide Caller)", "Hero", "Draw a card.", traits=["Aquos"], cost=3)
    hero_b = CardDef("Tamsin Orrel (Reef Warden)", "Hero", "Draw a card.", traits=["Aquos"], cost=3)
    assert card_identity(plain) == card_identity(foil)
    assert card_identity(hero_a) != card_identity(hero_b)


def _deck_rulings(deck: dict[str, Any]) -> list[str | None]:
    cards = CardDatabase.load(__import__("spec.core.cards", fromlist=["x"]).shipped_database("bakugan", "base"), "bakugan")
    setup = Setup(("ann", "ben"), {"ann": deck, "ben": None}, {}, cards)
    GAME.setup(setup)
    return [r.rule for r in setup.rulings]


def test_d23_a_team_is_three_different_characters_and_cores_match() -> None:
    """Decision 23: 1.1/2.1.p1, 1.1/2.1.1; and the deck rules 1.1/2.1.p3, 1.2/2.1.p1, 1.2/2.2, 3.2.1.p1."""
    import random

    good = GAME.random_deck(CardDatabase.load(__import__("spec.core.cards", fromlist=["x"]).shipped_database("bakugan", "base"), "bakugan"),
                            random.Random(5))
    assert _deck_rulings(good) == []
    twice = dict(good, team=[good["team"][0]] * 3)
    assert "bakugan:1.1/2.1.p1" in _deck_rulings(twice)
    cores = dict(good, bakucores=["FT"] * 6)
    assert "bakugan:1.1/2.1.1" in _deck_rulings(cores) or sorted(good["bakucores"]) == ["FT"] * 6
    short = dict(good, deck={k: v for k, v in list(good["deck"].items())[1:]})
    assert "bakugan:1.1/2.1.p3" in _deck_rulings(short)
    four = dict(good, deck={**good["deck"], next(iter(good["deck"])): 4})
    assert "bakugan:1.2/2.1.p1" in _deck_rulings(four)
    with_character = dict(good, deck={**good["deck"], good["team"][0]: 1})
    assert "bakugan:3.2.1.p1" in _deck_rulings(with_character)


def test_d24_opening_hands_wait_for_the_field() -> None:
    """Decision 24: 1.4/4.3 before 1.4/4.4."""
    state = state_where(lambda s: s.stage == "setup" and 0 < len(s.field_cores) < 12 and s.sides[s.players[0]].shuffled)
    rulings = GAME.apply(state, E.Draw(0, state.players[0], None))
    assert rulings and rulings[0].rule == "bakugan:1.4/4.4.p3"


def test_d25_energy_in_the_pool_is_spent_before_uncharging() -> None:
    """Decision 25: 1.7.1.1.1, 1.7.1.2.p1."""
    state = state_where(lambda s: window("power")(s) and s.priority.holder == s.starting)
    player = holder(state)
    energy(state, player, 3)
    state.sides[player].pool = 2
    state.sides[player].hand.add(state.new_card("Juno Farrow", player, state.cards["Juno Farrow"]))
    rulings = GAME.apply(state.copy(), E.Play(0, player, "Juno Farrow", uncharge=3))
    assert rulings and rulings[0].rule == "bakugan:1.7.1.1.1"
    assert not GAME.apply(state, E.Play(0, player, "Juno Farrow"))
    assert state.sides[player].charged() == 2 and state.sides[player].pool == 0


def test_d26_damage_is_fixed_as_the_attack_begins() -> None:
    """Decision 26: 1.16.1.1 and 5.11.2.1.1 - changes during damage do not touch the attack."""
    state = state_where(in_deal)
    assert state.attack is not None
    total = state.attack.total
    victor = state.victor or ""
    bak = state.sides[victor].team[state.in_brawl[victor]]
    state.lasting.append(Lasting(victor, bak.name, "Damage Rating", 5, uid=bak.character.uid))
    assert state.attack.total == total


def test_d27_only_face_up_bakugan_can_be_selected() -> None:
    """Decision 27: 1.13.1.2 also for "a ... Bakugan"."""
    from grammar import ast as A
    from spec.bakugan import targets as T

    state = state_where(window("power"))
    for _p, bak in B.all_bakugan(state):
        bak.face_up = False
    slot = T.Slot("x", "bakugan", A.Selector("a", "Bakugan"))
    assert T.candidates(state, state.starting, slot) == []


def test_d28_turn_long_changes_stay_when_an_evo_is_played() -> None:
    """Decision 28: 3.3.3 replaces printed values; the turn's changes stay with the Bakugan."""
    state = state_where(window("power"))
    player, bak = _brawl(state)
    evo = next(c for c in state.cards if c.type == "Evo" and c.stats.get("evolves_from") in state.sides[player].team)
    bak = state.sides[player].team[evo.stats["evolves_from"]]
    bak.evos.append(state.new_card(evo.name, player, evo))
    state.lasting.append(Lasting(player, bak.name, "BPower", 300, uid=bak.character.uid))
    with_change = B.raw_stat(state, player, bak, "BPower")
    state.lasting.pop()
    assert with_change - B.raw_stat(state, player, bak, "BPower") == 300


def test_d0_the_index_keeps_repeated_numbers_apart() -> None:
    """Decision 1: the glossary's repeated numbers are told apart by their section."""
    index = GAME.book.index
    assert "1.1/2.1.p3" in index and "1.2/2.1.p1" in index and "2.1.1.p1" in index
    assert index.entries["1.1/2.1.p3"].summary != index.entries["1.2/2.1.p1"].summary


def test_d29_a_foul_roll_is_a_miss() -> None:
    """Decision 29: 7.2.6.2.p2, 5.7.1.4."""
    state = state_where(lambda s: s.stage == "turn" and s.node == "roll" and len(s.to_roll) == 2)
    a, b = state.to_roll
    slot = next(iter(sorted(state.field_cores)))
    assert not GAME.apply(state, E.Roll(0, a, opened=True, core=slot, attached=True, foul=True))
    assert not GAME.apply(state, E.Roll(0, b, opened=True, core=None))
    assert state.flags.missed == {a: True, b: True}
    assert sorted(state.to_roll) == sorted((a, b))  # a double miss: both roll again (5.7.2.1)


def test_the_decisions_page_cites_index_rules_and_existing_tests() -> None:
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "bakugan-decisions.rst").read_text(encoding="utf-8")
    index = GAME.book.index
    cited = [rule for line in re.findall(r"^\*\*Rules:\*\* (.*)\.$", text, re.MULTILINE) for rule in line.split(", ")]
    assert len(cited) > 50
    for rule in cited:
        assert rule in index, rule
    pinned = re.findall(r"``(test_[a-z0-9_]+)``", text)
    assert len(pinned) >= len(re.findall(r"^\d+\. ", text, re.MULTILINE))
    from tests import test_bakugan_conflicts, test_grammar_bakugan

    known = set(globals()) | set(vars(test_bakugan_conflicts)) | set(vars(test_grammar_bakugan))
    for name in pinned:
        assert name in known, name


# ----------------------------------------------------------------- never silently legal


def test_a_step_without_meaning_makes_the_card_unverifiable() -> None:
    """Ashen Mirror copies a card: the spec has no handler for that step, and says so with the card's name."""
    state = state_where(lambda s: window("power")(s) and s.priority.holder == s.starting)
    player = holder(state)
    state.sides[player].hand.add(state.new_card("Ashen Mirror", player, state.cards["Ashen Mirror"]))
    energy(state, player, 3)
    assert not GAME.apply(state, E.Play(0, player, "Ashen Mirror"))
    assert not GAME.apply(state, E.Pass(0, player))
    rulings = GAME.apply(state, E.Pass(0, state.other(player)))
    assert [r.violation.severity for r in rulings] == ["unverifiable"]
    assert "Ashen Mirror" in rulings[0].violation.message


def test_an_unparsed_card_and_an_unknown_event_are_reported(tmp_path: Any) -> None:
    import json

    from verifier.verify import verify_file

    state = state_where(lambda s: window("power")(s) and s.priority.holder == s.starting)
    player = holder(state)
    garbled = CardDef("Garbled Scroll", "Action", "Frobnicate the moon twice.", traits=["Pyrus"], cost=0)
    state.cards = CardDatabase("test", "bakugan", 1, list(state.cards) + [garbled])
    state.sides[player].hand.add(state.new_card(garbled.name, player, garbled))
    rulings = GAME.apply(state, E.Play(0, player, "Garbled Scroll"))
    assert [r.violation.severity for r in rulings] == ["unverifiable"]
    assert "Garbled Scroll" in rulings[0].violation.message and "does not parse" in rulings[0].violation.message
    header = json.loads(simulate("bakugan", 2, passes="explicit")[0])
    bad = tmp_path / "unknown.jsonl"
    bad.write_text("\n".join([json.dumps(header), json.dumps({"seq": 1, "by": "alice", "do": "teleport"})]) + "\n", encoding="utf-8")
    report = verify_file(bad)
    assert report.verdict == "malformed" and report.findings[0].line == 2


def test_a_selection_names_the_one_kind_of_thing_its_slot_takes() -> None:
    """6.2.1.2: a BakuCore is selected by its slot alone, a card by its name with no slot.
    A selection naming both does not say which was chosen: it is refused, where the slot
    alone used to be read and the card ignored (found by mutation testing)."""
    from grammar import ast as A
    from spec.bakugan import actions as BA
    from spec.bakugan import targets as T

    state = state_where(lambda s: s.stage == "turn" and bool(s.field_cores) and bool(B.face_up(s)))
    core = T.Slot("x", "core", A.Selector("a", "BakuCore"))
    found = T.candidates(state, state.starting, core)
    number = found[0][1]
    assert T.pick(found, core, E.TargetRef(core=number)) == number
    assert T.pick(found, core, E.TargetRef("Wren Halloway", core=number)) is None
    assert T.pick(found, core, E.TargetRef(core=number, owner=state.starting)) is None
    bakugan = T.Slot("y", "bakugan", A.Selector("a", "Bakugan"))
    player, bak = B.face_up(state)[0]
    found = T.candidates(state, player, bakugan)
    assert T.pick(found, bakugan, E.TargetRef(bak.name, player)) is not None
    assert T.pick(found, bakugan, E.TargetRef(bak.name, player, core=number)) is None

    step = A.Attach(A.Selector("a", "BakuCore"), A.Selector("a", "Bakugan"))
    refs = [E.TargetRef("Wren Halloway", core=number), E.TargetRef(bak.name, player)]
    rule, violation = BA.targets_violation(state, player, (step,), refs) or ("", None)
    assert rule == "6.2.1.2" and violation is not None and "names BakuCore slot" in violation.message
    assert BA.targets_violation(state, player, (step,), [E.TargetRef(core=number), E.TargetRef(bak.name, player)]) is None


def test_a_placement_is_offered_whichever_placed_bakucores_it_touches() -> None:
    """legal_moves offers each BakuCore placement touching one placed BakuCore, drawn at
    random: which ones it touches is the table's geometry, checked against the Field
    (1.4/4.3.1) but not enumerated. ``offers`` (what mutation testing asks of a mutant the
    verifier accepts) therefore matches a placement by player and icon; the verifier still
    judges what it touches."""
    lines = simulate("bakugan", 1, passes="explicit")
    state, event = next((s.copy(), e) for s, e, _raw in replay_states(lines)
                        if type(e) is E.Place and len(s.field_cores) >= 2)
    for slot in sorted(state.field_cores):
        assert GAME.offers(state, E.Place(0, event.by, event.core, [slot]))
    assert GAME.offers(state, E.Place(0, event.by, event.core, sorted(state.field_cores)))
    assert not GAME.offers(state, E.Place(0, state.other(event.by or ""), event.core, [1]))  # out of turn
    stray = E.Place(0, event.by, event.core, [99])
    assert GAME.offers(state, stray) and GAME.apply(state.copy(), stray)[0].rule == "bakugan:1.4/4.3.1"


def test_a_selection_naming_a_card_outside_the_database_is_refused_under_6_2_1_2() -> None:
    """A selection is matched against what is on the table; one naming a card the database
    does not hold names nothing there, so it is as illegal as any other selection of
    nothing (6.2.1.2), not unverifiable: no card text is needed to judge it (found by
    mutation testing, which counted it as flagged without a rule)."""
    lines = simulate("bakugan", 1, passes="explicit")
    state, event = next((s.copy(), e) for s, e, _raw in replay_states(lines)
                        if type(e) is E.Play and any(t.card for t in e.targets))
    assert not GAME.apply(state.copy(), event)
    stray = E.TargetRef("Nowhere Wanderer", event.targets[0].owner)
    assert "Nowhere Wanderer" not in state.cards
    bad = E.Play(event.seq, event.by, event.card, [stray, *event.targets[1:]], event.on, event.x, event.uncharge)
    rulings = GAME.apply(state, bad)
    assert [(r.rule, r.violation.severity) for r in rulings] == [("bakugan:6.2.1.2", "illegal")]


# ------------------------------------------------------------------ steps for several players (decision 32)

def _completing(text: str, prepare: Callable[[BakuganState], None] | None = None,
                aim: Callable[[BakuganState, str], E.TargetRef] | None = None) -> tuple[BakuganState, str, str]:
    """A state in which the starting player has played an invented Action printing ``text``
    and both players have passed, so the Action is completing; with its player and the other.
    ``prepare`` changes the state before the Action is played; ``aim`` gives the Bakugan it is
    played on (both players have one face up)."""
    state = state_where(lambda s: window("power")(s) and s.priority.holder == s.starting
                        and all(len(s.sides[p].hand) >= 1 and len(s.sides[p].deck) >= 2 for p in s.players)
                        and (aim is None or {p for p, _b in B.face_up(s)} == set(s.players)))
    if prepare is not None:
        prepare(state)
    player = holder(state)
    card = CardDef("Trial Scroll", "Action", text, traits=["Aquos", "Aurelus", "Darkus", "Haos", "Pyrus", "Ventus"], cost=0)
    state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, card])
    state.sides[player].hand.add(state.new_card(card.name, player, card))
    assert not GAME.apply(state, E.Play(0, player, card.name, targets=[aim(state, player)] if aim else []))
    other = state.other(player)
    assert not GAME.apply(state, E.Pass(0, player))
    assert not GAME.apply(state, E.Pass(0, other))
    return state, player, other


def _in_hand(state: BakuganState, player: str) -> str | None:
    names = state.sides[player].hand.names()
    return names[0] if names else None


def test_d32_a_chosen_player_is_the_one_who_discards() -> None:
    """Decision 32, 6.7.1.4: "choose a player to discard" is taken by either player; the
    discard shows whom the controller chose. Before, the first seated player had to discard."""
    for chosen in (0, 1):
        state, player, other = _completing("Choose a player to discard a card.")
        who = (player, other)[chosen]
        need = state.resolution.need if state.resolution else None
        assert need is not None and set(need.among) == {player, other} and "or" in need.describe()
        card = _in_hand(state, who)
        assert not GAME.apply(state, E.Discard(0, who, card)), who
        assert card in state.sides[who].discard.names()
    state, player, other = _completing("Choose a player to discard a card.")
    rulings = GAME.apply(state, E.Pass(0, other))
    assert rulings and rulings[0].rule == "bakugan:6.7.1.4" and "discard by" in rulings[0].violation.message


def test_d32_each_player_discards_in_turn_order() -> None:
    """Decision 32, 1.14.3.p1: "all players discard" is a discard by each, the starting
    player first. Before, only the first seated player discarded."""
    state, player, other = _completing("All players must discard a card.")
    assert player == state.starting
    need = state.resolution.need if state.resolution else None
    assert need is not None and need.player == player and not need.among
    rulings = GAME.apply(state.copy(), E.Discard(0, other, _in_hand(state, other)))
    assert rulings and rulings[0].rule == "bakugan:6.7.1.4"
    assert not GAME.apply(state, E.Discard(0, player, _in_hand(state, player)))
    need = state.resolution.need if state.resolution else None
    assert need is not None and need.kind == "discard" and need.player == other
    assert not GAME.apply(state, E.Discard(0, other, _in_hand(state, other)))


def test_d32_each_player_may_and_their_deck_is_their_own() -> None:
    """Decision 32: "each player may energize the top three cards of their deck" asks each
    player in turn, and energizes three cards of the deck of the one who takes it. Before,
    the first seated player's choice energized one card of each deck."""
    state, player, other = _completing("Each player may energize the top three cards of their deck.")
    energy_before = {p: len(state.sides[p].energy) for p in state.players}
    deck_before = {p: len(state.sides[p].deck) for p in state.players}
    need = state.resolution.need if state.resolution else None
    assert need is not None and need.kind == "may" and need.player == player
    assert not GAME.apply(state, E.Decline(0, player))
    need = state.resolution.need if state.resolution else None
    assert need is not None and need.kind == "may" and need.player == other
    GAME.apply(state, E.Pass(0, player))  # any other event: the other player took the choice
    assert len(state.sides[player].energy) == energy_before[player] and len(state.sides[player].deck) == deck_before[player]
    taken = min(3, deck_before[other])
    assert len(state.sides[other].energy) == energy_before[other] + taken
    assert len(state.sides[other].deck) == deck_before[other] - taken


def test_energize_the_top_two_cards_energizes_two() -> None:
    """6.8.3: an effect energizing the top N cards of a deck energizes N (as many as the
    deck holds). Before, it energized one whatever N was."""
    state, player, _other = _completing("Energize the top two cards of your deck uncharged.")
    side = state.sides[player]
    assert len(side.energy) >= 2 and not any(e.charged for e in side.energy[-2:])


def test_a_lasting_leave_to_play_is_unverifiable_not_one_play() -> None:
    """A leave for both players to play Hero cards free this turn is a standing leave, which
    the spec does not model: the completion is unverifiable, where it used to offer one free
    play to the first seated player."""
    state = state_where(lambda s: window("power")(s) and s.priority.holder == s.starting)
    player = holder(state)
    card = CardDef("Open Gate", "Action", "This turn, both players may play Hero cards from their hand for free.",
                   traits=["Aquos", "Aurelus", "Darkus", "Haos", "Pyrus", "Ventus"], cost=0)
    state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, card])
    state.sides[player].hand.add(state.new_card(card.name, player, card))
    assert not GAME.apply(state, E.Play(0, player, card.name))
    assert not GAME.apply(state, E.Pass(0, player))
    rulings = list(GAME.apply(state, E.Pass(0, state.other(player))))
    rulings += [] if rulings else GAME.apply(state, E.Pass(0, player))
    assert any(r.violation.severity == "unverifiable" and "lasting leave" in r.violation.message for r in rulings)
    assert "lasting leave" in (GAME.unsupported(state.cards, card.name) or "")  # so lint notes it


def test_an_action_that_returns_itself_goes_to_the_hand() -> None:
    """1.3/3.1 over 3.5.2.p1: an Action printing "return this to your hand" goes back to the
    hand as it completes, not to the discard pile. Before, the move was not modelled and a
    replay playing such a card was unverifiable there."""
    state, player, _other = _completing("Draw a card. Return this to your hand.")
    need = state.resolution.need if state.resolution else None
    assert need is not None and need.kind == "draw"
    assert not GAME.apply(state, E.Draw(0, player, None))
    assert "Trial Scroll" in state.sides[player].hand.names()
    assert "Trial Scroll" not in state.sides[player].discard.names()


@pytest.mark.parametrize("text, charged", [("Draw a card. Energize this uncharged.", False), ("Energize this.", True)])
def test_an_action_that_energizes_itself_goes_to_the_energy(text: str, charged: bool) -> None:
    """7.2.4.1, 3.7.2: an Action printing "energize this" goes into its owner's Energy as it
    completes, not to the discard pile; "uncharged" puts it there sideways (7.2.2.1.p1), so
    it gives no Energy until it is recharged. Before, the step was not modelled and a replay
    playing such a card was unverifiable there."""
    before: dict[str, int] = {}
    state, player, _other = _completing(text, lambda s: before.update(energy=len(s.sides[holder(s)].energy),
                                                                        charged=s.sides[holder(s)].charged()))
    need = state.resolution.need if state.resolution else None
    if need is not None:
        assert need.kind == "draw" and not GAME.apply(state, E.Draw(0, player, None))
    side = state.sides[player]
    assert len(side.energy) == before["energy"] + 1
    assert side.energy[-1].card.name == "Trial Scroll" and side.energy[-1].charged is charged
    assert side.charged() == before["charged"] + (1 if charged else 0)
    assert "Trial Scroll" not in side.discard.names()
    assert GAME.unsupported(state.cards, "Trial Scroll") is None  # lint takes it as read


def test_an_effect_energizes_cards_its_player_picks_from_the_hand() -> None:
    """7.2.4.1, decision 34: "energize a card from your hand" is shown by an energize event of
    the player, outside the Energize step; the card goes from the hand into the Energy
    (sideways when uncharged). A card the hand does not hold is refused with the rule. "Up
    to" lets the player stop early. Before, the step was not modelled."""
    state, player, _other = _completing("You may energize a card from your hand uncharged.")
    side = state.sides[player]
    hand, energized = len(side.hand), len(side.energy)
    card = _in_hand(state, player)
    assert card is not None
    character = next(c.name for c in state.cards if c.type == "Character")  # never in a hand
    refused = GAME.apply(state.copy(), E.Energize(0, player, character))
    assert refused and refused[0].rule is not None and refused[0].rule.endswith("7.2.4.1")
    assert not GAME.apply(state, E.Energize(0, player, card))
    assert len(side.hand) == hand - 1 and len(side.energy) == energized + 1 and side.energy[-1].charged is False
    assert state.resolution is None or state.resolution.need is None

    state, player, _other = _completing("Energize up to two cards from your hand.",
                                       lambda s: s.sides[holder(s)].hand.add(s.new_card(None, holder(s))))
    side = state.sides[player]
    energized = len(side.energy)
    need = state.resolution.need if state.resolution else None
    assert need is not None and need.kind == "energize" and need.count == 2 and need.optional
    assert not GAME.apply(state, E.Energize(0, player, None))  # a card the log keeps hidden
    assert not GAME.apply(state, E.Pass(0, player))  # one is enough: the player stops
    assert len(side.energy) == energized + 1 and side.energy[-1].charged is True
    assert GAME.unsupported(state.cards, "Trial Scroll") is None


def test_moves_the_spec_does_not_carry_out_are_named_by_lint() -> None:
    """A card whose text moves cards where the spec cannot follow (a card drawn put back on
    top of the deck) is named by ``unsupported``, so lint notes it and the simulator leaves
    it out, rather than being found out only as a replay plays it."""
    cards = CardDatabase("test", "bakugan", 1, [
        CardDef("Peek", "Action", "Draw a card. Put it on top of your deck.", traits=["Aquos"], cost=0),
        CardDef("Boomerang", "Action", "Draw a card. Return this to your hand.", traits=["Aquos"], cost=0),
    ])
    assert "top of deck is not modelled" in (GAME.unsupported(cards, "Peek") or "")
    assert GAME.unsupported(cards, "Boomerang") is None
    cards = CardDatabase("test", "bakugan", 1, [CardDef("Kindle", "Action", "Energize a card from your discard pile.", traits=["Aquos"], cost=0)])
    assert "energizing a card in discard pile is not modelled" in (GAME.unsupported(cards, "Kindle") or "")  # the handler's own reason


def test_lint_names_a_step_the_spec_has_no_handler_for() -> None:
    """A step of an effect the spec carries out for which it has no handler (a repeat
    permission on a rider with no optional part, unlike decision 36's), or cannot carry out
    (retracting "your Bakugan" where no Bakugan is selected, decision 50), is named by
    ``unsupported``: before, lint said nothing and the simulator put the card in its decks, then met the gap at every
    draw. A static's steps are read where they apply, so they are not named."""
    traits = ["Aquos"]
    cards = CardDatabase("test", "bakugan", 1, [
        CardDef("Slow Tide", "Action", "Draw a card. Retract your Bakugan at the end of the turn.", traits=traits, cost=0),
        CardDef("Spendthrift", "Action", "Draw a card. Sacrifice - Discard two cards to draw a card. "
                                         "You may use this any number of times.", traits=traits, cost=0),
        CardDef("Open Table", "Hero", "All players draw an additional card each turn.", traits=traits, cost=0),
    ])
    assert GAME.unsupported(cards, "Slow Tide") == \
        "retracting the Bakugan, where no Bakugan is selected as the card is played, is not modelled"
    assert GAME.unsupported(cards, "Spendthrift") == "the step Permit is not modelled"
    assert GAME.unsupported(cards, "Open Table") is None


def test_d32_a_player_with_no_cards_may_be_the_one_chosen() -> None:
    """Decision 32: when one player's hand is empty, choosing that player discards nothing,
    so a log may go straight on; the player with cards may still be the one who discards."""
    def empty_other_hand(s: BakuganState) -> None:
        hand = s.sides[s.other(holder(s))].hand
        hand.cards, hand.hidden = [], 0

    state, player, _other = _completing("Choose a player to discard a card.", empty_other_hand)
    need = state.resolution.need if state.resolution else None
    assert need is not None and need.player == player and need.optional and not need.among
    taken = state.copy()
    assert not GAME.apply(taken, E.Discard(0, player, _in_hand(taken, player)))
    assert not GAME.apply(state, E.Pass(0, player))  # the empty-handed player was chosen: nothing to discard
    assert state.resolution is None or state.resolution.need is None


def test_a_static_the_spec_cannot_read_leaves_the_view_whole() -> None:
    """A Character's static with a condition the spec does not model leaves its numbers
    unknown (``null``) in the state a report shows. Before, building that state raised, and
    a legal replay from a real pool ended as "the verifier failed on this file"."""
    state = state_where(lambda s: window("power")(s) and any(not b.evos for _p, b in B.face_up(s)))
    player, bak = next((p, b) for p, b in B.face_up(state) if not b.evos)
    name = bak.character.name
    assert name is not None
    printed = state.cards[name]
    odd = CardDef(name, "Character", "If you open on the Reroll, +300 [B].", traits=printed.traits, stats=printed.stats)
    state.cards = CardDatabase("test", "bakugan", 1, [c for c in state.cards if c.name != name] + [odd])
    team = GAME.view(state)["players"][player]["team"]
    assert team[bak.name]["bpower"] is None and team[bak.name]["damage"] is None


# ------------------------------------------------------------------ conditions (decision 33)

def _condition(text: str, card_type: str = "Action") -> Any:
    """The first condition of an invented card text."""
    from grammar import ast as A
    from grammar.parser import parse
    from tests.grammar_support import walk

    return next(node for node in walk(parse(text, "bakugan", card_type=card_type)) if isinstance(node, A.Condition))


def test_a_hand_condition_reads_the_hand_of_the_player_it_names() -> None:
    """"If your opponent has no cards in hand" reads the opponent's hand; "if you have" the
    player's own. Before, every such condition read its controller's hand."""
    state = state_where(window("power"))
    a, b = state.players
    empty = _condition("If your opponent has 0 cards in hand, draw a card.")
    mine = _condition("If you have 0 cards in hand, draw a card.")
    for player, n in ((a, 2), (b, 0)):
        hand = state.sides[player].hand
        for card in list(hand):
            hand.remove(card)
        for _ in range(n):
            hand.add(state.new_card(None, player))
    assert B.condition_holds(state, a, empty, {}) and not B.condition_holds(state, b, empty, {})
    assert not B.condition_holds(state, a, mine, {}) and B.condition_holds(state, b, mine, {})


def test_d33_a_condition_counts_your_heroes_energy_discards_and_open_bakugan() -> None:
    """Decision 33, 3.7.2, 4.6.1: "you have N or more Heroes / Energy cards in play" counts
    the player's Heroes and energized cards, "N or more cards in your discard pile" the
    pile, "only one open Bakugan" the open ones. Before, each was unmodelled."""
    state = state_where(window("power"))
    a, b = state.players
    side = state.sides[a]
    heroes = _condition("If you have two or more Heroes in play, draw a card.")
    side.heroes.clear()
    hero(state, a, "Wren Halloway")
    hero(state, b, "Wren Halloway")
    hero(state, b, "Wren Halloway")  # the other player's Heroes do not count
    assert not B.condition_holds(state, a, heroes, {})
    hero(state, a, "Wren Halloway")
    assert B.condition_holds(state, a, heroes, {})
    energized = _condition("If you have 4 or more Energy cards in play, draw a card.")
    energy(state, a, 3)
    assert not B.condition_holds(state, a, energized, {})
    energy(state, a, 4)
    assert B.condition_holds(state, a, energized, {})
    discards = _condition("If there are 5 or more cards in your discard pile, draw a card.")
    side.discard.cards.clear()
    for _ in range(4):
        side.discard.add(state.new_card("Tidebreak", a, state.cards["Tidebreak"]))
    assert not B.condition_holds(state, a, discards, {})
    side.discard.add(state.new_card("Tidebreak", a, state.cards["Tidebreak"]))
    assert B.condition_holds(state, a, discards, {})
    alone = _condition("Draw a card if you only have one open Bakugan.")
    team = list(side.team.values())
    for bak in team:
        bak.open = False
    assert not B.condition_holds(state, a, alone, {})
    team[0].open = True
    assert B.condition_holds(state, a, alone, {})
    team[1].open = True
    assert not B.condition_holds(state, a, alone, {})


def test_d33_a_condition_on_a_held_bakucore_reads_the_bakugan_meant() -> None:
    """Decision 33, 6.5.2: "that Bakugan is holding [SD]" tests the BakuCores the Bakugan
    the effect is about holds; "it is holding" in a Bakugan's own text, that Bakugan."""
    state = state_where(window("power"))
    player = state.players[0]
    bak = next(iter(state.sides[player].team.values()))
    slot, (icon, _owner) = next(iter(sorted(state.field_cores.items())))
    other_icon = next(i for i in ("SD", "FT", "FF", "BR") if i != icon)
    that = _condition(f"+200 [B]. If that Bakugan is holding [{icon}], draw two cards.")
    it = _condition(f"When this opens, if it is holding a [{icon}], draw a card.", "Evo")
    elsewhere = _condition(f"+200 [B]. If that Bakugan is holding [{other_icon}], draw two cards.")
    bak.holding = []
    assert not B.condition_holds(state, player, that, {"implied": (player, bak.name)})
    bak.holding = [slot]
    assert B.condition_holds(state, player, that, {"implied": (player, bak.name)})
    assert B.condition_holds(state, player, it, {"self": (player, bak.name)})
    assert not B.condition_holds(state, player, elsewhere, {"implied": (player, bak.name)})
    with pytest.raises(B.Unmodelled, match="not known here"):  # no Bakugan named: never guessed
        B.condition_holds(state, player, that, {})


def test_d33_an_action_tests_its_condition_as_it_completes() -> None:
    """Decision 33 through a whole completion: with two Heroes in play, the invented Action
    asks for a draw; with one, it does not."""
    def heroes(count: int) -> Callable[[BakuganState], None]:
        def arrange(s: BakuganState) -> None:
            s.sides[holder(s)].heroes.clear()
            for _ in range(count):
                hero(s, holder(s), "Wren Halloway")
        return arrange

    state, player, _other = _completing("If you have two or more Heroes in play, draw a card.", heroes(2))
    need = state.resolution.need if state.resolution else None
    assert need is not None and need.kind == "draw" and need.player == player
    state, player, _other = _completing("If you have two or more Heroes in play, draw a card.", heroes(1))
    assert state.resolution is None or state.resolution.need is None


def test_d33_lint_names_the_conditions_the_spec_cannot_test() -> None:
    """Decision 33: a condition the spec does not read (a BakuCore held by any one of the
    player's Bakugan, a selection by a test it has no reader for) is named by ``unsupported``, so
    lint notes the card and the simulator leaves it out, before any replay reaches it; a
    condition it reads is not."""
    traits = ["Aquos"]
    cards = CardDatabase("test", "bakugan", 1, [
        CardDef("Rising Tide", "Hero", "If one of your Bakugan are holding [FT], discard a card.", traits=traits, cost=0),
        CardDef("Late Bloom", "Action", "Destroy a Hero that was not played this turn.", traits=traits, cost=0),
        CardDef("Full House", "Action", "If you have two or more Heroes in play, draw a card.", traits=traits, cost=0),
    ])
    assert "the condition holding has FT is not modelled" == GAME.unsupported(cards, "Rising Tide")  # of any one of them
    assert GAME.unsupported(cards, "Late Bloom") is None  # read since decision 49
    assert T.selection_gap(A.Condition("opened", "is", "this turn")) == "the selection condition opened is this turn is not modelled"
    assert GAME.unsupported(cards, "Full House") is None


def test_d33_a_card_you_control_is_one_of_yours_in_play() -> None:
    """Decision 33, 4.6.1: "if you control <name>" holds while a card of that name is one of
    the player's in the play area (a Hero, a team Character or an Evo on it); the other
    player's copy does not count."""
    import msgspec

    state = state_where(window("power"))
    a, b = state.players
    cond = _condition("If you control Wren Halloway, draw a card.")
    for side in state.sides.values():
        side.heroes.clear()
    hero(state, b, "Wren Halloway")
    assert not B.condition_holds(state, a, cond, {})
    hero(state, a, "Wren Halloway")
    assert B.condition_holds(state, a, cond, {})
    character = next(iter(state.sides[a].team.values())).character.name
    assert character is not None
    assert B.condition_holds(state, a, msgspec.structs.replace(cond, value=character), {})


def test_d33_for_each_counts_heroes_plays_and_held_cores() -> None:
    """Decision 33: "for each" counts what a condition counts (the player's Heroes in play),
    the BakuCores their Bakugan hold (6.5.2) and the other cards they played this turn (the
    card whose effect it is left out). Before, each of these was unmodelled."""
    def arrange(s: BakuganState) -> None:
        player = holder(s)
        s.sides[player].pool = 0
        s.sides[player].heroes.clear()
        hero(s, player, "Wren Halloway")
        hero(s, player, "Wren Halloway")
        slots = sorted(s.field_cores)[:3]
        for bak, slot in zip(s.sides[player].team.values(), slots, strict=False):
            bak.holding = [slot]

    state, player, _other = _completing("+1 [Energy] for each Hero card you have in play.", arrange)
    assert state.sides[player].pool == 2
    state, player, _other = _completing("+1 [Energy] for each BakuCore that your Bakugan hold.", arrange)
    assert state.sides[player].pool == B.cores_held(state, player) > 0
    state, player, _other = _completing("+1 [Energy] for each other card you played this turn.", arrange)
    assert state.sides[player].pool == state.flags.plays[player] - 1


def test_d33_for_each_counts_discards_of_one_type() -> None:
    """Decision 33, 4.5.2: "for each Flip card in your discard pile" counts the player's
    discards of that type, which are face up and so known; a discard the log never named
    makes the count unmodelled, never guessed. Before, the count was unmodelled."""
    flip = CardDef("Paper Lantern", "Flip", "Draw a card.", traits=["Aquos"], cost=0)
    action = CardDef("Tin Drum", "Action", "Draw a card.", traits=["Aquos"], cost=0)

    def discards(s: BakuganState) -> None:
        player = holder(s)
        s.sides[player].pool = 0
        pile = s.sides[player].discard
        pile.cards, pile.hidden = [s.new_card(c.name, player, c) for c in (flip, action, flip)], 0

    state, player, _other = _completing("+1 [Energy] for each Flip card in your discard pile.", discards)
    assert state.sides[player].pool == 2
    state.sides[player].discard.hidden = 1
    with pytest.raises(B.Unmodelled, match="never named"):
        B.COUNTED["discard pile", "Flip"](state, player)
    cards = CardDatabase("test", "bakugan", 1, [
        CardDef("Grave Tally", "Action", "+1 [Energy] for each Flip card in your discard pile.", traits=["Aquos"], cost=0)])
    assert GAME.unsupported(cards, "Grave Tally") is None


def test_d33_for_each_counts_the_points_of_a_stat_of_the_bakugan() -> None:
    """Decision 33, 2.10.2: "for each point of [FrostStrike] that Bakugan has" counts that stat
    of the Bakugan the effect is about, as it is when the count is made, after the steps
    before it. Before, the count was unmodelled."""
    def ratings(s: BakuganState) -> dict[str, int]:
        player = holder(s)
        bak = next(b for p, b in B.face_up(s) if p == player)
        return {name: B.stat(s, player, bak, name) for name in ("BPower", "Damage Rating", "FrostStrike")}

    before: dict[str, int] = {}
    state, _player, _other = _completing("+50 [B] for each 1 [Damage Rating] your Bakugan has.",
                                        lambda s: before.update(ratings(s)), aim=own_face_up)
    assert ratings(state)["BPower"] == before["BPower"] + 50 * before["Damage Rating"]
    before.clear()
    state, _player, _other = _completing("+1 [FrostStrike], then +100 [B] for each point of [FrostStrike] that Bakugan has.",
                                        lambda s: before.update(ratings(s)), aim=own_face_up)
    after = ratings(state)
    assert after["FrostStrike"] == before["FrostStrike"] + 1
    assert after["BPower"] == before["BPower"] + 100 * after["FrostStrike"]  # counted after the +1


def test_d33_lint_names_a_count_the_spec_cannot_make() -> None:
    """Decision 33: a "for each" the spec cannot count (the cards an earlier step shuffled) is
    named by ``unsupported``; before, only a replay reaching it found out."""
    cards = CardDatabase("test", "bakugan", 1, [
        CardDef("Deep Shuffle", "Action", "+1 [Damage Rating] for each card shuffled.", traits=["Aquos"], cost=0),
        CardDef("Hero Tally", "Action", "+1 [Energy] for each Hero card you have in play.", traits=["Aquos"], cost=0),
    ])
    assert "counting 'shuffled' is not modelled" == GAME.unsupported(cards, "Deep Shuffle")
    assert GAME.unsupported(cards, "Hero Tally") is None


def test_d33_if_you_do_reads_whether_the_effects_own_retract_closed_a_bakugan() -> None:
    """Decision 33, 7.2.5.1: "Retract a Bakugan. If you do, ..." goes on only when the Retract
    closed a Bakugan: one that was open. One already closed is retracted to no effect, so the
    rest does not happen. Without a Retract before it, "if you do" has nothing to read (lint
    names it). Before, the condition was unmodelled."""
    text = "Retract an opposing Bakugan that didn't open this turn. If you do, discard a card."

    def opposing(s: BakuganState, player: str) -> E.TargetRef:
        return own_face_up(s, s.other(player))

    for was_open in (True, False):
        def arrange(s: BakuganState, was_open: bool = was_open) -> None:
            for p, b in B.face_up(s):
                if p != holder(s):
                    b.open, b.opened_turn = was_open, s.turn - 1

        state, player, _other = _completing(text, arrange, aim=opposing)
        need = state.resolution.need if state.resolution else None
        assert (need is not None and need.kind == "discard" and need.player == player) == was_open, was_open
    traits = ["Aquos"]
    cards = CardDatabase("test", "bakugan", 1, [
        CardDef("Fade Out", "Flip", text, traits=traits, cost=0),
        CardDef("Hollow Promise", "Action", "If you do, discard a card.", traits=traits, cost=0),
    ])
    assert GAME.unsupported(cards, "Fade Out") is None
    assert "read only after the effect's own step (Retract)" in (GAME.unsupported(cards, "Hollow Promise") or "")


def test_d33_opening_on_the_effects_own_reroll() -> None:
    """Decision 33: "if you open on the Reroll" reads how the effect's own Reroll ended, as
    the spec read the roll: a Bakugan that opened gets the rest, one that missed does not.
    Before, the condition was unmodelled."""
    text = "Reroll your Bakugan. If you open on the Reroll, draw a card."

    def rerollable(s: BakuganState) -> bool:
        player = s.priority.holder
        return (window("power")(s) and player == s.starting and s.flags.first_roll_done and not s.flags.victor_begun
                and s.flags.selected.get(player) is not None)

    for opened in (True, False):
        state = state_where(lambda s: rerollable(s) and all(len(s.sides[p].deck) >= 2 and len(s.sides[p].hand) >= 1
                                                           for p in s.players))
        player = holder(state)
        card = CardDef("Second Throw", "Action", text, traits=["Aquos", "Aurelus", "Darkus", "Haos", "Pyrus", "Ventus"], cost=0)
        state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, card])
        state.sides[player].hand.add(state.new_card(card.name, player, card))
        assert not GAME.apply(state, E.Play(0, player, card.name))
        assert not GAME.apply(state, E.Pass(0, player))
        assert not GAME.apply(state, E.Pass(0, state.other(player)))
        need = state.resolution.need if state.resolution else None
        assert need is not None and need.kind == "roll" and need.player == player
        free = next(slot for slot in sorted(state.field_cores) if slot not in {s for p in state.players
                                                                              for b in state.sides[p].team.values() for s in b.holding})
        roll = E.Roll(0, player, opened=True, core=free, attached=True) if opened else E.Roll(0, player, opened=False)
        assert not GAME.apply(state, roll)
        need = state.resolution.need if state.resolution else None
        assert (need is not None and need.kind == "draw") == opened, opened


def test_d33_a_stat_reached_is_the_stat_as_the_rules_read_it() -> None:
    """Decision 33, 2.10.2, 6.3.5: "if the Bakugan's [Damage Rating] becomes N or greater"
    tests the Damage Rating of the Bakugan the effect is about, as the rules read it, when the
    effect completes. Before, the condition was unmodelled."""
    state = state_where(window("power"))
    player, bak = next((p, b) for p, b in B.face_up(state))
    rating = B.stat(state, player, bak, "Damage Rating")
    reached = _condition(f"+2 [Damage Rating]. If the Bakugan's [Damage Rating] becomes {rating} or greater, draw a card.")
    beyond = _condition(f"+2 [Damage Rating]. If the Bakugan's [Damage Rating] becomes {rating + 1} or greater, draw a card.")
    about = {"implied": (player, bak.name)}
    assert B.condition_holds(state, player, reached, about)
    assert not B.condition_holds(state, player, beyond, about)
    with pytest.raises(B.Unmodelled, match="not known here"):
        B.condition_holds(state, player, reached, {})


def test_d33_a_condition_on_the_effects_own_step_needs_that_step() -> None:
    """Decision 33: "if you open on the Reroll" and "if heads" read what the effect's own
    Reroll or coin did. Where no such step comes before (a static, an effect without it)
    there is nothing to read: ``unsupported`` names the card, and testing the condition is
    unmodelled, never read as false."""
    traits = ["Aquos"]
    cards = CardDatabase("test", "bakugan", 1, [
        CardDef("Hopeful Throw", "Action", "If you open on the Reroll, draw a card.", traits=traits, cost=0),
        CardDef("Second Throw", "Action", "Reroll your Bakugan. If you open on the Reroll, draw a card.", traits=traits, cost=0),
    ])
    assert "read only after the effect's own step (Reroll)" in (GAME.unsupported(cards, "Hopeful Throw") or "")
    assert GAME.unsupported(cards, "Second Throw") is None
    state = state_where(window("power"))
    for text in ("If you open on the Reroll, draw a card.", "Flip a coin. If heads, draw a card."):
        with pytest.raises(B.Unmodelled, match="only after the effect's own step"):
            B.condition_holds(state, state.players[0], _condition(text), {})


_OFFERED = (CardDef("Lamp Keeper", "Hero", "", traits=["Haos"], cost=2),      # Haos, cheap enough
            CardDef("Tower Warden", "Hero", "", traits=["Haos"], cost=5),     # Haos, too dear
            CardDef("Ember Scout", "Hero", "", traits=["Pyrus"], cost=1))     # not Haos


def _hand_of(*names: str) -> Callable[[BakuganState], None]:
    """A ``prepare`` for :func:`_completing`: the cards of ``_OFFERED`` known, and the
    starting player's hand made of ``names`` only (so the hand is known whole)."""
    def prepare(s: BakuganState) -> None:
        s.cards = CardDatabase("test", "bakugan", 1, [*s.cards, *_OFFERED])
        player = holder(s)
        hand = s.sides[player].hand
        hand.cards.clear()
        hand.hidden = 0
        for name in names:
            hand.add(s.new_card(name, player, s.cards[name]))
    return prepare


def test_d35_a_card_an_effect_lets_its_player_play_comes_from_the_hand_as_the_text_describes_it() -> None:
    """Decision 35, 6.2.1.p1, 2.3.3: "play a [Haos] card that costs 2 [Energy] or less for
    free" names no zone, so the card comes from the hand; its Factions and cost are checked
    as it is played, and it costs nothing. Before, such a text was not modelled, and where
    the hand was named only the card's type was checked."""
    text = "You may play a [Haos] card that costs 2 [Energy] or less for free."
    for wrong, why in (("Ember Scout", "not Haos"), ("Tower Warden", "costs 5")):
        state, player, _other = _completing(text, _hand_of("Lamp Keeper", "Tower Warden", "Ember Scout"))
        refused = GAME.apply(state, E.Play(0, player, wrong))
        assert refused and refused[0].rule == "bakugan:2.3.3" and why in refused[0].violation.message, wrong
    state, player, _other = _completing(text, _hand_of("Lamp Keeper", "Tower Warden", "Ember Scout"))
    energy(state, player, 0)
    assert not GAME.apply(state, E.Play(0, player, "Lamp Keeper"))  # free: no Energy needed
    assert [i.name for i in state.batch.items] == ["Lamp Keeper"] and "Lamp Keeper" not in state.sides[player].hand.names()
    moves = GAME.legal_moves(_completing(text, _hand_of("Lamp Keeper", "Tower Warden", "Ember Scout"))[0])
    assert {m.card for m in moves if isinstance(m, E.Play)} == {"Lamp Keeper"}
    cards = CardDatabase("test", "bakugan", 1, [
        CardDef("Gift", "Action", text, traits=["Haos"], cost=0),
        CardDef("Echo", "Action", "+300 [B]. You may play it for free.", traits=["Haos"], cost=0)])
    assert GAME.unsupported(cards, "Gift") is None
    assert "playing it card is not modelled" in (GAME.unsupported(cards, "Echo") or "")  # a card named otherwise than "a"


def test_d35_a_play_not_said_free_is_paid_for() -> None:
    """2.3.1.1, decision 35: an effect that lets its player play a card without "for free"
    leaves the cost to pay. Before, every play an effect asked for was free."""
    state, player, _other = _completing("You may play a Hero from your hand.", _hand_of("Tower Warden"))
    energy(state, player, 0)
    refused = GAME.apply(state, E.Play(0, player, "Tower Warden"))
    assert refused and refused[0].rule == "bakugan:2.3.1.1"


def test_d35_a_play_the_effect_makes_is_skipped_only_when_no_card_can_be_played() -> None:
    """6.7.1.3, 1.3/3.4, decision 35: "play a [Haos] Hero ... for free" (no "may") is the
    player's to make when the hand, shown whole, holds a card that can be played; going on
    without it is refused with 6.7.1.3. With no such card, or a hand the log keeps hidden
    (the spec cannot tell), going on is legal; "you may" always leaves it to the player."""
    text = "Play a [Haos] Hero that costs 2 [Energy] or less for free."
    state, player, _other = _completing(text, _hand_of("Lamp Keeper", "Ember Scout"))
    for skip in (E.Pass(0, player), E.Decline(0, player)):
        refused = GAME.apply(state.copy(), skip)
        assert refused and refused[0].rule == "bakugan:6.7.1.3" and "Lamp Keeper" in refused[0].violation.message
    assert not GAME.apply(state, E.Play(0, player, "Lamp Keeper"))
    for hand, text_ in ((("Tower Warden", "Ember Scout"), text), (("Lamp Keeper",), "You may " + text[0].lower() + text[1:])):
        state, player, _other = _completing(text_, _hand_of(*hand))
        assert not GAME.apply(state, E.Pass(0, player)), hand
    state, player, _other = _completing(text, lambda s: (_hand_of("Lamp Keeper")(s), s.sides[holder(s)].hand.add(s.new_card(None, holder(s)))))
    assert not GAME.apply(state, E.Pass(0, player))  # a hidden card: the spec cannot tell
    assert T.playable_gap(A.Condition("opened", "not", "this turn")) is not None
    cards = CardDatabase("test", "bakugan", 1, [CardDef("Late Call", "Action", "Play a Hero that was not played this turn for free.",
                                                        traits=["Haos"], cost=0)])
    assert GAME.unsupported(cards, "Late Call") == "the condition played not this turn on a card played is not modelled"


def test_d36_a_rider_used_any_number_of_times_is_offered_again_after_each_use() -> None:
    """1.3/3.1, 1.15.1.p2, decision 36: "you may discard a card for ... . You may use this any
    number of times" is offered again after each use, until the player declines or can no
    longer pay. Before, the permission had no handler and the card was unverifiable."""
    text = "+1 [Damage Rating]. Sacrifice - You may discard a card for +100 [B]. You may use this any number of times."
    state, player, _other = _completing(text, _hand_of("Lamp Keeper", "Tower Warden", "Ember Scout"), aim=own_face_up)
    side = state.sides[player]
    bak = next(b for p, b in B.face_up(state) if p == player)
    before = B.stat(state, player, bak, "BPower")
    for card in ("Lamp Keeper", "Tower Warden"):
        need = state.resolution.need if state.resolution else None
        assert need is not None and need.kind == "may", card
        assert not GAME.apply(state, E.Discard(0, player, card))
    assert not GAME.apply(state, E.Decline(0, player))
    assert state.resolution is None and side.hand.names() == ["Ember Scout"]
    assert B.stat(state, player, bak, "BPower") == before + 200
    state, player, _other = _completing(text, _hand_of("Lamp Keeper"), aim=own_face_up)
    assert not GAME.apply(state, E.Discard(0, player, "Lamp Keeper"))
    assert state.resolution is None  # nothing left to pay with: the offer ends without a decline
    cards = CardDatabase("test", "bakugan", 1, [CardDef("Spendthrift", "Action", text, traits=["Aquos"], cost=0)])
    assert GAME.unsupported(cards, "Spendthrift") is None


def test_d37_cards_looked_at_on_top_of_the_deck_are_put_back_unseen() -> None:
    """4.2.2.p1, 1.3/3.1, decision 37: looking at the deck's top cards and putting them back
    on top in any order leaves the deck as the log knows it (face down, order unknown):
    nothing moves. Before, the put-back was not modelled. "Put it on top" with no look before
    it stays unmodelled."""
    text = "Look at the top two cards of your deck, then put them on top of your deck."
    decks: dict[str, int] = {}
    state, player, _other = _completing(text, lambda s: decks.update({p: len(s.sides[p].deck) for p in s.players}))
    assert state.resolution is None and [i.name for i in state.batch.items] == []
    assert len(state.sides[player].deck) == decks[player]
    cards = CardDatabase("test", "bakugan", 1, [
        CardDef("Glimpse", "Action", text, traits=["Aquos"], cost=0)])
    assert GAME.unsupported(cards, "Glimpse") is None


def test_d37_an_effect_energizes_a_chosen_hero_or_each_card_of_the_discard_pile() -> None:
    """7.2.4.1, 3.4.2.p2, 4.5.2, decision 37: a Hero an earlier step chose leaves the play area
    for its controller's Energy; "each card in your discard pile" goes into the Energy (face
    up, so every card is known), sideways when "uncharged". Before, both were not modelled."""
    def with_hero(s: BakuganState) -> None:
        s.cards = CardDatabase("test", "bakugan", 1, [*s.cards, *_OFFERED])
        hero(s, s.other(holder(s)), "Lamp Keeper")
    state, player, other = _completing("Choose a Hero. Its controller must Energize it.", with_hero,
                                       aim=lambda s, p: E.TargetRef("Lamp Keeper", s.other(p)))
    side = state.sides[other]
    assert side.heroes == [] and [e.card.name for e in side.energy][-1] == "Lamp Keeper" and side.energy[-1].charged
    state, player, _other = _completing("Energize each card in your discard pile uncharged.",
                                       lambda s: [s.sides[holder(s)].discard.add(s.new_card(n, holder(s))) for n in ("Lamp Keeper", "Ember Scout")])
    side = state.sides[player]
    assert "Lamp Keeper" not in side.discard.names() and "Ember Scout" not in side.discard.names()
    assert [e.card.name for e in side.energy[-2:]] == ["Lamp Keeper", "Ember Scout"] and not side.energy[-1].charged


def test_d38_a_choice_between_options_is_shown_by_a_choose_event() -> None:
    """6.7.1.4, decision 38: "choose one: ..., or ..." waits for the chooser's ``choose``
    event, which names the option by its place in the text; that option happens. An option
    the text does not have is refused, and so is a choose no effect asked for. A choice
    whose options select objects of their own is not modelled. Before, Choice had no handler."""
    text = "Choose one: draw two cards, or energize the top two cards of your deck uncharged."
    state, player, other = _completing(text)
    need = state.resolution.need if state.resolution else None
    assert need is not None and need.kind == "choose" and need.player == player
    assert GAME.legal_moves(state) == [E.Choose(0, player, 1), E.Choose(0, player, 2)]
    refused = GAME.apply(state.copy(), E.Choose(0, player, 3))
    assert refused and refused[0].rule == "bakugan:6.7.1.4" and "option 3" in refused[0].violation.message
    assert GAME.apply(state.copy(), E.Choose(0, other, 1))  # not the chooser's
    side = state.sides[player]
    deck, energy_cards = len(side.deck), len(side.energy)
    assert not GAME.apply(state, E.Choose(0, player, 2))
    assert len(side.deck) == deck - 2 and len(side.energy) == energy_cards + 2 and not side.energy[-1].charged
    state, player, _other = _completing(text)
    assert not GAME.apply(state, E.Choose(0, player, 1))
    need = state.resolution.need if state.resolution else None
    assert need is not None and need.kind == "draw" and need.count == 2
    stray = GAME.apply(state_where(window("power")), E.Choose(0, player, 1))
    assert stray and stray[0].rule == "bakugan:6.7.1.4"
    cards = CardDatabase("test", "bakugan", 1, [
        CardDef("Fork", "Action", text, traits=["Aquos"], cost=0),
        CardDef("Split", "Action", "-2 [Damage Rating] to an enemy Bakugan or +2 [Damage Rating] to one of your Bakugan.",
                traits=["Aquos"], cost=0)])
    assert GAME.unsupported(cards, "Fork") is None
    assert "options that select" in (GAME.unsupported(cards, "Split") or "")


# ------------------------------------------------------------------ the stat that decides the Victor (decision 39)

def _tilted(state: BakuganState, ahead: str, rating: int) -> None:
    """Give the other player's brawling Bakugan 1000 more BPower than ``ahead``'s, and
    ``ahead``'s ``rating`` more Damage Rating than the other's (changes that last the turn)."""
    behind = state.other(ahead)
    bak = {p: state.sides[p].team[state.in_brawl[p]] for p in (ahead, behind)}
    power = {p: B.stat(state, p, b, "BPower") for p, b in bak.items()}
    damage = {p: B.stat(state, p, b, "Damage Rating") for p, b in bak.items()}
    state.lasting.append(Lasting(behind, bak[behind].name, "BPower", power[ahead] - power[behind] + 1000, uid=bak[behind].character.uid))
    state.lasting.append(Lasting(ahead, bak[ahead].name, "Damage Rating", damage[behind] - damage[ahead] + rating,
                                 uid=bak[ahead].character.uid))


_REAL_POOL = Path(__file__).resolve().parents[2] / "shared" / "cards" / "bakugan.dev.jsonl"
"""The real Bakugan pool beside the checkout: tests read texts of its cards (they are never copied here)."""


def test_d39_an_effect_can_make_another_stat_decide_the_victor() -> None:
    """5.10.1, decision 39: the real Action Might of Cyndeus makes the Power step of its turn
    compare Damage Rating; a tie in it is broken as a BPower tie is (5.9.2). Without the
    effect, BPower decides. The real Hero Mac makes the change as its play trigger completes,
    and its "Your Bakugan have ..." is a static of its own. Before, the step was not modelled."""
    pool = CardDatabase.cached(_REAL_POOL, "bakugan")
    text = pool["Might of Cyndeus"].text or ""
    state, player, other = _completing(text, aim=own_face_up)
    assert state.resolution is None and state.flags.victor_by == "Damage Rating" and len(state.in_brawl) == 2
    plain = state.copy()
    plain.flags.victor_by = "BPower"
    for judged_state, victor in ((state, player), (plain, other)):
        _tilted(judged_state, player, 1)
        GAME._decide_victor(judged_state)
        assert judged_state.victor == victor
        refused = GAME.apply(judged_state.copy(), E.Victor(0, player=judged_state.other(victor)))
        assert refused and refused[0].rule == "bakugan:5.10.1"
        assert not GAME.apply(judged_state.copy(), E.Victor(0, player=victor))
    tied, _player, _other = _completing(text, aim=own_face_up)
    _tilted(tied, player, 0)
    GAME._decide_victor(tied)
    assert tied.victor is None and tied.mode == "tie"
    assert state.copy().flags.victor_by == "Damage Rating"  # the turn's flags carry it through a copy
    assert GAME.unsupported(pool, "Mac") is None and GAME.unsupported(pool, "Might of Cyndeus") is None
    mac = pool.tree("Mac")
    assert not isinstance(mac, Exception) and [type(a).__name__ for a in mac.abilities] == ["Triggered", "Passive"]


def test_a_trigger_the_spec_never_fires_is_named_by_lint_and_unverifiable_in_a_replay() -> None:
    """A triggered ability whose trigger the spec never fires would do nothing, silently: lint
    names it (the simulator leaves the card out), and a replay says it is unverifiable when a
    card with it is played or is on a team. Before, "When you discard a card, ..." passed lint
    and was never carried out. Every shape of trigger the spec fires passes."""
    traits = ["Aquos", "Aurelus", "Darkus", "Haos", "Pyrus", "Ventus"]
    watcher = CardDef("Tally Clerk", "Hero", "When you draw a card, your opponent discards a card.", traits=traits, cost=0)
    scout = CardDef("Gloom Scout", "Character", "When you draw a card, this gets +100 [B].", traits=["Darkus"],
                    stats={"bpower": 100, "damage": 1, "cores": []})
    fired = [CardDef(f"Fired {i}", "Hero", text, traits=traits, cost=0) for i, text in enumerate((
        "When you play this, draw a card.", "When you open a Bakugan, draw a card.", "When your opponent plays a Flip card, draw a card.",
        "If you take damage, draw a card.", "At the end of the turn, draw a card."))]
    cards = CardDatabase("test", "bakugan", 1, [watcher, scout, *fired])
    assert GAME.unsupported(cards, "Tally Clerk") == "the trigger 'drawn' (by you, a card) is not modelled"
    assert [GAME.unsupported(cards, c.name) for c in fired] == [None] * len(fired)
    state = state_where(lambda s: window("power")(s) and s.priority.holder == s.starting)
    player = holder(state)
    state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, watcher])
    state.sides[player].hand.add(state.new_card(watcher.name, player, watcher))
    found = GAME.apply(state, E.Play(0, player, watcher.name))
    assert [(r.rule, r.violation.severity) for r in found] == [(None, "unverifiable")]
    assert "Tally Clerk: the trigger 'drawn'" in found[0].violation.message
    assert [item.name for item in state.batch.items] == [watcher.name]  # played all the same
    setup = Setup(("ann", "ben"), {"ann": {"deck": {}, "team": ["Gloom Scout"]}, "ben": None}, {}, cards)
    GAME.setup(setup)
    assert any(r.violation.severity == "unverifiable" and "ann's team: Gloom Scout: the trigger 'drawn'" in r.violation.message
               for r in setup.rulings)


# ------------------------------------------------------------------ a triggered ability's own selections (decision 40)

_ALL_FACTIONS = ["Aquos", "Aurelus", "Darkus", "Haos", "Pyrus", "Ventus"]


def _hero_played(text: str, prepare: Callable[[BakuganState], None] | None = None) -> tuple[BakuganState, str, str, Any]:
    """A power-step state in which the starting player has just played an invented Hero printing ``text``."""
    state = state_where(lambda s: window("power")(s) and s.priority.holder == s.starting)
    if prepare is not None:
        prepare(state)
    player = holder(state)
    card = CardDef("Warden of Oaths", "Hero", text, traits=_ALL_FACTIONS, cost=0)
    state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, card])
    state.sides[player].hand.add(state.new_card(card.name, player, card))
    found = GAME.apply(state, E.Play(0, player, card.name))
    return state, player, state.other(player), found



def test_d40_a_triggered_ability_makes_its_selections_as_it_enters_the_batch() -> None:
    """1.13.1.p1, 6.3.2.p2, decision 40: "When you play this, a Bakugan gets +5000 [B]" waits,
    as it enters the batch, for its controller's ``target`` event naming the Bakugan; then the
    Bakugan gets it as the ability completes. Going on without it is refused; so are a
    selection that is not legal (6.2.1.2) and a target event no ability asked for (6.7.1.4).
    Before, the selection was never made and the ability silently did nothing."""
    state, player, other, found = _hero_played("When you play this, a Bakugan gets +5000 [B].")
    assert not found
    need = state.resolution.need if state.resolution else None
    assert need is not None and need.kind == "target" and need.player == player
    moves = GAME.legal_moves(state)
    chosen = next(m for m in moves if isinstance(m, E.Target) and m.targets[0].owner == other)
    assert all(isinstance(m, E.Target) for m in moves) and len(moves) == len(B.face_up(state))
    going_on = GAME.apply(state.copy(), E.Pass(0, player))
    assert going_on and going_on[0].rule == "bakugan:1.13.1.p1"
    wrong = GAME.apply(state.copy(), E.Target(0, player, [E.TargetRef("Nobody Here", other)]))
    assert wrong and wrong[0].rule == "bakugan:6.2.1.2"
    assert not GAME.apply(state, chosen)
    assert state.resolution is None and [item.kind for item in state.batch.items] == ["card", "triggered"]
    for _ in range(2):
        assert not GAME.apply(state, E.Pass(0, player)) and not GAME.apply(state, E.Pass(0, other))
    named = chosen.targets[0]
    assert [(c.player, c.bakugan, c.stat, c.amount) for c in state.lasting][-1:] == [(named.owner, named.card, "BPower", 5000)]
    stray = GAME.apply(state, E.Target(0, player, [named]))
    assert stray and stray[0].rule == "bakugan:6.7.1.4"


def test_d40_a_triggered_ability_with_nothing_to_select_does_not_enter_the_batch() -> None:
    """1.13.1.p2, decision 40: with no legal choice for a selection (no Bakugan face up), the
    ability does not enter the batch and nothing is asked for."""
    def all_face_down(s: BakuganState) -> None:
        for side in s.sides.values():
            for bak in side.team.values():
                bak.face_up = False

    state, _player, _other, found = _hero_played("When you play this, a Bakugan gets +5000 [B].", all_face_down)
    assert not found and state.resolution is None and state.pending_item is None
    assert [item.kind for item in state.batch.items] == ["card"]


def test_d40_selecting_an_energy_card_is_unverifiable_not_illegal() -> None:
    """Decision 40: taking control of an Energy card is not modelled (decision 44 models
    destroying one only): lint names it, and a play of it is unverifiable. Before, the spec
    found no candidate and refused the play by 1.13.1.p2."""
    text = "Take control of an Energy card."
    cards = CardDatabase("test", "bakugan", 1, [CardDef("Static Burn", "Action", text, traits=["Pyrus"], cost=0)])
    assert GAME.unsupported(cards, "Static Burn") == "selecting an Energy card in play other than to destroy it is not modelled"
    state = state_where(lambda s: window("power")(s) and s.priority.holder == s.starting)
    player = holder(state)
    card = CardDef("Static Burn", "Action", text, traits=_ALL_FACTIONS, cost=0)
    state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, card])
    state.sides[player].hand.add(state.new_card(card.name, player, card))
    found = GAME.apply(state, E.Play(0, player, card.name, targets=[E.TargetRef("Energy", state.other(player))]))
    assert [(r.rule, r.violation.severity) for r in found] == [(None, "unverifiable")]


def test_d40_a_trigger_selecting_what_the_spec_cannot_select_is_unverifiable_and_loses_nothing() -> None:
    """Decision 40: a triggered ability selecting an Energy card to take (not modelled) makes the
    event that set it off unverifiable; the ability still enters the batch, unselected, behind
    the card that triggered it; as it completes, the step it cannot carry out is unverifiable
    again, and the game goes on from there."""
    state, player, other, found = _hero_played("When you play this, take control of an Energy card.")
    assert [(r.rule, r.violation.severity) for r in found] == [(None, "unverifiable")]
    assert "Energy card" in found[0].violation.message
    assert [item.kind for item in state.batch.items] == ["card", "triggered"]
    assert state.resolution is None and state.pending_item is None and not state.waiting
    assert not GAME.apply(state, E.Pass(0, player))
    completing = GAME.apply(state, E.Pass(0, other))
    assert [(r.rule, r.violation.severity) for r in completing] == [(None, "unverifiable")]
    assert [item.kind for item in state.batch.items] == ["card"] and state.resolution is None


# ------------------------------------------------------------------ discarding (decision 41)

def _echo() -> CardDef:
    """An Action printing the real Shadow Coil's text (read from ../shared, never copied here),
    whose own text answers its being discarded: a free play from the discard pile."""
    return CardDef("Coiled Echo", "Action", CardDatabase.cached(_REAL_POOL, "bakugan")["Shadow Coil"].text, traits=_ALL_FACTIONS, cost=3)

_KEEPER = CardDef("Ledger Keeper", "Hero", "When you discard a card, draw a card.", traits=_ALL_FACTIONS, cost=0)
"""An invented Hero that watches its controller's discards."""


def _holding(*cards: CardDef) -> Callable[[BakuganState], None]:
    """A ``prepare`` that adds ``cards`` to the database and one copy of each to the hand of the player holding priority."""
    def prepare(state: BakuganState) -> None:
        state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, *cards])
        player = holder(state)
        for card in cards:
            state.sides[player].hand.add(state.new_card(card.name, player, card))
    return prepare


def test_d41_a_discard_triggers_what_watches_its_player_s_discards() -> None:
    """6.3.2.p1, decision 41: a card discarded by an effect sets off "When you discard a card"
    of its player's Hero, which waits and enters the batch as the effect completes; the other
    player's discard does not, and a Hero in play answering only its own discard does not. Before, the trigger was never fired (lint named the card)."""
    warden = CardDef("Echo Warden", "Hero", _echo().text, traits=_ALL_FACTIONS, cost=0)  # answers only its own discard

    def keeper_in_play(state: BakuganState) -> None:
        _holding(_KEEPER, warden)(state)
        player = holder(state)
        for card in (_KEEPER, warden):
            state.sides[player].heroes.append(state.sides[player].hand.find(card.name) or state.new_card(card.name, player, card))
            state.sides[player].hand.remove(state.sides[player].heroes[-1])

    state, player, other = _completing("Each player discards a card.", keeper_in_play)
    assert GAME.unsupported(state.cards, _KEEPER.name) is None
    assert not GAME.apply(state, E.Discard(0, player, _in_hand(state, player)))
    assert [item.name for item in state.waiting] == [_KEEPER.name]
    assert not GAME.apply(state, E.Discard(0, other, _in_hand(state, other)))
    assert state.resolution is None and [(i.kind, i.name, i.controller) for i in state.batch.items] == [("triggered", _KEEPER.name, player)]


def test_d41_a_card_whose_own_text_answers_its_discard_is_played_from_the_discard_pile() -> None:
    """1.3/3.1, 4.5.1.p1, decision 41: a card's own discard trigger, letting it be played for
    free, fires from the discard pile as the card is discarded; as the ability completes, its owner may
    play that very card from there, for free. No other card answers it, and outside it the
    card is not played from the discard pile (6.2.1.1.p1). An Action that completes and goes
    to the discard pile is not discarded. Before, lint named the card and the simulator left it out."""
    _ECHO = _echo()
    assert GAME.unsupported(CardDatabase("test", "bakugan", 1, [_ECHO]), _ECHO.name) is None
    state, player, other = _completing("Discard a card.", _holding(_ECHO))
    pile = state.sides[player].discard
    assert not GAME.apply(state, E.Discard(0, player, _ECHO.name))
    assert _ECHO.name in pile.names() and [(i.kind, i.name) for i in state.batch.items] == [("triggered", _ECHO.name)]
    refused = GAME.apply(state.copy(), E.Play(0, player, _ECHO.name, targets=[own_face_up(state, player)]))
    assert refused and refused[0].rule == "bakugan:6.2.1.1.p1"  # not yet: the ability has not completed
    assert not GAME.apply(state, E.Pass(0, player)) and not GAME.apply(state, E.Pass(0, other))
    need = state.resolution.need if state.resolution else None
    assert need is not None and need.kind == "may" and need.player == player
    aim = E.TargetRef(B.face_up(state)[0][1].name, B.face_up(state)[0][0])
    play = E.Play(0, player, _ECHO.name, targets=[aim])
    assert play in GAME.legal_moves(state)
    state.sides[player].hand.add(state.new_card(_ECHO.name, player, _ECHO))  # a second copy, in the hand: not the card discarded
    energy(state, player, 0)
    kept = state.copy()
    assert not GAME.apply(state, play)
    assert _ECHO.name not in pile.names() and _ECHO.name in state.sides[player].hand.names()
    assert [(i.kind, i.name) for i in state.batch.items] == [("card", _ECHO.name)]
    assert not GAME.apply(state, E.Pass(0, player)) and not GAME.apply(state, E.Pass(0, other))
    assert _ECHO.name in pile.names() and not state.batch.items and not state.waiting  # completed: to the pile, not discarded
    declined = kept.copy()
    assert not GAME.apply(declined, E.Decline(0, player)) and _ECHO.name in declined.sides[player].discard.names()
    another = next(n for n in kept.sides[player].hand.names() if n != _ECHO.name)
    refused = GAME.apply(kept.copy(), E.Play(0, player, another))
    assert refused and refused[0].rule == "bakugan:2.3.3" and refused[0].violation.message.endswith("it is not Coiled Echo")
    gone = kept.copy()  # it left the discard pile before the ability completed: nothing to play (1.3/3.4)
    for zone in (gone.sides[player].discard, gone.sides[player].hand):
        zone.cards = [c for c in zone.cards if c.name != _ECHO.name]
    refused = GAME.apply(gone, play)
    assert refused and refused[0].rule == "bakugan:6.2.1.1.p1" and gone.resolution is None


def test_d41_a_discard_for_the_hand_limit_triggers_but_what_it_sets_off_lapses() -> None:
    """4.3.2.p2, 5.15.1.p2, decision 41: a card discarded for the hand limit is discarded, so
    what watches discards triggers; but no priority window is left in the turn, so the
    ability lapses, each with an info finding, and the next turn begins clean."""
    state = state_where(lambda s: window("play")(s) and s.priority.holder == s.starting)
    _ECHO = _echo()
    _holding(_KEEPER, _ECHO)(state)
    player, other = holder(state), state.other(holder(state))
    side = state.sides[player]
    keeper = side.hand.find(_KEEPER.name)
    assert keeper is not None
    side.hand.remove(keeper)
    side.heroes.append(keeper)
    while len(side.hand) < 8:
        side.hand.add(state.new_card(_ECHO.name, player, _ECHO))
    state.sides[other].hand.cards = state.sides[other].hand.cards[:7]
    assert not GAME.apply(state, E.Pass(0, player)) and not GAME.apply(state, E.Pass(0, other))
    assert state.node == "reset" and state.discarding == {player: len(side.hand) - 7}
    found = GAME.apply(state, E.Discard(0, player, _ECHO.name))
    assert [(r.rule, r.violation.severity) for r in found] == [("bakugan:5.15.1.p2", "info")] * 2
    assert {_KEEPER.name, _ECHO.name} == {m for r in found for m in (_KEEPER.name, _ECHO.name) if m in r.violation.message}
    assert not state.waiting and not state.batch.items and state.node == "draw" and _ECHO.name in side.discard.names()


def test_d42_one_selection_serves_a_list_of_changes() -> None:
    """1.13.1.p1, decision 42: "a Bakugan gets +200 [B] and +2 [Damage Rating]" asks for one
    selection, and the Bakugan selected gets both changes. Before, the second change was read
    as one for "the Bakugan", a second selection (on a Hero) or the card's own Bakugan."""
    state, player, other, found = _hero_played("When you play this, a Bakugan gets +200 [B] and +2 [Damage Rating].")
    assert not found
    need = state.resolution.need if state.resolution else None
    assert need is not None and need.kind == "target" and len(need.detail) == 1
    chosen = next(m for m in GAME.legal_moves(state) if isinstance(m, E.Target) and m.targets[0].owner == other)
    assert len(chosen.targets) == 1 and not GAME.apply(state, chosen)
    for _ in range(2):
        assert not GAME.apply(state, E.Pass(0, player)) and not GAME.apply(state, E.Pass(0, other))
    named = chosen.targets[0]
    assert sorted((c.player, c.bakugan, c.stat, c.amount) for c in state.lasting[-2:]) == [
        (named.owner, named.card, "BPower", 200), (named.owner, named.card, "Damage Rating", 2)]
    action = CardDef("Twin Boon", "Action", "Give a Bakugan +300 [B] and +3 [Damage Rating].", traits=_ALL_FACTIONS, cost=0)
    state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, action])
    assert len(T.slots_of(X.played_steps(state, action.name))) == 1


def test_d43_a_bakugan_attacking_sets_off_what_watches_attacks() -> None:
    """5.11.2, 6.3.2.p1, decision 43: as the Victor's Bakugan attacks, "When one of your Bakugan
    attacks" of its player's Hero triggers, not the other player's; it waits out the damage and
    enters the batch in the window after it (5.11.3). Before, lint named the card and the
    trigger was never fired."""
    watcher = CardDef("Drill Sergeant", "Hero", "When one of your Bakugan attacks, draw a card.", traits=_ALL_FACTIONS, cost=0)
    assert GAME.unsupported(CardDatabase("test", "bakugan", 1, [watcher]), watcher.name) is None
    state = state_where(lambda s: window("victor")(s) and s.victor in s.in_brawl and s.priority.holder == s.starting)
    state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, watcher])
    victor = state.victor or ""
    for player in state.players:
        state.sides[player].heroes.append(state.new_card(watcher.name, player, watcher))
    state.watching = None  # the Heroes changed
    first = holder(state)
    assert not GAME.apply(state, E.Pass(0, first)) and not GAME.apply(state, E.Pass(0, state.other(first)))
    assert state.node == "damage"
    fired = [(i.name, i.controller) for i in [*state.waiting, *state.batch.items]]
    assert fired == [(watcher.name, victor)]
    while state.mode in ("deal", "offer") and state.stage == "turn":
        move = next(m for m in GAME.legal_moves(state) if isinstance(m, E.Flip | E.Pass))
        assert not [r for r in GAME.apply(state, move) if r.violation.severity != "info"]
    assert state.stage == "over" or (not state.waiting and [(i.name, i.controller) for i in state.batch.items] == [(watcher.name, victor)])


def test_d41_an_unnamed_discard_that_may_answer_itself_is_unverifiable() -> None:
    """Decision 41: a discard the log does not name, from a hand that may hold a card whose own
    text answers its discard, is unverifiable: the spec cannot tell whether that ability fired.
    Without such a card in the hand, an unnamed discard is judged as before."""
    echo = _echo()
    for holding, verdicts in (((echo,), [(None, "unverifiable")]), ((), [])):
        state, player, _other = _completing("Discard a card.", _holding(*holding))
        state.sides[player].hand.add(state.new_card(None, player))  # a card the log keeps hidden
        found = GAME.apply(state, E.Discard(0, player, None))
        assert [(r.rule, r.violation.severity) for r in found] == verdicts
        assert state.resolution is None and len(state.sides[player].discard) >= 1


def test_d43_a_flip_offered_during_the_damage_is_declined_while_the_attack_trigger_waits() -> None:
    """Decision 43: with an ability set off by the attack waiting for the window after the damage,
    a log that leaves its passes unsaid still declines a Flip card the damage turned over by
    going on with the next damage card. Before, the waiting ability kept the players from
    passing on, and the next card was refused."""
    watcher = CardDef("Drill Sergeant", "Hero", "When one of your Bakugan attacks, draw a card.", traits=_ALL_FACTIONS, cost=0)
    trap = CardDef("Snap Trap", "Flip", "+1 [Damage Rating].", traits=_ALL_FACTIONS, cost=0)
    state = state_where(lambda s: window("victor")(s) and s.victor in s.in_brawl and s.priority.holder == s.starting)
    state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, watcher, trap])
    victor = state.victor or ""
    loser = state.other(victor)
    state.sides[victor].heroes.append(state.new_card(watcher.name, victor, watcher))
    state.watching = None
    first = holder(state)
    assert not GAME.apply(state, E.Pass(0, first)) and not GAME.apply(state, E.Pass(0, state.other(first)))
    assert state.mode == "deal" and state.attack is not None and [i.name for i in state.waiting] == [watcher.name]
    state.attack.rating = max(state.attack.rating, 3)  # damage enough for a second card
    offered = state.new_card(trap.name, loser, trap)
    state.sides[loser].discard.add(offered)
    state.attack.dealt += 1
    state.offer, state.mode = offered, "offer"
    state.priority.reset(loser)
    state.explicit_passes = False
    assert GAME._can_advance(state)
    found = GAME.apply(state, E.Flip(0, loser, None))
    assert not [r for r in found if r.violation.severity != "info"]
    assert state.offer is None and state.attack.dealt == 2 and [i.name for i in state.waiting] == [watcher.name]


def test_d43_this_attacks_fires_for_the_attacking_bakugan_only() -> None:
    """Decision 43: "When this attacks" on a Bakugan's card fires when that Bakugan makes the
    Brawl's attack, with "it" that Bakugan; the same text on the other player's brawling
    Bakugan, which does not attack, fires nothing."""
    state = state_where(lambda s: window("victor")(s) and s.victor in s.in_brawl and len(s.in_brawl) == 2
                        and s.priority.holder == s.starting)
    victor = state.victor or ""
    brawling = {p: state.sides[p].team[state.in_brawl[p]] for p in state.players}
    cards = {c.name: c for c in state.cards}
    for bak in brawling.values():
        cards[bak.top.name or ""] = msgspec.structs.replace(cards[bak.top.name or ""], text="When this attacks, draw a card.")
    state.cards = CardDatabase("test", "bakugan", 1, list(cards.values()))
    state.watching = None
    first = holder(state)
    assert not GAME.apply(state, E.Pass(0, first)) and not GAME.apply(state, E.Pass(0, state.other(first)))
    fired = [*state.waiting, *state.batch.items]
    assert [(i.controller, i.context.get("it")) for i in fired] == [(victor, (victor, brawling[victor].name))]


# ------------------------------------------------------------------ destroying (decision 44)

def _energy_row(state: BakuganState, player: str, *cards: tuple[str | None, bool]) -> list[CardObj]:
    """Give ``player`` exactly these Energy cards in play: (the card's name, or ``None`` when
    the log never showed it; charged)."""
    row = [EnergyCard(state.new_card(name, player, state.cards.get(name) if name else None), charged) for name, charged in cards]
    state.sides[player].energy = row
    return [e.card for e in row]


def _holding_toll(text: str, prepare: Callable[[BakuganState, str, str], object]) -> tuple[BakuganState, str, str]:
    """A power-step state in which the starting player holds an invented Action, "Ember Toll", printing
    ``text``, after ``prepare(state, player, other)``."""
    state = state_where(lambda s: window("power")(s) and s.priority.holder == s.starting)
    player = holder(state)
    other = state.other(player)
    card = CardDef("Ember Toll", "Action", text, traits=_ALL_FACTIONS, cost=0)
    state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, card])
    prepare(state, player, other)
    state.sides[player].hand.add(state.new_card(card.name, player, card))
    return state, player, other


def _destroying(text: str, refs: Callable[[str, str], list[E.TargetRef]],
                prepare: Callable[[BakuganState, str, str], object]) -> tuple[BakuganState, str, str, Sequence[Any]]:
    """A power-step state in which the starting player plays an invented Action printing ``text``
    with the selections ``refs(player, other)``, after ``prepare(state, player, other)``; the
    findings of the play, and the Action left to complete (both players pass) when it was legal."""
    state, player, other = _holding_toll(text, prepare)
    found = GAME.apply(state, E.Play(0, player, "Ember Toll", targets=refs(player, other)))
    if not found:
        assert not GAME.apply(state, E.Pass(0, player)) and not GAME.apply(state, E.Pass(0, other))
        assert state.resolution is None and not state.batch
    return state, player, other, found


def _rules(found: Sequence[Any]) -> list[tuple[str | None, str]]:
    return [(r.rule, r.violation.severity) for r in found]


def test_d44_an_energy_card_is_selected_by_its_owner_and_charge() -> None:
    """Decision 44, 3.7.3, 4.5.1.p1: "Destroy an enemy Energy card" is aimed at an Energy card
    the log names by its owner and whether it is charged (face down, nothing else tells them
    apart); the opponent's uncharged card chosen is destroyed and goes to the discard pile,
    the charged one stays. Before, the selection was not modelled and the play unverifiable."""
    def prepare(state: BakuganState, player: str, other: str) -> None:
        _energy_row(state, other, ("Ashfall", True), ("Ashfall", False))

    state, _player, other, found = _destroying("Destroy an enemy Energy card.", lambda p, o: [E.TargetRef(owner=o, charged=False)],
                                               prepare)
    assert not found
    assert [e.charged for e in state.sides[other].energy] == [True]
    assert state.sides[other].discard.names()[-1:] == ["Ashfall"]
    moves = [m for m in GAME.legal_moves(_destroying("Destroy an enemy Energy card.", lambda p, o: [], prepare)[0])]
    assert moves  # the game goes on after the refused play
    for says_more in (lambda p, o: [E.TargetRef(charged=True)], lambda p, o: [E.TargetRef("Ashfall", o, charged=True)],
                      lambda p, o: [E.TargetRef(owner=o, core=1, charged=True)], lambda p, o: [E.TargetRef("Energy", o)]):
        _s, _p, _o, refused = _destroying("Destroy an enemy Energy card.", says_more, prepare)
        assert _rules(refused) == [("bakugan:6.2.1.2", "illegal")]
        assert "Energy card is named by its owner" in refused[0].violation.message
    def also_mine(state: BakuganState, player: str, other: str) -> None:
        prepare(state, player, other)
        _energy_row(state, player, (None, True))

    _s, _p, _o, mine = _destroying("Destroy an enemy Energy card.", lambda p, o: [E.TargetRef(owner=p, charged=True)], also_mine)
    assert _rules(mine) == [("bakugan:6.2.1.2", "illegal")] and "not a legal selection" in mine[0].violation.message


def test_d44_two_energy_cards_are_two_different_cards() -> None:
    """Decision 44, 6.2.1.2: "Destroy two Energy cards" makes two selections, each a different
    card: two selections of the opponent's only charged card are refused; with two such cards
    both are destroyed. The simulator offers each naming once and lets the checks judge."""
    text = "Destroy two Energy cards."
    twice = lambda p, o: [E.TargetRef(owner=o, charged=True), E.TargetRef(owner=o, charged=True)]
    _s, _p, _o, found = _destroying(text, twice, lambda s, p, o: _energy_row(s, o, (None, True), (None, False)))
    assert _rules(found) == [("bakugan:6.2.1.2", "illegal")] and "1 in play" in found[0].violation.message
    state, player, other, found = _destroying(text, twice, lambda s, p, o: _energy_row(s, o, (None, True), (None, True)))
    assert not found and state.sides[other].energy == [] and len(state.sides[player].energy) >= 0
    offered = _destroying(text, lambda p, o: [], lambda s, p, o: _energy_row(s, o, (None, True), (None, False)))[0]
    hand = [m for m in GAME.legal_moves(offered) if isinstance(m, E.Play)]
    assert hand == [] or all(len(m.targets) == 2 for m in hand)
    state = state_where(lambda s: window("power")(s) and s.priority.holder == s.starting)
    player, other = holder(state), state.other(state.starting)
    card = CardDef("Ember Toll", "Action", text, traits=_ALL_FACTIONS, cost=0)
    state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, card])
    state.sides[player].energy = []
    _energy_row(state, other, (None, True), (None, True), (None, False))
    state.sides[player].hand.add(state.new_card(card.name, player, card))
    charged, uncharged = E.TargetRef(owner=other, charged=True), E.TargetRef(owner=other, charged=False)
    offers = [m.targets for m in GAME.legal_moves(state) if isinstance(m, E.Play) and m.card == card.name]
    assert offers == [[charged, charged], [charged, uncharged], [uncharged, charged]]  # each naming once, the twice-uncharged refused


def test_d44_a_destroyed_energy_card_is_known_only_when_its_alike_are_one_card() -> None:
    """Decision 44, 3.7.3: the card an Energy card was goes to the discard pile by name only when
    every Energy card of its owner and charge is known to be that card; otherwise which one was
    taken is not known, and the discard pile gains a card the log has not shown."""
    picked = lambda p, o: [E.TargetRef(owner=o, charged=True)]
    state, _p, other, found = _destroying("Destroy an Energy card.", picked,
                                          lambda s, p, o: _energy_row(s, o, ("Ashfall", True), ("Ashfall", True), ("Cinderling", False)))
    assert not found and state.sides[other].discard.cards[-1].name == "Ashfall"
    state, _p, other, found = _destroying("Destroy an Energy card.", picked,
                                          lambda s, p, o: _energy_row(s, o, ("Ashfall", True), ("Cinderling", True)))
    assert not found and state.sides[other].discard.cards[-1].name is None
    assert [e.card.name for e in state.sides[other].energy] == ["Cinderling"]


def test_d44_destroy_all_takes_every_card_the_text_describes() -> None:
    """Decision 44, 3.4.2.p2, 4.5.1.p1: "Destroy all enemy Heroes" destroys every Hero of the
    opponent and none of the player's; "Destroy all other Evos" spares the Evo printing it.
    Before, a "destroy all" selected nothing and silently did nothing."""
    heroes = sorted(c.name for c in _states(1)[0].cards if c.type == "Hero")[:2]

    def both_have_heroes(state: BakuganState, player: str, other: str) -> None:
        for name in heroes:
            hero(state, player, name)
            hero(state, other, name)

    state, player, other, found = _destroying("Destroy all enemy Heroes.", lambda p, o: [], both_have_heroes)
    assert not found
    assert [h.name for h in state.sides[other].heroes] == [] and [h.name for h in state.sides[player].heroes] == heroes
    assert state.sides[other].discard.names()[-2:] == heroes
    state = state_where(lambda s: window("power")(s) and s.priority.holder == s.starting)
    player = holder(state)
    crown = CardDef("Ember Crown", "Evo", "When you play this, destroy all other Evos.", traits=_ALL_FACTIONS, cost=0)
    placed = []
    for p in state.players:
        for bak in state.sides[p].team.values():
            placed.append(state.new_card(crown.name, p, crown))
            bak.evos.append(placed[-1])
    others = B.in_play_of(state, player, A.Selector("all", "Evo", other=True), placed[0])
    assert others == placed[1:] and B.in_play_of(state, player, A.Selector("all", "Evo", owner="opponent"), placed[0]) == [
        c for c in placed if c.owner != player]


def test_d44_an_evo_destroyed_is_any_evo_of_a_pile_and_the_one_beneath_counts_again() -> None:
    """Decision 44, 3.3.2.p1, 3.3.3: "Destroy an Evo card" (the real Flip Haos Curse) may take
    any Evo of a Bakugan's pile, as "destroy all Evos" reads them; the top one destroyed, the
    one beneath counts again. Before, its selection found no Evo, so every play of it was
    refused citing 1.13.1.p2; taking control of an Evo is named by lint instead."""
    crown, helm = (CardDef(name, "Evo", "", traits=_ALL_FACTIONS, cost=0) for name in ("Ember Crown", "Ember Helm"))

    def stacked(state: BakuganState, player: str, other: str) -> None:
        state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, crown, helm])
        bak = next(iter(state.sides[other].team.values()))
        bak.evos.extend([state.new_card(crown.name, other, crown), state.new_card(helm.name, other, helm)])

    for chosen, kept in (("Ember Helm", "Ember Crown"), ("Ember Crown", "Ember Helm")):
        state, _player, other, found = _destroying("Destroy an Evo card.", lambda p, o, c=chosen: [E.TargetRef(c, o)], stacked)
        assert not found, chosen
        bak = next(iter(state.sides[other].team.values()))
        assert bak.top.name == kept and state.sides[other].discard.names()[-1] == chosen
    _state, _player, _other, found = _destroying("Destroy an Evo card.", lambda p, o: [], stacked)
    assert _rules(found) == [("bakugan:1.13.1.p1", "illegal")]  # an Evo is there to select: the selection is missing
    cards = CardDatabase("test", "bakugan", 1, [CardDef("Usurp", "Action", "Take control of an Evo.", traits=["Pyrus"], cost=0)])
    assert "taking control of" in (GAME.unsupported(cards, "Usurp") or "")


def test_choosing_an_action_card_which_is_never_in_play_is_unverifiable_not_refused() -> None:
    """4.6.1: an Action is never in play, so a text choosing one (the real Flip Darkus Blitz
    picks one of a revealed hand) means a card the spec does not look for. Lint names it and a
    play of it is unverifiable; before, its selection found nothing and every play was refused
    citing 1.13.1.p2, a false illegal."""
    text = "Your opponent reveals their hand and you choose an Action card. They discard it."
    _state, _player, _other, found = _destroying(text, lambda p, o: [], lambda s, p, o: None)
    assert [(r.rule, r.violation.severity) for r in found] == [(None, "unverifiable")]
    assert "never in play" in found[0].violation.message
    pool = CardDatabase.cached(_REAL_POOL, "bakugan")
    assert "never in play" in (GAME.unsupported(pool, "Darkus Blitz") or "")


def test_d44_lint_takes_destroying_as_read_and_names_what_is_left() -> None:
    """Decision 44: the real cards destroying Energy cards are run whole (lint names none of
    them), taking control of one is still named, and so is a destroy the spec cannot carry out
    (of a card "it" names, or every card of a type it does not look for)."""
    pool = CardDatabase.cached(_REAL_POOL, "bakugan")
    for name in ("Meltdown", "Implosion", "Pyrus Dominance", "Pyrus Titan Hydorous Ultra", "Maximus Turtonium Ultra", "Cinder Coil"):
        assert GAME.unsupported(pool, name) is None, name
    cards = CardDatabase("test", "bakugan", 1, [
        CardDef("Seize", "Action", "Take control of an Energy card.", traits=["Pyrus"], cost=0),
        CardDef("Purge", "Action", "Destroy all Actions.", traits=["Pyrus"], cost=0),
        CardDef("Ember Toll", "Action", "Destroy two Energy cards.", traits=["Pyrus"], cost=0)])
    assert GAME.unsupported(cards, "Seize") == "selecting an Energy card in play other than to destroy it is not modelled"
    assert "destroying every" in (GAME.unsupported(cards, "Purge") or "")
    assert GAME.unsupported(cards, "Ember Toll") is None


def test_d44_a_hero_is_not_named_by_a_charge() -> None:
    """6.2.1.2: a selection of a Hero that also says a charge names an Energy card's kind of
    thing as well, so it does not say what was chosen and is refused."""
    name = min(c.name for c in _states(1)[0].cards if c.type == "Hero")
    found = _destroying("Destroy a Hero.", lambda p, o: [E.TargetRef(name, o, charged=True)], lambda s, p, o: hero(s, o, name))[3]
    assert _rules(found) == [("bakugan:6.2.1.2", "illegal")] and ", charged" in found[0].violation.message
    kept = _destroying("Destroy a Hero.", lambda p, o: [E.TargetRef(name, o)], lambda s, p, o: hero(s, o, name))
    assert not kept[3] and kept[0].sides[kept[2]].heroes == []


# ------------------------------------------------------------------ dealing damage (decision 45)

def test_d45_dealing_enough_damage_in_an_attack_sets_off_what_watches_it() -> None:
    """Decision 45, 6.3.2.p1: the real Hero CEE's "if you deal N or more damage in an attack"
    (its text read from ../shared, never copied here) triggers when an attack of its player
    deals at least that much, with the damage dealt, and not at all for less, nor for the
    other player's attack. Completing, it offers its draw. Before, lint named the card and a
    replay with it was unverifiable."""
    pool = CardDatabase.cached(_REAL_POOL, "bakugan")
    assert GAME.unsupported(pool, "CEE") is None
    keeper = msgspec.structs.replace(pool["CEE"], name="Tally Keeper")
    state = state_where(lambda s: window("power")(s) and s.priority.holder == s.starting)
    player = holder(state)
    other = state.other(player)
    state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, keeper])
    hero(state, player, keeper.name)
    state.watching = None

    def fired(dealt_to: str, amount: int) -> tuple[BakuganState, list[Any]]:
        trial = state.copy()
        GAME.record_damage(trial, dealt_to, amount)
        return trial, [i for i in trial.waiting if i.source.name == keeper.name]

    assert fired(other, 9)[1] == [] and fired(player, 15)[1] == []
    for amount in (10, 12):
        trial, items = fired(other, amount)
        assert [(i.controller, i.context.get("damage")) for i in items] == [(player, amount)]
    trial, _items = fired(other, 10)
    GAME._flush(trial)
    assert [i.kind for i in trial.batch.items][-1:] == ["triggered"]
    first = trial.priority.holder
    assert not GAME.apply(trial, E.Pass(0, first)) and not GAME.apply(trial, E.Pass(0, trial.other(first)))
    need = trial.resolution.need if trial.resolution else None
    assert need is not None and need.kind == "may" and need.player == player


# ------------------------------------------------------------------ a rider that waits for a moment (decision 46)

_FURY_DRAW = "Fury - At the end of each turn, if you have 0 cards in hand, draw a card."


def test_d46_a_hero_rider_that_waits_for_the_end_of_the_turn_triggers_then() -> None:
    """Decision 46: a Hero's "Fury - At the end of the turn, if ..., ..." is a triggered ability
    of the turn's end whose effect opens with the rider's test, as the same line without the
    keyword would be. Before, such a rider was neither a static nor a trigger: it never happened,
    and lint passed its card (the real Barbara Kouzo and Jenkins)."""
    pool = CardDatabase.cached(_REAL_POOL, "bakugan")
    for name in ("Barbara Kouzo", "Jenkins"):
        assert GAME.unsupported(pool, name) is None
        read = B.as_read(cast(A.CardText, pool.tree(name)), "Hero")
        assert [(type(a).__name__, a.trigger.event) for a in read.abilities] == [("Triggered", "turn_ends")]
    fury = CardDef("Lantern Keeper", "Hero", _FURY_DRAW, traits=_ALL_FACTIONS, cost=0)
    plain = CardDef("Lamp Keeper", "Hero", _FURY_DRAW.removeprefix("Fury - "), traits=_ALL_FACTIONS, cost=0)
    state = state_where(lambda s: window("power")(s) and s.priority.holder == s.starting)
    player = state.starting
    state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, fury, plain])

    def hand_after_the_end(name: str, empty: bool) -> int:
        trial = state.copy()
        hero(trial, player, name)
        trial.watching = None
        if empty:
            for card in list(trial.sides[player].hand):
                trial.sides[player].hand.remove(card)
        GAME._fire(trial, "turn_ends", trial.starting)
        assert [i.source.name for i in trial.waiting] == [name]
        GAME._flush(trial)
        for _ in range(2):
            assert not GAME.apply(trial, E.Pass(0, trial.priority.holder))
        need = trial.resolution.need if trial.resolution else None
        if need is not None:  # the draw it owes is shown by the log's next event (1.17.1.p2)
            assert (need.kind, need.player) == ("draw", player)
            assert not GAME.apply(trial, E.Draw(0, player, None))
        return len(trial.sides[player].hand)

    kept = len(state.sides[player].hand)
    assert kept > 0
    for name in (fury.name, plain.name):
        assert hand_after_the_end(name, empty=True) == 1
        assert hand_after_the_end(name, empty=False) == kept


def test_d46_a_rider_that_waits_on_an_action_card_or_a_victor_rider_is_named_not_skipped() -> None:
    """Decision 46: a rider of an Action or Flip card that waits for a moment would be a delayed
    effect, and a Victor rider that waits would wait after its Bakugan is declared the Victor;
    neither is modelled. Lint names the card, and playing the Action is unverifiable rather than
    carrying out the rider at once."""
    action = CardDef("Slow Fuse", "Action", "Destroy an enemy Hero. " + _FURY_DRAW, traits=["Pyrus"], cost=0)
    victor = CardDef("Late Victor", "Character", "Victor: At the end of the turn, draw a card.", traits=["Pyrus"],
                     stats={"bpower": 100, "damage": 1, "cores": []})
    cards = CardDatabase("test", "bakugan", 1, [action, victor])
    assert GAME.unsupported(cards, action.name) == "a Fury rider that waits for a moment (turn_ends) is not modelled on Action cards"
    assert GAME.unsupported(cards, victor.name) == "a Victor rider that waits for a moment is not modelled"
    state = state_where(lambda s: window("power")(s) and s.priority.holder == s.starting)
    state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, action])
    with pytest.raises(B.Unmodelled, match="waits for a moment"):
        GAME._compose(state, action.name)


def test_d46_a_hero_rider_waiting_for_a_trigger_the_spec_never_fires_is_unverifiable_when_played() -> None:
    """Read as a triggered ability, a Hero's waiting rider is held to what the spec fires: one
    waiting for a moment it never fires is named by lint, and playing the Hero says so."""
    text = "Fury - When you draw a card, your opponent discards a card."
    watcher = CardDef("Tally Page", "Hero", text, traits=_ALL_FACTIONS, cost=0)
    assert GAME.unsupported(CardDatabase("test", "bakugan", 1, [watcher]), watcher.name) == \
        "the trigger 'drawn' (by you, a card) is not modelled"
    _state, _player, _other, found = _hero_played(text)
    assert [(r.rule, r.violation.severity) for r in found] == [(None, "unverifiable")]
    assert "Warden of Oaths: the trigger 'drawn'" in found[0].violation.message


def test_d46_a_waiting_rider_listens_for_its_trigger_event_as_a_triggered_ability_does() -> None:
    """The conflict checks see a waiting rider and the same line without its keyword wait for
    one event (before, the rider's moment was a word of its own, "end_of_turn", which no
    triggered ability shares)."""
    from spec.bakugan.conflicts import POLICY

    fury = CardDef("Lantern Keeper", "Hero", _FURY_DRAW, traits=_ALL_FACTIONS, cost=0)
    plain = CardDef("Lamp Keeper", "Hero", _FURY_DRAW.removeprefix("Fury - "), traits=_ALL_FACTIONS, cost=0)
    cards = CardDatabase("test", "bakugan", 1, [fury, plain])
    heard = [POLICY.listens(cast(A.CardText, cards.tree(c.name)).abilities[0]) for c in (fury, plain)]
    assert heard == [{"turn_ends"}, {"turn_ends"}]


# ------------------------------------------------------------------ a rider's selections as the card is played (decision 47)

_FURY_INSTEAD = "Destroy an enemy Energy card. Fury - If you have 0 cards in hand, destroy two Energy cards instead."


def _hand_holds(state: BakuganState, player: str, n: int) -> None:
    """``player``'s hand holds ``n`` cards the log has not shown, and nothing else."""
    hand = state.sides[player].hand
    for card in list(hand):
        hand.remove(card)
    for _ in range(n):
        hand.add(state.new_card(None, player))


def test_d47_an_instead_riders_selections_replace_the_texts_when_it_holds_as_the_card_is_played() -> None:
    """Decision 47, 1.13.1.p1, 1.13.1.p2: a rider's condition told from the game is tested as
    the card is played, with the card out of its player's hand. Holding, the "instead" text's
    selections are made in place of those of the text it replaces; not holding, only the
    printed text's. Before, both sets were always made, so such a card with one enemy Energy
    card in play could not be played at all."""
    uncharged = lambda o: E.TargetRef(owner=o, charged=False)
    charged = lambda o: E.TargetRef(owner=o, charged=True)

    def kept_a_card(state: BakuganState, player: str, other: str) -> None:
        _hand_holds(state, player, 1)
        state.sides[player].energy = []
        _energy_row(state, other, (None, True), (None, False))

    state, _player, other, found = _destroying(_FURY_INSTEAD, lambda p, o: [uncharged(o)], kept_a_card)
    assert not found and [e.charged for e in state.sides[other].energy] == [True]
    _s, _p, _o, found = _destroying(_FURY_INSTEAD, lambda p, o: [uncharged(o), charged(o), uncharged(o)], kept_a_card)
    assert _rules(found) == [("bakugan:1.13.1.p1", "illegal")] and "3 selection(s) made for 1 needed" in found[0].violation.message

    def one_enemy_card(state: BakuganState, player: str, other: str) -> None:
        kept_a_card(state, player, other)
        _energy_row(state, other, (None, True))

    state, _player, other, found = _destroying(_FURY_INSTEAD, lambda p, o: [charged(o)], one_enemy_card)
    assert not found and state.sides[other].energy == []

    def emptied(state: BakuganState, player: str, other: str) -> None:
        kept_a_card(state, player, other)
        _hand_holds(state, player, 0)

    state, _player, other, found = _destroying(_FURY_INSTEAD, lambda p, o: [charged(o), uncharged(o)], emptied)
    assert not found and state.sides[other].energy == []
    _s, _p, _o, found = _destroying(_FURY_INSTEAD, lambda p, o: [uncharged(o)], emptied)
    assert _rules(found) == [("bakugan:1.13.1.p1", "illegal")] and "1 selection(s) made for 2 needed" in found[0].violation.message
    adding = "Destroy an enemy Energy card. Turbo - If you have 0 cards in hand, destroy an enemy Hero."  # a rider adding to the text

    def no_enemy_hero(state: BakuganState, player: str, other: str) -> None:
        kept_a_card(state, player, other)
        state.sides[other].heroes.clear()

    _s, _p, _o, found = _destroying(adding, lambda p, o: [uncharged(o)], no_enemy_hero)
    assert not found
    _s, _p, _o, found = _destroying(adding, lambda p, o: [uncharged(o)], lambda s, p, o: (no_enemy_hero(s, p, o), _hand_holds(s, p, 0)))
    assert _rules(found) == [("bakugan:1.13.1.p2", "illegal")]
    for prepare, size in ((kept_a_card, 1), (emptied, 2)):
        offered, _player, _other = _holding_toll(_FURY_INSTEAD, prepare)
        plays = [m for m in GAME.legal_moves(offered) if isinstance(m, E.Play) and m.card == "Ember Toll"]
        assert plays and {len(m.targets) for m in plays} == {size}


def test_d47_a_rider_condition_not_told_at_play_keeps_both_texts_selections() -> None:
    """Decision 47: a rider's condition about a Bakugan the card is applied to ("if that
    Bakugan has ...") cannot be told as the card is played, so the rider's selections are
    made beside the printed text's, as before; one told from the game alone drops them when
    it does not hold."""
    def kept_a_card(state: BakuganState, player: str, other: str) -> None:
        _hand_holds(state, player, 1)

    untold = "Give a Bakugan +100 [B]. Fury - If that Bakugan has 500 or more [B], destroy an enemy Hero."
    told = "Give a Bakugan +100 [B]. Fury - If you have 0 cards in hand, destroy an enemy Hero."
    kinds = {}
    for text in (untold, told):
        state, player, _other = _holding_toll(text, kept_a_card)
        kinds[text] = [slot.kind for slot in X.played_slots(state, player, "Ember Toll")]
    assert kinds == {untold: ["bakugan", "hero"], told: ["bakugan"]}


def test_d47_when_the_other_text_applies_as_the_card_completes_its_selections_were_never_made() -> None:
    """Decision 47, 1.13.1.1: which text applies is told again as the card completes (decision
    44). Played with a card kept in hand, the printed selection is made; if the hand is empty by
    the time the card completes, the "instead" text applies and, with no selection made for it,
    destroys nothing."""
    def kept_a_card(state: BakuganState, player: str, other: str) -> None:
        _hand_holds(state, player, 1)
        state.sides[player].energy = []
        _energy_row(state, other, (None, True), (None, False))

    state, player, other = _holding_toll(_FURY_INSTEAD, kept_a_card)
    assert not GAME.apply(state, E.Play(0, player, "Ember Toll", targets=[E.TargetRef(owner=other, charged=False)]))
    _hand_holds(state, player, 0)
    assert not GAME.apply(state, E.Pass(0, player)) and not GAME.apply(state, E.Pass(0, other))
    assert state.resolution is None and len(state.sides[other].energy) == 2


# ------------------------------------------------------------------ cards shuffled from the discard pile into the deck (decision 48)

def _discarded(*types: str) -> Callable[[BakuganState], None]:
    """A ``prepare`` for :func:`_completing`: the starting player's discard pile holds one card
    of the game's database of each of ``types``, each counted as shown from the deck."""
    def prepare(state: BakuganState) -> None:
        player = state.starting
        side = state.sides[player]
        side.discard.cards = []
        for kind in types:
            defn = next(d for d in state.cards if d.type == kind and d.name not in side.discard.names())
            side.discard.add(state.new_card(defn.name, player, defn))
            side.knowledge.located[defn.name] += 1
    return prepare


def test_d48_cards_picked_from_the_discard_pile_go_into_the_deck_then_the_deck_is_shuffled() -> None:
    """Decision 48, 6.7.1.4: each card is picked as the effect completes, one ``shuffle_in``
    event per card; it leaves the face-up pile for the hidden deck (its copy no longer counted
    as shown), and the deck is then shuffled."""
    state, player, _other = _completing("Shuffle two cards from your discard pile into your deck.", _discarded("Action", "Evo", "Hero"))
    side = state.sides[player]
    need = state.resolution.need if state.resolution else None
    assert need is not None and (need.kind, need.player, need.count) == ("shuffle_in", player, 2)
    deck, (first, second, kept) = len(side.deck), side.discard.names()
    assert not GAME.apply(state, E.ShuffleIn(0, player, second))
    assert not GAME.apply(state, E.ShuffleIn(0, player, first))
    assert side.discard.names() == [kept] and len(side.deck) == deck + 2
    assert side.knowledge.located[first] == side.knowledge.located[second] == 0
    assert [o.kind for o in side.knowledge.observations()[-2:]] == ["back", "back"]
    assert state.resolution is not None and state.resolution.need is not None and state.resolution.need.kind == "shuffle"
    assert not GAME.apply(state, E.Shuffle(0, player)) and state.resolution is None


def test_d48_a_pile_with_fewer_cards_gives_what_it_holds_and_the_deck_is_shuffled_even_when_empty() -> None:
    """Decision 48, 1.13.1.1: the effect does what it can: with one card in the pile, that one
    goes in; with none, only the shuffle is left."""
    state, player, _other = _completing("Shuffle two cards from your discard pile into your deck.", _discarded("Action"))
    need = state.resolution.need if state.resolution else None
    assert need is not None and need.count == 1
    assert not GAME.apply(state, E.ShuffleIn(0, player, state.sides[player].discard.names()[0]))
    assert not GAME.apply(state, E.Shuffle(0, player)) and state.resolution is None
    state, player, _other = _completing("Shuffle two cards from your discard pile into your deck.", _discarded())
    need = state.resolution.need if state.resolution else None
    assert need is not None and need.kind == "shuffle"


def test_d48_a_card_picked_that_the_pile_does_not_hold_or_the_text_does_not_ask_for_is_refused() -> None:
    """Decision 48, 6.7.1.4 and 4.5.2: the pile is face up, so the card picked is named, is in
    the player's own pile and is of the type the text asks for; a pick while no effect asks
    for one is refused as well."""
    text = "Shuffle an Evo from your discard pile into your deck."
    for bad in ("elsewhere", None, "action"):
        state, player, other = _completing(text, _discarded("Action", "Evo"))
        pile = state.sides[player].discard.names()
        name = {"action": pile[0], "elsewhere": next(d.name for d in state.cards if d.type == "Evo" and d.name not in pile)}.get(bad)
        rulings = GAME.apply(state, E.ShuffleIn(0, player, name))
        assert [r.rule for r in rulings] == ["bakugan:6.7.1.4"], bad
        assert len(state.sides[player].discard) == 2
    state, player, other = _completing(text, _discarded("Action", "Evo"))
    evo = state.sides[player].discard.names()[1]
    assert [r.rule for r in GAME.apply(state, E.ShuffleIn(0, other, evo))] == ["bakugan:6.7.1.4"]
    assert not GAME.apply(state, E.ShuffleIn(0, player, evo))
    action = state.sides[player].discard.names()[0]
    assert [r.rule for r in GAME.apply(state.copy(), E.ShuffleIn(0, player, action))] == ["bakugan:4.2.2.p2"]  # the shuffle is due
    assert not GAME.apply(state, E.Shuffle(0, player)) and state.resolution is None
    assert [r.rule for r in GAME.apply(state, E.ShuffleIn(0, player, action))] == ["bakugan:6.7.1.4"]  # no effect asks


def test_d48_the_real_hydorous_ultras_are_modelled_and_lint_passes_them() -> None:
    """Decision 48: the real Victor riders that shuffle cards of the discard pile into the deck
    are run; before, lint named them and a replay with them was unverifiable."""
    cards = CardDatabase.cached(_REAL_POOL, "bakugan")
    for name in ("Haos Hyper Hydorous Ultra", "Haos Maximus Hydorous Ultra"):
        assert GAME.unsupported(cards, name) is None, name
    assert GAME.unsupported(cards, "Toshi") is not None
    mine = A.Selector(quantifier="a", type="card", count=1, owner="you", zone="discard pile")
    assert step_gap(A.Send(mine, "deck")) is None
    for other in (msgspec.structs.replace(mine, owner="each"), msgspec.structs.replace(mine, count=A.Var("X"))):
        assert step_gap(A.Send(other, "deck")) is not None  # several players' piles, or a number the text does not fix


# ------------------------------------------------------------------ cards played this turn (decision 49)

def test_d49_an_evo_played_this_turn_is_not_one_a_wane_can_select() -> None:
    """Decision 49: "Destroy an Evo that was not played this turn" (the real Wane) selects among
    the Evos in play whose card was played before this turn; the one played this turn is not a
    legal selection (6.2.1.2)."""
    crown, helm = (CardDef(name, "Evo", "", traits=_ALL_FACTIONS, cost=0) for name in ("Ember Crown", "Ember Helm"))
    text = "Destroy an Evo that was not played this turn."

    def one_new(state: BakuganState, player: str, other: str) -> None:
        state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, crown, helm])
        bak = next(iter(state.sides[other].team.values()))
        bak.evos.extend([state.new_card(crown.name, other, crown), state.new_card(helm.name, other, helm)])
        state.flags.played.add(bak.evos[-1].uid)

    _state, _player, other, found = _destroying(text, lambda p, o: [E.TargetRef("Ember Helm", o)], one_new)
    assert _rules(found) == [("bakugan:6.2.1.2", "illegal")]
    state, _player, other, found = _destroying(text, lambda p, o: [E.TargetRef("Ember Crown", o)], one_new)
    assert not found and [e.name for e in next(iter(state.sides[other].team.values())).evos] == ["Ember Helm"]
    pool = CardDatabase.cached(_REAL_POOL, "bakugan")
    assert GAME.unsupported(pool, "Wane") is None


def test_d49_a_card_played_is_noted_for_its_turn_only() -> None:
    """Decision 49: playing a card notes its card object as played this turn; the Evo keeps that
    object as it settles on its Bakugan, and a new turn forgets it."""
    path = Path(__file__).parents[1] / "replays" / "bakugan" / "legal" / "evo-on-a-face-down-character-106.jsonl"
    lines = path.read_bytes().splitlines()
    noted, seen_settled = None, False
    for state, event, raw in replay_states(lines):
        if noted is None and raw["do"] == "play" and state.cards[raw["card"]].type == "Evo":
            after = state.copy()
            GAME.apply(after, event)
            played = next(item for item in after.batch.items if item.name == raw["card"]).source
            assert played.uid in after.flags.played and played.uid not in state.flags.played  # a copy notes apart
            noted = (played.uid, state.turn)
        elif noted is not None and state.turn == noted[1]:
            settled = [e for side in state.sides.values() for b in side.team.values() for e in b.evos if e.uid == noted[0]]
            assert not settled or noted[0] in state.flags.played
            seen_settled = seen_settled or bool(settled)
        elif noted is not None:
            assert noted[0] not in state.flags.played
            break
    assert noted is not None and seen_settled


def test_d49_not_played_this_turn_said_of_anything_but_a_card_in_play_is_unverifiable() -> None:
    """Decision 49: the test reads cards in play only; asked of a Bakugan it is unverifiable,
    never guessed (the grammar reads the filter only on cards, so no text asks it yet)."""
    state = state_where(lambda s: bool(B.face_up(s)))
    cond = A.Condition("played", "not", "this turn")
    player = state.players[0]
    with pytest.raises(B.Unmodelled, match="not played this turn"):
        T.candidates(state, player, T.Slot("implied", "bakugan", A.Selector("the", "Bakugan"), (cond,)))


# ----------------------------------------------------------------- decision 50: effects at the end of the turn

_AT_THE_END = "+200 [B] and +1 [Damage Rating]. Retract your Bakugan at the end of the turn."


def _aimed_at(whose: str) -> Callable[[BakuganState, str], E.TargetRef]:
    """The Bakugan an invented Action is played on: one of its player's (``own``) or the other's."""
    def aim(state: BakuganState, player: str) -> E.TargetRef:
        owner = player if whose == "own" else state.other(player)
        return E.TargetRef(next(b.name for p, b in B.face_up(state) if p == owner), owner)
    return aim


def _to_the_end_of_the_turn(state: BakuganState) -> list[tuple[str, Any]]:
    """Play on (passes first, else the first move legal_moves offers) until the batch the end of
    the turn filled is empty; the (node, findings) of each event that had findings."""
    import random

    rng, noted, turn = random.Random(1), [], state.turn
    for _ in range(300):
        if state.turn != turn or (state.flags.end_triggers_fired and not state.batch.items and not state.waiting
                                  and state.pending_item is None and state.resolution is None):
            break
        moves = GAME.legal_moves(state, rng)  # (none when each would be unverifiable: the holder passes)
        move = next((m for m in moves if isinstance(m, E.Pass)), moves[0] if moves else E.Pass(0, state.priority.holder))
        found = GAME.apply(state, move)
        if found:
            noted.append((state.node, found))
        if not moves:
            break
    return noted


@pytest.mark.interpreted  # patches the spec's Python functions (tests/conftest.py)
def test_d50_an_effect_at_the_end_of_the_turn_waits_then_joins_the_batch() -> None:
    """Decision 50, 6.3.2.p2: "Retract your Bakugan at the end of the turn" waits, with the
    Bakugan selected as the card was played, then joins the batch with what the end of the turn
    triggers, and retracts it then (the real Bubble Net)."""
    state, player, _other = _completing(_AT_THE_END, aim=_aimed_at("own"))
    target = _aimed_at("own")(state, player).card
    assert [(i.kind, i.context["targets"]["implied"]) for i in state.flags.delayed] == [("delayed", (player, target))]
    assert state.copy().flags.delayed[0] is not state.flags.delayed[0]  # a copy has its own
    seen: list[bool] = []
    original = GAME.effects.do_bakugan_retract

    def retract(state: BakuganState, res: Any, step: Any) -> Any:  # the step runs as the turn ends, on that Bakugan
        seen.append(state.flags.end_triggers_fired and res.vars["targets"]["implied"] == (player, target))
        return original(state, res, step)

    GAME.effects.do_bakugan_retract = retract
    try:
        assert not [f for _node, f in _to_the_end_of_the_turn(state) if any(r.violation.severity != "info" for r in f)]
    finally:
        del GAME.effects.do_bakugan_retract
    assert seen and all(seen) and not state.sides[player].team[target].open and not state.flags.delayed  # (legal_moves probes run it too)
    pool = CardDatabase.cached(_REAL_POOL, "bakugan")
    assert GAME.unsupported(pool, "Bubble Net") is None


def test_d50_your_bakugan_of_a_card_played_on_the_other_players_is_unverifiable() -> None:
    """Decision 50: played on the other player's Bakugan, "your Bakugan" cannot be the one
    selected; which Bakugan is meant is not modelled, so the end of the turn is unverifiable."""
    state, _player, _other = _completing(_AT_THE_END, aim=_aimed_at("other"))
    noted = _to_the_end_of_the_turn(state)
    assert any(r.violation.severity == "unverifiable" and "another player's" in r.violation.message
               for _node, found in noted for r in found)


def test_d50_an_effect_delayed_once_the_end_of_the_turn_has_come_or_to_another_moment_is_not_modelled() -> None:
    """Decision 50: lint names a delay to any other moment (the grammar reads only the end of the
    turn, so the node is built); one made after the end of the turn came is unverifiable."""
    assert step_gap(A.Delay("next_turn", ())) == "an effect delayed until next_turn is not modelled"
    assert step_gap(A.Delay("end_of_turn", ())) is None
    state = state_where(lambda s: window("power")(s) and s.priority.holder == s.starting and bool(s.sides[s.starting].hand))
    player = holder(state)
    card = CardDef("Late Scroll", "Action", "Retract your Bakugan at the end of the turn.", traits=_ALL_FACTIONS, cost=0)
    state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, card])
    state.sides[player].hand.add(state.new_card(card.name, player, card))
    state.flags.end_triggers_fired = True  # as if the end of the turn had come
    found = [r for ev in (E.Play(0, player, card.name), E.Pass(0, player), E.Pass(0, state.other(player)))
             for r in GAME.apply(state, ev)]
    assert [r.violation.severity for r in found] == ["unverifiable"] and "whose end has come" in found[0].violation.message


def test_d50_your_bakugan_where_no_bakugan_was_selected_is_unverifiable_never_nothing() -> None:
    """Decision 50: "Retract your Bakugan." on a card that selects no Bakugan as it is played
    means none the spec knows of. Before, it retracted nothing and the replay went on as legal;
    now the completion is unverifiable, and lint names the card."""
    state = state_where(lambda s: window("power")(s) and s.priority.holder == s.starting and bool(s.sides[s.starting].hand))
    player = holder(state)
    card = CardDef("Bare Scroll", "Action", "Retract your Bakugan.", traits=_ALL_FACTIONS, cost=0)
    state.cards = CardDatabase("test", "bakugan", 1, [*state.cards, card])
    state.sides[player].hand.add(state.new_card(card.name, player, card))
    found = [r for ev in (E.Play(0, player, card.name), E.Pass(0, player), E.Pass(0, state.other(player)))
             for r in GAME.apply(state, ev)]
    assert [r.violation.severity for r in found] == ["unverifiable"] and "no Bakugan was selected" in found[0].violation.message
    assert GAME.unsupported(state.cards, "Bare Scroll") is not None
