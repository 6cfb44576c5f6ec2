"""The Battle Monsters game state: one mutable object while a replay is verified.

Each player has a supply deck (private; only its size and what the log has shown of it
are known), a hand (private), a graveyard (public), a field of cards in their stances,
and a life total. Effects being carried out wait in ``pending`` (first in, first out)
while they need events from the log (a draw, a choice, a discard).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import count
from typing import Any

from spec.battle_monsters import fieldlist as FL
from spec.battle_monsters.fieldlist import FieldList
from spec.core.cards import CardDatabase, CardDef
from spec.core.hidden import DeckKnowledge
from spec.core.interpreter import Resolution
from spec.core.state import CardObj, MoveContext, Zone

START_LIVES = 5
"""BM.start.lives_hand, BM.gloss.life.start."""
OPENING_HAND = 5
"""BM.start.lives_hand."""
BURIED = 2
"""BM.start.graveyard."""
DECK_MIN = 30
"""BM.start.deck_min."""

_CLOCK = count(1)
"""Readings of :attr:`BattleMonstersState.conflicts_clock`: no two states or moments share one."""

CHANGES = ("stage", "field", "face", "nullified", "fused", "lasting", "turn", "reading")
"""What moves :attr:`BattleMonstersState.conflicts_clock` (:meth:`BattleMonstersState.changed`): the
first turn beginning; a card that may hold a "can" of its own (``board.may_bring_can``) coming
onto the field or turning face up; cards being fused; a lasting effect beginning; a reading of
the effects in force that went past ``board.may_allow`` and read more than the board and the
turn; and, while the last reading read only those (:attr:`BattleMonstersState.watching`), every
card coming or going, turning face up or down or nullified, and every turn beginning."""


@dataclass(init=False)
class Bonus:
    """Points an effect gave one card: ``delta`` to ``stat`` until the end of turn ``until`` (``None``: for good)."""

    stat: str
    delta: int
    until: int | None = None
    source: str = ""

    def __init__(self, stat: str, delta: int, until: int | None = None, source: str = "") -> None:
        # written out (init=False): the __init__ dataclasses would generate stays interpreted
        # even in the compiled build, and the classes of this module are made on every event
        self.stat = stat
        self.delta = delta
        self.until = until
        self.source = source


@dataclass(eq=False, init=False)
class OnField:
    """One card on a player's side of the field, with its stance and its history.

    Two cards on the field are told apart by identity (each holds its own card object), so
    looking one up in a side's list compares no fields.
    """

    card: CardObj
    kind: str
    """``monster``, ``spell`` or ``trap``."""
    parts: tuple[CardDef, ...]
    """The printed parts: for a monster its element prefix, root and title suffix; else the card."""
    mode: str
    """``attack`` or ``defense``."""
    visible: bool
    arrived: int
    """When it came onto the field (a stamp: later cards have larger stamps, BM.rules.conflict)."""
    summoned_turn: int
    was_visible: bool = False
    revealed_turn: int = -1
    acted_turn: int = -1
    """The turn of its last counted sub-action (BM.subactions.per_card)."""
    acted: str = ""
    """Which sub-action that was (``summon``, ``reveal``, ``attack``, ``switch``)."""
    attacked_turns: list[int] = field(default_factory=list)
    bonus: list[Bonus] = field(default_factory=list)
    fused: list[int] = field(default_factory=list)
    """uids of the monsters it was fused with (each has the special effects of the others)."""
    nullified: bool = False
    used_turn: int = -1
    """The last turn its special effect worked (spells and traps: once per turn)."""
    expires: int | None = None
    """For a spell or trap that lasts some turns: the last turn it stays."""
    own: tuple[Any, ...] | None = field(default=None, init=False, repr=False, compare=False)
    """The abilities of its printed parts, once read (``board.abilities``; the parts never change)."""
    passives: Any = field(default=None, init=False, repr=False, compare=False)
    """Its always-on abilities, once read (``board.passives_of``), with the partners on the field they were read with."""
    by_event: Any = field(default=None, init=False, repr=False, compare=False)
    """Its own abilities that go off on an event, by the event's kind, once read (``board.triggers_on``,
    ``board.reactions_to``; only meaningful while it is fused with nothing)."""
    silent: bool = field(default=False, init=False, repr=False, compare=False)
    """Known to hold no always-on ability of its own (read off its printed parts by ``board.passives_of``);
    ``False`` also while that is not known. Only meaningful while it is fused with nothing."""
    quiet: bool = field(default=False, init=False, repr=False, compare=False)
    """Known to hold no always-on "can" of its own (``board.Passives.may_allow``), even under a condition (likewise)."""
    fused_silent: bool = field(default=False, init=False, repr=False, compare=False)
    """Known, since it was last fused, that no card of its fusion group holds an always-on ability in
    its printed parts (``board.fused_hush``): whichever of them stay on the field, it holds none.
    ``False`` also while that is not known (a copy of the card forgets it)."""
    fused_quiet: bool = field(default=False, init=False, repr=False, compare=False)
    """Likewise for an always-on "can" of its own (``board.Passives.may_allow``)."""
    printed: dict[str, int] | None = field(default=None, init=False, repr=False, compare=False)
    """Its printed points per stat, once added up (``board.printed_points``; the parts never change)."""
    name: str = field(default="", init=False, repr=False, compare=False)
    """The card's name, id and owner, read off ``card`` once: a card on the field keeps them."""
    uid: int = field(default=0, init=False, repr=False, compare=False)
    owner: str = field(default="", init=False, repr=False, compare=False)

    def __init__(self, card: CardObj, kind: str, parts: tuple[CardDef, ...], mode: str, visible: bool, arrived: int,
                 summoned_turn: int, was_visible: bool = False, revealed_turn: int = -1, acted_turn: int = -1, acted: str = "",
                 attacked_turns: list[int] | None = None, bonus: list[Bonus] | None = None, fused: list[int] | None = None,
                 nullified: bool = False, used_turn: int = -1, expires: int | None = None) -> None:
        # Written out (init=False), with the dataclass's fields and defaults: the __init__ that
        # dataclasses generates stays interpreted in the compiled build, and a card is made on
        # every summon and copied for every effect set off (game._enqueue). Every field is set
        # here, those left out of the signature too: compiled by mypyc, a dataclass has no
        # class attribute to fall back on.
        self.card = card
        self.kind = kind
        self.parts = parts
        self.mode = mode
        self.visible = visible
        self.arrived = arrived
        self.summoned_turn = summoned_turn
        self.was_visible = was_visible
        self.revealed_turn = revealed_turn
        self.acted_turn = acted_turn
        self.acted = acted
        self.attacked_turns = [] if attacked_turns is None else attacked_turns
        self.bonus = [] if bonus is None else bonus
        self.fused = [] if fused is None else fused
        self.nullified = nullified
        self.used_turn = used_turn
        self.expires = expires
        self.own = self.passives = self.by_event = self.printed = None
        self.silent = self.quiet = self.fused_silent = self.fused_quiet = False
        self.name = self.card.name or ""
        self.uid = self.card.uid
        self.owner = self.card.owner

    def copy(self) -> OnField:
        return OnField(self.card.copy(), self.kind, self.parts, self.mode, self.visible, self.arrived, self.summoned_turn,
                       self.was_visible, self.revealed_turn, self.acted_turn, self.acted, list(self.attacked_turns),
                       [Bonus(b.stat, b.delta, b.until, b.source) for b in self.bonus], list(self.fused), self.nullified,
                       self.used_turn, self.expires)


class FieldReading:
    """The cards on the field in one order (the active player's side first), read while no card
    comes or goes (:meth:`BattleMonstersState.field_reading`). Its lists are made afresh, never
    changed in place: a caller may hold one while cards come and go."""

    __slots__ = ("cards", "helds", "magic", "watchers")

    def __init__(self, cards: list[OnField]) -> None:
        self.cards = cards
        """Every card on the field, in this order."""
        self.magic = [fc for fc in cards if fc.kind in ("spell", "trap")]
        """The spells and traps among them, in this order: only they go off on a condition (``game.BattleMonsters._fire``)."""
        self.watchers: dict[str, tuple[int, list[OnField]]] = {}
        """Per kind of event, those of :attr:`magic` with an ability naming it (``board.may_trigger_on``),
        with the ``field_clock`` they were picked out at (a card fused since may have more): ``_fire``'s to fill."""
        self.helds: tuple[int, Any] | None = None
        """``board._helds`` of these cards as last read, with the ``field_clock`` then (``board._helds``'s to fill)."""


@dataclass(init=False)
class Side:
    """Everything one player has."""

    name: str
    hand: Zone
    graveyard: Zone
    knowledge: DeckKnowledge
    supply: int | None
    """Cards left in the supply deck; ``None`` when no decklist was registered (size unknown)."""
    field: FieldList = field(default_factory=FieldList)
    """Its cards on the field (a :class:`FieldList`: a plain list given is taken into one)."""
    lives: int = START_LIVES
    buried: int = 0
    opening: int = 0
    skips: int = 0
    """Turns of this player an effect has skipped and that are still to come."""

    def __init__(self, name: str, hand: Zone, graveyard: Zone, knowledge: DeckKnowledge, supply: int | None,
                 field: FieldList | list[OnField] | None = None, lives: int = START_LIVES, buried: int = 0, opening: int = 0,
                 skips: int = 0) -> None:
        # written out (init=False, as OnField's): the generated one stays interpreted when compiled
        self.name = name
        self.hand = hand
        self.graveyard = graveyard
        self.knowledge = knowledge
        self.supply = supply
        self.field = FieldList() if field is None else field if type(field) is FieldList else FieldList(field)
        self.lives = lives
        self.buried = buried
        self.opening = opening
        self.skips = skips

    def __del__(self) -> None:
        """As the side is dropped (its game done, or replaced by a snapshot of itself), the
        cards of its field drop the always-on abilities read for them (``OnField.passives``,
        which name the card as their holder): the cards are then freed at once, by reference
        counting, not left as cycles for the collector to find. A card leaving the field
        drops them as it goes (``Game._leave``)."""
        for fc in getattr(self, "field", ()):
            fc.passives = None

    def copy(self) -> Side:
        return Side(self.name, self.hand.copy(), self.graveyard.copy(), self.knowledge.copy(), self.supply,
                    FieldList([f.copy() for f in self.field]), self.lives, self.buried, self.opening, self.skips)


@dataclass(init=False)
class Lasting:
    """A rule an effect that has resolved keeps in force for a while (a "cannot ... this turn")."""

    step: Any
    """The effect step (a Cannot) kept in force."""
    controller: str
    source: str
    source_uid: int
    stamp: int
    until: int | None = None

    def __init__(self, step: Any, controller: str, source: str, source_uid: int, stamp: int, until: int | None = None) -> None:
        # written out (init=False, as OnField's): the generated one stays interpreted when compiled
        self.step = step
        self.controller = controller
        self.source = source
        self.source_uid = source_uid
        self.stamp = stamp
        self.until = until


@dataclass(init=False)
class Battle:
    """The battle being fought: who attacks whom (for "when defending", "the attacking monster")."""

    attacker: OnField
    defender: OnField | None
    used: str | None = None
    """The attacker's named special effect that let it attack now, if one did ("When X is used")."""

    def __init__(self, attacker: OnField, defender: OnField | None, used: str | None = None) -> None:
        # written out (init=False, as OnField's): the generated one stays interpreted when compiled
        self.attacker = attacker
        self.defender = defender
        self.used = used


class Move(MoveContext):
    """What one move names on the field, found once before its checks (core
    :class:`~spec.core.state.MoveContext`).

    The checks of a reveal, a switch, an attack or a conceal all speak of the card the move
    names, and those of an attack of its target too: ``actions.move_context`` looks them up
    once, the checks read them here (``actions._field_card``, ``actions._target``), and so
    does the step that carries the move out. It holds only while the state is as it was
    when it was made: ``BattleMonsters._apply`` makes it before the checks and drops it once
    the move is carried out; a stretch of reading (``board.Reading``) drops it on leaving.
    """

    __slots__ = ("card", "target")

    def __init__(self, event: Any, card: OnField | None, target: OnField | None) -> None:
        super().__init__(event)
        self.card = card
        """The card of the mover's side the event names (``card``, ``copy``), ``None`` if none is there."""
        self.target = target
        """The card of the other side an attack names (``target``, ``target_copy``), ``None`` if none."""


@dataclass(init=False)
class BattleMonstersState:
    """The whole game at one moment."""

    players: tuple[str, str]
    sides: dict[str, Side]
    cards: CardDatabase
    stage: str = "setup"
    """``setup`` (coin, graveyards, opening hands), ``turn`` or ``over``."""
    first: str | None = None
    active: str = ""
    turn: int = 0
    turn_owner: list[str] = field(default_factory=list)
    """Who played each turn so far (index = turn number - 1)."""
    pending: list[Resolution] = field(default_factory=list)
    lasting: list[Lasting] = field(default_factory=list)
    battle: Battle | None = None
    facts: list[tuple[str, str, str]] = field(default_factory=list)
    """Derived events in order: ``("sent", card, owner)``, ``("triggered", card, owner)``."""
    mark: int = 0
    """Facts before this index came before the last move or chance event (claims look after it)."""
    winner: str | None = None
    result: str | None = None
    """``win``, ``draw`` or ``None`` while the game goes on."""
    ended_by: str = ""
    """Why the game ended: ``lives``, ``supply``, ``surrender``, ``draw``, ``effect``."""
    offer: str | None = None
    """A player who offered a draw with the previous event."""
    next_uid: int = 1
    next_stamp: int = 1
    depth: int = 0
    ending: bool = False
    """The active player took their action: the turn passes once pending effects are done."""
    """How deeply triggers are nested now (a guard against effects that set each other off forever)."""
    profile: Any = field(default=None, init=False, repr=False, compare=False)
    """What the always-on abilities of its card database can do (``board.tame``), once asked."""
    seq: int | None = field(default=None, init=False, repr=False, compare=False)
    """The seq of the event being applied: the date of what the decks' journals note (``DeckKnowledge.dated``)."""
    statics_memo: dict[Any, Any] | None = field(default=None, init=False, repr=False, compare=False)
    """While the state is only being read (``board.Reading``): the always-on effects once worked out, per sort
    (``None``: all of them), the cards whose effects work (``"cards"``), and the effects that allow and forbid an action (``board.applicable``, by its question: a tuple)."""
    move: Move | None = field(default=None, init=False, repr=False, compare=False)
    """The cards the move being judged names, found once (:class:`Move`); ``None`` between moves."""
    conflicts_clock: int = field(default_factory=lambda: next(_CLOCK), init=False, repr=False, compare=False)
    """The game's ``conflicts_stamp``: a reading no other state or moment had, taken afresh by
    :meth:`changed` whenever ``conflicts.conflicts_met`` could find something new.

    That function stops, finding nothing and keeping nothing, outside turns and when
    ``board.may_allow`` says no card's "can" can be in force; past that it reads conditions
    (lives, hands, graveyards, modes, the battle...) that nearly any event changes, so such a
    reading moves the clock itself: the verifier asks again after the next event. The clock
    therefore needs to move only where ``may_allow`` may turn from no to yes: as the first turn
    begins, as a card that may hold a "can" (``board.may_bring_can``) comes onto the field or
    turns face up, as cards are fused (each gains the others' abilities) and as a lasting effect
    begins. Everything else only takes "can"s away (a card leaving the field, turning face down
    or nullified, a turn passing beyond the turn a "can" was bound to, a lasting effect ending)
    and leaves a no a no. A reading past ``may_allow`` that is steady (``conflicts.steady``:
    no condition but whose turn it is or a card's own face, no selector by mode, points or
    battle) hangs only on the board and the turn: it does not move the clock but sets
    :attr:`watching`, and until an answer of ``may_allow`` or an unsteady reading clears it,
    every change of the board and every turn beginning moves the clock. While the clock
    stays, ``conflicts_met`` would find nothing new: the verifier does not ask. A copy takes
    a reading of its own."""
    watching: bool = field(default=False, init=False, repr=False, compare=False)
    """The last reading of the effects in force went past ``board.may_allow`` and hung only on the
    board and the turn (:attr:`conflicts_clock`): each change of them moves the clock."""

    field_clock: int = field(default=0, init=False, repr=False, compare=False)
    """Moved by :meth:`field_moved` whenever what the cards on the field hold in force may change
    while they stay: a card turns face up or face down, is fused or nullified (and, by the
    game's own steps, as a card comes onto the field or leaves it). The always-on abilities of
    the cards whose effects work (``board._helds``) are kept against it and the cards on the
    field (:attr:`FieldReading.helds`)."""
    sorts_kept: tuple[Any, frozenset[str]] | None = field(default=None, init=False, repr=False, compare=False)
    """``board.field_sorts`` of several cards, with the list of ``board._helds`` it was gathered
    from: while ``_helds`` answers with that very list, the sorts are the same."""

    field_at: int = field(default=-1, init=False, repr=False, compare=False)
    """The value of :data:`fieldlist.MOVES <spec.battle_monsters.fieldlist.MOVES>` when :attr:`field_by` and :attr:`field_uids` were begun:
    they hold while it stands there (no side's field changed since, in this state or any other)."""
    field_by: dict[str, FieldReading] = field(default_factory=dict, init=False, repr=False, compare=False)
    """The cards on the field as :meth:`field_reading` last read them, per :attr:`active` then
    (whose side comes first; ``""`` before the first turn: the first player's side)."""
    field_uids: dict[int, OnField] | None = field(default=None, init=False, repr=False, compare=False)
    """The cards on the field by their id (:meth:`by_uid`), ``None`` while not read since :attr:`field_at`."""

    def __init__(self, players: tuple[str, str], sides: dict[str, Side], cards: CardDatabase, stage: str = "setup",
                 first: str | None = None, active: str = "", turn: int = 0, turn_owner: list[str] | None = None,
                 pending: list[Resolution] | None = None, lasting: list[Lasting] | None = None, battle: Battle | None = None,
                 facts: list[tuple[str, str, str]] | None = None, mark: int = 0, winner: str | None = None,
                 result: str | None = None, ended_by: str = "", offer: str | None = None, next_uid: int = 1,
                 next_stamp: int = 1, depth: int = 0, ending: bool = False) -> None:
        # Written out (init=False, as OnField's: the generated one stays interpreted when
        # compiled), with the dataclass's fields and defaults. The fields left out of the
        # signature are set here too: compiled by mypyc, a dataclass has no class attribute to
        # fall back on, and such a field would be undefined.
        self.players = players
        self.sides = sides
        self.cards = cards
        self.stage = stage
        self.first = first
        self.active = active
        self.turn = turn
        self.turn_owner = [] if turn_owner is None else turn_owner
        self.pending = [] if pending is None else pending
        self.lasting = [] if lasting is None else lasting
        self.battle = battle
        self.facts = [] if facts is None else facts
        self.mark = mark
        self.winner = winner
        self.result = result
        self.ended_by = ended_by
        self.offer = offer
        self.next_uid = next_uid
        self.next_stamp = next_stamp
        self.depth = depth
        self.ending = ending
        self.profile = self.seq = self.statics_memo = self.move = self.sorts_kept = self.field_uids = None
        self.conflicts_clock = next(_CLOCK)
        self.watching = False
        self.field_clock = 0
        self.field_at = -1
        self.field_by = {}

    def field_moved(self) -> None:
        """Move :attr:`field_clock`: a card entered or left the field, turned, fused or was nullified."""
        self.field_clock += 1

    def changed(self, what: str) -> None:
        """Move :attr:`conflicts_clock`: ``what`` (one of :data:`CHANGES`) has just changed."""
        self.conflicts_clock = next(_CLOCK)

    def other(self, player: str) -> str:
        a, b = self.players
        return b if player == a else a

    def new_card(self, name: str | None, owner: str, defn: CardDef | None = None) -> CardObj:
        card = CardObj(self.next_uid, name, owner, defn)
        self.next_uid += 1
        return card

    def stamp(self) -> int:
        self.next_stamp += 1
        return self.next_stamp

    def on_field(self) -> list[OnField]:
        """Every card on the field, the active player's side first (kept: :attr:`field_by`; the
        caller only reads the list)."""
        return self.field_reading().cards

    def field_reading(self) -> FieldReading:
        """The :class:`FieldReading` of the field as it is, in the order of :meth:`on_field`
        (kept per :attr:`active` while :data:`fieldlist.MOVES <spec.battle_monsters.fieldlist.MOVES>` stands at :attr:`field_at`)."""
        if self.field_at == FL.MOVES:
            found = self.field_by.get(self.active)
            if found is not None:
                return found
        return self._read_field()

    def _read_field(self) -> FieldReading:
        """:meth:`field_reading` made afresh from the two sides' fields (:attr:`field_by`)."""
        self._field_now()
        a, b = self.players
        fa, fb = self.sides[a].field, self.sides[b].field
        found = self.field_by[self.active] = FieldReading(fa + fb if (self.active or a) == a else fb + fa)
        return found

    def by_uid(self) -> dict[int, OnField]:
        """The cards on the field by their id (ids are never reused; kept while :data:`fieldlist.MOVES <spec.battle_monsters.fieldlist.MOVES>`
        stands at :attr:`field_at`). The caller only reads it."""
        uids = self.field_uids
        if uids is not None and self.field_at == FL.MOVES:
            return uids
        self._field_now()
        # the first card with an id wins, as a search side by side, card by card would find it
        uids = self.field_uids = {fc.uid: fc for side in reversed(self.sides.values()) for fc in reversed(side.field)}
        return uids

    def _field_now(self) -> None:
        """Drop the readings kept if a field has changed since they were begun (:attr:`field_at`)."""
        if self.field_at != FL.MOVES:
            self.field_at = FL.MOVES
            self.field_by = {}
            self.field_uids = None

    def copy(self) -> BattleMonstersState:
        """A cheap independent copy (mutable parts copied, card definitions shared)."""
        sides = {k: v.copy() for k, v in self.sides.items()}
        by_uid = {f.uid: f for s in sides.values() for f in s.field}
        battle = None
        if self.battle is not None:
            battle = Battle(by_uid.get(self.battle.attacker.uid, self.battle.attacker),
                            None if self.battle.defender is None else by_uid.get(self.battle.defender.uid, self.battle.defender),
                            self.battle.used)
        other = BattleMonstersState(
            self.players, sides, self.cards, self.stage, self.first, self.active, self.turn, list(self.turn_owner),
            [r.copy() for r in self.pending], list(self.lasting), battle, list(self.facts), self.mark, self.winner,
            self.result, self.ended_by, self.offer, self.next_uid, self.next_stamp, self.depth, self.ending,
        )
        other.seq = self.seq
        return other
