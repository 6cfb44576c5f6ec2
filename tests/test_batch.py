"""Batches: worker processes, the results file, resuming, bad files, a Dask cluster."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from verifier.batch import done_in, verify_many
from verifier.cli import app

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = sorted((ROOT / "replays" / "neopets" / "illegal").glob("*.jsonl"))[:6] + \
    sorted((ROOT / "replays" / "neopets" / "legal").glob("*.jsonl"))[:2]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A copy of some shipped replays, plus one file that is not a replay at all."""
    out = tmp_path / "event"
    out.mkdir()
    for path in SAMPLE:
        shutil.copy(path, out / path.name)
    (out / "garbage.jsonl").write_bytes(b"\x00\xff not json at all\n")
    return out


def _verdicts(reports: list) -> dict[str, str]:
    return {Path(r.replay).name: r.verdict for r in reports}


def test_two_processes_give_the_same_reports_as_one(folder: Path) -> None:
    files = sorted(folder.glob("*.jsonl"))
    one = _verdicts(list(verify_many(files, jobs=1)))
    two = _verdicts(list(verify_many(files, jobs=2)))
    assert one == two
    assert one["garbage.jsonl"] == "malformed"  # and the batch went on past it
    assert len(one) == len(files)


def test_each_report_goes_to_the_results_file_and_resume_skips_them(folder: Path, tmp_path: Path) -> None:
    files = sorted(folder.glob("*.jsonl"))
    results = tmp_path / "results.jsonl"
    first = list(verify_many(files[:3], jobs=2, results=results))
    assert len(results.read_text(encoding="utf-8").splitlines()) == 3
    assert done_in(results) == {r.replay for r in first}
    with results.open("a", encoding="utf-8") as handle:
        handle.write('{"replay": "cut sh')  # an interrupted write: that replay is not done
    rest = list(verify_many(files, jobs=2, results=results, resume=True))
    assert {r.replay for r in rest} == {str(f) for f in files[3:]}
    rows = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()[:3]]
    assert all(row["verdict"] for row in rows)


def test_the_cli_batch_with_jobs_results_and_resume(runner: CliRunner, folder: Path, tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    first = runner.invoke(app, ["verify", str(folder), "-j", "2", "--results", str(results), "--no-progress"])
    assert first.exit_code == 1  # illegal replays and a malformed file among them
    assert "most broken rules" in first.output
    assert len(results.read_text(encoding="utf-8").splitlines()) == len(SAMPLE) + 1
    again = runner.invoke(app, ["verify", str(folder), "--results", str(results), "--resume", "--no-progress"])
    assert again.exit_code == 0 and "skipped" in again.output
    assert runner.invoke(app, ["verify", str(folder), "--resume"]).exit_code == 2


def test_a_local_dask_cluster_gives_the_same_verdicts(folder: Path) -> None:
    files = sorted(folder.glob("*.jsonl"))[:3]
    assert _verdicts(list(verify_many(files, scheduler="local"))) == _verdicts(list(verify_many(files)))


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()
