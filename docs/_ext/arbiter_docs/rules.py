"""The rules reference of a game (``.. arbiter-rules:: GAME``) and the coverage of all games.

For every rule ID of the game's index, in order: the summary (the project's words), the
kind, the status (encoded, not checkable with the reason, missing), the encoding (each
precondition citing the rule: action, requirement, function; each derived outcome
registered with ``encodes()`` or ``note()``), the tests and shipped replays that exercise
it, and the rules its text in the book refers to (only the numbers are read from the
book, when it is beside the checkout). Each rule's block has the HTML id
``<game>-<id with dots as dashes>`` (:func:`spec.core.rulebook_lint.rule_anchor`).
"""

from __future__ import annotations

import textwrap
from collections import defaultdict
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from . import data
from .links import esc, literal, parse, rule_role

STATUS_TEXT = {
    "encoded": "encoded",
    "not checkable": "not checkable from a log",
    "missing": "missing",
    "definition": "definition",
    "physical": "physical",
    "informative": "informative",
}


def group_of(rule_id: str) -> str:
    """The part of the book a rule belongs to: its chapter number or its section prefix."""
    head = rule_id.split("/", 1)[0] if "/" in rule_id else rule_id
    parts = head.split(".")
    if parts[0].isdigit():
        return parts[0]
    return ".".join(parts[:2]) if len(parts) > 1 else parts[0]


def _checks(book: Any) -> dict[str, list[tuple[str, str, str]]]:
    found: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for action in book.actions.values():
        for check in action.checks:
            rule_id = check.rule.split(":", 1)[1]
            test = check.test
            function = f"{getattr(test, '__module__', '?')}.{getattr(test, '__qualname__', check.name)}"
            found[rule_id].append((action.name, check.requires, function))
    return found


def coverage_rows(game_id: str) -> dict[str, int]:
    """Counts for the coverage tables: normative rules by status, exercised ones, other kinds."""
    book = data.game(game_id).book
    exercised = set(data.test_citations(game_id)) | set(data.replay_citations(game_id))
    encoded = book.encoded_ids()
    counts = dict(book.coverage())
    counts["exercised"] = sum(1 for e in book.index if e.kind == "normative" and e.id in encoded and e.id in exercised)
    counts["normative"] = sum(1 for e in book.index if e.kind == "normative")
    for kind in ("definition", "physical", "informative"):
        counts[kind] = sum(1 for e in book.index if e.kind == kind)
    counts["total"] = len(book.index)
    return counts


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "–"


def _dot(game_id: str, name: str, structure: Any) -> list[str]:
    """Graphviz source for a turn structure, from its networkx graph."""
    from spec.core.rulebook_lint import rule_anchor, rules_page

    graph = structure.graph()

    def quote(text: str) -> str:
        return text.replace("\\", "\\\\").replace('"', '\\"')

    out = [f'digraph "{quote(name)}" {{',
           '  graph [rankdir=TB, bgcolor="transparent", nodesep=0.35, ranksep=0.45];',
           ('  node [shape=box, style="rounded,filled", fillcolor="#eef4fb", color="#4a6fa5", '
            'fontname="Helvetica", fontsize=11];'),
           '  edge [fontname="Helvetica", fontsize=9, color="#4a6fa5"];']
    for node, attrs in graph.nodes(data=True):
        rule = str(attrs.get("rule") or "")
        game, _, rule_id = rule.partition(":")
        label = f"{quote(str(node))}\\n{quote(rule_id)}" if rule_id else quote(str(node))
        extra = ""
        if game == game_id and data.rule_exists(game_id, rule_id):
            url = f"{rules_page(game_id)}#{rule_anchor(game_id, rule_id)}"
            extra = f', URL="{quote(url)}", target="_top", tooltip="{quote(rule)}"'
        out.append(f'  "{quote(str(node))}" [label="{label}"{extra}];')
    for src, dst, attrs in graph.edges(data=True):
        label = "\\n".join(textwrap.wrap(quote(str(attrs.get("label") or "")), 30))
        default = structure.successor.get(src) == dst
        style = "" if default else ', style="dashed"'
        out.append(f'  "{quote(str(src))}" -> "{quote(str(dst))}" [label="{label}"{style}];')
    out.append("}")
    return out


class RulesDirective(SphinxDirective):
    """``.. arbiter-rules:: GAME``: the whole rules reference of a registered game."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        game_id = self.arguments[0]
        if not any(g == game_id for g, _ in data.registered_games()):
            raise self.error(f"{game_id!r} is not a registered game (spec.GAMES)")
        return parse(self, self.lines(game_id))

    def lines(self, game_id: str) -> list[str]:
        """The page as RST."""
        from spec import GAMES
        from spec.core.rulebook_lint import resolve, rule_anchor

        spec = data.game(game_id)
        book = spec.book
        index = list(book.index)
        ids = [e.id for e in index]
        checks = _checks(book)
        tests = data.test_citations(game_id)
        replays = data.replay_citations(game_id)
        refs = data.book_references(game_id)
        package = GAMES[game_id].split(":", 1)[0].rsplit(".", 1)[0].replace(".", "/")
        referred_by: dict[str, list[str]] = defaultdict(list)
        for rule_id, numbers in (refs or {}).items():
            for number in numbers:
                target = resolve(number, ids)
                if target is not None and rule_id in book.index and rule_id not in referred_by[target]:
                    referred_by[target].append(rule_id)

        example = index[0].id if index else "1.1"
        out = [
            f"This page is generated from ``{package}/`` each time the documentation is built. It lists",
            f"every rule ID of the game's rule index ({len(index)} rules), in the order of the book: a",
            "summary in the project's own words (the book is cited by number, never quoted), the rule's",
            "kind, how the specification handles it, where the code encodes it, the tests and shipped",
            "replays that exercise it, and the rules it refers to.",
            "",
            f"**Anchors.** Rule ``{game_id}:<id>`` is at ``rules-{game_id}.html#{game_id}-<id with dots as dashes>``,",
            f"for example :rule:`{game_id}:{example}` is ``rules-{game_id}.html#{rule_anchor(game_id, example)}``.",
            "Reports and other pages link to rules this way.",
            "",
            "**Status.** *encoded*: a precondition or a derived outcome of the specification implements",
            "the rule. *not checkable from a log*: a log cannot show the rule kept or broken (the reason",
            "is given). *missing*: a normative rule not encoded yet. Definitions, physical rules and",
            "informative text carry their kind instead, unless the code encodes them.",
            "",
        ]
        if refs is None:
            out += [".. note::", "",
                    "   The books are not beside the checkout (``../shared``), so the cross-references",
                    "   between rules could not be read at this build.", ""]
        out += self.coverage(game_id)
        out += self.turns(game_id)
        out += ["Rules", "-----", ""]
        current = None
        for entry in index:
            group = group_of(entry.id)
            if group != current:
                current = group
                size = sum(1 for e in index if group_of(e.id) == group)
                title = f"{group}: {size} rule{'s' if size != 1 else ''}"
                out += [esc(title), "~" * len(esc(title)), ""]
            out += self.rule(game_id, entry, checks, tests, replays, refs, referred_by, ids)
        return out

    def coverage(self, game_id: str) -> list[str]:
        """The coverage table of the game."""
        c = coverage_rows(game_id)
        rows = [
            ("normative rules", c["normative"], ""),
            ("encoded", c["encoded"], _percent(c["encoded"], c["normative"])),
            ("encoded and exercised by a test or a replay", c["exercised"], _percent(c["exercised"], c["normative"])),
            ("not checkable from a log", c["not checkable"], _percent(c["not checkable"], c["normative"])),
            ("missing", c["missing"], _percent(c["missing"], c["normative"])),
            ("definitions", c["definition"], ""),
            ("physical rules", c["physical"], ""),
            ("informative text", c["informative"], ""),
            ("all rule IDs", c["total"], ""),
        ]
        out = ["Coverage", "--------", "",
               ".. list-table:: Coverage of the rule index",
               "   :class: arbiter-coverage",
               "   :header-rows: 1",
               "",
               "   * - rules", "     - count", "     - share of the normative rules"]
        for label, count, share in rows:
            out += [f"   * - {label}", f"     - {count}", f"     - {share}"]
        return [*out, ""]

    def turns(self, game_id: str) -> list[str]:
        """The turn structure(s) as Graphviz diagrams, with their phases and rules."""
        out = ["Turn structure", "--------------", ""]
        structures = data.turn_structures(game_id)
        if not structures:
            return [*out, "The specification of this game declares no turn structure yet.", ""]
        for name, structure in structures:
            out += [f"From ``{name}``: each box is a phase or step, labelled with the rule that",
                    "describes it (click it to go there); solid arrows are the default order, dashed",
                    "arrows the alternatives a rule may take.", "",
                    ".. graphviz::",
                    f"   :caption: Turn structure ({esc(name.rsplit('.', 1)[-1])})",
                    "   :align: center",
                    "   :class: arbiter-turn",
                    ""]
            out += [f"   {line}" for line in _dot(game_id, name, structure)]
            out += ["", ".. list-table:: Phases and steps", "   :header-rows: 1", "",
                    "   * - phase or step", "     - rule", "     - next by default"]
            for node, rule in structure.nodes:
                out += [f"   * - {literal(node)}", f"     - {rule_role(rule, rule.split(':', 1)[-1]) if rule else ''}",
                        f"     - {literal(structure.successor.get(node, '')) or '–'}"]
            out.append("")
        return out

    def rule(self, game_id: str, entry: Any, checks: dict[str, list[tuple[str, str, str]]],
             tests: dict[str, tuple[str, ...]], replays: dict[str, tuple[str, ...]],
             refs: dict[str, tuple[str, ...]] | None, referred_by: dict[str, list[str]], ids: list[str]) -> list[str]:
        """One rule's block."""
        from spec.core.rulebook_lint import resolve, rule_anchor

        book = data.game(game_id).book
        status = book.status(entry.id)
        anchor = rule_anchor(game_id, entry.id)
        body = [f"`{entry.id} <#{anchor}>`__ · *{entry.kind}* · **{STATUS_TEXT.get(status, status)}**", ""]
        body += [esc(entry.summary) or "*(no summary)*", ""]
        fields: list[tuple[str, list[str]]] = []
        if entry.id in checks:
            fields.append(("Checks", [f"{literal(action)} requires: {esc(requires)} ({literal(function)})"
                                      for action, requires, function in checks[entry.id]]))
        if entry.id in book.encoded:
            fields.append(("Encoded by", [esc(what) for what in book.encoded[entry.id]]))
        if entry.not_checkable and status != "encoded":
            fields.append(("Not checkable", [esc(entry.not_checkable)]))
        if entry.id in tests:
            fields.append(("Tests", [literal(t) for t in tests[entry.id]]))
        if entry.id in replays:
            fields.append(("Replays", [literal(r) for r in replays[entry.id]]))
        if refs and entry.id in refs:
            items = []
            for number in refs[entry.id]:
                target = resolve(number, ids)
                if target is not None:
                    items.append(rule_role(f"{game_id}:{target}", number))
                else:
                    items.append(f"{esc(number)} (not in the book: see :ref:`the rulebook lint <lint-{game_id}>`)")
            fields.append(("Refers to", [", ".join(items)]))
        if referred_by.get(entry.id):
            fields.append(("Referred to by", [", ".join(rule_role(f"{game_id}:{r}", r) for r in referred_by[entry.id])]))
        for name, items in fields:
            if len(items) == 1:
                body.append(f":{name}: {items[0]}")
            else:
                body.append(f":{name}:")
                body += [f"   - {item}" for item in items]
        classes = f"arbiter-rule arbiter-status-{status.replace(' ', '-')}"
        return [f".. arbiter-box:: {anchor}", f"   :class: {classes}", "", *(f"   {line}" if line else "" for line in body), ""]


class CoverageDirective(SphinxDirective):
    """``.. arbiter-coverage::``: one table of every game's coverage, with the total."""

    def run(self) -> list[nodes.Node]:
        from spec.core.rulebook_lint import shared_games, shared_index

        out = [".. list-table:: Coverage of the normative rules, per game",
               "   :class: arbiter-coverage",
               "   :header-rows: 1",
               "",
               "   * - game", "     - normative", "     - encoded", "     - exercised by a test or replay",
               "     - not checkable", "     - missing", "     - encoded or not checkable"]
        total: defaultdict[str, int] = defaultdict(int)
        registered = [g for g, _ in data.registered_games()]
        for game_id, title in data.registered_games():
            c = coverage_rows(game_id)
            for key in ("normative", "encoded", "exercised", "not checkable", "missing"):
                total[key] += c[key]
            out += [f"   * - :doc:`{esc(title)} <rules-{game_id}>`", f"     - {c['normative']}", f"     - {c['encoded']}",
                    f"     - {c['exercised']}", f"     - {c['not checkable']}", f"     - {c['missing']}",
                    f"     - {_percent(c['encoded'] + c['not checkable'], c['normative'])}"]
        for game_id in shared_games(data.shared()):
            if game_id in registered:
                continue
            normative = sum(1 for row in shared_index(game_id, data.shared()) if row.get("kind") == "normative")
            total["normative"] += normative
            total["missing"] += normative
            out += [f"   * - {literal(game_id)} (no specification registered yet)", f"     - {normative}", "     - 0",
                    "     - 0", "     - 0", f"     - {normative}", f"     - {_percent(0, normative)}"]
        out += ["   * - **all games**", f"     - {total['normative']}", f"     - {total['encoded']}",
                f"     - {total['exercised']}", f"     - {total['not checkable']}", f"     - {total['missing']}",
                f"     - {_percent(total['encoded'] + total['not checkable'], total['normative'])}", ""]
        return parse(self, out)


def setup(app: Sphinx) -> None:
    """Register the directives."""
    app.add_directive("arbiter-rules", RulesDirective)
    app.add_directive("arbiter-coverage", CoverageDirective)
