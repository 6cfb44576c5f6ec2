"""Machinery shared by every game: state, rules registry, queue, turns, decks, effects.

Nothing in this package names a game; games plug in by subclassing
:class:`spec.core.game.Game` and overriding its hooks.
"""
