"""Building the Battle Monsters replay corpus: simulated legal games, and illegal ones.

Legal replays are games played through :meth:`BattleMonsters.legal_moves` by a simple
weighted policy (sub-actions before the action, attacks preferred, no concession until
asked) with every claim the spec derives; each is kept for the situations it shows
(:func:`features`, listed in the header's ``meta.shows``).

Illegal replays are a legal game's prefix followed by one bad event: at each point of a
game the search tries mutated events (other cards, other players, other targets,
stances, wrong claims) and keeps, for each precondition not yet covered, the first whose
first finding comes from that check; the header's ``expect`` names its rule and seq.
Each illegal replay breaks a different rule.

Run ``python -m spec.battle_monsters.corpus replays/battle_monsters`` to rebuild (it is deterministic).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import msgspec

from spec import load_game
from spec.battle_monsters import board as B
from spec.battle_monsters import events as E
from spec.battle_monsters.state import BattleMonstersState
from spec.core.cards import CardDatabase, shipped_database
from spec.core.game import Setup

if TYPE_CHECKING:
    from spec.battle_monsters.game import BattleMonsters

GAME_ID = "battle_monsters"
PLAYERS = ("alice", "bob")
_enc = msgspec.json.Encoder(order="deterministic")

SITUATIONS = (
    "opening set-up", "summon face down", "summon face up", "reveal", "switch mode", "battle won by attacker",
    "battle won by defender", "tie", "direct attack", "trap goes off", "spell goes off", "effect draw",
    "effect choice", "won on lives", "won on supply", "surrender", "agreed draw", "skip", "discard action",
    "attack on defence-invisible", "attack on a spell or trap", "summoned-turn attack by card", "hidden draws",
)
"""The situations the issue names for Battle Monsters, shown by the legal corpus."""

WEIGHTS = {"attack": 8.0, "summon": 4.0, "reveal": 3.0, "switch": 0.6, "draw": 1.0, "skip": 0.05, "discard": 0.05,
           "choose": 1.0, "accept": 1.0, "decline": 0.5, "bury": 1.0, "first": 1.0}


def _cards() -> CardDatabase:
    return CardDatabase.load(shipped_database(GAME_ID, "base"), GAME_ID)


def play(seed: int, max_events: int = 700, ending: str = "", weights: dict[str, float] | None = None,
         prefer: tuple[str, ...] = (), decks: dict[str, Any] | None = None) -> list[bytes]:
    """One legal game as replay lines (header first), with claims.

    ``ending``: ``surrender`` or ``draw`` ends the game that way after 30 events;
    ``prefer`` names cards put in both decks.
    """
    rng = random.Random(seed)
    game = load_game(GAME_ID)
    cards = _cards()
    if decks is None:
        decks = {p: game.random_deck(cards, rng) for p in PLAYERS}
        for name in prefer:
            for p in PLAYERS:
                decks[p]["cards"][name] = decks[p]["cards"].get(name, 0) + 3
    state = game.setup(Setup(PLAYERS, decks, {"passes": "implicit"}, cards))
    header = {"replay": 1, "game": GAME_ID, "ruleset": game.rulesets[-1], "players": list(PLAYERS), "decks": decks,
              "cards": game.default_cards, "options": {"passes": "implicit"}, "meta": {"generator": "spec.battle_monsters.corpus", "seed": seed}}
    weights = {**WEIGHTS, **(weights or {})}
    events: list[dict[str, Any]] = []
    while len(events) < max_events and state.stage != "over":
        moves = [m for m in game.legal_moves(state, rng) if m.__struct_config__.tag not in ("surrender", "agree")]
        if ending and len(events) >= 30 and state.stage == "turn" and not state.pending:
            if ending == "surrender":
                moves = [E.Surrender(0, state.active)]
            else:
                moves = [E.Agree(0, state.active)] if state.offer is None else [E.Agree(0, state.other(state.active))]
        if not moves:
            break
        w = [weights.get(str(m.__struct_config__.tag), 1.0) * (6.0 if getattr(m, "card", None) in prefer else 1.0) for m in moves]
        pick = rng.choices(moves, weights=w)[0]
        move = msgspec.structs.replace(pick, seq=len(events) + 1)
        before = game.facts(state)
        bad = [r for r in game.apply(state, move) if r.violation.severity != "info"]
        if bad:
            raise AssertionError(f"seed {seed}: the spec refused its own legal move {move}: {bad[0].rule} {bad[0].violation}")
        events.append(msgspec.to_builtins(move))
        for claim in game.claims_since(state, before):
            events.append({**claim, "seq": len(events) + 1})
    return [_enc.encode(header)] + [_enc.encode(e) for e in events]


def replay_states(lines: list[bytes]) -> Iterator[tuple[BattleMonstersState, Any, dict[str, Any]]]:
    """``(state before the event, event, raw event)`` for each event of a replay."""
    game = load_game(GAME_ID)
    header = json.loads(lines[0])
    state = game.setup(Setup(tuple(header["players"]), header["decks"], header["options"], _cards()))  # type: ignore[arg-type]
    decoder = game.decoder()
    for raw in lines[1:]:
        event = decoder.decode(raw)
        yield state, event, json.loads(raw)
        game.apply(state, event)


def features(lines: list[bytes]) -> set[str]:
    """The situations of :data:`SITUATIONS` a replay shows."""
    found: set[str] = set()
    game = load_game(GAME_ID)
    for state, event, raw in replay_states(lines):
        kind = raw["do"]
        if kind == "bury":
            found.add("opening set-up")
        if kind == "summon":
            found.add("summon face up" if raw.get("visible", True) else "summon face down")
        if kind == "reveal":
            found.add("reveal")
        if kind == "switch":
            found.add("switch mode")
        if kind == "skip":
            found.add("skip")
        if kind == "discard" and not state.pending:
            found.add("discard action")
        if kind == "draw" and state.pending:
            found.add("effect draw")
        if kind == "draw" and raw.get("card") is None:
            found.add("hidden draws")
        if kind == "choose":
            found.add("effect choice")
        if kind == "surrender":
            found.add("surrender")
        if kind == "game" and raw.get("winner") is None:
            found.add("agreed draw")
        if kind == "triggered":
            owner_kind = B.card_kind(state.cards, raw["card"])
            found.add("trap goes off" if owner_kind == "trap" else "spell goes off")
        if kind == "attack":
            attacker = B.find(state, raw["by"], raw["card"], raw.get("copy", 1))
            if raw.get("target") is None:
                found.add("direct attack")
            else:
                target = B.find(state, state.other(raw["by"]), raw["target"], raw.get("target_copy", 1))
                if target is not None and target.kind == "monster" and attacker is not None:
                    if not target.visible and target.mode == "defense":
                        found.add("attack on defence-invisible")
                    trial = state.copy()
                    game.apply(trial, event)
                    gone_target = B.find_uid(trial, target.uid) is None
                    gone_attacker = B.find_uid(trial, attacker.uid) is None
                    if gone_target and not gone_attacker:
                        found.add("battle won by attacker")
                    elif gone_attacker and not gone_target:
                        found.add("battle won by defender")
                    elif not gone_attacker and not gone_target and trial.battle is None and not trial.pending:
                        found.add("tie")
                elif target is not None:
                    found.add("attack on a spell or trap")
            if attacker is not None and attacker.summoned_turn == state.turn:
                found.add("summoned-turn attack by card")
    final = state
    if final.stage == "over":
        if final.ended_by == "lives":
            found.add("won on lives")
        if final.ended_by == "supply":
            found.add("won on supply")
    return found


# ====================================================================== illegal replays

def _mutations(state: BattleMonstersState, event: Any, rng: random.Random) -> list[Any]:
    """Events that a careless or dishonest log might hold at this point."""
    game = cast("BattleMonsters", load_game(GAME_ID))
    seq = event.seq
    out: list[Any] = list(game._candidates(state, rng))
    names = sorted({d.name for d in state.cards if B.card_kind(state.cards, d.name)})
    fields = event.__struct_fields__
    if "card" in fields and isinstance(getattr(event, "card", None), str):
        for name in rng.sample(names, min(6, len(names))):
            out.append(msgspec.structs.replace(event, card=name))
    if event.by is not None:
        out.append(msgspec.structs.replace(event, by=state.other(event.by)))
    for player in state.players:
        side = state.sides[player]
        out += [E.Draw(seq, player, n) for n in rng.sample(names, min(4, len(names)))]
        out += [E.Skip(seq, player), E.Agree(seq, player), E.Accept(seq, player), E.Decline(seq, player)]
        out += [E.Lives(seq, None, player, side.lives - 1), E.Game(seq, None, player)]
        out += [E.Sent(seq, None, n, player) for n in rng.sample(names, 2)]
        out += [E.Triggered(seq, None, n, player) for n in rng.sample(names, 2)]
        out += [E.Bury(seq, player, n) for n in rng.sample(names, 2)]
        out += [E.First(seq, None, player)]
        for fc in side.field:
            k = B.copy_number(state, fc)
            out += [E.Conceal(seq, player, fc.name, k), E.Reveal(seq, player, fc.name, k), E.Switch(seq, player, fc.name, k),
                    E.Attack(seq, player, fc.name, k, None), E.Choose(seq, player, fc.name, fc.owner, k)]
            for foe in state.sides[state.other(player)].field:
                out.append(E.Attack(seq, player, fc.name, k, foe.name, B.copy_number(state, foe)))
            out += [E.Attack(seq, player, fc.name, k, n) for n in rng.sample(names, 2)]
        for card in side.graveyard:
            out.append(E.Summon(seq, player, card.name or "", "attack", True))
        for name in sorted(set(side.hand.names())):
            out += [E.Summon(seq, player, name, "defense", False), E.Discard(seq, player, name)]
    return [msgspec.structs.replace(m, seq=seq) for m in out]


def hide_draws(lines: list[bytes], player: str) -> list[bytes]:
    """The same game as a hand-kept log would hold it: ``player``'s draws without the card's name."""
    out = [lines[0]]
    for raw in lines[1:]:
        event = json.loads(raw)
        if event["do"] == "draw" and event.get("by") == player:
            event["card"] = None
        out.append(_enc.encode(event))
    return out


def offer_twice(lines: list[bytes]) -> list[bytes]:
    """A legal prefix up to the tenth turn, a draw offer, then the same player offering again (BM.end.draw)."""
    game = load_game(GAME_ID)
    for k, (state, _event, _raw) in enumerate(replay_states(lines)):
        if state.stage == "turn" and state.turn >= 10 and not state.pending and state.battle is None:
            offer = E.Agree(k + 1, state.active)
            assert not game.apply(state.copy(), offer)
            again = E.Agree(k + 2, state.active)
            header = json.loads(lines[0])
            header["expect"] = {"verdict": "illegal", "seq": k + 2, "rule": "battle_monsters:BM.end.draw"}
            header["meta"] = {"generator": "spec.battle_monsters.corpus", "breaks": "battle_monsters:BM.end.draw", "check": "draw_offer_in_play"}
            return [_enc.encode(header)] + lines[1:k + 1] + [_enc.encode(offer), _enc.encode(again)]
    raise LookupError("the game has no tenth turn")


# ====================================================================== conflicts and hidden cards (issue 6)

CONFLICT_DECKS: dict[str, Any] = {
    "alice": {"cards": {"Coil Adept": 2, "Glowcap Sprite": 10, "Mossback Tortoise": 10, "Quarry Golem": 10}},
    "bob": {"cards": {"Glowcap Sprite": 10, "Mossback Tortoise": 10, "Quarry Golem": 10, "Vigil Heron": 1}},
}
"""Registered decks of the scripted conflict game: two Coil Adepts against one Vigil Heron."""

_SETUP: list[dict[str, Any]] = [
    {"do": "first", "player": "alice"},
    {"do": "bury", "by": "alice", "card": "Glowcap Sprite"}, {"do": "bury", "by": "alice", "card": "Mossback Tortoise"},
    {"do": "bury", "by": "bob", "card": "Glowcap Sprite"}, {"do": "bury", "by": "bob", "card": "Mossback Tortoise"},
    *({"do": "draw", "by": "alice", "card": c} for c in ("Coil Adept", "Coil Adept", "Quarry Golem", "Quarry Golem", "Glowcap Sprite")),
    *({"do": "draw", "by": "bob", "card": c} for c in ("Vigil Heron", "Quarry Golem", "Quarry Golem", "Mossback Tortoise", "Glowcap Sprite")),
]
_BEFORE_THE_CLASH: list[dict[str, Any]] = [
    # turn 1, alice: the first Coil Adept goes down face down, before any Vigil Heron
    {"do": "summon", "by": "alice", "card": "Coil Adept", "mode": "attack", "visible": False},
    {"do": "draw", "by": "alice", "card": "Quarry Golem"},
    # turn 2, bob: Vigil Heron: monsters on alice's side cannot attack on the turn they are revealed
    {"do": "summon", "by": "bob", "card": "Vigil Heron", "mode": "attack", "visible": True},
    {"do": "draw", "by": "bob", "card": "Glowcap Sprite"},
    # turn 3, alice: the second Coil Adept, face down, after Vigil Heron
    {"do": "summon", "by": "alice", "card": "Coil Adept", "mode": "attack", "visible": False},
    {"do": "draw", "by": "alice", "card": "Mossback Tortoise"},
    # turn 4, bob
    {"do": "summon", "by": "bob", "card": "Quarry Golem", "mode": "defense", "visible": True},
    {"do": "draw", "by": "bob", "card": "Quarry Golem"},
]
_SETTLED: list[dict[str, Any]] = [
    # turn 5, alice: the second Coil Adept, later than Vigil Heron, may attack on the turn it is revealed (BM.rules.conflict)
    {"do": "reveal", "by": "alice", "card": "Coil Adept", "copy": 2},
    {"do": "attack", "by": "alice", "card": "Coil Adept", "copy": 2, "target": "Vigil Heron"},
    {"do": "draw", "by": "alice", "card": "Glowcap Sprite"},
    {"do": "surrender", "by": "bob"},
]
_WRONG_WAY: list[dict[str, Any]] = [
    # turn 5, alice: the first Coil Adept, older than Vigil Heron: Vigil Heron's cannot prevails, yet it attacks
    {"do": "reveal", "by": "alice", "card": "Coil Adept", "copy": 1},
    {"do": "attack", "by": "alice", "card": "Coil Adept", "copy": 1, "target": "Vigil Heron"},
]


def scripted(moves: list[dict[str, Any]], decks: dict[str, Any] | None = None, last_breaks: bool = False,
             unseen: str | None = None) -> list[bytes]:
    """A scripted game as replay lines (header first), with every claim the spec derives.

    Every move must be legal, except the last with ``last_breaks``; ``unseen``: that
    player's draws are logged without the card's name (a hand-kept log).
    """
    game = load_game(GAME_ID)
    decks = decks or CONFLICT_DECKS
    state = game.setup(Setup(PLAYERS, decks, {"passes": "implicit"}, _cards()))
    header = {"replay": 1, "game": GAME_ID, "ruleset": game.rulesets[-1], "players": list(PLAYERS), "decks": decks,
              "cards": game.default_cards, "options": {"passes": "implicit"}, "meta": {"generator": "spec.battle_monsters.corpus"}}
    decoder = game.decoder()
    events: list[dict[str, Any]] = []
    for k, move in enumerate(moves):
        raw = {**move, "seq": len(events) + 1}
        if unseen is not None and raw["do"] == "draw" and raw.get("by") == unseen:
            raw["card"] = None
        event = decoder.decode(_enc.encode(raw))
        before = game.facts(state)
        bad = [r for r in game.apply(state, event) if r.violation.severity != "info"]
        events.append(raw)
        if last_breaks and k == len(moves) - 1:
            if not bad:
                raise AssertionError(f"the last move {raw} was accepted")
            break
        if bad:
            raise AssertionError(f"the spec refused the scripted move {raw}: {bad[0].rule} {bad[0].violation}")
        for claim in game.claims_since(state, before):
            events.append({**claim, "seq": len(events) + 1})
    return [_enc.encode(header)] + [_enc.encode(e) for e in events]


def _with_header(lines: list[bytes], expect: dict[str, Any], **meta: Any) -> list[bytes]:
    header = json.loads(lines[0])
    header["expect"] = expect
    header["meta"] = {**header["meta"], **meta}
    return [_enc.encode(header)] + lines[1:]


def conflict_replays() -> dict[str, list[bytes]]:
    """The three replays of issue 6: a conflict settled correctly, one the log settled the other
    way, and a hidden card the registered deck cannot hold (``<legal|illegal>/<name>`` -> lines)."""
    settled = scripted(_SETUP + _BEFORE_THE_CLASH + _SETTLED)
    wrong = scripted(_SETUP + _BEFORE_THE_CLASH + _WRONG_WAY, last_breaks=True)
    again = {"do": "summon", "by": "bob", "card": "Vigil Heron", "mode": "attack", "visible": True}
    hidden = scripted(_SETUP + _BEFORE_THE_CLASH[:6] + [again], last_breaks=True, unseen="bob")
    rule = "battle_monsters:BM.rules.conflict"
    return {
        "legal/conflicts-settled-later-card.jsonl": _with_header(settled, {"verdict": "legal"}, shows=sorted(features(settled)),
                                                                 conflicts=["battle_monsters:BM.rules.card", rule]),
        "illegal/breaks-BM-rules-conflict.jsonl": _with_header(wrong, {"verdict": "illegal", "seq": len(wrong) - 1, "rule": rule},
                                                               breaks=rule, check="attack_clash_settled"),
        "illegal/inconsistent-BM-gloss-draw.jsonl": _with_header(
            hidden, {"verdict": "inconsistent", "seq": len(hidden) - 1, "rule": "battle_monsters:BM.gloss.draw"},
            breaks="battle_monsters:BM.gloss.draw", check="hidden_card_from_deck"),
    }


def write_conflict_replays(out: Path) -> None:
    for name, lines in conflict_replays().items():
        (out / name).write_bytes(b"\n".join(lines) + b"\n")


def find_cases(seeds: list[int], wanted: set[str]) -> dict[str, tuple[list[bytes], str, str]]:
    """For each check name in ``wanted``, a replay whose last event breaks that check first.

    Returns check name -> (lines, rule, severity); at most one replay per rule.
    """
    from verifier.verify import Verifier  # noqa: F401 - the verifier judges the same way (apply)

    game = load_game(GAME_ID)
    found: dict[str, tuple[list[bytes], str, str]] = {}
    rules_used: set[str] = set()
    for seed in seeds:
        if not wanted - set(found):
            break
        lines = play(seed, max_events=500, weights={"switch": 2.0, "reveal": 4.0, "skip": 0.3})
        rng = random.Random(seed)
        for k, (state, event, _raw) in enumerate(replay_states(lines)):
            if not wanted - set(found):
                break
            for mutant in _mutations(state, event, rng):
                trial = state.copy()
                rulings = game.apply(trial, mutant)
                bad = [r for r in rulings if r.violation.severity in ("illegal", "inconsistent")]
                if not bad or bad[0].rule is None or any(r.violation.severity in ("unverifiable", "malformed") for r in rulings):
                    continue
                check, rule = bad[0].check, bad[0].rule
                if check is None or check in found or check not in wanted or rule in rules_used:
                    continue
                header = json.loads(lines[0])
                header["expect"] = {"verdict": bad[0].violation.severity, "seq": mutant.seq, "rule": rule}
                header["meta"] = {"generator": "spec.battle_monsters.corpus", "seed": seed, "breaks": rule, "check": check}
                found[check] = ([_enc.encode(header)] + lines[1:k + 1] + [_enc.encode(mutant)], rule, bad[0].violation.severity)
                rules_used.add(rule)
    return found


def build(out: Path) -> None:
    """Write the legal and illegal corpus into ``out/legal`` and ``out/illegal``."""
    for sub in ("legal", "illegal"):
        (out / sub).mkdir(parents=True, exist_ok=True)
        for old in (out / sub).glob("*.jsonl"):
            old.unlink()
    covered: set[str] = set()
    legal = 0
    plans: list[dict[str, Any]] = [
        {}, {}, {"ending": "surrender"}, {"ending": "draw"},
        {"prefer": ("Snapjaw Pit", "Ward Sigil", "Tripwire Net", "Grudge Mirror")},
        {"prefer": ("Scroll of Plenty", "Brine Serpent", "Tidebound Cinder Whelp", "Twin Sigil")},
        {"prefer": ("Thornhide Boar", "Coil Adept", "Skyrunner Colt")},
        {"weights": {"draw": 0.3, "skip": 1.0, "discard": 0.6}},
        {"weights": {"summon": 6.0, "switch": 2.0}, "prefer": ("Pactbound Hermit", "Pebble Imp", "Lantern Sweep")},
    ]
    seed = 1
    while (legal < 10 or set(SITUATIONS) - covered) and seed < 120:
        plan = plans[seed % len(plans)]
        lines = play(seed, **plan)
        got = features(lines)
        last = json.loads(lines[-1])
        if last.get("do") == "game" and (legal < 10 or got - covered):
            header = json.loads(lines[0])
            header["expect"] = {"verdict": "legal"}
            header["meta"]["shows"] = sorted(got)
            slug = "-".join(sorted(got - covered)[:2]).replace(" ", "-") or "game"
            (out / "legal" / f"{slug}-{seed}.jsonl").write_bytes(b"\n".join([_enc.encode(header)] + lines[1:]) + b"\n")
            covered |= got
            legal += 1
        seed += 1
    hidden = hide_draws(play(1), PLAYERS[1])
    header = json.loads(hidden[0])
    header["expect"] = {"verdict": "legal"}
    header["meta"]["shows"] = sorted(features(hidden))
    (out / "legal" / "hidden-draws-1.jsonl").write_bytes(b"\n".join([_enc.encode(header)] + hidden[1:]) + b"\n")
    covered |= set(header["meta"]["shows"])
    legal += 1
    print(f"legal: {legal} replays; situations missing: {sorted(set(SITUATIONS) - covered)}", flush=True)
    game = load_game(GAME_ID)
    wanted = {c.name for a in game.book.actions.values() for c in a.checks}
    cases = find_cases(list(range(200, 212)), wanted)
    if "draw_offer_in_play" not in cases:
        cases["draw_offer_in_play"] = (offer_twice(play(200)), "battle_monsters:BM.end.draw", "illegal")
    for check, (lines, rule, _severity) in sorted(cases.items()):
        if check in ("attack_clash_settled", "hidden_card_from_deck"):
            continue  # scripted below (conflict_replays)
        slug = rule.split(":", 1)[1].replace(".", "-")
        (out / "illegal" / f"breaks-{slug}.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    write_conflict_replays(out)
    print(f"illegal: {len(cases)} replays; checks without a replay: {sorted(wanted - set(cases))}")


if __name__ == "__main__":
    build(Path(sys.argv[1]))
