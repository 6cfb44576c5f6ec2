"""legal_moves and the checker agree, in randomly played games (hypothesis).

Every move ``legal_moves`` offers is accepted by ``apply``; and any move ``apply``
accepts is one ``legal_moves`` offers (chance outcomes compared by shape: who draws,
how many dice), so the enumeration misses nothing.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spec import load_game
from spec.core.cards import CardDatabase, shipped_database
from spec.core.game import Setup
from spec.neopets import events as E

GAME = load_game("neopets")
CARDS = CardDatabase.load(shipped_database("neopets", "base"), "neopets")
BAD = ("illegal", "inconsistent", "malformed", "unverifiable")


def shape(move: Any) -> tuple[Any, ...]:
    kind = move.__struct_config__.tag
    if kind in ("draw", "scrap", "search", "roll", "shuffle", "first"):
        return (kind, move.by, len(getattr(move, "dice", ())), getattr(move, "player", None))
    if kind == "reroll":
        return (kind, move.by)
    d = msgspec.to_builtins(move)
    d.pop("seq", None)
    return tuple(sorted((k, str(v)) for k, v in d.items()))


def arbitrary_moves(state: Any, rng: random.Random) -> list[Any]:
    """Moves a log could hold, legal or not."""
    names = sorted(c.name for c in CARDS)
    out: list[Any] = []
    for player in state.players:
        for name in rng.sample(names, 10):
            out += [E.Play(0, player, name), E.Attach(0, player, name), E.Collect(0, player, name),
                    E.Activate(0, player, name), E.Choose(0, player, name)]
        out += [E.Pass(0, player), E.Mulligan(0, player), E.Defer(0, player), E.Shuffle(0, player),
                E.Decline(0, player), E.Roll(0, player, [rng.randint(1, 6) for _ in range(rng.randint(0, 6))])]
    return out


def accepted(state: Any, move: Any) -> bool:
    trial = state.copy()
    return not any(r.violation.severity in BAD for r in GAME.apply(trial, move))


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=100_000), steps=st.integers(min_value=10, max_value=80))
def test_legal_moves_and_the_checker_agree(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    players = ("ann", "ben")
    decks = {p: GAME.random_deck(CARDS, rng) for p in players}
    state = GAME.setup(Setup(players, decks, {"passes": "explicit"}, CARDS))
    for _ in range(steps):
        offered = GAME.legal_moves(state, rng)
        if not offered:
            break
        for move in offered:
            assert accepted(state, move), f"offered but refused: {move}"
        offered_shapes = {shape(m) for m in offered}
        for move in arbitrary_moves(state, rng):
            if accepted(state, move):
                assert shape(move) in offered_shapes, f"accepted but not offered: {move}"
        GAME.apply(state, rng.choice(offered))
