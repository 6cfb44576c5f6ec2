"""``arbiter bench --against REF``: this tree's speed beside another version's, measured in turns.

A machine shared with others, or a virtual one, can run a quarter faster or slower from one
hour to the next; two bench runs taken apart compare the hours as much as the code. So the
comparison measures in *pairs*: for each game, this tree, then the reference, then this
tree again..., each run in a fresh interpreter on the same corpus files, and reports per
measure the median of the pairs' ratios and their range (the spread says how much the
host moved meanwhile).

The reference is a folder holding another checkout of tcg-arbiter, or a git revision of
this one (``main~3``, a tag, a commit), which is taken out with ``git archive`` into a
temporary folder; that folder is given the rulebooks' ``shared`` folder beside it, as a
checkout has, so that both versions parse the same real card texts.

Each version measures itself with its own ``arbiter bench`` (``python -c`` with its own
folder first on the import path), so a reference older than a measure simply lacks it.
"""

from __future__ import annotations

import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from verifier.bench import ROOT, fault_lines

MEASURES: dict[str, tuple[str, bool]] = {
    "verify_events_per_s": ("verify events/s", True),
    "decode_events_per_s": ("decode events/s", True),
    "verify_over_decode": ("verify/decode", False),
    "jobs2_speedup": ("--jobs 2 speed-up", True),
    "jobs2_processor_ratio": ("--jobs 2 processor", False),
    "texts_per_s": ("card texts/s", True),
    "lexer_texts_per_s": ("lexer alone texts/s", True),
}
"""Each measure compared: its label, and whether more is better (verify/decode: less is)."""

_RUN = """
import sys
from pathlib import Path
import verifier
if Path(verifier.__file__).resolve().parents[1] != Path(sys.argv[1]).resolve():
    sys.exit(f"arbiter: the version in {sys.argv[1]} could not be imported apart (got {verifier.__file__})")
sys.argv = ["arbiter", *sys.argv[2:]]
from verifier.cli import main
main()
"""
"""Runs one version's own ``arbiter bench``: its folder is first on the import path."""


class CompareError(Exception):
    """The reference cannot be found or run; the message says why."""


@contextmanager
def reference_tree(ref: str) -> Iterator[tuple[Path, str]]:
    """The folder of the reference version and how to name it, while the comparison runs.

    ``ref`` is a folder holding a checkout (used as it is), else a git revision of this
    checkout, taken out into a temporary folder that is removed afterwards.
    """
    folder = Path(ref)
    if folder.is_dir():
        if not (folder / "verifier" / "bench.py").is_file():
            raise CompareError(f"{ref}: not a tcg-arbiter checkout (no verifier/bench.py)")
        yield folder.resolve(), str(folder)
        return
    commit = _git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", what=ref).strip()
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-") as scratch:
        tree = Path(scratch) / "tree"
        tree.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit],
                                 capture_output=True, check=False)
        if archive.returncode != 0:
            raise CompareError(f"{ref}: git archive failed: {archive.stderr.decode(errors='replace').strip()}")
        with tarfile.open(fileobj=io.BytesIO(archive.stdout), mode="r:") as tar:
            if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
                tar.extractall(tree, filter="data")
            else:  # an archive that git made of this repository
                tar.extractall(tree)
        if not (tree / "verifier" / "bench.py").is_file():
            raise CompareError(f"{ref}: that version has no arbiter bench")
        shared = ROOT.parent / "shared"
        if shared.is_dir():
            (Path(scratch) / "shared").symlink_to(shared)
        _build_compiled(tree)
        yield tree, f"{ref} ({commit[:10]})"


def _build_compiled(tree: Path) -> None:
    """Compile a version taken out of git as ``make`` would (spec.compiled), when it can be:
    else it runs interpreted, and its bench says so (the comparison prints both lines)."""
    if not (tree / "verifier" / "build_compiled.py").is_file():
        return
    env = {**os.environ, "PYTHONPATH": str(tree)}
    subprocess.run([sys.executable, "-m", "verifier.build_compiled"], cwd=tree, env=env,
                   capture_output=True, check=False)


def _git(*args: str, what: str) -> str:
    try:
        done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise CompareError(f"{what}: not a folder, and git is not installed to read it as a revision") from None
    if done.returncode != 0:
        raise CompareError(f"{what}: neither a folder nor a git revision of {ROOT}")
    return done.stdout


def measure(tree: Path, game: str, corpus_dir: Path, min_events: int, jobs: bool, repeat: int) -> dict[str, Any]:
    """One run of the version in ``tree``'s own ``arbiter bench`` on one game: its JSON."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    args = ["bench", game, "--json", "--events", str(min_events), "--corpus", str(corpus_dir.resolve()),
            "--repeat", str(repeat), "--jobs" if jobs else "--no-jobs"]
    done = subprocess.run([sys.executable, "-c", _RUN, str(tree), *args], capture_output=True, text=True,
                          cwd=tree, env=env, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or ["(nothing printed)"]
        raise CompareError(f"the bench of {tree} failed on {game}: {last[0]}")
    try:
        result: dict[str, Any] = json.loads(done.stdout)
    except ValueError:
        raise CompareError(f"the bench of {tree} printed no JSON for {game}") from None
    return result


def _measures(result: dict[str, Any], game: str) -> dict[str, float]:
    """The measures of one game in a bench result (those the version has)."""
    out: dict[str, float] = {}
    for part in ("games", "grammars"):
        for entry in result.get(part, []):
            if entry.get("game") == game:
                out.update({k: float(v) for k, v in entry.items() if k in MEASURES and v})
    return out


def compare(games: list[str], ref: str, corpus_dir: Path, min_events: int, pairs: int = 3, jobs: bool = False,
            repeat: int = 3) -> dict[str, Any]:
    """Measure this tree and ``ref`` in turns, ``pairs`` times per game, on the same corpus.

    Per game and measure: both versions' runs, and the ratio this/reference of each pair
    (for verify/decode, reference/this, so that above 1 is always better for this tree).
    """
    from spec import GAMES as SPECS
    from verifier.bench import build_corpus

    pairs = max(1, pairs)
    with reference_tree(ref) as (tree, label):
        out: dict[str, Any] = {"reference": label, "pairs": pairs, "repeat": repeat, "games": [], "corpus_faults": []}
        for game in games:
            if game in SPECS:
                out["corpus_faults"] += build_corpus(game, corpus_dir / game, min_events)[1]  # written once, by this tree, for both
            ours: list[dict[str, float]] = []
            theirs: list[dict[str, float]] = []
            for _ in range(pairs):
                mine, other = (measure(t, game, corpus_dir, min_events, jobs, repeat) for t in (ROOT, tree))
                out.setdefault("spec", {"this": mine.get("spec", "-"), "reference": other.get("spec", "-")})
                ours.append(_measures(mine, game))
                theirs.append(_measures(other, game))
            entry: dict[str, Any] = {"game": game, "measures": {}}
            for key, (_label, more_is_better) in MEASURES.items():
                if not all(key in run for run in ours + theirs):
                    continue
                ratios = [(a[key] / b[key]) if more_is_better else (b[key] / a[key]) for a, b in zip(ours, theirs)]
                entry["measures"][key] = {"this": [run[key] for run in ours], "reference": [run[key] for run in theirs],
                                          "ratios": ratios, "median_ratio": statistics.median(ratios)}
            out["games"].append(entry)
    return out


def to_text(result: dict[str, Any]) -> str:
    """The comparison as a readable table: medians of each version, the change, the range of pairs."""
    lines = [(f"this tree against {result['reference']}: {result['pairs']} pair(s) per game, taken in turns "
              f"(each run the fastest of {result['repeat']}); change = median of the pairs' ratios, "
              "above 0 is better for this tree")]
    if "spec" in result:
        lines.append(f"  spec: this tree {result['spec']['this']}; reference {result['spec']['reference']}")
    for entry in result["games"]:
        lines.append(f"  {entry['game']}")
        for key, m in entry["measures"].items():
            label, _more = MEASURES[key]
            low, high = min(m["ratios"]), max(m["ratios"])
            lines.append(f"    {label:22} {statistics.median(m['this']):>12,.1f} vs {statistics.median(m['reference']):>12,.1f}"
                         f"   {m['median_ratio'] - 1:+7.1%}  (pairs {low - 1:+.1%} .. {high - 1:+.1%})")
    lines.extend(fault_lines(result.get("corpus_faults", []), " (this tree)"))
    return "\n".join(lines)

