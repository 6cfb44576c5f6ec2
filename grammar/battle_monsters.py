"""Reading and writing the card text of Battle Monsters.

:data:`GRAMMAR` tells :mod:`grammar.parser` how: the tree builder for
``grammar/battle_monsters.lark``, how a line becomes an ability for each card type, and the
canonical renderer. The game's own AST nodes are in :mod:`grammar.battle_monsters_nodes`.
"""

from __future__ import annotations

from grammar.parser import CoreBuilder, GameGrammar


class Builder(CoreBuilder):
    """Tree callbacks for the rules of ``grammar/battle_monsters.lark`` (the shared ones are inherited)."""


GRAMMAR = GameGrammar("battle_monsters", Builder)
