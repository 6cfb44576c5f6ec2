"""Parsed card texts kept on disk, so that a process's first replay need not parse them.

A judge verifying one replay pays for everything once: the imports, the card database,
and above all the first parse of each card text, which builds the lexer of every parser
state it passes through (hundreds of regular expressions for a Battle Monsters deck).
The trees those parses give are kept here, in the user cache directory beside Lark's
own cache, and read back by the next process instead of parsing again.

What is kept, and why it cannot go stale:

* One file per game and per *grammar digest*: a hash of every grammar source (the
  ``.lark`` files and the Python modules of :mod:`grammar`, which build the trees) and
  of the versions of Python, Lark and msgspec. Any change to any of them names a new
  file, so a tree is only ever read back by the grammar that built it.
* Each line holds a hash of the card type and the text, a tab, and the tree as
  :func:`~grammar.ast.to_json` writes it. Only texts that parse are kept: a text that
  does not is parsed again, so its error is the parser's own, wording and all.
* Lines are appended, each in one write, by any process (workers of a batch too); a
  line cut short (a process killed mid-write) or unreadable is skipped. A file that has
  grown past :data:`MAX_FILE_BYTES` is read but no longer added to.
* A cache folder or file that belongs to another user is never used
  (:func:`user_cache_file`).

``ARBITER_TREE_CACHE=0`` in the environment turns the cache off (nothing is read or
written); :func:`parse_cached` then simply parses.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
import tempfile
from pathlib import Path

from grammar.ast import CardText, from_json, to_json

MAX_FILE_BYTES = 64 * 1024 * 1024
"""A cache file past this size is no longer appended to (it is still read)."""

_GRAMMAR_DIR = Path(__file__).resolve().parent
_SWITCH = "ARBITER_TREE_CACHE"


def enabled() -> bool:
    """Whether trees are read from and written to disk (``ARBITER_TREE_CACHE=0`` says no)."""
    return os.environ.get(_SWITCH, "1").strip().lower() not in {"0", "no", "off", "false"}


def user_cache_dirs() -> list[Path]:
    """The folders a cache may live in, the preferred first: ``$XDG_CACHE_HOME``,
    ``~/.cache``, then the system's temporary folder (each with ``tcg-arbiter``)."""
    folders: list[Path] = []
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        folders.append(Path(xdg) / "tcg-arbiter")
    folders.append(Path.home() / ".cache" / "tcg-arbiter")
    folders.append(Path(tempfile.gettempdir()) / "tcg-arbiter")
    return folders


def grammar_digest(folder: Path = _GRAMMAR_DIR) -> str:
    """A hash of everything a tree depends on: the grammar sources and the library versions."""
    from importlib.metadata import version

    digest = hashlib.sha256()
    for path in sorted([*folder.glob("*.lark"), *folder.glob("*.py")]):
        digest.update(path.name.encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    digest.update(f"python {sys.version_info[:3]} lark {version('lark')} msgspec {version('msgspec')}".encode())
    return digest.hexdigest()[:20]


@functools.cache
def _own_digest() -> str:
    """The digest of this checkout's grammar (read once per process)."""
    return grammar_digest()


def _key(text: str, card_type: str | None) -> bytes:
    return hashlib.blake2b(f"{card_type}\0{text}".encode(), digest_size=16).hexdigest().encode()


class TreeCache:
    """The kept trees of one game, read from its file the first time one is asked for."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        """The cache file (``None``: no writable place was found, nothing is kept)."""
        self._lines: dict[bytes, bytes] | None = None

    def _read(self) -> dict[bytes, bytes]:
        lines: dict[bytes, bytes] = {}
        if self.path is not None:
            try:
                data = self.path.read_bytes()
            except OSError:
                data = b""
            for line in data.split(b"\n"):
                key, tab, tree = line.partition(b"\t")
                if tab and len(key) == 32 and tree:
                    lines[key] = tree
        return lines

    def get(self, text: str, card_type: str | None) -> CardText | None:
        """The kept tree of ``text`` read as ``card_type``, or ``None``."""
        if self._lines is None:
            self._lines = self._read()
        raw = self._lines.get(_key(text, card_type))
        if raw is None:
            return None
        try:
            return from_json(raw)
        except (ValueError, TypeError):  # msgspec.DecodeError is a ValueError: a damaged line
            return None

    def put(self, text: str, card_type: str | None, tree: CardText) -> None:
        """Keep ``tree`` (one appended line; a failure to write only means it is not kept)."""
        if self._lines is None:
            self._lines = self._read()
        key = _key(text, card_type)
        raw = to_json(tree)
        self._lines[key] = raw
        if self.path is None:
            return
        try:
            if self.path.exists() and self.path.stat().st_size > MAX_FILE_BYTES:
                return
            handle = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(handle, key + b"\t" + raw + b"\n")
            finally:
                os.close(handle)
        except OSError:
            return


_CACHES: dict[str, TreeCache] = {}


def _ours(path: Path) -> bool:
    """Whether ``path`` belongs to the user running this process (always, where the system
    has no user ids)."""
    getuid = getattr(os, "getuid", None)
    return getuid is None or path.stat().st_uid == getuid()


def user_cache_file(name: str) -> Path | None:
    """The file ``name`` in the first of :func:`user_cache_dirs` where it can be read and
    written (an existing one that can, or a new one in a writable folder), or ``None``.

    A folder or file of another user is passed over: what a cache holds is believed (a
    tree read back decides verdicts; Lark's cache is unpickled), and the last candidate is
    the shared temporary folder, where anyone could have made it first.
    """
    for folder in user_cache_dirs():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if not _ours(folder):
                continue
            target = folder / name
            if target.exists():
                if _ours(target) and os.access(target, os.R_OK | os.W_OK):
                    return target
                continue
        except OSError:
            continue
        if os.access(folder, os.W_OK | os.X_OK):
            return target
    return None


def cache_file(game: str) -> Path | None:
    """Where ``game``'s trees are kept (:func:`user_cache_file`)."""
    return user_cache_file(f"trees-{game}-{_own_digest()}.tsv")


def cache_of(game: str) -> TreeCache:
    """The (shared, made once per process) tree cache of ``game``."""
    cache = _CACHES.get(game)
    if cache is None:
        cache = _CACHES[game] = TreeCache(cache_file(game))
    return cache


def parse_cached(text: str, game: str, card_type: str | None = None) -> CardText:
    """:func:`grammar.parser.parse`, answered from the tree cache when the text was parsed before.

    Raises exactly what :func:`~grammar.parser.parse` raises (failures are never kept).
    """
    from grammar.parser import parse

    if not enabled():
        return parse(text, game, card_type=card_type)
    cache = cache_of(game)
    tree = cache.get(text, card_type)
    if tree is None:
        tree = parse(text, game, card_type=card_type)
        cache.put(text, card_type, tree)
    return tree
