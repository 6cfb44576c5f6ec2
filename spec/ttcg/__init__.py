"""The True Trading Card Game (TTCG), section 2 of its development document, as a transition system.

* :mod:`spec.ttcg.events`: the event vocabulary of replay format v1 (moves, chance events, claims);
* :mod:`spec.ttcg.state`: the game state (decks, hands, discard piles, fields of piles, the chain);
* :mod:`spec.ttcg.edits` and :mod:`spec.ttcg.fieldlist`: the counts of changes to the fields, and
  the lists and sets of a field that move them (kept interpreted: see :mod:`spec.compiled`);
* :mod:`spec.ttcg.turn`: the phases of a turn as a graph;
* :mod:`spec.ttcg.actions`: the preconditions of every event, each citing its rule (``rules.tsv``);
* :mod:`spec.ttcg.board`: read-only questions (ranks, attack and defense, effects in force);
* :mod:`spec.ttcg.effects`: what each step of the card-text AST does;
* :mod:`spec.ttcg.game`: :class:`~spec.ttcg.game.Ttcg`, the game (set-up, flow, battle, legal moves);
* :mod:`spec.ttcg.corpus`: how the replays of ``replays/ttcg`` are built.

The decisions taken where the book is silent or at odds with itself are in
``docs/ttcg-decisions.rst``.
"""
