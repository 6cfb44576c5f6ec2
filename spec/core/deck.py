"""Deck-construction checks the games share: sizes, copies per name, allowed types."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable


def copies(names: Iterable[str]) -> Counter[str]:
    """Copies per card name."""
    return Counter(names)


def size_violation(count: int, low: int, high: int) -> str | None:
    """A description of how ``count`` misses ``low..high``, or ``None`` if within."""
    if low == high and count != low:
        return f"{count} cards, not exactly {low}"
    if count < low:
        return f"{count} cards, fewer than {low}"
    if count > high:
        return f"{count} cards, more than {high}"
    return None


def over_limit(counts: Counter[str], limit: Callable[[str], int | None]) -> list[tuple[str, int, int]]:
    """``(name, copies, limit)`` for every name with more copies than its limit allows."""
    found = []
    for name, n in sorted(counts.items()):
        cap = limit(name)
        if cap is not None and n > cap:
            found.append((name, n, cap))
    return found
