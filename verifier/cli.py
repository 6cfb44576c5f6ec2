"""The ``arbiter`` command line.

Exit codes: 0 when everything is legal (or matches its expectation), 1 when there are
findings, 2 for bad input or usage.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
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
    format: Annotated[str, typer.Option("--format", "-f", help="text, json, html (one self-contained page) or junit (XML for CI systems)")] = "text",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the report here (html and junit; default: standard output).")] = None,
    keep_going: Annotated[bool, typer.Option("--keep-going", help="Go on after the first illegal move.")] = False,
    check_expect: Annotated[bool, typer.Option("--check-expect", help="Compare each report with the 'expect' of its header.")] = False,
    cards: Annotated[Path | None, typer.Option("--cards", help="Use this card database file instead of the header's.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the summary (text format).")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Verify in this many worker processes.")] = 1,
    results: Annotated[Path | None, typer.Option("--results", help="Append each replay's JSON report to this JSON Lines file as soon as it is done.")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Skip replays whose report is already in the --results file.")] = False,
    dask: Annotated[str | None, typer.Option("--dask", help="Run on a Dask distributed cluster: its scheduler address (tcp://HOST:PORT), or 'local' for one started on this machine.")] = None,
    progress: Annotated[bool | None, typer.Option("--progress/--no-progress", help="A progress bar (default: when the terminal shows it).")] = None,
    docs_url: Annotated[str, typer.Option("--docs-url", help="html: base URL of the rules reference that rule citations link to "
                                          "(rules-<game>.html#<game>-<id with dashes>), relative to the report or absolute.")] = "docs/_build/html/",
) -> None:
    """Verify replays and report every illegal move, wrong claim and impossible reveal.

    A batch runs in parallel with --jobs (or on a Dask cluster with --dask); each
    report goes to the --results file as soon as it is done, --resume skips the ones
    already there, and a summary table (verdicts per game, most broken rules) ends it.
    """
    from verifier import report as R
    from verifier.batch import verify_many
    from verifier.replay import HeaderReader, read
    from verifier.verify import expectation_matches

    if resume and results is None:
        typer.echo("arbiter: --resume needs --results FILE", err=True)
        raise typer.Exit(2)

    if format not in ("text", "json", "html", "junit"):
        typer.echo(f"arbiter: unknown format {format!r} (text, json, html or junit)", err=True)
        raise typer.Exit(2)
    files = _replay_files(paths)
    if not files:
        typer.echo("arbiter: no replay files found", err=True)
        raise typer.Exit(2)
    if resume and results is not None:
        from verifier.batch import done_in

        skipped = len({str(f) for f in files} & done_in(results))
        if skipped:
            typer.echo(f"arbiter: {skipped} replay(s) already reported in {results}: skipped", err=True)
    reports = []
    mismatches = 0
    show_bar = progress if progress is not None else (sys.stderr.isatty() and len(files) > 1)
    bar = _progress_bar(len(files)) if show_bar else None
    stream = verify_many(files, jobs=jobs, keep_going=keep_going, cards=cards, results=results, resume=resume,
                         scheduler=dask, on_done=(lambda _r: bar.advance()) if bar is not None else None)
    if bar is not None:
        bar.start()
    for report in stream:
        path = Path(report.replay)
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
        elif format == "text" and not quiet:
            typer.echo(R.to_text(report))
    if bar is not None:
        bar.stop()
    if format in ("html", "junit"):
        from verifier import report_html, report_junit

        page = (report_html.render(reports, files, docs_url=docs_url, keep_going=keep_going, cards=cards) if format == "html"
                else report_junit.render(reports))
        if output is not None:
            output.write_bytes(page)
        else:
            sys.stdout.buffer.write(page)
    if format == "text":
        if len(reports) > 1 and not check_expect:
            from rich.console import Console

            from verifier.batch import summary_table

            console = Console(highlight=False)
            for table in summary_table(reports):
                console.print(table)
        else:
            typer.echo(R.summary(reports))
    if check_expect:
        if format == "text":
            typer.echo(f"{len(files) - mismatches} of {len(files)} replays match their expected verdict")
        raise typer.Exit(1 if mismatches else 0)
    if any(r.verdict == "malformed" for r in reports) and all(r.verdict in ("malformed", "legal") for r in reports):
        raise typer.Exit(2)
    raise typer.Exit(0 if all(r.verdict == "legal" for r in reports) else 1)


class _Bar:
    """A rich progress bar on standard error, advanced once per finished replay."""

    def __init__(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.progress = Progress(TextColumn("verifying"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                                 console=Console(stderr=True), transient=True)
        self.task = self.progress.add_task("verify", total=total)

    def start(self) -> None:
        self.progress.start()

    def advance(self) -> None:
        self.progress.advance(self.task)

    def stop(self) -> None:
        self.progress.stop()


def _progress_bar(total: int) -> _Bar:
    return _Bar(total)


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
    text: Annotated[str | None, typer.Argument(help="Card text to parse (one ability per line).")] = None,
    game: Annotated[str, typer.Option("--game", "-g", help="Game id.")] = "neopets",
    card_type: Annotated[str | None, typer.Option("--type", help="Card type (decides how plain and 'cost; effect' lines are read).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the tree as JSON.")] = False,
    batch: Annotated[Path | None, typer.Option("--batch", help="A JSON Lines file of objects with a 'text' (and 'name', 'type').")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="With --batch: write the results here instead of standard output.")] = None,
) -> None:
    """Parse card text into its effect tree, or show where and why it does not parse.

    With --batch, read a card pool and write one JSON result per line: name, parsed,
    unknown (how many parts no template covers), error (line, column, caret, expected).
    """
    from grammar import ast as A
    from grammar.parser import GAMES, CardTextError, parse

    if game not in GAMES:
        typer.echo(f"arbiter: unknown game {game!r}; known games: {', '.join(GAMES)}", err=True)
        raise typer.Exit(2)
    if batch is not None:
        raise typer.Exit(_card_batch(batch, game, output))
    if text is None:
        typer.echo("arbiter: give the card text (or --batch FILE)", err=True)
        raise typer.Exit(2)
    try:
        tree = parse(text, game, card_type=card_type)
    except CardTextError as error:
        typer.echo(str(error), err=True)
        raise typer.Exit(1) from None
    except (KeyError, ValueError) as error:
        typer.echo(f"arbiter: {error.args[0] if error.args else error}", err=True)
        raise typer.Exit(2) from None
    typer.echo(A.to_json(tree).decode() if as_json else A.outline(tree))


def _card_batch(path: Path, game: str, output: Path | None) -> int:
    """``arbiter card --batch``: 0 when every text parses, 1 when some do not, 2 for bad input."""
    import json

    import msgspec

    from grammar.lint import BatchResult, batch_result

    try:
        handle = path.open(encoding="utf-8")
    except OSError as error:
        typer.echo(f"arbiter: {path}: {error.strerror}", err=True)
        return 2
    out = output.open("wb") if output is not None else sys.stdout.buffer
    failed = total = 0
    try:
        with handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                total += 1
                try:
                    result = batch_result(json.loads(line), game, number)
                except json.JSONDecodeError as error:
                    result = BatchResult(None, False, 0, f"{path}:{number}: not JSON: {error.msg}", number)
                failed += not result.parsed
                out.write(msgspec.json.encode(result) + b"\n")
    except UnicodeDecodeError:
        typer.echo(f"arbiter: {path}: not UTF-8 text", err=True)
        return 2
    finally:
        if output is not None:
            out.close()
    typer.echo(f"{total - failed} of {total} texts parse", err=True)
    return 1 if failed else 0


@app.command()
def lint(
    path: Annotated[Path, typer.Argument(help="A card file: our TOML format or a JSON Lines card pool.")],
    game: Annotated[str | None, typer.Option("--game", "-g", help="Game id (default: the TOML file's game).")] = None,
    against: Annotated[list[Path] | None, typer.Option("--against", help="More card files whose names may be referred to.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON finding per line.")] = False,
) -> None:
    """Check a card file's wording: parse failures, non-canonical wording (with the fix),
    names that match no card, terms of another game, and ambiguous 'it'/'that'; and note
    the cards whose text parses but which the rules specification does not run yet."""
    import msgspec

    from grammar.lint import LintFinding, lint_card, name_exists
    from grammar.parser import GAMES
    from spec import GAMES as SPECS
    from spec import load_game
    from spec.core.cards import CardDatabase, CardFileError, shipped_database

    try:
        database = CardDatabase.load(path, game)
    except CardFileError as error:
        typer.echo(f"arbiter: {error}", err=True)
        raise typer.Exit(2) from None
    game = game or database.game
    if game not in GAMES:
        typer.echo(f"arbiter: unknown game {game!r}; give --game ({', '.join(GAMES)})", err=True)
        raise typer.Exit(2)
    names = set(database.cards)
    others = list(against or [])
    shipped = shipped_database(game, "base")
    if shipped.exists():
        others.append(shipped)
    for other in others:
        try:
            names |= set(CardDatabase.load(other, game).cards)
        except CardFileError as error:
            typer.echo(f"arbiter: {error}", err=True)
            raise typer.Exit(2) from None
    spec = load_game(game) if game in SPECS else None
    count = notes = 0
    for card_def in database:
        findings = lint_card(card_def.name, card_def.text, game, card_def.type or None,
                             known=lambda ref, partial: name_exists(ref, partial, names))
        if spec is not None and not any(f.kind == "parse" for f in findings):
            why = spec.unsupported(database, card_def.name)
            if why is not None:
                findings.append(LintFinding(card_def.name, "meaning", "note",
                                            f"the rules specification does not run this card yet: {why}; "
                                            "a replay that plays it is reported unverifiable there"))
        for finding in findings:
            if finding.severity == "note":
                notes += 1
            else:
                count += 1
            if as_json:
                sys.stdout.buffer.write(msgspec.json.encode(finding) + b"\n")
                continue
            where = f"line {finding.line}" + (f", column {finding.column}" if finding.column else "") if finding.line else ""
            typer.echo(f"{path}: {card_def.name}: {finding.severity} [{finding.kind}] {finding.message}" + (f" ({where})" if where else ""))
            if finding.expected:
                typer.echo(f"    expected: {', '.join(finding.expected)}")
            if finding.fix is not None:
                typer.echo("    canonical: " + finding.fix.replace("\n", "\n               "))
    if not as_json:
        typer.echo(f"{len(database)} cards, {count} finding(s)" + (f", {notes} note(s)" if notes else ""))
    raise typer.Exit(1 if count else 0)


# Commands kept in their own modules register themselves on ``app`` when imported.
from verifier import cli_conflicts, cli_docs, cli_scale  # noqa: F401


def help_of(doc: str) -> str:
    """A command's docstring as its ``--help`` text.

    Each paragraph becomes one line, so that the terminal's width wraps it: Typer's help
    keeps a docstring's own line breaks after its first paragraph, which a terminal of
    another width then breaks a second time mid-line. RST literals (double backquotes)
    lose their quotes, which the terminal would show as they are.
    """
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(" ".join(paragraph.split()) for paragraph in paragraphs).replace("``", "")


for _command in app.registered_commands:
    if _command.help is None and _command.callback is not None and _command.callback.__doc__:
        _command.help = help_of(_command.callback.__doc__)


def main() -> None:
    """Entry point of the ``arbiter`` console script."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
