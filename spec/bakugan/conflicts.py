"""How Bakugan settles clashing effects (rule 1.3, "The Ultimate Rules").

Two rules of the book decide, tried in this order:

1. **1.3/3.2** a can't overrides anything that would otherwise happen: a card's can't
   prevails over any can or must, of a card or of the rules;
2. **1.3/3.1** card text overrides the basic rules it contradicts (a rule's limit gives
   way to a card's grant).

The can't of a card is tried first because 3.2 speaks of *anything*; a can't of the
rules (a limit) against a card's permission is a contradiction of card text and rules,
which 3.1 gives to the card. Two card effects that are neither a can't against a can
(two settings of one base value, say) are left open by the book: a gap.

Card text becomes effects through the shared templates plus the game's own nodes:
a base value set (:class:`~grammar.bakugan_nodes.SetStat`, rules 2.9.3 and 2.10.3) is a
``set_base``, a destroy a must-be-destroyed, the reroll keyword ("you may Reroll this if
you miss") a can of Reroll for its own Bakugan; BakuCore-icon statics are always on.

In a replay (``docs/bakugan-decisions.rst``, decision 30) the verifier meets conflicts
in two ways. Effects in force together that clash (a Hero's "Opposing Bakugan can't
Reroll" and a Bakugan's reroll keyword; two base values set on one Bakugan) are found
after each event (:func:`conflicts_met`; z3 only once the cheap pre-filter
:func:`spec.core.conflicts.could_interact` says two effects could clash) and listed as
``info`` findings, once each. A move that only a settled clash makes legal or illegal, a
reroll, is judged by asking the policy (:func:`judge_reroll`): the rules' one roll
(5.5.1) against the keyword's permission, which 1.3/3.1 gives to the card, and a card's
can't against that permission, which 1.3/3.2 gives to the can't; the ``reroll`` checks
cite those rules and :func:`move_notes` lists how the clash was settled. A reroll an
effect asks for is skipped under a prevailing can't (:func:`prohibited`, 1.3/3.4). A
clash no rule settles, or a z3 call that runs out, is ``unverifiable``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final

from grammar import ast as A
from grammar import bakugan_nodes as N
from spec.bakugan import board as B
from spec.core.cards import CardDef
from spec.core.conflicts import (
    CAN_SIDE,
    CANT_SIDE,
    Conflict,
    Decision,
    Effect,
    Policy,
    Precedence,
    Resolution,
    Template,
    card_over_rules,
    could_interact,
    resolve,
    shared_templates,
    walk_steps,
)
from spec.core.findings import Violation
from spec.core.game import Ruling

if TYPE_CHECKING:  # pragma: no cover - typing only
    from spec.bakugan.state import Bakugan, BakuganState

RULE_CARD_OVER_RULES: Final = "bakugan:1.3/3.1"
RULE_CANT_OVERRIDES: Final = "bakugan:1.3/3.2"


def _cant_overrides(core: Sequence[Effect]) -> Decision | None:
    """1.3/3.2: a card's can't prevails over every can or must, of cards or of the rules."""
    cants = [e for e in core if e.kind in CANT_SIDE and e.origin == "card"]
    cans = tuple(e for e in core if e.kind in CAN_SIDE)
    if not cants or not cans or len(cants) + len(cans) != len(core):
        return None
    return Decision(cans, "the can't of " + ", ".join(sorted({e.source for e in cants})) + " overrides "
                    + ", ".join(sorted({e.describe() for e in cans})))


CANT_OVERRIDES: Final = Precedence(RULE_CANT_OVERRIDES, "a can't overrides anything", "a card's can't prevails over any can or must", _cant_overrides)
CARD_OVER_RULES: Final = card_over_rules(RULE_CARD_OVER_RULES)


def _owner(sel: Any) -> str:
    owner = getattr(sel, "owner", None)
    return "opponent" if owner == "opponent" else "each" if owner in ("each", "any") else "you"


class BakuganPolicy(Policy):
    """The Bakugan precedence policy (see the module docstring)."""

    game: str = "bakugan"
    precedence: tuple[Precedence, ...] = (CANT_OVERRIDES, CARD_OVER_RULES)

    def is_static(self, card: CardDef, ability: Any) -> bool:
        return isinstance(ability, A.Passive | N.CoreStatic)

    def object_kind(self, selector_type: str) -> str:
        return "player" if selector_type == "player" else "Bakugan" if selector_type in ("Bakugan", "Character", "Evo") else "card"

    def templates(self, card: CardDef, tree: A.CardText) -> list[Template]:
        out = shared_templates(card, tree, self)
        for index, ability in enumerate(tree.abilities):
            if isinstance(ability, A.Keyword) and ability.name == REROLL_KEYWORD:
                out.append(Template("can", REROLL, "you", self.object_kind(card.type), static=True, ability=index, this=True,
                                    text="this Bakugan may be rerolled after a missed roll"))
            static = self.is_static(card, ability)
            for step in walk_steps(getattr(ability, "effect", ()) or ()):
                if isinstance(step, N.SetStat) and isinstance(step.value, int):
                    out.append(Template("set_base", step.stat, _owner(step.target), self.object_kind(step.target.type), step.value,
                                        static=static, ability=index, text=f"the base {step.stat} becomes {step.value}"))
                elif isinstance(step, N.Destroy):
                    out.append(Template("must", "be destroyed", _owner(step.what), self.object_kind(step.what.type), static=False,
                                        ability=index, text=f"{step.what.describe()} is destroyed"))
        return out

    def listens(self, ability: Any) -> set[str]:
        if isinstance(ability, N.Rider) and ability.trigger is not None:
            return {ability.trigger.event}
        return super().listens(ability)


POLICY: Policy = BakuganPolicy()
"""The Bakugan policy (``spec.core.conflicts.policy_for("bakugan")``; tests swap in :meth:`Policy.without` copies)."""

REROLL: Final = "Reroll"
"""The action a reroll keyword permits and "can't Reroll" forbids (the grammar's ``can_action``)."""
REROLL_KEYWORD: Final = "reroll_on_miss"
ONE_ROLL: Final = "bakugan:5.5.1"
"""The rule that rolls a selected Bakugan once, more only when a reroll or a double miss calls for it."""


# =========================================================================== effects in force


def subject(player: str, bakugan: str) -> str:
    """How a Bakugan is named as the subject of an effect: ``alice's Vesperhorn``."""
    return f"{player}'s {bakugan}"


def _statics(state: BakuganState) -> Iterator[tuple[str, str, str, int, Any, tuple[str, str] | None, tuple[Any, ...], Any]]:
    """(controller, source name, source key, ability index, ability, own Bakugan, steps, condition) of every always-on ability in play.

    The top card of each Bakugan's pile (3.3.3): its statics, its BakuCore statics while it
    holds such a BakuCore (6.5.2.1), its riders without a moment, its keywords; then each
    Hero's statics (6.5.3.p2). Which abilities of a card these can be is read once per card
    (:func:`_always_on`).
    """
    for player, bak in B.all_bakugan(state):
        top = bak.top
        if top.name is None:
            continue
        key = f"{top.name}#{top.uid}"
        own = (player, bak.name)
        held: set[str] | None = None
        for index, ability, cores in _always_on(state, top.name)[0]:
            if cores is not None:  # a BakuCore static
                if held is None:
                    held = {state.field_cores[s][0] for s in bak.holding if s in state.field_cores}
                if held & cores:
                    yield player, top.name, key, index, ability, own, ability.effect, None
            elif isinstance(ability, A.Keyword):
                yield player, top.name, key, index, ability, own, (), None
            else:
                yield player, top.name, key, index, ability, own, ability.effect, ability.condition
    for player in state.players:
        for hero in state.sides[player].heroes:
            if hero.name is None:
                continue
            for index, ability, _cores in _always_on(state, hero.name)[1]:
                yield player, hero.name, f"{hero.name}#{hero.uid}", index, ability, None, ability.effect, ability.condition


def _always_on_a_pile(ability: Any) -> bool:
    """A static, a rider without a moment (but Victor), or the reroll keyword."""
    if isinstance(ability, A.Passive) or isinstance(ability, N.Rider) and ability.keyword != "Victor" and ability.trigger is None:
        return True
    return isinstance(ability, A.Keyword) and ability.name == REROLL_KEYWORD


_AlwaysOn = tuple[tuple[int, Any, frozenset[str] | None], ...]


def _always_on(state: BakuganState, name: str) -> tuple[_AlwaysOn, _AlwaysOn]:
    """The abilities of a card that :func:`_statics` can find in force: (printed index, ability, the
    BakuCore icons a BakuCore static asks for, else ``None``), on the top of a pile and on a Hero.

    On a pile: BakuCore statics, statics, riders without a moment (but Victor), the reroll
    keyword; on a Hero: its statics. Read once per card of the database; a text that does not
    read raises :class:`~spec.bakugan.board.Unmodelled`, each time it is asked for.
    """
    cache: dict[str, tuple[_AlwaysOn, _AlwaysOn]] | None = state.cards.__dict__.get("_bakugan_always_on")
    if cache is None:
        cache = state.cards.__dict__["_bakugan_always_on"] = {}
    found = cache.get(name)
    if found is None:
        pile: list[tuple[int, Any, frozenset[str] | None]] = []
        hero: list[tuple[int, Any, frozenset[str] | None]] = []
        for index, ability in enumerate(B.text_of(state, name).abilities):
            if isinstance(ability, N.CoreStatic):
                pile.append((index, ability, frozenset(ability.cores)))
            elif _always_on_a_pile(ability):
                pile.append((index, ability, None))
            if isinstance(ability, A.Passive):
                hero.append((index, ability, None))
        found = cache[name] = (tuple(pile), tuple(hero))
    return found


PRODUCES: Final = (A.Prohibit, A.Permit, A.Immune)
"""The steps of an always-on ability that put a can, a can't or an immunity in force: read
here, never run as steps."""


_Producing = tuple[tuple[int, Any, frozenset[str] | None, tuple[Any, ...]], ...]


def _producing(state: BakuganState, name: str) -> tuple[_Producing, _Producing]:
    """The always-on abilities of a card (:func:`_always_on`) that can put an effect in force, on the
    top of a pile and on a Hero: each with its steps that make a can, a can't or an immunity
    (the reroll keyword, which makes a can by itself, with none).

    The others never make an effect of :func:`effects_in_force`: a card printing none of these
    costs one look-up. Read once per card of the database; a text that does not read raises
    :class:`~spec.bakugan.board.Unmodelled`, each time it is asked for (:func:`_always_on`).
    """
    cache: dict[str, tuple[_Producing, _Producing]] | None = state.cards.__dict__.get("_bakugan_producing")
    if cache is None:
        cache = state.cards.__dict__["_bakugan_producing"] = {}
    found = cache.get(name)
    if found is None:
        pile, hero = _always_on(state, name)
        found = cache[name] = (
            tuple((index, ability, cores, () if isinstance(ability, A.Keyword) else wanted) for index, ability, cores in pile
                  if isinstance(ability, A.Keyword) or (wanted := tuple(s for s in ability.effect if isinstance(s, PRODUCES)))),
            tuple((index, ability, cores, wanted) for index, ability, cores in hero
                  if (wanted := tuple(s for s in ability.effect if isinstance(s, PRODUCES)))))
    return found


def effects_in_force(state: BakuganState, memo: dict[str, Any] | None = None) -> list[Effect]:
    """Every can, can't and immunity of a card in play, every reroll keyword, and each base value set this turn.

    A Bakugan is a subject of its own (``alice's Vesperhorn``); a player is one too. A
    static whose condition does not hold now is not in force; one whose condition the spec
    cannot test is left out (the move it would decide is judged without it). The abilities
    are those :func:`_statics` finds, in its order, less those that make no effect (:func:`_producing`).
    """
    out: list[Effect] = []
    for player, bak in [(p, b) for p in state.turn_order for b in state.sides[p].team.values()]:  # B.all_bakugan
        top = bak.evos[-1] if bak.evos else bak.character  # bak.top
        if top.name is None:
            continue
        producing = _producing(state, top.name)[0]
        if not producing:
            continue
        name = top.name
        key = f"{name}#{top.uid}"
        own = (player, bak.name)
        source = f"{name} ({player})"
        held: set[str] | None = None
        for index, ability, cores, wanted in producing:
            if cores is not None:  # a BakuCore static: in force while its Bakugan holds such a BakuCore (6.5.2.1)
                if held is None:
                    held = {state.field_cores[s][0] for s in bak.holding if s in state.field_cores}
                if not held & cores:
                    continue
                condition = None
            elif isinstance(ability, A.Keyword):
                who = subject(*own)
                out.append(Effect(f"{key}/reroll>{who}", "can", who, REROLL, 0, source, "card", player, key,
                                  text=f"{who} may be rerolled after a missed roll"))
                continue
            else:
                condition = ability.condition
            _put_in_force(state, memo, out, player, source, key, own, index, wanted, condition)
    for player in state.players:
        for hero in state.sides[player].heroes:
            if hero.name is None:
                continue
            producing = _producing(state, hero.name)[1]
            if not producing:
                continue
            key = f"{hero.name}#{hero.uid}"
            source = f"{hero.name} ({player})"
            for index, ability, _cores, wanted in producing:
                _put_in_force(state, memo, out, player, source, key, None, index, wanted, ability.condition)
    for number, change in enumerate(state.lasting):
        if change.base:
            who = subject(change.player, change.bakugan)
            source = change.source or "an effect"
            out.append(Effect(f"lasting{number}>{who}|{change.stat}", "set_base", who, change.stat, change.amount, source, "card",
                              None, None, (), None, False, False, None,
                              f"the base {change.stat} of {who} is {change.amount} this turn"))
    return out


def _put_in_force(state: BakuganState, memo: dict[str, Any] | None, out: list[Effect], player: str, source: str, key: str,
                  own: tuple[str, str] | None, index: int, wanted: tuple[Any, ...], condition: Any) -> None:
    """The effects of one always-on ability's steps ``wanted`` go to ``out``, if its condition holds now."""
    if condition is not None:
        if memo is not None:
            memo["conditional"] = True
        try:
            if not B.condition_holds(state, player, condition, {"self": own}):
                return
        except B.Unmodelled:
            return
    for number, step in enumerate(wanted):
        out.extend(_step_effects(state, player, source, key, own, f"{key}/{index}.{number}", step))


def _subjects(state: BakuganState, controller: str, sel: A.Selector, own: tuple[str, str] | None) -> list[str]:
    if sel.type == "player":
        return B.owner_of(state, controller, sel.owner or "you")
    if sel.quantifier in ("this", "the") and sel.owner is None and sel.team is None:
        return [subject(*own)] if own is not None else []
    if sel.quantifier in ("all", "each"):
        return [subject(p, b.name) for p, b in B.all_bakugan(state) if B.bakugan_matches(state, controller, sel, p, b)]
    return []


def _step_effects(state: BakuganState, player: str, source: str, key: str, own: tuple[str, str] | None, ident: str,
                  step: Any) -> list[Effect]:
    def make(kind: str, who: str, topic: str, text: str) -> Effect:
        return Effect(f"{ident}>{who}", kind, who, topic, 0, source, "card", player, key, (), None,  # type: ignore[arg-type]
                      True, False, None, text)

    if isinstance(step, A.Prohibit):
        return [make("cant", who, step.action, f"{who} can't {step.action}") for who in _subjects(state, player, step.subject, own)]
    if isinstance(step, A.Permit):
        if step.action in ("use this any number of times", "draw an additional card each turn"):
            return []  # read where they are used (activations, the Draw step)
        return [make("can", who, step.action, f"{who} can {step.action}") for who in _subjects(state, player, step.subject, own)]
    if isinstance(step, A.Immune):
        return [make("cant", who, f"be {step.to}", f"{who} is immune to {step.to}") for who in _subjects(state, player, step.target, own)]
    return []


# =========================================================================== conflicts met in a replay


def conflicts_met(state: BakuganState, memo: dict[str, Any]) -> list[Ruling]:
    """Findings for clashes between effects in force not reported yet (see the module docstring)."""
    if state.stage != "turn":
        return []
    if memo.get("stamp") == state.in_play:  # nothing in play changed since the last event: most events
        return []
    if not memo.get("conditional"):
        memo["stamp"] = state.in_play
        quick = in_play_key(state)
        if memo.get("quick") == quick:
            return []  # nothing entered or left play, no base value was set
        memo["quick"] = quick
    try:
        effects = effects_in_force(state, memo)
    except Exception:  # noqa: BLE001 - an unreadable card is reported where it is used
        return []
    finally:
        if memo.get("conditional"):  # a static with a condition was met: what is in force is read after every event from now on
            memo["stamp"] = None
            state.effects_may_change()  # the verifier read the clock before this call: it asks again after the next event
    signature = frozenset(e.id for e in effects)
    if memo.get("effects") == signature:
        return []
    memo["effects"] = signature
    policy = POLICY
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


def _holding_counts(state: BakuganState, name: str | None) -> bool:
    """Whether the BakuCores a Bakugan holds can change the effects in force while ``name`` tops its pile:
    the card has a BakuCore static that makes a can, a can't or an immunity (:func:`_producing`); a text
    that does not read counts."""
    if name is None:
        return False
    try:
        return any(cores is not None for _index, _ability, cores, _wanted in _producing(state, name)[0])
    except B.Unmodelled:
        return True


def holding_changed(state: BakuganState, bak: Bakugan) -> None:
    """``bak`` took or let go of BakuCores: a new ``in_play`` stamp where they can change the effects
    in force (:func:`_holding_counts`); elsewhere the key of what is in play leaves them out
    (:func:`in_play_key`), and the stamp, with the conflicts' clock, stays."""
    if _holding_counts(state, bak.top.name):
        state.in_play_changed(sources=False)


def in_play_key(state: BakuganState) -> tuple[list[tuple[str, str, int, tuple[int, ...]]], list[int], list[tuple[str, str, str, int]]]:
    """What is in play as far as effects in force go, compared by :func:`conflicts_met` from event
    to event: each Bakugan's top card and the BakuCores it holds (where they count, :func:`_holding_counts`),
    the Heroes, the base values set.

    Read only after an event that took a new ``in_play`` stamp (:meth:`BakuganState.in_play_changed`):
    while the stamp stays, so does this key."""
    team: list[tuple[str, str, int, tuple[int, ...]]] = []
    heroes: list[int] = []
    for player in state.players:
        side = state.sides[player]
        for bak in side.team.values():
            evos = bak.evos
            top = evos[-1] if evos else bak.character
            team.append((player, bak.name, top.uid, (*bak.holding,) if bak.holding and _holding_counts(state, top.name) else ()))
        for hero in side.heroes:
            heroes.append(hero.uid)
    return team, heroes, [(x.player, x.bakugan, x.stat, x.amount) for x in state.lasting if x.base] if state.lasting else []


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


def _undecided(resolution: Resolution, relevant: list[Conflict]) -> Violation | None:
    if resolution.undecided:
        return Violation(resolution.undecided, expected="a decided clash", actual="undecided", severity="unverifiable")
    gaps = [c for c in relevant if c.settlement is None]
    if gaps:
        return Violation("a gap in the rules: no precedence rule settles the clash of " + gaps[0].describe(),
                         expected="a rule deciding which effect applies", actual="effects that cannot all apply",
                         severity="unverifiable")
    return None


def one_roll(player: str, bakugan: str) -> Effect:
    """The rules' own can't: a selected Bakugan is rolled once, unless an effect calls for more (5.5.1)."""
    who = subject(player, bakugan)
    return Effect(f"rules 5.5.1>{who}", "cant", who, REROLL, origin="rule", rule=ONE_ROLL,
                  text=f"{who} is not rolled again unless an effect calls for it")


def judge_reroll(state: BakuganState, player: str, bakugan: str) -> tuple[Violation | None, str | None, list[Conflict]]:
    """A reroll by the keyword of ``player``'s ``bakugan``: (what is wrong, the rule it breaks, the conflicts met).

    The rules' one roll, the keyword's permission and every can't in force go to the
    policy: the reroll is legal when the permission prevails. When a card's can't prevails
    it breaks 1.3/3.2; when the rules' one roll does, 1.3/3.1 (the card text did not win);
    a gap, or a z3 call that runs out, is unverifiable (rule ``None``).
    """
    who = subject(player, bakugan)
    rule = one_roll(player, bakugan)
    effects = [*effects_in_force(state), rule]
    resolution = resolve(effects, POLICY)
    relevant = [c for c in resolution.conflicts if any(e.subject == who and e.topic == REROLL for e in c.effects)]
    problem = _undecided(resolution, relevant)
    if problem is not None:
        return problem, None, relevant
    grants = [e for e in effects if e.subject == who and e.topic == REROLL and e.kind in CAN_SIDE]
    if any(e in resolution.prevailing for e in grants):
        return None, None, relevant
    cants = [e for e in resolution.prevailing if e.subject == who and e.topic == REROLL and e.kind in CANT_SIDE]
    settled = [c for c in relevant if c.settlement is not None and c.settlement.losers and any(e in c.settlement.losers for e in grants)]
    how = f"; settled by {settled[-1].settlement.describe()}" if settled else ""  # type: ignore[union-attr]
    card = [e for e in cants if e.origin == "card"]
    if card:
        return (Violation(f"{card[0].describe()}: it overrides the reroll {bakugan}'s text allows{how}",
                          expected=f"no reroll of {bakugan}", actual=f"a reroll by {player}"), RULE_CANT_OVERRIDES, relevant)
    return (Violation(f"{rule.describe()}{how}", expected=f"no reroll of {bakugan}", actual=f"a reroll by {player}"),
            RULE_CARD_OVER_RULES, relevant)


def prohibited(state: BakuganState, player: str, bakugan: str, action: str, source: str) -> bool:
    """Whether a card's can't in force keeps an effect of ``source`` from making ``player``'s ``bakugan`` do ``action``.

    The effect's instruction is a must of the card; a can't that prevails (1.3/3.2) makes
    it one that cannot be carried out, which is skipped (1.3/3.4). A gap raises
    :class:`~spec.bakugan.board.Unmodelled` (the verifier reports it unverifiable).
    """
    who = subject(player, bakugan)
    effects = effects_in_force(state)
    if not any(e.kind in CANT_SIDE and e.subject == who and e.topic == action for e in effects):
        return False  # the cheap test: no can't of this action in force
    must = Effect(f"effect of {source}>{who}", "must", who, action, 0, source, "card", player, text=f"{who} must {action}")
    resolution = resolve([*effects, must], POLICY)
    relevant = [c for c in resolution.conflicts if any(e.subject == who and e.topic == action for e in c.effects)]
    problem = _undecided(resolution, relevant)
    if problem is not None:
        raise B.Unmodelled(problem.message)
    return must not in resolution.prevailing


def move_notes(state: BakuganState, ev: Any, kind: str) -> list[Ruling]:
    """``info`` findings for a legal move that a settled clash made legal (called before it is applied)."""
    if kind != "reroll" or ev.by is None:
        return []
    problem, _rule, conflicts = judge_reroll(state, ev.by, ev.bakugan)
    if problem is not None:
        return []
    return [conflict_ruling(c) for c in conflicts if c.settlement is not None and any(e.origin == "rule" for e in c.effects)]
