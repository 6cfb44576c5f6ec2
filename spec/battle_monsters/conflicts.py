"""How Battle Monsters settles clashing effects ("Determining rules").

The manual ranks its sources of rules (BM.rules.order): the rules both players agreed
before the game first (BM.rules.house), then the cards' special effects
(BM.rules.card), then the manual itself (BM.rules.manual); and between special effects
that contradict each other, the card played later prevails unless a card says otherwise
(BM.rules.conflict). The policy tries, in order:

1. **BM.rules.house** an agreed rule prevails over cards and the manual (an agreed rule
   is an effect of the rules citing ``battle_monsters:BM.rules.house``);
2. **BM.rules.conflict** ("unless stated") an effect that says it holds regardless of
   other rules and penalties prevails;
3. **BM.rules.card** a card's special effect prevails over the manual;
4. **BM.rules.conflict** the card played later prevails.

Rule 2 speaks only of clashes between card effects (BM.rules.conflict: "when two card
effects clash ... unless a card says how to settle it"): a card's "regardless of other
penalties" against the manual is settled by rule 3, card effects over the manual.

In designer mode the order of play is not known: the later-card rule then settles the
clash *conditionally* (whichever is played last).

In a replay the verifier meets conflicts in two ways (decision 23 of
``docs/battle_monsters-decisions.rst``). Effects in force together that clash (a card's
"can" and another's "cannot" on one monster, a card's "can attack on the turn it is
revealed" against the manual on the turn it was revealed) are found after each event
(:func:`conflicts_met`, z3 only once the cheap pre-filter
:func:`spec.core.conflicts.could_interact` says two effects could clash) and listed as
``info`` findings, once each. Moves that a clash decides are judged by the policy: a
"can" against a "cannot" (:func:`judge`, asked by :func:`spec.battle_monsters.board.permission`
and by the attack check citing BM.rules.conflict), and a card lifting the manual's
summoned-turn or revealed-turn ban (:func:`judge_manual`). A clash no rule settles, or a
z3 call that runs out, is ``unverifiable``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from grammar import ast as A
from grammar import battle_monsters_nodes as N
from spec.battle_monsters import board as B
from spec.core.cards import CardDef
from spec.core.conflicts import (
    Conflict,
    Decision,
    Effect,
    Policy,
    Precedence,
    Resolution,
    Template,
    card_over_rules,
    could_interact,
    later_wins,
    resolve,
    step_templates,
)
from spec.core.findings import Violation
from spec.core.game import Ruling

if TYPE_CHECKING:  # pragma: no cover - typing only
    from spec.battle_monsters.board import Static, Verdict
    from spec.battle_monsters.state import BattleMonstersState, OnField

HOUSE = "battle_monsters:BM.rules.house"
CARD = "battle_monsters:BM.rules.card"
CONFLICT = "battle_monsters:BM.rules.conflict"
REVEAL_TURN = "battle_monsters:BM.monster.reveal_turn"


def _agreed(core: Sequence[Effect]) -> Decision | None:
    """BM.rules.house: the rules both players agreed prevail over everything else."""
    agreed = [e for e in core if e.origin == "rule" and e.rule == HOUSE]
    rest = tuple(e for e in core if e not in agreed)
    if not agreed or not rest:
        return None
    return Decision(rest, "the players agreed on this rule before the game")


def _stated(core: Sequence[Effect]) -> Decision | None:
    """BM.rules.conflict, "unless stated": between card effects, one saying it holds regardless prevails."""
    if any(e.origin != "card" for e in core):
        return None  # the rule speaks of two card effects; a card against the manual is BM.rules.card's
    over = [e for e in core if e.overrides and e.origin == "card"]
    rest = tuple(e for e in core if e not in over)
    if not over or not rest:
        return None
    return Decision(rest, ", ".join(sorted({e.source for e in over})) + " says that it holds regardless of other rules")


AGREED = Precedence(HOUSE, "agreed rules first", "rules both players agreed prevail over cards and the manual", _agreed)
STATED = Precedence(CONFLICT, "unless stated", "between card effects, one that says it holds regardless prevails", _stated)
CARD_OVER_MANUAL = card_over_rules(CARD, "card effects over the manual")
LATER = later_wins(CONFLICT, "the later card wins")
PRECEDENCE: tuple[Precedence, ...] = (AGREED, STATED, CARD_OVER_MANUAL, LATER)


def _owner(cards: Any) -> str:
    owner = getattr(cards, "owner", None)
    return "opponent" if owner == "opponent" else "each" if owner in ("each", "any") or cards.quantifier == "all" else "you"


def _kind(cards: Any) -> str:
    kinds = [k for k in cards.kinds if k in ("monster", "spell", "trap", "player")]
    return kinds[0] if kinds else "card"


class BattleMonstersPolicy(Policy):
    """The Battle Monsters precedence policy (see the module docstring)."""

    game = "battle_monsters"
    precedence: tuple[Precedence, ...] = PRECEDENCE  # as the base's: compiled, a narrower type would refuse Policy.without's copy

    def covers(self, general: str, specific: str) -> bool:
        return general == specific or specific.startswith(general + " ")

    def object_kind(self, selector_type: str) -> str:
        low = selector_type.lower()
        return next((k for k in ("monster", "spell", "trap") if low.startswith(k)), "player" if low == "player" else "card")

    def rule_effects(self, players: Sequence[str]) -> list[Effect]:
        """A monster cannot attack in the turn it is revealed (BM.monster.reveal_turn)."""
        return [Effect(f"rules {REVEAL_TURN}>{p}", "cant", f"{p}'s monster", "attack on the turn it is revealed", origin="rule",
                       rule=REVEAL_TURN, text=f"{p}'s monsters can't attack in the turn they are revealed") for p in players]

    def is_static(self, card: CardDef, ability: Any) -> bool:
        return isinstance(ability, A.Passive) or (isinstance(ability, N.TriggerEffect) and ability.trigger is None
                                                   and ability.use == "permanent")

    def templates(self, card: CardDef, tree: A.CardText) -> list[Template]:
        out: list[Template] = []
        index = 0
        for ability in tree.abilities:
            for inner in ability.abilities if isinstance(ability, N.Special) else (ability,):  # type: ignore[attr-defined]
                static = self.is_static(card, inner)
                for step in _steps(getattr(inner, "effect", ()) or ()):
                    out.extend(self._step(card, step, static, index))
                index += 1
        return out

    def _step(self, card: CardDef, step: Any, static: bool, index: int) -> list[Template]:
        kind = self.object_kind(card.type)
        if isinstance(step, N.Cannot):
            subject = _kind(step.subject)
            return [Template("cant", _topic(action, step.when), _owner(step.subject), subject, static=static, ability=index,
                             this=step.subject.quantifier == "this", text=f"{_words(step.subject)} can't {_topic(action, step.when)}") for action in step.actions]
        if isinstance(step, N.Can):
            topic = _topic(step.action, step.when)
            return [Template("can", topic, _owner(step.subject), _kind(step.subject), static=static, overrides=step.overriding,
                             ability=index, this=step.subject.quantifier == "this", text=f"{_words(step.subject)} can {topic}" + (" regardless of other rules" if step.overriding else ""))]
        if isinstance(step, N.ImmuneTo):
            what = " or ".join(step.to.kinds)
            return [Template("cant", f"be affected by {what}", _owner(step.target), _kind(step.target), static=static, ability=index,
                             this=step.target.quantifier == "this", text=f"{_words(step.target)} is immune to {what}")]
        if isinstance(step, N.Points) and isinstance(step.delta, int):
            return [Template("modify", step.stat, _owner(step.target), _kind(step.target), step.delta, static=static, ability=index,
                             this=step.target.quantifier == "this", text=f"{_words(step.target)} gets {step.delta:+d} {step.stat} points")]
        if isinstance(step, N.Nullify):
            target = kind if step.what.quantifier == "this" else _kind(step.what)
            return [Template("negate", "abilities", _owner(step.what), target, static=static, ability=index,
                             negates=((_owner(step.what), target),), text=f"the special effects of {_words(step.what)} do not apply")]
        if isinstance(step, N.SendTo) and step.to == "graveyard":
            return [Template("must", "be destroyed", _owner(step.what), _kind(step.what), static=False, ability=index,
                             this=step.what.quantifier == "this", text=f"{_words(step.what)} goes to the graveyard")]
        return step_templates(step, static, index, self, A)

    def causes(self, step: Any) -> set[str]:
        if isinstance(step, N.SendTo):
            return {"sent_to_graveyard"} if step.to == "graveyard" else {"summoned"} if step.to == "field" else set()
        if isinstance(step, N.RevealCards):
            return {"revealed"}
        if isinstance(step, N.Lives) and isinstance(step.delta, int) and step.delta < 0:
            return {"lives_lost"}
        return super().causes(step)

    def listens(self, ability: Any) -> set[str]:
        if isinstance(ability, N.Reaction):
            return set(ability.event.kinds)
        if isinstance(ability, N.TriggerEffect) and ability.trigger is not None:
            return set(ability.trigger.kinds)
        return super().listens(ability)


def _steps(steps: Sequence[Any]) -> list[Any]:
    out: list[Any] = []
    for step in steps:
        out.append(step)
        for name in ("then", "effect", "steps"):
            inner = getattr(step, name, None)
            if isinstance(inner, tuple):
                out.extend(_steps(inner))
    return out


def _topic(action: str, when: str | None) -> str:
    words = action.replace("_", " ")
    turn = {"summoned_turn": "summoned", "revealed_turn": "revealed", "fused_turn": "fused"}.get(when or "")
    return f"{words} on the turn it is {turn}" if turn else words


def _words(cards: Any) -> str:
    if cards.quantifier == "this":
        return "this card"
    return f"{cards.quantifier} {' or '.join(cards.kinds)}"


POLICY: Policy = BattleMonstersPolicy()
"""The Battle Monsters policy (``spec.core.conflicts.policy_for("battle_monsters")``)."""


def policy() -> Policy:
    """The policy in force (read at each call, so a test can replace :data:`POLICY`)."""
    return POLICY


# =========================================================================== effects in force in a replay

TURN_WORDS = {"summoned_turn": "summoned", "revealed_turn": "revealed", "fused_turn": "fused"}
MANUAL = {"summoned_turn": "battle_monsters:BM.subactions.attack.timing", "revealed_turn": REVEAL_TURN}
"""The manual's ban on attacking on the turn a monster was summoned or revealed, per ``when``."""


def _subject(fc: OnField | None, player: str | None) -> tuple[str, str]:
    """The subject's key (unique while the card is on the field) and its words."""
    if fc is None:
        return player or "", player or ""
    return f"{fc.owner}'s {fc.name} #{fc.uid}", f"{fc.owner}'s {fc.name}"


def _key(static: Static) -> str:
    holder = static.ctx.holder
    if static.lasting:
        return f"{static.source}@{static.stamp}"
    return f"{static.source}#{holder.uid if holder is not None else 0}"


def effect_of(static: Static, kind: str, subject: tuple[str, str], action: str, when: str | None,
              by: OnField | None = None) -> Effect:
    """One static (an always-on ability or a lasting result) as a core effect on one subject."""
    step = static.step
    topic = _topic(action, when)
    overrides = bool(getattr(step, "overriding", False)) and kind == "can"
    words = f"{subject[1]} {'can' if kind == 'can' else 'cannot'} {topic}"
    if by is not None and getattr(step, "by", None) is not None:
        words += f" (when attacked by {by.name})" if action.startswith("be_") else f" ({by.name})"
    if getattr(step, "only", False):
        words += " (it can only be, by the cards the effect names)"
    if static.lasting:
        words += " this turn" if getattr(step, "when", None) == "this_turn" else " (a lasting effect)"
    if overrides:
        words += ", regardless of other penalties"
    key = _key(static)
    return Effect(f"{key}:{kind} {topic}>{subject[0]}", kind, subject[0], topic, 0, static.source, "card",  # type: ignore[arg-type]
                  static.ctx.controller, key, (), static.stamp, not static.lasting, overrides, None, words)


def _effects(yes: Sequence[Static], no: Sequence[Static], action: str, subject: tuple[str, str],
             by: OnField | None = None) -> list[Effect]:
    out = []
    for kind, group in (("can", yes), ("cant", no)):
        for static in group:
            when = getattr(static.step, "when", None)
            out.append(effect_of(static, kind, subject, action, when if when in TURN_WORDS else None, by))
    return out


def manual_effect(fc: OnField, when: str) -> Effect:
    """The manual's ban on attacking on the turn the monster was summoned or revealed."""
    key, words = _subject(fc, None)
    rule = MANUAL[when]
    return Effect(f"rules {rule}>{key}", "cant", key, _topic("attack", when), origin="rule", rule=rule,
                  text=f"{words} cannot attack on the turn it is {TURN_WORDS[when]}")


@dataclass(init=False)
class Judgement:
    """What the policy makes of the effects bearing on one move."""

    allowed: bool | None
    """``True``: the move may be made; ``False``: an effect that prevails forbids it; ``None``: no effect speaks."""
    conflicts: list[Conflict] = field(default_factory=list)
    problem: Violation | None = None
    """A gap in the rules or an undecided z3 call: the move cannot be judged (unverifiable)."""
    winner: Effect | None = None
    """The prevailing effect that decides the move."""

    def __init__(self, allowed: bool | None, conflicts: list[Conflict] | None = None, problem: Violation | None = None,
                 winner: Effect | None = None) -> None:
        # written out (init=False): the __init__ dataclasses generates stays interpreted in the compiled build
        self.allowed = allowed
        self.conflicts = [] if conflicts is None else conflicts
        self.problem = problem
        self.winner = winner


def _undecided(resolution: Resolution) -> Violation | None:
    if resolution.undecided:
        return Violation(resolution.undecided, expected="a decided clash", actual="undecided", severity="unverifiable")
    gaps = resolution.gaps
    if gaps:
        return Violation("a gap in the rules: no precedence rule of Battle Monsters settles the clash of " + gaps[0].describe(),
                         expected="a rule deciding which effect applies", actual="effects that cannot all apply",
                         severity="unverifiable")
    return None


def judge(state: BattleMonstersState, action: str, subject: OnField | None, player: str | None = None,
          other: OnField | None = None, when: str | None = None) -> Judgement:
    """A "can" and a "cannot" of card effects bearing on one move, settled by the policy.

    Without both, nothing clashes: the verdict is the one effect side that speaks.
    """
    yes, no = B.applicable(state, action, subject, player, other, when)
    if not yes or not no:
        allowed = True if yes else False if no else None
        return Judgement(allowed)
    effects = _effects(yes, no, action, _subject(subject, player), other)
    resolution = resolve(effects, POLICY)
    problem = _undecided(resolution)
    if problem is not None:
        return Judgement(None, resolution.conflicts, problem)
    cants = [e for e in resolution.prevailing if e.kind == "cant"]
    cans = [e for e in resolution.prevailing if e.kind == "can"]
    deciding = cants or cans
    return Judgement(not cants, resolution.conflicts, None, deciding[0] if deciding else None)


def settle_permission(state: BattleMonstersState, action: str, subject: OnField | None, player: str | None,
                      yes: Sequence[Static], no: Sequence[Static], when: str | None) -> Verdict:
    """:func:`spec.battle_monsters.board.permission` when a "can" and a "cannot" both apply."""
    effects = _effects(yes, no, action, _subject(subject, player))
    resolution = resolve(effects, POLICY)
    problem = _undecided(resolution)
    if problem is not None:
        raise B.Gap(problem.message)
    cants = [e for e in resolution.prevailing if e.kind == "cant"]
    winners = cants or [e for e in resolution.prevailing if e.kind == "can"]
    settled = next((c.settlement for c in resolution.conflicts if c.settlement is not None), None)
    rule = settled.rule.split(":", 1)[1] if settled is not None else "BM.rules.card"
    return B.Verdict(not cants, winners[0].source if winners else "", rule)


def judge_manual(state: BattleMonstersState, fc: OnField, when: str) -> Judgement:
    """Whether card effects lift the manual's ban on attacking on the turn ``fc`` was summoned or revealed.

    The card's "can attack on the turn it is ..." against the manual's ban (BM.rules.card
    settles it for the card), with any card's "cannot" on the same attack.
    """
    yes, no = B.applicable(state, "attack", fc, when=when)
    if not yes:
        return Judgement(False)
    rule = manual_effect(fc, when)
    effects = [*_effects(yes, no, "attack", _subject(fc, None)), rule]
    resolution = resolve(effects, POLICY)
    relevant = [c for c in resolution.conflicts if rule in c.effects or any(e.kind == "cant" for e in c.effects)]
    problem = _undecided(resolution)
    if problem is not None:
        return Judgement(None, relevant, problem)
    return Judgement(rule not in resolution.prevailing, relevant, None)


def clash_violation(state: BattleMonstersState, action: str, subject: OnField | None, words: str, player: str | None = None,
                    other: OnField | None = None, when: str | None = None) -> Violation | None:
    """The finding for a move that a settled clash forbids (``None`` when it is allowed or nothing clashes)."""
    judged = judge(state, action, subject, player, other, when)
    if judged.problem is not None:
        return judged.problem
    if not judged.conflicts or judged.allowed is not False or judged.winner is None:
        return None
    settled = [c for c in judged.conflicts if c.settlement is not None and judged.winner in c.settlement.winners]
    if not settled:
        return None
    s = settled[0].settlement
    assert s is not None
    losers = "; ".join(e.describe() for e in s.losers)
    return Violation(f"{judged.winner.describe()}; it clashes with {losers}, settled by {s.describe()}",
                     expected=f"no {words}", actual=words)


# =========================================================================== conflicts met in a replay


def effects_in_force(state: BattleMonstersState) -> list[Effect]:
    """Every card's "can" and "cannot" in force now, on each card or player it speaks of.

    An effect that speaks of a turn ("on the turn it is revealed") is in force on the turn
    its card was summoned or revealed; with a "can attack" on that turn comes the manual's
    ban (BM.subactions.attack.timing, BM.monster.reveal_turn) that it lifts. Effects that
    depend on the other card of the move ("cannot be attacked by dragon monsters", "can
    only be attacked by ...") are judged with the move (:func:`judge`), not listed here.
    """
    return _as_effects(*_in_force(state, B.statics(state)))


InForce = tuple["Static", str, "OnField | None", "str | None", str, "str | None"]
"""One "can" or "cannot" on one subject: (static, kind, card, player, action, turn word)."""


def _in_force(state: BattleMonstersState, statics: Sequence[Static]) -> tuple[list[InForce], list[tuple[OnField, str]]]:
    """What :func:`effects_in_force` lists, before it is put in words: each effect on each
    subject, and the manual's bans (card, ``when``) that a "can attack" lifts."""
    out: list[InForce] = []
    manual: list[tuple[OnField, str]] = []
    for static in statics:
        step = static.step
        if isinstance(step, N.Cannot):
            kind, actions = "cant", step.actions
        elif isinstance(step, N.Can) and not step.only:
            kind, actions = "can", (step.action,)
        else:
            continue
        if step.by is not None:
            continue
        sel = step.subject
        subjects: list[tuple[OnField | None, str | None]] = []
        if "player" in sel.kinds:
            subjects = [(None, p) for p in B.who(state, static.ctx.controller, sel.owner, static.ctx.holder)]
        elif sel.quantifier == "this":  # only its own card matches: the holder of an effect in force is on the field (or gone: None)
            fc = static.ctx.holder
            subjects = [(fc, None)] if fc is not None and B._filters(state, sel, fc, static.ctx) else []
        elif sel.quantifier not in ("the", "it"):
            subjects = [(fc, None) for fc in state.on_field() if B.matches(state, sel, fc, static.ctx)]
        when = step.when if step.when in TURN_WORDS else None
        for fc, player in subjects:
            if when is not None and (fc is None or not B._when_ok(state, when, fc)):
                continue  # a "can" or "cannot" of the turn it was summoned or revealed: in force on that turn
            for action in actions:
                out.append((static, kind, fc, player, action, when))
                if kind == "can" and action == "attack" and when in MANUAL and fc is not None:
                    manual.append((fc, when))
    return out, manual


def _signature(items: list[InForce], manual: list[tuple[OnField, str]]) -> frozenset[tuple[str, Any]]:
    """The ids (and ages) of the effects :func:`_as_effects` would make, without making them."""
    ids: set[tuple[str, Any]] = {(f"{_key(static)}:{kind} {_topic(action, when)}>{_subject(fc, player)[0]}", static.stamp)
                                 for static, kind, fc, player, action, when in items}
    ids.update((f"rules {MANUAL[when]}>{_subject(fc, None)[0]}", None) for fc, when in manual)
    return frozenset(ids)


def _as_effects(items: list[InForce], manual: list[tuple[OnField, str]]) -> list[Effect]:
    out = [effect_of(static, kind, _subject(fc, player), action, when) for static, kind, fc, player, action, when in items]
    rules: dict[str, Effect] = {}
    for fc, when in manual:
        rule = manual_effect(fc, when)
        rules.setdefault(rule.id, rule)
    return out + list(rules.values())


def steady(state: BattleMonstersState) -> bool:
    """Whether what :func:`conflicts_met` reads past ``board.may_allow`` hangs only on the board
    (which cards are on the field, face up, nullified or fused, the lasting effects) and the turn
    (whose it is, which it is): the database is tame, and every "can" or "cannot" that the cards
    on the field or the lasting effects can give is plain or under a condition on whose turn it
    is or on the card's own stance on the field (face up or not), and speaks of cards by what
    they are and where (not by their mode, their points or the battle)."""
    profile = state.profile
    if profile is None or not profile.ok:
        return False
    helds = B._helds(state)
    if helds is None:
        return False
    for held in helds:
        if "permissions" in held.present:
            for entry in held.of_sort("permissions"):
                if not _steady_entry(entry):
                    return False
    return all(_steady_step(lasting.step) for lasting in state.lasting)


def _steady_entry(entry: Any) -> bool:
    """Whether one kept entry of a card's always-on abilities (``board.Passives``) is steady: worked
    out once per printed step or condition (the steps of every card of the same text are shared)."""
    kind = type(entry)
    if kind is B.Static:
        step = entry.step
        known = _STEADY.get(id(step))
        if known is None or known[0] is not step:
            known = _STEADY[id(step)] = (step, _steady_step(step))
        return known[1]
    if kind is B.Conditional:
        cond = entry.condition
        known = _STEADY.get(id(cond))
        if known is None or known[0] is not cond:
            known = _STEADY[id(cond)] = (cond, _steady_condition(cond))
        return known[1] and all(_steady_entry(s) for s in entry.then)
    return False  # a nested condition, unfolded on each reading


_STEADY: dict[int, tuple[Any, bool]] = {}
"""A printed step or condition (by identity, kept alive here) -> whether it is steady (:func:`steady`)."""


def _steady_step(step: Any) -> bool:
    if isinstance(step, N.Cannot):
        return step.by is not None or _steady_cards(step.subject)  # one "by" another card is not read here
    if isinstance(step, N.Can):
        return step.only or step.by is not None or _steady_cards(step.subject)
    return True  # not a "can" or "cannot": not read here


def _steady_condition(cond: Any) -> bool:
    if isinstance(cond, N.TurnOf):
        return True  # whose turn it is
    if isinstance(cond, N.Present) and cond.what.quantifier == "this":
        return _steady_cards(cond.what)  # the card's own stance
    return False


def _steady_cards(sel: Any) -> bool:
    """Whether a selector reads only what a card is (its kind, owner, printed parts) and its place
    and face on the field: not its mode, points or part in a battle."""
    return sel.mode is None and sel.stat is None and sel.state is None and sel.zone in (None, "field")


def conflicts_met(state: BattleMonstersState, memo: dict[str, Any]) -> list[Ruling]:
    """Findings for clashes between effects in force not reported yet (see the module docstring).

    A clash needs a card's "can" in force on some subject (a "cannot" against a "cannot"
    never clashes): the "can"s are looked at first, and nothing more is done without one.
    The effects are then compared with those of the last call that got that far by their
    ids: when nothing changed, they are not put in words at all (a clash met before is
    never reported twice, so comparing with an older call changes no finding).

    The verifier asks only after events that moved ``state.conflicts_clock`` (the game's
    ``conflicts_stamp``): what is read up to ``board.may_allow`` moves it as it changes; a call
    that reads further moves it itself, unless what it reads is steady (:func:`steady`): then
    it has the board's changes and the turn's move it (``state.watching``).
    """
    if state.stage != "turn":
        return []
    try:
        if not B.may_allow(state):
            state.watching = False
            return []  # no card's "can" can be in force, whatever the conditions say
        with B.Reading(state):
            # What follows hangs on more than may_allow reads: on the board and the turn alone when it
            # is steady, else on conditions nearly any event may change: then ask again after the next
            # event (BattleMonstersState.conflicts_clock).
            state.watching = watching = steady(state)
            if not watching:
                state.changed("reading")
            statics = B.statics(state, "permissions")  # _in_force reads only the "can"s and "cannot"s
            cans = [s for s in statics if isinstance(s.step, N.Can)]
            if not cans or not _in_force(state, cans)[0]:
                return []  # a clash needs a card's "can" in force on some subject (against a "cannot" or the manual)
            items, manual = _in_force(state, statics)
    except B.Unmodelled:
        return []
    signature = _signature(items, manual)
    if memo.get("effects") == signature:
        return []
    memo["effects"] = signature
    effects = _as_effects(items, manual)
    if not could_interact(effects, POLICY):
        return []
    resolution = resolve(effects, POLICY)
    seen: set[Any] = memo.setdefault("seen", set())
    rulings = []
    for conflict in resolution.conflicts:
        key = (conflict.key, conflict.settlement.rule if conflict.settlement else None)
        if key in seen:
            continue
        seen.add(key)
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
        return Ruling(None, Violation(f"a gap in the rules: no precedence rule of Battle Monsters settles the clash of {effects}",
                                      expected="a rule deciding which effect applies", actual="effects that cannot all apply",
                                      severity="unverifiable"), "conflicts")
    return Ruling(s.rule, Violation(f"effects in force clash: {effects}; settled by {s.describe()}",
                                    expected="applies: " + "; ".join(e.describe() for e in s.winners),
                                    actual="gives way: " + "; ".join(e.describe() for e in s.losers),
                                    severity="info"), "conflicts")
