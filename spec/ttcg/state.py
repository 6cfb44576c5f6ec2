"""The TTCG game state: one mutable object while a replay is verified.

Each player has a deck (private, ordered), a hand (private, its size public), a discard
pile (public) and a field of two rows (2.2.9.a): up to five creature piles and up to
five magic piles. A *pile* is a card on the field with the cards levelled up beneath
it (2.1.q, 2.2.6.c); the top card is the one in play, the cards under it stay on the
field but take no part (2.2.6.d-f). Effects wait on the *chain* (2.1.ah) until both
players pass; a declared attack waits as the *battle*.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any, Self

from grammar import ast as A
from spec.core.cards import CardDatabase, CardDef
from spec.core.hidden import DeckKnowledge
from spec.core.interpreter import Resolution
from spec.core.queue import Priority
from spec.core.state import CardObj, Zone

START_POINTS = 20
"""Points each player begins with (2.2.8.a)."""
ZONE_SIZE = 5
"""Piles each row of a field holds (2.2.9.b, 2.2.9.c)."""
HAND_LIMIT = 10
"""Cards a hand may keep at the end of its player's turn (2.2.10)."""
OPENING_HAND = 7
"""Cards each player draws to begin (2.2.2.b)."""
PLAYS_PER_MAIN_PHASE = 2
"""Cards the active player may put on the field in a Main Phase (2.2.3.a.2.a)."""
EXHAUSTION_LOSS = 5
"""Points lost at a Draw Phase begun with an empty deck (2.2.11)."""


class Edits:
    """Counts of the changes made to the fields of all TTCG states (they only grow).

    ``field``: the make-up of a field changed: a pile joined or left a row, a pile got a new
    top card, or a card joined or left the cards under one. What :mod:`spec.ttcg.board`
    reads of the field's make-up (its piles in order, which card effects of each kind lie
    where) is kept until it moves. ``marks``: a pile's ``tapped``, ``switched_on`` or
    ``equipped_to`` may have changed.

    ``force``: something else the effects in force depend on changed: a card or pile was
    made (``next_uid``), a lasting result began or ended, a turn began, an extra play was
    granted, or a state was put back from a snapshot (:func:`force_changed`). While none of
    the three moves, neither does what ``conflicts_met`` compares (its change stamp):
:func:`in_force_edits` adds them up (for the verifier: :attr:`TtcgState.in_force_stamp`).

    Readers on the hot path read the attributes; :func:`field_edits` and :func:`mark_edits`
    give the same counts.
    """

    __slots__ = ("field", "force", "marks")

    def __init__(self) -> None:
        self.field = 0
        self.marks = 0
        self.force = 0


EDITS = Edits()
"""The counts of changes to the fields of all TTCG states (see :class:`Edits`)."""


def field_edits() -> int:
    """A count that changes whenever the make-up of a field changes, in any state (``EDITS.field``)."""
    return EDITS.field


def _field_changed() -> None:
    EDITS.field += 1


def mark_edits() -> int:
    """A count that changes whenever a pile's ``tapped``, ``switched_on`` or ``equipped_to`` may have changed,
    in any state (``EDITS.marks``)."""
    return EDITS.marks


def _marks_changed() -> None:
    EDITS.marks += 1


def in_force_edits() -> int:
    """A count that moves whenever the change stamp ``conflicts_met`` compares may have moved (see :class:`Edits`)."""
    return EDITS.field + EDITS.marks + EDITS.force


def force_changed() -> None:
    """Count a change of what the effects in force depend on besides the field (``EDITS.force``)."""
    EDITS.force += 1


class MarkSet(set):  # type: ignore[type-arg]
    """A pile's set of switched-on effects that counts its changes (:func:`mark_edits`, and the
    pile's own ``mark_count``) and tells its side's :class:`Tally` how many effects it gained or
    lost; reading it is a plain set's reading."""

    __slots__ = ("pile",)
    pile: weakref.ref[Pile]
    """The pile whose set it is (its ``mark_count`` counts the changes too), held weakly: the
    pile holds its set, and a set holding its pile back would make every pile that leaves
    the field garbage that only the cycle collector frees (a collection every few hundred
    piles, walking the whole heap now and then). A set the pile no longer holds has none."""

    def _changed(self, grown: int) -> None:
        """Count a change that made the set ``grown`` effects larger (or smaller, when negative)."""
        _marks_changed()
        ref = getattr(self, "pile", None)
        pile = ref() if ref is not None else None
        if pile is not None:
            object.__setattr__(pile, "mark_count", pile.mark_count + 1)
            tally = pile.tally
            if grown and tally is not None:
                tally.switched += grown

    def of(self, pile: Pile) -> bool:
        """Whether this is ``pile``'s own set."""
        ref = getattr(self, "pile", None)
        return ref is not None and ref() is pile

    def add(self, item: Any) -> None:
        size = len(self)
        super().add(item)
        self._changed(len(self) - size)

    def discard(self, item: Any) -> None:
        size = len(self)
        super().discard(item)
        self._changed(len(self) - size)

    def remove(self, item: Any) -> None:
        size = len(self)
        super().remove(item)
        self._changed(len(self) - size)

    def pop(self) -> Any:
        item = super().pop()
        self._changed(-1)
        return item

    def clear(self) -> None:
        size = len(self)
        super().clear()
        self._changed(-size)

    def update(self, *others: Any) -> None:
        size = len(self)
        super().update(*others)
        self._changed(len(self) - size)

    def difference_update(self, *others: Any) -> None:
        size = len(self)
        super().difference_update(*others)
        self._changed(len(self) - size)

    def intersection_update(self, *others: Any) -> None:
        size = len(self)
        super().intersection_update(*others)
        self._changed(len(self) - size)

    def symmetric_difference_update(self, other: Any) -> None:
        size = len(self)
        super().symmetric_difference_update(other)
        self._changed(len(self) - size)

    def __ior__(self, other: Any) -> Self:  # type: ignore[misc]  # in place, as the built-in's own
        size = len(self)
        super().__ior__(other)
        self._changed(len(self) - size)
        return self

    def __iand__(self, other: Any) -> Self:  # type: ignore[misc]  # in place, as the built-in's own
        size = len(self)
        super().__iand__(other)
        self._changed(len(self) - size)
        return self

    def __isub__(self, other: Any) -> Self:  # type: ignore[misc]  # in place, as the built-in's own
        size = len(self)
        super().__isub__(other)
        self._changed(len(self) - size)
        return self

    def __ixor__(self, other: Any) -> Self:  # type: ignore[misc]  # in place, as the built-in's own
        size = len(self)
        super().__ixor__(other)
        self._changed(len(self) - size)
        return self


class FieldList(list):  # type: ignore[type-arg]
    """A list of the field (a row of piles, the cards under a pile) that counts its changes
    (:func:`field_edits`); reading it is a plain list's reading."""

    __slots__ = ()

    def append(self, item: Any) -> None:
        super().append(item)
        _field_changed()

    def extend(self, items: Any) -> None:
        super().extend(items)
        _field_changed()

    def insert(self, index: Any, item: Any) -> None:
        super().insert(index, item)
        _field_changed()

    def remove(self, item: Any) -> None:
        super().remove(item)
        _field_changed()

    def pop(self, index: Any = -1) -> Any:
        item = super().pop(index)
        _field_changed()
        return item

    def clear(self) -> None:
        super().clear()
        _field_changed()

    def sort(self, *args: Any, **kwargs: Any) -> None:
        super().sort(*args, **kwargs)
        _field_changed()

    def reverse(self) -> None:
        super().reverse()
        _field_changed()

    def __setitem__(self, index: Any, item: Any) -> None:
        super().__setitem__(index, item)
        _field_changed()

    def __delitem__(self, index: Any) -> None:
        super().__delitem__(index)
        _field_changed()

    def __iadd__(self, items: Any) -> Self:  # type: ignore[misc]  # in place, as the built-in's own
        super().__iadd__(items)
        _field_changed()
        return self

    def __imul__(self, n: Any) -> Self:  # type: ignore[misc]  # in place, as the built-in's own
        super().__imul__(n)
        _field_changed()
        return self


class Tally:
    """What the change key of the conflicts reads of one side's piles beyond their number: how many
    are tapped (``tapped``) and how many effects are switched on among them (``switched``), kept as
    they change instead of counted pile by pile each time they are asked.

    A side's two rows (:class:`Row`) share its tally. A pile joining a row *seats* itself there
    (``Pile.tally``, ``Pile.seats``: the tally it tells of its marks, and in how many places of its
    side's rows it lies) and adds its marks; leaving, it takes them away; tapping, untapping and
    switching effects on or off move the counts of the pile's tally (``Pile.__setattr__``,
    :class:`MarkSet`). Nothing names the side or a pile back: the tally holds two numbers.

    ``ready``: the counts hold for the rows as they are. A side is made (a copy, a snapshot put
    back) with a tally not ready, so that a snapshot taken and dropped never seats its piles: the
    first asking counts its piles and seats them (:meth:`Side.tallied`). ``shared``: a pile was
    seated on two sides at once (never in a game: a card is on one field); the counts are then
    made pile by pile at every asking.
    """

    __slots__ = ("ready", "shared", "switched", "tapped")

    def __init__(self) -> None:
        self.tapped = 0
        self.switched = 0
        self.ready = False
        self.shared = False

    def seat(self, pile: Pile) -> None:
        """Count ``pile``, which joined a row of this tally's side."""
        held = pile.tally
        if held is None:
            object.__setattr__(pile, "tally", self)
            object.__setattr__(pile, "seats", 1)
        elif held is self:
            object.__setattr__(pile, "seats", pile.seats + 1)
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
        if pile.tally is self:
            seats = pile.seats - 1
            object.__setattr__(pile, "seats", seats)
            if not seats:
                object.__setattr__(pile, "tally", None)


class Row(FieldList):
    """A row of piles of one side (a :class:`FieldList`) that tells the side's :class:`Tally` of the
    piles joining and leaving it while the tally is ready; ``tally`` is ``None`` once the side holds
    another row in its place."""

    __slots__ = ("tally",)

    def __init__(self, piles: Any = (), tally: Tally | None = None) -> None:
        super().__init__(piles)
        self.tally = tally

    def _recount(self, before: list[Pile]) -> None:
        """After a change made some other way: the piles that were here leave, those here now join."""
        tally = self.tally
        if tally is not None and tally.ready:
            for pile in before:
                tally.unseat(pile)
            for pile in self:
                tally.seat(pile)

    def append(self, item: Any) -> None:
        super().append(item)
        tally = self.tally
        if tally is not None and tally.ready:
            tally.seat(item)

    def insert(self, index: Any, item: Any) -> None:
        super().insert(index, item)
        tally = self.tally
        if tally is not None and tally.ready:
            tally.seat(item)

    def remove(self, item: Any) -> None:
        try:
            at = self.index(item)  # (where list.remove would take it away)
        except ValueError:
            raise ValueError("list.remove(x): x not in list") from None
        gone = self[at]
        FieldList.__delitem__(self, at)
        tally = self.tally
        if tally is not None and tally.ready:
            tally.unseat(gone)

    def pop(self, index: Any = -1) -> Any:
        item = super().pop(index)
        tally = self.tally
        if tally is not None and tally.ready:
            tally.unseat(item)
        return item

    def extend(self, items: Any) -> None:
        before = list(self)
        super().extend(items)
        self._recount(before)

    def clear(self) -> None:
        before = list(self)
        super().clear()
        self._recount(before)

    def __setitem__(self, index: Any, item: Any) -> None:
        before = list(self)
        super().__setitem__(index, item)
        self._recount(before)

    def __delitem__(self, index: Any) -> None:
        before = list(self)
        super().__delitem__(index)
        self._recount(before)

    def __iadd__(self, items: Any) -> Self:  # type: ignore[misc]  # (as FieldList's)
        before = list(self)
        super().__iadd__(items)
        self._recount(before)
        return self

    def __imul__(self, n: Any) -> Self:  # type: ignore[misc]  # (as FieldList's)
        before = list(self)
        super().__imul__(n)
        self._recount(before)
        return self


_UNSET = object()


def _watched(obj: Any, name: str, value: Any, lists: tuple[str, ...], others: tuple[str, ...] = ()) -> None:
    """Set ``obj.name``, keeping the field's lists :class:`FieldList` and counting a change of make-up
    (setting it the first time, as the object is made, changes no field).

    It never reads ``obj.__dict__``: that would cost every later reading of the object's attributes.
    """
    if name in lists:
        if type(value) is not FieldList:
            value = FieldList(value)
        if getattr(obj, name, _UNSET) is not _UNSET:
            _field_changed()
    elif name in others and getattr(obj, name, _UNSET) is not _UNSET:
        _field_changed()
    object.__setattr__(obj, name, value)


@dataclass(init=False)
class Pile:
    """A card on the field (``card``, the top) with the cards under it, oldest first.

    A new top card or a new list of cards under it counts as a change of the field's
    make-up (:func:`field_edits`), as does any change to that list; tapping, untapping,
    switching effects on and attaching it to a creature count as changes of its marks
    (:func:`mark_edits`, and ``mark_count``, this pile's own count of them: a reading that
    looked at the marks of some piles only is kept while theirs stay as they were). While it lies in
    a row of a side whose :class:`Tally` is ready, its marks changing move that tally's counts too.

    Making a pile sets its fields directly (see :meth:`__init__`): it is a new object, so
    no reading can have looked at it yet.
    """

    id: int
    card: CardObj
    row: str
    """``creature`` or ``magic``."""
    under: FieldList = field(default_factory=FieldList)
    tapped: bool = False
    tapped_turn: int = -1
    """The turn in which the top card last became tapped (for Dormant effects, 2.2.5.i.6.p2)."""
    switched_on: MarkSet = field(default_factory=MarkSet)
    """Continuous effects of the top card that were activated and stay in force (2.2.5.i.2)."""
    equipped_to: int | None = None
    """For a magic card attached as equipment: the pile id of its creature (2.2.5.i.4)."""
    mark_count: int = field(default=0, repr=False, compare=False)
    """How many times this pile's marks changed (see above)."""
    tally: Tally | None = field(default=None, repr=False, compare=False)
    """The tally of the side in whose rows it lies, once that tally is ready (see :meth:`Tally.seat`)."""
    seats: int = field(default=0, repr=False, compare=False)
    """In how many places of those rows it lies (one, in a game)."""

    def __init__(self, id: int, card: CardObj, row: str, under: list[CardObj] | None = None, tapped: bool = False,
                 tapped_turn: int = -1, switched_on: set[int] | None = None, equipped_to: int | None = None,
                 mark_count: int = 0) -> None:
        """The fields as the dataclass would set them, without :meth:`__setattr__`'s bookkeeping per field:
        ``under`` a :class:`FieldList`, ``switched_on`` a :class:`MarkSet` of this pile. The count of
        mark changes moves as that bookkeeping moved it (three marks set)."""
        setattr_ = object.__setattr__
        setattr_(self, "id", id)
        setattr_(self, "card", card)
        setattr_(self, "row", row)
        setattr_(self, "under", FieldList() if under is None else under if type(under) is FieldList else FieldList(under))
        setattr_(self, "tapped", tapped)
        setattr_(self, "tapped_turn", tapped_turn)
        marks = MarkSet(switched_on) if switched_on is not None else MarkSet()
        marks.pile = weakref.ref(self)
        setattr_(self, "switched_on", marks)
        setattr_(self, "equipped_to", equipped_to)
        setattr_(self, "mark_count", mark_count)
        EDITS.marks += 3

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _PILE_WATCHED:
            _watched(self, name, value, ("under",), ("card",))
        elif name in _PILE_MARKS:
            tally = self.tally
            if name == "switched_on":
                if type(value) is not MarkSet or not (getattr(value, "pile", None) is None or value.of(self)):
                    value = MarkSet(value)
                old = getattr(self, "switched_on", None)
                if old is not None and old is not value:
                    if type(old) is MarkSet and old.of(self):
                        del old.pile  # no longer this pile's: changing it changes none of its marks
                    if tally is not None:
                        tally.switched += len(value) - len(old)
                value.pile = weakref.ref(self)
            elif name == "tapped" and tally is not None:
                tally.tapped += (1 if value else 0) - (1 if getattr(self, "tapped", False) else 0)
            object.__setattr__(self, name, value)
            object.__setattr__(self, "mark_count", getattr(self, "mark_count", 0) + 1)
            _marks_changed()
        else:
            object.__setattr__(self, name, value)

    def copy(self) -> Pile:
        return Pile(self.id, self.card.copy(), self.row, [c.copy() for c in self.under], self.tapped,
                    self.tapped_turn, set(self.switched_on), self.equipped_to)

    def held(self) -> Pile:
        """The pile as it stands, for a :class:`Snapshot`: its own lists, the cards shared (see :func:`_kept`)."""
        return Pile(self.id, _kept(self.card), self.row, [_kept(c) for c in self.under], self.tapped,
                    self.tapped_turn, set(self.switched_on), self.equipped_to)


@dataclass
class Side:
    """Everything one player has.

    Its rows of piles are :class:`Row` lists: a change to them counts as a change of the
    field's make-up (:func:`field_edits`), and the piles joining and leaving them are told to
    the side's :class:`Tally` (``tally``, made with the first row and shared by both rows).
    """

    name: str
    deck: Zone
    hand: Zone
    discard: Zone
    knowledge: DeckKnowledge
    creatures: Row = field(default_factory=Row)
    magic: Row = field(default_factory=Row)
    points: int = START_POINTS
    shuffled: bool = False
    opening_draws: int = 0
    skips: int = 0
    """Turns of this player still to be skipped (an effect's cost)."""
    tally: Tally | None = field(default=None, init=False, repr=False, compare=False)
    """How many of its piles are tapped and how many effects are switched on among them (see :class:`Tally`)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _ROWS:
            self._seated(name, value)
        else:
            object.__setattr__(self, name, value)

    def _seated(self, name: str, piles: Any) -> None:
        """Set the row ``name`` to a :class:`Row` of ``piles`` sharing the side's tally; the piles of the
        row it replaces leave (setting it the first time, as the side is made, changes no field)."""
        tally = self.tally
        if tally is None:
            tally = Tally()
            object.__setattr__(self, "tally", tally)
        old = getattr(self, name, _UNSET)
        if old is not _UNSET:
            _field_changed()
            if type(old) is Row and old.tally is tally:
                if tally.ready:
                    for pile in old:
                        tally.unseat(pile)
                old.tally = None
        row = Row(piles, tally)
        if tally.ready:
            for pile in row:
                tally.seat(pile)
        object.__setattr__(self, name, row)

    def tallied(self) -> Tally:
        """The side's tally, counted pile by pile and its piles seated first if it is not ready (see :class:`Tally`)."""
        tally = self.tally
        if tally is not None and tally.ready:
            return tally
        if tally is None:  # (a side always has one once its rows are set)
            tally = Tally()
            object.__setattr__(self, "tally", tally)
        tally.tapped = tally.switched = 0
        if tally.shared:  # counted afresh at every asking
            for row in (self.creatures, self.magic):
                for pile in row:
                    if pile.tapped:
                        tally.tapped += 1
                    tally.switched += len(pile.switched_on)
            return tally
        tally.ready = True
        for row in (self.creatures, self.magic):
            for pile in row:
                tally.seat(pile)
        return tally

    def piles(self) -> list[Pile]:
        return self.creatures + self.magic

    def copy(self) -> Side:
        return Side(self.name, self.deck.copy(), self.hand.copy(), self.discard.copy(), self.knowledge.copy(),
                    [p.copy() for p in self.creatures], [p.copy() for p in self.magic], self.points, self.shuffled,  # type: ignore[arg-type]  # (made rows by Side.__setattr__)
                    self.opening_draws, self.skips)

    def held(self) -> Side:
        """The side as it stands, for a :class:`Snapshot`: zones, piles and knowledge of its own, the cards shared."""
        return Side(self.name, _held(self.deck), _held(self.hand), _held(self.discard), self.knowledge.copy(),
                    [p.held() for p in self.creatures], [p.held() for p in self.magic], self.points, self.shuffled,  # type: ignore[arg-type]
                    self.opening_draws, self.skips)


_PILE_WATCHED = ("card", "under")
_PILE_MARKS = ("tapped", "switched_on", "equipped_to")
_ROWS = ("creatures", "magic")


def _kept(card: CardObj) -> CardObj:
    """A card as a :class:`Snapshot` keeps it: itself once its name is known (such a card never changes),
    a copy while it is hidden (naming a hidden card of a hand changes it in place)."""
    return card if card.name is not None else card.copy()


def _held(zone: Zone) -> Zone:
    other = Zone(zone.name, ordered=zone.ordered, public=zone.public)
    other.cards = [c if c.name is not None else c.copy() for c in zone.cards]
    other.hidden = zone.hidden
    return other


@dataclass
class TurnFlags:
    """What has happened this turn (reset as each turn begins)."""

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

    def copy(self) -> TurnFlags:
        return TurnFlags(self.drew, self.plays, list(self.extra), list(self.extra_sources), set(self.attacked),
                         self.discarded, self.destroyed, self.played)


@dataclass
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

    def copy(self) -> Lasting:
        return Lasting(self.kind, self.controller, self.what, self.amount, self.uids, self.selector, self.using,
                       self.until_start, self.until_end, self.order)


@dataclass
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


@dataclass
class Battle:
    """A declared attack waiting to be resolved (2.2.7)."""

    attacker: int
    """Pile id of the attacking creature."""
    player: str
    target: int | None
    """Pile id of the defending creature, or ``None`` for a direct attack (2.2.7.d)."""


@dataclass
class Delayed:
    """An effect waiting for the end of the turn ("at the end of this turn")."""

    turn: int
    controller: str
    source: CardObj
    effect: tuple[A.Step, ...]


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
        """A copy of everything but the sides, around ``sides``."""
        return TtcgState(
            self.players, sides, self.cards, self.explicit_passes,
            self.stage, self.first, self.active, self.turn, self.node,
            Priority(self.priority.holder, self.priority.passes), list(self.chain), list(self.resolving),
            None if self.resolution is None else self.resolution.copy(), self.paying,
            None if self.battle is None else Battle(self.battle.attacker, self.battle.player, self.battle.target), self.flags.copy(),
            [x.copy() for x in self.lasting], list(self.delayed), list(self.waiting),
            list(self.destroyed_log), self.destroyed_mark, self.destroyed_claimed, list(self.spared), self.spared_mark,
            list(self.notes), self.winner, self.fizzled,
            self.next_uid, self.next_order, self.seq,
        )


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
        state.__dict__.update(self.kept.copy().__dict__)
        force_changed()  # sides of its own, and what they hold as it was
