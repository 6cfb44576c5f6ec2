"""Conflicts between effects in force: the z3 encoding, and the policy protocol that settles them.

A *conflict* is a set of effects that cannot all hold at once: a can't against a can
(or a must), two settings of one stat, a limit against a grant of extra plays, a cap
against a total, a negation against the abilities it removes. Each game states its
effects in game-neutral terms (:class:`Effect`), and this module

1. encodes them as z3 constraints, one tracking literal per effect, over outcome
   variables (is the action allowed, is it required, how many times may it be done,
   what is the stat's value, do the source's abilities apply);
2. asks z3 whether they can all hold; when they cannot, the *unsat core* names the
   effects involved (:meth:`ConflictSolver.check`);
3. hands the core to the game's :class:`Policy`, whose ordered :class:`Precedence`
   rules each cite a rule of the book and say which effects give way; what no rule
   settles is a *gap in the rules* (:func:`resolve`).

z3 stays off the hot path: it is imported only when a check is made, a game calls
:func:`resolve` only when a cheap pre-filter has found two effects in force that could
interact (:func:`could_interact`), one solver is reused with ``push``/``pop``, and every
call has a time limit and a resource limit; a call that runs out is *undecided*, which
a verifier reports as ``unverifiable``, never as legal.

For card designers, :func:`analyse` looks for every pair and small set of cards whose
abilities can clash, in every way the cards can share the table (:class:`Placement`):
z3 finds a witness situation (printed stats, conditions met) in which the effects
cannot all hold, the unsat core there names the effects, and the policy settles them.
:func:`trigger_graph` draws which card's effects can set off which card's triggers, and
its cycles are possible endless loops.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import msgspec

if TYPE_CHECKING:  # pragma: no cover - typing only
    import networkx

    from grammar import ast as A
    from spec.core.cards import CardDef

Kind = Literal["can", "cant", "must", "set", "set_base", "modify", "cap", "floor", "grant", "limit", "negate"]
"""What an effect says.

``can``/``cant``/``must``: a modality of an action (``topic``) for a subject;
``grant``: ``value`` more uses of an action than the rules allow; ``limit``: at most
``value`` uses; ``set``: a stat's total becomes ``value``; ``set_base``: its base value
becomes ``value``; ``modify``: the stat changes by ``value``; ``cap``/``floor``: the
stat's total is at most / at least ``value``; ``negate``: the abilities of the sources
in ``negates`` do not apply.
"""

CANT_SIDE: frozenset[str] = frozenset({"cant", "limit", "cap", "floor"})
"""Kinds that say something *can't* happen (or not beyond a bound)."""
CAN_SIDE: frozenset[str] = frozenset({"can", "must", "grant", "set", "set_base", "modify"})
"""Kinds that say something can or must happen."""
MODALITIES: frozenset[str] = frozenset({"can", "cant", "must"})
COUNTS: frozenset[str] = frozenset({"grant", "limit"})
STATS: frozenset[str] = frozenset({"set", "set_base", "modify", "cap", "floor"})

DEFAULT_TIMEOUT_MS = 10_000
"""Wall-clock limit of one z3 call: a safety net (the resource limit normally stops first)."""
DEFAULT_RLIMIT = 5_000_000
"""z3's deterministic resource limit of every call: the bound a verifier relies on, since
the same input then stops at the same point on every machine (the same report, byte for
byte), where a wall clock depends on the machine's load."""


# =========================================================================== effects


@dataclass(frozen=True)
class Guard:
    """A condition on the situation under which an effect is in force (designer mode).

    ``var`` names a whole-number fact of the situation (``P1 controls a Faerie``,
    ``damage on P1's Neopet``); the effect applies while ``var op value`` holds.
    """

    var: str
    op: Literal[">=", "<=", "=="]
    value: int
    fact: bool = False
    """``var`` is a sentence that holds when the number is 1 or more (``P1 controls a Faerie``)."""


class Effect(msgspec.Struct, frozen=True):
    """One effect in force (or, for designers, that could be), in game-neutral terms.

    A frozen msgspec struct rather than a dataclass: every game builds, hashes and
    compares these at each reading of its effects in force, and a struct does all three
    in C (a frozen dataclass sets each of its fields through ``object.__setattr__`` and
    hashes a tuple of them built in Python).
    """

    id: str
    """Unique within one check: what the effect is and where it comes from."""
    kind: Kind
    subject: str
    """Who or what it speaks of: a player (``alice``) or an object (``alice's Neopet``)."""
    topic: str
    """The action (``play Food``, ``attack``, ``be frozen``) or the stat (``Attack``)."""
    value: int = 0
    source: str = "rules"
    """The card the effect comes from, or ``rules``."""
    origin: Literal["card", "rule"] = "card"
    controller: str | None = None
    source_key: str | None = None
    """The object whose abilities produce the effect (what a negation names)."""
    negates: tuple[str, ...] = ()
    """For ``negate``: the source keys whose abilities it removes."""
    since: Any = None
    """When the effect (its source) came into play; smaller is older; ``None``: unknown."""
    static: bool = True
    """An always-on ability of a card in play (not a lasting result of a resolved effect)."""
    overrides: bool = False
    """The text says that it overrides rules and other effects."""
    rule: str | None = None
    """For an effect of the rules: the rule it states (``<game>:<id>``)."""
    text: str = ""
    """The effect in words, for reports."""
    guard: tuple[Guard, ...] = ()
    aspect: str = ""
    """Set on the part of a general effect that speaks of one action (see :func:`split`)."""

    def describe(self) -> str:
        """The effect in words, with where it comes from."""
        words = self.text or f"{self.subject}: {self.kind} {self.topic}" + (f" {self.value}" if self.kind not in MODALITIES else "")
        if self.aspect:
            words += f" (here: {self.aspect})"
        if self.origin == "rule":
            return f"the rules ({self.rule}): {words}" if self.rule else f"the rules: {words}"
        return f"{self.source}: {words}"


@dataclass(frozen=True)
class Decision:
    """What one precedence rule makes of a conflict: who gives way, and why."""

    losers: tuple[Effect, ...]
    reason: str
    conditional: str | None = None
    """Set when the outcome depends on something the analysis does not know (which card
    entered play first); ``losers`` is then empty and this says how it is decided."""


@dataclass(frozen=True)
class Precedence:
    """One precedence rule of a game: the rule it cites and how it decides a conflict."""

    rule: str
    """The citation, ``<game>:<id>``."""
    name: str
    summary: str
    """In our words, what the rule decides."""
    decide: Callable[[Sequence[Effect]], Decision | None]


@dataclass(frozen=True)
class Settlement:
    """How a game's policy settled one conflict."""

    rule: str
    name: str
    winners: tuple[Effect, ...]
    losers: tuple[Effect, ...]
    reason: str
    conditional: str | None = None

    def describe(self) -> str:
        """One sentence: the rule and what it decides here."""
        return f"{self.rule} ({self.name}): {self.reason}"


@dataclass(frozen=True)
class Conflict:
    """Effects that cannot all hold, and how (or whether) the policy settles them."""

    effects: tuple[Effect, ...]
    settlement: Settlement | None
    """``None``: no rule of the game settles it, a gap in the rules."""
    witness: tuple[str, ...] = ()
    """The situation in which it happens, in words."""

    @property
    def key(self) -> frozenset[str]:
        """What identifies the conflict (the ids of its effects)."""
        return frozenset(e.id for e in self.effects)

    def describe(self) -> str:
        """The effects in words, joined."""
        return "; ".join(e.describe() for e in self.effects)


@dataclass
class Resolution:
    """Every conflict among a set of effects, settled one after the other."""

    conflicts: list[Conflict] = field(default_factory=list)
    prevailing: list[Effect] = field(default_factory=list)
    """The effects left once every settled conflict has been settled."""
    undecided: str | None = None
    """Set when z3 could not decide in its limits: what could not be decided."""

    @property
    def settled(self) -> list[Conflict]:
        return [c for c in self.conflicts if c.settlement is not None]

    @property
    def gaps(self) -> list[Conflict]:
        return [c for c in self.conflicts if c.settlement is None]


# =========================================================================== the policy protocol


class Policy:
    """A game's precedence policy for conflicts, and how its card text becomes effects.

    Subclass per game (``spec/<game>/conflicts.py`` exposes an instance as ``POLICY``):
    set :attr:`game` and :attr:`precedence` (the rules, tried in order), and override
    the hooks a game needs: which action covers which (:meth:`covers`), the rules' own
    limits (:meth:`rule_effects`), stat arithmetic (:meth:`clamp`), how card text
    becomes effect templates (:meth:`templates`), and the events of its triggers.
    """

    game: str = ""
    precedence: tuple[Precedence, ...] = ()
    note: str = ""
    """Shown with every report of a policy that settles nothing (a game without a policy)."""

    # ------------------------------------------------------------------ settling

    def settle(self, conflict: Sequence[Effect]) -> Settlement | None:
        """The first precedence rule that decides the conflict; ``None`` is a gap."""
        for rule in self.precedence:
            decision = rule.decide(conflict)
            if decision is None:
                continue
            if decision.conditional is None and not decision.losers:
                continue
            winners = tuple(e for e in conflict if e not in decision.losers)
            return Settlement(rule.rule, rule.name, winners, decision.losers, decision.reason, decision.conditional)
        return None

    def without(self, *names: str) -> Policy:
        """A copy of this policy without the named precedence rules (for tests and what-ifs)."""
        other = copy.copy(self)  # not through __dict__: a compiled policy has none (spec.compiled)
        other.precedence = tuple(p for p in self.precedence if p.name not in names and p.rule not in names)
        return other

    # ------------------------------------------------------------------ the rules' own arithmetic

    def covers(self, general: str, specific: str) -> bool:
        """Whether a modality of action ``general`` speaks of action ``specific`` too."""
        if general == specific:
            return True
        return general == "play cards" and specific.startswith("play ")

    def base_count(self, topic: str) -> int:
        """How many uses of ``topic`` the rules allow before any grant."""
        return 1

    def clamp(self, stat: str) -> tuple[int | None, int | None]:
        """The bounds the rules clamp a stat's total into (``None``: unbounded)."""
        return (None, None)

    def base_bounds(self, stat: str) -> tuple[int, int]:
        """The printed values a stat may have (for witnesses in designer mode)."""
        return (0, 20)

    def arithmetic_rule(self, stat: str) -> str | None:
        """The rule that computes a stat's total from its base and modifiers."""
        return None

    def rule_effects(self, players: Sequence[str]) -> list[Effect]:
        """Effects the rules themselves state (limits, permissions), for designer checks."""
        return []

    def rules_for(self, effects: Sequence[Effect], players: Sequence[str]) -> list[Effect]:
        """The rules' effects to set beside these card effects (default: every one of :meth:`rule_effects`;
        the caller keeps those that could clash)."""
        return self.rule_effects(players)

    # ------------------------------------------------------------------ card text (designer mode)

    def templates(self, card: CardDef, tree: A.CardText) -> list[Template]:
        """What a card's text says, as effect templates relative to its controller.

        The default reads the shared nodes (:func:`shared_templates`); a game adds its own.
        """
        return shared_templates(card, tree, self)

    def object_kind(self, selector_type: str) -> str:
        """The subject kind a selector's type names (``player`` for players)."""
        return "player" if selector_type == "player" else selector_type

    def placement_ok(self, cards: Sequence[CardDef], controllers: Sequence[int]) -> bool:
        """Whether these cards can be in play together with these controllers (0 or 1)."""
        return True

    def placement_words(self, card: CardDef, player: str) -> str:
        """How a card stands in the situation, in words."""
        return f"{player} has {card.name} in play"

    def is_static(self, card: CardDef, ability: Any) -> bool:
        """Whether an ability is always on while its card is in play."""
        from grammar import ast as A

        return isinstance(ability, A.Passive)

    # ------------------------------------------------------------------ triggers (loops)

    def causes(self, step: Any) -> set[str]:
        """The events a step of an effect can cause (see :data:`STEP_EVENTS`)."""
        return set(STEP_EVENTS.get(type(step).__name__, ()))

    def listens(self, ability: Any) -> set[str]:
        """The events a triggered ability waits for."""
        from grammar import ast as A

        if isinstance(ability, A.Triggered):
            return {ability.trigger.event}
        return set()


class NoPolicy(Policy):
    """The policy of a game that has none yet: every conflict is reported as unsettled."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.note = f"{game} has no precedence policy yet: its conflicts are reported unsettled"


STEP_EVENTS: dict[str, tuple[str, ...]] = {
    "Draw": ("drawn",), "Discard": ("discarded",), "Deal": ("dealt_damage",), "Attach": ("attached",),
    "Roll": ("rolled",), "Freeze": ("frozen",), "Abandon": ("knocked_out",),
    "Scrap": ("scrapped",), "Search": ("searched",), "Shuffle": ("shuffled",), "Heal": ("healed",),
    "Send": ("sent",), "Reveal": ("revealed",), "Transform": ("transformed",),
}
"""Events the shared steps cause, named as the shared :class:`~grammar.ast.Trigger` names them."""


# =========================================================================== templates (designer mode)


@dataclass(frozen=True)
class Template:
    """An effect a card's text states, relative to the card's controller."""

    kind: Kind
    topic: str
    owner: str
    """``you``, ``opponent`` or ``each``: whose subject, from the controller's side."""
    of: str = "player"
    """The subject's kind: ``player`` or an object kind (``Neopet``)."""
    value: int = 0
    static: bool = True
    overrides: bool = False
    text: str = ""
    ability: int = 0
    guard: tuple[Guard, ...] = ()
    negates: tuple[tuple[str, str], ...] = ()
    """For ``negate``: ``(owner, kind)`` of the objects whose abilities it removes."""
    this: bool = False
    """The subject is the card itself (``this card``, ``%NAME``)."""

    def subjects(self, controller: str, players: Sequence[str], card: str = "") -> list[str]:
        """The concrete subjects for a controller (the card's own name for ``this``)."""
        if self.this:
            return [subject_name(controller, card)]
        other = players[1] if controller == players[0] else players[0]
        owners = {"you": [controller], "opponent": [other], "each": list(players)}.get(self.owner, [controller])
        return [subject_name(p, self.of) for p in owners]


def subject_name(player: str, kind: str) -> str:
    """How a subject is named: the player, or ``<player>'s <kind>``."""
    return player if kind == "player" else f"{player}'s {kind}"


def _owner(who: str | None) -> str:
    if who in ("opponent",):
        return "opponent"
    if who in ("each", "any"):
        return "each"
    return "you"


_UNTIL = {"end_of_turn": "until end of turn", "your_next_turn": "until its controller's next turn",
          "end_of_round": "until end of round", "next_battle_phase": "during the next Battle Phase",
          "this_phase": "this phase", "permanent": ""}


def _duration_words(duration: Any) -> str:
    if duration is None:
        return ""
    until = str(getattr(duration, "until", ""))
    words = _UNTIL.get(until, "until " + until.replace("_", " "))
    return " " + words if words else ""


def shared_templates(card: CardDef, tree: A.CardText, policy: Policy) -> list[Template]:
    """Templates for the steps every game shares: can't, can, immune, stat changes, negations.

    Steps of always-on abilities are static; steps of spells, triggered and activated
    abilities are lasting results (``static=False``), which is how they are in force
    once they have happened.
    """
    from grammar import ast as A

    out: list[Template] = []
    for index, ability in enumerate(tree.abilities):
        static = policy.is_static(card, ability)
        effect = getattr(ability, "effect", ())
        for step in walk_steps(effect):
            out.extend(step_templates(step, static, index, policy, A))
    return out


def walk_steps(steps: Iterable[Any]) -> Iterator[Any]:
    """Every step, with the steps nested in ``if``, ``you may`` and game containers."""
    for step in steps:
        yield step
        for name in ("then", "otherwise", "steps", "effect"):
            inner = getattr(step, name, None)
            if isinstance(inner, tuple):
                yield from walk_steps(inner)


def step_templates(step: Any, static: bool, index: int, policy: Policy, A: Any) -> list[Template]:
    """The templates of one shared step (an empty list for steps that state no effect in force)."""
    this = getattr(getattr(step, "subject", None) or getattr(step, "target", None) or getattr(step, "to", None), "quantifier", "") == "this"
    if isinstance(step, A.Prohibit):
        kind = policy.object_kind(step.subject.type)
        return [Template("cant", step.action, _owner(step.subject.owner), kind, static=static, ability=index, this=this,
                         text=f"{_whose(step.subject)} can't {step.action}{_duration_words(step.duration)}")]
    if isinstance(step, A.Permit):
        kind = policy.object_kind(step.subject.type)
        if step.action == "play an additional card":
            return [Template("grant", "play a card", _owner(step.subject.owner), kind, 1, static=static, ability=index, this=this,
                             text=f"{_whose(step.subject)} may play an additional card{_duration_words(step.duration)}")]
        return [Template("can", step.action, _owner(step.subject.owner), kind, static=static, ability=index, this=this,
                         text=f"{_whose(step.subject)} can {step.action}{_duration_words(step.duration)}")]
    if isinstance(step, A.Immune):
        kind = policy.object_kind(step.target.type)
        return [Template("cant", f"be {step.to}", _owner(step.target.owner), kind, static=static, ability=index, this=this,
                         text=f"{_whose(step.target)} is immune to {step.to}")]
    if isinstance(step, A.Freeze):
        kind = policy.object_kind(step.target.type)
        return [Template("must", "be frozen", _owner(step.target.owner), kind, static=False, ability=index, this=this,
                         text=f"{_whose(step.target)} is frozen")]
    if isinstance(step, A.Deal) and isinstance(step.amount, int):
        kind = policy.object_kind(step.to.type)
        return [Template("must", "be dealt damage", _owner(step.to.owner), kind, static=False, ability=index, this=this,
                         text=f"{_whose(step.to)} is dealt {step.amount} damage")]
    if isinstance(step, A.Modify) and isinstance(step.delta, int):
        kind = policy.object_kind(step.target.type)
        sign = "+" if step.delta >= 0 else ""
        return [Template("modify", step.stat, _owner(step.target.owner), kind, step.delta, static=static, ability=index, this=this,
                         text=f"{_whose(step.target)} gets {sign}{step.delta} {step.stat}{_duration_words(step.duration)}")]
    if isinstance(step, A.Negate) and step.target.zone != "queue":
        kind = policy.object_kind(step.target.type)
        return [Template("negate", "abilities", _owner(step.target.owner), kind, static=static, ability=index, this=this,
                         negates=((_owner(step.target.owner), kind),),
                         text=f"the abilities of {_whose(step.target)} are negated")]
    return []


def _whose(sel: Any) -> str:
    owner = getattr(sel, "owner", None)
    kind = getattr(sel, "type", "card")
    if kind == "player":
        return {"opponent": "the opponent", "each": "each player"}.get(owner or "", "its controller")
    return {"opponent": f"the opponent's {kind}", "each": f"each {kind}"}.get(owner or "", f"its controller's {kind}")


# =========================================================================== z3 encoding


def _z3() -> Any:
    import z3

    return z3


class _Encoding:
    """One set of effects as z3 constraints (built fresh for each check)."""

    def __init__(self, effects: Sequence[Effect], policy: Policy, bases: Mapping[tuple[str, str], int] | None,
                 fixed: Mapping[str, int] | None = None) -> None:
        z3 = _z3()
        self.z3 = z3
        self.effects = list(effects)
        self.policy = policy
        self.bases = dict(bases or {})
        self.fixed = dict(fixed or {})
        self.lits = [z3.Bool(f"e{i}") for i in range(len(self.effects))]
        self.by_lit = {str(lit): e for lit, e in zip(self.lits, self.effects, strict=True)}
        self.background: list[Any] = []
        self.outcome: dict[str, Any] = {}
        self.situation: dict[str, Any] = {}
        self.extra: list[Effect] = []
        """Effects of the rules the encoding adds (stat arithmetic), with their literals in ``self.lits``."""
        self.claims: list[Any] = []
        self._build()

    # -------------------------------------------------------------- variables

    def _out(self, name: str, sort: str) -> Any:
        var = self.outcome.get(name)
        if var is None:
            var = self.z3.Bool(name) if sort == "bool" else self.z3.Int(name)
            self.outcome[name] = var
        return var

    def _sit(self, name: str, low: int | None = None, high: int | None = None) -> Any:
        if name in self.fixed:
            return self.z3.IntVal(self.fixed[name])
        var = self.situation.get(name)
        if var is None:
            var = self.z3.Int(name)
            self.situation[name] = var
            if low is not None:
                self.background.append(var >= low)
            if high is not None:
                self.background.append(var <= high)
        return var

    def may(self, subject: str, topic: str) -> Any:
        return self._out(f"may[{subject}|{topic}]", "bool")

    def must(self, subject: str, topic: str) -> Any:
        return self._out(f"must[{subject}|{topic}]", "bool")

    def count(self, subject: str, topic: str) -> Any:
        return self._out(f"count[{subject}|{topic}]", "int")

    def applies(self, key: str) -> Any:
        return self._out(f"applies[{key}]", "bool")

    # -------------------------------------------------------------- building

    def _build(self) -> None:
        z3 = self.z3
        topics: dict[str, set[str]] = {}
        counted: set[tuple[str, str]] = set()
        for e in self.effects:
            if e.kind in MODALITIES or e.kind in COUNTS:
                topics.setdefault(e.subject, set()).add(e.topic)
            if e.kind in COUNTS:
                counted.add((e.subject, e.topic))
        negated = {k for e in self.effects if e.kind == "negate" for k in e.negates}

        def covered(e: Effect) -> list[str]:
            return sorted(t for t in topics.get(e.subject, ()) if self.policy.covers(e.topic, t))

        for subject, names in topics.items():
            for topic in names:
                self.background.append(z3.Implies(self.must(subject, topic), self.may(subject, topic)))
        for subject, topic in sorted(counted):
            n = self.count(subject, topic)
            self.background.append(n >= 0)
            self.background.append(self.may(subject, topic) == (n >= 1))

        given = list(zip(self.lits, self.effects, strict=True))
        stats = self._stats()
        for lit, e in given:
            claim = self._claim(e, covered, stats)
            if e.origin == "card" and e.source_key is not None and e.source_key in negated and e.kind != "negate":
                claim = z3.And(self.applies(e.source_key), claim)
            self.claims.append(claim)
            self.background.append(z3.Implies(lit, claim))

    def _claim(self, e: Effect, covered: Callable[[Effect], list[str]], stats: dict[tuple[str, str], Any]) -> Any:
        z3 = self.z3
        if e.kind == "can":
            return z3.And(*[self.may(e.subject, t) for t in covered(e)])
        if e.kind == "cant":
            return z3.And(*[z3.Not(self.may(e.subject, t)) for t in covered(e)])
        if e.kind == "must":
            return z3.And(*[self.must(e.subject, t) for t in covered(e)])
        if e.kind == "grant":
            return self.count(e.subject, e.topic) >= self.policy.base_count(e.topic) + e.value
        if e.kind == "limit":
            return self.count(e.subject, e.topic) <= e.value
        if e.kind == "negate":
            parts = [z3.Not(self.applies(k)) for k in e.negates]
            if e.source_key is not None:
                parts.append(self.applies(e.source_key))
            return z3.And(*parts)
        total: Any = stats[(e.subject, e.topic)]
        if e.kind == "set":
            return total == e.value
        if e.kind == "set_base":
            return self._out(f"base[{e.subject}|{e.topic}]", "int") == e.value
        if e.kind == "cap":
            return total <= e.value
        if e.kind == "floor":
            return total >= e.value
        return z3.BoolVal(True)  # modify: it enters the stat's arithmetic

    def _stats(self) -> dict[tuple[str, str], Any]:
        """Per (subject, stat): the total as an outcome variable, defined by the rules' arithmetic."""
        z3 = self.z3
        pairs = sorted({(e.subject, e.topic) for e in self.effects if e.kind in STATS})
        totals: dict[tuple[str, str], Any] = {}
        for subject, stat in pairs:
            mine = [(lit, e) for lit, e in zip(self.lits, self.effects, strict=True) if e.subject == subject and e.topic == stat]
            low, high = self.policy.base_bounds(stat)
            printed = (z3.IntVal(self.bases[(subject, stat)]) if (subject, stat) in self.bases
                       else self._sit(f"printed {stat} of {subject}", low, high))
            if any(e.kind == "set_base" for _lit, e in mine):
                base = self._out(f"base[{subject}|{stat}]", "int")
            else:
                base = printed
            raw = base + z3.Sum(*[z3.If(lit, e.value, 0) for lit, e in mine if e.kind == "modify"]) if any(
                e.kind == "modify" for _l, e in mine) else base
            lo, hi = self.policy.clamp(stat)
            value = raw
            if lo is not None:
                value = z3.If(value < lo, lo, value)
            if hi is not None:
                value = z3.If(value > hi, hi, value)
            total = self._out(f"total[{subject}|{stat}]", "int")
            totals[(subject, stat)] = total
            if any(e.kind == "set" for _lit, e in mine):
                arithmetic = Effect(f"rules: arithmetic of {stat} of {subject}", "modify", subject, stat, origin="rule",
                                    rule=self.policy.arithmetic_rule(stat),
                                    text=f"{stat} of {subject} is its base value with every modifier")
                lit = z3.Bool(f"e{len(self.lits)}")
                self.lits.append(lit)
                self.effects.append(arithmetic)
                self.by_lit[str(lit)] = arithmetic
                self.extra.append(arithmetic)
                self.background.append(z3.Implies(lit, total == value))
            else:
                self.background.append(total == value)
        return totals

    # -------------------------------------------------------------- reading results

    def core_effects(self, core: Iterable[Any]) -> tuple[Effect, ...]:
        """The effects an unsat core names, in the order they were given."""
        names = {str(c) for c in core}
        return tuple(e for lit, e in zip(self.lits, self.effects, strict=True) if str(lit) in names)

    def all_claims(self) -> Any:
        """Every effect's claim at once (no tracking literals), for the witness search."""
        z3 = self.z3
        return z3.substitute(z3.And(*self.background), *[(lit, z3.BoolVal(True)) for lit in self.lits])


# =========================================================================== the solver


@dataclass
class Outcome:
    """The answer of one check: ``consistent``, ``conflict`` (with its core) or ``unknown``."""

    status: Literal["consistent", "conflict", "unknown"]
    core: tuple[Effect, ...] = ()
    situation: dict[str, int] = field(default_factory=dict)
    """For a designer check: the witness situation's values (printed stats, conditions)."""
    reason: str = ""


class ConflictSolver:
    """One reusable z3 solver with a time limit and a resource limit on every call.

    ``check`` pushes the effects of one question, asks, and pops them again, so the
    solver (and z3's start-up cost) is paid for once.
    """

    def __init__(self, timeout_ms: int | None = DEFAULT_TIMEOUT_MS, rlimit: int = DEFAULT_RLIMIT) -> None:
        self.timeout_ms = timeout_ms
        """Wall-clock limit of each call in milliseconds (``None``: the resource limit alone)."""
        self.rlimit = rlimit
        """Deterministic resource limit of each call (z3's ``rlimit``)."""
        self._solver: Any = None
        self.calls = 0

    def _get(self) -> Any:
        if self._solver is None:
            z3 = _z3()
            self._solver = z3.Solver()
            if self.timeout_ms is not None:
                self._solver.set("timeout", self.timeout_ms)
            self._solver.set("rlimit", self.rlimit)
            self._solver.set("core.minimize", True)
        return self._solver

    def check(self, effects: Sequence[Effect], policy: Policy, bases: Mapping[tuple[str, str], int] | None = None,
              fixed: Mapping[str, int] | None = None) -> Outcome:
        """Whether the effects can all hold; if not, the unsat core (the effects involved)."""
        z3 = _z3()
        encoding = _Encoding(effects, policy, bases, fixed)
        solver = self._get()
        self.calls += 1
        solver.push()
        try:
            solver.add(*encoding.background)
            result = solver.check(*encoding.lits)
            if result == z3.sat:
                return Outcome("consistent")
            if result == z3.unsat:
                core = encoding.core_effects(solver.unsat_core())
                return Outcome("conflict", core)
            return Outcome("unknown", reason=str(solver.reason_unknown()))
        finally:
            solver.pop()

    def witness(self, effects: Sequence[Effect], policy: Policy, bases: Mapping[tuple[str, str], int] | None = None) -> Outcome:
        """Is there a situation in which every effect is in force and they cannot all hold?

        The situation (printed stats, the facts guards test) is existential, the outcome
        (what is allowed, the totals) universal: z3 looks for a situation in which no
        outcome satisfies every effect. With one, the unsat core there names the effects.
        """
        z3 = _z3()
        if not any(e.kind in ("cap", "floor", "set", "set_base") for e in effects):
            return self._witness_plain(effects, policy, bases)
        encoding = _Encoding(effects, policy, bases)
        guards = []
        for e in effects:
            for g in e.guard:
                var = encoding._sit(g.var, 0, None)
                guards.append({">=": var >= g.value, "<=": var <= g.value, "==": var == g.value}[g.op])
        situation_bounds = [c for c in encoding.background if not _mentions_any(c, encoding.outcome.values(), encoding.lits)]
        body = encoding.all_claims()
        outcome_vars = list(encoding.outcome.values())
        solver = self._get()
        self.calls += 1
        solver.push()
        try:
            solver.add(*situation_bounds, *guards)
            solver.add(z3.ForAll(outcome_vars, z3.Not(body)) if outcome_vars else z3.Not(body))
            result = solver.check()
            if result == z3.unsat:
                return Outcome("consistent")
            if result != z3.sat:
                return Outcome("unknown", reason=str(solver.reason_unknown()))
            model = solver.model()
            values = {name: model.eval(var, model_completion=True).as_long() for name, var in encoding.situation.items()}
        finally:
            solver.pop()
        found = self.check(effects, policy, bases, values)
        if found.status == "conflict":
            found.situation = _relevant_values(values, found.core)
        return found

    def _witness_plain(self, effects: Sequence[Effect], policy: Policy, bases: Mapping[tuple[str, str], int] | None) -> Outcome:
        """The witness search when no effect bounds or sets a stat.

        Whether modalities, counts and negations clash does not depend on the printed
        stats, so one check with the situation left open decides it; the guards are met by
        their least values.
        """
        values = {g.var: g.value if g.op != "<=" else 0 for e in effects for g in e.guard}
        found = self.check(effects, policy, bases, values)
        if found.status == "conflict":
            found.situation = _relevant_values(values, found.core)
        return found


def _relevant_values(values: Mapping[str, int], core: Sequence[Effect]) -> dict[str, int]:
    """The witness values that matter to a core: its guards, and the printed stats it bounds or sets."""
    wanted = {g.var for e in core for g in e.guard}
    wanted |= {f"printed {e.topic} of {e.subject}" for e in core if e.kind in STATS}
    facts = {g.var for e in core for g in e.guard if g.fact}
    return {k: v for k, v in values.items() if k in wanted and not (k in facts and v < 1)} | {
        f"{k}?": 1 for k in facts if values.get(k, 0) >= 1}


def _mentions_any(expr: Any, variables: Iterable[Any], lits: Iterable[Any]) -> bool:
    names = {str(v) for v in variables} | {str(v) for v in lits}
    stack = [expr]
    while stack:
        node = stack.pop()
        if node.num_args() == 0:
            if str(node) in names:
                return True
        else:
            stack.extend(node.children())
    return False


_SHARED: ConflictSolver | None = None


def shared_solver() -> ConflictSolver:
    """The solver a process reuses for its checks (created on first use)."""
    global _SHARED
    if _SHARED is None:
        _SHARED = ConflictSolver()
    return _SHARED


# =========================================================================== settling


def could_interact(effects: Sequence[Effect], policy: Policy) -> bool:
    """A cheap test, without z3: could two of these effects clash at all?

    Two effects can clash only when they speak of one subject and overlapping topics
    (one modality covering the other's action, one stat, one counted action), or when a
    negation names the source of another effect.
    """
    if len(effects) < 2:
        return False
    keys = {e.source_key for e in effects if e.source_key is not None and e.kind != "negate"}
    keys |= {e.source_key for e in effects if e.kind == "negate" and e.source_key is not None}
    for e in effects:
        if e.kind == "negate" and any(k in keys for k in e.negates if k != e.source_key):
            return True
    by_subject: dict[str, list[Effect]] = {}
    for e in effects:
        if e.kind != "negate":
            by_subject.setdefault(e.subject, []).append(e)
    for group in by_subject.values():
        if len(group) < 2:
            continue
        for a, b in itertools.combinations(group, 2):
            if _overlap(a, b, policy):
                return True
    return False


def _overlap(a: Effect, b: Effect, policy: Policy) -> bool:
    if a.kind in STATS and b.kind in STATS:
        return a.topic == b.topic and not (a.kind == "modify" and b.kind == "modify")
    if (a.kind in MODALITIES | COUNTS) and (b.kind in MODALITIES | COUNTS):
        if not (policy.covers(a.topic, b.topic) or policy.covers(b.topic, a.topic)):
            return False
        sides = {a.kind in CANT_SIDE, b.kind in CANT_SIDE}
        return sides == {True, False} or (a.kind in COUNTS and b.kind in COUNTS)
    return False


def split(effects: Sequence[Effect], policy: Policy) -> list[Effect]:
    """Each general can, can't, must, grant or limit split into one part per action it covers.

    "Can play cards" speaks of playing Food and of playing Potions: a can't of Food
    overrides the first part only, and the second still meets the timing of Potions.
    A part keeps its effect's words, with the action it speaks of (``aspect``).
    """
    topics: dict[str, set[str]] = {}
    for e in effects:
        if e.kind in MODALITIES or e.kind in COUNTS:
            topics.setdefault(e.subject, set()).add(e.topic)
    out: list[Effect] = []
    for e in effects:
        if e.kind not in MODALITIES and e.kind not in COUNTS:
            out.append(e)
            continue
        covered = sorted(t for t in topics.get(e.subject, ()) if t != e.topic and policy.covers(e.topic, t))
        if not covered:
            out.append(e)
            continue
        if any(x.topic == e.topic and x is not e for x in effects if x.subject == e.subject):
            out.append(e)
        out.extend(replace(e, id=f"{e.id}[{t}]", topic=t, aspect=t) for t in covered)
    return out


def interacting(effects: Sequence[Effect], policy: Policy) -> list[Effect]:
    """The effects that could take part in a clash (a cheap filter before z3).

    An effect is kept when another one speaks of the same subject and an overlapping
    topic in a way that can clash, when a negation names its source, or when it is a
    negation naming the source of a kept effect.
    """
    kept: set[int] = set()
    by_subject: dict[str, list[int]] = {}
    for i, e in enumerate(effects):
        if e.kind != "negate":
            by_subject.setdefault(e.subject, []).append(i)
    for group in by_subject.values():
        for i, j in itertools.combinations(group, 2):
            if _overlap(effects[i], effects[j], policy):
                kept.update((i, j))
    negated = {k for e in effects if e.kind == "negate" for k in e.negates}
    negators = {e.source_key for e in effects if e.kind == "negate"}
    for i, e in enumerate(effects):
        if e.source_key is not None and e.source_key in negated and e.source_key not in e.negates:
            kept.add(i)  # its source is negated (a negation too: then it is a negation negated)
        if e.kind == "negate" and set(e.negates) & (negators - {e.source_key}):
            kept.add(i)
    sources = {effects[i].source_key for i in kept}
    changed = True
    while changed:
        changed = False
        for i, e in enumerate(effects):
            if i not in kept and e.kind == "negate" and (set(e.negates) & sources):
                kept.add(i)
                sources.add(e.source_key)
                changed = True
    return [e for i, e in enumerate(effects) if i in kept]


MAX_ROUNDS = 32
_RESOLVED: dict[tuple[Any, ...], Resolution | tuple[list[Conflict], frozenset[int]]] = {}
"""The resolver's answers, per process: ``("effects", ...)`` a whole resolution;
``("interacting", ...)`` the clashes found among one set of interacting effects and
which of them (by position) were left standing. Only decided answers are kept."""


def resolve(effects: Sequence[Effect], policy: Policy, solver: ConflictSolver | None = None,
            bases: Mapping[tuple[str, str], int] | None = None) -> Resolution:
    """Find every conflict among the effects and settle each by the policy, in turn.

    Each round asks z3 for one unsat core; the policy settles it (the losers are set
    aside) or does not (a gap: its effects are set aside undecided); the rest is asked
    again, until what remains can all hold. A z3 call that runs out of time or resources
    stops the resolution and says what could not be decided. Only the effects that could
    take part in a clash go to z3 (:func:`interacting`); the others prevail untouched, and
    a set of effects already resolved under the same policy is answered from a cache.
    """
    key = ("effects", tuple(effects), *_policy_key(policy, bases))
    cached = _RESOLVED.get(key) if solver is None else None
    if isinstance(cached, Resolution):
        return cached
    result = _resolve(effects, policy, solver or shared_solver(), bases)
    if solver is None and result.undecided is None:
        if len(_RESOLVED) > 1024:
            _RESOLVED.clear()
        _RESOLVED[key] = result
    return result


def _policy_key(policy: Policy, bases: Mapping[tuple[str, str], int] | None) -> tuple[Any, ...]:
    """What, besides the effects, a resolution depends on: the policy and the base values."""
    return (type(policy), id(policy), tuple((p.rule, p.name, id(p.decide)) for p in policy.precedence),
            tuple(sorted((bases or {}).items())))


def _resolve(effects: Sequence[Effect], policy: Policy, solver: ConflictSolver,
             bases: Mapping[tuple[str, str], int] | None) -> Resolution:
    effects = split(effects, policy)
    candidates = interacting(effects, policy)
    chosen = {id(e) for e in candidates}
    untouched = [e for e in effects if id(e) not in chosen]
    # effects that cannot clash change nothing: the same interacting effects, under the
    # same policy, give the same rounds (answered again without z3)
    rounds_key = (("interacting", tuple(candidates), solver.rlimit, solver.timeout_ms, *_policy_key(policy, bases))
                  if solver is _SHARED else None)
    known = _RESOLVED.get(rounds_key) if rounds_key is not None else None
    if isinstance(known, tuple):
        found, standing = known
        result = Resolution(conflicts=list(found))
        keep = {id(candidates[i]) for i in standing} | {id(x) for x in untouched}
        result.prevailing = [e for e in effects if id(e) in keep]
        return result
    active = list(candidates)
    result = Resolution()
    for _ in range(MAX_ROUNDS):
        outcome = solver.check(active, policy, bases)
        if outcome.status == "consistent":
            break
        if outcome.status == "unknown":
            result.undecided = (f"z3 could not decide within its limits ({outcome.reason}) whether these effects clash: "
                                + "; ".join(e.describe() for e in active))
            break
        core = outcome.core
        settlement = policy.settle(core)
        result.conflicts.append(Conflict(core, settlement))
        if settlement is None or settlement.conditional is not None:
            drop = {e.id for e in core}
        else:
            drop = {e.id for e in settlement.losers}
        if not drop & {e.id for e in active}:
            break  # an effect of the rules' arithmetic alone: nothing more to set aside
        active = [e for e in active if e.id not in drop]
    result.prevailing = [e for e in effects if id(e) in {id(x) for x in active} or id(e) in {id(x) for x in untouched}]
    if rounds_key is not None and result.undecided is None:
        if len(_RESOLVED) > 1024:
            _RESOLVED.clear()
        left = {id(x) for x in active}
        _RESOLVED[rounds_key] = (list(result.conflicts), frozenset(i for i, e in enumerate(candidates) if id(e) in left))
    return result


# =========================================================================== precedence rules shared by games


def card_over_rules(rule: str, name: str = "card text over rules", only_when_said: bool = False) -> Precedence:
    """Card text prevails over the rules it contradicts (with ``only_when_said``: only a
    text that says it overrides them)."""

    def decide(core: Sequence[Effect]) -> Decision | None:
        rules = tuple(e for e in core if e.origin == "rule")
        cards = [e for e in core if e.origin == "card"]
        if not rules or not cards:
            return None
        if only_when_said and not any(e.overrides for e in cards):
            return None
        names = ", ".join(sorted({e.source for e in cards}))
        return Decision(rules, f"the text of {names} prevails over " + ", ".join(sorted({e.rule or 'the rules' for e in rules})))

    summary = ("card text that says it overrides the rules prevails over them" if only_when_said
               else "card text prevails over the rules it contradicts")
    return Precedence(rule, name, summary, decide)


def cant_beats_can(rule: str, name: str = "can't beats can") -> Precedence:
    """Among card effects, the one saying something can't happen prevails over the ones
    saying it can or must."""

    def decide(core: Sequence[Effect]) -> Decision | None:
        cards = [e for e in core if e.origin == "card"]
        if len(cards) != len(core):
            return None
        cants = [e for e in cards if e.kind in CANT_SIDE]
        cans = tuple(e for e in cards if e.kind in CAN_SIDE)
        if not cants or not cans:
            return None
        return Decision(cans, "the can't of " + ", ".join(sorted({e.source for e in cants}))
                        + " prevails over " + ", ".join(sorted({e.source for e in cans})))

    return Precedence(rule, name, "an effect saying something can't happen prevails over one saying it can or must", decide)


def _older(core: Sequence[Effect]) -> tuple[list[Effect], list[Effect]] | None:
    known = [e for e in core if e.since is not None]
    if len(known) != len(core):
        return None
    oldest = min(e.since for e in core)
    return [e for e in core if e.since == oldest], [e for e in core if e.since != oldest]


def longer_standing_wins(rule: str, name: str = "the longer-standing passive wins", statics_only: bool = True) -> Precedence:
    """Between contradicting always-on abilities, the one in play longer prevails."""

    def decide(core: Sequence[Effect]) -> Decision | None:
        if any(e.origin != "card" for e in core) or (statics_only and not all(e.static for e in core)):
            return None
        if len({e.source_key or e.source for e in core}) < 2:
            return None
        split = _older(core)
        if split is None:
            return Decision((), "whichever source has been in play longer prevails",
                            conditional="the one of these cards that entered play first")
        older, newer = split
        if not newer:
            return None
        return Decision(tuple(newer), ", ".join(sorted({e.source for e in older})) + " has been in play longer than "
                        + ", ".join(sorted({e.source for e in newer})))

    return Precedence(rule, name, "between contradicting always-on abilities, the one in play longer prevails", decide)


def later_wins(rule: str, name: str = "the later card wins") -> Precedence:
    """Between contradicting card effects, the one of the card played later prevails."""

    def decide(core: Sequence[Effect]) -> Decision | None:
        if any(e.origin != "card" for e in core) or len({e.source_key or e.source for e in core}) < 2:
            return None
        known = [e for e in core if e.since is not None]
        if len(known) != len(core):
            return Decision((), "the card played later prevails", conditional="the one of these cards played last")
        latest = max(e.since for e in core)
        older = tuple(e for e in core if e.since != latest)
        if not older:
            return None
        return Decision(older, ", ".join(sorted({e.source for e in core if e.since == latest})) + " was played later than "
                        + ", ".join(sorted({e.source for e in older})))

    return Precedence(rule, name, "between contradicting card effects, the card played later prevails", decide)


def negation_wins(rule: str, name: str = "a negation removes the abilities it names") -> Precedence:
    """A negation prevails over the effects of the abilities it removes.

    Not when those abilities negate the negation's own source in turn: that is two
    negations contradicting each other, which this rule leaves to the next one.
    """

    def decide(core: Sequence[Effect]) -> Decision | None:
        for negation in (e for e in core if e.kind == "negate"):
            hit = tuple(e for e in core if e is not negation and e.source_key in negation.negates)
            if not hit or len(hit) != len(core) - 1:
                continue
            if any(e.kind == "negate" and negation.source_key in e.negates for e in hit):
                continue
            return Decision(hit, f"{negation.source} negates the abilities of " + ", ".join(sorted({e.source for e in hit})))
        return None

    return Precedence(rule, name, "a negation prevails over the abilities it removes", decide)


# =========================================================================== designer analysis


@dataclass(frozen=True)
class CardReading:
    """A card of the analysed set: its effect templates and trigger events, or why not."""

    card: CardDef
    templates: tuple[Template, ...] = ()
    causes: frozenset[str] = frozenset()
    listens: frozenset[str] = frozenset()
    error: str | None = None


def read_card(card: CardDef, policy: Policy) -> CardReading:
    """Parse a card's text with its game's grammar and read its effects and triggers."""
    from grammar import ast as A
    from grammar.parser import parse

    try:
        tree = parse(card.text, policy.game, card_type=card.type or None)
    except Exception as error:  # noqa: BLE001 - any unreadable card is reported, not raised
        return CardReading(card, error=f"its text does not parse: {str(error).splitlines()[0]}")
    unknown = A.unknown_parts(tree)
    if unknown:
        return CardReading(card, error=f"its text has parts the grammar does not cover: {unknown[0]!r}")
    try:
        templates = tuple(policy.templates(card, tree))
    except Exception as error:  # noqa: BLE001 - a reading a policy cannot make is reported
        return CardReading(card, error=f"its effects cannot be read: {error}")
    causes: set[str] = set()
    listens: set[str] = set()
    for ability in all_abilities(tree.abilities):
        listens |= policy.listens(ability)
        for step in walk_steps(getattr(ability, "effect", ()) or ()):
            causes |= policy.causes(step)
    return CardReading(card, templates, frozenset(causes), frozenset(listens))


def all_abilities(abilities: Iterable[Any]) -> Iterator[Any]:
    """Every ability, with abilities nested in game containers (labels, named specials)."""
    for ability in abilities:
        yield ability
        inner = getattr(ability, "ability", None)
        if inner is not None:
            yield from all_abilities((inner,))
        nested = getattr(ability, "abilities", None)
        if isinstance(nested, tuple):
            yield from all_abilities(nested)


PLAYERS = ("P1", "P2")


@dataclass(frozen=True)
class Placement:
    """How a set of cards shares the table: each card's controller."""

    cards: tuple[CardReading, ...]
    controllers: tuple[int, ...]

    def effects(self, policy: Policy, with_rules: bool = True) -> list[Effect]:
        """The concrete effects of the cards (and of the rules) in this placement."""
        out: list[Effect] = []
        sources = [(f"{r.card.name}@{PLAYERS[c]}", r, PLAYERS[c]) for r, c in zip(self.cards, self.controllers, strict=True)]
        for key, reading, player in sources:
            for number, t in enumerate(reading.templates):
                negates: tuple[str, ...] = ()
                if t.kind == "negate":
                    wanted = {(subject_name(p, kind)) for owner, kind in t.negates for p in _owners(owner, player)}
                    negates = tuple(k for k, r, p in sources if subject_name(p, _object_kind_of(r.card, policy)) in wanted
                                    and k != key)
                for subject in t.subjects(player, PLAYERS, reading.card.name):
                    out.append(Effect(f"{key}#{t.ability}.{number}>{subject}", t.kind, subject, t.topic, t.value,
                                      reading.card.name, "card", player, key, negates, None, t.static, t.overrides,
                                      None, _concrete(t.text, player), t.guard))
        if with_rules:
            out.extend(policy.rules_for(out, PLAYERS))
        out = self._specific(out, policy)
        cards = [e for e in out if e.origin == "card"]
        return cards + [r for r in out if r.origin == "rule" and any(r.subject == e.subject and _overlap(r, e, policy) for e in cards)]

    def _specific(self, effects: list[Effect], policy: Policy) -> list[Effect]:
        """An effect on a kind of card also speaks of each card of that kind in the placement."""
        cards = [(PLAYERS[c], r.card.name, policy.object_kind(r.card.type)) for r, c in zip(self.cards, self.controllers, strict=True)]
        named = {subject_name(p, name) for p, name, _kind in cards}
        specific = {e.subject for e in effects if e.subject in named}
        out = list(effects)
        for e in effects:
            if e.kind == "negate" or e.subject in named:
                continue
            for player, name, kind in cards:
                subject = subject_name(player, name)
                if subject in specific and e.subject in (subject_name(player, kind), subject_name(player, "card")) and kind != "player":
                    out.append(replace(e, id=f"{e.id}[{name}]", subject=subject, aspect=f"{name} is one"))
        return out

    def words(self, policy: Policy) -> list[str]:
        """The situation in words: who has which card in play."""
        return [policy.placement_words(r.card, PLAYERS[c]) for r, c in zip(self.cards, self.controllers, strict=True)]


def _owners(owner: str, player: str) -> list[str]:
    other = PLAYERS[1] if player == PLAYERS[0] else PLAYERS[0]
    return {"you": [player], "opponent": [other], "each": list(PLAYERS)}.get(owner, [player])


def _object_kind_of(card: CardDef, policy: Policy) -> str:
    return policy.object_kind(card.type)


def _concrete(text: str, player: str) -> str:
    other = PLAYERS[1] if player == PLAYERS[0] else PLAYERS[0]
    return (text.replace("its controller's", f"{player}'s").replace("its controller", player)
            .replace("the opponent's", f"{other}'s").replace("the opponent", other))


@dataclass
class Finding:
    """One clash the analysis found (or could not decide) for a set of cards."""

    cards: tuple[str, ...]
    situation: tuple[str, ...]
    effects: tuple[Effect, ...]
    settlement: Settlement | None
    status: Literal["settled", "gap", "undecided"]
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: cards, situation, effects, how it is settled (rule, reason) or why not."""
        out: dict[str, Any] = {"cards": list(self.cards), "status": self.status, "situation": list(self.situation),
                               "effects": [e.describe() for e in self.effects]}
        if self.settlement is not None:
            out["settled_by"] = {"rule": self.settlement.rule, "name": self.settlement.name,
                                 "reason": self.settlement.reason,
                                 "prevails": [e.describe() for e in self.settlement.winners],
                                 "gives_way": [e.describe() for e in self.settlement.losers]}
            if self.settlement.conditional:
                out["settled_by"]["depends_on"] = self.settlement.conditional
        if self.note:
            out["note"] = self.note
        return out


@dataclass
class Loop:
    """A cycle of the trigger graph: cards whose effects can set each other off forever."""

    cards: tuple[str, ...]
    events: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "events": list(self.events)}


@dataclass
class Analysis:
    """What ``arbiter conflicts`` reports for a card set."""

    game: str
    cards: int
    compared: int
    findings: list[Finding] = field(default_factory=list)
    loops: list[Loop] = field(default_factory=list)
    unreadable: list[tuple[str, str]] = field(default_factory=list)
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "cards": self.cards, "sets_compared": self.compared, "note": self.note or None,
                "conflicts": [f.to_dict() for f in self.findings],
                "loops": [loop.to_dict() for loop in self.loops],
                "unreadable": [{"card": name, "why": why} for name, why in self.unreadable]}

    def to_json(self) -> bytes:
        return msgspec.json.encode(self.to_dict(), order="deterministic")


def placements(readings: Sequence[CardReading], policy: Policy) -> Iterator[Placement]:
    """Every way the cards can share the table (the first card is P1's)."""
    cards = [r.card for r in readings]
    for rest in itertools.product((0, 1), repeat=len(readings) - 1):
        controllers = (0, *rest)
        copies = [(c.name, p) for c, p in zip(cards, controllers, strict=True)]
        if len(set(copies)) < len(copies):
            continue  # two copies of a card on one side are one source here: a copy meets a copy across the table
        if policy.placement_ok(cards, controllers):
            yield Placement(tuple(readings), controllers)


def _interacts(a: CardReading, b: CardReading, policy: Policy) -> bool:
    """Whether two cards' templates could meet (a cheap filter before any z3 call)."""
    for x in a.templates:
        for y in b.templates:
            if x.kind == "negate" or y.kind == "negate":
                return True
            ex = Effect("x", x.kind, "s", x.topic, x.value)
            ey = Effect("y", y.kind, "s", y.topic, y.value)
            if _overlap(ex, ey, policy):
                return True
    return False


def analyse(cards: Sequence[CardDef], policy: Policy, against: Sequence[CardDef] = (), max_set: int = 3,
            solver: ConflictSolver | None = None) -> Analysis:
    """Every clash among the cards of a set (pairs and small sets), and with ``against``.

    Single cards are checked against the rules; pairs within the set and between the
    set and ``against``; triples within the set when no pair inside explains them.
    Each clash names the situation (who has what in play, the witness values), the
    effects (the unsat core), and the rule that settles it or that it is a gap.
    """
    solver = solver or shared_solver()
    mine = [read_card(c, policy) for c in cards]
    names = {c.name for c in cards}
    others = [read_card(c, policy) for c in against if c.name not in names]
    analysis = Analysis(policy.game, len(cards), 0, note=policy.note)
    for reading in mine + others:
        if reading.error is not None and reading.card.name in names:
            analysis.unreadable.append((reading.card.name, reading.error))
    usable = [r for r in mine if r.error is None and r.templates]
    usable_others = [r for r in others if r.error is None and r.templates]
    clashing_pairs: set[frozenset[str]] = set()
    for reading in usable:
        analysis.compared += 1
        analysis.findings.extend(_check_set((reading,), policy, solver, clashing_pairs))
    pairs = [(a, a) for a in usable] + list(itertools.combinations(usable, 2)) + [(a, b) for a in usable for b in usable_others]
    for a, b in pairs:
        if not _interacts(a, b, policy):
            continue
        analysis.compared += 1
        analysis.findings.extend(_check_set((a, b), policy, solver, clashing_pairs))
    if max_set >= 3:
        for trio in itertools.combinations(usable, 3):
            linked = sum(_interacts(x, y, policy) for x, y in itertools.combinations(trio, 2))
            if linked < 2:
                continue
            if any(frozenset({x.card.name, y.card.name}) in clashing_pairs for x, y in itertools.combinations(trio, 2)):
                continue
            analysis.compared += 1
            analysis.findings.extend(_check_set(trio, policy, solver, clashing_pairs))
    analysis.loops = loops(mine + others, policy)
    return analysis


def _check_set(readings: Sequence[CardReading], policy: Policy, solver: ConflictSolver,
               clashing: set[frozenset[str]]) -> list[Finding]:
    """The clashes that need every card of the set, in each placement where one happens."""
    wanted = {r.card.name for r in readings}
    names = tuple(sorted(r.card.name for r in readings))
    found: list[Finding] = []
    seen: set[tuple[frozenset[str], str | None]] = set()
    for placement in placements(readings, policy):
        effects = placement.effects(policy)
        if not could_interact(effects, policy):
            continue
        outcome = solver.witness(effects, policy)
        if outcome.status == "unknown":
            found.append(Finding(names, tuple(placement.words(policy)), tuple(effects), None, "undecided",
                                 f"z3 could not decide within its limits ({outcome.reason})"))
            continue
        if outcome.status != "conflict":
            continue
        core = outcome.core
        if {e.source for e in core if e.origin == "card"} != wanted:
            continue
        settlement = policy.settle(core)
        key = (frozenset(f"{e.source_key}/{e.kind}/{e.topic}" for e in core), settlement.rule if settlement else None)
        if key in seen:
            continue
        seen.add(key)
        situation = tuple(placement.words(policy)) + tuple(_witness_words(outcome.situation))
        found.append(Finding(names, situation, core, settlement, "settled" if settlement else "gap",
                             "" if settlement else (policy.note or "no rule of the game decides between these effects")))
        if len(wanted) == 2:
            clashing.add(frozenset(wanted))
    return found


def _witness_words(values: Mapping[str, int]) -> list[str]:
    words = []
    for name, value in sorted(values.items()):
        if name.endswith("?"):
            words.append(name[:-1])
        elif f"{name}?" not in values:
            words.append(f"{name} is {value}")
    return words


# =========================================================================== trigger loops


def trigger_graph(readings: Sequence[CardReading]) -> networkx.MultiDiGraph:
    """Which card's effects can set off which card's triggers: an edge per event.

    A card's step that causes an event (a draw, damage, a discard) links it to every
    card with a triggered ability waiting for that event, its own included.
    """
    import networkx as nx

    graph: nx.MultiDiGraph = nx.MultiDiGraph()
    for r in readings:
        if r.error is None:
            graph.add_node(r.card.name)
    for a in readings:
        for b in readings:
            for event in sorted(a.causes & b.listens):
                graph.add_edge(a.card.name, b.card.name, event=event)
    return graph


MAX_LOOPS = 50
MAX_LOOP_LENGTH = 6


def loops(readings: Sequence[CardReading], policy: Policy | None = None) -> list[Loop]:
    """The cycles of the trigger graph (possible endless loops), shortest first."""
    import networkx as nx

    graph = trigger_graph(readings)
    simple = nx.DiGraph(graph)
    found: list[Loop] = []
    for cycle in nx.simple_cycles(simple, length_bound=MAX_LOOP_LENGTH):
        events = []
        for i, name in enumerate(cycle):
            nxt = cycle[(i + 1) % len(cycle)]
            labels = sorted({d["event"] for d in graph.get_edge_data(name, nxt).values()})
            events.append("/".join(labels))
        turn = cycle.index(min(cycle))
        cycle = cycle[turn:] + cycle[:turn]
        events = events[turn:] + events[:turn]
        found.append(Loop(tuple(cycle), tuple(events)))
    found.sort(key=lambda loop: (len(loop.cards), loop.cards))
    return found[:MAX_LOOPS]


def replace(effect: Effect, **changes: Any) -> Effect:
    """A copy of an effect with some fields changed."""
    return msgspec.structs.replace(effect, **changes)


def policy_for(game: str) -> Policy:
    """The precedence policy of a game: ``POLICY`` of ``spec/<game>/conflicts.py``.

    A game without that module (or without ``POLICY``) gets a :class:`NoPolicy`, which
    reports every conflict as unsettled, with a note saying why.
    """
    import importlib

    name = f"spec.{game}.conflicts"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name not in (name, f"spec.{game}"):
            raise
        return NoPolicy(game)
    policy = getattr(module, "POLICY", None)
    return policy if isinstance(policy, Policy) else NoPolicy(game)
