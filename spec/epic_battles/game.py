"""Epic Battles as a transition system: set-up, turns of four steps, attacks, blocks, combos, rounds.

:class:`EpicBattles` implements :class:`spec.core.game.Game`. The preconditions of each
event live in :mod:`spec.epic_battles.actions`; this module moves the game along: the
set-up of each round (EB.setup.*), the four steps of a turn (EB.turn.*), attacks from
their cost to the energy pile (EB.card.attack.*), blocks and chipping (EB.card.block.*,
EB.chip), linking into combos (EB.link.*), knock-downs and recovering (EB.kw.*,
EB.recover.*), events flipped at their moment (EB.card.event.*), and the end of a round
the instant a deck runs out (EB.win.*). Card text runs through the core interpreter
(:mod:`spec.epic_battles.effects`).

Work still to do is a list of :class:`~spec.epic_battles.state.Job` items that
:meth:`EpicBattles._drive` carries out until the log must say something (a move, a
drawn card); triggered abilities a job causes run before the work it scheduled.

Passes. With ``options.passes = "explicit"`` every pass is logged: the end of a player's
setting, an action that is a pass, declining to block, to recover by paying or to link.
With ``"implicit"`` passes are inferred: when an event is not legal where the game stands,
the player due to act passes as often as the rules allow until it is, and never past
what the rules make compulsory (the draws, discarding down to three, what an effect
needs). If no such point exists the event is judged where the game stood.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from functools import cache
from itertools import combinations
from typing import Any, ClassVar, Final

import msgspec

from grammar import ast as A
from spec.core import interpreter
from spec.core.deck import size_violation
from spec.core.findings import Violation
from spec.core.game import DeckError, Event, Game, Ruling, Setup, actor_problem
from spec.core.hidden import DeckKnowledge
from spec.core.interpreter import Need, Resolution, UnsupportedStep
from spec.core.state import CardObj, Zone
from spec.epic_battles import actions as X
from spec.epic_battles import board as B
from spec.epic_battles import conflicts as EC
from spec.epic_battles import events as E
from spec.epic_battles.actions import BOOK
from spec.epic_battles.effects import Effects, step_gap
from spec.epic_battles.state import EpicBattlesState, Job, Move, Occurrence, Side, Strike
from spec.epic_battles.turn import TURN

cite = cache(BOOK.cite)
"""``BOOK.cite``, each citation worked out once (work scheduled in play cites its rule again and again)."""

TAGS: Final[dict[type, str]] = {cls: str(cls.__struct_config__.tag) for cls in E.EVENTS}
"""Event class -> its ``do`` tag."""


def _named_fields(cls: type) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """An event class's fields naming one card (``card``, ``discard``) and several (``cards``, ``remove``)."""
    fields = getattr(cls, "__struct_fields__", ())
    return tuple(f for f in ("card", "discard") if f in fields), tuple(f for f in ("cards", "remove") if f in fields)


NAMED_FIELDS: Final = {cls: _named_fields(cls) for cls in E.EVENTS}
"""Per event class, its fields naming cards (checked against the database)."""


PER_MOVE: Final = frozenset({"attack", "flip"})
"""The kinds of move whose checks find what carrying the move out reads again (an attack's
cost; a flip's cards, moments and costs): :class:`~spec.epic_battles.state.Move`."""


class KindFacts:
    """What applying an event of one class needs to know of its kind, worked out once per class."""

    __slots__ = ("action", "actor", "at_node", "claim", "kind", "many", "names", "one", "per_move", "tests_at")

    def __init__(self, cls: type) -> None:
        self.kind: str = TAGS.get(cls) or str(cls.__struct_config__.tag)  # type: ignore[attr-defined]
        self.claim = E.KINDS.get(self.kind) == "claim"
        """A claim: it derives nothing, and the facts it may match stay those of the last move."""
        self.actor = self.kind not in E.NO_ACTOR
        """Whether the event must say who acts (``by``)."""
        self.one, self.many = NAMED_FIELDS.get(cls) or _named_fields(cls)
        """Its fields naming one card (``card``, ``discard``) and several (``cards``, ``remove``)."""
        self.names = bool(self.one or self.many) and self.kind != "draw"
        """Whether the event names cards to check against the database first (``_unknown_card``); a
        draw's card is checked as it is drawn instead (``EpicBattles.draw``, ``_not_in_database``)."""
        self.action = BOOK.actions.get(self.kind)
        """The action whose preconditions the event must meet."""
        self.at_node = {node: X.checks_at(self.action, node) for node in X.NODES} if self.action is not None else {}
        """Per node of the game (``state.node``), the action's checks that can fail there and their
        tests, in their order (:func:`spec.epic_battles.actions.checks_at`): a pass in the Set or
        Action step runs only the check of whose turn it is, a draw of the Draw step only the two
        checks of that step, not the four of the set-up."""
        self.tests_at = {node: tests for node, (_checks, tests) in self.at_node.items()}
        """Per node, the tests alone (``at_node``'s second part), read first on every event."""
        self.per_move = self.kind in PER_MOVE
        """Whether its checks keep what they find for its carrying out (:class:`~spec.epic_battles.state.Move`)."""


FACTS: Final[dict[type, KindFacts]] = {cls: KindFacts(cls) for cls in E.EVENTS}
"""Per event class, its :class:`KindFacts`."""


def facts_of(cls: type) -> KindFacts:
    """The :class:`KindFacts` of an event class (worked out now for a class outside the vocabulary)."""
    return FACTS.get(cls) or KindFacts(cls)


PHASES: Final = {step: step.capitalize() for step in ("draw", "set", "action", "discard")}
"""A step of the turn -> the name its moments carry (``phase_begins``/``phase_ends``)."""

NEXT_STEP: Final = {"draw": "set", "set": "action", "action": "discard"}
"""The step of the turn that follows each step but the last (EB.turn.steps)."""

STEP_MOMENTS: Final[dict[tuple[str, str], Occurrence]] = {
    (event, phase): Occurrence(event, None, None, None, (), phase) for event in ("phase_begins", "phase_ends") for phase in PHASES.values()}
"""The moments a step begins and ends, by moment and step: no player, no card, the same record in
every game (made once here; :meth:`EpicBattles._step_moment` records them)."""

STEP_BEGINS: Final[dict[str, Occurrence]] = {step: STEP_MOMENTS[("phase_begins", phase)] for step, phase in PHASES.items()}
"""Per step of the turn (``state.node``), the record of its beginning (one of :data:`STEP_MOMENTS`)."""

STEP_ENDS: Final[dict[str, Occurrence]] = {step: STEP_MOMENTS[("phase_ends", phase)] for step, phase in PHASES.items()}
"""Per step of the turn (``state.node``), the record of its end (one of :data:`STEP_MOMENTS`)."""

NO_RULINGS: Final[list[Ruling]] = []
"""What a move that finds nothing returns (shared, never added to: whoever adds to the rulings
of a move makes a new list; ``tests/test_epic_battles_speed.py`` checks it stays empty)."""

MOVES_THAT_CLOSE: Final = ("set", "pass", "attack", "block", "recover", "discard")
"""Moves after which the moments of the events flipped so far have passed (EB.card.event.flip.timing)."""

# Rules encoded by the structure of this module rather than by one function.
BOOK.note("EB.turn.steps", "EB.turn.step2.end", "EB.turn.step1.end",
          what="the turn graph (spec.epic_battles.turn.TURN): Draw, Set, Action, Discard, each ending as its rule says")
BOOK.note("EB.card.event.flip.optional", what="no window waits for a flip: events are flipped only when a player logs a flip")
BOOK.note("EB.kw.knockdown.state", what="no check refuses a block, a flip or an ability because its player is knocked down")
BOOK.contradiction("EB.kw.knockdown", "EB.combo.def",
                   why="a knock-down lasts for the rest of the combo, yet one attack alone is no combo (two linked attacks make one)")
BOOK.contradiction("EB.turn.step4.discard", "EB.turn.step4.end",
                   why="one sentence lets a player keep up to three cards, the next speaks of discarding down to three")
BOOK.note("EB.kw.knockdown.again", "EB.kw.launcher",
          what="a Knock Down or Launcher knocks its target down whenever it is played, recovered or not (EpicBattles.knock_down)")


class EpicBattles(Game[EpicBattlesState, Event]):
    """The Epic Battles CCG rules."""

    chance_fields: ClassVar[dict[str, tuple[str, ...]]] = {"draw": ("card",), "reveal": ("card",)}
    """Chance outcomes legal_moves samples (left out when matching moves, see Game.choice_key)."""

    hidden_fields: ClassVar[dict[str, tuple[str, ...]]] = {"set": ("card",), "discard": ("card",)}
    """An event set face down, or a card discarded, that the log does not show (``null``)."""

    id: ClassVar[str] = "epic_battles"
    title: ClassVar[str] = "Epic Battles CCG"
    rulesets: ClassVar[tuple[str, ...]] = ("epic_battles/1",)
    default_cards: ClassVar[str] = "epic_battles/base"
    events = E.EVENTS
    event_kinds = E.KINDS
    book = BOOK
    turn = TURN

    def __init__(self) -> None:
        self.effects = Effects(self)
        self._perform: dict[str, Any] = {kind: getattr(self, f"_do_{kind}") for kind in E.KINDS}
        """Per event kind, the handler that carries out a legal event of that kind (``_do_<kind>``)."""

    # ================================================================== set-up and decks

    def setup(self, setup: Setup) -> EpicBattlesState:
        sides: dict[str, Side] = {}
        limit = self.copy_limit(setup)
        for player in setup.players:
            deck = setup.decks.get(player)
            registered: Counter[str] | None = None
            character: str | None = None
            if deck is not None:
                registered, character = self._check_deck(setup, player, deck)
            size = sum(registered.values()) if registered is not None else 59
            side = Side(player, Zone("deck", ordered=True, public=False), Zone("hand", public=False), Zone("energy pile"),
                        Zone("discard pile", ordered=True), Zone("arena"), Zone("removed"),
                        DeckKnowledge(registered, limit, player), size, character)
            side.deck.hidden = size
            sides[player] = side
        return EpicBattlesState(setup.players, sides, setup.cards, setup.options.get("passes") == "explicit")

    def copy_limit(self, setup: Setup) -> Any:
        """Copies of a card a deck can hold by the construction rules alone (for hidden cards
        when no decklist is registered): none of a character or a Side Deck Only card, else
        four or the card's own limit (EB.deck.copies, EB.side.exclusive)."""
        probe = EpicBattlesState(setup.players, {}, setup.cards, False)

        def limit(name: str) -> int | None:
            defn = setup.cards.get(name)
            if defn is None:
                return None
            try:
                if B.is_character(defn) or B.keyword(probe, name, "side_deck_only"):
                    return 0
                return B.copy_limit(probe, defn)
            except B.Unmodelled:
                return None
        return limit

    @BOOK.encodes("EB.deck.size", "EB.deck.copies", "EB.deck.character_name", "EB.deck.game_only", "EB.card.character.count",
                  "EB.side.size", "EB.side.limit", "EB.side.exclusive",
                  what="deck construction checked against the registered decklist")
    def _check_deck(self, setup: Setup, player: str, deck: Any) -> tuple[Counter[str], str | None]:
        def find(rule: str, message: str, expected: str, actual: str) -> None:
            setup.rulings.append(Ruling(cite(rule), Violation(f"{player}'s deck: {message}", expected, actual)))

        try:
            typed = msgspec.convert(deck, E.Decklist)
        except msgspec.ValidationError as error:
            setup.rulings.append(Ruling(None, Violation(f"{player}'s decklist is not valid: {error}", "character, main, side",
                                                        "a different shape", "malformed")))
            return Counter(), None
        main, side = Counter(typed.main), Counter(typed.side)
        for name in [typed.character, *main, *side]:
            if name and name not in setup.cards:
                setup.rulings.append(Ruling(None, Violation(f"{player}'s deck lists {name!r}, which is not in the card database",
                                                            "a card of the database", name, "unverifiable")))
        probe = EpicBattlesState(setup.players, {}, setup.cards, False)
        character = setup.cards.get(typed.character)
        characters = [n for n in main if B.is_character(setup.cards.get(n))]
        if character is None or not B.is_character(character) or characters:
            find("EB.card.character.count", "a deck has exactly one character, beside the 59 other cards",
                 "one Character", ", ".join(([typed.character] if typed.character else []) + characters) or "none")
        problem = size_violation(1 + sum(main.values()), 60, 60)
        if problem:
            find("EB.deck.size", "deck size, character included", "exactly 60 cards", problem)
        known = {n: setup.cards[n] for n in list(main) + list(side) if n in setup.cards}
        try:
            for name, n in sorted(main.items()):
                defn = known.get(name)
                if defn is None or B.is_character(defn):
                    continue
                cap, side_only = B.deck_limits(probe, defn)
                if n > cap:
                    find("EB.deck.copies", f"{n} copies of {name}", f"at most {cap}", str(n))
                elif n > 4:  # the card's own limit against the rule's four: the policy decides (EB.deck.copies defers)
                    ruling = EC.judge_copies(player, name, n, cap)
                    if ruling is not None:
                        setup.rulings.append(ruling)
                if side_only:
                    find("EB.side.exclusive", f"{name} is a Side Deck Only card", "not in the 60-card deck", name)
            if character is not None and B.is_character(character):  # (the cards are weighed against a character)
                for name in sorted(set(main) | set(side)):
                    defn = known.get(name)
                    if defn is None:
                        continue
                    allowed, in_game = B.deck_allows(probe, defn, character.name)
                    if not allowed:
                        find("EB.deck.character_name", f"{name} belongs to another character", f"cards for {character.name}", name)
                    if not in_game:
                        find("EB.deck.game_only", f"{name} is reserved for another game", f"cards for {character.stats.get('game')}",
                             name)
            if side:
                problem = size_violation(sum(side.values()), 6, 6)
                if problem:
                    find("EB.side.size", "side deck size", "exactly 6 cards", problem)
                for name, n in sorted(side.items()):
                    if name in known and (n > 1 or not B.keyword(probe, name, "side_deck_only")):
                        find("EB.side.limit", f"{name} in the side deck", "one copy of a Side Deck Only card", f"{n} cop(ies)")
        except B.Unmodelled as error:
            setup.rulings.append(Ruling(None, Violation(f"{player}'s deck: {error}", severity="unverifiable")))
        return main, typed.character or None

    # ================================================================== applying events

    def apply(self, state: EpicBattlesState, event: Event) -> list[Ruling]:
        try:
            facts = FACTS[type(event)]  # (a subscript, not a call: asked on every event)
        except KeyError:
            facts = facts_of(type(event))
        if not facts.claim:
            state.facts_mark = len(state.facts)  # claims after this event match what it (and the passes before it) derived
        if state.notes:
            state.notes.clear()
        state.seq = event.seq  # the date of what the journals of hidden cards note meanwhile (DeckKnowledge.dated)
        try:
            rulings = self._apply(state, event, facts.kind, facts)
        except (B.Unmodelled, UnsupportedStep) as error:
            state.move = None  # (a check or the move itself could not be read through)
            state.effects_may_change()  # (whatever the event left in the notes is listed next)
            return [Ruling(None, Violation(str(error), severity="unverifiable"))]
        notes = state.notes  # (the state may have been put back as it was: read it afresh)
        if notes:
            rulings = rulings + [n for n in notes if n.violation.severity != "info"]  # gaps met while the event was carried out
            notes[:] = [n for n in notes if n.violation.severity == "info"]  # settled ones: conflicts_met lists them
            state.effects_may_change()
        if state.marked:  # a hidden card was shown only as a kind: z3 weighs the journal (counting is not enough)
            for side in state.sides.values():
                if side.knowledge.marks:
                    rulings = rulings + self._hidden_contradiction(state, side)  # (a new list: NO_RULINGS stays empty)
        return rulings

    @BOOK.encodes("EB.card.event", what="a card set face down without its name is one of the deck's events: which one is a "
                  "choice that the registered deck and the later events constrain (z3, spec.core.hidden_z3)")
    def _hidden_contradiction(self, state: EpicBattlesState, side: Side) -> list[Ruling]:
        """What z3 finds wrong with a player's hidden cards once one was shown only as an event."""
        outcome = side.knowledge.contradiction(side.deck_size)
        if outcome is None:
            return []
        if outcome.status == "unknown":
            return [Ruling(None, Violation(outcome.explanation, "a decided check", "undecided", "unverifiable"), "hidden")]
        return [Ruling(cite("EB.card.event"), Violation(outcome.explanation, "an arrangement of the deck that gives the log",
                                                        "none exists", "inconsistent"), "hidden")]

    conflicts_met = staticmethod(EC.conflicts_met)
    """Clashes of effects met, settled by the Epic Battles policy (spec.epic_battles.conflicts)."""

    conflicts_stamp: ClassVar[str | None] = "conflicts_clock"
    """The verifier asks :meth:`conflicts_met` only after the events that moved
    :attr:`EpicBattlesState.conflicts_clock`: a lasting change came or went, a turn or round
    began, or the event left settled clashes to list (most events do none of these)."""

    def _apply(self, state: EpicBattlesState, ev: Any, kind: str, facts: KindFacts | None = None) -> list[Ruling]:
        if facts is None:
            facts = facts_of(type(ev))
        if ev.by not in state.players:  # not a player, or nobody
            problem = actor_problem(kind, ev.by, state.players, facts.actor)
            if problem is not None:
                return problem
        if facts.claim:  # a claim names players of the game (and derives nothing: no effect waits for it)
            for claimed in ("to", "player", "winner"):
                value = getattr(ev, claimed, None)
                if isinstance(value, str) and value not in state.players:
                    return [Ruling(None, Violation(f"{value!r} is not a player of this game", "one of " + ", ".join(state.players), value, "malformed"))]
        else:
            if facts.names:  # every card it names is one of the database (the usual case: one field, one look-up)
                known = state.cards.cards
                for field in facts.one:
                    value = getattr(ev, field)
                    if isinstance(value, str) and value not in known:
                        return [self._missing_card(state, value)]  # (a draw names no card checked here)
                if facts.many:
                    missing = self._unknown_card(state, ev, kind)
                    if missing is not None:
                        return [missing]
            if state.stage == "over":
                return [Ruling(cite("EB.win.game"), Violation("an event after the game was won", "no more events", kind))]
            if state.resolution is not None and state.resolution.need is not None:
                return self._feed(state, ev, kind)
        try:
            tests = facts.tests_at[state.node]  # (a subscript, not a call: every node is there for every action)
        except KeyError:
            tests = None
        if tests is not None:  # the checks that can fail where the game stands, first to last
            if facts.per_move:  # what its checks find, kept for its carrying out (state.Move)
                state.move = Move(ev)
            for test in tests:
                violation = test(state, ev)
                if violation is not None:
                    state.move = None  # passes may be inferred now: the game moves on
                    refused = self._refused(state, ev, kind, facts, (facts.at_node[state.node][0][tests.index(test)], violation))
                    if refused is not None:
                        return refused
                    break  # legal once the passes before it were inferred
        else:
            hit = BOOK.actions[kind].first_violation(state, ev)
            if hit is not None:
                refused = self._refused(state, ev, kind, facts, hit)
                if refused is not None:
                    return refused
        try:
            perform = self._perform[kind]  # (a subscript, not a call: asked on every move)
        except KeyError:
            perform = getattr(self, f"_do_{kind}")
        rulings: list[Ruling] = perform(state, ev) or NO_RULINGS  # (most moves find nothing: no list made for them)
        if state.resolution is not None or state.pending or state.waiting or state.scheduled \
                or (state.strikes and state.strikes[-1].negated):
            self._work(state)  # (_drive's question, asked here: after most moves there is nothing to do)
        return rulings

    def _refused(self, state: EpicBattlesState, ev: Any, kind: str, facts: KindFacts,
                 hit: tuple[Any, Violation]) -> list[Ruling] | None:
        """An event whose check found ``hit``: with implicit passes, the passes inferred before it
        may make it legal (``None``: carry it out) or hand it to an effect (that effect's rulings);
        otherwise it is judged where the game stood, carried out as far as it can be."""
        if kind != "pass" and not state.explicit_passes:
            found, fed = self.infer_passes(state, ev, kind, facts.action or BOOK.actions[kind], hit, facts.claim)
            if fed is not None:
                return fed
            if found is None:
                return None
            hit = found
        check, violation = hit
        self._apply_anyway(state, ev, kind)
        return [Ruling(check.rule, violation, check.name)]

    def _apply_anyway(self, state: EpicBattlesState, ev: Any, kind: str) -> None:
        """Carry out an illegal move as far as it physically can be (for ``--keep-going``)."""
        self.apply_anyway(state, ev, kind, after=self._drive)

    def _unknown_card(self, state: EpicBattlesState, ev: Any, kind: str) -> Ruling | None:
        one, many = NAMED_FIELDS.get(type(ev)) or _named_fields(type(ev))
        known = state.cards.cards
        for field in one:
            value = getattr(ev, field)
            if isinstance(value, str) and value not in known:
                return self._not_in_database(state, value, kind)
        for field in many:
            for name in getattr(ev, field) or ():
                if name not in known:
                    return self._not_in_database(state, name, kind)
        return None

    def _not_in_database(self, state: EpicBattlesState, name: str, kind: str) -> Ruling | None:
        """The finding for an event naming a card the database does not hold."""
        if kind == "draw":
            return None  # the card moves as an unseen card; reported when drawn
        return self._missing_card(state, name)

    def _missing_card(self, state: EpicBattlesState, name: str) -> Ruling:
        """The finding for a move naming a card the database does not hold."""
        return Ruling(None, Violation(f"{name!r} is not in the card database {state.cards.name}", "a card the spec knows", name, "unverifiable"))

    # ================================================================== set-up (EB.setup.*)

    def _do_character(self, state: EpicBattlesState, ev: E.Character) -> list[Ruling]:
        side = state.sides[ev.by or ""]
        side.character = state.new_card(ev.card, side.name, state.cards[ev.card])
        state.by_characters.clear()  # what was worked out from the characters in play
        if side.registered_character is not None and side.registered_character != ev.card:
            return [Ruling(cite("EB.card.character.count"), Violation(f"{ev.by} shows {ev.card}, not the registered character",
                                                                       side.registered_character, ev.card, "inconsistent"))]
        return []

    def _do_shuffle(self, state: EpicBattlesState, ev: E.Shuffle) -> None:
        side = state.sides[ev.by or ""]
        side.shuffled = True
        side.top.clear()

    @BOOK.encodes("EB.setup.aggressor.first", what="the random pick makes its player the first aggressor")
    def _do_aggressor(self, state: EpicBattlesState, ev: E.Aggressor) -> None:
        if ev.player in state.players:
            state.aggressor = ev.player

    @BOOK.encodes("EB.setup.draw", "EB.turn.step1.draw", "EB.turn.step1.end",
                  what="drawing takes the top card of the deck into the hand; three each, then the game goes on")
    def _do_draw(self, state: EpicBattlesState, ev: E.Draw) -> list[Ruling]:
        player = ev.by or ""
        name = ev.card
        side = state.sides[player]
        known = state.cards.cards
        if name is not None and not side.top and name in known:
            # the usual draw, a named card off a deck whose top was never shown: draw's own steps, at once
            rulings: list[Ruling] = []
            knowledge = side.knowledge
            registered = knowledge.registered
            words = f"drew {name} off the top of the deck"
            if registered is not None and knowledge.located.get(name, 0) < registered.get(name, 0):
                knowledge.dated(state.seq).reveal(name, words, "deck")  # (_identify, when the registered deck holds another copy)
            else:
                self._identify(state, side, name, words, "deck", rulings)
            deck = side.deck
            if deck.hidden > 0:
                deck.hidden -= 1
            uid = state.next_uid
            state.next_uid = uid + 1
            side.hand.cards.append(CardObj(uid, name, player, known[name]))
            if deck.hidden + len(deck.cards) == 0:  # the deck ran out (asked here first: check_empty says what follows)
                self.check_empty(state, player)
        else:
            rulings = self.draw(state, player, name)
        stage = state.stage
        if stage == "setup" or stage == "turn":
            sides = state.sides
            sides[player].drawn += 1  # (read afresh: a deck that ran out began the next round's set-up)
            first, second = state.players
            if sides[first].drawn >= 3 and sides[second].drawn >= 3:  # both drew their three
                if stage == "setup":
                    self._start_turn(state)
                else:
                    self._end_step(state)
        return rulings

    def draw(self, state: EpicBattlesState, player: str, name: str | None) -> list[Ruling]:
        """``player`` moves the card on top of their deck to their hand (named, if the log names it)."""
        side = state.sides[player]
        rulings: list[Ruling] = []
        if name is not None and name not in state.cards.cards:
            rulings.append(Ruling(None, Violation(f"{name!r} is not in the card database", "a known card", name, "unverifiable")))
            name = None
        side.hand.cards.append(self.take_top(state, player, name, rulings, "drew"))
        deck = side.deck
        if deck.hidden + len(deck.cards) == 0:  # the deck ran out (asked here first: check_empty says what follows)
            self.check_empty(state, player)
        return rulings

    def take_top(self, state: EpicBattlesState, player: str, name: str | None, rulings: list[Ruling], how: str = "took") -> CardObj:
        """The top card of a deck leaves it: a card revealed on top keeps its name; a named one is checked.

        ``how`` says what happened, for the journal of hidden cards (``drew``, ``chipped``...).
        """
        side = state.sides[player]
        if side.top:
            known = side.top.pop(0)
            if name is not None and name != known:
                rulings.append(Ruling(cite("EB.setup.draw"), Violation(f"{player}'s top card was shown to be {known}", known, name, "inconsistent")))
            name = known
            side.knowledge.dated(state.seq).reveal(name, f"{how} {name} off the top of the deck (shown there before)")
        elif name is not None:
            self._identify(state, side, name, f"{how} {name} off the top of the deck", "deck", rulings)
        deck = side.deck
        if deck.hidden > 0:
            deck.hidden -= 1
        uid = state.next_uid  # (state.new_card, at once: a card leaves a deck on most events)
        state.next_uid = uid + 1
        return CardObj(uid, name, player, state.cards.cards.get(name) if name else None)

    def identify(self, state: EpicBattlesState, player: str, name: str, words: str = "", source: str = "deck") -> list[Ruling]:
        """An unseen card of ``player`` turns out to be ``name``: possible only if the deck can hold one more.

        ``source`` is ``deck`` for a card out of the deck itself, ``hidden`` for an unseen card
        already out of it (in hand, face down, off the top unnamed) now shown by name; ``words``
        say what happened, for the journal of hidden cards (spec.core.hidden).
        """
        rulings: list[Ruling] = []
        self._identify(state, state.sides[player], name, words, source, rulings)
        return rulings

    def _identify(self, state: EpicBattlesState, side: Side, name: str, words: str, source: str, rulings: list[Ruling]) -> None:
        """:meth:`identify`, its finding (if any) added to ``rulings``."""
        knowledge = side.knowledge
        registered = knowledge.registered
        if registered is not None and not side.top:  # B.can_reveal's usual case (a registered deck, no card shown on top), read at once
            fits = knowledge.located.get(name, 0) < registered.get(name, 0)
        else:
            fits = B.can_reveal(state, side.name, name)
        if not fits:
            player = side.name
            cap, rule = B.bound(state, player, name)
            rulings.append(Ruling(cite(rule), Violation(f"{player} shows {name}, but their deck cannot hold another copy",
                                                        f"at most {cap} cop(ies)", f"copy {knowledge.located[name] + 1}",
                                                        "inconsistent")))
        knowledge.dated(state.seq).reveal(name, words or f"showed {name}", source)

    def take(self, state: EpicBattlesState, player: str, zone: Zone, name: str | None, rulings: list[Ruling],
             kind: str | None = None) -> CardObj:
        """Take a card of that name out of a zone (an unseen card of the zone if none is known).

        A card the log does not name (``name`` is ``None``) is an unseen card of the zone.
        If all of the zone's cards are known, it is the one card of ``kind`` there; otherwise
        the names of the known cards it could be are forgotten (they become unseen), so that
        every reading of the log stays open: the card taken may be a known one.
        """
        if name is not None:  # the usual case: a known card of that name leaves the zone (Zone.find and remove, at once)
            cards = zone.cards
            for card in cards:
                if card.name == name:
                    cards.remove(card)
                    return card
        else:
            fits = [c for c in zone.cards if c.name is not None and (kind is None or B.role(c.defn) == kind)]
            if zone.unknown() is None and len(fits) == 1:
                zone.remove(fits[0])
                return fits[0]
            for other in fits:
                if other.name is not None:
                    state.sides[player].knowledge.dated(state.seq).conceal(other.name, f"let go of {other.name}: an unnamed card left the {zone.name}, "
                                                                      "which held it")
                other.name, other.defn = None, None
        unseen = zone.unknown()
        if unseen is None:  # keep going after an illegal move: conjure the card
            card = zone.cards[-1] if name is None and zone.cards else state.new_card(name, player, state.cards.get(name) if name else None)
            if card in zone.cards:
                zone.remove(card)
            return card
        zone.remove(unseen)
        if name is not None:
            rulings.extend(self.identify(state, player, name, f"showed {name} from an unseen card of the {zone.name}", "hidden"))
            unseen.name, unseen.defn = name, state.cards.get(name)
        elif kind is not None:
            self._mark(state, player, kind, f"set an unseen card of the {zone.name} face down, without its name: "
                                            f"an {kind} (EB.card.event.set)", rulings)
        return unseen

    def _mark(self, state: EpicBattlesState, player: str, kind: str, words: str, rulings: list[Ruling]) -> None:
        """An unseen card was shown to be of ``kind`` without its name: one of the names the deck may hold.

        Which one is a choice that later events constrain (z3, :meth:`_hidden_contradiction`);
        a deck that can hold no card of that kind at all is found by counting, here.
        """
        knowledge = state.sides[player].knowledge.dated(state.seq)
        names = [d.name for d in state.cards if B.role(d) == kind and B.bound(state, player, d.name)[0] != 0]
        if not names:
            rulings.append(Ruling(cite("EB.card.event"), Violation(
                f"{player} {words}, but their deck cannot hold a single {kind}", f"an {kind} of {player}'s deck",
                f"none in the {'registered deck' if knowledge.registered is not None else 'construction limits'}", "inconsistent")))
            return
        knowledge.mark(names, words)
        state.marked = True

    # ================================================================== the turn (EB.turn.*)

    @BOOK.encodes("EB.turn.aggressor", "EB.turn.order", what="a turn begins with one aggressor, who goes first in every step")
    def _start_turn(self, state: EpicBattlesState) -> None:
        if state.aggressor is None:
            state.aggressor = state.players[0]
        state.stage = "turn"
        state.turn += 1
        state.effects_may_change()
        for side in state.sides.values():
            side.drawn = 0
        self._enter(state, "draw")
        self.occur(state, "turn_begins", state.aggressor)
        self._step_moment(state, "phase_begins", STEP_BEGINS["draw"])

    def _enter(self, state: EpicBattlesState, node: str) -> None:
        state.node = node
        state.window = "act" if node == "action" else ""
        state.holder = state.aggressor or state.players[0]
        state.passes = 0

    @BOOK.encodes("EB.turn.step2.end", "EB.turn.step3.end", "EB.turn.step4.end", "EB.turn.next",
                  what="a step ends when its rule says; after the Discard step the aggressor role moves to the other player")
    def _end_step(self, state: EpicBattlesState) -> None:
        node = state.node
        self._step_moment(state, "phase_ends", STEP_ENDS.get(node) or Occurrence("phase_ends", None, None, None, (), node.capitalize()))
        following = NEXT_STEP.get(node)
        if following is not None:  # Draw -> Set -> Action -> Discard
            self._enter(state, following)
            self._step_moment(state, "phase_begins", STEP_BEGINS[following])
            if following == "discard":
                self._discard_progress(state)
        else:
            if state.lasting:
                state.lasting = [x for x in state.lasting if x.until != "end_of_turn"]  # (_start_turn moves the conflicts clock)
            self.occur(state, "turn_ends", state.aggressor)
            state.aggressor = state.other(state.aggressor or state.players[0])
            self._start_turn(state)

    def _do_set(self, state: EpicBattlesState, ev: E.Set) -> list[Ruling]:
        state.recent.clear()
        rulings: list[Ruling] = []
        side = state.sides[ev.by or ""]
        card = self.take(state, side.name, side.hand, ev.card, rulings, kind="event")
        card.face_up = False
        side.arena.cards.append(card)
        return rulings

    @BOOK.encodes("EB.turn.step3.alternate", "EB.turn.step3.choice",
                  what="a pass ends a player's part of the Set step, is an action, or declines to block, recover or link")
    def _do_pass(self, state: EpicBattlesState, ev: E.Pass) -> None:
        state.recent.clear()
        window = state.window
        if state.node == "set" or window == "act":  # a player's part of the Set step ends, or an action is a pass
            state.passes += 1
            first, second = state.players
            state.holder = second if ev.by == first else first  # (the other player, read at once)
            if state.passes >= 2:
                self._end_step(state)
            return
        if window == "block":
            self._unblocked(state, state.strikes[-1])
        elif window == "recover":
            self._finish(state, state.strikes[-1].sid)
        elif window == "link":
            self._end_combo(state)

    def _can_advance(self, state: EpicBattlesState) -> bool:
        """Whether a pass now would move the game on (implicit passes).

        A pass is the player due to act passing, or the player of an optional part of an
        effect declining it.
        """
        res = state.resolution
        if state.stage == "turn" and res is not None and res.need is not None:
            return res.need.optional
        return state.stage == "turn" and not state.busy and state.node in ("set", "action") and bool(state.holder)

    def _advance(self, state: EpicBattlesState) -> None:
        res = state.resolution
        if res is not None and res.need is not None:
            self._feed(state, E.Decline(0, res.need.player), "decline")
            return
        self._do_pass(state, E.Pass(0, state.holder))
        self._drive(state)

    # ------------------------------------------------------------------ the Discard step

    def _discard_progress(self, state: EpicBattlesState) -> None:
        """The aggressor discards down to three, then the other player; then the step ends."""
        sides = state.sides
        first, second = state.players
        if state.aggressor == second:  # (state.in_order(), read at once)
            first, second = second, first
        for player in (first, second):
            hand = sides[player].hand
            if len(hand.cards) + hand.hidden > 3:  # (the size of the hand, read at once)
                state.holder = player
                return
        self._end_step(state)

    @BOOK.encodes("EB.turn.step4.discard", "EB.energy.event_block_to_discard", what="a discarded card goes to the discard pile")
    def _do_discard(self, state: EpicBattlesState, ev: E.Discard) -> list[Ruling]:
        state.recent.clear()
        rulings: list[Ruling] = []
        side = state.sides[ev.by or ""]
        side.discard.cards.append(self.take(state, side.name, side.hand, ev.card, rulings))
        self._discard_progress(state)
        return rulings

    # ================================================================== attacks (EB.card.attack.*)

    @BOOK.encodes("EB.card.attack.play", "EB.card.attack.pay", "EB.energy.pay", "EB.link.timing",
                  what="an attack leaves the hand; its energy cost is paid first, then any additional cost")
    def _do_attack(self, state: EpicBattlesState, ev: E.Attack) -> list[Ruling]:
        state.recent.clear()
        player = ev.by or ""
        side = state.sides[player]
        move = state.move
        if move is not None:  # what its checks found (state.Move): taken, then dropped
            state.move = None
            price = move.price if move.event is ev else None
        else:
            price = None
        rulings: list[Ruling] = []
        card = self.take(state, player, side.hand, ev.card, rulings)
        if state.window != "link":
            state.combo, state.combo_owner = [], player
            state.passes = 0
        position = len(state.combo) + 1
        strike = Strike(state.next_sid, player, state.other(player), card, alternative=ev.alternative, position=position)
        state.next_sid += 1
        state.strikes.append(strike)
        state.combo.append((card.uid, card.name or ""))
        state.window = ""
        self._play_strike(state, strike, price[1] if price is not None and price[0] == card.uid else None)
        return rulings

    def _play_strike(self, state: EpicBattlesState, strike: Strike, price: int | None = None) -> None:
        """Pay for an attack (EB.card.attack.pay), then carry on with it.

        ``price`` is its energy cost as its check found it (``actions.attack_cost``, handed on in
        ``state.move``), when the card played is the one checked and its own text adds the same
        in every state: nothing it reads has moved since (the card leaving the hand and the
        combo it joins change what its own text adds, not what the changes in force do)."""
        name = strike.card.name or ""
        _effect, extra = B.spell(state, name)
        if strike.alternative:
            alt = B.alternative(state, name)
            extra = (alt.cost if alt is not None else ()) + extra
        else:
            if price is None:
                price = B.cost(state, strike.card, strike.attacker, {"combo": strike.position})
            self.pay_energy(state, strike.attacker, price)
        if extra:
            self.schedule(state, Job("effect", strike.attacker, strike.card, extra,
                                     vars={"this": strike.card.uid, "rule": cite("EB.card.attack.pay")}))
        self._then(state, self._strike_paid, strike.sid)

    @BOOK.encodes("EB.kw.knockdown", "EB.card.attack.text",
                  what="once paid, a Knock Down or Launcher knocks the rival down; the text before HIT then happens")
    def _strike_paid(self, state: EpicBattlesState, sid: int) -> None:
        strike = state.strike(sid)
        if strike is None:
            return
        strike.stage = "text"
        name = strike.card.name or ""
        self.occur(state, "played", strike.attacker, strike.card, owner=strike.attacker)
        if B.keyword(state, name, "knock_down"):
            self.knock_down(state, strike.defender, "knock_down")
        if B.keyword(state, name, "launcher"):
            self.knock_down(state, strike.defender, "launch")
        effect, _cost = B.spell(state, name)
        if strike.alternative:
            alt = B.alternative(state, name)
            effect = effect + (alt.effect if alt is not None else ())
        if effect:
            self.schedule(state, Job("effect", strike.attacker, strike.card, effect,
                                     vars={"this": strike.card.uid, "combo": strike.position, "rule": cite("EB.card.attack.text")}))
        self._then(state, self._strike_text_done, sid)

    def _strike_text_done(self, state: EpicBattlesState, sid: int) -> None:
        strike = state.strike(sid)
        if strike is None:
            return
        strike.stage = "block"
        state.window = "block"
        state.holder = strike.defender

    # ------------------------------------------------------------------ blocks (EB.card.block.*)

    @BOOK.encodes("EB.card.block.sequence", what="a block: its cost is paid, its text happens, its player chips, it is discarded")
    def _do_block(self, state: EpicBattlesState, ev: E.Block) -> list[Ruling]:
        state.recent.clear()
        strike = state.strikes[-1]
        player = ev.by or ""
        rulings: list[Ruling] = []
        card = self.take(state, player, state.sides[player].hand, ev.card, rulings)
        strike.stage = "blocking"
        strike.blocked = True
        strike.block = card
        state.window = ""
        self.pay_energy(state, player, B.cost(state, card, player))
        effect, extra = B.spell(state, ev.card)
        if extra:
            self.schedule(state, Job("effect", player, card, extra, vars={"this": card.uid, "rule": cite("EB.card.block.sequence")}))
        if effect:
            self.schedule(state, Job("effect", player, card, effect, vars={"this": card.uid, "that": strike.card.uid,
                                                                            "rule": cite("EB.card.block.sequence")}))
        self._then(state, self._block_done, strike.sid)
        return rulings

    @BOOK.encodes("EB.card.attack.blocked", "EB.chip", "EB.kw.knockdown.blocked",
                  what="a blocked attack makes the blocker chip its printed cost; a blocked Knock Down still knocks down")
    def _block_done(self, state: EpicBattlesState, sid: int) -> None:
        strike = state.strike(sid)
        if strike is None:
            return
        self.chip(state, strike.defender, B.printed(strike.card.defn, "cost"))
        block, strike.block = strike.block, None
        if state.stage != "turn" or block is None:
            return
        state.sides[block.owner].discard.add(block)
        self.occur(state, "blocked", strike.defender, strike.card, owner=strike.attacker)
        for effect in B.blocked_effects(state, strike.card.name or ""):
            self.schedule(state, Job("effect", strike.attacker, strike.card, effect,
                                     vars={"this": strike.card.uid, "rule": cite("EB.card.attack.blocked")}))
        self._then(state, self._after_block, sid)

    def _after_block(self, state: EpicBattlesState, sid: int) -> None:
        strike = state.strike(sid)
        if strike is None:
            return
        name = strike.card.name or ""
        knocks = B.keyword(state, name, "knock_down") or B.keyword(state, name, "launcher")
        if knocks and state.sides[strike.defender].down is not None:
            strike.stage = "recover"
            state.window = "recover"
            state.holder = strike.defender
            return
        self._finish(state, sid)

    @BOOK.encodes("EB.recover.block", what="a paid recovery: a block discarded from hand, or two blocks removed from the discard pile")
    def _do_recover(self, state: EpicBattlesState, ev: E.Recover) -> list[Ruling]:
        state.recent.clear()
        player = ev.by or ""
        side = state.sides[player]
        rulings: list[Ruling] = []
        if ev.discard is not None:
            side.discard.add(self.take(state, player, side.hand, ev.discard, rulings))
        for name in ev.remove:
            side.removed.add(self.take(state, player, side.discard, name, rulings))
        self.recover(state, player)
        self._finish(state, state.strikes[-1].sid)
        return rulings

    # ------------------------------------------------------------------ hits and the end of an attack

    @BOOK.encodes("EB.card.attack.unblocked", "EB.damage.take",
                  what="an unblocked attack deals its damage, then its HIT text happens")
    def _unblocked(self, state: EpicBattlesState, strike: Strike) -> None:
        strike.stage = "hit"
        state.window = ""
        self.deal_damage(state, strike.defender, B.damage(state, strike.card, strike.attacker))
        if state.stage != "turn":
            return
        self.occur(state, "hit", strike.defender, strike.card, owner=strike.attacker)
        for effect in B.hit_effects(state, strike.card.name or ""):
            self.schedule(state, Job("effect", strike.attacker, strike.card, effect,
                                     vars={"this": strike.card.uid, "combo": strike.position, "rule": cite("EB.card.attack.unblocked")}))
        self._then(state, self._finish, strike.sid)

    @BOOK.encodes("EB.card.attack.after", "EB.energy.attack_to_pile",
                  what="a finished attack goes to its player's energy pile; its player may then link another")
    def _finish(self, state: EpicBattlesState, sid: int) -> None:
        strike = state.strike(sid)
        if strike is None:
            return
        strike.stage = "done"
        state.strikes.remove(strike)
        state.sides[strike.attacker].energy.cards.append(strike.card)
        if strike.taunted:
            resumed, pending = state.suspended.pop() if state.suspended else (None, [])
            state.resolution = resumed
            state.pending = pending + state.pending
            state.window = ""
            return
        state.window = "link"
        state.holder = strike.attacker

    @BOOK.encodes("EB.recover.combo_end", "EB.combo.def",
                  what="when a combo ends: its delayed effects, then its lasting changes end and everyone down recovers")
    def _end_combo(self, state: EpicBattlesState) -> None:
        state.window = ""
        delayed = [d for d in state.delayed if d.when == "end_of_combo"] if state.delayed else []  # (most combos leave none)
        if delayed:
            state.delayed = [d for d in state.delayed if d.when != "end_of_combo"]
        for item in delayed:
            self.schedule(state, Job("effect", item.controller, item.source, item.effect, vars={"rule": cite("EB.card.attack.unblocked")}))
        self._then(state, self._combo_over)

    def _combo_over(self, state: EpicBattlesState) -> None:
        lasting = state.lasting
        if lasting:
            state.lasting = [x for x in lasting if x.until != "end_of_combo"]
            if len(state.lasting) != len(lasting):
                state.effects_may_change()
        sides = state.sides
        for player in state.in_order():
            if sides[player].down is not None:  # (recover's own first question, asked here: most combos knock nobody down)
                self.recover(state, player)
        owner = state.combo_owner or state.holder
        if len(state.combo) >= 2:
            self.occur(state, "combo_ends", owner)
        state.combo, state.combo_owner = [], None
        state.window = "act"
        state.holder = state.other(owner)

    # ================================================================== events and abilities

    @BOOK.encodes("EB.card.event.flip", "EB.card.event.flip.pay", "EB.card.event.flip.multi", "EB.card.event.flip.resolve",
                  "EB.card.event.flip.timing",
                  what="flipping: all costs paid, the events turn face up together, each one's text happens, then it is discarded")
    def _do_flip(self, state: EpicBattlesState, ev: E.Flip) -> list[Ruling]:
        player = ev.by or ""
        move = state.move
        found: list[CardObj] | Violation | None = None
        moments: list[Occurrence | bool | None] | None = None
        if move is not None:  # what its checks found (state.Move): taken, then dropped
            state.move = None
            if move.event is ev:
                found, moments = move.found, move.moments
        if found is None:
            found = X.set_events(state, player, ev.cards)
        rulings: list[Ruling] = []
        assert not isinstance(found, Violation)
        if moments is None:
            moments = [X.flip_moment(state, player, name) for name in ev.cards]
        for name, moment in zip(ev.cards, moments, strict=True):
            if moment is None:  # flipped under a card's permission: the settled clash is noted (EB.card.event.flip.timing)
                EC.judge_flip(state, player, name)
        for card, name in zip(found, ev.cards, strict=True):
            if card.name is None:
                rulings.extend(self.identify(state, player, name, f"flipped {name}, set face down unseen", "hidden"))
                card.name, card.defn = name, state.cards.get(name)
            card.face_up = True
        self.pay_energy(state, player, sum(B.cost(state, c, player) for c in found))
        for card in found:
            self.occur(state, "flipped", player, card, owner=player)
        for card, moment in zip(found, moments, strict=True):
            that = moment.uid if isinstance(moment, Occurrence) else None
            effect, extra = B.spell(state, card.name or "")
            if extra + effect:
                self.schedule(state, Job("effect", player, card, extra + effect,
                                         vars={"this": card.uid, "that": that, "rule": cite("EB.card.event.flip.resolve")}))
            self._then(state, self._flipped, player, card.uid)
        return rulings

    def _flipped(self, state: EpicBattlesState, player: str, uid: int) -> None:
        side = state.sides[player]
        for card in side.arena.cards:
            if card.uid == uid:
                side.arena.remove(card)
                side.discard.add(card)
                return

    def _do_activate(self, state: EpicBattlesState, ev: E.Activate) -> None:
        player = ev.by or ""
        character = state.sides[player].character
        assert character is not None
        ability = [a for a in B.abilities(state, character.name or "", A.Activated) if not a.alternative][ev.ability]
        self.schedule(state, Job("effect", player, character, ability.cost + ability.effect,
                                 vars={"this": character.uid, "rule": cite("EB.energy.pay")}))

    # ================================================================== primitives

    def schedule(self, state: EpicBattlesState, job: Job) -> None:
        """Ask for work to be done after the current job and the triggers it caused.

        An effect asked for with nothing queued or under way in a turn (the usual case) is begun
        at once, as :meth:`_work` would begin it next (its resolution is carried out when the
        work is done, ``_apply`` or ``_drive``); anything asked for after it waits for it.
        """
        if job.kind == "effect" and state.resolution is None and not (state.pending or state.waiting or state.scheduled) \
                and state.stage == "turn":
            state.resolution = Resolution(job.controller, job.source, [interpreter.Frame(job.effect)], job, vars=dict(job.vars))
        else:
            state.scheduled.append(job)

    def _then(self, state: EpicBattlesState, then: Callable[..., None], *args: Any) -> None:
        """Go on with the flow: the game's method ``then`` with ``args``, after the work queued before it.

        With nothing queued or under way in a turn (no resolution, nothing pending, waiting or
        scheduled: the usual case), :meth:`_work` would take this very job next, so it is done
        at once; otherwise it is scheduled as a ``then`` job. Every caller asks last, so that
        nothing the caller does next comes before it either way (a flip asks per card, and after
        it only asks for the next card's work, which comes later either way). (A negated attack is still
        settled after it: ``_apply`` and ``_work`` ask once the work is done.)
        """
        if state.resolution is None and not (state.pending or state.waiting or state.scheduled) and state.stage == "turn":
            then(state, *args)
        else:
            state.scheduled.append(Job("then", then=then.__name__, args=args))

    def occur(self, state: EpicBattlesState, event: str, who: str | None, card: CardObj | None = None,
              phase: str | None = None, owner: str | None = None, settled: str | None = None) -> None:
        """Record a moment (for flips) and queue the characters' triggered abilities it sets off, aggressor's first."""
        if card is None:  # a moment of the turn or of a player (a step begins, a player is chipped...)
            occ = Occurrence(event, who, None, None, (), phase, settled)
        else:
            defn = card.defn
            labels = B.moment_labels(state, card.uid, defn, owner or card.owner) if defn is not None else ()
            occ = Occurrence(event, who, card.uid, defn, labels, phase, settled)
        state.recent.append(occ)
        watched = state.by_characters.get(event)
        if watched is None:
            watched = B.watched(state, event)
        if watched:  # a character in play has a triggered ability on this moment
            self._set_off(state, event, occ)

    def _step_moment(self, state: EpicBattlesState, event: str, occ: Occurrence) -> None:
        """:meth:`occur` for a step of the turn beginning or ending (``phase_begins``,
        ``phase_ends``): its record ``occ`` is one of :data:`STEP_MOMENTS` (:data:`STEP_BEGINS`,
        :data:`STEP_ENDS`), the same in every game."""
        state.recent.append(occ)
        watched = state.by_characters.get(event)
        if watched is None:
            watched = B.watched(state, event)
        if watched:
            self._set_off(state, event, occ)

    def _set_off(self, state: EpicBattlesState, event: str, occ: Occurrence) -> None:
        """Queue the triggered abilities of the characters in play that ``occ`` sets off, aggressor's first."""
        for player in state.in_order():
            character = state.sides[player].character
            if character is None or character.name is None:
                continue
            for ability in B.triggered_on(state, character.name, event):
                if X.matches(state, player, ability.trigger, occ):
                    state.waiting.append(Job("effect", player, character, ability.effect,
                                             vars={"this": character.uid, "that": occ.uid, "rule": cite("EB.setup.character")}))

    def pay_energy(self, state: EpicBattlesState, player: str, n: int) -> None:
        """Pay ``n`` energy: that many energy-pile cards, oldest first, go to the discard pile (EB.energy.pay)."""
        side = state.sides[player]
        for _ in range(min(n, len(side.energy.cards))):
            side.discard.cards.append(side.energy.cards.pop(0))

    def move_top(self, state: EpicBattlesState, player: str, n: int, to: str, how: str = "moved") -> int:
        """Move the top ``n`` cards of a deck to one of its player's zones; the round ends if the deck runs out."""
        side = state.sides[player]
        deck = side.deck
        if 0 < n < deck.hidden and not side.top and state.stage == "turn":
            # the usual case: n unseen cards off a deck that does not run out, none of them shown
            # before (take_top's own steps, at once; check_empty cannot end the round)
            cards = getattr(side, to).cards
            uid = state.next_uid
            for i in range(n):
                cards.append(CardObj(uid + i, None, player, None))
            state.next_uid = uid + n
            deck.hidden -= n
            return n
        moved = 0
        for _ in range(n):
            if len(deck.cards) + deck.hidden == 0 or state.stage != "turn":  # (the size of the deck, read at once)
                break
            card = self.take_top(state, player, None, [], how)
            card.face_up = True
            getattr(side, to).cards.append(card)
            moved += 1
            if self.check_empty(state, player):
                break
        return moved

    @BOOK.encodes("EB.damage.take", what="damage moves that many top cards of the deck to the discard pile")
    def deal_damage(self, state: EpicBattlesState, player: str, n: int) -> None:
        if n <= 0:
            return
        state.facts.append(("damage", player, n))
        self.move_top(state, player, n, "discard", "took as damage")
        if state.stage == "turn":
            self.occur(state, "dealt_damage", player)

    @BOOK.encodes("EB.chip", what="chipping moves the top cards of the blocker's deck to the discard pile, unless replaced")
    def chip(self, state: EpicBattlesState, player: str, n: int) -> None:
        if n <= 0:
            return  # chipping nothing is no chip (docs/epic_battles-decisions.rst)
        character = state.sides[player].character
        if character is not None and character.name is not None:
            for ability in B.abilities(state, character.name, A.Replacement):
                subject = ability.event.subject
                if ability.event.event == "chipped" and player in B.who(state, player, subject.owner if subject else "you"):
                    self._run_now(state, player, character, ability.effect)
                    return
        state.facts.append(("chip", player, n))
        self.move_top(state, player, n, "discard", "chipped")
        if state.stage == "turn":
            self.occur(state, "chipped", player)

    def _run_now(self, state: EpicBattlesState, controller: str, source: CardObj, effect: tuple[A.Step, ...]) -> None:
        """Carry out a replacement at once; one that would need the log is not modelled."""
        res = Resolution(controller, source, [interpreter.Frame(effect)], None, vars={"this": source.uid})
        if not interpreter.run(self.effects, state, res) and state.stage == "turn":
            raise B.Unmodelled(f"{source.name}: a replacement that needs choices is not modelled")

    def knock_down(self, state: EpicBattlesState, player: str, how: str) -> None:
        """``player`` is knocked down (``knock_down``) or launched (``launch``), EB.kw.knockdown, EB.kw.launcher."""
        state.sides[player].down = how
        state.facts.append(("down", player, how))
        self.occur(state, "knocked_down" if how == "knock_down" else "launched", player)

    def recover(self, state: EpicBattlesState, player: str, source: str | None = None) -> None:
        """``player`` stands up, unless an effect forbids recovering (EB.recover.*).

        With ``source`` a card's effect stands them up: its *recover* clashes with the
        knock-down, which lasts until the combo is over, and with any card's can't recover
        in force; the policy decides (EB.recover.effect, spec.epic_battles.conflicts).
        """
        side = state.sides[player]
        if side.down is None:
            return
        settled: str | None = None
        if source is not None:
            stands, settled = EC.judge_recover(state, player, source)
            if not stands:
                return
        elif B.prohibited(state, player, "recover"):
            return
        side.down = None
        self.occur(state, "recovered", player, settled=settled)

    def check_empty(self, state: EpicBattlesState, player: str) -> bool:
        """The instant a deck is empty its player loses the round (EB.win.round)."""
        deck = state.sides[player].deck
        if state.stage == "turn" and deck.hidden + len(deck.cards) == 0:
            self.end_round(state, loser=player)
            return True
        return False

    @BOOK.encodes("EB.win.round", "EB.win.game", "EB.setup.aggressor.later", "EB.setup.shuffle",
                  what="a round ends the instant a deck is empty; two rounds win the game; the loser is the next aggressor")
    def end_round(self, state: EpicBattlesState, loser: str) -> None:
        winner = state.other(loser)
        state.sides[winner].rounds_won += 1
        state.round_winners.append(winner)
        state.facts.append(("round", winner))
        if state.resolution is not None:
            state.resolution.frames.clear()
            state.resolution.need = None
        for res, _pending in state.suspended:
            if res is not None:
                res.frames.clear()
        state.resolution = None
        state.pending, state.waiting, state.scheduled, state.suspended = [], [], [], []
        state.strikes, state.combo, state.combo_owner = [], [], None
        state.lasting, state.delayed, state.recent = [], [], []
        state.window = ""
        state.effects_may_change()
        if state.sides[winner].rounds_won >= 2:
            state.winner = winner
            state.stage = "over"
            state.node = "over"
            state.facts.append(("game", winner))
            return
        state.round += 1
        state.turn = 0
        state.aggressor = loser
        state.stage = "setup"
        state.node = "setup"
        state.holder = ""
        for side in state.sides.values():
            for zone in (side.hand, side.energy, side.discard, side.arena, side.removed):
                zone.cards.clear()
            side.deck.cards.clear()
            side.deck.hidden = side.deck_size
            side.top.clear()
            side.knowledge = DeckKnowledge(side.knowledge.registered, side.knowledge.limit, side.name)
            side.down = None
            side.shuffled = False
            side.drawn = 0
        state.seq = None  # (the fresh journals date nothing more before the next event)

    # ================================================================== the work loop

    def _drive(self, state: EpicBattlesState) -> None:
        """Carry out the work the rules call for until the log must say something."""
        if state.resolution is None and not (state.pending or state.waiting or state.scheduled) \
                and (not state.strikes or not state.strikes[-1].negated):
            return  # nothing to do and no negated attack to settle (_settle): the usual case after a move
        # (out of a turn, _work only drops the queued work: with none queued there is nothing to drop)
        self._work(state)

    def _work(self, state: EpicBattlesState) -> None:
        """:meth:`_drive` once it is known there is something to do (``_apply`` asks first)."""
        for _ in range(10_000):
            if state.stage != "turn":
                state.scheduled.clear()
                state.waiting.clear()
                return
            waiting, scheduled = state.waiting, state.scheduled
            if waiting or scheduled:  # (both go first, in that order; the lists are kept, emptied)
                if scheduled:
                    state.pending[0:0] = scheduled
                    scheduled.clear()
                if waiting:
                    state.pending[0:0] = waiting
                    waiting.clear()
            res = state.resolution
            if res is not None:
                if res.need is not None:
                    return
                try:
                    done = interpreter.run(self.effects, state, res)
                except (B.Unmodelled, UnsupportedStep) as error:
                    state.resolution = None
                    state.pending.clear()
                    source = getattr(res.source, "name", None)
                    if source is not None and source not in str(error):
                        raise B.Unmodelled(f"{source}: {error}") from None
                    raise
                if state.stage != "turn":
                    continue
                if not done:
                    if state.resolution is res:
                        return
                    continue
                if state.resolution is res:
                    state.resolution = None
                continue
            if state.pending:
                job = state.pending.pop(0)
                if job.kind == "effect":
                    state.resolution = Resolution(job.controller, job.source, [interpreter.Frame(job.effect)], job, vars=dict(job.vars))
                else:
                    getattr(self, job.then)(state, *job.args)
                continue
            strikes = state.strikes
            if strikes and strikes[-1].negated:
                self._settle(state)
                if state.waiting or state.scheduled or state.pending:
                    continue
            return
        raise B.Unmodelled("the effects do not come to an end")

    def _settle(self, state: EpicBattlesState) -> None:
        """A negated attack waiting for a block finishes at once."""
        strike = state.strikes[-1] if state.strikes else None
        if strike is not None and strike.negated and strike.stage == "block" and state.window == "block":
            state.window = ""
            self.schedule(state, Job("then", then="_finish", args=(strike.sid,)))

    # ================================================================== feeding an effect that waits for the log

    def _feed(self, state: EpicBattlesState, ev: Any, kind: str) -> list[Ruling]:
        res = state.resolution
        assert res is not None and res.need is not None
        need = res.need
        if kind == need.kind and ev.by == need.player and kind != "may":
            violation = self._feed_violation(state, need, ev)
            if violation is not None:
                return [Ruling(need.rule, violation)]
            need.started = True
            need.count -= 1
            if need.count <= 0:
                res.need = None
            rulings = self._take_fed(state, res, need, ev)
            self._drive(state)
            return rulings
        if need.kind == "may" and kind in ("accept", "decline") and ev.by == need.player:
            res.need = None
            if kind == "accept":
                res.push(need.detail)
            self._drive(state)
            return []
        if need.optional and kind == "decline" and ev.by == need.player:
            res.need = None
            self._drive(state)
            return []
        if need.optional:
            res.need = None
            self._drive(state)
            return self._apply(state, ev, kind)
        return [Ruling(need.rule, Violation(f"the effect being carried out needs {need.describe()}", need.describe(), f"{kind} by {ev.by}"))]

    def _feed_violation(self, state: EpicBattlesState, need: Need, ev: Any) -> Violation | None:
        side = state.sides[need.player]
        if need.kind == "discard" and ev.card is not None:
            problem = X.in_zone(side.hand, ev.card, "hand", need.player)
            if problem is None and need.detail is not None and not B.accepts(state.cards.get(ev.card), need.detail):
                return Violation(f"{ev.card} is not what the effect asks for", need.detail.describe(), ev.card)
            return problem
        if need.kind == "discard" and len(side.hand) == 0:
            return Violation("nothing to discard", "a card in hand", "none")
        if need.kind == "select":
            sel = need.detail
            problem = X.in_zone(side.discard, ev.card, "discard pile", need.player)
            if problem is None and not B.accepts(state.cards.get(ev.card), sel):
                return Violation(f"{ev.card} is not what the effect asks for", f"{sel.team or ''} {sel.type}".strip(), ev.card)
            return problem
        if need.kind == "search" and ev.card is not None and not B.accepts(state.cards.get(ev.card), need.detail):
            return Violation(f"{ev.card} does not match the search", f"{need.detail.team or ''} {need.detail.type}".strip(), ev.card)
        return None

    @BOOK.encodes("EB.kw.taunt", "EB.kw.taunt.unpaid", "EB.kw.taunt.nonattack",
                  what="what a taunted player turns over: an attack they can pay for is played at the taunter; anything else is discarded")
    def _take_fed(self, state: EpicBattlesState, res: Resolution, need: Need, ev: Any) -> list[Ruling]:
        player = need.player
        side = state.sides[player]
        rulings: list[Ruling] = []
        if need.kind == "draw":
            return self.draw(state, player, ev.card)
        if need.kind == "discard":
            side.discard.add(self.take(state, player, side.hand, ev.card, rulings))
        elif need.kind == "select":
            card = self.take(state, player, side.discard, ev.card, rulings)
            to = res.vars.get("put_to")
            if to == "hand":
                side.hand.add(card)
            elif to == "energy pile":
                side.energy.add(card)
            elif to == "removed":
                side.removed.add(card)
            else:  # deck bottom or top: the card is unseen again
                side.deck.hidden += 1
                if card.name is not None:
                    state.sides[player].knowledge.dated(state.seq).conceal(card.name, f"put {card.name} back into the deck ({to})")
                if to == "deck top" and card.name is not None:
                    side.top.insert(0, card.name)
                    state.sides[player].knowledge.dated(state.seq).reveal(card.name, f"left {card.name} known on top of the deck")
        elif need.kind == "shuffle":
            side.top.clear()
        elif need.kind == "search":
            if ev.card is not None:
                rulings.extend(self.identify(state, player, ev.card, f"searched the deck and took {ev.card}"))
                side.deck.hidden = max(0, side.deck.hidden - 1)
                side.hand.add(state.new_card(ev.card, player, state.cards[ev.card]))
                self.check_empty(state, player)
        elif need.kind == "reveal" and need.detail == "taunt":
            card = self.take_top(state, player, ev.card, rulings, "turned over (Taunt)")
            card.face_up = True
            if self.check_empty(state, player):
                return rulings
            self._taunted(state, res, player, card)
        elif need.kind == "reveal":
            index = int(res.vars.get("revealed", 0))
            res.vars["revealed"] = index + 1
            if index < len(side.top):
                if side.top[index] != ev.card:
                    rulings.append(Ruling(cite("EB.setup.draw"), Violation(f"{player}'s card {index + 1} from the top was shown to be "
                                                                         f"{side.top[index]}", side.top[index], ev.card, "inconsistent")))
            else:
                if not B.can_reveal(state, player, ev.card):
                    cap, rule = B.bound(state, player, ev.card)
                    rulings.append(Ruling(cite(rule), Violation(f"{player}'s deck cannot hold {ev.card} on top",
                                                                f"at most {cap} cop(ies)", ev.card, "inconsistent")))
                side.top.append(ev.card)
        return rulings

    def _taunted(self, state: EpicBattlesState, res: Resolution, player: str, card: CardObj) -> None:
        """The card a taunted player turned over: played at the taunter if it is an attack they can pay for."""
        side = state.sides[player]
        if B.role(card.defn) != "attack" or not self._playable_by_taunt(state, player, card):
            side.discard.add(card)
            return
        state.suspended.append((state.resolution, state.pending))
        state.resolution, state.pending = None, []
        strike = Strike(state.next_sid, player, res.controller, card, taunted=True)
        state.next_sid += 1
        state.strikes.append(strike)
        self._play_strike(state, strike)

    def _playable_by_taunt(self, state: EpicBattlesState, player: str, card: CardObj) -> bool:
        """A taunted attack is played only if its player can pay for it and its own conditions allow it."""
        name = card.name or ""
        for ability in B.abilities(state, name, A.Conditional):
            if ability.timing is not None:
                return False  # it is not part of a combo, so neither timing holds
            if ability.condition is not None and not B.condition_holds(state, player, ability.condition, {"combo": 1}):
                return False
        _effect, extra = B.spell(state, name)
        return X.cost_shortfall(state, player, B.cost(state, card, player, {"combo": 1}), extra, keep=0) is None

    # ================================================================== claims
    # A claim changes nothing once its precondition holds, but marks the fact it matched.

    def _claim(self, state: EpicBattlesState, fact: tuple[Any, ...]) -> None:
        index = X.unclaimed(state, fact)
        if index is not None:
            state.claimed.add(index)

    def _do_damage(self, state: EpicBattlesState, ev: E.Damage) -> None:
        self._claim(state, ("damage", ev.to, ev.amount))

    def _do_chip(self, state: EpicBattlesState, ev: E.Chip) -> None:
        self._claim(state, ("chip", ev.player, ev.amount))

    def _do_down(self, state: EpicBattlesState, ev: E.Down) -> None:
        self._claim(state, ("down", ev.player, ev.how))

    def _do_round(self, state: EpicBattlesState, ev: E.Round) -> None:
        self._claim(state, ("round", ev.winner))

    def _do_game(self, state: EpicBattlesState, ev: E.Game) -> None:
        self._claim(state, ("game", ev.winner))

    def _do_step(self, state: EpicBattlesState, ev: E.Step) -> None:
        return None

    def _do_select(self, state: EpicBattlesState, ev: E.Select) -> None:  # pragma: no cover - its check always refuses
        return None

    # Each its own method, not one aliased under four names: mypyc does not carry a method
    # assigned to another name in a class body (spec.compiled).
    def _do_accept(self, state: EpicBattlesState, ev: E.Accept) -> None:  # pragma: no cover - its check always refuses
        return None

    def _do_decline(self, state: EpicBattlesState, ev: E.Decline) -> None:  # pragma: no cover - its check always refuses
        return None

    def _do_reveal(self, state: EpicBattlesState, ev: E.Reveal) -> None:  # pragma: no cover - its check always refuses
        return None

    def _do_search(self, state: EpicBattlesState, ev: E.Search) -> None:  # pragma: no cover - its check always refuses
        return None

    # ================================================================== simulation hooks

    def unsupported(self, cards: Any, name: str) -> str | None:
        """Which ability of a card's text the spec gives no meaning to (for random decks: a card
        the spec cannot run would make a game it cannot judge), or ``None``."""
        try:
            tree = B.text_of(EpicBattlesState(("a", "b"), {}, cards, False), name)
        except B.Unmodelled as error:
            return str(error)
        for ability in tree.abilities:  # a step or condition the spec cannot carry out whatever the state
            for node in A.nodes(ability):
                if isinstance(node, A.Permit) and isinstance(ability, A.Passive) and node.subject.type == "player":
                    continue  # an always-on "a player can ...": read as such by the conflicts (conflicts.cards_in_force)
                gap = B.condition_gap(node) if isinstance(node, A.Condition) else step_gap(node)
                if gap is not None:
                    return gap
        return None

    def random_deck(self, cards: Any, rng: random.Random) -> dict[str, Any]:
        """A random registered decklist within the construction rules (EB.deck.*, EB.side.*), of
        cards the spec can run (:meth:`supported`)."""
        probe = EpicBattlesState(("a", "b"), {}, cards, False)
        cards = [c for c in cards if _runs(probe, c.name)]
        characters = sorted(c.name for c in cards if B.is_character(c))
        if not characters:
            raise DeckError(f"no Character card the spec can run to build a deck around ({cite('EB.card.character.count')})")
        character = rng.choice(characters)
        usable = [c for c in cards if not B.is_character(c) and not B.keyword(probe, c.name, "side_deck_only")
                  and B.character_allows(probe, c, character) and B.game_allows(probe, c, character)]
        main: dict[str, int] = {}

        def add(pool: list[Any], target: int) -> None:
            pool = sorted(pool, key=lambda c: c.name)
            rng.shuffle(pool)
            for card in pool:
                if sum(main.values()) >= target:
                    return
                room = B.copy_limit(probe, card) - main.get(card.name, 0)
                if room > 0:
                    main[card.name] = main.get(card.name, 0) + min(room, rng.randint(2, 4), target - sum(main.values()))

        free = [c for c in usable if B.role(c) == "attack" and B.printed(c, "cost") == 0]
        for card in free:
            main[card.name] = B.copy_limit(probe, card)
        add([c for c in usable if B.role(c) == "attack"], 27)
        add([c for c in usable if B.role(c) == "block"], 46)
        add([c for c in usable if B.role(c) == "event"], 59)
        add(usable, 59)
        side_pool = sorted(c.name for c in cards if B.keyword(probe, c.name, "side_deck_only")
                           and B.character_allows(probe, c, character) and B.game_allows(probe, c, character))
        side = {name: 1 for name in rng.sample(side_pool, 6)} if len(side_pool) >= 6 else {}
        return {"character": character, "main": dict(sorted(main.items())), "side": dict(sorted(side.items()))}

    def facts(self, state: EpicBattlesState) -> int:
        return len(state.facts)

    def claims_since(self, state: EpicBattlesState, before: int) -> list[dict[str, Any]]:
        """Damage, chip, knock-down, round and game claims for the facts derived since ``before``."""
        out: list[dict[str, Any]] = []
        for fact in state.facts[before:]:
            kind = fact[0]
            if kind == "damage":
                out.append({"do": "damage", "to": fact[1], "amount": fact[2]})
            elif kind == "chip":
                out.append({"do": "chip", "player": fact[1], "amount": fact[2]})
            elif kind == "down":
                out.append({"do": "down", "player": fact[1], "how": fact[2]})
            elif kind == "round":
                out.append({"do": "round", "winner": fact[1]})
            elif kind == "game":
                out.append({"do": "game", "winner": fact[1]})
        return out

    # ================================================================== end of log, views, copies

    def finish(self, state: EpicBattlesState) -> list[Ruling]:
        """At the end of a log with inferred passes, the players pass until an event is needed."""
        rulings: list[Ruling] = []
        if not state.explicit_passes:
            try:
                for _ in range(50):  # at most: the rest of a Set and an Action step, then the Draw step waits
                    if not self._can_advance(state):
                        break
                    self._advance(state)
            except (B.Unmodelled, UnsupportedStep) as error:
                rulings.append(Ruling(None, Violation(str(error), severity="unverifiable")))
        if state.resolution is not None and state.resolution.need is not None and not state.resolution.need.optional:
            need = state.resolution.need
            rulings.append(Ruling(need.rule, Violation("the log ends while an effect still needs events", need.describe(), "end of log", "info")))
        return rulings

    def resources(self, state: EpicBattlesState) -> dict[str, dict[str, int]]:
        """Per player: deck (their life), hand, energy pile, discard pile, rounds won."""
        return {player: {"deck": len(side.deck), "hand": len(side.hand), "energy": len(side.energy),
                         "discard": len(side.discard), "rounds won": side.rounds_won}
                for player, side in ((p, state.sides[p]) for p in state.players)}

    def view(self, state: EpicBattlesState) -> dict[str, Any]:
        sides = {}
        for player in state.players:
            side = state.sides[player]
            sides[player] = {
                "character": side.character.name if side.character is not None else None,
                "deck": len(side.deck), "hand": len(side.hand), "energy": len(side.energy),
                "discard": len(side.discard), "arena": len(side.arena), "down": side.down, "rounds_won": side.rounds_won,
            }
        return {"stage": state.stage, "round": state.round, "turn": state.turn, "aggressor": state.aggressor,
                "step": state.node, "window": state.window, "to_act": state.holder,
                "attacks": [s.card.name for s in state.strikes], "combo": [name for _uid, name in state.combo],
                "players": sides}

    def copy(self, state: EpicBattlesState) -> EpicBattlesState:
        return state.copy()

    # ================================================================== legal moves

    def legal_moves(self, state: EpicBattlesState, rng: random.Random | None = None) -> list[Event]:
        """Every move the rules allow now; chance events are sampled (with ``rng``) or represented."""
        candidates = self._candidates(state, rng or random.Random(0))
        legal = []
        quick = state.explicit_passes and (state.resolution is None or state.resolution.need is None)
        for move in candidates:
            if quick and state.stage != "over":
                try:
                    if BOOK.actions[str(move.__struct_config__.tag)].first_violation(state, move) is not None:
                        continue  # refused by a precondition: apply would say so too
                except (B.Unmodelled, UnsupportedStep):
                    continue
            trial = state.copy()
            rulings = self.apply(trial, move)
            if not any(r.violation.severity in ("illegal", "inconsistent", "malformed", "unverifiable") for r in rulings):
                legal.append(move)
        return legal

    def _names(self, state: EpicBattlesState, player: str, zone: Zone, kind: str | None = None) -> list[str]:
        """Names a card of the zone can have: the known ones, and any an unseen card could be."""
        names = {c.name for c in zone if c.name is not None}
        if zone.unknown() is not None:
            names |= {d.name for d in state.cards if not B.is_character(d) and B.can_reveal(state, player, d.name)}
        return sorted(n for n in names if kind is None or B.role(state.cards.get(n)) == kind)

    def _candidates(self, state: EpicBattlesState, rng: random.Random) -> list[Event]:
        out: list[Event] = []
        if state.stage == "over":
            return out
        res = state.resolution
        if res is not None and res.need is not None:
            out.extend(self._need_candidates(state, res.need, rng))
            if res.need.optional:  # any other event declines first (EpicBattles._feed)
                out.append(E.Decline(0, res.need.player))
                declined = state.copy()
                self.apply(declined, E.Decline(0, res.need.player))
                out.extend(m for m in self._candidates(declined, rng) if str(m.__struct_config__.tag) != "decline")
            return out
        for player in state.players:
            side = state.sides[player]
            if state.stage == "setup":
                chars = [side.registered_character] if side.registered_character else [c.name for c in state.cards if B.is_character(c)]
                out.extend(E.Character(0, player, c) for c in chars if c)
                out.append(E.Shuffle(0, player))
                out.append(E.Aggressor(0, None, player))
                out.extend(E.Draw(0, player, n) for n in self._drawable(state, player, rng))
                continue
            out.append(E.Pass(0, player))
            out.extend(E.Draw(0, player, n) for n in self._drawable(state, player, rng))
            hand = self._names(state, player, side.hand)
            for name in hand:
                kind = B.role(state.cards.get(name))
                if kind == "event":
                    out.append(E.Set(0, player, name))
                elif kind == "attack":
                    link = state.window == "link"
                    out.append(E.Attack(0, player, name, link=link))
                    if B.alternative(state, name) is not None:
                        out.append(E.Attack(0, player, name, alternative=True, link=link))
                elif kind == "block":
                    out.append(E.Block(0, player, name))
                    out.append(E.Recover(0, player, discard=name))
                out.append(E.Discard(0, player, name))
            blocks = [n for n in self._names(state, player, side.discard, "block")]
            for pair in combinations(blocks, 2):
                out.append(E.Recover(0, player, remove=list(pair)))
            for name in blocks:
                if sum(1 for c in side.discard if c.name == name) >= 2 or side.discard.unknown() is not None:
                    out.append(E.Recover(0, player, remove=[name, name]))
            hidden = Zone("arena")
            hidden.cards = [c for c in side.arena if not c.face_up]
            facedown = self._names(state, player, hidden, "event")
            flippable = [n for n in facedown if X.flip_moment(state, player, n) is not None or EC.flip_permitted(state, player)]
            out.extend(E.Flip(0, player, [n]) for n in flippable)
            out.extend(E.Flip(0, player, list(pair)) for pair in combinations(flippable, 2))
            if side.character is not None and side.character.name is not None:
                count = len([a for a in B.abilities(state, side.character.name, A.Activated) if not a.alternative])
                out.extend(E.Activate(0, player, i) for i in range(count))
        return out

    def _drawable(self, state: EpicBattlesState, player: str, rng: random.Random) -> list[str | None]:
        side = state.sides[player]
        if side.top:
            return [side.top[0]]
        knowledge = side.knowledge
        if knowledge.registered is None:
            return [None]
        pool = [n for n, k in sorted(knowledge.registered.items()) for _ in range(k - knowledge.located[n])]
        return [rng.choice(pool)] if pool else [None]

    def _need_candidates(self, state: EpicBattlesState, need: Need, rng: random.Random) -> list[Event]:
        p = need.player
        side = state.sides[p]
        if need.kind == "draw":
            return [E.Draw(0, p, n) for n in self._drawable(state, p, rng)]
        if need.kind == "discard":
            return [E.Discard(0, p, n) for n in self._names(state, p, side.hand)]
        if need.kind == "select":
            return [E.Select(0, p, n) for n in self._names(state, p, side.discard) if B.accepts(state.cards.get(n), need.detail)]
        if need.kind == "may":
            return [E.Accept(0, p), E.Decline(0, p)]
        if need.kind == "shuffle":
            return [E.Shuffle(0, p)]
        if need.kind == "reveal":
            res = state.resolution
            index = int(res.vars.get("revealed", 0)) if res is not None and need.detail == "top" else 0
            if index < len(side.top):
                return [E.Reveal(0, p, side.top[index])]
            if side.knowledge.registered is None:
                return [E.Reveal(0, p, d.name) for d in state.cards if not B.is_character(d) and B.can_reveal(state, p, d.name)]
            pool = [n for n, k in sorted(side.knowledge.registered.items())
                    for _ in range(k - side.knowledge.located[n] - side.top.count(n))]
            return [E.Reveal(0, p, rng.choice(pool))] if pool else []
        if need.kind == "search":
            names: list[str | None] = [None]
            names += [d.name for d in state.cards if B.accepts(d, need.detail) and B.can_reveal(state, p, d.name)
                      and (side.knowledge.registered is None or side.knowledge.registered.get(d.name, 0) > 0)]
            return [E.Search(0, p, n) for n in names]
        return []


def _runs(probe: EpicBattlesState, name: str) -> bool:
    """Whether the spec gives a meaning to every ability of the card ``name`` (read with ``probe``)."""
    try:
        B.text_of(probe, name)
    except B.Unmodelled:
        return False
    return True


__all__ = ["EpicBattles"]
