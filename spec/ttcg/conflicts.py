"""How the TTCG settles clashing effects (rule 2.2.5.b: effects overrule only when they say so).

The development document gives one precedence rule: a card effect that says it
overrides rules and effects does (2.2.5.b). The policy reads it, with the rules that
defer to card text themselves, in this order:

1. **2.2.5.b** an effect that says it overrides prevails over everything else in the
   clash. A text that grants what a rule forbids by naming it (attack twice, attack
   directly, extra plays: :class:`~grammar.ttcg_nodes.Allow`,
   :class:`~grammar.ttcg_nodes.ExtraPlay`) says so;
2. **2.2.3.a.2.a** the two plays of the Main Phase hold "barring card text": that rule
   gives way to a card;
3. **2.1.aj** a card that cannot be destroyed (INDESTRUCTIBLE, IMMORTAL 2.1.ak) is not
   destroyed: the definition settles a destroy against it;
4. **2.2.5.b** read the other way: a card effect that does not say it overrides gives way
   to the rules it contradicts.

Two card effects neither of which says it overrides are a gap: the document has no
can't-beats-can and no timestamp order. This module is standalone: the lead wires it
into the TTCG verifier.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grammar import ast as A
from grammar import ttcg_nodes as N
from spec.core.cards import CardDef
from spec.core.conflicts import Decision, Effect, Guard, Policy, Precedence, Template, walk_steps

STATED = "ttcg:2.2.5.b"
TWO_PLAYS = "ttcg:2.2.3.a.2.a"
ONE_ATTACK = "ttcg:2.2.7.b"
TARGET_CREATURES = "ttcg:2.2.7.c"
INDESTRUCTIBLE = "ttcg:2.1.aj"


def _stated(core: Sequence[Effect]) -> Decision | None:
    """2.2.5.b: the effects that say they override prevail over the others."""
    over = [e for e in core if e.overrides and e.origin == "card"]
    rest = tuple(e for e in core if e not in over)
    if not over or not rest:
        return None
    return Decision(rest, ", ".join(sorted({e.source for e in over})) + " says that it overrides rules and effects")


def _defers(core: Sequence[Effect]) -> Decision | None:
    """2.2.3.a.2.a: the two plays of the Main Phase give way to card text."""
    rules = tuple(e for e in core if e.origin == "rule")
    if not rules or any(e.rule != TWO_PLAYS for e in rules) or len(rules) == len(core):
        return None
    return Decision(rules, "the limit of two plays holds only barring card text")


def _indestructible(core: Sequence[Effect]) -> Decision | None:
    """2.1.aj: a card that cannot be destroyed is not destroyed by a destroy."""
    shields = [e for e in core if e.kind == "cant" and e.topic.startswith("be destroyed")]
    blows = tuple(e for e in core if e.kind == "must" and e.topic.startswith("be destroyed"))
    if not shields or not blows or len(shields) + len(blows) != len(core):
        return None
    return Decision(blows, "an indestructible card cannot be destroyed: " + ", ".join(sorted({e.source for e in shields})))


def _rules_stand(core: Sequence[Effect]) -> Decision | None:
    """2.2.5.b read the other way: a card effect that does not say it overrides yields to the rules."""
    rules = [e for e in core if e.origin == "rule"]
    cards = tuple(e for e in core if e.origin == "card")
    if not rules or not cards or any(e.overrides for e in cards):
        return None
    return Decision(cards, "only an effect that says so overrides the rules: " + ", ".join(sorted({e.rule or "" for e in rules})))


PRECEDENCE = (
    Precedence(STATED, "a stated override prevails", "an effect that says it overrides prevails over rules and effects", _stated),
    Precedence(TWO_PLAYS, "two plays barring card text", "the two plays of the Main Phase give way to card text", _defers),
    Precedence(INDESTRUCTIBLE, "indestructible", "a card that cannot be destroyed is not destroyed", _indestructible),
    Precedence(STATED, "the rules stand unless overridden", "a card effect that does not say it overrides yields to the rules", _rules_stand),
)


def _owner(cards: Any) -> str:
    whose = getattr(cards, "controller", None) or getattr(cards, "owner", None)
    return "opponent" if whose == "opponent" else "each" if whose in (None, "they") and cards.quantifier != "this" else "you"


class TtcgPolicy(Policy):
    """The TTCG precedence policy (see the module docstring)."""

    game = "ttcg"
    precedence = PRECEDENCE

    def covers(self, general: str, specific: str) -> bool:
        """``be destroyed`` speaks of ``be destroyed by effects`` and ``be destroyed in battle``."""
        return general == specific or specific.startswith(general + " ") or (general == "play cards" and specific.startswith("play "))

    def base_count(self, topic: str) -> int:
        return 2 if topic == "put a card on the field" else 1

    def object_kind(self, selector_type: str) -> str:
        return "player" if selector_type == "player" else "card"

    def is_static(self, card: CardDef, ability: Any) -> bool:
        return isinstance(ability, N.Labelled) and ability.label in ("passive", "continuous", "equip")

    def rule_effects(self, players: Sequence[str]) -> list[Effect]:
        """Two plays a Main Phase (2.2.3.a.2.a), one attack per creature (2.2.7.b), attacks at creatures first (2.2.7.c)."""
        out = []
        for p in players:
            out.append(Effect(f"rules {TWO_PLAYS}>{p}", "limit", p, "put a card on the field", 2, origin="rule", rule=TWO_PLAYS,
                              text=f"{p} puts at most two cards on the field in a Main Phase"))
            card = f"{p}'s card"
            out.append(Effect(f"rules {ONE_ATTACK}>{card}", "limit", card, "attack", 1, origin="rule", rule=ONE_ATTACK,
                              text=f"each of {p}'s creatures attacks once a Battle Phase"))
            out.append(Effect(f"rules {TARGET_CREATURES}>{card}", "cant", card, "attack directly", origin="rule", rule=TARGET_CREATURES,
                              text=f"{p}'s creatures attack an opposing creature while there is one",
                              guard=(Guard(f"{p}'s opponent controls a creature", ">=", 1, fact=True),)))
        return out

    def templates(self, card: CardDef, tree: A.CardText) -> list[Template]:
        out: list[Template] = []
        for index, ability in enumerate(tree.abilities):
            inner = ability.ability if isinstance(ability, N.Labelled) else ability  # type: ignore[attr-defined]
            static = self.is_static(card, ability)
            for step in walk_steps(getattr(inner, "effect", ()) or ()):
                out.extend(self._step(step, static, index))
        return out

    def _step(self, step: Any, static: bool, index: int) -> list[Template]:
        from spec.core.conflicts import step_templates

        if isinstance(step, N.Restrict):
            return [Template("cant", step.action, _owner(step.what), "card", static=static, ability=index, this=step.what.quantifier == "this",
                             text=f"{_words(step.what)} can't {step.action}")]
        if isinstance(step, N.Allow):
            if step.action == "attack twice":
                return [Template("grant", "attack", _owner(step.what), "card", 1, static=static, overrides=True, ability=index,
                                 this=step.what.quantifier == "this",
                                 text=f"{_words(step.what)} can attack twice")]
            return [Template("can", step.action, _owner(step.what), "card", static=static, overrides=True, ability=index,
                             this=step.what.quantifier == "this",
                             text=f"{_words(step.what)} can {step.action}")]
        if isinstance(step, N.ExtraPlay) and isinstance(step.what.count, int):
            return [Template("grant", "put a card on the field", "you", "player", step.what.count, static=static, overrides=True,
                             ability=index, text=f"its controller may put {step.what.count} more card(s) on the field")]
        if isinstance(step, N.Destroy):
            return [Template("must", "be destroyed by effects", _owner(step.what), "card", static=False, ability=index, this=step.what.quantifier == "this",
                             text=f"{_words(step.what)} is destroyed")]
        if isinstance(step, N.Boost) and isinstance(step.delta, int):
            return [Template("modify", step.stat, _owner(step.what), "card", step.delta, static=static, ability=index, this=step.what.quantifier == "this",
                             text=f"{_words(step.what)} gets {step.delta:+d} {step.stat}")]
        if isinstance(step, N.SetStat) and isinstance(step.value, int):
            return [Template("set", step.stat, _owner(step.what), "card", step.value, static=static, ability=index, this=step.what.quantifier == "this",
                             text=f"{_words(step.what)} becomes {step.stat} {step.value}")]
        return step_templates(step, static, index, self, A)


def _words(cards: Any) -> str:
    if cards.quantifier == "this":
        return "this card"
    kinds = " or ".join(cards.kinds) or "card"
    return f"{cards.quantifier.replace('_', ' ')} {kinds}"


POLICY: Policy = TtcgPolicy()
"""The TTCG policy (``spec.core.conflicts.policy_for("ttcg")``)."""
