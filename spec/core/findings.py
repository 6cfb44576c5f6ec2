"""Findings and verdicts, as contract 3 of the design fixes them."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

Severity = Literal["illegal", "inconsistent", "unverifiable", "malformed", "info"]
Verdict = Literal["legal", "illegal", "inconsistent", "unverifiable", "malformed"]

#: Verdicts from least to most severe; a report takes the worst of its findings.
VERDICT_ORDER: tuple[Verdict, ...] = ("legal", "unverifiable", "inconsistent", "illegal", "malformed")


class Finding(msgspec.Struct, omit_defaults=True):
    """One thing the verifier found about one event of a replay.

    ``rule`` cites ``<game>:<id>``; ``expected`` is what the rules required there and
    ``actual`` what the log did. ``state`` is a short view of the game state at the
    event, and ``diff`` the computed-versus-claimed difference for a rejected claim.
    ``after_divergence`` marks findings made after the first illegal one (with
    ``--keep-going``), whose game state the rules no longer define.
    """

    seq: int | None
    line: int | None
    severity: Severity
    rule: str | None
    message: str
    expected: str | None = None
    actual: str | None = None
    state: dict[str, Any] | None = None
    diff: dict[str, Any] | None = None
    after_divergence: bool = False


class Violation(msgspec.Struct):
    """What a failed rule check returns: the raw material of a finding."""

    message: str
    expected: str | None = None
    actual: str | None = None
    severity: Severity = "illegal"
    diff: dict[str, Any] | None = None


def verdict_of(findings: list[Finding]) -> Verdict:
    """The verdict a list of findings gives: the most severe one, ``legal`` if none."""
    worst: Verdict = "legal"
    for finding in findings:
        if finding.severity == "info":
            continue
        sev: Verdict = finding.severity  # type: ignore[assignment]
        if VERDICT_ORDER.index(sev) > VERDICT_ORDER.index(worst):
            worst = sev
    return worst
