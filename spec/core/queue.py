"""The pending-effects structure the games share, and priority passing.

Neopets calls it the queue, Bakugan the batch, TTCG the chain: cards and abilities wait
in it until the players pass priority in succession. The order in which they resolve is
the game's choice (``fifo`` or ``lifo``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from grammar.ast import Step

Order = Literal["fifo", "lifo"]


@dataclass(slots=True, init=False)
class QueueItem:
    """A card, activated ability or triggered ability waiting to resolve."""

    kind: Literal["card", "activated", "triggered", "delayed"]
    controller: str
    source: Any
    """The card object it comes from."""
    effect: tuple[Step, ...]
    targets: tuple[Any, ...] = ()
    context: dict[str, Any] = field(default_factory=dict)
    negated: bool = False

    def __init__(self, kind: Literal["card", "activated", "triggered", "delayed"], controller: str, source: Any,
                 effect: tuple[Step, ...], targets: tuple[Any, ...] = (), context: dict[str, Any] | None = None,
                 negated: bool = False) -> None:
        # Written out (init=False), with the dataclass's fields, order and defaults (a fresh dict
        # for ``context``): the __init__ dataclasses generates stays an interpreted function even
        # in the compiled class, and an item is made for every card played, ability activated or
        # trigger met, and copied with the state.
        self.kind = kind
        self.controller = controller
        self.source = source
        self.effect = effect
        self.targets = targets
        self.context = {} if context is None else context
        self.negated = negated

    @property
    def name(self) -> str:
        return getattr(self.source, "name", None) or "ability"


@dataclass(slots=True)
class PendingQueue:
    """Items waiting to resolve, in the order the game resolves them."""

    order: Order = "fifo"
    items: list[QueueItem] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def add(self, item: QueueItem) -> None:
        self.items.append(item)

    def next(self) -> QueueItem:
        """Remove and return the item that resolves next."""
        return self.items.pop(0 if self.order == "fifo" else -1)

    def clear(self) -> list[QueueItem]:
        removed, self.items = self.items, []
        return removed

    def copy(self) -> PendingQueue:
        return PendingQueue(self.order, [replace(i, context=dict(i.context)) for i in self.items])


@dataclass(slots=True)
class Priority:
    """Who holds priority and how many players have passed in succession."""

    holder: str
    passes: int = 0

    def pass_(self, player: str, other: str) -> bool:
        """Record a pass; returns True when every player has now passed in succession."""
        self.passes += 1
        self.holder = other
        return self.passes >= 2

    def act(self, player: str) -> None:
        """A player acted: the succession of passes starts again and they keep priority."""
        self.holder = player
        self.passes = 0

    def reset(self, holder: str) -> None:
        self.holder = holder
        self.passes = 0

