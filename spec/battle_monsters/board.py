"""Reading the Battle Monsters board: printed cards, selectors, conditions, points, permissions.

Everything here only reads the state. Card meaning comes from the parsed trees
(:meth:`spec.core.cards.CardDatabase.abilities`); a card whose text does not parse, or
holds words no template covers, raises :class:`Unmodelled`, which the game reports as
``unverifiable`` naming the card.

Printed monsters. A monster card is printed from a root, optionally with an element
prefix before its name and a title suffix after it (``"Emberclad Cinder Whelp the
Restless"``); each part brings its points and its special effect, the root its species
keyword, and the prefix its element. A name is split into its parts here
(:func:`printed`); prefixes and suffixes are not cards on their own.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any, Final, TypeVar

from grammar import ast as A
from grammar import battle_monsters_nodes as N
from spec.battle_monsters.state import BattleMonstersState, OnField
from spec.core.cards import CardDatabase, CardDef
from spec.core.interpreter import sole_player

T = TypeVar("T")


class Unmodelled(Exception):
    """Something the spec does not model (reported as unverifiable, with what and which card)."""


# ====================================================================== printed cards

_KINDS: dict[str, str] = {}
"""Card type -> its kind (the type line alone decides it)."""


def kind_of(defn: CardDef) -> str:
    """``monster``, ``spell``, ``trap`` (the word before any parenthesis of the type), or ``part``."""
    found = _KINDS.get(defn.type)
    if found is None:
        word = defn.type.split("(", 1)[0].strip().lower()
        if word == "monster":
            found = "monster" if "prefix" not in defn.type and "suffix" not in defn.type else "part"
        else:
            found = "spell" if word in ("spell", "magic") else word
        if len(_KINDS) < 10_000:
            _KINDS[defn.type] = found
    return found


_PRINTED: weakref.WeakKeyDictionary[CardDatabase, dict[str, tuple[CardDef, ...] | None]] = weakref.WeakKeyDictionary()


_LAST_PRINTED: list[Any] = [None, {}]
"""The database last asked about and its table of printed cards (most lookups are of one database)."""


def _printed_table(cards: CardDatabase) -> dict[str, tuple[CardDef, ...] | None]:
    if _LAST_PRINTED[0] is cards:
        return _LAST_PRINTED[1]  # type: ignore[no-any-return]
    known = _PRINTED.setdefault(cards, {})
    _LAST_PRINTED[0], _LAST_PRINTED[1] = cards, known
    return known


def printed(cards: CardDatabase, name: str) -> tuple[CardDef, ...] | None:
    """The parts of a printed card (prefix, root, suffix; or the one spell or trap), or ``None``."""
    known = _LAST_PRINTED[1] if _LAST_PRINTED[0] is cards else _printed_table(cards)
    if name in known:
        return known[name]
    found: tuple[CardDef, ...] | None = None
    defn = cards.get(name)
    if defn is not None:
        found = (defn,) if kind_of(defn) in ("monster", "spell", "trap") else None
    else:
        prefixes = [c for c in cards if "prefix" in c.type and name.startswith(c.name + " ")]
        suffixes = [c for c in cards if "suffix" in c.type and name.endswith(" " + c.name)]
        for prefix in [None, *prefixes]:
            for suffix in [None, *suffixes]:
                root = name[len(prefix.name) + 1 if prefix else 0: len(name) - (len(suffix.name) + 1 if suffix else 0)]
                rdef = cards.get(root)
                if rdef is not None and kind_of(rdef) == "monster" and (prefix or suffix):
                    found = tuple(p for p in (prefix, rdef, suffix) if p is not None)
                    break
            if found:
                break
    if len(known) < 20000:
        known[name] = found
    return found


def card_kind(cards: CardDatabase, name: str) -> str | None:
    """The kind of a printed card, ``None`` for a name that is no printed card."""
    return kind_of_parts(printed(cards, name))


def kind_of_parts(parts: tuple[CardDef, ...] | None) -> str | None:
    """:func:`card_kind` of a card with these printed parts (``None``: no printed card)."""
    if parts is None:
        return None
    return "monster" if len(parts) > 1 else kind_of(parts[0])


def root(fc: OnField) -> CardDef:
    """The root of a monster (the card itself for a spell or trap)."""
    for part in fc.parts:
        if "prefix" not in part.type and "suffix" not in part.type:
            return part
    return fc.parts[0]


def elements(fc: OnField) -> set[str]:
    """The elements of a card: the traits of all its parts (BM.monster.keywords)."""
    return {t.lower() for part in fc.parts for t in part.traits}


def species(fc: OnField) -> str | None:
    return (root(fc).species or "").lower() or None


POINTS: Final = ("attack", "defense")
"""The points a monster's root prints (its prefix and suffix add to them)."""


def unprinted_points(part: CardDef) -> list[str]:
    """The points a monster's root leaves unprinted in the card file (a public pool prints
    none); ``[]`` for a root that prints both, and for any other part or card."""
    return [stat for stat in POINTS if stat not in part.stats] if kind_of(part) == "monster" else []


def printed_points(fc: OnField, stat: str) -> int:
    """The points its printed parts give a card (kept on the card: its parts never change).

    Raises :class:`Unmodelled` when its root prints no such points (a card of a public pool).
    """
    kept = fc.printed
    if kept is None:
        kept = fc.printed = {}
    total = kept.get(stat)
    if total is None:
        for part in fc.parts:
            if stat in unprinted_points(part):
                raise Unmodelled(f"{part.name} prints no {stat} points in the card file")
        total = kept[stat] = sum(part.stat(stat) for part in fc.parts)
    return total


# ====================================================================== abilities

_ABILITIES: dict[tuple[str, str, str, str], list[Any]] = {}


def abilities_of_part(cards: CardDatabase, part: CardDef) -> list[Any]:
    """The abilities of one printed part, monsters' named effects opened up (cached per database)."""
    key = (cards.game, part.name, part.type, part.text)
    found = _ABILITIES.get(key)
    if found is None:
        found = _abilities_of_part(cards, part)
        if len(_ABILITIES) > 20000:
            _ABILITIES.clear()
        _ABILITIES[key] = found
    return found


def _abilities_of_part(cards: CardDatabase, part: CardDef) -> list[Any]:
    if not part.text.strip():
        return []
    try:
        tree = cards.abilities(part.name, object)
    except Exception as error:  # noqa: BLE001 - a parse error or unknown wording: the card cannot be run
        raise Unmodelled(f"the text of {part.name!r} cannot be run by the spec ({type(error).__name__}: {error})") from None
    out: list[Any] = []
    for ability in tree:
        if isinstance(ability, N.Special):
            out.extend(ability.abilities)
        else:
            out.append(ability)
    return out


def own_abilities(cards: CardDatabase, fc: OnField) -> tuple[Any, ...]:
    """The abilities of a card's printed parts, read once per card (its parts never change)."""
    own = fc.own
    if own is None:
        found: list[Any] = []
        for part in fc.parts:
            found.extend(abilities_of_part(cards, part))
        own = fc.own = tuple(found)
    return own


def abilities(state: BattleMonstersState, fc: OnField) -> tuple[Any, ...] | list[Any]:
    """The abilities a card on the field has: its parts' and those of the monsters fused with it."""
    if not fc.fused:
        return own_abilities(state.cards, fc)
    out: list[Any] = list(own_abilities(state.cards, fc))
    for uid in fc.fused:
        partner = find_uid(state, uid)
        if partner is not None:
            for part in partner.parts:
                out.extend(abilities_of_part(state.cards, part))
    return out


def triggers_on(state: BattleMonstersState, fc: OnField, kind: str) -> Sequence[Any]:
    """The abilities of a card on the field whose trigger names the event ``kind`` (a spell's or
    trap's condition), in printed order: :func:`abilities`, picked out."""
    if fc.fused:
        return [a for a in abilities(state, fc) if isinstance(a, N.TriggerEffect) and a.trigger is not None and kind in a.trigger.kinds]
    return _by_event(state, fc)[0].get(kind, ())


def may_trigger_on(state: BattleMonstersState, fc: OnField, kind: str) -> bool:
    """Whether :func:`triggers_on` may give anything for ``kind``: a fused card always may (its
    partners' abilities count), any other when its own abilities name that kind of event."""
    return bool(fc.fused) or kind in _by_event(state, fc)[0]


def reactions_to(state: BattleMonstersState, fc: OnField, kind: str) -> Sequence[Any]:
    """The reactions of a card to the event ``kind`` (a monster's "when ..."), in printed order:
    :func:`abilities`, picked out."""
    if fc.fused:
        return [a for a in abilities(state, fc) if isinstance(a, N.Reaction) and kind in a.event.kinds]
    return _by_event(state, fc)[1].get(kind, ())


def _by_event(state: BattleMonstersState, fc: OnField) -> tuple[dict[str, tuple[Any, ...]], dict[str, tuple[Any, ...]]]:
    """A card's own triggered abilities and reactions by the kinds of event they name: read once
    per printed card (cards of one name share their parts) and kept on the card."""
    kept = fc.by_event
    if kept is None:
        shared = _BY_EVENT.get(id(fc.parts))
        if shared is not None and shared[0] is fc.parts:
            kept = shared[1]
        else:
            kept = _read_by_event(own_abilities(state.cards, fc))
            if len(_BY_EVENT) > 20000:
                _BY_EVENT.clear()
            _BY_EVENT[id(fc.parts)] = (fc.parts, kept)
        fc.by_event = kept
    return kept  # type: ignore[no-any-return]


_BY_EVENT: dict[int, tuple[tuple[CardDef, ...], Any]] = {}
"""Printed parts (by identity, kept alive here) -> :func:`_read_by_event` of their abilities."""


def _read_by_event(found: Sequence[Any]) -> tuple[dict[str, tuple[Any, ...]], dict[str, tuple[Any, ...]]]:
    triggers: dict[str, list[Any]] = {}
    reactions: dict[str, list[Any]] = {}
    for ability in found:
        if isinstance(ability, N.TriggerEffect) and ability.trigger is not None:
            for kind in dict.fromkeys(ability.trigger.kinds):
                triggers.setdefault(kind, []).append(ability)
        elif isinstance(ability, N.Reaction):
            for kind in dict.fromkeys(ability.event.kinds):
                reactions.setdefault(kind, []).append(ability)
    return {k: tuple(v) for k, v in triggers.items()}, {k: tuple(v) for k, v in reactions.items()}


def find_uid(state: BattleMonstersState, uid: int) -> OnField | None:
    """The card on the field with this id (ids are never reused), or ``None`` (``state.by_uid``:
    the cards by id, kept while no card comes or goes)."""
    return state.by_uid().get(uid)


def find(state: BattleMonstersState, player: str, name: str, copy: int = 1) -> OnField | None:
    """The ``copy``-th card named ``name`` on ``player``'s side, in order of arrival."""
    if copy < 1:
        return None
    for fc in state.sides[player].field:
        if fc.name == name:
            copy -= 1
            if copy == 0:
                return fc
    return None


def copy_number(state: BattleMonstersState, fc: OnField) -> int:
    same = [f for f in state.sides[fc.owner].field if f.name == fc.name]
    return same.index(fc) + 1


def effects_on(fc: OnField) -> bool:
    """BM.gloss.face_up.effects, BM.gloss.face_down.effects: a card's effects work face up; traps also face down."""
    return (fc.visible or fc.kind == "trap") and not fc.nullified


# ====================================================================== players, numbers

def one_player(state: BattleMonstersState, controller: str, w: str | None, holder: OnField | None = None) -> str:
    """The one player a step is for (:func:`~spec.core.interpreter.sole_player`)."""
    return sole_player(who(state, controller, w, holder), w, Unmodelled)


def takers(state: BattleMonstersState, controller: str, w: str | None, holder: OnField | None = None) -> list[str]:
    """The players who take a step (draw, discard, lose lives...), in turn: :func:`who`, but
    ``any`` (one player of the controller's choice) is not modelled, where :func:`who`, which
    also filters whose cards a selection may take, gives both players."""
    if w == "any":
        raise Unmodelled("a step for one player of the controller's choice is not modelled")
    return who(state, controller, w, holder)


def who(state: BattleMonstersState, controller: str, w: str | None, holder: OnField | None = None) -> list[str]:
    """The players a ``Who`` names, relative to the controller of the effect."""
    if w in (None, "you", "controller"):
        return [controller]
    if w == "opponent":
        return [state.other(controller)]
    if w in ("each", "any"):
        return [controller, state.other(controller)]
    if w == "owner":
        return [holder.owner if holder is not None else controller]
    if w == "active":
        return [state.active]
    if w == "nonactive":
        return [state.other(state.active)]
    raise Unmodelled(f"the player {w!r} is not modelled")


@dataclass(init=False)
class Ctx:
    """Whose effect is being read: the card holding it and its controller, and what the trigger named."""

    controller: str
    holder: OnField | None
    the: OnField | None = None
    """The card the trigger or context made definite ("the monster", "the spell card")."""

    def __init__(self, controller: str, holder: OnField | None, the: OnField | None = None) -> None:
        # written out (init=False): the __init__ dataclasses generates stays interpreted in the
        # compiled build, and the classes of this module are made on many events
        self.controller = controller
        self.holder = holder
        self.the = the


def number(state: BattleMonstersState, value: Any, ctx: Ctx) -> int:
    """The value of a number of card text (a literal or a Quantity)."""
    if isinstance(value, int):
        return value
    if isinstance(value, N.Quantity):
        if value.name == "lives":
            return state.sides[who(state, ctx.controller, value.player, ctx.holder)[0]].lives
        if value.name == "count" and value.of is not None:
            return count(state, value.of, ctx)
        if value.name in ("attack", "defense") and value.of is not None:
            target = next(iter(select(state, value.of, ctx)), None)
            return 0 if target is None else points(state, target, value.name)
    raise Unmodelled(f"the number {value!r} is not modelled")


def count(state: BattleMonstersState, sel: N.Cards, ctx: Ctx) -> int:
    """How many objects match a selector, in any zone it names."""
    if sel.zone in ("hand", "graveyard", "supply"):
        total = 0
        for player in _owners(state, sel, ctx):
            side = state.sides[player]
            if sel.zone == "hand":
                total += len(side.hand)
            elif sel.zone == "graveyard":
                total += sum(1 for c in side.graveyard if c.name and _kind_ok(state, sel, c.name))
            else:
                total += side.supply or 0
        return total
    if sel.zone not in (None, "field"):
        raise Unmodelled(f"cards in the {sel.zone} are not modelled here")
    total = 0
    for fc in state.on_field():  # select(), counted
        if matches(state, sel, fc, ctx):
            total += 1
    return total


def _kind_ok(state: BattleMonstersState, sel: N.Cards, name: str) -> bool:
    kind = card_kind(state.cards, name)
    return "card" in sel.kinds or kind in sel.kinds


def _owners(state: BattleMonstersState, sel: N.Cards, ctx: Ctx) -> list[str]:
    if sel.owner is None:
        return list(state.players)
    return who(state, ctx.controller, sel.owner, ctx.holder)


# ====================================================================== selectors

def _slot(value: Any, holder: OnField | None) -> Any:
    """A slot's value for the card holding the text (``%SPECIES``, ``%ELEMENT_OR``...)."""
    if not isinstance(value, N.Slot):
        return value
    if holder is None:
        raise Unmodelled(f"the slot %{value.name} has no card to read from")
    if value.name in ("SPECIES", "SPECIES_C"):
        return species(holder)
    return value


def matches(state: BattleMonstersState, sel: N.Cards, fc: OnField, ctx: Ctx) -> bool:
    """Whether a card on the field is one the selector describes (by keywords and elements, never by name)."""
    if sel.quantifier == "this":
        return ctx.holder is not None and fc.uid == ctx.holder.uid and _filters(state, sel, fc, ctx)
    if sel.quantifier in ("the", "it") and "player" not in sel.kinds and sel.state is None:
        return ctx.the is not None and fc.uid == ctx.the.uid
    return _filters(state, sel, fc, ctx)


def _filters(state: BattleMonstersState, sel: N.Cards, fc: OnField, ctx: Ctx) -> bool:
    if "card" not in sel.kinds and fc.kind not in sel.kinds:
        return False
    if sel.owner is not None and fc.owner not in who(state, ctx.controller, sel.owner, ctx.holder):
        return False
    if sel.zone not in (None, "field"):
        return False
    if sel.visible is not None and fc.visible != sel.visible:
        return False
    if sel.other and ctx.holder is not None and fc.uid == ctx.holder.uid:
        return False
    if sel.species is not None:
        wanted = _slot(sel.species, ctx.holder)
        if wanted is None or species(fc) != str(wanted).lower():
            return False
    if sel.element is not None:
        has = elements(fc)
        wanted = sel.element
        if isinstance(wanted, N.Slot):
            if ctx.holder is None:
                raise Unmodelled(f"the slot %{wanted.name} has no card to read from")
            theirs = elements(ctx.holder)
            ok = theirs <= has if wanted.name == "ELEMENT_AND" else bool(theirs & has)
        else:
            ok = str(wanted).lower() in has
        if ok == sel.exclude_element:
            return False
    if sel.prefix is not None:
        prefix_parts = [p for p in fc.parts if "prefix" in p.type]
        if not any(sel.prefix.lower() in p.name.lower().split() for p in prefix_parts):
            return False
    if sel.state is not None:
        battle = state.battle
        if sel.state == "attacking" and (battle is None or battle.attacker.uid != fc.uid):
            return False
        if sel.state == "defending" and (battle is None or battle.defender is None or battle.defender.uid != fc.uid):
            return False
        if sel.state == "fused" and not fc.fused:
            return False
        if sel.state == "summoned" and (ctx.the is None or ctx.the.uid != fc.uid):
            return False
    if sel.mode is not None and fc.mode != sel.mode:
        return False
    if sel.stat is not None:
        value = number(state, sel.stat.value, ctx)
        if not compare(points(state, fc, sel.stat.stat), sel.stat.op, value):
            return False
    return True


def select(state: BattleMonstersState, sel: N.Cards, ctx: Ctx) -> Iterator[OnField]:
    """The cards on the field a selector describes."""
    if sel.zone not in (None, "field"):
        raise Unmodelled(f"cards in the {sel.zone} are not modelled here")
    for fc in list(state.on_field()):
        if matches(state, sel, fc, ctx):
            yield fc


def compare(left: int, op: str, right: int) -> bool:
    return {"<": left < right, "<=": left <= right, "==": left == right, ">=": left >= right, ">": left > right}[op]


# ====================================================================== conditions

def holds(state: BattleMonstersState, cond: Any, ctx: Ctx) -> bool:
    """Whether a Battle Monsters condition holds now."""
    if isinstance(cond, N.Present):
        sel = cond.what
        if sel.quantifier == "this":
            holder = ctx.holder
            on = holder is not None and find_uid(state, holder.uid) is not None
            found = on and _filters(state, sel, holder, ctx)  # type: ignore[arg-type]
        else:
            found = count(state, sel, ctx) >= sel.count
        return found != cond.negated
    if isinstance(cond, N.Compare):
        return compare(number(state, cond.left, ctx), cond.op, number(state, cond.right, ctx))
    if isinstance(cond, N.TurnOf):
        return state.active in who(state, ctx.controller, cond.player, ctx.holder)
    if isinstance(cond, N.Battling):
        battle = state.battle
        if battle is None or ctx.holder is None:
            return False
        me = ctx.holder.uid
        other: OnField | None
        if cond.role == "defending":
            ok, other = battle.defender is not None and battle.defender.uid == me, battle.attacker
        elif cond.role == "attacking":
            ok, other = battle.attacker.uid == me, battle.defender
        else:
            ok = battle.attacker.uid == me or (battle.defender is not None and battle.defender.uid == me)
            other = battle.defender if battle.attacker.uid == me else battle.attacker
        if not ok:
            return False
        return cond.against is None or (other is not None and _filters(state, cond.against, other, ctx))
    if isinstance(cond, N.Did):
        if cond.what.quantifier != "this" or ctx.holder is None:
            raise Unmodelled("a condition on what other cards did is not modelled")
        owner = ctx.holder.owner
        if cond.turn == "this":
            turns = [state.turn]
        else:  # the owner's last turn before this one
            turns = []
            for i in range(min(len(state.turn_owner), state.turn - 1) - 1, -1, -1):
                if state.turn_owner[i] == owner:
                    turns = [i + 1]
                    break
        if cond.action == "attacked":
            return any(t in ctx.holder.attacked_turns for t in turns)
        raise Unmodelled(f"the condition {cond.action!r} is not modelled")
    raise Unmodelled(f"the condition {type(cond).__name__} is not modelled")


# ====================================================================== static effects

@dataclass(init=False)
class Static:
    """One always-on effect in force: its step, its holder and controller, and when its card arrived."""

    step: Any
    ctx: Ctx
    stamp: int
    source: str
    lasting: bool = False
    """The lasting result of a resolved effect (not an always-on ability of a card on the field)."""

    def __init__(self, step: Any, ctx: Ctx, stamp: int, source: str, lasting: bool = False) -> None:
        # written out (init=False, as Ctx's): the generated one stays interpreted when compiled
        self.step = step
        self.ctx = ctx
        self.stamp = stamp
        self.source = source
        self.lasting = lasting


def statics(state: BattleMonstersState, want: str | None = None) -> list[Static]:
    """Every always-on effect in force now: passives of cards whose effects work, and lasting effects.

    What passives a card holds is read from its text once (:func:`passives_of`); only the
    conditions of conditional ones ("as long as ...") are looked at again on each call, in
    printed order. While the state is only being read (:class:`Reading`), each answer is
    worked out once.

    ``want`` (see :func:`wanted`) asks only for the effects of one sort, in the same order:
    the list is the whole answer with the others left out. When the card database is
    :func:`tame` (no condition of an always-on ability can fail to be read), the
    conditions of the effects left out are not looked at, and a sort no card of the
    database can give costs nothing.
    """
    memo = state.statics_memo
    if memo is not None:
        found = memo.get(want)
        if found is not None:
            return list(found)
    if want is None:
        out = _all_statics(state)
    else:
        profile = state.profile
        if profile is None:
            profile = state.profile = tame(state.cards)
        if not profile.ok:
            out = [s for s in statics(state) if wanted(s.step, want)]
        elif want in profile.spoken:
            out = _statics_of(state, want)
        else:  # no card of the database gives this sort: only lasting effects can
            out = [_lasting(state, lasting) for lasting in state.lasting if wanted(lasting.step, want)] if state.lasting else []
    if memo is not None:
        memo[want] = tuple(out)
    return out


def _all_statics(state: BattleMonstersState) -> list[Static]:
    """:func:`statics`, worked out afresh."""
    out: list[Static] = []
    for fc in state.on_field():
        if not ((fc.visible or fc.kind == "trap") and not fc.nullified):  # effects_on
            continue
        kept = fc.passives
        held = kept[1] if kept is not None and not fc.fused and not kept[0] else passives_of(state, fc)
        if held is None:  # the text cannot be run: read it step by step, to fail where it always did
            for ability in abilities(state, fc):
                if isinstance(ability, A.Passive):
                    ctx = Ctx(fc.owner, fc)
                    for step in ability.effect:
                        out.extend(_unfold(state, step, ctx, fc.arrived, fc.name))
            continue
        _read_entries(state, held.entries, out)
    out.extend(_lasting(state, lasting) for lasting in state.lasting)
    return out


def _read_entries(state: BattleMonstersState, entries: Any, out: list[Static], want: str | None = None) -> None:
    """Add to ``out`` the effects in force of a card's kept entries (of the sort ``want`` only, if given):
    fixed ones as they are, conditional ones when their condition holds, the rest unfolded now."""
    for entry in entries:
        if type(entry) is Static:
            out.append(entry)
        elif type(entry) is Conditional:
            if _condition_holds(state, entry):
                out.extend(entry.then)
        elif want is None:
            out.extend(_unfold(state, *entry))
        else:
            out.extend(s for s in _unfold(state, *entry) if wanted(s.step, want))


def _condition_holds(state: BattleMonstersState, entry: Conditional) -> bool:
    """:func:`holds` of the condition of a card's always-on ability, read while the card is on the
    field: a condition on the card itself is read off it without looking for it on the field."""
    cond = entry.condition
    if entry.of_this_card:
        return _filters(state, cond.what, entry.ctx.holder, entry.ctx) != cond.negated  # type: ignore[arg-type]
    return holds(state, cond, entry.ctx)


def wanted(step: Any, want: str) -> bool:
    """Whether an effect step is of the sort ``want``: ``points``, ``battle@<stat>`` (the points
    of one stat, ``attack`` or ``defense``, while a battle is calculated), ``points@<stat>``
    (likewise outside a battle: not the "temporary" ones), ``immune``, ``permissions`` (any
    "can" or "cannot"), or ``act:<action>`` (a "can" or "cannot" of that action).

    ``immune@attack`` (an immunity to attacks, or one whose target may fail to be read: what
    ``immune(..., attack=True)`` can find) and ``lower@<stat>`` (:data:`LOWER`) are likewise only
    listed. Two narrower sorts of ``act:<action>`` are only listed (:func:`_wants`), never asked for
    here: ``can:<action>``, a "can" that allows it (what :func:`applicable` puts in ``yes``),
    and ``cannot:<action>``, a "cannot" or a "can only" that may forbid it (``no``)."""
    if want == "points":
        return isinstance(step, N.Points)
    if want.startswith(("points@", "battle@")):
        return isinstance(step, N.Points) and step.stat == want[7:] and (want[0] == "b" or not _temporary(step))
    if want == "immune":
        return isinstance(step, N.ImmuneTo)
    if want == "permissions":
        return isinstance(step, (N.Can, N.Cannot))
    action = want[4:]
    if isinstance(step, N.Cannot):
        return action in step.actions
    return isinstance(step, N.Can) and step.action == action


def _wants(step: Any) -> set[str]:
    """Every sort an effect step (with the steps under its conditions) belongs to."""
    if isinstance(step, N.IfThen):
        out: set[str] = set()
        for inner in step.then:
            out |= _wants(inner)
        return out
    if isinstance(step, N.Points):
        out = {"points", f"battle@{step.stat}"} if _temporary(step) else {"points", f"battle@{step.stat}", f"points@{step.stat}"}
        return out if _only_adds(step) else out | {f"lower@{step.stat}"}
    if isinstance(step, N.ImmuneTo):
        read = _tame_cards(step.target)  # immune reads the target of every immunity in force without fail
        out = {"immune"} if read and step.to.owner in KNOWN_WHO else {"immune", *LOWER}
        return out if read and "attack" not in step.to.kinds else out | {"immune@attack"}
    if isinstance(step, N.Cannot):
        return {"permissions", *(f"act:{action}" for action in step.actions), *(f"cannot:{action}" for action in step.actions)}
    if isinstance(step, N.Can):  # a "can only" forbids the others (applicable: no), a plain "can" allows (yes)
        return {"permissions", f"act:{step.action}", f"{'cannot' if step.only else 'can'}:{step.action}"}
    return set()


LOWER = ("lower@attack", "lower@defense")
"""The sorts ``lower@<stat>``: always-on effects that may take points of that stat away, or whose
reading by :func:`points` might fail (:func:`_only_adds`). They are only listed (:func:`_wants`),
never asked for: while none is in force a card has at least its printed points and bonuses
(:func:`points_below`)."""


def _only_adds(step: N.Points) -> bool:
    """Whether an always-on change of points can only add to them and is read by :func:`points`
    without fail: a plain number of 0 or more, "for each" of a selector :func:`count` reads
    without fail, and a target :func:`matches` reads without fail."""
    return (type(step.delta) is int and step.delta >= 0 and (step.per is None or _tame_cards(step.per))
            and _tame_cards(step.target))


def points_below(state: BattleMonstersState, fc: OnField, stat: str, floor: int) -> bool:
    """Whether ``points(state, fc, stat) < floor``.

    When the sorts of effects the field gives are known (:func:`field_sorts`: a tame database,
    no lasting effect) and none may lower the stat (``lower@<stat>``, :data:`LOWER`), the effects
    in force can only add to the card's printed points and bonuses: if those reach ``floor``,
    so do its points, and the effects are not read."""
    sorts = field_sorts(state)
    if sorts is not None and f"lower@{stat}" not in sorts:
        least = printed_points(fc, stat)
        for bonus in fc.bonus:
            if bonus.stat == stat and (bonus.until is None or bonus.until >= state.turn):
                least += bonus.delta
        if least >= floor:
            return False
    return points(state, fc, stat) < floor


def statics_on(state: BattleMonstersState, want: str, fc: OnField) -> list[Static]:
    """:func:`statics` of the sort ``want`` (``points@...``, ``battle@...``, ``immune``) asked
    about one card: the same effects, less those of conditional abilities that change only
    their own holder's points or immunities (:attr:`Conditional.own_only`) when ``fc`` is not
    that holder. Their conditions are then not read: such an effect could not match ``fc``
    (its target is "this card"), and in a tame database reading a condition changes nothing
    and cannot fail. Otherwise (an untame database) the whole sort, as :func:`statics` gives it.
    """
    profile = state.profile
    if profile is None or not profile.ok or want not in profile.spoken:
        return statics(state, want)
    memo = state.statics_memo
    key = (want, fc)
    if memo is not None:
        found = memo.get(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
    out: list[Static] = []
    helds = _helds(state)
    if helds is None:  # cannot happen in a tame database
        return statics(state, want)
    uid = fc.uid
    for held in helds:
        if want not in held.present:
            continue
        for entry in held.of_sort(want):
            if type(entry) is Static:
                out.append(entry)
            elif type(entry) is Conditional:
                if entry.own_only and entry.ctx.holder is not None and entry.ctx.holder.uid != uid:
                    continue  # it changes its holder alone, and the question is about another card
                if _condition_holds(state, entry):
                    out.extend(entry.then)
            else:
                out.extend(s for s in _unfold(state, *entry) if wanted(s.step, want))
    for lasting in state.lasting:
        if wanted(lasting.step, want):
            out.append(_lasting(state, lasting))
    if memo is not None:
        memo[key] = out
    return out


def _about_holder(step: Any) -> bool:
    """Whether an always-on step changes the points or immunities of the card holding it alone."""
    return isinstance(step, (N.Points, N.ImmuneTo)) and step.target.quantifier == "this"


def _temporary(step: N.Points) -> bool:
    """Whether a change of points lasts only for the battle being calculated ("temporarily")."""
    return step.duration is not None and step.duration.until == "temporary"


def _statics_of(state: BattleMonstersState, want: str) -> list[Static]:
    """:func:`statics` of one sort for a tame database: only the conditions of that sort are read."""
    out: list[Static] = []
    helds = _helds(state)
    if helds is None:  # cannot happen in a tame database; the plain reading fails where it always did
        return [s for s in statics(state) if wanted(s.step, want)]
    for held in helds:
        if want not in held.present:
            continue
        _read_entries(state, held.of_sort(want), out, want)
    for lasting in state.lasting:
        if wanted(lasting.step, want):
            out.append(_lasting(state, lasting))
    return out


def _lasting(state: BattleMonstersState, lasting: Any) -> Static:
    """A lasting effect as an effect in force."""
    return Static(lasting.step, Ctx(lasting.controller, find_uid(state, lasting.source_uid)), lasting.stamp, lasting.source, True)


def _helds(state: BattleMonstersState) -> list[Passives] | None:
    """The always-on abilities of every card on the field whose effects work and that has any,
    in field order; ``None`` when one card's text cannot be run. Kept in the reading of the field
    (``state.field_reading``: one per order of the sides, made afresh as cards come or go) with
    ``state.field_clock``, and read afresh only when one of the cards has turned, been fused or
    nullified since; callers only read the list."""
    memo = state.statics_memo
    if memo is not None and "cards" in memo:
        return memo["cards"]  # type: ignore[no-any-return]
    reading = state.field_reading()
    kept = reading.helds
    if kept is not None and kept[0] == state.field_clock:
        helds: list[Passives] | None = kept[1]  # the same cards, in the same order, none of them changed since
    else:
        helds = _read_helds(state, reading.cards)
        reading.helds = (state.field_clock, helds)
    if memo is not None:
        memo["cards"] = helds
    return helds


def field_sorts(state: BattleMonstersState) -> frozenset[str] | None:
    """The sorts of effects (:func:`wanted`) that can be in force now, read off the field: those
    the always-on abilities of the cards whose effects work can give (under their conditions
    too, :attr:`Passives.present`), when the card database is :func:`tame` and no lasting
    effect is in force; ``None`` (any sort) otherwise. In a tame database :func:`statics` of
    any other sort is then empty: a check that reads only effects of such sorts finds nothing
    (``actions.can_fail``, ``speaks``). Read in a stretch of reading (:class:`Reading`), the
    cards' abilities are kept for the questions that follow (:func:`_helds`); the sorts of
    several cards are gathered once per reading of the field (``state.sorts_kept``)."""
    profile = state.profile
    if profile is None:
        profile = state.profile = tame(state.cards)
    if not profile.ok or state.lasting:
        return None
    helds = _helds(state)
    if helds is None:
        return None
    if not helds:
        return NO_SORTS
    if len(helds) == 1:
        return helds[0].present
    kept = state.sorts_kept
    if kept is not None and kept[0] is helds:  # the same reading of the field (_helds kept it): the same sorts
        return kept[1]  # type: ignore[no-any-return]
    sorts = frozenset().union(*[held.present for held in helds])
    state.sorts_kept = (helds, sorts)
    return sorts


NO_SORTS: frozenset[str] = frozenset()
"""What :func:`field_sorts` gives when no card on the field holds an always-on ability that works."""


def _read_helds(state: BattleMonstersState, cards: list[OnField]) -> list[Passives] | None:
    """:func:`_helds`, read afresh from the cards on the field (in field order)."""
    helds: list[Passives] = []
    for fc in cards:
        if (fc.silent and not fc.fused) or fc.fused_silent:
            continue  # known to hold no always-on ability (OnField.silent, OnField.fused_silent)
        if not ((fc.visible or fc.kind == "trap") and not fc.nullified):  # effects_on
            continue
        kept = fc.passives
        held = kept[1] if kept is not None and not fc.fused and not kept[0] else passives_of(state, fc)
        if held is None:
            return None
        if held.entries:
            helds.append(held)
    return helds


@dataclass(frozen=True)
class Tame:
    """What the always-on abilities of a whole card database can do (:func:`tame`)."""

    ok: bool
    """Every card's text can be run, its always-on steps are plain or under conditions, and
    no such condition can fail to be read or read the effects in force in turn."""
    spoken: frozenset[str]
    """Every sort (:func:`wanted`) the always-on abilities of the database can give."""


_TAME: weakref.WeakKeyDictionary[CardDatabase, Tame] = weakref.WeakKeyDictionary()
_LAST_TAME: list[Any] = [None, None]

TAME_LIMIT = 5000
"""A larger database is not looked through (its statics are read in full, then sorted)."""

KNOWN_WHO = (None, "you", "controller", "opponent", "each", "any", "owner", "active", "nonactive")
"""The players :func:`who` can name."""


def tame(cards: CardDatabase) -> Tame:
    """Whether reading one sort of effects in force may leave the conditions of the others unread.

    Worked out once per database from the parsed texts: a condition reads nothing but the
    board (no effects in force, so no recursion) and never raises :class:`Unmodelled`.
    """
    if _LAST_TAME[0] is cards:
        return _LAST_TAME[1]  # type: ignore[no-any-return]
    found = _TAME.get(cards)
    if found is None:
        found = _tame(cards)
        _TAME[cards] = found
    _LAST_TAME[0], _LAST_TAME[1] = cards, found
    return found


def _tame(cards: CardDatabase) -> Tame:
    spoken: set[str] = set()
    if len(cards) > TAME_LIMIT:
        return Tame(False, frozenset())
    for part in cards:
        try:
            found = abilities_of_part(cards, part)
        except Unmodelled:
            return Tame(False, frozenset())
        for ability in found:
            if not isinstance(ability, A.Passive):
                continue
            for step in ability.effect:
                if not _tame_step(step):
                    return Tame(False, frozenset())
                spoken |= _wants(step)
    return Tame(True, frozenset(spoken))


def _tame_step(step: Any) -> bool:
    if isinstance(step, PLAIN):
        return True
    return isinstance(step, N.IfThen) and _tame_cond(step.condition) and all(_tame_step(inner) for inner in step.then)


def _tame_cond(cond: Any) -> bool:
    """Whether :func:`holds` reads ``cond`` without raising and without the effects in force."""
    if isinstance(cond, N.Present):
        return _tame_cards(cond.what)
    if isinstance(cond, N.Compare):
        return _tame_number(cond.left) and _tame_number(cond.right)
    if isinstance(cond, N.TurnOf):
        return cond.player in KNOWN_WHO
    if isinstance(cond, N.Battling):
        return cond.against is None or _tame_cards(cond.against)
    if isinstance(cond, N.Did):
        return cond.what.quantifier == "this" and cond.action == "attacked"
    return False


def _tame_number(value: Any) -> bool:
    if isinstance(value, int):
        return True
    if isinstance(value, N.Quantity):
        if value.name == "lives":
            return value.player in KNOWN_WHO
        return value.name == "count" and value.of is not None and _tame_cards(value.of)
    return False  # points of a card read the effects in force; anything else is not modelled


def _tame_cards(sel: Any) -> bool:
    return (isinstance(sel, N.Cards) and sel.owner in KNOWN_WHO and sel.zone in (None, "field", "hand", "graveyard", "supply")
            and sel.stat is None)


class Reading:
    """A stretch in which the state is only read (the checks of a move, the conflicts met after it):
    :func:`statics` (of each sort) is worked out at most once in it. Nesting keeps the outer stretch's answer.
    Leaving the outer stretch forgets what was kept, the cards a move names (``state.move``) too."""

    __slots__ = ("outer", "state")

    def __init__(self, state: BattleMonstersState) -> None:
        self.state = state
        self.outer = state.statics_memo is None

    def __enter__(self) -> None:
        if self.outer:
            self.state.statics_memo = {}

    def __exit__(self, *exc: object) -> None:
        if self.outer:
            self.state.statics_memo = None
            self.state.move = None


def read_only(state: BattleMonstersState, read: Callable[..., T], *args: Any) -> T:
    """``read(state, *args)`` in a :class:`Reading` (one call where a ``with`` block makes three)."""
    if state.statics_memo is not None:
        return read(state, *args)  # nested: the outer stretch's answers stand
    state.statics_memo = {}
    try:
        return read(state, *args)
    finally:
        state.statics_memo = None
        state.move = None


@dataclass(init=False, unsafe_hash=True)
class Conditional:
    """An always-on step under a condition whose ``then`` steps are all plain: the statics they
    give while the condition holds are made once.

    Never changed once made. Not declared ``frozen``: a frozen dataclass can only be given its
    fields by the ``__init__`` dataclasses generates, which stays interpreted in the compiled
    build; this one is written out, and ``unsafe_hash`` keeps the hash a frozen one would have."""

    condition: Any
    ctx: Ctx
    then: tuple[Static, ...]
    of_this_card: bool = False
    """The condition is a :class:`N.Present` of the card holding it: read off the card itself,
    which is on the field whenever its abilities are read (:func:`_condition_holds`)."""
    own_only: bool = False
    """Every step it gives changes the points or immunities of the card holding it alone ("%NAME
    gains ..."): for a question about another card it gives nothing (:func:`statics_on`)."""

    def __init__(self, condition: Any, ctx: Ctx, then: tuple[Static, ...], of_this_card: bool = False,
                 own_only: bool = False) -> None:
        self.condition = condition
        self.ctx = ctx
        self.then = then
        self.of_this_card = of_this_card
        self.own_only = own_only


@dataclass(init=False, unsafe_hash=True)
class Passives:
    """The always-on abilities one card holds, in printed order, as read from its text.

    Never changed once made (but for :attr:`sorts`, filled as asked); not declared ``frozen``
    for the reason :class:`Conditional` gives."""

    entries: tuple[Any, ...]
    """A ready :class:`Static` for a plain step, a :class:`Conditional`, or for a nested
    condition ``(step, ctx, stamp, source)`` to unfold on each reading."""
    may_allow: bool
    """Whether any of them is, or could be once its condition holds, a card's "can" of its own:
    not a "can only", and not one that depends on the card on the other side ("by"). Only
    such a "can" takes part in a clash in force (``conflicts.conflicts_met``)."""
    present: frozenset[str] = frozenset()
    """Every sort (:func:`wanted`) they can give."""
    can_turns: frozenset[str] | None = None
    """When each of those "can"s is one of this card on the turn it was summoned or revealed
    (``when`` of :data:`TURN_BOUND`), those turns: the "can"s are in force on no other turn.
    ``None`` when some "can" is not so bound."""
    sorts: dict[str, tuple[Any, ...]] = field(default_factory=dict, compare=False, repr=False)
    """The entries of each sort (:meth:`of_sort`), once picked out."""

    def __init__(self, entries: tuple[Any, ...], may_allow: bool, present: frozenset[str] = frozenset(),
                 can_turns: frozenset[str] | None = None, sorts: dict[str, tuple[Any, ...]] | None = None) -> None:
        self.entries = entries
        self.may_allow = may_allow
        self.present = present
        self.can_turns = can_turns
        self.sorts = {} if sorts is None else sorts

    def of_sort(self, want: str) -> tuple[Any, ...]:
        """The entries giving effects of the sort ``want`` (see :func:`wanted`), in printed order;
        a :class:`Conditional` keeps only its steps of that sort."""
        found = self.sorts.get(want)
        if found is None:
            picked: list[Any] = []
            for entry in self.entries:
                if type(entry) is Static:
                    if wanted(entry.step, want):
                        picked.append(entry)
                elif type(entry) is Conditional:
                    then = tuple(s for s in entry.then if wanted(s.step, want))
                    if then:
                        picked.append(Conditional(entry.condition, entry.ctx, then, entry.of_this_card, entry.own_only))
                elif want in _wants(entry[0]):
                    picked.append(entry)
            found = self.sorts[want] = tuple(picked)
        return found


PLAIN = (N.Points, N.ImmuneTo, N.Cannot, N.Can)
"""The always-on steps that are in force as they are (:func:`_unfold`)."""


TURN_BOUND = ("summoned_turn", "revealed_turn", "fused_turn")
"""The ``when`` of a "can" or "cannot" in force only on the turn its card was summoned, revealed
or fused (``conflicts.TURN_WORDS``; :func:`_when_ok`)."""


def _can_turns(steps: list[Any]) -> frozenset[str] | None:
    """:attr:`Passives.can_turns` of these always-on steps (with the steps under their conditions)."""
    whens: set[str] = set()
    for step in steps:
        if isinstance(step, N.IfThen):
            inner = _can_turns(list(step.then))
            if inner is None:
                return None
            whens |= inner
        elif isinstance(step, N.Can) and not step.only and step.by is None:
            subject = step.subject
            if subject.quantifier != "this" or "player" in subject.kinds or step.when not in TURN_BOUND:
                return None
            whens.add(step.when)
    return frozenset(whens)


def _may_allow(step: Any) -> bool:
    """Whether an always-on step is, or holds under its conditions, a "can" of its own (see :attr:`Passives.may_allow`)."""
    if isinstance(step, N.IfThen):
        return any(_may_allow(inner) for inner in step.then)
    return isinstance(step, N.Can) and not step.only and step.by is None


def passives_of(state: BattleMonstersState, fc: OnField) -> Passives | None:
    """The always-on abilities of a card on the field (see :class:`Passives`).

    Kept on the card (its parts never change) with the partners it is fused with that are
    on the field (their abilities count too). ``None`` when its text cannot be run.
    """
    partners = tuple(map(find_uid, repeat(state), fc.fused)) if fc.fused else ()
    kept = fc.passives
    if kept is not None and kept[0] == partners:
        return kept[1]  # type: ignore[no-any-return]
    held: Passives | None
    if not partners:
        known = _PRINTED_PASSIVES.get(id(fc.parts))
        if known is not None and known[0] is fc.parts:  # another card of these printed parts was read: the same, for this card
            held = _for_card(known[1], fc)
            fc.passives = (partners, held)
            fc.silent = not held.entries
            fc.quiet = not held.may_allow
            return held
    try:
        held = _read_passives(fc, abilities(state, fc))
    except Unmodelled:
        return None
    if held is None:
        return None
    fc.passives = (partners, held)
    if not partners:  # read off its own parts alone: what they lack, they lack for good
        fc.silent = not held.entries
        fc.quiet = not held.may_allow
        if len(_PRINTED_PASSIVES) > 20000:
            _PRINTED_PASSIVES.clear()
        _PRINTED_PASSIVES[id(fc.parts)] = (fc.parts, held)
    return held


def printed_passives(state: BattleMonstersState, fc: OnField) -> Passives | None:
    """The always-on abilities of a card's own printed parts (as :func:`passives_of` reads them
    for the card fused with nothing), read once per printed card; ``None`` when its text cannot be run.
    The entries may be those of another card of the same parts: ask it only what the parts hold."""
    known = _PRINTED_PASSIVES.get(id(fc.parts))
    if known is not None and known[0] is fc.parts:
        return known[1]
    try:
        held = _read_passives(fc, own_abilities(state.cards, fc))
    except Unmodelled:
        return None
    if held is not None:
        _PRINTED_PASSIVES[id(fc.parts)] = (fc.parts, held)
    return held


def fused_hush(state: BattleMonstersState, group: Sequence[OnField]) -> tuple[bool, bool]:
    """Whether no card of a fusion group (those on the field as they fuse) holds, in its printed
    parts, an always-on ability at all (the first answer) or a "can" of its own (the second;
    see :attr:`Passives.may_allow`). Each card of the group has the abilities of those of
    the others still on the field, and a card that left never comes back (ids are not
    reused): what the group lacks, each of them lacks for good (``OnField.fused_silent``,
    ``OnField.fused_quiet``). A text that cannot be run answers ``False``."""
    read = [printed_passives(state, fc) for fc in group]
    if any(held is None for held in read):
        return False, False
    return (not any(held.entries for held in read if held is not None),
            not any(held.may_allow for held in read if held is not None))


def _read_passives(fc: OnField, found: Sequence[Any]) -> Passives | None:
    """:func:`passives_of` read off the abilities ``found`` (``None``: a step no reading covers)."""
    entries: list[Any] = []
    for ability in found:
        if isinstance(ability, A.Passive):
            ctx = Ctx(fc.owner, fc)
            for step in ability.effect:
                if isinstance(step, PLAIN):
                    entries.append(Static(step, ctx, fc.arrived, fc.name))
                elif isinstance(step, N.IfThen) and all(isinstance(inner, PLAIN) for inner in step.then):
                    then = tuple(Static(inner, ctx, fc.arrived, fc.name) for inner in step.then)
                    if _while_on_field(step.condition):
                        entries.extend(then)  # it is on the field whenever its abilities are read
                    else:
                        of_this_card = isinstance(step.condition, N.Present) and step.condition.what.quantifier == "this"
                        entries.append(Conditional(step.condition, ctx, then, of_this_card, all(map(_about_holder, step.then))))
                elif isinstance(step, N.IfThen):
                    entries.append((step, ctx, fc.arrived, fc.name))
                else:
                    return None
    if not entries:
        return NO_PASSIVES  # most cards: nothing always on
    steps = _steps_of(entries)
    return Passives(tuple(entries), any(_may_allow(ability_step) for ability_step in steps),
                    frozenset(sort for ability_step in steps for sort in _wants(ability_step)), _can_turns(steps))


_PRINTED_PASSIVES: dict[int, tuple[tuple[CardDef, ...], Passives]] = {}
"""Printed parts (by identity, kept alive here) -> the :class:`Passives` first read off a card of
those parts alone: what a text holds is worked out once per printed card, not once per card
put on the field (:func:`_for_card` gives another card of the same parts its own copy)."""


def _for_card(read: Passives, fc: OnField) -> Passives:
    """The always-on abilities of ``fc`` when ``read`` are those of another card of the same
    printed parts: the same steps, conditions and flags, held by ``fc`` (its controller, its
    arrival, its name; one context per ability, as a reading gives)."""
    if not read.entries:
        return NO_PASSIVES
    contexts: dict[int, Ctx] = {}
    arrived, name = fc.arrived, fc.name

    def ctx_of(other: Ctx) -> Ctx:
        ctx = contexts.get(id(other))
        if ctx is None:
            ctx = contexts[id(other)] = Ctx(fc.owner, fc)
        return ctx

    entries: list[Any] = []
    for entry in read.entries:
        if type(entry) is Static:
            entries.append(Static(entry.step, ctx_of(entry.ctx), arrived, name))
        elif type(entry) is Conditional:
            ctx = ctx_of(entry.ctx)
            entries.append(Conditional(entry.condition, ctx, tuple(Static(s.step, ctx, arrived, name) for s in entry.then),
                                       entry.of_this_card, entry.own_only))
        else:
            entries.append((entry[0], ctx_of(entry[1]), arrived, name))
    return Passives(tuple(entries), read.may_allow, read.present, read.can_turns)


NO_PASSIVES = Passives((), False, frozenset(), frozenset())
"""The always-on abilities of a card that has none (what :func:`passives_of` would read for it)."""


def _while_on_field(cond: Any) -> bool:
    """Whether a condition is only "as long as this card is on the field" (:func:`holds` of a
    :class:`N.Present` of this card that asks nothing more of it): true whenever a card on the
    field has its always-on abilities read."""
    if not isinstance(cond, N.Present) or cond.negated:
        return False
    sel = cond.what
    return (sel.quantifier == "this" and "card" in sel.kinds and sel.owner is None and sel.zone in (None, "field")
            and sel.visible is None and not sel.other and sel.species is None and sel.element is None and sel.prefix is None
            and sel.state is None and sel.mode is None and sel.stat is None)


def _steps_of(entries: list[Any]) -> list[Any]:
    out = []
    for entry in entries:
        if type(entry) is Static:
            out.append(entry.step)
        elif type(entry) is Conditional:
            out.extend(s.step for s in entry.then)
        else:
            out.append(entry[0])
    return out


def may_allow(state: BattleMonstersState) -> bool:
    """Whether a card's "can" of its own could be in force now, judged without reading any
    condition: ``False`` means :func:`statics` holds no "can" but "can only"s and "can ... by"s
    (see :attr:`Passives.may_allow`), or cannot be read at all.

    Each card known to hold no "can" of its own (``OnField.quiet``) and sharing no other card's
    text is passed over at once, and so is each card whose whole fusion group is known to hold
    none (``OnField.fused_quiet``). A card whose "can"s are all bound to the turn it was
    summoned or revealed (:attr:`Passives.can_turns`) counts only on that turn.

    Nothing but a card coming onto the field or turning face up (:func:`may_bring_can`), a
    fusion, a lasting effect or the game starting can turn its answer from no to yes: a
    turn passing, a card leaving, turning face down or losing its effects only take "can"s
    away (see ``BattleMonstersState.conflicts_clock``).
    """
    for side in state.sides.values():
        # card by card: compiled, each flag is read directly (a side of quiet cards, none fused,
        # is passed over all the same, one card at a time)
        for fc in side.field:
            if (fc.quiet and not fc.fused) or fc.fused_quiet:
                continue  # known to hold no "can" of its own (OnField.quiet, OnField.fused_quiet)
            if _may_allow_card(state, fc):
                return True
    if not state.lasting:
        return False
    return any(isinstance(lasting.step, N.Can) for lasting in state.lasting)


def may_bring_can(state: BattleMonstersState, fc: OnField) -> bool:
    """Whether a card that has just come onto the field or turned face up may bring a card's "can"
    of its own into force (:func:`may_allow`): its effects work, and its text is not known to hold
    none (``OnField.quiet``; ``OnField.fused_quiet``). A card fused with nothing whose flags are
    not known yet has them read off its printed parts (:func:`printed_passives`, once per printed
    card), as :func:`passives_of` would set them, without reading its own copy of the abilities."""
    if not ((fc.visible or fc.kind == "trap") and not fc.nullified):  # effects_on
        return False
    if fc.fused:
        return not fc.fused_quiet
    if not fc.quiet and fc.passives is None:
        held = printed_passives(state, fc)
        if held is None:
            return True  # its text cannot be run: may_allow counts it
        fc.silent = not held.entries
        fc.quiet = not held.may_allow
    return not fc.quiet


def _may_allow_card(state: BattleMonstersState, fc: OnField) -> bool:
    """Whether one card's "can" could be in force now (see :func:`may_allow`)."""
    if fc.passives is None and not fc.fused:
        passives_of(state, fc)  # its own text, read once whatever its stance: OnField.quiet
        if fc.quiet:
            return False
    if not ((fc.visible or fc.kind == "trap") and not fc.nullified):  # effects_on
        return False
    kept = fc.passives
    held = kept[1] if kept is not None and not fc.fused and not kept[0] else passives_of(state, fc)
    if held is None:
        return True
    if not held.may_allow:
        return False
    turns = held.can_turns  # "this card can ... on the turn it is summoned": in force on that turn only
    if turns is None:
        return True
    for when in turns:
        if _when_ok(state, when, fc):
            return True
    return False


def _unfold(state: BattleMonstersState, step: Any, ctx: Ctx, stamp: int, source: str) -> list[Static]:
    if isinstance(step, N.IfThen):
        if not holds(state, step.condition, ctx):
            return []
        out: list[Static] = []
        for inner in step.then:
            out.extend(_unfold(state, inner, ctx, stamp, source))
        return out
    if isinstance(step, (N.Points, N.ImmuneTo, N.Cannot, N.Can)):
        return [Static(step, ctx, stamp, source)]
    raise Unmodelled(f"{source}: an always-on {type(step).__name__} is not modelled")


def points(state: BattleMonstersState, fc: OnField, stat: str, in_battle: bool = False) -> int:
    """A monster's attack or defence points now: printed, plus effects (temporary ones only in battle)."""
    total = printed_points(fc, stat)
    for bonus in fc.bonus:
        if bonus.stat == stat and (bonus.until is None or bonus.until >= state.turn):
            total += bonus.delta
    # Only the changes of this stat that count now are read (statics of the sort battle@<stat> or
    # points@<stat>): the conditions of the others are not looked at.
    for static in statics_on(state, ("battle@" if in_battle else "points@") + stat, fc):
        step = static.step
        if not isinstance(step, N.Points) or step.stat != stat:
            continue
        if step.duration is not None and step.duration.until == "temporary" and not in_battle:
            continue
        if not matches(state, step.target, fc, static.ctx):
            continue
        if static.ctx.holder is not None and static.ctx.holder.uid != fc.uid and immune(state, fc, static.ctx.holder):
            continue
        delta = number(state, step.delta, static.ctx)
        if step.per is not None:
            delta *= count(state, step.per, static.ctx)
        total += delta
    return total


def battle_points(state: BattleMonstersState, fc: OnField) -> int:
    """BM.monster.calc_mode, BM.monster.calc_attacked: the points a card battles with, by its mode."""
    return points(state, fc, "defense" if fc.mode == "defense" else "attack", in_battle=True)


# ====================================================================== immunities and permissions

def immune(state: BattleMonstersState, fc: OnField, source: OnField | None, attack: bool = False) -> bool:
    """Whether ``fc`` is immune to what ``source`` does (a spell, a trap, a monster's effect or attack)."""
    if source is None:
        return False
    for static in statics_on(state, "immune", fc):
        step = static.step
        if not isinstance(step, N.ImmuneTo) or not matches(state, step.target, fc, static.ctx):
            continue
        to = step.to
        kinds = set(to.kinds)
        if attack:
            if "attack" not in kinds:
                continue
        elif source.kind == "monster":
            if "effect" not in kinds:
                continue
        elif source.kind not in kinds and "card" not in kinds and "effect" not in kinds:
            continue
        probe = N.Cards("all", ("card",), owner=to.owner, element=to.element, exclude_element=to.exclude_element,
                        species=to.species, visible=to.visible)
        if _filters(state, probe, source, static.ctx):
            return True
    return False


@dataclass(frozen=True)
class Verdict:
    """What card effects say about an action: allowed or not, and which card decided it."""

    allowed: bool | None
    """``True``: a card allows it; ``False``: a card forbids it; ``None``: no card speaks."""
    source: str = ""
    rule: str = ""


def permission(state: BattleMonstersState, action: str, subject: OnField | None, player: str | None = None,
               other: OnField | None = None, when: str | None = None) -> Verdict:
    """What the effects in force say about ``subject`` (or ``player``) doing ``action``.

    BM.rules.card: a card's effect prevails over the manual. BM.rules.conflict: when a
    "can" and a "cannot" both apply, the clash goes to the precedence policy
    (:func:`spec.battle_monsters.conflicts.settle_permission`: one that says it holds
    regardless of other rules prevails, else the card that arrived later); a clash it
    does not settle raises :class:`Gap` (unverifiable). ``other`` is the card on the
    other side of the action (the attacker for ``be_attacked``); ``when`` the manual
    restriction being lifted (``summoned_turn``, ``revealed_turn``).
    """
    if not state.lasting:  # the usual answer at once, as applicable would give it: no effect speaks of the action
        profile = state.profile
        if profile is not None and profile.ok and "act:" + action not in profile.spoken:
            return NO_CARD_SPEAKS
    yes, no = applicable(state, action, subject, player, other, when)
    if not yes and not no:
        return NO_CARD_SPEAKS
    if yes and no:
        from spec.battle_monsters.conflicts import settle_permission

        return settle_permission(state, action, subject, player, yes, no, when)
    if yes:
        return Verdict(True, yes[0].source, "BM.rules.card")
    return Verdict(False, no[0].source, "BM.rules.card")


NO_CARD_SPEAKS = Verdict(None)
"""The verdict when no effect in force speaks of the action (the manual's defaults apply)."""


class Gap(Unmodelled):
    """Effects in force clash and no precedence rule settles them (or z3 could not decide): unverifiable."""


def applicable(state: BattleMonstersState, action: str, subject: OnField | None, player: str | None = None,
               other: OnField | None = None, when: str | None = None) -> tuple[list[Static], list[Static]]:
    """The effects in force that allow (``yes``) and forbid (``no``) this action now.

    The usual answer, that nothing speaks of the action, is given at once when no lasting
    effect is in force and no always-on ability of the database speaks of it (:func:`tame`).
    While the state is only read (:class:`Reading`), each question is answered once (the
    lists are then shared: callers only read them).
    """
    yes: list[Static] = []
    no: list[Static] = []
    if not state.lasting:
        profile = state.profile
        if profile is None:
            profile = state.profile = tame(state.cards)
        if profile.ok and "act:" + action not in profile.spoken:
            return yes, no
    memo = state.statics_memo
    key = (action, subject, player, other, when)
    if memo is not None:  # board.Reading: several checks of one move ask the same question
        kept = memo.get(key)
        if kept is not None:
            return kept  # type: ignore[no-any-return]
    for static in statics(state, "act:" + action):
        step = static.step
        if isinstance(step, N.Cannot) and action in step.actions:
            if not _subject_ok(state, step.subject, subject, player, static.ctx):
                continue
            if step.by is not None and (other is None or not matches(state, step.by, other, static.ctx)):
                continue
            if step.when is not None and not _when_ok(state, step.when, subject):
                continue
            no.append(static)
        elif isinstance(step, N.Can) and step.action == action:
            if not _subject_ok(state, step.subject, subject, player, static.ctx):
                continue
            if step.only:
                if step.by is not None and other is not None and not matches(state, step.by, other, static.ctx):
                    no.append(static)
                continue
            if step.when is not None and step.when != when:
                continue
            if step.by is not None and (other is None or not matches(state, step.by, other, static.ctx)):
                continue
            yes.append(static)
    if memo is not None:
        memo[key] = (yes, no)
    return yes, no


def _subject_ok(state: BattleMonstersState, sel: N.Cards, subject: OnField | None, player: str | None, ctx: Ctx) -> bool:
    if "player" in sel.kinds:
        return player is not None and player in who(state, ctx.controller, sel.owner, ctx.holder)
    return subject is not None and matches(state, sel, subject, ctx)


def _when_ok(state: BattleMonstersState, when: str, subject: OnField | None) -> bool:
    if when == "this_turn":
        return True
    if subject is None:
        return False
    if when == "summoned_turn":
        return subject.summoned_turn == state.turn
    if when == "revealed_turn":
        return subject.revealed_turn == state.turn
    return False


def visible_monsters(state: BattleMonstersState, player: str) -> list[OnField]:
    return [fc for fc in state.sides[player].field if fc.kind == "monster" and fc.visible]
