"""``arbiter bench``: how fast the verifier and the grammars run, measured, never asserted.

For each game with a spec: a simulated corpus of at least ``min_events`` events is
written once (kept under ``corpus_dir`` for the next run), then timed

* ``startup``: the one-off cost of a process's first replay (imports, the card database
  read and its texts parsed), measured apart and not counted in the rates below;
* ``verify``: events per second, one process, end to end from the JSONL files;
* ``decode``: the same files merely decoded with msgspec (typed events), per second;
* ``ratio``: verify time over decode time;
* ``jobs2``: the speed-up of two worker processes over one on the same files, and
  beside it the processor time the two-job batch took (this process and its workers)
  over the one-job batch's (``jobs2_processor_ratio``). Two cores that kept their
  single-core pace, fed by a pool that cost nothing, would give 1.0; on two cores that
  leaves room for a speed-up of about 2 over that ratio (about, as the two sides' runs
  are not the same runs).

For each game with a grammar: card texts (shipped cards and the real texts of
``../shared/cards`` when present) parsed to trees per second, beside the rate of Lark's
lexer alone on the same texts, and the share of real texts that parse with no unknown
part.

How it measures (as ``timeit`` and ``pyperf`` advise): every timed part runs
``repeat`` times and the fastest run is kept, the one least disturbed by whatever else
the machine was doing; and each game's verification and each grammar are measured in a
fresh interpreter (``isolate``), so that the objects one measurement leaves behind do
not make the garbage collector of the next one slower.

How far to trust it: a wall clock on a shared machine measures the neighbours too. Each
game and grammar therefore also says how much of the machine's processor time the host
gave to other guests while it was timed (``host_steal``, from the ``steal`` column of
``/proc/stat``; ``None`` where there is none) and how far its slowest verify run lagged
its fastest (``verify_spread``; the first run, which also fills the caches, is left
out). The text output warns when either says the host was busy: the rates are then
lower bounds, and ratios of two timings are noisy. Instruction counts
(docs/performance.rst) do not depend on the host.
"""

from __future__ import annotations

import json
import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED_CARDS = ROOT.parent / "shared" / "cards"

REPEAT = 3
"""How many times each timed part runs by default (the fastest run counts)."""

BUSY_STEAL = 0.05
"""A share of stolen processor time above which the text output warns that the host was busy."""

BUSY_SPREAD = 1.25
"""A slowest-over-fastest ratio of the same verify run above which the text output warns."""

SLOW_PAIR = 1.15
"""A two-job batch's processor time over the one-job batch's above which the text output
says what room that leaves for the speed-up (a quiet two-core host gives about 1.1)."""

TARGETS = {"verify_events_per_s": 150_000, "verify_over_decode": 20.0, "texts_per_s": 10_000, "jobs2_speedup": 1.8}
"""The goals of issue 8, printed beside the measurements."""


@dataclass
class GameBench:
    game: str
    corpus_files: int = 0
    events: int = 0
    startup_s: float = 0.0
    """The first replay verified once before timing: imports, card database, grammar."""
    verify_s: float = 0.0
    verify_events_per_s: float = 0.0
    decode_events_per_s: float = 0.0
    verify_over_decode: float = 0.0
    jobs2_speedup: float | None = None
    jobs2_processor_ratio: float | None = None
    """The least processor time of the two-job runs (this process and its workers) over the
    least of the one-job runs: how much more processor time two jobs needed for the same
    files (``None`` where the system does not count it)."""
    verdicts: dict[str, int] = field(default_factory=dict)
    host_steal: float | None = None
    """The share of the machine's processor time taken by other guests while this game was timed."""
    verify_spread: float = 1.0
    """The slowest verify run's time over the fastest's, the first run left out since it also
    fills the caches (1.0: the host was steady)."""
    spec: str = ""
    """Which spec the measuring process ran (:func:`spec.compiled.status`): a build made stale
    by an edit while the bench ran is no longer used by the processes started after it."""


@dataclass
class GrammarBench:
    game: str
    texts: int = 0
    texts_per_s: float = 0.0
    lexer_texts_per_s: float = 0.0
    real_texts: int = 0
    real_share_without_unknown: float | None = None
    host_steal: float | None = None
    """The share of the machine's processor time taken by other guests while this grammar was timed."""


def corpus(game: str, folder: Path, min_events: int, seed: int = 1) -> list[Path]:
    """Simulated replays of ``game`` in ``folder`` holding at least ``min_events`` events."""
    return build_corpus(game, folder, min_events, seed)[0]


def build_corpus(game: str, folder: Path, min_events: int, seed: int = 1) -> tuple[list[Path], list[dict[str, Any]]]:
    """The replays of :func:`corpus`, and each seed the spec failed on (``game``, ``seed``,
    ``error``: as ``corpus_faults`` of the bench's JSON holds them).

    The seeds are taken in turn from ``seed``. A game the spec fails on (an error raised
    while simulating it, a bug of the spec) is left out of the corpus, and its error is
    kept in ``<game>-<seed>.fault`` beside the replays: a later run neither plays that
    seed again nor forgets the fault. ``SimulationError`` (no game can be played as
    asked) is raised.
    """
    from verifier.simulate import SimulationError, simulate

    folder.mkdir(parents=True, exist_ok=True)
    files = sorted(folder.glob(f"{game}-*.jsonl"))
    faults = [{"game": game, "seed": int(p.stem.rsplit("-", 1)[1]), "error": p.read_text(encoding="utf-8").strip()}
              for p in sorted(folder.glob(f"{game}-*.fault"))]
    total = sum(len(p.read_bytes().splitlines()) - 1 for p in files)
    index = len(files) + len(faults)
    while total < min_events:
        name = folder / f"{game}-{seed + index:06d}"
        try:
            lines = simulate(game, seed + index, passes="explicit")
        except SimulationError:
            raise
        except Exception as error:  # noqa: BLE001 - a bug of the spec in one game must not stop the bench
            said = f"{type(error).__name__}: {error}"
            name.with_suffix(".fault").write_text(said + "\n", encoding="utf-8")
            faults.append({"game": game, "seed": seed + index, "error": said})
            index += 1
            continue
        path = name.with_suffix(".jsonl")
        path.write_bytes(b"\n".join(lines) + b"\n")
        files.append(path)
        total += len(lines) - 1
        index += 1
    return files, faults


class HostWatch:
    """How much processor time the host gave to other guests from the watch's making to each
    reading of :attr:`steal_share` (the ``steal`` column of ``/proc/stat``, summed over the CPUs)."""

    STAT = Path("/proc/stat")

    def __init__(self) -> None:
        self._start = self._read()

    @classmethod
    def _read(cls) -> tuple[int, int] | None:
        """(stolen ticks, all ticks) of the machine so far, or ``None`` where the system keeps no such count."""
        try:
            first = cls.STAT.read_text(encoding="ascii").split("\n", 1)[0].split()
        except OSError:
            return None
        if len(first) < 9 or first[0] != "cpu" or not all(n.isdigit() for n in first[1:9]):
            return None
        ticks = [int(n) for n in first[1:9]]  # user nice system idle iowait irq softirq steal (guest time is inside user)
        return ticks[7], sum(ticks)

    @property
    def steal_share(self) -> float | None:
        """The stolen share of the machine's processor time since the watch was made."""
        now = self._read()
        if now is None or self._start is None or now[1] <= self._start[1]:
            return None
        return (now[0] - self._start[0]) / (now[1] - self._start[1])


def _spread(runs: list[float]) -> float:
    """The slowest of ``runs`` over the fastest, the first left out when there are more: it
    also fills the caches (card readings, z3's answers), so it is slower on any host."""
    warm = runs[1:] or runs
    return max(warm) / min(warm) if warm and min(warm) > 0 else 1.0


def processor_seconds() -> float | None:
    """Processor time (user and system) of this process and of its children that have ended
    and been waited for; ``None`` where the system does not count it."""
    try:
        import resource
    except ImportError:  # pragma: no cover - a system without getrusage
        return None
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def _wait_for_workers() -> None:
    """Wait for this process's worker processes to end, so that their processor time is counted.

    A pool does not wait for workers that sent every report they owed (nothing of the
    batch depends on them); the bench does, after the clock has stopped.
    """
    for child in multiprocessing.active_children():
        child.join()


def _fastest(repeat: int, run: Callable[[], object], runs: list[float] | None = None,
             processor: list[float] | None = None) -> float:
    """The shortest wall time of ``repeat`` runs of ``run`` (at least one); every run's
    time is added to ``runs`` when given.

    With ``processor``, each run's processor time (this process and the workers it
    started, waited for once the clock has stopped) is added to it as well.
    """
    best = float("inf")
    for _ in range(max(1, repeat)):
        before = processor_seconds() if processor is not None else None
        start = time.perf_counter()
        run()
        took = time.perf_counter() - start
        best = min(best, took)
        if runs is not None:
            runs.append(took)
        if processor is not None and before is not None:
            _wait_for_workers()
            after = processor_seconds()
            if after is not None:
                processor.append(after - before)
    return best


def _fastest_in_turns(repeat: int, first: Callable[[], object], second: Callable[[], object],
                      first_runs: list[float] | None = None,
                      processor: tuple[list[float], list[float]] | None = None) -> tuple[float, float]:
    """The shortest wall times of ``repeat`` runs each of ``first`` and ``second``, run in turns.

    A ratio of two timings (verify against decode, one job against two) is only as good
    as the host was alike for both: a host whose speed moves between runs (a shared
    machine) would slow one side's whole series and not the other's if each were timed
    in one stretch. Taken in turns, each side's best run comes from the same stretch.
    With ``processor``, each side's runs' processor times are added to its list.
    """
    first_cpu, second_cpu = processor if processor is not None else (None, None)
    best_first = best_second = float("inf")
    for _ in range(max(1, repeat)):
        best_first = min(best_first, _fastest(1, first, first_runs, first_cpu))
        best_second = min(best_second, _fastest(1, second, None, second_cpu))
    return best_first, best_second


def _processor_ratio(first: list[float], second: list[float]) -> float | None:
    """The least processor time of ``second``'s runs over the least of ``first``'s."""
    if not first or not second or min(first) <= 0:
        return None
    return min(second) / min(first)


def bench_game(game: str, folder: Path, min_events: int, jobs: bool = True, repeat: int = REPEAT) -> GameBench:
    """Time verifying and decoding a simulated corpus of ``game`` (fastest of ``repeat`` runs each)."""
    import msgspec

    from spec import compiled, load_game
    from verifier.batch import verify_many
    from verifier.verify import verify_file

    files = corpus(game, folder, min_events)
    out = GameBench(game, len(files), spec=compiled.status())
    start = time.perf_counter()
    verify_file(files[0])  # the one-off start: imports, the card database read and parsed
    out.startup_s = time.perf_counter() - start

    def verify_all() -> None:
        out.events, out.verdicts = 0, {}
        for path in files:
            report = verify_file(path)
            out.events += report.events
            out.verdicts[report.verdict] = out.verdicts.get(report.verdict, 0) + 1

    decoder = load_game(game).decoder()
    header = msgspec.json.Decoder(dict[str, Any])
    decoded = 0

    def decode_all() -> None:
        nonlocal decoded
        decoded = 0
        for path in files:
            lines = path.read_bytes().splitlines()
            header.decode(lines[0])
            for line in lines[1:]:
                decoder.decode(line)
                decoded += 1

    host = HostWatch()
    runs: list[float] = []
    out.verify_s, decode_s = _fastest_in_turns(repeat, verify_all, decode_all, runs)
    out.verify_spread = _spread(runs)
    out.verify_events_per_s = out.events / out.verify_s if out.verify_s else 0.0
    out.decode_events_per_s = decoded / decode_s if decode_s else 0.0
    out.verify_over_decode = out.verify_s / decode_s if decode_s else 0.0
    if jobs:
        cpu_one: list[float] = []
        cpu_two: list[float] = []
        one, two = _fastest_in_turns(repeat, lambda: list(verify_many(files, jobs=1)),
                                     lambda: list(verify_many(files, jobs=2)), processor=(cpu_one, cpu_two))
        out.jobs2_speedup = one / two if two else None
        out.jobs2_processor_ratio = _processor_ratio(cpu_one, cpu_two)
    out.host_steal = host.steal_share
    return out


def _texts(game: str) -> tuple[list[tuple[str, str | None]], list[tuple[str, str | None]]]:
    """(shipped texts, real texts) of a game, each with its card type."""
    from grammar.parser import grammar_of
    from spec.core.cards import CardDatabase

    shipped: list[tuple[str, str | None]] = []
    for path in sorted((ROOT / "spec" / game / "cards").glob("*.toml")):
        shipped.extend((c.text, c.type) for c in CardDatabase.load(path, game) if c.text)
    real: list[tuple[str, str | None]] = []
    pool = SHARED_CARDS / f"{game}.dev.jsonl"
    if pool.exists():
        for line in pool.read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = json.loads(line)
                real.append((grammar_of(game).pool_text(record), record.get("type")))
    return shipped, real


def bench_grammar(game: str, rounds: int = 3, repeat: int = REPEAT) -> GrammarBench:
    """Time parsing every shipped and real text of ``game``, and Lark's lexer alone (fastest of ``repeat`` runs)."""
    from grammar.ast import unknown_parts
    from grammar.parser import get_parser, grammar_of, parse_lenient

    shipped, real = _texts(game)
    spec = grammar_of(game)
    texts = [(t, k if spec.card_types is None or k in spec.card_types else None) for t, k in shipped + real]
    out = GrammarBench(game, len(texts), real_texts=len(real))
    if not texts:
        return out
    parser = get_parser(game)
    host = HostWatch()
    for text, kind in texts:  # warm the caches once
        parse_lenient(text, game, card_type=kind)

    def parse_all() -> None:
        for _ in range(rounds):
            for text, kind in texts:
                parse_lenient(text, game, card_type=kind)

    out.texts_per_s = rounds * len(texts) / _fastest(repeat, parse_all)
    from lark.lexer import LexerThread

    lexer = parser._build_lexer()  # the grammar's terminals as one basic lexer, built once
    lines = [line for text, _k in texts for line in text.split("\n") if line.strip()]

    def lex_all() -> None:
        for _ in range(rounds):
            for line in lines:
                try:
                    for _token in LexerThread.from_text(lexer, line).lex(None):
                        pass
                except Exception:  # noqa: BLE001, S110 - words outside the vocabulary end that line's lexing
                    pass

    lexed = _fastest(repeat, lex_all)
    out.lexer_texts_per_s = rounds * len(texts) / lexed if lexed else 0.0
    out.host_steal = host.steal_share
    if real:
        clean = sum(1 for text, kind in real
                    if not unknown_parts(parse_lenient(text, game, card_type=kind if spec.card_types is None or kind in spec.card_types else None)))
        out.real_share_without_unknown = clean / len(real)
    return out


def _in_fresh_process(isolate: bool, function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)``, in a new interpreter when ``isolate`` (see the module docstring)."""
    if not isolate:
        return function(*args)
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(function, *args).result()


def run(games: list[str], corpus_dir: Path, min_events: int, jobs: bool = True, repeat: int = REPEAT,
        isolate: bool = True) -> dict[str, Any]:
    """Every measurement, as a JSON-ready dict."""
    from grammar.parser import GAMES as GRAMMARS
    from spec import GAMES as SPECS
    from spec import compiled

    result: dict[str, Any] = {"targets": TARGETS, "repeat": repeat, "isolated": isolate, "games": [], "grammars": [],
                              "spec": compiled.status(), "compiled": compiled.ACTIVE, "corpus_faults": []}
    for game in games:
        if game in SPECS:
            result["corpus_faults"] += build_corpus(game, corpus_dir / game, min_events)[1]  # written (once) outside the timed process
            measured = _in_fresh_process(isolate, bench_game, game, corpus_dir / game, min_events, jobs, repeat)
            result["games"].append(asdict(measured))
        if game in GRAMMARS:
            result["grammars"].append(asdict(_in_fresh_process(isolate, bench_grammar, game, 3, repeat)))
    return result


def to_text(result: dict[str, Any]) -> str:
    """The measurements as a readable table, with the targets."""
    t = result["targets"]
    how = f"fastest of {result.get('repeat', 1)} runs" + (", each game in a fresh process" if result.get("isolated") else "")
    lines = [f"spec: {result['spec']}"] if "spec" in result else []
    lines.append(f"verification (one process, end to end from JSONL; {how})")
    for g in result["games"]:
        speed = f"{g['jobs2_speedup']:.2f}x" if g["jobs2_speedup"] else "-"
        work = f", {g['jobs2_processor_ratio']:.2f}x one job's processor time" if g.get("jobs2_processor_ratio") else ""
        lines.append(f"  {g['game']:16} {g['events']:>8} events in {g['corpus_files']} files: "
                     f"verify {g['verify_events_per_s']:>10,.0f}/s (target {t['verify_events_per_s']:,}), "
                     f"decode {g['decode_events_per_s']:>10,.0f}/s, verify/decode {g['verify_over_decode']:.1f} "
                     f"(target <= {t['verify_over_decode']:.0f}), --jobs 2 speed-up {speed} (target {t['jobs2_speedup']}{work}); "
                     f"start-up {g['startup_s']:.2f} s")
        if g.get("spec") and g["spec"] != result.get("spec"):
            lines.append(f"    measured with another spec than the one above: {g['spec']}")
        lines.extend(_stale_corpus_line(g))
    lines.append("card texts")
    for g in result["grammars"]:
        share = f"{g['real_share_without_unknown']:.1%} of {g['real_texts']} real texts parse with no unknown part" \
            if g["real_share_without_unknown"] is not None else "no real texts"
        lines.append(f"  {g['game']:16} {g['texts']:>5} texts: parse {g['texts_per_s']:>9,.0f}/s (target {t['texts_per_s']:,}), "
                     f"lexer alone {g['lexer_texts_per_s']:>9,.0f}/s; {share}")
    lines.extend(_host_lines(result))
    lines.extend(fault_lines(result.get("corpus_faults", [])))
    return "\n".join(lines)


def _stale_corpus_line(game: dict[str, Any]) -> list[str]:
    """A line when replays of a game's corpus are no longer legal: the corpus is kept between
    runs, and a spec that has since found a move illegal stops verifying those replays early."""
    verdicts = game.get("verdicts") or {}
    others = {verdict: n for verdict, n in sorted(verdicts.items()) if verdict != "legal"}
    if not others:
        return []
    said = ", ".join(f"{n} {verdict}" for verdict, n in others.items())
    return [(f"    {sum(others.values())} of {game['corpus_files']} replays of the corpus are not legal under this spec ({said}): "
            f"they were simulated by an older one; remove the corpus (.bench/{game['game']} by default) to build it afresh")]


def fault_lines(faults: list[dict[str, Any]], whose: str = "") -> list[str]:
    """A line for each game of a corpus the spec failed on (:func:`build_corpus`)."""
    return [f"spec fault{whose}: {f['game']} seed {f['seed']} was left out of the corpus ({f['error']})" for f in faults]


def _host_lines(result: dict[str, Any]) -> list[str]:
    """What the host did meanwhile: the stolen share of processor time and the spread of
    the verify runs, with a warning when either says the figures above are disturbed."""
    parts = result["games"] + result["grammars"]
    steals = [p["host_steal"] for p in parts if p.get("host_steal") is not None]
    spreads = [g["verify_spread"] for g in result["games"] if "verify_spread" in g]
    pairs = [g["jobs2_processor_ratio"] for g in result["games"] if g.get("jobs2_processor_ratio")]
    if not steals and not spreads:
        return []
    said = []
    if steals:
        said.append(f"other guests took {min(steals):.0%}-{max(steals):.0%} of the processor time")
    if spreads:
        said.append(f"the slowest warm verify run took up to {max(spreads):.2f}x the fastest")
    lines = [f"host: {'; '.join(said)}"]
    if (steals and max(steals) > BUSY_STEAL) or (spreads and max(spreads) > BUSY_SPREAD):
        lines.append("  the host was busy: the rates are lower bounds and the ratios noisy; "
                     "compare versions with --against, or by instruction counts (docs/performance.rst)")
    if pairs and max(pairs) > SLOW_PAIR:
        lines.append(f"  with two jobs a batch took up to {max(pairs):.2f}x the processor time of one job: "
                     f"on two cores that leaves room for a speed-up of about {2 / max(pairs):.2f}x (the extra "
                     f"time is the pool's own work and the cores' slower pace when both are busy)")
    return lines
