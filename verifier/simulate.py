"""Random legal games, played through the spec's ``legal_moves``, written as replays.

The simulator builds a random deck from the game's card database within its
construction rules (:meth:`deck`), then plays moves picked at random among those the
spec allows until the game ends. The same seed gives the same game, byte for byte.

A move the spec allows can still bring two card effects into a clash that no rule of the
game settles; the verifier reports such a game ``unverifiable`` (``Game.conflicts_met``).
The simulator draws again instead, so that every game it writes is one the verifier can
call legal; when no other move is left, the game stops there.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import msgspec

from spec import load_game
from spec.core.cards import CardDatabase, shipped_database
from spec.core.game import Game, Setup
from verifier.verify import stamp_reader

_encoder = msgspec.json.Encoder(order="deterministic")


def simulate(game_id: str, seed: int, max_events: int = 3000, passes: str = "explicit",
             players: tuple[str, str] = ("alice", "bob"), pass_weight: float = 0.35, claims: bool = False,
             prefer: tuple[str, ...] = (), ending_weight: float = 0.001) -> list[bytes]:
    """One random legal game as replay lines (header first).

    ``claims`` adds the derived facts (damage dealt, knock-outs, round and game winners)
    as claim events; ``prefer`` names cards the simulator plays whenever it may;
    ``ending_weight`` is the chance, at each move, that the moves ending the game by the
    players' choice (``Game.ending_moves``) are among those drawn from.
    """
    rng = random.Random(seed)
    game: Game[Any, Any] = load_game(game_id)
    set_name = game.default_cards.split("/", 1)[1]
    cards = CardDatabase.load(shipped_database(game_id, set_name), game_id)
    decks = {p: game.random_deck(cards, rng) for p in players}
    setup = Setup(players, decks, {"passes": "explicit"}, cards)
    state = game.setup(setup)
    header = {"replay": 1, "game": game_id, "ruleset": game.rulesets[-1], "players": list(players), "decks": decks,
              "cards": game.default_cards, "options": {"passes": passes}, "meta": {"generator": "arbiter simulate", "seed": seed}}
    events: list[dict[str, Any]] = []
    memo: dict[str, Any] = {}  # what conflicts_met has reported, as the verifier keeps it
    stamp = stamp_reader(game)
    stamp_seen: Any = None  # and it is asked, as the verifier asks it, once the stamp moved
    while len(events) < max_events:
        moves = game.legal_moves(state, rng)
        before = game.facts(state)
        while moves:
            pick = _pick(game, moves, rng, prefer, pass_weight, ending_weight)
            move = msgspec.structs.replace(pick, seq=len(events) + 1)
            trial, trial_memo = state.copy(), _memo_copy(memo)
            rulings = game.apply(trial, move)
            bad = [r for r in rulings if r.violation.severity != "info"]
            if bad:  # legal_moves and apply disagree: a bug in the spec
                raise AssertionError(f"seed {seed}: the spec refused its own legal move {move}: {bad[0].rule} {bad[0].violation}")
            now = stamp(trial)
            if now != stamp_seen and any(r.violation.severity != "info" for r in game.conflicts_met(trial, trial_memo)):
                moves.remove(pick)  # a clash no rule settles: the verifier could not call the game legal
                continue
            state, memo, stamp_seen = trial, trial_memo, now
            break
        else:
            break  # no move left, or none the verifier could judge
        events.append(msgspec.to_builtins(move))
        if claims:
            for i, claim in enumerate(game.claims_since(state, before), len(events) + 1):
                events.append({**claim, "seq": i})
        if getattr(state, "stage", None) == "over":
            break
    if passes == "implicit":
        events = [e for e in events if e["do"] != "pass"]
        for i, e in enumerate(events, 1):
            e["seq"] = i
    return [_encoder.encode(header)] + [_encoder.encode(e) for e in events]


def _memo_copy(memo: dict[str, Any]) -> dict[str, Any]:
    """A copy of a ``Game.conflicts_met`` memo to try a move with: its sets, lists and dicts
    copied, everything else shared (the games replace those values, never change them)."""
    return {key: value.copy() if type(value) in (set, dict, list) else value for key, value in memo.items()}


def _pick(game: Game[Any, Any], moves: list[Any], rng: random.Random, prefer: tuple[str, ...], pass_weight: float,
          ending_weight: float) -> Any:
    """One of ``moves``, drawn as :func:`simulate` says: a preferred card whenever one can be
    played, a pass with chance ``pass_weight``, a move ending the game only now and then."""
    passes_only = [m for m in moves if m.__struct_config__.tag == "pass"]
    others = [m for m in moves if m.__struct_config__.tag != "pass"]
    playing_on = [m for m in others if m.__struct_config__.tag not in game.ending_moves]
    if playing_on and len(playing_on) < len(others) and rng.random() >= ending_weight:
        others = playing_on  # the players end a game by choice only now and then (Game.ending_moves)
    favoured = [m for m in others if getattr(m, "card", None) in prefer]
    if favoured:
        return rng.choice(favoured)
    return rng.choice(passes_only) if passes_only and (not others or rng.random() < pass_weight) else rng.choice(others)


def write_games(game_id: str, count: int, seed: int, out: Path, passes: str = "explicit", claims: bool = False) -> list[Path]:
    """Simulate ``count`` games from ``seed`` and write them to ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for i in range(count):
        path = out / f"{game_id}-{seed + i:06d}.jsonl"
        path.write_bytes(b"\n".join(simulate(game_id, seed + i, passes=passes, claims=claims)) + b"\n")
        written.append(path)
    return written


__all__ = ["simulate", "write_games"]
