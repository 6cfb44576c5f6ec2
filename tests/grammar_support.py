"""What the grammar tests of every game share: the shipped base set, and walking a tree."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

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
    """Every node (and scalar field value) of a tree, depth first."""
    yield node
    if isinstance(node, msgspec.Struct):
        for field in node.__struct_fields__:
            yield from walk(getattr(node, field))
    elif isinstance(node, tuple):
        for item in node:
            yield from walk(item)
