"""What only the Battle Monsters rule index has (the tests common to every game are in tests/test_rule_index.py)."""

from __future__ import annotations

from spec import load_game

BOOK = load_game("battle_monsters").book


def test_only_normative_rules_give_a_reason_not_to_check() -> None:
    for entry in BOOK.index:
        if entry.not_checkable:
            assert entry.kind == "normative", f"{entry.id}: only normative rules need a reason"


def test_the_turn_graph_names_rules_of_the_index() -> None:
    from spec.battle_monsters.turn import TURN

    graph = TURN.graph()
    assert set(graph.nodes) == {name for name, _rule in TURN.nodes}
    for _name, rule in TURN.nodes:
        assert rule.split(":", 1)[1] in BOOK.index
    assert "game over" in graph.nodes and graph.has_edge("action", "turn start")


def test_the_books_contradictions_are_registered() -> None:
    pairs = {ids for ids, _why in BOOK.contradictions}
    assert ("BM.start.direct_attack", "BM.monster.direct") in pairs
