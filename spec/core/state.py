"""Game-state building blocks shared by every game: card objects and zones.

Each game keeps its own state class built from these parts. State is mutable while a
replay is verified (one object, updated in place, for speed); :meth:`Zone.copy` and the
games' ``copy()`` methods give the cheap copies that search and simulation need.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spec.core.cards import CardDef


class CardObj:
    """One physical card in a game. ``name`` is ``None`` while its identity is hidden."""

    __slots__ = ("defn", "face_up", "name", "owner", "uid")

    def __init__(self, uid: int, name: str | None, owner: str, defn: CardDef | None = None,
                 face_up: bool = True) -> None:
        self.uid = uid
        self.name = name
        self.owner = owner
        self.defn = defn
        self.face_up = face_up

    def copy(self) -> CardObj:
        return CardObj(self.uid, self.name, self.owner, self.defn, self.face_up)

    def __repr__(self) -> str:
        return f"<{self.name or 'hidden card'}#{self.uid}>"


class Zone:
    """A zone of cards: ordered or not, public or private.

    A private zone whose contents the log never shows (a deck) keeps only a count in
    ``hidden``; known cards are listed in ``cards``.
    """

    __slots__ = ("cards", "hidden", "name", "ordered", "public")

    def __init__(self, name: str, *, ordered: bool = False, public: bool = True) -> None:
        self.name = name
        self.ordered = ordered
        self.public = public
        self.cards: list[CardObj] = []
        self.hidden = 0

    def __len__(self) -> int:
        return len(self.cards) + self.hidden

    def __iter__(self) -> Iterator[CardObj]:
        return iter(self.cards)

    def names(self) -> list[str]:
        """Names of the known cards, in zone order."""
        return [c.name for c in self.cards if c.name is not None]

    def find(self, name: str) -> CardObj | None:
        """The first known card of that name, if any."""
        for card in self.cards:
            if card.name == name:
                return card
        return None

    def unknown(self) -> CardObj | None:
        """A card of the zone whose identity is still hidden, if any."""
        for card in self.cards:
            if card.name is None:
                return card
        return None

    def remove(self, card: CardObj) -> None:
        self.cards.remove(card)

    def add(self, card: CardObj) -> None:
        self.cards.append(card)

    def copy(self, cards: bool = True) -> Zone:
        """An independent zone; with ``cards=False`` the card objects themselves are
        shared (only which cards are where is copied: for a snapshot taken while no card
        changes its identity)."""
        other = Zone(self.name, ordered=self.ordered, public=self.public)
        other.cards = [c.copy() for c in self.cards] if cards else list(self.cards)
        other.hidden = self.hidden
        return other


class MoveContext:
    """What the checks of one move share, worked out once for all of them (a per-move context).

    Several checks of one action often ask the same question of the state (which card on
    the field the move names, which side is faster). A game makes a context for the
    event before running the action's checks, keeps it on its state, and drops it before
    anything moves the game on (the move carried out, passes inferred before it): the
    checks only read the state, so what one of them worked out holds for the others. A
    check finds the context by the event's identity (``move.event is event``) and works
    the answer out afresh when there is none, as a check run on its own (in a test, in
    ``legal_moves``) has. Games subclass it with slots for what their checks share.

    It has no ``__slots__`` of its own: the games' contexts, compiled with mypyc
    (:mod:`spec.compiled`) like this module, give their own; run interpreted, a context then
    keeps ``event`` in a ``__dict__``, compiled its fields are fixed either way.
    """

    def __init__(self, event: object) -> None:
        self.event = event
        """The event it was made for (compared by identity: another event has none)."""
