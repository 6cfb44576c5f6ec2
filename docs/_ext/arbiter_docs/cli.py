"""The CLI reference (``.. arbiter-cli::``), generated from the ``arbiter`` command itself.

It walks ``typer.main.get_command(verifier.cli.app)``: every command with its usage, its
help text, its arguments and its options (names, type, default, help). A command added
to the app appears here at the next build. Each command's section has the id
``cli-<command>``.
"""

from __future__ import annotations

import inspect
import types
import typing
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from .links import esc, literal, parse, prose

_SIMPLE = {str: "TEXT", int: "INTEGER", float: "NUMBER", bool: "", Path: "PATH"}


def type_label(param: Any) -> str:
    """A short name for what a parameter takes (``PATH``, ``INTEGER``...), empty for a flag."""
    if getattr(param, "is_flag", False):
        return ""
    click_type = getattr(param, "type", None)
    if click_type is not None and getattr(click_type, "name", None):
        name = str(click_type.name).upper()
        return "" if name == "BOOLEAN" else name
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    return _annotation_label(annotation)


def _annotation_label(annotation: Any) -> str:
    if annotation in _SIMPLE:
        return _SIMPLE[annotation]
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _annotation_label(inner[0]) if len(inner) == 1 else " | ".join(_annotation_label(a) for a in inner)
    if origin in (list, tuple, set):
        args = typing.get_args(annotation)
        return _annotation_label(args[0]) if args else "TEXT"
    if origin is typing.Literal:
        return "|".join(str(a) for a in typing.get_args(annotation))
    return getattr(annotation, "__name__", "VALUE").upper() if annotation is not None else "VALUE"


def commands() -> list[tuple[str, Any]]:
    """``(name, click command)`` of every visible ``arbiter`` command, in registration order."""
    import typer.main

    from verifier.cli import app

    group = typer.main.get_command(app)
    found = getattr(group, "commands", {}) or {}
    return [(name, command) for name, command in found.items() if not getattr(command, "hidden", False)]


def _is_argument(param: Any) -> bool:
    return type(param).__name__.endswith("Argument") or not getattr(param, "opts", [""])[0].startswith("-")


def usage(name: str, command: Any) -> str:
    """``arbiter NAME [OPTIONS] ARG...`` built from the parameters."""
    parts = ["arbiter", name]
    if any(not _is_argument(p) for p in command.params):
        parts.append("[OPTIONS]")
    for param in command.params:
        if not _is_argument(param):
            continue
        meta = (param.metavar or param.name or "ARG").upper()
        if getattr(param, "nargs", 1) == -1:
            meta += "..."
        parts.append(meta if param.required else f"[{meta}]")
    return " ".join(parts)


def _default(param: Any) -> str:
    default = getattr(param, "default", None)
    if default is None or default is False or callable(default) or default == () or default == []:
        return ""
    if getattr(param, "show_default", True) is False:
        return ""
    return str(default)


class CliDirective(SphinxDirective):
    """``.. arbiter-cli::``: a section per command of the ``arbiter`` app."""

    def run(self) -> list[nodes.Node]:
        out: list[str] = []
        listed = commands()
        out += [".. list-table:: The commands", "   :header-rows: 1", "", "   * - command", "     - what it does"]
        for name, command in listed:
            short = (inspect.cleandoc(command.help or "").split("\n\n")[0]).replace("\n", " ")
            out += [f"   * - :ref:`arbiter {esc(name)} <cli-{name}>`", f"     - {prose(short)}"]
        out.append("")
        for name, command in listed:
            out += self.command(name, command)
        return parse(self, out)

    def command(self, name: str, command: Any) -> list[str]:
        """One command's section."""
        title = f"arbiter {name}"
        out = [f".. _cli-{name}:", "", literal(title), "-" * (len(title) + 4), "",
               ".. code-block:: text", "", f"   {usage(name, command)}", ""]
        for paragraph in inspect.cleandoc(command.help or "").split("\n\n"):
            if paragraph.strip():
                out += [prose(paragraph), ""]
        arguments = [p for p in command.params if _is_argument(p)]
        options = [p for p in command.params if not _is_argument(p)]
        if arguments:
            out += ["**Arguments**", "", ".. list-table::", "   :header-rows: 1", "   :widths: 20 15 65", "",
                    "   * - argument", "     - takes", "     - meaning"]
            for param in arguments:
                meta = (param.metavar or param.name or "ARG").upper()
                need = "required" if param.required else "optional"
                many = ", one or more" if getattr(param, "nargs", 1) == -1 else ""
                out += [f"   * - {literal(meta)}", f"     - {type_label(param) or 'TEXT'} ({need}{many})",
                        f"     - {prose(getattr(param, 'help', '') or '')}"]
            out.append("")
        if options:
            out += ["**Options**", "", ".. list-table::", "   :header-rows: 1", "   :widths: 25 15 60", "",
                    "   * - option", "     - takes", "     - meaning"]
            for param in options:
                names = ", ".join(literal(o) for o in [*param.opts, *param.secondary_opts])
                takes = type_label(param) or "(a flag)"
                default = _default(param)
                help_text = prose(getattr(param, "help", "") or "")
                if default:
                    help_text += f" Default: {literal(default)}."
                if getattr(param, "multiple", False):
                    help_text += " May be given more than once."
                out += [f"   * - {names}", f"     - {esc(takes)}", f"     - {help_text.strip()}"]
            out.append("")
        return out


def setup(app: Sphinx) -> None:
    """Register the directive."""
    app.add_directive("arbiter-cli", CliDirective)
