"""How Neopets settles clashing effects, and where the verifier meets them.

The policy (:data:`POLICY`) tries four rules in order, each citing the book:

1. **8.20.6b** a static negation removes the abilities of the Neopet it names: it
   prevails over the effects of those abilities (unless they negate the negation's own
   source: that is two negations contradicting each other, rule 4);
2. **4.2** card text prevails over the rules it contradicts (a grant of an additional
   play over the one card of the Preparation Phase, 5.4.2a.p1; a permission to play
   cards over their timing, 7.3.3 to 7.9.3);
3. **4.1** among card effects, a can't prevails over a can or a must;
4. **8.18.5** between contradicting always-on (passive) abilities, the one whose source
   has been in play longer prevails (sources that entered together: the active
   player's first, as 9.7.1 orders simultaneous events).

Rule 4.2 is tried before 4.1 because 4.1 speaks of cards, abilities and effects, not of
the rules: a rule's limit is not a can't that beats a card's grant (decision 19 of
``docs/neopets-decisions.rst``). Rule 4.1 is tried before 8.18.5 because it is one of
the book's golden rules, stated for every effect; 8.18.5 decides what 4.1 does not (two
negations, two settings of a stat).

In a replay the verifier meets conflicts in two ways. Effects in force together that
clash (two cards' can and can't, two negations) are found after each event
(:func:`conflicts_met`, z3 only once the cheap pre-filter
:func:`spec.core.conflicts.could_interact` says two effects could clash) and listed as
``info`` findings, once each. Moves that only a settled clash makes legal or illegal
(a play against a can't that a can contradicts, a play outside its timing under a
card's permission, an additional Preparation Phase play) are judged by asking the
policy (:func:`judge_play`, :func:`judge_timing`, :func:`judge_grant`); the move's
check then cites its rule, and :func:`move_notes` lists how the clash was settled.
A clash no rule settles, or a z3 call that runs out, is ``unverifiable``.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any, Final

from grammar import ast as A
from spec.core.cards import CardDef
from spec.core.conflicts import (
    Conflict,
    Decision,
    Effect,
    Guard,
    Policy,
    Precedence,
    Resolution,
    cant_beats_can,
    card_over_rules,
    could_interact,
    longer_standing_wins,
    negation_wins,
    resolve,
)
from spec.core.findings import Violation
from spec.core.game import Ruling
from spec.neopets import board as B
from spec.neopets.state import NeopetsState

NEGATION: Final = negation_wins("neopets:8.20.6b")
CARD_OVER_RULES: Final = card_over_rules("neopets:4.2")
CANT_BEATS_CAN: Final = cant_beats_can("neopets:4.1")
_LONGER: Final = longer_standing_wins("neopets:8.18.5")


def _longer_standing(core: Sequence[Effect]) -> Decision | None:
    """8.18.5, with sources that entered play together taken active player's first (9.7.1).

    In a replay an effect's ``since`` is ``(stamp, 0 for the active player's, 1 otherwise)``.
    """
    decision = _LONGER.decide(core)
    if decision is None or decision.conditional or not all(isinstance(e.since, tuple) for e in core):
        return decision
    if len({e.since[0] for e in core}) == 1:
        winners = sorted({e.source for e in core if e not in decision.losers})
        losers = sorted({e.source for e in decision.losers})
        return Decision(decision.losers, f"{', '.join(winners)} and {', '.join(losers)} entered play together; as with "
                                         "simultaneous events (9.7.1), the active player's is taken first")
    return decision


LONGER_STANDING: Final = Precedence(_LONGER.rule, _LONGER.name, _LONGER.summary, _longer_standing)

ONE_PLAY: Final = "neopets:5.4.2a.p1"
TIMING_RULES: Final = {kind: f"neopets:{rule}" for kind, rule in B.PREPARATION_TYPES.items()}
"""The rule that sets each Preparation Phase card type's timing."""
CAPPED: Final[dict[str, tuple[int, int | None]]] = {stat: (0, B.STAT_CAP) for stat in B.CAPPED}

_SPELL_TYPES: Final = ("Legend", "Potion", "Food", "Paint Brush")


class NeopetsPolicy(Policy):
    """The Neopets precedence policy (see the module docstring)."""

    game = "neopets"
    precedence: tuple[Precedence, ...] = (NEGATION, CARD_OVER_RULES, CANT_BEATS_CAN, LONGER_STANDING)

    def covers(self, general: str, specific: str) -> bool:
        """``play cards`` speaks of every ``play <type>`` and of the Preparation Phase play."""
        return general == specific or (general == "play cards" and specific.startswith("play "))

    def base_count(self, topic: str) -> int:
        return 1  # 5.4.2a.p1: one card in the Preparation Phase

    def clamp(self, stat: str) -> tuple[int | None, int | None]:
        return CAPPED.get(stat, (0, None))  # 6.2.4; no total below zero

    def base_bounds(self, stat: str) -> tuple[int, int]:
        return (0, 20) if stat == "Hit Points" else (0, B.STAT_CAP)

    def arithmetic_rule(self, stat: str) -> str | None:
        return "neopets:6.2.3.p1"

    def object_kind(self, selector_type: str) -> str:
        """A Neopet stands for its player: the spec keeps a player's Neopet effects by player."""
        return "player" if selector_type in ("player", "Neopet", "Rainbow Pool Neopet") else selector_type

    def rule_effects(self, players: Sequence[str]) -> list[Effect]:
        """The one Preparation Phase play (5.4.2a.p1) and the timing of each card type (7.x.3)."""
        out = []
        for player in players:
            out.append(Effect(f"rules {ONE_PLAY}>{player}", "limit", player, "play a card", 1, origin="rule", rule=ONE_PLAY,
                              text=f"{player} plays one card in the Preparation Phase"))
            for kind, rule in sorted(TIMING_RULES.items()):
                out.append(Effect(f"rules {rule}/{kind}>{player}", "cant", player, f"play {kind}", origin="rule", rule=rule,
                                  text=f"outside their own Preparation Phase, {player} can't play {kind} cards",
                                  guard=(Guard(f"{player} is outside their own Preparation Phase", ">=", 1, fact=True),)))
        return out

    def is_static(self, card: CardDef, ability: Any) -> bool:
        return isinstance(ability, A.Passive) and card.type not in _SPELL_TYPES

    def causes(self, step: Any) -> set[str]:
        """As the core's, but no effect rolls *attack* dice, the only roll a trigger waits for (5.5.4)."""
        return super().causes(step) - {"rolled"}

    def placement_ok(self, cards: Sequence[CardDef], controllers: Sequence[int]) -> bool:
        """One active Neopet, one Faerie, Hero or Villain (7.3.7) and one Location (7.9.7) per player."""
        for player in (0, 1):
            mine = [c for c, p in zip(cards, controllers, strict=True) if p == player]
            if sum(c.type in ("Neopet", "Rainbow Pool Neopet") for c in mine) > 1:
                return False
            if sum(c.type in B.FAERIE_TYPES for c in mine) > 1 or sum(c.type == "Location" for c in mine) > 1:
                return False
        return True

    def placement_words(self, card: CardDef, player: str) -> str:
        if card.type in ("Neopet", "Rainbow Pool Neopet"):
            return f"{player}'s active Neopet is {card.name}"
        if card.type in _SPELL_TYPES:
            return f"{player} has played {card.name} (what it does lasts)"
        if card.type == "Codestone":
            return f"{card.name} is attached to {player}'s Neopet"
        if card.type in ("Location", "Map Piece"):
            return f"{card.name} is in {player}'s Play Area"
        return f"{card.name} is in {player}'s Battledome"


POLICY: Policy = NeopetsPolicy()
"""The policy the Neopets spec uses (tests swap in :meth:`Policy.without` copies)."""


def policy() -> Policy:
    """The policy in force (read at each call, so a test can replace :data:`POLICY`)."""
    return POLICY


# =========================================================================== effects in force


def effects_in_force(state: NeopetsState, memo: dict[str, Any] | None = None) -> list[Effect]:
    """Every can, can't, grant, immunity, negation and stat change in force now.

    Passive abilities of every card in play are read without negations (the negations are
    effects here too); lasting effects of resolved cards come from ``state.lasting``.
    """
    kept = B.derived(state)
    passive: list[Effect] | None = kept.get("passive effects")  # type: ignore[assignment]
    if passive is None:
        passive, conditional = passive_effects(state, memo, state.card_effects)
        if not conditional:  # what no condition decides depends on the cards in play alone
            kept["passive effects"] = passive
    out = list(passive)
    if not state.lasting:
        return out
    sources = memo.setdefault("sources", {}) if memo is not None else {}
    kept_effects = state.card_effects
    for lasting in state.lasting:
        source = sources.get(lasting.order) or _lasting_source(state, lasting)
        sources[lasting.order] = source
        context = ("lasting", lasting.order, lasting.kind, lasting.what, lasting.affects, lasting.controller, lasting.until, source)
        found = kept_effects.get(context)
        if found is None:
            found = kept_effects[context] = _lasting(lasting, f"{source} ({lasting.controller})")
        out.extend(found)
    return out


def passive_effects(state: NeopetsState, memo: dict[str, Any] | None = None,
                    kept: dict[tuple, list[Effect]] | None = None) -> tuple[list[Effect], bool]:
    """The effects of the passive abilities of the cards in play, and whether any of those
    abilities has a condition (noted in ``memo`` as ``conditional``).

    With ``kept`` (``state.card_effects``), the effects of a card none of whose abilities
    has a condition are worked out once per context: the card, its controller, who is
    active, when it entered play and which Neopets are active (what a negation names);
    nothing else of the state goes into them.
    """
    out: list[Effect] = []
    conditional = False
    neopets = None
    for player, card in B.in_play(state):
        if card.name is None:
            continue
        try:
            passives = B.abilities(state, card.name, A.Passive)
        except B.Unmodelled:
            continue
        if not passives:
            continue
        since = (state.entered.get(card.uid, card.uid), 0 if player == state.active else 1)
        context = None
        if kept is not None and all(ability.condition is None for ability in passives):
            if neopets is None:
                neopets = tuple(None if side.neopet is None else (side.neopet.card.uid, side.neopet.card.name)
                                for side in state.sides.values())
            context = (card.uid, card.name, player, state.active, since, neopets)
            found = kept.get(context)
            if found is not None:
                out.extend(found)
                continue
        mine: list[Effect] = []
        key = f"{card.name}#{card.uid}"
        for index, ability in enumerate(passives):
            if ability.condition is not None:
                conditional = True
                if memo is not None:
                    memo["conditional"] = True
                try:
                    if not B.condition_holds(state, player, ability.condition, {}):
                        continue
                except B.Unmodelled:
                    continue
            for number, step in enumerate(ability.effect):
                mine.extend(_passive_step(state, player, f"{card.name} ({player})", key, since, f"{key}/{index}.{number}", step))
        if context is not None and kept is not None:
            kept[context] = mine
        out.extend(mine)
    return out, conditional


def _passive_step(state: NeopetsState, player: str, name: str, key: str, since: Any, ident: str, step: Any) -> list[Effect]:
    def make(kind: str, subject: str, topic: str, text: str, value: int = 0, negates: tuple[str, ...] = ()) -> Effect:
        return Effect(f"{ident}>{subject}", kind, subject, topic, value, name, "card", player, key, negates, since,  # type: ignore[arg-type]
                      True, False, None, text)

    if isinstance(step, A.Prohibit):
        return [make("cant", p, step.action, f"{p} can't {step.action}") for p in B.who(state, player, step.subject.owner)]
    if isinstance(step, A.Permit):
        if step.action == "play an additional card":
            return [make("grant", p, "play a card", f"{p} may play an additional card", 1) for p in B.who(state, player, step.subject.owner)]
        return [make("can", p, step.action, f"{p} can {step.action}") for p in B.who(state, player, step.subject.owner)]
    if isinstance(step, A.Immune):
        return [make("cant", p, f"be {step.to}", f"{p}'s Neopet is immune to {step.to}")
                for p in B.neopet_owner(state, player, step.target)]
    if isinstance(step, A.Modify) and isinstance(step.delta, int):
        sign = "+" if step.delta >= 0 else ""
        return [make("modify", p, step.stat, f"{p}'s Neopet gets {sign}{step.delta} {step.stat}", step.delta)
                for p in B.neopet_owner(state, player, step.target)]
    if isinstance(step, A.Negate) and step.target.type == "Neopet":
        owners = B.neopet_owner(state, player, step.target)
        keys = []
        for owner in owners:
            neopet = state.sides[owner].neopet
            if neopet is not None and neopet.card.name is not None:
                keys.append(f"{neopet.card.name}#{neopet.card.uid}")
        words = " and ".join(f"{o}'s Neopet" for o in owners)
        return [make("negate", owners[0] if owners else player, "abilities", f"the abilities of {words} are negated",
                     negates=tuple(k for k in keys if k != key))]
    return []


UNTIL: Final = {"permanent": "", "end_of_turn": " until end of turn", "your_next_turn": " until its controller's next turn",
         "end_of_round": " until end of round", "next_battle_phase": " during the next Battle Phase",
         "this_phase": " this phase"}


def _lasting(lasting: Any, source: str) -> list[Effect]:
    """The effects of a lasting can't, may or immunity (a lasting stat change is none here:
    :func:`conflicts_met` keys on the others alone)."""
    until = UNTIL.get(lasting.until, " until " + lasting.until.replace("_", " "))
    ident = f"lasting{lasting.order}>{lasting.affects}"
    who = lasting.affects
    if lasting.kind == "prohibit":
        return [Effect(ident, "cant", who, lasting.what, 0, source, "card", lasting.controller, None, (), None, False, False,
                       None, f"{who} can't {lasting.what}{until}")]
    if lasting.kind == "permit":
        if lasting.what == "play an additional card":
            return [Effect(ident, "grant", who, "play a card", 1, source, "card", lasting.controller, None, (), None, False,
                           False, None, f"{who} may play an additional card{until}")]
        return [Effect(ident, "can", who, lasting.what, 0, source, "card", lasting.controller, None, (), None, False, False,
                       None, f"{who} can {lasting.what}{until}")]
    if lasting.kind == "immune":
        return [Effect(ident, "cant", who, f"be {lasting.what}", 0, source, "card", lasting.controller, None, (), None, False,
                       False, None, f"{who}'s Neopet is immune to {lasting.what}{until}")]
    return []


_MAKERS: Final[weakref.WeakKeyDictionary[Any, dict[tuple[str, str], list[str]]]] = weakref.WeakKeyDictionary()


def _makers(cards: Any) -> dict[tuple[str, str], list[str]]:
    """Per card database: (lasting kind, what) -> the cards whose text makes such an effect."""
    found = _MAKERS.get(cards)
    if found is None:
        found = {}
        kinds: dict[type, str] = {A.Prohibit: "prohibit", A.Permit: "permit", A.Immune: "immune", A.Modify: "modify"}
        for defn in sorted(cards, key=lambda d: d.name):
            tree = cards.tree(defn.name)
            if isinstance(tree, Exception):
                continue
            for ability in tree.abilities:
                for step in _steps(getattr(ability, "effect", ())):
                    kind = kinds.get(type(step))
                    if kind is not None:
                        names = found.setdefault((kind, _names(step)), [])
                        if defn.name not in names:
                            names.append(defn.name)
        _MAKERS[cards] = found
    return found


def _lasting_source(state: NeopetsState, lasting: Any) -> str:
    """The card a lasting effect came from: the card that resolved last if its text makes
    such an effect, else the first card of the database (by name) whose text does."""
    makers = _makers(state.cards).get((lasting.kind, lasting.what), [])
    if state.last_resolved in makers:
        return state.last_resolved or "an effect"
    return makers[0] if makers else "an effect"


def _steps(steps: Sequence[Any]) -> list[Any]:
    out: list[Any] = []
    for step in steps:
        out.append(step)
        for field in ("then", "otherwise", "steps", "effect"):
            inner = getattr(step, field, None)
            if isinstance(inner, tuple):
                out.extend(_steps(inner))
    return out


def _names(step: Any) -> str:
    if isinstance(step, A.Prohibit | A.Permit):
        return step.action
    if isinstance(step, A.Immune):
        return step.to
    return getattr(step, "stat", "")


# =========================================================================== conflicts met in a replay


def conflicts_met(state: NeopetsState, memo: dict[str, Any]) -> list[Ruling]:
    """Findings for clashes between effects in force not reported yet (see the module docstring)."""
    # what can change the effects in force is a card entering or leaving play, a lasting
    # effect, the turn changing hands or damage (for conditions): each moves state.changes
    quick = state.changes
    try:
        if memo["quick"] == quick:
            return []  # nothing was created, began or ended: most events (passes, claims, dice)
    except KeyError:  # the first event
        pass
    memo["quick"] = quick
    if state.stage != "turn":
        return []
    # What decides the effects in force: the cards in play (``play_version`` moves whenever
    # one enters or leaves play, as for the board of spec.neopets.board), the lasting
    # effects that are effects here (each takes its own ``order``; a lasting stat change
    # is none, see _lasting), who is active, the round, and the damage dealt once an
    # ability in play has a condition. The counters only grow, so a key met before means
    # the very effects met then: their clashes were all reported then (a turn coming back
    # to the same cards, a Potion's stat change beginning or ending).
    key = (state.play_version, tuple([x.order for x in state.lasting if x.kind != "modify"]) if state.lasting else (),
           state.active, state.round, len(state.damage_log) if memo.get("conditional") else 0)
    try:
        met = memo["keys"]
    except KeyError:
        met = memo["keys"] = set()
    if key in met:
        return []
    met.add(key)
    effects = effects_in_force(state, memo)
    policy = POLICY
    # The same effects (each by what it is and when its source came into play) met before,
    # under another key (a turn handed back, a card come and gone): their clashes were all
    # reported then, and the policy settles them as it did (no z3 call again).
    signature = frozenset((e.id, e.since) for e in effects)
    try:
        signatures = memo["signatures"]
    except KeyError:
        signatures = memo["signatures"] = set()
    if signature in signatures:
        return []
    signatures.add(signature)
    if not could_interact(effects, policy):
        return []
    resolution = resolve(effects, policy)
    seen: set[Any] = memo.setdefault("seen", set())
    rulings = []
    for conflict in resolution.conflicts:
        if conflict.key in seen:
            continue
        seen.add(conflict.key)
        rulings.append(conflict_ruling(conflict))
    if resolution.undecided and resolution.undecided not in seen:
        seen.add(resolution.undecided)
        rulings.append(Ruling(None, Violation(resolution.undecided, severity="unverifiable"), "conflicts"))
    return rulings


def conflict_ruling(conflict: Conflict) -> Ruling:
    """The finding for one conflict: ``info`` when settled, ``unverifiable`` for a gap."""
    effects = "; ".join(e.describe() for e in conflict.effects)
    s = conflict.settlement
    if s is None:
        return Ruling(None, Violation(f"a gap in the rules: no precedence rule of the game settles the clash of {effects}",
                                      expected="a rule deciding which effect applies", actual="effects that cannot all apply",
                                      severity="unverifiable"), "conflicts")
    return Ruling(s.rule, Violation(f"effects in force clash: {effects}; settled by {s.describe()}",
                                    expected="applies: " + "; ".join(e.describe() for e in s.winners),
                                    actual="gives way: " + "; ".join(e.describe() for e in s.losers),
                                    severity="info"), "conflicts")


# =========================================================================== moves a clash decides


def _relevant(resolution: Resolution, player: str, topic: str) -> list[Conflict]:
    """The conflicts that speak of ``player`` doing ``topic``."""
    return [c for c in resolution.conflicts
            if any(e.subject == player and (POLICY.covers(e.topic, topic) or POLICY.covers(topic, e.topic)) for e in c.effects)]


def _undecided(resolution: Resolution, relevant: list[Conflict]) -> Violation | None:
    if resolution.undecided:
        return Violation(resolution.undecided, expected="a decided clash", actual="undecided", severity="unverifiable")
    gaps = [c for c in relevant if c.settlement is None]
    if gaps:
        return Violation("a gap in the rules: no precedence rule settles the clash of " + gaps[0].describe(),
                         expected="a rule deciding which effect applies", actual="effects that cannot all apply",
                         severity="unverifiable")
    return None


def judge_play(state: NeopetsState, player: str, kind: str, card: str) -> tuple[Violation | None, list[Conflict]]:
    """A play of a ``kind`` card while a can't and a can of it are both in force: the policy decides."""
    topic = f"play {kind}"
    resolution = resolve(effects_in_force(state), POLICY)
    relevant = _relevant(resolution, player, topic)
    problem = _undecided(resolution, relevant)
    if problem is not None:
        return problem, relevant
    cants = [e for e in resolution.prevailing if e.kind == "cant" and e.subject == player and POLICY.covers(e.topic, topic)]
    if not cants:
        return None, relevant
    settled = [c for c in relevant if c.settlement is not None and any(e in c.settlement.winners for e in cants)]
    how = f"; it clashes with {_others(settled, cants)}, settled by {settled[0].settlement.describe()}" if settled else ""  # type: ignore[union-attr]
    return Violation(f"{cants[0].describe()}{how}", expected=f"no {kind} card played", actual=card), relevant


def _others(settled: list[Conflict], winners: list[Effect]) -> str:
    losers = [e for c in settled for e in c.effects if e not in winners]
    return "; ".join(e.describe() for e in losers) or "another effect"


def judge_timing(state: NeopetsState, player: str, kind: str) -> tuple[Violation | None, list[Conflict]]:
    """A ``kind`` card played outside its timing under a card's permission: the rule's can't
    against the card's can, settled by the policy (4.2 in Neopets; 9.1.2 says the same)."""
    rule = TIMING_RULES[kind]
    topic = f"play {kind}"
    timing = Effect(f"rules {rule}>{player}", "cant", player, topic, origin="rule", rule=rule,
                    text=f"{player} can't play {kind} cards outside their own Preparation Phase with the queue empty")
    return _judge_rule(state, player, topic, timing, f"no {kind} card played here")


def judge_grant(state: NeopetsState, player: str) -> tuple[Violation | None, list[Conflict]]:
    """Another Preparation Phase play under a card's grant: the rule's one play against the
    grant, settled by the policy (4.2 in Neopets; 9.1.1 says the same)."""
    limit = Effect(f"rules {ONE_PLAY}>{player}", "limit", player, "play a card", 1, origin="rule", rule=ONE_PLAY,
                   text=f"{player} plays one card in the Preparation Phase")
    return _judge_rule(state, player, "play a card", limit, "one card this Preparation Phase")


def _judge_rule(state: NeopetsState, player: str, topic: str, rule: Effect, expected: str) -> tuple[Violation | None, list[Conflict]]:
    resolution = resolve([*effects_in_force(state), rule], POLICY)
    relevant = [c for c in resolution.conflicts if rule in c.effects]
    problem = _undecided(resolution, relevant)
    if problem is not None:
        return problem, relevant
    if rule in resolution.prevailing:
        settled = [c for c in relevant if c.settlement is not None]
        how = f" ({settled[0].settlement.describe()})" if settled else ""  # type: ignore[union-attr]
        return Violation(f"{rule.describe()}{how}", expected=expected, actual=f"a play by {player}"), relevant
    return None, relevant


def move_notes(state: NeopetsState, ev: Any, kind: str) -> list[Ruling]:
    """``info`` findings for a legal move that a settled clash made legal (called before it is applied)."""
    if kind != "play" or ev.by is None:
        return []
    defn = state.cards.get(ev.card)
    if defn is None or defn.type not in B.PREPARATION_TYPES:
        return []
    player = ev.by
    notes: list[Conflict] = []
    outside = player != state.active or state.node != "preparation" or bool(state.queue)
    if outside and _permission(state, player, defn.type):
        problem, conflicts = judge_timing(state, player, defn.type)
        if problem is None:
            notes += conflicts
    elif not outside and state.flags.prep_plays >= 1 and B.permitted(state, player, "play an additional card"):
        problem, conflicts = judge_grant(state, player)
        if problem is None:
            notes += conflicts
    return [conflict_ruling(c) for c in notes if c.settlement is not None]


def _permission(state: NeopetsState, player: str, kind: str) -> bool:
    return B.permitted(state, player, f"play {kind}") > 0 or B.permitted(state, player, "play cards") > 0
