"""Bakugan: ``legal_moves`` and the checker agree, in randomly played games (hypothesis).

Every move ``legal_moves`` offers is accepted by ``apply``; and any move ``apply``
accepts is one ``legal_moves`` offers (chance outcomes compared by shape: who draws, who
turns a card over, who rolls), so the enumeration misses nothing.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spec import load_game
from spec.bakugan import events as E
from spec.core.cards import CardDatabase, shipped_database
from spec.core.game import Setup

GAME = load_game("bakugan")
CARDS = CardDatabase.load(shipped_database("bakugan", "base"), "bakugan")
BAD = ("illegal", "inconsistent", "malformed", "unverifiable")
CHANCE = ("draw", "flip", "search", "roll", "shuffle", "first", "coin")


def shape(move: Any) -> tuple[Any, ...]:
    kind = move.__struct_config__.tag
    if kind in CHANCE:
        return (kind, move.by)
    if kind == "place":
        return (kind, move.by, move.core)
    d = msgspec.to_builtins(move)
    d.pop("seq", None)
    return tuple(sorted((k, str(v)) for k, v in d.items()))


def arbitrary_moves(state: Any, rng: random.Random) -> list[Any]:
    """Moves a log could hold, legal or not (concessions aside: they are always allowed)."""
    names = sorted(c.name for c in CARDS)
    out: list[Any] = []
    for player in state.players:
        side = state.sides[player]
        for name in rng.sample(names, 8) + side.hand.names():
            out += [E.Play(0, player, name), E.Energize(0, player, name), E.Discard(0, player, name),
                    E.Activate(0, player, name)]
        for bak in list(side.team) + rng.sample([c.name for c in CARDS if c.type == "Character"], 2):
            out += [E.Select(0, player, bak), E.Reroll(0, player, bak)]
        out += [E.Pass(0, player), E.Decline(0, player), E.Shuffle(0, player), E.Draw(0, player, None),
                E.Flip(0, player, None), E.Roll(0, player, opened=False), E.Place(0, player, "FT", [1]),
                E.Coin(0, player, "heads")]
    return out


def accepted(state: Any, move: Any) -> bool:
    trial = state.copy()
    return not any(r.violation.severity in BAD for r in GAME.apply(trial, move))


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=100_000), steps=st.integers(min_value=30, max_value=140))
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


def test_a_concession_is_always_accepted() -> None:
    rng = random.Random(3)
    state = GAME.setup(Setup(("ann", "ben"), {p: GAME.random_deck(CARDS, rng) for p in ("ann", "ben")},
                             {"passes": "explicit"}, CARDS))
    assert accepted(state, E.Forfeit(0, "ben"))
    GAME.apply(state, E.Forfeit(0, "ben"))
    assert state.stage == "over" and state.winner == "ann"
    assert GAME.legal_moves(state) == []
