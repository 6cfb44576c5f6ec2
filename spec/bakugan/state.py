"""The Bakugan game state: one mutable object while a replay is verified.

Zones follow rule 4.1.1: each player's deck (hidden: only a count and what the log has
revealed, :class:`~spec.core.hidden.DeckKnowledge`), hand (private, its size public),
discard pile, play area (their three Bakugan with the Evo cards on them, Heroes, Energy
cards) and the shared BakuCore Field; the batch holds what waits to complete (4.4).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Final

from spec.core.cards import CardDatabase, CardDef
from spec.core.hidden import DeckKnowledge
from spec.core.interpreter import Resolution
from spec.core.queue import PendingQueue, Priority, QueueItem
from spec.core.state import CardObj, Zone

TEAM_SIZE: Final = 3
"""Bakugan per team (1.1/2.1.p1)."""
CORES_PER_PLAYER: Final = 6
"""BakuCores per player (1.1/2.1.p2)."""
DECK_SIZE: Final = 40
"""Cards in a deck (1.1/2.1.p3)."""
HAND_LIMIT: Final = 7
"""Cards a hand may hold as a turn ends (4.3.2.p1)."""

_STAMPS: Final = itertools.count(1)
"""The numbers :attr:`BakuganState.in_play` takes: never the same twice, across all states."""


@dataclass(init=False)
class Bakugan:
    """One Bakugan of a team: its Character card, the Evo cards on it, and the toy's state."""

    name: str
    """The Character's name, which names the Bakugan in the log."""
    character: CardObj
    evos: list[CardObj] = field(default_factory=list)
    face_up: bool = False
    open: bool = False
    holding: list[int] = field(default_factory=list)
    """Slots of the BakuCores it holds (attached), whose bonuses it gets."""
    opened_turn: int = -1
    """The turn in which it last opened."""

    def __init__(self, name: str, character: CardObj, evos: list[CardObj] | None = None, face_up: bool = False,
                 open: bool = False, holding: list[int] | None = None, opened_turn: int = -1) -> None:
        # Written out (init=False), with the dataclass's fields, order and defaults (a fresh list,
        # set or dict where it has a factory): the __init__ that dataclasses generates stays an
        # interpreted function even in the compiled class, setting each field through a
        # descriptor, and the classes of this module are made on many events (copies of the
        # state for inferred passes, a TurnFlags every turn, an Attack every damage step, Lasting changes).
        # Written out (init=False), with the dataclass's fields, order and defaults (a fresh list
        # where it has a factory): the __init__ dataclasses generates stays an interpreted function
        # even in the compiled class, and setting each field from there goes through a descriptor.
        # The classes of this module are made on many events (copies for inferred passes, a
        # new TurnFlags every turn, an Attack every damage step).
        self.name = name
        self.character = character
        self.evos = [] if evos is None else evos
        self.face_up = face_up
        self.open = open
        self.holding = [] if holding is None else holding
        self.opened_turn = opened_turn

    @property
    def top(self) -> CardObj:
        """The card whose stats and abilities count: the top Evo, else the Character (3.3.3)."""
        return self.evos[-1] if self.evos else self.character

    def copy(self) -> Bakugan:
        return Bakugan(self.name, self.character, list(self.evos), self.face_up, self.open, list(self.holding),
                       self.opened_turn)


@dataclass(init=False)
class EnergyCard:
    """A card in play as an Energy card (3.7.2); ``charged`` when upright (7.2.1)."""

    card: CardObj
    charged: bool = True

    def __init__(self, card: CardObj, charged: bool = True) -> None:
        # written out (init=False, as Bakugan's): the generated one stays interpreted when compiled
        self.card = card
        self.charged = charged

    def copy(self) -> EnergyCard:
        return EnergyCard(self.card.copy(), self.charged)


@dataclass(init=False)
class Side:
    """Everything one player has."""

    name: str
    deck: Zone
    hand: Zone
    discard: Zone
    knowledge: DeckKnowledge
    team: dict[str, Bakugan]
    """The team's Bakugan by name; filled as the log names them when no decklist is registered."""
    cores_left: list[str] | None
    """Icons of the registered BakuCores not placed yet; ``None`` when not registered."""
    heroes: list[CardObj] = field(default_factory=list)
    energy: list[EnergyCard] = field(default_factory=list)
    pool: int = 0
    """Energy made this turn and not spent yet (1.7.1.2)."""
    placed: int = 0
    shuffled: bool = False
    opening_draws: int = 0

    def __init__(self, name: str, deck: Zone, hand: Zone, discard: Zone, knowledge: DeckKnowledge,
                 team: dict[str, Bakugan], cores_left: list[str] | None, heroes: list[CardObj] | None = None,
                 energy: list[EnergyCard] | None = None, pool: int = 0, placed: int = 0, shuffled: bool = False,
                 opening_draws: int = 0) -> None:
        # written out (init=False, as Bakugan's): the generated one stays interpreted when compiled
        self.name = name
        self.deck = deck
        self.hand = hand
        self.discard = discard
        self.knowledge = knowledge
        self.team = team
        self.cores_left = cores_left
        self.heroes = [] if heroes is None else heroes
        self.energy = [] if energy is None else energy
        self.pool = pool
        self.placed = placed
        self.shuffled = shuffled
        self.opening_draws = opening_draws

    def copy(self) -> Side:
        """A copy sharing the card objects that are never changed in place (discard pile, Heroes)."""
        return Side(self.name, self.deck.copy(), self.hand.copy(), _shallow(self.discard), self.knowledge.copy(),
                    {k: v.copy() for k, v in self.team.items()},
                    None if self.cores_left is None else list(self.cores_left),
                    list(self.heroes), [EnergyCard(e.card, e.charged) for e in self.energy], self.pool, self.placed,
                    self.shuffled, self.opening_draws)

    def charged(self) -> int:
        """Charged Energy cards (7.2.1.1)."""
        return [e.charged for e in self.energy].count(True)

    def closed(self) -> int:
        """Closed Bakugan, counting team members the log has not named yet as closed."""
        return TEAM_SIZE - [b.open for b in self.team.values()].count(True)


def _shallow(zone: Zone) -> Zone:
    other = Zone(zone.name, ordered=zone.ordered, public=zone.public)
    other.cards = list(zone.cards)
    other.hidden = zone.hidden
    return other


@dataclass(init=False)
class Lasting:
    """A change that lasts the turn (3.5.3.p1): a stat change on one Bakugan, or a new base value."""

    player: str
    bakugan: str
    stat: str
    amount: int
    base: bool = False
    """True when the change sets the base value (2.9.3, 2.10.3) instead of adding to it."""
    uid: int = 0
    """The uid of the Bakugan's Character card: the change stays when an Evo is played on it (3.3.3 replaces printed values only)."""
    source: str = ""
    """The card whose effect made the change, with its controller (for reports of conflicts)."""

    def __init__(self, player: str, bakugan: str, stat: str, amount: int, base: bool = False, uid: int = 0,
                 source: str = "") -> None:
        # written out (init=False, as Bakugan's): the generated one stays interpreted when compiled
        self.player = player
        self.bakugan = bakugan
        self.stat = stat
        self.amount = amount
        self.base = base
        self.uid = uid
        self.source = source

    def copy(self) -> Lasting:
        return Lasting(self.player, self.bakugan, self.stat, self.amount, self.base, self.uid, self.source)


@dataclass(init=False)
class Attack:
    """Damage being dealt by an attack, card by card (1.16.2, 5.11.1).

    ``frost`` cards come first and cannot be answered by Flip cards (the spec's reading of
    FrostStrike); then ``strikes`` times ``rating`` cards (two strikes with DoubleStrike).
    """

    to: str
    source: str
    """What makes the attack: the Victor's Bakugan name, or the card whose effect attacks."""
    factions: tuple[str, ...]
    holding: tuple[str, ...]
    """Icons of the BakuCores the attacking Bakugan holds (for [Stop] on holders)."""
    rating: int
    frost: int = 0
    strikes: int = 1
    shadow: bool = False
    by_card: bool = False
    dealt: int = 0
    stopped: bool = False

    def __init__(self, to: str, source: str, factions: tuple[str, ...], holding: tuple[str, ...], rating: int,
                 frost: int = 0, strikes: int = 1, shadow: bool = False, by_card: bool = False, dealt: int = 0,
                 stopped: bool = False) -> None:
        # written out (init=False, as Bakugan's): the generated one stays interpreted when compiled
        self.to = to
        self.source = source
        self.factions = factions
        self.holding = holding
        self.rating = rating
        self.frost = frost
        self.strikes = strikes
        self.shadow = shadow
        self.by_card = by_card
        self.dealt = dealt
        self.stopped = stopped

    def copy(self) -> Attack:
        return Attack(self.to, self.source, self.factions, self.holding, self.rating, self.frost, self.strikes, self.shadow,
                      self.by_card, self.dealt, self.stopped)

    @property
    def total(self) -> int:
        return self.frost + self.rating * self.strikes

    @property
    def remaining(self) -> int:
        return 0 if self.stopped else self.frost + self.rating * self.strikes - self.dealt  # total - dealt

    @property
    def in_frost(self) -> bool:
        """Whether the card turned over last was one of the FrostStrike cards."""
        return self.dealt <= self.frost


@dataclass(init=False)
class TurnFlags:
    """What has happened this turn (made afresh as each turn begins)."""

    drew: set[str] = field(default_factory=set)
    energize_done: set[str] = field(default_factory=set)
    selected: dict[str, str] = field(default_factory=dict)
    rolled: set[str] = field(default_factory=set)
    """Players whose selected Bakugan has rolled at least once this turn."""
    missed: dict[str, bool] = field(default_factory=dict)
    """Result of each player's last roll this turn: True when it missed."""
    first_roll_done: bool = False
    victor_begun: bool = False
    plays: dict[str, int] = field(default_factory=dict)
    rerolls_used: set[tuple[str, str]] = field(default_factory=set)
    end_triggers_fired: bool = False
    victor_by: str = "BPower"
    """The stat whose highest value makes the Victor this turn (5.10.1; an effect can change it, decision 39)."""
    played: set[int] = field(default_factory=set)
    """The card objects (uids) played this turn: "an Evo that was not played this turn" (decision 49)."""
    delayed: list[QueueItem] = field(default_factory=list)
    """Effects waiting for the end of this turn ("... at the end of the turn", decision 50)."""

    def __init__(self, drew: set[str] | None = None, energize_done: set[str] | None = None,
                 selected: dict[str, str] | None = None, rolled: set[str] | None = None,
                 missed: dict[str, bool] | None = None, first_roll_done: bool = False, victor_begun: bool = False,
                 plays: dict[str, int] | None = None, rerolls_used: set[tuple[str, str]] | None = None,
                 end_triggers_fired: bool = False, victor_by: str = "BPower", played: set[int] | None = None,
                 delayed: list[QueueItem] | None = None) -> None:
        # written out (init=False, as Bakugan's): the generated one stays interpreted when compiled
        self.drew = set() if drew is None else drew
        self.energize_done = set() if energize_done is None else energize_done
        self.selected = {} if selected is None else selected
        self.rolled = set() if rolled is None else rolled
        self.missed = {} if missed is None else missed
        self.first_roll_done = first_roll_done
        self.victor_begun = victor_begun
        self.plays = {} if plays is None else plays
        self.rerolls_used = set() if rerolls_used is None else rerolls_used
        self.end_triggers_fired = end_triggers_fired
        self.victor_by = victor_by
        self.played = set() if played is None else played
        self.delayed = [] if delayed is None else delayed

    def copy(self) -> TurnFlags:
        return TurnFlags(set(self.drew), set(self.energize_done), dict(self.selected), set(self.rolled),
                         dict(self.missed), self.first_roll_done, self.victor_begun, dict(self.plays),
                         set(self.rerolls_used), self.end_triggers_fired, self.victor_by, set(self.played),
                         [_item_copy(i) for i in self.delayed])


@dataclass(init=False)
class BakuganState:
    """The whole game at one moment."""

    players: tuple[str, str]
    sides: dict[str, Side]
    cards: CardDatabase
    explicit_passes: bool
    stage: str = "setup"
    """``setup``, ``turn`` or ``over``."""
    first: str | None = None
    """The player the random pick chose to place the first BakuCore (1.4/4.2)."""
    field_cores: dict[int, tuple[str, str]] = field(default_factory=dict)
    """Slot -> (icon, owner) of every BakuCore placed (4.7.1)."""
    last_placer: str | None = None
    starting: str = ""
    """The starting player of the current turn (1.14.1)."""
    turn: int = 0
    node: str = "draw"
    """The current step (see :data:`spec.bakugan.turn.TURN`)."""
    mode: str = ""
    """Within a step: ``pick``/``window`` in selection, ``tie`` in power, ``deal``/``offer``/``window``/``after`` in damage."""
    batch: PendingQueue = field(default_factory=lambda: PendingQueue("lifo"))
    priority: Priority = field(default_factory=lambda: Priority(""))
    resolution: Resolution | None = None
    pending_item: QueueItem | None = None
    """A card or ability whose extra costs are being paid; it joins the batch once they are."""
    waiting: list[QueueItem] = field(default_factory=list)
    """Triggered abilities waiting to join the batch (6.3.2, 6.3.3)."""
    flags: TurnFlags = field(default_factory=TurnFlags)
    lasting: list[Lasting] = field(default_factory=list)
    to_roll: list[str] = field(default_factory=list)
    """Players who must roll their selected Bakugan before anything else happens."""
    in_brawl: dict[str, str] = field(default_factory=dict)
    """Player -> the selected Bakugan of theirs that is open in this turn's brawl."""
    victor: str | None = None
    """The player whose Bakugan is this turn's Victor (5.10.1)."""
    team_attack: bool = False
    tie: dict[str, str | None] = field(default_factory=dict)
    """Cards turned over in the current round of a BPower tie break (5.9.2.1)."""
    attack: Attack | None = None
    offer: CardObj | None = None
    """A Flip card just turned over by damage, which its owner may play (3.6.1)."""
    discarding: dict[str, int] = field(default_factory=dict)
    """Cards each player must still discard for the hand limit (4.3.2.p2)."""
    damage_log: list[tuple[str, int]] = field(default_factory=list)
    damage_claimed: int = 0
    victors: list[str] = field(default_factory=list)
    last_resolved: str | None = None
    winner: str | None = None
    drawn: bool = False
    end_rule: str | None = None
    """The rule that ended the game (``1.5.1`` damage into an empty deck, ``4.4.4.4.p1`` a concession...)."""
    next_uid: int = 1
    in_play: int = field(default_factory=lambda: next(_STAMPS), compare=False, repr=False)
    """A stamp of what is in play: a number no other state or moment had, taken afresh
    (:meth:`in_play_changed`) whenever a team gains a Bakugan, a pile gains or loses a card,
    a Bakugan takes or lets go of BakuCores that can change an effect in force
    (``spec.bakugan.conflicts.holding_changed``), a Hero comes or goes, or a base value is set
    for the turn or such values end (changes that add to a stat take none). While it stays
    the same none of these changed, so what is read off them (the conflicts' key of what is
    in play, the index of triggered abilities) still holds.
    A copy takes a stamp of its own."""
    conflicts_clock: int = field(default_factory=lambda: next(_STAMPS), compare=False, repr=False)
    """The game's ``conflicts_stamp``: moves whenever ``conflicts_met`` could find something new, so
    that the verifier asks it only then. It takes every new :attr:`in_play` stamp, and a stamp of its
    own as the first turn begins (:meth:`effects_may_change`; effects in force count from then on) and
    after each reading while an effect in force has a condition (``spec.bakugan.conflicts.conflicts_met``).
    A copy takes a stamp of its own."""
    watching: dict[str, tuple[Any, Any]] | None = field(
        default=None, compare=False, repr=False)
    """Event -> the working sources with triggered abilities that watch the event, with those abilities, in the
    order for the first seated player starting and for the second (see ``Bakugan._watchers``); read off the teams' piles and the Heroes,
    so dropped (``None``: read it again when asked) whenever they change (:meth:`in_play_changed`)."""
    statics: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    """Stat -> the Heroes' statics that change it (see ``spec.bakugan.board._hero_statics``); read off
    the Heroes in play, so dropped with :attr:`watching` whenever they change (:meth:`in_play_changed`)."""
    seq: int | None = field(default=None, compare=False, repr=False)
    """The ``seq`` of the event being judged (``None`` before the first): the date each deck's journal
    gives what it records (``DeckKnowledge.now``, set just before it records, see ``DeckKnowledge.dated``)."""

    def __init__(self, players: tuple[str, str], sides: dict[str, Side], cards: CardDatabase, explicit_passes: bool,
                 stage: str = "setup", first: str | None = None, field_cores: dict[int, tuple[str, str]] | None = None,
                 last_placer: str | None = None, starting: str = "", turn: int = 0, node: str = "draw", mode: str = "",
                 batch: PendingQueue | None = None, priority: Priority | None = None, resolution: Resolution | None = None,
                 pending_item: QueueItem | None = None, waiting: list[QueueItem] | None = None,
                 flags: TurnFlags | None = None, lasting: list[Lasting] | None = None, to_roll: list[str] | None = None,
                 in_brawl: dict[str, str] | None = None, victor: str | None = None, team_attack: bool = False,
                 tie: dict[str, str | None] | None = None, attack: Attack | None = None, offer: CardObj | None = None,
                 discarding: dict[str, int] | None = None, damage_log: list[tuple[str, int]] | None = None,
                 damage_claimed: int = 0, victors: list[str] | None = None, last_resolved: str | None = None,
                 winner: str | None = None, drawn: bool = False, end_rule: str | None = None, next_uid: int = 1,
                 in_play: int | None = None, conflicts_clock: int | None = None,
                 watching: dict[str, tuple[Any, Any]] | None = None, statics: dict[str, Any] | None = None,
                 seq: int | None = None) -> None:
        # written out (init=False, as Bakugan's): the generated one stays interpreted when compiled
        self.players = players
        self.sides = sides
        self.cards = cards
        self.explicit_passes = explicit_passes
        self.stage = stage
        self.first = first
        self.field_cores = {} if field_cores is None else field_cores
        self.last_placer = last_placer
        self.starting = starting
        self.turn = turn
        self.node = node
        self.mode = mode
        self.batch = PendingQueue("lifo") if batch is None else batch
        self.priority = Priority("") if priority is None else priority
        self.resolution = resolution
        self.pending_item = pending_item
        self.waiting = [] if waiting is None else waiting
        self.flags = TurnFlags() if flags is None else flags
        self.lasting = [] if lasting is None else lasting
        self.to_roll = [] if to_roll is None else to_roll
        self.in_brawl = {} if in_brawl is None else in_brawl
        self.victor = victor
        self.team_attack = team_attack
        self.tie = {} if tie is None else tie
        self.attack = attack
        self.offer = offer
        self.discarding = {} if discarding is None else discarding
        self.damage_log = [] if damage_log is None else damage_log
        self.damage_claimed = damage_claimed
        self.victors = [] if victors is None else victors
        self.last_resolved = last_resolved
        self.winner = winner
        self.drawn = drawn
        self.end_rule = end_rule
        self.next_uid = next_uid
        self.in_play = next(_STAMPS) if in_play is None else in_play
        self.conflicts_clock = next(_STAMPS) if conflicts_clock is None else conflicts_clock
        self.watching = watching
        self.statics = statics
        self.seq = seq

    def in_play_changed(self, sources: bool = True) -> None:
        """Take a new :attr:`in_play` stamp: call after changing anything it covers.

        ``sources=False`` for a change that leaves every card with triggered abilities in
        play where it was (BakuCores taken or let go, the turn's changes): :attr:`watching` and :attr:`statics` stay.
        """
        self.in_play = self.conflicts_clock = next(_STAMPS)
        if sources:
            self.watching = None
            self.statics = None

    def effects_may_change(self) -> None:
        """Move :attr:`conflicts_clock` alone: the effects in force may differ without anything
        entering or leaving play (the first turn begins; an effect in force has a condition)."""
        self.conflicts_clock = next(_STAMPS)

    def other(self, player: str) -> str:
        a, b = self.players
        return b if player == a else a

    @property
    def nonstarting(self) -> str:
        a, b = self.players
        return b if self.starting == a else a  # other(starting)

    @property
    def turn_order(self) -> tuple[str, str]:
        """The players, the starting player first (before the first turn: as seated)."""
        players = self.players
        return (players[1], players[0]) if self.starting == players[1] and self.starting else players

    def new_card(self, name: str | None, owner: str, defn: CardDef | None = None) -> CardObj:
        card = CardObj(self.next_uid, name, owner, defn)
        self.next_uid += 1
        return card

    def bakugan(self, player: str, name: str) -> Bakugan | None:
        return self.sides[player].team.get(name)

    def copy(self) -> BakuganState:
        """A cheap independent copy (mutable parts copied, card definitions shared)."""
        return BakuganState(
            self.players, {k: v.copy() for k, v in self.sides.items()}, self.cards, self.explicit_passes,
            self.stage, self.first, dict(self.field_cores), self.last_placer, self.starting, self.turn,
            self.node, self.mode, PendingQueue(self.batch.order, [_item_copy(i) for i in self.batch.items]),
            Priority(self.priority.holder, self.priority.passes),
            None if self.resolution is None else self.resolution.copy(),
            None if self.pending_item is None else _item_copy(self.pending_item),
            [_item_copy(i) for i in self.waiting], self.flags.copy(),
            [x.copy() for x in self.lasting], list(self.to_roll), dict(self.in_brawl), self.victor,
            self.team_attack, dict(self.tie), None if self.attack is None else self.attack.copy(),
            self.offer, dict(self.discarding), list(self.damage_log),
            self.damage_claimed, list(self.victors), self.last_resolved, self.winner, self.drawn, self.end_rule, self.next_uid,
            seq=self.seq,
        )


def _item_copy(item: QueueItem) -> QueueItem:
    """A copy of a batch entry with its own context (what the queue's own copy makes of it)."""
    return QueueItem(item.kind, item.controller, item.source, item.effect, item.targets, dict(item.context), item.negated)


def holders(state: BakuganState, slot: int) -> list[tuple[str, str]]:
    """(player, Bakugan) pairs holding the BakuCore in ``slot``."""
    return [(p, b.name) for p in state.players for b in state.sides[p].team.values() if slot in b.holding]


def held_slots(state: BakuganState) -> set[int]:
    """Slots of the BakuCores some Bakugan holds: every other placed BakuCore lies on the Field."""
    return {slot for p in state.players for b in state.sides[p].team.values() for slot in b.holding}


def on_field(state: BakuganState, slot: int) -> bool:
    """Whether the BakuCore of ``slot`` lies on the Field (placed and held by no Bakugan)."""
    return slot in state.field_cores and not holders(state, slot)


__all__ = ["Attack", "Bakugan", "BakuganState", "EnergyCard", "Lasting", "Side", "TurnFlags"]
