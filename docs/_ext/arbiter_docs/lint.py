"""The rulebook lint of every game (``.. arbiter-rulebook-lint::``), run at build time.

One section per game (id ``lint-<game>``): the registered games, then the other games
of ``../shared/rules``. Each lists the findings of :func:`spec.core.rulebook_lint.lint_game`
(rule, kind, severity, line of the book, message) and the checks that were skipped.
The messages are the project's words; at most a rule number or a term of the book is
quoted.
"""

from __future__ import annotations

from collections import Counter

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from . import data
from .links import esc, literal, parse, rule_role


def lint_games() -> list[tuple[str, str]]:
    """``(id, title)``: the registered games, then the other games of the shared index."""
    from spec.core.rulebook_lint import shared_games

    games = list(data.registered_games())
    known = {g for g, _ in games}
    games += [(g, g) for g in shared_games(data.shared()) if g not in known]
    return games


class RulebookLintDirective(SphinxDirective):
    """``.. arbiter-rulebook-lint::``: the lint report of every game."""

    def run(self) -> list[nodes.Node]:
        from spec.core.rulebook_lint import lint_game

        out: list[str] = []
        if data.shared() is None:
            out += [".. note::", "",
                    "   The books are not beside the checkout (``../shared`` is absent), so this build",
                    "   could only run the checks that need no book text: the numbering of the rule",
                    "   IDs and the contradictions the specifications registered.", ""]
        registered = {g for g, _ in data.registered_games()}
        summary = [".. list-table:: Findings per game", "   :header-rows: 1", "", "   * - game", "     - book read",
                   "     - errors", "     - warnings", "     - notes", "     - findings by kind"]
        sections: list[str] = []
        for game_id, title in lint_games():
            report = lint_game(game_id)
            counts = report.counts()
            severities = Counter(f.severity for f in report.findings)
            by_kind = ", ".join(f"{n} {kind}" for kind, n in counts.items()) or "none"
            summary += [f"   * - :ref:`{esc(title)} <lint-{game_id}>`", f"     - {'yes' if report.book else 'no'}",
                        *(f"     - {severities.get(s, 0)}" for s in ("error", "warning", "note")), f"     - {esc(by_kind)}"]
            heading = title if game_id in registered else f"{game_id} (no specification registered yet)"
            sections += [f".. _lint-{game_id}:", "", esc(heading), "-" * len(esc(heading)), ""]
            source = f"the book {literal(report.book)}" if report.book else "no book (only the index-only checks ran)"
            sections += [f"Read: {source}, with the rule index {literal(report.index)}.", ""]
            if report.findings:
                sections += [f".. list-table:: {len(report.findings)} finding(s)", "   :header-rows: 1",
                             "   :widths: 18 18 9 7 48", "   :class: arbiter-lint", "",
                             "   * - rule", "     - kind", "     - severity", "     - line", "     - what is wrong"]
                for f in report.findings:
                    game, _, rule_id = f.rule.partition(":")
                    rule = rule_role(f.rule, rule_id) if game in registered and data.rule_exists(game, rule_id) else literal(rule_id)
                    sections += [f"   * - {rule}", f"     - {literal(f.kind)}", f"     - {esc(f.severity)}",
                                 f"     - {f.line if f.line is not None else '–'}", f"     - {esc(f.message)}"]
                sections.append("")
            else:
                sections += ["No finding.", ""]
            for skipped in report.skipped:
                sections += [f"- Skipped {esc(skipped)}"]
            if report.skipped:
                sections.append("")
        return parse(self, [*out, *summary, "", *sections])


def setup(app: Sphinx) -> None:
    """Register the directive."""
    app.add_directive("arbiter-rulebook-lint", RulebookLintDirective)
