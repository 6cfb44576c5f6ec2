"""The TTCG game state: one mutable object while a replay is verified.

Each player has a deck (private, ordered), a hand (private, its size public), a discard
pile (public) and a field of two rows (2.2.9.a): up to five creature piles and up to
five magic piles. A *pile* is a card on the field with the cards levelled up beneath
it (2.1.q, 2.2.6.c); the top card is the one in play, the cards under it stay on the
field but take no part (2.2.6.d-f). Effects wait on the *chain* (2.1.ah) until both
players pass; a declared attack waits as the *battle*.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from grammar import ast as A
from spec.core.cards import CardDatabase, CardDef
from spec.core.game import restore
from spec.core.hidden import DeckKnowledge
from spec.core.interpreter import Resolution
from spec.core.queue import Priority
from spec.core.state import CardObj, Zone
from spec.ttcg.edits import EDITS, force_changed
from spec.ttcg.fieldlist import FieldList, MarkSet, Row

START_POINTS: Final = 20
"""Points each player begins with (2.2.8.a)."""
ZONE_SIZE: Final = 5
"""Piles each row of a field holds (2.2.9.b, 2.2.9.c)."""
HAND_LIMIT: Final = 10
"""Cards a hand may keep at the end of its player's turn (2.2.10)."""
OPENING_HAND: Final = 7
"""Cards each player draws to begin (2.2.2.b)."""
PLAYS_PER_MAIN_PHASE: Final = 2
"""Cards the active player may put on the field in a Main Phase (2.2.3.a.2.a)."""
EXHAUSTION_LOSS: Final = 5
"""Points lost at a Draw Phase begun with an empty deck (2.2.11)."""


class Marks:
    """What a change of one pile's marks moves besides ``EDITS.marks``: the pile's own count of those
    changes (``changes``, read as ``Pile.mark_count``) and, while the pile lies in a row of a side
    whose :class:`Tally` is ready, that tally (``tally``) and in how many places of its side's rows
    the pile lies (``seats``: one, in a game).

    The pile and its own :class:`MarkSet` share it, so that the set, changed in place, counts its
    changes where the pile does without holding the pile: a set holding its pile back would make
    every pile that leaves the field garbage only the cycle collector frees, and a class compiled
    with mypyc takes no weak references.
    """

    __slots__ = ("changes", "seats", "tally")

    changes: int
    tally: Tally | None
    seats: int

    def __init__(self, changes: int = 0) -> None:
        self.changes = changes
        self.tally = None
        self.seats = 0


class Tally:
    """What the change key of the conflicts reads of one side's piles beyond their number: how many
    are tapped (``tapped``) and how many effects are switched on among them (``switched``), kept as
    they change instead of counted pile by pile each time they are asked.

    A side's two rows (:class:`Row`) share its tally. A pile joining a row *seats* itself there
    (``Marks.tally``, ``Marks.seats`` of the pile: the tally it tells of its marks, and in how many
    places of its side's rows it lies) and adds its marks; leaving, it takes them away; tapping,
    untapping and switching effects on or off move the counts of the pile's tally (the setters of
    :class:`Pile`, :class:`MarkSet`). Nothing names the side or a pile back: the tally holds two numbers.

    ``ready``: the counts hold for the rows as they are. A side is made (a copy, a snapshot put
    back) with a tally not ready, so that a snapshot taken and dropped never seats its piles: the
    first asking counts its piles and seats them (:meth:`Side.tallied`). ``shared``: a pile was
    seated on two sides at once (never in a game: a card is on one field); the counts are then
    made pile by pile at every asking.
    """

    __slots__ = ("ready", "shared", "switched", "tapped")

    tapped: int
    switched: int
    ready: bool
    shared: bool

    def __init__(self) -> None:
        self.tapped = 0
        self.switched = 0
        self.ready = False
        self.shared = False

    def seat(self, pile: Pile) -> None:
        """Count ``pile``, which joined a row of this tally's side."""
        marks = pile.marks
        held = marks.tally
        if held is None:
            marks.tally = self
            marks.seats = 1
        elif held is self:
            marks.seats += 1
        else:  # on two sides at once: neither side's counts can follow its marks
            self.shared = held.shared = True
            self.ready = held.ready = False
        if pile.tapped:
            self.tapped += 1
        self.switched += len(pile.switched_on)

    def unseat(self, pile: Pile) -> None:
        """Take away ``pile``, which left a row of this tally's side."""
        if pile.tapped:
            self.tapped -= 1
        self.switched -= len(pile.switched_on)
        marks = pile.marks
        if marks.tally is self:
            marks.seats -= 1
            if not marks.seats:
                marks.tally = None


class Pile:
    """A card on the field (``card``, the top) with the cards under it, oldest first.

    A new top card or a new list of cards under it counts as a change of the field's
    make-up (:func:`field_edits`), as does any change to that list; tapping, untapping,
    switching effects on and attaching it to a creature count as changes of its marks
    (:func:`mark_edits`, and ``mark_count``, this pile's own count of them: a reading that
    looked at the marks of some piles only is kept while theirs stay as they were). While it lies in
    a row of a side whose :class:`Tally` is ready, its marks changing move that tally's counts too.

    The watched fields are properties whose setters do that counting (a class compiled with
    mypyc has no ``__setattr__`` of its own to hook); making a pile sets the fields behind them
    directly: it is a new object, so no reading can have looked at it yet. Its lists are typed as
    their own classes (:class:`FieldList`, :class:`MarkSet`), so that compiled code changing them
    in place calls their counting methods. Equality and ``repr`` are those of the dataclass it was.
    """

    id: int
    row: str
    """``creature`` or ``magic``."""
    tapped_turn: int
    """The turn in which the top card last became tapped (for Dormant effects, 2.2.5.i.6.p2)."""
    marks: Marks
    """The pile's own count of changes of its marks, and its seat on a side (see :class:`Marks`)."""
    _card: CardObj
    _under: FieldList[CardObj]
    _tapped: bool
    _switched_on: MarkSet
    _equipped_to: int | None

    def __init__(self, id: int, card: CardObj, row: str, under: list[CardObj] | None = None, tapped: bool = False,
                 tapped_turn: int = -1, switched_on: set[int] | None = None, equipped_to: int | None = None,
                 mark_count: int = 0) -> None:
        """The fields as the setters would leave them, without their counting field by field: ``under``
        a :class:`FieldList`, ``switched_on`` a :class:`MarkSet` of this pile. The count of mark
        changes moves as that counting moved it (three marks set)."""
        self.id = id
        self._card = card
        self.row = row
        self._under = FieldList() if under is None else under if type(under) is FieldList else FieldList(under)
        self._tapped = tapped
        self.tapped_turn = tapped_turn
        marks = Marks(mark_count)
        self.marks = marks
        own = MarkSet(switched_on) if switched_on is not None else MarkSet()
        own.owner = marks
        self._switched_on = own
        self._equipped_to = equipped_to
        EDITS.marks += 3

    @property
    def card(self) -> CardObj:
        return self._card

    @card.setter
    def card(self, card: CardObj) -> None:
        EDITS.field += 1
        self._card = card

    @property
    def under(self) -> FieldList[CardObj]:
        """The cards under the top card, oldest first (a :class:`FieldList`, whatever list is set)."""
        return self._under

    @under.setter
    def under(self, cards: list[CardObj]) -> None:
        self._under = cards if type(cards) is FieldList else FieldList(cards)
        EDITS.field += 1

    @property
    def tapped(self) -> bool:
        return self._tapped

    @tapped.setter
    def tapped(self, tapped: bool) -> None:
        marks = self.marks
        tally = marks.tally
        if tally is not None:
            tally.tapped += (1 if tapped else 0) - (1 if self._tapped else 0)
        self._tapped = tapped
        marks.changes += 1
        EDITS.marks += 1

    @property
    def switched_on(self) -> MarkSet:
        """Continuous effects of the top card that were activated and stay in force (2.2.5.i.2)."""
        return self._switched_on

    @switched_on.setter
    def switched_on(self, effects: set[int]) -> None:
        """Make ``effects`` the pile's own :class:`MarkSet`: the very set when it is one no other pile
        holds, a copy otherwise; the set it replaces is no longer the pile's."""
        marks = self.marks
        given: Any = effects
        owner = getattr(given, "owner", None) if type(given) is MarkSet else False
        own: MarkSet = given if owner is None or owner is marks else MarkSet(given)
        old = self._switched_on
        if old is not own:
            if getattr(old, "owner", None) is marks:
                old.owner = None  # no longer this pile's: changing it changes none of its marks
            tally = marks.tally
            if tally is not None:
                tally.switched += len(own) - len(old)
        own.owner = marks
        self._switched_on = own
        marks.changes += 1
        EDITS.marks += 1

    @property
    def equipped_to(self) -> int | None:
        """For a magic card attached as equipment: the pile id of its creature (2.2.5.i.4)."""
        return self._equipped_to

    @equipped_to.setter
    def equipped_to(self, equipped_to: int | None) -> None:
        self._equipped_to = equipped_to
        self.marks.changes += 1
        EDITS.marks += 1

    @property
    def mark_count(self) -> int:
        """How many times this pile's marks changed (see above)."""
        return self.marks.changes

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pile):
            return NotImplemented
        return ((self.id, self._card, self.row, self._under, self._tapped, self.tapped_turn, self._switched_on,
                 self._equipped_to)
                == (other.id, other._card, other.row, other._under, other._tapped, other.tapped_turn,
                    other._switched_on, other._equipped_to))

    __hash__ = None  # type: ignore[assignment]  # (as the dataclass it was: equal by value, so unhashable)

    def __repr__(self) -> str:
        return (f"Pile(id={self.id!r}, card={self._card!r}, row={self.row!r}, under={self._under!r}, "
                f"tapped={self._tapped!r}, tapped_turn={self.tapped_turn!r}, switched_on={self._switched_on!r}, "
                f"equipped_to={self._equipped_to!r})")

    def copy(self) -> Pile:
        return Pile(self.id, self._card.copy(), self.row, [c.copy() for c in self._under], self._tapped,
                    self.tapped_turn, set(self._switched_on), self._equipped_to)

    def held(self) -> Pile:
        """The pile as it stands, for a :class:`Snapshot`: its own lists, the cards shared (see :func:`_kept`)."""
        return Pile(self.id, _kept(self._card), self.row, [_kept(c) for c in self._under], self._tapped,
                    self.tapped_turn, set(self._switched_on), self._equipped_to)


class Side:
    """Everything one player has.

    Its rows of piles are :class:`Row` lists: a change to them counts as a change of the
    field's make-up (:func:`field_edits`), and the piles joining and leaving them are told to
    the side's :class:`Tally` (``tally``, shared by both rows). Setting a row (a property: a class
    compiled with mypyc has no ``__setattr__`` of its own to hook) makes a new :class:`Row` of
    the piles given. Equality and ``repr`` are those of the dataclass it was.
    """

    name: str
    deck: Zone
    hand: Zone
    discard: Zone
    knowledge: DeckKnowledge
    points: int
    shuffled: bool
    opening_draws: int
    skips: int
    """Turns of this player still to be skipped (an effect's cost)."""
    tally: Tally | None
    """How many of its piles are tapped and how many effects are switched on among them (see :class:`Tally`)."""
    _creatures: Row
    _magic: Row

    def __init__(self, name: str, deck: Zone, hand: Zone, discard: Zone, knowledge: DeckKnowledge,
                 creatures: list[Pile] | None = None, magic: list[Pile] | None = None, points: int = START_POINTS,
                 shuffled: bool = False, opening_draws: int = 0, skips: int = 0) -> None:
        """Rows of their own sharing a new tally, not ready: making a side changes no field."""
        self.name = name
        self.deck = deck
        self.hand = hand
        self.discard = discard
        self.knowledge = knowledge
        tally = Tally()
        self.tally = tally
        self._creatures = Row(() if creatures is None else creatures, tally)
        self._magic = Row(() if magic is None else magic, tally)
        self.points = points
        self.shuffled = shuffled
        self.opening_draws = opening_draws
        self.skips = skips

    @property
    def creatures(self) -> Row:
        return self._creatures

    @creatures.setter
    def creatures(self, piles: list[Pile]) -> None:
        self._creatures = self._seated(self._creatures, piles)

    @property
    def magic(self) -> Row:
        return self._magic

    @magic.setter
    def magic(self, piles: list[Pile]) -> None:
        self._magic = self._seated(self._magic, piles)

    def _seated(self, old: Row, piles: list[Pile]) -> Row:
        """A :class:`Row` of ``piles`` sharing the side's tally, to replace the row ``old``, whose piles leave."""
        tally = self.tally
        if tally is None:  # (a side always has one)
            tally = self.tally = Tally()
        EDITS.field += 1
        if old.tally is tally:
            if tally.ready:
                for pile in old:
                    tally.unseat(pile)
            old.tally = None
        row = Row(piles, tally)
        if tally.ready:
            for pile in row:
                tally.seat(pile)
        return row

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Side):
            return NotImplemented
        return ((self.name, self.deck, self.hand, self.discard, self.knowledge, self._creatures, self._magic,
                 self.points, self.shuffled, self.opening_draws, self.skips)
                == (other.name, other.deck, other.hand, other.discard, other.knowledge, other._creatures,
                    other._magic, other.points, other.shuffled, other.opening_draws, other.skips))

    __hash__ = None  # type: ignore[assignment]  # (as the dataclass it was)

    def __repr__(self) -> str:
        return (f"Side(name={self.name!r}, deck={self.deck!r}, hand={self.hand!r}, discard={self.discard!r}, "
                f"knowledge={self.knowledge!r}, creatures={self._creatures!r}, magic={self._magic!r}, "
                f"points={self.points!r}, shuffled={self.shuffled!r}, opening_draws={self.opening_draws!r}, "
                f"skips={self.skips!r})")

    def tallied(self) -> Tally:
        """The side's tally, counted pile by pile and its piles seated first if it is not ready (see :class:`Tally`)."""
        tally = self.tally
        if tally is not None and tally.ready:
            return tally
        if tally is None:  # (a side always has one)
            tally = self.tally = Tally()
        tally.tapped = tally.switched = 0
        if tally.shared:  # counted afresh at every asking
            for row in (self._creatures, self._magic):
                for pile in row:
                    if pile.tapped:
                        tally.tapped += 1
                    tally.switched += len(pile.switched_on)
            return tally
        tally.ready = True
        for row in (self._creatures, self._magic):
            for pile in row:
                tally.seat(pile)
        return tally

    def piles(self) -> list[Pile]:
        return self._creatures + self._magic

    def copy(self) -> Side:
        return Side(self.name, self.deck.copy(), self.hand.copy(), self.discard.copy(), self.knowledge.copy(),
                    [p.copy() for p in self._creatures], [p.copy() for p in self._magic], self.points, self.shuffled,
                    self.opening_draws, self.skips)

    def held(self) -> Side:
        """The side as it stands, for a :class:`Snapshot`: zones, piles and knowledge of its own, the cards shared."""
        return Side(self.name, _held(self.deck), _held(self.hand), _held(self.discard), self.knowledge.copy(),
                    [p.held() for p in self._creatures], [p.held() for p in self._magic], self.points, self.shuffled,
                    self.opening_draws, self.skips)



def _kept(card: CardObj) -> CardObj:
    """A card as a :class:`Snapshot` keeps it: itself once its name is known (such a card never changes),
    a copy while it is hidden (naming a hidden card of a hand changes it in place)."""
    return card if card.name is not None else card.copy()


def _held(zone: Zone) -> Zone:
    other = Zone(zone.name, ordered=zone.ordered, public=zone.public)
    other.cards = [c if c.name is not None else c.copy() for c in zone.cards]
    other.hidden = zone.hidden
    return other


@dataclass(init=False)
class TurnFlags:
    """What has happened this turn (reset as each turn begins).

    Its ``__init__`` is written out (``init=False``), as those of the classes below: the one
    dataclasses generates stays a Python function in the compiled build, and these are made
    on many events (a new turn, a copy for each snapshot, an effect used or set off)."""

    drew: bool = False
    plays: int = 0
    """Cards put on the field from the hand this Main Phase (2.2.3.a.2.a)."""
    extra: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)
    """Extra plays granted by effects: (how many, the kinds they must be)."""
    extra_sources: list[str] = field(default_factory=list)
    """The card whose effect granted each entry of ``extra`` (for the conflicts report)."""
    attacked: set[int] = field(default_factory=set)
    """Pile ids of the creatures that attacked this turn (2.2.7.b)."""
    discarded: int = 0
    """Cards discarded this turn by anyone (for "for each card discarded this turn")."""
    destroyed: int = 0
    played: int = 0

    def __init__(self, drew: bool = False, plays: int = 0, extra: list[tuple[int, tuple[str, ...]]] | None = None,
                 extra_sources: list[str] | None = None, attacked: set[int] | None = None, discarded: int = 0,
                 destroyed: int = 0, played: int = 0) -> None:
        self.drew = drew
        self.plays = plays
        self.extra = [] if extra is None else extra
        self.extra_sources = [] if extra_sources is None else extra_sources
        self.attacked = set() if attacked is None else attacked
        self.discarded = discarded
        self.destroyed = destroyed
        self.played = played

    def copy(self) -> TurnFlags:
        return TurnFlags(self.drew, self.plays, list(self.extra), list(self.extra_sources), set(self.attacked),
                         self.discarded, self.destroyed, self.played)


@dataclass(init=False)
class Lasting:
    """A change an effect made that lasts: a boost, a set value, a restriction, a prohibition.

    It applies to the cards ``uids`` (chosen as the effect resolved) or, when ``uids`` is
    ``None``, to every card ``selector`` matches from ``controller``'s side at the time.
    """

    kind: str
    """``boost``, ``set``, ``restrict``, ``prohibit`` or ``rank_up``."""
    controller: str
    what: str
    """The stat (``attack``, ``defense``, ``rank``) or the action restricted."""
    amount: int = 0
    uids: tuple[int, ...] | None = None
    selector: Any = None
    using: Any = None
    """For ``rank_up`` permissions: the cards that may be used."""
    until_start: int | None = None
    """It ends as this turn begins."""
    until_end: int | None = None
    """It ends as this turn ends; with neither, it lasts while its cards are on the field."""
    order: int = 0

    def __init__(self, kind: str, controller: str, what: str, amount: int = 0, uids: tuple[int, ...] | None = None,
                 selector: Any = None, using: Any = None, until_start: int | None = None, until_end: int | None = None,
                 order: int = 0) -> None:
        # written out (init=False), as TurnFlags's
        self.kind = kind
        self.controller = controller
        self.what = what
        self.amount = amount
        self.uids = uids
        self.selector = selector
        self.using = using
        self.until_start = until_start
        self.until_end = until_end
        self.order = order

    def copy(self) -> Lasting:
        return Lasting(self.kind, self.controller, self.what, self.amount, self.uids, self.selector, self.using,
                       self.until_start, self.until_end, self.order)


@dataclass(init=False)
class Link:
    """An effect on the chain: who used it, its card, and what it does."""

    controller: str
    source: CardObj
    pile: int | None
    """The pile the source was the top of when the effect was used (``None`` if not on the field)."""
    effect: tuple[A.Step, ...]
    index: int
    kind: str
    """``activated`` or ``triggered``."""
    label: str = "normal"
    leaves_field: bool = False
    """A trigger on its own card leaving the field: it works from the discard pile (2.2.5.h.1)."""
    negated: bool = False
    event_card: CardObj | None = None
    """For a trigger: the card the event happened to."""

    def __init__(self, controller: str, source: CardObj, pile: int | None, effect: tuple[A.Step, ...], index: int, kind: str,
                 label: str = "normal", leaves_field: bool = False, negated: bool = False,
                 event_card: CardObj | None = None) -> None:
        # written out (init=False), as TurnFlags's
        self.controller = controller
        self.source = source
        self.pile = pile
        self.effect = effect
        self.index = index
        self.kind = kind
        self.label = label
        self.leaves_field = leaves_field
        self.negated = negated
        self.event_card = event_card


@dataclass(init=False)
class Battle:
    """A declared attack waiting to be resolved (2.2.7)."""

    attacker: int
    """Pile id of the attacking creature."""
    player: str
    target: int | None
    """Pile id of the defending creature, or ``None`` for a direct attack (2.2.7.d)."""

    def __init__(self, attacker: int, player: str, target: int | None) -> None:
        # written out (init=False), as TurnFlags's
        self.attacker = attacker
        self.player = player
        self.target = target


@dataclass(init=False)
class Delayed:
    """An effect waiting for the end of the turn ("at the end of this turn")."""

    turn: int
    controller: str
    source: CardObj
    effect: tuple[A.Step, ...]

    def __init__(self, turn: int, controller: str, source: CardObj, effect: tuple[A.Step, ...]) -> None:
        # written out (init=False), as TurnFlags's
        self.turn = turn
        self.controller = controller
        self.source = source
        self.effect = effect


@dataclass
class TtcgState:
    """The whole game at one moment."""

    players: tuple[str, str]
    sides: dict[str, Side]
    cards: CardDatabase
    explicit_passes: bool
    stage: str = "setup"
    """``setup``, ``turn`` or ``over``."""
    first: str | None = None
    active: str = ""
    turn: int = 0
    node: str = "draw"
    """The current phase (see :data:`spec.ttcg.turn.TURN`)."""
    priority: Priority = field(default_factory=lambda: Priority(""))
    chain: list[Link] = field(default_factory=list)
    resolving: list[Link] = field(default_factory=list)
    """Links of the chain being resolved, last first; the chain itself is then empty."""
    resolution: Resolution | None = None
    paying: Link | None = None
    """An effect whose cost is being paid; it joins the chain once the cost is paid."""
    battle: Battle | None = None
    flags: TurnFlags = field(default_factory=TurnFlags)
    lasting: list[Lasting] = field(default_factory=list)
    delayed: list[Delayed] = field(default_factory=list)
    waiting: list[Link] = field(default_factory=list)
    """Triggered effects set off by what is happening, waiting to join the chain (2.2.5.d)."""
    destroyed_log: list[tuple[str, str]] = field(default_factory=list)
    """(owner, card name) of every destroyed card, in order (for ``destroyed`` claims)."""
    destroyed_mark: int = 0
    """Destructions before this index came before the last move or chance event."""
    destroyed_claimed: int = 0
    spared: list[tuple[str, str, str]] = field(default_factory=list)
    """(owner, card name, why) of every destruction an effect in force prevented (2.1.aj)."""
    spared_mark: int = 0
    """Entries of ``spared`` before this index came before the last move or chance event."""
    notes: list[Any] = field(default_factory=list)
    """Findings made deep inside an event (a clash settled or left open), handed out by ``apply``."""
    winner: str | None = None
    fizzled: int = 0
    """Effects that did nothing because their card had left the field or they were countered (2.2.5.d.p2)."""
    next_uid: int = 1
    next_order: int = 1
    seq: int | None = None
    """The seq of the event being applied (what the deck journals are dated with, see ``DeckKnowledge.dated``)."""
    field_index: Any = field(default=None, repr=False, compare=False)
    """What :mod:`spec.ttcg.board` read of this field's make-up (its own, never copied; see :func:`field_edits`)."""
    in_force_stamp: int = field(default=0, repr=False, compare=False)
    """:func:`in_force_edits` as the last event applied left it (``Ttcg.apply`` sets it): the game's
    ``conflicts_stamp``, read by the verifier after each event."""

    def other(self, player: str) -> str:
        a, b = self.players
        return b if player == a else a

    @property
    def nonactive(self) -> str:
        return self.other(self.active)

    def new_card(self, name: str | None, owner: str, defn: CardDef | None = None) -> CardObj:
        card = CardObj(self.next_uid, name, owner, defn)
        self.next_uid += 1
        EDITS.force += 1
        return card

    def new_id(self) -> int:
        self.next_uid += 1
        EDITS.force += 1
        return self.next_uid - 1

    def copy(self) -> TtcgState:
        """A cheap independent copy (mutable parts copied, card definitions shared)."""
        return self._around({k: v.copy() for k, v in self.sides.items()})

    def snapshot(self) -> Snapshot:
        """The state as it stands, to be put back with :meth:`Snapshot.restore` if need be."""
        return Snapshot(self._around({k: v.held() for k, v in self.sides.items()}))

    def _around(self, sides: dict[str, Side]) -> TtcgState:
        """A copy of everything but the sides, around ``sides``.

        The links of the chain are copied (a counter marks one negated in place), once each,
        with their cards, like those of the resolution and of delayed effects, the ones of
        ``sides`` that have the same uid: the rules find a card by identity in its zone.
        """
        linked = _Relinked(sides)
        return TtcgState(
            self.players, sides, self.cards, self.explicit_passes,
            self.stage, self.first, self.active, self.turn, self.node,
            Priority(self.priority.holder, self.priority.passes), [linked.link(x) for x in self.chain],
            [linked.link(x) for x in self.resolving],
            None if self.resolution is None else linked.resolution(self.resolution),
            None if self.paying is None else linked.link(self.paying),
            None if self.battle is None else Battle(self.battle.attacker, self.battle.player, self.battle.target), self.flags.copy(),
            [x.copy() for x in self.lasting], [linked.delayed(x) for x in self.delayed], [linked.link(x) for x in self.waiting],
            list(self.destroyed_log), self.destroyed_mark, self.destroyed_claimed, list(self.spared), self.spared_mark,
            list(self.notes), self.winner, self.fizzled,
            self.next_uid, self.next_order, self.seq,
        )


class _Relinked:
    """Links, resolutions and delayed effects for a state copied around ``sides``: each link
    copied once (one on the chain is also a resolution's item), each card they name
    replaced by the card of ``sides`` with its uid (a card no zone holds stays as it is)."""

    def __init__(self, sides: dict[str, Side]) -> None:
        self.sides = sides
        self.by_uid: dict[int, CardObj] | None = None  # made at the first card asked for
        self.links: dict[int, Link] = {}

    def card(self, card: CardObj) -> CardObj:
        by_uid = self.by_uid
        if by_uid is None:
            by_uid = self.by_uid = {}
            for side in self.sides.values():
                for zone in (side.deck, side.hand, side.discard):
                    for held in zone.cards:
                        by_uid[held.uid] = held
                for pile in side.piles():
                    by_uid[pile.card.uid] = pile.card
                    for held in pile.under:
                        by_uid[held.uid] = held
        return by_uid.get(card.uid, card)

    def link(self, link: Link) -> Link:
        twin = self.links.get(id(link))
        if twin is None:
            twin = self.links[id(link)] = Link(
                link.controller, self.card(link.source), link.pile, link.effect, link.index, link.kind, link.label,
                link.leaves_field, link.negated, None if link.event_card is None else self.card(link.event_card))
        return twin

    def resolution(self, res: Resolution) -> Resolution:
        twin = res.copy()
        if isinstance(res.source, CardObj):
            twin.source = self.card(res.source)
        revealed = res.vars.get("revealed")
        if revealed:  # (cards turned up from a deck and not yet taken: in no zone, each copied)
            twin.vars["revealed"] = tuple(card.copy() for card in revealed)
        if isinstance(res.item, Link):
            twin.item = self.link(res.item)
        return twin

    def delayed(self, effect: Delayed) -> Delayed:
        return Delayed(effect.turn, effect.controller, self.card(effect.source), effect.effect)


class Snapshot:
    """A state as it stood, put back exactly as a :meth:`TtcgState.copy` taken then would put it back.

    Taking it copies what the game changes in place (zones' lists, piles, knowledge, the
    rest of the state) but shares the cards whose name is known: such a card never
    changes, so it is copied only if the snapshot is put back. The passes inferred
    before an event nearly always make it legal, and the snapshot is then dropped
    without a card of it ever being copied.
    """

    def __init__(self, kept: TtcgState) -> None:
        self.kept = kept

    def restore(self, state: TtcgState) -> None:
        """Put ``state`` back as it stood (its own copies of everything, as ``state.copy()`` made them)."""
        restore(state, self.kept.copy())
        force_changed()  # sides of its own, and what they hold as it was
