"""What only the Neopets corpus shows (the tests common to every game are in tests/test_corpus.py)."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEGAL = sorted((ROOT / "replays" / "neopets" / "legal").glob("*.jsonl"))

SITUATIONS = ("three rounds", "mulligan", "agility reroll", "critical", "exhaustion",
              "food in opponent's turn", "paint brush", "location", "map piece")
"""The Neopets situations the issue names, each shown by a legal replay (``meta.shows``)."""


def test_legal_replays_show_the_situations_the_issue_names() -> None:
    shown: set[str] = set()
    for path in LEGAL:
        shown |= set(json.loads(path.read_text(encoding="utf-8").splitlines()[0])["meta"].get("shows", []))
    assert sorted(set(SITUATIONS) - shown) == []


def test_legal_replays_exercise_every_ability_kind() -> None:
    """Issue 3 (executable meaning): cards of every ability kind are played in a legal replay."""
    from grammar import ast as A
    from spec.core.cards import CardDatabase, shipped_database

    cards = CardDatabase.load(shipped_database("neopets", "base"))
    kinds: set[str] = set()
    for path in LEGAL:
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            event = json.loads(line)
            if event["do"] not in ("play", "activate", "collect", "choose"):
                continue
            name = event.get("card") or event.get("neopet")
            if name not in cards:
                continue
            tree = cards.tree(name)
            assert isinstance(tree, A.CardText)
            for ability in tree.abilities:
                kinds.add(type(ability).__name__)
                if any(isinstance(step, A.Delay) for step in getattr(ability, "effect", ())):
                    kinds.add("Delay")
    assert kinds >= {"Spell", "Activated", "Triggered", "Passive", "Replacement", "Conditional", "Keyword", "Delay"}
