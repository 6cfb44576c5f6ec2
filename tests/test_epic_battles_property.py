"""Epic Battles: ``legal_moves`` and the checker agree, in randomly played games (hypothesis).

Every move ``legal_moves`` offers is accepted by ``apply``; and any move ``apply``
accepts is one ``legal_moves`` offers (chance outcomes compared by shape: who draws,
who reveals), so the enumeration misses nothing.
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
from spec.epic_battles import events as E
from spec.epic_battles.corpus import choose
from spec.epic_battles.game import EpicBattles
from spec.epic_battles.state import EpicBattlesState

_GAME = load_game("epic_battles")
assert isinstance(_GAME, EpicBattles)
GAME: EpicBattles = _GAME
CARDS = CardDatabase.load(shipped_database("epic_battles", "base"), "epic_battles")
NAMES = sorted(c.name for c in CARDS)
BAD = ("illegal", "inconsistent", "malformed", "unverifiable")


def shape(state: EpicBattlesState, move: Any) -> tuple[Any, ...]:
    kind = move.__struct_config__.tag
    if kind in ("draw", "reveal", "search", "shuffle", "aggressor"):
        return (kind, move.by, getattr(move, "player", None))
    d = msgspec.to_builtins(move)
    d.pop("seq", None)
    for key in ("cards", "remove"):
        if key in d:
            d[key] = sorted(d[key])
    return tuple(sorted((k, str(v)) for k, v in d.items()))


def offered_shape(state: EpicBattlesState, move: Any, shapes: set[tuple[Any, ...]]) -> bool:
    """Whether ``move`` is among the offered shapes; an attack that leaves ``link`` out matches either reading."""
    if move.__struct_config__.tag == "attack" and move.link is None:
        return any(shape(state, msgspec.structs.replace(move, link=link)) in shapes for link in (True, False))
    return shape(state, move) in shapes


def arbitrary_moves(state: EpicBattlesState, rng: random.Random) -> list[Any]:
    """Moves a log could hold, legal or not."""
    out: list[Any] = []
    for player in state.players:
        side = state.sides[player]
        known = sorted({c.name for zone in (side.hand, side.arena, side.discard) for c in zone if c.name is not None})
        for name in rng.sample(NAMES, 8) + known:
            out += [E.Attack(0, player, name, link=rng.choice([None, True, False])), E.Block(0, player, name),
                    E.Set(0, player, name), E.Flip(0, player, [name]), E.Discard(0, player, name),
                    E.Select(0, player, name), E.Recover(0, player, discard=name), E.Character(0, player, name)]
        if len(known) >= 2:
            out.append(E.Flip(0, player, rng.sample(known, 2)))
            out.append(E.Recover(0, player, remove=rng.sample(known, 2)))
        out += [E.Pass(0, player), E.Shuffle(0, player), E.Accept(0, player), E.Decline(0, player), E.Activate(0, player, 0),
                E.Activate(0, player, 1), E.Aggressor(0, None, player), E.Attack(0, player, "Shoulder Check", alternative=True)]
    return out


def accepted(state: EpicBattlesState, move: Any) -> bool:
    trial = state.copy()
    return not any(r.violation.severity in BAD for r in GAME.apply(trial, move))


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=100_000), steps=st.integers(min_value=20, max_value=260))
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
        offered_shapes = {shape(state, m) for m in offered}
        for move in arbitrary_moves(state, rng):
            if accepted(state, move):
                assert offered_shape(state, move, offered_shapes), f"accepted but not offered: {move}"
        GAME.apply(state, choose(state, offered, rng))


def test_a_finished_game_offers_nothing() -> None:
    from spec.epic_battles.corpus import play, replay_states

    lines = play(3)
    states = [s for s, _e, _r in replay_states(lines)]
    last = states[-1].copy()
    GAME.apply(last, GAME.decoder().decode(lines[-1]))
    assert last.stage == "over"
    assert GAME.legal_moves(last) == []
