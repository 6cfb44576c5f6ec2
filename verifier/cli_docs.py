"""``arbiter docs`` and ``arbiter rulebook-lint``: the commands of rules editors.

``arbiter docs`` builds the Sphinx documentation (warnings are errors), including the
rules reference of every registered game generated from ``spec/``.
``arbiter rulebook-lint GAME`` reports the defects of a game's rulebook itself
(:mod:`spec.core.rulebook_lint`).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Annotated

import typer

from verifier.cli import app

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


@app.command()
def docs(
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Folder to write the HTML to (default: docs/_build/html).")] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Show Sphinx's progress, not only its warnings.")] = False,
) -> None:
    """Build the documentation, rules reference included, with warnings as errors; print where it is.

    Runs ``sphinx-build -W --keep-going -b html`` on the project's docs folder. Exit code
    0 when the build is clean, 1 when Sphinx reports a warning or an error, 2 when the
    docs sources or Sphinx are not available.
    """
    if not (DOCS / "conf.py").is_file():
        typer.echo(f"arbiter: the documentation sources are not here ({DOCS}); run from a checkout", err=True)
        raise typer.Exit(2)
    try:
        import sphinx  # noqa: F401
    except ImportError:
        typer.echo("arbiter: Sphinx is not installed (pip install 'tcg-arbiter[docs]')", err=True)
        raise typer.Exit(2) from None
    out = (output or DOCS / "_build" / "html").resolve()
    # Sphinx keeps its cache beside the default output; inside a chosen folder (.doctrees).
    doctrees = DOCS / "_build" / "doctrees" if output is None else out / ".doctrees"
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html", "-d", str(doctrees), str(DOCS), str(out)]
    if not verbose:
        command.insert(3, "-q")
    result = subprocess.run(command, cwd=ROOT, check=False)
    if result.returncode != 0:
        typer.echo("arbiter: the documentation build failed (see the messages above)", err=True)
        raise typer.Exit(1)
    typer.echo(f"documentation built: {out / 'index.html'}")
    rules = sorted(p.name for p in out.glob("rules-*.html"))
    if rules:
        typer.echo(f"rules reference: {', '.join(rules)}")


@app.command("rulebook-lint")
def rulebook_lint(
    game: Annotated[str, typer.Argument(help="Game id, e.g. neopets or bakugan.")],
    book: Annotated[Path | None, typer.Option("--book", help="The rulebook's text file (default: the game's book in ../shared/seeds).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object.")] = False,
) -> None:
    """Report defects of a game's rulebook itself: dangling or off-topic cross-references,
    repeated or out-of-order rule numbers, undefined terms, inconsistent spellings and
    rules the spec found contradictory.

    Without a book (none given and none beside the checkout) only the checks that need no
    book text run, and the report says which were skipped. Exit code 0 when the book has
    no defect, 1 when it has some, 2 for an unknown game or an unreadable book.
    """
    import msgspec

    from spec.core.rulebook_lint import lint_game, to_text

    if book is not None and not book.is_file():
        typer.echo(f"arbiter: {book}: no such file", err=True)
        raise typer.Exit(2)
    try:
        report = lint_game(game, book)
    except KeyError as error:
        typer.echo(f"arbiter: {error.args[0]}", err=True)
        raise typer.Exit(2) from None
    except OSError as error:
        typer.echo(f"arbiter: {book}: {error.strerror or error}", err=True)
        raise typer.Exit(2) from None
    if as_json:
        sys.stdout.buffer.write(msgspec.json.encode(report) + b"\n")
    else:
        typer.echo(to_text(report))
    raise typer.Exit(1 if report.findings else 0)
