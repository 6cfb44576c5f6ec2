"""What the grammar tests of every game share: the shipped base set, and walking a tree."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from grammar.ast import nodes

ROOT = Path(__file__).resolve().parents[1]


def shipped_cards(game: str) -> list[dict[str, Any]]:
    """The cards of ``spec/<game>/cards/base.toml`` as written, after checking its header."""
    with (ROOT / "spec" / game / "cards" / "base.toml").open("rb") as handle:
        data = tomllib.load(handle)
    assert data["game"] == game
    assert data["database"] == f"{game}/base"
    assert data["version"] == 1
    return list(data["card"])


def walk(node: object) -> Iterator[object]:
    """Every node (and scalar field value) of a tree, depth first (:func:`grammar.ast.nodes`)."""
    return nodes(node)
