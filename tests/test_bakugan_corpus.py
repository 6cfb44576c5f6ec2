"""What only the Bakugan corpus shows (the tests common to every game are in tests/test_corpus.py)."""

from __future__ import annotations

import json
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "replays" / "bakugan"
LEGAL = sorted((CORPUS / "legal").glob("*.jsonl"))
ILLEGAL = sorted((CORPUS / "illegal").glob("*.jsonl"))


def _header(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0])


def test_both_pass_styles_are_in_the_corpus() -> None:
    styles = {_header(p)["options"].get("passes") for p in LEGAL}
    assert styles == {"explicit", "implicit"}
    assert "implicit" in {_header(p)["options"].get("passes") for p in ILLEGAL}


def test_legal_games_name_their_winner() -> None:
    """A Bakugan game always has a winner: every legal replay claims one at its end."""
    for path in LEGAL:
        last = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
        assert last["do"] == "game" and last["winner"] is not None, path.name
