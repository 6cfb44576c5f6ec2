"""The Bakugan turn as a graph of phases and steps (rule 5).

Four phases, eleven steps (5.1.1): Start (draw, energize), Roll (selection, roll), Brawl
(power, victor, damage, retract) and End (play, charge, reset). Each node names the rule
that defines it. :data:`WINDOWS` says which steps hold a priority window, where players
may add cards and abilities to the batch (1.14); the others are carried out by the rules
alone or wait for compulsory events (draws, selections, rolls, cards turned over).
"""

from __future__ import annotations

from typing import Final

from spec.core.turns import TurnStructure

TURN: Final = TurnStructure(
    nodes=[
        ("draw", "bakugan:5.3.1"),
        ("energize", "bakugan:5.4.1"),
        ("selection", "bakugan:5.6.1"),
        ("roll", "bakugan:5.7.2.p2"),
        ("power", "bakugan:5.9.1"),
        ("victor", "bakugan:5.10.1"),
        ("damage", "bakugan:5.11.1.p1"),
        ("retract", "bakugan:5.13.1"),
        ("play", "bakugan:5.15.1.p1"),
        ("charge", "bakugan:5.16.1"),
        ("reset", "bakugan:5.17.1"),
    ],
    edges=[
        ("draw", "energize", "both players drew, or had nothing to draw (5.3.1, 1.17.2)"),
        ("energize", "selection", "each player made one energize decision (5.4.2)"),
        ("selection", "roll", "both picked a Bakugan, then both passed (5.6.2)"),
        ("roll", "power", "at least one Bakugan opened (5.7.2.p2)"),
        ("roll", "roll", "neither Bakugan opened: roll again (5.7.2.1)"),
        ("power", "victor", "both passed with an empty batch; ties broken first (5.9.2)"),
        ("victor", "damage", "both passed with an empty batch (5.10.3)"),
        ("damage", "retract", "damage done, both passed (5.11.3)"),
        ("retract", "play", "Bakugan retracted (5.13)"),
        ("play", "charge", "both passed with an empty batch (5.15.1.p2)"),
        ("charge", "reset", "Energy cards charged (5.16.1)"),
        ("reset", "draw", "turn-long changes end; hands cut to seven (5.17.1, 4.3.2)"),
    ],
)

PHASE_OF: Final[dict[str, str]] = {
    "draw": "start", "energize": "start", "selection": "roll", "roll": "roll",
    "power": "brawl", "victor": "brawl", "damage": "brawl", "retract": "brawl",
    "play": "end", "charge": "end", "reset": "end",
}
"""Step -> the phase it belongs to (5.2.1.p1, 5.5.1, 5.8.1, 5.14.1)."""

WINDOWS: Final[frozenset[str]] = frozenset({"selection", "power", "victor", "damage", "play"})
"""Steps with a priority window (5.6.2, 5.9.1, 5.10.3, 5.11.3, 5.15.1.p1)."""
