"""Random legal games, played through the spec's ``legal_moves``, written as replays.

The simulator builds a random deck from the game's card database within its
construction rules (:meth:`deck`), then plays moves picked at random among those the
spec allows until the game ends. The same seed gives the same game, byte for byte.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import msgspec

from spec import load_game
from spec.core.cards import CardDatabase, shipped_database
from spec.core.game import Game, Setup

_encoder = msgspec.json.Encoder(order="deterministic")


def neopets_deck(cards: CardDatabase, rng: random.Random) -> dict[str, Any]:
    """A random registered decklist that keeps the Neopets construction rules."""
    main: dict[str, int] = {}
    others = [c for c in cards if c.type not in ("Neopet", "Rainbow Pool Neopet", "Codestone") and "Rainbow Pool." not in c.text]
    rng.shuffle(others)
    for card in others[: rng.randint(12, 18)]:
        limit = 1 if card.type in ("Faerie", "Hero", "Villain", "Map Piece") else 2
        main[card.name] = rng.randint(1, limit)
    stones = [c.name for c in cards if c.type == "Codestone"]
    while sum(main.values()) < 50:
        name = rng.choice(stones)
        main[name] = main.get(name, 0) + 1
    species: dict[str, str] = {}
    for card in cards:
        if card.type == "Neopet":
            species.setdefault(card.species or card.name, card.name)
    neopets = rng.sample(sorted(species.values()), 3)
    pool = sorted(c.name for c in cards if c.type == "Rainbow Pool Neopet" or (c.type == "Location" and "Rainbow Pool." in c.text))
    return {"main": dict(sorted(main.items())), "neopets": neopets, "rainbow_pool": pool}


DECK_BUILDERS = {"neopets": neopets_deck}


def simulate(game_id: str, seed: int, max_events: int = 3000, passes: str = "explicit",
             players: tuple[str, str] = ("alice", "bob"), pass_weight: float = 0.35, claims: bool = False,
             prefer: tuple[str, ...] = ()) -> list[bytes]:
    """One random legal game as replay lines (header first).

    ``claims`` adds the derived facts (damage dealt, knock-outs, round and game winners)
    as claim events; ``prefer`` names cards the simulator plays whenever it may.
    """
    rng = random.Random(seed)
    game: Game[Any, Any] = load_game(game_id)
    set_name = game.default_cards.split("/", 1)[1]
    cards = CardDatabase.load(shipped_database(game_id, set_name), game_id)
    decks = {p: DECK_BUILDERS[game_id](cards, rng) for p in players}
    setup = Setup(players, decks, {"passes": "explicit"}, cards)
    state = game.setup(setup)
    header = {"replay": 1, "game": game_id, "ruleset": game.rulesets[-1], "players": list(players), "decks": decks,
              "cards": game.default_cards, "options": {"passes": passes}, "meta": {"generator": "arbiter simulate", "seed": seed}}
    events: list[dict[str, Any]] = []
    while len(events) < max_events:
        moves = game.legal_moves(state, rng)
        if not moves:
            break
        passes_only = [m for m in moves if m.__struct_config__.tag == "pass"]
        others = [m for m in moves if m.__struct_config__.tag != "pass"]
        favoured = [m for m in others if getattr(m, "card", None) in prefer]
        if favoured:
            pick = rng.choice(favoured)
        else:
            pick = rng.choice(passes_only) if passes_only and (not others or rng.random() < pass_weight) else rng.choice(others)
        move = msgspec.structs.replace(pick, seq=len(events) + 1)
        before = _facts(state)
        rulings = game.apply(state, move)
        bad = [r for r in rulings if r.violation.severity != "info"]
        if bad:  # legal_moves and apply disagree: a bug in the spec
            raise AssertionError(f"seed {seed}: the spec refused its own legal move {move}: {bad[0].rule} {bad[0].violation}")
        events.append(msgspec.to_builtins(move))
        if claims:
            events.extend(_claims(state, before, len(events)))
        if getattr(state, "stage", None) == "over":
            break
    if passes == "implicit":
        events = [e for e in events if e["do"] != "pass"]
        for i, e in enumerate(events, 1):
            e["seq"] = i
    return [_encoder.encode(header)] + [_encoder.encode(e) for e in events]


def _facts(state: Any) -> tuple[int, int, str | None]:
    return len(getattr(state, "damage_log", ())), len(getattr(state, "round_winners", ())), getattr(state, "winner", None)


def _claims(state: Any, before: tuple[int, int, str | None], seq: int) -> list[dict[str, Any]]:
    """Claim events for what the last move derived (Neopets' vocabulary)."""
    out: list[dict[str, Any]] = []
    damage_seen, rounds_seen, _winner = before
    for player, amount in state.damage_log[damage_seen:]:
        if amount:
            out.append({"do": "damage", "to": player, "amount": amount})
    for winner in state.round_winners[rounds_seen:]:
        out.append({"do": "knockout", "player": state.other(winner)})
        out.append({"do": "round", "winner": winner})
    if state.winner is not None and _winner is None:
        out.append({"do": "game", "winner": state.winner})
    for i, event in enumerate(out, seq + 1):
        event["seq"] = i
    return out


def write_games(game_id: str, count: int, seed: int, out: Path, passes: str = "explicit") -> list[Path]:
    """Simulate ``count`` games from ``seed`` and write them to ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for i in range(count):
        path = out / f"{game_id}-{seed + i:06d}.jsonl"
        path.write_bytes(b"\n".join(simulate(game_id, seed + i, passes=passes)) + b"\n")
        written.append(path)
    return written


__all__ = ["neopets_deck", "simulate", "write_games"]
