"""The cards of one side of the field: a list that counts its changes (:class:`FieldList`).

It stays interpreted when the rules are compiled (:mod:`spec.compiled`): mypyc cannot
compile a subclass of ``list``, and a plain Python class keeps every change of a side's
field going through the methods below, whichever module makes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

if TYPE_CHECKING:
    from spec.battle_monsters.state import OnField

MOVES = 0
"""How many times any :class:`FieldList` has changed (in any state): a reading of the field made
when it stood at some value holds while it still does (:meth:`BattleMonstersState.field_reading`).
A change in another state (a copy, a trial) moves it too and only costs a fresh reading."""


class FieldList(list["OnField"]):
    """The cards of one side of the field, in order of arrival: a list that moves the module's
    counter :data:`MOVES` whenever it is made or changed (a card put there or taken away,
    by the game's steps or by hand). A reading made of the field (:meth:`BattleMonstersState.field_reading`)
    holds while the counter stands where it was: one comparison, whichever side changed."""

    __slots__ = ()

    def __init__(self, cards: Any = ()) -> None:
        global MOVES
        list.__init__(self, cards)
        MOVES += 1

    def append(self, fc: OnField) -> None:
        global MOVES
        list.append(self, fc)
        MOVES += 1

    def remove(self, fc: OnField) -> None:
        global MOVES
        list.remove(self, fc)
        MOVES += 1

    def clear(self) -> None:
        global MOVES
        list.clear(self)
        MOVES += 1

    def insert(self, index: Any, fc: OnField) -> None:
        global MOVES
        list.insert(self, index, fc)
        MOVES += 1

    def pop(self, index: Any = -1) -> OnField:
        global MOVES
        fc = list.pop(self, index)
        MOVES += 1
        return fc

    def extend(self, cards: Any) -> None:
        global MOVES
        list.extend(self, cards)
        MOVES += 1

    def sort(self, *args: Any, **kwargs: Any) -> None:
        global MOVES
        list.sort(self, *args, **kwargs)
        MOVES += 1

    def reverse(self) -> None:
        global MOVES
        list.reverse(self)
        MOVES += 1

    def __setitem__(self, index: Any, value: Any) -> None:
        global MOVES
        list.__setitem__(self, index, value)
        MOVES += 1

    def __delitem__(self, index: Any) -> None:
        global MOVES
        list.__delitem__(self, index)
        MOVES += 1

    def __iadd__(self, cards: Any) -> Self:  # type: ignore[override,misc]
        global MOVES
        list.extend(self, cards)
        MOVES += 1
        return self

    def __imul__(self, n: Any) -> Self:  # type: ignore[misc]
        global MOVES
        list.__imul__(self, n)
        MOVES += 1
        return self
