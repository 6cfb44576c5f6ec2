"""Checks shared by the tests of dataclasses whose ``__init__`` is written out (``init=False``).

The ``__init__`` that dataclasses generates stays an interpreted function in the compiled build,
so the busiest dataclasses of the games' states spell theirs out. These checks hold each one to
what the generated one would do: every field taken by its name and in its place, the declared
defaults (a fresh object per instance where the declaration has a factory), and the fields left
out of ``__init__`` set. A field added to the class but not to its ``__init__``, a swapped or
misnamed parameter or a changed default fails them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any


def init_fields(cls: type) -> list[Any]:
    return [f for f in dataclasses.fields(cls) if f.init]


def made_again_by_keyword_and_position(cls: type, met: Iterable[Any], derived: frozenset[str] = frozenset()) -> int:
    """Each object of ``met`` made again from its ``__init__`` fields, by keyword and by position, has
    the same fields; the lists, sets and dicts passed are kept, not copied (but those of ``derived``,
    which ``__init__`` reads off the other fields). Returns how many objects were checked."""
    assert dataclasses.is_dataclass(cls) and "__init__" in vars(cls), cls
    checked = 0
    for obj in met:
        values = {f.name: getattr(obj, f.name) for f in init_fields(cls)}
        for made in (cls(**values), cls(*values.values())):
            assert {k: getattr(made, k) for k in values} == values, cls.__name__
            kept = [k for k, v in values.items() if isinstance(v, (list, set, dict)) and k not in derived]
            assert all(getattr(made, k) is values[k] for k in kept), cls.__name__
        checked += 1
    return checked


def defaults_as_declared(cls: type, obj: Any, stamps: frozenset[str] = frozenset(),
                         left_out: Callable[[Any, str], Any] | None = None) -> None:
    """Made from the required fields of ``obj`` alone (twice), an object has every other field at its
    declared default, a fresh one per object where the declaration has a factory; ``stamps`` are
    fields whose factory takes a new reading each time (the two objects differ), and ``left_out(made,
    name)`` gives what a field outside ``__init__`` (or read off the others) should hold."""
    required = {f.name: getattr(obj, f.name) for f in init_fields(cls)
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
    one, two = cls(**required), cls(**required)
    for f in dataclasses.fields(cls):
        if f.name in required:
            continue
        if left_out is not None and (expected := left_out(one, f.name)) is not None:
            assert getattr(one, f.name) == expected, f.name
        elif f.name in stamps:
            assert getattr(one, f.name) != getattr(two, f.name), f.name
        elif f.default_factory is not dataclasses.MISSING:
            assert getattr(one, f.name) == f.default_factory(), f.name
            assert getattr(one, f.name) is not getattr(two, f.name), f.name
        else:
            assert getattr(one, f.name) == f.default, f.name


def check_along_shipped(game_id: str, pick: Callable[[Any], dict[type, list[Any]]], derived: dict[type, frozenset[str]] | None = None,
                        replays: int = 12) -> dict[type, Any]:
    """Along the first ``replays`` shipped replays of ``game_id``, before each event, the objects
    ``pick(state)`` finds made again by keyword and by position
    (:func:`made_again_by_keyword_and_position`) at once (the state changes in place). Returns the
    first object met of each class, after checking that every class was met."""
    from pathlib import Path

    from verifier.corpus import replay_states

    root = Path(__file__).resolve().parents[1] / "replays" / game_id
    paths = sorted(root.glob("*/*.jsonl"))[:replays]
    assert paths
    first: dict[type, Any] = {}
    for path in paths:
        for state, _event, _raw in replay_states(game_id, path.read_bytes().splitlines()):
            for cls, objs in pick(state).items():
                if objs:
                    first.setdefault(cls, objs[0])
                made_again_by_keyword_and_position(cls, objs, (derived or {}).get(cls, frozenset()))
    return first
