"""``arbiter simulate`` and ``arbiter bench``: random legal games, and measured speed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from verifier.cli import app


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="Game id.")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games to play.")] = 1,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the first game (game i uses seed + i).")] = 1,
    out: Annotated[Path, typer.Option("--output", "-o", help="Folder to write the replays to.")] = Path("simulated"),
    passes: Annotated[str, typer.Option("--passes", help="explicit (every pass logged) or implicit (left out, but for those the verifier could not infer back)")] = "explicit",
    claims: Annotated[bool, typer.Option("--claims", help="Add the derived facts (damage, winners) as claims.")] = False,
    prefer: Annotated[list[str] | None, typer.Option(
        "--prefer", metavar="CARD",
        help="A card to try out (repeat for more): the decks are drawn to hold it and it is played whenever it may be.")] = None,
    cards: Annotated[Path | None, typer.Option(
        "--cards", metavar="FILE",
        help="Build the decks from this card database (TOML or JSON Lines) instead of the game's shipped one.")] = None,
    hold: Annotated[bool, typer.Option(
        "--hold/--no-hold",
        help="Put a --prefer card away only when nothing else but passing is left (default); with --no-hold, every move "
             "naming it is favoured, putting it away too.")] = True,
) -> None:
    """Play random legal games through the spec's legal moves, with random legal decks, as replay files.

    The same seed gives the same files, byte for byte. A move that would bring two card effects
    into a clash no rule settles is drawn again (the verifier could not call that game legal);
    when every move left would (or would end the game by a player's choice), the simulator
    goes back up to 8 decisions and plays on another way; a game with no way on stops there.

    With --prefer, each player's deck is drawn (by the game's own deck builder, so within
    the construction rules, built around the cards where the builder knows what they need:
    a Bakugan team holds a Character each Evo named evolves from) until it holds every card
    named, or else the most of them; a
    card no deck holds is an error (exit 2). Such a card is put away (discarded, energized...)
    only when nothing else but passing is left; with --no-hold, every move naming it is favoured,
    discarding or energizing it too (to try out what a card does as it is discarded). The cards are recorded in each header's meta,
    and how many moves named each card, of which kinds, in how many games, is printed.
    With --cards, the headers name the file by its path from the output folder; cards whose
    text the spec does not read, or with an ability it gives no meaning to, are left out of
    the decks (no move could play one and be judged), and they are listed. A move the spec cannot judge is drawn again, as a clash is.
    Should the spec fail on a game (an error, a bug of the spec), that game is not written, the
    others are, and the seed and error are printed (exit 1).
    """
    from spec import GAMES
    from spec.core.cards import CardDatabase, CardFileError
    from verifier.simulate import SimulationError, SimulationFault, kept_out, moves_naming, write_games

    if game not in GAMES:
        typer.echo(f"arbiter: no spec for {game!r}; games with one: {', '.join(sorted(GAMES))}", err=True)
        raise typer.Exit(2)
    if passes not in ("explicit", "implicit"):
        typer.echo("arbiter: --passes is explicit or implicit", err=True)
        raise typer.Exit(2)
    try:
        written = write_games(game, games, seed, out, passes=passes, claims=claims, prefer=tuple(prefer or ()), card_file=cards,
                              keep=hold)
    except (SimulationError, CardFileError) as error:
        typer.echo(f"arbiter: {error}", err=True)
        raise typer.Exit(2) from None
    except SimulationFault as fault:
        typer.echo(f"{len(fault.written)} game(s) written to {out}")
        for failed, why in fault.faults:
            typer.echo(f"arbiter: the spec failed while playing the game of seed {failed} ({why}); that game was not "
                       f"written. This is a fault of the spec: please report it with the command and the seed", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"{len(written)} game(s) written to {out}")
    left_out = [] if cards is None else kept_out(game, CardDatabase.cached(cards, game))
    if left_out:
        shown = ", ".join(left_out[:5]) + (f" and {len(left_out) - 5} more" if len(left_out) > 5 else "")
        typer.echo(f"  left out of the decks: {len(left_out)} card(s) the spec cannot play, its text not read or an ability "
                   f"given no meaning ({shown}); `arbiter lint {cards}` says why for each")
    for name, named in moves_naming(game, written, tuple(prefer or ())).items():
        how = ", ".join(f"{count} {kind}" for kind, count in named.kinds.items())
        typer.echo(f"  {name}: named by {named.moves} move(s){f' ({how})' if how else ''}, in {named.games} of {len(written)} game(s)"
                   + ("" if named.moves else " (never played: no move could play it in these games)"))


@app.command()
def bench(
    games: Annotated[list[str] | None, typer.Argument(help="Games to measure (default: all).")] = None,
    min_events: Annotated[int, typer.Option("--events", help="Size of each simulated corpus, in events.")] = 100_000,
    corpus_dir: Annotated[Path, typer.Option("--corpus", help="Where the simulated corpora are kept between runs.")] = Path(".bench"),
    jobs: Annotated[bool | None, typer.Option("--jobs/--no-jobs",
                                              help="Also measure two worker processes against one "
                                                   "(default: yes; with --against, no).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the measurements as JSON.")] = False,
    repeat: Annotated[int, typer.Option("--repeat", min=1, help="Runs of each timed part; the fastest counts.")] = 3,
    isolate: Annotated[bool, typer.Option("--isolate/--no-isolate",
                                          help="Measure each game and grammar in a fresh interpreter.")] = True,
    against: Annotated[str | None, typer.Option("--against", metavar="REF",
                                                help="Compare with another version: a git revision of this checkout "
                                                     "or a folder holding one, measured in turns with this tree.")] = None,
    pairs: Annotated[int, typer.Option("--pairs", min=1, help="With --against: runs of each version per game.")] = 3,
) -> None:
    """Measure verifying (events/s, against decoding alone, one vs two processes) and parsing card texts.

    With ``--against REF`` the two versions are measured in turns, game by game, and the
    change is the median of the pairs' ratios (a host's speed moves between runs taken
    apart); ``--jobs`` is then off unless asked for.

    The last lines say what the host did meanwhile (the processor time other guests of a
    virtual machine took, how far the repeated runs spread) and warn when the figures are
    disturbed.

    A game of the corpus the spec fails on while it is simulated is left out of the
    corpus and named (exit code 1, once the rest is measured).
    """
    from grammar.parser import GAMES as GRAMMARS
    from spec import GAMES as SPECS
    from verifier import bench as B
    from verifier.simulate import SimulationError

    chosen = games or sorted(set(GRAMMARS) | set(SPECS), key=lambda g: (g not in SPECS, g))
    unknown = [g for g in chosen if g not in GRAMMARS and g not in SPECS]
    if unknown:
        typer.echo(f"arbiter: unknown game(s): {', '.join(unknown)}", err=True)
        raise typer.Exit(2)
    try:
        if against is not None:
            from verifier import bench_compare as C

            try:
                result = C.compare(chosen, against, corpus_dir, min_events, pairs, bool(jobs), repeat)
            except C.CompareError as error:
                typer.echo(f"arbiter: {error}", err=True)
                raise typer.Exit(2) from None
            typer.echo(json.dumps(result, indent=2) if as_json else C.to_text(result))
        else:
            result = B.run(chosen, corpus_dir, min_events, jobs is not False, repeat, isolate)
            typer.echo(json.dumps(result, indent=2) if as_json else B.to_text(result))
    except SimulationError as error:
        typer.echo(f"arbiter: the bench corpus cannot be simulated: {error}", err=True)
        raise typer.Exit(2) from None
    if result["corpus_faults"]:
        raise typer.Exit(1)  # the spec failed on a game while the corpus was simulated (named above)


@app.command()
def mutate(
    paths: Annotated[list[Path], typer.Argument(help="Legal replays (files or folders) to mutate.")],
    count: Annotated[int, typer.Option("--count", "-n", min=1, help="Mutants per replay.")] = 20,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the mutations.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
    keep_in: Annotated[Path | None, typer.Option(
        "--keep", metavar="DIR",
        help="Write each mutant missed, flagged without a rule or met by a spec fault to DIR as a replay, to verify it again.")] = None,
) -> None:
    """Mutate legal replays (drop, duplicate, swap an event; change a card, number, player, target, phase)
    and report the share of illegal mutants the verifier flags with a rule.

    A replay that is not legal itself is skipped and listed with its verdict.
    Exit code 1 when a mutant was missed (the verifier called it legal, legal_moves did not)
    or the spec failed on one (an error raised, listed as SPEC FAULT), 2 when no replay given is legal.
    """
    from verifier.cli import _replay_files
    from verifier.mutate import keep, run

    files = _replay_files(paths)
    if not files:
        typer.echo("arbiter: no replay files found", err=True)
        raise typer.Exit(2)
    report = run(files, count, seed)
    if len(report.skipped) == len(files):
        for source, why in report.skipped:
            typer.echo(f"arbiter: {source} is not legal ({why})", err=True)
        typer.echo("arbiter: no legal replay to mutate", err=True)
        raise typer.Exit(2)
    result = report.to_json()
    counts = result["counts"]
    kept: list[Path] = []
    if keep_in is not None:
        try:
            kept = keep(report, keep_in)
        except OSError as error:
            typer.echo(f"arbiter: cannot write the mutants to {keep_in}: {error.strerror or error}", err=True)
            raise typer.Exit(2) from None
        result["kept"] = [str(path) for path in kept]
    if as_json:
        typer.echo(json.dumps(result, indent=2))
    else:
        typer.echo(f"{len(report.mutants)} mutants of {len(files) - len(report.skipped)} replay(s): " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
        typer.echo(f"share of illegal mutants flagged with a rule: {report.share_flagged:.1%}")
        if counts.get("unmodelled"):
            typer.echo(f"  {counts['unmodelled']} mutant(s) led into card text the spec does not model: the verifier "
                       "could not judge them from there (not in the share: whether they are legal is not known)")
        for miss in result["missed"]:
            typer.echo(f"  MISSED {miss['source']} [{miss['operator']}] {miss['change']}: {miss['why']}")
        for fault in result["faults"]:
            typer.echo(f"  SPEC FAULT {fault['source']} [{fault['operator']}] {fault['change']}: {fault['why']}")
        for skipped in result["skipped"]:
            typer.echo(f"  skipped {skipped['source']}, not legal: {skipped['why']}")
        for path in kept:
            typer.echo(f"  kept {path}")
    raise typer.Exit(1 if counts.get("missed") or counts.get("spec_fault") else 0)
