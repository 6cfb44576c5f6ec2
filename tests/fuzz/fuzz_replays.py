"""Atheris harness: arbitrary bytes as a replay file, through the whole verifier.

Run it for as long as you like (libFuzzer options after the script)::

    python tests/fuzz/fuzz_replays.py -atheris_runs=50000

Half of the inputs are spliced after the header and first events of a shipped legal
replay (so that they reach the rules); the others are whole files. ``verify_file`` must
never raise, and a malformed file must be reported with a reason and, where there is
one, a line inside the file.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import atheris

with atheris.instrument_imports(include=["verifier", "spec"]):
    from verifier.verify import verify_file

ROOT = Path(__file__).resolve().parents[2]
PREFIXES = [b"\n".join(p.read_bytes().splitlines()[:6]) + b"\n"
            for p in sorted(ROOT.glob("replays/*/legal/*.jsonl"))[::7]]
FOLDER = tempfile.mkdtemp(prefix="fuzz-replays-")
PATH = Path(FOLDER) / "fuzzed.jsonl"


def one_input(data: bytes) -> None:
    """Verify one fuzzed replay; raise only for behaviour the verifier must never show."""
    if data and data[0] % 2 == 0:
        data = PREFIXES[data[0] // 2 % len(PREFIXES)] + data[1:]
    PATH.write_bytes(data)
    report = verify_file(PATH)
    if report.verdict == "malformed":
        bad = next(f for f in report.findings if f.severity == "malformed")
        lines = max(1, data.count(b"\n") + 1)
        if not bad.message or (bad.line is not None and not 1 <= bad.line <= lines):
            raise AssertionError(f"a malformed finding without a reason or with a line outside the file: {bad!r}")


def main(argv: list[str]) -> None:
    atheris.Setup(argv, one_input)
    try:
        atheris.Fuzz()
    finally:
        os.unlink(PATH) if PATH.exists() else None


if __name__ == "__main__":
    main(sys.argv)
