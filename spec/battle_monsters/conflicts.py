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

In designer mode the order of play is not known: the later-card rule then settles the
clash *conditionally* (whichever is played last). This module is standalone: Battle
Monsters has no verifier yet; the lead wires it in with one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grammar import ast as A
from grammar import battle_monsters_nodes as N
from spec.core.cards import CardDef
from spec.core.conflicts import Decision, Effect, Policy, Precedence, Template, card_over_rules, later_wins, step_templates

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
    """BM.rules.conflict, "unless stated": an effect saying it holds regardless prevails."""
    over = [e for e in core if e.overrides and e.origin == "card"]
    rest = tuple(e for e in core if e not in over)
    if not over or not rest:
        return None
    return Decision(rest, ", ".join(sorted({e.source for e in over})) + " says that it holds regardless of other rules")


PRECEDENCE = (
    Precedence(HOUSE, "agreed rules first", "rules both players agreed prevail over cards and the manual", _agreed),
    Precedence(CONFLICT, "unless stated", "an effect that says it holds regardless prevails", _stated),
    card_over_rules(CARD, "card effects over the manual"),
    later_wins(CONFLICT, "the later card wins"),
)


def _owner(cards: Any) -> str:
    owner = getattr(cards, "owner", None)
    return "opponent" if owner == "opponent" else "each" if owner in ("each", "any") or cards.quantifier == "all" else "you"


def _kind(cards: Any) -> str:
    kinds = [k for k in cards.kinds if k in ("monster", "spell", "trap", "player")]
    return kinds[0] if kinds else "card"


class BattleMonstersPolicy(Policy):
    """The Battle Monsters precedence policy (see the module docstring)."""

    game = "battle_monsters"
    precedence = PRECEDENCE

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
        for field in ("then", "effect", "steps"):
            inner = getattr(step, field, None)
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
