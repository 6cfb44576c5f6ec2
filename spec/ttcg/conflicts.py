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
can't-beats-can and no timestamp order.

In a replay the verifier meets clashes in two ways (decision 27 of
``docs/ttcg-decisions.rst``). Effects in force together (the always-on effects of the
cards on the field, what resolved effects left behind, the extra plays granted this
turn) are read after each event (:func:`conflicts_met`, z3 only once the cheap
pre-filter :func:`spec.core.conflicts.could_interact` finds two that could clash) and
each clash is listed once, as an ``info`` finding, or as ``unverifiable`` when no rule
settles it. Three moments are decided by asking the policy: a destruction (by battle,
2.2.7.g, by an effect, or of equipment with its creature, 2.2.5.i.4.a) of a card an
effect says cannot be destroyed (:func:`judge_destroy`); a third play of a Main Phase
under an effect's extra plays (:func:`judge_extra_play`); a level up with a card of
another type under an effect's permission (:func:`judge_level_up`). A log that went
the other way (a spared card claimed destroyed) is ``illegal`` citing the rule that
settled it; a clash no rule settles, or a z3 call that runs out, is ``unverifiable``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grammar import ast as A
from grammar import ttcg_nodes as N
from spec.core.cards import CardDef
from spec.core.conflicts import (
    Conflict,
    Decision,
    Effect,
    Guard,
    Policy,
    Precedence,
    Resolution,
    Template,
    could_interact,
    resolve,
    walk_steps,
)
from spec.core.findings import Violation
from spec.core.game import Ruling
from spec.core.state import CardObj
from spec.ttcg import board as B
from spec.ttcg.state import EDITS, Lasting, Side, TtcgState

STATED = "ttcg:2.2.5.b"
TWO_PLAYS = "ttcg:2.2.3.a.2.a"
ONE_ATTACK = "ttcg:2.2.7.b"
TARGET_CREATURES = "ttcg:2.2.7.c"
INDESTRUCTIBLE = "ttcg:2.1.aj"
SAME_TYPE = "ttcg:2.2.6.b"
BATTLE = "ttcg:2.2.7.g"
WITH_ITS_CREATURE = "ttcg:2.2.5.i.4.a"


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


PRECEDENCE: tuple[Precedence, ...] = (
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
    precedence: tuple[Precedence, ...] = PRECEDENCE

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
                             text=f"{_selected(step.what)} can't {step.action}")]
        if isinstance(step, N.Allow):
            if step.action == "attack twice":
                return [Template("grant", "attack", _owner(step.what), "card", 1, static=static, overrides=True, ability=index,
                                 this=step.what.quantifier == "this",
                                 text=f"{_selected(step.what)} can attack twice")]
            return [Template("can", step.action, _owner(step.what), "card", static=static, overrides=True, ability=index,
                             this=step.what.quantifier == "this",
                             text=f"{_selected(step.what)} can {step.action}")]
        if isinstance(step, N.ExtraPlay) and isinstance(step.what.count, int):
            return [Template("grant", "put a card on the field", "you", "player", step.what.count, static=static, overrides=True,
                             ability=index, text=f"its controller may put {step.what.count} more card(s) on the field")]
        if isinstance(step, N.Destroy):
            return [Template("must", "be destroyed by effects", _owner(step.what), "card", static=False, ability=index, this=step.what.quantifier == "this",
                             text=f"{_selected(step.what)} is destroyed")]
        if isinstance(step, N.Boost) and isinstance(step.delta, int):
            return [Template("modify", step.stat, _owner(step.what), "card", step.delta, static=static, ability=index, this=step.what.quantifier == "this",
                             text=f"{_selected(step.what)} gets {step.delta:+d} {step.stat}")]
        if isinstance(step, N.SetStat) and isinstance(step.value, int):
            return [Template("set", step.stat, _owner(step.what), "card", step.value, static=static, ability=index, this=step.what.quantifier == "this",
                             text=f"{_selected(step.what)} becomes {step.stat} {step.value}")]
        return step_templates(step, static, index, self, A)


def _selected(cards: Any) -> str:
    """The cards a selector picks, in words ("this card", "each Fire unit")."""
    if cards.quantifier == "this":
        return "this card"
    kinds = " or ".join(cards.kinds) or "card"
    return f"{cards.quantifier.replace('_', ' ')} {kinds}"


POLICY: Policy = TtcgPolicy()
"""The TTCG policy (``spec.core.conflicts.policy_for("ttcg")``)."""


# =========================================================================== the verifier's side
#
# Everything below reads a live TtcgState (spec.ttcg.state) and is called by spec.ttcg.game
# and spec.ttcg.actions. ``POLICY`` is looked up at each call, so a test may swap it for
# ``POLICY.without(...)`` and see the verdicts change.


def card_subject(owner: str, card: CardObj) -> str:
    """How a card on the field is named as the subject of effects (its uid keeps copies apart)."""
    return f"{owner}'s {card.name}#{card.uid}"


def _words(owner: str, card: CardObj) -> str:
    """A card on the field, in words ("ann's Pyre Drake")."""
    return f"{owner}'s {card.name}"


def effects_in_force(state: TtcgState) -> list[Effect]:
    """The effects in force now, in the policy's terms.

    The always-on steps of the cards on the field (:func:`spec.ttcg.board.statics`,
    read with 2.2.5.i: Passive always, Equip while attached, Continuous once switched
    on, Latent while untapped), the lasting results of resolved effects (restrictions,
    set values, prohibitions) and the extra plays granted this turn. Stat *changes*
    (gains and losses) are left out: they add up (2.1.ab) and clash with nothing.
    """
    return _read_in_force(state)


def _in_force(state: TtcgState) -> tuple[list[str], frozenset[str]]:
    """The ids of the effects in force, as a list and as the set :func:`conflicts_met` compares
    (read as :func:`_read_in_force` reads the effects, without making them)."""
    ids: list[str] = _reading_in_force(state, ids_only=True)
    return ids, frozenset(ids)


def _signature_kept(state: TtcgState, memo: dict[str, Any]) -> frozenset[str]:
    """The ids of the effects in force (as :func:`_in_force` gives them), kept in ``memo``
    while what the reading looked at stays as it was.

    A reading depends on the field's make-up (any change to it moves
    :func:`spec.ttcg.edits.field_edits`; a state put back from a snapshot has sides of its
    own), the lasting results and the extra plays granted; on the marks of some piles, the
    active player and points, hands or discard pile only if it looked at them, as
    :data:`spec.ttcg.board.READS` tells (for marks, on those piles' own only:
    :func:`spec.ttcg.board.marks_recorded`). The ids do not depend on the order the field is
    read in. A reading that looked at points, a hand or a discard pile is not kept. What it was
    kept with is compared with the state where it stands (the lasting results and extra plays are
    kept as lists, compared element by element as tuples of them were); the marks of the piles it
    looked at are not looked at again while no mark changed anywhere (:func:`spec.ttcg.edits.mark_edits`
    as it was when it was read). When
    :func:`_nothing_in_force` tells that nothing is in force (from the field's make-up, the
    lasting results and the extra plays alone), the reading is not made.
    """
    flags = state.flags
    kept = memo.get("reading")
    if isinstance(kept, _Reading):
        marks = kept.marks
        active = kept.active
        if (kept.sides == state.sides and kept.field == EDITS.field and kept.lasting == state.lasting and kept.extra == flags.extra
                and kept.sources == flags.extra_sources and (marks is None or B.marks_unchanged(marks, kept.marks_edits))
                and (active is None or active == state.active)):
            return kept.signature  # (compared where they stand: nothing is built to ask)
    reading = _Reading(state)  # (what the reading starts from)
    if _nothing_in_force(state):
        memo["reading"] = reading
        return reading.signature
    reads = B.READS
    active_before, beyond_before = reads.active, reads.beyond
    (_effects, signature), seen = B.marks_recorded(lambda: _in_force(state))
    if reads.beyond != beyond_before:
        memo.pop("reading", None)
        return signature
    reading.marks = seen if seen else None  # the piles whose marks it looked at, and their counts of changes
    reading.marks_edits = EDITS.marks
    reading.active = state.active if reads.active != active_before or flags.extra else None
    reading.signature = signature
    memo["reading"] = reading
    return signature


class _Reading:
    """What :func:`_signature_kept` keeps of a reading: taken as it starts, the state's sides, the count
    of changes to the field's make-up and copies of the lasting results and extra plays; once it is
    made, the piles whose marks it looked at (``None``: none) with the count of mark changes then, the
    active player if it looked at who is (``None``: it did not), and the ids it found (none, until it
    is made). A native class rather than a tuple, so that the compiled comparison reads typed fields
    instead of unpacking a tuple of unknown shape."""

    __slots__ = ("active", "extra", "field", "lasting", "marks", "marks_edits", "sides", "signature", "sources")

    def __init__(self, state: TtcgState) -> None:
        flags = state.flags
        self.sides: dict[str, Side] = state.sides
        self.field: int = EDITS.field
        self.lasting: list[Lasting] = list(state.lasting)
        self.extra: list[tuple[int, tuple[str, ...]]] = list(flags.extra)
        self.sources: list[str] = list(flags.extra_sources)
        self.marks: B.MarksSeen | None = None
        self.marks_edits = 0
        self.active: str | None = None
        self.signature: frozenset[str] = frozenset()


def _field_and_clashes(state: TtcgState) -> tuple[list[tuple[str, CardObj]], list[tuple[str, Any, Any]]]:
    """The top cards of the field (with their owners), and (controller, source pile, step) of
    the can'ts and set values among the statics in force, both in field order.

    The steps are those :func:`spec.ttcg.board.statics` gives, in its order, read only from
    the effects that are not quiet (:func:`spec.ttcg.board.loud`): the others have no such
    step and are read without fail, so leaving them out changes neither the result nor
    what raises.
    """
    return list(B.field_of(state).tops), B.statics_of(state, B._CLASHING)


def _field_and_clashes_plain(state: TtcgState) -> tuple[list[tuple[str, CardObj]], list[tuple[str, Any, Any]]]:
    """:func:`_field_and_clashes` read pile by pile."""
    field: list[tuple[str, CardObj]] = []
    found: list[tuple[str, Any, Any]] = []
    known = B.quiet_cards(state)
    for owner in B.players_in_order(state):
        side = state.sides[owner]
        for pile in side.creatures + side.magic:
            if pile.card.name is not None:
                field.append((owner, pile.card))
            for card in (pile.card, *pile.under) if pile.under else (pile.card,):
                name = card.name
                if name is None or known.get(name):
                    continue
                for index, label, ability, steps in B.loud(state, name):
                    if B.in_force(state, owner, pile, card, index, label, ability):
                        found.extend((owner, pile, step) for step in steps)
    return field, found


def _read_in_force(state: TtcgState) -> list[Effect]:
    """The effects in force (see :func:`effects_in_force`)."""
    effects: list[Effect] = _reading_in_force(state, ids_only=False)
    return effects


def _reading_in_force(state: TtcgState, ids_only: bool) -> list[Any]:
    """The effects in force, or with ``ids_only`` only their ids, in the same order (the reading is
    the same: what it looks at, what it finds, what raises; a frozen :class:`Effect` costs more to
    make than its id, and the change of the ids is all :func:`_signature_kept` looks for)."""
    out: list[Any] = []
    field, clashes = _field_and_clashes(state)
    for controller, source, step in clashes:
        key = f"{source.card.name}#{source.card.uid}"
        ident = f"{key}/{type(step).__name__}/{_topic(step)}"
        if ids_only:  # (the ids alone: no names or texts of the effects made)
            counted = isinstance(step, N.Restrict) or isinstance(step.value, int)
            for owner, card in B.covered(state, controller, source, step.what, field):
                if counted:
                    out.append(f"{ident}>{card_subject(owner, card)}")
            continue
        name = f"{source.card.name} ({controller})"
        for owner, card in B.covered(state, controller, source, step.what, field):
            subject = card_subject(owner, card)
            if isinstance(step, N.Restrict):
                out.append(Effect(f"{ident}>{subject}", "cant", subject, step.action, 0, name, "card", controller, key,
                                  text=f"{_words(owner, card)} cannot {step.action}"))
            elif isinstance(step.value, int):
                out.append(Effect(f"{ident}>{subject}", "set", subject, step.stat, step.value, name, "card", controller, key,
                                  text=f"{_words(owner, card)} has {step.value} {step.stat}"))
    for lasting in state.lasting:
        if lasting.kind not in ("prohibit", "restrict", "set"):
            continue  # gains and losses add up and clash with nothing
        source = f"an effect of {lasting.controller}"
        ident = f"lasting{lasting.order}"
        if lasting.kind == "prohibit":
            for player in state.players:
                if lasting.uids == (B.player_key(state, player),):
                    out.append(f"{ident}>{player}" if ids_only else Effect(
                        f"{ident}>{player}", "cant", player, lasting.what, 0, source, "card", lasting.controller,
                        static=False, text=f"{player} cannot {lasting.what}"))
            continue
        for owner, card in field:
            if not B.lasting_covers(state, lasting, card, on_top=True):
                continue
            subject = card_subject(owner, card)
            if ids_only:
                out.append(f"{ident}>{subject}")
            elif lasting.kind == "restrict":
                out.append(Effect(f"{ident}>{subject}", "cant", subject, lasting.what, 0, source, "card", lasting.controller,
                                  static=False, text=f"{_words(owner, card)} cannot {lasting.what}"))
            else:
                out.append(Effect(f"{ident}>{subject}", "set", subject, lasting.what, lasting.amount, source, "card",
                                  lasting.controller, static=False, text=f"{_words(owner, card)} has {lasting.amount} {lasting.what}"))
    for index, (count, kinds) in enumerate(state.flags.extra):
        source = state.flags.extra_sources[index] if index < len(state.flags.extra_sources) else "an effect"
        what = " or ".join(kinds) + " " if kinds else ""
        out.append(f"extra{index}>{state.active}" if ids_only else Effect(
            f"extra{index}>{state.active}", "grant", state.active, "put a card on the field", count, source, "card",
            state.active, static=False, overrides=True, text=f"{state.active} may put {count} more {what}card(s) on the field this turn"))
    return out


def _topic(step: Any) -> str:
    """What a clashing static step is about, as ``getattr(step, "action", getattr(step, "stat", ""))``
    finds it: a can't's action, a set value's stat. The two kinds are told by their class first, so
    that asking does not look for a field the step lacks (a failed look-up raises and catches an
    ``AttributeError``: costly where it runs for every clash of every reading)."""
    if isinstance(step, N.Restrict):
        return step.action
    if isinstance(step, N.SetStat):
        return step.stat
    return getattr(step, "action", getattr(step, "stat", ""))


def conflicts_met(state: TtcgState, memo: dict[str, Any]) -> list[Ruling]:
    """Findings for clashes between effects in force not reported yet (see the module docstring)."""
    if state.stage != "turn":
        return []
    quick = change_key(state)  # (the verifier asks only after an event that moved the change stamp: Ttcg.conflicts_stamp)
    if memo.get("quick") == quick:
        return []  # nothing entered, left, tapped, switched on or began: most events
    memo["quick"] = quick
    try:
        signature = _signature_kept(state, memo)
        if memo.get("effects") == signature:
            return []
        effects = _read_in_force(state) if signature else []  # the effects themselves, in field order
    except Exception:  # noqa: BLE001 - a card the spec cannot read is reported by the event itself
        return []
    memo["effects"] = signature
    if not could_interact(effects, POLICY):
        return []
    resolution = resolve(effects, POLICY)
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


def change_stamp(state: TtcgState) -> tuple[Any, ...]:
    """While it stays the same, so does :func:`change_key`; the game's ``conflicts_stamp``
    (``TtcgState.in_force_stamp``) moves whenever it does, so :func:`conflicts_met` is asked
    only after an event that may have moved the change key, and starts with it.

    It holds the plain numbers of the change key, and instead of the marks counted on the
    field, the counts of changes to the field's make-up and to the piles' marks (in any
    state), with the state's sides (a state put back from a snapshot has sides of its own).
    """
    return (state.next_uid, state.next_order, len(state.lasting), state.turn, len(state.flags.extra), EDITS.field, EDITS.marks,
            state.sides)


def change_key(state: TtcgState) -> tuple[Any, ...]:
    """What :func:`conflicts_met` compares from event to event: new cards, new lasting results and
    turns, then each side's piles: how many, how many tapped, and the effects switched on among them
    (:func:`spec.ttcg.board.field_marks`, counted again only when they may have changed)."""
    return state.next_uid, state.next_order, len(state.lasting), state.turn, len(state.flags.extra), B.field_marks(state)


def _nothing_in_force(state: TtcgState) -> bool:
    """Whether :func:`effects_in_force` is sure to find nothing (and to read the field without fail).

    So it is when every card on the field is quiet (:func:`spec.ttcg.board.quiet`), no
    lasting result restricts, sets or prohibits, and no extra play was granted: the
    common case, told without reading the effects in force.
    """
    if state.flags.extra:
        return False
    for lasting in state.lasting:
        if lasting.kind in ("prohibit", "restrict", "set"):
            return False
    return B.nothing_loud(state)


def _nothing_in_force_plain(state: TtcgState) -> bool:
    """:func:`_nothing_in_force` read pile by pile."""
    if state.flags.extra:
        return False
    for lasting in state.lasting:
        if lasting.kind in ("prohibit", "restrict", "set"):
            return False
    known = B.quiet_cards(state)
    for side in state.sides.values():
        for row in (side.creatures, side.magic):
            for pile in row:
                name = pile.card.name
                if name is not None and not (known.get(name) or B.quiet(state, name)):
                    return False
                for card in pile.under:
                    if card.name is not None and not (known.get(card.name) or B.quiet(state, card.name)):
                        return False
    return True


def conflict_ruling(conflict: Conflict) -> Ruling:
    """The finding for one conflict: ``info`` when settled, ``unverifiable`` for a gap in the rules."""
    effects = "; ".join(e.describe() for e in conflict.effects)
    s = conflict.settlement
    if s is None:
        return Ruling(None, Violation(f"a gap in the rules: no precedence rule of the TTCG settles the clash of {effects}",
                                      expected="a rule deciding which effect applies", actual="effects that cannot all apply",
                                      severity="unverifiable"), "conflicts")
    return Ruling(s.rule, Violation(f"effects clash: {effects}; settled by {s.describe()}",
                                    expected="applies: " + "; ".join(e.describe() for e in s.winners),
                                    actual="gives way: " + "; ".join(e.describe() for e in s.losers),
                                    severity="info"), "conflicts")


def _open(resolution: Resolution, relevant: list[Conflict]) -> Ruling | None:
    """The ``unverifiable`` finding when z3 ran out or a relevant clash is a gap in the rules."""
    if resolution.undecided:
        return Ruling(None, Violation(resolution.undecided, "a decided clash", "undecided", "unverifiable"), "conflicts")
    gaps = [c for c in relevant if c.settlement is None]
    return conflict_ruling(gaps[0]) if gaps else None


def _judge(effects: list[Effect], judged: Effect) -> tuple[bool, list[Ruling]]:
    """Whether ``judged`` prevails among ``effects`` (with it), and the findings of the clashes it is in."""
    resolution = resolve([*effects, judged], POLICY)
    relevant = [c for c in resolution.conflicts if any(e.id == judged.id or e.id.startswith(judged.id + "[") for e in c.effects)]
    problem = _open(resolution, relevant)
    if problem is not None:
        return False, [problem]
    prevails = any(e.id == judged.id or e.id.startswith(judged.id + "[") for e in resolution.prevailing)
    return prevails, [conflict_ruling(c) for c in relevant]


# --------------------------------------------------------------------------- destruction (2.1.aj)


def judge_destroy(state: TtcgState, owner: str, card: CardObj, by: str, cause: CardObj | None = None,
                  with_creature: bool = False) -> tuple[bool, list[Ruling]]:
    """Whether ``owner``'s ``card``, which an effect in force says cannot be destroyed, is destroyed.

    The destruction is a ``must``: of the rules for a battle (2.2.7.g) or equipment going
    with its creature (2.2.5.i.4.a), of the card ``cause`` for an effect. The policy
    settles it against the shields in force (2.1.aj: the shield prevails).
    """
    subject = card_subject(owner, card)
    topic = "be destroyed in battle" if by == "battle" else "be destroyed by effects"
    shields = [e for e in effects_in_force(state) if e.subject == subject and e.kind == "cant" and POLICY.covers(e.topic, topic)]
    if with_creature:
        blow = Effect(f"destroy>{subject}", "must", subject, topic, origin="rule", rule=WITH_ITS_CREATURE,
                      text=f"{_words(owner, card)} is destroyed with the creature it is attached to")
    elif by == "battle":
        blow = Effect(f"destroy>{subject}", "must", subject, topic, origin="rule", rule=BATTLE,
                      text=f"{_words(owner, card)} is destroyed as the weaker side of the battle")
    else:
        source = f"{cause.name} ({cause.owner})" if cause is not None and cause.name else "an effect"
        blow = Effect(f"destroy>{subject}", "must", subject, topic, source=source, controller=getattr(cause, "owner", None),
                      static=False, text=f"{_words(owner, card)} is destroyed")
    return _judge(shields, blow)


# --------------------------------------------------------------------------- extra plays (2.2.3.a.2.a)


def judge_extra_play(state: TtcgState, player: str) -> tuple[bool, list[Ruling]]:
    """Whether another play beyond the two of the Main Phase stands, under the extra plays in force."""
    limit = Effect(f"rules {TWO_PLAYS}>{player}", "limit", player, "put a card on the field", 2, origin="rule", rule=TWO_PLAYS,
                   text=f"{player} puts at most two cards on the field in a Main Phase")
    grants = [e for e in effects_in_force(state) if e.kind == "grant" and e.subject == player]
    prevails, rulings = _judge(grants, limit)
    return not prevails and not _is_open(rulings), rulings


def _is_open(rulings: list[Ruling]) -> bool:
    return any(r.violation.severity == "unverifiable" for r in rulings)


# --------------------------------------------------------------------------- levelling up (2.2.6.b)


def judge_level_up(state: TtcgState, owner: str, target: CardObj, using: str, source: str) -> tuple[bool, list[Ruling]]:
    """Whether ``using`` (of another type) may level up ``target`` under ``source``'s permission."""
    subject = card_subject(owner, target)
    topic = "be levelled up with a card of another type"
    rule = Effect(f"rules {SAME_TYPE}>{subject}", "cant", subject, topic, origin="rule", rule=SAME_TYPE,
                  text=f"{_words(owner, target)} is levelled up only with a card of its own type")
    permission = Effect(f"permit>{subject}", "can", subject, topic, source=source, controller=owner, overrides=True,
                        text=f"{_words(owner, target)} can be levelled up with {using}")
    prevails, rulings = _judge([permission], rule)
    return not prevails and not _is_open(rulings), rulings


def play_notes(state: TtcgState, player: str, card: str, on: Any) -> list[Ruling]:
    """``info`` findings for a legal play that a settled clash allowed (called before it is carried out)."""
    notes: list[Ruling] = []
    if state.flags.plays >= 2 and state.resolution is None:
        allowed, rulings = judge_extra_play(state, player)
        if allowed:
            notes += rulings
    defn = state.cards.get(card)
    if on is not None and defn is not None:
        pile = B.find_pile(state, player, on.card, on.slot)
        if pile is not None and B.element(defn) != B.element(pile.card.defn):
            permission = B.rank_up_allowed(state, pile.card, defn, player)
            if permission is not None:
                allowed, rulings = judge_level_up(state, player, pile.card, card, permission)
                if allowed:
                    notes += rulings
    return [r for r in notes if r.violation.severity == "info"]
