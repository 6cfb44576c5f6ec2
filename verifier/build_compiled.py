"""Build the compiled spec: ``python -m verifier.build_compiled [--force]``.

Copies ``spec/`` into ``.build/compiled/spec`` (only the files that changed, so the C
compiler redoes only what changed) and compiles the modules of
:data:`spec.compiled.COMPILED` there with mypyc. The stamp is written last, so a build that
fails half-way is never used; ``spec`` then runs interpreted, as it does on a machine
without a C compiler. Exits 0 when the build is fresh, 1 when it could not be made (with
the reason on stderr): ``make`` goes on either way.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

from spec import compiled

_SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify
group, work, *modules = sys.argv[1:]
sys.argv[1:] = ["build_ext", "--inplace", "--parallel", "2", "--build-temp", work + "/temp", "--build-lib", work + "/lib"]
setup(name="tcg-arbiter-compiled", packages=[], ext_modules=mypycify(
    [m.replace(".", "/") + ".py" for m in modules], opt_level="3", multi_file=True,
    group_name=group, target_dir=work))
"""
"""The build, run in ``ROOT``: the extension files land beside the copy's sources (and the
shared library in ``ROOT``); mypyc's C and object files go to ``work``."""


def sync(source: Path, copy: Path) -> int:
    """Make ``copy`` hold exactly the package's files; returns how many were written."""
    wanted = {path.relative_to(source): path for path in compiled.source_files(source)}
    written = 0
    for relative, path in wanted.items():
        target = copy / relative
        data = path.read_bytes()
        if not target.is_file() or target.read_bytes() != data:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            written += 1
    for stale in compiled.source_files(copy):
        if stale.relative_to(copy) not in wanted:
            stale.unlink()
    return written


def build(root: Path = compiled.ROOT, force: bool = False) -> str | None:
    """Make the build fresh; ``None`` when it is, else why it could not be made (or was not)."""
    if os.environ.get(compiled.OFF, "") not in ("", "0"):
        return f"{compiled.OFF} is set: nothing built"
    digest = compiled.digest()
    stamp = compiled.read_stamp(root)
    if not force and stamp is not None and stamp.get("digest") == digest:
        return None
    (root / "stamp.json").unlink(missing_ok=True)
    root.mkdir(parents=True, exist_ok=True)
    sync(compiled.SOURCE, root / "spec")
    started = time.monotonic()
    work = root.parent / "mypyc"
    done = subprocess.run([sys.executable, "-c", _SETUP, compiled.GROUP, str(work), *compiled.COMPILED], cwd=root,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        return f"mypyc could not compile the spec (exit {done.returncode}):\n{tail}"
    if compiled.digest(root / "spec") != digest:
        return "the sources changed while the build ran; run it again"
    library = _tidy(root)
    if library is None:
        return f"mypyc made no shared library {compiled.GROUP}__mypyc in {root}"
    (root / "stamp.json").write_text(json.dumps({
        "digest": digest, "modules": list(compiled.COMPILED), "python": sys.version, "shared_library": library,
        "seconds": round(time.monotonic() - started, 1),
    }, indent=1), encoding="utf-8")
    return None


def _tidy(root: Path) -> str | None:
    """The file name of the build's shared library; older builds' libraries (named by a
    digest of their module list before the group had a name) and the C sources mypyc
    used to leave in ``root/build`` are removed."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    library = f"{compiled.GROUP}__mypyc{suffix}"
    for old in root.glob("*__mypyc.*"):
        if old.name != library:
            old.unlink()
    shutil.rmtree(root / "build", ignore_errors=True)
    return library if (root / library).is_file() else None


def main(argv: list[str] | None = None) -> int:
    """The command line: build (``--force`` rebuilds a fresh build too)."""
    args = sys.argv[1:] if argv is None else argv
    problem = build(force="--force" in args)
    if problem is not None:
        print(f"note: the spec runs interpreted: {problem}", file=sys.stderr)
        return 1
    print(f"compiled spec is fresh: {compiled.ROOT} ({len(compiled.COMPILED)} modules)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
