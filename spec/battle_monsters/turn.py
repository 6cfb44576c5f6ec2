"""The Battle Monsters game as a graph: set-up, then turns of sub-actions closed by one action.

The book has no phases. A turn is a window of sub-actions (summon, reveal, attack,
switch mode; BM.subactions.list) that the turn's single action (draw, discard, skip;
BM.actions.list) closes, handing the turn to the opponent (BM.actions.ends_turn). Effects
that need events from the log (draws, choices, discards) hold the game where it is
until they are done.
"""

from __future__ import annotations

from spec.core.turns import TurnStructure

TURN = TurnStructure(
    nodes=[
        ("coin", "battle_monsters:BM.start.first"),
        ("graveyard", "battle_monsters:BM.start.graveyard"),
        ("opening hand", "battle_monsters:BM.start.lives_hand"),
        ("turn start", "battle_monsters:BM.gloss.game.win"),
        ("sub-actions", "battle_monsters:BM.actions.order"),
        ("effect", "battle_monsters:BM.rules.card"),
        ("action", "battle_monsters:BM.turn.one_action"),
        ("game over", "battle_monsters:BM.end.conditions"),
    ],
    edges=[
        ("coin", "graveyard", "the coin picked the first player (BM.start.first)"),
        ("graveyard", "opening hand", "two cards chosen into each graveyard (BM.start.graveyard)"),
        ("opening hand", "turn start", "five cards each (BM.start.lives_hand)"),
        ("turn start", "sub-actions", "supply deck not empty; start-of-turn effects done"),
        ("turn start", "game over", "the supply deck is used up (BM.gloss.game.win)"),
        ("turn start", "turn start", "the turn is skipped by an effect"),
        ("sub-actions", "action", "draw, discard or skip (BM.actions.list)"),
        ("sub-actions", "effect", "a sub-action set off a special effect"),
        ("effect", "sub-actions", "the effect is done"),
        ("effect", "game over", "lives at zero or an effect ends the game"),
        ("sub-actions", "game over", "lives at zero, surrender or agreed draw (BM.end.conditions)"),
        ("action", "turn start", "the action ends the turn; the opponent's turn (BM.actions.ends_turn)"),
    ],
)
