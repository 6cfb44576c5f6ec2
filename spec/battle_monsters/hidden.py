"""Hidden cards of Battle Monsters: exact counting decides, the journal explains.

What a Battle Monsters log shows of a hidden supply deck is always a card *by name*: a
draw names its card or nothing at all (an unseen draw), the two cards put into the
graveyard at set-up are named (BM.start.graveyard), and a card leaving a hand of unseen
draws is named as it is summoned or discarded (a face-down summon too: the event names
the card). No effect of the game searches the deck or shows a hidden card only by its
kind. Every observation is therefore a named ``out`` (no ``mark``), and counting copies
per name against the registered decklist (:class:`spec.core.hidden.DeckKnowledge`) is
exact: the cards shown are possible exactly when no name is shown more often than the
deck holds it (unseen draws are bounded by the deck's size, which ``supply`` tracks).
z3 is not needed to *decide*; counting stays the whole check (decision 24 of
``docs/battle_monsters-decisions.rst``).

Once counting has found a card the deck cannot hold, :func:`explain` asks
:func:`spec.core.hidden_z3.check` for the unsat core of the journal with that card
added: the decklist entry and the earlier events that used up its copies, in plain
words ("bob's registered deck holds 1 copy of Vigil Heron; at seq 31, bob showed Vigil
Heron from the hand; ..."). That call is made only for a log already found
inconsistent, with the solver's limits; if it cannot answer, the counting words stand.
"""

from __future__ import annotations

from spec.core.findings import Violation
from spec.core.hidden import DeckKnowledge
from spec.core.hidden_z3 import DeckModel, Observation, check


def explain(knowledge: DeckKnowledge, name: str, words: str, source: str = "hidden") -> str:
    """Why the deck cannot have supplied ``name`` now: the unsat core in plain words."""
    shown = Observation(knowledge.now, "out", name, words=words, source=source)  # type: ignore[arg-type]
    observations = [o for o in knowledge.observations() if o.name == name or name in o.names] + [shown]
    try:
        outcome = check(DeckModel(knowledge.player, knowledge.registered, knowledge.limit), observations)
    except Exception:  # noqa: BLE001 - z3 missing or failing: the counting words below stand
        outcome = None
    if outcome is not None and outcome.status == "inconsistent":
        return outcome.explanation
    held = knowledge.bound(name)
    return (f"{knowledge.player}'s registered deck holds {held} cop{'y' if held == 1 else 'ies'} of {name}, and the log "
            f"has already shown {knowledge.located[name]} of them outside the supply deck")


def unheld(knowledge: DeckKnowledge, name: str, words: str, source: str = "hidden") -> Violation | None:
    """``inconsistent`` when the registered deck cannot hold one more ``name`` (counting), explained."""
    if knowledge.can_reveal(name):
        return None
    return Violation(explain(knowledge, name, words, source), expected="a card the registered deck can still hold",
                     actual=name, severity="inconsistent")
