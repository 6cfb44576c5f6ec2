"""Building a test corpus from simulated games: legal games with chosen features, and
illegal games that each break one rule.

Legal replays are simulated games (with claims) picked for the situations they show.
Illegal replays are a legal game's prefix followed by one mutated event: the search
tries, at each point of a game, the moves the spec does not offer and mutations of the
recorded event (another card, other dice, another player, a wrong claim), and keeps the
first event whose first finding cites a rule not yet covered. The ``expect`` written
into each header is the rule the mutation was chosen to break; the corpus test then
holds the verifier to it.

Run ``python -m verifier.corpus neopets OUT_DIR`` to rebuild (it is deterministic).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

from spec import load_game
from spec.core.cards import CardDatabase, shipped_database
from spec.core.game import Setup
from verifier.simulate import simulate

_enc = msgspec.json.Encoder(order="deterministic")


def replay_states(game_id: str, lines: list[bytes]) -> Iterator[tuple[Any, Any, dict[str, Any]]]:
    """``(state before the event, event, raw event)`` for each event of a replay."""
    game = load_game(game_id)
    header = json.loads(lines[0])
    set_name = header["cards"].split("/", 1)[1]
    cards = CardDatabase.load(shipped_database(game_id, set_name), game_id)
    setup = Setup(tuple(header["players"]), header["decks"], header["options"], cards)  # type: ignore[arg-type]
    state = game.setup(setup)
    decoder = game.decoder()
    for raw in lines[1:]:
        event = decoder.decode(raw)
        yield state, event, json.loads(raw)
        game.apply(state, event)


def features(game_id: str, lines: list[bytes]) -> set[str]:
    """Situations a Neopets replay shows, for picking a varied legal corpus."""
    found: set[str] = set()
    for state, event, raw in replay_states(game_id, lines):
        kind = raw["do"]
        if kind == "mulligan":
            found.add("mulligan")
        if kind == "reroll" and state.node == "agility" and state.resolution is None:
            found.add("agility reroll")
        if kind == "roll" and state.node == "attack" and 6 in raw["dice"] and state.resolution is None:
            found.add("critical")
        if kind == "collect":
            found.add("map piece")
        if kind == "play":
            defn = state.cards.get(raw["card"])
            kind_of = defn.type if defn else ""
            if kind_of == "Food" and raw["by"] != state.active:
                found.add("food in opponent's turn")
            if kind_of == "Paint Brush":
                found.add("paint brush")
            if kind_of == "Location":
                found.add("location")
        if kind == "round" and state.round == 3:
            found.add("three rounds")
        if state.stage == "turn" and any(len(s.deck) == 0 for s in state.sides.values()):
            found.add("exhaustion")
        if kind == "activate":
            found.add("activated ability")
    return found


def _mutations(game: Any, state: Any, event: Any, rng: random.Random) -> list[Any]:
    """Events that a careless or dishonest log might hold at this point."""
    out = list(game._candidates(state, rng))
    seq = event.seq
    names = sorted(d.name for d in state.cards)
    fields = event.__struct_fields__
    if "card" in fields:
        for name in rng.sample(names, min(8, len(names))):
            out.append(msgspec.structs.replace(event, card=name))
    if "dice" in fields:
        dice = list(event.dice)
        out.append(msgspec.structs.replace(event, dice=dice + [3]))
        if dice:
            out.append(msgspec.structs.replace(event, dice=dice[:-1]))
            out.append(msgspec.structs.replace(event, dice=[7] + dice[1:]))
    if event.by is not None:
        out.append(msgspec.structs.replace(event, by=state.other(event.by)))
    ev_mod = sys.modules[type(event).__module__]
    for player in state.players:
        out.append(ev_mod.Damage(seq, None, player, 1 + (len(state.damage_log) % 3)))
        out.append(ev_mod.Knockout(seq, None, player))
        out.append(ev_mod.Round(seq, None, player))
        out.append(ev_mod.Game(seq, None, player))
        for name in rng.sample(names, min(6, len(names))):
            out.append(ev_mod.Draw(seq, player, name))
    if "neopet" in fields:
        for name in rng.sample(names, min(8, len(names))):
            out.append(msgspec.structs.replace(event, neopet=name))
    for phase in ("draw", "train", "preparation", "battle", "end"):
        out.append(ev_mod.Phase(seq, None, phase))
    out.append(ev_mod.Resolve(seq, None, "Thornberry Omelette"))
    return [msgspec.structs.replace(m, seq=seq) for m in out]


def find_rule_cases(game_id: str, seeds: list[int], passes: str = "explicit", wanted: set[str] | None = None,
                    per_game_limit: int = 400) -> dict[str, tuple[list[bytes], str]]:
    """For each rule check, a replay whose last event breaks it first: rule -> (lines, severity)."""
    game = load_game(game_id)
    if wanted is None:
        wanted = {c.rule for a in game.book.actions.values() for c in a.checks}
    found: dict[str, tuple[list[bytes], str]] = {}
    for seed in seeds:
        if not wanted - set(found):
            break
        lines = simulate(game_id, seed, passes=passes, claims=True)
        rng = random.Random(seed)
        for k, (state, event, _raw) in enumerate(replay_states(game_id, lines)):
            if k > per_game_limit:
                break
            for mutant in _mutations(game, state, event, rng):
                trial = state.copy()
                rulings = game.apply(trial, mutant)
                bad = [r for r in rulings if r.violation.severity in ("illegal", "inconsistent")]
                if not bad or bad[0].rule is None or bad[0].rule in found or bad[0].rule not in wanted or not wanted - set(found):
                    continue
                if any(r.violation.severity in ("unverifiable", "malformed") for r in rulings):
                    continue
                rule, severity = bad[0].rule, bad[0].violation.severity
                header = json.loads(lines[0])
                header["expect"] = {"verdict": severity, "seq": mutant.seq, "rule": rule}
                header["meta"] = {"generator": "verifier.corpus", "seed": seed, "breaks": rule}
                found[rule] = ([_enc.encode(header)] + lines[1:k + 1] + [_enc.encode(mutant)], severity)
    return found


def build(game_id: str, out: Path, part: str = "both") -> None:
    """Write the legal and/or illegal corpus of a game into ``out/legal`` and ``out/illegal``."""
    (out / "legal").mkdir(parents=True, exist_ok=True)
    (out / "illegal").mkdir(parents=True, exist_ok=True)
    wanted_features = ["three rounds", "mulligan", "agility reroll", "critical", "exhaustion",
                       "food in opponent's turn", "paint brush", "location", "map piece", "activated ability"]
    covered: set[str] = set()
    legal = 0
    seed = 100
    prefer_sets = [(), ("Sunken Grotto", "Sunken Grotto Map: Reef Corner", "Sunken Grotto Map: Kelp Corner",
                        "Sunken Grotto Map: Anchor Corner"), ("Ember Paint Brush", "Frost Paint Brush")]
    while part != "illegal" and (legal < 12 or set(wanted_features) - covered) and seed < 400:
        prefer = prefer_sets[seed % len(prefer_sets)]
        passes = "implicit" if seed % 2 else "explicit"
        lines = simulate(game_id, seed, passes=passes, claims=True, prefer=prefer)
        got = features(game_id, lines)
        if legal < 12 or (got - covered):
            header = json.loads(lines[0])
            header["expect"] = {"verdict": "legal"}
            header["meta"]["shows"] = sorted(got)
            name = f"{'-'.join(sorted(got - covered)[:2]).replace(' ', '-').replace(chr(39), '') or 'game'}-{seed}.jsonl"
            (out / "legal" / name).write_bytes(b"\n".join([_enc.encode(header)] + lines[1:]) + b"\n")
            covered |= got
            legal += 1
        seed += 1
    print(f"legal: {legal} replays; features missing: {sorted(set(wanted_features) - covered)}", flush=True)
    if part == "legal":
        return
    cases = find_rule_cases(game_id, list(range(1, 15)), "explicit")
    cases.update({r: c for r, c in find_rule_cases(game_id, list(range(20, 26)), "implicit").items() if r not in cases})
    for rule, (lines, _severity) in sorted(cases.items()):
        slug = rule.split(":", 1)[1].replace(".", "-")
        (out / "illegal" / f"breaks-{slug}.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    game = load_game(game_id)
    all_rules = {c.rule for a in game.book.actions.values() for c in a.checks}
    print(f"illegal: {len(cases)} replays; checks without a case: {sorted(all_rules - set(cases))}")


if __name__ == "__main__":
    build(sys.argv[1], Path(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else "both")
