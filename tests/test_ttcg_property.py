"""TTCG: legal_moves and the checker agree, in randomly played games (hypothesis).

Every move ``legal_moves`` offers is accepted by ``apply``; and any move ``apply``
accepts is one ``legal_moves`` offers (chance outcomes compared by shape: who draws or
mills, and that the die shows a face), so the enumeration misses nothing.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from spec import load_game
from spec.core.cards import CardDatabase, shipped_database
from spec.core.game import Setup
from spec.ttcg import board as B
from spec.ttcg import events as E
from spec.ttcg.corpus import active_guide

GAME: Any = load_game("ttcg")
CARDS = CardDatabase.load(shipped_database("ttcg", "base"), "ttcg")
BAD = ("illegal", "inconsistent", "malformed", "unverifiable")


def _pile(state: Any, owner: str | None, name: str, slot: int | None, row: str | None = None) -> Any:
    pile = B.find_pile(state, owner, name, slot, row)
    return None if pile is None else pile.id


def shape(state: Any, move: Any) -> tuple[Any, ...]:
    """What a move does, whichever way it names its cards (a pile by name alone or by slot)."""
    kind = move.__struct_config__.tag
    if kind in ("draw", "mill", "shuffle", "roll"):
        return (kind, move.by)
    if isinstance(move, E.Activate):
        row = "creature" if B.is_creature(CARDS.get(move.card)) else "magic"
        return (kind, move.by, move.card, move.effect, _pile(state, move.by, move.card, move.slot, row))
    if isinstance(move, E.Attack):
        target = None if move.target is None else _pile(state, state.other(move.by), move.target.card, move.target.slot, "creature")
        return (kind, move.by, _pile(state, move.by, move.card, move.slot, "creature"), target)
    if isinstance(move, E.Play):
        on = None if move.on is None else _pile(state, move.by, move.on.card, move.on.slot)
        equip = None if move.equip is None else _pile(state, move.by, move.equip.card, move.equip.slot, "creature")
        return (kind, move.by, move.card, on, equip)
    d = msgspec.to_builtins(move)
    d.pop("seq", None)
    return tuple(sorted((k, str(v)) for k, v in d.items()))


def arbitrary_moves(state: Any, rng: random.Random) -> list[Any]:
    """Moves a log could hold, legal or not."""
    names = sorted(c.name for c in CARDS)
    out: list[Any] = [E.Roll(0, None, rng.randint(0, 7))]
    for player in state.players:
        side = state.sides[player]
        field = [p.card.name for p in side.piles()]
        foes = [p.card.name for p in state.sides[state.other(player)].creatures]
        for name in rng.sample(names, 8) + field:
            out += [E.Play(0, player, name), E.Activate(0, player, name, rng.randint(0, 1)), E.Discard(0, player, name),
                    E.Attack(0, player, name)]
            for other in field[:2]:
                out.append(E.Play(0, player, name, E.Ref(other)))
            for foe in foes[:2]:
                out.append(E.Attack(0, player, name, None, E.Ref(foe, state.other(player))))
        out += [E.Pass(0, player), E.Shuffle(0, player), E.Decline(0, player), E.Choose(0, player, []), E.First(0, None, player),
                E.Draw(0, player, None), E.Mill(0, player, None)]
    return out


def accepted(state: Any, move: Any) -> bool:
    trial = state.copy()
    return not any(r.violation.severity in BAD for r in GAME.apply(trial, move))


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(seed=st.integers(min_value=0, max_value=100_000), steps=st.integers(min_value=20, max_value=90),
       passes=st.sampled_from(["explicit", "implicit"]))
def test_legal_moves_and_the_checker_agree(seed: int, steps: int, passes: str) -> None:
    rng = random.Random(seed)
    players = ("ann", "ben")
    decks = {p: GAME.random_deck(CARDS, rng) for p in players}
    state = GAME.setup(Setup(players, decks, {"passes": passes}, CARDS))
    for _ in range(steps):
        offered = GAME.legal_moves(state, rng)
        if not offered:
            break
        for move in offered:
            assert accepted(state, move), f"offered but refused: {move}"
        if passes == "explicit":  # with inferred passes a move may be accepted further on: no exact match
            offered_shapes = {shape(state, m) for m in offered}
            decline = next((m for m in offered if m.__struct_config__.tag == "decline"), None)
            if decline is not None:  # another move while an optional choice waits declines it first
                after = state.copy()
                GAME.apply(after, decline)
                offered_shapes |= {shape(after, m) for m in GAME.legal_moves(after, random.Random(seed))}
            for move in arbitrary_moves(state, rng):
                if accepted(state, move):
                    assert shape(state, move) in offered_shapes, f"accepted but not offered: {move}"
        move = active_guide(state, offered, rng) or rng.choice(offered)
        GAME.apply(state, move)
