"""What only the Bakugan rule index has (the tests common to every game are in tests/test_rule_index.py)."""

from __future__ import annotations

from spec import load_game

BOOK = load_game("bakugan").book


def test_only_normative_rules_give_a_reason_not_to_check() -> None:
    for entry in BOOK.index:
        if entry.not_checkable:
            assert entry.kind == "normative", f"{entry.id}: only normative rules need a reason"
