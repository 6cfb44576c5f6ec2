"""The Epic Battles round and turn as a graph of steps and Action-step windows.

A round starts with set-up; each turn runs the Draw, Set, Action and Discard steps
(EB.turn.steps), the aggressor first in each (EB.turn.order). Inside the Action step an
action is due (``action``); an attack then waits for a block (``block``), may wait for a
paid recovery (``recover``), and offers its player the chance to link another attack
(``link``). A deck running out ends the round at once (EB.win.round).
"""

from __future__ import annotations

from typing import Final

from spec.core.turns import TurnStructure

TURN: Final = TurnStructure(
    nodes=[
        ("setup", "epic_battles:EB.setup.draw"),
        ("draw", "epic_battles:EB.turn.step1.draw"),
        ("set", "epic_battles:EB.turn.step2.set"),
        ("action", "epic_battles:EB.turn.step3.alternate"),
        ("block", "epic_battles:EB.card.attack.text"),
        ("recover", "epic_battles:EB.recover.block"),
        ("link", "epic_battles:EB.link.timing"),
        ("discard", "epic_battles:EB.turn.step4.discard"),
        ("round_end", "epic_battles:EB.win.round"),
    ],
    edges=[
        ("setup", "draw", "both players drew three; the aggressor's first turn (EB.setup.draw)"),
        ("draw", "set", "both players drew three (EB.turn.step1.end)"),
        ("set", "action", "both players passed in turn (EB.turn.step2.end)"),
        ("action", "block", "an attack's text before HIT is done (EB.card.attack.text)"),
        ("action", "discard", "two passes in a row (EB.turn.step3.end)"),
        ("block", "link", "the attack finished, blocked or not (EB.card.attack.after)"),
        ("block", "recover", "a Knock Down or Launcher was blocked (EB.recover.block)"),
        ("recover", "link", "paid to recover, or declined (EB.recover.block)"),
        ("link", "block", "a linked attack's text is done (EB.link.timing)"),
        ("link", "action", "no link: the combo ends, the other player acts (EB.turn.step3.alternate)"),
        ("discard", "draw", "both hands are down to three; the aggressor role moves on (EB.turn.next)"),
        ("draw", "round_end", "a deck ran out (EB.win.round)"),
        ("block", "round_end", "a deck ran out (EB.win.round)"),
        ("link", "round_end", "a deck ran out (EB.win.round)"),
        ("round_end", "setup", "the loser is the next aggressor (EB.setup.aggressor.later)"),
    ],
)

STEP_OF: Final[dict[str, str]] = {
    "setup": "setup", "draw": "draw", "set": "set", "action": "action", "block": "action",
    "recover": "action", "link": "action", "discard": "discard",
}
"""Node -> the step name a ``step`` claim uses."""

__all__ = ["STEP_OF", "TURN"]
