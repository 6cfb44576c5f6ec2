"""The ``arbiter`` command line: exit codes, output formats, ``rules`` and ``card``.

Exit codes (design, "The command line"): 0 all legal, 1 findings, 2 bad input or usage.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from verifier.cli import app

Writer = Callable[..., Path]


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def legal(explicit_game: tuple[bytes, ...], replay_writer: Writer) -> Path:
    return replay_writer("legal.jsonl", explicit_game[0], explicit_game[1:])


def _illegal_events(game: tuple[bytes, ...]) -> tuple[list[dict[str, Any]], int]:
    """The game with its first Codestone attached by the wrong player; returns (events, seq)."""
    header = json.loads(game[0])
    events = [json.loads(line) for line in game[1:]]
    i = next(i for i, e in enumerate(events) if e["do"] == "attach")
    a, b = header["players"]
    events[i]["by"] = b if events[i]["by"] == a else a
    return events, events[i]["seq"]


@pytest.fixture
def illegal(explicit_game: tuple[bytes, ...], replay_writer: Writer) -> tuple[Path, int]:
    events, seq = _illegal_events(explicit_game)
    return replay_writer("illegal.jsonl", explicit_game[0], events), seq


# ---------------------------------------------------------------------- verify: exit codes

def test_verify_a_legal_replay_exits_0(runner: CliRunner, legal: Path) -> None:
    result = runner.invoke(app, ["verify", str(legal)])
    assert result.exit_code == 0, result.output
    assert f"{legal}: LEGAL" in result.stdout
    assert "1 replay(s)" in result.stdout


def test_verify_an_illegal_replay_exits_1(runner: CliRunner, illegal: tuple[Path, int]) -> None:
    path, seq = illegal
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1, result.output
    assert f"{path}: ILLEGAL" in result.stdout
    # The judge sees the rule broken, where, and that judging stopped there.
    assert re.search(rf"illegal \[neopets:[^\]]+\] at seq {seq}, line {seq + 1}", result.stdout), result.stdout
    assert "judging stopped" in result.stdout


def test_verify_keep_going_marks_findings_after_the_divergence(runner: CliRunner, illegal: tuple[Path, int]) -> None:
    path, _ = illegal
    result = runner.invoke(app, ["verify", "--keep-going", str(path)])
    assert result.exit_code == 1
    assert "(after the first divergence)" in result.stdout
    assert "judging stopped" not in result.stdout


def test_verify_a_folder_judges_every_replay_in_it(runner: CliRunner, legal: Path, illegal: tuple[Path, int]) -> None:
    assert legal.parent == illegal[0].parent
    result = runner.invoke(app, ["verify", "--format", "json", str(legal.parent)])
    assert result.exit_code == 1  # one of them has findings
    verdicts = {json.loads(line)["replay"]: json.loads(line)["verdict"] for line in result.stdout.splitlines()}
    assert verdicts == {str(illegal[0]): "illegal", str(legal): "legal"}


def test_verify_a_missing_path_exits_2(runner: CliRunner, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.jsonl"
    result = runner.invoke(app, ["verify", str(missing)])
    assert result.exit_code == 2
    assert "no such file" in result.stderr
    assert str(missing) in result.stderr


def test_verify_an_unknown_format_exits_2(runner: CliRunner, legal: Path) -> None:
    result = runner.invoke(app, ["verify", "--format", "xml", str(legal)])
    assert result.exit_code == 2
    assert "'xml'" in result.stderr
    assert result.stdout == ""  # refused before verifying anything


def test_verify_a_folder_without_replays_exits_2(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["verify", str(tmp_path)])
    assert result.exit_code == 2
    assert "no replay files" in result.stderr


def test_verify_a_malformed_replay_exits_2(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b"not json\n")
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 2
    assert "MALFORMED" in result.stdout
    assert "line 1" in result.stdout


# ---------------------------------------------------------------------- verify: JSON

def test_verify_json_prints_one_object_per_replay(runner: CliRunner, legal: Path, illegal: tuple[Path, int]) -> None:
    path, seq = illegal
    result = runner.invoke(app, ["verify", "--format", "json", str(legal), str(path)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 2  # nothing but the reports: no summary in JSON mode
    reports = [json.loads(line) for line in lines]
    for report in reports:
        assert {"replay", "game", "verdict", "events", "findings"} <= set(report)
        assert report["game"] == "neopets"
    assert [r["replay"] for r in reports] == [str(legal), str(path)]
    assert [r["verdict"] for r in reports] == ["legal", "illegal"]
    assert reports[0]["findings"] == []
    finding = reports[1]["findings"][0]
    assert {"seq", "line", "severity", "rule", "message"} <= set(finding)
    assert (finding["seq"], finding["line"], finding["severity"]) == (seq, seq + 1, "illegal")
    assert reports[1]["events"] == seq


# ---------------------------------------------------------------------- verify --check-expect

def _with_expect(game: tuple[bytes, ...], expect: dict[str, Any]) -> dict[str, Any]:
    header = json.loads(game[0])
    header["expect"] = expect
    return header


def test_check_expect_passes_when_the_verdict_matches(runner: CliRunner, explicit_game: tuple[bytes, ...],
                                                      replay_writer: Writer) -> None:
    path = replay_writer("ok.jsonl", _with_expect(explicit_game, {"verdict": "legal"}), explicit_game[1:])
    result = runner.invoke(app, ["verify", "--check-expect", str(path)])
    assert result.exit_code == 0, result.output
    assert f"ok   {path}: legal" in result.stdout
    assert "1 of 1 replays match" in result.stdout


def test_check_expect_fails_when_the_verdict_differs(runner: CliRunner, explicit_game: tuple[bytes, ...],
                                                     replay_writer: Writer) -> None:
    path = replay_writer("wrong.jsonl", _with_expect(explicit_game, {"verdict": "illegal"}), explicit_game[1:])
    result = runner.invoke(app, ["verify", "--check-expect", str(path)])
    assert result.exit_code == 1
    assert f"FAIL {path}: legal (verdict legal, expected illegal)" in result.stdout
    assert "0 of 1 replays match" in result.stdout


def test_check_expect_compares_the_seq_and_rule_of_the_first_finding(runner: CliRunner, explicit_game: tuple[bytes, ...],
                                                                     replay_writer: Writer) -> None:
    from verifier.verify import verify_file

    events, seq = _illegal_events(explicit_game)
    plain = replay_writer("probe.jsonl", explicit_game[0], events)
    rule = verify_file(plain).findings[0].rule
    right = replay_writer("right.jsonl", _with_expect(explicit_game, {"verdict": "illegal", "seq": seq, "rule": rule}), events)
    wrong_seq = replay_writer("wrong-seq.jsonl", _with_expect(explicit_game, {"verdict": "illegal", "seq": seq + 1}), events)
    wrong_rule = replay_writer("wrong-rule.jsonl", _with_expect(explicit_game, {"verdict": "illegal", "rule": "neopets:1.2"}), events)
    assert runner.invoke(app, ["verify", "--check-expect", str(right)]).exit_code == 0
    result = runner.invoke(app, ["verify", "--check-expect", str(wrong_seq)])
    assert result.exit_code == 1
    assert f"expected {seq + 1}" in result.stdout
    result = runner.invoke(app, ["verify", "--check-expect", str(wrong_rule)])
    assert result.exit_code == 1
    assert "expected neopets:1.2" in result.stdout


def test_check_expect_fails_without_an_expect(runner: CliRunner, legal: Path) -> None:
    result = runner.invoke(app, ["verify", "--check-expect", str(legal)])
    assert result.exit_code == 1
    assert "no expect in the header" in result.stdout


# ---------------------------------------------------------------------- rules

def test_rules_coverage_prints_the_three_counts(runner: CliRunner) -> None:
    from spec import load_game

    counts = load_game("neopets").book.coverage()
    result = runner.invoke(app, ["rules", "neopets", "--coverage"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert f"neopets: {sum(counts.values())} normative rules" in out
    for key in ("encoded", "not checkable", "missing"):
        assert re.search(rf"^\s+{key}\s+{counts[key]}$", out, re.MULTILINE), (key, out)
    assert counts["encoded"] > 0


def test_rules_shows_one_rule_with_its_status_and_summary(runner: CliRunner) -> None:
    from spec import load_game

    book = load_game("neopets").book
    entry = book.index.entries["7.11.4.p2"]
    result = runner.invoke(app, ["rules", "neopets", "7.11.4.p2"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"neopets:7.11.4.p2 ({entry.kind}) - {book.status('7.11.4.p2')}"
    assert book.status("7.11.4.p2") == "encoded"
    assert f"  {entry.summary}" in lines
    assert any(line.startswith("  encoded by: attach") for line in lines)


def test_rules_lists_every_rule(runner: CliRunner) -> None:
    from spec import load_game

    book = load_game("neopets").book
    result = runner.invoke(app, ["rules", "neopets"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == len(book.index)
    assert lines[0].split()[0] == next(iter(book.index)).id


def test_rules_of_an_unknown_game_exits_2(runner: CliRunner) -> None:
    result = runner.invoke(app, ["rules", "nosuchgame"])
    assert result.exit_code == 2
    assert "'nosuchgame'" in result.stderr
    assert "neopets" in result.stderr  # the known games are listed


def test_rules_of_an_unknown_rule_exits_2(runner: CliRunner) -> None:
    result = runner.invoke(app, ["rules", "neopets", "99.99"])
    assert result.exit_code == 2
    assert "'99.99'" in result.stderr


# ---------------------------------------------------------------------- card

def test_card_prints_the_effect_tree(runner: CliRunner) -> None:
    result = runner.invoke(app, ["card", "Draw two cards.", "--game", "neopets", "--type", "Legend"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "card_text" and "spell" in lines[2]
    assert any(line.strip() == "draw player='you' amount=2" for line in lines)


def test_card_json_is_one_line(runner: CliRunner) -> None:
    result = runner.invoke(app, ["card", "Draw two cards.", "--type", "Legend", "--json"])
    assert result.exit_code == 0
    assert len(result.stdout.strip().splitlines()) == 1
    assert json.loads(result.stdout)["abilities"][0]["effect"][0]["node"] == "draw"


def test_card_that_does_not_parse_exits_1_with_a_caret(runner: CliRunner) -> None:
    text = "Draw two potatoes."
    result = runner.invoke(app, ["card", text])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert text in lines
    caret = lines[lines.index(text) + 1]  # the line under the text
    assert caret.strip() == "^"
    assert caret.index("^") == text.index("potatoes")  # points at the bad word
    assert "line 1, column 10" in result.output
    assert "expected" in result.output


def test_card_of_an_unknown_game_exits_2(runner: CliRunner) -> None:
    result = runner.invoke(app, ["card", "Draw two cards.", "--game", "nosuchgame"])
    assert result.exit_code == 2


def test_card_without_text_exits_2(runner: CliRunner) -> None:
    result = runner.invoke(app, ["card"])
    assert result.exit_code == 2


def test_help_texts_wrap_to_the_terminal_not_to_the_docstring(runner: CliRunner) -> None:
    """A command's help is its docstring with each paragraph on one line, so the terminal's
    width alone decides where lines break (Typer would keep the docstring's own breaks)."""
    for command in app.registered_commands:
        assert command.help is not None
        for paragraph in command.help.split("\n\n"):
            assert "\n" not in paragraph and "``" not in paragraph, (command.name, paragraph)
    wide = runner.invoke(app, ["bench", "--help"], env={"COLUMNS": "200"})
    assert wide.exit_code == 0
    assert "game by game, and the change is the median" in wide.stdout
    assert "With --against REF the two versions" in wide.stdout
