"""The spec compiled with mypyc: which modules, where the build lives, when it is used.

The per-event work of verification is the games' own Python code, so the fastest way to
run it is to compile it. ``python -m verifier.build_compiled`` (run by ``make``) copies
the whole ``spec`` package to ``.build/compiled/spec`` in the checkout and compiles the
modules named in :data:`COMPILED` there with mypyc, beside their sources and data. The
build's stamp holds a digest of every file of ``spec/`` it was made from, and the Python
it was made for.

``spec/__init__.py`` calls :func:`activate` first thing: the package is imported from the
build only while the build is *fresh*, made from exactly the files in ``spec/`` now by
this Python. Any edit makes it stale, and the package is imported from its sources as
usual: an old build never hides a change. The compiled and the interpreted spec decide
every replay alike (a test compares their reports over the shipped replays); setting
``ARBITER_INTERPRETED=1`` turns the build off. ``arbiter bench`` says which one it ran.

This module must stay importable on its own (standard library only): it runs before any
other part of the package.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

COMPILED: tuple[str, ...] = (
    "spec.bakugan.actions",
    "spec.bakugan.board",
    "spec.bakugan.conflicts",
    "spec.bakugan.effects",
    "spec.bakugan.game",
    "spec.bakugan.state",
    "spec.bakugan.targets",
    "spec.bakugan.turn",
    "spec.battle_monsters.actions",
    "spec.battle_monsters.board",
    "spec.battle_monsters.conflicts",
    "spec.battle_monsters.effects",
    "spec.battle_monsters.game",
    "spec.battle_monsters.state",
    "spec.battle_monsters.turn",
    "spec.core.deck",
    "spec.core.hidden",
    "spec.core.queue",
    "spec.core.state",
    "spec.core.turns",
    "spec.epic_battles.actions",
    "spec.epic_battles.board",
    "spec.epic_battles.catalog",
    "spec.epic_battles.conflicts",
    "spec.epic_battles.effects",
    "spec.epic_battles.game",
    "spec.epic_battles.state",
    "spec.epic_battles.turn",
    "spec.neopets.actions",
    "spec.neopets.board",
    "spec.neopets.conflicts",
    "spec.neopets.effects",
    "spec.neopets.game",
    "spec.neopets.state",
    "spec.neopets.turn",
    "spec.ttcg.actions",
    "spec.ttcg.board",
    "spec.ttcg.conflicts",
    "spec.ttcg.edits",
    "spec.ttcg.effects",
    "spec.ttcg.game",
    "spec.ttcg.state",
    "spec.ttcg.turn",
)
"""The modules compiled with mypyc.

A module joins when it compiles and every test passes on the build. What keeps one out:
msgspec structs (mypyc drops their class options: events and decklists live in their own
modules, left interpreted), subclasses of ``list`` or ``set`` (Battle Monsters' and TTCG's
``fieldlist``), and mypyc's other limits (see "The compiled spec" in docs/performance.rst).
Of the shared ``spec.core``, the parts every event touches are compiled (card objects and
zones, the queue, deck knowledge, turn structures); ``interpreter`` is not (compiled code
that narrowed ``resolution.need`` to a ``Need`` reads it so even after a call cleared it,
and a compiled ``Need`` is then checked and refused: TTCG's ``_feed``), nor ``game``
(games override its methods under ``BOOK.encodes`` decorators, which mypyc cannot compile
over a compiled base), ``rules`` (its generic frozen ``Check`` fails when the compiled
module loads), ``conflicts`` (tests subclass ``Policy``) and the struct modules.
"""

SOURCE = Path(__file__).resolve().parent
"""The ``spec`` package's sources."""

ROOT = SOURCE.parent / ".build" / "compiled"
"""Where the build lives: ``ROOT/spec`` is the copy, ``ROOT/stamp.json`` its stamp, and
``ROOT/spec__mypyc...so`` the shared library that holds the compiled code of every module
(each module's own extension file only hands its name over to it). mypyc's C sources and
object files are kept apart, in ``ROOT``'s sibling ``mypyc`` (so the next build recompiles
only what changed)."""

GROUP = "spec"
"""mypyc's name for the group of compiled modules: the shared library is the top-level
extension module ``spec__mypyc`` in ``ROOT``."""

OFF = "ARBITER_INTERPRETED"
"""The environment variable that, set to anything but empty or ``0``, turns the build off."""

_SKIPPED_SUFFIXES = (".so", ".pyd", ".pyc", ".c", ".o")


def source_files(package: Path = SOURCE) -> list[Path]:
    """Every file of the package that the build copies (sources and data), in a fixed order."""
    return sorted(
        path for path in package.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and not path.name.endswith(_SKIPPED_SUFFIXES)
    )


def digest(package: Path = SOURCE) -> str:
    """A digest of the package's files (names and contents) and of this Python's ABI."""
    hasher = hashlib.sha256(f"{sys.implementation.cache_tag} {sys.version}".encode())
    for path in source_files(package):
        hasher.update(path.relative_to(package).as_posix().encode() + b"\0")
        hasher.update(path.read_bytes() + b"\0")
    return hasher.hexdigest()


def read_stamp(root: Path = ROOT) -> dict[str, object] | None:
    """The build's stamp, or ``None`` when there is no finished build."""
    try:
        stamp = json.loads((root / "stamp.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return stamp if isinstance(stamp, dict) else None


def why_not(root: Path = ROOT) -> str | None:
    """Why the build is not used, or ``None`` when it is fresh and switched on."""
    if os.environ.get(OFF, "") not in ("", "0"):
        return f"{OFF} is set"
    stamp = read_stamp(root)
    if stamp is None:
        return "no compiled build (make compiles one)"
    if stamp.get("digest") != digest():
        return "the compiled build is older than the sources (make rebuilds it)"
    library = stamp.get("shared_library")
    if isinstance(library, str) and not (root / library).is_file():
        return f"the compiled build's shared library {library} is missing (make rebuilds it)"
    return None


ACTIVE: bool = False
"""Whether this process imports the compiled build (set by :func:`activate`)."""

REASON: str = "not asked yet"
"""When the build is not used, why (for ``arbiter bench``)."""


def activate(package_path: list[str], root: Path = ROOT) -> list[str]:
    """The ``__path__`` the ``spec`` package should have: the build's copy when fresh."""
    global ACTIVE, REASON
    reason = why_not(root)
    if reason is not None:
        REASON = reason
        return package_path
    _load_shared_library(root)
    ACTIVE, REASON = True, ""
    return [str(root / "spec")]


def _load_shared_library(root: Path) -> None:
    """Import the build's shared library under its top-level name, from its file.

    Each compiled module's extension file imports the shared library by name. It is
    loaded here from the file the stamp names, so that nothing of the build folder (the
    copy of ``spec``, mypyc's leftovers) becomes importable from ``sys.path``. A build
    made before the stamp named its library is found through ``sys.path``, as then.
    """
    stamp = read_stamp(root) or {}
    library = stamp.get("shared_library")
    if not isinstance(library, str):
        if str(root) not in sys.path:
            sys.path.insert(0, str(root))
        return
    name = library.split(".", 1)[0]
    if name in sys.modules:
        return
    from importlib.util import module_from_spec, spec_from_file_location

    found = spec_from_file_location(name, root / library)
    if found is None or found.loader is None:
        raise ImportError(f"the compiled spec's shared library {root / library} cannot be loaded")
    module = module_from_spec(found)
    sys.modules[name] = module
    found.loader.exec_module(module)


def status() -> str:
    """One line for people: whether the compiled spec runs, and which modules."""
    if ACTIVE:
        return f"compiled with mypyc ({len(COMPILED)} modules: {', '.join(sorted({m.split('.')[1] for m in COMPILED}))})"
    return f"interpreted ({REASON})"
