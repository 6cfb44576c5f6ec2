"""Read-only questions about a TTCG state, shared by the rule checks and the effects.

What a card *is* comes from its record: ``Unit (ELEMENT)`` is a creature whose type is
the element (2.1.u, 2.1.w), ``Spell`` a magic card whose type is magic (2.1.v); its
rank is its printed level (2.1.y, 2.1.am) changed by effects; its sub-types are its
traits (2.1.x). What a card *does* comes from its parsed text: a card whose text does
not parse, or that uses an effect type the rulebook does not define, raises
:class:`Unmodelled`, which the verifier reports as unverifiable.

Which effects are in force (the statics) follows 2.2.5.i: a Passive effect always, an
Equip effect while its card is attached, a Continuous effect once switched on, a Latent
effect while its card is untapped. Cards under others take no part (2.2.6.e) unless
their text speaks of being under another card (2.2.5.b).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, Final, Literal

from grammar import ast as A
from grammar import ttcg_nodes as T
from spec.core.cards import CardDatabase, CardDef
from spec.core.state import CardObj
from spec.ttcg.edits import field_edits
from spec.ttcg.state import EDITS, Lasting, Pile, TtcgState

# The module's objects that are never bound again are ``Final``: compiled code reads each from a C
# static instead of looking it up in the module's namespace at every use (see spec.ttcg.edits.EDITS).
ELEMENTS: Final = ("water", "fire", "earth", "nature", "electric", "light", "dark")
DEFINED_LABELS: Final = ("normal", "continuous", "counter", "equip", "latent", "dormant", "passive")
"""The effect types of 2.2.5.i; any other label is not defined by the rulebook."""


class Unmodelled(Exception):
    """The spec cannot give meaning to something the log uses (a card, a step, an effect type)."""


# ---------------------------------------------------------------------- what a card is


def is_creature(defn: CardDef | None) -> bool:
    """A creature card (2.1.u): printed as ``Unit (ELEMENT)``."""
    return defn is not None and defn.type.startswith("Unit")


def is_magic(defn: CardDef | None) -> bool:
    """A magic card (2.1.v): printed as ``Spell``."""
    return defn is not None and defn.type == "Spell"


def check_type(defn: CardDef) -> None:
    """Raise :class:`Unmodelled` for a card type the rulebook does not describe."""
    if not (is_creature(defn) or is_magic(defn)):
        raise Unmodelled(f"{defn.name!r} is a {defn.type!r}: only creatures (Unit) and magic cards (Spell) are modelled")


_ELEMENT_OF: dict[str, str] = {}
"""Printed type line -> its TYPE (see :func:`element`), read once per type line."""


def element(defn: CardDef | None) -> str:
    """The card's TYPE (2.1.w): its element for a creature, ``magic`` for a magic card."""
    if defn is None:
        return ""
    found = _ELEMENT_OF.get(defn.type)
    if found is None:
        if is_magic(defn):
            found = "magic"
        else:
            word = re.search(r"\((\w+)\)", defn.type)
            found = word.group(1).lower() if word else ""
        _ELEMENT_OF[defn.type] = found
    return found


def printed_rank(defn: CardDef | None) -> int:
    """The stars printed on the card (2.1.y, 2.1.am); a card without stars is rank 1."""
    return 1 if defn is None or defn.level is None else defn.level


_KINDS_OF: Final[dict[tuple[str, tuple[str, ...]], frozenset[str]]] = {}
"""(type line, traits) -> the words such a card answers to (see :func:`kinds_of`)."""


def kinds_of(defn: CardDef | None) -> frozenset[str]:
    """The words a card answers to in effect text: its type, sub-types and category.

    They follow from the printed type line and traits alone, so they are worked out once
    for each pair of them.
    """
    if defn is None:
        return frozenset()
    seen = _KINDS_OF_CARD.get(id(defn))
    if seen is not None and seen[0] is defn:
        return seen[1]
    key = (defn.type, tuple(defn.traits))
    words = _KINDS_OF.get(key)
    if words is None:
        found = {"card", element(defn)}
        found.add("unit" if is_creature(defn) else "spell")
        found.update(t.lower() for t in defn.traits)
        words = _KINDS_OF[key] = frozenset(found)
    if len(_KINDS_OF_CARD) > 4096:
        _KINDS_OF_CARD.clear()
    _KINDS_OF_CARD[id(defn)] = (defn, words)
    return words


_KINDS_OF_CARD: Final[dict[int, tuple[CardDef, frozenset[str]]]] = {}
"""The last card records :func:`kinds_of` read, by identity (each kept with its record, so an id is never taken for another)."""


# ---------------------------------------------------------------------- card texts


def text_of(state: TtcgState, name: str) -> A.CardText:
    """The parsed text of a card; raises :class:`Unmodelled` if it does not parse."""
    return text_in(state.cards, name)


def text_in(cards: CardDatabase, name: str) -> A.CardText:
    """The parsed text of a card of ``cards`` (see :func:`text_of`)."""
    tree = cards.tree(name)
    if isinstance(tree, Exception):
        raise Unmodelled(f"the text of {name!r} does not parse: {tree}")
    if A.unknown_parts(tree):
        raise Unmodelled(f"the text of {name!r} has parts the grammar does not cover")
    return tree


Numbered = tuple[tuple[int, str, Any], ...]
"""``(index, label, ability)`` of some of a card's effects, ``index`` its place among all of them."""


class _Reading:
    """What a card database's texts say, read once per card (the verifier asks at every event).

    ``effects``: ``(label, ability)`` of every effect; ``passives`` and ``triggered``:
    the Passive and the triggered ones, numbered (:data:`Numbered`); ``triggers``: the
    triggered ones by the event they watch; ``quiet``: see :func:`quiet`; ``of_kind``: see
    :func:`statics_of`; ``typed``: see :func:`typed_names`.
    A text the spec cannot read is not remembered: asking again raises
    :class:`Unmodelled` again.
    """

    __slots__ = ("effects", "holding", "of_kind", "passives", "quiet", "triggered", "triggers", "typed")

    def __init__(self) -> None:
        self.effects: dict[str, tuple[tuple[str, Any], ...]] = {}
        self.holding: dict[str, tuple[bool, bool]] = {}
        """Card name -> (whether it has Passive effects, whether it has triggered ones): see :func:`holding`."""
        self.passives: dict[str, Numbered] = {}
        self.triggered: dict[str, Numbered] = {}
        self.triggers: dict[tuple[str, str], Numbered] = {}
        self.quiet: dict[str, bool] = {}
        self.of_kind: dict[tuple[str, Any], tuple[tuple[int, str, Any, tuple[Any, ...]], ...]] = {}
        self.typed: set[str] = set()


def typed_names(state: TtcgState) -> set[str]:
    """The names of the card database found so far to be cards of a type the rulebook describes
    (:func:`check_type` passed); a name is added by whoever checked it."""
    return _reading(state.cards).typed


def _reading(cards: CardDatabase) -> _Reading:
    """The :class:`_Reading` of ``cards``, kept on the database itself; the last one asked for is kept
    here too (:data:`_LAST_READING`), so that the common case (every event of a replay asks for the same
    database's) compares two objects instead of reading a Python object's ``__dict__``."""
    last = _LAST_READING
    if last.cards is cards:
        return last.reading
    reading: _Reading | None = cards.__dict__.get("_ttcg_reading")
    if reading is None:
        reading = cards.__dict__["_ttcg_reading"] = _Reading()
    last.cards = cards
    last.reading = reading
    return reading


class _LastReading:
    """The card database :func:`_reading` was last asked about and its reading (``cards`` is ``None``
    before the first)."""

    __slots__ = ("cards", "reading")

    def __init__(self) -> None:
        self.cards: CardDatabase | None = None
        self.reading: _Reading = _Reading()


_LAST_READING: Final = _LastReading()
"""The last database :func:`_reading` read and its reading (see :class:`_LastReading`)."""


def effects_of(state: TtcgState, name: str) -> tuple[tuple[str, Any], ...]:
    """``(label, ability)`` for each effect of a card, in printed order (``normal`` if unlabelled).

    Read once per card database and card (the verifier asks for them at every event).
    """
    return effects_in(state.cards, name)


def effects_in(cards: CardDatabase, name: str) -> tuple[tuple[str, Any], ...]:
    """:func:`effects_of` a card of ``cards``, with no state at hand (a compiled function takes
    only a :class:`TtcgState` where one is declared)."""
    known = _reading(cards).effects
    found = known.get(name)
    if found is None:
        out: list[tuple[str, Any]] = []
        for ability in text_in(cards, name).abilities:
            if isinstance(ability, T.Labelled):
                out.append((ability.label, ability.ability))
            else:
                out.append(("normal", ability))
        found = known[name] = tuple(out)
    return found


def passives_of(state: TtcgState, name: str) -> Numbered:
    """The Passive effects of a card (its always-on ones, 2.2.5.i), numbered as in :func:`effects_of`."""
    return _numbered_of(state, name, A.Passive, _reading(state.cards).passives)


def triggered_of(state: TtcgState, name: str) -> Numbered:
    """The effects of a card that a trigger sets off, numbered as in :func:`effects_of`."""
    return _numbered_of(state, name, A.Triggered, _reading(state.cards).triggered)


def _numbered_of(state: TtcgState, name: str, kind: type, known: dict[str, Numbered]) -> Numbered:
    """The effects of one kind of a card, numbered as in :func:`effects_of` (kept in ``known``)."""
    found = known.get(name)
    if found is None:
        found = known[name] = tuple((i, label, a) for i, (label, a) in enumerate(effects_of(state, name))
                                    if isinstance(a, kind))
    return found


def holding(state: TtcgState, name: str) -> tuple[bool, bool]:
    """Whether a card has Passive effects, and whether it has effects a trigger sets off.

    The field's index (:class:`_Field`) picks out the cards of the field holding either by
    one look-up per card in the table this fills. Raises :class:`Unmodelled` for a text
    that cannot be read (as :func:`passives_of` and :func:`triggered_of` both do), which is
    then not remembered.
    """
    known = _reading(state.cards).holding
    found = known.get(name)
    if found is None:
        found = known[name] = (bool(passives_of(state, name)), bool(triggered_of(state, name)))
    return found


def triggers(state: TtcgState, name: str, event: str) -> Numbered:
    """The effects of a card that the trigger ``event`` sets off, numbered as in :func:`effects_of`."""
    known = _reading(state.cards).triggers
    found = known.get((name, event))
    if found is None:
        found = known[(name, event)] = tuple(t for t in triggered_of(state, name) if t[2].trigger.event == event)
    return found


def trigger_table(state: TtcgState) -> dict[tuple[str, str], Numbered]:
    """What :func:`triggers` has read so far, by (card name, event) (a pair not in it is asked of :func:`triggers`)."""
    return _reading(state.cards).triggers


def quiet(state: TtcgState, name: str) -> bool:
    """Whether a card's Passive effects can neither forbid nor set anything, and are read without fail.

    That is: no can't (:class:`~grammar.ttcg_nodes.Restrict`) and no set value
    (:class:`~grammar.ttcg_nodes.SetStat`) among their steps, effect types the rulebook
    defines, and conditions :func:`condition_holds` reads. Such a card on the field adds
    nothing to the effects a clash is looked for among (``conflicts.effects_in_force``).
    A text that does not parse is not quiet.
    """
    known = _reading(state.cards).quiet
    found = known.get(name)
    if found is None:
        try:
            found = known[name] = not loud(state, name)
        except Unmodelled:
            return False
    return found


def loud(state: TtcgState, name: str) -> tuple[tuple[int, str, Any, tuple[Any, ...]], ...]:
    """The Passive effects of a card that are not quiet (see :func:`quiet`): ``(index, label,
    ability, steps)``, ``steps`` its can'ts and set values, for each one that has some or whose
    reading may fail. Raises :class:`Unmodelled` for a text that does not parse.
    """
    found = _reading(state.cards).of_kind.get((name, _CLASHING))
    return found if found is not None else _passives_of_kind(state, name, _CLASHING)


_CLASHING = (T.Restrict, T.SetStat)
"""The static steps that can clash: can'ts and set values."""

STATIC_STEPS: Final = (T.Restrict, T.RankUp, T.Boost, T.SetStat)
"""The steps an always-on (Passive) effect may hold: those :func:`statics_of` is asked for.
A Passive effect with any other step would be ignored, so ``Ttcg.unsupported`` names it."""


def quiet_cards(state: TtcgState) -> dict[str, bool]:
    """What :func:`quiet` has found so far, by card name (a name not in it is asked of :func:`quiet`)."""
    return _reading(state.cards).quiet


_STATES = ("on the field", "under another card", "tapped", "dormant", "untapped", "in hand", "in discard pile")
"""What :func:`condition_holds` reads of a card's place."""


def _read_without_fail(cond: A.Condition | None) -> bool:
    """Whether :func:`condition_holds` reads the condition without raising :class:`Unmodelled`."""
    if cond is None:
        return True
    if cond.subject == "state":
        return cond.value in _STATES
    if cond.subject == "points" or cond.subject == "cards" and cond.of is not None:
        return isinstance(cond.value, int) and cond.op in (">=", "<=", "==")
    return False


def defined(label: str, name: str) -> None:
    """Raise :class:`Unmodelled` for an effect type 2.2.5.i does not define."""
    if label not in DEFINED_LABELS:
        raise Unmodelled(f"{name}: the effect type {label.capitalize()!r} is not defined by the rulebook (2.2.5.i)")


class Reads:
    """How many times the readings of this module looked at three things that are not the
    field's make-up (counts that only grow, shared by every state):

    ``marks``, whether a pile is tapped, which effects it has switched on, what it is
    attached to; ``active``, which player is active (beyond the order the field is read
    in); ``beyond``, a player's points, a hand or a discard pile (conditions). And
    ``conditions``: how many conditions of effects in force :func:`in_force` read;
    ``counts``: how many of them counted cards of the field (which may read their ranks,
    and so lasting results and other effects in force); ``ranks``: how many ranks
    :func:`rank` worked out (a count that read none depends on the field's make-up alone).

    A reading during which a count did not move does not depend on that thing, so what it
    found may be kept while the rest stays as it was (:func:`statics_of`,
    ``conflicts._signature_kept``). ``piles``: while a reading that keeps what it found is
    under way (:func:`marks_recorded`), the piles whose marks it looked at: it is kept while
    their own counts of changes (``Pile.mark_count``) stay as they were.
    """

    __slots__ = ("active", "beyond", "conditions", "counts", "marks", "piles", "ranks")

    def __init__(self) -> None:
        self.marks = 0
        self.active = 0
        self.beyond = 0
        self.conditions = 0
        self.counts = 0
        self.ranks = 0
        self.piles: list[Pile] | None = None

    def now(self) -> tuple[int, int, int]:
        """The three counts as they stand: marks, active, beyond."""
        return self.marks, self.active, self.beyond


READS: Final = Reads()
"""What the readings of this module looked at (see :class:`Reads`)."""


def _marks_read(pile: Pile) -> None:
    """Note that a reading looked at ``pile``'s marks (tapped, switched on, attached to)."""
    READS.marks += 1
    piles = READS.piles
    if piles is not None:
        piles.append(pile)


MarksSeen = tuple[tuple[Pile, int], ...]
"""The piles whose marks a reading looked at, each with its count of changes then (see :class:`Reads`)."""


def marks_recorded(read: Callable[[], Any]) -> tuple[Any, MarksSeen]:
    """What ``read()`` gives, with the piles whose marks it looked at (:data:`MarksSeen`); a
    reading under way around it looked at them too."""
    outer = READS.piles
    seen: list[Pile] = []
    READS.piles = seen
    try:
        found = read()
    finally:
        READS.piles = outer
    if outer is not None:
        outer.extend(seen)
    return found, tuple((pile, pile.mark_count) for pile in seen)


def marks_unchanged(seen: MarksSeen, edits: int = -1) -> bool:
    """Whether the marks of the piles a reading looked at are as they were (see :func:`marks_recorded`);
    then a reading under way looks at them too. ``edits``: :func:`spec.ttcg.edits.mark_edits` as it was
    when ``seen`` was recorded, if known: while it stays, no pile's marks changed (each change of a
    pile's own count moves it), and the piles are not looked at one by one."""
    if edits != EDITS.marks:
        for pile, count in seen:
            if pile.mark_count != count:
                return False
    READS.marks += 1
    piles = READS.piles
    if piles is not None:
        for pile, _count in seen:
            piles.append(pile)
    return True


# ---------------------------------------------------------------------- the field


def players_in_order(state: TtcgState) -> tuple[str, ...]:
    """The players, active player first (the order in which the field is read)."""
    active = state.active
    if not active:
        return state.players
    a, b = state.players
    return (active, b if active == a else a)


def piles(state: TtcgState) -> Iterator[tuple[str, Pile]]:
    """Every pile on the field, active player's first, creatures before magic."""
    for player in players_in_order(state):
        side = state.sides[player]
        for pile in side.creatures:
            yield player, pile
        for pile in side.magic:
            yield player, pile


class _Field:
    """The make-up of one state's field, read once until it changes (see :func:`spec.ttcg.edits.field_edits`).

    ``piles``: ``(owner, pile)`` in field order (:func:`piles`). Read when first asked:
    ``tops``, ``(owner, top card)`` of the piles whose top card has a name; ``by_id`` and
    ``by_top``, a pile (with its owner) by its id and by its top card's uid; ``kinds`` and
    ``watchers``, per kind of static step and per trigger event, the cards of the field
    that have such effects (see :func:`_statics_entries`, :func:`watching`), or ``None`` when
    a card's text cannot be read (then the field is read card by card, so that it fails
    where it would). ``statics``: what :func:`statics_of` found. The field order puts the
    active player first: a new active player is a new reading.

    The cards of the field with Passive effects and the piles whose top card has triggered
    effects are picked out once (:meth:`holders`); each kind and each event is then looked
    for among those only. They are picked out as the piles are listed, by one look-up per
    card in the table of :func:`holding`, when it knows every card of the field; else on
    first asking, card by card (filling the table, or failing where a text cannot be read).

    A new active player with the make-up unchanged (a new turn) is a new reading of the same
    lists, put in the new order by :meth:`turned` (each list holds the first player's
    entries, then the other's, ``splits`` tells where they meet); what was read per kind and per
    event waits in ``pending`` and is put in the new order when first asked (:meth:`carried`).
    A pile joining or leaving the field is followed by :meth:`joined` and :meth:`left`, a level
    up by :meth:`levelled`, instead of a new reading; what waits in ``pending`` per kind is taken
    over first (:meth:`_settle`). ``counted``: the kinds whose statics kept (here or in ``pending``)
    counted cards of the field (see :func:`statics_of`): a change of the make-up drops them.
    """

    __slots__ = ("_by_id", "_by_top", "_passive", "_tops", "_triggered", "active", "cards", "counted", "edits", "first",
                 "kinds", "pending", "piles", "splits", "statics", "watchers")

    def __init__(self, state: TtcgState | None) -> None:
        """The reading of ``state``'s field; with ``None``, an empty shell that :meth:`turned` fills
        (``_Field.__new__`` would run this under mypyc all the same: see spec.compiled)."""
        if state is None:
            return
        self.edits = field_edits()
        self.active = state.active
        self.cards = state.cards
        found: list[tuple[str, Pile]] = []
        passive: list[tuple[str, Pile, CardObj, str]] | None = []
        triggered: list[tuple[str, Pile, CardObj, str]] | None = []
        table = _reading(state.cards).holding
        sides = state.sides
        order = players_in_order(state)
        self.first = order[0]
        splits: tuple[int, int, int] | None = None
        for owner in order:
            if owner != self.first and splits is None:
                splits = (len(found), len(passive or ()), len(triggered or ()))
            side = sides[owner]
            for row in (side.creatures, side.magic):
                for pile in row:
                    found.append((owner, pile))
                    if passive is None:
                        continue
                    top = pile.card
                    for card in (top, *pile.under) if pile.under else (top,):
                        name = card.name
                        if name is None:
                            continue
                        holds = table.get(name)
                        if holds is None:  # a card not read yet: picked out on first asking (holders)
                            passive = triggered = None
                            break
                        if holds[1] and card is top:
                            triggered.append((owner, pile, card, name))  # type: ignore[union-attr]
                        if holds[0]:
                            passive.append((owner, pile, card, name))  # type: ignore[union-attr]
        self.piles = found
        self.splits = splits if passive is not None and len(order) == 2 else None
        self._tops: list[tuple[str, CardObj]] | None = None
        self._by_id: dict[int, tuple[Pile, str]] | None = None
        self._by_top: dict[int, Pile] | None = None
        self.kinds: dict[Any, tuple[tuple[str, Pile, CardObj, Any], ...] | None] = {}
        self.watchers: dict[str, tuple[tuple[str, Pile, CardObj, Numbered], ...] | None] = {}
        self.statics: dict[Any, tuple[MarksSeen | None, list[tuple[str, Pile, Any]]]] = {}
        self.counted: frozenset[Any] = frozenset()
        self._passive = passive
        self._triggered = triggered
        self.pending: dict[str, dict[Any, Any]] | None = None

    def turned(self, state: TtcgState) -> _Field:
        """This reading with ``state.active`` as the active player, the field's make-up unchanged:
        its piles, holders and top cards in the new order, the marks counted and the piles by id and
        top card kept (they do not depend on it); what was read per kind and per event put in the new order
        too, the new active player's entries first (:func:`_owner_first`), as each is first asked
        for (:meth:`carried`). A static kept was read without looking at the active player
        (:func:`statics_of` keeps no other)."""
        other = _Field(None)
        other.edits, other.active, other.cards = self.edits, state.active, self.cards
        order = players_in_order(state)
        other.first = order[0]
        splits = self.splits
        assert splits is not None
        if order[0] == self.first:
            other.piles, other._passive, other._triggered, other.splits = self.piles, self._passive, self._triggered, splits
        else:
            piles, passive, triggered = self.piles, self._passive, self._triggered
            other.piles = piles[splits[0]:] + piles[:splits[0]]
            other._passive = passive[splits[1]:] + passive[:splits[1]]  # type: ignore[index]
            other._triggered = triggered[splits[2]:] + triggered[:splits[2]]  # type: ignore[index]
            other.splits = (len(piles) - splits[0], len(passive) - splits[1], len(triggered) - splits[2])  # type: ignore[arg-type]
        other._tops = None if self._tops is None else _owner_first(self._tops, other.first)  # (each names its owner first)
        other._by_id, other._by_top = self._by_id, self._by_top  # (the same piles: only the order of their reading moves)
        other.kinds, other.watchers, other.statics = {}, {}, {}
        other.counted = self.counted  # (a count of cards does not depend on the order they are read in)
        pending = self.pending
        other.pending = {table: {**pending[table], **getattr(self, table)} if pending else dict(getattr(self, table))
                         for table in _CARRIED}
        return other

    def carried(self, table: str, key: Any) -> Any:
        """What the readings this one was turned from (:meth:`turned`, ``pending``: the same make-up,
        another active player) found for ``key`` in their ``table`` (``kinds``, ``watchers`` or
        ``statics``), put in this reading's order and kept in its own table; :data:`_MISSING` if they
        found nothing there."""
        pending = self.pending
        if pending is None:
            return _MISSING
        found = pending[table].get(key, _MISSING)
        if found is _MISSING:
            return _MISSING
        first = self.first
        found = (found[0], _owner_first(found[1], first)) if table == "statics" else _owner_first(found, first)
        getattr(self, table)[key] = found
        return found

    def _settle(self) -> None:
        """Take what the readings this one was turned from found per kind (``pending``: the holders
        and the statics of each kind) into this reading's own tables, in its order (as :meth:`carried`
        does key by key): a change of the make-up followed in place (:meth:`joined`, :meth:`left`,
        :meth:`levelled`) then brings them up to date with the rest, instead of their being read
        again when next asked. What was found per event is left behind (one look-up per holder
        of triggered effects reads it again)."""
        pending = self.pending
        if pending is None:
            return
        first, kinds, statics = self.first, self.kinds, self.statics
        for key, found in pending["kinds"].items():
            if key not in kinds:
                kinds[key] = _owner_first(found, first)
        for key, found in pending["statics"].items():
            if key not in statics:
                statics[key] = (found[0], _owner_first(found[1], first))
        self.pending = None

    def _uncount(self) -> None:
        """Drop the statics kept that counted cards of the field (``counted``): the make-up they
        counted is about to change (called after :meth:`_settle`, which brought them here)."""
        if self.counted:
            for kinds in self.counted:
                self.statics.pop(kinds, None)
            self.counted = frozenset()

    def holders(self, state: TtcgState, triggered: bool) -> list[tuple[str, Pile, CardObj, str]]:
        """``(owner, pile, card, name)`` in field order: with ``triggered``, for each pile whose top
        card has effects a trigger sets off (:func:`triggered_of`); else for each card of the
        field, top or under, with Passive effects (:func:`passives_of`). Raises
        :class:`Unmodelled` (and keeps nothing) when a card's text cannot be read.
        """
        kept = self._triggered if triggered else self._passive
        if kept is not None:
            return kept
        found: list[tuple[str, Pile, CardObj, str]] = []
        for owner, pile in self.piles:
            for card in (pile.card,) if triggered or not pile.under else (pile.card, *pile.under):
                name = card.name
                if name is not None and holding(state, name)[1 if triggered else 0]:
                    found.append((owner, pile, card, name))
        if triggered:
            self._triggered = found
        else:
            self._passive = found
        return found

    def joined(self, state: TtcgState, owner: str, pile: Pile) -> None:
        """Bring this reading up to date after one change of the field's make-up: ``pile``, new and
        with nothing under it, appended to ``owner``'s row of its kind (:meth:`spec.ttcg.game.Ttcg.new_pile`).

        The pile takes its place in the field order; if its card holds Passive or triggered
        effects, it joins the holders there. What was read per kind and per event is kept
        unless the card has effects of that kind or event (or is not read for it yet): no
        effect of another card can read the new pile (its id and card are new; a reading that
        counted cards of the field or looked beyond it was not kept). Anything else, or a
        second change of the field since this reading, leaves it stale (read again when asked).
        """
        splits = self.splits
        if EDITS.field != self.edits + 1 or splits is None or pile.under:
            return
        name = pile.card.name
        holds = (False, False) if name is None else _reading(state.cards).holding.get(name)
        side = state.sides[owner]
        row = side.creatures if pile.row == "creature" else side.magic
        if holds is None or not row or row[-1] is not pile:
            return
        self._settle()
        self._uncount()
        first = owner == self.first
        at = (0 if first else splits[0]) + (len(side.creatures) - 1 if row is side.creatures else len(side.creatures) + len(side.magic) - 1)
        piles = self.piles.copy()
        piles.insert(at, (owner, pile))
        passive, triggered = self._passive, self._triggered
        assert passive is not None and triggered is not None  # splits are known only with the holders
        if holds[0] or holds[1]:
            before = {id(p) for _o, p in piles[:at]}
            named = name or ""  # (a holder has a name)
            entry = (owner, pile, pile.card, named)
            if holds[0]:
                passive = _inserted(passive, before, entry)
                of_kind = _reading(state.cards).of_kind
                for kinds in [*self.kinds, *self.statics]:
                    if of_kind.get((named, kinds)) != ():  # it has steps of that kind, or is not read for it yet
                        self.kinds.pop(kinds, None)
                        self.statics.pop(kinds, None)
            if holds[1]:
                triggered = _inserted(triggered, before, entry)
                table = trigger_table(state)
                for event in list(self.watchers):
                    if table.get((named, event)) != ():
                        del self.watchers[event]
        if first:
            self.splits = (splits[0] + 1, splits[1] + holds[0], splits[2] + holds[1])
        self.piles, self._passive, self._triggered = piles, passive, triggered
        if self._by_id is not None:
            self._by_id = {**self._by_id, pile.id: (pile, owner)} if pile.id not in self._by_id else None
        if self._by_top is not None:
            self._by_top = {**self._by_top, pile.card.uid: pile} if pile.card.uid not in self._by_top else None
        if self._tops is not None and name is not None:
            place = sum(1 for _o, p in piles[:at] if p.card.name is not None)
            self._tops = [*self._tops[:place], (owner, pile.card), *self._tops[place:]]
        self.edits = EDITS.field

    def left(self, state: TtcgState, owner: str, pile: Pile) -> None:
        """Bring this reading up to date after one change of the field's make-up: ``pile`` gone
        from ``owner``'s row (:meth:`spec.ttcg.game.Ttcg._remove`).

        Its entries leave the piles, the holders and what was read per kind and per event;
        the statics of a kind whose holders lost an entry are read again when asked, the
        others kept. A pile some equipment is attached to leaves the reading stale (an Equip
        effect is in force only while its creature is there), as does a second change.
        """
        splits = self.splits
        if EDITS.field != self.edits + 1 or splits is None:
            return
        at = [i for i, (_o, p) in enumerate(self.piles) if p is pile]
        if len(at) != 1 or any(p.equipped_to == pile.id for _o, p in self.piles):
            return
        self._settle()
        self._uncount()
        piles = self.piles[:at[0]] + self.piles[at[0] + 1:]
        passive = [e for e in self._passive or () if e[1] is not pile]
        triggered = [e for e in self._triggered or () if e[1] is not pile]
        if owner == self.first:
            assert self._passive is not None and self._triggered is not None  # splits are known only with the holders
            self.splits = (splits[0] - 1, splits[1] - (len(self._passive) - len(passive)),
                           splits[2] - (len(self._triggered) - len(triggered)))
        if len(passive) != len(self._passive or ()):  # it held Passive effects (what is read per kind is read among those)
            for kinds in [k for k in self.statics if k not in self.kinds]:
                del self.statics[kinds]  # (its holders not read here: they may have held the pile)
            for kinds, entries in list(self.kinds.items()):
                kept = None if entries is None else tuple(e for e in entries if e[1] is not pile)
                if kept is None or len(kept) != len(entries or ()):
                    self.statics.pop(kinds, None)
                    if kept is None:
                        del self.kinds[kinds]
                    else:
                        self.kinds[kinds] = kept
        if len(triggered) != len(self._triggered or ()):  # its top card had triggered effects
            for event, watchers in list(self.watchers.items()):
                if watchers is None:
                    del self.watchers[event]
                else:
                    self.watchers[event] = tuple(e for e in watchers if e[1] is not pile)
        self.piles, self._passive, self._triggered = piles, passive, triggered
        if self._by_id is not None:
            self._by_id = self._by_id.copy()
            self._by_id.pop(pile.id, None)
        if self._by_top is not None and self._by_top.get(pile.card.uid) is pile:
            self._by_top = self._by_top.copy()
            del self._by_top[pile.card.uid]
        if self._tops is not None:
            self._tops = [entry for entry in self._tops if entry[1] is not pile.card]
        self.edits = EDITS.field

    def levelled(self, state: TtcgState, owner: str, pile: Pile, old: CardObj) -> None:
        """Bring this reading up to date after a level up (:meth:`spec.ttcg.game.Ttcg._place`): ``old``,
        the top card of ``owner``'s ``pile``, put under it (last) and a new card on top, two changes
        of the field's make-up and no other.

        The piles and their order stay. Among the holders of Passive effects, the new card's entry
        (if any) comes first of the pile's and ``old``'s goes last (a card under is read after the
        top and the cards under it, oldest first); among those of triggered effects (top cards only)
        the new card takes the old one's place. What was read per kind and per event is kept unless
        ``old`` or the new card has effects of that kind or event: the entries of the other cards do
        not depend on which card tops this pile (a card's own place is all a kept reading looked at,
        and marks are followed by each pile's count; see :func:`statics_of`). The piles by top card
        and the top cards are read again when asked. Anything else leaves the reading stale.
        """
        splits = self.splits
        if EDITS.field != self.edits + 2 or splits is None or not pile.under or pile.under[-1] is not old:
            return
        new = pile.card
        table = _reading(state.cards).holding
        holds_new = (False, False) if new.name is None else table.get(new.name)
        holds_old = (False, False) if old.name is None else table.get(old.name)
        if holds_new is None or holds_old is None:
            return
        at = -1
        for i, (o, p) in enumerate(self.piles):
            if p is pile:
                if at != -1 or o != owner:
                    return
                at = i
        if at == -1:
            return
        self._settle()
        self._uncount()
        passive, triggered = self._passive, self._triggered
        assert passive is not None and triggered is not None  # splits are known only with the holders
        before = {id(p) for _o, p in self.piles[:at]}
        start = 0
        while start < len(passive) and id(passive[start][1]) in before:
            start += 1
        end = start
        while end < len(passive) and passive[end][1] is pile:
            end += 1
        if holds_new[0] or holds_old[0]:
            group = [e for e in passive[start:end] if e[2] is not old]
            if holds_new[0]:
                group.insert(0, (owner, pile, new, new.name or ""))
            if holds_old[0]:
                group.append((owner, pile, old, old.name or ""))
            passive = [*passive[:start], *group, *passive[end:]]
            of_kind = _reading(state.cards).of_kind
            for kinds in [*self.kinds, *self.statics]:
                if (holds_new[0] and of_kind.get((new.name, kinds)) != ()) or (holds_old[0] and of_kind.get((old.name, kinds)) != ()):  # type: ignore[arg-type]  # (a nameless card reads as none)
                    self.kinds.pop(kinds, None)  # the card has steps of that kind, or is not read for it yet
                    self.statics.pop(kinds, None)
        if holds_new[1] or holds_old[1]:
            kept = [e for e in triggered if e[1] is not pile]
            if holds_new[1]:
                kept = _inserted(kept, before, (owner, pile, new, new.name or ""))
            triggered = kept
            events = trigger_table(state)
            for event in list(self.watchers):
                if (holds_new[1] and events.get((new.name, event)) != ()) or (holds_old[1] and events.get((old.name, event)) != ()):  # type: ignore[arg-type]
                    del self.watchers[event]
        if owner == self.first:
            self.splits = (splits[0], splits[1] + holds_new[0], splits[2] + holds_new[1] - holds_old[1])
        self._passive, self._triggered = passive, triggered
        self._by_top = self._tops = None
        self.edits = EDITS.field

    @property
    def tops(self) -> list[tuple[str, CardObj]]:
        if self._tops is None:
            self._tops = [(owner, pile.card) for owner, pile in self.piles if pile.card.name is not None]
        return self._tops

    @property
    def by_id(self) -> dict[int, tuple[Pile, str]]:
        if self._by_id is None:
            self._by_id = {}
            for owner, pile in self.piles:
                self._by_id.setdefault(pile.id, (pile, owner))
        return self._by_id

    @property
    def by_top(self) -> dict[int, Pile]:
        if self._by_top is None:
            self._by_top = {}
            for _owner, pile in self.piles:
                self._by_top.setdefault(pile.card.uid, pile)
        return self._by_top


_CARRIED = ("kinds", "watchers", "statics")
"""The tables of a :class:`_Field` a reading turned to a new active player takes over (see :meth:`_Field.carried`)."""

_MISSING: Final[Any] = object()
"""What :meth:`_Field.carried` gives when the reading turned from found nothing for a key."""


def _owner_first(entries: Any, first: str) -> Any:
    """``entries`` (each naming its owner first, in field order), ``first``'s own first: the same
    entries in the field order with ``first`` as the active player; ``None`` stays ``None``."""
    if not entries:
        return entries  # (None, or nothing to order)
    mine = [e for e in entries if e[0] == first]
    if not mine or len(mine) == len(entries):
        return entries
    ordered = mine + [e for e in entries if e[0] != first]
    return tuple(ordered) if isinstance(entries, tuple) else ordered


def _inserted(holders: list[tuple[str, Pile, CardObj, str]], before: set[int],
              entry: tuple[str, Pile, CardObj, str]) -> list[tuple[str, Pile, CardObj, str]]:
    """``holders`` (in field order) with ``entry`` after those whose pile is among ``before`` (by ``id``)."""
    at = 0
    while at < len(holders) and id(holders[at][1]) in before:
        at += 1
    return [*holders[:at], entry, *holders[at:]]


def field_now(state: TtcgState) -> _Field | None:
    """The reading of the field kept for ``state`` if it is up to date (nothing changed since), else ``None``."""
    found: _Field | None = state.field_index
    if found is None or found.edits != EDITS.field or found.active != state.active or found.cards is not state.cards:
        return None
    return found


def field_marks(state: TtcgState) -> tuple[int, ...]:
    """For each player in turn: how many piles, how many of them tapped, how many effects switched on
    among them.

    Nothing is counted here: each side's :class:`spec.ttcg.state.Tally` follows its piles joining and
    leaving and their marks changing as they change (a side made from a copy or a snapshot counts
    once, when first asked). Asking them never makes :func:`field_of` read the field (the change key
    asks them after every event that moved the change stamp).
    """
    a, b = state.players
    sides = state.sides
    first, second = sides[a], sides[b]
    one, other = first.tally, second.tally
    if one is None or not one.ready:
        one = first.tallied()
    if other is None or not other.ready:
        other = second.tallied()
    return (len(first.creatures) + len(first.magic), one.tapped, one.switched,
            len(second.creatures) + len(second.magic), other.tapped, other.switched)


def field_marks_plain(state: TtcgState) -> tuple[int, ...]:
    """:func:`field_marks` counted pile by pile."""
    out: list[int] = []
    for player in state.players:
        side = state.sides[player]
        tapped = switched = 0
        for row in (side.creatures, side.magic):
            for pile in row:
                if pile.tapped:
                    tapped += 1
                if pile.switched_on:
                    switched += len(pile.switched_on)
        out += (len(side.creatures) + len(side.magic), tapped, switched)
    return tuple(out)


def field_of(state: TtcgState) -> _Field:
    """The make-up of the field as it stands (read again once it changed or another player became active)."""
    found: _Field | None = state.field_index
    if found is None or found.edits != EDITS.field or found.active != state.active or found.cards is not state.cards:
        if found is not None and found.edits == EDITS.field and found.cards is state.cards and found.splits is not None and state.active:
            found = state.field_index = found.turned(state)  # a new active player, the same make-up
        else:
            found = state.field_index = _Field(state)
    return found


def _pile_and_owner(state: TtcgState, pile_id: int) -> tuple[Pile, str] | None:
    """The pile on the field with this id and the player whose side it is on."""
    return field_of(state).by_id.get(pile_id)


def _pile_and_owner_plain(state: TtcgState, pile_id: int) -> tuple[Pile, str] | None:
    """:func:`_pile_and_owner` read pile by pile."""
    sides = state.sides
    for player in players_in_order(state):
        side = sides[player]
        for row in (side.creatures, side.magic):
            for pile in row:
                if pile.id == pile_id:
                    return pile, player
    return None


def pile_by_id(state: TtcgState, pile_id: int | None) -> Pile | None:
    found = _pile_and_owner(state, pile_id) if pile_id is not None else None
    return found[0] if found is not None else None


def owner_of_pile(state: TtcgState, pile_id: int) -> str | None:
    found = _pile_and_owner(state, pile_id)
    return found[1] if found is not None else None


def pile_of(state: TtcgState, uid: int) -> Pile | None:
    """The pile whose top card is the card ``uid``."""
    return field_of(state).by_top.get(uid)


def pile_of_plain(state: TtcgState, uid: int) -> Pile | None:
    """:func:`pile_of` read pile by pile."""
    sides = state.sides
    for player in players_in_order(state):
        side = sides[player]
        for row in (side.creatures, side.magic):
            for pile in row:
                if pile.card.uid == uid:
                    return pile
    return None


def on_field(state: TtcgState, uid: int) -> bool:
    """Whether the card ``uid`` is on the field, on top or under (2.2.6.d)."""
    return any(pile.card.uid == uid or any(c.uid == uid for c in pile.under) for _o, pile in piles(state))


def find_pile(state: TtcgState, owner: str | None, name: str, slot: int | None, row: str | None = None) -> Pile | None:
    """The pile of ``owner`` whose top card is ``name`` (the ``slot``-th such pile in its row)."""
    if owner is not None:
        return _pile_named(state, owner, name, slot, row)
    for player in state.players:
        if player not in state.sides:
            return None
        pile = _pile_named(state, player, name, slot, row)
        if pile is not None:
            return pile
    return None


def _pile_named(state: TtcgState, player: str, name: str, slot: int | None, row: str | None) -> Pile | None:
    """:func:`find_pile` on ``player``'s side: its creatures (unless ``row`` names magic), then its
    magic cards (unless ``row`` names creatures). Written without a tuple of players or of rows to
    walk, and each row read as a plain list (reading a :class:`~spec.ttcg.fieldlist.Row` needs none
    of its bookkeeping): compiled, that is native indexing, and a move names a pile on most events."""
    side = state.sides.get(player)
    if side is None:
        return None
    if row is None or row == "creature":
        pile = _named_in(side.creatures, name, slot)
        if pile is not None:
            return pile
    if row != "creature":
        return _named_in(side.magic, name, slot)
    return None


def _named_in(piles: list[Pile], name: str, slot: int | None) -> Pile | None:
    if slot is not None:
        if 0 <= slot < len(piles) and piles[slot].card.name == name:
            return piles[slot]
        return None
    for pile in piles:
        if pile.card.name == name:
            return pile
    return None


def slot_of(state: TtcgState, owner: str, pile: Pile) -> int | None:
    """The slot to name ``pile`` by, when its owner has another pile of the same name."""
    side = state.sides[owner]
    row = side.creatures if pile.row == "creature" else side.magic
    if sum(1 for p in row if p.card.name == pile.card.name) < 2:
        return None
    return row.index(pile)


def first_of_shared(state: TtcgState, owner: str, name: str, row: str | None) -> tuple[str, int] | None:
    """(row, slot) of the first of ``owner``'s piles named ``name`` in ``row`` (``None``: the
    creatures, then the magic cards, as :func:`find_pile` looks), when another pile there
    shares the name; ``None`` when none or one does."""
    side = state.sides[owner]
    if row is None or row == "creature":
        slot = _first_of_two(side.creatures, name)
        if slot >= 0:
            return "creature", slot
        if slot == -2 or row is not None:  # one creature of that name: the name is not shared
            return None
    slot = _first_of_two(side.magic, name)
    return ("magic", slot) if slot >= 0 else None


def _first_of_two(piles: list[Pile], name: str) -> int:
    """The index of the first pile named ``name`` when a second one follows; -2 when only
    one is, -1 when none is."""
    first = -1
    for index, pile in enumerate(piles):
        if pile.card.name == name:
            if first >= 0:
                return first
            first = index
    return -2 if first >= 0 else -1


def creatures(state: TtcgState, player: str) -> list[Pile]:
    return state.sides[player].creatures


# ---------------------------------------------------------------------- numbers on cards


_GUARD: Final[set[int]] = set()
"""Cards whose rank is being worked out (a change whose reach depends on a rank reads printed ranks meanwhile)."""


def rank(state: TtcgState, card: CardObj) -> int:
    """A card's current rank: printed, set by effects, then raised or lowered by them.

    A change whose reach itself depends on a rank is read with printed ranks (no loop).
    """
    READS.ranks += 1
    value = printed_rank(card.defn)
    if card.uid in _GUARD:
        return value
    delta = 0
    _GUARD.add(card.uid)
    try:
        changes = _changes(state, card)
    finally:
        _GUARD.discard(card.uid)
    for what, amount, kind in changes:
        if what != "rank":
            continue
        if kind == "set":
            value = amount
        else:
            delta += amount
    return max(0, value + delta)


def stat(state: TtcgState, pile: Pile, which: str) -> int:
    """A creature's attack or defense (2.1.z, 2.1.aa): printed, changed by effects in force.

    Magic cards have no attack or defense (2.1.u, 2.1.v): the numbers printed on them
    change nothing (see docs/ttcg-decisions.rst).
    """
    card = pile.card
    value = card.defn.stat(which) if card.defn is not None and is_creature(card.defn) else 0
    for what, amount, kind in _changes(state, card):
        if what == which:
            value = amount if kind == "set" else value + amount
    return value


def _changes(state: TtcgState, card: CardObj) -> list[tuple[str, int, str]]:
    """(stat, amount, ``boost``/``set``) of every change that applies to ``card``, in order (a list
    made as they are found: a generator would be resumed once per change)."""
    found: list[tuple[str, int, str]] = []
    for lasting in state.lasting:
        if lasting.kind in ("boost", "set") and lasting_covers(state, lasting, card):
            found.append((lasting.what, lasting.amount, lasting.kind))
    pile = pile_of(state, card.uid)
    if pile is None:
        return found
    for controller, source, step in statics_of(state, _STAT_STEPS):
        if step_covers(state, controller, source, step.what, card):
            amount = step.delta if isinstance(step, T.Boost) else step.value
            found.append((step.stat, amount if isinstance(amount, int) else 0, "boost" if isinstance(step, T.Boost) else "set"))
    return found


_STAT_STEPS: Final = (T.Boost, T.SetStat)
"""The static steps that change a number (attack, defense, rank)."""


def lasting_covers(state: TtcgState, lasting: Lasting, card: CardObj, on_top: bool = False) -> bool:
    """Whether a lasting change applies to ``card``; ``on_top``: the caller knows it is the top card of a pile.

    Typed as the :class:`~spec.ttcg.state.Lasting` every caller holds, so that compiled code reads its
    fields natively."""
    uids = lasting.uids
    if uids is not None:
        return card.uid in uids
    if lasting.selector is None:
        return False
    return (on_top or pile_of(state, card.uid) is not None) and cards_match(state, card, lasting.selector, lasting.controller)


def step_covers(state: TtcgState, controller: str, source: Pile, what: T.Cards, card: CardObj) -> bool:
    """Whether a static step of ``source`` speaks of ``card`` (a card on the field)."""
    if what.quantifier == "this":
        return source.card.uid == card.uid
    if what.quantifier == "equipped":
        _marks_read(source)
        target = pile_by_id(state, source.equipped_to)
        return target is not None and target.card.uid == card.uid
    if what.other and source.card.uid == card.uid:
        return False
    return pile_of(state, card.uid) is not None and cards_match(state, card, what, controller)


def covered(state: TtcgState, controller: str, source: Pile, what: T.Cards,
            field: list[tuple[str, CardObj]]) -> list[tuple[str, CardObj]]:
    """The entries ``(owner, card)`` of ``field`` (top cards of piles, in field order) that a
    static step of ``source`` speaks of: those :func:`step_covers` accepts, asked once for all."""
    if what.quantifier == "this":
        uid = source.card.uid
        return [entry for entry in field if entry[1].uid == uid]
    if what.quantifier == "equipped":
        _marks_read(source)
        target = pile_by_id(state, source.equipped_to)
        if target is None:
            return []
        uid = target.card.uid
        return [entry for entry in field if entry[1].uid == uid]
    itself = source.card.uid if what.other else None
    return [entry for entry in field if entry[1].uid != itself and cards_match(state, entry[1], what, controller)]


# ---------------------------------------------------------------------- matching cards


def whose(state: TtcgState, controller: str, relative: str | None) -> list[str]:
    """Players meant by ``you``/``opponent``/``each`` from the controller's side."""
    if relative in (None, "any", "they", "each"):
        return list(state.players)
    if relative in ("you", "controller", "owner"):
        return [controller]
    if relative == "opponent":
        return [state.other(controller)]
    if relative == "active":
        READS.active += 1
        return [state.active]
    if relative == "nonactive":
        READS.active += 1
        return [state.nonactive]
    return list(state.players)


_KIND_WORDS: Final[tuple[dict[tuple[str, ...], tuple[frozenset[str], ...]], dict[tuple[str, ...], tuple[frozenset[str], ...]]]] = ({}, {})
"""Per ``any_type`` (False, True): kinds -> the words of each kind that must apply (see :func:`kinds_match`);
one table each, so that a look-up makes no key."""


def kinds_match(defn: CardDef | None, kinds: tuple[str, ...], any_type: bool = False) -> bool:
    """Whether a card is of one of ``kinds`` (each kind's words must all apply)."""
    if not kinds:
        return True
    have = kinds_of(defn)
    table = _KIND_WORDS[1 if any_type else 0]
    wanted = table.get(kinds)
    if wanted is None:
        wanted = table[kinds] = tuple(
            frozenset(w for w in kind.split() if not (any_type and w in ELEMENTS)) for kind in kinds)
    for words in wanted:
        if words <= have:
            return True
    return False


def rank_ok(value: int, wanted: object, op: str) -> bool:
    if not isinstance(wanted, int):
        return True
    return value == wanted if op == "==" else value >= wanted if op == ">=" else value <= wanted


def cards_match(state: TtcgState, card: CardObj, sel: T.Cards, controller: str) -> bool:
    """Whether ``card`` answers to the selector, read from ``controller``'s side.

    Where the card is (field, hand...) is the caller's business; for a card on the
    field, ``controller``/``owner`` of the selector must name its owner.
    """
    defn = card.defn
    if not kinds_match(defn, sel.kinds, sel.any_type):
        return False
    if sel.rank is not None:
        current = rank(state, card) if pile_of(state, card.uid) is not None else printed_rank(defn)
        if not rank_ok(current, sel.rank, sel.rank_op):
            return False
    who = sel.controller or sel.owner
    return not (who is not None and who != "they" and card.owner not in whose(state, controller, who))


_RANKED = re.compile(r"^rank (\d+|X)(?: or (higher|lower))? (.*)$")


def selector_match(state: TtcgState, card: CardObj, sel: A.Selector | None, controller: str,
                   source: CardObj | None = None) -> bool:
    """Whether ``card`` answers to a shared :class:`~grammar.ast.Selector` (trigger subjects)."""
    if sel is None:
        return True
    if sel.quantifier == "this":
        return source is not None and source.uid == card.uid
    words = sel.type
    wanted: int | None = None
    op = "=="
    found = _RANKED.match(words)
    if found:
        wanted = int(found.group(1)) if found.group(1).isdigit() else None
        op = {"higher": ">=", "lower": "<="}.get(found.group(2) or "", "==")
        words = found.group(3)
    kinds = tuple(k for k in words.split(" or ") if k and k != "card")
    if not kinds_match(card.defn, kinds):
        return False
    if wanted is not None and not rank_ok(rank(state, card), wanted, op):
        return False
    if sel.owner is not None and card.owner not in whose(state, controller, sel.owner):
        return False
    return not (sel.zone == "field" and not on_field(state, card.uid))


# ---------------------------------------------------------------------- effects in force


def _condition_for(ability: object) -> A.Condition | None:
    return getattr(ability, "condition", None)


def speaks_of_being_under(ability: object) -> bool:
    cond = _condition_for(ability)
    return cond is not None and cond.subject == "state" and cond.value == "under another card"


def in_force(state: TtcgState, owner: str, pile: Pile, card: CardObj, index: int, label: str, ability: object) -> bool:
    """Whether a static effect (Passive or Replacement) of ``card`` applies now (2.2.5.i)."""
    if label not in DEFINED_LABELS:
        defined(label, card.name or "")  # raises: 2.2.5.i defines no such type
    under = card.uid != pile.card.uid
    if under and not speaks_of_being_under(ability):
        return False  # 2.2.6.e: cards beneath take no part, unless their text says so (2.2.5.b)
    if label in _MARKED:  # _marks_read(pile), written out: it is asked for every effect read
        READS.marks += 1
        if READS.piles is not None:
            READS.piles.append(pile)
    if label == "equip" and (under or pile.equipped_to is None or pile_by_id(state, pile.equipped_to) is None):
        return False
    if label == "continuous" and (under or index not in pile.switched_on):
        return False
    if label == "latent" and not under and pile.tapped:
        return False  # 2.2.5.i.5; cards under are untapped (2.2.5.h.2)
    if label in ("counter", "dormant"):
        return False
    cond = _condition_for(ability)
    if cond is None:
        return True
    READS.conditions += 1
    return condition_holds(state, owner, cond, card, pile)


_MARKED: Final = ("equip", "continuous", "latent")
"""The effect types whose being in force depends on their pile's marks (2.2.5.i)."""


def statics(state: TtcgState) -> list[tuple[str, Pile, A.Step]]:
    """(controller, source pile, step) of every static step in force on the field."""
    found: list[tuple[str, Pile, A.Step]] = []
    for owner, pile in piles(state):
        for card in [pile.card, *pile.under]:
            if card.name is None:
                continue
            for index, label, ability in passives_of(state, card.name):
                if in_force(state, owner, pile, card, index, label, ability):
                    found.extend((owner, pile, step) for step in ability.effect)
    return found


def statics_of(state: TtcgState, kinds: type | tuple[type, ...]) -> list[tuple[str, Pile, Any]]:
    """The steps of :func:`statics` that are of ``kinds``, in its order, read only where they can be.

    A Passive effect without such a step whose reading cannot fail (a defined effect
    type, a condition :func:`condition_holds` reads) adds nothing and raises nothing, so
    it is left unread; every other one is read as :func:`statics` reads it. Which cards
    of the field have such effects is kept with the field's make-up (:func:`_statics_entries`).

    What it finds is kept with the field's make-up too, unless a condition it read looked
    beyond the field's make-up and marks (points, a hand or discard pile, the active player,
    or a rank: :data:`READS`); if it read some piles' marks, only until one of theirs changes
    (:func:`marks_unchanged`). A condition on the card's own place (on the field, under another
    card, tapped or not) reads only those. A reading that counted cards of the field (without
    their ranks) is kept until the make-up changes at all (``_Field.counted``: following a pile
    joining, leaving or levelled up drops it), and tells a reading under way that it counted.
    The list given is shared: callers only read it.
    """
    index = field_of(state)
    kept = index.statics.get(kinds)
    if kept is None and index.pending is not None:
        carried = index.carried("statics", kinds)  # (its own name: under mypyc ``kept`` holds no _MISSING)
        kept = None if carried is _MISSING else carried
    if kept is not None and (kept[0] is None or marks_unchanged(kept[0])):
        if index.counted and kinds in index.counted:
            READS.counts += 1  # (as reading it again would have)
        return kept[1]  # (marks_unchanged tells a reading under way what this one depends on)
    entries = _statics_entries(state, kinds)
    if entries is None:
        return statics_of_plain(state, kinds)
    beyond, counts, active, ranks = READS.beyond, READS.counts, READS.active, READS.ranks
    found: list[tuple[str, Pile, Any]] = []
    outer = READS.piles
    seen: list[Pile] = []  # the piles whose marks this reading looks at (see marks_recorded)
    READS.piles = seen
    try:
        for owner, pile, card, passives in entries:
            for number, label, ability, steps in passives:
                if in_force(state, owner, pile, card, number, label, ability):
                    for step in steps:
                        found.append((owner, pile, step))
    finally:
        READS.piles = outer
    if outer is not None:
        outer.extend(seen)
    if READS.beyond == beyond and READS.ranks == ranks and READS.active == active and index is state.field_index:
        index.statics[kinds] = (tuple((pile, pile.mark_count) for pile in seen) if seen else None, found)
        if READS.counts != counts:
            index.counted = index.counted | {kinds}
        elif index.counted and kinds in index.counted:
            index.counted = index.counted - {kinds}
    return found


def _statics_entries(state: TtcgState, kinds: Any) -> tuple[tuple[str, Pile, CardObj, Any], ...] | None:
    """``(owner, pile, card, passives)`` for each card of the field (top or under, in field order)
    with Passive effects :func:`statics_of` reads for ``kinds`` (see :func:`_passives_of_kind`);
    ``None`` when a card's text cannot be read."""
    index = field_of(state)
    kept = index.kinds
    if kinds in kept:
        return kept[kinds]
    if index.pending is not None:
        found = index.carried("kinds", kinds)
        if found is not _MISSING:
            return found  # type: ignore[no-any-return]
    found = kept[kinds] = _holders_reading(state, index, False, kinds, _reading(state.cards).of_kind, _passives_of_kind)
    return found


def _holders_reading(state: TtcgState, index: Any, triggered: bool, key: Any, known: dict[Any, Any],
                     read: Callable[[TtcgState, str, Any], Any]) -> tuple[tuple[str, Pile, CardObj, Any], ...] | None:
    """``(owner, pile, card, reading)`` for each holder of the field ``index`` picks out (with
    passive effects, or, ``triggered``, with triggered ones) whose reading for ``key`` is not
    empty: from ``known`` by ``(name, key)``, else ``read(state, name, key)``; ``None`` when a
    card's text cannot be read (the callers then read card by card, failing where that fails)."""
    out = []
    try:
        for owner, pile, card, name in index.holders(state, triggered=triggered):
            found = known.get((name, key))
            if found is None:
                found = read(state, name, key)
            if found:
                out.append((owner, pile, card, found))
    except Exception:  # noqa: BLE001 - see above
        return None
    return tuple(out)


def nothing_loud(state: TtcgState) -> bool:
    """Whether every card of the field (top or under) is quiet (see :func:`quiet`)."""
    return _statics_entries(state, _CLASHING) == ()


def watching(state: TtcgState, event: str) -> tuple[tuple[str, Pile, CardObj, Numbered], ...] | None:
    """``(owner, pile, top card, triggers)`` for each pile of the field (in field order) whose top
    card has effects the trigger ``event`` sets off (see :func:`triggers`); ``None`` when a
    card's text cannot be read."""
    index = field_of(state)
    kept = index.watchers
    if event in kept:
        return kept[event]
    if index.pending is not None:
        found = index.carried("watchers", event)
        if found is not _MISSING:
            return found  # type: ignore[no-any-return]
    found = kept[event] = _holders_reading(state, index, True, event, trigger_table(state), triggers)
    return found


def watching_plain(state: TtcgState, event: str) -> tuple[tuple[str, Pile, CardObj, Numbered], ...]:
    """:func:`watching` read pile by pile."""
    out = []
    for owner, pile in piles(state):
        if pile.card.name is not None:
            found = triggers(state, pile.card.name, event)
            if found:
                out.append((owner, pile, pile.card, found))
    return tuple(out)


def statics_of_plain(state: TtcgState, kinds: type | tuple[type, ...]) -> list[tuple[str, Pile, Any]]:
    """:func:`statics_of` read card by card."""
    found: list[tuple[str, Pile, Any]] = []
    known = _reading(state.cards).of_kind
    for owner in players_in_order(state):
        side = state.sides[owner]
        for pile in side.creatures + side.magic:
            for card in (pile.card, *pile.under) if pile.under else (pile.card,):
                name = card.name
                if name is None:
                    continue
                passives = known.get((name, kinds))
                if passives is None:
                    passives = _passives_of_kind(state, name, kinds)
                for index, label, ability, steps in passives:
                    if in_force(state, owner, pile, card, index, label, ability):
                        found.extend((owner, pile, step) for step in steps)
    return found


def _passives_of_kind(state: TtcgState, name: str, kinds: type | tuple[type, ...]) -> tuple[tuple[int, str, Any, tuple[Any, ...]], ...]:
    """``(index, label, ability, steps of kinds)`` of the Passive effects :func:`statics_of` reads on a card."""
    out = []
    for index, label, ability in passives_of(state, name):
        steps = tuple(step for step in ability.effect if isinstance(step, kinds))
        if steps or label not in DEFINED_LABELS or not _read_without_fail(ability.condition):
            out.append((index, label, ability, steps))
    found = _reading(state.cards).of_kind[(name, kinds)] = tuple(out)
    return found


def restricted(state: TtcgState, card: CardObj, action: str) -> bool:
    """Whether an effect in force says ``card`` cannot ``action`` (be destroyed, attack...)."""
    for lasting in state.lasting:
        if lasting.kind == "restrict" and lasting.what == action and lasting_covers(state, lasting, card):
            return True
    if pile_of(state, card.uid) is None:
        return False
    for controller, source, step in statics_of(state, T.Restrict):
        if step.action == action and step_covers(state, controller, source, step.what, card):
            return True
    return False


def indestructible(state: TtcgState, card: CardObj, by: str) -> bool:
    """Whether ``card`` cannot be destroyed now (2.1.aj, 2.1.ak); ``by`` is ``battle`` or ``effect``."""
    if restricted(state, card, "be destroyed"):
        return True
    return restricted(state, card, "be destroyed in battle" if by == "battle" else "be destroyed by effects")


def prohibited(state: TtcgState, player: str, action: str) -> bool:
    """Whether a lasting prohibition stops ``player`` from ``action`` (``attack``, ``activate effects``)."""
    if not state.lasting:
        return False
    key = player_key(state, player)
    return any(x.kind == "prohibit" and x.what == action and x.uids == (key,) for x in state.lasting)


def play_prohibited(state: TtcgState, player: str, name: str) -> str | None:
    """The prohibition (``play fire cards``) that stops ``player`` from playing the card
    ``name`` now, or ``None``. Its ``selector`` is the kind of card it names
    (:func:`prohibited_kind`)."""
    if not state.lasting:
        return None
    key = player_key(state, player)
    for x in state.lasting:
        if x.kind == "prohibit" and x.uids == (key,) and x.selector is not None \
                and cards_match(state, CardObj(-1, name, player, state.cards.get(name)), x.selector, player):
            return str(x.what)
    return None


def prohibited_kind(action: str) -> T.Cards | None:
    """The cards a prohibition to play names (``play rank 2 or higher fire cards``: rank 2 or
    higher, fire) as a selector, or ``None`` when ``action`` is not a play. The grammar gives
    the action as words (:class:`grammar.ast.Prohibit`); this reads them back."""
    words = action.split()
    if not words or words[0] != "play" or words[-1] not in ("card", "cards"):
        return None
    words = words[1:-1]
    rank: int | None = None
    op: Literal["==", ">=", "<="] = "=="
    if words[:1] == ["rank"] and len(words) > 1:
        if not words[1].isdigit():
            raise Unmodelled(f"a prohibition to {action} is not modelled")
        rank, words = int(words[1]), words[2:]
        if words[:2] in (["or", "higher"], ["or", "lower"]):
            op, words = (">=" if words[1] == "higher" else "<="), words[2:]
    kinds = tuple(" ".join(words).split(" or ")) if words else ()
    return T.Cards("any", 1, kinds, rank, op)


def player_key(state: TtcgState, player: str) -> int:
    return -1 - state.players.index(player)


def extra_play_kinds(state: TtcgState) -> list[tuple[str, ...]]:
    """Kinds of cards that effects in force let the active player play beyond two (2.2.5.b)."""
    return [kinds for count, kinds in state.flags.extra for _ in range(count)]


def rank_up_allowed(state: TtcgState, target: CardObj, using: CardDef, target_owner: str) -> str | None:
    """The card whose effect in force lets ``using`` level up ``target`` despite another type (2.2.5.b), or ``None``."""
    probe = CardObj(-1, using.name, target_owner, using)
    for controller, source, step in statics_of(state, T.RankUp):
        if not step.permission:
            continue
        if not step_covers(state, controller, source, step.target, target):
            continue
        if kinds_match(using, step.using.kinds, step.using.any_type) and cards_match(
                state, probe, T.Cards("any", kinds=step.using.kinds, rank=step.using.rank, rank_op=step.using.rank_op,
                                      any_type=step.using.any_type), controller):
            return source.card.name or "an effect"
    for lasting in state.lasting:
        if (lasting.kind == "rank_up" and lasting_covers(state, lasting, target) and lasting.using is not None
                and kinds_match(using, lasting.using.kinds, lasting.using.any_type)):
            return "an effect"
    return None


# ---------------------------------------------------------------------- conditions


def condition_holds(state: TtcgState, controller: str, cond: A.Condition, card: CardObj | None,
                    pile: Pile | None = None) -> bool:
    """Whether a condition of an effect holds, read from ``controller``'s side."""
    if cond.subject == "state" and card is not None:
        place = pile if pile is not None else _pile_holding(state, card.uid)
        value = cond.value
        if value == "on the field":
            return place is not None
        if value == "under another card":
            return place is not None and place.card.uid != card.uid
        if value in ("tapped", "dormant"):
            if place is not None:
                _marks_read(place)
            return place is not None and place.card.uid == card.uid and place.tapped
        if value == "untapped":
            if place is not None:
                _marks_read(place)
            return place is None or place.card.uid != card.uid or not place.tapped
        if value == "in hand":
            READS.beyond += 1
            return any(c.uid == card.uid for c in state.sides[card.owner].hand)
        if value == "in discard pile":
            READS.beyond += 1
            return any(c.uid == card.uid for c in state.sides[card.owner].discard)
        raise Unmodelled(f"the condition 'this card is {value}' is not modelled")
    if cond.subject == "points":
        READS.beyond += 1
        player = whose(state, controller, cond.of.owner if cond.of is not None else "you")[0]
        return _compare(state.sides[player].points, cond.op, cond.value)
    if cond.subject == "cards" and cond.of is not None:
        READS.counts += 1
        count = 0
        for owner, other in piles(state):
            if cond.of.owner is not None and owner not in whose(state, controller, cond.of.owner):
                continue
            if selector_match(state, other.card, A.Selector("all", cond.of.type), controller):
                count += 1
        return _compare(count, cond.op, cond.value)
    raise Unmodelled(f"the condition on {cond.subject!r} is not modelled")


def _pile_holding(state: TtcgState, uid: int) -> Pile | None:
    for _owner, pile in piles(state):
        if pile.card.uid == uid or any(c.uid == uid for c in pile.under):
            return pile
    return None


def _compare(value: int, op: str, wanted: object) -> bool:
    if not isinstance(wanted, int):
        raise Unmodelled(f"a comparison with {wanted!r} is not modelled")
    if op == ">=":
        return value >= wanted
    if op == "<=":
        return value <= wanted
    if op == "==":
        return value == wanted
    raise Unmodelled(f"the comparison {op!r} is not modelled")
