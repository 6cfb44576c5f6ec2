"""The Neopets game state: one mutable object while a replay is verified.

Zones follow rule 8 of the book: Main Deck, Neopet Deck and Rainbow Pool (private),
Inventory (private, its size public), Discard, Void and Play Area (public), the
Battledome's Faerie and Equipment slots, the Active Neopet slot with its Codestones,
and Round Results. The queue holds cards and abilities waiting to resolve.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Final

from grammar.ast import Step
from spec.core.cards import CardDatabase, CardDef
from spec.core.hidden import DeckKnowledge
from spec.core.interpreter import Resolution
from spec.core.queue import PendingQueue, Priority, QueueItem
from spec.core.state import CardObj, MoveContext, Zone

STATS: Final = ("Attack", "Defence", "Agility", "Hit Points")
STAT_KEYS: Final = {"Attack": "attack", "Defence": "defence", "Agility": "agility", "Hit Points": "hp"}


@dataclass(init=False)
class Lasting:
    """A change that lasts for a while: a stat change, a can't, a may, an immunity."""

    kind: str
    """``modify``, ``prohibit``, ``permit`` or ``immune``."""
    controller: str
    affects: str
    """The player whose Neopet (or who) is affected."""
    what: str
    """The stat, action or status concerned."""
    amount: int = 0
    until: str = "permanent"
    turn: int = 0
    """The turn it began, for durations counted from it."""
    order: int = 0
    """When it began, for the longer-standing rule (8.18.5)."""

    def __init__(self, kind: str, controller: str, affects: str, what: str, amount: int = 0, until: str = "permanent",
                 turn: int = 0, order: int = 0) -> None:
        # Written out (init=False), with the dataclass's fields, order and defaults (a fresh list,
        # set or dict where it has a factory): the __init__ that dataclasses generates stays an
        # interpreted function even in the compiled class, setting each field through a
        # descriptor, and the classes of this module are made on many events (copies of the
        # state for inferred passes, Lasting effects, an ActiveNeopet for every Neopet chosen).
        self.kind = kind
        self.controller = controller
        self.affects = affects
        self.what = what
        self.amount = amount
        self.until = until
        self.turn = turn
        self.order = order


@dataclass(init=False)
class ActiveNeopet:
    """The Neopet in a player's Active Neopet slot, with what it carries."""

    card: CardObj
    damage: int = 0
    frozen_for_turn: int | None = None
    """The turn number of the owner's next Battle Phase in which it may not attack."""
    codestones: list[CardObj] = field(default_factory=list)
    painted_with: str | None = None
    printed: dict[str, tuple[CardObj, list[CardObj], int]] = field(default_factory=dict, repr=False, compare=False)
    """Per stat key, the printed total last worked out (:func:`spec.neopets.board.stat`), with
    the Neopet card and the Codestones it was worked out for: a copy starts without."""

    def __init__(self, card: CardObj, damage: int = 0, frozen_for_turn: int | None = None,
                 codestones: list[CardObj] | None = None, painted_with: str | None = None,
                 printed: dict[str, tuple[CardObj, list[CardObj], int]] | None = None) -> None:
        # written out (init=False, as Lasting's): the generated one stays interpreted when compiled
        self.card = card
        self.damage = damage
        self.frozen_for_turn = frozen_for_turn
        self.codestones = [] if codestones is None else codestones
        self.painted_with = painted_with
        self.printed = {} if printed is None else printed

    def copy(self, cards: bool = True) -> ActiveNeopet:
        if not cards:
            return ActiveNeopet(self.card, self.damage, self.frozen_for_turn, list(self.codestones), self.painted_with)
        return ActiveNeopet(self.card.copy(), self.damage, self.frozen_for_turn,
                            [c.copy() for c in self.codestones], self.painted_with)


@dataclass(init=False)
class Side:
    """Everything one player has."""

    name: str
    deck: Zone
    inventory: Zone
    discard: Zone
    void: Zone
    play_area: Zone
    knowledge: DeckKnowledge
    neopet_deck: list[str] | None
    """Names left in the Neopet Deck when registered; ``None`` when unknown."""
    rainbow_pool: list[str] | None
    faerie: list[CardObj] = field(default_factory=list)
    equipment: list[CardObj] = field(default_factory=list)
    neopet: ActiveNeopet | None = None
    chosen: str | None = None
    """The face-down starting choice, before both are revealed (2.p10)."""
    used_species: list[str] = field(default_factory=list)
    round_results: list[tuple[str, bool]] = field(default_factory=list)
    rounds_won: int = 0
    shuffled: bool = False
    opening_draws: int = 0
    mulligans: int = 0
    mulligan_pending: bool = False
    dice: list[int] = field(default_factory=list)

    def __init__(self, name: str, deck: Zone, inventory: Zone, discard: Zone, void: Zone, play_area: Zone,
                 knowledge: DeckKnowledge, neopet_deck: list[str] | None, rainbow_pool: list[str] | None,
                 faerie: list[CardObj] | None = None, equipment: list[CardObj] | None = None,
                 neopet: ActiveNeopet | None = None, chosen: str | None = None, used_species: list[str] | None = None,
                 round_results: list[tuple[str, bool]] | None = None, rounds_won: int = 0, shuffled: bool = False,
                 opening_draws: int = 0, mulligans: int = 0, mulligan_pending: bool = False, dice: list[int] | None = None) -> None:
        # written out (init=False, as Lasting's): the generated one stays interpreted when compiled
        self.name = name
        self.deck = deck
        self.inventory = inventory
        self.discard = discard
        self.void = void
        self.play_area = play_area
        self.knowledge = knowledge
        self.neopet_deck = neopet_deck
        self.rainbow_pool = rainbow_pool
        self.faerie = [] if faerie is None else faerie
        self.equipment = [] if equipment is None else equipment
        self.neopet = neopet
        self.chosen = chosen
        self.used_species = [] if used_species is None else used_species
        self.round_results = [] if round_results is None else round_results
        self.rounds_won = rounds_won
        self.shuffled = shuffled
        self.opening_draws = opening_draws
        self.mulligans = mulligans
        self.mulligan_pending = mulligan_pending
        self.dice = [] if dice is None else dice

    def copy(self, cards: bool = True) -> Side:
        return Side(
            self.name, self.deck.copy(cards), self.inventory.copy(cards), self.discard.copy(cards),
            self.void.copy(cards), self.play_area.copy(cards), self.knowledge.copy(),
            None if self.neopet_deck is None else list(self.neopet_deck),
            None if self.rainbow_pool is None else list(self.rainbow_pool),
            [c.copy() for c in self.faerie] if cards else list(self.faerie),
            [c.copy() for c in self.equipment] if cards else list(self.equipment),
            None if self.neopet is None else self.neopet.copy(cards), self.chosen,
            list(self.used_species), list(self.round_results), self.rounds_won, self.shuffled,
            self.opening_draws, self.mulligans, self.mulligan_pending, list(self.dice),
        )


@dataclass(init=False)
class TurnFlags:
    """What has happened this turn (reset as each turn begins)."""

    drew: bool = False
    codestones_attached: int = 0
    prep_plays: int = 0
    activated: set[tuple[int, int]] = field(default_factory=set)
    rolled: bool = False
    rerolled: bool = False
    roll_window: int = -1
    """The priority-window number in which the last dice result became visible."""

    def __init__(self, drew: bool = False, codestones_attached: int = 0, prep_plays: int = 0,
                 activated: set[tuple[int, int]] | None = None, rolled: bool = False, rerolled: bool = False,
                 roll_window: int = -1) -> None:
        # written out (init=False, as Lasting's): the generated one stays interpreted when compiled
        self.drew = drew
        self.codestones_attached = codestones_attached
        self.prep_plays = prep_plays
        self.activated = set() if activated is None else activated
        self.rolled = rolled
        self.rerolled = rerolled
        self.roll_window = roll_window

    def copy(self) -> TurnFlags:
        return TurnFlags(self.drew, self.codestones_attached, self.prep_plays, set(self.activated),
                         self.rolled, self.rerolled, self.roll_window)


@dataclass
class Delayed:
    """An effect waiting for a later moment (8.19), e.g. the end of the round."""

    when: str
    controller: str
    source: Any
    effect: tuple[Step, ...]


class Move(MoveContext):
    """What the checks of one Neopets move share (core :class:`~spec.core.state.MoveContext`).

    ``Neopets.apply`` makes one before the checks of a kind that has such shared facts
    (a reroll: its two checks both ask which Neopet is faster and by how much; an
    activation: five of its checks ask which card in play is used, three which activated
    abilities it has) and drops it before anything moves the game on (the move carried
    out, or passes inferred before it).
    """

    __slots__ = ("activated", "edge", "source")

    def __init__(self, event: Any) -> None:
        super().__init__(event)
        self.edge: tuple[str | None, int] | None = None
        """The Agility edge (``actions.agility_edge``), once a check asked for it."""
        self.source: tuple[Any] | None = None
        """The card in play an activation uses, or ``None`` (``actions.activated_source``),
        in a 1-tuple once a check asked for it."""
        self.activated: list[Any] | None = None
        """The activated abilities of that card (``actions.activated_abilities``), once a check asked."""


@dataclass(init=False)
class NeopetsState:
    """The whole game at one moment."""

    players: tuple[str, str]
    sides: dict[str, Side]
    cards: CardDatabase
    explicit_passes: bool
    stage: str = "setup"
    """``setup``, ``choose`` (starting Neopets), ``turn``, ``new_round``, ``over``."""
    starting: str | None = None
    first: str | None = None
    active: str = ""
    turn: int = 0
    turn_in_round: int = 0
    round: int = 1
    node: str = "beginning"
    """Current phase or battle step (see :data:`spec.neopets.turn.TURN`)."""
    window: str = "open"
    """Within a node: ``open`` (priority before its action), ``act``, ``close``."""
    window_number: int = 0
    queue: PendingQueue = field(default_factory=PendingQueue)
    priority: Priority = field(default_factory=lambda: Priority(""))
    resolution: Resolution | None = None
    pending_item: QueueItem | None = None
    """A card or ability whose costs are being paid; it joins the queue once they are."""
    suspended: list[Resolution] = field(default_factory=list)
    """Effects paused at a sentence break while a card added there pays its costs (8.12.1.p1)."""
    flags: TurnFlags = field(default_factory=TurnFlags)
    lasting: list[Lasting] = field(default_factory=list)
    delayed: list[Delayed] = field(default_factory=list)
    waiting: list[QueueItem] = field(default_factory=list)
    """Triggered abilities waiting for the current effect to finish (8.16.3)."""
    round_effects: list[Delayed] = field(default_factory=list)
    """End of Round delayed effects still to resolve (5.5.11)."""
    damage_log: list[tuple[str, int]] = field(default_factory=list)
    damage_mark: int = 0
    """Damage dealt before this index came before the last move or chance event."""
    damage_claimed: int = 0
    rounds_mark: int = 0
    """Rounds won before this index came before the last move or chance event."""
    last_resolved: str | None = None
    last_knockout: str | None = None
    round_winners: list[str] = field(default_factory=list)
    winner: str | None = None
    next_uid: int = 1
    next_order: int = 1
    entered: dict[int, int] = field(default_factory=dict)
    """When each card in play got there (uid -> stamp); cards entering together share one (8.18.5)."""
    last_entered: int = 0
    """The stamp of the latest entry into play."""
    play_version: int = 0
    """Moves on whenever a card enters or leaves a play zone (:meth:`play_changed`); what
    is in play is worked out again only when it moves (spec.neopets.board)."""
    seq: int | None = None
    """The seq of the event being applied (for the notes of what it showed of a hidden deck)."""
    marked: bool = False
    """Whether a hidden card was shown only as a kind (a mark in a player's deck knowledge):
    from then on each event may need the solver (``Neopets._hidden_contradiction``)."""
    changes: int = 0
    """Moves on whenever the effects in force may have changed (:meth:`changed`): the turn
    changing hands, a card entering or leaving play, a lasting effect beginning or ending,
    damage. Clashes between effects are looked for again only when it moves
    (spec.neopets.conflicts.conflicts_met)."""
    unmarked: bool = False
    """Whether damage was dealt or a round won since the marks (``damage_mark``,
    ``rounds_mark``) were last set: only then does the next move set them again."""
    move: Move | None = field(default=None, repr=False, compare=False)
    """What the checks of the move being judged share (a per-move context, :class:`Move`);
    ``None`` outside the checks. Never copied."""
    board_cache: Any = field(default=None, repr=False, compare=False)
    """What is in play, worked out once per arrangement (spec.neopets.board); never copied."""
    card_effects: dict[tuple, Any] = field(default_factory=dict, repr=False, compare=False)
    """The effects of each card's passive abilities, and of each lasting effect, per context
    (spec.neopets.conflicts.effects_in_force); never copied."""
    pair: tuple[Side, ...] = field(default=(), repr=False, compare=False)
    """The two sides, in the order of ``players`` (set from ``sides`` when the state is made)."""
    opponent: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    """Each player's opponent (set from ``players`` when the state is made): one look-up
    where :meth:`other` is a call."""

    def __init__(self, players: tuple[str, str], sides: dict[str, Side], cards: CardDatabase, explicit_passes: bool,
                 stage: str = "setup", starting: str | None = None, first: str | None = None, active: str = "",
                 turn: int = 0, turn_in_round: int = 0, round: int = 1, node: str = "beginning", window: str = "open",
                 window_number: int = 0, queue: PendingQueue | None = None, priority: Priority | None = None,
                 resolution: Resolution | None = None, pending_item: QueueItem | None = None,
                 suspended: list[Resolution] | None = None, flags: TurnFlags | None = None,
                 lasting: list[Lasting] | None = None, delayed: list[Delayed] | None = None,
                 waiting: list[QueueItem] | None = None, round_effects: list[Delayed] | None = None,
                 damage_log: list[tuple[str, int]] | None = None, damage_mark: int = 0, damage_claimed: int = 0,
                 rounds_mark: int = 0, last_resolved: str | None = None, last_knockout: str | None = None,
                 round_winners: list[str] | None = None, winner: str | None = None, next_uid: int = 1, next_order: int = 1,
                 entered: dict[int, int] | None = None, last_entered: int = 0, play_version: int = 0,
                 seq: int | None = None, marked: bool = False, changes: int = 0, unmarked: bool = False,
                 move: Move | None = None, board_cache: Any = None, card_effects: dict[tuple, Any] | None = None,
                 pair: tuple[Side, ...] = (), opponent: dict[str, str] | None = None) -> None:
        # written out (init=False, as Lasting's): the generated one stays interpreted when compiled
        self.players = players
        self.sides = sides
        self.cards = cards
        self.explicit_passes = explicit_passes
        self.stage = stage
        self.starting = starting
        self.first = first
        self.active = active
        self.turn = turn
        self.turn_in_round = turn_in_round
        self.round = round
        self.node = node
        self.window = window
        self.window_number = window_number
        self.queue = PendingQueue() if queue is None else queue
        self.priority = Priority("") if priority is None else priority
        self.resolution = resolution
        self.pending_item = pending_item
        self.suspended = [] if suspended is None else suspended
        self.flags = TurnFlags() if flags is None else flags
        self.lasting = [] if lasting is None else lasting
        self.delayed = [] if delayed is None else delayed
        self.waiting = [] if waiting is None else waiting
        self.round_effects = [] if round_effects is None else round_effects
        self.damage_log = [] if damage_log is None else damage_log
        self.damage_mark = damage_mark
        self.damage_claimed = damage_claimed
        self.rounds_mark = rounds_mark
        self.last_resolved = last_resolved
        self.last_knockout = last_knockout
        self.round_winners = [] if round_winners is None else round_winners
        self.winner = winner
        self.next_uid = next_uid
        self.next_order = next_order
        self.entered = {} if entered is None else entered
        self.last_entered = last_entered
        self.play_version = play_version
        self.seq = seq
        self.marked = marked
        self.changes = changes
        self.unmarked = unmarked
        self.move = move
        self.board_cache = board_cache
        self.card_effects = {} if card_effects is None else card_effects
        # pair and opponent are read off players and sides, whatever is passed (as the generated
        # __init__ and then __post_init__ did: they are parameters only as fields of the dataclass)
        self.pair = tuple(sides[player] for player in players)
        a, b = players
        self.opponent = {a: b, b: a}

    def other(self, player: str) -> str:
        a, b = self.players
        return b if player == a else a

    @property
    def nonactive(self) -> str:
        return self.opponent.get(self.active, self.players[0])  # as other(): the first player when none is active

    def new_card(self, name: str | None, owner: str, defn: CardDef | None = None) -> CardObj:
        card = CardObj(self.next_uid, name, owner, defn)
        self.next_uid += 1
        return card

    def enter_play(self, *cards: CardObj, placed: bool = True) -> None:
        """Stamp cards as entering play now, all at the same moment (8.18.5).

        ``placed=False``: a resolved card that goes on to the Discard or the Void is
        stamped all the same but takes no place in play, so what is in play stays (the
        play version does not move; the change count does, as for every stamp).
        """
        stamp = self.next_uid
        self.next_uid += 1
        self.last_entered = stamp
        if placed:
            self.play_version += 1
        self.changes += 1
        for card in cards:
            self.entered[card.uid] = stamp

    def play_changed(self) -> None:
        """Note that a card entered or left the Battledome, an Active Neopet slot or the Play Area."""
        self.play_version += 1
        self.changes += 1

    def changed(self) -> None:
        """Note that the effects in force may have changed (see :attr:`changes`)."""
        self.changes += 1

    def copy(self, cards: bool = True) -> NeopetsState:
        """An independent copy that plays on exactly as the original would: mutable parts
        copied, card definitions shared, and everything that points at a card, an Active
        Neopet or an item (an item's source and targets, a resolution's, a delayed effect's)
        pointing at the copy's own, since the rules find them by identity.

        ``cards=False`` shares the card objects too: enough for a snapshot to go back to
        while the game only moves on by passing (no card's identity is learnt then).
        """
        sides = {k: v.copy(cards) for k, v in self.sides.items()}
        moved: dict[int, Any] = {}
        for name, side in self.sides.items():
            _pair(side, sides[name], moved, cards)
        items = _Items(moved, cards)
        queue = PendingQueue(self.queue.order, [items.copy(i) for i in self.queue.items])
        return NeopetsState(
            self.players, sides, self.cards,
            self.explicit_passes, self.stage, self.starting, self.first, self.active, self.turn,
            self.turn_in_round, self.round, self.node, self.window, self.window_number,
            queue, Priority(self.priority.holder, self.priority.passes),
            None if self.resolution is None else items.resolution(self.resolution),
            None if self.pending_item is None else items.copy(self.pending_item),
            [items.resolution(r) for r in self.suspended],
            self.flags.copy(), [replace(x) for x in self.lasting], [items.delayed(d) for d in self.delayed],
            [items.copy(i) for i in self.waiting], [items.delayed(d) for d in self.round_effects],
            list(self.damage_log), self.damage_mark,
            self.damage_claimed, self.rounds_mark, self.last_resolved, self.last_knockout, list(self.round_winners), self.winner,
            self.next_uid, self.next_order, dict(self.entered), self.last_entered, self.play_version,
            self.seq, self.marked, self.changes, self.unmarked,
        )


def _pair(old: Side, new: Side, moved: dict[int, Any], cards: bool) -> None:
    """Note in ``moved`` which object of ``new`` (a copy of ``old``) stands for each card
    object and Active Neopet of ``old``; card objects only when they were copied."""
    if old.neopet is not None and new.neopet is not None:
        moved[id(old.neopet)] = new.neopet
    if not cards:
        return
    for zone, copied in ((old.deck, new.deck), (old.inventory, new.inventory), (old.discard, new.discard),
                         (old.void, new.void), (old.play_area, new.play_area)):
        for card, twin in zip(zone.cards, copied.cards, strict=True):
            moved[id(card)] = twin
    for card, twin in zip(old.faerie + old.equipment, new.faerie + new.equipment, strict=True):
        moved[id(card)] = twin
    if old.neopet is not None and new.neopet is not None:
        moved[id(old.neopet.card)] = new.neopet.card
        for card, twin in zip(old.neopet.codestones, new.neopet.codestones, strict=True):
            moved[id(card)] = twin


class _Items:
    """Copies of queue items, resolutions and delayed effects for :meth:`NeopetsState.copy`:
    each item copied once (an item in the queue is also the target of a negation, the item
    of a resolution), its source and targets the copies' own. A card held by nothing but
    what waits (one being played, on its way to the discard pile) is copied too, once, when
    the copy has cards of its own (``cards``)."""

    def __init__(self, moved: dict[int, Any], cards: bool) -> None:
        self.moved = moved
        self.cards = cards

    def at(self, thing: Any) -> Any:
        """The copy's counterpart of a card object, Active Neopet or item (itself if it has none)."""
        if isinstance(thing, QueueItem):
            return self.copy(thing)
        twin = self.moved.get(id(thing))
        if twin is not None:
            return twin
        if self.cards and type(thing) is CardObj:  # in no zone: held only by what waits
            twin = self.moved[id(thing)] = thing.copy()
            return twin
        return thing

    def copy(self, item: QueueItem) -> QueueItem:
        twin = self.moved.get(id(item))
        if twin is None:
            twin = QueueItem(item.kind, item.controller, self.at(item.source), item.effect, (),
                             dict(item.context), item.negated)
            self.moved[id(item)] = twin
            twin.targets = tuple(self.at(t) for t in item.targets)
        return twin  # type: ignore[no-any-return]

    def resolution(self, res: Resolution) -> Resolution:
        twin = res.copy()
        twin.source = self.at(res.source)
        twin.item = None if res.item is None else self.at(res.item)
        return twin

    def delayed(self, effect: Delayed) -> Delayed:
        return Delayed(effect.when, effect.controller, self.at(effect.source), effect.effect)
