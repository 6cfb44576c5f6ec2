"""Card-text grammars of tcg-arbiter: parse text into the effect AST and render it back.

* :func:`parse` / :func:`parse_lenient` read text (see :mod:`grammar.parser`);
* :func:`render` writes a tree in canonical wording (see :mod:`grammar.render`);
* :mod:`grammar.ast` holds the node types, with :func:`to_json` / :func:`from_json`.
"""

from grammar.ast import CardText, from_json, to_json, unknown_parts
from grammar.parser import GAMES, CardTextError, parse, parse_lenient
from grammar.render import RenderError, render

__all__ = [
    "GAMES",
    "CardText",
    "CardTextError",
    "RenderError",
    "from_json",
    "parse",
    "parse_lenient",
    "render",
    "to_json",
    "unknown_parts",
]
