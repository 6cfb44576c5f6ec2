"""Hidden information checked by exact counting against a registered decklist.

Cards move between a region the log does not show (the deck, cards drawn face down)
and places where their names are known. For each name we count the copies whose
whereabouts the log has shown outside the hidden region; that count can never exceed
the copies registered (or, with no decklist, the copies the construction rules allow).
Any arrangement of the deck is possible while every count is within bounds, so this
check is exact for draws, reveals, plays and cards shuffled back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable


class DeckKnowledge:
    """What the log has shown of one player's deck."""

    __slots__ = ("limit", "located", "player", "registered")

    def __init__(self, registered: Counter[str] | None, limit: Callable[[str], int | None], player: str = "") -> None:
        self.registered = registered
        """Copies per name in the registered decklist, or ``None`` when not registered."""
        self.limit = limit
        """Construction limit per name, used when no decklist is registered."""
        self.located: Counter[str] = Counter()
        self.player = player
        """Whose deck it is (for messages)."""

    def bound(self, name: str) -> int | None:
        """How many copies of ``name`` the deck can hold (``None``: any number)."""
        if self.registered is not None:
            return self.registered.get(name, 0)
        return self.limit(name)

    def can_reveal(self, name: str) -> bool:
        """Whether one more copy of ``name`` can come out of the hidden region."""
        bound = self.bound(name)
        return bound is None or self.located[name] < bound

    def reveal(self, name: str) -> None:
        """A copy of ``name`` left the hidden region (drawn face up, played, revealed)."""
        self.located[name] += 1

    def conceal(self, name: str) -> None:
        """A known copy of ``name`` went back into the hidden region (shuffled in)."""
        if self.located[name] > 0:
            self.located[name] -= 1

    def copy(self) -> DeckKnowledge:
        other = DeckKnowledge(self.registered, self.limit, self.player)
        other.located = self.located.copy()
        return other
