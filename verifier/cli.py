"""The ``arbiter`` command line.

Exit codes: 0 when everything is legal (or matches its expectation), 1 when there are
findings, 2 for bad input or usage.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="tcg-arbiter: rules specification and replay verifier for five trading card games.")


def _replay_files(paths: list[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*.jsonl") if p.is_file()))
        elif path.exists():
            found.append(path)
        else:
            typer.echo(f"arbiter: {path}: no such file or folder", err=True)
            raise typer.Exit(2)
    return found


@app.command()
def verify(
    paths: Annotated[list[Path], typer.Argument(help="Replay files or folders of *.jsonl replays.")],
    format: Annotated[str, typer.Option("--format", "-f", help="text or json")] = "text",
    keep_going: Annotated[bool, typer.Option("--keep-going", help="Go on after the first illegal move.")] = False,
    check_expect: Annotated[bool, typer.Option("--check-expect", help="Compare each report with the 'expect' of its header.")] = False,
    cards: Annotated[Path | None, typer.Option("--cards", help="Use this card database file instead of the header's.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the summary (text format).")] = False,
) -> None:
    """Verify replays and report every illegal move, wrong claim and impossible reveal."""
    from verifier import report as R
    from verifier.replay import HeaderReader, read
    from verifier.verify import expectation_matches, verify_file

    if format not in ("text", "json"):
        typer.echo(f"arbiter: unknown format {format!r} (text or json)", err=True)
        raise typer.Exit(2)
    files = _replay_files(paths)
    if not files:
        typer.echo("arbiter: no replay files found", err=True)
        raise typer.Exit(2)
    reports = []
    mismatches = 0
    for path in files:
        report = verify_file(path, keep_going=keep_going, cards=cards)
        reports.append(report)
        if check_expect:
            header = read(path, HeaderReader()) if report.verdict != "malformed" or report.events else None
            ok, why = expectation_matches(report, header.expect if header else None) if header else (False, "unreadable header")
            if not ok:
                mismatches += 1
            if format == "text" and (not ok or not quiet):
                typer.echo(f"{'ok  ' if ok else 'FAIL'} {path}: {report.verdict}" + ("" if ok else f" ({why})"))
            continue
        if format == "json":
            sys.stdout.buffer.write(R.to_json(report) + b"\n")
        elif not quiet:
            typer.echo(R.to_text(report))
    if format == "text":
        typer.echo(R.summary(reports))
    if check_expect:
        if format == "text":
            typer.echo(f"{len(files) - mismatches} of {len(files)} replays match their expected verdict")
        raise typer.Exit(1 if mismatches else 0)
    if any(r.verdict == "malformed" for r in reports) and all(r.verdict in ("malformed", "legal") for r in reports):
        raise typer.Exit(2)
    raise typer.Exit(0 if all(r.verdict == "legal" for r in reports) else 1)


@app.command()
def rules(
    game: Annotated[str, typer.Argument(help="Game id, e.g. neopets.")],
    rule_id: Annotated[str | None, typer.Argument(help="One rule id to show in full.")] = None,
    coverage: Annotated[bool, typer.Option("--coverage", help="Counts of encoded, not checkable and missing normative rules.")] = False,
) -> None:
    """List a game's rule ids with how the spec handles each."""
    from spec import load_game

    try:
        spec = load_game(game)
    except KeyError as error:
        typer.echo(f"arbiter: {error.args[0]}", err=True)
        raise typer.Exit(2) from None
    book = spec.book
    if coverage:
        counts = book.coverage()
        total = sum(counts.values())
        typer.echo(f"{game}: {total} normative rules")
        for key, n in counts.items():
            typer.echo(f"  {key:14} {n}")
        raise typer.Exit(0)
    encoded = book.encoded_ids()
    if rule_id is not None:
        entry = book.index.entries.get(rule_id)
        if entry is None:
            typer.echo(f"arbiter: {game} has no rule {rule_id!r}", err=True)
            raise typer.Exit(2)
        typer.echo(f"{game}:{entry.id} ({entry.kind}) - {book.status(entry.id)}")
        typer.echo(f"  {entry.summary}")
        if entry.not_checkable:
            typer.echo(f"  not checkable: {entry.not_checkable}")
        for where in encoded.get(entry.id, []):
            typer.echo(f"  encoded by: {where}")
        raise typer.Exit(0)
    for entry in book.index:
        typer.echo(f"{entry.id:14} {book.status(entry.id):14} {entry.summary}")


@app.command()
def card(
    text: Annotated[str | None, typer.Argument(help="Card text to parse.")] = None,
    game: Annotated[str, typer.Option("--game", "-g", help="Game id.")] = "neopets",
    card_type: Annotated[str | None, typer.Option("--type", help="Card type (decides Spell vs Activated for 'cost; effect').")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the tree as JSON.")] = False,
) -> None:
    """Parse card text into its effect tree, or show where and why it does not parse."""
    from grammar import ast as A
    from grammar.parser import CardTextError, parse

    if text is None:
        typer.echo("arbiter: give the card text", err=True)
        raise typer.Exit(2)
    try:
        tree = parse(text, game, card_type=card_type)
    except CardTextError as error:
        typer.echo(str(error), err=True)
        raise typer.Exit(1) from None
    except (KeyError, ValueError) as error:
        typer.echo(f"arbiter: {error.args[0] if error.args else error}", err=True)
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(A.to_json(tree).decode())
    else:
        import msgspec

        typer.echo(msgspec.json.format(A.to_json(tree), indent=2).decode())


def main() -> None:
    """Entry point of the ``arbiter`` console script."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
