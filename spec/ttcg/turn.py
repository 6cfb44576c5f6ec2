"""The TTCG turn as a graph of phases (2.2.3).

A turn is a Draw Phase, a Main Phase and a Battle Phase (2.2.3.a), the Battle Phase
last (2.2.7.a); the spec adds the end of the turn, where the hand is brought down to
ten (2.2.10.b) and effects timed "at the end of this turn" happen. Each phase is one
window in which the players act; both passing in a row with nothing on the chain and
no battle declared ends it.
"""

from __future__ import annotations

from typing import Final

from spec.core.turns import TurnStructure

TURN: Final = TurnStructure(
    nodes=[
        ("draw", "ttcg:2.2.3.a.1"),
        ("main", "ttcg:2.2.3.a.2.a"),
        ("battle", "ttcg:2.2.3.a.3"),
        ("end", "ttcg:2.2.10.b"),
    ],
    edges=[
        ("draw", "main", "card drawn (none in the first turn), both pass (2.2.3.a.1)"),
        ("main", "battle", "both pass with the chain empty (2.2.3.a)"),
        ("battle", "end", "both pass with no battle declared (2.2.7.a)"),
        ("end", "draw", "hand at ten or fewer, both pass: the other player's turn (2.2.10.b)"),
        ("battle", "battle", "a declared attack resolves when both pass (2.2.7.g)"),
        ("draw", "draw", "an empty deck costs five points instead of the draw (2.2.11.b)"),
    ],
)

PHASES: tuple[str, ...] = ("draw", "main", "battle", "end")
