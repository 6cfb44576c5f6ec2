"""Rendering reports: readable text for a judge at the table, JSON for machines."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

import msgspec

from verifier.verify import Report

_encoder = msgspec.json.Encoder(order="deterministic")


def to_json(report: Report) -> bytes:
    """Contract 3 JSON for one report, byte-for-byte the same for the same input."""
    return _encoder.encode(report)


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
"""Control characters, lone surrogates (undecodable file names) and non-characters."""


def printable(text: object) -> str:
    """``text`` as a string with control characters (newlines, terminal escapes) shown as ``\\xNN``.

    Card names, players and messages come from user files: a report never lets them
    forge lines or drive a terminal, and what it prints is always valid UTF-8 and XML text.
    """
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))


def compact(value: Any) -> str:
    """A short one-line rendering of a JSON-ready value: ``[a, b]``, ``{k=v}``, ``-`` for none or empty text."""
    if value is None or value == "":
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{printable(k)}={compact(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(compact(v) for v in value) + "]"
    return printable(value)


def per_player(value: Any) -> bool:
    """Whether a view entry is a table of dicts keyed by player (or object): one line per key."""
    return isinstance(value, dict) and bool(value) and all(isinstance(v, dict) for v in value.values())


def _state_lines(state: dict[str, Any] | None) -> list[str]:
    """Any game's ``view()`` in a few lines: its top-level entries, then one line per player."""
    if not state:
        return []
    flat = [f"{printable(k)}={compact(v)}" for k, v in state.items() if not per_player(v)]
    lines = ["    state: " + ", ".join(flat)] if flat else ["    state:"]
    for key, table in state.items():
        if not per_player(table):
            continue
        prefix = "" if key == "players" else f"{printable(key)}."
        for name, entry in table.items():
            lines.append(f"      {prefix}{printable(name)}: " + ", ".join(f"{printable(k)}={compact(v)}" for k, v in entry.items()))
    return lines


def to_text(report: Report, show_state: bool = True) -> str:
    """A readable report: verdict, then each finding with its rule, line, expected and actual."""
    out = [f"{printable(report.replay)}: {report.verdict.upper()} ({printable(report.game or '?')}, {report.events} events)"]
    for f in report.findings:
        where = (f"seq {f.seq}" + (f", line {f.line}" if f.line is not None else "")) if f.seq is not None else (
            f"line {f.line}" if f.line else "end of log")
        rule = f" [{printable(f.rule)}]" if f.rule else ""
        late = " (after the first divergence)" if f.after_divergence else ""
        out.append(f"  {f.severity}{rule} at {where}{late}: {printable(f.message)}")
        if f.expected is not None or f.actual is not None:
            out.append(f"    expected: {compact(f.expected)}")
            out.append(f"    actual:   {compact(f.actual)}")
        if f.diff:
            out.append(f"    difference: {compact(f.diff)}")
        if show_state and f.severity != "info":
            out.extend(_state_lines(f.state))
    for f in getattr(report, "conflicts", None) or []:
        where = f"seq {f.seq}" if f.seq is not None else "set-up"
        rule = f" [{printable(f.rule)}]" if f.rule else ""
        out.append(f"  conflict settled{rule} at {where}: {printable(f.message)}")
    return "\n".join(out)


def tally(reports: Iterable[Report]) -> tuple[int, Counter[tuple[str, str]], Counter[str]]:
    """Replays, verdicts per (game, verdict), and findings per broken rule (illegal, inconsistent)."""
    verdicts: Counter[tuple[str, str]] = Counter()
    rules: Counter[str] = Counter()
    total = 0
    for report in reports:
        total += 1
        verdicts[(report.game or "?", report.verdict)] += 1
        for f in report.findings:
            if f.rule and f.severity in ("illegal", "inconsistent"):
                rules[f.rule] += 1
    return total, verdicts, rules


def summary(reports: Iterable[Report]) -> str:
    """Verdict counts per game and the rules broken most often."""
    total, verdicts, rules = tally(reports)
    lines = [f"{total} replay(s)"]
    for (game, verdict), n in sorted(verdicts.items()):
        lines.append(f"  {game:16} {verdict:14} {n}")
    if rules:
        lines.append("most broken rules:")
        lines.extend(f"  {rule:28} {n}" for rule, n in rules.most_common(10))
    return "\n".join(lines)
