"""A game's turn structure: phases and steps as a directed graph.

The structure is declared as data (an ordered list of edges) so that stepping through a
turn costs one dictionary look-up; :meth:`TurnStructure.graph` builds the same structure
as a ``networkx`` graph for the documentation, diagrams and structural tests (networkx is
imported only there: it is slow to import).
"""

from __future__ import annotations

import importlib
from typing import Any


class TurnStructure:
    """Phases/steps and the transitions between them.

    ``edges`` are ``(from, to, label)``; each node has one default successor (the first
    edge listed from it), followed when its window closes; other edges are the
    alternatives a rule may take (a skipped Battle Phase, a knock-out ending the round).
    """

    def __init__(self, nodes: list[tuple[str, str]], edges: list[tuple[str, str, str]]) -> None:
        self.nodes = nodes
        """``(name, rule citation)`` for every phase or step, in turn order."""
        self.edges = edges
        self.successor: dict[str, str] = {}
        for src, dst, _label in edges:
            self.successor.setdefault(src, dst)
        self.order = {name: i for i, (name, _rule) in enumerate(nodes)}

    def next(self, node: str) -> str:
        """The default next phase or step."""
        return self.successor[node]

    def graph(self) -> Any:
        """The structure as a ``networkx.DiGraph`` (nodes carry ``rule``, edges ``label``).

        Typed ``Any`` and imported by name: networkx has no type stubs, and mypyc (this
        module is compiled, see :mod:`spec.compiled`) refuses an import it cannot type."""
        nx: Any = importlib.import_module("networkx")
        g = nx.DiGraph()
        for name, rule in self.nodes:
            g.add_node(name, rule=rule)
        for src, dst, label in self.edges:
            g.add_edge(src, dst, label=label)
        return g
