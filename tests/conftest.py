"""Shared fixtures: simulated legal Neopets games, made once per test session.

Simulating a game costs a second or two, so each one is made once and handed out as a
read-only list of replay lines (``lines[0]`` is the header, then one event per line).
Tests that corrupt a game copy the lines and write the result under ``tmp_path``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

SEED = 1

# Every test parses card texts itself: the tree cache (grammar/tree_cache.py) is off for the
# session and its subprocesses, unless asked for; tests/test_tree_cache.py turns it on in
# folders of its own.
os.environ.setdefault("ARBITER_TREE_CACHE", "0")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """While the compiled spec runs (spec.compiled), skip the white-box tests that patch its
    Python functions: compiled code calls its functions directly and would not see the
    patch. ``make test`` runs them in a second pass with ``ARBITER_INTERPRETED=1``."""
    from spec import compiled

    if not compiled.ACTIVE:
        return
    skip = pytest.mark.skip(reason="patches the spec's Python functions: run by make test's second pass, "
                                   f"with {compiled.OFF}=1")
    for item in items:
        if "interpreted" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def explicit_game() -> tuple[bytes, ...]:
    """A legal game with every priority pass logged (header first)."""
    from verifier.simulate import simulate

    return tuple(simulate("neopets", SEED, passes="explicit"))


@pytest.fixture(scope="session")
def implicit_game() -> tuple[bytes, ...]:
    """A legal game with passes left out of the log (header first)."""
    from verifier.simulate import simulate

    return tuple(simulate("neopets", SEED, passes="implicit"))


def write_replay(path: Path, header: bytes | dict[str, Any], events: Sequence[bytes | dict[str, Any]]) -> Path:
    """Write a replay: header and events may be raw bytes or JSON-ready dicts."""

    def raw(part: bytes | dict[str, Any]) -> bytes:
        return part if isinstance(part, bytes) else json.dumps(part).encode()

    path.write_bytes(b"\n".join([raw(header), *(raw(e) for e in events)]) + b"\n")
    return path


@pytest.fixture
def replay_writer(tmp_path: Path) -> Callable[..., Path]:
    """``write(name, header, events)`` -> the path of a replay under ``tmp_path``."""

    def write(name: str, header: bytes | dict[str, Any], events: Sequence[bytes | dict[str, Any]]) -> Path:
        return write_replay(tmp_path / name, header, events)

    return write
