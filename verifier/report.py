"""Rendering reports: readable text for a judge at the table, JSON for machines."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

import msgspec

from verifier.verify import Report

_encoder = msgspec.json.Encoder(order="deterministic")


def to_json(report: Report) -> bytes:
    """Contract 3 JSON for one report, byte-for-byte the same for the same input."""
    return _encoder.encode(report)


def _state_lines(state: dict[str, Any] | None) -> list[str]:
    if not state:
        return []
    lines = [f"    state: {state.get('stage')}, round {state.get('round')}, turn {state.get('turn')}, "
             f"{state.get('active')} active, {state.get('phase')} ({state.get('window')}), queue {state.get('queue')}"]
    for player, side in (state.get("players") or {}).items():
        lines.append(f"      {player}: {side.get('neopet')} damage {side.get('damage')} stats {side.get('stats')} "
                     f"codestones {len(side.get('codestones') or [])} inventory {side.get('inventory')} deck {side.get('deck')} "
                     f"rounds {side.get('rounds_won')}")
    return lines


def to_text(report: Report, show_state: bool = True) -> str:
    """A readable report: verdict, then each finding with its rule, line, expected and actual."""
    out = [f"{report.replay}: {report.verdict.upper()} ({report.game or '?'}, {report.events} events)"]
    for f in report.findings:
        where = f"seq {f.seq}, line {f.line}" if f.seq is not None else (f"line {f.line}" if f.line else "end of log")
        rule = f" [{f.rule}]" if f.rule else ""
        late = " (after the first divergence)" if f.after_divergence else ""
        out.append(f"  {f.severity}{rule} at {where}{late}: {f.message}")
        if f.expected is not None or f.actual is not None:
            out.append(f"    expected: {f.expected}")
            out.append(f"    actual:   {f.actual}")
        if f.diff:
            out.append(f"    difference: {f.diff}")
        if show_state and f.severity != "info":
            out.extend(_state_lines(f.state))
    return "\n".join(out)


def summary(reports: Iterable[Report]) -> str:
    """Verdict counts per game and the rules broken most often."""
    verdicts: Counter[tuple[str, str]] = Counter()
    rules: Counter[str] = Counter()
    total = 0
    for report in reports:
        total += 1
        verdicts[(report.game or "?", report.verdict)] += 1
        for f in report.findings:
            if f.rule and f.severity in ("illegal", "inconsistent"):
                rules[f.rule] += 1
    lines = [f"{total} replay(s)"]
    for (game, verdict), n in sorted(verdicts.items()):
        lines.append(f"  {game:16} {verdict:14} {n}")
    if rules:
        lines.append("most broken rules:")
        lines.extend(f"  {rule:28} {n}" for rule, n in rules.most_common(10))
    return "\n".join(lines)
