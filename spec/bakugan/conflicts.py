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
``set_base``, a destroy a must-be-destroyed; BakuCore-icon statics are always on.
This module is standalone: the lead wires it into the Bakugan verifier.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grammar import ast as A
from grammar import bakugan_nodes as N
from spec.core.cards import CardDef
from spec.core.conflicts import (
    CAN_SIDE,
    CANT_SIDE,
    Decision,
    Effect,
    Policy,
    Precedence,
    Template,
    card_over_rules,
    shared_templates,
    walk_steps,
)

RULE_CARD_OVER_RULES = "bakugan:1.3/3.1"
RULE_CANT_OVERRIDES = "bakugan:1.3/3.2"


def _cant_overrides(core: Sequence[Effect]) -> Decision | None:
    """1.3/3.2: a card's can't prevails over every can or must, of cards or of the rules."""
    cants = [e for e in core if e.kind in CANT_SIDE and e.origin == "card"]
    cans = tuple(e for e in core if e.kind in CAN_SIDE)
    if not cants or not cans or len(cants) + len(cans) != len(core):
        return None
    return Decision(cans, "the can't of " + ", ".join(sorted({e.source for e in cants})) + " overrides "
                    + ", ".join(sorted({e.describe() for e in cans})))


CANT_OVERRIDES = Precedence(RULE_CANT_OVERRIDES, "a can't overrides anything", "a card's can't prevails over any can or must", _cant_overrides)
CARD_OVER_RULES = card_over_rules(RULE_CARD_OVER_RULES)


def _owner(sel: Any) -> str:
    owner = getattr(sel, "owner", None)
    return "opponent" if owner == "opponent" else "each" if owner in ("each", "any") else "you"


class BakuganPolicy(Policy):
    """The Bakugan precedence policy (see the module docstring)."""

    game = "bakugan"
    precedence = (CANT_OVERRIDES, CARD_OVER_RULES)

    def is_static(self, card: CardDef, ability: Any) -> bool:
        return isinstance(ability, A.Passive | N.CoreStatic)

    def object_kind(self, selector_type: str) -> str:
        return "player" if selector_type == "player" else "Bakugan" if selector_type in ("Bakugan", "Character", "Evo") else "card"

    def templates(self, card: CardDef, tree: A.CardText) -> list[Template]:
        out = shared_templates(card, tree, self)
        for index, ability in enumerate(tree.abilities):
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
        if isinstance(ability, N.Rider) and ability.when:
            return {ability.when}
        return super().listens(ability)


POLICY: Policy = BakuganPolicy()
"""The Bakugan policy (``spec.core.conflicts.policy_for("bakugan")``)."""
