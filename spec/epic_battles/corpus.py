"""Building the Epic Battles replay corpus, deterministically, through the spec's own ``legal_moves``.

Legal replays are games played by :func:`play`: at every point it takes one of the moves
``legal_moves`` offers, chosen by a simple policy (attack and link more often than pass,
block when it can, flip events when their moment comes), with the derived facts written
as claims. :func:`features` names the situations a game shows; :func:`build` keeps games
until every situation the issue names is shown.

Illegal replays are a legal game's prefix followed by one event that breaks one rule
first: each :class:`Breach` says where in a game to look (a predicate on the state) and
which event to write there; the rule the verifier cites first is checked when the replay
is written, and goes into its header's ``expect``.

Run ``python -m spec.epic_battles.corpus OUT_DIR`` to rebuild ``replays/epic_battles``.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from spec import load_game
from spec.core.cards import CardDatabase, shipped_database
from spec.core.game import Event, Setup
from spec.epic_battles import board as B
from spec.epic_battles import events as E
from spec.epic_battles.game import EpicBattles
from spec.epic_battles.state import EpicBattlesState

_enc = msgspec.json.Encoder(order="deterministic")
GAME_ID = "epic_battles"


def _game() -> EpicBattles:
    game = load_game(GAME_ID)
    assert isinstance(game, EpicBattles)
    return game


def cards() -> CardDatabase:
    return CardDatabase.load(shipped_database(GAME_ID, "base"), GAME_ID)


# ====================================================================== playing legal games

WEIGHTS = {"attack": 0.85, "block": 0.65, "recover": 0.8, "set": 0.7, "flip": 0.55, "accept": 0.7}


def choose(state: EpicBattlesState, moves: list[Event], rng: random.Random, prefer: tuple[str, ...] = ()) -> Event:
    """The policy: one of the legal ``moves``, attacking and linking more often than passing."""
    by_kind: dict[str, list[Event]] = {}
    for move in moves:
        by_kind.setdefault(str(move.__struct_config__.tag), []).append(move)
    favoured = [m for m in moves if getattr(m, "card", None) in prefer or any(c in prefer for c in getattr(m, "cards", []))]
    if favoured and rng.random() < 0.9:
        return rng.choice(favoured)
    flips = by_kind.get("flip", [])
    if flips and rng.random() < WEIGHTS["flip"]:
        return rng.choice(flips)
    activations = by_kind.get("activate", [])
    if activations and any(state.sides[str(m.by)].down for m in activations) and rng.random() < 0.6:
        return rng.choice(activations)
    for kind in ("accept", "recover", "block", "attack", "set"):
        if by_kind.get(kind) and rng.random() < WEIGHTS[kind]:
            return rng.choice(by_kind[kind])
    rest = [m for m in moves if str(m.__struct_config__.tag) not in ("flip", "activate", "attack", "block", "recover", "set", "accept")]
    return rng.choice(rest or moves)


def play(seed: int, passes: str = "explicit", prefer: tuple[str, ...] = (), max_events: int = 5000,
         players: tuple[str, str] = ("alice", "bob"), characters: tuple[str, ...] = ()) -> list[bytes]:
    """One legal game as replay lines (header first), with claims; the same seed gives the same bytes.

    ``prefer`` names cards the players play whenever they may; ``characters`` the
    characters the decks are built for (in player order), if wanted.
    """
    rng = random.Random(seed)
    game = _game()
    db = cards()
    decks = {}
    for i, player in enumerate(players):
        deck = game.random_deck(db, rng)
        while i < len(characters) and deck["character"] != characters[i]:
            deck = game.random_deck(db, rng)
        decks[player] = deck
    return play_decks(seed, decks, rng, passes, prefer, max_events, players)


def play_decks(seed: int, decks: dict[str, Any], rng: random.Random, passes: str = "explicit", prefer: tuple[str, ...] = (),
               max_events: int = 5000, players: tuple[str, str] = ("alice", "bob")) -> list[bytes]:
    """One legal game with these registered decks (see :func:`play`)."""
    game = _game()
    db = cards()
    state = game.setup(Setup(players, decks, {"passes": "explicit"}, db))
    header = {"replay": 1, "game": GAME_ID, "ruleset": game.rulesets[-1], "players": list(players), "decks": decks,
              "cards": game.default_cards, "options": {"passes": passes},
              "meta": {"generator": "spec.epic_battles.corpus", "seed": seed}}
    events: list[dict[str, Any]] = []
    while len(events) < max_events and state.stage != "over":
        moves = game.legal_moves(state, rng)
        if not moves:
            break
        move = msgspec.structs.replace(choose(state, moves, rng, prefer), seq=len(events) + 1)
        before = game.facts(state)
        bad = [r for r in game.apply(state, move) if r.violation.severity != "info"]
        if bad:  # legal_moves and apply disagree: a bug in the spec
            raise AssertionError(f"seed {seed}: the spec refused its own legal move {move}: {bad[0].rule} {bad[0].violation}")
        events.append(msgspec.to_builtins(move))
        for claim in game.claims_since(state, before):
            events.append({**claim, "seq": len(events) + 1})
    if passes == "implicit":
        events = [e for e in events if e["do"] != "pass"]
        for i, e in enumerate(events, 1):
            e["seq"] = i
    return [_enc.encode(header)] + [_enc.encode(e) for e in events]


def replay_states(lines: list[bytes]) -> Iterator[tuple[EpicBattlesState, Event, dict[str, Any]]]:
    """``(state before the event, event, raw event)`` for each event of a replay."""
    game = _game()
    header = json.loads(lines[0])
    setup = Setup(tuple(header["players"]), header["decks"], header["options"], cards())  # type: ignore[arg-type]
    state = game.setup(setup)
    decoder = game.decoder()
    for raw in lines[1:]:
        event = decoder.decode(raw)
        yield state, event, json.loads(raw)
        game.apply(state, event)


def features(lines: list[bytes]) -> set[str]:
    """The situations of the rules a game shows (the names ``meta.shows`` lists)."""
    found: set[str] = set()
    if any(deck and deck.get("side") for deck in json.loads(lines[0])["decks"].values()):
        found.add("side deck registered")
    for state, _event, raw in replay_states(lines):
        kind = raw["do"]
        strike = state.strikes[-1] if state.strikes else None
        if kind == "aggressor":
            found.add("random first aggressor")
        if kind == "round":
            found.add("deck runs out")
        if kind == "game":
            found.add("two rounds won")
            if state.round == 3:
                found.add("three rounds")
        if kind == "draw" and state.stage == "setup" and state.round > 1 and state.aggressor is not None:
            found.add("loser is next aggressor")
        if kind == "draw" and state.stage == "turn" and state.node == "draw" and state.turn >= 2:
            found.add("aggressor rotates")
        if kind == "set":
            found.add("events set face down")
        if kind == "flip":
            found.add("event flipped")
            if len(raw["cards"]) > 1:
                found.add("events flipped together")
            if any(B.printed(state.cards.get(n), "cost") > 0 for n in raw["cards"]):
                found.add("energy paid")
        if kind == "attack":
            if raw.get("link"):
                found.add("combo")
            defn = state.cards.get(raw["card"])
            if B.printed(defn, "cost") > 0 and not raw.get("alternative"):
                found.add("energy paid")
            if raw.get("alternative"):
                found.add("alternative cost")
        if kind == "block":
            found.add("block of the same height")
            found.add("block to discard pile")
        if kind == "flip":
            found.add("event to discard pile")
        if kind == "attack":
            found.add("attack to energy pile")
        if kind in ("attack", "block") and any(isinstance(step, B.A.Scrap) for step in B.spell(state, raw["card"])[0]):
            found.add("top of deck discarded")
        if kind == "chip":
            found.add("chipping")
        if kind == "damage":
            found.add("damage")
        if kind == "down":
            found.add("launcher" if raw["how"] == "launch" else "knock down")
        if kind == "block" and strike is not None and strike.card.name and (
                B.keyword(state, strike.card.name, "knock_down") or B.keyword(state, strike.card.name, "launcher")):
            found.add("blocked knock down")
        if kind == "recover":
            found.add("recover by block")
        if kind == "reveal" and state.resolution is not None and state.resolution.need is not None and state.resolution.need.detail == "taunt":
            defn = state.cards.get(raw["card"])
            found.add("taunt plays an attack" if B.role(defn) == "attack" else "taunt discards")
        if kind == "pass" and state.window == "link" and any(s.down for s in state.sides.values()):
            found.add("recover at combo end")
        if kind == "pass" and state.window == "block" and strike is not None and B.hit_effects(state, strike.card.name or ""):
            found.add("HIT text")
        if kind == "discard" and state.node == "discard" and not state.busy:
            found.add("discard to three")
        if kind in ("accept", "select", "search", "reveal") and state.resolution is not None:
            found.add("effect choices")
        if kind == "flip" and any(B.abilities(state, n, B.A.Spell) and any(
                isinstance(s, B.N.EpicBattlesRecover) for a in B.abilities(state, n, B.A.Spell) for s in a.effect) for n in raw["cards"]):
            found.add("recover by effect")
        if kind == "block" and any(isinstance(s, B.N.EpicBattlesRecover) for s in B.spell(state, raw["card"])[0] + B.spell(state, raw["card"])[1]):
            found.add("recover by effect")
        if kind == "activate":
            found.add("recover by effect")
    return found


SITUATIONS = (
    "random first aggressor", "loser is next aggressor", "aggressor rotates", "deck runs out", "two rounds won",
    "events set face down", "event flipped", "events flipped together", "energy paid", "combo", "block of the same height",
    "chipping", "damage", "HIT text", "knock down", "launcher", "blocked knock down", "recover by block", "recover by effect",
    "recover at combo end", "taunt plays an attack", "taunt discards", "discard to three", "three rounds",
    "top of deck discarded", "side deck registered", "alternative cost", "effect choices",
    "attack to energy pile", "block to discard pile", "event to discard pile",
)
"""The situations of the issue that the legal corpus must show (each in some replay's ``meta.shows``)."""


# ====================================================================== illegal replays

@dataclass(frozen=True)
class Breach:
    """One illegal replay: where in a legal game to break in, and the event that breaks the rule."""

    rule: str
    where: Callable[[EpicBattlesState], bool]
    event: Callable[[EpicBattlesState], Event | None]
    seed: int = 1


def _first_pass(s: EpicBattlesState) -> bool:
    return s.stage == "turn" and not s.busy


def _in(node: str, window: str = "") -> Callable[[EpicBattlesState], bool]:
    return lambda s: s.stage == "turn" and not s.busy and s.node == node and (not window or s.window == window)


def _hand(s: EpicBattlesState, player: str, kind: str) -> str | None:
    return next((c.name for c in s.sides[player].hand if c.name is not None and B.role(c.defn) == kind), None)


def _named(s: EpicBattlesState, kind: str, pred: Callable[[Any], bool] = lambda d: True) -> str:
    return next(d.name for d in s.cards if B.role(d) == kind and pred(d))


def _wrong_block(s: EpicBattlesState) -> Event | None:
    strike = s.strikes[-1]
    other = "Low" if B.height(strike.card.defn) == "High" else "High"
    name = next((c.name for c in s.sides[strike.defender].hand if c.name and B.role(c.defn) == "block" and B.height(c.defn) == other
                 and not any(True for _ in B.own_steps(s, c.name, strike.defender, {}))), None)
    return None if name is None else E.Block(0, strike.defender, name)


def _unlinkable(s: EpicBattlesState) -> Event | None:
    from spec.epic_battles import actions as X

    for card in s.sides[s.holder].hand:
        if card.name and B.role(card.defn) == "attack" and X.links(s, s.holder, card) is not None \
                and not B.abilities(s, card.name, B.A.Conditional) and X.attack_cost(s, E.Attack(0, s.holder, card.name)) is None:
            return E.Attack(0, s.holder, card.name, link=True)
    return None


def _costly_attack(s: EpicBattlesState) -> Event | None:
    energy = len(s.sides[s.holder].energy)
    for card in s.sides[s.holder].hand:
        if card.name and B.role(card.defn) == "attack" and B.cost(s, card, s.holder) > energy and B.alternative(s, card.name) is None \
                and not B.abilities(s, card.name, B.A.Conditional):
            return E.Attack(0, s.holder, card.name, link=False)
    return None


def _unset_flip(s: EpicBattlesState) -> Event | None:
    for player in s.players:
        name = _hand(s, player, "event")
        if name is not None and all(c.name != name for c in s.sides[player].arena):
            return E.Flip(0, player, [name])
    return None


def _early_flip(s: EpicBattlesState) -> Event | None:
    from spec.epic_battles import actions as X

    for player in s.players:
        for card in s.sides[player].arena:
            if card.name and not card.face_up and X.flip_moment(s, player, card.name) is None:
                return E.Flip(0, player, [card.name])
    return None


def _poor_flip(s: EpicBattlesState) -> Event | None:
    from spec.epic_battles import actions as X

    for player in s.players:
        for card in s.sides[player].arena:
            if card.name and not card.face_up and X.flip_moment(s, player, card.name) is not None \
                    and B.cost(s, card, player) > len(s.sides[player].energy):
                return E.Flip(0, player, [card.name])
    return None


def _pair_flip(s: EpicBattlesState) -> Event | None:
    from spec.epic_battles import actions as X

    for player in s.players:
        ready = [c for c in s.sides[player].arena if c.name and not c.face_up and X.flip_moment(s, player, c.name) is not None]
        costs = [B.cost(s, c, player) for c in ready]
        energy = len(s.sides[player].energy)
        for i in range(len(ready)):
            for j in range(i + 1, len(ready)):
                if costs[i] <= energy and costs[j] <= energy < costs[i] + costs[j]:
                    return E.Flip(0, player, [ready[i].name or "", ready[j].name or ""])
    return None


def _last_damage(s: EpicBattlesState) -> bool:
    return any(f[0] == "damage" for f in s.facts[s.facts_mark:])


def _last_chip(s: EpicBattlesState) -> bool:
    return any(f[0] == "chip" for f in s.facts[s.facts_mark:])


def _last_down(s: EpicBattlesState) -> bool:
    return any(f[0] == "down" for f in s.facts[s.facts_mark:])


def _last_round(s: EpicBattlesState) -> bool:
    return any(f[0] == "round" for f in s.facts[s.facts_mark:]) and s.stage == "setup"


def _fact(s: EpicBattlesState, kind: str) -> tuple[Any, ...]:
    return next(f for f in s.facts[s.facts_mark:] if f[0] == kind)


def _character(s: EpicBattlesState, player: str) -> str:
    character = s.sides[player].character
    return character.name or "" if character is not None else ""


def _not_in_deck(s: EpicBattlesState) -> Event | None:
    player = s.aggressor or s.players[0]
    registered: dict[str, int] = dict(s.sides[player].knowledge.registered or {})
    name = next((d.name for d in s.cards if B.role(d) in ("attack", "block", "event") and registered.get(d.name, 0) == 0), None)
    return None if name is None else E.Draw(0, player, name)


BREACHES: list[Breach] = [
    Breach("EB.setup.character", lambda s: s.stage == "setup" and all(x.character for x in s.sides.values()),
           lambda s: E.Character(0, s.players[0], _character(s, s.players[0]))),
    Breach("EB.setup.shuffle", lambda s: s.stage == "setup" and s.sides[s.players[0]].shuffled and s.round == 1,
           lambda s: E.Shuffle(0, s.players[0])),
    Breach("EB.setup.aggressor.first", lambda s: s.stage == "setup" and s.aggressor is not None and s.round == 1
           and not any(x.drawn for x in s.sides.values()), lambda s: E.Aggressor(0, None, s.other(s.aggressor or ""))),
    Breach("EB.setup.aggressor.later", lambda s: s.stage == "setup" and s.round == 2 and not any(x.drawn for x in s.sides.values()),
           lambda s: E.Aggressor(0, None, s.other(s.aggressor or ""))),
    Breach("EB.setup.draw", lambda s: s.stage == "setup" and s.sides[s.players[0]].drawn == 3,
           lambda s: E.Draw(0, s.players[0], None)),
    Breach("EB.turn.order", lambda s: _in("draw")(s) and s.sides[s.aggressor or ""].drawn == 0,
           lambda s: E.Draw(0, s.other(s.aggressor or ""), None)),
    Breach("EB.turn.step1.draw", lambda s: _in("set")(s), lambda s: E.Draw(0, s.holder, None)),
    Breach("EB.turn.step2.set", lambda s: _in("action", "act")(s) and _hand(s, s.holder, "event") is not None,
           lambda s: E.Set(0, s.holder, _hand(s, s.holder, "event"))),
    Breach("EB.card.event.set", lambda s: _in("set")(s) and _hand(s, s.holder, "attack") is not None,
           lambda s: E.Set(0, s.holder, _hand(s, s.holder, "attack"))),
    Breach("EB.turn.step3.choice", lambda s: _in("set")(s) and _hand(s, s.holder, "attack") is not None,
           lambda s: E.Attack(0, s.holder, _hand(s, s.holder, "attack") or "")),
    Breach("EB.turn.step3.alternate", lambda s: _in("action", "act")(s) and _hand(s, s.other(s.holder), "attack") is not None
           and s.passes == 0, lambda s: E.Attack(0, s.other(s.holder), _hand(s, s.other(s.holder), "attack") or "", link=False)),
    Breach("EB.card.attack.play", lambda s: _in("action", "act")(s) and _hand(s, s.holder, "block") is not None,
           lambda s: E.Attack(0, s.holder, _hand(s, s.holder, "block") or "", link=False)),
    Breach("EB.link.timing", lambda s: _in("action", "link")(s) and _unlinkable(s) is not None, _unlinkable),
    Breach("EB.card.attack.pay", lambda s: _in("action", "act")(s) and _costly_attack(s) is not None, _costly_attack),
    Breach("EB.card.attack.text", lambda s: _in("action", "act")(s) and _hand(s, s.other(s.holder), "block") is not None,
           lambda s: E.Block(0, s.other(s.holder), _hand(s, s.other(s.holder), "block") or "")),
    Breach("EB.card.attack.blocked", lambda s: _in("action", "block")(s) and _hand(s, s.strikes[-1].attacker, "block") is not None,
           lambda s: E.Block(0, s.strikes[-1].attacker, _hand(s, s.strikes[-1].attacker, "block") or "")),
    Breach("EB.card.block.type", lambda s: _in("action", "block")(s) and _wrong_block(s) is not None, _wrong_block),
    Breach("EB.recover.block", lambda s: _in("action", "act")(s) and _hand(s, s.holder, "block") is not None,
           lambda s: E.Recover(0, s.holder, discard=_hand(s, s.holder, "block"))),
    Breach("EB.card.event.flip", lambda s: _first_pass(s) and _unset_flip(s) is not None, _unset_flip),
    Breach("EB.card.event.flip.timing", lambda s: _first_pass(s) and _early_flip(s) is not None, _early_flip),
    Breach("EB.card.event.flip.pay", lambda s: _first_pass(s) and _poor_flip(s) is not None, _poor_flip),
    Breach("EB.card.event.flip.multi", lambda s: _first_pass(s) and _pair_flip(s) is not None, _pair_flip),
    Breach("EB.turn.step4.discard", lambda s: _in("action", "act")(s) and len(s.sides[s.holder].hand) > 0,
           lambda s: E.Discard(0, s.holder, next((c.name for c in s.sides[s.holder].hand), None))),
    Breach("EB.damage.take", _last_damage, lambda s: E.Damage(0, None, _fact(s, "damage")[1], int(_fact(s, "damage")[2]) + 1)),
    Breach("EB.chip", _last_chip, lambda s: E.Chip(0, None, s.other(_fact(s, "chip")[1]), int(_fact(s, "chip")[2]))),
    Breach("EB.kw.knockdown", _last_down, lambda s: E.Down(0, None, _fact(s, "down")[1],
                                                           "launch" if _fact(s, "down")[2] == "knock_down" else "knock_down")),
    Breach("EB.win.round", _last_round, lambda s: E.Round(0, None, s.other(_fact(s, "round")[1]))),
    Breach("EB.win.game", lambda s: s.stage == "over", lambda s: E.Draw(0, s.players[0], None)),
    Breach("EB.turn.steps", _in("set"), lambda s: E.Step(0, None, "action")),
    Breach("EB.deck.size", lambda s: _in("draw")(s) and s.sides[s.aggressor or ""].drawn == 0 and _not_in_deck(s) is not None, _not_in_deck),
]
"""The illegal replays of the corpus, one per rule (each first found in seed ``seed``'s game)."""


def breach_replay(breach: Breach, lines: list[bytes]) -> list[bytes] | None:
    """The legal prefix of ``lines`` and the breaking event, with ``expect`` in the header; ``None`` if not found."""
    game = _game()
    rule = f"{GAME_ID}:{breach.rule}"
    for k, (state, _event, _raw) in enumerate(replay_states(lines)):
        if not breach.where(state):
            continue
        event = breach.event(state)
        if event is None:
            continue
        event = msgspec.structs.replace(event, seq=k + 1)
        rulings = [r for r in game.apply(state.copy(), event) if r.violation.severity in ("illegal", "inconsistent")]
        if not rulings or rulings[0].rule != rule:
            continue
        header = json.loads(lines[0])
        header["expect"] = {"verdict": rulings[0].violation.severity, "seq": k + 1, "rule": rule}
        header["meta"] = {"generator": "spec.epic_battles.corpus", "seed": header["meta"]["seed"], "breaks": rule}
        return [_enc.encode(header)] + lines[1:k + 1] + [_enc.encode(event)]
    return None


def deck_replays() -> dict[str, list[bytes]]:
    """Replays whose registered decklist breaks a construction rule (found in set-up, before any event)."""
    db = cards()
    probe = _game().setup(Setup(("a", "b"), {}, {}, db))
    base = play(1, max_events=40)
    header = json.loads(base[0])
    out: dict[str, list[bytes]] = {}

    def foreign_to(character: str) -> str | None:
        return next((c.name for c in db if B.role(c) in ("attack", "block", "event") and not B.keyword(probe, c.name, "side_deck_only")
                     and not B.character_allows(probe, c, character)), None)

    player = next((p for p in header["players"] if foreign_to(header["decks"][p]["character"])), header["players"][0])
    deck = header["decks"][player]

    def write(rule: str, change: Callable[[dict[str, Any]], None]) -> None:
        h = json.loads(json.dumps(header))
        change(h["decks"][player])
        h["expect"] = {"verdict": "illegal", "seq": None, "rule": f"{GAME_ID}:{rule}"}
        h["meta"] = {"generator": "spec.epic_battles.corpus", "seed": 1, "breaks": f"{GAME_ID}:{rule}"}
        out[rule] = [_enc.encode(h)] + base[1:]

    def swap(main: dict[str, int], new: str, n: int = 1) -> None:
        """Put ``n`` copies of ``new`` in place of as many copies of the most common other card."""
        for _ in range(n):
            old = max((k for k in main if k != new and main[k] > 0), key=lambda k: (main[k], k))
            main[old] -= 1
            main[new] = main.get(new, 0) + 1

    character = db[deck["character"]]
    four = next(n for n, k in deck["main"].items() if k < 4 and B.copy_limit(probe, db[n]) == 4)
    write("EB.deck.copies", lambda d: swap(d["main"], four, 5 - d["main"][four]))
    write("EB.side.size", lambda d: d.update(side=dict(list(d["side"].items())[:5])))
    side_only = min(deck["side"]) if deck["side"] else next(c.name for c in db if B.keyword(probe, c.name, "side_deck_only"))
    write("EB.side.exclusive", lambda d: swap(d["main"], side_only))
    foreign = foreign_to(character.name)
    if foreign is not None:
        write("EB.deck.character_name", lambda d: swap(d["main"], foreign))
    other_game = next(c.name for c in db if B.role(c) in ("attack", "block", "event") and not B.keyword(probe, c.name, "side_deck_only")
                      and B.character_allows(probe, c, character.name) and not B.game_allows(probe, c, character.name))
    write("EB.deck.game_only", lambda d: swap(d["main"], other_game))
    return out


def cards_used(lines: list[bytes]) -> set[str]:
    """Cards a replay shows in use: characters, attacks, blocks, events set or flipped, taunted cards."""
    used: set[str] = set()
    for line in lines[1:]:
        event = json.loads(line)
        if event["do"] in ("attack", "block", "set", "character", "reveal"):
            used.add(event.get("card") or "")
        used |= set(event.get("cards", []))
    return used


# ====================================================================== conflicts and hidden cards (issue 6)

_COMMON = {"Pocket Jab": 6, "Quick Jab": 4, "Skyward Heel": 4, "Shin Sweep": 4, "Steady Stance": 4, "Forearm Guard": 4,
           "Low Parry": 4, "Showboat": 4, "Rope Break": 4, "Cornered": 4, "Crowd Roars": 4, "Gut Hook": 4, "Chain Elbow": 4,
           "Roll to Safety": 1}
CONFLICT_DECKS = {"alice": {"character": "Kaito", "main": {**_COMMON, "Kaito's Rising Fang": 4}, "side": {}},
                  "bob": {"character": "Vesna", "main": {**_COMMON, "Neon Uppercut": 4}, "side": {}}}
"""Decks that meet the three clashes the Epic Battles book settles: six Pocket Jab (its own
limit against the rule's four), cards that recover a knocked-down player, and Showboat
(its player can flip events outside their moments)."""
CONFLICT_SEED = 2


def _recovered_by_card_after_block(s: EpicBattlesState) -> str | None:
    """The player a card stood up right after they blocked a Knock Down or Launcher, with nothing else under way."""
    if s.stage != "turn" or s.busy or s.window == "recover":
        return None
    for o in s.recent:
        if o.event == "recovered" and o.settled and o.who is not None and any(
                b.event == "blocked" and b.who == o.who and b.defn is not None
                and (B.keyword(s, b.defn.name, "knock_down") or B.keyword(s, b.defn.name, "launcher")) for b in s.recent):
            return o.who
    return None


def conflict_replays() -> dict[str, list[bytes]]:
    """The replays of issue 6: a legal game meeting settled clashes, the same game going the other way
    (paying to recover after a card stood the player up: EB.recover.effect), and a hidden card set
    face down that no arrangement of the registered deck allows (z3)."""
    game = _game()
    rng = random.Random(CONFLICT_SEED)
    lines = play_decks(CONFLICT_SEED, json.loads(json.dumps(CONFLICT_DECKS)), rng,
                       prefer=("Showboat", "Steady Stance", "Skyward Heel", "Pocket Jab", "Rope Break"))
    header = json.loads(lines[0])
    header["expect"] = {"verdict": "legal"}
    header["meta"]["shows"] = sorted(features(lines) & set(SITUATIONS))
    header["meta"]["meets"] = ["epic_battles:EB.deck.copies", "epic_battles:EB.recover.effect", "epic_battles:EB.card.event.flip.timing"]
    out = {f"legal/conflicts-settled-{CONFLICT_SEED}.jsonl": [_enc.encode(header)] + lines[1:]}
    rule = f"{GAME_ID}:EB.recover.effect"
    for k, (state, _event, _raw) in enumerate(replay_states(lines)):
        player = _recovered_by_card_after_block(state)
        block = _hand(state, player, "block") if player is not None else None
        if player is None or block is None:
            continue
        event = E.Recover(k + 1, player, discard=block)
        rulings = [r for r in game.apply(state.copy(), event) if r.violation.severity in ("illegal", "inconsistent")]
        assert rulings and rulings[0].rule == rule, rulings
        bad = json.loads(lines[0])
        bad["expect"] = {"verdict": "illegal", "seq": k + 1, "rule": rule}
        bad["meta"] = {"generator": "spec.epic_battles.corpus", "seed": CONFLICT_SEED, "breaks": rule}
        out["illegal/breaks-EB-recover-effect.jsonl"] = [_enc.encode(bad)] + lines[1:k + 1] + [_enc.encode(event)]
        break
    out["illegal/inconsistent-hidden-event.jsonl"] = hidden_replay()
    return out


HIDDEN_DECK = {"character": "Kaito", "main": {
    "Quick Jab": 4, "Shin Sweep": 4, "Skyward Heel": 4, "Gut Hook": 4, "Rolling Thunder Knee": 4, "Mocking Bow": 4,
    "Ironfist Breaker": 4, "Kaito's Rising Fang": 4, "Rhea's Lotus Spiral": 4, "Wild Card Haymaker": 4, "Chain Elbow": 4,
    "Forearm Guard": 4, "Low Parry": 4, "Steady Stance": 4, "Reversal Catch": 2, "Crowd Roars": 1}, "side": {}}
"""A deck whose only event is one Crowd Roars."""


def hidden_replay() -> list[bytes]:
    """alice sets an unseen card face down (so it is an event: her one Crowd Roars), then draws
    Crowd Roars by name. Each count alone is within the decklist; together they are not (z3)."""
    bob = CONFLICT_DECKS["bob"]
    rule = f"{GAME_ID}:EB.card.event"
    ev: list[dict[str, Any]] = [
        {"do": "character", "by": "alice", "card": "Kaito"}, {"do": "shuffle", "by": "alice"}, {"do": "aggressor", "player": "alice"},
        {"do": "character", "by": "bob", "card": "Vesna"}, {"do": "shuffle", "by": "bob"},
        *({"do": "draw", "by": "alice", "card": None} for _ in range(3)),
        *({"do": "draw", "by": "bob", "card": name} for name in ("Quick Jab", "Low Parry", "Steady Stance")),
        *({"do": "draw", "by": "alice", "card": None} for _ in range(3)),
        *({"do": "draw", "by": "bob", "card": name} for name in ("Pocket Jab", "Forearm Guard", "Gut Hook")),
        {"do": "set", "by": "alice", "card": None},
        {"do": "discard", "by": "alice", "card": None}, {"do": "discard", "by": "alice", "card": None},
        *({"do": "discard", "by": "bob", "card": name} for name in ("Low Parry", "Forearm Guard", "Gut Hook")),
        *({"do": "draw", "by": "bob", "card": name} for name in ("Quick Jab", "Shin Sweep", "Cornered")),
        {"do": "draw", "by": "alice", "card": "Crowd Roars"},
    ]
    for seq, event in enumerate(ev, 1):
        event["seq"] = seq
    header = {"replay": 1, "game": GAME_ID, "ruleset": _game().rulesets[-1], "players": ["alice", "bob"],
              "decks": {"alice": HIDDEN_DECK, "bob": bob}, "cards": _game().default_cards, "options": {"passes": "implicit"},
              "expect": {"verdict": "inconsistent", "seq": len(ev), "rule": rule},
              "meta": {"generator": "spec.epic_battles.corpus", "breaks": rule,
                       "why": "the card alice set face down is an event, and her deck's only event is one Crowd Roars; "
                              "she then draws Crowd Roars: counting each name is not enough, z3 is"}}
    return [_enc.encode(header)] + [_enc.encode(e) for e in ev]


def main_deck_cards() -> set[str]:
    """The cards of the base set a main deck may hold (every one but the Side Deck Only cards)."""
    db = cards()
    probe = _game().setup(Setup(("a", "b"), {}, {}, db))
    return {c.name for c in db if not B.keyword(probe, c.name, "side_deck_only")}


def build(out: Path) -> None:
    """Write the legal and illegal corpus into ``out/legal`` and ``out/illegal``."""
    (out / "legal").mkdir(parents=True, exist_ok=True)
    (out / "illegal").mkdir(parents=True, exist_ok=True)
    db = cards()
    covered: set[str] = set()
    used: set[str] = set()
    wanted = main_deck_cards()
    kept = 0
    seed = 100
    prefer_sets: list[tuple[str, ...]] = [(), ("Mocking Bow",), ("Shin Sweep", "Skyward Heel", "Roll to Safety", "Steady Stance"),
                                          ("Rope Break", "Crowd Roars", "Cornered")]
    while (kept < 8 or set(SITUATIONS) - covered or wanted - used) and seed < 400:
        prefer = prefer_sets[seed % len(prefer_sets)]
        characters: tuple[str, ...] = ()
        if kept >= 8 and not set(SITUATIONS) - covered:
            missing = sorted(wanted - used)
            characters = tuple(n for n in missing if B.is_character(db.get(n)))[:1]
            prefer = tuple(n for n in missing if not B.is_character(db.get(n)))
        passes = "implicit" if seed % 3 == 0 else "explicit"
        lines = play(seed, passes=passes, prefer=prefer, characters=characters)
        got = features(lines) & set(SITUATIONS)
        new_cards = (cards_used(lines) & wanted) - used
        if kept < 8 or got - covered or (not set(SITUATIONS) - covered and new_cards):
            used |= cards_used(lines)
            header = json.loads(lines[0])
            header["expect"] = {"verdict": "legal"}
            header["meta"]["shows"] = sorted(got)
            slug = "-".join(sorted(got - covered)[:2]) or ("-".join(["plays", *sorted(new_cards)[:2]]) if new_cards else "game")
            slug = "".join(ch for ch in slug.replace(" ", "-").lower() if ch.isalnum() or ch == "-")
            (out / "legal" / f"{slug}-{seed}.jsonl").write_bytes(b"\n".join([_enc.encode(header)] + lines[1:]) + b"\n")
            covered |= got
            kept += 1
        seed += 1
    print(f"legal: {kept} replays; situations missing: {sorted(set(SITUATIONS) - covered)}; cards unused: {sorted(wanted - used)}",
          flush=True)
    games: dict[int, list[bytes]] = {}
    written = 0
    for breach in BREACHES:
        found = None
        for seed in range(breach.seed, breach.seed + 12):
            if seed not in games:
                games[seed] = play(seed)
            found = breach_replay(breach, games[seed])
            if found is not None:
                break
        if found is None:
            print(f"no replay breaks {breach.rule} first", flush=True)
            continue
        slug = breach.rule.replace(".", "-")
        (out / "illegal" / f"breaks-{slug}.jsonl").write_bytes(b"\n".join(found) + b"\n")
        written += 1
    for rule, lines in deck_replays().items():
        if any(b.rule == rule for b in BREACHES):
            rule_slug = rule.replace(".", "-") + "-decklist"
        else:
            rule_slug = rule.replace(".", "-")
        (out / "illegal" / f"breaks-{rule_slug}.jsonl").write_bytes(b"\n".join(lines) + b"\n")
        written += 1
    for name, lines in conflict_replays().items():
        (out / name).write_bytes(b"\n".join(lines) + b"\n")
        written += name.startswith("illegal/")
    print(f"illegal: {written} replays")


if __name__ == "__main__":
    build(Path(sys.argv[1]))
