"""Neopets Battledome as a transition system: set-up, turns, battle, rounds.

:class:`Neopets` implements :class:`spec.core.game.Game`. The preconditions of each
event live in :mod:`spec.neopets.actions`; this module moves the game along: priority
windows and the queue (8.12, 8.20.15), phases and battle steps (5), dice combat (5.5.4-
5.5.7), knock-outs and rounds (3, 5.5.9-5.5.12), and the effects of card text through
the core interpreter (:mod:`spec.neopets.effects`).

Passes. With ``options.passes = "explicit"`` every pass is logged and a window closes
when both players have passed in succession. With ``"implicit"`` passes are inferred:
when an event is not legal where the game stands, the spec lets both players pass as
often as the rules allow (resolving the queue, closing windows, moving to later phases)
until the event is legal, and never past an action the rules make compulsory (the Draw
Phase draw, the battle dice). If no such point exists the event is judged where the
game stood.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar, Final

import msgspec

from grammar import ast as A
from spec.core import interpreter
from spec.core.deck import over_limit, size_violation
from spec.core.findings import Violation
from spec.core.game import DeckError, Event, Game, Ruling, Setup, actor_problem
from spec.core.hidden import DeckKnowledge
from spec.core.interpreter import Resolution, UnsupportedStep
from spec.core.queue import Priority, QueueItem
from spec.core.state import CardObj, Zone
from spec.neopets import actions as X
from spec.neopets import board as B
from spec.neopets import conflicts as NC
from spec.neopets import events as E
from spec.neopets.actions import BOOK
from spec.neopets.effects import Effects, step_gap
from spec.neopets.state import ActiveNeopet, Move, NeopetsState, Side
from spec.neopets.turn import NEXT_WINDOW, TURN, WINDOWS

cite = BOOK.cite

NO_ACTOR: Final = ("first", "phase", "resolve", "damage", "knockout", "round", "game")
"""Event kinds that no player performs."""

REFUSED: Final = ("illegal", "inconsistent", "malformed")
"""Severities that make a move not legal (for :meth:`Neopets.legal_moves`)."""

CARD_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    str(event.__struct_config__.tag): fields
    for event in E.EVENTS
    if (fields := tuple(f for f in ("card", "neopet") if f in event.__struct_fields__))
}
"""The fields naming a card, per event kind that has any (checked against the card database)."""

PHASE_BEGINS: Final = {"draw": "Draw", "train": "Train", "preparation": "Preparation", "attack": "Battle"}
"""The nodes that begin a phase, with the phase's name for its "at the start of" triggers."""

_DICE_DAMAGE: Final = cite("5.5.7c.p1")
"""The rule that deals battle damage (cited by every damage calculation)."""

MAIN_DECK_TYPES: Final = ("Codestone", "Equipment", "Food", "Faerie", "Hero", "Villain", "Legend",
                   "Paint Brush", "Potion", "Location", "Map Piece")

# Rules encoded by the structure of this module rather than by one function.
BOOK.note("5.2.1a.p1", "5.2.1a.p2", "5.2.2a", "5.3.1a", "5.3.2a", "5.4.1a", "5.2.4b", "5.3.4b", "5.4.4b",
          "5.3.1c.p1", "5.4.1c.p1", "8.12.2.p1", "8.12.2.p2",
          what="the turn graph (spec.neopets.turn.TURN) and its priority windows")
BOOK.note("8.20.15a", "8.15.4", "8.16.4", "8.17.4", "8.17.3", "8.12.1.p2", "8.20.15e.p1", "8.20.15e.p2",
          "8.11.1", "8.11.2", "8.11.3.p1", "8.10.1",
          what="the queue: items resolve one at a time, first in first out, when both players pass")
BOOK.note("5.2.3.p1", "5.3.3.p1", "5.4.3.p1", "5.5.3.p1", "9.6.1", "9.6.2", "7.8.3.p2",
          what="Food and activated abilities are accepted in every priority window of a phase")
BOOK.note("5.1.2.p2", "5.2.1b.p2", "5.3.1b.p2", "5.4.1b.p2", "5.5.2.p2", "5.5.7f.p2", "5.5.8a.p2",
          "5.2.3.p2", "5.3.3.p2", "5.4.3.p2", "5.5.3.p2", "9.7.1",
          what="simultaneous triggers join the queue active player's first (Neopets._fire)")
BOOK.note("6.2.2", "6.2.3.p1", "6.2.3.p2", "6.2.4", "8.18.1", "8.18.2", "8.18.3", "8.18.4",
          what="stats: printed value, Codestones and modifiers, capped at 10 (spec.neopets.board.stat)")
BOOK.note("6.6.3", "7.2.4", "6.6.4.p1", "6.6.4.p2", "6.7.2", what="team icons and printings: cards are matched by name and team only")
BOOK.note("9.9.1.p1", "9.9.1.p2", what="name references match words in names only (board.name_matches)")
BOOK.note("8.13.2.p1", "8.13.2.p2", what="Neopets are never 'cards' for selectors (board.selector_accepts)")
BOOK.note("6.4.2.p2", "6.4.3.p1", "6.4.3.p2", "6.4.4", "7.3.6.p1", "7.3.6.p2", "7.4.9.p1", "7.4.9.p2", "9.8.1",
          what="level requirements are printed values; no printed level means no requirement")
BOOK.note("8.4.2", "8.5.2", "8.6.3", "7.11.8", "7.9.6", "7.10.4", "8.14.3", "8.20.17a", "8.20.17b", "8.20.17c",
          what="zones: Battledome, Play Area and Neopet slots are kept apart in Side")
BOOK.note("8.7.2", what="Inventory size is bounded by the Main Deck (50), so it cannot exceed fifty")
BOOK.note("8.18.5", what="contradicting static negations apply in the order their sources entered play (board.negated_neopets)")


class Neopets(Game[NeopetsState, Event]):
    """The Neopets Battledome Comprehensive Rules."""

    undecided_ends_inference = True  # a clash the rules leave open is judged where the game stands

    hidden_fields: ClassVar[dict[str, tuple[str, ...]]] = {"reveal": ("card",)}
    """A card of the Inventory revealed only as the kind the effect asks for (the log names none)."""

    id: ClassVar[str] = "neopets"
    title: ClassVar[str] = "Neopets Battledome TCG"
    rulesets: ClassVar[tuple[str, ...]] = ("neopets/1",)
    default_cards: ClassVar[str] = "neopets/base"
    conflicts_stamp: ClassVar[str | None] = "changes"
    """Every change the effects in force depend on moves ``state.changes`` (see conflicts.py)."""
    events = E.EVENTS
    event_kinds = E.KINDS
    book = BOOK
    turn = TURN

    def __init__(self) -> None:
        self.effects = Effects(self)

    # ================================================================== set-up and decks

    def copy_limit(self, setup: Setup) -> Any:
        def limit(name: str) -> int | None:
            defn = setup.cards.get(name)
            if defn is None or defn.type == "Codestone":
                return None  # 1.2: any number of Codestones
            if defn.type in B.FAERIE_TYPES or defn.type == "Map Piece":
                return 1  # 1.3.p1, 1.3.p2, 7.3.2, 7.10.2
            return 2  # 1.3.p3
        return limit

    def setup(self, setup: Setup) -> NeopetsState:
        sides: dict[str, Side] = {}
        limit = self.copy_limit(setup)
        for player in setup.players:
            deck = setup.decks.get(player)
            main = neopets = pool = None
            if deck is not None:
                main, neopets, pool = self._check_deck(setup, player, deck, limit)
            side = Side(player, Zone("Main Deck", ordered=True, public=False), Zone("Inventory", public=False),
                        Zone("Discard"), Zone("Void"), Zone("Play Area"),
                        DeckKnowledge(main, limit, player), neopets, pool)
            side.deck.hidden = sum(main.values()) if main is not None else 50
            sides[player] = side
        state = NeopetsState(setup.players, sides, setup.cards, setup.options.get("passes") == "explicit")
        state.priority = Priority(setup.players[0])
        return state

    @BOOK.encodes("1.1.p1", "8.3.1", "1.1.p2", "1.2", "7.11.2", "1.3.p1", "1.3.p2", "1.3.p3", "7.3.2", "7.4.2", "7.5.2",
                  "7.6.2", "7.7.2", "7.8.2", "7.9.2", "7.10.2", "1.4.p1", "7.1.3.p1", "7.1.3.p2", "8.1.1", "1.4.p2",
                  "7.2.3", "8.2.1.p1", "1.5.p1", "1.5.p2", "7.9.4", "8.2.1.p2",
                  what="deck construction checked against the registered decklist")
    def _check_deck(self, setup: Setup, player: str, deck: dict[str, Any], limit: Any) -> tuple[Counter[str], list[str], list[str]]:
        def find(rule: str, message: str, expected: str, actual: str, severity: str = "illegal") -> None:
            setup.rulings.append(Ruling(cite(rule), Violation(f"{player}'s deck: {message}", expected, actual, severity)))  # type: ignore[arg-type]

        try:
            typed = msgspec.convert(deck, E.Decklist)
        except msgspec.ValidationError as error:
            setup.rulings.append(Ruling(None, Violation(f"{player}'s decklist is not valid: {error}", "main, neopets, rainbow_pool",
                                                        "a different shape", "malformed")))
            return Counter(), [], []
        main = Counter(typed.main)
        neopets, pool = list(typed.neopets), list(typed.rainbow_pool)
        for name in list(main) + neopets + pool:
            if name not in setup.cards:
                setup.rulings.append(Ruling(None, Violation(f"{player}'s deck lists {name!r}, which is not in the card database",
                                                            "a card of the database", name, "unverifiable")))
        problem = size_violation(sum(main.values()), 50, 50)
        if problem:
            find("1.1.p1", "Main Deck size", "exactly 50 cards", problem)
        for name in main:
            defn = setup.cards.get(name)
            if defn is not None and defn.type not in MAIN_DECK_TYPES:
                find("1.1.p2", f"{name} cannot be in a Main Deck", "Main Deck card types", defn.type)
        for name, n, cap in over_limit(main, limit):
            defn = setup.cards.get(name)
            rule = "1.3.p1" if defn is not None and defn.type in B.FAERIE_TYPES else "1.3.p2" if defn is not None and defn.type == "Map Piece" else "1.3.p3"
            find(rule, f"{n} copies of {name}", f"at most {cap}", str(n))
        if not 3 <= len(neopets) <= 5:
            find("1.4.p1", "Neopet Deck size", "3 to 5 Neopets", str(len(neopets)))
        species = [setup.cards[n].species for n in neopets if n in setup.cards]
        if len(set(species)) != len(species) or len(set(neopets)) != len(neopets):
            find("7.1.3.p2", "two Neopets of one species", "all different species", ", ".join(neopets))
        for name in neopets:
            defn = setup.cards.get(name)
            if defn is not None and defn.type != "Neopet":
                find("1.4.p1", f"{name} is not a Neopet", "Neopets only", defn.type)
        counted = [n for n in pool if n in setup.cards and setup.cards[n].type == "Rainbow Pool Neopet"]
        if len(counted) > 10:
            find("1.4.p2", "Rainbow Pool size", "at most 10 Rainbow Pool Neopets", str(len(counted)))
        return main, neopets, pool

    # ================================================================== applying events

    def apply(self, state: NeopetsState, event: Event, kind: str | None = None, again: bool = False) -> list[Ruling]:
        """Judge one event where the game stands and carry it out.

        In order: who acts (a player, or nobody for a derived fact), the cards it names,
        the game not over, an effect waiting for a choice (:meth:`_feed`), then the
        preconditions of its kind (the book's action: :meth:`_refused` when one is
        broken) and what it does (``_do_<kind>``; a pass is done here). In a turn only
        the preconditions that can fail at the node and window (and, for a play, for the
        card's type) are run, in their order (:func:`spec.neopets.actions.checks_in_turn`);
        the others cannot find anything there. What the spec cannot model makes the
        event unverifiable; once a hidden card was shown only as a kind, the hidden cards
        are checked after every event (:meth:`_hidden_contradiction`). A pass in a turn with
        no effect being resolved, the most common event, takes a path of its own at the top:
        the same judgement without the tests that cannot find anything there.

        ``again`` (with the event's ``kind``) judges the same event a second time from the
        top, inside the first judgement (:meth:`_feed`, once an optional choice was let
        go): what cannot be modelled then ends the first judgement, and the hidden cards
        are checked once, by it. One method rather than a wrapper and a body: every event
        of a replay comes through here.
        """
        if kind is None:
            facts = _FACTS_OF[type(event)]  # events are of the game's classes (its decoder's)
            state.seq = event.seq
            if facts.passes and (by := event.by) in state.opponent and state.stage == "turn" and state.resolution is None:  # type: ignore[attr-defined]
                # The most common event: a pass by a player, in a turn, with no effect being
                # resolved (none waits for a choice). The judgement below, in the same order,
                # without the tests that cannot find anything here (a pass names no card, the
                # game is not over in a turn, nothing is fed): the pass's checks that can fail
                # at the node and window, then priority goes over; the second pass in
                # succession opens the node's next window (what _advance does first, spelt
                # out: a quarter of all events), resolves the next item of the queue or leaves
                # the node (the three ways of _advance).
                if state.unmarked:  # damage or a round since the last move: it came before this one
                    state.damage_mark = len(state.damage_log)
                    state.rounds_mark = len(state.round_winners)
                    state.unmarked = False
                try:
                    for test, check in _PASS_IN_TURN[state.node][state.window]:
                        if (violation := test(state, event)) is not None:
                            rulings = self._refused(state, event, "pass", facts, (check, violation))
                            break
                    else:
                        priority = state.priority
                        priority.passes += 1
                        priority.holder = state.opponent[by]
                        if priority.passes >= 2:
                            if state.queue.items:
                                self._resolve_next(state)
                            elif (following := NEXT_WINDOW[node := state.node].get(state.window)) is not None:
                                state.window = following
                                state.window_number += 1
                                priority.holder = state.active
                                priority.passes = 0
                                if node in ("attack", "defence"):
                                    state.flags.rolled = False
                            else:
                                self._leave(state, node)
                        rulings = []
                except (B.Unmodelled, UnsupportedStep) as error:
                    return [Ruling(None, Violation(str(error), severity="unverifiable"))]
                if state.marked:
                    rulings += self._hidden_contradictions(state)
                return rulings
            kind = facts.kind
        else:
            facts = _FACTS[kind]
        try:
            by = event.by  # type: ignore[attr-defined]
            if by not in state.opponent and (problem := actor_problem(kind, by, state.players, facts.actor)) is not None:  # type: ignore[arg-type]
                rulings = problem  # not a player (the keys of ``opponent``), or nobody where a player acts
            elif facts.card_fields and ((field := facts.card_field) is None or state.cards.get(getattr(event, field)) is None) \
                    and (missing := self._unknown_card(state, event, kind)) is not None:  # type: ignore[arg-type]  # a known card: nothing to find
                rulings = [missing]
            elif (stage := state.stage) == "over" and not facts.claim:  # a move or chance event, not a claim
                rulings = [Ruling(cite("3.p4"), Violation("an event after the game was won", "no more events", kind))]
            else:
                if state.unmarked and not facts.claim:  # damage or a round since the last move: it came before this one
                    state.damage_mark = len(state.damage_log)
                    state.rounds_mark = len(state.round_winners)
                    state.unmarked = False
                if (resolution := state.resolution) is not None and resolution.need is not None and not facts.claim:
                    rulings = self._feed(state, event, kind)  # type: ignore[arg-type]
                else:
                    # the action's checks that can fail where the game stands, in order
                    # (actions.checks_in_turn): the first broken one refuses the move
                    if stage != "turn":
                        staged = facts.checks
                    elif (by_type := facts.by_type) is None:
                        staged = facts.in_turn[state.node][state.window]
                    else:  # a play: the checks that can fail for the type of the card played
                        staged = by_type.get(X._card_type(state, event.card), facts.in_turn)[state.node][state.window]  # type: ignore[attr-defined]
                    if facts.per_move:  # what its checks share, found once (state.Move)
                        state.move = Move(event)
                    for test, check in staged:
                        if (violation := test(state, event)) is not None:
                            state.move = None  # passes may be inferred now: the game moves on
                            rulings = self._refused(state, event, kind, facts, (check, violation))  # type: ignore[arg-type]
                            break
                    else:
                        state.move = None
                        if facts.passes:  # a pass outside the common road above (set-up, an effect resolving)
                            self._do_pass(state, event)  # type: ignore[arg-type]
                            rulings = []
                        elif (perform := facts.perform) is None:
                            rulings = []
                        elif facts.notes:
                            rulings = NC.move_notes(state, event, kind) + (perform(self, state, event) or [])  # type: ignore[arg-type]
                        else:
                            rulings = perform(self, state, event) or []
        except (B.Unmodelled, UnsupportedStep) as error:
            state.move = None
            if again:
                raise
            return [Ruling(None, Violation(str(error), severity="unverifiable"))]
        if state.marked and not again:
            rulings += self._hidden_contradictions(state)
        return rulings

    def _hidden_contradictions(self, state: NeopetsState) -> list[Ruling]:
        """What z3 finds wrong with either player's hidden cards, once a hidden card was
        shown only as a kind (``state.marked``): checked after every event from then on."""
        rulings: list[Ruling] = []
        first, second = state.pair
        if first.knowledge.marks:
            rulings += self._hidden_contradiction(first)
        if second.knowledge.marks:
            rulings += self._hidden_contradiction(second)
        return rulings

    @BOOK.encodes("8.20.7a", what="a card revealed only as a kind constrains which cards the hidden deck can hold (z3)")
    def _hidden_contradiction(self, side: Side) -> list[Ruling]:
        """What z3 finds wrong with a player's hidden cards once one was shown only as a kind."""
        outcome = side.knowledge.contradiction(sum(side.knowledge.registered.values()) if side.knowledge.registered else 50)
        if outcome is None:
            return []
        if outcome.status == "unknown":
            return [Ruling(None, Violation(outcome.explanation, "a decided check", "undecided", "unverifiable"), "hidden")]
        return [Ruling(cite("8.20.7a"), Violation(outcome.explanation, "an arrangement of the deck that gives the log",
                                                  "none exists", "inconsistent"), "hidden")]

    conflicts_met = staticmethod(NC.conflicts_met)
    """Clashes of effects in force, settled by the Neopets policy (spec.neopets.conflicts)."""

    def _refused(self, state: NeopetsState, ev: Any, kind: str, facts: KindFacts, hit: tuple[Any, Violation]) -> list[Ruling]:
        """A move that breaks a precondition where the game stands: with inferred passes the
        players may first pass on until it is legal; otherwise the finding of its first
        broken check (and, for ``--keep-going``, the move carried out as far as it can be)."""
        if kind != "pass" and not state.explicit_passes:
            still, fed = self.infer_passes(state, ev, kind, facts.action, hit, facts.claim)
            if fed is not None:
                return fed
            if still is None:  # legal once the players passed
                notes = NC.move_notes(state, ev, kind) if facts.notes else []
                perform = facts.perform
                done = (perform(self, state, ev) if perform is not None else None) or []
                return notes + done if notes else done
            hit = still
        check, violation = hit
        self.apply_anyway(state, ev, kind)
        return [Ruling(check.rule, violation, check.name)]

    def _unknown_card(self, state: NeopetsState, ev: Any, kind: str) -> Ruling | None:
        for field in CARD_FIELDS[kind]:
            name = getattr(ev, field, None)
            if kind == "reveal" and name == "":
                continue  # a reveal that names no card: only its kind is known (_reveal_unnamed)
            if isinstance(name, str) and state.cards.get(name) is None and not (kind == "activate" and name == "Neopet"):
                if kind in ("draw", "scrap"):
                    return None  # the card moves as a hidden card; reported below
                return Ruling(None, Violation(f"{name!r} is not in the card database {state.cards.name}",
                                              "a card the spec knows", name, "unverifiable"))
        return None

    # ------------------------------------------------------------------ set-up

    def _do_shuffle(self, state: NeopetsState, ev: E.Shuffle) -> None:
        side = state.sides[ev.by or ""]
        side.shuffled = True
        side.mulligan_pending = False

    @BOOK.encodes("2.p4", "2.p12", what="the starting player takes the first turn unless they defer")
    def _do_first(self, state: NeopetsState, ev: E.First) -> None:
        state.starting = state.first = ev.player

    def _do_defer(self, state: NeopetsState, ev: E.Defer) -> None:
        state.first = state.other(ev.by or "")

    @BOOK.encodes("2.p6", "5.2.2b", what="drawing moves the top card of the Main Deck into the Inventory")
    def _do_draw(self, state: NeopetsState, ev: E.Draw) -> list[Ruling]:
        rulings = self._draw(state, ev.by or "", ev.card)
        if state.stage == "setup":
            state.sides[ev.by or ""].opening_draws += 1
        else:
            state.flags.drew = True
            state.window = "close"
        return rulings

    def _draw(self, state: NeopetsState, player: str, name: str | None) -> list[Ruling]:
        side = state.sides[player]
        rulings: list[Ruling] = []
        if side.deck.hidden > 0:
            side.deck.hidden -= 1
        defn = None if name is None else state.cards.get(name)
        if name is not None and defn is None:
            rulings.append(Ruling(None, Violation(f"{name!r} is not in the card database", "a known card", name, "unverifiable")))
            name = None
        if name is not None and not side.knowledge.show(name, state.seq, f"drew {name}"):  # noted, and counted
            rulings.append(Ruling(cite("1.1.p1"), Violation(f"{player} drew {name}, but the registered deck holds no further copy",
                                                             f"at most {side.knowledge.bound(name)} cop(ies)", f"copy {side.knowledge.located[name]}", "inconsistent")))
        side.inventory.add(state.new_card(name, player, defn))
        return rulings

    @BOOK.encodes("2.p8", what="a mulligan shuffles the Inventory into the Main Deck")
    def _do_mulligan(self, state: NeopetsState, ev: E.Mulligan) -> None:
        side = state.sides[ev.by or ""]
        for card in side.inventory.cards:
            if card.name is not None:
                side.knowledge.dated(state.seq).conceal(card.name, f"shuffled {card.name} back into the Main Deck (mulligan)")
        side.deck.hidden += len(side.inventory)
        side.inventory.cards.clear()
        side.mulligans += 1
        side.opening_draws = 0
        side.mulligan_pending = True

    @BOOK.encodes("2.p10", "2.p11", "5.5.12.p2", "5.5.12.p3", "5.5.12.p4", "5.5.12.p1", "5.5.12.p6",
                  what="Neopets are chosen face down and flipped together; new rounds begin with the loser")
    def _do_choose(self, state: NeopetsState, ev: E.Choose) -> None:
        side = state.sides[ev.by or ""]
        defn = state.cards[ev.neopet]
        side.used_species.append(defn.species or defn.name)
        if side.neopet_deck is not None and ev.neopet in side.neopet_deck:
            side.neopet_deck.remove(ev.neopet)
        if state.stage == "setup":
            side.chosen = ev.neopet
            if all(s.chosen is not None for s in state.sides.values()):
                for s in state.sides.values():
                    card = state.new_card(s.chosen, s.name, state.cards[s.chosen or ""])
                    s.neopet = ActiveNeopet(card)
                state.enter_play(*(s.neopet.card for s in state.sides.values() if s.neopet is not None))
                state.stage = "turn"
                state.active = state.first or state.players[0]
                state.changed()
                self._start_turn(state)
            return
        side.neopet = ActiveNeopet(state.new_card(ev.neopet, side.name, defn))
        state.play_changed()
        if all(s.neopet is not None for s in state.sides.values()):
            state.enter_play(*(s.neopet.card for s in state.sides.values() if s.neopet is not None))
            state.stage = "turn"
            state.round += 1
            state.active = state.other(state.round_winners[-1])
            state.changed()
            self._start_turn(state)

    # ------------------------------------------------------------------ moves in a turn

    def _do_pass(self, state: NeopetsState, ev: E.Pass) -> None:
        """Priority goes to the opponent; the second pass in succession moves the game on.

        :meth:`apply` spells this out itself for the most common event, a legal pass in a
        turn with nothing resolving; this handler serves every other pass (and one carried
        out anyway, :meth:`spec.core.game.Game.apply_anyway`).
        """
        if state.priority.pass_(ev.by or "", state.opponent[ev.by]):  # type: ignore[index]  # ``by`` names a player (checked in apply)
            self._advance(state)

    @BOOK.encodes("5.3.2b.p1", "5.3.2c", "7.11.6", "7.11.3.p2", what="attaching moves the Codestone under the Neopet, outside the queue")
    def _do_attach(self, state: NeopetsState, ev: E.Attach) -> None:
        card = self._take_from_inventory(state, ev.by or "", ev.card)
        neopet = state.sides[ev.by or ""].neopet
        if neopet is not None:
            neopet.codestones.append(card)
        state.flags.codestones_attached += 1
        state.window = "close"
        self._fire(state, "attached", ev.by or "", card)
        if state.waiting:  # _flush has nothing to queue otherwise
            self._flush(state)

    def _take_from_inventory(self, state: NeopetsState, player: str, name: str) -> CardObj:
        side = state.sides[player]
        card = side.inventory.find(name)
        if card is None:
            card = side.inventory.unknown()
            if card is None:  # keep going after an illegal move: conjure the card
                card = state.new_card(name, player)
            else:
                side.inventory.remove(card)
                side.knowledge.dated(state.seq).reveal(name, f"showed {name} from a hidden card of the Inventory", "hidden")
            card.name, card.defn = name, state.cards.get(name)
        else:
            side.inventory.remove(card)
        return card

    @BOOK.encodes("5.4.2a.p2", "5.4.2b", "7.8.5", "9.1.3", "8.20.11c", "8.20.11d", "8.20.13a", "7.6.6", "7.9.7.p1",
                  "8.20.12b", "8.20.12c", "7.7.4.p1", "8.20.10b",
                  what="playing a card: costs are paid, then it joins the queue")
    def _do_play(self, state: NeopetsState, ev: E.Play) -> list[Ruling]:
        player = ev.by or ""
        side = state.sides[player]
        defn = state.cards[ev.card]
        if side.rainbow_pool is not None and ev.card in side.rainbow_pool and B.keyword(state, defn, "rainbow_pool") and side.inventory.find(ev.card) is None:
            side.rainbow_pool.remove(ev.card)
            card = state.new_card(ev.card, player, defn)
        else:
            card = self._take_from_inventory(state, player, ev.card)
        if defn.type in B.PREPARATION_TYPES and state.node == "preparation" and player == state.active:
            state.flags.prep_plays += 1
        if ev.replace is not None:
            for old in side.equipment + side.play_area.cards:
                if old.name == ev.replace:
                    self.remove_from_play(state, old, "Discard")
                    break
        text = B.text_of(state, ev.card)
        effect: tuple[A.Step, ...] = ()
        cost: tuple[A.Step, ...] = ()
        for ability in text.abilities:
            if isinstance(ability, A.Spell) and not ev.alternative:
                effect, cost = effect + ability.effect, cost + ability.cost
            elif isinstance(ability, A.Activated) and ability.alternative and ev.alternative:
                effect, cost = ability.effect, ability.cost
        if defn.type == "Paint Brush" and not effect:
            effect = (A.Transform(None),)  # 8.20.10b: a brush with no text transforms by its name
        selectors = X.target_selectors(X.played_abilities(text, ev.alternative))
        targets = tuple(X.find_target(state, player, sel, ref) for sel, ref in zip(selectors, ev.targets, strict=False))
        item = QueueItem("card", player, card, effect, targets, {"neopet": ev.neopet})
        self._pay_then_queue(state, player, item, cost)
        return []

    def _pay_then_queue(self, state: NeopetsState, player: str, item: QueueItem, cost: tuple[A.Step, ...]) -> None:
        state.priority.act(player)
        if not cost:
            self._queue(state, item)
            return
        state.pending_item = item
        state.resolution = Resolution(player, item.source, [interpreter.Frame(cost)], None)
        self._continue(state)

    def _queue(self, state: NeopetsState, item: QueueItem) -> None:
        state.queue.add(item)
        if item.kind == "card":
            self._fire(state, "played", item.controller, item.source)
        if state.waiting:  # _flush has nothing to queue otherwise
            self._flush(state)

    @BOOK.encodes("7.10.3", "7.10.6", "7.10.8", "8.20.2a", "8.20.2b", "8.20.2c", what="collecting puts the Map Piece in the Play Area, outside the queue")
    def _do_collect(self, state: NeopetsState, ev: E.Collect) -> None:
        card = self._take_from_inventory(state, ev.by or "", ev.card)
        state.sides[ev.by or ""].play_area.add(card)
        if card.defn is not None and card.defn.type == "Location":  # a Location collected anyway (--keep-going)
            state.play_changed()
        else:  # a Map Piece has no abilities that work in play (board.arrangement): only the change count moves
            state.changed()

    @BOOK.encodes("8.15.2.p3", "8.15.3", "8.20.11a", "8.20.11b", what="activating: pay the cost before the semicolon, queue the effect")
    def _do_activate(self, state: NeopetsState, ev: E.Activate) -> None:
        player = ev.by or ""
        source = X.activated_source(state, player, ev.card)
        assert isinstance(source, CardObj)
        ability = [a for a in B.abilities(state, source.name or "", A.Activated) if not a.alternative][ev.ability]
        state.flags.activated.add((source.uid, ev.ability))
        targets = tuple(X.find_target(state, player, sel, ref) for sel, ref in zip(X.target_selectors((ability,)), ev.targets, strict=False))
        item = QueueItem("activated", player, source, ability.effect, targets)
        self._pay_then_queue(state, player, item, ability.cost)

    # ------------------------------------------------------------------ dice

    @BOOK.encodes("5.5.4b.p2", "5.5.4c.p2", "5.5.4d", "5.5.5b.p2", "5.5.5c.p1", "5.5.5c.p2", "5.5.5d", "5.5.5b.p1",
                  what="battle dice are rolled outside the queue; the roller then gets priority")
    def _do_roll(self, state: NeopetsState, ev: E.Roll) -> None:
        player = ev.by or ""
        state.sides[player].dice = list(ev.dice)
        state.flags.rolled = True
        self._open_window(state, "close", holder=player)
        state.flags.roll_window = state.window_number
        self._fire(state, "rolled", player, None)
        if state.waiting:  # _flush has nothing to queue otherwise
            self._flush(state)

    @BOOK.encodes("5.5.6b.p1", "5.5.6c.p2", "5.5.6d.p1", "5.5.6d.p2", "5.5.6e", what="the agility reroll replaces the chosen dice")
    def _do_reroll(self, state: NeopetsState, ev: E.Reroll) -> None:
        self._replace_dice(state, ev)
        state.flags.rerolled = True
        self._open_window(state, "close", holder=ev.by or "")
        state.flags.roll_window = state.window_number

    def _replace_dice(self, state: NeopetsState, ev: E.Reroll) -> None:
        dice = state.sides[ev.by or ""].dice
        for index, face in zip(ev.which, ev.dice, strict=False):
            if 0 <= index < len(dice):
                dice[index] = face

    # ------------------------------------------------------------------ claims
    # A claim changes nothing once its precondition holds; only a damage claim records
    # which damage it matched, so the next claim cannot match it again.

    def _do_damage(self, state: NeopetsState, ev: E.Damage) -> None:
        index = X.unclaimed_damage(state, ev.to)
        if index is not None:
            state.damage_claimed = index + 1

    # ================================================================== feeding a paused effect

    def _feed(self, state: NeopetsState, ev: Any, kind: str) -> list[Ruling]:
        res = state.resolution
        assert res is not None and res.need is not None
        need = res.need
        if kind == need.kind and ev.by == need.player and need.kind != "may":
            violation = self._feed_violation(state, need, ev)
            if violation is not None:
                return [Ruling(need.rule, violation)]
            rulings = self._take_fed(state, need, ev) or []
            need.started = True
            need.count -= len(ev.which) if kind == "reroll" else 1
            if kind in ("roll", "reroll") or need.count <= 0:
                res.need = None
                self._continue(state)
            return rulings
        if need.optional:
            res.need = None
            if need.kind == "may" and not (kind == "decline" and ev.by == need.player):
                res.push(need.detail)
            if kind == "decline" and ev.by == need.player:
                self._continue(state)
                return []
            self._continue(state)
            return self.apply(state, ev, kind, again=True)
        if kind in ("play", "activate") and self._at_sentence_break(res):
            return self._add_mid_effect(state, ev, kind)
        return [Ruling(need.rule, Violation(f"the effect being resolved needs {need.describe()}", need.describe(), f"{kind} by {ev.by}"))]

    def _fits(self, state: NeopetsState, event: Any, kind: str) -> bool:
        """Whether the choice waited for can take ``event`` of its kind: not when it is its
        player's but not of the shape it asks (another player's event lets it go, :meth:`_feed`)."""
        res = state.resolution
        assert res is not None and res.need is not None
        return bool(event.by != res.need.player or self._feed_violation(state, res.need, event) is None)

    def _pass_over(self, state: NeopetsState) -> bool:
        """The player an optional choice waits for passes (:meth:`_feed` lets it go, a "may"
        taken up as any event other than a decline takes it): whether that pass was legal."""
        res = state.resolution
        assert res is not None and res.need is not None
        rulings = self._feed(state, E.Pass(state.seq or 0, res.need.player), "pass")
        return not any(r.violation.severity != "info" for r in rulings)

    @staticmethod
    def _at_sentence_break(res: Resolution) -> bool:
        """Whether the paused effect stands between two of its sentences (8.12.1.p1).

        It does when the step waiting for the log is the first of the second or a later
        sentence of the effect (a top-level step, or the first step of the body of a
        top-level ``if``/``you may``, whose test needs no event) and nothing of it has
        been done yet. A cost being paid is not an effect.
        """
        need = res.need
        return (res.item is not None and need is not None and not need.started and bool(res.frames)
                and res.frames[0].pc >= 2 and all(frame.pc == 1 for frame in res.frames[1:]))

    @BOOK.encodes("8.12.1.p1", what="at a sentence break of a resolving effect, a card or ability may be added to the queue")
    def _add_mid_effect(self, state: NeopetsState, ev: Any, kind: str) -> list[Ruling]:
        """Queue a card or ability between two sentences of the effect being resolved.

        The move is judged as in a priority window of the current phase (every other
        precondition applies), the effect stays paused where it was, and the addition
        waits in the queue until the effect is done (8.12.1.p2).
        """
        res = state.resolution
        assert res is not None
        holder = state.priority.holder
        state.resolution = None
        state.suspended.append(res)
        state.priority.holder = ev.by  # either player may add at a break (docs/neopets-decisions.rst)
        hit = BOOK.actions[kind].first_violation(state, ev)
        if hit is not None:
            state.priority.holder = holder
            state.resolution = state.suspended.pop()
            check, violation = hit
            return [Ruling(check.rule, violation, check.name)]
        perform = getattr(self, f"_do_{kind}")
        rulings: list[Ruling] = perform(state, ev) or []
        if state.resolution is None and state.suspended and state.pending_item is None:
            state.resolution = state.suspended.pop()
        return rulings

    def _reveal_unnamed(self, state: NeopetsState, need: interpreter.Need) -> None:
        """A reveal the log records without the card's name: only its kind is known (9.11.3).

        A known card of the Inventory of that kind may be the one shown; otherwise a hidden
        card was, and the deck must be able to hold it there (a mark for z3, decision 20).
        """
        side = state.sides[need.player]
        if any(B.selector_accepts(c.defn, need.detail) for c in side.inventory):
            return
        names = sorted(d.name for d in state.cards if B.selector_accepts(d, need.detail))
        side.knowledge.dated(state.seq).mark(names, f"revealed {_kind(need.detail)} from a hidden card of the Inventory, without its name")
        state.marked = True

    def _feed_violation(self, state: NeopetsState, need: interpreter.Need, ev: Any) -> Violation | None:
        side = state.sides[need.player]
        if need.kind == "reveal" and not ev.card:
            known = any(B.selector_accepts(c.defn, need.detail) for c in side.inventory)
            if not known and side.inventory.unknown() is None:
                return Violation(f"no card of the kind asked for is in {need.player}'s Inventory", need.detail.describe(), "a reveal")
            return None
        if need.kind == "roll":
            if len(ev.dice) != need.count:
                return Violation("dice rolled for an effect", f"{need.count} {need.detail}", f"{len(ev.dice)} dice")
            return X._dice_faces(ev.dice)
        if need.kind == "reroll":
            return X.reroll_shape(state, ev, need.count)
        if need.kind in ("discard", "reveal", "attach") and ev.card is not None:
            problem = X.in_inventory(state, need.player, ev.card)
            if problem is None and need.detail is not None and not B.selector_accepts(state.cards.get(ev.card), need.detail):
                return Violation(f"{ev.card} is not what the effect asks for", need.detail.describe(), ev.card)
            if problem is None and need.kind == "attach" and (state.cards.get(ev.card) is None or state.cards[ev.card].type != "Codestone"):
                return Violation(f"{ev.card} is not a Codestone", "a Codestone", ev.card)
            return problem
        if need.kind == "search" and ev.card is not None:
            if not B.selector_accepts(state.cards.get(ev.card), need.detail):
                return Violation(f"{ev.card} does not match the search", str(need.detail.name_contains or need.detail.type), ev.card)
            if not side.knowledge.can_reveal(ev.card):
                return Violation(f"{ev.card}: more copies than the registered deck holds", "a card the deck can hold", ev.card, "inconsistent")
        if need.kind == "select":
            neopet = side.neopet
            if neopet is None or all(c.name != ev.card for c in neopet.codestones):
                return Violation(f"{ev.card} is not attached to {need.player}'s Neopet", "an attached Codestone", ev.card)
        if need.kind == "scrap" and ev.card is not None and not side.knowledge.can_reveal(ev.card):
            return Violation(f"{ev.card}: more copies than the registered deck holds", "a card the deck can hold", ev.card, "inconsistent")
        return None

    @BOOK.encodes("8.20.3a", "8.20.3b", "8.20.8a", "8.20.8b", "8.20.9a", "8.20.9b", "8.20.9c.p1", "8.20.9c.p2", "8.20.9d",
                  "8.20.14a", "8.20.14c", "8.20.7a", "9.2.1", "9.4.1", "7.7.4.p2", "7.7.4.p3",
                  what="keyword actions that the log completes: discard, scrap, search, reveal, rolls")
    def _take_fed(self, state: NeopetsState, need: interpreter.Need, ev: Any) -> list[Ruling]:
        side = state.sides[need.player]
        res = state.resolution
        assert res is not None
        kind = need.kind
        if kind == "draw":
            return self._draw(state, need.player, ev.card)
        if kind == "discard":
            card = self._take_from_inventory(state, need.player, ev.card) if ev.card else side.inventory.cards.pop()
            side.discard.add(card)
            self._fire(state, "discarded", need.player, card)
        elif kind == "scrap":
            side.deck.hidden = max(0, side.deck.hidden - 1)
            if ev.card is not None:
                side.knowledge.dated(state.seq).reveal(ev.card, f"scrapped {ev.card}")
            side.discard.add(state.new_card(ev.card, need.player, state.cards.get(ev.card) if ev.card else None))
        elif kind == "search":
            if ev.card is not None:
                side.deck.hidden = max(0, side.deck.hidden - 1)
                side.knowledge.dated(state.seq).reveal(ev.card, f"searched the Main Deck and took {ev.card}")
                side.inventory.add(state.new_card(ev.card, need.player, state.cards[ev.card]))
        elif kind == "reveal" and not ev.card:
            self._reveal_unnamed(state, need)
        elif kind == "reveal":
            if side.inventory.find(ev.card) is None:
                hidden = side.inventory.unknown()
                if hidden is not None:
                    side.knowledge.dated(state.seq).reveal(ev.card, f"revealed {ev.card} from a hidden card of the Inventory", "hidden")
                    hidden.name, hidden.defn = ev.card, state.cards.get(ev.card)
        elif kind == "roll":
            faces = list(ev.dice)
            if need.detail == "d3":
                faces = [(f + 1) // 2 for f in faces]  # 9.4.1: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3
            res.vars["result"] = sum(faces)
        elif kind == "reroll":
            self._replace_dice(state, ev)
        elif kind == "select":
            neopet = side.neopet
            assert neopet is not None
            stone = next(c for c in neopet.codestones if c.name == ev.card)
            neopet.codestones.remove(stone)
            side.discard.add(stone)
        elif kind == "attach":
            card = self._take_from_inventory(state, need.player, ev.card)
            if side.neopet is not None:
                side.neopet.codestones.append(card)
        return []

    # ================================================================== the flow of the turn

    def _can_advance(self, state: NeopetsState) -> bool:
        """Whether both players passing now would move the game on (implicit passes)."""
        if state.stage != "turn" or state.resolution is not None or state.pending_item is not None:
            return False
        if state.queue.items:
            return True
        if state.window == "act":
            if state.node == "draw" and not state.flags.drew and len(state.sides[state.active].deck) > 0:
                return False
            if state.node in ("attack", "defence") and not state.flags.rolled:
                return False
        return True

    @BOOK.encodes("5.2.4a", "5.3.4a", "5.4.4a", "5.5.4e", "5.5.5a", "5.5.5e", "5.5.6a", "5.5.6f", "5.5.4a",
                  "5.1.2.p3", "5.2.1b.p3", "5.3.1b.p3", "5.4.1b.p3", "5.5.2.p3", "8.20.15a",
                  what="both players passing resolves the next item, or closes the window when the queue is empty")
    def _advance(self, state: NeopetsState) -> None:
        """What both players passing in succession does."""
        if state.queue.items:
            self._resolve_next(state)
            return
        node = state.node
        following = NEXT_WINDOW[node].get(state.window)  # none after the node's last window
        if following is not None:  # _open_window, spelt out (half of all passes come here)
            state.window = following
            state.window_number += 1
            priority = state.priority
            priority.holder = state.active
            priority.passes = 0
            if node in ("attack", "defence"):
                state.flags.rolled = False
            return
        self._leave(state, node)

    def _leave(self, state: NeopetsState, node: str) -> None:
        """The node's last window closed with the queue empty: on to the next node of the turn
        (after the damage step's dice combat), or, after the End Phase, the next turn."""
        if node == "damage":
            self._damage_calculation(state)
            if state.stage != "turn":
                return
        if node == "end":
            self._end_turn(state)
            return
        self._enter(state, TURN.successor[node])  # TURN.next

    def _open_window(self, state: NeopetsState, window: str, holder: str | None = None) -> None:
        state.window = window
        state.window_number += 1
        priority = state.priority  # Priority.reset, spelt out (every window that opens)
        priority.holder = holder or state.active
        priority.passes = 0

    def _enter(self, state: NeopetsState, node: str) -> None:
        """Enter a node of the turn, as its :data:`ENTRY` says: its first window opens, the
        effects lasting "this phase" end when a phase ends with it, the node's own business
        (exhaustion, a Battle Phase skipped, who holds priority first in a battle step), then
        its triggers fire and priority is given."""
        entry = ENTRY[node]
        previous = state.node
        state.node = node
        state.window = entry.window
        state.window_number += 1
        if state.lasting and entry.ends_phase and (entry.after is None or previous == entry.after):
            self._expire(state, "this_phase")
        holder = state.active
        if entry.own:
            if node == "draw":
                self._exhaustion(state)
                if state.stage != "turn":
                    return
            elif node == "attack":
                if self._skips_battle(state):
                    self._enter(state, "end")
                    return
            elif node == "defence":
                holder = state.nonactive
                state.flags.rolled = False
            elif node == "agility":
                faster, _diff = X.agility_edge(state)
                if faster is None:
                    state.window = "close"
                else:
                    holder = faster
        if (trigger := entry.trigger) is not None:
            board: B._Board | None = state.board_cache  # type: ignore[assignment]  # nothing waits for the trigger on this board: nothing fires (usual)
            if board is None or board.triggers is None or trigger in board.triggers \
                    or board.version != state.play_version or board.active != state.active:  # not B.stands, spelt out
                self._fire(state, trigger, state.active, None, phase=entry.phase)
        priority = state.priority  # Priority.reset, spelt out (every node entered)
        priority.holder = holder
        priority.passes = 0
        if state.waiting:
            self._flush(state)

    @BOOK.encodes("5.5.1.p1", "5.5.1.p2", "5.5.12.p5", "8.20.4b.p2", what="the first player's first turn, and a frozen Neopet, have no attack")
    def _skips_battle(self, state: NeopetsState) -> bool:
        if state.turn == 1:
            return True
        neopet = state.sides[state.active].neopet
        if neopet is not None and neopet.frozen_for_turn == state.turn:
            return True
        return B.prohibited(state, state.active, "attack")

    @BOOK.encodes("5.1.1.p1", "5.1.1.p2", "5.1.2.p1", what="a turn begins: lasting effects end, start-of-turn triggers queue")
    def _start_turn(self, state: NeopetsState) -> None:
        state.turn += 1
        state.flags = type(state.flags)()
        for side in state.sides.values():
            side.dice = []
        if state.lasting:
            state.lasting = [x for x in state.lasting if not (x.until == "your_next_turn" and x.controller == state.active)]
            state.changed()
        state.node = "beginning"
        state.window = "close"
        state.window_number += 1
        state.priority.reset(state.active)
        self._fire(state, "turn_begins", state.active, None)
        if state.waiting:  # _flush has nothing to queue otherwise
            self._flush(state)

    @BOOK.encodes("5.5.8b", "5.5.8a.p1", what="at the end of the turn, until-end-of-turn effects expire and the other player's turn begins")
    def _end_turn(self, state: NeopetsState) -> None:
        if state.lasting:
            self._expire(state, "end_of_turn")
        if state.lasting:
            state.lasting = [x for x in state.lasting if not (x.until == "next_battle_phase" and x.affects == state.active and x.turn < state.turn)]
            state.changed()
        state.active = state.nonactive
        state.changed()
        self._start_turn(state)

    def _expire(self, state: NeopetsState, until: str) -> None:
        """The lasting effects that last until ``until`` end; the change count moves only
        when one did (a phase beginning usually ends none)."""
        if state.lasting:
            kept = [x for x in state.lasting if x.until != until]
            if len(kept) < len(state.lasting):
                state.lasting = kept
                state.changed()

    @BOOK.encodes("9.3.1.p2", "9.3.2", what="an exhausted player's Neopet takes one damage as their Draw Phase begins")
    def _exhaustion(self, state: NeopetsState) -> None:
        if len(state.sides[state.active].deck) == 0:
            self.deal_damage(state, state.active, 1, cite("9.3.2"))

    @BOOK.encodes("5.5.7a.p1", "5.5.7a.p2", "5.5.7a.p3", "5.5.7b.p1", "5.5.7b.p2", "5.5.7b.p3", "5.5.7b.p4", "5.5.7b.p5",
                  "5.5.7c.p1", "5.5.7c.p2", what="dice combat: 4-5 hits are blocked one for one by 4-6 blocks, 6s are critical")
    def _damage_calculation(self, state: NeopetsState) -> None:
        defender = state.nonactive
        attack = state.sides[state.active].dice
        criticals = attack.count(6)
        hits = attack.count(4) + attack.count(5)
        blocks = len([d for d in state.sides[defender].dice if d >= 4])
        damage = criticals + max(0, hits - blocks)
        self.deal_damage(state, defender, damage, _DICE_DAMAGE)

    @BOOK.encodes("5.5.7d.p1", "5.5.7e", "3.p2", "5.5.7f.p1", "5.5.7f.p3", what="damage stays on the Neopet; reaching its Hit Points knocks it out")
    def deal_damage(self, state: NeopetsState, player: str, amount: int, rule: str) -> None:
        """Deal damage to a player's active Neopet, knocking it out at its Hit Points."""
        neopet = state.sides[player].neopet
        if neopet is None:
            return
        neopet.damage += amount
        state.damage_log.append((player, amount))
        state.unmarked = True
        state.changed()
        if neopet.damage >= B.stat(state, player, "Hit Points"):
            self.end_round(state, loser=player, face_down=True)
            return
        if amount > 0:
            self._fire(state, "dealt_damage", player, None)

    @BOOK.encodes("3.p1", "3.p3", "3.p4", "5.5.9a.p1", "5.5.9a.p2", "5.5.9b", "5.5.9c.p1", "5.5.9c.p2", "5.5.10.p1",
                  "5.5.10.p2", "5.5.10.p3", "5.5.10.p4", "5.5.10.p5", "5.5.10.p6", "7.9.8", "7.10.9.p1", "8.10.5",
                  "9.5.1.p2", "7.3.5.p1", "7.3.5.p2", "7.6.7", "5.5.11a", "5.5.11b", "5.5.11c", "5.5.11d",
                  what="a round ends: winner counted, queue emptied, cleanup, End of Round effects")
    def end_round(self, state: NeopetsState, loser: str, face_down: bool) -> None:
        """A knock-out or an abandon ends the round at once."""
        if state.stage != "turn":
            return
        winner = state.other(loser)
        state.last_knockout = loser
        state.sides[winner].rounds_won += 1
        state.round_winners.append(winner)
        state.unmarked = True
        for item in state.queue.clear():
            if item.kind == "card":
                self.put_away(state, item.source)
        if state.pending_item is not None and state.pending_item.kind == "card":
            self.put_away(state, state.pending_item.source)
        state.resolution = None
        state.pending_item = None
        state.waiting.clear()
        if state.sides[winner].rounds_won >= 2:
            state.winner = winner
            state.stage = "over"
            return
        for player in state.players:
            side = state.sides[player]
            if side.neopet is not None:
                side.round_results.append((side.neopet.card.name or "", player == winner))
                for stone in side.neopet.codestones:
                    self._owner_side(state, stone).discard.add(stone)
                side.neopet = None
            for card in side.equipment:
                self._owner_side(state, card).discard.add(card)
            for card in side.faerie:
                self._owner_side(state, card).void.add(card)
            side.equipment, side.faerie = [], []
            keep = [c for c in side.play_area.cards if c.defn is not None and c.defn.type in ("Location", "Map Piece")]
            for card in side.play_area.cards:
                if card not in keep:
                    self._owner_side(state, card).discard.add(card)
            side.play_area.cards = keep
            state.play_changed()
            side.dice = []
        state.lasting.clear()
        state.changed()
        ordered = [d for d in state.delayed if d.when == "end_of_round" and d.controller == winner]
        ordered += [d for d in state.delayed if d.when == "end_of_round" and d.controller == loser]
        state.delayed = [d for d in state.delayed if d.when != "end_of_round"]
        state.round_effects = ordered
        state.stage = "round_end"
        self._run_round_effects(state)

    def _run_round_effects(self, state: NeopetsState) -> None:
        while state.round_effects and state.resolution is None:
            delayed = state.round_effects.pop(0)
            state.resolution = Resolution(delayed.controller, delayed.source, [interpreter.Frame(delayed.effect)])
            self._continue(state)
        if not state.round_effects and state.resolution is None and state.stage == "round_end":
            state.stage = "new_round"

    def _owner_side(self, state: NeopetsState, card: CardObj) -> Side:
        return state.sides[card.owner]

    def next_battle_turn(self, state: NeopetsState, player: str) -> int:
        """The turn number of ``player``'s next Battle Phase (8.20.4b.p1)."""
        if player == state.active:
            before_battle = state.node in ("beginning", "draw", "train", "preparation")
            return state.turn if before_battle else state.turn + 2
        return state.turn + 1

    # ================================================================== the queue and effects

    @BOOK.encodes("8.20.15c.p1", "8.20.15c.p2", "7.3.4", "7.4.4.p2", "7.5.4", "7.6.4.p1", "7.6.4.p2", "7.7.5",
                  "7.8.6.p1", "7.8.6.p2", "7.9.5.p1", "7.9.5.p2", "7.10.9.p2", "8.20.13b", "8.20.13c",
                  what="a resolving card goes to the Battledome, the Play Area, the Discard or the Void by its type")
    def _resolve_next(self, state: NeopetsState) -> None:
        item = state.queue.next()
        state.last_resolved = item.name
        state.priority.reset(state.active)
        if item.targets and all(not self._still_legal(state, t) for t in item.targets):
            if item.kind == "card":
                self.put_away(state, item.source)
            return
        state.resolution = Resolution(item.controller, item.source, [interpreter.Frame(item.effect)], item,
                                      vars=dict(item.context))
        self._continue(state)

    def _still_legal(self, state: NeopetsState, target: object) -> bool:
        if target is None:
            return False
        if isinstance(target, QueueItem):
            return target in state.queue.items
        if isinstance(target, ActiveNeopet):
            return any(s.neopet is target for s in state.sides.values())
        return any(target in s.equipment or target in s.faerie or target in s.play_area.cards for s in state.sides.values())

    def _continue(self, state: NeopetsState) -> None:
        """Run the paused resolution on; finish it when its steps are done."""
        res = state.resolution
        if res is None:
            return
        try:
            done = interpreter.run(self.effects, state, res)
        except (B.Unmodelled, UnsupportedStep) as error:
            state.resolution = None
            state.pending_item = None
            source = getattr(res.source, "name", None)
            if source is not None and source not in str(error):
                raise B.Unmodelled(f"{source}: {error}") from None
            raise
        if not done or state.resolution is not res:
            return
        state.resolution = None
        if state.pending_item is not None and res.item is None and res.source is state.pending_item.source:
            item, state.pending_item = state.pending_item, None
            item.context.update(res.vars)  # 7.7.4.p2: results of dice paid as a cost are known to the effect
            self._queue(state, item)
            if state.suspended and state.resolution is None:
                state.resolution = state.suspended.pop()  # 8.12.1.p2: back to the effect that was paused
            return
        if res.item is not None and res.item.kind == "card":
            self._settle_card(state, res)
        if state.waiting:  # _flush has nothing to queue otherwise
            self._flush(state)
        if state.stage == "round_end":
            self._run_round_effects(state)

    def _settle_card(self, state: NeopetsState, res: Resolution) -> None:
        card: CardObj = res.source
        side = state.sides[res.controller]
        kind = card.defn.type if card.defn is not None else ""
        stays = kind in B.FAERIE_TYPES or kind in ("Equipment", "Location") or res.vars.get("stay") == "Play Area"
        state.enter_play(card, placed=stays)  # a card put away leaves what is in play as it was
        if kind in B.FAERIE_TYPES:
            side.faerie.append(card)
        elif kind == "Equipment":
            side.equipment.append(card)
        elif kind == "Location":
            for piece in [c for c in side.play_area.cards if c.defn is not None and c.defn.type == "Map Piece"]:
                side.play_area.remove(piece)
                state.play_changed()
                side.discard.add(piece)
            side.play_area.add(card)
        elif res.vars.get("stay") == "Play Area":
            side.play_area.add(card)
        else:
            self.put_away(state, card)

    def put_away(self, state: NeopetsState, card: CardObj) -> None:
        """A card leaving play or the queue goes to its owner's Discard, or Void for Food and Faeries."""
        side = state.sides[card.owner]
        kind = card.defn.type if card.defn is not None else ""
        (side.void if kind == "Food" or kind in B.FAERIE_TYPES else side.discard).add(card)

    def remove_from_play(self, state: NeopetsState, card: CardObj, to: str) -> None:
        state.play_changed()
        for side in state.sides.values():
            for zone in (side.equipment, side.faerie, side.play_area.cards):
                if card in zone:
                    zone.remove(card)
        owner = state.sides[card.owner]
        if card.defn is not None and card.defn.type in B.FAERIE_TYPES:
            owner.void.add(card)  # 7.3.5.p1: not a replacement
        else:
            (owner.void if to == "Void" else owner.discard).add(card)

    def transform(self, state: NeopetsState, player: str, brush: str | None, named: str | None) -> None:
        side = state.sides[player]
        target = X.brush_target(state, player, brush or "", named) if brush else named
        if side.neopet is None or target is None:
            return
        old = side.neopet.card
        if side.rainbow_pool is not None:
            if target in side.rainbow_pool:
                side.rainbow_pool.remove(target)
            side.rainbow_pool.append(old.name or "")
        side.neopet.card = state.new_card(target, player, state.cards[target])
        state.enter_play(side.neopet.card)
        side.neopet.painted_with = brush

    # ------------------------------------------------------------------ triggers

    @BOOK.encodes("8.16.1", "8.16.2", "8.16.3", "5.2.1b.p1", "5.3.1b.p1", "5.4.1b.p1", "5.5.2.p1",
                  what="triggered abilities wait until the effect that caused them finishes, then join the queue")
    def _fire(self, state: NeopetsState, event: str, actor: str, card: CardObj | None, phase: str | None = None) -> None:
        board: B._Board | None = state.board_cache  # type: ignore[assignment]  # B.triggered_on's look-up, spelt out while the board stands (usually nothing fires)
        if board is not None and board.triggers is not None and board.version == state.play_version \
                and board.active == state.active:  # B.stands, spelt out
            found = board.triggers.get(event, ())
        else:
            found = B.triggered_on(state, event)
        for controller, source, ability in found:
            if self._matches(state, controller, ability.trigger, event, actor, card, phase):
                state.waiting.append(QueueItem("triggered", controller, source, ability.effect))

    def _matches(self, state: NeopetsState, controller: str, trig: A.Trigger, event: str, actor: str,
                 card: CardObj | None, phase: str | None) -> bool:
        if trig.event != event or (trig.phase is not None and trig.phase != phase):
            return False
        if event == "dealt_damage":
            subject = trig.subject or A.Selector("the", "Neopet")
            return actor in B.neopet_owner(state, controller, subject)
        if trig.who is not None and actor not in B.who(state, controller, trig.who):
            return False
        if trig.subject is not None and card is not None:
            return B.selector_accepts(card.defn, trig.subject)
        return True

    def _flush(self, state: NeopetsState) -> None:
        if state.resolution is not None or state.suspended or not state.waiting:
            return
        ordered = [i for i in state.waiting if i.controller == state.active] + [i for i in state.waiting if i.controller != state.active]
        state.waiting.clear()
        for item in ordered:
            state.queue.add(item)

    # ================================================================== simulation hooks

    def unsupported(self, cards: Any, name: str) -> str | None:
        """Which step or condition of a card's text the spec cannot run whatever the state
        (:func:`~spec.neopets.effects.step_gap`, :func:`~spec.neopets.board.condition_gap`), or
        ``None``: lint notes such a card, and a replay playing it is unverifiable there."""
        tree = cards.tree(name)
        if isinstance(tree, Exception):
            return f"its text does not parse: {tree}"
        if A.unknown_parts(tree):
            return "parts of its text are not covered by the grammar"
        for ability in tree.abilities:
            passive = isinstance(ability, A.Passive)
            nodes = list(A.nodes(ability))
            rolls = any(isinstance(node, A.Roll) for node in nodes)  # in its cost or its effect
            tested = {id(node.condition) for node in nodes if isinstance(node, A.If)}  # as the effect resolves
            for node in nodes:
                if isinstance(node, A.Condition):  # a roll's result is there to read only in an effect that rolls
                    gap = B.condition_gap(node, after_roll=rolls and id(node) in tested)
                elif isinstance(node, A.Negate) and passive:
                    gap = None  # a passive negation is read as one (8.20.6b)
                else:
                    gap = step_gap(node)
                if gap is not None:
                    return gap
        return None

    def random_deck(self, cards: Any, rng: random.Random) -> dict[str, Any]:
        """A random registered decklist within the construction rules (1.1-1.5, 7.1.3)."""
        main: dict[str, int] = {}
        others = [c for c in cards if c.type not in ("Neopet", "Rainbow Pool Neopet", "Codestone") and "Rainbow Pool." not in c.text]
        rng.shuffle(others)
        for card in others[: rng.randint(12, 18)]:
            limit = 1 if card.type in ("Faerie", "Hero", "Villain", "Map Piece") else 2
            main[card.name] = rng.randint(1, limit)
        stones = [c.name for c in cards if c.type == "Codestone"]
        if not stones and sum(main.values()) < 50:
            raise DeckError(f"no Codestone to fill the Main Deck up to 50 cards ({cite('1.1.p1')}): only {sum(main.values())} other cards")
        while sum(main.values()) < 50:
            name = rng.choice(stones)
            main[name] = main.get(name, 0) + 1
        species: dict[str, list[str]] = {}  # the Neopets of each species, in the database's order
        for card in cards:
            if card.type == "Neopet":
                species.setdefault(card.species or card.name, []).append(card.name)
        if len(species) < 3:
            raise DeckError(f"three Neopets of different species are needed ({cite('1.4.p1')}), and the cards hold {len(species)}")
        # (a species of one Neopet draws nothing more: decks from such card sets stay as they were)
        neopets = [names[0] if len(names) == 1 else rng.choice(names) for names in rng.sample(sorted(species.values()), 3)]
        pool = sorted(c.name for c in cards if c.type == "Rainbow Pool Neopet" or (c.type == "Location" and "Rainbow Pool." in c.text))
        return {"main": dict(sorted(main.items())), "neopets": neopets, "rainbow_pool": pool}

    def choice_key(self, event: Event) -> Any:
        """Chance outcomes are left out: legal_moves samples dice faces and drawn cards.

        What they may be is the checker's business (faces 1-6, the registered deck);
        here a roll is identified by its player and number of dice, a reroll, a draw and
        a scrap by their player.
        """
        kind = event.__struct_config__.tag
        if kind == "roll":
            return ("roll", event.by, len(event.dice))  # type: ignore[attr-defined]
        if kind in ("reroll", "draw", "scrap"):
            return (kind, event.by)
        return super().choice_key(event)

    def facts(self, state: NeopetsState) -> tuple[int, int, str | None]:
        return len(state.damage_log), len(state.round_winners), state.winner

    def claims_since(self, state: NeopetsState, before: tuple[int, int, str | None]) -> list[dict[str, Any]]:
        """Damage, knock-out, round and game claims for what was derived since ``before``."""
        out: list[dict[str, Any]] = []
        damage_seen, rounds_seen, winner = before
        for player, amount in state.damage_log[damage_seen:]:
            if amount:
                out.append({"do": "damage", "to": player, "amount": amount})
        for round_winner in state.round_winners[rounds_seen:]:
            out.append({"do": "knockout", "player": state.other(round_winner)})
            out.append({"do": "round", "winner": round_winner})
        if state.winner is not None and winner is None:
            out.append({"do": "game", "winner": state.winner})
        return out

    # ================================================================== end of log, views, copies

    def finish(self, state: NeopetsState) -> list[Ruling]:
        """At the end of a log with inferred passes, the players pass until an event is needed."""
        rulings: list[Ruling] = []
        if not state.explicit_passes:
            try:
                while self._can_advance(state) and state.stage == "turn" and state.node != "draw":
                    self._advance(state)
            except (B.Unmodelled, UnsupportedStep) as error:
                rulings.append(Ruling(None, Violation(str(error), severity="unverifiable")))
        if state.resolution is not None and state.resolution.need is not None:
            need = state.resolution.need
            if not need.optional:
                rulings.append(Ruling(need.rule, Violation("the log ends while an effect still needs events",
                                                           need.describe(), "end of log", "info")))
        return rulings

    def view(self, state: NeopetsState) -> dict[str, Any]:
        sides = {}
        for player in state.players:
            side = state.sides[player]
            neopet = side.neopet
            sides[player] = {
                "neopet": None if neopet is None else neopet.card.name,
                "damage": None if neopet is None else neopet.damage,
                "stats": None if neopet is None else self._stats_view(state, player),
                "codestones": [] if neopet is None else [c.name for c in neopet.codestones],
                "inventory": len(side.inventory), "deck": len(side.deck),
                "faerie": [c.name for c in side.faerie], "equipment": [c.name for c in side.equipment],
                "play_area": side.play_area.names(), "rounds_won": side.rounds_won,
                "dice": list(side.dice),
            }
        return {"stage": state.stage, "round": state.round, "turn": state.turn, "active": state.active,
                "phase": state.node, "window": state.window, "queue": [i.name for i in state.queue.items],
                "players": sides}

    @staticmethod
    def _stats_view(state: NeopetsState, player: str) -> dict[str, int | None]:
        """The stats of a player's Active Neopet; ``None`` for one a passive ability in force
        makes unknown (its condition is one the spec cannot test): a view never fails."""
        stats: dict[str, int | None] = {}
        for name in ("Attack", "Defence", "Agility", "Hit Points"):
            try:
                stats[name] = B.stat(state, player, name)
            except B.Unmodelled:
                stats[name] = None
        return stats

    def resources(self, state: NeopetsState) -> dict[str, dict[str, int]]:
        """Per player: damage on the Active Neopet, Inventory and Main Deck sizes, Codestones, rounds won."""
        out: dict[str, dict[str, int]] = {}
        for player in state.players:
            side = state.sides[player]
            neopet = side.neopet
            out[player] = {
                "damage": 0 if neopet is None else neopet.damage,
                "inventory": len(side.inventory),
                "deck": len(side.deck),
                "codestones": 0 if neopet is None else len(neopet.codestones),
                "rounds won": side.rounds_won,
            }
        return out

    def copy(self, state: NeopetsState) -> NeopetsState:
        return state.copy()

    # ================================================================== legal moves

    def legal_moves(self, state: NeopetsState, rng: random.Random | None = None) -> list[Event]:
        """Every move the rules allow now; chance events are sampled (with ``rng``) or represented."""
        candidates = self._candidates(state, rng or random.Random(0))
        # with logged passes and no effect waiting for a choice, a move breaking one of its
        # preconditions is refused before anything else happens: read-only checks on the
        # state itself decide it, without a copy (claims are not candidates)
        screen = state.explicit_passes and (state.resolution is None or state.resolution.need is None)
        legal = []
        for move in candidates:
            if screen:
                action = BOOK.actions.get(str(move.__struct_config__.tag))
                hit = action.first_violation(state, move) if action is not None else None
                if hit is not None and hit[1].severity in REFUSED:
                    continue
            trial = state.copy()
            rulings = self.apply(trial, move)
            if not any(r.violation.severity in REFUSED for r in rulings):
                legal.append(move)
        return legal

    def _candidates(self, state: NeopetsState, rng: random.Random) -> list[Event]:
        seq = 0
        out: list[Event] = []
        if state.stage == "over":
            return out
        res = state.resolution
        if res is not None and res.need is not None:
            need = res.need
            out.extend(self._need_candidates(state, need, rng))
            if need.optional:
                out.append(E.Decline(seq, need.player))
                # any other event takes a "may" up, or lets an optional step go, first (see _feed):
                # what the effect asks next, or the window it ends in, offers the rest
                trial = state.copy()
                trial_res = trial.resolution
                assert trial_res is not None
                trial_res.need = None
                if need.kind == "may":
                    trial_res.push(need.detail)
                try:
                    self._continue(trial)
                except (B.Unmodelled, UnsupportedStep):
                    return out
                out.extend(self._candidates(trial, rng))
            return out
        for player in state.players:
            side = state.sides[player]
            out.append(E.Shuffle(seq, player))
            out.extend(E.Draw(seq, player, name) for name in self._drawable(state, player, rng))
            out.append(E.Mulligan(seq, player))
            out.append(E.Defer(seq, player))
            out.append(E.First(seq, None, player))
            names = set(self._inventory_names(state, player))
            names |= {n for n in side.rainbow_pool or [] if n in state.cards and state.cards[n].type not in ("Neopet", "Rainbow Pool Neopet")}
            neopets = side.neopet_deck if side.neopet_deck is not None else [d.name for d in state.cards if d.type == "Neopet"]
            out.extend(E.Choose(seq, player, n) for n in neopets)
            out.append(E.Pass(seq, player))
            for name in sorted(names):
                kind = state.cards[name].type
                if kind == "Codestone":
                    out.append(E.Attach(seq, player, name))
                elif kind == "Map Piece":
                    out.append(E.Collect(seq, player, name))
                else:
                    out.extend(self._play_candidates(state, player, name))
            for source in [c for c in side.faerie + side.equipment + side.play_area.cards] + ([side.neopet.card] if side.neopet else []):
                if source.name is None:
                    continue
                for index, ability in enumerate(a for a in B.abilities(state, source.name, A.Activated) if not a.alternative):
                    for targets in self._target_choices(state, player, (ability,)):
                        out.append(E.Activate(seq, player, source.name, index, targets))
            count = B.stat(state, player, "Attack" if player == state.active else "Defence")
            out.append(E.Roll(seq, player, [rng.randint(1, 6) for _ in range(count)]))
            dice = side.dice
            if dice:
                k = rng.randint(1, len(dice))
                which = sorted(rng.sample(range(len(dice)), k))
                out.append(E.Reroll(seq, player, which, [rng.randint(1, 6) for _ in which]))
                out.append(E.Reroll(seq, player, which[:1], [rng.randint(1, 6)]))
        return out

    def _drawable(self, state: NeopetsState, player: str, rng: random.Random) -> list[str | None]:
        knowledge = state.sides[player].knowledge
        if knowledge.registered is None:
            return [None]
        pool = [n for n, k in knowledge.registered.items() for _ in range(k - knowledge.located[n])]
        return [rng.choice(pool)] if pool else [None]

    def _play_candidates(self, state: NeopetsState, player: str, name: str) -> list[Event]:
        try:
            text = B.text_of(state, name)
        except B.Unmodelled:
            return []
        out: list[Event] = []
        defn = state.cards[name]
        extra: dict[str, Any] = {}
        side = state.sides[player]
        if defn.type == "Equipment" and len(side.equipment) >= 3:
            extra["replace"] = side.equipment[0].name
        if defn.type == "Location":
            current = [c.name for c in side.play_area if c.defn is not None and c.defn.type == "Location"]
            if current:
                extra["replace"] = current[0]
        for targets in self._target_choices(state, player, X.played_abilities(text, False)):
            out.append(E.Play(0, player, name, targets, **extra))
        if any(isinstance(a, A.Activated) and a.alternative for a in text.abilities):
            for targets in self._target_choices(state, player, X.played_abilities(text, True)):
                out.append(E.Play(0, player, name, targets, alternative=True, **extra))
        return out

    def _target_choices(self, state: NeopetsState, player: str, abilities: tuple) -> list[list[E.TargetRef]]:
        selectors = X.target_selectors(abilities)
        if not selectors:
            return [[]]
        options: list[list[E.TargetRef]] = [[]]
        for sel in selectors:
            refs: list[E.TargetRef] = []
            if sel.zone == "queue":
                refs = [E.TargetRef(i.name, i.controller) for i in state.queue.items]
            elif sel.type == "Neopet":
                refs = [E.TargetRef("Neopet", p) for p in state.players]
            else:
                for owner in state.players:
                    s = state.sides[owner]
                    refs += [E.TargetRef(c.name or "", owner) for c in s.faerie + s.equipment + s.play_area.cards if B.selector_accepts(c.defn, sel)]
            options = [o + [r] for o in options for r in refs]
        return options

    def _inventory_names(self, state: NeopetsState, player: str) -> list[str]:
        """The names a card of the Inventory can have (a card the log kept hidden: any main-deck
        card the deck can still give)."""
        side = state.sides[player]
        return side.knowledge.names_in(side.inventory, state.cards, lambda d: d.type in MAIN_DECK_TYPES)

    def _need_candidates(self, state: NeopetsState, need: interpreter.Need, rng: random.Random) -> list[Event]:
        p = need.player
        side = state.sides[p]
        if need.kind == "draw":
            return [E.Draw(0, p, n) for n in self._drawable(state, p, rng)]
        if need.kind in ("discard", "reveal"):
            names = self._inventory_names(state, p)
            if need.kind == "discard":
                return [E.Discard(0, p, n) for n in names] or [E.Discard(0, p, None)]
            return [E.Reveal(0, p, n) for n in names]
        if need.kind == "attach":
            return [E.Attach(0, p, n) for n in self._inventory_names(state, p) if state.cards[n].type == "Codestone"]
        if need.kind == "scrap":
            return [E.Scrap(0, p, n) for n in self._drawable(state, p, rng)]
        if need.kind == "search":
            found = [d.name for d in state.cards if B.selector_accepts(d, need.detail) and side.knowledge.can_reveal(d.name)
                     and (side.knowledge.registered is None or side.knowledge.registered.get(d.name, 0) > 0)]
            return [E.Search(0, p, n) for n in (None, *found)]  # finding nothing is a choice too
        if need.kind == "shuffle":
            return [E.Shuffle(0, p)]
        if need.kind == "roll":
            return [E.Roll(0, p, [rng.randint(1, 6) for _ in range(need.count)])]
        if need.kind == "reroll" and side.dice:
            k = rng.randint(1, min(need.count, len(side.dice)))
            which = sorted(rng.sample(range(len(side.dice)), k))
            return [E.Reroll(0, p, which, [rng.randint(1, 6) for _ in which])]
        if need.kind == "select" and side.neopet is not None:
            return [E.Select(0, p, n) for n in sorted({c.name or "" for c in side.neopet.codestones})]
        return []



def _kind(sel: A.Selector) -> str:
    """``a Faerie``, ``a card with "Omelette" in its name``: what a selector asks for, in words."""
    noun = "card" if sel.type == "card" else sel.type
    words = f"{'an' if noun[:1] in 'AEIOU' else 'a'} {noun}"
    return words + (f' with "{sel.name_contains}" in its name' if sel.name_contains else "")


__all__ = ["Neopets"]


PER_MOVE: Final = ("reroll", "activate")
"""The kinds whose checks share what they work out of the move (:class:`spec.neopets.state.Move`)."""

_PERFORM: Final[dict[str, Any]] = {
    str(event.__struct_config__.tag): getattr(Neopets, f"_do_{event.__struct_config__.tag}")
    for event in E.EVENTS
    if hasattr(Neopets, f"_do_{event.__struct_config__.tag}")
}
"""What each kind of event does once it is judged legal (``Neopets._do_<kind>``)."""


class KindFacts:
    """What :meth:`Neopets.apply` asks of every event of one kind, looked up once per kind."""

    __slots__ = ("action", "actor", "by_type", "card_field", "card_fields", "checks", "claim", "in_turn", "kind", "notes", "passes",
                 "per_move", "perform")

    def __init__(self, actor: bool, card_fields: tuple[str, ...], claim: bool, action: Any, perform: Any) -> None:
        self.kind: str = action.name
        """The kind of event (its tag, the name of its action)."""
        self.actor = actor
        """Whether a player performs it (its ``by`` is required; see :data:`NO_ACTOR`)."""
        self.card_fields = card_fields
        """The fields naming a card (:data:`CARD_FIELDS`), empty when it names none."""
        self.card_field = card_fields[0] if len(card_fields) == 1 else None
        """The one field naming a card, when there is one: a card of the database named there
        leaves :meth:`Neopets._unknown_card` nothing to find (it is not called)."""
        self.claim = claim
        """Whether it is a claim (a derived fact, see :data:`spec.neopets.events.KINDS`)."""
        self.action = action
        """Its preconditions (the book's action of that name)."""
        self.perform = perform
        """What it does once judged legal (:data:`_PERFORM`), or ``None``."""
        self.notes = action.name == "play"
        """Whether a legal move lists the clashes that decided it (:func:`spec.neopets.conflicts.move_notes`: plays)."""
        self.per_move = action.name in PER_MOVE
        """Whether its checks share facts of the move (:class:`spec.neopets.state.Move`)."""
        self.passes = action.name == "pass"
        """Whether it is a pass (done in :meth:`Neopets.apply` itself: see :meth:`Neopets._do_pass`)."""
        self.checks = action.checks_where()
        """Its checks as (test, check) pairs, in order: what is run outside a turn."""
        self.in_turn = X.checks_in_turn(action)
        """Per node and window of a turn, the checks that can fail there (:func:`spec.neopets.actions.checks_in_turn`)."""
        self.by_type = X.checks_in_turn_by_type(action)
        """For plays, the same per type of the card played (:func:`spec.neopets.actions.checks_in_turn_by_type`)."""


_FACTS: Final[dict[str, KindFacts]] = {
    kind: KindFacts(kind not in NO_ACTOR, CARD_FIELDS.get(kind, ()), E.KINDS[kind] == "claim", BOOK.actions[kind], _PERFORM.get(kind))
    for kind in (str(event.__struct_config__.tag) for event in E.EVENTS)
}
"""Per event kind, the facts :meth:`Neopets.apply` reads on every event."""

_PASS_IN_TURN: Final[dict[str, dict[str, X.StagedChecks]]] = _FACTS["pass"].in_turn
"""A pass's checks that can fail, per node and window of a turn (the pass of :meth:`Neopets.apply`)."""

_FACTS_OF: Final[dict[type, KindFacts]] = {event: _FACTS[str(event.__struct_config__.tag)] for event in E.EVENTS}
"""The facts of each event class (its kind's: one look-up per event)."""


class NodeEntry:
    """What entering one node of the turn does, read once from the turn graph
    (:data:`spec.neopets.turn.TURN`, :data:`~spec.neopets.turn.WINDOWS`) and
    :data:`PHASE_BEGINS`: see :data:`ENTRY`."""

    __slots__ = ("after", "ends_phase", "own", "phase", "trigger", "window")

    def __init__(self, node: str) -> None:
        self.window = WINDOWS[node][0]
        """The window that opens first."""
        self.phase = PHASE_BEGINS.get(node)
        """The phase the node begins (for "at the start of" triggers), or ``None``."""
        self.trigger = "phase_begins" if self.phase is not None else "turn_ends" if node == "end" else None
        """The trigger event entering fires (a phase beginning, the turn ending), or ``None``."""
        self.ends_phase = node in ("train", "preparation", "end", "attack")
        """Whether entering it ends a phase: effects lasting "this phase" end (see ``after``)."""
        self.after = "preparation" if node == "attack" else None
        """The node it ends a phase only after (the Battle Phase's first step ends the
        Preparation Phase), or ``None`` when it ends one after any node."""
        self.own = node in ("draw", "attack", "defence", "agility")
        """Whether the node has business of its own as it is entered (see :meth:`Neopets._enter`)."""


ENTRY: Final[dict[str, NodeEntry]] = {node: NodeEntry(node) for node in WINDOWS}
"""Per node of the turn, what entering it does (:meth:`Neopets._enter` reads it on every node
entered, a fifth of all passes, instead of asking the node's name each time)."""
