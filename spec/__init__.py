"""The rules of each game as a transition system.

``spec.core`` holds the machinery the games share; each game is a subpackage
(``spec.neopets``...) exposing a :class:`spec.core.game.Game` subclass. Games are looked up by
their id with :func:`load_game`, imported only when first asked for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from spec import compiled

__path__ = compiled.activate(__path__)  # the mypyc build while it is fresh (spec.compiled)

if TYPE_CHECKING:
    from spec.core.game import Game

GAMES: dict[str, str] = {
    "neopets": "spec.neopets.game:Neopets",
    "bakugan": "spec.bakugan.game:Bakugan",
    "epic_battles": "spec.epic_battles.game:EpicBattles",
    "ttcg": "spec.ttcg.game:Ttcg",
    "battle_monsters": "spec.battle_monsters.game:BattleMonsters",
}
"""Game id -> ``module:class`` of its rules."""

_loaded: dict[str, Game] = {}


def load_game(game_id: str) -> Game:
    """The rules object of a game, by id (``neopets``...).

    Raises :class:`KeyError` with the known ids when the game is not supported.
    """
    if game_id not in GAMES:
        raise KeyError(f"unknown game {game_id!r}; known games: {', '.join(sorted(GAMES))}")
    if game_id not in _loaded:
        module_name, _, class_name = GAMES[game_id].partition(":")
        cls = getattr(importlib.import_module(module_name), class_name)
        _loaded[game_id] = cls()
    return _loaded[game_id]
