"""Every game refuses an event whose actor (``by``) is missing or not a player.

The well-formed event pays one membership test; the two problems are worded once, in
:func:`spec.core.game.actor_problem`, for all five games.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec import GAMES
from verifier.verify import verify_file

ROOT = Path(__file__).resolve().parents[1]


def _first_move(game: str) -> tuple[Path, list[str], int]:
    """A shipped legal replay of ``game``, its lines, and the index of its first event with an actor."""
    for path in sorted((ROOT / "replays" / game / "legal").glob("*.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for index, line in enumerate(lines[1:], 1):
            if line.strip() and json.loads(line).get("by"):
                return path, lines, index
    raise AssertionError(f"no {game} replay has an event with an actor")


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize(("by", "words"), [(None, "must say who ('by')"), ("zed", "'zed' is not a player of this game")])
def test_an_event_without_a_player_as_its_actor_is_malformed(game: str, by: str | None, words: str, tmp_path: Path) -> None:
    path, lines, index = _first_move(game)
    event = json.loads(lines[index])
    if by is None:
        del event["by"]
    else:
        event["by"] = by
    lines[index] = json.dumps(event)
    broken = tmp_path / path.name
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = verify_file(broken)
    assert report.verdict == "malformed"
    finding = next(f for f in report.findings if f.severity == "malformed")
    assert words in finding.message
    assert finding.line == index + 1
