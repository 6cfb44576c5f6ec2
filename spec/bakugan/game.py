"""Bakugan TCG (2023) as a transition system: set-up, turns, brawls, damage.

:class:`Bakugan` implements :class:`spec.core.game.Game`. The preconditions of each event
live in :mod:`spec.bakugan.actions`; this module moves the game along: set-up (1.4), the
turn's steps (5), priority and the batch (1.14, 4.4), rolls and rerolls (5.7, 1.18),
the brawl, its tie break and damage (5.9-5.13), and the effects of card text through the
core interpreter (:mod:`spec.bakugan.effects`).

Passes. With ``options.passes = "explicit"`` every pass is logged (and a pass also
declines an energize or the play of a Flip card just turned over); a window closes when
both players have passed in succession. With ``"implicit"`` passes are inferred: when
an event is not legal where the game stands, the spec lets the players pass as often as
the rules allow until it is, never past an event the rules make compulsory (draws,
selections, rolls, cards turned over, discards); if no such point exists the event is
judged where the game stood.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any, ClassVar, Final, cast

import msgspec

from grammar import ast as A
from grammar import bakugan_nodes as K
from spec.bakugan import actions as X
from spec.bakugan import board as B
from spec.bakugan import conflicts as BC
from spec.bakugan import events as E
from spec.bakugan import targets as T
from spec.bakugan.actions import BOOK
from spec.bakugan.effects import Effects, repeated, step_gap
from spec.bakugan.state import (
    CORES_PER_PLAYER,
    DECK_SIZE,
    HAND_LIMIT,
    TEAM_SIZE,
    Attack,
    BakuganState,
    EnergyCard,
    Side,
    TurnFlags,
    held_slots,
    holders,
)
from spec.bakugan.state import (
    Bakugan as Toy,
)
from spec.bakugan.turn import TURN, WINDOWS
from spec.core import interpreter
from spec.core.cards import CardDatabase, CardDef
from spec.core.deck import over_limit, size_violation
from spec.core.findings import Violation
from spec.core.game import DeckError, Event, Game, Ruling, Setup, actor_problem
from spec.core.hidden import DeckKnowledge
from spec.core.hidden_z3 import DeckModel
from spec.core.hidden_z3 import check as hidden_check
from spec.core.interpreter import Resolution, UnsupportedStep
from spec.core.queue import Priority, QueueItem
from spec.core.rules import Action
from spec.core.state import CardObj, Zone

cite = BOOK.cite

NONE_FOUND: Final[tuple[Ruling, ...]] = ()
"""What an event (or a card shown from a deck) that finds nothing gives: one shared empty sequence,
not a new list each time. It is immutable: code that means to add a finding to what it was given
builds a list of its own (an ``append`` to this one fails at once rather than spreading). Hence the
methods that may hand it on say they give a :data:`Found` (a list or this tuple): compiled code checks
that a value declared a list is one."""

Found = Sequence[Ruling]
"""What judging or carrying out an event gives: its findings (a list of its own, or :data:`NONE_FOUND`)."""

NO_ACTOR: Final = ("first", "phase", "victor", "damage", "resolve", "game")
"""Event kinds that no player performs."""

DECK_TYPES: Final = ("Evo", "Hero", "Action", "Flip")
"""Printed types a deck holds: every type but Character (3.2.1.p1)."""

TEAM_TRIES: Final = 1000
"""How many random teams ``Bakugan.random_deck`` draws before it gives up on the cards given
(a team whose factions allow too few cards is drawn again)."""


def _plain(sel: A.Selector | None) -> bool:
    """A subject that says only a quantifier and a card type: all :meth:`Bakugan._fire` reads of it."""
    return sel is not None and (sel.owner, sel.zone, sel.name_contains, sel.other, sel.team) == (None, None, None, False, None)


TRIGGERS: Final[tuple[Callable[[A.Trigger], bool], ...]] = (
    lambda t: t.event == "opens" and t.subject is not None and (t.subject.quantifier == "this" or (t.who is not None and _plain(t.subject))),
    lambda t: t.event == "played" and t.who is not None and _plain(t.subject),
    lambda t: t.event == "played_on" and t.who is not None and _plain(t.subject),
    lambda t: t.event == "dealt_damage" and t.who is not None and t.subject is None,
    lambda t: t.event == "deals_damage" and t.who is not None and t.subject is None,
    lambda t: t.event == "turn_ends" and t.who is None and t.subject is None,
    lambda t: t.event == "attacks" and t.who is None and t.subject is not None and (t.subject.quantifier == "this" or (
        t.subject.quantifier == "a" and t.subject.type == "Bakugan" and _plain(msgspec.structs.replace(t.subject, owner=None)))),
    lambda t: t.event == "discarded" and t.subject is not None and (t.subject.quantifier == "this" or (t.who is not None and _plain(t.subject))),
)
"""The shapes of trigger that :meth:`Bakugan._fire`, :meth:`Bakugan._fire_played` and
:meth:`Bakugan._discard` carry out, each as much as they read of it; :func:`trigger_gap` names
any other. A shape taught to ``_fire`` is added here, or lint goes on naming its cards."""


def trigger_gap(trig: A.Trigger) -> str | None:
    """Why the spec never fires ``trig``, or ``None``: a triggered ability whose trigger never
    fires would silently do nothing, so ``lint`` notes it and a replay says it is unverifiable."""
    if any(shape(trig) for shape in TRIGGERS):
        return None
    said = ", ".join(([f"by {trig.who}"] if trig.who else []) + ([trig.subject.describe()] if trig.subject else []))
    return f"the trigger {trig.event!r}{f' ({said})' if said else ''} is not modelled"


def _damage_enough(state: BakuganState, controller: str, effect: tuple[A.Step, ...], context: dict[str, Any]) -> bool:
    """Whether an ability an attack's damage sets off meets the condition on that damage its
    effect opens with ("If you deal N or more damage in an attack, ..."): a condition of the
    trigger, so the ability triggers only when it holds (6.3.2.p1, decision 45)."""
    head = effect[0] if effect else None
    if isinstance(head, A.If) and head.condition.subject == "damage":
        return B.condition_holds(state, controller, head.condition, context)
    return True


def _team_for(cards: CardDatabase, reader: Any, characters: list[str], rng: random.Random, wanted: tuple[str, ...]) -> list[str]:
    """A random team of :data:`TEAM_SIZE` Characters that lets a deck hold the ``wanted`` cards,
    the first first, as far as the team's places go: each wanted Character itself, for a wanted
    Evo a Character it evolves from (3.3.1), one of its Factions if one is (1.1/2.1.p3); then,
    for each wanted card of Factions the team lacks, a Character of one of them (1.1/2.1.p3).
    The places left are drawn at random. With nothing wanted, a team drawn at random."""
    team: list[str] = []

    def factions(name: str) -> frozenset[str]:
        return B.card_factions(reader, cards[name])

    def seat(fits: list[str]) -> None:
        if fits and len(team) < TEAM_SIZE and not set(fits) & set(team):
            team.append(rng.choice(fits))

    held = [cards[name] for name in dict.fromkeys(wanted) if name in cards]
    for card in held:
        if card.type == "Character":
            seat([card.name] if card.name in characters else [])
        elif card.type == "Evo":
            bases = [c for c in characters if B.evolves(card, c, cards)]
            seat([c for c in bases if factions(c) & factions(card.name)] or bases)
    for card in held:
        if card.type != "Character" and not factions(card.name) & frozenset().union(*map(factions, team)):
            seat([c for c in characters if c not in team and factions(c) & factions(card.name)])
    return team + rng.sample([c for c in characters if c not in team], TEAM_SIZE - len(team))


def _own_discard(trig: A.Trigger) -> bool:
    """Whether ``trig`` is a card's own "if this is discarded": it fires from the discard pile (decision 41)."""
    return trig.event == "discarded" and trig.subject is not None and trig.subject.quantifier == "this"


def _answers_discard(state: BakuganState, name: str) -> bool:
    """Whether card ``name`` has its own "if this is discarded" (a text that does not read is reported where it is read)."""
    try:
        return any(_own_discard(a.trigger) for a in B.abilities(state, name, A.Triggered))
    except B.Unmodelled:
        return False


def unfired(cards: CardDatabase, name: str | None) -> str | None:
    """The first trigger of card ``name`` the spec never fires, or ``None`` (a text that does not
    read is reported where it is read)."""
    if name is None or name not in cards.cards:
        return None
    tree = cards.tree(name)
    if isinstance(tree, Exception):
        return None
    tree = B.as_read(tree, cards[name].type)
    return next(filter(None, (trigger_gap(a.trigger) for a in tree.abilities if isinstance(a, A.Triggered))), None)


# Rules encoded by the structure of this module rather than by one function.
BOOK.note("5.1.1", "5.1.2", "5.2.1.p1", "5.5.1", "5.8.1", "5.14.1", "5.1.4",
          what="the turn graph (spec.bakugan.turn.TURN): four phases, eleven steps, nothing between them")
BOOK.note("3.4.1", "3.5.1", "6.6.1.p1", what="Heroes, Actions and Evos are accepted in every priority window, Energy paid as they are played")
BOOK.note("4.4.4.1.p1", "4.4.4.1.p2", "6.6.2", "7.2.2.1.p2", "1.7.1.1",
          what="uncharging Energy cards is part of paying (the uncharge field), outside the batch")
BOOK.note("4.4.4.2.p1", "4.4.4.2.p2", "4.4.4.3", "6.5.2", "6.5.2.1", "6.9.2",
          what="BakuCore bonuses and static abilities are read on demand (board.raw_stat): no batch, no answer")
BOOK.note("6.5.3.p1", "6.5.3.p2", what="statics work in play only; a card's cost change of itself works from the hand (board.cost_changes)")
BOOK.note("1.14.4.p1", "6.1.1.p1", "6.1.1.p2", "1.14.4.p2", "1.14.3.p2", "1.14.2.p1",
          what="acting keeps priority and restarts the passes; passing hands priority over (core Priority)")
BOOK.note("2.5.1", "2.5.1.2", "2.5.1.3", "3.7.2", "2.3.2", "3.3.3",
          what="cards are read from the database: Factions from icons, printed types, the top card of a pile")
BOOK.note("2.9.2", "2.10.2", what="a Bakugan's BPower and Damage Rating are read as zero when below it (board.stat)")
BOOK.note("2.16.2.p2", "3.3.1", what="the Evo check (evo_matches_character): the Evo ID names the pile's base Character; Faction is not asked (decisions)")
BOOK.note("4.1.2.p1", what="the batch completes from its end only and is never reordered; decks are shuffled only when a rule or effect says (shuffle_called_for)")
BOOK.note("5.9.1", "5.10.3", "5.15.1.p1", what="the Power, Victor and play steps hold priority windows (turn.WINDOWS)")


def _kind(step: object) -> type:
    """The kind of a step as a condition after it reads it (``board.AFTER``): a step with
    conditions on its selection (``Qualified``) is the step it qualifies."""
    return type(step.step) if isinstance(step, K.Qualified) else type(step)


def card_identity(defn: CardDef) -> tuple[str, str | None, str]:
    """What the copy limit counts by: the name without a printing note, the Hero ID, the text.

    A database names each printing uniquely; a note in parentheses after the name is a
    Hero's Hero ID (2.17.2.1) or, on other cards, a mark of the printing that does not
    make another card (1.2/2.1.1).
    """
    found = B.PRINTING_NOTE.fullmatch(defn.name)
    base = found.group(1) if found else defn.name
    hero_id = found.group(2) if found and defn.type == "Hero" else None
    return base, hero_id, defn.text


def deck_reading(cards: CardDatabase, defn: CardDef) -> tuple[str, frozenset[str]]:
    """What the deck checks read of a card: the key its copies are counted by (:func:`card_identity`)
    and its Factions (:func:`~spec.bakugan.board.card_factions`).

    Read once per card of the database, kept with the very card definition it was read from.
    """
    cache: dict[str, tuple[CardDef, tuple[str, frozenset[str]]]] | None = cards.__dict__.get("_bakugan_deck_reading")
    if cache is None:
        cache = cards.__dict__["_bakugan_deck_reading"] = {}
    kept = cache.get(defn.name)
    if kept is not None and kept[0] is defn:
        return kept[1]
    base, hero_id, text = card_identity(defn)
    found = (f"{base}|{hero_id}|{text}", B.card_factions(_reader(cards), defn))
    cache[defn.name] = (defn, found)
    return found


class Bakugan(Game[BakuganState, Event]):
    """The Bakugan TCG (2023) glossary rules for two players."""

    pass_snapshot_shares_cards = False  # the saved state copies the cards too

    chance_fields: ClassVar[dict[str, tuple[str, ...]]] = {"draw": ("card",), "flip": ("card",), "roll": ("core",),
                                                            "place": ("touches",)}
    """What legal_moves samples (left out when matching moves, see Game.choice_key): chance
    outcomes, and which placed BakuCores a new one touches. That is the table's geometry,
    which the spec checks against the Field (1.4/4.3.1) but does not enumerate: legal_moves
    offers each placement with one placed BakuCore touched."""

    parting_moves: ClassVar[frozenset[str]] = frozenset({"discard", "energize"})
    """A card energized goes into the Energy, face down, instead of being played (7.2.4.1)."""
    id: ClassVar[str] = "bakugan"
    title: ClassVar[str] = "Bakugan TCG (2023)"
    rulesets: ClassVar[tuple[str, ...]] = ("bakugan/1",)
    default_cards: ClassVar[str] = "bakugan/base"
    events = E.EVENTS
    event_kinds = E.KINDS
    book = BOOK
    turn = TURN

    def __init__(self) -> None:
        self.effects = Effects(self)
        self._anyway = True
        """Whether an illegal move is carried out as far as it goes (for ``--keep-going``): always, but
        while :meth:`legal_moves` tries its candidates (:meth:`_judge`)."""
        self._checked: Any = None
        """The event being carried out right after all its checks passed, with nothing changed in between
        (:meth:`apply`): what its checks worked out may be reused (:func:`spec.bakugan.actions.checked_play`)."""

    # ================================================================== set-up and decks

    def setup(self, setup: Setup) -> BakuganState:
        sides: dict[str, Side] = {}
        state = BakuganState(setup.players, sides, setup.cards, setup.options.get("passes") == "explicit")
        for player in setup.players:
            deck = setup.decks.get(player)
            registered: Counter[str] | None = None
            team: list[str] = []
            cores: list[str] | None = None
            if deck is not None:
                registered, team, cores = self._check_deck(setup, player, deck)
            side = Side(player, Zone("deck", ordered=True, public=False), Zone("hand", public=False), Zone("discard"),
                        DeckKnowledge(registered, self._limit, player), {}, cores)
            side.deck.hidden = sum(registered.values()) if registered is not None else DECK_SIZE
            sides[player] = side
            for name in team:
                self._add_to_team(state, player, name)
                gap = unfired(setup.cards, name)
                if gap is not None:
                    setup.rulings.append(Ruling(None, Violation(f"{player}'s team: {name}: {gap}, so what it does is not checked",
                                                                severity="unverifiable")))
        state.priority = Priority(setup.players[0])
        return state

    @staticmethod
    def _limit(name: str) -> int | None:
        return 3

    @BOOK.encodes("1.4/4.1.p1", "3.2.1.p3", what="each Bakugan starts closed with its Character card face down")
    def _add_to_team(self, state: BakuganState, player: str, name: str) -> Toy:
        card = state.new_card(name, player, state.cards.get(name))
        card.face_up = False
        toy = Toy(name, card)
        state.sides[player].team[name] = toy
        state.in_play_changed()
        return toy

    @BOOK.encodes("1.1/2.1.p1", "1.1/2.1.p2", "1.1/2.1.p3", "1.1/2.1.1", "1.2/2.1.p1", "1.2/2.1.1", "1.2/2.2", "1.2/2.3",
                  "2.11.2", "2.17.2.1", "3.2.1.p1", "1.10.1.p2", "4.2.1.p1", "4.2.1.p2",
                  what="deck construction checked against the registered decklist")
    def _check_deck(self, setup: Setup, player: str, deck: Any) -> tuple[Counter[str], list[str], list[str]]:
        def find(rule: str, message: str, expected: str, actual: str, severity: str = "illegal") -> None:
            setup.rulings.append(Ruling(cite(rule), Violation(f"{player}'s deck: {message}", expected, actual, severity)))  # type: ignore[arg-type]

        try:
            typed = msgspec.convert(deck, E.Decklist)
        except msgspec.ValidationError as error:
            setup.rulings.append(Ruling(None, Violation(f"{player}'s decklist is not valid: {error}", "deck, team, bakucores",
                                                        "a different shape", "malformed")))
            return Counter(), [], []
        cards = setup.cards
        known = cards.cards  # name -> card, the database's own dictionary
        main: Counter[str] = Counter()
        main.update({k: v for k, v in typed.deck.items() if v})
        for name in list(main) + typed.team:
            if name not in known:
                setup.rulings.append(Ruling(None, Violation(f"{player}'s deck lists {name!r}, which is not in the card database"
                                                            f"{B.printings_of(cards, name)}", "a card of the database", name,
                                                            "unverifiable")))
        team = [n for n in typed.team if n in known]
        if len(typed.team) != TEAM_SIZE or len(set(typed.team)) != len(typed.team):
            find("1.1/2.1.p1", "the team is not three different Bakugan", "three different Characters", ", ".join(typed.team) or "none")
        for name in team:
            if known[name].type != "Character":
                find("1.1/2.1.p1", f"{name} on the team is not a Character", "Character cards", known[name].type)
        problem = size_violation(sum(main.values()), DECK_SIZE, DECK_SIZE)
        if problem:
            find("1.1/2.1.p3", "deck size", f"exactly {DECK_SIZE} cards", problem)
        team_factions: set[str] = set()
        reader = _reader(cards)  # card texts read off its cards alone
        for name in team:
            team_factions |= B.card_factions(reader, known[name])
        misplaced: list[tuple[str, CardDef]] = []  # 3.2.1.p1
        counted: dict[str, int] = {}  # 1.2/2.1.p1
        strangers: list[tuple[str, CardDef]] = []  # 1.2/2.2
        for name, n in main.items():  # each card of the deck read once for the three checks, reported rule by rule below
            defn = known.get(name)
            if defn is None:
                continue
            if defn.type not in DECK_TYPES:
                misplaced.append((name, defn))
            copies_key, card_factions = deck_reading(cards, defn)
            counted[copies_key] = counted.get(copies_key, 0) + n
            if team and not (card_factions & team_factions):
                strangers.append((name, defn))
        identities: Counter[str] = Counter()
        identities.update(counted)
        for name, defn in misplaced:
            find("3.2.1.p1", f"{name} is a {defn.type} card in the deck", "no Character cards in the deck", defn.type)
        for key, n, cap in over_limit(identities, lambda _key: 3):
            find("1.2/2.1.p1", f"{n} copies of {key.split('|')[0]}", f"at most {cap}", str(n))
        for name, defn in strangers:
            find("1.2/2.2", f"{name} shares no Faction with the team", ", ".join(sorted(team_factions)), ", ".join(defn.traits))
        if len(typed.bakucores) != CORES_PER_PLAYER:
            find("1.1/2.1.p2", "BakuCores", f"{CORES_PER_PLAYER} BakuCores", str(len(typed.bakucores)))
        indicated = sorted(c for name in team if known[name].type == "Character" for c in known[name].stats.get("cores", []))
        registered = sorted(typed.bakucores)
        if team and registered != indicated:  # the same BakuCores, as many of each
            find("1.1/2.1.1", "BakuCores do not match the indicators", ", ".join(indicated), ", ".join(registered))
        return main, list(typed.team), list(typed.bakucores)

    # ================================================================== applying events

    def apply(self, state: BakuganState, ev: Event) -> Found:  # type: ignore[override]  # a list, or NONE_FOUND
        """Judge and carry out one event: who made it and what it names, where the game stands,
        an effect waiting for a choice, then the checks of its action that can fail where the game
        stands (:func:`spec.bakugan.actions.staged`), passes inferred (:meth:`_refused`), and the
        event carried out (:attr:`_KindFacts.perform`)."""
        state.seq = ev.seq  # the date of what the decks' journals record for this event
        try:
            facts: _KindFacts = ev._facts  # type: ignore[attr-defined]  # kept on its type (_facts_for)
        except AttributeError:  # a type not of E.EVENTS
            facts = _facts_for(type(ev))
        try:
            by = ev.by  # type: ignore[attr-defined]
            if by not in state.players:  # not a player, or nobody
                problem = actor_problem(facts.kind, by, state.players, facts.performed)
                if problem is not None:
                    return problem
            if facts.names:  # the kinds with selections name a card too
                known = state.cards.cards
                for field in facts.names:
                    name = getattr(ev, field)
                    if name is not None and name not in known:
                        return [self._unknown_card(state, name)]
            stage = state.stage
            if stage == "turn":
                place = state.node
            elif stage == "over" and not facts.claim:
                return [Ruling(cite("1.5.1"), Violation("an event after the game ended", "no more events", facts.kind), "game_over")]
            else:
                place = stage
            if state.resolution is not None and state.resolution.need is not None and facts.fed:
                return self._feed(state, ev, facts.kind)
            for test in facts.tests[place][state.mode]:  # action.first_violation, without the checks that find nothing here
                violation = test(state, ev)
                if violation is not None:
                    return self._refused(state, ev, facts, test, violation)
            return facts.perform(self, state, ev) or NONE_FOUND
        except (B.Unmodelled, UnsupportedStep) as error:
            return [Ruling(None, Violation(str(error), severity="unverifiable"))]

    def _refused(self, state: BakuganState, ev: Event, facts: _KindFacts, test: Any, violation: Violation) -> Found:
        """A check of ``ev`` (its ``test``) found ``violation``: passes are inferred where the log leaves
        them unsaid (the event then carried out if it became legal), else the finding, the move carried
        out as far as it goes."""
        hit: tuple[Any, Violation] = (facts.check_of[test], violation)
        kind = facts.kind
        if kind != "pass" and not state.explicit_passes:
            # called untyped: what it feeds may be NONE_FOUND, not the list core's type says (compiled code would refuse it)
            still, fed = cast(Any, self).infer_passes(state, ev, kind, facts.action, hit, facts.claim)
            if fed is not None:
                return fed
            if still is None:  # legal once the players passed: every check of ev has just passed
                return facts.perform(self, state, ev) or NONE_FOUND
            hit = still
        check, found = hit
        if self._anyway:
            self.apply_anyway(state, ev, kind)
        return [Ruling(check.rule, found, check.name)]

    def _do_checked_play(self, state: BakuganState, ev: E.Play) -> list[Ruling]:
        """Carry out a play right after all its checks passed, with nothing changed in between:
        what the checks worked out is reused (:attr:`_checked`, :func:`spec.bakugan.actions.checked_play`)."""
        self._checked = ev
        try:
            return self._do_play(state, ev)
        finally:
            self._checked = None

    def _do_noted_reroll(self, state: BakuganState, ev: E.Reroll) -> list[Ruling]:
        """Carry out a reroll whose checks passed, listing first how the clashes it met were settled
        (:func:`spec.bakugan.conflicts.move_notes`)."""
        notes = BC.move_notes(state, ev, "reroll")
        self._do_reroll(state, ev)
        return notes

    def _do_nothing(self, state: BakuganState, ev: Event) -> None:
        """An event whose checks are all it asks (a claim): nothing changes."""

    conflicts_met = staticmethod(BC.conflicts_met)
    """Clashes of effects in force, settled by the Bakugan policy: :func:`spec.bakugan.conflicts.conflicts_met` itself
    (the verifier calls it without a call in between)."""

    conflicts_stamp: ClassVar[str | None] = "conflicts_clock"
    """The verifier asks :meth:`conflicts_met` only after the events that moved
    :attr:`BakuganState.conflicts_clock` (what is in play changed, the first turn began, or an
    effect in force has a condition); after the others it would find nothing new."""

    def _judge(self, state: BakuganState, event: Event, anyway: bool) -> Found:  # type: ignore[override]  # a list, or NONE_FOUND
        """Check and apply one event (:meth:`apply`); ``anyway``: carry out an illegal move as far as it goes."""
        self._anyway = anyway
        try:
            return self.apply(state, event)
        finally:
            self._anyway = True

    @staticmethod
    def _unknown_card(state: BakuganState, name: str) -> Ruling:
        """The finding for a card an event names that the database does not hold."""
        return Ruling(None, Violation(B.not_held(state.cards, name), "a card the spec knows", name, "unverifiable"))

    # ------------------------------------------------------------------ set-up

    @BOOK.encodes("1.4/4.2", what="the random pick names who places the first BakuCore")
    def _do_first(self, state: BakuganState, ev: E.First) -> None:
        state.first = ev.player

    @BOOK.encodes("1.4/4.3.p1", "4.7.1", what="each BakuCore placed takes the next slot of the Field")
    def _do_place(self, state: BakuganState, ev: E.Place) -> None:
        side = state.sides[ev.by or ""]
        if side.cores_left is not None and ev.core in side.cores_left:
            side.cores_left.remove(ev.core)
        state.field_cores[len(state.field_cores) + 1] = (ev.core, ev.by or "")
        side.placed += 1
        state.last_placer = ev.by

    def _do_shuffle(self, state: BakuganState, ev: E.Shuffle) -> None:
        state.sides[ev.by or ""].shuffled = True

    @BOOK.encodes("1.4/4.4.p3", "4.3.1.p3", "1.17.1.p2", "5.3.1", what="drawing moves the top card of the deck into the hand")
    def _do_draw(self, state: BakuganState, ev: E.Draw) -> Found:
        player = ev.by or ""
        rulings = self._draw(state, player, ev.card)
        if state.stage == "setup":
            state.sides[player].opening_draws += 1
            self._maybe_begin(state)
        else:
            state.flags.drew.add(player)
            if state.flags.drew.issuperset(state.players):
                self._enter(state, "energize")
        return rulings

    def _draw(self, state: BakuganState, player: str, name: str | None) -> Found:
        side = state.sides[player]
        rulings: Found = self._reveal_from_deck(state, player, name, f"drew {name}")
        side.hand.cards.append(state.new_card(name, player, state.cards.get(name) if name else None))  # into the hand
        return rulings

    @BOOK.encodes("4.2.1.p2", what="every card the log shows leaving a deck is one the registered deck (or the copy limit) can still hold")
    def _reveal_from_deck(self, state: BakuganState, player: str, name: str | None, words: str = "") -> Found:
        """The top card of ``player``'s deck leaves it as ``name``; inconsistent if the deck cannot hold it.

        Every card shown is written to the deck's journal (:class:`~spec.core.hidden.DeckKnowledge`);
        counting copies decides (a Bakugan log names every card it shows, decision 31), and
        the journal gives the explanation: the registered entry and each event that showed
        the card, in plain words.
        """
        side = state.sides[player]
        deck = side.deck
        if deck.hidden > 0:
            deck.hidden -= 1
        if name is None:
            return NONE_FOUND
        knowledge = side.knowledge
        if knowledge.show(name, state.seq, words or f"showed {name} from the deck"):
            return NONE_FOUND  # the deck can hold it: nothing to report (most cards shown)
        copy = knowledge.located[name]  # this copy, now counted
        return [Ruling(cite("4.2.1.p2"), Violation(
            self._explain_reveal(side, name), f"at most {knowledge.bound(name)} cop(ies) of {name}",
            f"copy {copy}", "inconsistent"))]

    @staticmethod
    def _explain_reveal(side: Side, name: str) -> str:
        """Why no arrangement of the deck gives the log: the unsat core of the journal, in plain words."""
        knowledge = side.knowledge
        outcome = hidden_check(DeckModel(side.name, knowledge.registered, knowledge.limit, DECK_SIZE),
                               [o for o in knowledge.observations() if o.name == name])
        if outcome.status == "inconsistent":
            return outcome.explanation
        bound = knowledge.bound(name)
        held = "the construction rules allow" if knowledge.registered is None else "the registered deck holds"
        return f"{side.name} showed {name} once more than {held} ({bound})"

    @BOOK.encodes("1.14.1.1", what="set-up over, the player who placed the last BakuCore starts turn one")
    def _maybe_begin(self, state: BakuganState) -> None:
        if len(state.field_cores) < 2 * CORES_PER_PLAYER or any(s.opening_draws < 5 for s in state.sides.values()):
            return
        state.stage = "turn"
        state.effects_may_change()  # the effects in force count from now on (conflicts_met)
        state.starting = state.last_placer or state.players[0]
        self._start_turn(state)

    # ------------------------------------------------------------------ the turn

    @BOOK.encodes("1.14.1", "5.2.2", "1.17.2", what="a turn begins: the last Victor starts; empty decks skip their draw")
    def _start_turn(self, state: BakuganState) -> None:
        state.turn += 1
        state.flags = TurnFlags()
        state.victor = None
        state.team_attack = False
        state.attack = None
        state.tie = {}
        state.in_brawl = {}
        state.to_roll = []
        state.offer = None
        state.node, state.mode = "draw", ""
        state.priority.reset(state.starting)
        for player in state.players:
            if len(state.sides[player].deck) == 0:
                state.flags.drew.add(player)
        if state.flags.drew.issuperset(state.players):
            self._enter(state, "energize")

    @BOOK.encodes("3.7.1", "5.4.1", "5.4.2", "7.2.4.1", what="an energized card enters play as a charged Energy card")
    def _do_energize(self, state: BakuganState, ev: E.Energize) -> None:
        player = ev.by or ""
        self._energize_from_hand(state, player, ev.card, charged=True)
        self._energize_decided(state, player)

    def _energize_decided(self, state: BakuganState, player: str) -> None:
        state.flags.energize_done.add(player)
        if state.flags.energize_done.issuperset(state.players):
            self._enter(state, "selection")

    @BOOK.encodes("5.6.1", "5.6.2", what="picks made, the Selection Step opens a priority window")
    def _do_select(self, state: BakuganState, ev: E.Select) -> None:
        player = ev.by or ""
        if state.bakugan(player, ev.bakugan) is None:
            self._add_to_team(state, player, ev.bakugan)
        state.flags.selected[player] = ev.bakugan
        if state.flags.selected.keys() >= set(state.players):
            state.mode = "window"
            self._open_window(state)

    def _do_roll(self, state: BakuganState, ev: E.Roll) -> None:
        player = ev.by or ""
        self._rolled(state, player, ev)
        if player in state.to_roll:
            state.to_roll.remove(player)
        self._rolls_settled(state)

    @BOOK.encodes("5.7.2.p1", "5.7.2.2", "5.7.2.3", "7.2.6.2.p2", "1.18.1.7",
                  what="a roll's result: an open on a BakuCore reveals the Character; staying on it gives the bonus; a foul is a miss")
    def _rolled(self, state: BakuganState, player: str, ev: E.Roll) -> bool:
        name = state.flags.selected.get(player)
        bak = state.bakugan(player, name) if name else None
        opened = ev.opened and ev.core is not None and not ev.foul
        state.flags.first_roll_done = True
        state.flags.rolled.add(player)
        state.flags.missed[player] = not opened
        if bak is None or not opened:
            return False
        bak.open = True
        bak.face_up = True
        bak.opened_turn = state.turn
        if ev.attached and ev.core is not None:
            bak.holding.append(ev.core)
            BC.holding_changed(state, bak)
        self._fire(state, "opens", player, bak_ref=(player, bak.name))
        return True

    @BOOK.encodes("5.7.2.p2", "5.7.2.1", "1.18.1.3.1", "1.18.1.4.1", "1.18.1.5.1", "1.18.1.5.2",
                  what="rolls settled: open Bakugan brawl; with none open, both selected Bakugan roll again at once")
    def _rolls_settled(self, state: BakuganState) -> None:
        if state.to_roll:
            return
        state.in_brawl = {p: n for p, n in state.flags.selected.items() if state.sides[p].team[n].open}
        if not state.in_brawl:
            state.to_roll = [state.starting, state.nonstarting]
            return
        if state.node == "roll":
            self._enter(state, "power")
        else:
            self._flush(state)

    @BOOK.encodes("1.18.1.1", "1.18.1.2", "1.18.1.3", "1.18.1.4", "1.18.1.5", "1.18.1.6", "1.18.1.6.1", "1.18.1.6.2",
                  what="a reroll works only between the first roll and the Victor Step, on the selected Bakugan; an open one is picked up first")
    def start_reroll(self, state: BakuganState, player: str) -> bool:
        """Prepare a reroll of ``player``'s selected Bakugan; False when a reroll does nothing now."""
        name = state.flags.selected.get(player)
        if name is None or not state.flags.first_roll_done or state.flags.victor_begun or len(state.to_roll) >= 2:
            return False
        bak = state.sides[player].team[name]
        if bak.open:
            self.retract(state, player, bak)
        state.in_brawl.pop(player, None)
        return True

    def _do_reroll(self, state: BakuganState, ev: E.Reroll) -> None:
        player = ev.by or ""
        state.flags.rerolls_used.add((player, ev.bakugan))
        state.priority.act(player)
        if self.start_reroll(state, player):
            state.to_roll = [player]

    # ------------------------------------------------------------------ steps

    def _enter(self, state: BakuganState, node: str) -> None:
        state.node, state.mode = node, ""
        if node == "energize":
            return
        if node == "selection":
            self._selection_begins(state)
            state.mode = "pick"
        elif node == "roll":
            state.to_roll = [state.starting, state.nonstarting]
        elif node == "power":
            state.mode = "window"
            self._open_window(state)
        elif node == "victor":
            self._victor_step(state)
        elif node == "damage":
            self._begin_attack(state)
        elif node == "retract":
            self._retracting_step(state)
        elif node == "play":
            self._open_window(state)
        elif node == "charge":
            self._charge_step(state)
        elif node == "reset":
            self._reset_step(state)

    @BOOK.encodes("5.6.1.1", "5.6.1.2", what="a player with no closed Bakugan retracts them all as the Selection Step begins")
    def _selection_begins(self, state: BakuganState) -> None:
        for player in (state.starting, state.nonstarting):
            side = state.sides[player]
            if side.closed() == 0:
                for bak in side.team.values():
                    self.retract(state, player, bak)

    def _open_window(self, state: BakuganState) -> None:
        state.priority.reset(state.starting)
        self._flush(state)

    def _window_open(self, state: BakuganState) -> bool:
        return (state.stage == "turn" and state.node in WINDOWS and not state.to_roll
                and not (state.node == "selection" and state.mode != "window") and state.mode not in ("tie", "deal", "offer"))

    @BOOK.encodes("5.9.2", "5.10.1", what="the Power step ends: the higher BPower (or the stat an effect named) is Victor, a tie is broken, "
                                           "a lone open Bakugan wins")
    def _decide_victor(self, state: BakuganState) -> None:
        brawl = list(state.in_brawl.items())
        if len(brawl) == 1:
            state.victor = brawl[0][0]
            self._enter(state, "victor")
            return
        by = state.flags.victor_by  # BPower unless an effect named another stat this turn (decision 39)
        power = {p: B.stat(state, p, state.sides[p].team[n], by) for p, n in brawl}
        a, b = state.starting, state.nonstarting
        if power[a] == power[b]:
            state.mode = "tie"
            state.tie = {}
            self._tie_round(state)
            return
        state.victor = a if power[a] > power[b] else b
        self._enter(state, "victor")

    @BOOK.encodes("5.9.2.1.1", "5.9.2.1.1.1", what="a tie-break round with an empty deck: that player loses; both empty, a draw")
    def _tie_round(self, state: BakuganState) -> None:
        empty = [p for p in state.players if len(state.sides[p].deck) == 0]
        if len(empty) == 2:
            self.end_game(state, None, "5.9.2.1.1.1")
        elif empty:
            self.lose(state, empty[0], "5.9.2.1.1")

    @BOOK.encodes("5.9.2.1.p1", "5.9.2.1.p2", "1.8.1.2.1", what="tie break: the higher Energy cost turned over wins (X as zero); equal costs go again")
    def _tie_flip(self, state: BakuganState, player: str, name: str | None) -> Found:
        rulings = self._turn_over(state, player, name, f"turned over {name} in a BPower tie break")[1]
        state.tie[player] = name
        if name is None:
            rulings = [*rulings, Ruling(None, Violation("a card turned over in a tie break without its name", "the card's name",
                                                        "null", "unverifiable"))]
        if len(state.tie) < 2:
            return rulings
        cost = {p: B.printed_cost(state.cards.get(n) if n else None) for p, n in state.tie.items()}
        a, b = state.starting, state.nonstarting
        if cost[a] == cost[b]:
            state.tie = {}
            self._tie_round(state)
            return rulings
        state.victor = a if cost[a] > cost[b] else b
        state.tie = {}
        self._enter(state, "victor")
        return rulings

    @BOOK.encodes("5.10.2", "1.14.1", what="the Victor is declared: its Victor abilities enter the batch; it starts the next turn")
    def _victor_step(self, state: BakuganState) -> None:
        state.flags.victor_begun = True
        state.mode = "window"
        victor = state.victor or ""
        state.victors.append(victor)
        bak = state.sides[victor].team[state.in_brawl[victor]]
        for rider in B.abilities(state, bak.top.name, K.Rider):
            if rider.keyword == "Victor":
                if rider.trigger is not None:  # it would wait for a later moment after the Victor is declared (decision 46)
                    raise B.Unmodelled(f"{bak.top.name}: a Victor rider that waits for a moment is not modelled")
                body = repeated(rider.effect)
                effect = body if rider.condition is None else (A.If(rider.condition, body),)
                state.waiting.append(QueueItem("triggered", victor, bak.top, effect, (), {"self": (victor, bak.name)}))
        self._open_window(state)

    @BOOK.encodes("5.12.1", "5.12.2", "5.12.2.1", "5.12.2.2", "5.12.2.3", "1.16.1", "1.16.1.1", "5.11.2.1.1", "1.8.1.1.1", "5.11.2",
                  what="the Victor's attack is fixed as damage begins: Damage Rating (a team's summed, none below zero), FrostStrike, DoubleStrike, "
                       "ShadowStrike; what watches the attack triggers and waits out the damage")
    def _begin_attack(self, state: BakuganState) -> None:
        victor = state.victor or ""
        loser = state.other(victor)
        side = state.sides[victor]
        if victor not in state.in_brawl:  # the Victor left the brawl before damage: nothing attacks
            state.attack = Attack(loser, "", (), (), 0)
            self._finish_attack(state)
            return
        bak = side.team[state.in_brawl[victor]]
        state.team_attack = len(side.team) == TEAM_SIZE and all(b.open for b in side.team.values())
        if state.team_attack:  # the team's Damage Ratings, each member's in team order, then the brawler's strikes
            rating = sum(B.stat(state, victor, m, "Damage Rating") for m in side.team.values())
            frost, double, shadow = B.stats(state, victor, bak, ("FrostStrike", "DoubleStrike", "ShadowStrike"))
        else:
            rating, frost, double, shadow = B.stats(state, victor, bak, ("Damage Rating", "FrostStrike", "DoubleStrike", "ShadowStrike"))
        holding = tuple(state.field_cores[s][0] for s in bak.holding if s in state.field_cores)
        state.attack = Attack(loser, bak.name, tuple(sorted(B.factions(state, bak))), holding, rating,
                              frost=frost, strikes=2 if double > 0 else 1, shadow=shadow > 0)
        state.mode = "deal"
        self._fire(state, "attacks", victor, bak_ref=(victor, bak.name))  # waits for the window after the damage (decision 43)
        self._deal_on(state)

    @BOOK.encodes("1.5.1", "5.11.1.p1", what="damage goes on card by card; a player who must take damage with an empty deck loses")
    def _deal_on(self, state: BakuganState) -> None:
        attack = state.attack
        assert attack is not None
        state.mode = "deal"
        if attack.remaining <= 0:
            self._finish_attack(state)
        elif len(state.sides[attack.to].deck) == 0:
            self.lose(state, attack.to)

    @BOOK.encodes("1.16.2", "5.11.1.p2", "4.5.1.p2", "3.6.1.p2", "1.3/3.2",
                  what="a card turned over by damage goes to the discard pile; a Flip card is offered to its owner first, unless FrostStrike turned it over")
    def _damage_flip(self, state: BakuganState, player: str, name: str | None) -> Found:
        attack = state.attack
        assert attack is not None
        card, rulings = self._turn_over(state, player, name, f"turned over {name} for damage")
        attack.dealt += 1
        if card.defn is not None and card.defn.type == "Flip" and not attack.in_frost:
            state.offer = card
            state.mode = "offer"
            state.priority.reset(player)
            return rulings
        self._deal_on(state)
        return rulings

    @BOOK.encodes("5.11.3", "1.18.1.6", what="damage done: the damage is recorded and a priority window opens")
    def _finish_attack(self, state: BakuganState) -> None:
        attack = state.attack
        assert attack is not None
        state.mode = "after"
        self.record_damage(state, attack.to, attack.dealt)
        self._open_window(state)

    @BOOK.encodes("1.16.2", "6.3.2.p1",
                  what="an attack that dealt damage sets off what watches its player taking damage, and what watches the "
                       "other player dealing damage in an attack, each with the damage dealt (decision 45)")
    def record_damage(self, state: BakuganState, player: str, amount: int) -> None:
        """An attack ended having dealt ``amount`` damage to ``player``."""
        state.damage_log.append((player, amount))
        if amount > 0:
            self._fire(state, "dealt_damage", player, damage=amount)
            self._fire(state, "deals_damage", state.other(player), damage=amount)

    @BOOK.encodes("5.13.1", "5.13.2", "5.13.3", "5.12.3", "7.2.6.1", "7.2.5.1",
                  what="retracting: the loser's brawler closes, a team attack closes the Victor's team; the Victor otherwise stays open")
    def _retracting_step(self, state: BakuganState) -> None:
        victor = state.victor or ""
        loser = state.other(victor)
        if loser in state.in_brawl:
            self.retract(state, loser, state.sides[loser].team[state.in_brawl[loser]])
        if state.team_attack:
            for bak in state.sides[victor].team.values():
                self.retract(state, victor, bak)
        state.in_brawl = {}
        self._enter(state, "play")

    @BOOK.encodes("5.16.1", "7.2.1.1.p2", what="the charge step turns every Energy card upright")
    def _charge_step(self, state: BakuganState) -> None:
        for side in state.sides.values():
            for energy in side.energy:
                energy.charged = True
        self._enter(state, "reset")

    @BOOK.encodes("5.17.1", "3.5.3.p2", "1.7.1.2.p2", "4.3.2.p1", "4.3.2.p2",
                  what="the reset step: turn-long changes and unspent Energy end; hands over seven are cut down")
    def _reset_step(self, state: BakuganState) -> None:
        if state.lasting:
            based = any(change.base for change in state.lasting)
            state.lasting.clear()
            if based:  # the base values set this turn end (what is in play, for the conflicts' key)
                state.in_play_changed(sources=False)
        for side in state.sides.values():
            side.pool = 0
        state.discarding = {p: len(state.sides[p].hand) - HAND_LIMIT for p in state.players if len(state.sides[p].hand) > HAND_LIMIT}
        if not state.discarding:
            self._end_turn(state)

    def _end_turn(self, state: BakuganState) -> None:
        state.starting = state.victors[-1] if state.victors else state.starting
        self._start_turn(state)

    # ------------------------------------------------------------------ priority

    def _do_pass(self, state: BakuganState, ev: E.Pass) -> None:
        player = ev.by or ""
        if state.node == "energize":
            self._energize_decided(state, player)
            return
        if state.mode == "offer":
            self._decline_offer(state)
            return
        a, b = state.players
        if state.priority.pass_(player, b if player == a else a):  # priority goes to the other player (state.other)
            self._advance(state)

    def _decline_offer(self, state: BakuganState) -> None:
        state.offer = None
        self._deal_on(state)

    def _can_advance(self, state: BakuganState) -> bool:
        """Whether the players can pass on from here (no compulsory event is due)."""
        if state.stage != "turn" or state.resolution is not None or state.pending_item is not None:
            return False
        if state.to_roll or state.discarding or state.waiting and not self._window_open(state) and state.mode != "offer":
            return False  # a Flip card offered during the damage is declined with abilities waiting for the window after it
        if state.node == "draw":
            return False
        if state.node == "energize" or state.mode == "offer":
            return True
        return self._window_open(state)

    @BOOK.encodes("1.14.2.p2", "1.14.6", "4.4.3.p1", "4.4.3.p2", "6.7.1", "6.7.1.6", "5.1.3.p1", "5.1.3.p2", "1.14.3.p1",
                  what="both players passing: the end of the batch completes, or with an empty batch the step ends")
    def _advance(self, state: BakuganState) -> None:
        """What both players passing in succession does."""
        if state.node == "energize":
            decider = X.energize_decider(state)
            if decider is not None:
                self._energize_decided(state, decider)
            return
        if state.mode == "offer":
            self._decline_offer(state)
            return
        if state.batch.items:  # the batch is not empty
            self._resolve_top(state)
            return
        self._leave(state)

    def _leave(self, state: BakuganState) -> None:
        node = state.node
        if node == "selection":
            self._enter(state, "roll")
        elif node == "power":
            self._decide_victor(state)
        elif node == "victor":
            self._enter(state, "damage")
        elif node == "damage":
            if state.mode == "window":
                self._deal_on(state)
            else:
                self._enter(state, "retract")
        elif node == "play":
            if not state.flags.end_triggers_fired:
                state.flags.end_triggers_fired = True
                self._fire(state, "turn_ends", state.starting)
                state.waiting.extend(state.flags.delayed)  # decision 50: effects waiting for the end of the turn
                state.flags.delayed = []
                if state.waiting:
                    self._open_window(state)
                    return
            self._enter(state, "charge")

    # ------------------------------------------------------------------ playing cards

    @BOOK.encodes("6.2.1.1.p1", "6.2.1.1.p2", "6.2.1.2", "6.2.1.3", "4.4.1", "1.13.1.p1", "1.8.1.2.2", "1.15.2.p2", "1.15.2.1", "2.3.3",
                  "1.3/3.1", "3.3.2.p2", "3.6.2", "5.11.2.1",
                  what="playing a card: selections fixed, Energy paid, then it joins the end of the batch")
    def _do_play(self, state: BakuganState, ev: E.Play, free: bool = False, discarded: CardObj | None = None) -> list[Ruling]:
        player = ev.by or ""
        defn = state.cards[ev.card]
        cost, objects = X.checked_play(state, ev, free) if self._checked is ev else (None, None)
        if cost is None:
            cost = B.cost_to_pay(state, player, defn, ev.x, free)
        slots = X.played_slots(state, player, ev.card) if defn.type in ("Action", "Flip") else []  # as it is played (decision 47)
        if X.offered(state, player, ev.card) and state.offer is not None:
            card = state.offer
            if card in state.sides[player].discard.cards:
                state.sides[player].discard.remove(card)
            state.offer = None
            state.mode = "window"
        elif discarded is not None:  # decision 41: its own text lets it be played from the discard pile
            card = discarded
            state.sides[player].discard.remove(card)
        else:
            card = self._take_from_hand(state, player, ev.card)
        self._pay(state, player, cost, ev.uncharge)
        state.flags.plays[player] = state.flags.plays.get(player, 0) + 1
        state.flags.played.add(card.uid)  # it keeps this object as it settles in play (decision 49)
        context: dict[str, Any] = {"x": ev.x, "played_self": True, "announced": True}
        effect: tuple[A.Step, ...] = ()
        if defn.type == "Evo" and ev.on is not None:
            bak = state.bakugan(player, ev.on)
            if bak is not None:
                bak.face_up = True  # 3.3.2.p2: a face-down Character is turned up first
            context["on"] = ev.on
            context["self"] = (player, ev.on)
        elif defn.type in ("Action", "Flip"):
            effect = self._compose(state, ev.card)
            context["slots"] = {s.key: s for s in slots}
            if objects is None:  # what the selections mean: neither the card leaving the hand nor the Energy paid changes it
                objects = T.resolve_all(state, player, slots, ev.targets)
            context["targets"] = {s.key: obj for s, obj in zip(slots, objects, strict=False)}
        item = QueueItem("card", player, card, effect, (), context)
        state.priority.act(player)
        state.batch.add(item)
        self._fire_played(state, player, card, item)
        self._flush(state)
        gap = unfired(state.cards, ev.card)
        return [] if gap is None else [Ruling(None, Violation(f"{ev.card}: {gap}, so what it does is not checked", severity="unverifiable"))]

    def _compose(self, state: BakuganState, name: str) -> tuple[A.Step, ...]:
        """The effect of an Action or Flip card: its sentences, with riders added or replacing what they say (1.3/3.3)."""
        steps: tuple[A.Step, ...] = ()
        last: tuple[A.Step, ...] = ()
        for ability in B.text_of(state, name).abilities:
            if isinstance(ability, A.Spell):
                steps, last = steps + ability.effect, ability.effect
            elif isinstance(ability, K.Rider):
                if ability.trigger is not None:  # a rider waiting for a moment would be a delayed effect (decision 46)
                    raise B.Unmodelled(f"{name}: a rider of an {B.type_of(state, name)} card that waits for a moment is not modelled")
                if all(isinstance(s, K.CostChange) for s in ability.effect):
                    continue  # a cost rule, read as the card is paid for
                body = repeated(ability.effect)
                if len(body) == 1 and isinstance(body[0], K.Instead):
                    head = steps[: len(steps) - len(last)]
                    inner = body[0].steps
                    if ability.condition is not None:
                        block: tuple[A.Step, ...] = (A.If(ability.condition, inner, last),)
                    elif len(inner) == 1 and isinstance(inner[0], A.May):
                        block = (E.OrElse(inner[0].player, inner[0].steps, last),)
                    else:
                        block = inner
                    steps, last = head + block, block
                else:
                    block = body if ability.condition is None else (A.If(ability.condition, body),)
                    steps, last = steps + block, block
            elif isinstance(ability, A.Keyword | A.Passive) or isinstance(ability, A.Triggered) and _own_discard(ability.trigger):
                continue  # an own discard trigger works from the discard pile, never as the card is played (decision 41)
            else:
                raise B.Unmodelled(f"{name}: a {type(ability).__name__} ability on an {B.type_of(state, name)} card is not modelled")
        return steps

    @BOOK.encodes("1.7.1.2.p1", what="Energy made and not spent stays in the pool for the rest of the turn")
    def _pay(self, state: BakuganState, player: str, cost: int, uncharge: int | None) -> None:
        side = state.sides[player]
        need = max(0, cost - side.pool)
        turn = need if uncharge is None else uncharge
        for energy in side.energy:
            if turn <= 0:
                break
            if energy.charged:
                energy.charged = False
                turn -= 1
                side.pool += 1
        side.pool = max(0, side.pool - cost)

    def _out_of_hand(self, state: BakuganState, player: str, name: str | None) -> CardObj | None:
        """The card ``name`` taken from the player's hand, or one it keeps hidden when the log names none."""
        return self._take_from_hand(state, player, name) if name is not None else self._take_unknown(state, player)

    @BOOK.encodes("7.2.4.1", what="a card energized from the hand goes into its player's Energy")
    def _energize_from_hand(self, state: BakuganState, player: str, name: str | None, charged: bool) -> None:
        card = self._out_of_hand(state, player, name)
        if card is not None:
            state.sides[player].energy.append(EnergyCard(card, charged=charged))

    def _take_from_hand(self, state: BakuganState, player: str, name: str) -> CardObj:
        side = state.sides[player]
        card = side.hand.find(name)
        if card is None:
            card = side.hand.unknown()
            if card is None:  # keep going after an illegal move: conjure the card
                card = state.new_card(name, player)
            else:
                side.hand.remove(card)
                side.knowledge.dated(state.seq).reveal(name, f"showed {name} from a hidden card of the hand", "hidden")
            card.name, card.defn = name, state.cards.get(name)
        else:
            side.hand.remove(card)
        return card

    def _take_unknown(self, state: BakuganState, player: str) -> CardObj | None:
        side = state.sides[player]
        card = side.hand.unknown() or (side.hand.cards[0] if side.hand.cards else None)
        if card is not None:
            side.hand.remove(card)
        return card

    @BOOK.encodes("6.4.2.p1", "6.4.2.p2", "1.15.1.p2", "6.4.3", what="activating: pay every cost (Energy, then extra costs), then the ability joins the batch")
    def _do_activate(self, state: BakuganState, ev: E.Activate) -> None:
        player = ev.by or ""
        hero = B.hero_in_play(state, player, ev.card)
        ability = X.activated_ability(state, ev)
        assert hero is not None and ability is not None
        self._pay(state, player, X.activation_cost(state, ev), ev.uncharge)
        slots = T.slots_of(ability.effect)
        context: dict[str, Any] = {"x": ev.x, "announced": True, "slots": {s.key: s for s in slots},
                                   "targets": dict(zip([s.key for s in slots], T.resolve_all(state, player, slots, ev.targets), strict=False))}
        item = QueueItem("activated", player, hero, ability.effect, (), context)
        state.priority.act(player)
        extra = tuple(s for s in ability.cost if not isinstance(s, K.Spend))
        if not extra:
            self._queue(state, item)
            return
        state.pending_item = item
        state.resolution = Resolution(player, hero, [interpreter.Frame(extra)], None, vars={"announced": True})
        self._continue(state)

    def _queue(self, state: BakuganState, item: QueueItem) -> None:
        state.batch.add(item)
        self._flush(state)

    # ------------------------------------------------------------------ the batch

    @BOOK.encodes("1.14.2.1", "1.14.5.p1", "1.14.5.p2", "4.4.3.1", "6.3.2.p2", "6.7.1.3", "6.7.1.2", "1.13.1.1", "1.3/3.3",
                  what="the end of the batch completes: nobody has priority until it is done; then the starting player has it")
    def _resolve_top(self, state: BakuganState) -> None:
        item = state.batch.next()
        state.last_resolved = item.name
        state.priority.reset(state.starting)
        state.resolution = Resolution(item.controller, item.source, [interpreter.Frame(item.effect)], item, vars=dict(item.context))
        self._continue(state)

    def _continue(self, state: BakuganState) -> None:
        """Run the resolution on; finish it when its steps are done."""
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
        if state.stage == "over":
            state.resolution = None
            return
        if not done or state.resolution is not res:
            return
        state.resolution = None
        if state.pending_item is not None and res.item is None:
            item, state.pending_item = state.pending_item, None
            self._queue(state, item)
            return
        if res.item is not None and res.item.kind == "card":
            self._settle(state, res)
        self._flush(state)

    @BOOK.encodes("3.4.2.p1", "3.5.2.p1", "3.5.2.p2", "3.3.2.p1", "3.3.1.1.1", "3.3.1.1.2", "4.6.2", "4.5.1.p2",
                  what="a completed card goes where its type says: Heroes to the play area, Evos atop their pile, Actions and Flips to the discard pile")
    def _settle(self, state: BakuganState, res: Resolution) -> None:
        card: CardObj = res.source
        side = state.sides[res.controller]
        kind = card.defn.type if card.defn is not None else ""
        if kind == "Hero":
            side.heroes.append(card)
            state.in_play_changed()
        elif kind == "Evo":
            bak = state.bakugan(res.controller, res.vars.get("on") or "")
            if bak is not None:
                bak.evos.append(card)
                state.in_play_changed()
            else:
                self.put_away(state, card)
        elif res.vars.get("stay") == "bottom":
            owner = state.sides[card.owner]
            owner.deck.hidden += 1
            if card.name is not None:
                owner.knowledge.dated(state.seq).conceal(card.name, f"put {card.name} on the bottom of the deck")
        elif res.vars.get("stay") == "hand":
            self._back_to_hand(state, card)
        elif res.vars.get("stay") in ("energy", "energy uncharged"):
            self.to_energy(state, card, charged=res.vars["stay"] == "energy")
        else:
            self.put_away(state, card)

    @BOOK.encodes("4.1.3", "4.2.2.p1", what="a card shuffled from the discard pile into the deck goes back face down, its name no longer shown")
    def _into_deck(self, state: BakuganState, player: str, name: str | None) -> None:
        """``player``'s card ``name`` leaves their discard pile for their deck (decision 48)."""
        side = state.sides[player]
        card = side.discard.find(name) if name is not None else side.discard.unknown()
        if card is None:
            return
        side.discard.remove(card)
        side.deck.hidden += 1
        if card.name is not None:
            side.knowledge.dated(state.seq).conceal(card.name, f"shuffled {card.name} from the discard pile into the deck")

    @BOOK.encodes("1.3/3.1", "4.1.3", what="a card whose text returns it to the hand goes there, not to the discard pile, as a new card")
    def _back_to_hand(self, state: BakuganState, card: CardObj) -> None:
        state.sides[card.owner].hand.add(state.new_card(card.name, card.owner, card.defn))

    @BOOK.encodes("7.2.4.1", "7.2.2.1.p1",
                  what="a card an effect energizes from the batch, the play area or a discard pile goes into play as Energy, "
                       "sideways when uncharged; a card energizing itself does so as it completes, not to the discard pile")
    def to_energy(self, state: BakuganState, card: CardObj, charged: bool, player: str | None = None) -> None:
        """``card`` becomes an Energy card of ``player`` (its owner unless said), as a new card (4.1.3)."""
        state.sides[player or card.owner].energy.append(EnergyCard(state.new_card(card.name, card.owner, card.defn), charged=charged))

    def put_away(self, state: BakuganState, card: CardObj) -> None:
        """A card leaving the batch or play goes to its owner's discard pile, as its printed self (4.1.3)."""
        state.sides[card.owner].discard.add(state.new_card(card.name, card.owner, card.defn))

    @BOOK.encodes("4.1.3", what="a card moving to another zone leaves its changes behind (a new card object)")
    def leave_play(self, state: BakuganState, card: CardObj) -> None:
        """A Hero or Evo leaves play for its owner's discard pile."""
        self.out_of_play(state, card)
        self.put_away(state, card)

    @BOOK.encodes("4.5.1.p1", "3.4.2.p2", "3.7.3",
                  what="a destroyed card leaves play for its owner's discard pile; an Energy card goes there hidden unless "
                       "every Energy card of its player and charge is known to be the same card")
    def destroy(self, state: BakuganState, card: CardObj) -> None:
        """``card``, a Hero, Evo or Energy card in play, is destroyed (decision 44)."""
        for side in state.sides.values():
            for energy in side.energy:
                if energy.card is card:
                    alike = {e.card.name for e in side.energy if e.charged == energy.charged}
                    side.energy.remove(energy)
                    shown = card.name if len(alike) == 1 else None  # face down (3.7.3): which was taken is not known
                    state.sides[card.owner].discard.add(state.new_card(shown, card.owner, card.defn if shown else None))
                    state.in_play_changed(sources=False)
                    return
        self.leave_play(state, card)

    def to_hand(self, state: BakuganState, card: CardObj, controller: str) -> None:
        """A card found by a search, or taken from play, goes to its owner's hand."""
        self.out_of_play(state, card)
        state.sides[card.owner].hand.add(state.new_card(card.name, card.owner, card.defn))

    @staticmethod
    def out_of_play(state: BakuganState, card: CardObj) -> None:
        """Take a Hero or Evo out of the play area (it may be in none)."""
        for side in state.sides.values():
            if card in side.heroes:
                side.heroes.remove(card)
                state.in_play_changed()
            for bak in side.team.values():
                if card in bak.evos:
                    bak.evos.remove(card)
                    state.in_play_changed()

    def retract(self, state: BakuganState, player: str, bak: Toy) -> None:
        """Close an open Bakugan; the BakuCores it held lie on the Field again (7.2.5.1)."""
        bak.open = False
        if bak.holding:
            bak.holding = []
            BC.holding_changed(state, bak)
        if state.in_brawl.get(player) == bak.name and state.node not in ("retract",):
            state.in_brawl.pop(player, None)

    @BOOK.encodes("4.4.4.4.p1", "4.4.4.4.p2", what="a player may concede at any moment, outside the batch")
    def _do_forfeit(self, state: BakuganState, ev: E.Forfeit) -> list[Ruling]:
        self.lose(state, ev.by or "", "4.4.4.4.p1")
        return []

    def lose(self, state: BakuganState, loser: str, rule: str = "1.5.1") -> None:
        self.end_game(state, state.other(loser), rule)

    def end_game(self, state: BakuganState, winner: str | None, rule: str) -> None:
        """The game is over by ``rule``: ``winner`` won it, or (``None``) it is a draw."""
        state.stage = "over"
        state.end_rule = rule
        state.winner = winner
        state.drawn = winner is None
        state.batch.clear()
        state.waiting.clear()
        state.to_roll = []
        state.pending_item = None

    # ------------------------------------------------------------------ flips, discards, claims

    def _turn_over(self, state: BakuganState, player: str, name: str | None, words: str = "") -> tuple[CardObj, Found]:
        rulings: Found = self._reveal_from_deck(state, player, name, words or f"turned over {name}")
        card = state.new_card(name, player, state.cards.get(name) if name else None)
        state.sides[player].discard.cards.append(card)  # on top of the discard pile
        return card, rulings

    def _do_flip(self, state: BakuganState, ev: E.Flip) -> Found:
        if state.mode == "tie":
            return self._tie_flip(state, ev.by or "", ev.card)
        return self._damage_flip(state, ev.by or "", ev.card)

    @BOOK.encodes("4.3.2.p2", "5.15.1.p2", "6.3.2.p1",
                  what="a card discarded for the hand limit triggers what watches discards, but no window is left in the turn: "
                       "those abilities lapse")
    def _do_discard(self, state: BakuganState, ev: E.Discard) -> Found:
        player = ev.by or ""
        waiting = len(state.waiting)
        unsure = self._discard(state, player, ev.card) or []
        lapsed, state.waiting[waiting:] = state.waiting[waiting:], []  # decision 41: after the play step, no window opens
        state.discarding[player] -= 1
        if state.discarding[player] <= 0:
            del state.discarding[player]
        if not state.discarding:
            self._end_turn(state)
        return [Ruling(cite("5.15.1.p2"), Violation(
            f"{item.name} ({item.controller}) triggered on {ev.card or 'a card'} discarded for the hand limit, after the turn's "
            "last priority window, so it lapses", severity="info"), "hand_limit_trigger") for item in lapsed] + list(unsure) or NONE_FOUND

    @BOOK.encodes("4.5.1.p1", "6.3.2.p1", "1.3/3.1",
                  what="a card discarded from the hand goes to the discard pile, and what watches discards triggers: a card's own "
                       "\"if this is discarded\" from the discard pile")
    def _discard(self, state: BakuganState, player: str, name: str | None) -> Found | None:
        """``player`` discards ``name`` from the hand (by an effect, a cost or the hand limit): it goes
        to the discard pile, and the triggered abilities that watch discards wait (decision 41). A
        completed Action, a card turned over by damage, a destroyed or a negated card goes there too
        but is not discarded (4.5.1.p1 names them apart), so none of those comes here. A discard the
        log does not name, of a hand that may hold a card answering its own discard, is unverifiable."""
        unsure = name is None and any(map(partial(_answers_discard, state), self._hand_names(state, player)))
        card = self._out_of_hand(state, player, name)
        if card is None:
            return None
        state.sides[player].discard.add(card)
        for ability in B.abilities(state, card.name, A.Triggered) if card.name is not None else ():
            if _own_discard(ability.trigger):  # its controller is its owner, who discarded it
                state.waiting.append(QueueItem("triggered", player, card, ability.effect, (), {"discarded": card}))
        self._fire(state, "discarded", player, card=card)
        if unsure:
            return [Ruling(None, Violation(f"{player} discarded a card the log does not name, and it may be one whose own text answers "
                                           "its discard: what that does is not checked (decision 41)", severity="unverifiable"))]
        return None

    def _do_damage(self, state: BakuganState, ev: E.Damage) -> None:
        index = X.unclaimed_damage(state, ev.to)
        if index is not None:
            state.damage_claimed = index + 1

    # ================================================================== triggers (6.3)

    @BOOK.encodes("6.3.2.p1", "7.2.7.2", "6.3.3", "4.4.2.p2", "4.4.2.p1", "1.3/3.5", "5.10.2",
                  what="triggered abilities wait, then enter the batch together: the starting player's first, each player's in printed order")
    def _flush(self, state: BakuganState) -> None:
        if state.resolution is not None or state.pending_item is not None or not state.waiting or not self._window_open(state):
            return
        ordered = [i for i in state.waiting if i.controller == state.starting] + [i for i in state.waiting if i.controller != state.starting]
        state.waiting.clear()
        state.priority.reset(state.starting)
        for index, item in enumerate(ordered):
            try:
                slots = self._selections(state, item)
            except B.Unmodelled:  # reported as unverifiable; it enters unselected and the rest wait as before
                state.waiting[:0] = ordered[index + 1:]
                state.batch.add(item)
                raise
            if slots is None:
                continue  # 1.13.1.p2: a selection it needs has no legal choice, so it does not enter the batch (decision 40)
            if slots:  # its controller selects first; the rest wait behind it (_announced)
                state.waiting[:0] = ordered[index + 1:]
                state.pending_item = item
                state.resolution = Resolution(item.controller, item.source, [], None,
                                              need=interpreter.Need("target", item.controller, 1, cite("1.13.1.p1"), slots))
                return
            state.batch.add(item)

    @BOOK.encodes("1.13.1.p1", "1.13.1.p2", "6.3.2.p2",
                  what="a triggered ability's own selections are made as it enters the batch, as a played card's are; with no legal "
                       "choice for one, it does not enter")
    def _selections(self, state: BakuganState, item: QueueItem) -> list[T.Slot] | None:
        """The selections the controller of a triggered ability makes as it enters the batch, in
        text order; ``None`` when one has no legal choice. "This" and "the Bakugan" of an ability
        printed on a Bakugan's card mean that Bakugan (decision 40), so they are not asked."""
        if item.kind != "triggered" or "targets" in item.context:
            return []
        slots = T.slots_of(item.effect)
        if not slots:
            return []
        own = item.context.get("self")
        asked = [s for s in slots if own is None or s.selector.quantifier not in ("the", "this")]
        if any(not T.candidates(state, item.controller, slot) for slot in asked):
            return None
        item.context["slots"] = {s.key: s for s in slots}
        item.context["targets"] = {s.key: own for s in slots if s not in asked}
        return asked

    def _announced(self, state: BakuganState, asked: list[T.Slot], objects: list[Any]) -> None:
        """The selections ``asked`` of the triggered ability waiting to enter the batch are made
        (``objects``, slot by slot): it enters, and the abilities that triggered with it follow
        (:meth:`_flush`)."""
        item = state.pending_item
        assert item is not None
        item.context["targets"].update({slot.key: obj for slot, obj in zip(asked, objects, strict=True)})
        state.resolution = None
        state.pending_item = None
        state.batch.add(item)
        state.priority.reset(state.starting)
        self._flush(state)

    def _fire(self, state: BakuganState, event: str, actor: str, bak_ref: tuple[str, str] | None = None,
              card: CardObj | None = None, damage: int | None = None) -> None:
        watchers: Iterable[tuple[str, CardObj, Toy | None, tuple[A.Triggered, ...]]] | None = _watchers(state, event)
        if watchers is None:  # a text that does not read: source by source, as far as it goes
            watchers = ((c, s, b, B.triggers(state, s.name, event)) for c, s, b in B.working_sources(state))
        for controller, source, bak, watching in watchers:
            for ability in watching:
                trig = ability.trigger
                own = bak is not None and bak_ref == (controller, bak.name)
                context: dict[str, Any] = {}
                if bak is not None:
                    context["self"] = (controller, bak.name)
                if event == "opens":
                    if trig.subject is not None and trig.subject.quantifier == "this":
                        if not own:
                            continue
                    elif trig.who is not None and actor not in B.owner_of(state, controller, trig.who):
                        continue
                    context["it"] = bak_ref
                elif event in ("played", "discarded"):
                    if trig.subject is not None and trig.subject.quantifier == "this":
                        continue  # a card's own "when you play this" fires from the batch (_fire_played), "if this is discarded" from the discard pile (_discard)
                    if trig.who is not None and actor not in B.owner_of(state, controller, trig.who):
                        continue
                    if trig.subject is not None and card is not None and card.defn is not None and trig.subject.type not in ("card", card.defn.type):
                        continue
                elif event == "played_on":
                    if not own or actor != controller:
                        continue
                    if trig.subject is not None and card is not None and card.defn is not None and trig.subject.type not in ("card", card.defn.type):
                        continue
                elif event in ("dealt_damage", "deals_damage"):
                    if trig.who is not None and actor not in B.owner_of(state, controller, trig.who):
                        continue
                    context["damage"] = damage  # "if you deal 10 or more damage" reads it (decision 45)
                    if not _damage_enough(state, controller, ability.effect, context):
                        continue  # 6.3.2.p1: its condition is not met, so it does not trigger
                elif event == "attacks":  # the Brawl's attack, by the Victor's Bakugan (decision 43)
                    if trig.subject is not None and trig.subject.quantifier == "this":
                        if not own:
                            continue
                    elif trig.subject is not None and trig.subject.owner is not None \
                            and actor not in B.owner_of(state, controller, trig.subject.owner):
                        continue
                    context["it"] = bak_ref
                state.waiting.append(QueueItem("triggered", controller, source, ability.effect, (), context))

    def _fire_played(self, state: BakuganState, player: str, card: CardObj, item: QueueItem) -> None:
        """Triggers of a card being played: its own "when you play this", others' "when ... plays", "on this"."""
        for ability in B.abilities(state, card.name, A.Triggered):
            trig = ability.trigger
            if trig.event == "played" and trig.subject is not None and trig.subject.quantifier == "this":
                context: dict[str, Any] = {}
                if "self" in item.context:
                    context["self"] = item.context["self"]
                state.waiting.append(QueueItem("triggered", player, card, ability.effect, (), context))
        self._fire(state, "played", player, card=card)
        implied = item.context.get("targets", {}).get("implied")
        if implied is not None:
            self._fire(state, "played_on", player, bak_ref=implied, card=card)

    # ================================================================== feeding a paused effect

    def _feed(self, state: BakuganState, ev: Any, kind: str) -> Found:  # type: ignore[override]  # a list, or NONE_FOUND
        res = state.resolution
        assert res is not None and res.need is not None
        need = res.need
        if need.among and kind == need.kind and ev.by in need.among:  # decision 32: the one who takes it is the one chosen
            need.player, need.among = ev.by, ()
            if kind == "discard":
                need.count = min(need.count, len(state.sides[ev.by].hand))
        if kind == need.kind and ev.by == need.player and need.kind != "may" and not need.among:
            if kind == "play":
                refused = self._play_refused(state, need, ev)
                if refused is not None:
                    return [refused]
                discarded = X.from_discard(state, ev.by, ev.card)  # decision 41: that very card, from the discard pile
                res.need = None
                rulings = self._do_play(state, ev, free=need.detail.free, discarded=discarded)
                self._continue(state)
                return rulings
            if kind == "target":
                objects: list[Any] = []
                hit = X.targets_violation(state, need.player, (), ev.targets, objects, slots=need.detail)
                if hit is not None:
                    return [Ruling(cite(hit[0]), hit[1], "fed_target")]
                self._announced(state, need.detail, objects)
                return NONE_FOUND
            violation = self._feed_violation(state, need, ev)
            if violation is not None:
                return [Ruling(need.rule, violation, f"fed_{need.kind}")]
            rulings = self._take_fed(state, need, ev, res) or NONE_FOUND
            need.started = True
            need.count -= 1
            if state.stage == "over":
                state.resolution = None
                return rulings
            if need.count <= 0 or kind in ("search", "roll", "coin", "shuffle"):
                res.need = None
                self._continue(state)
            return rulings
        if need.optional:
            skipped = self._play_skipped(state, need) if need.kind == "play" and need.detail.must else None
            if skipped is not None:
                return [Ruling(cite("6.7.1.3"), skipped, "fed_play")]
            res.need = None
            declined = kind == "decline" and ev.by == need.player
            if need.kind == "may":
                steps, otherwise = need.detail
                res.push(otherwise if declined else steps)
            self._continue(state)
            if declined:
                return []
            return self.apply(state, ev)
        return [Ruling(need.rule, Violation(f"the effect being completed needs {need.describe()}", need.describe(), f"{kind} by {ev.by}"),
                       f"fed_{need.kind}")]

    def _feed_violation(self, state: BakuganState, need: interpreter.Need, ev: Any) -> Violation | None:
        side = state.sides[need.player]
        if need.kind in ("draw", "flip"):
            if len(side.deck) == 0:
                return Violation("a card taken from an empty deck", "no card", "a card")
            return None
        if need.kind in ("discard", "energize"):
            if ev.card is None:
                return None if side.hand.unknown() is not None else Violation(f"an unnamed {need.kind} from a hand of known cards", "the card's name", "null")
            problem = X.in_hand(state, need.player, ev.card)
            defn = state.cards.get(ev.card)
            if need.kind == "discard" and problem is None and need.detail is not None and defn is not None and need.detail.type not in ("card", defn.type):
                return Violation(f"{ev.card} is not what the effect asks for", need.detail.describe(), ev.card)
            return problem
        if need.kind == "search" and ev.card is not None:
            defn = state.cards.get(ev.card)
            if defn is None or need.detail.type not in ("card", defn.type):
                return Violation(f"{ev.card} does not match the search", need.detail.describe(), ev.card)
            if not side.knowledge.can_reveal(ev.card) or (side.knowledge.registered is not None and not side.knowledge.registered.get(ev.card)):
                return Violation(f"{ev.card}: more copies than the registered deck holds", "a card the deck can hold", ev.card, "inconsistent")
            if len(side.deck) == 0:
                return Violation("a card found in an empty deck", "nothing found", ev.card)
            return None
        if need.kind == "shuffle_in":
            return X.shuffle_in_violation(state, need.player, ev.card, need.detail)
        if need.kind == "roll":
            return X.core_violation(state, ev) or X.attach_violation(ev)
        if need.kind == "choose" and not 1 <= ev.option <= len(need.detail.options):
            return Violation(f"option {ev.option} of an effect offering {len(need.detail.options)}", f"1 to {len(need.detail.options)}",
                             str(ev.option))
        if need.kind == "coin" and ev.result not in ("heads", "tails"):
            return Violation(f"a coin showing {ev.result!r}", "heads or tails", ev.result)
        return None

    def _play_refused(self, state: BakuganState, need: interpreter.Need, ev: E.Play) -> Ruling | None:
        """Why the play ``ev`` is not the one the effect lets its player make: not the card it
        describes (decision 35), or a play the rules forbid (the play's own checks, but priority)."""
        defn = state.cards.get(ev.card)
        miss = "no such card" if defn is None else T.play_gap(state, defn, ev.x, need.detail)
        if miss is not None:
            return Ruling(need.rule, Violation(f"{ev.card} is not what the effect lets its player play: {miss}",
                                               need.detail.describe(), ev.card), "fed_play")
        hit = BOOK.actions["play"].first_violation(state, ev)
        return None if hit is None else Ruling(hit[0].rule, hit[1], hit[0].name)

    @BOOK.encodes("6.7.1.3", "1.3/3.4", what="a play the effect makes (no \"may\") is skipped only when no card of the hand can be played")
    def _play_skipped(self, state: BakuganState, need: interpreter.Need) -> Violation | None:
        """Whether the log went on without the play an effect makes while its player could
        make one: only said of a hand the log has shown whole (decision 35)."""
        hand = state.sides[need.player].hand
        if hand.hidden or hand.unknown() is not None:
            return None  # a hidden card might be the one: the spec cannot tell that none could be played
        for name in sorted(set(hand.names())):
            for ev in self._play_candidates(state, need.player, name, supported_only=False):
                if isinstance(ev, E.Play) and self._play_refused(state, need, ev) is None:
                    return Violation(f"the effect makes {need.player} play {need.detail.describe()}, and {name} could be played",
                                     f"{need.player} plays {need.detail.describe()}", "the effect went on without it")
        return None

    def _take_fed(self, state: BakuganState, need: interpreter.Need, ev: Any, res: Resolution) -> Found | None:
        player = need.player
        if need.kind == "draw":
            return self._draw(state, player, ev.card)
        if need.kind == "discard":
            return self._discard(state, player, ev.card)
        if need.kind == "energize":
            self._energize_from_hand(state, player, ev.card, charged=not need.detail.uncharged)
            return None
        if need.kind == "search":
            if ev.card is not None:
                rulings: Found = self._reveal_from_deck(state, player, ev.card, f"searched the deck and took {ev.card}")
                res.vars["it"] = state.new_card(ev.card, player, state.cards.get(ev.card))
                return rulings
            return None
        if need.kind == "flip":
            _card, rulings = self._turn_over(state, player, ev.card, f"turned over {ev.card} for damage from a card's attack")
            res.vars["attack_dealt"] = res.vars.get("attack_dealt", 0) + 1
            if need.count > 1 and len(state.sides[player].deck) == 0:
                self.record_damage(state, player, res.vars.pop("attack_dealt", 0))
                self.lose(state, player)  # 1.5.1: damage still due, no card left
            return rulings
        if need.kind == "roll":
            self._rolled(state, player, ev)
            selected = state.flags.selected.get(player)
            bak = state.sides[player].team.get(selected) if selected is not None else None
            res.vars["rerolled"] = "open" if bak is not None and bak.open else "missed"  # as the spec read the roll
            self._rolls_settled(state)
            return None
        if need.kind == "shuffle_in":
            self._into_deck(state, player, ev.card)
            return None
        if need.kind == "coin":
            res.vars["coin"] = ev.result
            return None
        if need.kind == "choose":
            res.push(need.detail.options[ev.option - 1])  # the option picked happens (decision 38)
            return None
        return None

    # ================================================================== simulation hooks

    def unsupported(self, cards: CardDatabase, name: str) -> str | None:
        """Which step or condition of a card's text the spec cannot run (the simulator deals
        only with cards it runs whole), or ``None``."""
        tree = cards.tree(name)
        if isinstance(tree, Exception):
            return f"its text does not parse: {tree}"
        if A.unknown_parts(tree):
            return "parts of its text are not covered by the grammar"
        tree = B.as_read(tree, cards[name].type)
        stack: list[tuple[Any, tuple[type, ...]]] = [(tree, ())]  # (node, the kinds of step before it in its effect)
        own_plays = {id(node) for ability in tree.abilities if isinstance(ability, A.Triggered) and _own_discard(ability.trigger)
                     for node in A.nodes(ability.effect) if isinstance(node, K.Play) and node.what.quantifier == "it"}
        while stack:
            node, earlier = stack.pop()
            if isinstance(node, K.Qualified):  # its conditions test the candidates of a selection, or the card played
                gap = next(filter(None, map(T.playable_gap if isinstance(node.step, K.Play) else T.selection_gap, node.where)), None)
                stack.append((node.step, earlier))
            elif isinstance(node, A.Condition):  # any other condition is tested on the game state
                gap = B.condition_gap(node, earlier)
            else:
                gap = None if id(node) in own_plays else step_gap(node, earlier)  # "play it" of "if this is discarded" (decision 41)
                if isinstance(node, msgspec.Struct):
                    stack.extend((getattr(node, f), earlier) for f in node.__struct_fields__)
                elif isinstance(node, tuple):
                    stack.extend((part, earlier + tuple(map(_kind, node[:i]))) for i, part in enumerate(node))
            if gap is not None:
                return gap
        for ability in tree.abilities:  # a step the interpreter has no handler for, but a static's can or can't (the conflicts read it)
            if isinstance(ability, K.Rider) and ability.trigger is not None:  # one as_read leaves as printed (decision 46)
                return f"a {ability.keyword} rider that waits for a moment ({ability.trigger.event}) is not modelled on {cards[name].type} cards" \
                    if ability.keyword != "Victor" else "a Victor rider that waits for a moment is not modelled"
            unfired_trigger = trigger_gap(ability.trigger) if isinstance(ability, A.Triggered) else None
            if unfired_trigger is not None:
                return unfired_trigger
            passive = isinstance(ability, A.Passive)
            for node in A.nodes(repeated(ability.effect) if isinstance(ability, K.Rider) else ability):
                gap = None if passive and isinstance(node, BC.PRODUCES) else interpreter.unhandled(self.effects, node)
                if gap is not None:
                    return gap
            if cards[name].type in ("Action", "Flip") and isinstance(ability, A.Spell) and not any(
                    slot.key == "implied" for slot in T.slots_of(ability.effect)):  # decision 50: "the Bakugan" of nothing selected
                retract = next((n for n in A.nodes(ability.effect) if isinstance(n, K.Retract) and n.what.quantifier == "the"), None)
                if retract is not None:
                    return f"retracting {retract.what.describe()}, where no Bakugan is selected as the card is played, is not modelled"
        return None

    def random_deck(self, cards: Any, rng: random.Random) -> dict[str, Any]:
        """A random registered decklist within the construction rules (1.1/2.1, 1.2)."""
        return self.deck_around(cards, rng, ())

    def deck_around(self, cards: Any, rng: random.Random, wanted: tuple[str, ...]) -> dict[str, Any]:
        """A random registered decklist within the construction rules (1.1/2.1, 1.2), its team
        drawn to let it hold the ``wanted`` cards (:func:`_team_for`) and the wanted cards the
        team allows listed before the others. With nothing wanted, the deck
        :meth:`random_deck` draws."""
        characters = sorted(c.name for c in cards if c.type == "Character")
        if len(characters) < TEAM_SIZE:
            raise DeckError(f"a team is {TEAM_SIZE} Bakugan ({cite('1.1/2.1.p1')}), and the cards hold {len(characters)} Character cards")
        reader = _reader(cards)  # card texts read off its cards alone
        for _ in range(TEAM_TRIES):
            team = _team_for(cards, reader, characters, rng, wanted)
            team_factions: set[str] = set()
            for name in team:
                team_factions |= B.card_factions(reader, cards[name])
            pool = sorted(c.name for c in cards if c.type in DECK_TYPES and B.card_factions(reader, c) & team_factions
                          and self.supported(cards, c.name) and (c.type != "Evo" or any(B.evolves(c, t, cards) for t in team)))
            rng.shuffle(pool)
            if wanted:
                first = [name for name in dict.fromkeys(wanted) if name in pool]
                pool = first + [name for name in pool if name not in first]
            deck: dict[str, int] = {}
            seen: set[tuple[str, str | None]] = set()
            for name in pool:
                key = card_identity(cards[name])[:2]
                if key in seen:
                    continue
                seen.add(key)  # one printing of each card, so the copy limit holds
                deck[name] = min(3, DECK_SIZE - sum(deck.values()))
                if sum(deck.values()) >= DECK_SIZE:
                    break
            if sum(deck.values()) == DECK_SIZE:
                break
        else:
            raise DeckError(f"none of {TEAM_TRIES} teams drawn allows {DECK_SIZE} cards ({cite('1.1/2.1.p3')}) of its "
                            f"factions, three of each at most ({cite('1.2/2.1.p1')})")
        cores = sorted(c for name in team for c in cards[name].stats.get("cores", []))
        return {"deck": dict(sorted(deck.items())), "team": team, "bakucores": cores}

    def facts(self, state: BakuganState) -> tuple[int, int, bool]:
        return len(state.damage_log), len(state.victors), state.stage == "over"

    def claims_since(self, state: BakuganState, before: tuple[int, int, bool]) -> list[dict[str, Any]]:
        """Victor, damage and game claims for what was derived since ``before``."""
        damage_seen, victors_seen, over = before
        out: list[dict[str, Any]] = []
        for victor in state.victors[victors_seen:]:
            out.append({"do": "victor", "player": victor})
        for player, amount in state.damage_log[damage_seen:]:
            out.append({"do": "damage", "to": player, "amount": amount})
        if state.stage == "over" and not over:
            out.append({"do": "game", "winner": state.winner})
        return out

    # ================================================================== end of log, views, copies

    def finish(self, state: BakuganState) -> list[Ruling]:
        rulings: list[Ruling] = []
        if state.resolution is not None and state.resolution.need is not None and not state.resolution.need.optional:
            need = state.resolution.need
            rulings.append(Ruling(need.rule, Violation("the log ends while an effect still needs events", need.describe(), "end of log", "info")))
        return rulings

    def resources(self, state: BakuganState) -> dict[str, dict[str, int]]:
        """Per player: hand and deck sizes, Energy cards (and charged ones), open Bakugan, discard pile."""
        return {player: {"hand": len(side.hand), "deck": len(side.deck), "energy": len(side.energy),
                         "charged": side.charged(), "open Bakugan": 3 - side.closed(), "discard": len(side.discard)}
                for player, side in ((p, state.sides[p]) for p in state.players)}

    def view(self, state: BakuganState) -> dict[str, Any]:
        held = held_slots(state)  # the BakuCores some Bakugan holds: the others lie on the Field
        players = {}
        for player in state.players:
            side = state.sides[player]
            team = {}
            for b in side.team.values():
                numbers: list[int] | list[None]
                try:
                    numbers = B.stats(state, player, b, ("BPower", "Damage Rating"))
                except B.Unmodelled:  # a static the spec cannot read: unknown here, unverifiable where a move needs it
                    numbers = [None, None]
                bpower, damage = numbers
                team[b.name] = {"open": b.open, "face_up": b.face_up, "evos": [c.name for c in b.evos], "holding": list(b.holding),
                                "bpower": bpower, "damage": damage}
            players[player] = {
                "deck": len(side.deck), "hand": len(side.hand), "discard": len(side.discard),
                "energy": {"charged": side.charged(), "total": len(side.energy)}, "pool": side.pool,
                "heroes": [c.name for c in side.heroes], "team": team,
            }
        return {"stage": state.stage, "winner": state.winner, "ended_by": state.end_rule, "turn": state.turn, "step": state.node, "mode": state.mode, "starting": state.starting,
                "priority": state.priority.holder, "batch": [i.name for i in state.batch.items], "victor": state.victor,
                "field": sorted(s for s in state.field_cores if s not in held),
                "players": players}

    def copy(self, state: BakuganState) -> BakuganState:
        return state.copy()

    # ================================================================== legal moves

    def legal_moves(self, state: BakuganState, rng: random.Random | None = None) -> list[Event]:
        """Every move the rules allow now; chance events are sampled (with ``rng``) or represented."""
        rng = rng or random.Random(0)
        legal = []
        for move in self._candidates(state, rng):
            trial = state.copy()
            rulings = self._judge(trial, move, anyway=False)
            if not any(r.violation.severity in ("illegal", "inconsistent", "malformed", "unverifiable") for r in rulings):
                legal.append(move)
        return legal

    def _candidates(self, state: BakuganState, rng: random.Random) -> list[Event]:
        out: list[Event] = []
        if state.stage == "over":
            return out
        res = state.resolution
        if res is not None and res.need is not None:
            need = res.need
            if need.optional:
                out.append(E.Decline(0, need.player))
            if need.kind == "may":
                trial = state.copy()
                trial_res = trial.resolution
                assert trial_res is not None
                trial_res.need = None
                trial_res.push(need.detail[0])
                try:
                    self._continue(trial)
                except (B.Unmodelled, UnsupportedStep):
                    return out
                out.extend(self._candidates(trial, rng))
                return out
            out.extend(self._need_candidates(state, need, rng))
            if need.optional:  # any other event declines the optional step first
                trial = state.copy()
                trial_res = trial.resolution
                assert trial_res is not None
                trial_res.need = None
                try:
                    self._continue(trial)
                except (B.Unmodelled, UnsupportedStep):
                    return out
                out.extend(self._candidates(trial, rng))
            return out
        for player in state.players:
            side = state.sides[player]
            out.append(E.Pass(0, player))
            out.append(E.First(0, None, player))
            out.append(E.Shuffle(0, player))
            out.append(E.Draw(0, player, self._drawable(state, player, rng)))
            for icon in sorted(set(side.cores_left if side.cores_left is not None else K.BAKUCORES)):
                placed = sorted(state.field_cores)
                out.append(E.Place(0, player, icon, [rng.choice(placed)] if placed else []))
            names = self._hand_names(state, player)
            for name in names:
                out.append(E.Energize(0, player, name))
                out.append(E.Discard(0, player, name))
                out.extend(self._play_candidates(state, player, name))
            if state.offer is not None and state.offer.owner == player and state.offer.name:
                out.extend(self._play_candidates(state, player, state.offer.name))
            for bak in side.team.values():
                if not bak.open:
                    out.append(E.Select(0, player, bak.name))
                out.append(E.Reroll(0, player, bak.name))
            out.extend(self._roll_candidates(state, rng, player))
            out.append(E.Flip(0, player, self._drawable(state, player, rng)))
            for hero in side.heroes:
                for index, ability in enumerate(B.abilities(state, hero.name, A.Activated)):
                    xs: list[int | None] = [None]
                    if any(isinstance(s, K.Spend) and isinstance(s.amount, A.Var) for s in ability.cost):
                        xs = list(range(1, min(3, side.pool + side.charged()) + 1))
                    for x in xs:
                        for targets in self._target_choices(state, player, ability.effect):
                            out.append(E.Activate(0, player, hero.name or "", index, targets, x))
        return out

    def _hand_names(self, state: BakuganState, player: str) -> list[str]:
        """The names a card of the hand can have (a card the log kept hidden: any the deck can still give)."""
        side = state.sides[player]
        return side.knowledge.names_in(side.hand, state.cards, lambda d: d.type in DECK_TYPES)

    def _drawable(self, state: BakuganState, player: str, rng: random.Random) -> str | None:
        knowledge = state.sides[player].knowledge
        if knowledge.registered is None:
            return None
        pool = [n for n, k in sorted(knowledge.registered.items()) for _ in range(k - knowledge.located[n])]
        return rng.choice(pool) if pool else None

    def _roll_candidates(self, state: BakuganState, rng: random.Random, player: str) -> list[Event]:
        out: list[Event] = [E.Roll(0, player, opened=False)]
        brawl = set(state.flags.selected.items())
        cores = [s for s in sorted(state.field_cores) if all(h in brawl for h in holders(state, s))]
        if cores:
            core = rng.choice(cores)
            out.append(E.Roll(0, player, opened=True, core=core, attached=True))
            out.append(E.Roll(0, player, opened=True, core=core, attached=False))
        return out

    def _play_candidates(self, state: BakuganState, player: str, name: str, supported_only: bool = True) -> list[Event]:
        defn = state.cards.get(name)
        if defn is None or supported_only and not self.supported(state.cards, name):
            return []
        if defn.type == "Evo":
            return [E.Play(0, player, name, on=on) for on in state.sides[player].team if B.evolves(defn, on, state.cards)]
        if defn.type == "Hero":
            return [E.Play(0, player, name)]
        out: list[Event] = []
        xs: list[int | None] = [None]
        if defn.cost == "X":
            side = state.sides[player]
            xs = list(range(min(3, side.pool + side.charged()) + 1))
        for x in xs:
            for targets in self._slot_choices(state, player, X.played_slots(state, player, name)):
                out.append(E.Play(0, player, name, targets, x=x))
        return out

    def _target_choices(self, state: BakuganState, player: str, steps: tuple[A.Step, ...]) -> list[list[E.TargetRef]]:
        return self._slot_choices(state, player, T.slots_of(steps))

    def _slot_choices(self, state: BakuganState, player: str, slots: list[T.Slot]) -> list[list[E.TargetRef]]:
        options: list[list[E.TargetRef]] = [[]]
        for slot in slots:
            refs: list[E.TargetRef] = []
            for ref, _obj in T.candidates(state, player, slot):
                if ref not in refs:  # Energy cards of one player and charge are named alike (decision 44)
                    refs.append(ref)
            options = [o + [r] for o in options for r in refs]
        return options

    def _need_candidates(self, state: BakuganState, need: interpreter.Need, rng: random.Random) -> list[Event]:
        if need.among:  # any of the players the effect lets its controller choose (decision 32)
            return [ev for p in need.among for ev in self._need_candidates(state, replace(need, player=p, among=()), rng)]
        p = need.player
        side = state.sides[p]
        if need.kind in ("draw", "flip"):
            cls = E.Draw if need.kind == "draw" else E.Flip
            return [cls(0, p, self._drawable(state, p, rng))]
        if need.kind == "discard":
            return [E.Discard(0, p, n) for n in self._hand_names(state, p)] or [E.Discard(0, p, None)]
        if need.kind == "energize":
            return [E.Energize(0, p, n) for n in self._hand_names(state, p)] or [E.Energize(0, p, None)]
        if need.kind == "search":
            found = [d.name for d in state.cards if need.detail.type in ("card", d.type) and side.knowledge.can_reveal(d.name)
                     and (side.knowledge.registered is None or side.knowledge.registered.get(d.name, 0) > 0)]
            searches: list[Event] = [E.Search(0, p, None)]
            return searches + [E.Search(0, p, n) for n in sorted(found)]
        if need.kind == "shuffle":
            return [E.Shuffle(0, p)]
        if need.kind == "shuffle_in":
            return [E.ShuffleIn(0, p, n) for n in sorted({c.name for c in side.discard if c.name is not None
                                                         and X.shuffle_in_violation(state, p, c.name, need.detail) is None})] \
                or [E.ShuffleIn(0, p, None)]
        if need.kind == "roll":
            return self._roll_candidates(state, rng, p)
        if need.kind == "coin":
            return [E.Coin(0, p, "heads"), E.Coin(0, p, "tails")]
        if need.kind == "choose":
            return [E.Choose(0, p, option) for option in range(1, len(need.detail.options) + 1)]
        if need.kind == "target":
            return [E.Target(0, p, refs) for refs in self._slot_choices(state, p, need.detail)]
        if need.kind == "play":  # the cards of the hand the effect names (or the one card it names), each as it can be played
            names = [need.detail.card.name] if need.detail.card is not None else self._hand_names(state, p)
            return [ev for n in names for ev in self._play_candidates(state, p, n)
                    if isinstance(ev, E.Play) and T.play_gap(state, state.cards[ev.card], ev.x, need.detail) is None]
        return []



_Watchers = tuple[tuple[str, CardObj, Toy | None, tuple[A.Triggered, ...]], ...]


def _watchers(state: BakuganState, event: str) -> _Watchers | None:
    """The working sources (:func:`~spec.bakugan.board.working_sources`, in its order) with triggered
    abilities that watch ``event``, each with those abilities; ``None`` when a text does not read.

    Read off the teams' piles and the Heroes for every event at once, in the order for either
    starting player (:func:`_index_watchers`), and again only after they change
    (:attr:`BakuganState.watching`); the starting player's come first. Most events fire nothing,
    and then this is one lookup.
    """
    index = state.watching
    if index is None:
        try:
            index = state.watching = _index_watchers(state)
        except B.Unmodelled:
            return None
    found = index.get(event)
    if found is None:
        return ()
    return found[1] if state.starting == state.players[1] else found[0]


def _index_watchers(state: BakuganState) -> dict[str, tuple[_Watchers, _Watchers]]:
    """Event -> the working sources with triggered abilities that watch it, in the order of
    :func:`~spec.bakugan.board.working_sources` for each player who may be starting: first with the
    first seated player starting (or before the first turn), then with the second. Each player's
    sources are the tops of their team's piles, then their Heroes, each with those abilities in
    printed order; the starting player's come first. Both orders are put together here, once, so
    that a lookup builds nothing."""
    seats: dict[str, tuple[_Watchers, _Watchers]] = {}
    for seat, player in enumerate(state.players):
        side = state.sides[player]
        sources = [(bak.top, bak) for bak in side.team.values()] + [(hero, None) for hero in side.heroes]
        for source, bak in sources:
            for event, watching in B.triggers_by_event(state, source.name).items():
                entry = (player, source, bak, watching)
                kept = seats.get(event, ((), ()))
                seats[event] = (kept[0] + (entry,), kept[1]) if seat == 0 else (kept[0], kept[1] + (entry,))
    return {event: (first + second, second + first) for event, (first, second) in seats.items()}


_NAMING: Final = ("card", "bakugan", "on")
"""The fields of an event that name a card of the database. Its selections (``targets``) are
not among them: a selection is matched against what is on the table, and one naming
nothing there is refused under 6.2.1.2 whatever the name, in the database or not
(:func:`spec.bakugan.actions.targets_violation`)."""


class _KindFacts:
    """What ``Bakugan.apply`` needs to know of one type of event, read once per event type.

    A class with slots (not a named tuple): its fields are read several times for every event,
    and reading a slot is the quickest attribute read there is."""

    __slots__ = ("action", "check_of", "claim", "fed", "kind", "names", "perform", "performed", "staged", "tests")

    def __init__(self, kind: str, performed: bool, names: tuple[str, ...], claim: bool,
                 action: Action[Any, Any], staged: X.Staged, perform: Any) -> None:
        self.kind = kind
        """Its kind (the type's tag)."""
        self.performed = performed
        """A player performs it: the event must say who (every kind but :data:`NO_ACTOR`)."""
        self.names = names
        """Its fields of :data:`_NAMING`: each names a card of the database, or nothing (``None``)."""
        self.claim = claim
        """A claim (``E.KINDS``): it is still judged once the game is over, and while an effect waits."""
        forfeit = kind == "forfeit"
        self.fed = not claim and not forfeit
        """While an effect waits for an event, one of this kind goes to it (``Bakugan._feed``); not a claim,
        nor a concession, which is carried out wherever the game stands: it has no checks, and its
        :attr:`perform` is ``Bakugan._do_forfeit``."""
        if forfeit and (action.checks or perform is not Bakugan._do_forfeit):
            raise ValueError("a concession is carried out before any check")
        self.action = action
        """The action whose preconditions judge it (``BOOK.actions``)."""
        self.staged = staged
        """Per place where the game can stand and mode, the checks of :attr:`action` that can fail there (:func:`X.staged`)."""
        self.tests = {place: X.tests_of(by_mode) for place, by_mode in staged.items()}
        """:attr:`staged` with the tests alone (what ``apply`` runs); :attr:`check_of` names the check of a test that found something."""
        self.check_of = {check.test: check for check in action.checks}
        """Test -> the registered check it is the test of (each check of an action has a test of its own)."""
        if len(self.check_of) != len(action.checks):
            raise ValueError(f"{kind}: two checks share one test")
        self.perform = perform
        """What carries it out once its checks passed: ``Bakugan._do_<kind>`` (a play through
        ``_do_checked_play``, a reroll through ``_do_noted_reroll``), or ``_do_nothing``."""


def _facts_for(cls: type) -> _KindFacts:
    """The facts of an event type, read off the type (its tag and fields) once and kept in :data:`_FACTS`."""
    facts = _FACTS.get(cls)
    if facts is None:
        kind = str(cls.__struct_config__.tag)  # type: ignore[attr-defined]
        fields = cls.__struct_fields__  # type: ignore[attr-defined]
        perform = _PERFORM.get(kind) or getattr(Bakugan, f"_do_{kind}", None) or Bakugan._do_nothing
        facts = _FACTS[cls] = _KindFacts(kind, kind not in NO_ACTOR, tuple(f for f in _NAMING if f in fields),
                                         E.KINDS[kind] == "claim", BOOK.actions[kind], X.staged(BOOK.actions[kind]), perform)
        setattr(cls, "_facts", facts)  # noqa: B010  # read off the event itself in apply (a struct type: mypyc knows no such attribute)
    return facts


_PERFORM: Final[dict[str, Any]] = {"play": Bakugan._do_checked_play, "reroll": Bakugan._do_noted_reroll}
"""The kinds carried out otherwise than by their ``_do_<kind>`` alone, once their checks passed."""

_FACTS: Final[dict[type, _KindFacts]] = {}
"""Event type -> its :class:`_KindFacts`, filled as the types are met; each type of :data:`E.EVENTS`
also carries its own as the class attribute ``_facts`` (what ``Bakugan.apply`` reads)."""

for _event_type in E.EVENTS:
    _facts_for(_event_type)


def _reader(cards: CardDatabase) -> BakuganState:
    """A state with no game in it, for reading card texts before a game state exists (deck checks,
    random decks): only its ``cards`` are read. A real state, not a stand-in: compiled code checks
    that a value declared a :class:`BakuganState` is one."""
    return BakuganState(players=("", ""), sides={}, cards=cards, explicit_passes=True)


__all__ = ["Bakugan"]
