"""Rule checks that random games seldom reach, and the ambiguity decisions, pinned.

Each :class:`Case` takes a state from a simulated legal game, arranges the situation
the rule is about, and applies one event: the first finding must cite the rule. Remove
the check and the case fails. (Most checks are also broken by a replay of
``replays/neopets/illegal``; ``tests/test_corpus.py`` makes sure every check has one or
the other.)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

import pytest

from spec import load_game
from spec.core.cards import CardDatabase, CardDef
from spec.core.state import CardObj
from spec.neopets import events as E
from spec.neopets.game import Neopets
from spec.neopets.state import Lasting, NeopetsState
from verifier.corpus import replay_states
from verifier.simulate import simulate

GAME = cast(Neopets, load_game("neopets"))


@cache
def _states(seed: int) -> list[NeopetsState]:
    lines = simulate("neopets", seed, passes="explicit")
    return [state.copy() for state, _event, _raw in replay_states("neopets", lines)]


def state_where(pred: Callable[[NeopetsState], bool], seed: int = 1) -> NeopetsState:
    """A copy of the first state of a simulated game where ``pred`` holds."""
    for state in _states(seed):
        if pred(state):
            return state.copy()
    raise LookupError("no such state in the simulated game")


def preparation(state: NeopetsState) -> bool:
    return state.stage == "turn" and state.node == "preparation" and state.window == "act" and not state.queue and state.turn > 2


def give(state: NeopetsState, player: str, name: str) -> CardObj:
    card = state.new_card(name, player, state.cards[name])
    state.sides[player].inventory.add(card)
    return card


def in_play(state: NeopetsState, player: str, name: str) -> CardObj:
    return state.new_card(name, player, state.cards[name])


@dataclass(frozen=True)
class Case:
    rule: str
    where: Callable[[NeopetsState], bool]
    arrange: Callable[[NeopetsState], Any]
    event: Callable[[NeopetsState], Any]


def _forbid_food(s: NeopetsState) -> None:
    s.lasting.append(Lasting("prohibit", s.nonactive, s.active, "play Food", until="end_of_turn"))
    give(s, s.active, "Thornberry Omelette")


def _painted(s: NeopetsState) -> None:
    neopet = s.sides[s.active].neopet
    assert neopet is not None
    neopet.painted_with = "Ember Paint Brush"
    give(s, s.active, "Ember Paint Brush")


def _three_equipment(s: NeopetsState) -> None:
    side = s.sides[s.active]
    side.equipment = [in_play(s, s.active, "Warding Lantern") for _ in range(3)]
    give(s, s.active, "Warding Lantern")


def _location_in_play(s: NeopetsState) -> None:
    location = in_play(s, s.active, "Prism Springs")
    s.sides[s.active].play_area.add(location)
    s.enter_play(location)
    give(s, s.active, "Sunken Grotto")


def _empty_deck(s: NeopetsState) -> None:
    s.sides[s.active].deck.hidden = 0
    s.sides[s.active].deck.cards.clear()


def _second_faerie(s: NeopetsState) -> None:
    s.sides[s.active].faerie = [in_play(s, s.active, "Lumen Faerie")]
    neopet = s.sides[s.active].neopet
    assert neopet is not None
    neopet.codestones = [in_play(s, s.active, "Sparkflint Codestone") for _ in range(2)]
    give(s, s.active, "Hollow Faerie")


def _faerie_with_target(s: NeopetsState) -> None:
    s.sides[s.active].faerie = [in_play(s, s.active, "Hollow Faerie")]


def _five_codestones(s: NeopetsState) -> None:
    neopet = s.sides[s.active].neopet
    assert neopet is not None
    neopet.codestones = [in_play(s, s.active, "Sparkflint Codestone") for _ in range(5)]
    give(s, s.active, "Tidepearl Codestone")


def _used_species(s: NeopetsState) -> None:
    winner = s.round_winners[-1]
    s.sides[winner].neopet_deck = None  # judge by species alone


def train_act(s: NeopetsState) -> bool:
    return s.stage == "turn" and s.node == "train" and s.window == "act" and not s.queue and s.flags.codestones_attached == 0


def _no_negations(s: NeopetsState) -> None:
    """Take every source of a static negation out of the state (the simulated game may hold some)."""
    for side in s.sides.values():
        side.equipment = [c for c in side.equipment if c.name != "Muffling Collar"]
        if side.neopet is not None and side.neopet.card.name == "Hushwing":
            side.neopet.card = s.new_card("Pebblequoll", side.name, s.cards["Pebblequoll"])


def _quillotter_ready(s: NeopetsState) -> None:
    _no_negations(s)
    neopet = s.sides[s.active].neopet
    assert neopet is not None
    neopet.card = s.new_card("Quillotter", s.active, s.cards["Quillotter"])
    s.enter_play(neopet.card)
    give(s, s.active, "Sparkflint Codestone")


def _muffled_quillotter(s: NeopetsState) -> None:
    _quillotter_ready(s)
    collar = in_play(s, s.nonactive, "Muffling Collar")
    s.sides[s.nonactive].equipment.append(collar)
    s.enter_play(collar)


def _second_prep_play(s: NeopetsState) -> None:
    s.flags.prep_plays = 1
    give(s, s.active, "Potion of Bright Vigor")


def _nothing_to_reveal(s: NeopetsState) -> None:
    side = s.sides[s.active]
    side.inventory.cards = [c for c in side.inventory.cards if c.name is not None and c.defn is not None and c.defn.type != "Faerie"]
    give(s, s.active, "Whispers of the Deep")


def draw_act(s: NeopetsState) -> bool:
    return s.stage == "turn" and s.node == "draw" and s.window == "act" and not s.queue and not s.flags.drew


def attack_act(s: NeopetsState) -> bool:
    return s.stage == "turn" and s.node == "attack" and s.window == "act" and not s.queue


CASES: list[Case] = [
    Case("neopets:7.11.3.p1", train_act, lambda s: give(s, s.active, "Thornmail Vest"), lambda s: E.Attach(0, s.active, "Thornmail Vest")),
    Case("neopets:8.20.2d", preparation, lambda s: give(s, s.active, "Thornmail Vest"), lambda s: E.Collect(0, s.active, "Thornmail Vest")),
    Case("neopets:5.2.2b", draw_act, lambda s: None, lambda s: E.Pass(0, s.priority.holder)),
    Case("neopets:5.5.4c.p1", attack_act, lambda s: None, lambda s: E.Pass(0, s.priority.holder)),
    Case("neopets:5.4.2a.p1", preparation, _second_prep_play, lambda s: E.Play(0, s.active, "Potion of Bright Vigor")),
    Case("neopets:8.20.14b", preparation, _nothing_to_reveal, lambda s: E.Play(0, s.active, "Whispers of the Deep")),
    Case("neopets:8.20.15a", preparation, lambda s: None, lambda s: E.Resolve(0, None, "Hollow Faerie")),
    Case("neopets:2.p1", preparation, lambda s: None, lambda s: E.Shuffle(0, s.active)),
    Case("neopets:8.20.13a", preparation, lambda s: give(s, s.active, "Thornberry Omelette"),
         lambda s: E.Play(0, s.active, "Thornberry Omelette", [E.TargetRef("Neopet", s.active)])),
    Case("neopets:8.20.6b", preparation, _muffled_quillotter, lambda s: E.Activate(0, s.active, "Quillotter", 0, [])),
    Case("neopets:4.1", preparation, _forbid_food, lambda s: E.Play(0, s.active, "Thornberry Omelette")),
    Case("neopets:7.4.8", preparation, _painted, lambda s: E.Play(0, s.active, "Ember Paint Brush")),
    Case("neopets:7.6.5", preparation, _three_equipment, lambda s: E.Play(0, s.active, "Warding Lantern")),
    Case("neopets:7.9.7.p2", preparation, _location_in_play, lambda s: E.Play(0, s.active, "Sunken Grotto")),
    Case("neopets:7.3.7", preparation, _second_faerie, lambda s: E.Play(0, s.active, "Hollow Faerie")),
    Case("neopets:7.11.5", train_act, _five_codestones, lambda s: E.Attach(0, s.active, "Tidepearl Codestone")),
    Case("neopets:7.10.3", preparation, lambda s: None, lambda s: E.Collect(0, s.active, "Sunken Grotto Map: Kelp Corner")
         if s.sides[s.active].inventory.find("Sunken Grotto Map: Kelp Corner") is None
         else E.Collect(0, s.active, "Sunken Grotto Map: Reef Corner")),
    Case("neopets:8.20.13a", preparation, _faerie_with_target, lambda s: E.Activate(0, s.active, "Hollow Faerie", 0, [])),
    Case("neopets:9.3.1.p1", lambda s: s.stage == "turn" and s.node == "draw" and s.window == "act" and not s.queue,
         _empty_deck, lambda s: E.Draw(0, s.active, None)),
    Case("neopets:5.5.4a", lambda s: s.stage == "turn" and s.node == "attack" and s.window == "open" and not s.queue,
         lambda s: None, lambda s: E.Roll(0, s.active, [4] * 3)),
    Case("neopets:7.1.3.p2", lambda s: s.stage == "new_round", _used_species,
         lambda s: E.Choose(0, s.round_winners[-1], s.sides[s.round_winners[-1]].round_results[-1][0])),
    Case("neopets:7.1.1", lambda s: s.stage == "new_round", lambda s: None,
         lambda s: E.Choose(0, s.round_winners[-1], "Ember Glimmerfox")),
]


def check_fired_by(case: Case) -> str | None:
    """The name of the check that judged the case's event first (None if it was accepted)."""
    state = state_where(case.where)
    case.arrange(state)
    rulings = [r for r in GAME.apply(state, case.event(state)) if r.violation.severity in ("illegal", "inconsistent")]
    return rulings[0].check if rulings else None


@pytest.mark.parametrize("case", CASES, ids=[c.rule for c in CASES])
def test_rule_check_fires(case: Case) -> None:
    state = state_where(case.where)
    case.arrange(state)
    event = case.event(state)
    rulings = [r for r in GAME.apply(state, event) if r.violation.severity in ("illegal", "inconsistent")]
    assert rulings, f"{event} was accepted"
    assert rulings[0].rule == case.rule


# ----------------------------------------------------------------- decisions (docs/neopets-decisions.rst)


def test_the_queue_resolves_first_in_first_out() -> None:
    state = state_where(preparation)
    assert state.queue.order == "fifo"
    give(state, state.active, "Thornberry Omelette")
    give(state, state.nonactive, "Crunchy Kelp Crisps")
    assert not GAME.apply(state, E.Play(0, state.active, "Thornberry Omelette"))
    GAME.apply(state, E.Pass(0, state.active))
    assert not GAME.apply(state, E.Play(0, state.nonactive, "Crunchy Kelp Crisps"))
    assert [i.name for i in state.queue.items] == ["Thornberry Omelette", "Crunchy Kelp Crisps"]
    GAME.apply(state, E.Pass(0, state.nonactive))
    GAME.apply(state, E.Pass(0, state.active))
    assert state.last_resolved == "Thornberry Omelette"


def test_acting_keeps_priority_and_restarts_the_passes() -> None:
    state = state_where(preparation)
    GAME.apply(state, E.Pass(0, state.active))
    assert state.priority.passes == 1
    give(state, state.nonactive, "Thornberry Omelette")
    GAME.apply(state, E.Play(0, state.nonactive, "Thornberry Omelette"))
    assert state.priority.holder == state.nonactive and state.priority.passes == 0


def test_battle_damage_blocks_one_for_one_and_criticals_go_through() -> None:
    state = state_where(lambda s: s.stage == "turn" and s.node == "damage")
    state.sides[state.active].dice = [6, 5, 4, 2]
    state.sides[state.nonactive].dice = [6, 1]
    target = state.sides[state.nonactive].neopet
    assert target is not None
    before = target.damage
    target.card = state.new_card("Bramblewump", state.nonactive, state.cards["Bramblewump"])  # 8 Hit Points
    GAME._damage_calculation(state)
    assert target.damage - before == 2  # one critical + (two hits - one block)


def test_a_d3_is_read_from_d6_faces() -> None:
    from spec.core.interpreter import Need, Resolution

    state = state_where(preparation)
    res = Resolution(state.active, None, [])
    res.need = Need("roll", state.active, 3, "neopets:9.4.1", "d3")
    state.resolution = res
    GAME._take_fed(state, res.need, E.Roll(0, state.active, [1, 3, 6]))
    assert res.vars["result"] == 1 + 2 + 3


def test_the_first_turn_and_a_frozen_neopet_have_no_attack() -> None:
    first = state_where(lambda s: s.stage == "turn" and s.turn == 1)
    assert GAME._skips_battle(first)
    later = state_where(lambda s: s.stage == "turn" and s.turn == 3 and s.node == "train")
    assert not GAME._skips_battle(later)
    neopet = later.sides[later.active].neopet
    assert neopet is not None
    neopet.frozen_for_turn = later.turn
    assert GAME._skips_battle(later)


def test_level_requirement_counts_attached_codestones() -> None:
    state = state_where(preparation)
    neopet = state.sides[state.active].neopet
    assert neopet is not None
    neopet.codestones = [in_play(state, state.active, "Sparkflint Codestone")]
    give(state, state.active, "Tale of the Shattered Moon")  # level 2
    rulings = GAME.apply(state.copy(), E.Play(0, state.active, "Tale of the Shattered Moon"))
    assert rulings and rulings[0].rule == "neopets:6.4.2.p1"
    neopet.codestones.append(in_play(state, state.active, "Sparkflint Codestone"))
    assert not GAME.apply(state, E.Play(0, state.active, "Tale of the Shattered Moon"))


def test_the_opening_draw_is_the_first_draw_phase_draw() -> None:
    state = state_where(lambda s: s.stage == "turn" and s.turn == 1 and s.node == "draw" and s.window == "act")
    assert not GAME.apply(state, E.Draw(0, state.active, None))
    rulings = GAME.apply(state, E.Draw(0, state.active, None))
    assert rulings and rulings[0].rule == "neopets:5.2.2b"


def test_an_empty_deck_lets_the_draw_phase_pass() -> None:
    state = state_where(lambda s: s.stage == "turn" and s.node == "draw" and s.window == "act" and not s.queue)
    assert not GAME._can_advance(state)
    _empty_deck(state)
    assert GAME._can_advance(state)


def test_lasting_effects_end_with_the_round() -> None:
    state = state_where(preparation)
    state.lasting.append(Lasting("modify", state.active, state.active, "Attack", 2, "permanent"))
    GAME.end_round(state, loser=state.nonactive, face_down=True)
    assert state.lasting == []


def test_a_location_takes_its_map_pieces_to_the_discard() -> None:
    state = state_where(preparation)
    side = state.sides[state.active]
    for piece in ("Sunken Grotto Map: Reef Corner", "Sunken Grotto Map: Kelp Corner", "Sunken Grotto Map: Anchor Corner"):
        side.play_area.add(in_play(state, state.active, piece))
    side.play_area.cards = [c for c in side.play_area.cards if c.defn is not None and c.defn.type == "Map Piece"]
    state.play_changed()
    give(state, state.active, "Sunken Grotto")
    before = sum(1 for c in side.discard if c.defn is not None and c.defn.type == "Map Piece") + len(side.play_area)
    assert not GAME.apply(state, E.Play(0, state.active, "Sunken Grotto"))
    GAME.apply(state, E.Pass(0, state.active))
    GAME.apply(state, E.Pass(0, state.nonactive))
    assert side.play_area.names() == ["Sunken Grotto"]
    assert sum(1 for c in side.discard if c.defn is not None and c.defn.type == "Map Piece") == before


# ----------------------------------------------------------------- static negation (8.20.6b, 8.18.5)


def _neopet_as(state: NeopetsState, player: str, name: str) -> None:
    neopet = state.sides[player].neopet
    assert neopet is not None
    neopet.card = state.new_card(name, player, state.cards[name])
    state.enter_play(neopet.card)


def test_the_negated_ability_is_usable_without_the_negation() -> None:
    """The 8.20.6b case below fails only because of Muffling Collar."""
    state = state_where(preparation)
    _quillotter_ready(state)
    assert not GAME.apply(state, E.Activate(0, state.active, "Quillotter", 0, []))


def test_a_statically_negated_neopet_has_no_passive() -> None:
    """8.20.6b: Ember Cindermoth's +1 Attack is gone while its abilities are negated."""
    from spec.neopets import board as B

    state = state_where(preparation)
    _no_negations(state)
    _neopet_as(state, state.active, "Ember Cindermoth")
    before = B.stat(state, state.active, "Attack")
    collar = in_play(state, state.nonactive, "Muffling Collar")
    state.sides[state.nonactive].equipment.append(collar)
    state.enter_play(collar)
    assert B.stat(state, state.active, "Attack") == before - 1


def test_between_two_negations_the_one_in_play_longer_prevails() -> None:
    """8.18.5: two Hushwings negate each other; the older one's negation applies."""
    from spec.neopets import board as B

    state = state_where(preparation)
    _neopet_as(state, state.nonactive, "Hushwing")
    _neopet_as(state, state.active, "Hushwing")  # enters later
    older = state.sides[state.nonactive].neopet
    newer = state.sides[state.active].neopet
    assert older is not None and newer is not None
    assert B.negated_neopets(state) == {newer.card.uid}
    state.enter_play(older.card, newer.card)  # together: active player's first (9.7.1)
    assert B.negated_neopets(state) == {older.card.uid}


# ----------------------------------------------------------------- additions mid-effect (8.12.1)


def _resolving_song(state: NeopetsState) -> None:
    """Song of the Lost Hoard resolves and waits for its search (sentence one)."""
    give(state, state.active, "Song of the Lost Hoard")
    give(state, state.nonactive, "Thornberry Omelette")
    give(state, state.nonactive, "Crunchy Kelp Crisps")
    neopet = state.sides[state.active].neopet
    assert neopet is not None
    neopet.codestones = [in_play(state, state.active, "Sparkflint Codestone")]
    assert not GAME.apply(state, E.Play(0, state.active, "Song of the Lost Hoard"))
    GAME.apply(state, E.Pass(0, state.active))
    GAME.apply(state, E.Pass(0, state.nonactive))
    assert state.resolution is not None and state.resolution.need is not None
    assert state.resolution.need.kind == "search"


def test_a_card_can_be_added_between_two_sentences_of_an_effect() -> None:
    """8.12.1.p1: after the search sentence, Food joins the queue; 8.12.1.p2: it waits."""
    state = state_where(preparation)
    _resolving_song(state)
    assert not GAME.apply(state, E.Search(0, state.active, "Sparkflint Codestone"))
    rulings = GAME.apply(state.copy(), E.Play(0, state.nonactive, "Thornberry Omelette"))
    assert rulings, "the shuffle that ends a search (8.20.9d) is still the first sentence"
    assert not GAME.apply(state, E.Shuffle(0, state.active))
    assert state.resolution is not None and state.resolution.need is not None
    assert state.resolution.need.kind == "shuffle"  # the second sentence: "Shuffle your Main Deck."
    assert not GAME.apply(state, E.Play(0, state.nonactive, "Thornberry Omelette"))
    assert [i.name for i in state.queue.items] == ["Thornberry Omelette"]
    assert state.resolution is not None and state.resolution.need is not None
    assert state.resolution.need.kind == "shuffle"  # the effect is still where it paused
    assert not GAME.apply(state, E.Shuffle(0, state.active))
    assert state.resolution is None and state.last_resolved == "Song of the Lost Hoard"
    assert [i.name for i in state.queue.items] == ["Thornberry Omelette"]


def test_nothing_can_be_added_before_the_first_sentence_is_done() -> None:
    """8.12.1.p1 speaks of the breaks after a sentence: not in the middle of one."""
    state = state_where(preparation)
    _resolving_song(state)
    rulings = GAME.apply(state, E.Play(0, state.nonactive, "Crunchy Kelp Crisps"))
    assert rulings and rulings[0].violation.severity == "illegal"
    assert not state.queue.items


# ---------------------------------------------------------------- optional steps and "may"


def _refused(state: NeopetsState, move: Any) -> bool:
    return any(r.violation.severity in ("illegal", "inconsistent", "malformed") for r in GAME.apply(state.copy(), move))


def test_any_other_move_than_declining_lets_an_optional_step_go_and_is_offered() -> None:
    """An optional step (here "reroll up to ...") waiting for its player is let go by any
    other move, as a Decline would let it go (docs/neopets-decisions.rst). ``legal_moves``
    and ``offers`` (what mutation testing asks of a mutant) must agree with the verifier:
    every move legal once the step is declined is offered while it still waits."""
    state = next(s.copy() for seed in range(1, 6) for s in _states(seed)
                 if s.resolution is not None and s.resolution.need is not None
                 and s.resolution.need.optional and s.resolution.need.kind != "may")
    need = state.resolution.need if state.resolution is not None else None
    assert need is not None
    declined = state.copy()
    assert not GAME.apply(declined, E.Decline(0, need.player))
    later = [m for m in GAME.legal_moves(declined) if type(m) is not E.Decline]
    assert later, "declining leads somewhere"
    for move in later:
        assert not _refused(state, move), move
        assert GAME.offers(state, move), move


def test_a_may_is_taken_up_by_doing_what_it_offers() -> None:
    """8.20.15b: "you may" waits for its player; a Decline refuses it, and doing what it
    offers (here the draw) takes it up. Both are offered, and the draw is legal."""
    state = state_where(preparation)
    picnic = CardDef("Picnic Crumb", "Food", "You may draw a card.")
    state.cards = CardDatabase("test", "neopets", 1, list(state.cards) + [picnic])
    player = state.active
    state.sides[player].inventory.add(state.new_card(picnic.name, player, picnic))
    assert not GAME.apply(state, E.Play(0, player, picnic.name))
    GAME.apply(state, E.Pass(0, player))
    GAME.apply(state, E.Pass(0, state.nonactive))
    need = state.resolution.need if state.resolution is not None else None
    assert need is not None and need.kind == "may" and need.player == player
    moves = GAME.legal_moves(state)
    assert E.Decline(0, player) in moves
    draws = [m for m in moves if type(m) is E.Draw and m.by == player]
    assert draws, "taking the may up by drawing is offered"
    taken = state.copy()
    assert not GAME.apply(taken, draws[0])
    assert taken.resolution is None or taken.resolution.need is None
    assert _refused(state, E.Pass(0, player)), "a pass takes the may up and then fails to draw"


def test_each_player_discards_one_after_the_other() -> None:
    """8.20.3a: "each player discards a card" is a discard by each player, in the order
    draws take (active player first). Before, only the first player discarded."""
    from grammar import ast as A
    from spec.core.interpreter import Resolution
    from spec.neopets import board as B

    state = state_where(lambda s: preparation(s) and all(len(s.sides[p].inventory) > 0 for p in s.players))
    res = Resolution(state.active, None, [])
    need = GAME.effects.do_discard(state, res, A.Discard("each", 1))
    assert need is not None and need.player == state.active
    pushed = [step for frame in res.frames for step in frame.steps]
    assert pushed == [A.Discard("opponent", 1, None)]
    with pytest.raises(B.Unmodelled):  # a step for every player that is not split is reported, never run for one
        GAME.effects.do_scrap(state, Resolution(state.active, None, []), A.Scrap("each", 1))


def test_lint_names_what_the_spec_cannot_run_before_a_replay_reaches_it() -> None:
    """``unsupported`` names a step the spec does not carry out (negating a Neopet's abilities
    once, not as a passive ability: 8.20.6b) and a condition it cannot test (a passive ability
    reading a roll's result, when no roll is made), so lint notes the card and the simulator
    leaves it out; the same texts the spec runs are not named. Before, every card whose text
    parsed was taken as run, and such a card was found out only as a replay reached it."""
    from spec.neopets import board as B

    cards = CardDatabase("test", "neopets", 1, [
        CardDef("Hush Cake", "Food", "Negate the abilities of your opponent's Neopet."),
        CardDef("Hush Charm", "Equipment", "Negate the abilities of your opponent's Neopet."),
        CardDef("Lucky Glove", "Equipment", "While the result is 5 or more, your Neopet gets +2 Attack."),
        CardDef("Lucky Tart", "Food", "Roll a d6. If the result is 5 or more, draw a card."),
    ])
    assert "passive ability only (8.20.6b)" in (GAME.unsupported(cards, "Hush Cake") or "")
    assert GAME.unsupported(cards, "Hush Charm") is None
    assert "no roll can give its number" in (GAME.unsupported(cards, "Lucky Glove") or "")
    assert GAME.unsupported(cards, "Lucky Tart") is None
    state = next(s for s in _states(1) if s.stage == "turn").copy()
    glove = cards.tree("Lucky Glove")
    condition = glove.abilities[0].condition  # type: ignore[union-attr]
    with pytest.raises(B.Unmodelled):  # what the note foretells: the test cannot be made in play
        B.condition_holds(state, state.players[0], condition, {})


def test_every_subject_lint_takes_as_read_is_read() -> None:
    """``board.MEASURED`` (what ``condition_gap`` takes as read) and ``condition_holds`` agree:
    each subject it lists is measured, and one it does not is refused by both."""
    from grammar import ast as A
    from spec.neopets import board as B

    state = next(s for s in _states(1) if s.stage == "turn" and all(s.sides[p].neopet for p in s.players)).copy()
    player = state.players[0]
    for subject in B.MEASURED:
        cond = A.Condition(subject, "has" if subject == "controls" else ">=", "Faerie" if subject == "controls" else 1)
        assert B.condition_gap(cond, after_roll=True) is None
        assert isinstance(B.condition_holds(state, player, cond, {"result": 3}), bool)
    odd = A.Condition("weather", ">=", 1)
    assert "no meaning" in (B.condition_gap(odd, after_roll=True) or "")
    with pytest.raises(B.Unmodelled, match="no meaning"):
        B.condition_holds(state, player, odd, {})


def test_a_passive_the_spec_cannot_test_leaves_the_view_whole() -> None:
    """An Equipment in play whose passive ability tests a roll's result (no roll is made when
    stats are read) makes its Neopet's stats unknown: ``null`` in the state a report shows,
    where building that state raised."""
    state = next(s for s in _states(1) if s.stage == "turn" and all(s.sides[p].neopet for p in s.players)).copy()
    player = state.players[0]
    glove = CardDef("Lucky Glove", "Equipment", "While the result is 5 or more, your Neopet gets +2 Attack.")
    state.cards = CardDatabase("test", "neopets", 1, [*state.cards, glove])
    state.sides[player].equipment.append(state.new_card(glove.name, player, glove))
    state.play_changed()
    stats = GAME.view(state)["players"][player]["stats"]
    assert stats["Attack"] is None


def test_a_condition_on_several_players_is_unmodelled_not_the_first_players() -> None:
    """A condition measuring "each player's" Neopet or Inventory is not read as the first
    seated player's (as it was): ``condition_holds`` raises ``Unmodelled`` and
    ``condition_gap`` names it, so lint notes the card."""
    from grammar import ast as A
    from spec.neopets import board as B

    state = next(s for s in _states(1) if s.stage == "turn" and all(s.sides[p].neopet for p in s.players)).copy()
    for subject in ("damage", "Attack", "cards"):
        cond = A.Condition(subject, ">=", 1, A.Selector("the", "Neopet", owner="each"))
        assert "'each' players is not modelled" in (B.condition_gap(cond, after_roll=True) or "")
        with pytest.raises(B.Unmodelled):
            B.condition_holds(state, state.players[0], cond, {})


def test_lint_names_a_result_read_by_an_effect_that_makes_no_roll() -> None:
    """A roll's result is there to read only in an effect that rolls (in its cost or its
    steps); an effect that tests "the result" without one is named by ``unsupported``."""
    cards = CardDatabase("test", "neopets", 1, [
        CardDef("Blind Guess", "Food", "If the result is 5 or more, draw a card."),
        CardDef("Lucky Pie", "Potion", "Roll a d6; if the result is 4 or more, draw two cards."),
        CardDef("Lucky Roll", "Food", "Roll a d3. If the result is 2 or more, draw a card."),
    ])
    assert "no roll can give its number" in (GAME.unsupported(cards, "Blind Guess") or "")
    assert GAME.unsupported(cards, "Lucky Pie") is None
    assert GAME.unsupported(cards, "Lucky Roll") is None
