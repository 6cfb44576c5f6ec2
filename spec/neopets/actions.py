"""The preconditions of every Neopets event, each citing the rule it implements.

Each check reads: the rule ID, one line of what it requires, the condition, the finding.
``Neopets.apply`` runs them on a recorded event; ``Neopets.legal_moves`` keeps the
candidate events that pass them. They only read the state; the flow and the effects
live in :mod:`spec.neopets.game` and :mod:`spec.neopets.effects`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from grammar import ast as A
from spec.core.findings import Violation
from spec.core.game import Event, unasked
from spec.core.rules import Action, RuleBook, RuleIndex, fails_only
from spec.core.state import CardObj
from spec.neopets import board as B
from spec.neopets import conflicts as NC
from spec.neopets import events as E
from spec.neopets.state import NeopetsState
from spec.neopets.turn import TURN

BOOK: Final = RuleBook(RuleIndex.load("neopets", Path(__file__).with_name("rules.tsv")))

SHUFFLE: Final = BOOK.action("shuffle")
FIRST: Final = BOOK.action("first")
DEFER: Final = BOOK.action("defer")
DRAW: Final = BOOK.action("draw")
MULLIGAN: Final = BOOK.action("mulligan")
CHOOSE: Final = BOOK.action("choose")
PASS: Final = BOOK.action("pass")
ATTACH: Final = BOOK.action("attach")
PLAY: Final = BOOK.action("play")
COLLECT: Final = BOOK.action("collect")
ACTIVATE: Final = BOOK.action("activate")
ROLL: Final = BOOK.action("roll")
REROLL: Final = BOOK.action("reroll")
UNASKED: Final = {kind: BOOK.action(kind) for kind in ("discard", "select", "decline", "scrap", "search", "reveal")}
PHASE: Final = BOOK.action("phase")
RESOLVE: Final = BOOK.action("resolve")
DAMAGE: Final = BOOK.action("damage")
KNOCKOUT: Final = BOOK.action("knockout")
ROUND: Final = BOOK.action("round")
GAME: Final = BOOK.action("game")

Check = Violation | None


# ====================================================================== where a check can fail
#
# A check whose first condition confines it to some stages, nodes, priority windows or
# types of card played says so with core ``fails_only(stage=..., node=..., window=...,
# card_type=...)`` under its precondition; ``Neopets.apply`` runs, per node and window of
# a turn, only the checks that can fail there. tests/test_neopets_speed.py holds every
# declaration to its check's code at every event of the shipped replays.

WINDOW_NAMES: Final = ("open", "act", "close")
"""The priority windows a node can have (spec.neopets.turn.WINDOWS)."""

StagedChecks = tuple[tuple[Callable[..., Check], Any], ...]
"""An action's checks as (test, check) pairs, in the order they were registered."""


def checks_in_turn(action: Action[Any, Any], card_type: str | None = None) -> dict[str, dict[str, StagedChecks]]:
    """Per node and priority window of a turn, the action's checks that can fail there
    (for a play of a card of ``card_type``; ``None``: of any type), by
    :meth:`spec.core.rules.Action.checks_where`.

    ``Neopets.apply`` looks the tuple up once per event in a turn instead of running every
    check of the action; outside a turn (set-up, a new round) it runs them all.
    """
    return {node: {window: action.checks_where(stage="turn", node=node, window=window, card_type=card_type)
                   for window in WINDOW_NAMES}
            for node in TURN.order}


CARD_TYPES: Final = ("Codestone", "Equipment", "Faerie", "Food", "Hero", "Legend", "Location", "Map Piece", "Neopet",
              "Paint Brush", "Potion", "Rainbow Pool Neopet", "Villain")
"""The card types of the game (a card database may name others: then every check runs)."""


def checks_in_turn_by_type(action: Action[Any, Any]) -> dict[str, dict[str, dict[str, StagedChecks]]] | None:
    """For an action with checks declared for some card types only (plays), per type of the
    card played, :func:`checks_in_turn`; ``None`` for the other actions."""
    if not action.declares("card_type"):
        return None
    return {card_type: checks_in_turn(action, card_type) for card_type in CARD_TYPES}


# ====================================================================== set-up (2)

@SHUFFLE.precondition("2.p1", "a shuffle comes in set-up, after a mulligan, or when an effect asks for it")
def shuffle_called_for(state: NeopetsState, ev: E.Shuffle) -> Check:
    side = state.sides[ev.by or ""]
    if state.stage == "setup" and (not side.shuffled or side.mulligan_pending):
        return None
    return Violation("a shuffle the rules do not call for here", expected="no shuffle", actual="shuffle")


@FIRST.precondition("2.p4", "the starting player is picked once, during set-up, among the players")
def first_once(state: NeopetsState, ev: E.First) -> Check:
    if state.stage != "setup" or state.starting is not None:
        return Violation("the starting player was already decided", expected="one random pick", actual="another pick")
    if ev.player not in state.players:
        return Violation(f"{ev.player!r} is not a player of this game", expected="one of the players", actual=ev.player)
    return None


@DEFER.precondition("2.p5", "only the starting player may hand the first turn over, before the opening hands")
def defer_by_starting_player(state: NeopetsState, ev: E.Defer) -> Check:
    if state.stage != "setup" or state.starting is None or ev.by != state.starting or state.first != state.starting:
        return Violation("only the starting player may defer, once", expected=f"a defer by {state.starting}", actual=f"a defer by {ev.by}")
    if any(s.opening_draws for s in state.sides.values()):
        return Violation("the first turn is deferred before opening hands are drawn", expected="defer before drawing", actual="defer after drawing")
    return None


@DRAW.precondition("2.p1", "no card is drawn before its player has shuffled their Main Deck")
@fails_only(stage=("setup",))
def draw_after_shuffle(state: NeopetsState, ev: E.Draw) -> Check:
    side = state.sides[ev.by or ""]
    if state.stage == "setup" and (not side.shuffled or side.mulligan_pending):
        return Violation("a card drawn from an unshuffled deck", expected="shuffle first", actual="draw")
    return None


@DRAW.precondition("2.p6", "opening hands are drawn once the starting player is known, five cards each")
@fails_only(stage=("setup",))
def opening_hand(state: NeopetsState, ev: E.Draw) -> Check:
    if state.stage != "setup":
        return None
    side = state.sides[ev.by or ""]
    if state.starting is None:
        return Violation("opening hand drawn before the starting player was decided", expected="the starting player first", actual="draw")
    if side.opening_draws >= 5:
        return Violation("a sixth card drawn for the opening hand", expected="five cards", actual="a sixth draw")
    return None


@DRAW.precondition("5.2.2b", "outside set-up, a player draws only as the active player's one Draw Phase draw")
def draw_in_draw_phase(state: NeopetsState, ev: E.Draw) -> Check:
    if state.stage == "setup":
        return None
    if state.stage != "turn" or state.node != "draw" or ev.by != state.active or state.flags.drew:
        return Violation("a draw no rule or effect calls for", expected="no draw here", actual=f"draw by {ev.by}")
    return None


@DRAW.precondition("5.2.1c", "both players pass priority before the Draw Phase draw")
@fails_only(stage=("turn",), node=("draw",))
def draw_after_priority(state: NeopetsState, ev: E.Draw) -> Check:
    if state.stage == "turn" and state.node == "draw" and state.window == "open":
        return Violation("the card was drawn before both players passed priority", expected="two passes, then the draw", actual="draw")
    if state.stage == "turn" and state.node == "draw" and state.queue.items:
        return Violation("the card was drawn while beginning-of-phase effects waited", expected="the queue resolved first (5.2.1b.p3)", actual="draw")
    return None


@DRAW.precondition("9.3.1.p1", "nobody draws from an empty Main Deck")
def draw_from_cards(state: NeopetsState, ev: E.Draw) -> Check:
    if len(state.sides[ev.by or ""].deck) == 0:
        return Violation("a card drawn from an empty Main Deck", expected="no draw (the player is exhausted)", actual="draw")
    return None


@MULLIGAN.precondition("2.p8", "a mulligan comes after the five-card opening hand and before Neopets are chosen")
def mulligan_timing(state: NeopetsState, ev: E.Mulligan) -> Check:
    side = state.sides[ev.by or ""]
    if state.stage != "setup" or side.opening_draws < 5 or side.chosen is not None:
        return Violation("a mulligan outside the opening-hand window", expected="mulligan right after the opening hand", actual="mulligan")
    return None


@MULLIGAN.precondition("2.p9", "each player mulligans at most once")
def one_mulligan(state: NeopetsState, ev: E.Mulligan) -> Check:
    if state.sides[ev.by or ""].mulligans >= 1:
        return Violation("a second mulligan", expected="at most one mulligan", actual="a second mulligan")
    return None


@CHOOSE.precondition("2.p10", "starting Neopets are chosen once both opening hands and mulligans are done")
def choose_after_hands(state: NeopetsState, ev: E.Choose) -> Check:
    if state.stage == "setup":
        if any(s.opening_draws < 5 or s.mulligan_pending for s in state.sides.values()):
            return Violation("a Neopet chosen before the opening hands were settled", expected="hands first", actual="choose")
        if state.sides[ev.by or ""].chosen is not None:
            return Violation("a second starting Neopet", expected="one starting Neopet", actual="another choice")
        return None
    if state.stage == "new_round":
        return None
    return Violation("a Neopet chosen outside set-up or a new round", expected="no choice here", actual="choose")


@CHOOSE.precondition("5.5.12.p2", "in a new round the round's winner chooses first, then the other player")
@fails_only(stage=("new_round",))
def choose_order(state: NeopetsState, ev: E.Choose) -> Check:
    if state.stage != "new_round":
        return None
    winner = state.round_winners[-1]
    chooser = winner if state.sides[winner].neopet is None else state.other(winner)
    if ev.by != chooser or state.sides[chooser].neopet is not None:
        return Violation("Neopets chosen out of order for the new round", expected=f"{chooser} chooses", actual=f"{ev.by} chooses")
    return None


@CHOOSE.precondition("7.1.1", "the chosen card is a Neopet")
def choose_a_neopet(state: NeopetsState, ev: E.Choose) -> Check:
    defn = state.cards.get(ev.neopet)
    if defn is not None and defn.type != "Neopet":
        return Violation(f"{ev.neopet} is a {defn.type}, not a Neopet", expected="a Neopet", actual=defn.type)
    return None


@CHOOSE.precondition("7.1.3.p2", "no two Neopets of one player's Neopet Deck share a species")
def choose_new_species(state: NeopetsState, ev: E.Choose) -> Check:
    defn = state.cards.get(ev.neopet)
    side = state.sides[ev.by or ""]
    if defn is not None and (defn.species or defn.name) in side.used_species:
        return Violation(f"a second {defn.species} from one Neopet Deck", expected="a new species", actual=ev.neopet,
                         severity="inconsistent")
    return None


@CHOOSE.precondition("1.4.p1", "the chosen Neopet is one the registered Neopet Deck still holds")
def choose_from_neopet_deck(state: NeopetsState, ev: E.Choose) -> Check:
    side = state.sides[ev.by or ""]
    if side.neopet_deck is not None and ev.neopet not in side.neopet_deck:
        return Violation(f"{ev.neopet} is not left in the registered Neopet Deck", expected=", ".join(side.neopet_deck) or "none",
                         actual=ev.neopet, severity="inconsistent")
    return None


# ====================================================================== priority

@PASS.precondition("8.20.15a", "a pass comes from the player holding priority, in a priority window")
def pass_with_priority(state: NeopetsState, ev: E.Pass) -> Check:
    if state.stage != "turn" or state.resolution is not None or state.pending_item is not None:
        return Violation("a pass where no player holds priority", expected="no pass here", actual="pass")
    if ev.by != state.priority.holder:
        return Violation(f"{ev.by} passed while {state.priority.holder} held priority", expected=f"a move by {state.priority.holder}", actual=f"pass by {ev.by}")
    return None


@PASS.precondition("5.2.2b", "the Draw Phase cannot be passed through before the active player draws")
@fails_only(node=("draw",), window=("act",))
def no_pass_before_draw(state: NeopetsState, ev: E.Pass) -> Check:
    if state.node == "draw" and state.window == "act" and not state.flags.drew and not state.queue.items and len(state.sides[state.active].deck) > 0:
        return Violation("priority passed before the compulsory draw", expected="the draw", actual="pass")
    return None


@PASS.precondition("5.5.4c.p1", "the attack and defence steps cannot be passed through before their dice are rolled")
@fails_only(node=("attack", "defence"), window=("act",))
def no_pass_before_roll(state: NeopetsState, ev: E.Pass) -> Check:
    if state.node in ("attack", "defence") and state.window == "act" and not state.queue.items:
        return Violation("priority passed before the dice were rolled", expected="the roll", actual="pass")
    return None


def has_priority(state: NeopetsState, player: str | None) -> Violation | None:
    """A player may add to the queue only in a priority window (and, with logged passes, holding it)."""
    if state.stage != "turn" or state.resolution is not None or state.pending_item is not None:
        return Violation("no player has priority here", expected="a priority window", actual="an action")
    if state.node in ("attack", "defence") and state.window == "act":
        return Violation("no priority while dice are chosen and rolled (5.5.4b.p2)", expected="the roll", actual="an action")
    if state.explicit_passes and player != state.priority.holder:
        return Violation(f"{player} acted while {state.priority.holder} held priority", expected=f"a move by {state.priority.holder}", actual=f"a move by {player}")
    return None


def in_inventory(state: NeopetsState, player: str, name: str) -> Violation | None:
    """The card is in the Inventory: known there, or one of its hidden cards."""
    inventory = state.sides[player].inventory
    if inventory.find(name) is not None:
        return None
    if inventory.unknown() is None:
        return Violation(f"{name} is not in {player}'s Inventory", expected="a card from the Inventory", actual=name)
    if not state.sides[player].knowledge.can_reveal(name):
        return Violation(f"{name}: more copies revealed than {player}'s registered deck holds", expected="a card the deck can hold",
                         actual=name, severity="inconsistent")
    return None


def _card_type(state: NeopetsState, name: str) -> str:
    defn = state.cards.get(name)
    return "" if defn is None else defn.type


# ====================================================================== Train Phase: Codestones

@ATTACH.precondition("7.11.3.p1", "only Codestones are attached")
def attach_codestones(state: NeopetsState, ev: E.Attach) -> Check:
    if _card_type(state, ev.card) != "Codestone":
        return Violation(f"{ev.card} is not a Codestone", expected="a Codestone", actual=_card_type(state, ev.card) or ev.card)
    return None


@ATTACH.precondition("5.3.2b.p2", "a Codestone is attached by the normal action only in a Train Phase")
def attach_in_train_phase(state: NeopetsState, ev: E.Attach) -> Check:
    if state.stage != "turn" or state.node != "train":
        return Violation("a Codestone attached outside the Train Phase", expected="attach in the Train Phase", actual=f"attach in {state.node}")
    return None


@ATTACH.precondition("7.11.4.p1", "only the active player attaches, in their own Train Phase, with the queue empty")
def attach_by_active_player(state: NeopetsState, ev: E.Attach) -> Check:
    if ev.by != state.active:
        return Violation("a Codestone attached in the opponent's turn", expected=f"attach by {state.active}", actual=f"attach by {ev.by}")
    if state.queue.items or state.resolution is not None:
        return Violation("a Codestone attached while the queue held effects", expected="an empty queue", actual=f"{len(state.queue)} in the queue")
    return None


@ATTACH.precondition("5.3.1c.p2", "both players pass priority before the Codestone is attached")
@fails_only(window=("open",))
def attach_after_priority(state: NeopetsState, ev: E.Attach) -> Check:
    if state.window == "open":
        return Violation("attached before both players passed priority", expected="two passes first", actual="attach")
    return None


@ATTACH.precondition("7.11.4.p2", "only one Codestone is attached by the normal action each Train Phase")
def one_codestone_per_train_phase(state: NeopetsState, ev: E.Attach) -> Check:
    if state.flags.codestones_attached >= 1:
        return Violation("a second Codestone attached this Train Phase", expected="at most one Codestone per Train Phase", actual="second attach")
    return None


@ATTACH.precondition("7.11.5", "a Neopet carries at most five Codestones")
def five_codestones(state: NeopetsState, ev: E.Attach) -> Check:
    if B.level(state, ev.by or "") >= 5:
        return Violation("a sixth Codestone", expected="at most five Codestones", actual="six")
    return None


@ATTACH.precondition("7.11.3.p2", "the Codestone comes from the player's Inventory")
def attach_from_inventory(state: NeopetsState, ev: E.Attach) -> Check:
    return in_inventory(state, ev.by or "", ev.card)


# ====================================================================== playing cards

@PLAY.precondition("7.11.3.p1", "Codestones are attached, never played")
@fails_only(card_type=("Codestone",))
def codestones_not_played(state: NeopetsState, ev: E.Play) -> Check:
    if _card_type(state, ev.card) == "Codestone":
        return Violation("a Codestone was played", expected="attach it in the Train Phase", actual="play")
    return None


@PLAY.precondition("8.20.2d", "a Map Piece is collected, not played")
@fails_only(card_type=("Map Piece",))
def map_pieces_collected(state: NeopetsState, ev: E.Play) -> Check:
    if _card_type(state, ev.card) == "Map Piece":
        return Violation("a Map Piece was played", expected="collect it", actual="play")
    return None


@PLAY.precondition("1.1.p2", "only Main Deck card types are played from the Inventory")
@fails_only(card_type=("Neopet", "Rainbow Pool Neopet"))
def playable_type(state: NeopetsState, ev: E.Play) -> Check:
    if _card_type(state, ev.card) in ("Neopet", "Rainbow Pool Neopet"):
        return Violation("a Neopet was played as a card", expected="a Main Deck card", actual=_card_type(state, ev.card))
    return None


@PLAY.precondition("7.8.3.p1", "a card is added to the queue only by a player with priority")
def play_with_priority(state: NeopetsState, ev: E.Play) -> Check:
    return has_priority(state, ev.by)


def _prep_rule(state: NeopetsState, ev: E.Play) -> str | None:
    return B.PREPARATION_TYPES.get(_card_type(state, ev.card))


@BOOK.encodes("9.1.2", "7.10.7", "8.20.2e", what="an effect letting a player play cards outside their timing waives it (plays and collects)")
def timing_waived(state: NeopetsState, player: str, kind: str) -> bool:
    """Whether an effect in force lets ``player`` play ``kind`` cards outside their usual timing."""
    return B.permitted(state, player, f"play {kind}") > 0 or B.permitted(state, player, "play cards") > 0


def _prep_timing(state: NeopetsState, ev: E.Play, rule: str) -> Check:
    if _prep_rule(state, ev) != rule:
        return None
    if ev.by != state.active or state.node != "preparation" or state.queue.items:
        if timing_waived(state, ev.by or "", _card_type(state, ev.card)):
            return NC.judge_timing(state, ev.by or "", _card_type(state, ev.card))[0]  # 4.2: the permission against the timing
        return Violation(f"a {_card_type(state, ev.card)} played outside its player's Preparation Phase with an empty queue",
                         expected="own Preparation Phase, empty queue", actual=f"{state.node}, {ev.by}, queue {len(state.queue)}")
    return None


@PLAY.precondition("7.3.3", "a Faerie, Hero or Villain is played in its player's Preparation Phase with the queue empty")
@fails_only(card_type=B.FAERIE_TYPES)
def faerie_timing(state: NeopetsState, ev: E.Play) -> Check:
    return _prep_timing(state, ev, "7.3.3")


@PLAY.precondition("7.4.3", "a Paint Brush is played in its player's Preparation Phase with the queue empty")
@fails_only(card_type=("Paint Brush",))
def brush_timing(state: NeopetsState, ev: E.Play) -> Check:
    return _prep_timing(state, ev, "7.4.3")


@PLAY.precondition("7.5.3", "a Legend is played in its player's Preparation Phase with the queue empty")
@fails_only(card_type=("Legend",))
def legend_timing(state: NeopetsState, ev: E.Play) -> Check:
    return _prep_timing(state, ev, "7.5.3")


@PLAY.precondition("7.6.3", "Equipment is played in its player's Preparation Phase with the queue empty")
@fails_only(card_type=("Equipment",))
def equipment_timing(state: NeopetsState, ev: E.Play) -> Check:
    return _prep_timing(state, ev, "7.6.3")


@PLAY.precondition("7.7.3", "a Potion is played in its player's Preparation Phase with the queue empty")
@fails_only(card_type=("Potion",))
def potion_timing(state: NeopetsState, ev: E.Play) -> Check:
    return _prep_timing(state, ev, "7.7.3")


@PLAY.precondition("7.9.3", "a Location is played in its player's Preparation Phase with the queue empty")
@fails_only(card_type=("Location",))
def location_timing(state: NeopetsState, ev: E.Play) -> Check:
    return _prep_timing(state, ev, "7.9.3")


@PLAY.precondition("5.4.1c.p2", "both players pass priority before the Preparation Phase card is played")
@fails_only(node=("preparation",), window=("open",), card_type=tuple(B.PREPARATION_TYPES))
def prep_after_priority(state: NeopetsState, ev: E.Play) -> Check:
    if _prep_rule(state, ev) is not None and state.window == "open" and state.node == "preparation":
        return Violation("played before both players passed priority", expected="two passes first", actual="play")
    return None


@BOOK.encodes("4.2", "9.1.1", what="a card granting an additional play overrides the one-card limit; the extra card does not use it up")
def _granted_plays(state: NeopetsState, player: str) -> int:
    return B.permitted(state, player, "play an additional card")


@PLAY.precondition("5.4.2a.p1", "one card is played in the Preparation Phase, unless an effect grants more")
@fails_only(node=("preparation",), card_type=tuple(B.PREPARATION_TYPES))
def one_preparation_play(state: NeopetsState, ev: E.Play) -> Check:
    if _prep_rule(state, ev) is None or state.node != "preparation" or ev.by != state.active:
        return None
    allowed = 1 + _granted_plays(state, ev.by or "")
    if state.flags.prep_plays >= allowed:
        return Violation("a second card played this Preparation Phase", expected=f"at most {allowed} card(s)", actual=f"card {state.flags.prep_plays + 1}")
    if state.flags.prep_plays >= 1:
        return NC.judge_grant(state, ev.by or "")[0]  # 4.2: the grant against the one play
    return None


@PLAY.precondition("4.1", "a can't in force beats the permission to play")
def cant_beats_can(state: NeopetsState, ev: E.Play) -> Check:
    kind = _card_type(state, ev.card)
    player = ev.by or ""
    if not (B.prohibited(state, player, f"play {kind}") or B.prohibited(state, player, "play cards")):
        return None
    if B.permitted(state, player, f"play {kind}") or B.permitted(state, player, "play cards"):
        return NC.judge_play(state, player, kind, ev.card)[0]  # a can't and a can clash: the policy decides
    return Violation(f"an effect in force says {ev.by} can't play {kind} cards", expected=f"no {kind} played", actual=ev.card)


@PLAY.precondition("6.4.2.p1", "the player's level (Codestones attached) meets the card's level requirement")
def level_requirement(state: NeopetsState, ev: E.Play) -> Check:
    defn = state.cards.get(ev.card)
    if defn is None or defn.level is None or ev.alternative:
        return None
    have = B.level(state, ev.by or "")
    if have < defn.level:
        return Violation(f"{ev.card} needs level {defn.level}", expected=f"{defn.level} Codestones attached", actual=f"{have}")
    return None


@PLAY.precondition("8.20.12a", "an alternative cost is paid only where the card offers one")
def alternative_offered(state: NeopetsState, ev: E.Play) -> Check:
    if ev.alternative and not any(a.alternative for a in B.abilities(state, ev.card, A.Activated)):
        return Violation(f"{ev.card} has no alternative cost", expected="the normal cost", actual="alternative cost")
    return None


@PLAY.precondition("7.3.7", "a player controls at most one Faerie, Hero or Villain")
@fails_only(card_type=B.FAERIE_TYPES)
def one_faerie(state: NeopetsState, ev: E.Play) -> Check:
    if _card_type(state, ev.card) in B.FAERIE_TYPES and state.sides[ev.by or ""].faerie:
        return Violation("a second Faerie, Hero or Villain", expected="at most one in the Battledome", actual=ev.card)
    return None


@PLAY.precondition("7.6.5", "a player controls at most three Equipment; a fourth must replace one (7.6.6)")
@fails_only(card_type=("Equipment",))
def three_equipment(state: NeopetsState, ev: E.Play) -> Check:
    if _card_type(state, ev.card) != "Equipment":
        return None
    equipped = state.sides[ev.by or ""].equipment
    if len(equipped) >= 3 and (ev.replace is None or all(c.name != ev.replace for c in equipped)):
        return Violation("a fourth Equipment without sending one away", expected="replace one of the three", actual=ev.card)
    return None


@PLAY.precondition("7.9.7.p2", "a new Location replaces the Location already controlled")
@fails_only(card_type=("Location",))
def one_location(state: NeopetsState, ev: E.Play) -> Check:
    if _card_type(state, ev.card) != "Location":
        return None
    current = [c.name for c in state.sides[ev.by or ""].play_area if c.defn is not None and c.defn.type == "Location"]
    if current and ev.replace not in current:
        return Violation("a second Location while one is in play", expected=f"send {current[0]} to the Discard first", actual=ev.card)
    return None


@PLAY.precondition("7.4.7", "a Paint Brush needs its matching Rainbow Pool Neopet in the Rainbow Pool")
@fails_only(card_type=("Paint Brush",))
def brush_has_pool_neopet(state: NeopetsState, ev: E.Play) -> Check:
    if _card_type(state, ev.card) != "Paint Brush":
        return None
    side = state.sides[ev.by or ""]
    if side.neopet is not None and side.neopet.painted_with == ev.card:
        return None  # 7.4.8 says why
    if brush_target(state, ev.by or "", ev.card, ev.neopet) is None:
        return Violation(f"no Rainbow Pool Neopet matches {ev.card}", expected="a matching Rainbow Pool Neopet", actual=ev.neopet or "none")
    return None


@PLAY.precondition("7.4.8", "a Neopet already painted with a brush cannot be painted with it again")
@fails_only(card_type=("Paint Brush",))
def brush_not_repeated(state: NeopetsState, ev: E.Play) -> Check:
    side = state.sides[ev.by or ""]
    if _card_type(state, ev.card) == "Paint Brush" and side.neopet is not None and side.neopet.painted_with == ev.card:
        return Violation(f"the Neopet is already painted with {ev.card}", expected="another brush", actual=ev.card)
    return None


def _pool_neopets(cards: Any) -> dict[tuple[str | None, str | None], list[str]]:
    """Per card database: the Rainbow Pool Neopets by species and brush, in the database's
    order (worked out on the first look-up, kept on the database)."""
    found: dict[tuple[str | None, str | None], list[str]] | None = getattr(cards, "_pool_neopets", None)
    if found is None:
        found = {}
        for defn in cards:
            if defn.type == "Rainbow Pool Neopet":
                found.setdefault((defn.species, defn.brush), []).append(defn.name)
        cards._pool_neopets = found
    return found


def brush_target(state: NeopetsState, player: str, brush: str, named: str | None) -> str | None:
    """The Rainbow Pool Neopet a Paint Brush brings in for ``player``, if one can (7.4.4)."""
    side = state.sides[player]
    if side.neopet is None or side.neopet.card.defn is None:
        return None
    candidates = _pool_neopets(state.cards).get((side.neopet.card.defn.species, brush), [])
    if side.rainbow_pool is not None:
        candidates = [c for c in candidates if c in side.rainbow_pool]
    if named is not None:
        return named if named in candidates else None
    return candidates[0] if len(candidates) == 1 else None


@PLAY.precondition("8.17.2", "a card's play conditions hold when it is added to the queue")
def conditions_hold(state: NeopetsState, ev: E.Play) -> Check:
    player = ev.by or ""
    for cond in B.abilities(state, ev.card, A.Conditional):
        if cond.condition is not None and not B.condition_holds(state, player, cond.condition, {}):
            return Violation(f"{ev.card}'s condition does not hold", expected=f"{cond.condition.subject} {cond.condition.op} {cond.condition.value}", actual="not met")
        if cond.timing is not None and not timing_holds(state, player, cond.timing):
            return Violation(f"{ev.card} may only be played {cond.timing.replace('_', ' ')}", expected=cond.timing, actual=f"{state.node}, {state.active}'s turn")
    return None


@BOOK.encodes("7.8.4", "7.8.4a", what="an event-restricted card is playable in the priority window right after the event, whoever holds priority")
def timing_holds(state: NeopetsState, player: str, timing: str) -> bool:
    """Whether a timing restriction of card text holds (7.8.4)."""
    if timing == "opponent_turn":
        return state.active != player
    if timing == "your_turn":
        return state.active == player
    if timing == "battle_phase":
        return state.node in ("attack", "defence", "agility", "damage")
    if timing == "after_roll":
        return state.flags.roll_window == state.window_number
    raise B.Unmodelled(f"the spec has no meaning for the timing {timing!r}")


@PLAY.precondition("8.20.13a", "every target the card needs is chosen as it is queued, and is legal")
def targets_chosen(state: NeopetsState, ev: E.Play) -> Check:
    return targets_violation(state, ev.by or "", played_abilities(B.text_of(state, ev.card), ev.alternative), ev.targets)


def played_abilities(text: A.CardText, alternative: bool) -> tuple:
    """The abilities a play carries out: the card's spell, or its alternative-cost ability."""
    if alternative:
        return tuple(a for a in text.abilities if isinstance(a, A.Activated) and a.alternative)
    return tuple(a for a in text.abilities if isinstance(a, A.Spell))


def targets_violation(state: NeopetsState, player: str, abilities: tuple, targets: list[E.TargetRef]) -> Violation | None:
    wanted = [sel for sel in target_selectors(abilities)]
    if len(targets) != len(wanted):
        return Violation("targets not chosen as the card is queued", expected=f"{len(wanted)} target(s)", actual=f"{len(targets)}")
    for sel, ref in zip(wanted, targets, strict=True):
        if find_target(state, player, sel, ref) is None:
            return Violation(f"{ref.card} is not a legal target", expected=f"target {sel.type}" + (f" in the {sel.zone}" if sel.zone else ""), actual=ref.card)
    return None


def target_selectors(abilities: tuple) -> list[A.Selector]:
    """Selectors with ``target`` in the effect of one-shot or activated abilities.

    What the effects of the same abilities ask for never changes: each tuple of abilities
    (frozen AST nodes from the card texts, compared by value) is walked once.
    """
    found = _TARGETS.get(abilities)
    if found is None:
        found = _TARGETS[abilities] = tuple(_target_selectors(abilities))
    return list(found)


_TARGETS: Final[dict[tuple, tuple[A.Selector, ...]]] = {}
"""The target selectors of each tuple of abilities walked so far (:func:`target_selectors`)."""


def _target_selectors(abilities: tuple) -> list[A.Selector]:
    """The selectors with ``target`` in the effects of the abilities that are queued
    (spells and activated abilities), in the order of the text."""
    return [node for ability in abilities if isinstance(ability, A.Spell | A.Activated)
            for node in A.nodes(ability.effect)
            if isinstance(node, A.Selector) and node.quantifier == "target"]


def find_target(state: NeopetsState, player: str, sel: A.Selector, ref: E.TargetRef) -> object | None:
    """The object a target reference names, if it matches the selector."""
    if sel.zone == "queue":
        for item in state.queue.items:
            if item.name == ref.card and (ref.owner is None or item.controller == ref.owner) \
                    and (sel.type in ("card", "ability") or B.selector_accepts(getattr(item.source, "defn", None), sel)):
                return item
        return None
    if sel.type == "Neopet":
        owner = ref.owner or player
        return state.sides[owner].neopet if owner in state.sides else None
    for owner in state.players:
        if ref.owner is not None and ref.owner != owner:
            continue
        side = state.sides[owner]
        for card in side.faerie + side.equipment + side.play_area.cards:
            if card.name == ref.card and B.selector_accepts(card.defn, sel):
                return card
    return None


@PLAY.precondition("5.4.2a.p1", "the card comes from the player's Inventory")
def play_from_inventory(state: NeopetsState, ev: E.Play) -> Check:
    defn = state.cards.get(ev.card)
    side = state.sides[ev.by or ""]
    if defn is not None and side.rainbow_pool is not None and ev.card in side.rainbow_pool and B.keyword(state, defn, "rainbow_pool"):
        return None
    return in_inventory(state, ev.by or "", ev.card)


# ====================================================================== Map Pieces (7.10, 8.20.2)

@COLLECT.precondition("8.20.2d", "only cards that say they can be collected are collected")
def collectable(state: NeopetsState, ev: E.Collect) -> Check:
    defn = state.cards.get(ev.card)
    if defn is None or B.keyword(state, defn, "map_piece") is None:
        return Violation(f"{ev.card} cannot be collected", expected="a Map Piece", actual=ev.card)
    return None


@COLLECT.precondition("7.10.5", "Map Pieces are collected in their player's Preparation Phase with the queue empty")
def collect_timing(state: NeopetsState, ev: E.Collect) -> Check:
    if state.stage == "turn" and timing_waived(state, ev.by or "", "Map Piece") and state.resolution is None:
        return None
    if state.stage != "turn" or ev.by != state.active or state.node != "preparation" or state.queue.items or state.resolution is not None:
        return Violation("a Map Piece collected outside its player's Preparation Phase with an empty queue",
                         expected="own Preparation Phase, empty queue", actual=f"{state.node}, {ev.by}")
    return None


@COLLECT.precondition("7.10.3", "the Map Piece comes from the player's Inventory")
def collect_from_inventory(state: NeopetsState, ev: E.Collect) -> Check:
    return in_inventory(state, ev.by or "", ev.card)


# ====================================================================== activated abilities (8.15)

def activated_source(state: NeopetsState, player: str, name: str) -> object | None:
    """The card in play (Battledome, active Neopet, Location) whose ability is used."""
    side = state.sides[player]
    if side.neopet is not None and name in ("Neopet", side.neopet.card.name):
        return side.neopet.card
    for card in side.faerie + side.equipment + side.play_area.cards:
        if card.name == name:
            return card
    return None


def activated_abilities(state: NeopetsState, source: Any) -> list[A.Activated]:
    """The activated abilities of a card in play that an activation can name (not the
    alternative costs of playing it), in their order."""
    return [a for a in B.abilities(state, source.name, A.Activated) if not a.alternative]


def move_source(state: NeopetsState, ev: E.Activate) -> object | None:
    """:func:`activated_source` for the checks of an activation: found once per move
    (``state.move``) when ``Neopets.apply`` judges it, every time otherwise."""
    move = state.move
    if move is None or move.event is not ev:
        return activated_source(state, ev.by or "", ev.card)
    if (found := move.source) is None:
        found = move.source = (activated_source(state, ev.by or "", ev.card),)
    return found[0]


def move_abilities(state: NeopetsState, ev: E.Activate, source: Any) -> list[A.Activated]:
    """:func:`activated_abilities` of the card an activation uses (``source``, from
    :func:`move_source`): listed once per move, as the card is found."""
    move = state.move
    if move is None or move.event is not ev:
        return activated_abilities(state, source)
    if (found := move.activated) is None:
        found = move.activated = activated_abilities(state, source)
    return found


@ACTIVATE.precondition("8.15.1", "an activated ability belongs to a card its player has in play")
def activate_in_play(state: NeopetsState, ev: E.Activate) -> Check:
    source = move_source(state, ev)
    if source is None:
        return Violation(f"{ev.card} is not in play on {ev.by}'s side", expected="a card in the Battledome", actual=ev.card)
    found = move_abilities(state, ev, source)
    if ev.ability >= len(found):
        return Violation(f"{ev.card} has no activated ability {ev.ability}", expected=f"{len(found)} ability(ies)", actual=str(ev.ability))
    return None


@ACTIVATE.precondition("8.20.6b", "a Neopet whose abilities a static negation removes has no ability to activate")
def activate_not_negated(state: NeopetsState, ev: E.Activate) -> Check:
    source = move_source(state, ev)
    if isinstance(source, CardObj) and source.uid in B.negated_neopets(state):
        return Violation(f"{ev.card}'s abilities are negated by a static ability", expected="no activation", actual="an activation")
    return None


@ACTIVATE.precondition("8.15.2.p1", "an activated ability is used by its controller while they have priority")
def activate_with_priority(state: NeopetsState, ev: E.Activate) -> Check:
    return has_priority(state, ev.by)


@ACTIVATE.precondition("8.15.2.p2", "each activated ability is used at most once a turn")
def once_per_turn(state: NeopetsState, ev: E.Activate) -> Check:
    source = move_source(state, ev)
    if source is not None and (source.uid, ev.ability) in state.flags.activated:  # type: ignore[attr-defined]
        return Violation(f"{ev.card}'s ability used twice this turn", expected="once a turn", actual="a second use")
    return None


@ACTIVATE.precondition("8.20.14b", "a player has all the resources a cost names before paying it")
def cost_payable(state: NeopetsState, ev: E.Activate) -> Check:
    source = move_source(state, ev)
    if source is None:
        return None
    ability = move_abilities(state, ev, source)[ev.ability]
    return cost_shortfall(state, ev.by or "", ability.cost)


def cost_shortfall(state: NeopetsState, player: str, cost: tuple) -> Violation | None:
    side = state.sides[player]
    for step in cost:
        if isinstance(step, A.Discard) and isinstance(step.amount, int) and len(side.inventory) < step.amount:
            return Violation("not enough cards to discard for the cost", expected=f"{step.amount} card(s)", actual=str(len(side.inventory)))
        if isinstance(step, A.Scrap) and isinstance(step.amount, int) and len(side.deck) < step.amount:
            return Violation("not enough cards to scrap for the cost", expected=f"{step.amount} card(s)", actual=str(len(side.deck)))
        if isinstance(step, A.Reveal) and not _could_hold(state, player, step.what):
            return Violation("no card to reveal for the cost", expected=f"a {step.what.type} in the Inventory", actual="none")
        if isinstance(step, A.Send) and step.what.zone == "Codestone Slots" and B.level(state, player) < 1:
            return Violation("no Codestone to send for the cost", expected="a Codestone attached", actual="none")
    return None


def _could_hold(state: NeopetsState, player: str, sel: A.Selector) -> bool:
    inventory = state.sides[player].inventory
    if any(B.selector_accepts(c.defn, sel) for c in inventory):
        return True
    return inventory.unknown() is not None and any(
        B.selector_accepts(d, sel) and state.sides[player].knowledge.can_reveal(d.name) for d in state.cards)


@ACTIVATE.precondition("8.20.13a", "every target the ability needs is chosen as it is queued, and is legal")
def activate_targets(state: NeopetsState, ev: E.Activate) -> Check:
    source = move_source(state, ev)
    if source is None:
        return None
    ability = move_abilities(state, ev, source)[ev.ability]
    return targets_violation(state, ev.by or "", (ability,), ev.targets)


@PLAY.precondition("8.20.14b", "a player has all the resources a card's additional cost names")
def play_cost_payable(state: NeopetsState, ev: E.Play) -> Check:
    for ability in B.text_of(state, ev.card).abilities:
        if isinstance(ability, A.Spell) or (isinstance(ability, A.Activated) and ability.alternative and ev.alternative):
            shortfall = cost_shortfall(state, ev.by or "", ability.cost)
            if shortfall is not None:
                return shortfall
    return None


# ====================================================================== dice (5.5.4-5.5.6)

def _dice_faces(dice: list[int]) -> Violation | None:
    if dice and (min(dice) < 1 or max(dice) > 6):
        return Violation("a die face outside 1-6", expected="faces 1 to 6", actual=str(dice))
    return None


@ROLL.precondition("5.5.4c.p1", "battle dice are rolled by the active player in the attack step, the other in the defence step")
def roll_in_battle(state: NeopetsState, ev: E.Roll) -> Check:
    if state.stage != "turn" or state.node not in ("attack", "defence") or state.window == "close" or state.flags.rolled:
        return Violation("dice rolled where no rule or effect calls for a roll", expected="no roll", actual="roll")
    roller = state.active if state.node == "attack" else state.nonactive
    if ev.by != roller:
        return Violation(f"the {state.node} dice rolled by the wrong player", expected=f"a roll by {roller}", actual=f"a roll by {ev.by}")
    return None


@ROLL.precondition("5.5.4a", "the attack step starts only after both players pass with the queue empty")
@fails_only(node=("attack",))
def roll_after_priority(state: NeopetsState, ev: E.Roll) -> Check:
    if state.node == "attack" and (state.window == "open" or state.queue.items):
        return Violation("attack dice rolled before the Battle Phase's priority closed", expected="two passes, empty queue", actual="roll")
    return None


@ROLL.precondition("5.5.4b.p1", "the attacker rolls as many dice as their Neopet's Attack, the defender as its Defence (5.5.5b.p1)")
def dice_count(state: NeopetsState, ev: E.Roll) -> Check:
    stat_name = "Attack" if state.node == "attack" else "Defence"
    want = B.stat(state, ev.by or "", stat_name)
    if len(ev.dice) != want:
        return Violation(f"{len(ev.dice)} {state.node} dice", expected=f"{want} dice ({stat_name})", actual=f"{len(ev.dice)} dice")
    return _dice_faces(ev.dice)


@REROLL.precondition("5.5.6b.p2", "the player whose Neopet has more Agility may reroll, once, in the agility step")
def reroll_by_faster(state: NeopetsState, ev: E.Reroll) -> Check:
    if state.stage != "turn" or state.node != "agility" or state.window != "act" or state.flags.rerolled:
        return Violation("a reroll where no rule or effect allows one", expected="no reroll", actual="reroll")
    faster, _diff = move_edge(state, ev)
    if faster is None or ev.by != faster:
        return Violation("a reroll by the player without the Agility edge", expected=f"a reroll by {faster}" if faster else "no reroll (equal Agility)", actual=f"reroll by {ev.by}")
    return None


@REROLL.precondition("5.5.6c.p1", "at most as many dice are rerolled as the Agility difference")
def reroll_count(state: NeopetsState, ev: E.Reroll) -> Check:
    _faster, diff = move_edge(state, ev)
    return reroll_shape(state, ev, diff)


def reroll_shape(state: NeopetsState, ev: E.Reroll, limit: int) -> Violation | None:
    dice = state.sides[ev.by or ""].dice
    if len(ev.which) > limit:
        return Violation(f"{len(ev.which)} dice rerolled", expected=f"at most {limit}", actual=str(len(ev.which)))
    if len(set(ev.which)) != len(ev.which) or any(not 0 <= i < len(dice) for i in ev.which):
        return Violation("rerolled dice that are not the player's own", expected=f"positions 0-{len(dice) - 1}", actual=str(ev.which))
    if len(ev.dice) != len(ev.which):
        return Violation("new faces do not match the dice rerolled", expected=f"{len(ev.which)} faces", actual=str(len(ev.dice)))
    return _dice_faces(ev.dice)


def move_edge(state: NeopetsState, ev: E.Reroll) -> tuple[str | None, int]:
    """:func:`agility_edge` for the checks of a reroll: worked out once per move (``state.move``)
    when ``Neopets.apply`` judges it, every time otherwise."""
    move = state.move
    if move is None or move.event is not ev:
        return agility_edge(state)
    edge = move.edge
    if edge is None:
        edge = move.edge = agility_edge(state)
    return edge


def agility_edge(state: NeopetsState) -> tuple[str | None, int]:
    """The player with more Agility and by how much (5.5.6b)."""
    active, nonactive = state.active, state.nonactive
    a = B.stat(state, active, "Agility")
    b = B.stat(state, nonactive, "Agility")
    if a == b:
        return None, 0
    return (active, a - b) if a > b else (nonactive, b - a)


def _unasked(state: NeopetsState, ev: Event) -> Check:
    """8.20.15b, for every kind in UNASKED (spec.core.game.unasked)."""
    return unasked(ev)


for _action in UNASKED.values():
    _action.precondition("8.20.15b", "choices and reveals happen only while an effect or cost asks for them")(_unasked)


# ====================================================================== claims

@PHASE.precondition("8.12.2.p1", "a claimed phase is the phase the rules have reached")
def phase_claim(state: NeopetsState, ev: E.Phase) -> Check:
    from spec.neopets.turn import PHASE_OF

    now = PHASE_OF.get(state.node, state.node) if state.stage == "turn" else state.stage
    if ev.phase != now:
        return Violation(f"the log claims the {ev.phase} phase", expected=now, actual=ev.phase)
    return None


@RESOLVE.precondition("8.20.15a", "the card claimed to have resolved is the one the queue resolved last")
def resolve_claim(state: NeopetsState, ev: E.Resolve) -> Check:
    if state.last_resolved == ev.card:
        return None
    return Violation(f"the log claims {ev.card} resolved", expected=state.last_resolved or "nothing resolved yet", actual=ev.card)


def unclaimed_damage(state: NeopetsState, player: str) -> int | None:
    """Index of the first damage to ``player`` since the last move that no claim has matched."""
    for index in range(max(state.damage_mark, state.damage_claimed), len(state.damage_log)):
        if state.damage_log[index][0] == player and state.damage_log[index][1] > 0:
            return index
    return None


@DAMAGE.precondition("5.5.7c.p1", "claimed damage equals the damage the rules dealt since the last move")
def damage_claim(state: NeopetsState, ev: E.Damage) -> Check:
    index = unclaimed_damage(state, ev.to)
    dealt = None if index is None else state.damage_log[index][1]
    if dealt != ev.amount:
        side = state.sides.get(ev.to)
        total = None if side is None or side.neopet is None else side.neopet.damage
        return Violation(f"the log claims {ev.amount} damage to {ev.to}'s Neopet", expected=str(dealt) if dealt is not None else "no damage dealt",
                         actual=str(ev.amount), diff={"damage": {"computed": dealt or 0, "claimed": ev.amount}, "total_damage": total})
    return None


@KNOCKOUT.precondition("5.5.7e", "a claimed knock-out is one the rules produced")
def knockout_claim(state: NeopetsState, ev: E.Knockout) -> Check:
    if len(state.round_winners) <= state.rounds_mark or state.last_knockout != ev.player:
        return Violation(f"the log claims {ev.player}'s Neopet was knocked out", expected=f"knock-out of {state.last_knockout}" if state.last_knockout else "no knock-out", actual=ev.player)
    return None


@ROUND.precondition("5.5.9b", "the claimed round winner knocked out the other Neopet")
def round_claim(state: NeopetsState, ev: E.Round) -> Check:
    if len(state.round_winners) <= state.rounds_mark or state.round_winners[-1] != ev.winner:
        return Violation(f"the log claims {ev.winner} won the round", expected=state.round_winners[-1] if state.round_winners else "no round over", actual=ev.winner)
    return None


@GAME.precondition("5.5.9a.p2", "the claimed game winner has won two rounds")
def game_claim(state: NeopetsState, ev: E.Game) -> Check:
    if state.winner != ev.winner:
        return Violation(f"the log claims {ev.winner} won the game", expected=state.winner or "no winner yet", actual=ev.winner)
    return None
