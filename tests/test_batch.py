"""Batches: worker processes, the results file, resuming, bad files, a Dask cluster."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from verifier.batch import done_in, verify_many
from verifier.batch import verify_one as _real_verify_one
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


@pytest.mark.parametrize(("count", "jobs"), [(2, 2), (3, 3), (2, 4), (3, 2)])
def test_a_batch_no_larger_than_the_pool_finishes(folder: Path, count: int, jobs: int) -> None:
    """Every worker is handed a file of its own before any gets a second: a worker left
    with none would be waited on for ever (a batch of two files on two jobs once hung)."""
    import threading

    files = sorted(folder.glob("*.jsonl"))[:count]
    reports: list = []
    batch = threading.Thread(target=lambda: reports.extend(verify_many(files, jobs=jobs)), daemon=True)
    batch.start()
    batch.join(timeout=120)
    assert not batch.is_alive(), "the batch never finished"
    assert _verdicts(reports) == _verdicts(list(verify_many(files, jobs=1)))


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


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def dask_cluster(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A real `dask scheduler` and two `dask worker` processes on loopback."""
    import subprocess
    import sys
    import time

    from dask.distributed import Client

    dask_cli = Path(sys.executable).parent / "dask"
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    logs = tmp_path / "dask-logs"
    logs.mkdir()
    procs = [subprocess.Popen([str(dask_cli), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--no-dashboard"], stdout=(logs / "scheduler.log").open("w"), stderr=subprocess.STDOUT)]
    try:
        for i in range(2):
            procs.append(subprocess.Popen([str(dask_cli), "worker", address, "--nthreads", "1", "--no-dashboard",
                                           "--local-directory", str(tmp_path / f"w{i}")],
                                          stdout=(logs / f"worker{i}.log").open("w"), stderr=subprocess.STDOUT))
        deadline = time.monotonic() + 90
        while True:
            try:
                with Client(address, timeout=5) as client:
                    if len(client.scheduler_info()["workers"]) >= 2:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("the Dask cluster did not come up: " + " | ".join(
                    p.read_text(errors="replace")[-500:] for p in logs.iterdir()))
            time.sleep(0.5)
        yield address
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


def test_a_real_dask_cluster_gives_the_same_reports_as_the_local_run(folder: Path, dask_cluster: str) -> None:
    import msgspec

    files = sorted(folder.glob("*.jsonl"))
    local = {r.replay: msgspec.json.encode(r) for r in verify_many(files)}
    remote = {r.replay: msgspec.json.encode(r) for r in verify_many(files, scheduler=dask_cluster)}
    assert remote == local


def test_the_cli_runs_a_batch_on_the_cluster(runner: CliRunner, folder: Path, dask_cluster: str, tmp_path: Path) -> None:
    results = tmp_path / "cluster.jsonl"
    result = runner.invoke(app, ["verify", str(folder), "--dask", dask_cluster, "--results", str(results), "--no-progress"])
    assert result.exit_code == 1 and "most broken rules" in result.output
    assert len(results.read_text(encoding="utf-8").splitlines()) == len(SAMPLE) + 1


def test_workers_are_forked_where_the_system_can_even_from_a_spawned_process() -> None:
    """A spawned process (``arbiter bench`` measures in one) defaults to spawning its own
    workers, which would build the grammars and card databases again: the batch asks for fork."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this system")
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.apply(_start_method_of_a_worker_context) == "fork"


def _start_method_of_a_worker_context() -> str:
    from verifier.batch import _worker_context

    return _worker_context().get_start_method()


def _dies_on_crash_files(path: str, job: object) -> bytes:
    """A stand-in verifier that kills its own process on a file named crash*."""
    import os

    if Path(path).name.startswith("crash"):
        os._exit(7)
    return _real_verify_one(path, job)  # type: ignore[arg-type]


def test_a_worker_that_dies_costs_only_its_own_file(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crash in native code or a kill by the system takes the worker process down: that
    file gets a malformed report naming how the worker ended, a new worker takes the rest."""
    import multiprocessing

    from verifier import batch

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the stand-in verifier reaches the workers only through fork")
    shutil.copy(SAMPLE[0], folder / "crash-1.jsonl")
    shutil.copy(SAMPLE[0], folder / "crash-2.jsonl")
    files = sorted(folder.glob("*.jsonl"))
    monkeypatch.setattr(batch, "verify_one", _dies_on_crash_files)
    reports = {Path(r.replay).name: r for r in verify_many(files, jobs=2)}
    assert set(reports) == {f.name for f in files}
    for name in ("crash-1.jsonl", "crash-2.jsonl"):
        assert reports[name].verdict == "malformed"
        assert "process died on this file (exit code 7)" in reports[name].findings[0].message
    expected = _verdicts(list(verify_many([f for f in files if not f.name.startswith("crash")], jobs=1)))
    assert {n: r.verdict for n, r in reports.items() if not n.startswith("crash")} == expected


def test_a_file_that_cannot_be_sent_goes_back_to_the_waiting_ones() -> None:
    """A worker whose pipe is broken (it died after its last report) is sent nothing."""
    import multiprocessing
    from collections import deque

    from verifier.batch import _Worker

    ours, theirs = multiprocessing.Pipe()
    theirs.close()
    worker = _Worker(None, ours, deque())
    waiting = deque(["a.jsonl", "b.jsonl"])
    worker.feed(waiting, 2)
    assert list(waiting) == ["a.jsonl", "b.jsonl"] and not worker.ahead


def _fork_or_skip() -> None:
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the stand-ins reach the workers only through fork")


def test_a_worker_dead_before_its_next_file_is_sent_costs_only_the_file_it_died_on(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The parent reads a report and sends the next file while the worker is already dying
    on the file after (it was sent ahead): the send finds a broken pipe. Here the parent
    waits for that death before each such send, so the race happens every time."""
    from verifier import batch

    _fork_or_skip()
    (folder / "crash-1.jsonl").write_bytes(b"\n" * 1_000_000)  # the largest: sent first, with more sent after it
    files = sorted(folder.glob("*.jsonl"))
    real_feed = batch._Worker.feed

    def feed_once_dead(self: batch._Worker, waiting: object, limit: int) -> None:
        if self.ahead and Path(self.ahead[0]).name.startswith("crash"):
            self.process.join(timeout=60)
            assert not self.process.is_alive()
        real_feed(self, waiting, limit)  # type: ignore[arg-type]

    monkeypatch.setattr(batch, "verify_one", _dies_on_crash_files)
    monkeypatch.setattr(batch._Worker, "feed", feed_once_dead)
    reports = {Path(r.replay).name: r for r in verify_many(files, jobs=2)}
    assert set(reports) == {f.name for f in files}
    assert reports["crash-1.jsonl"].verdict == "malformed"
    expected = _verdicts(list(verify_many([f for f in files if not f.name.startswith("crash")], jobs=1)))
    assert {n: r.verdict for n, r in reports.items() if not n.startswith("crash")} == expected


def test_workers_dead_with_nothing_in_hand_cost_no_file(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each worker is killed as it is about to be sent a file with none in hand (three
    files, two workers: both are, one after the other): the file goes to a new worker
    instead of being dropped with the last of the old ones."""
    from verifier import batch

    _fork_or_skip()
    files = sorted(folder.glob("*.jsonl"))[:3]
    real_feed = batch._Worker.feed
    reported: set[int] = set()
    real_receive = batch._Worker.receive

    def receive(self: batch._Worker) -> bytes | None:
        raw = real_receive(self)
        if raw is not None:
            reported.add(id(self))
        return raw

    def feed_to_the_dead(self: batch._Worker, waiting: object, limit: int) -> None:
        if id(self) in reported and not self.ahead and waiting:
            self.process.kill()
            self.process.join()
        real_feed(self, waiting, limit)  # type: ignore[arg-type]

    monkeypatch.setattr(batch._Worker, "receive", receive)
    monkeypatch.setattr(batch._Worker, "feed", feed_to_the_dead)
    reports = list(verify_many(files, jobs=2))
    assert sorted(r.replay for r in reports) == sorted(map(str, files))
    assert not any("process died" in f.message for r in reports for f in r.findings)


def test_stopping_early_leaves_no_worker_behind(folder: Path) -> None:
    import multiprocessing

    files = sorted(folder.glob("*.jsonl"))
    batch = verify_many(files, jobs=2)
    next(batch)
    batch.close()  # the consumer stops reading: the workers are told to finish
    assert multiprocessing.active_children() == []
