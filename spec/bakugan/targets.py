"""Selections: what a card or ability must be aimed at when it is played (1.13, 6.2.1.2).

Walking an effect tree gives its *slots*, in the order the text names them: the Bakugan
an effect is applied to when the text names none (one slot for the whole card, 1.13.1.2),
then each "a ..." the text selects (a Bakugan, an Action in the batch, a Hero in play, a
BakuCore on the Field, a card in play, an Energy card to destroy: one slot for each of "two
Energy cards"). A ``play`` or ``activate`` event lists one
:class:`~spec.bakugan.events.TargetRef` per slot, in that order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, cast

from grammar import ast as A
from grammar import bakugan_nodes as K
from spec.bakugan import board as B
from spec.bakugan.events import TargetRef
from spec.bakugan.state import BakuganState, held_slots
from spec.core.cards import CardDef
from spec.core.interpreter import refuse
from spec.core.queue import QueueItem
from spec.core.state import CardObj


@dataclass(frozen=True)
class Slot:
    """One selection a card needs."""

    key: Any
    """``"implied"``, or the id of the step that selects (with a suffix for a second selection)."""
    kind: str
    """``bakugan``, ``batch``, ``hero``, ``core``, ``in_play`` or ``energy``."""
    selector: A.Selector
    where: tuple[A.Condition, ...] = ()
    step: int = 0
    """The id of the step that selects, for the slots of one step selecting several (they take
    different objects, :func:`resolve_all`); 0 for a slot of its own."""


def energy_keys(key: Any, count: int) -> list[Any]:
    """The slot keys of a step destroying ``count`` Energy cards: its own key, then one per further card."""
    return [key] + [(key, "energy", n) for n in range(1, count)]


def slots_of(steps: tuple[A.Step, ...]) -> list[Slot]:
    """The selections ``steps`` need, in text order (the implied Bakugan counted once).

    Read once per steps object: a slot names its step by identity, so the slots of one
    tuple of steps (an ability of a parsed card text) never change.
    """
    seen = _SLOTS.get(id(steps))
    if seen is not None and seen[0] is steps:
        return list(seen[1])
    found: list[Slot] = []
    _walk(steps, (), found)
    if len(_SLOTS) > 4096:
        _SLOTS.clear()
    _SLOTS[id(steps)] = (steps, tuple(found))
    return found


_SLOTS: Final[dict[int, tuple[tuple[Any, ...], tuple[Slot, ...]]]] = {}
"""The slots of the last steps read, by identity (each kept with its steps, so an id is never taken for another)."""


def _walk(steps: tuple[Any, ...], where: tuple[A.Condition, ...], found: list[Slot]) -> None:
    for step in steps:
        _step(step, where, found)


def _add(found: list[Slot], slot: Slot) -> None:
    if slot.key == "implied" and any(s.key == "implied" for s in found):
        return
    found.append(slot)


def _step(step: Any, where: tuple[A.Condition, ...], found: list[Slot]) -> None:
    if isinstance(step, A.Modify | K.SetStat):
        sel = step.target
        if sel.type == "Bakugan" and sel.quantifier == "the":
            _add(found, Slot("implied", "bakugan", sel, where))
        elif sel.type == "Bakugan" and sel.quantifier == "a":
            _add(found, Slot(id(step), "bakugan", sel, where))
    elif isinstance(step, A.If):
        if step.condition.subject == "faction" and step.condition.of is None:
            _add(found, Slot("implied", "bakugan", A.Selector("the", "Bakugan"), ()))
        _walk(step.then, where, found)
        _walk(step.otherwise, where, found)
    elif isinstance(step, A.May):
        _walk(step.steps, where, found)
    elif isinstance(step, K.Pay):
        _walk(step.cost + step.effect, where, found)
    elif isinstance(step, K.Instead | K.ForEach):
        _walk(step.steps, where, found)
    elif isinstance(step, K.Choice):
        for option in step.options:
            _walk(option, where, found)
    elif isinstance(step, K.Qualified):
        inner = step.step
        key = id(step)
        if isinstance(inner, A.Negate):
            _add(found, Slot(key, "batch", inner.target, step.where))
        elif isinstance(inner, K.Destroy) and inner.what.type == "Energy":
            _energy_slots(found, key, inner.what, step.where)
        elif isinstance(inner, K.Destroy | K.TakeControl):
            _add(found, Slot(key, "hero", inner.what, step.where))
        elif isinstance(inner, K.Retract):
            _add(found, Slot(key, "bakugan", inner.what, step.where))
        elif isinstance(inner, K.Select):
            _add(found, Slot(key, "in_play", inner.what, step.where))
        else:
            _step(inner, step.where, found)
    elif isinstance(step, A.Negate) and step.target.quantifier == "a":
        _add(found, Slot(id(step), "batch", step.target, where))
    elif isinstance(step, K.Destroy) and step.what.quantifier == "a" and step.what.type == "Energy":
        _energy_slots(found, id(step), step.what, where)
    elif isinstance(step, K.Destroy | K.TakeControl) and step.what.quantifier == "a":
        _add(found, Slot(id(step), "hero", step.what, where))
    elif isinstance(step, K.Retract) and step.what.quantifier == "a":
        _add(found, Slot(id(step), "bakugan", step.what, where))
    elif isinstance(step, K.Select):
        _add(found, Slot(id(step), "in_play", step.what, where))
    elif isinstance(step, A.Attach) and step.what.type == "BakuCore":
        _add(found, Slot((id(step), "core"), "core", step.what, where))
        _add(found, Slot((id(step), "to"), "bakugan", step.to, where))


def _energy_slots(found: list[Slot], key: Any, what: A.Selector, where: tuple[A.Condition, ...]) -> None:
    """One slot per Energy card a step destroys ("two Energy cards": two), each a different card (decision 44)."""
    count = what.count if isinstance(what.count, int) else 1
    for part in energy_keys(key, count):
        _add(found, Slot(part, "energy", what, where, step=key))


# ====================================================================== candidates

def _cost_at_most(state: BakuganState, obj: Any, cond: A.Condition) -> bool:
    if isinstance(obj, QueueItem):
        defn = getattr(obj.source, "defn", None)
        cost = B.printed_cost(defn, obj.context.get("x"))  # 1.8.1.2.2: X as paid in the batch
    else:
        cost = B.printed_cost(getattr(obj, "defn", None))  # 1.8.1.2.1: X is zero in play
    return cost <= cast(int, cond.value)


def _not_opened_now(state: BakuganState, obj: Any, cond: A.Condition) -> bool:
    _player, bak = obj
    return bool(bak.opened_turn != state.turn)


def _not_played_now(state: BakuganState, obj: Any, cond: A.Condition) -> bool:
    """Decision 49: a card in play "that was not played this turn" is one whose object was not
    played this turn (a card put into play otherwise counts as not played)."""
    if not isinstance(obj, CardObj):
        raise B.Unmodelled(f"'not played this turn' of a {type(obj).__name__} is not modelled")
    return obj.uid not in state.flags.played


def _not_energy(state: BakuganState, obj: Any, cond: A.Condition) -> bool:
    return True  # Energy cards are never candidates of a card in play


SELECTIONS: Final[tuple[tuple[Callable[[A.Condition], bool], Callable[[BakuganState, Any, A.Condition], bool]], ...]] = (
    (lambda c: c.subject == "cost" and c.op == "<=" and isinstance(c.value, int), _cost_at_most),
    (lambda c: c.subject == "opened" and c.op == "not", _not_opened_now),
    (lambda c: c.subject == "type" and c.op == "not", _not_energy),
    (lambda c: c.subject == "played" and c.op == "not" and c.value == "this turn", _not_played_now),
)
"""The shapes of condition a selection may carry (``Qualified.where``) that the spec reads
(a test of the shape, its reader): one list for :func:`_meets` and :func:`selection_gap`."""


def energy_gap(what: A.Selector) -> str | None:
    """Why the spec cannot select ``what`` in play for a step other than destroying it, or ``None``.
    Destroying one is modelled (decision 44); taking one, or one a selection of "a card" names, is not."""
    return "selecting an Energy card in play other than to destroy it is not modelled" if what.type == "Energy" else None


def out_of_play_gap(what: A.Selector) -> str | None:
    """Why the spec cannot select ``what`` among the cards in play, or ``None``: an Action or
    Flip card is never in play (4.6.1), so a text choosing one means a card elsewhere (the
    real Darkus Blitz: one of a revealed hand), which is not modelled. Without this, such a
    selection found nothing, and every play of the card was refused citing 1.13.1.p2."""
    if what.type in ("Action", "Flip") and what.zone in (None, "play"):
        return f"choosing {'an' if what.type == 'Action' else 'a'} {what.type} card, which is never in play, is not modelled"
    return None


def selection_gap(cond: A.Condition) -> str | None:
    """Why the spec cannot test ``cond`` on a candidate whatever the state, or ``None``."""
    if any(shape(cond) for shape, _reader in SELECTIONS):
        return None
    return f"the selection condition {cond.subject} {cond.op} {cond.value} is not modelled"


def _meets(state: BakuganState, obj: Any, where: tuple[A.Condition, ...]) -> bool:
    """Whether a candidate meets every condition of a selection."""
    for cond in where:
        for shape, reader in SELECTIONS:
            if shape(cond):
                if not reader(state, obj, cond):
                    return False
                break
        else:
            raise B.Unmodelled(str(selection_gap(cond)))
    return True


def candidates(state: BakuganState, controller: str, slot: Slot) -> list[tuple[TargetRef, Any]]:
    """Every legal choice for a slot now: the reference a log uses and the object it means."""
    sel = slot.selector
    out: list[tuple[TargetRef, Any]] = []
    if slot.kind == "bakugan":
        for player, bak in B.face_up(state):  # 1.13.1.2: face-up Bakugan only
            if (slot.key != "implied" or sel.owner is not None) and not B.bakugan_matches(state, controller, sel, player, bak):
                continue
            if _meets(state, (player, bak), slot.where):
                out.append((TargetRef(bak.name, player), (player, bak.name)))
    elif slot.kind == "batch":
        for item in state.batch.items:
            defn = getattr(item.source, "defn", None)
            if item.kind != "card" or defn is None or (sel.type not in ("card", defn.type)):
                continue
            if _meets(state, item, slot.where):
                out.append((TargetRef(item.name, item.controller), item))
    elif slot.kind == "energy":  # face down (3.7.3): told apart only by owner and charge (decision 44)
        if slot.where:
            raise B.Unmodelled("a condition on an Energy card selected is not modelled")
        for player in B.owner_of(state, controller, sel.owner):
            for energy in state.sides[player].energy:
                out.append((TargetRef(owner=player, charged=energy.charged), energy.card))
    elif slot.kind in ("hero", "in_play"):
        refuse(energy_gap(sel) or out_of_play_gap(sel), B.Unmodelled)
        for player in B.owner_of(state, controller, sel.owner):
            side = state.sides[player]
            pool: list[CardObj] = list(side.heroes)
            if slot.kind == "in_play":
                pool += [b.evos[-1] for b in side.team.values() if b.evos]
            elif sel.type == "Evo":  # an Evo to destroy: each of a Bakugan's Evos, as "destroy all Evos" reads them (3.3.2.p1)
                pool += [evo for b in side.team.values() for evo in b.evos]
            for card in pool:
                if card.defn is not None and (sel.type in ("card", card.defn.type)) and _meets(state, card, slot.where):
                    out.append((TargetRef(card.name or "", player), card))
    elif slot.kind == "core":
        held = held_slots(state)
        for number, (icon, _owner) in sorted(state.field_cores.items()):
            if number not in held and (sel.team is None or sel.team == icon):  # on the Field, as on_field tells one slot
                out.append((TargetRef(core=number), number))
    return out


def resolve_all(state: BakuganState, controller: str, slots: list[Slot], refs: list[TargetRef]) -> list[Any]:
    """The object each reference means for its slot (``None`` where it is not a legal choice now),
    the slots of one step taking different objects (:func:`taken_by`)."""
    objects: list[Any] = []
    for slot, ref in zip(slots, refs, strict=False):
        objects.append(pick(candidates(state, controller, slot), slot, ref, taken_by(slots, objects, slot)))
    return objects


def taken_by(slots: list[Slot], objects: list[Any], slot: Slot) -> list[Any]:
    """What the slots before ``slot`` of the same step took (``objects``, slot by slot): "two
    Energy cards" are two different cards (decision 44)."""
    if not slot.step:
        return []
    return [obj for other, obj in zip(slots, objects, strict=False) if other.step == slot.step and obj is not None]


def names_one_kind(slot: Slot, ref: TargetRef) -> bool:
    """Whether a selection names the one kind of thing its slot takes (6.2.1.2): a BakuCore's
    slot and nothing else for a BakuCore; an Energy card by its owner and charge and nothing
    else (decision 44); for any other card, no BakuCore's slot and no charge. A selection naming
    both a BakuCore and a card does not say which was chosen."""
    if slot.kind == "core":
        return ref.core is not None and not ref.card and ref.owner is None and ref.charged is None
    if slot.kind == "energy":
        return ref.charged is not None and ref.owner is not None and not ref.card and ref.core is None
    return ref.core is None and ref.charged is None


def pick(found: list[tuple[TargetRef, Any]], slot: Slot, ref: TargetRef, taken: list[Any] | None = None) -> Any:
    """The object ``ref`` means among a slot's :func:`candidates` ``found``, or ``None`` when it
    is none of them (or names more than its slot takes, :func:`names_one_kind`); ``taken``: the
    objects other slots of its step took, which it does not take again."""
    if not names_one_kind(slot, ref):
        return None
    for candidate, obj in found:
        if slot.kind == "core":
            if ref.core == candidate.core:
                return obj
        elif slot.kind == "energy":
            if (candidate.owner, candidate.charged) == (ref.owner, ref.charged) and not any(obj is t for t in taken or ()):
                return obj
        elif candidate.card == ref.card and (ref.owner is None or ref.owner == candidate.owner):
            return obj
    return None


def still_legal(state: BakuganState, controller: str, slot: Slot, obj: Any) -> bool:
    """Whether a choice made at announcement is still available as the effect completes (6.7.1.2):
    one of the slot's :func:`candidates` now.

    A Bakugan chosen for a slot with no further condition is asked about alone (:func:`_bakugan_still_legal`);
    every other choice is looked for among all the candidates."""
    if slot.kind == "bakugan" and not slot.where and type(obj) is tuple:
        return _bakugan_still_legal(state, controller, slot, obj)
    return still_legal_plain(state, controller, slot, obj)


def still_legal_plain(state: BakuganState, controller: str, slot: Slot, obj: Any) -> bool:
    """:func:`still_legal` read off the whole list of :func:`candidates`."""
    for _ref, candidate in candidates(state, controller, slot):
        if candidate is obj or candidate == obj:
            return True
    return False


def _bakugan_still_legal(state: BakuganState, controller: str, slot: Slot, obj: tuple[Any, ...]) -> bool:
    """Whether the Bakugan ``obj`` (player, name) is among the candidates of a Bakugan slot without
    conditions: face up (1.13.1.2), and described by the slot's selector (its implied Bakugan, the
    one a card is played on, with no owner said, needs only be face up)."""
    if len(obj) != 2:
        return False
    player, name = obj
    side = state.sides.get(player)
    bak = side.team.get(name) if side is not None else None
    if bak is None or not bak.face_up:
        return False
    sel = slot.selector
    return slot.key == "implied" and sel.owner is None or B.bakugan_matches(state, controller, sel, player, bak)


# ====================================================================== a card an effect lets its player play

@dataclass(frozen=True)
class PlayAsked:
    """What an effect's "play a ..." lets its player play (decision 35), the ``detail`` of its need."""

    what: A.Selector
    """The card's type and Factions as the text describes it; it comes from the hand (6.2.1.p1)."""
    where: tuple[A.Condition, ...] = ()
    """Further conditions on the card ("that costs 4 [Energy] or less")."""
    free: bool = False
    """Whether its Energy cost is zero (2.3.3)."""
    must: bool = False
    """Whether the text makes the play (no "may"): then it is skipped only if no card can be played (1.3/3.4)."""
    card: CardObj | None = None
    """The one card the text lets its player play, where it lies rather than from the hand: "play it"
    of a card's own "if this is discarded", that card in its owner's discard pile (decision 41)."""

    def describe(self) -> str:
        if self.card is not None:
            return f"{self.card.name} from the discard pile" + (" for free" if self.free else "")
        said = [self.what.describe()]
        said += [f"costing {c.value} or less" for c in self.where if c.subject == "cost"]
        return " ".join(said) + (" for free" if self.free else "")


def _costs_at_most(defn: CardDef, x: int | None, cond: A.Condition) -> str | None:
    cost = B.printed_cost(defn, x)  # 1.8.1.2.2: X as the play gives it
    return None if cost <= cast(int, cond.value) else f"it costs {cost}, more than {cond.value}"


PLAYABLE: Final[tuple[tuple[Callable[[A.Condition], bool], Callable[[CardDef, int | None, A.Condition], str | None]], ...]] = (
    (lambda c: c.subject == "cost" and c.op == "<=" and isinstance(c.value, int), _costs_at_most),
)
"""The shapes of condition on a card an effect lets its player play that the spec reads (a
test of the shape, its reader giving why a card fails it): one list for :func:`play_gap`
and :func:`playable_gap`."""


def playable_gap(cond: A.Condition) -> str | None:
    """Why the spec cannot test ``cond`` on a card an effect lets its player play, or ``None``."""
    if any(shape(cond) for shape, _reader in PLAYABLE):
        return None
    return f"the condition {cond.subject} {cond.op} {cond.value} on a card played is not modelled"


def play_gap(state: BakuganState, defn: CardDef, x: int | None, asked: PlayAsked) -> str | None:
    """Why ``defn`` (played with ``x``) is not a card ``asked`` lets its player play, or ``None``:
    its printed type, its Factions (2.5) and every further condition (decision 35), or the one card
    it names (decision 41)."""
    if asked.card is not None and defn.name != asked.card.name:
        return f"it is not {asked.card.name}"
    if asked.what.type not in ("card", defn.type):
        return f"it is a {defn.type} card"
    if not B.team_matches(B.card_factions(state, defn), asked.what.team):
        return f"it is not {asked.what.team}"
    for cond in asked.where:
        reader = next((read for shape, read in PLAYABLE if shape(cond)), None)
        if reader is None:
            raise B.Unmodelled(str(playable_gap(cond)))
        miss = reader(defn, x, cond)
        if miss is not None:
            return miss
    return None
