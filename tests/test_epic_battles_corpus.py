"""What only the Epic Battles corpus shows (the tests common to every game are in tests/test_corpus.py).

* the situations the issue names for Epic Battles are among those shown, with both
  styles of logging passes;
* every card a main deck may hold is used by a legal replay; the corpus player is
  deterministic.
"""

from __future__ import annotations

import json
from pathlib import Path

from spec.epic_battles.corpus import SITUATIONS, play

CORPUS = Path(__file__).resolve().parents[1] / "replays" / "epic_battles"
LEGAL = sorted((CORPUS / "legal").glob("*.jsonl"))

ISSUE_SITUATIONS = (
    "two rounds won", "deck runs out", "random first aggressor", "loser is next aggressor", "aggressor rotates",
    "events set face down", "event flipped", "events flipped together", "energy paid", "damage", "chipping",
    "top of deck discarded", "block of the same height", "HIT text", "combo", "knock down", "launcher",
    "blocked knock down", "recover by block", "recover by effect", "recover at combo end", "taunt plays an attack",
    "taunt discards", "discard to three", "side deck registered", "attack to energy pile", "block to discard pile",
    "event to discard pile", "three rounds",
)
"""The issue's Epic Battles paragraph, as situations a legal replay shows."""


def _header(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0])


def test_legal_replays_show_the_situations_the_issue_names() -> None:
    shown: set[str] = set()
    for path in LEGAL:
        shown |= set(_header(path)["meta"].get("shows", []))
    assert set(ISSUE_SITUATIONS) <= set(SITUATIONS)
    assert sorted(set(ISSUE_SITUATIONS) - shown) == []
    assert any(_header(p)["options"]["passes"] == "implicit" for p in LEGAL)
    assert any(_header(p)["options"]["passes"] == "explicit" for p in LEGAL)


def test_legal_replays_play_every_main_deck_card() -> None:
    """Every card of the base set a main deck may hold is played, set, flipped or chosen in a legal replay."""
    from spec.epic_battles.corpus import cards_used, main_deck_cards

    used: set[str] = set()
    for path in LEGAL:
        used |= cards_used(path.read_bytes().splitlines())
    assert sorted(main_deck_cards() - used) == []


def test_the_game_player_is_deterministic() -> None:
    assert play(7, max_events=300) == play(7, max_events=300)
