"""How Epic Battles settles clashing effects: what its book implies, and the gaps it leaves.

The Epic Battles rules have no precedence rule of their own: nothing like "can't beats
can", "card text over rules" or an order of effects. What the book does say is, in a
few places, that a card's text decides where the general rule would:

* **EB.deck.copies**: four copies of a card, unless the card limits itself;
* **EB.card.event.flip.timing**: each event's own text says when it may be flipped;
* **EB.recover.effect**: card effects may grant recovery from a knock-down.

The policy (decision in ``docs/conflicts.rst``) reads exactly that: where one of those
rules clashes with a card, the card prevails, citing the rule that defers to it.
Every other clash, between two cards or between a card and a rule that does not defer,
is a gap in the rules and is reported as one. This module is standalone: the lead
wires it into the Epic Battles verifier.
"""

from __future__ import annotations

from collections.abc import Sequence

from grammar import ast as A
from grammar import epic_battles_nodes as N
from spec.core.cards import CardDef
from spec.core.conflicts import Decision, Effect, Policy, Precedence, Template, step_templates, walk_steps

COPIES = "epic_battles:EB.deck.copies"
FLIP_TIMING = "epic_battles:EB.card.event.flip.timing"
RECOVERY = "epic_battles:EB.recover.effect"
DEFERRING = (COPIES, FLIP_TIMING, RECOVERY)


def _defers_to(rule: str) -> Precedence:
    def decide(core: Sequence[Effect]) -> Decision | None:
        rules = tuple(e for e in core if e.origin == "rule")
        if not rules or any(e.rule != rule for e in rules) or len(rules) == len(core):
            return None
        cards = sorted({e.source for e in core if e.origin == "card"})
        return Decision(rules, f"the book leaves this to the card's text: {', '.join(cards)}")

    return Precedence(rule, "the rule defers to card text", "where the book says a card's text decides, the card prevails", decide)


class EpicBattlesPolicy(Policy):
    """The Epic Battles precedence policy (see the module docstring)."""

    game = "epic_battles"
    precedence = tuple(_defers_to(rule) for rule in DEFERRING)

    def base_count(self, topic: str) -> int:
        return 4 if topic.startswith("copies of ") else 1

    def object_kind(self, selector_type: str) -> str:
        return "player" if selector_type == "player" else "attack" if selector_type == "Attack" else "card"

    def rule_effects(self, players: Sequence[str]) -> list[Effect]:
        return []

    def templates(self, card: CardDef, tree: A.CardText) -> list[Template]:
        out: list[Template] = []
        for index, ability in enumerate(tree.abilities):
            if isinstance(ability, N.EpicBattlesLimit) and ability.copies > 4:  # type: ignore[attr-defined]
                copies: int = ability.copies  # type: ignore[attr-defined]
                out.append(Template("grant", f"copies of {card.name}", "you", "deck", copies - 4, ability=index,
                                    text=f"a deck may hold {copies} copies of {card.name}"))
            static = self.is_static(card, ability)
            for step in walk_steps(getattr(ability, "effect", ()) or ()):
                if isinstance(step, N.EpicBattlesLink):
                    topic = "link after " + ("any attack" if step.after.quantifier == "each" else step.after.describe())
                    out.append(Template("can" if step.allowed else "cant", topic, "you", "attack", static=static, ability=index,
                                        text=f"{step.what.describe()} {'can' if step.allowed else 'cannot'} {topic}"))
                elif not isinstance(step, A.Negate):  # negating an attack being played cancels it: no effect in force
                    out.extend(step_templates(step, static, index, self, A))
        return out

    def rules_for(self, effects: Sequence[Effect], players: Sequence[str]) -> list[Effect]:
        """The copy limit of EB.deck.copies for each card whose copies an effect speaks of."""
        out = []
        for e in effects:
            if e.topic.startswith("copies of ") and e.origin == "card":
                name = e.topic.removeprefix("copies of ")
                out.append(Effect(f"rules {COPIES}>{e.subject}:{name}", "limit", e.subject, e.topic, 4, origin="rule", rule=COPIES,
                                  text=f"a deck holds at most four copies of {name}"))
        return out


POLICY: Policy = EpicBattlesPolicy()
"""The Epic Battles policy (``spec.core.conflicts.policy_for("epic_battles")``)."""
