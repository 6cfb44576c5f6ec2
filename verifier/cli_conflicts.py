"""``arbiter conflicts``: which cards' abilities can clash, and how the rules settle it.

For card designers: every card of a file is read through its game's grammar into
effects (:func:`spec.core.conflicts.read_card`); each card is checked against the rules,
every pair of cards of the file with each other and with the game's shipped database
(or ``--against``), and small sets of the file's cards together
(:func:`spec.core.conflicts.analyse`). For each clash the report gives the situation
(who has what in play, and the witness values z3 found), the effects that cannot all
hold (the unsat core), and the rule that settles it, or that it is a gap in the rules.
The trigger graph's cycles are listed as possible endless loops.

Exit codes: 0 when every clash found is settled, 1 when there is a gap, an undecided
check, a possible endless loop or a card that cannot be read, 2 for bad input.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from verifier.cli import app


@app.command()
def conflicts(
    cards: Annotated[Path, typer.Argument(help="A card file: our TOML format or a JSON Lines card pool.")],
    game: Annotated[str | None, typer.Option("--game", "-g", help="Game id (default: the TOML file's game).")] = None,
    against: Annotated[list[Path] | None, typer.Option("--against", help="Card files to compare with (default: the game's shipped database).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="The whole analysis as one JSON object.")] = False,
    max_set: Annotated[int, typer.Option("--max-set", min=2, max=3, help="Largest set of the file's cards checked together (2 or 3).")] = 3,
    timeout: Annotated[int, typer.Option("--timeout", min=1, help="Wall-clock limit of each z3 call, in milliseconds.")] = 2000,
) -> None:
    """Find the cards whose abilities can clash, in what situation, and which rule settles it.

    Also lists the gaps (clashes no rule of the game settles) and the possible endless
    loops (cards whose effects can set off each other's triggers in a circle).
    """
    from grammar.parser import GAMES
    from spec.core.cards import CardDatabase, CardDef, CardFileError, shipped_database
    from spec.core.conflicts import ConflictSolver, analyse, policy_for

    try:
        database = CardDatabase.load(cards, game)
    except CardFileError as error:
        typer.echo(f"arbiter: {error}", err=True)
        raise typer.Exit(2) from None
    game = game or database.game
    if game not in GAMES:
        typer.echo(f"arbiter: unknown game {game!r}; give --game ({', '.join(GAMES)})", err=True)
        raise typer.Exit(2)
    others = list(against) if against else []
    if not against:
        shipped = shipped_database(game, "base")
        if shipped.exists():
            others.append(shipped)
    compared: list[CardDef] = []
    for other in others:
        try:
            compared.extend(CardDatabase.load(other, game))
        except CardFileError as error:
            typer.echo(f"arbiter: {error}", err=True)
            raise typer.Exit(2) from None
    policy = policy_for(game)
    result = analyse(list(database), policy, compared, max_set=max_set, solver=ConflictSolver(timeout_ms=timeout))
    if as_json:
        sys.stdout.buffer.write(result.to_json() + b"\n")
    else:
        typer.echo(render_text(result, cards))
    trouble = result.loops or result.unreadable or any(f.status != "settled" for f in result.findings)
    raise typer.Exit(1 if trouble else 0)


def render_text(result: object, path: Path) -> str:
    """The analysis in words: each clash with its situation, effects and settlement; loops; unreadable cards."""
    from spec.core.conflicts import Analysis

    assert isinstance(result, Analysis)
    lines = [f"{path}: {result.cards} cards ({result.game}), {result.compared} sets compared"]
    if result.note:
        lines.append(f"note: {result.note}")
    settled = [f for f in result.findings if f.status == "settled"]
    gaps = [f for f in result.findings if f.status == "gap"]
    undecided = [f for f in result.findings if f.status == "undecided"]
    for title, group in (("conflicts settled by the rules", settled), ("gaps in the rules", gaps), ("undecided", undecided)):
        if not group:
            continue
        lines.append("")
        lines.append(f"{title} ({len(group)}):")
        for finding in group:
            lines.append("  " + " + ".join(finding.cards))
            lines.append("    when: " + "; ".join(finding.situation))
            for effect in finding.effects:
                lines.append(f"    clash: {effect.describe()}")
            if finding.settlement is not None:
                s = finding.settlement
                lines.append(f"    settled by {s.rule} ({s.name}): {s.reason}")
                if s.conditional:
                    lines.append(f"    it depends on {s.conditional}")
            if finding.note:
                lines.append(f"    {'gap' if finding.status == 'gap' else 'note'}: {finding.note}")
    if result.loops:
        lines.append("")
        lines.append(f"possible endless loops ({len(result.loops)}):")
        for loop in result.loops:
            steps = [f"{card} -[{event}]->" for card, event in zip(loop.cards, loop.events, strict=True)]
            lines.append("  " + " ".join(steps) + f" {loop.cards[0]}")
    if result.unreadable:
        lines.append("")
        lines.append(f"cards that cannot be read ({len(result.unreadable)}):")
        lines.extend(f"  {name}: {why}" for name, why in result.unreadable)
    lines.append("")
    lines.append(f"{len(settled)} settled, {len(gaps)} gap(s), {len(undecided)} undecided, {len(result.loops)} loop(s), "
                 f"{len(result.unreadable)} unreadable")
    return "\n".join(lines)
