"""The lists and sets of a TTCG field that count their changes: :class:`MarkSet`, :class:`FieldList`, :class:`Row`.

They stay interpreted when the rules are compiled (:mod:`spec.compiled`): mypyc compiles no
subclass of ``list`` or ``set``, and compiled code holding one in a variable typed as a plain
``list`` or ``set`` would call the built-in's methods directly and skip the counting below.
So every holder (:class:`spec.ttcg.state.Pile`, :class:`spec.ttcg.state.Side`) types them as
their own classes, which compiled code calls like any Python object: a change made by the
compiled rules, by an interpreted module or by hand goes through these methods alike.
:class:`FieldList` is generic in what it holds (a :class:`Row` holds piles, the cards under a pile
are a ``FieldList[CardObj]``): compiled code taking an item out checks its class once and then reads
its fields natively, where an item of unknown type would be asked for each field by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self, TypeVar

from spec.ttcg.edits import EDITS

if TYPE_CHECKING:
    from spec.ttcg.state import Marks, Pile, Tally

_Item = TypeVar("_Item")


class MarkSet(set):  # type: ignore[type-arg]
    """A pile's set of switched-on effects that counts its changes (``EDITS.marks``, and the pile's
    own ``mark_count``) and tells its side's :class:`~spec.ttcg.state.Tally` how many effects it
    gained or lost; reading it is a plain set's reading."""

    __slots__ = ("owner",)
    owner: Marks | None
    """The :class:`~spec.ttcg.state.Marks` of the pile whose set it is (where its changes are
    counted too), ``None`` once the pile holds another set. It holds the pile's counts, not the
    pile: a set holding its pile back would make every pile that leaves the field garbage that
    only the cycle collector frees (a collection every few hundred piles, walking the whole
    heap now and then), and a compiled pile takes no weak references."""

    def _changed(self, grown: int) -> None:
        """Count a change that made the set ``grown`` effects larger (or smaller, when negative)."""
        EDITS.marks += 1
        owner = getattr(self, "owner", None)
        if owner is not None:
            owner.changes += 1
            tally = owner.tally
            if grown and tally is not None:
                tally.switched += grown

    def of(self, pile: Pile) -> bool:
        """Whether this is ``pile``'s own set."""
        owner = getattr(self, "owner", None)
        return owner is not None and owner is pile.marks

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


class FieldList(list[_Item]):
    """A list of the field (a row of piles, the cards under a pile) that counts its changes
    (``EDITS.field``); reading it is a plain list's reading."""

    __slots__ = ()

    def append(self, item: Any) -> None:
        super().append(item)
        EDITS.field += 1

    def extend(self, items: Any) -> None:
        super().extend(items)
        EDITS.field += 1

    def insert(self, index: Any, item: Any) -> None:
        super().insert(index, item)
        EDITS.field += 1

    def remove(self, item: Any) -> None:
        super().remove(item)
        EDITS.field += 1

    def pop(self, index: Any = -1) -> Any:
        item = super().pop(index)
        EDITS.field += 1
        return item

    def clear(self) -> None:
        super().clear()
        EDITS.field += 1

    def sort(self, *args: Any, **kwargs: Any) -> None:
        super().sort(*args, **kwargs)
        EDITS.field += 1

    def reverse(self) -> None:
        super().reverse()
        EDITS.field += 1

    def __setitem__(self, index: Any, item: Any) -> None:
        super().__setitem__(index, item)
        EDITS.field += 1

    def __delitem__(self, index: Any) -> None:
        super().__delitem__(index)
        EDITS.field += 1

    def __iadd__(self, items: Any) -> Self:  # type: ignore[misc, override]  # in place, as the built-in's own
        super().__iadd__(items)
        EDITS.field += 1
        return self

    def __imul__(self, n: Any) -> Self:  # type: ignore[misc]  # in place, as the built-in's own
        super().__imul__(n)
        EDITS.field += 1
        return self


class Row(FieldList["Pile"]):
    """A row of piles of one side (a :class:`FieldList`) that tells the side's :class:`~spec.ttcg.state.Tally` of the
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

    def __iadd__(self, items: Any) -> Self:  # type: ignore[misc, override]  # (as FieldList's)
        before = list(self)
        super().__iadd__(items)
        self._recount(before)
        return self

    def __imul__(self, n: Any) -> Self:  # type: ignore[misc]  # (as FieldList's)
        before = list(self)
        super().__imul__(n)
        self._recount(before)
        return self
