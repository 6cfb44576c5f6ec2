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
is a gap in the rules and is reported as one.

In a replay (decisions 28 to 31 of ``docs/epic_battles-decisions.rst``) the verifier meets
the three places where the book defers:

* a deck holding more than four copies of a card whose own limit is higher: the rule's
  four against the card's limit (:func:`judge_copies`, at set-up);
* a card effect standing a knocked-down player up: the knock-down, which lasts until
  the combo is over, against the card's *recover* (:func:`judge_recover`);
* an event flipped outside its moment while a card lets its player flip events: the
  flip timing against the card's permission (:func:`judge_flip`).

The rules enter only as their restrictions (four copies, the flip moment, staying down):
a card's can't that narrows what the rules allow (Heckling Fans, "your rival can't
flip events") does not clash with the rules, it is what card text does. Settled
clashes are ``info`` findings listed once each in the report's ``conflicts``
(:func:`conflicts_met`); a move that a settled clash decides cites the precedence rule
(the paid recovery of a player a card stood up, ``actions.recover_after_card``); a clash
no rule settles, such as a card's can't against another card's can, or a z3 call that
runs out, is ``unverifiable``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final

from grammar import ast as A
from grammar import epic_battles_nodes as N
from spec.core.cards import CardDef
from spec.core.conflicts import (
    Conflict,
    Decision,
    Effect,
    Policy,
    Precedence,
    Resolution,
    Template,
    could_interact,
    resolve,
    step_templates,
    walk_steps,
)
from spec.core.findings import Violation
from spec.core.game import Ruling
from spec.epic_battles import board as B

if TYPE_CHECKING:  # pragma: no cover - typing only
    from spec.epic_battles.state import EpicBattlesState

COPIES: Final = "epic_battles:EB.deck.copies"
FLIP_TIMING: Final = "epic_battles:EB.card.event.flip.timing"
RECOVERY: Final = "epic_battles:EB.recover.effect"
DEFERRING: Final = (COPIES, FLIP_TIMING, RECOVERY)


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
    precedence: tuple[Precedence, ...] = tuple(_defers_to(rule) for rule in DEFERRING)

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
                elif isinstance(step, N.EpicBattlesRecover):
                    who = "opponent" if step.player == "opponent" else "you"
                    out.append(Template("must", RECOVER, who, "player", static=False, ability=index,
                                        text=("the opponent" if who == "opponent" else "its controller") + " recovers"))
                elif not isinstance(step, A.Negate):  # negating an attack being played cancels it: no effect in force
                    out.extend(step_templates(step, static, index, self, A))
        return out

    def rules_for(self, effects: Sequence[Effect], players: Sequence[str]) -> list[Effect]:
        """The rules' restrictions the card effects could meet: the copy limit of EB.deck.copies,
        the flip moment (EB.card.event.flip.timing) and staying down (EB.kw.knockdown, EB.recover.effect)."""
        out = []
        seen: set[str] = set()
        for e in effects:
            if e.origin != "card":
                continue
            if e.topic.startswith("copies of "):
                name = e.topic.removeprefix("copies of ")
                out.append(Effect(f"rules {COPIES}>{e.subject}:{name}", "limit", e.subject, e.topic, 4, origin="rule", rule=COPIES,
                                  text=f"a deck holds at most four copies of {name}"))
            elif e.topic == FLIP and e.kind == "can" and f"flip {e.subject}" not in seen:
                seen.add(f"flip {e.subject}")
                out.append(flip_rule(e.subject))
            elif e.topic == RECOVER and e.kind == "must" and f"down {e.subject}" not in seen:
                seen.add(f"down {e.subject}")
                out.append(down_rule(e.subject))
        return out


POLICY: Policy = EpicBattlesPolicy()
"""The Epic Battles policy (``spec.core.conflicts.policy_for("epic_battles")``)."""


# =========================================================================== in a replay

RECOVER: Final = "recover"
FLIP: Final = "flip events"
TOPICS: Final = (RECOVER, FLIP, "link attacks", "pass")
"""The actions of players that card effects say can or can't be done and that the
verifier weighs (``play High blocks`` and the like are added as met)."""


def policy() -> Policy:
    """The policy in force (read at each call, so that a test can replace :data:`POLICY`)."""
    return POLICY


def down_rule(player: str) -> Effect:
    """EB.kw.knockdown as a restriction: a player who is down stays down until the combo is over."""
    return Effect(f"rules {RECOVERY}>{player}", "cant", player, RECOVER, origin="rule", rule=RECOVERY,
                  text=f"{player} stays down until the combo is over (EB.kw.knockdown), unless an effect makes them recover")


def flip_rule(player: str) -> Effect:
    """EB.card.event.flip.timing as a restriction: an event is flipped only at the moment its text names."""
    return Effect(f"rules {FLIP_TIMING}>{player}", "cant", player, FLIP, origin="rule", rule=FLIP_TIMING,
                  text=f"{player} flips an event only at the moment its text names")


def cards_in_force(state: EpicBattlesState, player: str | None = None, topic: str | None = None) -> list[Effect]:
    """Card effects in force saying a player can or can't do something: lasting changes of
    resolved cards and the characters' always-on abilities (``player``/``topic`` filter them)."""
    out: list[Effect] = []
    found: list[tuple[str, Any, str, str | None, bool]] = []
    for number, lasting in enumerate(state.lasting):
        found.append((f"lasting{number}", lasting.step, lasting.controller, lasting.source, False))
    for controller, ability in B.passives(state):
        character = state.sides[controller].character
        for number, step in enumerate(ability.effect):
            found.append((f"{getattr(character, 'name', '')}#{number}", step, controller, getattr(character, "name", None), True))
    for ident, step, controller, source, static in found:
        if not isinstance(step, (A.Prohibit, A.Permit)) or step.subject.type != "player":
            continue
        if topic is not None and step.action != topic:
            continue
        kind = "cant" if isinstance(step, A.Prohibit) else "can"
        name = source or "an effect"
        for subject in B.who(state, controller, step.subject.owner):
            if player is not None and subject != player:
                continue
            verb = "can" if kind == "can" else "can't"
            words = f"{subject} {verb} {step.action}"
            out.append(Effect(f"{ident}>{subject}", kind, subject, step.action, source=name, controller=controller,  # type: ignore[arg-type]
                              source_key=f"{name}@{controller}", static=static, text=words))
    return out


def _may_speak(state: EpicBattlesState) -> bool:
    """Whether :func:`cards_in_force` could find anything, judged without reading conditions:
    ``False`` when no lasting change and no character's always-on ability says a player
    can or can't do something, and every such ability's condition can be read."""
    for lasting in state.lasting:
        if isinstance(lasting.step, (A.Prohibit, A.Permit)):
            return True
    speaks = state.by_characters.get(SPEAKS)
    if speaks is None:
        try:
            readings = [B.speaks_of_players(state, side.character.name) for side in state.sides.values()
                        if side.character is not None and side.character.name is not None]  # every character read
        except B.Unmodelled:  # a character's text cannot be read: ask as the rules' order of players does, each time
            return any(B.speaks_of_players(state, name) for name in _characters_in_order(state))
        speaks = state.by_characters[SPEAKS] = any(readings)
    return speaks


def _characters_in_order(state: EpicBattlesState) -> Iterator[str]:
    """The names of the characters in play, the aggressor's first."""
    for player in state.in_order():
        character = state.sides[player].character
        if character is not None and character.name is not None:
            yield character.name


SPEAKS: Final = "speaks of players"
"""The key of ``state.by_characters`` under which :func:`_may_speak` keeps whether a character
in play may say what a player can or can't do."""


def conflict_ruling(conflict: Conflict) -> Ruling:
    """The finding for one conflict: ``info`` when settled, ``unverifiable`` for a gap."""
    effects = "; ".join(e.describe() for e in conflict.effects)
    s = conflict.settlement
    if s is None or s.conditional is not None:
        return Ruling(None, Violation(f"a gap in the rules: no precedence rule of Epic Battles settles the clash of {effects}",
                                      expected="a rule deciding which effect applies", actual="effects that cannot all apply",
                                      severity="unverifiable"), "conflicts")
    return Ruling(s.rule, Violation(f"effects clash: {effects}; settled by {s.describe()}",
                                    expected="applies: " + "; ".join(e.describe() for e in s.winners),
                                    actual="gives way: " + "; ".join(e.describe() for e in s.losers),
                                    severity="info"), "conflicts")


def _open(resolution: Resolution, relevant: Sequence[Conflict]) -> Ruling | None:
    """The ``unverifiable`` finding when z3 ran out or no rule settles a relevant conflict."""
    if resolution.undecided:
        return Ruling(None, Violation(resolution.undecided, "a decided clash", "undecided", "unverifiable"), "conflicts")
    gap = next((c for c in relevant if c.settlement is None or c.settlement.conditional is not None), None)
    return None if gap is None else conflict_ruling(gap)


def _note(state: EpicBattlesState, conflicts: Sequence[Conflict]) -> None:
    state.notes.extend(conflict_ruling(c) for c in conflicts if c.settlement is not None and c.settlement.conditional is None)


def judge_recover(state: EpicBattlesState, player: str, source: str) -> tuple[bool, str | None]:
    """A card effect makes ``player``, who is down, recover: the knock-down against the card.

    Returns whether the player stands up, and how the clash was settled (noted ``info``).
    A clash no rule settles (a card's can't recover against the card) is noted
    ``unverifiable``; the effect is then carried out as printed, the player stands up,
    and no later move is judged by the unsettled clash (``None``).
    """
    stays = down_rule(player)
    stand = Effect(f"{source}>recovers>{player}", "must", player, RECOVER, source=source, static=False,
                   source_key=f"{source}@recover", text=f"{player} recovers")
    resolution = resolve([stays, stand, *cards_in_force(state, player, RECOVER)], policy())
    relevant = [c for c in resolution.conflicts if stand in c.effects]
    problem = _open(resolution, relevant)
    if problem is not None:
        state.notes.append(problem)
        return True, None
    _note(state, relevant)
    if stand not in resolution.prevailing:
        return False, None
    settled = [c.settlement for c in relevant if c.settlement is not None]
    return True, settled[0].describe() if settled else None


def flip_permitted(state: EpicBattlesState, player: str) -> bool:
    """Whether a card effect in force says ``player`` can flip events (outside their moments)."""
    return _may_speak(state) and any(e.kind == "can" for e in cards_in_force(state, player, FLIP))


def judge_flip(state: EpicBattlesState, player: str, name: str) -> Violation | None:
    """``name`` is flipped outside its moment while a card lets ``player`` flip events:
    the flip timing against the card's permission, and any card's can't flip against it.

    ``None``: the flip stands (the settled clash is noted ``info``); otherwise the finding.
    """
    rule = flip_rule(player)
    resolution = resolve([rule, *cards_in_force(state, player, FLIP)], policy())
    problem = _open(resolution, resolution.conflicts)
    if problem is not None:
        return problem.violation
    if rule in resolution.prevailing or any(e.kind == "cant" and e.topic == FLIP for e in resolution.prevailing):
        how = next((c.settlement.describe() for c in resolution.conflicts if c.settlement is not None), "")
        return Violation(f"{name} flipped when its moment had not come" + (f" ({how})" if how else ""),
                         expected="a flip at its moment", actual="flip now")
    _note(state, resolution.conflicts)
    return None


def judge_copies(player: str, name: str, copies: int, limit: int) -> Ruling | None:
    """A deck holds ``copies`` (more than four) of a card whose own text allows ``limit``:
    EB.deck.copies' four against the card. The ruling: ``info`` when the card prevails,
    else ``illegal`` (the rule stands) or ``unverifiable`` (no rule settles it)."""
    subject = f"{player}'s deck"
    grant = Effect(f"{name}>limit>{player}", "grant", subject, f"copies of {name}", limit - 4, source=name,
                   source_key=name, text=f"{player}'s deck may hold {limit} copies of {name} ({copies} registered)")
    four = Effect(f"rules {COPIES}>{player}:{name}", "limit", subject, f"copies of {name}", 4, origin="rule", rule=COPIES,
                  text=f"{player}'s deck holds at most four copies of {name}")
    resolution = resolve([grant, four], policy())
    problem = _open(resolution, resolution.conflicts)
    if problem is not None:
        return problem
    if grant not in resolution.prevailing:
        return Ruling(COPIES, Violation(f"{player}'s deck: {copies} copies of {name}", "at most 4", str(copies)))
    return next((conflict_ruling(c) for c in resolution.conflicts), None)


def _seen(memo: dict[str, Any]) -> set[Any]:
    """What :func:`conflicts_met` has listed so far (kept in the verifier's memo)."""
    seen: set[Any] | None = memo.get("seen")
    if seen is None:
        seen = memo["seen"] = set()
    return seen


def conflicts_met(state: EpicBattlesState, memo: dict[str, Any]) -> list[Ruling]:
    """Clashes met since the last call, each listed once: those the flow settled while it
    carried out the last event (``state.notes``), and clashes between the card effects in
    force (a card's can against another card's can't)."""
    notes = state.notes
    quick = (len(state.lasting), state.round, state.turn, state.stage)
    if not notes and memo.get("quick") == quick:
        return []  # nothing settled and no lasting change came or went since the last look (the usual case)
    rulings: list[Ruling] = []
    if notes:
        seen = _seen(memo)
        for ruling in notes:
            key = (ruling.rule, ruling.violation.message)
            if ruling.violation.severity == "info" and key not in seen:
                seen.add(key)
                rulings.append(ruling)
        notes.clear()
    if memo.get("quick") == quick:
        return rulings  # no lasting change came or went since the last look
    memo["quick"] = quick
    if state.stage != "turn":
        return rulings
    seen = _seen(memo)
    if not _may_speak(state):
        return rulings  # no card effect in force says what a player can or can't do
    effects = cards_in_force(state)
    if not could_interact(effects, policy()):
        return rulings
    resolution = resolve(effects, policy())
    for conflict in resolution.conflicts:
        if conflict.key not in seen:
            seen.add(conflict.key)
            rulings.append(conflict_ruling(conflict))
    if resolution.undecided and resolution.undecided not in seen:
        seen.add(resolution.undecided)
        rulings.append(Ruling(None, Violation(resolution.undecided, severity="unverifiable"), "conflicts"))
    return rulings
