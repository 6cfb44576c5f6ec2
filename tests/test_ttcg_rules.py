"""What only the TTCG rule index has (the tests common to every game are in tests/test_rule_index.py)."""

from __future__ import annotations

from spec import load_game
from spec.ttcg.actions import UNASKED

BOOK = load_game("ttcg").book


def test_every_check_cites_a_rule_of_the_index_and_says_what_it_requires() -> None:
    names = set()
    for action in BOOK.actions.values():
        for check in action.checks:
            assert check.rule.startswith("ttcg:") and check.rule.split(":", 1)[1] in BOOK.index
            assert check.requires
            names.add(check.name)
    total = sum(len(a.checks) for a in BOOK.actions.values())
    assert len(names) == total - (len(UNASKED) - 1), "check names are unique, save the one the events only an effect asks for share"


def test_the_game_is_registered_with_its_turn_graph() -> None:
    game = load_game("ttcg")
    graph = game.turn.graph()  # type: ignore[attr-defined]
    assert list(graph.nodes) == ["draw", "main", "battle", "end"]
    assert all(graph.nodes[n]["rule"].startswith("ttcg:") for n in graph.nodes)
