"""The generated documentation, checked as a reader would: pages, diagrams, links, schemas.

The docs are built once for the module with ``arbiter docs -o DIR`` (Sphinx with warnings
as errors) into a temporary folder; every test reads that one build.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit
from xml.etree import ElementTree

import pytest
from docutils.nodes import make_id

from spec import GAMES, load_game
from spec.core.rulebook_lint import rule_anchor, shared_dir

ROOT = Path(__file__).resolve().parent.parent
SEED_OVERLAP = ROOT.parent / "shared" / "tools" / "seed_overlap.py"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("docs") / "html"
    arbiter = "import sys; from verifier.cli import main; sys.argv[0] = 'arbiter'; main()"
    result = subprocess.run([sys.executable, "-c", arbiter, "docs", "-o", str(out)],
                            cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, f"arbiter docs failed:\n{result.stdout}\n{result.stderr}"
    assert f"documentation built: {out / 'index.html'}" in result.stdout
    return out


class _Page(HTMLParser):
    """The ids of a page and the links it makes (href, src, data)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name"):
                self.ids.add(value)
            elif name in ("href", "src") or name.endswith(":href") or (tag == "object" and name == "data"):
                self.links.append(value)


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8", errors="replace"))
    return page


def _pages(site: Path) -> Iterator[Path]:
    yield from sorted(site.rglob("*.html"))
    yield from sorted(site.rglob("*.svg"))


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# ------------------------------------------------------------------ the rules pages


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_has_a_rules_page_with_every_rule(site: Path, game: str) -> None:
    page = site / f"rules-{game}.html"
    assert page.is_file(), f"no rules page for {game}"
    parsed = _parse(page)
    for entry in load_game(game).book.index:
        anchor = rule_anchor(game, entry.id)
        assert anchor in parsed.ids, f"{game}: rule {entry.id} has no anchor {anchor}"
        assert f">{entry.id}</a>" in _text(page), f"{game}: rule {entry.id} is not shown"


@pytest.mark.parametrize("game", list(GAMES))
def test_every_rules_page_has_its_turn_diagram_and_coverage_table(site: Path, game: str) -> None:
    page = site / f"rules-{game}.html"
    text = _text(page)
    assert 'class="arbiter-coverage' in text or "arbiter-coverage" in text
    for label in ("encoded", "not checkable from a log", "missing"):
        assert f"<p>{label}</p>" in text, f"{game}: the coverage table has no row {label!r}"
    diagrams = re.findall(r'<object data="(_images/graphviz-[0-9a-f]+\.svg)" type="image/svg\+xml"', text)
    assert diagrams, f"{game}: no turn-structure SVG"
    for diagram in diagrams:
        root = ElementTree.parse(site / diagram).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg", f"{game}: {diagram} is not an SVG"


def test_the_rules_overview_covers_every_game(site: Path) -> None:
    text = _text(site / "rules.html")
    for game in GAMES:
        assert f'href="rules-{game}.html"' in text
    assert "all games" in text


def test_cross_references_link_to_rules_and_flag_missing_ones(site: Path) -> None:
    if shared_dir() is None:
        pytest.skip("../shared is not beside the checkout")
    text = _text(site / "rules-neopets.html")
    block = text[text.index('id="neopets-5-5-7e"'):]
    block = block[: block.index("</div>")]
    assert "2.7.1" in block and 'href="rulebook-lint.html#lint-neopets"' in block


# ------------------------------------------------------------------ links


def test_no_internal_link_is_broken(site: Path) -> None:
    pages = {path: _parse(path) for path in _pages(site)}
    broken: list[str] = []
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("mailto:", "javascript:", "data:")):
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{path.relative_to(site)}: {link} (no such file)")
                continue
            if parts.fragment and target.suffix in (".html", ".svg"):
                ids = pages[target].ids if target in pages else _parse(target).ids
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{path.relative_to(site)}: {link} (no such anchor)")
    assert not broken, "broken links:\n" + "\n".join(broken[:40])


# ------------------------------------------------------------------ the other generated pages


def test_cli_reference_lists_every_command(site: Path) -> None:
    import typer.main

    from verifier.cli import app

    ids = _parse(site / "cli.html").ids
    for name in typer.main.get_command(app).commands:  # type: ignore[attr-defined]
        assert f"cli-{name}" in ids, f"arbiter {name} is not in the CLI reference"


def test_json_schemas_exist_are_valid_and_linked(site: Path) -> None:
    page = _text(site / "replay-events.html")
    files = ["schemas/replay-header.schema.json", *(f"schemas/replay-{game}-event.schema.json" for game in GAMES)]
    for name in files:
        schema = json.loads((site / name).read_text(encoding="utf-8"))
        assert schema["$schema"].startswith("https://json-schema.org/")
        assert "$defs" in schema or "properties" in schema
        assert f'href="{name}"' in page, f"{name} is not linked from the events page"
    for game in GAMES:
        for do in load_game(game).event_kinds:
            assert f'id="{make_id(f"event-{game}-{do}")}"' in page, f"{game}: event {do} is not documented"


def test_grammar_reference_and_lint_pages(site: Path) -> None:
    grammar = _parse(site / "grammar-reference.html").ids
    for lark in sorted((ROOT / "grammar").glob("*.lark")):
        assert f"grammar-{lark.stem}" in grammar
    lint = _text(site / "rulebook-lint.html")
    for game in GAMES:
        assert f'id="{make_id(f"lint-{game}")}"' in lint
    if shared_dir() is None:
        assert "../shared" in lint


def test_the_built_pages_copy_no_book_sentence(site: Path) -> None:
    if not SEED_OVERLAP.is_file():
        pytest.skip("../shared/tools/seed_overlap.py is not beside the checkout")
    result = subprocess.run([sys.executable, str(SEED_OVERLAP), str(site)], capture_output=True, text=True,
                            timeout=600, check=False)
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout[:4000]
