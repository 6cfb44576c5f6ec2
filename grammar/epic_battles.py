"""Reading and writing the card text of Epic Battles.

:data:`GRAMMAR` tells :mod:`grammar.parser` how: the tree builder for
``grammar/epic_battles.lark``, how a line becomes an ability for each card type, and the
canonical renderer. The game's own AST nodes are in :mod:`grammar.epic_battles_nodes`.
"""

from __future__ import annotations

from grammar.parser import CoreBuilder, GameGrammar


class Builder(CoreBuilder):
    """Tree callbacks for the rules of ``grammar/epic_battles.lark`` (the shared ones are inherited)."""


GRAMMAR = GameGrammar("epic_battles", Builder)
