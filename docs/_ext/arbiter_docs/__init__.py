"""Sphinx extension: the parts of the tcg-arbiter docs generated from the code at build time.

* a rules reference page per registered game (``rules-<game>.html``), written as a stub
  page at ``builder-inited`` for every game of :data:`spec.GAMES` and filled by the
  ``arbiter-rules`` directive (:mod:`.rules`): every rule of the game's index with its
  summary, kind, status, encoding, tests, replays and cross-references, the turn
  structure as an SVG, and the coverage table;
* ``arbiter-coverage``: the coverage of every game in one table;
* ``arbiter-cli``: the CLI reference, from the typer app (:mod:`.cli`);
* ``arbiter-events``: the event vocabulary of every game, from its msgspec types, with
  JSON Schema files written beside the HTML (:mod:`.events`);
* ``arbiter-grammar``: the card-text grammars, from ``grammar/*.lark`` (:mod:`.grammar`);
* ``arbiter-rulebook-lint``: the rulebook lint of every game (:mod:`.lint`);
* the ``:rule:`` role (``:rule:`neopets:7.11.4.p2```), a link to a rule's anchor.

Every page that uses one of these directives is read again on every build, so the
generated content always follows the code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from . import cli, events, grammar, links, lint, rules
from .data import GENERATED_MARK, clear_caches, registered_games

STATIC = Path(__file__).resolve().parent / "static"


def _write_stubs(app: Sphinx) -> None:
    """Write ``rules-<game>.rst`` for every registered game; drop stubs of games gone."""
    clear_caches()
    srcdir = Path(app.srcdir)
    wanted: dict[Path, str] = {}
    for game, title in registered_games():
        heading = f"{title}: rules reference"
        wanted[srcdir / f"rules-{game}.rst"] = (
            f"{GENERATED_MARK}\n\n{heading}\n{'=' * len(heading)}\n\n.. arbiter-rules:: {game}\n")
    for path, text in wanted.items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            tmp = path.with_suffix(".rst.tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)
    for path in srcdir.glob("rules-*.rst"):
        if path not in wanted and path.read_text(encoding="utf-8").startswith(GENERATED_MARK):
            path.unlink()


def _outdated(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]) -> list[str]:
    """Pages with generated content are always read again: the code they show may have changed."""
    again = []
    for docname in env.found_docs:
        path = Path(env.doc2path(docname))
        try:
            if ".. arbiter-" in path.read_text(encoding="utf-8"):
                again.append(docname)
        except OSError:
            continue
    return sorted(set(again) - added - changed)


def _unindexed_objects_have_no_source_link(app: Sphinx, doctree: nodes.document) -> None:
    """Keep viewcode from linking back to objects documented with ``:no-index:``.

    Such objects have no anchor, so viewcode's "[docs]" link from the source page would
    be broken; without a module name on their signatures viewcode skips them.
    """
    for desc in doctree.findall(addnodes.desc):
        if desc.get("no-index") or desc.get("noindex"):
            for signature in desc.findall(addnodes.desc_signature):
                signature["module"] = None


def _config_inited(app: Sphinx, config: Any) -> None:
    config.html_static_path = [*config.html_static_path, str(STATIC)]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directives, the role and the build hooks."""
    app.setup_extension("sphinx.ext.graphviz")
    app.connect("config-inited", _config_inited)
    app.connect("builder-inited", _write_stubs)
    app.connect("env-get-outdated", _outdated)
    app.connect("doctree-read", _unindexed_objects_have_no_source_link, priority=400)
    app.add_css_file("arbiter.css")
    links.setup(app)
    rules.setup(app)
    cli.setup(app)
    events.setup(app)
    grammar.setup(app)
    lint.setup(app)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
