"""The preconditions of every TTCG event, each citing the rule it implements.

Each check reads: the rule ID, one line of what it requires, the condition, the finding.
``Ttcg.apply`` runs them on a recorded event; ``Ttcg.legal_moves`` keeps the candidate
events that pass them. They only read the state; the flow and the effects live in
:mod:`spec.ttcg.game` and :mod:`spec.ttcg.effects`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from grammar import ast as A
from grammar import ttcg_nodes as T
from spec.core.findings import Violation
from spec.core.game import Event, unasked
from spec.core.rules import RuleBook, RuleIndex, fails_only
from spec.core.state import CardObj
from spec.ttcg import board as B
from spec.ttcg import conflicts as TC
from spec.ttcg import events as E
from spec.ttcg.edits import field_edits
from spec.ttcg.state import EDITS, HAND_LIMIT, OPENING_HAND, PLAYS_PER_MAIN_PHASE, ZONE_SIZE, Pile, TtcgState
from spec.ttcg.turn import PHASES

BOOK = RuleBook(RuleIndex.load("ttcg", Path(__file__).with_name("rules.tsv")))

ROLL = BOOK.action("roll")
FIRST = BOOK.action("first")
SHUFFLE = BOOK.action("shuffle")
DRAW = BOOK.action("draw")
PASS = BOOK.action("pass")
PLAY = BOOK.action("play")
ACTIVATE = BOOK.action("activate")
ATTACK = BOOK.action("attack")
DISCARD = BOOK.action("discard")
UNASKED = {kind: BOOK.action(kind) for kind in ("choose", "decline", "mill", "reveal")}
PHASE = BOOK.action("phase")
DESTROYED = BOOK.action("destroyed")
POINTS = BOOK.action("points")
GAME = BOOK.action("game")

Check = Violation | None


# ====================================================================== where a check can fail

PLACES: tuple[str, ...] = ("setup", *PHASES, "over")
"""Where the game can stand: set-up, a phase of a turn (:data:`spec.ttcg.turn.PHASES`), or over."""


def place_of(state: TtcgState) -> str:
    """Where the game stands (one of :data:`PLACES`)."""
    return state.node if state.stage == "turn" else state.stage


# A check whose first condition confines it to some places, or (activate) to some kinds of
# effect named or rows of the card, says so with core ``fails_only(place=..., effect=...,
# row=...)`` under its precondition; ``Ttcg._apply`` runs only the checks that can fail
# where the game stands. tests/test_ttcg_speed.py holds every declaration to its check's
# code at every event of the shipped replays.

StagedChecks = tuple[tuple[Callable[..., Check], Any], ...]
"""An action's checks as (test, check) pairs, in the order they were registered."""


def activate_situation(state: TtcgState, ev: E.Activate) -> tuple[str | None, str]:
    """What an activate move names, as the declarations of its checks tell it apart: the kind of
    its effect (``counter``, ``dormant`` or ``other``; ``None`` when the card has no such effect
    or its text cannot be read) and the row its card goes in (``creature`` or ``magic``, as
    :func:`activated_pile` looks for it)."""
    row = "creature" if B.is_creature(state.cards.get(ev.card)) else "magic"
    try:
        found = effect_of(state, ev)
    except Exception:  # noqa: BLE001 - an unreadable text: every check runs, and one fails or raises as it would
        return None, row
    if found is None:
        return None, row
    label = found[0]
    return (label if label in ("counter", "dormant") else "other"), row


_ACTIVATE_STAGED: Final[dict[tuple[str, str | None, str], StagedChecks]] = {}
"""The checks of an activate move by (place, effect kind, row): see :func:`activate_checks`."""


def activate_checks(state: TtcgState, ev: E.Activate, place: str) -> StagedChecks:
    """The checks of the activate move ``ev`` that can fail where the game stands (see
    :meth:`spec.core.rules.Action.checks_where`, :func:`activate_situation`), worked out once per situation."""
    effect, row = activate_situation(state, ev)
    key = (place, effect, row)
    found = _ACTIVATE_STAGED.get(key)
    if found is None:
        found = _ACTIVATE_STAGED[key] = ACTIVATE.checks_where(place=place, effect=effect, row=row)
    return found


def in_setup(state: TtcgState) -> bool:
    return state.stage == "setup"


def waiting_for_events(state: TtcgState) -> bool:
    """Whether an effect (or a cost) is being carried out: then only what it asks may happen."""
    return state.resolution is not None or state.paying is not None


# ====================================================================== set-up (2.2.2)

def _first_not_decided(state: TtcgState) -> Check:
    if not in_setup(state) or state.first is not None:
        return Violation("the first player was already decided", expected="one random pick in set-up", actual="another pick")
    if any(s.opening_draws for s in state.sides.values()):
        return Violation("the first player is picked after opening hands were drawn", expected="the pick before the hands",
                         actual="a pick after drawing")
    return None


@ROLL.precondition("2.2.2.a.p1", "the first player is picked once, by chance, before the opening hands")
def roll_once(state: TtcgState, ev: E.Roll) -> Check:
    return _first_not_decided(state)


@ROLL.precondition("2.2.2.a.p2", "the die shows a face from 1 to 6")
def die_face(state: TtcgState, ev: E.Roll) -> Check:
    if not 1 <= ev.die <= 6:
        return Violation(f"a die face of {ev.die}", expected="a face from 1 to 6", actual=str(ev.die))
    return None


@FIRST.precondition("2.2.2.a.p1", "the first player is picked once, by chance, before the opening hands, among the players")
def first_once(state: TtcgState, ev: E.First) -> Check:
    problem = _first_not_decided(state)
    if problem is not None:
        return problem
    if ev.player not in state.players:
        return Violation(f"{ev.player!r} is not a player of this game", expected="one of the players", actual=ev.player)
    return None


@SHUFFLE.precondition("2.2.2.b", "a player shuffles once before their opening hand, or when an effect asks for it")
def shuffle_called_for(state: TtcgState, ev: E.Shuffle) -> Check:
    side = state.sides[ev.by or ""]
    if in_setup(state) and side.opening_draws == 0 and not side.shuffled:
        return None
    return Violation("a shuffle no rule or effect calls for here", expected="no shuffle", actual="shuffle")


@DRAW.precondition("2.2.2.b", "opening hands are seven cards each, drawn once the first player is known")
@fails_only(place=("setup",))
def opening_hand(state: TtcgState, ev: E.Draw) -> Check:
    if not in_setup(state):
        return None
    if state.first is None:
        return Violation("opening hand drawn before the first player was decided", expected="the pick first", actual="draw")
    if state.sides[ev.by or ""].opening_draws >= OPENING_HAND:
        return Violation("an eighth card drawn for the opening hand", expected="seven cards", actual="an eighth draw")
    return None


@DRAW.precondition("2.2.2.c.p2", "the first player draws nothing in their first turn")
@fails_only(place=("draw",))
def no_draw_first_turn(state: TtcgState, ev: E.Draw) -> Check:
    if state.stage == "turn" and state.turn == 1 and state.node == "draw" and ev.by == state.active:
        return Violation("the first player drew in their first turn", expected="no draw in the first turn", actual="draw")
    return None


@DRAW.precondition("2.2.3.a.1", "outside set-up and effects, a card is drawn only as the active player's one Draw Phase draw")
@fails_only(place=(*PHASES, "over"))
def draw_in_draw_phase(state: TtcgState, ev: E.Draw) -> Check:
    if in_setup(state):
        return None
    if state.stage != "turn" or state.node != "draw" or ev.by != state.active or state.flags.drew or state.chain:
        return Violation("a draw no rule or effect calls for", expected="no draw here", actual=f"draw by {ev.by}")
    return None


@DRAW.precondition("2.2.11.a", "nobody draws from an empty deck")
def draw_from_cards(state: TtcgState, ev: E.Draw) -> Check:
    if len(state.sides[ev.by or ""].deck) == 0:
        return Violation("a card drawn from an empty deck", expected="no draw: five points are lost instead", actual="draw")
    return None


# ====================================================================== passing

@PASS.precondition("2.2.3.a", "a pass comes in a turn, from the player due to act, while no effect waits for an event")
def pass_with_priority(state: TtcgState, ev: E.Pass) -> Check:
    if state.stage != "turn" or waiting_for_events(state):
        return Violation("a pass where nobody is due to act", expected="no pass here", actual="pass")
    if ev.by != state.priority.holder:
        return Violation(f"{ev.by} passed while {state.priority.holder} was due to act",
                         expected=f"a move by {state.priority.holder}", actual=f"pass by {ev.by}")
    return None


def draw_due(state: TtcgState) -> bool:
    """Whether the Draw Phase still owes the active player their card (2.2.3.a.1)."""
    return (state.stage == "turn" and state.node == "draw" and not state.flags.drew and state.turn != 1
            and len(state.sides[state.active].deck) > 0 and not state.chain)


@PASS.precondition("2.2.3.a.1", "the Draw Phase is not passed through before its draw")
@fails_only(place=("draw",))  # draw_due: only in a Draw Phase
def no_pass_before_draw(state: TtcgState, ev: E.Pass) -> Check:
    if draw_due(state):
        return Violation("passed before the Draw Phase draw", expected="the draw", actual="pass")
    return None


def discard_due(state: TtcgState) -> bool:
    """Whether the end of the turn still waits for the active player to discard (2.2.10.b)."""
    return state.stage == "turn" and state.node == "end" and len(state.sides[state.active].hand) > HAND_LIMIT and not state.chain


@PASS.precondition("2.2.10.b", "the turn does not end while the active player holds more than ten cards")
@fails_only(place=("end",))  # discard_due: only at the end of a turn
def no_pass_over_hand_limit(state: TtcgState, ev: E.Pass) -> Check:
    if discard_due(state):
        n = len(state.sides[state.active].hand)
        return Violation(f"the turn ends with {n} cards in hand", expected="discard down to ten first", actual="pass")
    return None


def may_act(state: TtcgState, player: str | None) -> Violation | None:
    """A player may act only in a turn, with no effect waiting, holding priority when passes are logged."""
    if state.stage != "turn" or waiting_for_events(state):
        return Violation("nobody may act while an effect is being carried out", expected="what the effect asks for",
                         actual="an action")
    if state.explicit_passes and player != state.priority.holder:
        return Violation(f"{player} acted while {state.priority.holder} was due to act",
                         expected=f"a move by {state.priority.holder}", actual=f"a move by {player}")
    return None


def in_hand(state: TtcgState, player: str, name: str) -> Violation | None:
    """The card is in the player's hand: known there, or one of its hidden cards."""
    hand = state.sides[player].hand
    if hand.find(name) is not None:
        return None
    if hand.unknown() is None:
        return Violation(f"{name} is not in {player}'s hand", expected="a card from the hand", actual=name)
    if not state.sides[player].knowledge.can_reveal(name):
        return Violation(too_many(state, player, name, f"showed {name} from a hidden card of the hand"),
                         expected="a card the deck can hold", actual=name, severity="inconsistent")
    return None


def too_many(state: TtcgState, player: str, name: str, words: str, more: int = 1) -> str:
    """In plain words: why one more copy of ``name`` cannot have come out of ``player``'s deck.

    Counting copies per name is exact here: every card a TTCG log shows is shown by name
    (docs/ttcg-decisions.rst, decision 28), so the journal of what left the deck is the
    whole explanation.
    """
    knowledge = state.sides[player].knowledge
    bound = knowledge.bound(name) or 0
    held = f"no {name}" if bound == 0 else f"{bound} cop{'y' if bound == 1 else 'ies'} of {name}"
    whose = "registered deck" if knowledge.registered is not None else "deck (2.2.1.b: two copies at most)"
    earlier = [o.describe(player) for o in knowledge.observations() if o.name == name and o.kind == "out"]
    at = f"at seq {state.seq}, " if state.seq is not None else ""
    shown = (" (" + "; ".join(earlier) + ")") if earlier else ""
    extra = f" ({more} at once)" if more > 1 else ""
    return (f"no arrangement of {player}'s deck gives this log: {at}{player} {words}{extra}, but {player}'s {whose} holds "
            f"{held}, and {len(earlier)} came out of it before{shown}")


# ====================================================================== playing cards (2.2.3, 2.2.4, 2.2.6, 2.2.9)

@PLAY.precondition("2.2.3.a.2.a", "cards are played by the active player in their own Main Phase, with the chain empty")
def play_in_main_phase(state: TtcgState, ev: E.Play) -> Check:
    problem = may_act(state, ev.by)
    if problem is not None:
        return problem
    if ev.by != state.active or state.node != "main":
        return Violation("a card played outside its player's Main Phase", expected=f"plays in {state.active}'s Main Phase",
                         actual=f"{ev.by} plays in the {state.node} phase")
    if state.chain or state.battle is not None:
        return Violation("a card played while effects wait on the chain", expected="an empty chain",
                         actual=f"{len(state.chain)} effect(s) on the chain")
    return None


@PLAY.precondition("2.2.3.a.2.a", "the card played comes from the player's hand")
def play_from_hand(state: TtcgState, ev: E.Play) -> Check:
    return in_hand(state, ev.by or "", ev.card)


def forbidden_play(state: TtcgState, player: str, name: str, expected: str = "no card it forbids") -> Check:
    """Decision 31: the finding for ``player`` putting the card ``name`` on the field while an
    effect forbids them cards of its kind (a play, a rank up, a card an effect plays), or ``None``."""
    prohibition = B.play_prohibited(state, player, name)
    if prohibition is None:
        return None
    return Violation(f"{player} cannot {prohibition} (an effect says so)", expected=expected, actual=name)


@PLAY.precondition("2.2.5.b", "a player an effect forbids to play cards of a kind plays none of them")
def play_not_prohibited(state: TtcgState, ev: E.Play) -> Check:
    problem = forbidden_play(state, ev.by or "", ev.card)
    if problem is not None and ev.by == state.active and state.flags.plays >= PLAYS_PER_MAIN_PHASE:
        extra = B.extra_play_kinds(state)[state.flags.plays - PLAYS_PER_MAIN_PHASE:]
        defn = state.cards.get(ev.card)
        if any(kinds and B.kinds_match(defn, kinds) for kinds in extra):  # decision 31: two card effects clash
            return Violation(f"{problem.message}, and another lets {ev.by} play one more card of {ev.card}'s kind; "
                             "no rule settles two card effects that clash (decision 27)",
                             expected="a clash a rule settles", actual="none", severity="unverifiable")
    return problem


def plays_left(state: TtcgState, name: str) -> bool:
    """Whether the active player may put one more card from the hand on the field (2.2.3.a.2.a)."""
    if state.flags.plays < PLAYS_PER_MAIN_PHASE:
        return True
    extra = B.extra_play_kinds(state)
    used = state.flags.plays - PLAYS_PER_MAIN_PHASE
    remaining = extra[used:]
    defn = state.cards.get(name)
    return any(B.kinds_match(defn, kinds) for kinds in remaining)


@PLAY.precondition("2.2.3.a.2.a", "at most two cards are played in a Main Phase, plus those effects allow")
def two_plays(state: TtcgState, ev: E.Play) -> Check:
    """Beyond two, an extra play an effect granted clashes with the rule: the policy decides (2.2.5.b)."""
    if not plays_left(state, ev.card):
        return Violation("a third card played this Main Phase", expected=f"at most {PLAYS_PER_MAIN_PHASE} plays and the extra ones effects allow",
                         actual=f"play {state.flags.plays + 1}")
    if state.flags.plays >= PLAYS_PER_MAIN_PHASE:
        allowed, rulings = TC.judge_extra_play(state, ev.by or "")
        for ruling in rulings:
            if ruling.violation.severity == "unverifiable":
                return ruling.violation
        if not allowed:
            how = "; ".join(r.violation.message for r in rulings)
            return Violation(f"a third card played this Main Phase: the limit of two prevails over the extra plays ({how})",
                             expected=f"at most {PLAYS_PER_MAIN_PHASE} plays", actual=f"play {state.flags.plays + 1}")
    return None


@PLAY.precondition("2.2.6.a", "a card above rank one is played only by levelling up a card on the field")
def high_rank_levels_up(state: TtcgState, ev: E.Play) -> Check:
    defn = state.cards.get(ev.card)
    if B.printed_rank(defn) > 1 and ev.on is None:
        return Violation(f"{ev.card} (rank {B.printed_rank(defn)}) played onto an empty place", expected="a level up onto a card of rank "
                         f"{B.printed_rank(defn) - 1}", actual="no card under it")
    return None


def level_up_problem(state: TtcgState, player: str, name: str, on: E.Ref) -> Violation | None:
    """Why ``name`` cannot level up the card ``on`` of ``player``'s field (2.2.6.b), or ``None``."""
    defn = state.cards.get(name)
    if on.owner not in (None, player):
        return Violation(f"{name} played on {on.owner}'s card", expected="a card of the player's own field", actual=on.card)
    pile = B.find_pile(state, player, on.card, on.slot)
    if pile is None:
        return Violation(f"{on.card} is not on top of a pile of {player}'s field", expected="a card of the field", actual=on.card)
    target = pile.card
    wanted = B.rank(state, target) + 1
    if B.printed_rank(defn) != wanted:
        return Violation(f"{name} is rank {B.printed_rank(defn)}, {on.card} rank {wanted - 1}", expected=f"a rank {wanted} card",
                         actual=f"rank {B.printed_rank(defn)}")
    permission = B.rank_up_allowed(state, target, defn, player) if defn is not None else None
    if (B.is_creature(defn) != B.is_creature(target.defn)) or (B.element(defn) != B.element(target.defn) and permission is None):
        return Violation(f"{name} ({B.element(defn)}) on {on.card} ({B.element(target.defn)})", expected="a card of the same type",
                         actual=B.element(defn))
    if B.element(defn) != B.element(target.defn) and permission is not None:
        allowed, rulings = TC.judge_level_up(state, player, target, name, permission)
        for ruling in rulings:
            if ruling.violation.severity == "unverifiable":
                return ruling.violation
        if not allowed:
            return Violation(f"{name} ({B.element(defn)}) on {on.card} ({B.element(target.defn)}): the rule prevails over "
                             f"{permission}'s permission", expected="a card of the same type", actual=B.element(defn))
    return None


@PLAY.precondition("2.2.6.b", "a level up puts a card of the same type and one rank higher on the player's own card")
def level_up_fits(state: TtcgState, ev: E.Play) -> Check:
    if ev.on is None:
        return None
    return level_up_problem(state, ev.by or "", ev.card, ev.on)


def room_for(state: TtcgState, player: str, name: str) -> Violation | None:
    """Whether a new pile of ``name`` fits its row of ``player``'s field (2.2.9.b, 2.2.9.c)."""
    side = state.sides[player]
    defn = state.cards.get(name)
    row = side.creatures if B.is_creature(defn) else side.magic
    if len(row) >= ZONE_SIZE:
        which = "creature" if B.is_creature(defn) else "magic"
        return Violation(f"a sixth {which} card on {player}'s field", expected=f"at most {ZONE_SIZE} {which} cards",
                         actual=f"{len(row) + 1}")
    return None


@PLAY.precondition("2.2.9.b", "a player's upper field holds at most five creatures (cards under others not counted)")
def creature_room(state: TtcgState, ev: E.Play) -> Check:
    if ev.on is None and B.is_creature(state.cards.get(ev.card)):
        return room_for(state, ev.by or "", ev.card)
    return None


@PLAY.precondition("2.2.9.c", "a player's lower field holds at most five magic cards")
def magic_room(state: TtcgState, ev: E.Play) -> Check:
    if ev.on is None and B.is_magic(state.cards.get(ev.card)):
        return room_for(state, ev.by or "", ev.card)
    return None


def has_equip_effect(state: TtcgState, name: str) -> bool:
    return any(label == "equip" for label, _ability in B.effects_of(state, name))


@PLAY.precondition("2.2.5.i.4", "only a card with an Equip effect is attached as it is played, to a creature of its player")
def equip_target(state: TtcgState, ev: E.Play) -> Check:
    if ev.equip is None:
        return None
    if not B.is_magic(state.cards.get(ev.card)) or not has_equip_effect(state, ev.card) or ev.on is not None:
        return Violation(f"{ev.card} is attached as it is played", expected="a magic card with an Equip effect", actual=ev.card)
    if ev.equip.owner not in (None, ev.by) or B.find_pile(state, ev.by, ev.equip.card, ev.equip.slot, "creature") is None:
        return Violation(f"{ev.card} attached to {ev.equip.card}", expected=f"a creature of {ev.by}'s field", actual=ev.equip.card)
    return None


# ====================================================================== activating effects (2.2.4, 2.2.5)

def activated_pile(state: TtcgState, ev: E.Activate) -> Pile | None:
    """The pile whose top card the activate move names (in the row of its kind), or ``None``."""
    found = _activated(state, ev)
    if found.pile is _UNREAD:
        found.pile = activated_pile_plain(state, ev)
    return found.pile  # type: ignore[return-value]


def activated_pile_plain(state: TtcgState, ev: E.Activate) -> Pile | None:
    """:func:`activated_pile` found afresh."""
    defn = state.cards.get(ev.card)
    row = "creature" if B.is_creature(defn) else "magic"
    return B.find_pile(state, ev.by, ev.card, ev.slot, row)


def effect_of(state: TtcgState, ev: E.Activate) -> tuple[str, object] | None:
    """``(label, ability)`` of the effect the activate move names, or ``None`` if its card has no such effect."""
    found = _activated(state, ev)
    if found.effect is _UNREAD:
        found.effect = effect_of_plain(state, ev)
    return found.effect  # type: ignore[return-value]


def effect_of_plain(state: TtcgState, ev: E.Activate) -> tuple[str, object] | None:
    """:func:`effect_of` found afresh."""
    effects = B.effects_of(state, ev.card)
    if not 0 <= ev.effect < len(effects):
        return None
    return effects[ev.effect]


_UNREAD: Final = object()


class _Activated:
    """The pile and the effect one activate move names, for one state as its field stands.

    The checks of an activate move and the step that carries it out all ask for them; each
    is found on first asking, and found again only for another move, another state, or
    once the field's make-up changed (:func:`spec.ttcg.edits.field_edits`; a state put
    back from a snapshot has sides of its own).
    """

    __slots__ = ("edits", "effect", "move", "pile", "sides", "state")

    def __init__(self, state: TtcgState | None, ev: E.Activate | None) -> None:
        self.state = state
        self.move = ev
        self.sides = None if state is None else state.sides
        self.edits = field_edits()
        self.pile: object = _UNREAD
        self.effect: object = _UNREAD


class _Last:
    """Where the last :class:`_Activated` is kept: a ``Final`` holder whose slot changes, rather than a
    module global bound again, so that compiled code reaches it without a look-up in the module's namespace."""

    __slots__ = ("activated",)

    def __init__(self) -> None:
        self.activated = _Activated(None, None)


_LAST: Final = _Last()


def _activated(state: TtcgState, ev: E.Activate) -> _Activated:
    """The :class:`_Activated` of the move ``ev`` in ``state``: the last one while it is of this
    move, state and field, else a new one, kept as the last."""
    last = _LAST.activated
    if last.move is not ev or last.state is not state or last.sides is not state.sides or last.edits != EDITS.field:
        last = _LAST.activated = _Activated(state, ev)
    return last


@ACTIVATE.precondition("2.2.5.c", "the effect belongs to a card face up on top of a pile of the player's field")
def activate_on_field(state: TtcgState, ev: E.Activate) -> Check:
    if activated_pile(state, ev) is not None:
        return None
    side = state.sides[ev.by or ""]
    if any(c.name == ev.card for pile in side.piles() for c in pile.under):
        return None  # judged by 2.2.6.e
    return Violation(f"{ev.card} is not on {ev.by}'s field", expected="a card of the player's field", actual=ev.card)


@ACTIVATE.precondition("2.2.6.e", "a card under another card does not use its effects")
def activate_not_under(state: TtcgState, ev: E.Activate) -> Check:
    if activated_pile(state, ev) is None:
        return Violation(f"{ev.card} lies under another card", expected="the top card of a pile", actual=f"{ev.card}, under another")
    return None


@ACTIVATE.precondition("2.2.5.c", "the effect named is one its player uses: a Normal, Continuous, Counter, Dormant or Latent effect")
def activatable_effect(state: TtcgState, ev: E.Activate) -> Check:
    found = effect_of(state, ev)
    if found is None:
        return Violation(f"{ev.card} has no effect {ev.effect}", expected="effect 0 or 1", actual=str(ev.effect))
    label, ability = found
    B.defined(label, ev.card)
    if isinstance(ability, A.Activated) or (label == "continuous" and isinstance(ability, A.Passive)):
        return None
    kind = "always in force" if isinstance(ability, A.Passive | A.Replacement) else "set off by its trigger"
    return Violation(f"effect {ev.effect} of {ev.card} is {kind}, not used by a player", expected="an effect a player activates",
                     actual=f"{label} effect")


@ACTIVATE.precondition("2.2.5.b", "a player an effect forbids to use effects uses none")
def activate_not_prohibited(state: TtcgState, ev: E.Activate) -> Check:
    if B.prohibited(state, ev.by or "", "activate effects"):
        return Violation(f"{ev.by} cannot activate effects (an effect says so)", expected="no effect used", actual=ev.card)
    return None


@ACTIVATE.precondition("2.2.5.c", "effects are used while the players act, not in the middle of another effect")
def activate_when_acting(state: TtcgState, ev: E.Activate) -> Check:
    return may_act(state, ev.by)


@ACTIVATE.precondition("2.2.4.c.2", "a creature's effects are used only in its owner's turn (Counter effects answer at any time)")
@fails_only(effect=("dormant", "other"), row=("creature",))
def creature_effect_own_turn(state: TtcgState, ev: E.Activate) -> Check:
    found = effect_of(state, ev)
    if B.is_creature(state.cards.get(ev.card)) and ev.by != state.active and (found is None or found[0] != "counter"):
        return Violation(f"{ev.card}'s effect used in {state.active}'s turn", expected="in its owner's turn", actual=f"{state.active}'s turn")
    return None


@ACTIVATE.precondition("2.2.5.i.3", "a Counter effect is used only in answer to an effect of the opponent on the chain")
@fails_only(effect=("counter",))
def counter_answers(state: TtcgState, ev: E.Activate) -> Check:
    found = effect_of(state, ev)
    if found is not None and found[0] == "counter" and (not state.chain or state.chain[-1].controller == ev.by):
        return Violation("a Counter effect with no opponent's effect to answer", expected="an opponent's effect last on the chain",
                         actual="nothing to answer" if not state.chain else "the player's own effect")
    return None


def _dormant(state: TtcgState, ev: E.Activate) -> bool:
    found = effect_of(state, ev)
    return found is not None and found[0] == "dormant"


@ACTIVATE.precondition("2.2.5.e", "a tapped creature uses no effect (its Dormant effects aside)")
@fails_only(effect=("counter", "other"), row=("creature",))
def creature_untapped(state: TtcgState, ev: E.Activate) -> Check:
    pile = activated_pile(state, ev)
    if pile is not None and pile.row == "creature" and pile.tapped and not _dormant(state, ev):
        return Violation(f"{ev.card} is tapped", expected="an untapped creature", actual="tapped")
    return None


@ACTIVATE.precondition("2.2.5.f.2", "a tapped magic card uses no effect (its Dormant effects aside)")
@fails_only(effect=("counter", "other"), row=("magic",))
def magic_untapped(state: TtcgState, ev: E.Activate) -> Check:
    pile = activated_pile(state, ev)
    if pile is not None and pile.row == "magic" and pile.tapped and not _dormant(state, ev):
        return Violation(f"{ev.card} is tapped", expected="an untapped magic card", actual="tapped")
    return None


@ACTIVATE.precondition("2.2.5.i.6.p1", "a Dormant effect is used only while its card is tapped")
@fails_only(effect=("dormant",))
def dormant_needs_tapped(state: TtcgState, ev: E.Activate) -> Check:
    pile = activated_pile(state, ev)
    if pile is not None and _dormant(state, ev) and not pile.tapped:
        return Violation(f"{ev.card}'s Dormant effect used while untapped", expected="a tapped card", actual="untapped")
    return None


@ACTIVATE.precondition("2.2.5.i.6.p2", "a Dormant effect is not used in the turn its card became tapped")
@fails_only(effect=("dormant",))
def dormant_not_same_turn(state: TtcgState, ev: E.Activate) -> Check:
    pile = activated_pile(state, ev)
    if pile is not None and _dormant(state, ev) and pile.tapped and pile.tapped_turn == state.turn:
        return Violation(f"{ev.card} became tapped this turn", expected="a card tapped in an earlier turn", actual="tapped this turn")
    return None


@ACTIVATE.precondition("2.2.5.b", "a cost written on the effect can be paid")
def cost_payable(state: TtcgState, ev: E.Activate) -> Check:
    found = effect_of(state, ev)
    pile = activated_pile(state, ev)
    if found is None or pile is None or not isinstance(found[1], A.Activated):
        return None
    return cost_shortfall(state, ev.by or "", pile, found[1].cost)


def cost_shortfall(state: TtcgState, player: str, pile: Pile, cost: tuple[A.Step, ...]) -> Violation | None:
    side = state.sides[player]
    for step in cost:
        if isinstance(step, T.DiscardCards) and step.what.quantifier != "this":
            n = step.what.count if isinstance(step.what.count, int) else 1
            if could_hold(state, player, step.what) < n:
                return Violation("not enough matching cards in hand for the cost", expected=f"{n} card(s) to discard",
                                 actual=f"{could_hold(state, player, step.what)}")
        if isinstance(step, A.Discard) and isinstance(step.amount, int) and len(side.hand) < step.amount:
            return Violation("not enough cards in hand for the cost", expected=f"{step.amount} card(s)", actual=str(len(side.hand)))
        if isinstance(step, T.Destroy) and step.what.quantifier == "this" and B.indestructible(state, pile.card, "effect"):
            return Violation(f"{pile.card.name} cannot be destroyed to pay the cost", expected="a card that can be destroyed",
                             actual="indestructible")
    return None


def could_hold(state: TtcgState, player: str, sel: T.Cards) -> int:
    """How many cards of the hand can be of the kind the selector asks for."""
    side = state.sides[player]
    known = sum(1 for c in side.hand if c.name is not None and B.cards_match(state, c, sel, player))
    hidden = sum(1 for c in side.hand if c.name is None)
    if hidden and not any(B.cards_match(state, CardObj(-1, d.name, player, d), sel, player) and side.knowledge.can_reveal(d.name)
                          for d in state.cards):
        hidden = 0
    return known + hidden


# ====================================================================== battle (2.2.7)

@ATTACK.precondition("2.2.3.a.3", "attacks are made in the active player's Battle Phase, one at a time, with the chain empty")
def attack_in_battle_phase(state: TtcgState, ev: E.Attack) -> Check:
    problem = may_act(state, ev.by)
    if problem is not None:
        return problem
    if ev.by != state.active or state.node != "battle":
        return Violation("an attack outside its player's Battle Phase", expected=f"attacks in {state.active}'s Battle Phase",
                         actual=f"{ev.by} attacks in the {state.node} phase")
    if state.chain or state.battle is not None:
        return Violation("an attack while an effect or another attack waits", expected="an empty chain and no battle",
                         actual="something waiting")
    return None


@ATTACK.precondition("2.2.2.c.p1", "the first player makes no attack in their first turn")
def no_attack_first_turn(state: TtcgState, ev: E.Attack) -> Check:
    if state.turn == 1:
        return Violation("an attack in the first player's first turn", expected="no attack in the first turn", actual="attack")
    return None


@ATTACK.precondition("2.2.7.b", "the attacker is a creature on the attacking player's field")
def attacker_on_field(state: TtcgState, ev: E.Attack) -> Check:
    if B.find_pile(state, ev.by, ev.card, ev.slot, "creature") is None:
        return Violation(f"{ev.card} is not a creature of {ev.by}'s field", expected="a creature on the field", actual=ev.card)
    return None


@ATTACK.precondition("2.2.7.b", "each creature attacks at most once in a Battle Phase")
def attack_once(state: TtcgState, ev: E.Attack) -> Check:
    pile = B.find_pile(state, ev.by, ev.card, ev.slot, "creature")
    if pile is not None and pile.id in state.flags.attacked:
        return Violation(f"{ev.card} attacks a second time", expected="one attack per creature", actual="a second attack")
    return None


@ATTACK.precondition("2.2.5.b", "a creature that an effect forbids to attack does not attack")
def attack_not_forbidden(state: TtcgState, ev: E.Attack) -> Check:
    pile = B.find_pile(state, ev.by, ev.card, ev.slot, "creature")
    if pile is not None and B.restricted(state, pile.card, "attack"):
        return Violation(f"{ev.card} cannot attack (an effect says so)", expected="no attack", actual="attack")
    return None


@ATTACK.precondition("2.2.5.b", "a player an effect forbids to attack makes no attack")
def attack_not_prohibited(state: TtcgState, ev: E.Attack) -> Check:
    if B.prohibited(state, ev.by or "", "attack"):
        return Violation(f"{ev.by} cannot attack (an effect says so)", expected="no attack", actual=ev.card)
    return None


@ATTACK.precondition("2.2.7.c", "while the opponent has creatures, the attack targets one of them")
def attack_targets_creature(state: TtcgState, ev: E.Attack) -> Check:
    opponent = state.other(ev.by or "")
    if ev.target is None:
        if B.creatures(state, opponent):
            return Violation("a direct attack while the opponent has creatures", expected="one of the opponent's creatures",
                             actual="the player")
        return None
    if ev.target.owner not in (None, opponent) or B.find_pile(state, opponent, ev.target.card, ev.target.slot, "creature") is None:
        return Violation(f"{ev.target.card} is not a creature of {opponent}'s field", expected="an opposing creature", actual=ev.target.card)
    return None


@ATTACK.precondition("2.2.5.b", "a creature that an effect shields from attacks is not attacked")
def target_attackable(state: TtcgState, ev: E.Attack) -> Check:
    if ev.target is None:
        return None
    pile = B.find_pile(state, state.other(ev.by or ""), ev.target.card, ev.target.slot, "creature")
    if pile is not None and B.restricted(state, pile.card, "be attacked"):
        return Violation(f"{ev.target.card} cannot be attacked (an effect says so)", expected="another target", actual=ev.target.card)
    return None


# ====================================================================== the hand limit (2.2.10)

@DISCARD.precondition("2.2.10.b", "a player discards by choice only at the end of their turn, while over ten cards")
def discard_to_hand_limit(state: TtcgState, ev: E.Discard) -> Check:
    problem = may_act(state, ev.by) if state.stage == "turn" and not waiting_for_events(state) else None
    if not discard_due(state) or ev.by != state.active or problem is not None:
        return Violation("a discard no rule or effect calls for", expected="no discard here", actual=f"discard by {ev.by}")
    return None


@DISCARD.precondition("2.2.10.b", "the discarded card comes from the player's hand")
def discard_from_hand(state: TtcgState, ev: E.Discard) -> Check:
    if ev.card is None:
        return Violation("a discard that does not show the card", expected="the card's name (the discard pile is open)", actual="null")
    return in_hand(state, ev.by or "", ev.card)


def _unasked(state: TtcgState, ev: Event) -> Check:
    """2.1.ac, for every kind in UNASKED (spec.core.game.unasked)."""
    return unasked(ev)


for _action in UNASKED.values():
    _action.precondition("2.1.ac", "choices, mills and reveals happen only while an effect asks for them")(_unasked)


# ====================================================================== claims

@PHASE.precondition("2.2.3.a", "a claimed phase is the phase the turn has reached")
def phase_claim(state: TtcgState, ev: E.Phase) -> Check:
    now = state.node if state.stage == "turn" else state.stage
    if ev.phase != now:
        return Violation(f"the log claims the {ev.phase} phase", expected=now, actual=ev.phase)
    return None


def unclaimed_destruction(state: TtcgState, owner: str, card: str) -> int | None:
    """Index of the first destruction of ``owner``'s ``card`` since the last move that no claim has matched."""
    for index in range(max(state.destroyed_mark, state.destroyed_claimed), len(state.destroyed_log)):
        if state.destroyed_log[index] == (owner, card):
            return index
    return None


@DESTROYED.precondition("2.1.aj", "a card that an effect in force kept from being destroyed is not claimed destroyed")
def destroyed_claim_spared(state: TtcgState, ev: E.Destroyed) -> Check:
    """The log went the other way in a clash the policy settled for the card (2.1.aj: it cannot be destroyed)."""
    if unclaimed_destruction(state, ev.owner, ev.card) is not None:
        return None
    for owner, card, why in state.spared[state.spared_mark:]:
        if (owner, card) == (ev.owner, ev.card):
            return Violation(f"the log claims {owner}'s {card} was destroyed, but it cannot be destroyed: {why}",
                             expected=f"{owner}'s {card} stays on the field", actual=f"{owner}'s {card} destroyed")
    return None


@DESTROYED.precondition("2.2.7.g", "a claimed destruction is one the rules carried out since the last move")
def destroyed_claim(state: TtcgState, ev: E.Destroyed) -> Check:
    if unclaimed_destruction(state, ev.owner, ev.card) is None:
        recent = [f"{o}'s {c}" for o, c in state.destroyed_log[max(state.destroyed_mark, state.destroyed_claimed):]]
        return Violation(f"the log claims {ev.owner}'s {ev.card} was destroyed", expected=", ".join(recent) or "nothing destroyed",
                         actual=f"{ev.owner}'s {ev.card}")
    return None


@POINTS.precondition("2.2.8.a", "claimed points are the points the rules give the player now")
def points_claim(state: TtcgState, ev: E.Points) -> Check:
    side = state.sides.get(ev.player)
    if side is None:
        return Violation(f"{ev.player!r} is not a player", expected="one of the players", actual=ev.player)
    if side.points != ev.points:
        return Violation(f"the log claims {ev.player} has {ev.points} points", expected=str(side.points), actual=str(ev.points),
                         diff={"points": {"computed": side.points, "claimed": ev.points}})
    return None


@GAME.precondition("2.2.8.c", "the claimed winner is the player left with points when the other's ran out")
def game_claim(state: TtcgState, ev: E.GameOver) -> Check:
    if state.stage != "over" or state.winner != ev.winner:
        expected = "the game is not over" if state.stage != "over" else (state.winner or "no winner (both at zero)")
        return Violation(f"the log claims {ev.winner or 'nobody'} won the game", expected=expected, actual=str(ev.winner))
    return None
