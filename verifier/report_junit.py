"""``arbiter verify --format junit``: JUnit XML that CI systems (Jenkins, GitLab, GitHub
Actions reporters, Azure Pipelines) read.

One ``<testsuite>`` per game (``unknown`` for a replay whose game could not be read), one
``<testcase>`` per replay: ``classname`` is the game, ``name`` the replay's path, and
``file`` the path again for tools that link to it.

* ``legal``: the test case passes.
* ``illegal``, ``inconsistent``, ``malformed``: a ``<failure>`` whose ``type`` is the
  verdict and whose ``message`` names the first finding's rule, where, and what was
  wrong; its text is the readable report of the replay (every finding, expected,
  actual and the state).
* ``unverifiable``: an ``<error>`` (type ``unverifiable``). The replay was not judged
  because it uses something the spec does not model, so it is neither a pass nor a
  rule broken; an error keeps it visible and keeps the build red, like the command's
  exit code (1), where ``<skipped>`` would let CI tools pass it silently.

No timings are written (the verifier does not time replays), so the same reports give
the same bytes. Every string passes through :func:`verifier.report.printable`, so
control characters from user files cannot make the XML invalid.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from spec.core.findings import Finding
from verifier.report import printable, to_text
from verifier.verify import Report

FAILURES = ("illegal", "inconsistent", "malformed")
"""Verdicts reported as ``<failure>``."""
ERRORS = ("unverifiable",)
"""Verdicts reported as ``<error>``."""


def first_finding(report: Report) -> Finding | None:
    """The finding that decides the verdict: the first one of the verdict's severity."""
    return next((f for f in report.findings if f.severity == report.verdict), None)


def message(report: Report) -> str:
    """One line for the failure: ``[rule] at seq N (line L): message``."""
    f = first_finding(report)
    if f is None:
        return report.verdict
    where = (f"seq {f.seq}" + (f", line {f.line}" if f.line is not None else "")) if f.seq is not None else (
        f"line {f.line}" if f.line else "end of log")
    rule = f"[{f.rule}] " if f.rule else ""
    return printable(f"{report.verdict}: {rule}at {where}: {f.message}")


def render(reports: Sequence[Report]) -> bytes:
    """JUnit XML for a batch: one test suite per game, one test case per replay."""
    suites: dict[str, list[Report]] = {}
    for report in sorted(reports, key=lambda r: r.replay):
        suites.setdefault(report.game or "unknown", []).append(report)
    root = ET.Element("testsuites", name="tcg-arbiter")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for game in sorted(suites):
        cases = suites[game]
        counts = {"tests": len(cases), "failures": sum(r.verdict in FAILURES for r in cases),
                  "errors": sum(r.verdict in ERRORS for r in cases), "skipped": 0}
        suite = ET.SubElement(root, "testsuite", {"name": printable(game), **{k: str(v) for k, v in counts.items()}})
        for report in cases:
            name = printable(report.replay)
            case = ET.SubElement(suite, "testcase", classname=printable(game), name=name, file=name)
            if report.verdict in FAILURES or report.verdict in ERRORS:
                tag = "failure" if report.verdict in FAILURES else "error"
                detail = ET.SubElement(case, tag, type=report.verdict, message=message(report))
                detail.text = to_text(report)
        for key in totals:
            totals[key] += counts[key]
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="utf-8", xml_declaration=False) + b"\n"
