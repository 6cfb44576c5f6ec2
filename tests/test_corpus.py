"""Every game's shipped replays: each meets its expected verdict, and each corpus proves its spec.

What holds for all five games is tested here, once, parametrized by game (the folder
under ``replays/``); each replay is verified once per test session and shared by the
tests below. What only one game has (its situations beyond these, the cards or effect
kinds its replays use) stays in ``tests/test_<game>_corpus.py``.

* each replay carries its expected verdict, in the folder that says it (legal/illegal),
  and the verifier reaches it: verdict, and the first finding's seq and rule;
* each illegal replay is a legal prefix and one breaking event, citing a rule of its
  own game, no two the same;
* the legal replays show every situation the game's corpus module lists, and the
  ``meta.shows`` of a header is what its events show;
* every precondition of the spec (per check, not per rule) is broken first by an
  illegal replay or by a unit case of ``tests/test_<game>_checks.py``;
* ``arbiter verify --check-expect replays`` agrees, from the command line.
"""

from __future__ import annotations

import importlib
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from spec import load_game
from verifier.replay import HeaderReader, read
from verifier.verify import Report, Verifier, _decoder_for, expectation_matches

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "replays"
GAMES = sorted(p.name for p in CORPUS.iterdir() if p.is_dir())
REPLAYS = sorted(CORPUS.rglob("*.jsonl"))

AT_LEAST = {"neopets": (10, 30), "bakugan": (10, 30)}
"""Legal and illegal replays a game's corpus holds at least (others: 8 and 20)."""

ENDS_WITHOUT_CLAIM = {"neopets"}
"""Games whose legal replays may end without the closing ``game`` claim (a Neopets game
lost by exhaustion ends on the pass that empties the deck)."""


def replays(game: str, folder: str) -> list[Path]:
    return sorted((CORPUS / game / folder).glob("*.jsonl"))


def header_of(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0])


@cache
def verified(path: Path) -> tuple[Report, list[tuple[int | None, str]]]:
    """The report of a replay and the (seq, check name) of each finding a precondition made."""
    verifier = Verifier()
    report: Report = read(path, verifier, _decoder_for)
    return report, verifier.checks


SHOWS_ONLY_SITUATIONS = {"epic_battles"}
"""Games whose headers list, of what the events show, only the situations of ``SITUATIONS``."""


def corpus_module(game: str) -> Any:
    return importlib.import_module(f"spec.{game}.corpus")


@pytest.mark.parametrize("game", GAMES)
def test_the_corpus_is_there(game: str) -> None:
    legal, illegal = AT_LEAST.get(game, (8, 20))
    assert len(replays(game, "legal")) >= legal
    assert len(replays(game, "illegal")) >= illegal
    assert {p.parent.name for p in (CORPUS / game).rglob("*.jsonl")} == {"legal", "illegal"}


@pytest.mark.parametrize("path", REPLAYS, ids=[str(p.relative_to(CORPUS)) for p in REPLAYS])
def test_replay_meets_its_expectation(path: Path) -> None:
    game = path.relative_to(CORPUS).parts[0]
    header = read(path, HeaderReader())
    assert header is not None and header.expect is not None, "every shipped replay carries its expected verdict"
    assert header.game == game
    assert (header.expect.verdict == "legal") == (path.parent.name == "legal")
    if header.expect.verdict != "legal":
        assert header.expect.rule is not None and header.expect.rule.startswith(f"{game}:")
    report, _checks = verified(path)
    ok, why = expectation_matches(report, header.expect)
    assert ok, f"{path.name}: {why}"


@pytest.mark.parametrize("game", GAMES)
def test_illegal_replays_each_break_a_different_rule(game: str) -> None:
    rules = [header_of(p)["expect"]["rule"] for p in replays(game, "illegal")]
    assert len(rules) == len(set(rules))


@pytest.mark.parametrize("game", GAMES)
def test_illegal_replays_end_with_the_breaking_event(game: str) -> None:
    """A legal prefix, then the one event that breaks the rule (a broken decklist has no seq)."""
    for path in replays(game, "illegal"):
        seq = header_of(path)["expect"]["seq"]
        if seq is not None:
            assert json.loads(path.read_text(encoding="utf-8").splitlines()[-1])["seq"] == seq, path.name


@pytest.mark.parametrize("game", sorted(set(GAMES) - ENDS_WITHOUT_CLAIM))
def test_legal_replays_play_their_game_to_the_end(game: str) -> None:
    for path in replays(game, "legal"):
        last = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
        assert last["do"] == "game", f"{path.name} does not end with the game's end"


@pytest.mark.parametrize("game", sorted(set(GAMES) - {"neopets"}))
def test_legal_replays_show_every_situation_of_the_game(game: str) -> None:
    """The situations ``spec.<game>.corpus.SITUATIONS`` lists (Neopets: tests/test_neopets_corpus.py)."""
    shown: set[str] = set()
    for path in replays(game, "legal"):
        shown |= set(header_of(path)["meta"].get("shows", []))
    assert sorted(set(corpus_module(game).SITUATIONS) - shown) == []


@pytest.mark.parametrize("game", sorted(set(GAMES) - {"neopets"}))
def test_meta_shows_is_what_the_events_show(game: str) -> None:
    """``meta.shows`` recomputed from the events, for the three shortest legal replays (quick)."""
    module = corpus_module(game)
    for path in sorted(replays(game, "legal"), key=lambda p: p.stat().st_size)[:3]:
        shown = module.features(path.read_bytes().splitlines())
        if game in SHOWS_ONLY_SITUATIONS:
            shown &= set(module.SITUATIONS)
        assert sorted(shown) == sorted(header_of(path)["meta"]["shows"]), path.name


@pytest.mark.parametrize("game", GAMES)
def test_every_check_is_broken_by_a_replay_or_a_unit_case(game: str) -> None:
    """Per check, not per rule: several checks may cite one rule, each must be proven."""
    unit = importlib.import_module(f"tests.test_{game}_checks")
    checks = {c.name for a in load_game(game).book.actions.values() for c in a.checks}
    broken: set[str] = set()
    for path in replays(game, "illegal"):
        seq = header_of(path)["expect"]["seq"]
        _report, fired = verified(path)
        first = next((name for at, name in fired if at == seq), None)
        if first is not None:
            broken.add(first)
    assert len(broken) >= 15, "most checks are broken by a whole replay, not only by unit cases"
    broken |= {name for case in unit.CASES if (name := unit.check_fired_by(case)) is not None}
    assert sorted(checks - broken) == []


def test_arbiter_verify_check_expect_passes_on_every_corpus() -> None:
    from typer.testing import CliRunner

    from verifier.cli import app

    result = CliRunner().invoke(app, ["verify", "--check-expect", str(CORPUS)])
    assert result.exit_code == 0, result.output
    assert f"{len(REPLAYS)} of {len(REPLAYS)} replays match" in result.output
