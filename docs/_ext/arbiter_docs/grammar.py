"""The card-text grammar reference (``.. arbiter-grammar::``), generated from ``grammar/*.lark``.

One section per grammar file (``core.lark`` first, then each game's): the file's opening
comments, what it imports from the core grammar, then every rule and terminal in file
order, grouped under the file's ``// ---- heading`` separators, each with the comments
written above it and its definition. Rule names inside a definition link to their
definition (in the same file, or in ``core.lark`` for imported ones). Each definition's
id is ``grammar-<file>-<name>`` (an ``%extend``/``%override`` of an imported rule gets
the same scheme in its own file).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from . import data

_DEFINITION = re.compile(r"^(?P<mode>%override|%extend)?\s*(?P<flag>[?!]?)(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:\.-?\d+)?\s*:")
_SEPARATOR = re.compile(r"^//\s*-{3,}\s*(?P<title>.*?)\s*-*\s*$")
_IMPORT = re.compile(r"^%import\s+\.(?P<file>\w+)\s*\((?P<names>[^)]*)\)")
_TOKEN = re.compile(r'(?P<string>"(?:\\.|[^"\\])*"i?)|(?P<regex>/(?:\\.|[^/\\\n])+/[imslux]*)|(?P<comment>//.*)'
                    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<arrow>->)|(?P<other>.)", re.DOTALL)


@dataclass
class Definition:
    """One rule or terminal of a grammar file."""

    name: str
    mode: str
    """``""``, ``%extend`` or ``%override``."""
    text: list[str]
    comments: list[str]
    anchor: str = ""


@dataclass
class Group:
    """The definitions under one ``// ---- title`` separator."""

    title: str
    notes: list[str] = field(default_factory=list)
    definitions: list[Definition] = field(default_factory=list)


@dataclass
class GrammarFile:
    """A parsed ``.lark`` file, as the page shows it."""

    name: str
    intro: list[str]
    imports: dict[str, str]
    """Imported name -> the file it comes from."""
    directives: list[str]
    groups: list[Group]


def read_grammar(name: str, text: str) -> GrammarFile:
    """Split a ``.lark`` file into its opening comments, imports, groups and definitions."""
    intro: list[str] = []
    imports: dict[str, str] = {}
    directives: list[str] = []
    groups = [Group("")]
    pending: list[str] = []
    current: Definition | None = None
    started = False
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line.strip():
            if pending and not started:
                intro += [*pending, ""]
            elif pending:
                groups[-1].notes.append(" ".join(c.strip() for c in pending))
            pending = []
            current = None
            continue
        if line.startswith("//"):
            separator = _SEPARATOR.match(line)
            if separator:
                started = True
                groups.append(Group(separator["title"]))
                pending = []
                continue
            pending.append((line[3:] if line.startswith("// ") else line[2:]).rstrip())
            current = None
            continue
        if current is not None and line[:1] in (" ", "\t", "|"):
            current.text.append(line)
            continue
        started = True
        match = _DEFINITION.match(line)
        imported = _IMPORT.match(line)
        if match:
            current = Definition(match["name"], match["mode"] or "", [line], [c.strip() for c in pending if c.strip()])
            groups[-1].definitions.append(current)
        elif imported:
            for item in imported["names"].split(","):
                if item.strip():
                    imports[item.strip()] = imported["file"]
            current = None
        else:
            directives.append(line)
            current = None
        pending = []
    return GrammarFile(name, _paragraphs(intro), imports, directives, [g for g in groups if g.definitions or g.notes])


def _paragraphs(lines: list[str]) -> list[str]:
    out: list[str] = []
    block: list[str] = []
    for line in [*lines, ""]:
        if line.strip():
            block.append(line)
        elif block:
            out.append("\n".join(block))
            block = []
    return out


def grammar_files() -> list[tuple[str, str]]:
    """``(name, text)`` of every grammar: ``core`` first, then the games in their usual order."""
    folder = data.ROOT / "grammar"
    try:
        from grammar.parser import GAMES as order
    except Exception:  # noqa: BLE001 - the order is only cosmetic
        order = ()
    files = {p.stem: p for p in folder.glob("*.lark")}
    names = (["core"] if "core" in files else []) + [g for g in order if g in files]
    names += sorted(set(files) - set(names))
    return [(name, files[name].read_text(encoding="utf-8")) for name in names]


def _anchors(grammars: list[GrammarFile]) -> dict[tuple[str, str], str]:
    """(file, name) -> the id of its first definition in that file."""
    seen: set[str] = set()
    out: dict[tuple[str, str], str] = {}
    for g in grammars:
        for group in g.groups:
            for d in group.definitions:
                anchor = f"grammar-{g.name}-{d.name}"
                n = 2
                while anchor in seen:
                    anchor = f"grammar-{g.name}-{d.name}-{n}"
                    n += 1
                seen.add(anchor)
                d.anchor = anchor
                out.setdefault((g.name, d.name), anchor)
    return out


def _definition_block(g: GrammarFile, d: Definition, anchors: dict[tuple[str, str], str]) -> nodes.literal_block:
    text = "\n".join(d.text)
    # A raw source that differs from the text marks a parsed literal: Sphinx then keeps the
    # links instead of highlighting the block (an empty one would be filled in by Sphinx).
    block = nodes.literal_block(f"{text}\n", "", classes=["arbiter-grammar-rule"])
    alias_next = False
    plain = ""
    for m in _TOKEN.finditer(text):
        kind, value = m.lastgroup, m[0]
        target = None
        if kind == "name" and not alias_next:
            target = anchors.get((g.name, value))
            if target is None and value in g.imports:
                target = anchors.get((g.imports[value], value))
        if target is not None and target != d.anchor:
            if plain:
                block += nodes.Text(plain)
                plain = ""
            block += nodes.reference(value, value, refid=target, internal=True)
        else:
            plain += value
        if kind == "arrow":
            alias_next = True
        elif kind == "name":
            alias_next = False
    if plain:
        block += nodes.Text(plain)
    return block


class GrammarDirective(SphinxDirective):
    """``.. arbiter-grammar::``: a section per grammar file."""

    def run(self) -> list[nodes.Node]:
        grammars = [read_grammar(name, text) for name, text in grammar_files()]
        anchors = _anchors(grammars)
        out: list[nodes.Node] = []
        for g in grammars:
            self.env.note_dependency(str(data.ROOT / "grammar" / f"{g.name}.lark"))
            section = nodes.section(ids=[f"grammar-{g.name}"])
            section += nodes.title("", f"grammar/{g.name}.lark")
            for paragraph in g.intro:
                lines = paragraph.splitlines()
                if len(lines) > 1 and any(line[:1] in (" ", "*", "-") or "  " in line.strip() for line in lines):
                    text = "\n".join(lines)
                    section += nodes.literal_block(text, text, language="text", classes=["arbiter-grammar-comment"])
                else:
                    section += nodes.paragraph("", " ".join(paragraph.split()))
            count = sum(len(group.definitions) for group in g.groups)
            section += nodes.paragraph("", f"{count} definitions.")
            if g.imports:
                para = nodes.paragraph("", "Imports from the core grammar: ")
                for i, name in enumerate(sorted(g.imports, key=str.lower)):
                    if i:
                        para += nodes.Text(", ")
                    target = anchors.get((g.imports[name], name))
                    inner = nodes.literal(name, name)
                    para += nodes.reference("", "", inner, refid=target, internal=True) if target else inner
                section += para
            if g.directives:
                section += nodes.paragraph("", "Other directives:")
                section += nodes.literal_block("\n".join(g.directives), "\n".join(g.directives))
            for index, group in enumerate(g.groups):
                sub = nodes.section(ids=[f"grammar-{g.name}-part-{index}"])
                sub += nodes.title("", group.title or "Definitions")
                for note in group.notes:
                    sub += nodes.paragraph("", note, classes=["arbiter-grammar-note"])
                for d in group.definitions:
                    box = nodes.container(classes=["arbiter-box", "arbiter-grammar-def"], ids=[d.anchor])
                    head = nodes.paragraph()
                    head += nodes.strong(d.name, d.name)
                    if d.mode:
                        origin = g.imports.get(d.name)
                        what = "adds alternatives to" if d.mode == "%extend" else "replaces"
                        head += nodes.Text(f" ({what} ")
                        target = anchors.get((origin, d.name)) if origin else None
                        label = f"{origin}.lark" if origin else "an imported rule"
                        head += nodes.reference("", label, refid=target, internal=True) if target else nodes.Text(label)
                        head += nodes.Text(")")
                    box += head
                    if d.comments:
                        box += nodes.paragraph("", " ".join(d.comments))
                    box += _definition_block(g, d, anchors)
                    sub += box
                section += sub
            out.append(section)
        return out


def setup(app: Sphinx) -> None:
    """Register the directive."""
    app.add_directive("arbiter-grammar", GrammarDirective)
