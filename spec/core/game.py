"""The protocol every game implements: the analogue of python-chess's ``Board``.

A game subclasses :class:`Game` and supplies a few hooks: its event vocabulary
(:attr:`Game.events`), how a game starts from a replay header (:meth:`Game.setup`), how
one event is checked and applied (:meth:`Game.apply`), which moves are possible
(:meth:`Game.legal_moves`) and a short view of the state for reports
(:meth:`Game.view`). The verifier drives any game through these alone.

``apply`` and ``legal_moves`` share one source of truth: each action kind states its
preconditions once in the game's :class:`~spec.core.rules.RuleBook`; ``apply`` runs them
on the recorded move, and ``legal_moves`` keeps the candidate moves that pass them.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

import msgspec

from spec.core.cards import CardDatabase
from spec.core.findings import Violation
from spec.core.rules import RuleBook

if TYPE_CHECKING:  # pragma: no cover - typing only
    from spec.core.conflicts import Policy


def restore(state: Any, snapshot: Any) -> None:
    """Put ``state`` back as ``snapshot`` (a copy of it) had it, attribute by attribute.

    A plain state is restored through its ``__dict__``; a state compiled with mypyc (see
    :mod:`spec.compiled`) has none, and is restored field by field of its dataclass.
    """
    kept = getattr(snapshot, "__dict__", None)
    if kept is not None:
        state.__dict__.update(kept)
        return
    for each in fields(snapshot):
        setattr(state, each.name, getattr(snapshot, each.name))


class Event(msgspec.Struct, tag_field="do", forbid_unknown_fields=True, omit_defaults=True, gc=False):
    """Base of every event: ``seq`` (1, 2, ...) and ``by`` (the acting player, if any).

    Events are decoded data that never point back at what holds them, so they are left out
    of the cycle collector (``gc=False``, inherited by every game's events): one is made and
    freed per line of a replay, and tracking each would cost that bookkeeping for nothing.
    Code must never store into an event anything that refers back to it.
    """

    seq: int
    by: str | None = None


EventKind = str  # "move", "chance" or "claim"


def unasked(event: Event) -> Violation:
    """The finding of a choice or chance result (a discard, a reveal...) logged while no
    effect asked for one, its kind read off the event's own tag. Each game's check that
    returns it cites the game's own rule; the check is one function for every kind, since
    a function made per kind in a loop would be one function once compiled (spec.compiled)."""
    kind = str(type(event).__struct_config__.tag)
    return Violation(f"a {kind} no effect asked for", expected="no such event here", actual=kind)


@dataclass
class Ruling:
    """One outcome of checking an event: the rule cited and what was wrong or noted."""

    rule: str | None
    violation: Violation
    check: str | None = None
    """The name of the precondition that found it (several checks may cite one rule)."""


@dataclass
class Setup:
    """What a replay header gives a game to start from."""

    players: tuple[str, str]
    decks: dict[str, Any]
    options: dict[str, Any]
    cards: CardDatabase
    rulings: list[Ruling] = field(default_factory=list)
    """Deck-construction findings made while setting up."""


class DeckError(ValueError):
    """The cards given cannot make a deck within the construction rules (too few of a kind):
    what :meth:`Game.random_deck` raises, with the shortage and the rule it breaks."""


def actor_problem(kind: str, by: str | None, players: tuple[str, ...], needs_actor: bool) -> list[Ruling] | None:
    """What is wrong with an event's actor (``by``) when it names none of the players.

    Every game's ``_apply`` tests ``by not in players`` first (the common, well-formed
    event pays only that) and asks here only otherwise: nobody acting is fine for kinds
    that no player performs, a name that is not a player never is. ``None``: nothing wrong.
    """
    if by is None:
        if not needs_actor:
            return None
        return [Ruling(None, Violation(f"a {kind} event must say who ('by')", "one of " + ", ".join(players), "none", "malformed"))]
    return [Ruling(None, Violation(f"{by!r} is not a player of this game", "one of " + ", ".join(players), str(by), "malformed"))]


S = TypeVar("S")
E = TypeVar("E", bound=Event)


MAX_INFERRED_PASSES = 400
"""A bound on the passes inferred for one event of a log with implicit passes. Each
inferred pass moves the game on; a move that has not become legal within this many is
judged where the game stood (so that no log makes the verifier go round for ever)."""


class Game(ABC, Generic[S, E]):
    """One game's rules: the hooks the verifier, simulator and docs use."""

    id: ClassVar[str]
    title: ClassVar[str]
    rulesets: ClassVar[tuple[str, ...]]
    """Versions of this spec a replay may be recorded under (``<game>/<n>``)."""
    default_cards: ClassVar[str]
    book: RuleBook
    events: ClassVar[tuple[type[Event], ...]]
    """The event vocabulary: one msgspec Struct per ``do`` value."""
    event_kinds: ClassVar[dict[str, EventKind]]
    """``do`` value -> ``move``, ``chance`` or ``claim``."""

    _decoder: msgspec.json.Decoder[Any] | None = None

    def decoder(self) -> msgspec.json.Decoder[Any]:
        """A typed decoder for one event line of this game."""
        if self._decoder is None:
            from typing import Union

            self._decoder = msgspec.json.Decoder(Union[self.events])  # type: ignore[arg-type]  # noqa: UP007 - a tuple of types
        return self._decoder

    @abstractmethod
    def setup(self, setup: Setup) -> S:
        """The state before the first event; deck findings go to ``setup.rulings``."""

    @abstractmethod
    def apply(self, state: S, event: E) -> list[Ruling]:
        """Check one event against the rules and apply it; the rulings it gives.

        An ``illegal`` ruling means the event broke a rule; the state is then updated
        as far as the event can physically be applied (for ``--keep-going``).
        """

    @abstractmethod
    def legal_moves(self, state: S, rng: random.Random | None = None) -> list[E]:
        """Every move (and chance outcome) the rules allow next, for simulation and tests.

        Where the outcomes of chance are too many to list (the faces of several dice, a
        placement's touches), ``rng`` picks a sample of them; without it, a fixed one.
        """

    @abstractmethod
    def finish(self, state: S) -> list[Ruling]:
        """Rulings at the end of the log (an unfinished resolution, a missing winner)."""

    @abstractmethod
    def view(self, state: S) -> dict[str, Any]:
        """A short, JSON-ready view of the state for reports."""

    def resources(self, state: S) -> dict[str, dict[str, int]]:
        """Per player, the named numbers a report charts over the game (life, damage, hand size...).

        Called after every event when a report draws its charts, so keep it cheap. The
        default, ``{}``, means the game has nothing to chart.
        """
        return {}

    @abstractmethod
    def copy(self, state: S) -> S:
        """A cheap independent copy of the state (for search and simulation)."""

    # ------------------------------------------------------------ implicit passes

    pass_snapshot_shares_cards: ClassVar[bool] = True
    """Whether the state saved before passes are inferred may share the card objects
    (``state.copy(cards=False)``): true where passing never changes a card."""

    undecided_ends_inference: ClassVar[bool] = False
    """Whether a move the rules leave undecided (an ``unverifiable`` finding) is judged
    where the game stands rather than after further inferred passes."""

    def infer_passes(self, state: Any, event: E, kind: str, action: Any, hit: tuple[Any, Violation],
                     claim: bool) -> tuple[tuple[Any, Violation] | None, list[Ruling] | None]:
        """Move the game on as both players passing would, while ``event`` still breaks a
        precondition, as a log with implicit passes leaves them unsaid.

        Returns ``(what the move still breaks, None)``: ``None`` when it became legal
        (the state stays where it did), else the first finding, with the state put back as
        it was. Or ``(None, rulings)`` when an effect waiting for a choice took the move
        (:meth:`_feed`). At most :data:`MAX_INFERRED_PASSES` advances. Uses the hooks
        :meth:`_can_advance`, :meth:`_advance` and :meth:`_feed`.

        An effect waiting for an optional choice is let go as the player's pass lets it go in
        a log with explicit passes (:meth:`_pass_over`), and the passing goes on, where the
        log names no event for it: before a claim (``claim``), and before a move of the kind
        it asks for that it could not take (:meth:`_fits`), as a reroll of more dice than it
        allows, which is then a move made later.
        """
        snapshot = None
        progressed: tuple[Any, Violation] | None = hit
        for _step in range(MAX_INFERRED_PASSES):  # bounded: a move that never becomes legal is judged here
            if progressed is None or not self._can_advance(state):
                break
            if snapshot is None:
                snapshot = state.copy(cards=False) if self.pass_snapshot_shares_cards else state.copy()
            self._advance(state)
            resolution = state.resolution
            if resolution is not None and resolution.need is not None:
                need = resolution.need
                if need.optional and (claim or (need.kind == kind and not self._fits(state, event, kind))):
                    if not self._pass_over(state):  # the log names no event for it: its player passed
                        break
                elif claim:
                    pass  # a choice that must be made: the claim is judged where the game stands
                elif need.kind == kind or need.optional:
                    return None, self._feed(state, event, kind)
                else:
                    break
            progressed = action.first_violation(state, event)
            if self.undecided_ends_inference and progressed is not None and progressed[1].severity == "unverifiable":
                break  # the rules cannot decide the move here (a clash they leave open): judge it here
        if progressed is None:
            return None, None
        if self.undecided_ends_inference and progressed[1].severity == "unverifiable":
            return progressed, None
        if snapshot is not None:
            restore(state, snapshot)
        return hit, None

    def _can_advance(self, state: S) -> bool:
        """Whether both players passing now would move the game on (implicit passes)."""
        return False

    def _advance(self, state: S) -> None:
        """What both players passing in succession does."""
        raise NotImplementedError(f"{self.id}: no inferred passes")

    def _feed(self, state: S, event: E, kind: str) -> list[Ruling]:
        """Give ``event`` to the effect waiting for a choice."""
        raise NotImplementedError(f"{self.id}: no effect waits for a choice")

    def _fits(self, state: S, event: E, kind: str) -> bool:
        """Whether the effect waiting for a choice can take ``event``, of the kind it asks
        for (by default it can: the event is given to it)."""
        return True

    def _pass_over(self, state: S) -> bool:
        """Let the optional choice an effect waits for go, as its player's pass does in a log
        with explicit passes; whether it could (by default not: passing stops there)."""
        return False

    def apply_anyway(self, state: S, event: E, kind: str, after: Callable[[S], Any] | None = None) -> None:
        """Carry out an illegal move as far as it physically can be (for ``--keep-going``).

        Runs the game's ``_do_<kind>`` handler (then ``after``, e.g. the game moving on);
        if the move cannot be carried out at all, the state is left as it was.
        """
        snapshot = self.copy(state)
        perform = getattr(self, f"_do_{kind}", None)
        try:
            if perform is not None:
                perform(state, event)
                if after is not None:
                    after(state)
        except Exception:  # noqa: BLE001 - the move cannot be carried out: leave the state as it was
            restore(state, snapshot)

    # ------------------------------------------------------------ simulation hooks

    ending_moves: ClassVar[frozenset[str]] = frozenset()
    """Kinds of event by which the players end the game by their own choice (a forfeit, a
    surrender, a draw offered or agreed): nearly always legal, so the simulator plays them
    only rarely, or random games would end at once."""

    parting_moves: ClassVar[frozenset[str]] = frozenset({"discard"})
    """Kinds of move by which a player puts a card away rather than plays it (a discard, and
    in some games more): the simulator, trying a card out, does not favour these for it."""

    chance_fields: ClassVar[dict[str, tuple[str, ...]]] = {}
    """Per event kind, the fields whose value :meth:`legal_moves` samples instead of listing
    every one: a chance outcome (a drawn card's name, a die's face), or a fact of the table
    the spec checks but does not enumerate (where a piece lies). :meth:`choice_key` leaves
    them out; the event is still applied and judged with them."""

    def choice_key(self, event: E) -> Any:
        """What identifies a move among the moves :meth:`legal_moves` offers.

        Two events with the same key are the same choice. The default is the whole event
        but its ``seq``; a game whose legal moves sample chance outcomes (dice faces, the
        identity of a drawn card) leaves those out of the key.
        """
        data = msgspec.to_builtins(event)
        data.pop("seq", None)
        for name in self.chance_fields.get(str(event.__struct_config__.tag), ()):
            data.pop(name, None)
        return msgspec.json.encode(data, order="deterministic")

    hidden_fields: ClassVar[dict[str, tuple[str, ...]]] = {}
    """Per event kind, the fields a log may leave empty (``null`` or ``""``) to keep a card
    hidden that only its owner saw (a card set face down, discarded unseen, shown only as a
    kind). :meth:`legal_moves` names the card; :meth:`offers` matches such an event against
    the offered moves with the same fields emptied. (A drawn card's name is a chance field
    instead: see :attr:`chance_fields`.)"""

    def offers(self, state: S, event: E) -> bool:
        """Whether :meth:`legal_moves` offers this event (as a choice) in ``state``; an event
        that hides what :attr:`hidden_fields` lets it hide is offered when some offered move
        is the same once hidden alike."""
        key = self.choice_key(event)
        moves = self.legal_moves(state)
        if any(self.choice_key(move) == key for move in moves):
            return True
        kind = event.__struct_config__.tag
        unseen = {name: getattr(event, name) for name in self.hidden_fields.get(str(kind), ()) if getattr(event, name) in (None, "")}
        return bool(unseen) and any(move.__struct_config__.tag == kind
                                    and self.choice_key(msgspec.structs.replace(move, **unseen)) == key for move in moves)

    def random_deck(self, cards: Any, rng: Any) -> dict[str, Any]:
        """A random registered decklist from ``cards`` that keeps the construction rules;
        :class:`DeckError` when ``cards`` hold too few of a kind of card for one."""
        raise NotImplementedError(f"{self.id}: no random deck builder")

    def deck_around(self, cards: Any, rng: Any, wanted: tuple[str, ...]) -> dict[str, Any]:
        """A random registered decklist as :meth:`random_deck` draws one, built to hold the
        ``wanted`` cards (the first first) as far as the construction rules let it. A game
        whose cards need others beside them (a card played only with a given card in play,
        say) says so here; by default this is :meth:`random_deck`, and the simulator draws
        until a deck holds what it wants."""
        return self.random_deck(cards, rng)

    def supported(self, cards: Any, name: str) -> bool:
        """Whether the spec can run every ability of a card whose text it reads: the cards
        :meth:`random_deck` and the simulator deal with (see :meth:`unsupported`)."""
        return self.unsupported(cards, name) is None

    def unsupported(self, cards: Any, name: str) -> str | None:
        """Why the spec cannot run some ability of a card whose text it reads (a replay that
        plays it is judged ``unverifiable`` there), or ``None`` when it can run them all. A
        game whose spec leaves some abilities without a meaning says which and why; by
        default every card is run."""
        return None

    def facts(self, state: S) -> Any:
        """A snapshot of the derived facts (damage, winners...) for :meth:`claims_since`."""
        return None

    def claims_since(self, state: S, before: Any) -> list[dict[str, Any]]:
        """Claim events (without ``seq``) for what was derived since ``before`` was taken."""
        return []

    # ------------------------------------------------------------ conflicts (spec.core.conflicts)

    def conflict_policy(self) -> Policy:
        """The game's precedence policy for clashing effects.

        The default is ``POLICY`` of ``spec/<game>/conflicts.py``, or, for a game without
        one, a policy that settles nothing (every conflict is then reported unsettled).
        """
        from spec.core.conflicts import policy_for

        return policy_for(self.id)

    conflicts_stamp: ClassVar[str | None] = None
    """The name of a state field that moves (a count, never ``None``) whenever
    :meth:`conflicts_met` could find something new: a card entering or leaving play, a
    lasting effect beginning or ending, whatever its effects in force depend on. A game
    that names one is asked for conflicts only after the events that moved it; with
    ``None`` (the default), after every event. The verifier reads the stamp before it asks:
    a game whose effects hang on something any event may change (a condition in force)
    moves the stamp inside :meth:`conflicts_met`, and is asked again after the next event."""

    def conflicts_met(self, state: S, memo: dict[str, Any]) -> list[Ruling]:
        """Findings for conflicts between effects in force that were not reported yet.

        The verifier calls this after every event (or, for a game naming a
        :attr:`conflicts_stamp`, after every event that moved it) with ``memo``, a dict it keeps for one
        replay (the game stores there what it has reported). A settled conflict gives an
        ``info`` finding naming the effects and the precedence rule; a gap in the rules, or
        a check z3 could not decide, an ``unverifiable`` one. What ``memo`` holds is either
        a set, list or dict of plain values or a value replaced, never changed, once stored:
        the simulator tries a move on copies of the state and of the memo, one level deep
        (``verifier.simulate``). Keep it cheap: the default
        reports nothing, and a game should call z3 only once a pre-filter has found two
        effects that could clash.
        """
        return []
