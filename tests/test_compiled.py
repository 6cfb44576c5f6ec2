"""The compiled spec (spec.compiled, verifier.build_compiled): used only while fresh, and
deciding every shipped replay exactly as the interpreted spec does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import spec
from spec import compiled
from verifier import build_compiled

ROOT = Path(__file__).resolve().parent.parent


def _fake_build(tmp_path: Path, digest: str) -> Path:
    root = tmp_path / "compiled"
    (root / "spec").mkdir(parents=True)
    (root / "stamp.json").write_text(json.dumps({"digest": digest}), encoding="utf-8")
    return root


def test_a_fresh_build_is_the_package_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shared library the stamp names is loaded from its file; nothing of the build
    folder (the copy of spec, mypyc's leftovers) becomes importable from sys.path."""
    monkeypatch.delenv(compiled.OFF, raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(sys, "modules", dict(sys.modules))
    root = _fake_build(tmp_path, compiled.digest())
    stamp = json.loads((root / "stamp.json").read_text(encoding="utf-8"))
    (root / "stamp.json").write_text(json.dumps({**stamp, "shared_library": "fake__mypyc.py"}), encoding="utf-8")
    (root / "fake__mypyc.py").write_text("LOADED_FROM = __file__\n", encoding="utf-8")  # stands for the .so
    before = list(sys.path)
    assert compiled.why_not(root) is None
    assert compiled.activate(["source"], root) == [str(root / "spec")]
    assert sys.modules["fake__mypyc"].LOADED_FROM == str(root / "fake__mypyc.py")
    assert sys.path == before


def test_a_build_whose_library_is_gone_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(compiled.OFF, raising=False)
    root = _fake_build(tmp_path, compiled.digest())
    stamp = json.loads((root / "stamp.json").read_text(encoding="utf-8"))
    (root / "stamp.json").write_text(json.dumps({**stamp, "shared_library": "gone__mypyc.so"}), encoding="utf-8")
    assert compiled.activate(["source"], root) == ["source"]
    assert "gone__mypyc.so is missing" in (compiled.why_not(root) or "")


def test_a_build_whose_stamp_names_no_library_is_found_on_the_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build made before stamps named their library: its folder goes on sys.path, as then."""
    monkeypatch.delenv(compiled.OFF, raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))
    root = _fake_build(tmp_path, compiled.digest())
    assert compiled.activate(["source"], root) == [str(root / "spec")]
    assert sys.path[0] == str(root)


@pytest.mark.skipif(not compiled.ACTIVE, reason="runs on the compiled spec")
def test_the_build_in_use_keeps_its_folder_off_the_path() -> None:
    stamp = compiled.read_stamp() or {}
    assert stamp["shared_library"] == f"{compiled.GROUP}__mypyc{sysconfig.get_config_var('EXT_SUFFIX')}"
    assert f"{compiled.GROUP}__mypyc" in sys.modules
    assert str(compiled.ROOT) not in sys.path
    assert not (compiled.ROOT / "build").exists()  # mypyc's C sources live in ROOT's sibling "mypyc"
    assert list(compiled.ROOT.glob("*__mypyc.*")) == [compiled.ROOT / str(stamp["shared_library"])]


def test_a_stale_build_is_never_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(compiled.OFF, raising=False)
    root = _fake_build(tmp_path, "0" * 64)
    assert compiled.activate(["source"], root) == ["source"]
    assert "older than the sources" in (compiled.why_not(root) or "")


def test_no_build_and_switched_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(compiled.OFF, raising=False)
    assert compiled.activate(["source"], tmp_path / "none") == ["source"]
    assert "no compiled build" in (compiled.why_not(tmp_path / "none") or "")
    monkeypatch.setenv(compiled.OFF, "1")
    root = _fake_build(tmp_path, compiled.digest())
    assert compiled.activate(["source"], root) == ["source"]
    assert compiled.why_not(root) == f"{compiled.OFF} is set"


def test_the_digest_follows_every_file_of_the_package(tmp_path: Path) -> None:
    package = tmp_path / "spec"
    (package / "game").mkdir(parents=True)
    (package / "game" / "rules.tsv").write_text("a\n", encoding="utf-8")
    (package / "x.py").write_text("A = 1\n", encoding="utf-8")
    first = compiled.digest(package)
    (package / "x.cpython-311-x86_64-linux-gnu.so").write_bytes(b"built")  # build output: not a source
    assert compiled.digest(package) == first
    (package / "game" / "rules.tsv").write_text("b\n", encoding="utf-8")
    assert compiled.digest(package) != first


def test_sync_writes_only_what_changed_and_drops_what_went(tmp_path: Path) -> None:
    source, copy = tmp_path / "src", tmp_path / "copy"
    (source / "sub").mkdir(parents=True)
    (source / "a.py").write_text("A = 1\n", encoding="utf-8")
    (source / "sub" / "b.toml").write_text("b = 2\n", encoding="utf-8")
    assert build_compiled.sync(source, copy) == 2
    assert build_compiled.sync(source, copy) == 0
    (source / "a.py").write_text("A = 2\n", encoding="utf-8")
    (source / "sub" / "b.toml").unlink()
    assert build_compiled.sync(source, copy) == 1
    assert (copy / "a.py").read_text(encoding="utf-8") == "A = 2\n"
    assert not (copy / "sub" / "b.toml").exists()


def test_bench_says_which_spec_it_ran() -> None:
    from verifier import bench

    result = bench.run([], ROOT / ".bench-unused", 1, jobs=False, repeat=1, isolate=False)
    assert result["compiled"] is compiled.ACTIVE
    assert bench.to_text(result).splitlines()[0] == f"spec: {compiled.status()}"


COMPILED_GAMES = sorted({module.split(".")[1] for module in compiled.COMPILED} - {"core"})
"""The games with compiled modules (the shared ``spec.core`` is compiled too, and judged
through every game)."""


def test_the_shared_core_is_compiled_but_not_its_structs_nor_what_games_override() -> None:
    """The core's per-event parts (card objects and zones, the queue, deck knowledge, turn
    structures) are compiled; the modules of msgspec structs (events, findings, card
    definitions, effects, observations), the classes games and tests subclass with decorated
    overrides (``Game``, ``Policy``), the generic frozen ``Check`` and the interpreter (games
    narrow ``resolution.need`` across calls that clear it: see spec.compiled) are not."""
    ours = {m for m in compiled.COMPILED if m.startswith("spec.core.")}
    assert {"spec.core.state", "spec.core.queue", "spec.core.hidden", "spec.core.turns"} <= ours
    assert not ours & {"spec.core.game", "spec.core.findings", "spec.core.cards", "spec.core.conflicts", "spec.core.interpreter",
                       "spec.core.hidden_z3", "spec.core.rules", "spec.core.rulebook_lint"}


def test_deck_knowledge_copies_every_field() -> None:
    """A copy of deck knowledge is made through its constructor and then overwritten (a compiled
    class's ``__new__`` runs ``__init__``): every field must come across, and be its own."""
    from collections import Counter

    from spec.core.hidden import DeckKnowledge

    knowledge = DeckKnowledge(Counter(a=2), lambda name: 3, "P1")
    assert knowledge.show("a", 4, "drew a")
    knowledge.mark(["a", "b"], "a card of a kind")
    other = knowledge.copy()
    fields = ("checked", "done", "journal", "length", "limit", "located", "marks", "now", "player", "registered")
    assert [getattr(other, name) for name in fields] == [getattr(knowledge, name) for name in fields]
    assert other.limit("z") == 3 and other.located is not knowledge.located
    other.reveal("a")
    assert knowledge.located["a"] == 1 and other.located["a"] == 2


def test_a_turn_structure_draws_its_graph() -> None:
    """networkx is imported by name inside the compiled module (it has no type stubs)."""
    from spec.core.turns import TurnStructure

    turn = TurnStructure([("draw", "r1"), ("main", "r2")], [("draw", "main", ""), ("main", "draw", "next turn")])
    graph = turn.graph()
    assert graph.nodes["main"]["rule"] == "r2" and graph.edges["main", "draw"]["label"] == "next turn"
    assert turn.next("draw") == "main"


def _reports(game: str, env_off: bool) -> list[dict[str, object]]:
    """Every shipped replay of ``game`` verified in a fresh process, plain and keep-going."""
    env = dict(os.environ)
    env.pop(compiled.OFF, None)
    if env_off:
        env[compiled.OFF] = "1"
    code = ("import json, msgspec; from pathlib import Path; from spec import compiled; from verifier.verify import verify_file\n"
            f"files = sorted(Path('replays/{game}').rglob('*.jsonl'))\n"
            "reports = [msgspec.to_builtins(verify_file(f, keep_going=k)) for f in files for k in (False, True)]\n"
            "print(json.dumps({'active': compiled.ACTIVE, 'reports': reports}))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    out = json.loads(done.stdout)
    assert out["active"] is (not env_off)
    return out["reports"]


@pytest.mark.skipif(not compiled.ACTIVE, reason=f"the compiled spec is not in use here: {compiled.REASON}")
@pytest.mark.parametrize("game", COMPILED_GAMES)
def test_the_compiled_spec_decides_every_shipped_replay_as_the_interpreted_one(game: str) -> None:
    assert spec.__path__ == [str(compiled.ROOT / "spec")]
    compiled_reports, interpreted = _reports(game, env_off=False), _reports(game, env_off=True)
    assert len(compiled_reports) > 50
    assert compiled_reports == interpreted


def test_the_builder_builds_nothing_while_switched_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(compiled.OFF, "1")
    assert build_compiled.build(tmp_path / "root") == f"{compiled.OFF} is set: nothing built"
    assert not (tmp_path / "root").exists()
