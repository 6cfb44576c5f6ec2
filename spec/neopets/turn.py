"""The Neopets turn as a graph of phases and battle steps (rule 5).

Each node has up to three priority windows: ``open`` (players pass before the phase's
action), ``act`` (the action: draw, attach, play, roll) and ``close`` (players pass to
end it). :data:`WINDOWS` lists which a node has.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Final

from spec.core.turns import TurnStructure

TURN: Final = TurnStructure(
    nodes=[
        ("beginning", "neopets:5.1.1.p1"),
        ("draw", "neopets:5.2.1a.p1"),
        ("train", "neopets:5.3.1a"),
        ("preparation", "neopets:5.4.1a"),
        ("attack", "neopets:5.5.4a"),
        ("defence", "neopets:5.5.5a"),
        ("agility", "neopets:5.5.6a"),
        ("damage", "neopets:5.5.7a.p1"),
        ("end", "neopets:5.5.8a.p1"),
        ("round_end", "neopets:5.5.9a.p1"),
    ],
    edges=[
        ("beginning", "draw", "start-of-turn triggers resolved (5.1.2.p3)"),
        ("draw", "train", "card drawn, both pass (5.2.4a)"),
        ("train", "preparation", "both pass (5.3.4a)"),
        ("preparation", "attack", "both pass (5.4.4a)"),
        ("preparation", "end", "no Battle Phase: first turn (5.5.1.p1) or frozen (8.20.4b.p1)"),
        ("attack", "defence", "attack dice rolled, both pass (5.5.4e)"),
        ("defence", "agility", "defence dice rolled, both pass (5.5.5e)"),
        ("agility", "damage", "rerolls done, both pass (5.5.6f)"),
        ("damage", "end", "damage dealt, no knock-out (5.5.7c.p1)"),
        ("damage", "round_end", "a Neopet is knocked out (5.5.7e)"),
        ("end", "beginning", "end-of-turn effects resolved, both pass (5.5.8b)"),
        ("round_end", "beginning", "new Neopets chosen; the loser starts (5.5.12.p4)"),
    ],
)

WINDOWS: Final[dict[str, tuple[str, ...]]] = {
    "beginning": ("close",),
    "draw": ("open", "act", "close"),
    "train": ("open", "act", "close"),
    "preparation": ("open", "act", "close"),
    "attack": ("open", "act", "close"),
    "defence": ("act", "close"),
    "agility": ("act", "close"),
    "damage": ("close",),
    "end": ("close",),
}

NEXT_WINDOW: Final[dict[str, dict[str, str]]] = {node: dict(pairwise(windows)) for node, windows in WINDOWS.items()}
"""Per node, each window that another window follows, with that window (from :data:`WINDOWS`)."""

BATTLE_STEPS: Final = ("attack", "defence", "agility", "damage")

PHASE_OF: Final[dict[str, str]] = {
    "beginning": "beginning", "draw": "draw", "train": "train", "preparation": "preparation",
    "attack": "battle", "defence": "battle", "agility": "battle", "damage": "battle", "end": "end",
}
"""Node -> the phase name a ``phase`` claim uses."""
