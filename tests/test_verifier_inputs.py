"""No input gives a traceback: every bad replay gets a report with a line and a reason.

Each test starts from a simulated legal Neopets game (``conftest.py``), corrupts one
thing, writes it under ``tmp_path`` and checks the report of :func:`verify_file`: the
verdict, the line of the finding and a reason that names the problem. It also checks
that what was verified before a bad line is kept, that the same input always gives the
same JSON, and how ``keep_going`` marks findings after the first divergence.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from verifier import replay as replay_module
from verifier.replay import read
from verifier.report import to_json
from verifier.verify import Report, Verifier, verify_file

Writer = Callable[..., Path]
REPO = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------- helpers

def header_of(game: tuple[bytes, ...]) -> dict[str, Any]:
    return json.loads(game[0])


def events_of(game: tuple[bytes, ...]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in game[1:]]


def first(events: list[dict[str, Any]], pred: Callable[[dict[str, Any]], bool], what: str) -> int:
    """Index of the first event matching ``pred``; the simulated game must have one."""
    for i, event in enumerate(events):
        if pred(event):
            return i
    raise AssertionError(f"the simulated game has no {what} event; pick another seed")


def other(header: dict[str, Any], player: str) -> str:
    a, b = header["players"]
    return b if player == a else a


def malformed_only(report: Report) -> None:
    """The report is malformed and its only non-info finding is the malformed one."""
    assert report.verdict == "malformed"
    bad = [f for f in report.findings if f.severity != "info"]
    assert [f.severity for f in bad] == ["malformed"], bad


# ---------------------------------------------------------------------- the baseline

def test_the_simulated_games_are_legal(explicit_game: tuple[bytes, ...], implicit_game: tuple[bytes, ...],
                                       replay_writer: Writer) -> None:
    """The corruptions below start from games the verifier accepts, so every finding comes from them."""
    for name, game in (("explicit.jsonl", explicit_game), ("implicit.jsonl", implicit_game)):
        path = replay_writer(name, game[0], game[1:])
        report = verify_file(path)
        assert report.verdict == "legal", report.findings[:3]
        assert report.findings == []
        assert report.events == len(game) - 1
        assert report.game == "neopets"
        assert report.stopped_at is None


# ---------------------------------------------------------------------- the file itself

@pytest.mark.parametrize("content", [b"", b"\n\n   \n"], ids=["empty", "blank-lines-only"])
def test_a_file_without_a_header_is_malformed(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(content)
    report = verify_file(path)
    malformed_only(report)
    assert report.events == 0
    assert "empty" in report.findings[0].message
    assert "header" in report.findings[0].message


def test_a_directory_passed_as_a_file_is_malformed(tmp_path: Path) -> None:
    folder = tmp_path / "replay.jsonl"
    folder.mkdir()
    report = verify_file(folder)
    malformed_only(report)
    assert report.events == 0
    assert report.game is None
    assert "cannot read" in report.findings[0].message
    assert "directory" in report.findings[0].message.lower()


def test_a_missing_file_is_malformed(tmp_path: Path) -> None:
    report = verify_file(tmp_path / "nowhere.jsonl")
    malformed_only(report)
    assert "cannot read" in report.findings[0].message


# ---------------------------------------------------------------------- the header

def _drop(field: str) -> Callable[[dict[str, Any]], None]:
    return lambda h: h.pop(field)


def _set(field: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda h: h.__setitem__(field, value)


def _deck_for_stranger(h: dict[str, Any]) -> None:
    h["decks"] = {**h["decks"], "carol": None}


HEADER_CASES: list[tuple[str, Callable[[dict[str, Any]], None], tuple[str, ...]]] = [
    ("missing-game", _drop("game"), ("missing", "`game`")),
    ("missing-ruleset", _drop("ruleset"), ("missing", "`ruleset`")),
    ("missing-players", _drop("players"), ("missing", "`players`")),
    ("missing-replay-version", _drop("replay"), ("missing", "`replay`")),
    ("unknown-field", _set("colour", "red"), ("unknown field", "`colour`")),
    ("replay-version-2", _set("replay", 2), ("version 2", "not supported")),
    ("unknown-game", _set("game", "chess"), ("'chess'", "not supported")),
    ("unknown-ruleset", _set("ruleset", "neopets/9"), ("'neopets/9'", "not verified under other rules")),
    ("one-player", _set("players", ["alice"]), ("two different players",)),
    ("same-player-twice", _set("players", ["alice", "alice"]), ("two different players",)),
    ("players-not-a-list", _set("players", "alice"), ("players",)),
    ("deck-of-a-stranger", _deck_for_stranger, ("'carol'", "not a player")),
    ("bad-passes-option", _set("options", {"passes": "sometimes"}), ("options.passes", "'sometimes'")),
    ("unknown-option", _set("options", {"passes": "explicit", "speed": 2}), ("unknown option", "speed")),
    ("card-set-not-shipped", _set("cards", "neopets/nosuchset"), ("'neopets/nosuchset'", "not shipped")),
    ("card-file-missing", _set("cards", "no-such-cards.toml"), ("no-such-cards.toml", "cannot read")),
    ("expect-unknown-field", _set("expect", {"verdict": "legal", "why": "x"}), ("unknown field", "`why`")),
]


@pytest.mark.parametrize("mutate,needles", [(m, n) for _, m, n in HEADER_CASES], ids=[c[0] for c in HEADER_CASES])
def test_a_bad_header_is_malformed_at_line_1(explicit_game: tuple[bytes, ...], replay_writer: Writer,
                                             mutate: Callable[[dict[str, Any]], None], needles: tuple[str, ...]) -> None:
    header = header_of(explicit_game)
    mutate(header)
    report = verify_file(replay_writer("bad-header.jsonl", header, explicit_game[1:]))
    malformed_only(report)
    (finding,) = report.findings
    assert finding.line == 1
    assert finding.seq is None
    for needle in needles:
        assert needle in finding.message, finding.message
    # Refused outright: not one event is judged under rules the header did not ask for.
    assert report.events == 0


def test_a_header_that_is_not_json(explicit_game: tuple[bytes, ...], replay_writer: Writer) -> None:
    report = verify_file(replay_writer("h.jsonl", b'{"replay": 1, "game": ', explicit_game[1:]))
    malformed_only(report)
    assert report.findings[0].line == 1
    assert "header is not JSON" in report.findings[0].message
    assert report.events == 0


def test_a_utf16_file_is_malformed_at_line_1(explicit_game: tuple[bytes, ...], tmp_path: Path) -> None:
    path = tmp_path / "utf16.jsonl"
    path.write_bytes(b"\n".join(explicit_game).decode().encode("utf-16"))
    report = verify_file(path)
    malformed_only(report)
    assert report.findings[0].line == 1
    assert report.events == 0


def test_windows_line_endings_are_accepted(explicit_game: tuple[bytes, ...], tmp_path: Path) -> None:
    path = tmp_path / "crlf.jsonl"
    path.write_bytes(b"\r\n".join(explicit_game) + b"\r\n")
    report = verify_file(path)
    assert report.verdict == "legal"
    assert report.events == len(explicit_game) - 1


# ---------------------------------------------------------------------- event lines

BAD_AT = 4  # the fifth event (seq 5) on line 6


def _not_json(e: dict[str, Any]) -> bytes:
    return b'{"seq": 5, "by": '


def _teleport(e: dict[str, Any]) -> bytes:
    return b'{"seq":5,"do":"teleport"}'


def _unknown_field(e: dict[str, Any]) -> bytes:
    return json.dumps({**e, "colour": "red"}).encode()


def _seq_gap(e: dict[str, Any]) -> bytes:
    return json.dumps({**e, "seq": 7}).encode()


def _no_action(e: dict[str, Any]) -> bytes:
    return b'{"seq": 5}'


def _wrong_type(e: dict[str, Any]) -> bytes:
    return json.dumps({"seq": 5, "by": "alice", "do": "roll", "dice": "six"}).encode()


def _not_an_object(e: dict[str, Any]) -> bytes:
    return b"[5, \"draw\"]"


EVENT_CASES: list[tuple[str, Callable[[dict[str, Any]], bytes], tuple[str, ...]]] = [
    ("not-json", _not_json, ("not JSON",)),
    ("unknown-action", _teleport, ("'teleport'", "`$.do`")),
    ("unknown-field", _unknown_field, ("unknown field", "`colour`")),
    ("seq-gap", _seq_gap, ("seq is 7, expected 5",)),
    ("no-action", _no_action, ("missing", "`do`")),
    ("field-of-wrong-type", _wrong_type, ("dice",)),
    ("not-an-object", _not_an_object, ("object",)),
]


@pytest.mark.parametrize("corrupt,needles", [(c, n) for _, c, n in EVENT_CASES], ids=[c[0] for c in EVENT_CASES])
def test_a_bad_event_line_is_malformed_with_its_line(explicit_game: tuple[bytes, ...], replay_writer: Writer,
                                                     corrupt: Callable[[dict[str, Any]], bytes], needles: tuple[str, ...]) -> None:
    events: list[Any] = list(explicit_game[1:])
    events[BAD_AT] = corrupt(json.loads(events[BAD_AT]))
    report = verify_file(replay_writer("bad-event.jsonl", explicit_game[0], events))
    malformed_only(report)
    bad = report.findings[-1]
    assert bad.severity == "malformed"
    assert bad.line == BAD_AT + 2  # line 1 is the header
    for needle in needles:
        assert needle in bad.message, bad.message
    # The events before the bad line were read and judged; nothing after it was.
    assert report.events == BAD_AT


def test_line_numbers_count_blank_lines(explicit_game: tuple[bytes, ...], tmp_path: Path) -> None:
    """A blank line is skipped but still counted, so the reported line is the file's line."""
    lines = list(explicit_game[: BAD_AT + 1]) + [b"", b"   "] + [b"{oops"] + list(explicit_game[BAD_AT + 2:])
    path = tmp_path / "blank.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    report = verify_file(path)
    malformed_only(report)
    assert report.findings[-1].line == BAD_AT + 4
    assert report.events == BAD_AT


def test_a_line_of_binary_garbage_is_malformed_with_its_line(explicit_game: tuple[bytes, ...], replay_writer: Writer) -> None:
    events: list[Any] = list(explicit_game[1:])
    events[BAD_AT] = b"\xff\xfe\x00\x01garbage"
    report = verify_file(replay_writer("garbage.jsonl", explicit_game[0], events))
    malformed_only(report)
    assert report.findings[-1].line == BAD_AT + 2
    assert report.events == BAD_AT


def _latin1_replay(game: tuple[bytes, ...], writer: Writer) -> Path:
    """A replay whose fifth event names a card in Latin-1 ("Caf\\xe9"), as a Windows tool may write it."""
    events: list[Any] = list(game[1:])
    event = json.loads(events[BAD_AT])
    event = {"seq": event["seq"], "by": event.get("by") or "alice", "do": "draw", "card": "CAFE"}
    events[BAD_AT] = json.dumps(event).encode().replace(b"CAFE", b"Caf\xe9")
    return writer("latin1.jsonl", game[0], events)


def test_a_non_utf8_file_is_malformed(explicit_game: tuple[bytes, ...], replay_writer: Writer) -> None:
    report = verify_file(_latin1_replay(explicit_game, replay_writer))
    malformed_only(report)
    assert "UTF-8" in report.findings[-1].message
    assert report.events == BAD_AT


def test_a_non_utf8_line_reports_its_line(explicit_game: tuple[bytes, ...], replay_writer: Writer) -> None:
    report = verify_file(_latin1_replay(explicit_game, replay_writer))
    assert report.findings[-1].line == BAD_AT + 2


def test_a_player_that_is_not_in_the_game_is_malformed(explicit_game: tuple[bytes, ...], replay_writer: Writer) -> None:
    events = events_of(explicit_game)
    i = first(events, lambda e: e.get("by") is not None, "player")
    events[i]["by"] = "mallory"
    report = verify_file(replay_writer("stranger.jsonl", explicit_game[0], events))
    assert report.verdict == "malformed"
    finding = report.findings[0]
    assert finding.severity == "malformed"
    assert finding.seq == events[i]["seq"]
    assert finding.line == i + 2
    assert "'mallory'" in finding.message
    assert "not a player" in finding.message


def test_nothing_is_judged_as_genuine_after_a_malformed_event(explicit_game: tuple[bytes, ...], replay_writer: Writer) -> None:
    events = events_of(explicit_game)
    i = first(events, lambda e: e["do"] == "draw", "draw")
    events[i]["by"] = "mallory"  # the opening hand is now one card short
    report = verify_file(replay_writer("stranger-draw.jsonl", explicit_game[0], events))
    bad_seq = events[i]["seq"]
    later = [f for f in report.findings if f.severity != "info" and f.seq is not None and f.seq > bad_seq]
    assert all(f.after_divergence for f in later), [(f.seq, f.rule, f.message) for f in later]
    assert report.stopped_at in (None, bad_seq)


@pytest.mark.parametrize("event", [{"seq": 1, "do": "shuffle"}, {"seq": 1, "do": "shuffle", "by": None}],
                         ids=["by-missing", "by-null"])
def test_an_event_without_a_player_is_malformed(explicit_game: tuple[bytes, ...], replay_writer: Writer,
                                                event: dict[str, Any]) -> None:
    report = verify_file(replay_writer("no-by.jsonl", explicit_game[0], [event]))
    assert report.verdict == "malformed"
    assert report.findings[0].line == 2


# ---------------------------------------------------------------------- cards the spec does not know

def test_a_drawn_card_not_in_the_database_is_unverifiable(explicit_game: tuple[bytes, ...], replay_writer: Writer) -> None:
    events = events_of(explicit_game)
    i = first(events, lambda e: e["do"] == "draw" and bool(e.get("card")), "named draw")
    events[i]["card"] = "Potato of Doom"
    report = verify_file(replay_writer("potato.jsonl", explicit_game[0], events))
    assert report.verdict == "unverifiable"
    finding = report.findings[0]
    assert (finding.severity, finding.seq, finding.line) == ("unverifiable", events[i]["seq"], i + 2)
    assert "'Potato of Doom'" in finding.message
    assert report.events == len(events)


def test_a_played_card_not_in_the_database_is_never_legal(explicit_game: tuple[bytes, ...], replay_writer: Writer) -> None:
    events = events_of(explicit_game)
    i = first(events, lambda e: e["do"] == "play", "play")
    events[i]["card"] = "Potato of Doom"
    report = verify_file(replay_writer("potato-play.jsonl", explicit_game[0], events))
    assert report.verdict != "legal"
    finding = report.findings[0]
    assert (finding.severity, finding.seq, finding.line) == ("unverifiable", events[i]["seq"], i + 2)
    assert "'Potato of Doom'" in finding.message


def test_a_decklist_naming_an_unknown_card_is_unverifiable(explicit_game: tuple[bytes, ...], replay_writer: Writer) -> None:
    header = header_of(explicit_game)
    player = header["players"][0]
    main = header["decks"][player]["main"]
    lines = list(explicit_game[1:])
    body = b"\n".join(lines)
    # Rename a card the log never shows, keeping its copies so the deck stays 50 cards;
    # if the log shows them all, cut it before the renamed card and before any card is
    # played (so no effect is left waiting), so nothing else can be wrong.
    unseen = sorted(k for k in main if json.dumps(k).encode() not in body)
    renamed = unseen[0] if unseen else min(main)
    header["decks"][player]["main"] = {("Potato of Doom" if k == renamed else k): v for k, v in main.items()}
    cut = next((n for n, line in enumerate(lines)
                if json.dumps(renamed).encode() in line or json.loads(line)["do"] in ("play", "activate")), len(lines))
    if unseen:
        cut = len(lines)
    report = verify_file(replay_writer("deck.jsonl", header, lines[:cut]))
    assert report.verdict == "unverifiable"
    finding = report.findings[0]
    assert (finding.severity, finding.line) == ("unverifiable", 1)
    assert "'Potato of Doom'" in finding.message
    assert player in finding.message
    assert report.events == cut


def test_a_decklist_with_a_count_that_is_not_a_number_is_malformed(explicit_game: tuple[bytes, ...], replay_writer: Writer) -> None:
    header = header_of(explicit_game)
    player = header["players"][0]
    name = min(header["decks"][player]["main"])
    header["decks"][player]["main"][name] = "one"
    report = verify_file(replay_writer("deck-count.jsonl", header, explicit_game[1:5]))
    assert report.verdict == "malformed"
    assert report.findings[0].line == 1


# ---------------------------------------------------------------------- truncated logs

def test_a_log_that_stops_mid_game_is_legal(explicit_game: tuple[bytes, ...], implicit_game: tuple[bytes, ...],
                                            replay_writer: Writer) -> None:
    """The log may end anywhere no effect is waiting: here before the first card is played."""
    for name, game in (("explicit.jsonl", explicit_game), ("implicit.jsonl", implicit_game)):
        events = events_of(game)
        cut = first(events, lambda e: e["do"] in ("play", "activate"), "play")
        assert 0 < cut < len(events)
        report = verify_file(replay_writer(name, game[0], events[:cut]))
        assert report.verdict == "legal", report.findings
        assert report.events == cut
        assert report.findings == []


def test_a_file_cut_inside_a_line_is_malformed_at_that_line(explicit_game: tuple[bytes, ...], tmp_path: Path) -> None:
    kept = 30
    path = tmp_path / "cut.jsonl"
    path.write_bytes(b"\n".join(explicit_game[: kept + 1]) + b"\n" + explicit_game[kept + 1][:12])
    report = verify_file(path)
    malformed_only(report)
    assert report.findings[-1].line == kept + 2
    assert "truncated" in report.findings[-1].message
    assert report.events == kept


class _PendingFinder(Verifier):
    """Records the events after which an effect is waiting for more events (a paused resolution)."""

    def __init__(self) -> None:
        super().__init__()
        self.pending: list[int] = []

    def visit(self, event: Any, line: int) -> bool:
        go_on = super().visit(event, line)
        res = getattr(self.state, "resolution", None)
        if res is not None and res.need is not None and not res.need.optional:
            self.pending.append(event.seq)
        return go_on


def test_a_log_that_stops_while_an_effect_waits_is_not_illegal(explicit_game: tuple[bytes, ...], replay_writer: Writer) -> None:
    from verifier.verify import _decoder_for

    full = replay_writer("full.jsonl", explicit_game[0], explicit_game[1:])
    finder = _PendingFinder()
    read(full, finder, _decoder_for)
    assert finder.pending, "the simulated game never pauses an effect; pick another seed"
    seq = finder.pending[0]
    report = verify_file(replay_writer("cut-mid-effect.jsonl", explicit_game[0], explicit_game[1: seq + 1]))
    assert report.verdict not in ("illegal", "malformed"), report.findings


# ---------------------------------------------------------------------- size limits

def test_a_line_over_the_limit_is_malformed(explicit_game: tuple[bytes, ...], replay_writer: Writer,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    limit = max(len(line) for line in explicit_game) + 2
    monkeypatch.setattr(replay_module, "MAX_LINE_BYTES", limit)
    events: list[Any] = list(explicit_game[1:])
    events[BAD_AT] = events[BAD_AT] + b" " * limit  # still valid JSON, but too long
    report = verify_file(replay_writer("long.jsonl", explicit_game[0], events))
    malformed_only(report)
    assert report.findings[-1].line == BAD_AT + 2
    assert "limit" in report.findings[-1].message
    assert report.events == BAD_AT


def test_a_file_over_the_limit_is_malformed(explicit_game: tuple[bytes, ...], replay_writer: Writer,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay_module, "MAX_FILE_BYTES", 1000)
    report = verify_file(replay_writer("big.jsonl", explicit_game[0], explicit_game[1:]))
    malformed_only(report)
    assert "1000-byte limit" in report.findings[0].message
    assert report.events == 0


def test_more_events_than_the_limit_is_malformed(explicit_game: tuple[bytes, ...], replay_writer: Writer,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay_module, "MAX_EVENTS", 10)
    report = verify_file(replay_writer("many.jsonl", explicit_game[0], explicit_game[1:]))
    malformed_only(report)
    assert report.findings[-1].line == 12
    assert "more than 10 events" in report.findings[-1].message
    assert report.events == 10


# ---------------------------------------------------------------------- nothing verified is lost

def test_findings_before_a_malformed_line_are_kept(explicit_game: tuple[bytes, ...], replay_writer: Writer) -> None:
    events: list[Any] = events_of(explicit_game)
    i = first(events, lambda e: e["do"] == "draw" and bool(e.get("card")), "named draw")
    events[i]["card"] = "Potato of Doom"
    bad = i + 20
    events[bad] = b"{oops"
    report = verify_file(replay_writer("both.jsonl", explicit_game[0], events))
    assert report.verdict == "malformed"
    assert [(f.severity, f.line) for f in report.findings] == [("unverifiable", i + 2), ("malformed", bad + 2)]
    assert "'Potato of Doom'" in report.findings[0].message
    assert report.events == bad


def _illegal_attach(game: tuple[bytes, ...]) -> tuple[list[dict[str, Any]], int]:
    """The game with its first Codestone attached by the wrong player; returns (events, index)."""
    header = header_of(game)
    events = events_of(game)
    i = first(events, lambda e: e["do"] == "attach", "attach")
    events[i]["by"] = other(header, events[i]["by"])
    return events, i


def test_keep_going_findings_before_a_malformed_line_are_kept(explicit_game: tuple[bytes, ...], replay_writer: Writer) -> None:
    attach_events, i = _illegal_attach(explicit_game)
    events: list[Any] = list(attach_events)
    bad = min(i + 40, len(events) - 1)
    events[bad] = b"{oops"
    report = verify_file(replay_writer("both.jsonl", explicit_game[0], events), keep_going=True)
    assert report.verdict == "malformed"
    assert report.findings[0].severity == "illegal"
    assert report.findings[0].seq == events[i]["seq"]
    assert report.findings[-1].severity == "malformed"
    assert report.findings[-1].line == bad + 2
    assert report.events == bad


# ---------------------------------------------------------------------- stopping and keep_going

def test_judging_stops_at_the_first_illegal_move_and_says_so(explicit_game: tuple[bytes, ...], replay_writer: Writer) -> None:
    events, i = _illegal_attach(explicit_game)
    seq = events[i]["seq"]
    report = verify_file(replay_writer("illegal.jsonl", explicit_game[0], events))
    assert report.verdict == "illegal"
    assert report.stopped_at == seq
    assert report.events == seq  # nothing after the illegal move was read
    illegal = [f for f in report.findings if f.severity == "illegal"]
    assert [(f.seq, f.line) for f in illegal] == [(seq, i + 2)]
    assert illegal[0].rule is not None and illegal[0].rule.startswith("neopets:")
    assert illegal[0].after_divergence is False
    assert illegal[0].state is not None  # the judge sees the game state there
    note = report.findings[-1]
    assert note.severity == "info"
    assert note.seq == seq
    assert "stopped" in note.message and "keep-going" in note.message


def test_keep_going_marks_later_findings_after_the_divergence(explicit_game: tuple[bytes, ...], replay_writer: Writer) -> None:
    events, i = _illegal_attach(explicit_game)
    seq = events[i]["seq"]
    report = verify_file(replay_writer("illegal.jsonl", explicit_game[0], events), keep_going=True)
    assert report.verdict == "illegal"
    assert report.stopped_at is None
    assert report.events == len(events)
    assert not any("stopped" in f.message for f in report.findings if f.severity == "info")
    first_illegal = report.findings[0]
    assert (first_illegal.severity, first_illegal.seq, first_illegal.after_divergence) == ("illegal", seq, False)
    later = [f for f in report.findings[1:] if f.severity != "info"]
    assert later, "the wrong attach should have consequences later in this game"
    assert all(f.seq is None or f.seq > seq for f in later)
    assert all(f.after_divergence for f in later)


# ---------------------------------------------------------------------- determinism

def test_the_same_file_gives_byte_identical_json(explicit_game: tuple[bytes, ...], replay_writer: Writer) -> None:
    events, _ = _illegal_attach(explicit_game)
    for path, keep_going in ((replay_writer("legal.jsonl", explicit_game[0], explicit_game[1:]), False),
                             (replay_writer("illegal.jsonl", explicit_game[0], events), True)):
        once = to_json(verify_file(path, keep_going=keep_going))
        twice = to_json(verify_file(path, keep_going=keep_going))
        assert once == twice
        assert json.loads(once)["replay"] == str(path)


def test_the_same_file_gives_the_same_json_in_another_process(explicit_game: tuple[bytes, ...], replay_writer: Writer) -> None:
    """Hash randomisation must not leak into the report (set or dict order in the state view)."""
    events, _ = _illegal_attach(explicit_game)
    path = replay_writer("illegal.jsonl", explicit_game[0], events)
    here = to_json(verify_file(path, keep_going=True))
    code = ("import sys; from verifier.verify import verify_file; from verifier.report import to_json; "
            "sys.stdout.buffer.write(to_json(verify_file(sys.argv[1], keep_going=True)))")
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, env=env, cwd=REPO, check=True)
        assert out.stdout == here


def _toml_cards(path: Path, cards: list[dict[str, Any]]) -> Path:
    """Write a card file in our TOML format (JSON strings are valid TOML basic strings)."""
    lines = ['database = "neopets/edited"', 'game = "neopets"', "version = 1"]
    for card in cards:
        lines.append("[[card]]")
        for key, value in card.items():
            if isinstance(value, dict):
                lines.append(f"{key} = {{ " + ", ".join(f"{k} = {json.dumps(v)}" for k, v in value.items()) + " }")
            else:
                lines.append(f"{key} = {json.dumps(value)}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_card_the_interpreter_cannot_run_makes_the_replay_unverifiable_with_its_name(
        explicit_game: tuple[bytes, ...], replay_writer: Writer, tmp_path: Path) -> None:
    """A tree that parses but has no meaning in the spec (a spell negating a Neopet's abilities)."""
    import tomllib

    from spec.core.cards import shipped_database

    base = tomllib.loads(shipped_database("neopets", "base").read_text(encoding="utf-8"))["card"]
    quiet = ("Draw", "draw", "Search", "Roll", "roll", "Discard", "discard", "Reveal", "Scrap", ";", "Play only")
    simple = {c["name"] for c in base if c["type"] in ("Food", "Potion", "Legend") and "level" not in c
              and not any(word in c["text"] for word in quiet)}  # nothing of its effect shows in the log
    events = events_of(explicit_game)
    i = first(events, lambda e: e["do"] == "play" and e["card"] in simple, "play of a simple spell")
    played = events[i]["card"]
    for card in base:
        if card["name"] == played:
            card["text"] = "Negate the abilities of your opponent's Neopet."
            card.pop("level", None)
    cards = _toml_cards(tmp_path / "edited.toml", base)
    report = verify_file(replay_writer("odd-card.jsonl", explicit_game[0], events), cards=cards)
    assert report.verdict == "unverifiable"
    finding = next(f for f in report.findings if f.severity == "unverifiable")
    assert played in finding.message and "8.20.6b" in finding.message


# ---------------------------------------------------------------------- a fault of the spec

class _Faulty:
    """A game whose spec raises: on the event with seq ``at`` (``apply``), or in ``view``."""

    def __init__(self, game: Any, at: int | None = None, view_fails: bool = False) -> None:
        self._game, self._at, self._view_fails = game, at, view_fails

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def apply(self, state: Any, event: Any) -> Any:
        if event.seq == self._at:
            raise KeyError("a slot the spec forgot")
        return self._game.apply(state, event)

    def view(self, state: Any) -> Any:
        if self._view_fails:
            raise ZeroDivisionError("a number the spec cannot work out")
        return self._game.view(state)


def _with_faulty_game(monkeypatch: pytest.MonkeyPatch, **faults: Any) -> None:
    from spec import load_game
    from verifier import verify as verify_module

    monkeypatch.setattr(verify_module, "load_game", lambda game_id: _Faulty(load_game(game_id), **faults))


def test_a_fault_of_the_spec_keeps_the_findings_already_made(explicit_game: tuple[bytes, ...], replay_writer: Writer,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    events, i = _illegal_attach(explicit_game)
    at = events[i]["seq"] + 5
    _with_faulty_game(monkeypatch, at=at)
    report = verify_file(replay_writer("fault.jsonl", explicit_game[0], events), keep_going=True)
    assert report.verdict == "illegal"  # the illegal move judged before the fault still decides
    assert report.findings[0].severity == "illegal"
    fault = report.findings[-1]
    assert (fault.severity, fault.seq, fault.line, fault.rule) == ("unverifiable", at, at + 1, None)
    assert "KeyError" in fault.message and "fault of the spec" in fault.message
    assert report.events == at  # nothing after the fault was judged


def test_a_fault_of_the_spec_in_a_legal_log_makes_it_unverifiable(explicit_game: tuple[bytes, ...], replay_writer: Writer,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    _with_faulty_game(monkeypatch, at=7)
    report = verify_file(replay_writer("fault.jsonl", explicit_game[0], events_of(explicit_game)))
    assert report.verdict == "unverifiable"  # never silently legal
    assert [(f.severity, f.seq) for f in report.findings if f.severity != "info"] == [("unverifiable", 7)]


def test_a_state_the_spec_fails_to_show_leaves_the_report_whole(explicit_game: tuple[bytes, ...], replay_writer: Writer,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    events, i = _illegal_attach(explicit_game)
    _with_faulty_game(monkeypatch, view_fails=True)
    report = verify_file(replay_writer("unshown.jsonl", explicit_game[0], events))
    assert report.verdict == "illegal"
    assert report.findings[0].seq == events[i]["seq"]
    for shown in (report.findings[0].state, report.final_state):
        assert shown is not None and "ZeroDivisionError" in shown["unshown"]
