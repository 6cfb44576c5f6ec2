"""What only the TTCG corpus shows (the tests common to every game are in tests/test_corpus.py)."""

from __future__ import annotations

import json
from pathlib import Path

LEGAL = sorted((Path(__file__).resolve().parents[1] / "replays" / "ttcg" / "legal").glob("*.jsonl"))


def test_legal_replays_use_every_effect_type() -> None:
    """Cards with each effect type of 2.2.5.i are used or set off in a legal replay."""
    from spec.core.cards import CardDatabase, shipped_database
    from spec.ttcg import board as B

    cards = CardDatabase.load(shipped_database("ttcg", "base"), "ttcg")

    labels: set[str] = set()
    for path in LEGAL:
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            event = json.loads(line)
            if event["do"] == "play":
                labels |= {label for label, _a in B.effects_in(cards, event["card"])}
            if event["do"] == "activate":
                labels.add(B.effects_in(cards, event["card"])[event.get("effect", 0)][0])
    assert labels >= {"normal", "continuous", "counter", "equip", "latent", "dormant", "passive"}
