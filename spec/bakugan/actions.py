"""The preconditions of every Bakugan event, each citing the rule it implements.

Each check reads: the rule ID, one line of what it requires, the condition, the finding.
``Bakugan.apply`` runs them on a recorded event; ``Bakugan.legal_moves`` keeps the
candidate events that pass them. They only read the state; the flow lives in
:mod:`spec.bakugan.game` and the meaning of card text in :mod:`spec.bakugan.effects`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, Final, TypeVar, cast

from grammar import ast as A
from grammar import bakugan_nodes as K
from spec.bakugan import board as B
from spec.bakugan import conflicts as BC
from spec.bakugan import events as E
from spec.bakugan import targets as T
from spec.bakugan.state import CORES_PER_PLAYER, TEAM_SIZE, BakuganState
from spec.bakugan.turn import PHASE_OF, TURN, WINDOWS
from spec.core.findings import Violation
from spec.core.game import unasked
from spec.core.rules import Action, RuleBook, RuleIndex, fails_only
from spec.core.rules import Check as Precondition
from spec.core.state import CardObj

BOOK: Final = RuleBook(RuleIndex.load("bakugan", Path(__file__).with_name("rules.tsv")))

FIRST: Final = BOOK.action("first")
PLACE: Final = BOOK.action("place")
SHUFFLE: Final = BOOK.action("shuffle")
DRAW: Final = BOOK.action("draw")
ENERGIZE: Final = BOOK.action("energize")
SELECT: Final = BOOK.action("select")
ROLL: Final = BOOK.action("roll")
REROLL: Final = BOOK.action("reroll")
PLAY: Final = BOOK.action("play")
ACTIVATE: Final = BOOK.action("activate")
PASS: Final = BOOK.action("pass")
DISCARD: Final = BOOK.action("discard")
FLIP: Final = BOOK.action("flip")
FORFEIT: Final = BOOK.action("forfeit")
UNASKED: Final = {kind: BOOK.action(kind) for kind in ("decline", "search", "coin", "choose", "target", "shuffle_in")}
PHASE: Final = BOOK.action("phase")
VICTOR: Final = BOOK.action("victor")
DAMAGE: Final = BOOK.action("damage")
RESOLVE: Final = BOOK.action("resolve")
GAME: Final = BOOK.action("game")

Check = Violation | None


# ====================================================================== where each check can find something

STEPS: Final[tuple[str, ...]] = tuple(node for node, _rule in TURN.nodes)
"""The steps of the turn, in order."""
PLACES: Final[tuple[str, ...]] = ("setup", *STEPS, "over")
"""Where the game can stand when an event is judged (:func:`place_of`)."""
AROUND_TURNS: Final = ("setup", "over")
"""The places outside the turns, where ``state.node`` still names a step (before the first turn:
``draw``; once the game is over: the last): a check asking the step alone can fail there too."""

MODES: Final[tuple[str, ...]] = ("", "pick", "window", "tie", "deal", "offer", "after")
"""What is going on within a step (``BakuganState.mode``): nothing yet, picks or a window in the
Selection Step, a tie break in the Power Step, damage dealt, a Flip card offered or damage done."""

_Test = TypeVar("_Test", bound=Callable[..., Check])

def fails_only_in(*places: str, modes: tuple[str, ...] = MODES) -> Callable[[_Test], _Test]:
    """Declare, under a check's ``precondition``, the only places (and modes) where the check can find
    something: core :func:`spec.core.rules.fails_only` with ``place`` and ``mode``, each name checked.

    Said only of a check whose own code returns ``None`` at once anywhere else (it asks the
    stage, the step or the mode first): elsewhere it is not run at all (:func:`staged`), the move
    keeping its rule there by that very code. ``tests/test_bakugan_speed.py`` runs every check at
    every event of the shipped replays and finds each one failing only where it is declared to.
    """
    unknown = (set(places) - set(PLACES)) | (set(modes) - set(MODES))
    if unknown:
        raise ValueError(f"not a place or mode of the game: {sorted(unknown)}")
    return fails_only(place=places, mode=modes)


def place_of(state: BakuganState) -> str:
    """Where the game stands: ``setup``, the step of the turn, or ``over`` (one of :data:`PLACES`)."""
    return state.node if state.stage == "turn" else state.stage


_Kept = tuple[tuple[Precondition[Any, Any], Callable[..., Check]], ...]


class _ByMode(dict[str, _Kept]):
    """Mode -> the checks to run; a mode not in :data:`MODES` runs them all (a mode added later)."""

    def __init__(self, kept: dict[str, _Kept], every: _Kept) -> None:
        super().__init__(kept)
        self.every = every

    def __missing__(self, _mode: str) -> _Kept:
        return self.every


Staged = dict[str, _ByMode]
"""Place -> mode -> the checks to run there, each with its test, in the order they were registered."""


def staged(action: Action[Any, Any]) -> Staged:
    """Per place (:data:`PLACES`) and mode (:data:`MODES`), the checks of ``action`` that can find something
    there: every registered check but those declared (:func:`fails_only_in`) to find nothing there.

    The first of them that fails is the first of all the checks that fails (``action.first_violation``):
    the others return ``None`` there. Built once per action when its first event is met, after every
    check was registered (``spec.bakugan.game._facts_for``).
    """
    every = tuple((check, check.test) for check in action.checks)

    def kept(place: str, mode: str) -> _Kept:
        return tuple((check, test) for test, check in action.checks_where(place=place, mode=mode))

    return {place: _ByMode({mode: kept(place, mode) for mode in MODES}, every) for place in PLACES}


class _TestsByMode(dict[str, tuple[Callable[..., Check], ...]]):
    """Mode -> the tests of the checks to run (:class:`_ByMode` without the checks); a mode not in :data:`MODES` runs them all."""

    def __init__(self, kept: dict[str, tuple[Callable[..., Check], ...]], every: tuple[Callable[..., Check], ...]) -> None:
        super().__init__(kept)
        self.every = every

    def __missing__(self, _mode: str) -> tuple[Callable[..., Check], ...]:
        return self.every


def tests_of(by_mode: _ByMode) -> _TestsByMode:
    """The checks kept for one place (a :func:`staged` entry) with their tests alone, in the same order."""
    return _TestsByMode({mode: tuple(test for _check, test in kept) for mode, kept in by_mode.items()},
                        tuple(test for _check, test in by_mode.every))


def _busy(state: BakuganState) -> bool:
    """An effect is completing or being paid for: nobody has priority (1.14.5.p1)."""
    return state.resolution is not None or state.pending_item is not None


# ====================================================================== set-up (1.4)

@FIRST.precondition("1.4/4.2", "the player who begins the set-up is picked once, at random, before any BakuCore is placed")
def first_once(state: BakuganState, ev: E.First) -> Check:
    if state.stage != "setup" or state.first is not None or state.field_cores:
        return Violation("the first placer was already decided", expected="one random pick in set-up", actual="another pick")
    if ev.player not in state.players:
        return Violation(f"{ev.player!r} is not a player of this game", expected="one of the players", actual=ev.player)
    return None


def placer(state: BakuganState) -> str | None:
    """Whose turn it is to place a BakuCore: the first placer, then alternating (1.4/4.3.p1)."""
    if state.first is None:
        return None
    placed = len(state.field_cores)
    if placed >= 2 * CORES_PER_PLAYER:
        return None
    return state.first if placed % 2 == 0 else state.other(state.first)


@PLACE.precondition("1.4/4.3.p1", "BakuCores are placed one at a time in set-up, players taking turns, the randomly picked player first")
def place_in_turn(state: BakuganState, ev: E.Place) -> Check:
    if state.stage != "setup":
        return Violation("a BakuCore placed after set-up", expected="placements in set-up only", actual="place")
    due = placer(state)
    if ev.by != due:
        return Violation(f"{ev.by} placed a BakuCore out of turn", expected=f"a placement by {due}" if due else "no placement",
                         actual=f"placement by {ev.by}")
    return None


@PLACE.precondition("1.2/2.3", "the BakuCore placed is one of the player's registered BakuCores not placed yet")
def place_registered_core(state: BakuganState, ev: E.Place) -> Check:
    left = state.sides[ev.by or ""].cores_left
    if ev.core not in K.BAKUCORES:
        return Violation(f"{ev.core!r} is not a BakuCore icon", expected=", ".join(K.BAKUCORES), actual=ev.core)
    if left is not None and ev.core not in left:
        return Violation(f"{ev.by} has no {ev.core} BakuCore left to place", expected=", ".join(left) or "none",
                         actual=ev.core, severity="inconsistent")
    return None


@PLACE.precondition("1.4/4.3.1", "from the second BakuCore on, a placed BakuCore lies edge to edge with one already placed")
def place_touching(state: BakuganState, ev: E.Place) -> Check:
    placed = set(state.field_cores)
    if placed and not ev.touches:
        return Violation("a BakuCore placed touching none of the Field", expected="a placed BakuCore it touches", actual="touches nothing")
    stray = [t for t in ev.touches if t not in placed]
    if stray:
        return Violation("a BakuCore placed touching slots not on the Field", expected=f"slots among {sorted(placed)}", actual=str(stray))
    return None


@SHUFFLE.precondition("4.2.2.p2", "a deck is shuffled once in set-up before its owner draws, or when an effect calls for it")
def shuffle_called_for(state: BakuganState, ev: E.Shuffle) -> Check:
    if state.stage == "setup" and not state.sides[ev.by or ""].shuffled:
        return None
    return Violation("a deck shuffled where no rule or effect calls for it", expected="the deck's order kept", actual="shuffle")


@DRAW.precondition("1.4/4.4.p1", "no opening card is drawn before its player has shuffled their deck")
@fails_only_in("setup")
def draw_after_shuffle(state: BakuganState, ev: E.Draw) -> Check:
    if state.stage == "setup" and not state.sides[ev.by or ""].shuffled:
        return Violation("a card drawn from an unshuffled deck", expected="shuffle first", actual="draw")
    return None


@DRAW.precondition("1.4/4.4.p3", "opening hands are drawn once the Field is laid, five cards each")
@fails_only_in("setup")
def opening_hand(state: BakuganState, ev: E.Draw) -> Check:
    if state.stage != "setup":
        return None
    if len(state.field_cores) < 2 * CORES_PER_PLAYER:
        return Violation("an opening card drawn before every BakuCore was placed", expected="the BakuCore Field first",
                         actual=f"draw after {len(state.field_cores)} placements")
    if state.sides[ev.by or ""].opening_draws >= 5:
        return Violation("a sixth card drawn for the opening hand", expected="five cards", actual="a sixth draw")
    return None


@DRAW.precondition("1.17.1.p2", "in a turn a player draws only their one Draw-step card, unless an effect calls for more")
@fails_only_in(*STEPS, "over")
def draw_in_draw_step(state: BakuganState, ev: E.Draw) -> Check:
    if state.stage == "setup":
        return None
    if state.stage != "turn" or state.node != "draw" or (ev.by or "") in state.flags.drew:
        return Violation("a draw no rule or effect calls for", expected="no draw here", actual=f"draw by {ev.by}")
    return None


@DRAW.precondition("1.17.2", "nothing is drawn from an empty deck")
def draw_from_cards(state: BakuganState, ev: E.Draw) -> Check:
    if len(state.sides[ev.by or ""].deck) == 0:
        return Violation("a card drawn from an empty deck", expected="the draw is skipped", actual="draw")
    return None


def in_hand(state: BakuganState, player: str, name: str) -> Violation | None:
    """The card is in the player's hand: known there, or one of its unknown cards."""
    hand = state.sides[player].hand
    if hand.find(name) is not None:
        return None
    if hand.unknown() is None:
        return Violation(f"{name} is not in {player}'s hand", expected="a card from the hand", actual=name)
    if not state.sides[player].knowledge.can_reveal(name):
        return Violation(f"{name}: more copies revealed than {player}'s registered deck holds", expected="a card the deck can hold",
                         actual=name, severity="inconsistent")
    return None


# ====================================================================== Start Phase (5.2-5.4, 3.7)

@ENERGIZE.precondition("3.7.1", "a card is energized only in the Energize step")
def energize_in_step(state: BakuganState, ev: E.Energize) -> Check:
    if state.stage != "turn" or state.node != "energize" or state.resolution is not None or state.pending_item is not None:  # or busy (_busy)
        return Violation("a card energized outside the Energize step", expected="energize in the Energize step", actual=f"energize in {state.node}")
    return None


@ENERGIZE.precondition("5.4.2", "each player makes one energize decision in the step")
def one_energize(state: BakuganState, ev: E.Energize) -> Check:
    if (ev.by or "") in state.flags.energize_done:
        return Violation(f"{ev.by} energized twice this step", expected="one decision each", actual="a second energize")
    return None


@ENERGIZE.precondition("5.4.1", "the starting player makes the energize decision first, then the other player")
def energize_order(state: BakuganState, ev: E.Energize) -> Check:
    due = energize_decider(state)
    if ev.by != due:
        return Violation(f"{ev.by} energized before {due} decided", expected=f"a decision by {due}", actual=f"energize by {ev.by}")
    return None


@ENERGIZE.precondition("3.7.1", "the card energized comes from the player's hand")
def energize_from_hand(state: BakuganState, ev: E.Energize) -> Check:
    if ev.card is None:
        return None if len(state.sides[ev.by or ""].hand) else Violation("an energize from an empty hand", expected="a card in hand", actual="none")
    return in_hand(state, ev.by or "", ev.card)


def energize_decider(state: BakuganState) -> str | None:
    for player in (state.starting, state.nonstarting):
        if player not in state.flags.energize_done:
            return player
    return None


# ====================================================================== Roll Phase (5.5-5.7, 1.18)

def selector_due(state: BakuganState) -> str | None:
    """Who picks a Bakugan next: the starting player first (5.6.1)."""
    if state.stage != "turn" or state.node != "selection" or state.mode != "pick":
        return None
    for player in (state.starting, state.nonstarting):
        if player not in state.flags.selected:
            return player
    return None


@SELECT.precondition("5.6.1", "in the Selection Step the starting player picks first, then the other, one Bakugan each")
def select_in_order(state: BakuganState, ev: E.Select) -> Check:
    due = selector_due(state)
    if due is None:
        return Violation("a Bakugan picked outside the Selection Step", expected="no pick here", actual="select")
    if ev.by != due:
        return Violation(f"{ev.by} picked before {due}", expected=f"a pick by {due}", actual=f"select by {ev.by}")
    return None


@SELECT.precondition("1.1/2.1.p1", "the Bakugan picked is one of the player's three")
def select_own_team(state: BakuganState, ev: E.Select) -> Check:
    side = state.sides[ev.by or ""]
    defn = state.cards.get(ev.bakugan)
    if defn is None or defn.type != "Character":
        return Violation(f"{ev.bakugan} is not a Bakugan's Character", expected="a Character card", actual=ev.bakugan)
    if ev.bakugan not in side.team and len(side.team) >= TEAM_SIZE:
        return Violation(f"{ev.bakugan} is not on {ev.by}'s team", expected=", ".join(side.team), actual=ev.bakugan,
                         severity="inconsistent")
    return None


@SELECT.precondition("5.6.1", "the Bakugan picked is closed")
def select_closed(state: BakuganState, ev: E.Select) -> Check:
    bak = state.bakugan(ev.by or "", ev.bakugan)
    if bak is not None and bak.open:
        return Violation(f"{ev.bakugan} is open", expected="a closed Bakugan", actual=ev.bakugan)
    return None


@ROLL.precondition("5.5.1", "a Bakugan is rolled only once selection is over: in the Roll Step, or when a reroll or double miss calls for it")
def roll_when_called(state: BakuganState, ev: E.Roll) -> Check:
    if state.stage != "turn" or (ev.by or "") not in state.to_roll or state.resolution is not None or state.pending_item is not None:  # or busy
        return Violation("a roll the rules do not call for here", expected="no roll", actual=f"roll by {ev.by}")
    return None


def core_violation(state: BakuganState, ev: E.Roll) -> Violation | None:
    """What is wrong with the BakuCore a roll names, if anything (5.7.2.2)."""
    if ev.core is None or ev.foul or not ev.opened:
        return None
    if ev.core not in state.field_cores:
        return Violation(f"no BakuCore lies in slot {ev.core}", expected=f"a slot among {sorted(state.field_cores)}", actual=str(ev.core))
    selected = state.flags.selected  # the Bakugan of this brawl, by player
    if any(ev.core in bak.holding and selected.get(player) != bak.name  # a holder (state.holders) outside it
           for player in state.players for bak in state.sides[player].team.values()):
        return Violation(f"the BakuCore in slot {ev.core} is held by a Bakugan outside this brawl",
                         expected="a BakuCore on the Field", actual=str(ev.core))
    return None


def attach_violation(ev: E.Roll) -> Violation | None:
    """A roll recorded as staying on a BakuCore it did not open on (5.7.2.3)."""
    if ev.attached and not (ev.opened and ev.core is not None):
        return Violation("a Bakugan recorded as staying on a BakuCore it did not open on",
                         expected="attached only with an open on a BakuCore", actual="attached without an open")
    return None


@ROLL.precondition("5.7.2.2", "a roll touches a BakuCore on the Field, or one held by the other Bakugan of this brawl")
def roll_on_field(state: BakuganState, ev: E.Roll) -> Check:
    return core_violation(state, ev)


@ROLL.precondition("5.7.2.3", "only a Bakugan that opened on a BakuCore can stay on it")
def roll_attached_open(state: BakuganState, ev: E.Roll) -> Check:
    return attach_violation(ev)


@REROLL.precondition("1.14.2.p1", "a reroll keyword is used by a player holding priority")
def reroll_with_priority(state: BakuganState, ev: E.Reroll) -> Check:
    return has_priority(state, ev.by)


@REROLL.precondition("1.18.1.2", "the Bakugan rerolled is the one its player picked in this turn's Selection Step")
def reroll_selected(state: BakuganState, ev: E.Reroll) -> Check:
    if state.flags.selected.get(ev.by or "") != ev.bakugan:
        return Violation(f"{ev.bakugan} was not picked this turn", expected=state.flags.selected.get(ev.by or "") or "no pick",
                         actual=ev.bakugan)
    return None


@REROLL.precondition("1.18.1.1", "a reroll comes after the turn's first roll")
def reroll_after_first_roll(state: BakuganState, ev: E.Reroll) -> Check:
    if not state.flags.first_roll_done:
        return Violation("a reroll before the turn's first roll", expected="the first roll", actual="reroll")
    return None


@REROLL.precondition("1.18.1.6", "no reroll once the Victor Step has begun")
def reroll_before_victor(state: BakuganState, ev: E.Reroll) -> Check:
    if state.flags.victor_begun:
        return Violation("a reroll after the Victor Step began", expected="no reroll", actual="reroll")
    return None


@REROLL.precondition("1.3/3.1", "the Bakugan's own text grants the reroll: it missed its last roll, and the keyword is used once a turn")
def reroll_granted(state: BakuganState, ev: E.Reroll) -> Check:
    bak = state.bakugan(ev.by or "", ev.bakugan)
    word = None if bak is None else B.keyword(state, bak.top.name, "reroll_on_miss")
    if word is None:
        return Violation(f"{ev.bakugan} has no reroll ability", expected="a card text granting the reroll", actual="reroll")
    if not state.flags.missed.get(ev.by or "", False):
        return Violation(f"{ev.bakugan} did not miss its last roll", expected="a missed roll", actual="reroll")
    if word.argument == "once each turn" and (ev.by or "", ev.bakugan) in state.flags.rerolls_used:
        return Violation(f"{ev.bakugan}'s reroll used twice this turn", expected="once each turn", actual="a second reroll")
    problem, rule, _conflicts = BC.judge_reroll(state, ev.by or "", ev.bakugan)  # the rules' one roll against the text: the policy decides
    return problem if problem is not None and rule != BC.RULE_CANT_OVERRIDES else None


@REROLL.precondition("1.3/3.2", "no reroll while a card's can't of it is in force: the can't overrides the text that allows it")
def reroll_not_prohibited(state: BakuganState, ev: E.Reroll) -> Check:
    bak = state.bakugan(ev.by or "", ev.bakugan)
    if bak is None or B.keyword(state, bak.top.name, "reroll_on_miss") is None:
        return None
    problem, rule, _conflicts = BC.judge_reroll(state, ev.by or "", ev.bakugan)  # a card's can't against the text: the policy decides
    return problem if rule == BC.RULE_CANT_OVERRIDES else None


# ====================================================================== priority (1.14, 6.2.1)

def has_priority(state: BakuganState, player: str | None) -> Violation | None:
    """A player may add to the batch only in a priority window (and, with logged passes, holding priority)."""
    if state.stage != "turn" or _busy(state) or state.to_roll:
        return Violation("no player has priority here", expected="a priority window", actual="an action")
    if state.node not in WINDOWS or (state.node == "selection" and state.mode != "window") or state.mode in ("tie", "deal", "offer"):
        return Violation(f"no priority window in the {state.node} step", expected="a priority window", actual="an action")
    if state.explicit_passes and player != state.priority.holder:
        return Violation(f"{player} acted while {state.priority.holder} held priority", expected=f"a move by {state.priority.holder}",
                         actual=f"a move by {player}")
    return None


def offered(state: BakuganState, player: str | None, name: str) -> bool:
    """Whether ``name`` is the Flip card damage just turned over from ``player``'s deck (3.6.1)."""
    return state.offer is not None and state.mode == "offer" and state.offer.owner == player and state.offer.name == name


def fed_play(state: BakuganState, player: str | None) -> bool:
    """Whether a resolving effect asks ``player`` to play a card now (a "play a ..." step)."""
    res = state.resolution
    return res is not None and res.need is not None and res.need.kind == "play" and res.need.player == player


def from_discard(state: BakuganState, player: str | None, name: str) -> CardObj | None:
    """The card ``name`` in ``player``'s discard pile that a resolving effect lets them play from
    there (decision 41: "play it" of a card's own "if this is discarded"), or ``None``."""
    if not fed_play(state, player) or player is None:
        return None
    asked = cast(Any, state.resolution).need.detail
    card = asked.card
    if card is None or card.name != name:
        return None
    return B.in_discard_pile(state, player, card)


def shuffle_in_violation(state: BakuganState, player: str, name: str | None, what: Any) -> Violation | None:
    """6.7.1.4, 4.5.2: a card picked to shuffle into the deck (decision 48) is one of ``player``'s
    discard pile that ``what`` (the effect's selector) describes. The pile is face up, so the
    card is named, unless it went there unnamed."""
    pile = state.sides[player].discard
    if name is None:
        return None if pile.unknown() is not None else Violation("an unnamed card picked from a discard pile of known cards",
                                                                  "the card's name", "null")
    card = pile.find(name)
    if card is None:
        return Violation(f"{name} is not in {player}'s discard pile", f"a card of {player}'s discard pile", name)
    if what.type not in ("card", B.type_of(state, name)):
        return Violation(f"{name} is not what the effect asks for", what.describe(), name)
    return None


def fed_free(state: BakuganState, player: str | None) -> bool:
    """Whether a resolving effect lets ``player`` play a card now for free (2.3.3)."""
    return fed_play(state, player) and bool(state.resolution and state.resolution.need and state.resolution.need.detail.free)


@PLAY.precondition("5.2.1.p2", "no card is played in the Start Phase")
@fails_only_in(*(step for step in STEPS if PHASE_OF[step] == "start"))
def no_play_in_start_phase(state: BakuganState, ev: E.Play) -> Check:
    if state.stage == "turn" and PHASE_OF.get(state.node) == "start":
        return Violation("a card played in the Start Phase", expected="no plays until the Roll Phase", actual=ev.card)
    return None


@PLAY.precondition("5.15.1.p2", "no card is played after the play step")
@fails_only_in("charge", "reset")
def no_play_after_play_step(state: BakuganState, ev: E.Play) -> Check:
    if state.stage == "turn" and state.node in ("charge", "reset"):
        return Violation(f"a card played in the {state.node} step", expected="plays end with the play step", actual=ev.card)
    return None


@PLAY.precondition("1.3/3.2", "a Flip card that FrostStrike damage turned over can't be played")
@fails_only_in("damage", modes=("deal",))
def frost_flips_cannot_be_played(state: BakuganState, ev: E.Play) -> Check:
    attack = state.attack
    if state.stage == "turn" and state.node == "damage" and attack is not None and attack.frost and attack.dealt <= attack.frost \
            and state.mode == "deal" and B.type_of(state, ev.card) == "Flip":
        flipped = state.sides[attack.to].discard.cards
        if flipped and flipped[-1].name == ev.card and ev.by == attack.to:
            return Violation(f"{ev.card} was turned over by FrostStrike damage, which can't be answered",
                             expected="no Flip card played", actual=ev.card)
    return None


@PLAY.precondition("3.6.1.p2", "after a Flip card is turned over by damage, only its owner acts first, deciding on that card")
@fails_only_in(*STEPS, modes=("offer",))
def flip_owner_decides_first(state: BakuganState, ev: E.Play) -> Check:
    if state.stage == "turn" and state.mode == "offer" and state.offer is not None and not offered(state, ev.by, ev.card):
        return Violation(f"{ev.card} played while {state.offer.owner} decided on {state.offer.name}",
                         expected=f"{state.offer.owner} plays or declines {state.offer.name}", actual=f"{ev.by} plays {ev.card}")
    return None


@PLAY.precondition("5.11.2", "no card is played while damage is being dealt, save a Flip card just turned over")
@fails_only_in("damage", modes=("deal",))
def no_play_during_damage(state: BakuganState, ev: E.Play) -> Check:
    if state.stage == "turn" and state.node == "damage" and state.mode == "deal" and not fed_play(state, ev.by):
        return Violation("a card played while damage was being dealt", expected="the damage goes on", actual=ev.card)
    return None


@PLAY.precondition("3.6.1.p1", "a Flip card is played only as damage turns it over from its owner's deck")
def flip_only_when_flipped(state: BakuganState, ev: E.Play) -> Check:
    if B.type_of(state, ev.card) == "Flip" and not offered(state, ev.by, ev.card):
        return Violation(f"{ev.card} is a Flip card not turned over by damage", expected="Flip cards are played from damage",
                         actual=ev.card)
    return None


@PLAY.precondition("6.2.1.p2", "a card is played by the player holding priority, in a priority window")
def play_with_priority(state: BakuganState, ev: E.Play) -> Check:
    if offered(state, ev.by, ev.card) or fed_play(state, ev.by):
        return None
    return has_priority(state, ev.by)


@PLAY.precondition("1.10.1.p2", "Character cards are never played: they are not in a deck or a hand")
def no_character_played(state: BakuganState, ev: E.Play) -> Check:
    if B.type_of(state, ev.card) == "Character":
        return Violation(f"{ev.card} is a Character card", expected="a card from the hand", actual="Character")
    return None


@PLAY.precondition("6.2.1.1.p1", "the card played comes from the player's hand")
def play_from_hand(state: BakuganState, ev: E.Play) -> Check:
    """A Flip card damage turned over, and a card whose own text lets it be played from the
    discard pile as it is discarded (1.3/3.1, decision 41), are played from where they lie."""
    if offered(state, ev.by, ev.card) or from_discard(state, ev.by, ev.card) is not None:
        return None
    return in_hand(state, ev.by or "", ev.card)


@PLAY.precondition("3.3.2.p1", "an Evo goes on a Bakugan of the player's own team")
def evo_on_own_bakugan(state: BakuganState, ev: E.Play) -> Check:
    if B.type_of(state, ev.card) != "Evo":
        return None
    if ev.on is None or state.bakugan(ev.by or "", ev.on) is None:
        return Violation(f"{ev.card} played on no Bakugan of {ev.by}'s", expected="one of the player's Bakugan",
                         actual=ev.on or "no Bakugan named")
    return None


@PLAY.precondition("3.3.1.1", "an Evo's Evo ID names the Character at the bottom of the pile it goes on")
def evo_matches_character(state: BakuganState, ev: E.Play) -> Check:
    defn = state.cards.get(ev.card)
    if defn is None or defn.type != "Evo":
        return None
    if ev.on is None or not B.evolves(defn, ev.on, state.cards):
        wanted = defn.stats.get("evolves_from")
        return Violation(f"{ev.card} evolves {wanted}, not {ev.on}", expected=str(wanted), actual=str(ev.on))
    return None


@PLAY.precondition("1.8.1.2.2", "a card with X in its cost is given a value for X (zero or more), and only such a card")
def x_value(state: BakuganState, ev: E.Play) -> Check:
    defn = state.cards.get(ev.card)
    has_x = defn is not None and defn.cost == "X"
    if (ev.x is not None and (not has_x or ev.x < 0)) or (has_x and ev.x is None):
        return Violation(f"X = {ev.x} given for {ev.card}", expected="a value for X exactly on a card with X in its cost, never negative",
                         actual=str(ev.x))
    return None


def energy_violation(state: BakuganState, player: str, cost: int, uncharge: int | None) -> Violation | None:
    """Whether a cost can be paid from the pool and charged Energy cards as the event says (1.7.1.1.1, 2.3.1.1)."""
    side = state.sides[player]
    need = max(0, cost - side.pool)
    if uncharge is not None and uncharge > need:
        return Violation(f"{uncharge} Energy card(s) uncharged for a cost that needed {need}", expected=f"uncharge {need}",
                         actual=f"uncharge {uncharge}")
    return None


def affordable(state: BakuganState, player: str, cost: int, uncharge: int | None) -> Violation | None:
    side = state.sides[player]
    need = max(0, cost - side.pool)
    turned = need if uncharge is None else uncharge
    if turned > side.charged() or side.pool + turned < cost:
        return Violation(f"a cost of {cost} Energy not covered", expected=f"{cost} Energy",
                         actual=f"{side.pool} in the pool and {side.charged()} charged Energy card(s)")
    return None


class _Cost:
    """The Energy the play being checked costs, worked out once for its two checks and the play itself.

    The checks of a play run in order on an unchanged state, and ``uncharge_only_as_needed``
    always runs before ``play_affordable``: the first works the cost out afresh, the second
    takes it for the same state and event. ``last`` is (state, event, played for free, cost).
    """

    last: ClassVar[tuple[BakuganState | None, Any, bool, int]] = (None, None, False, 0)


def play_cost(state: BakuganState, ev: E.Play, fresh: bool = False) -> int:
    """The Energy ``ev`` costs where the game stands (:func:`~spec.bakugan.board.cost_to_pay`).

    ``fresh``: work it out (and keep it); else the cost kept for this state and event, if any.
    """
    last = _Cost.last
    if not fresh and last[0] is state and last[1] is ev:
        return last[3]
    free = fed_free(state, ev.by)
    defn = state.cards.get(ev.card)
    cost = 0 if defn is None else B.cost_to_pay(state, ev.by or "", defn, ev.x, free=free)
    _Cost.last = (state, ev, free, cost)
    return cost


def checked_play(state: BakuganState, ev: E.Play, free: bool) -> tuple[int | None, list[Any] | None]:
    """What the checks of ``ev`` just found on this very state: (its cost, the objects its
    selections mean, in slot order), each ``None`` when they did not work it out.

    Only for the play of an event that has just passed all its checks, with nothing
    changed in between (``Bakugan.apply``).
    """
    last = _Cost.last
    cost = last[3] if last[0] is state and last[1] is ev and last[2] is free else None
    seen = _Selections.last
    objects = seen[3] if seen[0] is state and seen[1] is ev and seen[2] is None else None
    return cost, objects


@PLAY.precondition("1.7.1.1.1", "Energy cards are uncharged only as far as the play needs them")
def uncharge_only_as_needed(state: BakuganState, ev: E.Play) -> Check:
    return energy_violation(state, ev.by or "", play_cost(state, ev, fresh=True), ev.uncharge)


@PLAY.precondition("2.3.1.1", "the player has the Energy the card costs to play")
def play_affordable(state: BakuganState, ev: E.Play) -> Check:
    return affordable(state, ev.by or "", play_cost(state, ev), ev.uncharge)


def played_steps(state: BakuganState, name: str) -> tuple[A.Step, ...]:
    """The steps whose selections are made as the card is played (its effect and riders), read once per card."""
    cache: dict[str, tuple[A.Step, ...]] | None = state.cards.__dict__.get("_bakugan_played_steps")
    if cache is None:
        cache = state.cards.__dict__["_bakugan_played_steps"] = {}
    steps = cache.get(name)
    if steps is None:
        steps = ()
        for ability in B.text_of(state, name).abilities:
            if isinstance(ability, A.Spell) or isinstance(ability, K.Rider) and B.type_of(state, name) in ("Action", "Flip"):
                steps += ability.effect
        cache[name] = steps
    return steps


_TOLD_AT_PLAY: Final = frozenset({"count", "most", "cores", "played", "controls"})
"""The subjects of the rider conditions told from the game alone as a card is played (not from
a Bakugan the card is applied to, nor from what an earlier step did)."""


RiderOption = tuple[A.Condition, tuple[A.Step, ...], tuple[A.Step, ...]]
"""A conditional rider as a card is played: (its condition, the text it replaces, its own text)."""


def rider_options(state: BakuganState, name: str) -> tuple[RiderOption, ...]:
    """The conditional riders of an Action or Flip card whose condition is told as it is played,
    each (condition, the text it replaces, its own text): an "instead" rider replaces the text
    before it, any other adds to the card (nothing replaced). Read once per card."""
    cache: dict[str, tuple[RiderOption, ...]] | None = state.cards.__dict__.get("_bakugan_rider_options")
    if cache is None:
        cache = state.cards.__dict__["_bakugan_rider_options"] = {}
    found = cache.get(name)
    if found is None:
        options: list[RiderOption] = []
        last: tuple[A.Step, ...] = ()
        if B.type_of(state, name) in ("Action", "Flip"):
            for ability in B.text_of(state, name).abilities:
                if isinstance(ability, A.Spell):
                    last = ability.effect
                elif isinstance(ability, K.Rider) and ability.condition is not None and _told_at_play(ability.condition):
                    body = ability.effect
                    if len(body) == 1 and isinstance(body[0], K.Instead):
                        options.append((ability.condition, last, body[0].steps))
                        last = body
                    else:
                        options.append((ability.condition, (), body))
        found = cache[name] = tuple(options)
    return found


def _told_at_play(cond: A.Condition) -> bool:
    about = cond.of.quantifier if cond.of is not None else None
    return cond.subject in _TOLD_AT_PLAY and about not in ("the", "that", "it", "this") and B.condition_gap(cond) is None


def played_slots(state: BakuganState, player: str, name: str) -> list[T.Slot]:
    """The selections playing card ``name`` needs where the game stands (1.13.1.p1, decision 47).

    Those of its text and riders; but a rider whose condition is told as the card is played
    (:func:`rider_options`) gives its selections only when its condition holds, and an
    "instead" rider's then replace those of the text it replaces. The condition is tested with
    the card gone from its player's hand, as it is once played. Called before the card leaves.
    """
    slots = T.slots_of(played_steps(state, name))
    options = rider_options(state, name)
    if not options:
        return slots
    trial = state
    if state.sides[player].hand.find(name) is not None:
        trial = state.copy()
        trial.sides[player].hand.remove(cast(CardObj, trial.sides[player].hand.find(name)))
    dropped: set[Any] = set()
    for condition, replaced, own in options:
        holds = B.condition_holds(trial, player, condition, {})
        dropped.update(slot.key for slot in T.slots_of(replaced if holds else own) if slot.key != "implied")
    return [slot for slot in slots if slot.key not in dropped]


def targets_violation(state: BakuganState, player: str, steps: tuple[A.Step, ...], refs: list[E.TargetRef],
                      objects: list[Any] | None = None, slots: list[T.Slot] | None = None) -> tuple[str, Violation] | None:
    """(rule, finding) when the selections do not fit the card (1.13.1.p2, 1.13.1.p1, 1.13.1.2, 6.2.1.2).

    ``objects``, if given, receives what each selection means (:func:`~spec.bakugan.targets.pick`), slot by slot.
    ``slots``, if given, are the selections to make instead of all those of ``steps`` (a triggered ability's, decision 40).
    """
    if slots is None:
        slots = T.slots_of(steps)
    choices = []
    for slot in slots:
        found = T.candidates(state, player, slot)
        if not found:
            return "1.13.1.p2", Violation("the card needs a selection and nothing can be selected",
                                          expected=f"a legal {slot.selector.type}", actual="no choice available")
        choices.append(found)
    if len(refs) != len(slots):
        return "1.13.1.p1", Violation(f"{len(refs)} selection(s) made for {len(slots)} needed", expected=f"{len(slots)} selection(s)",
                                      actual=str(len(refs)))
    picked: list[Any] = []
    for slot, ref, found in zip(slots, refs, choices, strict=True):
        obj = T.pick(found, slot, ref, T.taken_by(slots, picked, slot))
        picked.append(obj)
        if objects is not None:
            objects.append(obj)
        if obj is None:
            if not T.names_one_kind(slot, ref):
                return "6.2.1.2", _names_more(slot, ref)
            if slot.kind == "energy":
                left = sum(1 for candidate, _obj in found if (candidate.owner, candidate.charged) == (ref.owner, ref.charged))
                said = f"{'a charged' if ref.charged else 'an uncharged'} Energy card of {ref.owner}"
                return "6.2.1.2", Violation(f"{said} is not a legal selection ({left} in play, each selection a different card)",
                                            expected="an Energy card in play the text allows, none selected twice", actual=said)
            if slot.kind == "bakugan" and slot.key == "implied":
                owner = ref.owner
                bak = None
                for p in state.players:
                    if owner in (None, p) and state.bakugan(p, ref.card) is not None:
                        bak = state.bakugan(p, ref.card)
                if bak is not None and not bak.face_up:
                    return "1.13.1.2", Violation(f"{ref.card} is face down", expected="a face-up Bakugan", actual=ref.card)
            return "6.2.1.2", Violation(f"{ref.card or ref.core} is not a legal selection", expected=f"a {slot.selector.type}",
                                        actual=str(ref.card or ref.core))
    return None


def _names_more(slot: T.Slot, ref: E.TargetRef) -> Violation:
    """The finding for a selection naming more, or other, than the one thing its slot takes (6.2.1.2)."""
    named = f"BakuCore slot {ref.core} and card {ref.card or '(none)'}" + (f" of {ref.owner}" if ref.owner else "")
    if ref.charged is not None:
        named += f", {'' if ref.charged else 'un'}charged"
    if slot.kind == "energy":
        return Violation(f"the selection names {named}: an Energy card is named by its owner and whether it is charged alone",
                         expected="owner and charged, no card or BakuCore slot", actual=named)
    wanted = "BakuCore" if slot.kind == "core" else "card"
    return Violation(f"the selection names {named}: it must name one {wanted} alone",
                     expected="a BakuCore slot alone" if slot.kind == "core" else "a card, no BakuCore slot", actual=named)


class _Selections:
    """What :func:`targets_violation` found for the play being checked, shared by its four checks.

    The checks of a play run in order on an unchanged state, and the first of the four
    (``play_has_selection``) always runs before the others: it reads the selections
    afresh, the three after it take what it found for the same state and event.
    ``last`` is (state, event, what was found, what the selections mean when they fit, else
    ``None``), set and read as one value.
    """

    last: ClassVar[tuple[BakuganState | None, Any, tuple[str, Violation] | None, list[Any] | None]] = (None, None, None, None)


def _targets_for(rule: str, first: bool = False) -> Any:
    def check(state: BakuganState, ev: Any) -> Check:
        last = _Selections.last
        if not first and last[0] is state and last[1] is ev:
            found = last[2]
        else:
            objects: list[Any] | None = []
            found = _selections_violation(state, ev, objects)
            _Selections.last = (state, ev, found, objects if found is None else None)
        return found[1] if found is not None and found[0] == rule else None
    return check


def _selections_violation(state: BakuganState, ev: Any, objects: list[Any] | None = None) -> tuple[str, Violation] | None:
    """(rule, finding) when the selections of a played card or used ability do not fit it (what they mean into ``objects``)."""
    if isinstance(ev, E.Play):
        if B.type_of(state, ev.card) not in ("Action", "Flip"):
            return None
        return targets_violation(state, ev.by or "", (), ev.targets, objects, slots=played_slots(state, ev.by or "", ev.card))
    ability = activated_ability(state, ev)
    if ability is None:
        return None
    return targets_violation(state, ev.by or "", ability.effect, ev.targets, objects)


_HAS_SELECTION: Final = _targets_for("1.13.1.p2", first=True)
_SELECTIONS_MADE: Final = _targets_for("1.13.1.p1")
_FACE_UP_TARGET: Final = _targets_for("1.13.1.2")
_TARGETS_LEGAL: Final = _targets_for("6.2.1.2")


@PLAY.precondition("1.13.1.p2", "a card that needs a selection is played only when something can be selected")
def play_has_selection(state: BakuganState, ev: E.Play) -> Check:
    return _HAS_SELECTION(state, ev)


@PLAY.precondition("1.13.1.p1", "every selection the card needs is made as it is played")
def play_selections_made(state: BakuganState, ev: E.Play) -> Check:
    return _SELECTIONS_MADE(state, ev)


@PLAY.precondition("1.13.1.2", "a card aimed at a Bakugan without a selection rule is aimed at a face-up one")
def play_face_up_target(state: BakuganState, ev: E.Play) -> Check:
    return _FACE_UP_TARGET(state, ev)


@PLAY.precondition("6.2.1.2", "every selection is legal when the card is played")
def play_targets_legal(state: BakuganState, ev: E.Play) -> Check:
    return _TARGETS_LEGAL(state, ev)


# ====================================================================== activated abilities (6.4)

class _Activated:
    """What :func:`activated_ability` last found: (the event, the :attr:`~BakuganState.in_play` stamp it
    was read at, the ability). The checks of one use of an ability (and carrying it out) ask for the
    ability several times; while the stamp stays, no Hero came or went, so the answer stands. A stamp
    is never shared by two states, so a copy of the state reads afresh."""

    last: ClassVar[tuple[Any, int, A.Activated | None]] = (None, -1, None)


def activated_ability(state: BakuganState, ev: E.Activate) -> A.Activated | None:
    """The activated ability ``ev`` uses: its ``ability``-th on the Hero it names in its player's play
    area (:func:`activated_ability_plain`), kept for the next question about the same event (:class:`_Activated`)."""
    last = _Activated.last
    if last[0] is ev and last[1] == state.in_play:
        return last[2]
    found = activated_ability_plain(state, ev)
    _Activated.last = (ev, state.in_play, found)
    return found


def activated_ability_plain(state: BakuganState, ev: E.Activate) -> A.Activated | None:
    """:func:`activated_ability` read afresh."""
    hero = B.hero_in_play(state, ev.by or "", ev.card)
    if hero is None:
        return None
    found = B.abilities(state, hero.name, A.Activated)
    return found[ev.ability] if 0 <= ev.ability < len(found) else None


def activation_cost(state: BakuganState, ev: E.Activate) -> int:
    ability = activated_ability(state, ev)
    if ability is None:
        return 0
    total = 0
    for step in ability.cost:
        if isinstance(step, K.Spend):
            total += ev.x or 0 if isinstance(step.amount, A.Var) else B.amount(step.amount, {})
    return total


@ACTIVATE.precondition("1.14.2.p1", "an ability is used by the player holding priority, in a priority window")
def activate_with_priority(state: BakuganState, ev: E.Activate) -> Check:
    return has_priority(state, ev.by)


@ACTIVATE.precondition("4.6.2", "the ability belongs to a Hero the player has in play")
def activate_in_play(state: BakuganState, ev: E.Activate) -> Check:
    hero = B.hero_in_play(state, ev.by or "", ev.card)
    if hero is None:
        return Violation(f"{ev.card} is not in play on {ev.by}'s side", expected="a Hero in the play area", actual=ev.card)
    if activated_ability(state, ev) is None:
        return Violation(f"{ev.card} has no activated ability {ev.ability}", expected="an ability printed on the card", actual=str(ev.ability))
    return None


@ACTIVATE.precondition("1.8.1.2.2", "an ability with X in its cost is given an X of at least 1, and only such an ability")
def activate_x_value(state: BakuganState, ev: E.Activate) -> Check:
    ability = activated_ability(state, ev)
    has_x = ability is not None and any(isinstance(s, K.Spend) and isinstance(s.amount, A.Var) for s in ability.cost)
    if (ev.x is not None and (not has_x or ev.x < 1)) or (has_x and ev.x is None):
        return Violation(f"X = {ev.x} for {ev.card}", expected="a value of at least 1 for X exactly when the cost has X", actual=str(ev.x))
    return None


@ACTIVATE.precondition("1.7.1.1.1", "Energy cards are uncharged only as far as the ability needs them")
def activate_uncharge_as_needed(state: BakuganState, ev: E.Activate) -> Check:
    return energy_violation(state, ev.by or "", activation_cost(state, ev), ev.uncharge)


@ACTIVATE.precondition("6.4.2.p1", "every cost of the ability is paid as it is announced: the Energy first")
def activate_affordable(state: BakuganState, ev: E.Activate) -> Check:
    return affordable(state, ev.by or "", activation_cost(state, ev), ev.uncharge)


@ACTIVATE.precondition("6.4.3", "an extra cost is paid only if the player can pay it (a card to discard)")
def activate_extra_cost(state: BakuganState, ev: E.Activate) -> Check:
    ability = activated_ability(state, ev)
    if ability is None:
        return None
    for step in ability.cost:
        if isinstance(step, A.Discard) and len(state.sides[ev.by or ""].hand) < B.amount(step.amount, {}):
            return Violation("no card to discard for the cost", expected=f"{step.amount} card(s) in hand", actual=str(len(state.sides[ev.by or ""].hand)))
    return None


@ACTIVATE.precondition("6.2.1.2", "every selection of the ability is legal when it is announced")
def activate_targets(state: BakuganState, ev: E.Activate) -> Check:
    ability = activated_ability(state, ev)
    if ability is None:
        return None
    found = targets_violation(state, ev.by or "", ability.effect, ev.targets)
    return None if found is None else found[1]


# ====================================================================== passes

@PASS.precondition("1.14.3.p1", "a pass comes from the player whose turn it is to act")
def pass_in_turn(state: BakuganState, ev: E.Pass) -> Check:
    if state.stage != "turn" or state.resolution is not None or state.pending_item is not None:  # or busy (_busy)
        return Violation("a pass where no player has a decision", expected="no pass here", actual="pass")
    if state.node == "energize":  # who may pass now: the player deciding on an energize,
        due = energize_decider(state)
    elif state.mode == "offer" and state.offer is not None:  # the owner of a Flip card just turned over,
        due = state.offer.owner
    else:  # else the player holding priority
        due = state.priority.holder
    if due is None:
        return None
    if ev.by != due:
        return Violation(f"{ev.by} passed while {due} was to act", expected=f"a move by {due}", actual=f"pass by {ev.by}")
    return None


@PASS.precondition("5.3.1", "the Draw step cannot be passed through before both players have drawn")
@fails_only_in("draw", *AROUND_TURNS)
def no_pass_before_draws(state: BakuganState, ev: E.Pass) -> Check:
    if state.node == "draw" and any(p not in state.flags.drew and len(state.sides[p].deck) for p in state.players):
        return Violation("priority passed before the Draw step's draws", expected="the draws", actual="pass")
    return None


@PASS.precondition("5.6.1", "the Selection Step cannot be passed through before both players have picked")
@fails_only_in("selection", *AROUND_TURNS, modes=("pick",))
def no_pass_before_selection(state: BakuganState, ev: E.Pass) -> Check:
    if state.node == "selection" and state.mode == "pick":
        return Violation("a pass before the Bakugan were picked", expected="a pick", actual="pass")
    return None


@PASS.precondition("5.5.1", "no pass while a Bakugan must be rolled")
def no_pass_before_roll(state: BakuganState, ev: E.Pass) -> Check:
    if state.to_roll:
        return Violation("a pass while a roll was due", expected=f"a roll by {state.to_roll[0]}", actual="pass")
    return None


@PASS.precondition("5.9.2.1.p1", "no pass while a BPower tie break needs cards turned over")
@fails_only_in(*PLACES, modes=("tie",))
def no_pass_in_tie(state: BakuganState, ev: E.Pass) -> Check:
    if state.mode == "tie":
        return Violation("a pass during the tie break", expected="cards turned over", actual="pass")
    return None


@PASS.precondition("5.11.1.p1", "no pass while damage is being dealt")
@fails_only_in("damage", *AROUND_TURNS, modes=("deal",))
def no_pass_in_damage(state: BakuganState, ev: E.Pass) -> Check:
    if state.node == "damage" and state.mode == "deal":
        return Violation("a pass while damage was being dealt", expected="the next card turned over", actual="pass")
    return None


@PASS.precondition("4.3.2.p2", "no pass while a player must discard down to seven")
def no_pass_while_discarding(state: BakuganState, ev: E.Pass) -> Check:
    if state.discarding:
        return Violation("a pass while a hand was over seven", expected="the discards", actual="pass")
    return None


# ====================================================================== discards, flips, forfeits

@DISCARD.precondition("4.3.2.p1", "outside an effect or cost, a card is discarded only to bring a hand down to seven as the turn ends")
def discard_for_hand_limit(state: BakuganState, ev: E.Discard) -> Check:
    if state.discarding.get(ev.by or "", 0) <= 0:
        return Violation("a discard no effect or hand limit asks for", expected="no discard here", actual="discard")
    return None


@DISCARD.precondition("4.3.2.p2", "the card discarded comes from the player's hand")
def discard_from_hand(state: BakuganState, ev: E.Discard) -> Check:
    if ev.card is None:
        return None if state.sides[ev.by or ""].hand.unknown() is not None else Violation(
            "an unnamed discard from a hand of known cards", expected="the card's name", actual="null")
    return in_hand(state, ev.by or "", ev.card)


@FLIP.precondition("5.9.2.1.p1", "in a tie break each player turns over one card a round")
@fails_only_in(*STEPS, modes=("tie",))
def flip_in_tie(state: BakuganState, ev: E.Flip) -> Check:
    if state.stage == "turn" and state.mode == "tie" and ev.by in state.tie:
        return Violation(f"{ev.by} turned over a second card this round", expected="one card each a round", actual="flip")
    return None


@FLIP.precondition("5.11.1.p1", "cards are turned over from the damaged player's deck while damage is dealt, or in a tie break")
def flip_when_dealt(state: BakuganState, ev: E.Flip) -> Check:
    busy = state.resolution is not None or state.pending_item is not None  # _busy
    if state.stage == "turn" and state.mode == "tie" and not busy:
        return None
    attack = state.attack
    if state.stage != "turn" or state.node != "damage" or state.mode != "deal" or attack is None or busy:
        return Violation("a card turned over where no damage or tie break calls for it", expected="no flip", actual=f"flip by {ev.by}")
    if ev.by != attack.to:
        return Violation(f"{ev.by}'s card turned over for damage dealt to {attack.to}", expected=f"a flip by {attack.to}",
                         actual=f"flip by {ev.by}")
    return None


def _unasked(state: BakuganState, ev: Any) -> Check:
    """6.7.1.4, for every kind in UNASKED (spec.core.game.unasked)."""
    return unasked(ev)


for _action in UNASKED.values():
    _action.precondition("6.7.1.4", "choices and chance results of an effect come only while an effect asks for them")(_unasked)


# ====================================================================== claims

@PHASE.precondition("5.1.1", "a claimed step (or phase) is the one the turn has reached")
def phase_claim(state: BakuganState, ev: E.Phase) -> Check:
    now = state.node if state.stage == "turn" else state.stage
    if ev.step not in (now, PHASE_OF.get(now)):
        return Violation(f"the log claims the {ev.step} step", expected=now, actual=ev.step)
    return None


@VICTOR.precondition("5.10.1", "the claimed Victor is the player whose Bakugan won the brawl")
def victor_claim(state: BakuganState, ev: E.Victor) -> Check:
    if state.victor != ev.player:
        return Violation(f"the log claims {ev.player} won the brawl", expected=state.victor or "no Victor yet", actual=ev.player)
    return None


def unclaimed_damage(state: BakuganState, player: str) -> int | None:
    """Index of the first damage to ``player`` that no claim has matched yet."""
    for index in range(state.damage_claimed, len(state.damage_log)):
        if state.damage_log[index][0] == player:
            return index
    return None


@DAMAGE.precondition("1.16.2", "claimed damage equals the cards the last attack turned over from that player's deck")
def damage_claim(state: BakuganState, ev: E.Damage) -> Check:
    index = unclaimed_damage(state, ev.to)
    dealt = None if index is None else state.damage_log[index][1]
    if dealt != ev.amount:
        side = state.sides.get(ev.to)
        return Violation(f"the log claims {ev.amount} damage to {ev.to}", expected=str(dealt) if dealt is not None else "no damage dealt",
                         actual=str(ev.amount), diff={"damage": {"computed": dealt or 0, "claimed": ev.amount},
                                                      "deck": None if side is None else len(side.deck)})
    return None


@RESOLVE.precondition("4.4.3.p1", "the card claimed to have completed is the entry the batch completed last")
def resolve_claim(state: BakuganState, ev: E.Resolve) -> Check:
    if state.last_resolved != ev.card:
        return Violation(f"the log claims {ev.card} completed", expected=state.last_resolved or "nothing completed yet", actual=ev.card)
    return None


@GAME.precondition("1.5.1", "the claimed result is the one the rules reached: a winner, or a draw")
def game_claim(state: BakuganState, ev: E.Game) -> Check:
    over = state.stage == "over"
    if not over or state.winner != ev.winner:
        expected = "the game is not over" if not over else (state.winner or "a draw")
        return Violation(f"the log claims the game ended with {ev.winner or 'a draw'}", expected=expected, actual=str(ev.winner))
    return None
