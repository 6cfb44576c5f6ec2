"""The tree cache (:mod:`grammar.tree_cache`): a text read back gives the tree a fresh parse
gives, a damaged or foreign file never gives a wrong tree, and it can be turned off.

The rest of the test session runs with the cache off (``tests/conftest.py``), so that
every other test parses; these turn it on in a folder of their own.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import grammar.parser as grammar_parser
from grammar import tree_cache
from grammar.parser import GAMES, CardTextError, parse
from grammar.tree_cache import TreeCache, cache_of, grammar_digest, parse_cached
from spec.core.cards import CardDatabase
from tests.grammar_support import shipped_cards

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The cache on, in a fresh folder, with no cache of an earlier test in memory."""
    monkeypatch.setenv("ARBITER_TREE_CACHE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(tree_cache, "_CACHES", {})
    return tmp_path / "tcg-arbiter"


def _no_parse(*args: object, **kwargs: object) -> None:
    raise AssertionError("parsed although the tree was kept")


@pytest.mark.parametrize("game", GAMES)
def test_trees_read_back_equal_fresh_parses(game: str, cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [(card["text"], card.get("type")) for card in shipped_cards(game) if card.get("text")]
    fresh = {}
    for text, card_type in texts:
        try:
            fresh[text, card_type] = parse(text, game, card_type=card_type)
        except CardTextError:
            continue
        assert parse_cached(text, game, card_type) == fresh[text, card_type]  # parsed, then kept
    assert fresh
    monkeypatch.setattr(tree_cache, "_CACHES", {})  # a new process: only the file is left
    monkeypatch.setattr(grammar_parser, "parse", _no_parse)
    for (text, card_type), tree in fresh.items():
        assert parse_cached(text, game, card_type) == tree


def test_the_card_type_is_part_of_the_key(cache_home: Path) -> None:
    """The same words are a spell on one card type and a passive ability on another."""
    text = "Draw a card."
    as_spell = parse_cached(text, "neopets", None)
    as_passive = parse_cached(text, "neopets", "Neopet")
    assert as_spell == parse(text, "neopets", card_type=None)
    assert as_passive == parse(text, "neopets", card_type="Neopet")
    assert as_spell != as_passive
    tree_cache._CACHES.clear()  # read back from the file, each under its own key
    assert parse_cached(text, "neopets", "Neopet") == as_passive
    assert parse_cached(text, "neopets", None) == as_spell


def test_failures_are_not_kept_and_raise_the_parsers_error(cache_home: Path) -> None:
    text = "Zorble the wibble thrice."
    with pytest.raises(CardTextError) as first:
        parse_cached(text, "neopets")
    with pytest.raises(CardTextError) as second:
        parse_cached(text, "neopets")
    assert str(first.value) == str(second.value)
    kept = cache_of("neopets").path
    assert kept is None or not kept.exists()


def test_a_damaged_file_gives_no_wrong_tree(cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good, other = "Draw a card.", "Draw two cards."
    parse_cached(good, "neopets")
    path = cache_of("neopets").path
    assert path is not None and path.exists()
    key_of_other = tree_cache._key(other, None)
    with path.open("ab") as handle:
        handle.write(key_of_other + b"\t{\"node\": \"card_te")  # cut short by a killed process
        handle.write(b"\nnot a line at all\n\t\n")
    monkeypatch.setattr(tree_cache, "_CACHES", {})
    assert parse_cached(good, "neopets") == parse(good, "neopets")
    assert parse_cached(other, "neopets") == parse(other, "neopets")


def test_turned_off_nothing_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("ARBITER_TREE_CACHE", "0")
    monkeypatch.setattr(tree_cache, "_CACHES", {})
    assert parse_cached("Draw a card.", "neopets") == parse("Draw a card.", "neopets")
    assert not list(tmp_path.rglob("trees-*"))


def test_a_full_file_is_read_but_not_added_to(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "trees.tsv"
    TreeCache(path).put("Draw a card.", None, parse("Draw a card.", "neopets"))
    size = path.stat().st_size
    monkeypatch.setattr(tree_cache, "MAX_FILE_BYTES", size - 1)
    TreeCache(path).put("Draw two cards.", None, parse("Draw two cards.", "neopets"))
    assert path.stat().st_size == size
    assert TreeCache(path).get("Draw a card.", None) == parse("Draw a card.", "neopets")


def test_the_digest_follows_every_grammar_source(tmp_path: Path) -> None:
    """A changed grammar file, or builder module, names a new cache file."""
    folder = tmp_path / "grammar"
    shutil.copytree(ROOT / "grammar", folder, ignore=shutil.ignore_patterns("__pycache__"))
    before = grammar_digest(folder)
    (folder / "core.lark").write_text((folder / "core.lark").read_text() + "\n// changed\n")
    after_lark = grammar_digest(folder)
    (folder / "bakugan.py").write_text((folder / "bakugan.py").read_text() + "\n# changed\n")
    after_py = grammar_digest(folder)
    assert len({before, after_lark, after_py}) == 3
    assert grammar_digest(ROOT / "grammar") == grammar_digest()


def test_card_databases_read_their_trees_from_the_cache(cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = ROOT / "spec" / "neopets" / "cards" / "base.toml"
    first = CardDatabase.load(path, "neopets")
    trees = {card.name: first.tree(card.name) for card in first}
    assert list(cache_home.glob("trees-neopets-*.tsv"))
    monkeypatch.setattr(tree_cache, "_CACHES", {})
    monkeypatch.setattr(grammar_parser, "parse", _no_parse)
    second = CardDatabase.load(path, "neopets")
    for name, tree in trees.items():
        if isinstance(tree, Exception):
            continue  # failures are parsed again (and the patched parse would raise)
        assert second.tree(name) == tree


def test_the_shipped_replays_are_judged_alike_with_the_cache_filled_and_read(tmp_path: Path) -> None:
    """Three processes verify every shipped replay: cache off, cache being filled, cache read."""
    import os
    import subprocess
    import sys

    def verify(switch: str) -> bytes:
        env = {**os.environ, "ARBITER_TREE_CACHE": switch, "XDG_CACHE_HOME": str(tmp_path)}
        done = subprocess.run([sys.executable, "-m", "verifier.cli", "verify", "-f", "json", "--keep-going",
                               str(ROOT / "replays")], cwd=ROOT, env=env, capture_output=True, check=False)
        assert done.returncode in (0, 1), done.stderr
        return done.stdout

    parsed = verify("0")
    filling = verify("1")
    assert list((tmp_path / "tcg-arbiter").glob("trees-*.tsv"))
    reading = verify("1")
    assert parsed == filling == reading


def test_a_cache_of_another_user_is_passed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder or file another user made (in the shared temporary folder, say) is never read."""
    import os

    mine = tmp_path / "mine"
    monkeypatch.setattr(tree_cache, "user_cache_dirs", lambda: [tmp_path / "theirs", mine])
    (tmp_path / "theirs").mkdir()
    me = os.getuid()
    owner = {tmp_path / "theirs": me + 1}
    real_ours = tree_cache._ours
    monkeypatch.setattr(tree_cache, "_ours", lambda path: owner.get(path, me) == me and real_ours(path))
    assert tree_cache.user_cache_file("trees-x.tsv") == mine / "trees-x.tsv"
    (mine / "trees-x.tsv").write_bytes(b"")
    owner[mine / "trees-x.tsv"] = me + 1
    assert tree_cache.user_cache_file("trees-x.tsv") is None
