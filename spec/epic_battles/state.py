"""The Epic Battles game state: one mutable object while a replay is verified.

Each player has a character beside their deck (EB.setup.character), the deck that is
also their health (EB.win.health), a hand, an energy pile (EB.energy.pile), a discard
pile, an arena of events set face down (EB.card.event.set) and the cards removed from
the game. Attacks being carried out are :class:`Strike` records on a stack (a taunted
attack runs inside the taunting one, EB.kw.taunt); the attacks of the current action
form the combo (EB.combo.def).

Work the rules still have to do is kept as plain data: :class:`Job` items (an effect to
run, or the next part of the flow by method name) in ``pending``, so that a state can be
copied at any moment for search and simulation.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import count
from typing import Any, Final

from spec.core.cards import CardDatabase, CardDef
from spec.core.hidden import DeckKnowledge
from spec.core.interpreter import Resolution
from spec.core.state import CardObj, MoveContext, Zone
from spec.epic_battles.catalog import Catalog, catalog
from spec.epic_battles.events import Job, Lasting, Occurrence

# (The immutable records are msgspec structs, which live with the events: a module compiled
# with mypyc would drop their class options, see spec.compiled. They are named here as before.)

STEPS: Final = ("draw", "set", "action", "discard")
"""The four steps of a turn, in order (EB.turn.steps)."""

_CLOCK: Final = count(1)
"""Where :attr:`EpicBattlesState.conflicts_clock` takes its readings: no two are alike."""


@dataclass(init=False)
class Strike:
    """One attack being carried out, from its cost to its arrival in the energy pile."""

    sid: int
    attacker: str
    defender: str
    card: CardObj
    taunted: bool = False
    stage: str = "paying"
    """``paying``, ``text``, ``block`` (waiting for a block), ``blocking``, ``recover``
    (waiting for a paid recovery), ``hit``, ``done``."""
    blocked: bool = False
    negated: bool = False
    alternative: bool = False
    position: int = 1
    """Its place in the combo: 1 for the first attack of an action."""
    block: CardObj | None = None
    """The card that blocked it, from its play to the discard pile (``EpicBattles._block_done``):
    held here, so that a copy of the state has a card of its own."""

    def __init__(self, sid: int, attacker: str, defender: str, card: CardObj, taunted: bool = False, stage: str = "paying",
                 blocked: bool = False, negated: bool = False, alternative: bool = False, position: int = 1,
                 block: CardObj | None = None) -> None:
        # Written out (init=False), with the dataclass's fields, order and defaults (a fresh list,
        # set or dict where it has a factory): the __init__ that dataclasses generates stays an
        # interpreted function even in the compiled class, setting each field through a
        # descriptor, and the classes of this module are made on many events (copies of the
        # state for inferred passes, a Strike for every attack).
        self.sid = sid
        self.attacker = attacker
        self.defender = defender
        self.card = card
        self.taunted = taunted
        self.stage = stage
        self.blocked = blocked
        self.negated = negated
        self.alternative = alternative
        self.position = position
        self.block = block

    def copy(self, cards: bool = True) -> Strike:
        if not cards:
            return replace(self)
        return replace(self, card=self.card.copy(), block=None if self.block is None else self.block.copy())


@dataclass
class Delayed:
    """An effect waiting for a later moment (``end_of_combo``)."""

    when: str
    controller: str
    source: CardObj | None
    effect: tuple[Any, ...]


@dataclass(init=False)
class Side:
    """Everything one player has."""

    name: str
    deck: Zone
    hand: Zone
    energy: Zone
    discard: Zone
    arena: Zone
    removed: Zone
    knowledge: DeckKnowledge
    deck_size: int
    """How many cards the deck holds when a round starts (59 for a legal deck)."""
    registered_character: str | None = None
    character: CardObj | None = None
    top: list[str] = field(default_factory=list)
    """Names of the top cards of the deck that were revealed and stayed there, topmost first."""
    down: str | None = None
    """``knock_down`` or ``launch`` while knocked down or launched (EB.kw.knockdown)."""
    rounds_won: int = 0
    shuffled: bool = False
    drawn: int = 0
    """Cards drawn in the current set-up or Draw step."""

    def __init__(self, name: str, deck: Zone, hand: Zone, energy: Zone, discard: Zone, arena: Zone, removed: Zone,
                 knowledge: DeckKnowledge, deck_size: int, registered_character: str | None = None,
                 character: CardObj | None = None, top: list[str] | None = None, down: str | None = None,
                 rounds_won: int = 0, shuffled: bool = False, drawn: int = 0) -> None:
        # written out (init=False, as Strike's): the generated one stays interpreted when compiled
        self.name = name
        self.deck = deck
        self.hand = hand
        self.energy = energy
        self.discard = discard
        self.arena = arena
        self.removed = removed
        self.knowledge = knowledge
        self.deck_size = deck_size
        self.registered_character = registered_character
        self.character = character
        self.top = [] if top is None else top
        self.down = down
        self.rounds_won = rounds_won
        self.shuffled = shuffled
        self.drawn = drawn

    def copy(self, cards: bool = True) -> Side:
        return Side(self.name, self.deck.copy(cards), self.hand.copy(cards), self.energy.copy(cards), self.discard.copy(cards),
                    self.arena.copy(cards), self.removed.copy(cards), self.knowledge.copy(), self.deck_size,
                    self.registered_character, self.character.copy() if cards and self.character is not None else self.character,
                    list(self.top), self.down, self.rounds_won, self.shuffled, self.drawn)


class Move(MoveContext):
    """What the checks of one attack or flip worked out that its carrying out reads again (core
    :class:`~spec.core.state.MoveContext`).

    ``EpicBattles._apply`` makes one before the checks of an attack or a flip and drops it as
    soon as one of them fails (passes may be inferred then: the game moves on). When every
    check holds, nothing has moved between the checks and the move being carried out, so the
    handler (``_do_attack``, ``_do_flip``) takes what they found instead of finding it again,
    and drops the context first thing. A slot a check did not fill stays ``None``: it is
    worked out afresh, as it is for a move judged any other way.
    """

    __slots__ = ("found", "moments", "price", "prices")

    def __init__(self, event: Any) -> None:
        super().__init__(event)
        self.price: tuple[int, int] | None = None
        """An attack's card id and its energy cost (``actions.attack_cost``), when its own text
        adds the same to its cost in every state: what ``_play_strike`` pays."""
        self.prices: list[int] | None = None
        """The energy costs of the events a flip names (``actions.flip_prices``), for its two
        checks of costs."""
        self.found: list[CardObj] | None = None
        """The face-down cards a flip turns up (``actions.set_events``)."""
        self.moments: list[Any] | None = None
        """The moment that lets each of them be flipped now (``actions.flip_moment``)."""


@dataclass(init=False)
class EpicBattlesState:
    """The whole game at one moment."""

    players: tuple[str, str]
    sides: dict[str, Side]
    cards: CardDatabase
    explicit_passes: bool
    stage: str = "setup"
    """``setup`` (of a round), ``turn``, ``over``."""
    round: int = 1
    turn: int = 0
    """The turn number within the round."""
    aggressor: str | None = None
    node: str = "setup"
    """``setup`` or the step of the turn (:data:`STEPS`)."""
    window: str = ""
    """In the Action step: ``act`` (an action is due), ``block``, ``recover``, ``link``."""
    holder: str = ""
    """Who is to act in the current window or step."""
    passes: int = 0
    """Passes in a row in the current step (EB.turn.step3.end) or players done (Set step)."""
    strikes: list[Strike] = field(default_factory=list)
    combo: list[tuple[int, str]] = field(default_factory=list)
    """``(card id, name)`` of the attacks of the current action, first to last."""
    combo_owner: str | None = None
    resolution: Resolution | None = None
    pending: list[Job] = field(default_factory=list)
    waiting: list[Job] = field(default_factory=list)
    """Triggered abilities made by the work being done; they run next."""
    scheduled: list[Job] = field(default_factory=list)
    """Work the current job asked for; it runs after the triggers."""
    suspended: list[tuple[Resolution | None, list[Job]]] = field(default_factory=list)
    """Effects paused while a taunted attack is carried out, with the work after them."""
    lasting: list[Lasting] = field(default_factory=list)
    delayed: list[Delayed] = field(default_factory=list)
    recent: list[Occurrence] = field(default_factory=list)
    """What happened since the last move: the moments an event may be flipped at."""
    facts: list[tuple[Any, ...]] = field(default_factory=list)
    """Derived facts, for claims: ``("damage", player, n)``, ``("chip", player, n)``,
    ``("down", player, how)``, ``("round", winner)``, ``("game", winner)``."""
    facts_mark: int = 0
    """Facts before this index came before the last move or chance event."""
    claimed: set[int] = field(default_factory=set)
    round_winners: list[str] = field(default_factory=list)
    winner: str | None = None
    next_uid: int = 1
    next_sid: int = 1
    notes: list[Any] = field(default_factory=list)
    """Findings the flow made while carrying out an effect (conflicts settled or left open,
    spec.epic_battles.conflicts); ``EpicBattles.apply`` hands them on with the event's own."""
    marked: bool = False
    """Whether a hidden card was ever shown only as a kind (``DeckKnowledge.mark``): only then
    can z3 find the journal of hidden cards contradictory (``EpicBattles._hidden_contradiction``)."""
    seq: int | None = None
    """The seq of the event being applied (``None`` before the first and after a round ends
    within one): the date of the observations noted in the journals of hidden cards."""
    conflicts_clock: int = field(default_factory=lambda: next(_CLOCK), compare=False, repr=False)
    """The game's ``conflicts_stamp``: a reading no other state or moment had, taken afresh
    (:meth:`effects_may_change`) whenever ``conflicts_met`` could find something new: a lasting
    change begins or ends, a turn or a round begins (the effects in force are read in turns
    only), or an event leaves settled clashes in :attr:`notes`. While it stays the same the
    verifier does not ask (``EpicBattles.conflicts_stamp``). A copy takes a reading of its own."""
    cat: Catalog = field(init=False, repr=False, compare=False)
    """What the spec has read off ``cards`` (shared by every state of that database)."""
    by_characters: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    """Answers worked out from the characters in play alone (spec.epic_battles.board: which
    kinds of always-on steps none of them has, which moments none of them triggers on).
    Emptied whenever a character is shown (``EpicBattles._do_character``); a copy starts afresh."""

    move: Move | None = field(default=None, init=False, repr=False, compare=False)
    """What the checks of the attack or flip being judged share with its carrying out
    (:class:`Move`); ``None`` otherwise. A copy has none."""

    def __init__(self, players: tuple[str, str], sides: dict[str, Side], cards: CardDatabase, explicit_passes: bool,
                 stage: str = "setup", round: int = 1, turn: int = 0, aggressor: str | None = None, node: str = "setup",
                 window: str = "", holder: str = "", passes: int = 0, strikes: list[Strike] | None = None,
                 combo: list[tuple[int, str]] | None = None, combo_owner: str | None = None,
                 resolution: Resolution | None = None, pending: list[Job] | None = None, waiting: list[Job] | None = None,
                 scheduled: list[Job] | None = None, suspended: list[tuple[Resolution | None, list[Job]]] | None = None,
                 lasting: list[Lasting] | None = None, delayed: list[Delayed] | None = None,
                 recent: list[Occurrence] | None = None, facts: list[tuple[Any, ...]] | None = None, facts_mark: int = 0,
                 claimed: set[int] | None = None, round_winners: list[str] | None = None, winner: str | None = None,
                 next_uid: int = 1, next_sid: int = 1, notes: list[Any] | None = None, marked: bool = False,
                 seq: int | None = None, conflicts_clock: int | None = None) -> None:
        # written out (init=False, as Strike's): the generated one stays interpreted when compiled
        self.players = players
        self.sides = sides
        self.cards = cards
        self.explicit_passes = explicit_passes
        self.stage = stage
        self.round = round
        self.turn = turn
        self.aggressor = aggressor
        self.node = node
        self.window = window
        self.holder = holder
        self.passes = passes
        self.strikes = [] if strikes is None else strikes
        self.combo = [] if combo is None else combo
        self.combo_owner = combo_owner
        self.resolution = resolution
        self.pending = [] if pending is None else pending
        self.waiting = [] if waiting is None else waiting
        self.scheduled = [] if scheduled is None else scheduled
        self.suspended = [] if suspended is None else suspended
        self.lasting = [] if lasting is None else lasting
        self.delayed = [] if delayed is None else delayed
        self.recent = [] if recent is None else recent
        self.facts = [] if facts is None else facts
        self.facts_mark = facts_mark
        self.claimed = set() if claimed is None else claimed
        self.round_winners = [] if round_winners is None else round_winners
        self.winner = winner
        self.next_uid = next_uid
        self.next_sid = next_sid
        self.notes = [] if notes is None else notes
        self.marked = marked
        self.seq = seq
        self.conflicts_clock = next(_CLOCK) if conflicts_clock is None else conflicts_clock
        self.cat = catalog(cards)
        self.by_characters = {}
        self.move = None  # (set here: compiled with mypyc, a field outside __init__ has no class default)

    def other(self, player: str) -> str:
        a, b = self.players
        return b if player == a else a

    def in_order(self) -> tuple[str, str]:
        """The players, the aggressor first (EB.turn.order)."""
        a, b = self.players
        first = self.aggressor or a
        return first, b if first == a else a  # (self.other(first), at once: asked on most moments)

    def new_card(self, name: str | None, owner: str, defn: CardDef | None = None) -> CardObj:
        card = CardObj(self.next_uid, name, owner, defn)
        self.next_uid += 1
        return card

    def strike(self, sid: int) -> Strike | None:
        for strike in self.strikes:
            if strike.sid == sid:
                return strike
        return None

    def effects_may_change(self) -> None:
        """Move :attr:`conflicts_clock`: call after changing what ``conflicts_met`` reads (the
        lasting changes, the round, the turn, the stage) or leaving settled clashes in :attr:`notes`."""
        self.conflicts_clock = next(_CLOCK)

    @property
    def busy(self) -> bool:
        """Whether an effect or a cost is being carried out (no player may act freely)."""
        return self.resolution is not None or bool(self.pending)

    def copy(self, cards: bool = True) -> EpicBattlesState:
        """A cheap independent copy (mutable parts copied, card definitions shared).

        ``cards=False`` shares the card objects too (which cards are where is still copied):
        enough for a snapshot to go back to while the game only moves on by passing, which
        never changes what a card is or which way up it lies (only events do: a set, a flip,
        a card named as it leaves an unseen place).
        """
        return EpicBattlesState(
            self.players, {k: v.copy(cards) for k, v in self.sides.items()}, self.cards, self.explicit_passes,
            self.stage, self.round, self.turn, self.aggressor, self.node, self.window, self.holder, self.passes,
            [s.copy(cards) for s in self.strikes], list(self.combo), self.combo_owner,
            None if self.resolution is None else self.resolution.copy(), list(self.pending), list(self.waiting),
            list(self.scheduled), [(None if r is None else r.copy(), list(p)) for r, p in self.suspended],
            list(self.lasting), list(self.delayed), list(self.recent), list(self.facts), self.facts_mark,
            set(self.claimed), list(self.round_winners), self.winner, self.next_uid, self.next_sid, list(self.notes),
            self.marked, self.seq,
        )


def labels_of(defn: CardDef | None) -> tuple[str, ...]:
    """The printed labels of a card: its height and its traits (for ``a Kick attack``)."""
    if defn is None:
        return ()
    height = defn.stats.get("height")
    return tuple(([height] if isinstance(height, str) else []) + list(defn.traits))


__all__ = ["STEPS", "Delayed", "EpicBattlesState", "Job", "Lasting", "Occurrence", "Side", "Strike", "labels_of"]
