"""Building the Bakugan replay corpus (``replays/bakugan``) from simulated games.

Legal replays are games the simulator plays through :meth:`Bakugan.legal_moves`
(:func:`verifier.simulate.simulate`, with claims), picked for the situations they show
(:func:`features`). Illegal replays are a legal game's prefix followed by one event that
breaks one rule first: each :class:`Breach` names the rule, the point of the game where
it can be broken (a predicate on the state) and the event; the builder takes the first
point of a simulated game where the event's first finding cites that rule, and writes the
expected verdict, seq and rule into the header.

Run ``python -m spec.bakugan.corpus OUT_DIR`` to rebuild (it is deterministic).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from spec import load_game
from spec.bakugan import board as B
from spec.bakugan import events as E
from spec.bakugan.state import BakuganState
from spec.core.cards import CardDatabase, shipped_database
from spec.core.game import Setup

_enc = msgspec.json.Encoder(order="deterministic")

FLIPS = ("Tidebreak", "Ward of Ash", "Glint Snare", "Lucky Gale", "Second Look", "Crosscurrent", "Usurper's Gambit")
EVOS = ("Cindercrawl Ascendant", "Brineskitter Tempest", "Gloamwing Eclipse", "Halcyon Drake Prime", "Vesperhorn Gale",
        "Emberclaw Inferno", "Mossjaw Bastion")

SITUATIONS = ("team attack", "tie break", "flip card during damage", "reroll", "evo on a face-down character",
              "win by damage into an empty deck")
"""What the issue asks the legal corpus to show."""


def replay_states(lines: list[bytes]) -> Iterator[tuple[BakuganState, Any, dict[str, Any]]]:
    """``(state before the event, event, raw event)`` for each event of a Bakugan replay."""
    game = load_game("bakugan")
    header = json.loads(lines[0])
    cards = CardDatabase.load(shipped_database("bakugan", header["cards"].split("/", 1)[1]), "bakugan")
    state = game.setup(Setup(tuple(header["players"]), header["decks"], header["options"], cards))  # type: ignore[arg-type]
    decoder = game.decoder()
    for raw in lines[1:]:
        event = decoder.decode(raw)
        yield state, event, json.loads(raw)
        game.apply(state, event)


def features(lines: list[bytes]) -> set[str]:
    """Situations a replay shows."""
    found: set[str] = set()
    game = load_game("bakugan")
    for state, event, raw in replay_states(lines):
        kind = raw["do"]
        need = state.resolution.need if state.resolution is not None else None
        if kind == "flip" and state.mode == "tie":
            found.add("tie break")
        if kind == "play":
            defn = state.cards.get(raw["card"])
            if defn is not None and defn.type == "Flip":
                found.add("flip card during damage")
            if defn is not None and defn.type == "Evo":
                bak = state.bakugan(raw["by"], raw.get("on") or "")
                if bak is not None and not bak.face_up:
                    found.add("evo on a face-down character")
            if defn is not None and defn.type == "Hero":
                found.add("hero")
            if raw.get("x") is not None:
                found.add("x cost")
        if kind == "reroll" or (kind == "roll" and need is not None and need.kind == "roll"):
            found.add("reroll")
        if kind == "roll" and state.node == "roll" and len(state.to_roll) == 2 and all(state.flags.missed.values()) and state.flags.missed:
            found.add("double miss")
        if kind == "activate":
            found.add("activated ability")
        if kind == "discard" and state.discarding:
            found.add("hand limit")
        if kind == "coin":
            found.add("coin")
        if kind == "search":
            found.add("search")
        if kind == "flip" and need is not None and need.kind == "flip":
            found.add("card attack")
        trial = state.copy()
        game.apply(trial, event)
        if trial.team_attack:
            found.add("team attack")
        if trial.attack is not None and trial.attack.stopped:
            found.add("stopped attack")
        if trial.stage == "over" and trial.end_rule == "1.5.1" and trial.winner is not None:
            found.add("win by damage into an empty deck")
    return found


# ====================================================================== illegal replays


@dataclass(frozen=True)
class Breach:
    """How to break one rule: where (a predicate on the state before) and with what event."""

    rule: str
    where: Callable[[BakuganState], bool]
    event: Callable[[BakuganState], Any]
    passes: str = "explicit"


def _p(state: BakuganState) -> str:
    return state.starting or state.players[0]


def _q(state: BakuganState) -> str:
    return state.other(_p(state))


def _hand_card(state: BakuganState, player: str, kind: str | None = None) -> str | None:
    for card in state.sides[player].hand:
        if card.name is not None and (kind is None or B.type_of(state, card.name) == kind):
            return card.name
    return None


def _window(state: BakuganState, node: str) -> bool:
    return state.stage == "turn" and state.node == node and state.mode in ("window", "") and state.resolution is None \
        and not state.to_roll and not state.batch and state.priority.passes == 0 and state.turn > 1


def _face_up(state: BakuganState) -> list[tuple[str, str]]:
    return [(p, b.name) for p, b in B.face_up(state)]


BREACHES: list[Breach] = [
    Breach("bakugan:1.4/4.2", lambda s: s.stage == "setup" and s.first is not None and not s.field_cores,
           lambda s: E.First(0, None, s.players[1])),
    Breach("bakugan:1.4/4.3.p1", lambda s: s.stage == "setup" and len(s.field_cores) == 3,
           lambda s: E.Place(0, s.first, (s.sides[s.first or ""].cores_left or ["FT"])[0], [1])),
    Breach("bakugan:1.2/2.3", lambda s: s.stage == "setup" and len(s.field_cores) == 4 and "FT" not in (s.sides[s.first or ""].cores_left or ["FT"]),
           lambda s: E.Place(0, s.first, "FT", [1])),
    Breach("bakugan:1.4/4.3.1", lambda s: s.stage == "setup" and len(s.field_cores) == 2,
           lambda s: E.Place(0, s.first, (s.sides[s.first or ""].cores_left or ["FT"])[0], [])),
    Breach("bakugan:1.4/4.4.p1", lambda s: s.stage == "setup" and any(not side.shuffled for side in s.sides.values()),
           lambda s: E.Draw(0, next(p for p in s.players if not s.sides[p].shuffled), None)),
    Breach("bakugan:1.4/4.4.p3", lambda s: s.stage == "setup" and s.sides[s.players[0]].opening_draws == 5,
           lambda s: E.Draw(0, s.players[0], None)),
    Breach("bakugan:4.2.2.p2", lambda s: _window(s, "power"), lambda s: E.Shuffle(0, _p(s))),
    Breach("bakugan:1.17.1.p2", lambda s: _window(s, "power"), lambda s: E.Draw(0, _p(s), None)),
    Breach("bakugan:5.4.2", lambda s: s.stage == "turn" and s.node == "energize" and s.flags.energize_done == {s.starting}
           and _hand_card(s, s.starting) is not None, lambda s: E.Energize(0, s.starting, _hand_card(s, s.starting))),
    Breach("bakugan:5.4.1", lambda s: s.stage == "turn" and s.node == "energize" and not s.flags.energize_done
           and _hand_card(s, _q(s)) is not None, lambda s: E.Energize(0, _q(s), _hand_card(s, _q(s)))),
    Breach("bakugan:3.7.1", lambda s: _window(s, "power") and _hand_card(s, _p(s)) is not None,
           lambda s: E.Energize(0, _p(s), _hand_card(s, _p(s)))),
    Breach("bakugan:5.6.1", lambda s: s.stage == "turn" and s.node == "selection" and s.mode == "pick" and not s.flags.selected
           and s.turn > 1, lambda s: E.Select(0, _q(s), next(b.name for b in s.sides[_q(s)].team.values() if not b.open))),
    Breach("bakugan:1.1/2.1.p1", lambda s: s.stage == "turn" and s.node == "selection" and s.mode == "pick" and not s.flags.selected,
           lambda s: E.Select(0, _p(s), next(c.name for c in s.cards if c.type == "Character" and c.name not in s.sides[_p(s)].team))),
    Breach("bakugan:5.5.1", lambda s: s.stage == "turn" and s.node == "selection" and s.mode == "window" and not s.batch,
           lambda s: E.Roll(0, _p(s), opened=False)),
    Breach("bakugan:5.7.2.3", lambda s: s.stage == "turn" and s.node == "roll" and len(s.to_roll) == 2,
           lambda s: E.Roll(0, _p(s), opened=False, attached=True)),
    Breach("bakugan:5.7.2.2", lambda s: s.stage == "turn" and s.node == "roll" and len(s.to_roll) == 2
           and any(b.holding for p in s.players for b in s.sides[p].team.values()),
           lambda s: E.Roll(0, _p(s), opened=True, core=next(c for p in s.players for b in s.sides[p].team.values() for c in b.holding),
                            attached=True)),
    Breach("bakugan:1.18.1.1", lambda s: s.stage == "turn" and s.node == "selection" and s.mode == "window" and not s.batch
           and s.priority.holder == s.starting, lambda s: E.Reroll(0, _p(s), s.flags.selected[_p(s)])),
    Breach("bakugan:1.18.1.6", lambda s: _window(s, "victor") and s.priority.holder == s.starting,
           lambda s: E.Reroll(0, _p(s), s.flags.selected[_p(s)])),
    Breach("bakugan:1.18.1.2", lambda s: _window(s, "power") and s.priority.holder == s.starting,
           lambda s: E.Reroll(0, _p(s), next(n for n in s.sides[_p(s)].team if n != s.flags.selected[_p(s)]))),
    Breach("bakugan:1.3/3.1", lambda s: _window(s, "power") and s.priority.holder == s.starting and not s.flags.missed.get(_p(s), True)
           and B.keyword(s, s.sides[_p(s)].team[s.flags.selected[_p(s)]].top.name, "reroll_on_miss") is None,
           lambda s: E.Reroll(0, _p(s), s.flags.selected[_p(s)])),
    Breach("bakugan:1.14.2.p1", lambda s: _window(s, "power") and s.priority.holder == s.starting and s.flags.missed.get(_q(s), False)
           and B.keyword(s, s.sides[_q(s)].team[s.flags.selected[_q(s)]].top.name, "reroll_on_miss") is not None,
           lambda s: E.Reroll(0, _q(s), s.flags.selected[_q(s)])),
    Breach("bakugan:5.2.1.p2", lambda s: s.stage == "turn" and s.node == "energize" and _hand_card(s, _p(s), "Action") is not None,
           lambda s: E.Play(0, _p(s), _hand_card(s, _p(s), "Action") or "")),
    Breach("bakugan:3.6.1.p1", lambda s: _window(s, "power") and s.priority.holder == s.starting and _hand_card(s, _p(s), "Flip") is not None,
           lambda s: E.Play(0, _p(s), _hand_card(s, _p(s), "Flip") or ""), passes="implicit"),
    Breach("bakugan:6.2.1.p2", lambda s: _window(s, "power") and s.priority.holder == s.starting and _hand_card(s, _q(s), "Hero") is not None,
           lambda s: E.Play(0, _q(s), _hand_card(s, _q(s), "Hero") or "")),
    Breach("bakugan:1.10.1.p2", lambda s: _window(s, "power") and s.priority.holder == s.starting,
           lambda s: E.Play(0, _p(s), next(iter(s.sides[_p(s)].team)))),
    Breach("bakugan:6.2.1.1.p1", lambda s: _window(s, "power") and s.priority.holder == s.starting
           and any(c.type == "Hero" and s.sides[_p(s)].hand.find(c.name) is None for c in s.cards),
           lambda s: E.Play(0, _p(s), next(c.name for c in s.cards if c.type == "Hero" and s.sides[_p(s)].hand.find(c.name) is None))),
    Breach("bakugan:3.3.2.p1", lambda s: _window(s, "power") and s.priority.holder == s.starting and _hand_card(s, _p(s), "Evo") is not None,
           lambda s: E.Play(0, _p(s), _hand_card(s, _p(s), "Evo") or "", on=None)),
    Breach("bakugan:3.3.1.1", lambda s: _window(s, "power") and s.priority.holder == s.starting and _hand_card(s, _p(s), "Evo") is not None,
           lambda s: E.Play(0, _p(s), _hand_card(s, _p(s), "Evo") or "",
                            on=next(n for n in s.sides[_p(s)].team if not B.evolves(s.cards[_hand_card(s, _p(s), "Evo") or ""], n, s.cards)))),
    Breach("bakugan:1.8.1.2.2", lambda s: _window(s, "power") and s.priority.holder == s.starting and _hand_card(s, _p(s), "Hero") is not None,
           lambda s: E.Play(0, _p(s), _hand_card(s, _p(s), "Hero") or "", x=2)),
    Breach("bakugan:1.7.1.1.1", lambda s: _window(s, "power") and s.priority.holder == s.starting and _cheap(s, _p(s)) is not None,
           lambda s: E.Play(0, _p(s), _cheap(s, _p(s)) or "", uncharge=s.sides[_p(s)].charged())),
    Breach("bakugan:2.3.1.1", lambda s: _window(s, "power") and s.priority.holder == s.starting and _hand_card(s, _p(s), "Hero") is not None
           and s.sides[_p(s)].charged() + s.sides[_p(s)].pool < B.printed_cost(s.cards[_hand_card(s, _p(s), "Hero") or ""]),
           lambda s: E.Play(0, _p(s), _hand_card(s, _p(s), "Hero") or "")),
    Breach("bakugan:1.13.1.p1", lambda s: _window(s, "power") and s.priority.holder == s.starting and "Frost Lattice" in s.sides[_p(s)].hand.names()
           and s.sides[_p(s)].charged() >= 2, lambda s: E.Play(0, _p(s), "Frost Lattice")),
    Breach("bakugan:1.13.1.2", lambda s: _window(s, "power") and s.priority.holder == s.starting and _hand_card(s, _p(s), "Action") is not None
           and s.cards[_hand_card(s, _p(s), "Action") or ""].cost in (0, 1, 2) and s.sides[_p(s)].charged() >= 2
           and any(not b.face_up for b in s.sides[_q(s)].team.values()) and len(_face_up_slots(s, _hand_card(s, _p(s), "Action") or "")) == 1,
           lambda s: E.Play(0, _p(s), _hand_card(s, _p(s), "Action") or "",
                            [E.TargetRef(next(b.name for b in s.sides[_q(s)].team.values() if not b.face_up), _q(s))])),
    Breach("bakugan:1.13.1.p2", lambda s: s.stage == "turn" and s.node in ("selection", "power") and s.mode == "window" and not s.batch
           and not s.to_roll and s.resolution is None and s.priority.holder == s.starting and _unselectable(s, _p(s)) is not None,
           lambda s: E.Play(0, _p(s), _unselectable(s, _p(s)) or "")),
    Breach("bakugan:6.2.1.2", lambda s: _window(s, "power") and s.priority.holder == s.starting and "Radiant Pike" in s.sides[_p(s)].hand.names()
           and s.sides[_p(s)].charged() >= 3 and any("Haos" not in B.factions(s, b) for _p2, b in B.face_up(s)),
           lambda s: E.Play(0, _p(s), "Radiant Pike",
                            [next(E.TargetRef(b.name, p2) for p2, b in B.face_up(s) if "Haos" not in B.factions(s, b))])),
    Breach("bakugan:4.6.2", lambda s: _window(s, "power") and s.priority.holder == s.starting,
           lambda s: E.Activate(0, _p(s), "Rook Castellan", 0, [])),
    Breach("bakugan:1.14.3.p1", lambda s: _window(s, "power") and s.priority.holder == s.starting, lambda s: E.Pass(0, _q(s))),
    Breach("bakugan:5.3.1", lambda s: s.stage == "turn" and s.node == "draw" and not s.flags.drew and s.turn > 1, lambda s: E.Pass(0, _p(s))),
    Breach("bakugan:5.11.1.p1", lambda s: s.stage == "turn" and s.node == "damage" and s.mode == "deal" and s.attack is not None,
           lambda s: E.Pass(0, s.attack.to if s.attack else "")),
    Breach("bakugan:5.11.2", lambda s: s.stage == "turn" and s.node == "damage" and s.mode == "deal" and s.attack is not None
           and _hand_card(s, s.other(s.attack.to), "Hero") is not None,
           lambda s: E.Play(0, s.other(s.attack.to if s.attack else ""), _hand_card(s, s.other(s.attack.to if s.attack else ""), "Hero") or "")),
    Breach("bakugan:3.6.1.p2", lambda s: s.stage == "turn" and s.mode == "offer" and s.offer is not None
           and _hand_card(s, s.other(s.offer.owner), "Hero") is not None,
           lambda s: E.Play(0, s.other(s.offer.owner if s.offer else ""), _hand_card(s, s.other(s.offer.owner if s.offer else ""), "Hero") or "")),
    Breach("bakugan:5.9.2.1.p1", lambda s: s.stage == "turn" and s.mode == "tie" and not s.tie, lambda s: E.Pass(0, _p(s))),
    Breach("bakugan:4.3.2.p1", lambda s: _window(s, "play"), lambda s: E.Discard(0, _p(s), _hand_card(s, _p(s)))),
    Breach("bakugan:6.7.1.4", lambda s: _window(s, "power"), lambda s: E.Coin(0, _p(s), "heads")),
    Breach("bakugan:5.1.1", lambda s: _window(s, "power"), lambda s: E.Phase(0, None, "damage")),
    Breach("bakugan:5.10.1", lambda s: s.stage == "turn" and s.node == "victor" and s.victor is not None and s.mode == "window",
           lambda s: E.Victor(0, None, s.other(s.victor or "")), passes="implicit"),
    Breach("bakugan:1.16.2", lambda s: s.stage == "turn" and s.node == "damage" and s.mode == "after" and s.attack is not None
           and s.damage_claimed < len(s.damage_log),
           lambda s: E.Damage(0, None, s.damage_log[-1][0], s.damage_log[-1][1] + 1), passes="implicit"),
    Breach("bakugan:4.4.3.p1", lambda s: _window(s, "power") and s.last_resolved is not None,
           lambda s: E.Resolve(0, None, "Gravewind" if s.last_resolved != "Gravewind" else "Scorchline")),
    Breach("bakugan:1.5.1", lambda s: _window(s, "power"), lambda s: E.Game(0, None, _p(s))),
]


def _cheap(state: BakuganState, player: str) -> str | None:
    """A Hero or Action in hand costing less than the player's charged Energy cards (no X)."""
    side = state.sides[player]
    for card in side.hand:
        defn = card.defn
        if defn is not None and defn.type in ("Hero", "Action") and isinstance(defn.cost, int) \
                and B.cost_to_pay(state, player, defn, None) + 1 <= side.charged() and side.pool == 0:
            return defn.name
    return None


def _unselectable(state: BakuganState, player: str) -> str | None:
    """An affordable Action in hand that needs a selection nothing can meet now."""
    from spec.bakugan import actions as X
    from spec.bakugan import targets as T

    side = state.sides[player]
    for card in side.hand:
        defn = card.defn
        if defn is None or defn.type != "Action" or not isinstance(defn.cost, int):
            continue
        if B.cost_to_pay(state, player, defn, None) > side.charged() + side.pool:
            continue
        if any(not T.candidates(state, player, slot) for slot in X.played_slots(state, player, defn.name)):
            return defn.name
    return None


def _face_up_slots(state: BakuganState, name: str) -> list[Any]:
    from spec.bakugan import actions as X
    from spec.bakugan import targets as T

    return T.slots_of(X.played_steps(state, name))


def find_breaches(breaches: list[Breach], seeds: list[int], limit: int = 4000) -> dict[str, list[bytes]]:
    """For each breach, a replay whose last event breaks its rule first: rule -> replay lines.

    Each simulated game is walked once; at every state, each breach not found yet is tried.
    """
    from verifier.simulate import simulate

    game = load_game("bakugan")
    found: dict[str, list[bytes]] = {}
    for passes in ("explicit", "implicit"):
        for seed in seeds:
            todo = [b for b in breaches if b.rule not in found and b.passes == passes]
            if not todo:
                break
            lines = simulate("bakugan", seed, passes=passes, claims=True)
            for k, (state, _event, _raw) in enumerate(replay_states(lines)):
                if k > limit:
                    break
                for breach in todo:
                    if breach.rule in found:
                        continue
                    replay = _try(game, breach, state, k, lines, seed)
                    if replay is not None:
                        found[breach.rule] = replay
    return found


def _try(game: Any, breach: Breach, state: BakuganState, k: int, lines: list[bytes], seed: int) -> list[bytes] | None:
    try:
        if not breach.where(state):
            return None
        mutant = breach.event(state)
    except (StopIteration, KeyError, IndexError, TypeError, AttributeError, B.Unmodelled):
        return None
    if mutant is None:
        return None
    mutant = msgspec.structs.replace(mutant, seq=k + 1)
    trial = state.copy()
    rulings = [r for r in game.apply(trial, mutant) if r.violation.severity != "info"]
    if not rulings or rulings[0].rule != breach.rule:
        return None
    header = json.loads(lines[0])
    header["expect"] = {"verdict": rulings[0].violation.severity, "seq": k + 1, "rule": breach.rule}
    header["meta"] = {"generator": "spec.bakugan.corpus", "seed": seed, "breaks": breach.rule}
    return [_enc.encode(header)] + lines[1:k + 1] + [_enc.encode(mutant)]


# ====================================================================== building


def build(out: Path, part: str = "both") -> None:
    """Write the legal and/or illegal corpus into ``out/legal`` and ``out/illegal``."""
    from verifier.simulate import simulate
    from verifier.verify import verify_file

    (out / "legal").mkdir(parents=True, exist_ok=True)
    (out / "illegal").mkdir(parents=True, exist_ok=True)
    if part != "illegal":
        covered: set[str] = set()
        legal = 0
        seed = 100
        prefer_sets: list[tuple[str, ...]] = [(), FLIPS, EVOS]
        while (legal < 12 or set(SITUATIONS) - covered) and seed < 600:
            prefer = prefer_sets[seed % len(prefer_sets)]
            passes = "implicit" if seed % 2 else "explicit"
            lines = simulate("bakugan", seed, passes=passes, claims=True, prefer=prefer)
            got = features(lines)
            if "win by damage into an empty deck" in got and (legal < 12 or (got & set(SITUATIONS)) - covered):
                header = json.loads(lines[0])
                header["expect"] = {"verdict": "legal"}
                header["meta"]["shows"] = sorted(got)
                new = sorted((got & set(SITUATIONS)) - covered) or sorted(got - covered)
                name = f"{'-'.join(new[:2]).replace(' ', '-') or 'game'}-{seed}.jsonl"
                path = out / "legal" / name
                path.write_bytes(b"\n".join([_enc.encode(header)] + lines[1:]) + b"\n")
                if verify_file(path).verdict != "legal":
                    path.unlink()
                else:
                    covered |= got
                    legal += 1
                    print(f"legal {name}: {sorted(got)}", flush=True)
            seed += 1
        print(f"legal: {legal} replays; situations missing: {sorted(set(SITUATIONS) - covered)}", flush=True)
    if part == "legal":
        return
    found = find_breaches(BREACHES, list(range(1, 30)))
    for rule, lines_found in sorted(found.items()):
        slug = rule.split(":", 1)[1].replace("/", "-").replace(".", "-")
        (out / "illegal" / f"breaks-{slug}.jsonl").write_bytes(b"\n".join(lines_found) + b"\n")
    print(f"illegal: {len(found)} replays; not found: {sorted({b.rule for b in BREACHES} - set(found))}")



# ====================================================================== conflicts and hidden cards (issue 6)

CONFLICT_DECKS: dict[str, dict[str, Any]] = {
    "alice": {"team": ["Gloamwing", "Tidewhisper", "Brineskitter"], "bakucores": ["FT", "HE", "MS", "MS", "MS", "SD"],
              "deck": {"Marek Stillwater": 3, "Hollow Veil": 3, "Shade Tithe": 3, "Second Look": 3, "Tidebreak": 3,
                       "Undertow Pull": 3, "Deep Archive": 3, "Tidal Recall": 3, "Frost Lattice": 3, "Gloamwing Eclipse": 3,
                       "Brineskitter Tempest": 3, "Sable Quint": 3, "Null Current": 3, "Old Marrow": 1}},
    "bob": {"team": ["Vesperhorn", "Halcyon Drake", "Mossjaw"], "bakucores": ["FF", "FT", "HE", "HE", "SD", "SD"],
            "deck": {"Squall Break": 3, "Recall Drift": 3, "Second Wind": 3, "Gust Engine": 3, "Coil Charge": 3, "Lucky Gale": 3,
                     "Rook Castellan": 3, "Sunflare Surge": 3, "Radiant Pike": 3, "Juno Farrow": 3, "Glint Snare": 3,
                     "Core Lure": 3, "Mossjaw Bastion": 3, "Halcyon Drake Prime": 1}},
}
"""Decks whose games meet the clash of Marek Stillwater's can't and Vesperhorn's reroll keyword."""


def _marek_in_play(state: BakuganState) -> bool:
    return any(h.name == "Marek Stillwater" for h in state.sides["alice"].heroes)


def _vesperhorn_may_reroll(state: BakuganState) -> bool:
    """Bob holds priority in the Power Step with Vesperhorn selected and missed, its keyword unused."""
    return (state.stage == "turn" and state.node == "power" and state.mode == "window" and state.resolution is None
            and not state.to_roll and state.priority.holder == "bob" and state.flags.selected.get("bob") == "Vesperhorn"
            and state.flags.missed.get("bob", False) and ("bob", "Vesperhorn") not in state.flags.rerolls_used)


def _all_copies_shown(state: BakuganState) -> str | None:
    """A card of which every registered copy of the damaged player's deck has been shown already."""
    attack = state.attack
    if attack is None:
        return None
    knowledge = state.sides[attack.to].knowledge
    names = sorted(n for n, k in (knowledge.registered or {}).items() if knowledge.located[n] >= k > 1)
    return names[0] if names else None


CONFLICT_BREACHES: list[Breach] = [
    Breach("bakugan:1.3/3.2", lambda s: _marek_in_play(s) and _vesperhorn_may_reroll(s), lambda s: E.Reroll(0, "bob", "Vesperhorn")),
    Breach("bakugan:4.2.1.p2", lambda s: s.stage == "turn" and s.node == "damage" and s.mode == "deal" and s.attack is not None
           and s.resolution is None and _all_copies_shown(s) is not None,
           lambda s: E.Flip(0, s.attack.to if s.attack else "", _all_copies_shown(s))),
]


def _simulate_with(decks: dict[str, dict[str, Any]], seed: int, passes: str, prefer: tuple[str, ...],
                   max_events: int = 3000) -> list[bytes]:
    """A random legal game with the given registered decks, as :func:`verifier.simulate.simulate` plays one.

    Cards in ``prefer`` are played whenever they may be, and never energized or discarded
    while another move is open.
    """
    import random

    from spec.core.game import Setup as _Setup

    rng = random.Random(seed)
    game = load_game("bakugan")
    cards = CardDatabase.load(shipped_database("bakugan", "base"), "bakugan")
    players = ("alice", "bob")
    chosen = {p: json.loads(json.dumps(decks[p])) for p in players}
    state = game.setup(_Setup(players, chosen, {"passes": "explicit"}, cards))
    header = {"replay": 1, "game": "bakugan", "ruleset": game.rulesets[-1], "players": list(players), "decks": chosen,
              "cards": game.default_cards, "options": {"passes": passes}, "meta": {"generator": "spec.bakugan.corpus", "seed": seed}}
    events: list[dict[str, Any]] = []
    while len(events) < max_events:
        moves = game.legal_moves(state, rng)
        if not moves:
            break
        kept = [m for m in moves if not (m.__struct_config__.tag in ("energize", "discard") and getattr(m, "card", None) in prefer)]
        moves = kept or moves
        passes_only = [m for m in moves if m.__struct_config__.tag == "pass"]
        others = [m for m in moves if m.__struct_config__.tag != "pass"]
        favoured = [m for m in others if m.__struct_config__.tag == "play" and getattr(m, "card", None) in prefer]
        if favoured:
            pick = rng.choice(favoured)
        else:
            pick = rng.choice(passes_only) if passes_only and (not others or rng.random() < 0.35) else rng.choice(others)
        move = msgspec.structs.replace(pick, seq=len(events) + 1)
        before = game.facts(state)
        game.apply(state, move)
        events.append(msgspec.to_builtins(move))
        for i, claim in enumerate(game.claims_since(state, before), len(events) + 1):
            events.append({**claim, "seq": i})
        if state.stage == "over":
            break
    if passes == "implicit":
        events = [e for e in events if e["do"] != "pass"]
        for i, e in enumerate(events, 1):
            e["seq"] = i
    return [_enc.encode(header)] + [_enc.encode(e) for e in events]


def build_conflicts(out: Path, seeds: range = range(1, 80)) -> None:
    """The replays of issue 6: a legal game meeting a settled clash, one breaking it, an inconsistent reveal."""
    from verifier.verify import verify_file

    game = load_game("bakugan")
    wanted = {b.rule for b in CONFLICT_BREACHES}
    found: dict[str, list[bytes]] = {}
    legal_done = False
    for seed in seeds:
        if legal_done and wanted <= set(found):
            break
        lines = _simulate_with(CONFLICT_DECKS, seed, "explicit", ("Marek Stillwater",))
        if not legal_done and json.loads(lines[-1]).get("do") == "game":
            header = json.loads(lines[0])
            header["expect"] = {"verdict": "legal"}
            header["meta"] = {"generator": "spec.bakugan.corpus (build_conflicts)", "seed": seed, "shows": sorted(features(lines))}
            path = out / "legal" / f"conflict-settled-{seed}.jsonl"
            path.write_bytes(b"\n".join([_enc.encode(header)] + lines[1:]) + b"\n")
            report = verify_file(path)
            rules = {f.rule for f in report.conflicts}
            if report.verdict == "legal" and {"bakugan:1.3/3.1", "bakugan:1.3/3.2"} <= rules:
                legal_done = True
                print(f"legal {path.name}: {sorted(rules)}", flush=True)  # type: ignore[type-var]  # conflicts always cite a rule
            else:
                path.unlink()
        for k, (state, _event, _raw) in enumerate(replay_states(lines)):
            for breach in CONFLICT_BREACHES:
                if breach.rule in found:
                    continue
                replay = _try(game, breach, state, k, lines, seed)
                if replay is not None:
                    found[breach.rule] = replay
    names = {"bakugan:1.3/3.2": "breaks-1-3-3-2.jsonl", "bakugan:4.2.1.p2": "inconsistent-reveal-4-2-1-p2.jsonl"}
    for rule, lines_found in sorted(found.items()):
        (out / "illegal" / names[rule]).write_bytes(b"\n".join(lines_found) + b"\n")
    print(f"illegal: {sorted(found)}; not found: {sorted(wanted - set(found))}; legal: {legal_done}")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[2] == "conflicts":
        build_conflicts(Path(sys.argv[1]))
    else:
        build(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "both")
