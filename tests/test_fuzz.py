"""Fuzzing: random and mutated inputs never crash the loader, the parsers or the CLI.

Every error names the file, the line (where there is one) and the reason; every limit
(line length, events per replay, file size, text length) gives a clear error.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from grammar.parser import GAMES, MAX_TEXT_LENGTH, CardTextError, parse, parse_lenient
from verifier import replay as replay_module
from verifier.cli import app
from verifier.simulate import SimulationError, simulate
from verifier.verify import verify_file

ROOT = Path(__file__).resolve().parents[1]
BASE = (ROOT / "replays" / "neopets" / "legal" / "game-111.jsonl").read_bytes().splitlines()
SEVERITIES = {"illegal", "inconsistent", "unverifiable", "malformed", "info"}
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                         HealthCheck.too_slow])


def _check_report(path: Path) -> None:
    report = verify_file(path)  # never raises
    assert report.replay == str(path)
    assert report.verdict in SEVERITIES | {"legal"}
    for finding in report.findings:
        assert finding.severity in SEVERITIES and finding.message
    if report.verdict == "malformed":
        bad = next(f for f in report.findings if f.severity == "malformed")
        assert bad.line is None or 1 <= bad.line <= max(1, len(path.read_bytes().splitlines()))


@FUZZ
@given(st.lists(st.binary(max_size=200), max_size=8))
def test_random_bytes_are_judged_not_crashed_on(tmp_path: Path, lines: list[bytes]) -> None:
    path = tmp_path / "random.jsonl"
    path.write_bytes(b"\n".join(lines))
    _check_report(path)


mutations = st.sampled_from(["flip", "cut", "dup", "garbage", "retype", "drop_key"])


@FUZZ
@given(st.lists(st.tuples(st.integers(0, len(BASE) - 1), mutations, st.integers(0, 10_000)), min_size=1, max_size=4))
def test_mutated_replays_are_judged_not_crashed_on(tmp_path: Path, edits: list[tuple[int, str, int]]) -> None:
    lines = list(BASE)
    for index, kind, n in edits:
        line = lines[index]
        if kind == "flip" and line:
            pos = n % len(line)
            line = line[:pos] + bytes([line[pos] ^ (1 + n % 127)]) + line[pos + 1:]
        elif kind == "cut":
            line = line[: n % (len(line) + 1)]
        elif kind == "dup":
            lines.insert(index, line)
        elif kind == "garbage":
            line = line + b"\x00{]"
        elif kind in ("retype", "drop_key"):
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if isinstance(obj, dict) and obj:
                key = sorted(obj)[n % len(obj)]
                if kind == "retype":
                    obj[key] = [obj[key]] if n % 2 else {"x": n}
                else:
                    del obj[key]
                line = json.dumps(obj).encode()
        lines[index] = line
    path = tmp_path / "mutated.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    _check_report(path)


@FUZZ
@given(st.sampled_from(GAMES), st.text(max_size=300), st.sampled_from([None, "Food", "Equipment", "Action", "Unit (Fire)"]))
def test_the_card_parsers_only_raise_card_text_errors(game: str, text: str, card_type: str | None) -> None:
    try:
        parse(text, game, card_type=card_type)
    except CardTextError as error:
        assert error.line >= 1 and error.column >= 1 and error.reason
    except ValueError as error:  # an unknown card type for this game
        assert "card type" in str(error)
        return
    tree = parse_lenient(text, game, card_type=card_type)
    assert tree is not None


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(GAMES), st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=120))
def test_the_card_command_never_shows_a_traceback(game: str, text: str) -> None:
    result = CliRunner().invoke(app, ["card", text, "--game", game])
    assert result.exit_code in (0, 1, 2)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_text_over_the_length_limit_is_refused_clearly() -> None:
    with pytest.raises(CardTextError, match="exceeds the limit"):
        parse("Draw a card. " * (MAX_TEXT_LENGTH // 10), "neopets")


@pytest.mark.parametrize(("limit", "value", "words"), [
    ("MAX_LINE_BYTES", 200, "byte limit"),
    ("MAX_EVENTS", 3, "more than 3 events"),
    ("MAX_FILE_BYTES", 500, "byte limit"),
])
def test_replay_limits_give_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, limit: str, value: int,
                                          words: str) -> None:
    monkeypatch.setattr(replay_module, limit, value)
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"\n".join(BASE[:40]) + b"\n")
    report = verify_file(path)
    assert report.verdict == "malformed"
    finding = next(f for f in report.findings if f.severity == "malformed")
    assert words in finding.message
    assert report.replay == str(path)


_TEXT_VALUE = re.compile(r'^text = (""".*?"""|"(?:[^"\\\n]|\\.)*")$', re.DOTALL | re.MULTILINE)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.randoms(use_true_random=False), st.integers(1, 10_000))
def test_the_simulator_never_falls_over_on_a_designer_s_card_file(tmp_path: Path, game: str, rng: random.Random,
                                                                   seed: int) -> None:
    """The shipped cards of a game with their texts dealt out again at random, whatever the
    card's type (a Food's text on a Neopet, an event's on an attack; texts may also be
    dropped): the simulator either refuses the file with a clear error or writes games the
    verifier calls legal (cards it cannot play are left out, moves it cannot judge drawn
    again), and never fails in any other way."""
    from spec.core.cards import shipped_database

    shipped = shipped_database(game, "base").read_text()
    texts = _TEXT_VALUE.findall(shipped)
    dealt = [text if rng.random() < 0.9 else '""' for text in rng.sample(texts, len(texts))]
    deck = iter(dealt)
    mine = tmp_path / f"dealt-{game}.toml"
    mine.write_text(_TEXT_VALUE.sub(lambda _m: "text = " + next(deck), shipped))
    try:
        lines = simulate(game, seed, max_events=150, card_file=mine)
    except SimulationError as error:
        assert str(mine) in str(error)
        return
    replay = tmp_path / "game.jsonl"
    replay.write_bytes(b"\n".join(lines) + b"\n")
    report = verify_file(replay)
    assert report.verdict == "legal", [(f.rule, f.message) for f in report.findings][:3]


_JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.text(max_size=12),
                            lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                            max_leaves=8)
_POOL_STAT_KEYS = ["rank", "attack", "defense", "subtypes", "effect_styles", "bPower", "damage", "coreTypes", "evolvesFrom",
                   "factions", "set", "elements"]


@FUZZ
@given(game=st.sampled_from(list(GAMES)),
       records=st.lists(st.fixed_dictionaries(
           {"name": st.sampled_from(["Ash", "Ash Ultra", "Brine"]), "type": _JSON_VALUES, "cost": _JSON_VALUES,
            "text": _JSON_VALUES},
           optional={"stats": st.dictionaries(st.sampled_from(_POOL_STAT_KEYS), _JSON_VALUES, max_size=6) | _JSON_VALUES}),
           max_size=5))
def test_a_card_pool_of_odd_records_is_read_without_a_crash(tmp_path: Path, game: str, records: list[dict[str, object]]) -> None:
    """Each game reads a pool's own shapes (numbers as text, Factions among the stats, one
    name in several printings): a record of any shape gives a card of our fields' kinds."""
    from spec.core.cards import CardDatabase

    path = tmp_path / "pool.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    for card in CardDatabase.load(path, game):
        assert isinstance(card.name, str) and card.name.split(" (")[0] in ("Ash", "Ash Ultra", "Brine")
        assert card.level is None or isinstance(card.level, int)
        assert isinstance(card.stats, dict) and isinstance(card.traits, list)
        assert all(isinstance(t, str) for t in card.traits)
        assert card.cost is None or isinstance(card.cost, int | str)
        card.stat("attack")  # never raises
