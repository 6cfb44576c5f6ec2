"""Reading and writing the card text of Bakugan (2023).

:data:`GRAMMAR` tells :mod:`grammar.parser` how: the tree builder for
``grammar/bakugan.lark``, how a line becomes an ability for each card type, and the
canonical renderer. The game's own AST nodes are in :mod:`grammar.bakugan_nodes`.
"""

from __future__ import annotations

from grammar.parser import CoreBuilder, GameGrammar


class Builder(CoreBuilder):
    """Tree callbacks for the rules of ``grammar/bakugan.lark`` (the shared ones are inherited)."""


GRAMMAR = GameGrammar("bakugan", Builder)
