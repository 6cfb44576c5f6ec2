"""Effect-AST nodes that only the Battle Monsters grammar needs.

Shared nodes (selectors, amounts, durations, conditions and the steps and abilities
the games have in common) are in :mod:`grammar.ast`; a game adds here what its cards
say that the shared nodes cannot. Every class subclasses :class:`grammar.ast.Node`
with a unique ``tag`` (prefixed with the game, e.g. ``tag="battle_monsters_..."``), is listed in
:data:`STEPS` (effect steps) or :data:`ABILITIES` (ability kinds), and may annotate
fields with ``Step``, ``Ability`` or ``CardText`` as strings: :mod:`grammar.ast`
imports this module before those unions exist and fills them in afterwards.
"""

from __future__ import annotations

from typing import Any

STEPS: tuple[type[Any], ...] = ()
"""This game's own effect steps (joined into :data:`grammar.ast.Step`)."""

ABILITIES: tuple[type[Any], ...] = ()
"""This game's own ability kinds (joined into :data:`grammar.ast.Ability`)."""
