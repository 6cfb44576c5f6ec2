"""The coverage-guided fuzzing harnesses (tests/fuzz) run, briefly, without a crash.

Each harness is run in its own process for a few hundred inputs: enough to prove it
works and finds nothing on the way; long runs are for the command line (see the
harnesses' docstrings and docs/performance.rst).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("atheris")

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("harness, runs", [("fuzz_cards.py", 600), ("fuzz_replays.py", 300)])
def test_a_short_fuzzing_run_finds_no_crash(harness: str, runs: int, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "fuzz" / harness), f"-atheris_runs={runs}", "-seed=1"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"Done {runs} in" in done.stderr
    assert not list(tmp_path.glob("crash-*"))
