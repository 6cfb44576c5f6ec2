"""Reading and writing the card text of the True Trading Card Game (TTCG).

:data:`GRAMMAR` tells :mod:`grammar.parser` how: the tree builder for
``grammar/ttcg.lark``, how a line becomes an ability for each card type, and the
canonical renderer. The game's own AST nodes are in :mod:`grammar.ttcg_nodes`.
"""

from __future__ import annotations

from grammar.parser import CoreBuilder, GameGrammar


class Builder(CoreBuilder):
    """Tree callbacks for the rules of ``grammar/ttcg.lark`` (the shared ones are inherited)."""


GRAMMAR = GameGrammar("ttcg", Builder)
