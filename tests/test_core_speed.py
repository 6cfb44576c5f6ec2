"""The shortcuts of the generic verification path decide exactly as the plain way does.

Reading a replay skips blank lines only when a line fails to decode, binds the game's
hooks once per replay, and a precondition loop calls the test functions directly. These
tests pin what must not change: line numbers and errors around blank lines, the event
limit, the check a repeated test names, and the same report with or without a timeline.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spec.core.findings import Violation
from spec.core.rules import Action, RuleBook, RuleEntry, RuleIndex
from verifier import replay as replay_module
from verifier.replay import EventCounter, read
from verifier.report import to_json
from verifier.timeline import Timeline
from verifier.verify import _decoder_for, verify_file

LEGAL = min(Path("replays/bakugan/legal").glob("*.jsonl"))


def _lines() -> list[bytes]:
    return LEGAL.read_bytes().splitlines()


def _write(tmp_path: Path, name: str, lines: list[bytes], end: bytes = b"\n") -> Path:
    path = tmp_path / name
    path.write_bytes(b"\n".join(lines) + end)
    return path


def _plain_book() -> RuleBook:
    return RuleBook(RuleIndex("demo", [RuleEntry("1.1", "normative", "one"), RuleEntry("1.2", "normative", "two")]))


# ---------------------------------------------------------------------- reading

@pytest.mark.parametrize("blank", [b"", b"   ", b"\r", b"\t \x0c", b"\x0b"])
def test_blank_lines_anywhere_are_skipped_and_lines_keep_their_numbers(tmp_path: Path, blank: bytes) -> None:
    lines = _lines()
    spaced = [blank, lines[0], blank, *lines[1:4], blank, blank, *lines[4:]]
    report = verify_file(_write(tmp_path, "spaced.jsonl", spaced, end=b"\n" + blank))
    assert report.verdict == verify_file(LEGAL).verdict
    assert report.events == len(lines) - 1
    counter = read(_write(tmp_path, "count.jsonl", spaced), EventCounter(), _decoder_for)
    assert counter == len(lines) - 1


def test_a_bad_line_after_blank_lines_is_reported_at_its_own_line(tmp_path: Path) -> None:
    lines = _lines()
    spaced = [lines[0], b"", b"  ", lines[1], b"", b"{not json", *lines[2:]]
    report = verify_file(_write(tmp_path, "bad.jsonl", spaced))
    assert report.verdict == "malformed"
    assert report.findings[-1].line == 6
    assert report.findings[-1].message.startswith("not JSON")
    assert report.events == 1


def test_a_header_after_blank_lines_is_read(tmp_path: Path) -> None:
    lines = _lines()
    report = verify_file(_write(tmp_path, "late.jsonl", [b"", b" ", *lines]))
    assert report.events == len(lines) - 1
    assert verify_file(_write(tmp_path, "blank.jsonl", [b"", b"  "])).findings[0].message.startswith("the file is empty")


def test_the_event_limit_counts_events_not_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _lines()
    monkeypatch.setattr(replay_module, "MAX_EVENTS", 3)
    # blank lines make the file longer than the limit, but it holds only three events
    few = _write(tmp_path, "few.jsonl", [lines[0], b"", lines[1], b"", b"", lines[2], b"", lines[3]])
    assert read(few, EventCounter(), _decoder_for) == 3
    report = verify_file(_write(tmp_path, "many.jsonl", [lines[0], b"", *lines[1:6]]))
    assert report.verdict == "malformed"
    assert report.findings[-1].line == 6
    assert "more than 3 events" in report.findings[-1].message
    assert report.events == 3


# ---------------------------------------------------------------------- checking

def test_a_test_registered_twice_still_names_the_check_that_failed() -> None:
    book = _plain_book()
    act: Action[Any, int] = book.action("play")
    calls: list[int] = []

    def looked_once(state: Any, move: int) -> Violation | None:
        calls.append(move)
        return Violation("looked at twice") if len(calls) > 1 else None

    act.precondition("1.1", "first look")(looked_once)
    act.precondition("1.2", "second look")(looked_once)
    hit = act.first_violation(None, 2)  # the first call allows the move, the second does not
    assert hit is not None
    assert hit[0].rule == "demo:1.2"
    assert calls == [2, 2]


def test_checks_added_after_a_first_use_are_run() -> None:
    book = _plain_book()
    act: Action[Any, int] = book.action("play")
    act.precondition("1.1", "even")(lambda state, move: Violation("odd") if move % 2 else None)
    assert act.first_violation(None, 4) is None
    act.precondition("1.2", "small")(lambda state, move: Violation("big") if move > 3 else None)
    hit = act.first_violation(None, 4)
    assert hit is not None and hit[0].rule == "demo:1.2"
    assert Action("x", book, list(act.checks)).first_violation(None, 4) == hit


@pytest.mark.parametrize("game", ["neopets", "bakugan", "ttcg", "battle_monsters", "epic_battles"])
def test_a_timeline_does_not_change_the_report(game: str) -> None:
    for path in sorted(Path(f"replays/{game}").glob("*/*.jsonl"))[:6]:
        for keep_going in (False, True):
            plain = verify_file(path, keep_going=keep_going)
            drawn = verify_file(path, keep_going=keep_going, timeline=Timeline())
            assert to_json(plain) == to_json(drawn), path


# ---------------------------------------------------------------------- conflicts stamp

def _neopets_replays_with_conflicts() -> list[Path]:
    return sorted(Path("replays/neopets").rglob("*.jsonl"))


def test_a_conflicts_stamp_skips_only_calls_that_find_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Neopets names ``state.changes`` as its stamp: every shipped replay, verified with and
    without it (and with ``--keep-going``), gives the very same report, and the stamp does
    leave most events without a ``conflicts_met`` call."""
    from spec import load_game

    game = load_game("neopets")
    assert game.conflicts_stamp == "changes"
    calls = {"count": 0}
    plain_met = game.conflicts_met

    def counted(state: Any, memo: dict[str, Any]) -> Any:
        calls["count"] += 1
        return plain_met(state, memo)

    monkeypatch.setattr(game, "conflicts_met", counted)
    replays = _neopets_replays_with_conflicts()
    with_stamp = [to_json(verify_file(p, keep_going=k)) for p in replays for k in (False, True)]
    asked_with_stamp = calls["count"]
    monkeypatch.setattr(game, "conflicts_stamp", None)
    calls["count"] = 0
    without = [to_json(verify_file(p, keep_going=k)) for p in replays for k in (False, True)]
    assert with_stamp == without
    assert any(b'"conflicts"' in r for r in with_stamp), "no shipped replay meets a conflict: the comparison proves little"
    assert asked_with_stamp < calls["count"] / 2


def test_a_stamp_moved_while_asked_means_asked_again_after_the_next_event(monkeypatch: pytest.MonkeyPatch) -> None:
    """The verifier reads the stamp before it asks for conflicts: a game that moves its stamp
    inside ``conflicts_met`` (Bakugan, once a condition is in force) is asked after every event."""
    from spec import load_game

    game = load_game("neopets")
    calls = {"count": 0}
    plain_met = game.conflicts_met

    def moving(state: Any, memo: dict[str, Any]) -> Any:
        calls["count"] += 1
        state.changes += 1
        return plain_met(state, memo)

    monkeypatch.setattr(game, "conflicts_met", moving)
    legal = min(Path("replays/neopets/legal").glob("*.jsonl"))
    report = verify_file(legal)
    assert report.verdict == "legal" and calls["count"] == report.events


def test_checks_where_leaves_out_only_what_a_declaration_rules_out() -> None:
    """``fails_only`` declares where a check can fail; ``Action.checks_where`` keeps every other
    check, in registration order, and an aspect not given (or ``None``) rules nothing out."""
    from spec.core.rules import Check, can_fail_in, fails_only

    def anywhere(_state: Any, _move: Any) -> Violation | None:
        return None

    @fails_only(stage=("setup",))
    def in_setup(_state: Any, _move: Any) -> Violation | None:
        return None

    @fails_only(stage=("turn",), node=("draw", "main"))
    def early_in_turn(_state: Any, _move: Any) -> Violation | None:
        return None

    action: Action[Any, Any] = Action("draw", RuleBook(RuleIndex("toy", [])),
                                      [Check("toy:1", "a", anywhere), Check("toy:2", "b", in_setup), Check("toy:3", "c", early_in_turn)])

    def names(**situation: str | frozenset[str] | None) -> list[str]:
        staged = action.checks_where(**situation)
        assert all(test is check.test for test, check in staged)
        return [check.name for _test, check in staged]

    assert names() == ["anywhere", "in_setup", "early_in_turn"]
    assert names(stage="setup") == ["anywhere", "in_setup"]
    assert names(stage="turn", node="draw") == ["anywhere", "early_in_turn"]
    assert names(stage="turn", node="end") == ["anywhere"]
    assert names(stage="turn", node=None) == ["anywhere", "early_in_turn"]
    assert names(stage="turn", node=frozenset({"end", "main"})) == ["anywhere", "early_in_turn"]  # any of a set may hold
    assert names(stage="turn", node=frozenset({"end"})) == ["anywhere"]
    assert not can_fail_in(early_in_turn, {"stage": "setup"}) and can_fail_in(anywhere, {"stage": "setup"})
    assert action.declares("node") and not action.declares("card_type")


# ---------------------------------------------------------------------- events and the cycle collector

@pytest.mark.parametrize("game", ["neopets", "bakugan", "ttcg", "battle_monsters", "epic_battles"])
def test_decoded_events_are_left_out_of_the_cycle_collector(game: str) -> None:
    """Events are plain decoded data that never point back at anything (``gc=False`` on
    :class:`spec.core.game.Event`, which every game's events inherit): making and freeing one
    costs no bookkeeping of the cycle collector, and the events of a replay never make it run."""
    import gc

    from spec import load_game

    decoder = load_game(game).decoder()
    events = 0
    for path in sorted(Path(f"replays/{game}").glob("*/*.jsonl"))[:4]:
        for line in path.read_bytes().splitlines()[1:]:
            if line.strip():
                try:
                    event = decoder.decode(line)
                except Exception:  # noqa: BLE001, S112 - an illegal replay may hold a line that is not an event
                    continue
                assert not gc.is_tracked(event), (path, line)
                events += 1
    assert events > 0


@pytest.mark.parametrize("game", ["neopets", "bakugan", "ttcg", "battle_monsters", "epic_battles"])
def test_a_verified_replay_leaves_no_cycles_of_game_objects(game: str) -> None:
    """Everything a replay's verification builds is freed as soon as it is dropped, by
    reference counting alone: no object of the specification is left in a reference cycle
    (a cache on a card naming the card, a set naming its pile). Otherwise the cycle
    collector runs every few hundred such objects and, now and then, walks the whole heap
    of parsed card databases and grammars; an archive of games would pay that throughout."""
    import gc

    paths = sorted(Path(f"replays/{game}").glob("*/*.jsonl"))
    for path in paths:  # first use: imports, card databases, grammars
        verify_file(path)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for path in paths:
            for keep_going in (False, True):
                verify_file(path, keep_going=keep_going)
        gc.collect()
        ours = sorted({f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage
                       if type(o).__module__.startswith(("spec.", "verifier.", "grammar."))})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert ours == []
