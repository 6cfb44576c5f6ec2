"""Battle Monsters: ``legal_moves`` and the checker agree, in randomly played games (hypothesis).

Every move ``legal_moves`` offers is accepted by ``apply``; and any move ``apply``
accepts is one ``legal_moves`` offers (a draw compared by who draws: which card comes
is chance), so the enumeration misses nothing.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spec import load_game
from spec.battle_monsters import board as B
from spec.battle_monsters import events as E
from spec.core.cards import CardDatabase, shipped_database
from spec.core.game import Setup

GAME = load_game("battle_monsters")
CARDS = CardDatabase.load(shipped_database("battle_monsters", "base"), "battle_monsters")
BAD = ("illegal", "inconsistent", "malformed", "unverifiable")


def shape(move: Any) -> tuple[Any, ...]:
    if move.__struct_config__.tag == "draw":
        return ("draw", move.by)
    d = msgspec.to_builtins(move)
    d.pop("seq", None)
    return tuple(sorted((k, str(v)) for k, v in d.items()))


def arbitrary_moves(state: Any, rng: random.Random) -> list[Any]:
    """Moves a log could hold, legal or not."""
    names = sorted(c.name for c in CARDS if B.card_kind(CARDS, c.name))
    out: list[Any] = []
    for player in state.players:
        side = state.sides[player]
        for name in rng.sample(names, 6) + side.hand.names() + side.graveyard.names():
            out += [E.Summon(0, player, name, "attack", True), E.Summon(0, player, name, "defense", False),
                    E.Discard(0, player, name), E.Bury(0, player, name)]
        for fc in side.field + state.sides[state.other(player)].field:
            out += [E.Reveal(0, player, fc.name), E.Switch(0, player, fc.name), E.Conceal(0, player, fc.name),
                    E.Attack(0, player, fc.name, 1, None), E.Choose(0, player, fc.name, fc.owner)]
            for foe in state.sides[state.other(player)].field:
                out.append(E.Attack(0, player, fc.name, 1, foe.name))
        out += [E.Skip(0, player), E.Draw(0, player, None), E.Accept(0, player), E.Decline(0, player),
                E.Surrender(0, player), E.Agree(0, player), E.First(0, None, player)]
    return out


def accepted(state: Any, move: Any) -> bool:
    trial = state.copy()
    return not any(r.violation.severity in BAD for r in GAME.apply(trial, move))


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=100_000), steps=st.integers(min_value=20, max_value=90))
def test_legal_moves_and_the_checker_agree(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    players = ("ann", "ben")
    decks = {p: GAME.random_deck(CARDS, rng) for p in players}
    state = GAME.setup(Setup(players, decks, {"passes": "implicit"}, CARDS))
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
        playable = [m for m in offered if m.__struct_config__.tag not in ("surrender", "agree")] or offered
        GAME.apply(state, rng.choice(playable))


def test_a_concession_is_always_accepted_and_ends_the_game() -> None:
    rng = random.Random(3)
    state = GAME.setup(Setup(("ann", "ben"), {p: GAME.random_deck(CARDS, rng) for p in ("ann", "ben")},
                             {"passes": "implicit"}, CARDS))
    assert accepted(state, E.Surrender(0, "ben"))
    GAME.apply(state, E.Surrender(0, "ben"))
    assert state.stage == "over" and state.winner == "ann"
    assert GAME.legal_moves(state) == []
