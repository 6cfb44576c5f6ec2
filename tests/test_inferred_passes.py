"""Inferring passes always ends (spec.core.game.MAX_INFERRED_PASSES).

With implicit passes, a move that is not legal where the game stands lets the spec pass
for both players until it is. A mutated Bakugan log (tests/data) holds a move that never
becomes legal while passing changes nothing in the Energize step; the verifier used to
go round for ever on it with --keep-going. It must now judge it and go on.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from spec.core.game import MAX_INFERRED_PASSES

ROOT = Path(__file__).resolve().parents[1]
LOG = ROOT / "tests" / "data" / "bakugan-move-never-legal.jsonl"


def test_a_move_that_never_becomes_legal_is_judged_not_looped_over() -> None:
    assert MAX_INFERRED_PASSES > 0
    done = subprocess.run([sys.executable, "-m", "verifier.cli", "verify", str(LOG), "--keep-going", "--format", "json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 1, done.stderr[-2000:]
    assert '"verdict":"illegal"' in done.stdout.replace(" ", "")
