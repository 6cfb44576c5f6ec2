"""Building the TTCG replay corpus (``replays/ttcg``) from games played through ``legal_moves``.

Legal replays are games in which every move is one :meth:`Ttcg.legal_moves` offers. A
*guide* picks among the offered moves (it may prefer counters, level ups, attacks...,
or hold back to let a hand grow and a deck run out), so that the corpus shows the
situations the rules are about; each header lists them in ``meta.shows``.

Illegal replays are a legal game's prefix followed by one event the rules refuse: the
search tries, at each point of a game, the candidate moves the spec does not offer and
mutations of the recorded event (another card, another player, another target, a wrong
claim), and keeps the first event whose first finding cites a rule not yet covered.
The ``expect`` written into each header is what the verifier finds there; the corpus
test holds the verifier to it.

Run ``python -m spec.ttcg.corpus replays/ttcg`` to rebuild; the same code gives the same
files, byte for byte.
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

from grammar import ast as A
from spec import load_game
from spec.core.cards import CardDatabase, shipped_database
from spec.core.game import Event, Setup
from spec.ttcg import board as B
from spec.ttcg import events as E
from spec.ttcg.game import Ttcg
from spec.ttcg.state import TtcgState

_enc = msgspec.json.Encoder(order="deterministic")

Guide = Callable[[TtcgState, list[Event], random.Random], Event | None]
"""Picks a move among the legal ones, or ``None`` to leave the pick to chance."""


def _game() -> Ttcg:
    game = load_game("ttcg")
    assert isinstance(game, Ttcg)
    return game


def _cards() -> CardDatabase:
    return CardDatabase.load(shipped_database("ttcg", "base"), "ttcg")


def tag(move: Event) -> str:
    return str(move.__struct_config__.tag)


def label_of(state: TtcgState, move: Event) -> str | None:
    """The effect type of an ``activate`` move (``normal``, ``counter``...)."""
    if not isinstance(move, E.Activate):
        return None
    effects = B.effects_of(state, move.card)
    return effects[move.effect][0] if 0 <= move.effect < len(effects) else None


# ---------------------------------------------------------------------- playing games


def play(seed: int, guide: Guide | None = None, passes: str = "implicit", decks: dict[str, Any] | None = None,
         max_events: int = 1500, pass_weight: float = 0.3, players: tuple[str, str] = ("alice", "bob")) -> list[bytes]:
    """One game through ``legal_moves`` as replay lines (header first), with claims."""
    rng = random.Random(seed)
    game = _game()
    cards = _cards()
    if decks is None:
        decks = {p: game.random_deck(cards, rng) for p in players}
    state = game.setup(Setup(players, decks, {"passes": "explicit"}, cards))
    header = {"replay": 1, "game": "ttcg", "ruleset": game.rulesets[-1], "players": list(players), "decks": decks,
              "cards": game.default_cards, "options": {"passes": passes},
              "meta": {"generator": "spec.ttcg.corpus", "seed": seed}}
    events: list[dict[str, Any]] = []
    acted = 0
    turn = 0
    while len(events) < max_events and state.stage != "over":
        moves = game.legal_moves(state, rng)
        if not moves:
            break
        if state.turn != turn:
            turn, acted = state.turn, 0
        pick = guide(state, moves, rng) if guide is not None else None
        if pick is None:
            passes_only = [m for m in moves if tag(m) == "pass"]
            others = [m for m in moves if tag(m) != "pass"]
            tired = acted > 14
            if passes_only and (not others or rng.random() < (0.9 if tired else pass_weight)):
                pick = rng.choice(passes_only)
            else:
                pick = rng.choice(others)
        if tag(pick) in ("play", "activate", "attack"):
            acted += 1
        move = msgspec.structs.replace(pick, seq=len(events) + 1)
        before = game.facts(state)
        rulings = game.apply(state, move)
        bad = [r for r in rulings if r.violation.severity != "info"]
        if bad:
            raise AssertionError(f"seed {seed}: the spec refused its own legal move {move}: {bad[0].rule} {bad[0].violation}")
        events.append(msgspec.to_builtins(move))
        for i, claim in enumerate(game.claims_since(state, before), len(events) + 1):
            events.append({**claim, "seq": i})
    if passes == "implicit":
        events = [e for e in events if e["do"] != "pass"]
        for i, e in enumerate(events, 1):
            e["seq"] = i
    return [_enc.encode(header)] + [_enc.encode(e) for e in events]


@dataclass(frozen=True)
class Style:
    """How one player plays in a guided game."""

    use_effects: bool = True
    """Whether they use their cards' effects in their own turn."""
    save_magic: bool = False
    """Whether they keep their magic cards' effects for the opponent's turn (and for Counter effects)."""
    attack: bool = True
    play: bool = True
    wish: tuple[str, ...] = ()
    """Cards they draw and play first, where the log may say which."""
    fill: bool = False
    """Whether they play every card that fits and pass otherwise (to fill the field)."""


class Guided:
    """A guide from one :class:`Style` per player: it scores the moves and picks among the best."""

    def __init__(self, styles: dict[str, Style], eagerness: float = 0.8) -> None:
        self.styles = styles
        self.eagerness = eagerness

    def __call__(self, state: TtcgState, moves: list[Event], rng: random.Random) -> Event | None:
        scored: dict[int, list[Event]] = {}
        for move in moves:
            score = self.score(state, move)
            if score is not None:
                scored.setdefault(score, []).append(move)
        if not scored:
            passes = [m for m in moves if tag(m) == "pass"]
            return passes[0] if passes else None
        best = max(scored)
        if best <= 0 or rng.random() > self.eagerness:
            allowed = [m for group in scored.values() for m in group]
            if best <= 0:
                passes = [m for m in allowed if tag(m) == "pass"]
                return rng.choice(passes) if passes and rng.random() < 0.6 else rng.choice(allowed)
            return rng.choice(allowed)
        return rng.choice(scored[best])

    def score(self, state: TtcgState, move: Event) -> int | None:
        """How much the player wants ``move`` (``None``: not at all)."""
        player = move.by or state.active
        style = self.styles.get(player, Style())
        kind = tag(move)
        card = getattr(move, "card", None)
        wished = 1 if card in style.wish else 0
        if kind in ("draw", "mill", "reveal", "shuffle", "roll", "first", "choose", "decline", "discard"):
            return 2 + wished
        if kind == "pass":
            return 0
        if kind == "attack":
            return 4 if style.attack else None
        if kind == "play":
            if not style.play:
                return None
            need = state.resolution.need if state.resolution is not None else None
            if need is not None:
                return 8
            if style.fill:
                return 6 if isinstance(move, E.Play) and move.on is None and move.equip is None else None
            return 3 + 2 * wished + (2 if isinstance(move, E.Play) and (move.on is not None or move.equip is not None) else 0)
        if kind == "activate":
            label = label_of(state, move)
            magic = B.is_magic(state.cards.get(card or ""))
            answers = style.use_effects or style.save_magic
            if label == "counter":
                return 9 if answers else None
            if player != state.active:
                return 7 if magic and answers else None
            if not style.use_effects or (style.save_magic and magic):
                return None
            return 6 if label in ("dormant", "continuous") else 3
        return 1


def active_guide(state: TtcgState, moves: list[Event], rng: random.Random) -> Event | None:
    """Both players use their cards, attack, and answer with counters and magic when they can."""
    return Guided({})(state, moves, rng)


# ---------------------------------------------------------------------- what a replay shows


def replay_states(lines: list[bytes]) -> Iterator[tuple[TtcgState, Any, dict[str, Any]]]:
    """``(state before the event, event, raw event)`` for each event of a replay."""
    game = _game()
    header = json.loads(lines[0])
    setup = Setup(tuple(header["players"]), header["decks"], header["options"], _cards())  # type: ignore[arg-type]
    state = game.setup(setup)
    decoder = game.decoder()
    for raw in lines[1:]:
        event = decoder.decode(raw)
        yield state, event, json.loads(raw)
        game.apply(state, event)


SITUATIONS = (
    "deck construction", "opening hands", "first turn without draw or attack", "two plays",
    "extra plays", "effect play not counted", "level up", "level up untaps", "normal effect",
    "continuous effect", "counter effect", "equip effect", "latent effect", "dormant effect",
    "passive effect", "magic effect in opponent's turn", "simultaneous triggers",
    "invalid effect does nothing", "battle", "direct attack", "destroyed with cards under",
    "destroyed with equipment", "points for a destroyed creature", "five creatures",
    "five magic cards", "hand limit", "deck exhaustion", "won on points",
    "cards revealed", "player prohibited", "rank up from the deck",
)
"""The situations the issue names for the TTCG, as ``meta.shows`` lists them, and those of
the decisions made since (30: cards revealed from the deck; 31: an effect that forbids a
player something; 32: a rank up with a card from the deck)."""


def features(lines: list[bytes]) -> set[str]:
    """The situations of :data:`SITUATIONS` a replay shows."""
    found: set[str] = {"deck construction", "opening hands"}
    previous: TtcgState | None = None
    for state, event, raw in replay_states(lines):
        if previous is not None:
            _compare(previous, state, found)
        kind = raw["do"]
        if state.stage == "turn" and state.turn >= 2:  # the first turn is over (its draw and attacks refused)
            found.add("first turn without draw or attack")
        if kind == "reveal":
            found.add("cards revealed")
        if kind == "play":
            need = state.resolution.need if state.resolution is not None else None
            if need is not None and need.kind == "rank_up" and need.detail[1].zone == "deck":
                found.add("rank up from the deck")
            if state.resolution is not None and state.resolution.need is not None:
                found.add("effect play not counted")
            else:
                if state.flags.plays == 1:
                    found.add("two plays")
                if state.flags.plays >= 2:
                    found.add("extra plays")
                if raw.get("equip"):
                    found.add("equip effect")
            if raw.get("on"):
                found.add("level up")
                pile = B.find_pile(state, raw["by"], raw["on"]["card"], raw["on"].get("slot"))
                if pile is not None and pile.tapped:
                    found.add("level up untaps")
        if kind == "choose" and state.resolution is not None and state.resolution.need is not None:
            step = getattr(state.resolution.need.detail, "step", None)
            if type(step).__name__ == "PlayCards":
                found.add("effect play not counted")
        if kind == "activate":
            label = label_of(state, event)
            found.add(f"{label} effect" if label in ("normal", "continuous", "counter", "dormant") else "normal effect")
            if raw["by"] != state.active and B.is_magic(state.cards.get(raw["card"])):
                found.add("magic effect in opponent's turn")
        if kind == "attack":
            found.add("direct attack" if raw.get("target") is None else "battle")
        if kind == "discard" and (state.resolution is None or state.resolution.need is None):
            found.add("hand limit")  # a discard no effect asks for is the one at the end of the turn
        if kind == "game":
            found.add("won on points")
        for side in state.sides.values():
            if len(side.creatures) == 5:
                found.add("five creatures")
            if len(side.magic) == 5:
                found.add("five magic cards")
        for _owner, pile in B.piles(state):
            for index, (label, ability) in enumerate(B.effects_of(state, pile.card.name or "")):
                if isinstance(ability, A.Passive) and label in ("passive", "normal") and B.in_force(state, _owner, pile, pile.card, index, label, ability):
                    found.add("passive effect")
                if label == "equip" and B.in_force(state, _owner, pile, pile.card, index, label, ability):
                    found.add("equip effect")
        previous = state.copy()
    return found


def _compare(before: TtcgState, after: TtcgState, found: set[str]) -> None:
    old = {id(link) for link in before.chain}
    new_triggers = [link for link in after.chain if link.kind == "triggered" and id(link) not in old]
    if len(new_triggers) >= 2:
        found.add("simultaneous triggers")
    if any(link.label == "latent" for link in new_triggers):
        found.add("latent effect")
    if after.fizzled > before.fizzled:
        found.add("invalid effect does nothing")
    if any(x.kind == "prohibit" for x in after.lasting) and not any(x.kind == "prohibit" for x in before.lasting):
        found.add("player prohibited")
    for owner, name in after.destroyed_log[len(before.destroyed_log):]:
        gone = [p for p in before.sides[owner].piles() if p.card.name == name and B.pile_by_id(after, p.id) is None]
        for pile in gone:
            if pile.under:
                found.add("destroyed with cards under")
            if pile.row == "creature" and any(q.equipped_to == pile.id for q in before.sides[owner].magic):
                found.add("destroyed with equipment")
            if pile.row == "creature":
                found.add("points for a destroyed creature")
    for player in after.players:
        if before.stage == "turn" and after.sides[player].points == before.sides[player].points - 5 \
                and len(before.sides[player].deck) == 0 and after.node in ("draw", "main"):
            found.add("deck exhaustion")


# ---------------------------------------------------------------------- illegal replays


def _mutations(state: TtcgState, event: Any, rng: random.Random) -> list[Any]:
    """Events that a careless or dishonest log might hold at this point."""
    game = _game()
    out: list[Any] = list(game._candidates(state, rng))
    seq = event.seq
    names = sorted(d.name for d in state.cards)
    fields = event.__struct_fields__
    if "card" in fields:
        for name in rng.sample(names, min(8, len(names))):
            out.append(msgspec.structs.replace(event, card=name))
    if event.by is not None:
        out.append(msgspec.structs.replace(event, by=state.other(event.by)))
    if isinstance(event, E.Attack) and event.target is not None:
        out.append(msgspec.structs.replace(event, target=None))
    if isinstance(event, E.Activate):
        out.append(msgspec.structs.replace(event, effect=1 - event.effect))
    if isinstance(event, E.Choose):
        out.append(msgspec.structs.replace(event, cards=[]))
        out.append(msgspec.structs.replace(event, cards=[*event.cards, *event.cards]))
    if isinstance(event, E.Roll):
        out.append(msgspec.structs.replace(event, die=7))
    for player in state.players:
        side = state.sides[player]
        out.append(E.Points(seq, None, player, side.points - 1))
        out.append(E.GameOver(seq, None, player))
        out.append(E.Mill(seq, player, None))
        out.append(E.Choose(seq, player, []))
        out.append(E.Decline(seq, player))
        for pile in side.creatures[:2]:
            out.append(E.Destroyed(seq, None, pile.card.name or "", player))
        for name in rng.sample(names, min(4, len(names))):
            out.append(E.Draw(seq, player, name))
            out.append(E.Discard(seq, player, name))
            out.append(E.Play(seq, player, name))
            for pile in side.piles()[:2]:
                out.append(E.Play(seq, player, name, E.Ref(pile.card.name or "")))
                out.append(E.Play(seq, player, name, None, E.Ref(pile.card.name or "")))
        for pile in side.piles():
            for index in (0, 1):
                out.append(E.Activate(seq, player, pile.card.name or "", index))
        foe = state.sides[state.other(player)]
        for pile in side.creatures:
            out.append(E.Attack(seq, player, pile.card.name or "", None, None))
            for other in foe.creatures[:2]:
                out.append(E.Attack(seq, player, pile.card.name or "", None, E.Ref(other.card.name or "", state.other(player))))
    for phase in ("draw", "main", "battle", "end"):
        out.append(E.Phase(seq, None, phase))
    return [msgspec.structs.replace(m, seq=seq) for m in out]


def find_rule_cases(seeds: list[int], passes: str, wanted: set[str], found: dict[str, list[bytes]],
                    per_game_limit: int = 500) -> None:
    """For each rule of ``wanted``, a replay whose last event breaks it first (added to ``found``)."""
    game = _game()
    for seed in seeds:
        if not wanted - set(found):
            return
        guide = active_guide if seed % 2 else None
        lines = play(seed, guide, passes=passes)
        rng = random.Random(seed)
        for k, (state, event, _raw) in enumerate(replay_states(lines)):
            if k > per_game_limit or not wanted - set(found):
                break
            for mutant in _mutations(state, event, rng):
                trial = state.copy()
                rulings = game.apply(trial, mutant)
                bad = [r for r in rulings if r.violation.severity in ("illegal", "inconsistent")]
                if not bad or bad[0].rule is None or bad[0].rule in found or bad[0].rule not in wanted:
                    continue
                if any(r.violation.severity in ("unverifiable", "malformed") for r in rulings):
                    continue
                header = json.loads(lines[0])
                header["expect"] = {"verdict": bad[0].violation.severity, "seq": mutant.seq, "rule": bad[0].rule}
                header["meta"] = {"generator": "spec.ttcg.corpus", "seed": seed, "breaks": bad[0].rule,
                                  "check": bad[0].check}
                found[bad[0].rule] = [_enc.encode(header)] + lines[1:k + 1] + [_enc.encode(msgspec.to_builtins(mutant))]


# ---------------------------------------------------------------------- the plans


def deck_with(seed: int, must: tuple[str, ...], size: int = 60) -> dict[str, Any]:
    """A legal decklist (2.2.1) of ``size`` cards holding two copies of each of ``must``."""
    game, cards = _game(), _cards()
    rng = random.Random(seed)
    deck = {name: 2 for name in must}
    others = sorted(game.random_deck(cards, rng)["deck"])
    rng.shuffle(others)
    for name in others:
        if sum(deck.values()) >= size:
            break
        deck.setdefault(name, min(2, size - sum(deck.values())))
    return {"deck": dict(sorted(deck.items()))}


TRIGGERS = ("Gloomcap Wretch", "Murkfang Bat", "Duskmire Shade", "Kiln Drake", "Ember Whelp", "Cavern Lurker")
SPELLS = ("Hush Veil", "Undertow", "Ember Tithe", "Gale Step", "Time Fold", "Arc Lance", "Ember Brand", "Seed Vault")
BATS = ("Murkfang Bat", "Gloomcap Wretch", "Duskmire Shade", "Kiln Drake")
EQUIPPED = ("Arc Lance", "Pebble Imp", "Mossback Golem", "Sunpetal Healer", "Lantern Moth")
BREAKERS = ("Gloomcap Wretch", "Murkfang Bat", "Duskmire Shade", "Ember Whelp", "Kiln Drake", "Static Wisp", "Voltfang Stalker")
REVEALERS = ("Cairn Diviner", "Deep Climber", "Ash Edict", "Mossback Golem", "Pebble Imp", "Tidecaller Naida")
"""Cards of decisions 30 to 32 (revealed cards, prohibitions, rank ups from the deck), with
golems for Cairn Diviner to play and a rank 2 water creature for Deep Climber."""
EXTRA = ("Time Fold", "Hush Veil", "Undertow", "Gale Step", "Seed Vault", "Ember Tithe", "Lodestone Ward")
RANKERS = ("Ember Whelp", "Bloomcaller Dryad", "Quarry Colossus", "Ironroot Sentinel", "Thornwhip Sprite", "Mossback Golem",
           "Tidecaller Naida", "Time Fold", "Hush Veil", "Undertow")


class Plan(msgspec.Struct, frozen=True):
    """One legal replay of the corpus: how its game is played."""

    name: str
    seed: int
    passes: str
    guide: Any = None
    decks: Any = None
    max_events: int = 1500
    wants: tuple[str, ...] = ()
    """Situations the replay is for: other seeds (``seed + 100``, ``+ 200``...) are tried until it shows them."""
    settles: str | None = None
    """A precedence rule the replay's report must list a conflict settled by (issue 6)."""


def _plans() -> list[Plan]:
    quiet = Style(use_effects=False, attack=False, play=False)
    return [
        Plan("random", 11, "implicit"),
        Plan("random", 12, "explicit"),
        Plan("guided", 13, "implicit", active_guide),
        Plan("guided", 14, "explicit", active_guide),
        Plan("guided", 15, "implicit", active_guide),
        Plan("triggers", 19, "implicit",
             Guided({"alice": Style(use_effects=False, attack=False, wish=BATS), "bob": Style(attack=False, wish=SPELLS)}),
             {"alice": deck_with(19, BATS), "bob": deck_with(20, SPELLS)}, wants=("simultaneous triggers",)),
        Plan("equipped", 17, "implicit",
             Guided({"alice": Style(use_effects=False, attack=False, wish=EQUIPPED), "bob": Style(wish=BREAKERS)}),
             {"alice": deck_with(17, EQUIPPED), "bob": deck_with(18, BREAKERS)}, wants=("destroyed with equipment",)),
        Plan("extra", 21, "explicit",
             Guided({"alice": Style(wish=EXTRA), "bob": Style(wish=EXTRA)}),
             {"alice": deck_with(21, EXTRA), "bob": deck_with(22, EXTRA)}, wants=("extra plays",)),
        Plan("answers", 18, "explicit",
             Guided({"alice": Style(save_magic=True, wish=SPELLS), "bob": Style(save_magic=True, wish=("Rubble Giant", *SPELLS))}),
             {"alice": deck_with(18, SPELLS), "bob": deck_with(19, ("Rubble Giant", "Pebble Imp", "Ironroot Sentinel", *SPELLS[:5]))},
             wants=("counter effect", "invalid effect does nothing")),
        Plan("ranks", 20, "implicit", Guided({p: Style(wish=RANKERS) for p in ("alice", "bob")}),
             {"alice": deck_with(20, RANKERS), "bob": deck_with(21, RANKERS)}),
        Plan("filled", 22, "implicit", Guided({p: Style(use_effects=False, attack=False, fill=True) for p in ("alice", "bob")})),
        Plan("hoarded", 23, "implicit", Guided({p: quiet for p in ("alice", "bob")}, eagerness=1.0),
             {p: deck_with(23 + i, (), size=50) for i, p in enumerate(("alice", "bob"))}, max_events=2500),
        Plan("revealed", 24, "implicit", Guided({p: Style(wish=REVEALERS) for p in ("alice", "bob")}),
             {"alice": deck_with(24, REVEALERS), "bob": deck_with(25, REVEALERS)},
             wants=("cards revealed", "player prohibited", "rank up from the deck")),
        CONFLICTS,
    ]


CONFLICTS = Plan("conflicts", 42, "explicit", Guided({"alice": Style(wish=("Ember Brand",)), "bob": Style()}),
                 {"alice": deck_with(42, ("Ember Brand", "Bastion Hulk")), "bob": deck_with(43, ())}, settles="ttcg:2.1.aj",
                 wants=("won on points",))
"""A game in which Ember Brand keeps its creature from being destroyed in battle (2.1.aj over 2.2.7.g)."""


def legal_replay(plan: Plan) -> tuple[str, list[bytes], set[str]]:
    """The file name, lines (header with ``expect``) and situations of one plan's legal replay."""
    seed = plan.seed
    for attempt in range(12):
        seed = plan.seed + 100 * attempt
        lines = play(seed, plan.guide, passes=plan.passes, decks=plan.decks, max_events=plan.max_events)
        shows = features(lines)
        if set(plan.wants) <= shows and (plan.settles is None or plan.settles in _settled_by(lines)):
            break
    header = json.loads(lines[0])
    header["expect"] = {"verdict": "legal"}
    header["meta"]["shows"] = sorted(shows)
    return f"{plan.name}-{seed}.jsonl", [_enc.encode(header)] + lines[1:], shows


def _settled_by(lines: list[bytes]) -> set[str]:
    """The precedence rules that settled the conflicts the verifier met in a replay."""
    import tempfile

    from verifier.verify import verify_file

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        path.write_bytes(b"\n".join(lines) + b"\n")
        return {c.rule for c in verify_file(path).conflicts if c.rule is not None}


# ---------------------------------------------------------------------- issue 6: the other way, an impossible reveal


def the_other_way(lines: list[bytes]) -> list[bytes]:
    """The legal game up to the first battle a shield won (2.1.aj), then a claim that the card was destroyed."""
    game = _game()
    header = json.loads(lines[0])
    state = game.setup(Setup(tuple(header["players"]), header["decks"], header["options"], _cards()))  # type: ignore[arg-type]
    decoder = game.decoder()
    for k, raw in enumerate(lines[1:], 1):
        event = decoder.decode(raw)
        before = len(state.spared)
        game.apply(state, event)
        if len(state.spared) > before:
            owner, card, _why = state.spared[-1]
            claim = {"do": "destroyed", "card": card, "owner": owner, "seq": event.seq + 1}
            header["expect"] = {"verdict": "illegal", "seq": event.seq + 1, "rule": "ttcg:2.1.aj"}
            header["meta"] = {"generator": "spec.ttcg.corpus", "seed": header["meta"]["seed"], "breaks": "ttcg:2.1.aj",
                              "check": "destroyed_claim_spared",
                              "note": f"{owner}'s {card} cannot be destroyed (Ember Brand) and was not; the log says it was"}
            return [_enc.encode(header)] + lines[1:k + 1] + [_enc.encode(claim)]
    raise AssertionError("no battle in the game was won by a shield")


def impossible_reveal(lines: list[bytes], name: str = "Ember Brand") -> list[bytes]:
    """The legal game up to the first draw after both copies of ``name`` came out, which now shows a third."""
    game = _game()
    header = json.loads(lines[0])
    state = game.setup(Setup(tuple(header["players"]), header["decks"], header["options"], _cards()))  # type: ignore[arg-type]
    decoder = game.decoder()
    for k, raw in enumerate(lines[1:], 1):
        event = decoder.decode(raw)
        if isinstance(event, E.Draw) and event.by is not None and event.card not in (None, name):
            knowledge = state.sides[event.by].knowledge
            if knowledge.registered is not None and knowledge.located[name] >= knowledge.registered.get(name, 0) > 0:
                mutant = {**json.loads(raw), "card": name}
                header["expect"] = {"verdict": "inconsistent", "seq": event.seq, "rule": "ttcg:2.2.1.b"}
                header["meta"] = {"generator": "spec.ttcg.corpus", "seed": header["meta"]["seed"], "breaks": "ttcg:2.2.1.b",
                                  "note": f"{event.by}'s deck holds two copies of {name}, both already drawn; a third is drawn"}
                return [_enc.encode(header)] + lines[1:k] + [_enc.encode(mutant)]
        game.apply(state, event)
    raise AssertionError(f"no draw after both copies of {name} came out")


def build(out: Path, part: str = "both") -> None:
    """Write the legal and/or illegal corpus into ``out/legal`` and ``out/illegal``."""
    (out / "legal").mkdir(parents=True, exist_ok=True)
    (out / "illegal").mkdir(parents=True, exist_ok=True)
    if part != "illegal":
        covered: set[str] = set()
        for plan in _plans():
            filename, lines, shows = legal_replay(plan)
            covered |= shows
            (out / "legal" / filename).write_bytes(b"\n".join(lines) + b"\n")
            print(f"legal {filename}: {len(lines) - 1} events, shows {len(shows)}", flush=True)
        print(f"situations not shown: {sorted(set(SITUATIONS) - covered)}", flush=True)
    if part == "legal":
        return
    game = _game()
    wanted = {c.rule for a in game.book.actions.values() for c in a.checks}
    found: dict[str, list[bytes]] = {}
    build_conflicts(out)
    found["ttcg:2.1.aj"] = []  # written by build_conflicts
    find_rule_cases(list(range(1, 9)), "implicit", wanted, found)
    find_rule_cases(list(range(30, 34)), "explicit", wanted, found)
    for rule, lines in sorted(found.items()):
        if not lines:
            continue
        slug = rule.split(":", 1)[1].replace(".", "-")
        (out / "illegal" / f"breaks-{slug}.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    print(f"illegal: {len(found)} replays; rules without one: {sorted(wanted - set(found))}")


def build_conflicts(out: Path) -> None:
    """The replays of issue 6: the conflicts game (legal), the same game the other way, an impossible reveal."""
    filename, lines, _shows = legal_replay(CONFLICTS)
    (out / "legal" / filename).write_bytes(b"\n".join(lines) + b"\n")
    (out / "illegal" / "breaks-2-1-aj.jsonl").write_bytes(b"\n".join(the_other_way(lines)) + b"\n")
    (out / "illegal" / "inconsistent-third-copy.jsonl").write_bytes(b"\n".join(impossible_reveal(lines)) + b"\n")


if __name__ == "__main__":
    build(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "both")
