"""``arbiter conflicts``: text and JSON reports, exit codes, --against, games without a policy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from verifier.cli import app

CARDS = """database = "neopets/designer"
game = "neopets"
version = 1

[[card]]
name = "Frostproof Mitten"
type = "Equipment"
text = "Your Neopet is immune to frozen."

[[card]]
name = "Sleet Pie"
type = "Food"
text = "Freeze your opponent's Neopet."
"""

LOOP = """database = "neopets/loop"
game = "neopets"
version = 1

[[card]]
name = "Ping Pup"
type = "Neopet"
species = "Ping Pup"
text = "When your Neopet is dealt damage, deal 1 damage to your opponent's Neopet."
"""


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()


def _file(tmp_path: Path, text: str, name: str = "cards.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_text_report_names_the_cards_the_situation_and_the_rule(runner: CliRunner, tmp_path: Path) -> None:
    path = _file(tmp_path, CARDS)
    result = runner.invoke(app, ["conflicts", str(path), "--against", str(path)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Frostproof Mitten + Sleet Pie" in out
    assert "when: Frostproof Mitten is in P1's Battledome; P2 has played Sleet Pie" in out
    assert "settled by neopets:4.1 (can't beats can)" in out
    assert "0 gap(s)" in out


def test_json_report_has_every_field(runner: CliRunner, tmp_path: Path) -> None:
    path = _file(tmp_path, CARDS)
    result = runner.invoke(app, ["conflicts", str(path), "--json", "--against", str(path)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == "neopets" and data["cards"] == 2
    clash = next(c for c in data["conflicts"] if c["cards"] == ["Frostproof Mitten", "Sleet Pie"])
    assert clash["status"] == "settled" and clash["settled_by"]["rule"] == "neopets:4.1"
    assert clash["situation"] and len(clash["effects"]) == 2
    assert data["loops"] == [] and data["unreadable"] == []


def test_against_the_shipped_database_by_default(runner: CliRunner, tmp_path: Path) -> None:
    path = _file(tmp_path, CARDS)
    result = runner.invoke(app, ["conflicts", str(path), "--json", "--max-set", "2"])
    data = json.loads(result.output)
    pairs = {tuple(c["cards"]) for c in data["conflicts"]}
    assert ("Bramblewump", "Sleet Pie") in pairs  # Bramblewump is in neopets/base
    assert ("Frostproof Mitten", "Snowcone Surprise") in pairs
    assert not any("Hushwing" in pair for pair in pairs)  # Hushwing negates Neopets, not the Mitten


def test_a_possible_endless_loop_gives_exit_code_1(runner: CliRunner, tmp_path: Path) -> None:
    path = _file(tmp_path, LOOP)
    result = runner.invoke(app, ["conflicts", str(path), "--against", str(path)])
    assert result.exit_code == 1
    assert "possible endless loops (1)" in result.output
    assert "Ping Pup -[dealt_damage]-> Ping Pup" in result.output
    data = json.loads(runner.invoke(app, ["conflicts", str(path), "--json", "--against", str(path)]).output)
    assert data["loops"] == [{"cards": ["Ping Pup"], "events": ["dealt_damage"]}]


def test_a_game_without_a_policy_reports_clashes_as_gaps(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from spec.core import conflicts as C

    monkeypatch.setattr(C, "policy_for", lambda game: C.NoPolicy(game))
    path = _file(tmp_path, CARDS)
    result = runner.invoke(app, ["conflicts", str(path), "--against", str(path)])
    assert result.exit_code == 1
    assert "note: neopets has no precedence policy yet" in result.output
    assert "gaps in the rules" in result.output


def test_every_game_with_a_grammar_is_accepted(runner: CliRunner) -> None:
    from grammar.parser import GAMES
    from spec.core.cards import shipped_database

    for game in GAMES:
        path = shipped_database(game, "base")
        result = runner.invoke(app, ["conflicts", str(path), "--game", game, "--json", "--max-set", "2", "--against", str(path)])
        assert result.exit_code in (0, 1), (game, result.output)
        assert json.loads(result.output)["game"] == game


def test_bad_input_gives_exit_code_2(runner: CliRunner, tmp_path: Path) -> None:
    assert runner.invoke(app, ["conflicts", str(tmp_path / "missing.toml")]).exit_code == 2
    path = _file(tmp_path, '{"name": "X", "text": "Draw a card."}\n', "pool.jsonl")
    assert runner.invoke(app, ["conflicts", str(path), "--game", "chess"]).exit_code == 2
    assert runner.invoke(app, ["conflicts", str(path)]).exit_code == 2  # no game known for a pool file


def test_unreadable_cards_are_listed(runner: CliRunner, tmp_path: Path) -> None:
    path = _file(tmp_path, CARDS + '\n[[card]]\nname = "Garbled"\ntype = "Food"\ntext = "Frobnicate the widget."\n')
    result = runner.invoke(app, ["conflicts", str(path), "--against", str(path)])
    assert result.exit_code == 1
    assert "cards that cannot be read (1)" in result.output and "Garbled" in result.output


@pytest.mark.parametrize("game", ["neopets", "bakugan", "battle_monsters", "epic_battles", "ttcg"])
def test_every_shipped_card_is_read_by_the_conflict_check(runner: CliRunner, game: str) -> None:
    """No shipped card is left unreadable (a TTCG helper once shadowed another of its name)."""
    base = Path(__file__).resolve().parents[1] / "spec" / game / "cards" / "base.toml"
    result = runner.invoke(app, ["conflicts", str(base), "--json"])
    assert result.exit_code in (0, 1), result.output
    data = json.loads(result.output)
    assert data["unreadable"] == [] and data["conflicts"]
