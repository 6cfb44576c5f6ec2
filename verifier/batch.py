"""Verifying many replays: across processes, onto a results file, resumable, or on a cluster.

A tournament's logs or an archive are verified as a stream of independent jobs, one per
replay file. :func:`verify_many` runs them in this process (``jobs=1``), in a pool of
worker processes (``jobs>1``), or on a Dask cluster (``scheduler=ADDRESS``, or
``"local"`` for a cluster on this machine). Whatever runs them:

* each report is yielded, and appended to the results file (JSON Lines, one report a
  line, contract 3) the moment it is done, so an interrupted batch loses nothing;
* ``resume`` skips the replays whose report is already in the results file;
* one bad, huge or crashing file gives a ``malformed`` report for that file and the
  batch goes on: a worker never lets an exception out.
"""

from __future__ import annotations

import gc
import json
import multiprocessing
import os
import selectors
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import IO, Any

import msgspec

from verifier.verify import Finding, Report, verify_file

_encoder = msgspec.json.Encoder(order="deterministic")
_decoder = msgspec.json.Decoder(Report)


@dataclass(frozen=True)
class Job:
    """What each worker needs to verify one replay."""

    keep_going: bool = False
    cards: str | None = None


def verify_one(path: str, job: Job) -> bytes:
    """Verify one replay in a worker: its report as contract-3 JSON, never an exception."""
    try:
        report = verify_file(Path(path), keep_going=job.keep_going, cards=Path(job.cards) if job.cards else None)
    except Exception as error:  # noqa: BLE001 - one file must never stop a batch
        report = Report(path, None, "malformed", 0,
                        [Finding(None, None, "malformed", None, f"the verifier failed on this file: {type(error).__name__}: {error}")])
    return _encoder.encode(report)


def done_in(results: Path) -> set[str]:
    """Replays whose report is already in a results file (for ``--resume``).

    A line cut short by an interruption is ignored, so that replay is verified again.
    """
    done: set[str] = set()
    if not results.exists():
        return done
    with results.open("rb") as handle:
        for line in handle:
            try:
                done.add(json.loads(line)["replay"])
            except (ValueError, KeyError, TypeError):
                continue
    return done


def verify_many(paths: Iterable[Path], *, jobs: int = 1, keep_going: bool = False, cards: Path | None = None,
                results: Path | None = None, resume: bool = False, scheduler: str | None = None,
                on_done: Callable[[Report], None] | None = None) -> Generator[Report, None, None]:
    """Verify replays, yielding each report as soon as it is done (not in input order when parallel)."""
    todo = [str(p) for p in paths]
    if resume and results is not None:
        skip = done_in(results)
        todo = [p for p in todo if p not in skip]
    job = Job(keep_going, str(cards) if cards is not None else None)
    sink: IO[bytes] | None = results.open("ab") if results is not None else None
    try:
        for raw in _run(todo, job, jobs, scheduler):
            if sink is not None:
                sink.write(raw + b"\n")
                sink.flush()
            report = _decoder.decode(raw)
            if on_done is not None:
                on_done(report)
            yield report
    finally:
        if sink is not None:
            sink.close()


def _run(todo: list[str], job: Job, jobs: int, scheduler: str | None) -> Iterator[bytes]:
    if scheduler is not None:
        yield from _run_dask(todo, job, scheduler)
    elif jobs <= 1 or len(todo) <= 1:
        for path in todo:
            yield verify_one(path, job)
    else:
        yield from _run_pool(todo, job, jobs)


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _worker_context() -> multiprocessing.context.BaseContext:
    """Forked workers where the system has fork: they start with the parent's imports,
    grammars and card databases instead of building them again (a spawned worker, the
    default elsewhere and in a process itself spawned, pays that start-up each time)."""
    if "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def _run_pool(todo: list[str], job: Job, jobs: int) -> Iterator[bytes]:
    """Run the jobs in worker processes, the largest files first (so that no worker is
    left with a big file at the end while the others wait).

    Each worker has its own pipe and is kept :data:`AHEAD` files ahead, so it never waits
    for the parent; near the end of the batch it is sent one file at a time, so that no
    worker still has files queued while another has none. The parent's share of the work
    is one small message out and one report back per file, through one selector that
    watches every worker's pipe and process for the whole batch (a general-purpose
    executor, or a selector made per wait, costs the parent several times that, taken
    from the same two cores). A worker that dies on a file (a crash in native code, the
    system killing it) gives that file a ``malformed`` report and is replaced; the files
    it had not begun go to the others.

    The objects the parent has built so far (modules, parsed card databases) are frozen
    out of the garbage collector while the workers run: forked workers then share those
    pages instead of copying them as a collection walks them.
    """
    waiting = deque(sorted(todo, key=_size, reverse=True))
    context = _worker_context()
    workers: list[_Worker] = []
    watch = selectors.DefaultSelector()

    def start() -> _Worker:
        worker = _Worker.start(context, job)
        workers.append(worker)
        watch.register(worker.connection, selectors.EVENT_READ, worker)
        watch.register(worker.process.sentinel, selectors.EVENT_READ, worker)
        return worker

    def share() -> int:
        """How many files a worker is kept ahead: :data:`AHEAD`, or one once fewer files
        wait than there are workers (so that none has files queued while another has none)."""
        return AHEAD if len(waiting) >= len(workers) else 1

    def retire(worker: _Worker, done: bool) -> None:
        """Stop watching a worker and stop it; one ``done`` with its files is not waited for."""
        workers.remove(worker)
        if worker.talking:
            watch.unregister(worker.connection)
        watch.unregister(worker.process.sentinel)
        worker.stop(wait=not done)

    gc.freeze()
    try:
        for _ in range(min(jobs, len(todo))):
            start().feed(waiting, 1)  # one file each first: no worker starts with none
        for worker in workers:
            worker.feed(waiting, share())
        while workers:
            for key, _ in watch.select():
                worker = key.data
                if worker not in workers:
                    continue  # retired on an earlier event of this round
                if key.fileobj is worker.connection:
                    raw = worker.receive()
                    if raw is not None:
                        worker.ahead.popleft()
                        worker.feed(waiting, share())
                        yield raw
                        if not worker.ahead and not waiting:
                            retire(worker, done=True)
                        # with files waiting and none in hand, the feed found the worker
                        # dead: its sentinel retires it and a new worker takes them
                        continue
                    worker.talking = False  # its end of the pipe closed: only its sentinel is left to wait for
                    watch.unregister(worker.connection)
                    continue
                if worker.talking:
                    continue  # it has ended: what it sent before is read first, then its pipe closes
                retire(worker, done=False)  # the worker died
                if worker.ahead:
                    lost = worker.ahead.popleft()
                    waiting.extendleft(reversed(worker.ahead))
                    yield _died(lost, worker.process.exitcode)
                if waiting:
                    start().feed(waiting, share())
    finally:
        for worker in workers:
            worker.stop()
        watch.close()
        gc.unfreeze()


AHEAD = 2
"""Files sent to a worker before its previous report is back (so it never idles)."""


@dataclass(eq=False)
class _Worker:
    """One worker process, its end of the pipe, and the files it was sent, oldest first."""

    process: Any
    connection: Connection
    ahead: deque[str]
    talking: bool = True
    """Whether its pipe is still open (it closes as the process exits)."""

    @classmethod
    def start(cls, context: multiprocessing.context.BaseContext, job: Job) -> _Worker:
        ours, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(theirs, job), daemon=True)  # type: ignore[attr-defined]
        process.start()
        theirs.close()
        return cls(process, ours, deque())

    def feed(self, waiting: deque[str], limit: int) -> None:
        """Send files until the worker is ``limit`` files ahead or none are left.

        A worker can die between sending a report and being sent its next file (it had
        already begun the file it dies on): its pipe is broken then, and the file that
        could not be sent goes back to the front of ``waiting``. Its death is handled when
        its sentinel is seen, like any other.
        """
        while waiting and len(self.ahead) < limit:
            path = waiting.popleft()
            try:
                self.connection.send_bytes(os.fsencode(path))
            except OSError:
                waiting.appendleft(path)
                return
            self.ahead.append(path)

    def receive(self) -> bytes | None:
        """The next report, or ``None`` if the worker is gone."""
        try:
            return self.connection.recv_bytes()
        except (EOFError, OSError):
            return None

    def stop(self, wait: bool = True) -> None:
        """Tell the worker to finish (if it still can), and wait for it unless ``wait`` is false.

        A worker that has sent every report it owed is not waited for: the system takes
        some milliseconds to tear down a process forked from a large one, and nothing of
        the batch depends on it. Such a worker is reaped with the next pool, or when
        this process exits (``multiprocessing`` joins its children then).
        """
        try:
            self.connection.send_bytes(b"")
        except (OSError, ValueError):
            pass
        self.connection.close()
        if not wait:
            return
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


def _serve(connection: Connection, job: Job) -> None:
    """A worker's loop: verify each file the parent sends, send its report back, until an
    empty message (or the parent's end of the pipe closes)."""
    while True:
        try:
            path = connection.recv_bytes()
        except EOFError:
            return
        if not path:
            return
        connection.send_bytes(verify_one(os.fsdecode(path), job))


def _died(path: str, exitcode: int | None) -> bytes:
    """The report of a file whose worker process died while verifying it."""
    how = f"exit code {exitcode}" if exitcode is not None and exitcode >= 0 else f"signal {-(exitcode or 0)}"
    return _encoder.encode(Report(path, None, "malformed", 0,
                                  [Finding(None, None, "malformed", None, f"the verifier process died on this file ({how})")]))


def _run_dask(todo: list[str], job: Job, scheduler: str) -> Iterator[bytes]:
    """Run the jobs on a Dask cluster; ``"local"`` starts one on this machine.

    The workers must see the replay files at the same paths (a shared file system) and
    have tcg-arbiter installed.
    """
    from dask.distributed import Client, LocalCluster
    from dask.distributed import as_completed as dask_completed

    cluster = None
    if scheduler == "local":
        cluster = LocalCluster(n_workers=max(1, (os.cpu_count() or 2)), threads_per_worker=1,
                               processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(scheduler)
    try:
        futures = client.map(verify_one, todo, job=job, pure=False)
        for future in dask_completed(futures):
            yield future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def summary_table(reports: list[Report]) -> Any:
    """Two rich tables: verdicts per game, then the rules broken most often."""
    from rich.table import Table

    from verifier.report import tally

    total, verdicts, rules = tally(reports)
    table = Table(title=f"{total} replay(s)")
    table.add_column("game")
    table.add_column("verdict")
    table.add_column("replays", justify="right")
    for (game, verdict), n in sorted(verdicts.items()):
        table.add_row(game, verdict, str(n))
    broken = Table(title="most broken rules")
    broken.add_column("rule")
    broken.add_column("findings", justify="right")
    for rule, n in rules.most_common(10):
        broken.add_row(rule, str(n))
    return table, broken
