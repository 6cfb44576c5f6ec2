"""What the Epic Battles spec reads off a card database once: the cards never change.

Card text is parsed by the grammar and checked by :mod:`spec.epic_battles.board`; what
the spec derives from it (abilities by kind, keywords, the text carried out when a card
is played, triggers by event, deck-construction answers) is kept here, one
:class:`Catalog` per database, so that verifying a replay reads each card's text once
rather than on every event. Every state holds the catalog of its database (``state.cat``).
"""

from __future__ import annotations

import re
from typing import Any, Final
from weakref import WeakKeyDictionary

from grammar import ast as A
from spec.core.cards import CardDatabase

_CHECKED: Final[WeakKeyDictionary[CardDatabase, dict[str, A.CardText]]] = WeakKeyDictionary()
"""Card texts already parsed and found complete and supported, per card database."""


class Catalog:
    """What the spec has read off one card database: checked texts, abilities by kind,
    keywords, played text, triggers, and the deck-construction answers per card and character.

    Only successful readings are kept: a card whose text cannot be run raises again each
    time it is asked about, as it always did.
    """

    def __init__(self, cards: CardDatabase) -> None:
        self.texts: dict[str, A.CardText] = _CHECKED.setdefault(cards, {})
        self.by_kind: dict[tuple[str, type], tuple[Any, ...]] = {}
        self.keywords: dict[str, frozenset[str]] = {}
        self.spells: dict[str, tuple[tuple[Any, ...], tuple[Any, ...]]] = {}
        """Per card: the steps its text carries out when played, and its additional cost."""
        self.passives_for: dict[tuple[str, type], tuple[A.Passive, ...]] = {}
        self.triggers: dict[str, dict[str, tuple[A.Triggered, ...]]] = {}
        self.player_rules: dict[str, bool] = {}
        self.own_steps: dict[str, tuple[Any, ...] | None] = {}
        """Per card: the steps of its text about itself when they are the same in every state
        (none of them within an *if* of its text), else ``None`` (spec.epic_battles.board.own_steps)."""
        self.own_cost: dict[str, int] = {}
        """Per card whose own steps are the same in every state: what they add to its cost
        (spec.epic_battles.board.cost)."""
        self.labels: dict[str, tuple[str, ...]] = {}
        """Per card: its height and printed link traits, the labels a moment it is part of carries
        before any gained trait (spec.epic_battles.board.moment_labels)."""
        self.deck_rules: dict[tuple[str, str, str], Any] = {}
        self.characters: list[tuple[str, re.Pattern[str]]] | None = None


_CATALOGS: Final[WeakKeyDictionary[CardDatabase, Catalog]] = WeakKeyDictionary()


def catalog(cards: CardDatabase) -> Catalog:
    """The :class:`Catalog` of a card database (made on first use, dropped with the database)."""
    found = _CATALOGS.get(cards)
    if found is None:
        found = _CATALOGS[cards] = Catalog(cards)
    return found
