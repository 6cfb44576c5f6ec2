"""The replay format reference generated from the msgspec types (``.. arbiter-events::``).

For the header (:class:`verifier.replay.Header`) and for every registered game's event
vocabulary (``Game.events`` and ``Game.event_kinds``): each event kind (``do``) with its
kind (move, chance, claim), its fields with their JSON types, whether they are required
and their defaults, and the meaning from the type's docstring. JSON Schema files are
written beside the HTML (``schemas/replay-header.schema.json`` and
``schemas/replay-<game>-event.schema.json``) from :func:`msgspec.json.schema`.
"""

from __future__ import annotations

import inspect
import json
import typing
from pathlib import Path
from typing import Any

import msgspec
import msgspec.inspect as mi
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from . import data
from .links import esc, literal, parse

SCHEMA_DIR = "schemas"
SCHEMA_DRAFT = "https://json-schema.org/draft/2020-12/schema"


def header_schema_file() -> str:
    """Where the header's schema is written, relative to the HTML root."""
    return f"{SCHEMA_DIR}/replay-header.schema.json"


def event_schema_file(game_id: str) -> str:
    """Where a game's event schema is written, relative to the HTML root."""
    return f"{SCHEMA_DIR}/replay-{game_id}-event.schema.json"


def schemas() -> dict[str, dict[str, Any]]:
    """Every schema file: path (relative to the HTML root) -> JSON Schema."""
    from verifier.replay import Header

    out: dict[str, dict[str, Any]] = {}
    header = msgspec.json.schema(Header)
    out[header_schema_file()] = {"$schema": SCHEMA_DRAFT, "title": "tcg-arbiter replay header (format 1, line 1)", **header}
    for game_id, title in data.registered_games():
        events = data.game(game_id).events
        union: Any = typing.Union[tuple(events)]  # type: ignore[valid-type]  # noqa: UP007 - a runtime union
        schema = msgspec.json.schema(union)
        out[event_schema_file(game_id)] = {"$schema": SCHEMA_DRAFT,
                                           "title": f"tcg-arbiter replay event of {title} (format 1, lines 2 on)", **schema}
    return out


def _write_schemas(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    for relative, schema in schemas().items():
        path = Path(app.outdir) / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def describe(t: mi.Type, structs: dict[str, type]) -> str:
    """A JSON type in words (``string``, ``list of integer``, ``string or null``...)."""
    if isinstance(t, mi.StrType):
        return "string"
    if isinstance(t, mi.BoolType):
        return "boolean"
    if isinstance(t, mi.IntType):
        return "integer"
    if isinstance(t, mi.FloatType):
        return "number"
    if isinstance(t, mi.NoneType):
        return "null"
    if isinstance(t, mi.AnyType):
        return "any JSON value"
    if isinstance(t, mi.LiteralType):
        return " or ".join(json.dumps(v) for v in t.values)
    if isinstance(t, mi.UnionType):
        options = [describe(x, structs) for x in t.types]
        return options[0] if len(options) == 1 else f"{', '.join(options[:-1])} or {options[-1]}"
    if isinstance(t, mi.ListType | mi.VarTupleType | mi.SetType | mi.FrozenSetType):
        return f"list of {describe(t.item_type, structs)}"
    if isinstance(t, mi.TupleType):
        return "list of [" + ", ".join(describe(x, structs) for x in t.item_types) + "]"
    if isinstance(t, mi.DictType):
        return f"object of {describe(t.value_type, structs)} by {describe(t.key_type, structs)}"
    if isinstance(t, mi.StructType):
        structs[t.cls.__name__] = t.cls
        return f"object ({t.cls.__name__})"
    return type(t).__name__.removesuffix("Type").lower()


def _first_paragraph(cls: type) -> str:
    doc = inspect.getdoc(cls) or ""
    own = cls.__dict__.get("__doc__")
    if not own:
        return ""
    return " ".join(doc.split("\n\n")[0].split())


def _default(field: mi.Field) -> str:
    if field.required:
        return "required"
    if field.default is not mi.NODEFAULT:
        return f"default {literal(json.dumps(msgspec.to_builtins(field.default)))}"
    if field.default_factory is not mi.NODEFAULT:
        return f"default {literal(json.dumps(msgspec.to_builtins(field.default_factory())))}"
    return "optional"


def _fields_table(cls: type, structs: dict[str, type], skip: tuple[str, ...] = ()) -> list[str]:
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    rows = [f for f in info.fields if f.encode_name not in skip]
    if not rows:
        return ["No fields of its own.", ""]
    out = [".. list-table::", "   :header-rows: 1", "   :widths: 20 40 40", "",
           "   * - field", "     - JSON type", "     - required or default"]
    for field in rows:
        out += [f"   * - {literal(field.encode_name)}", f"     - {esc(describe(field.type, structs))}", f"     - {_default(field)}"]
    return [*out, ""]


class EventsDirective(SphinxDirective):
    """``.. arbiter-events::``: the header and every registered game's events."""

    def run(self) -> list[nodes.Node]:
        from verifier.replay import Header

        structs: dict[str, type] = {}
        out = ["The header", "----------", "",
               ("Line 1 of every replay, whatever the game "
                f"(JSON Schema: :arbiter-file:`{header_schema_file().rsplit('/', 1)[-1]} <{header_schema_file()}>`)."), ""]
        out += _fields_table(Header, structs)
        out += _objects(structs, "header")
        for game_id, title in data.registered_games():
            out += self.game(game_id, title)
        return parse(self, out)

    def game(self, game_id: str, title: str) -> list[str]:
        """One game's event vocabulary."""
        spec = data.game(game_id)
        events = list(spec.events)
        kinds = spec.event_kinds
        heading = f"{title} events"
        schema = event_schema_file(game_id)
        out = [f".. _events-{game_id}:", "", esc(heading), "-" * len(esc(heading)), "",
               f"{len(events)} event kinds (the ``do`` field); every event also has ``seq`` and, where a player",
               f"acts, ``by``. JSON Schema of one event line: :arbiter-file:`{schema.rsplit('/', 1)[-1]} <{schema}>`.", "",
               ".. list-table:: Event kinds", "   :header-rows: 1", "   :widths: 20 15 65", "",
               "   * - ``do``", "     - kind", "     - meaning"]
        for cls in events:
            do = str(cls.__struct_config__.tag)
            out += [f"   * - :ref:`{esc(do)} <event-{game_id}-{do}>`", f"     - {esc(kinds.get(do, '?'))}",
                    f"     - {_first_paragraph(cls) or '–'}"]
        out.append("")
        structs: dict[str, type] = {}
        for cls in events:
            do = str(cls.__struct_config__.tag)
            sub = f"``{do}`` ({kinds.get(do, '?')})"
            out += [f".. _event-{game_id}-{do}:", "", sub, "~" * len(sub), ""]
            doc = inspect.getdoc(cls) if cls.__dict__.get("__doc__") else ""
            if doc:
                out += [*doc.splitlines(), ""]
            out += _fields_table(cls, structs, skip=("seq", "by"))
        return out + _objects(structs, game_id)


def _objects(structs: dict[str, type], prefix: str) -> list[str]:
    """A subsection per object type the fields use (and the ones those use)."""
    out: list[str] = []
    done: set[str] = set()
    while set(structs) - done:
        name = min(set(structs) - done)
        done.add(name)
        cls = structs[name]
        sub = f"Object ``{name}``"
        out += [f".. _event-{prefix}-object-{name.lower()}:", "", sub, "~" * len(sub), ""]
        doc = inspect.getdoc(cls) if cls.__dict__.get("__doc__") else ""
        if doc:
            out += [*doc.splitlines(), ""]
        out += _fields_table(cls, structs)
    return out


def setup(app: Sphinx) -> None:
    """Register the directive and the schema writer."""
    app.add_directive("arbiter-events", EventsDirective)
    app.connect("build-finished", _write_schemas)
