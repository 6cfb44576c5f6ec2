"""The True Trading Card Game (TTCG) as a transition system: set-up, turns, the chain, battle.

:class:`Ttcg` implements :class:`spec.core.game.Game`. The preconditions of each event
live in :mod:`spec.ttcg.actions`; this module moves the game along: deck construction
(2.2.1), the start (2.2.2), the phases of a turn (2.2.3), playing and levelling up
(2.2.4, 2.2.6), effects on the chain and their tapping (2.2.5), battle (2.2.7), points
(2.2.8), the hand limit (2.2.10) and an empty deck (2.2.11). Card text runs through the
core interpreter (:mod:`spec.ttcg.effects`).

The chain. An effect a player uses is paid for (its card tapped, its written cost
paid) and put on the chain; effects set off by a trigger join it once what set them
off is over. The players may answer (a Counter effect, a magic effect in either turn);
when both pass in a row the whole chain resolves, last in first out (2.2.5.d.p1), an
effect left without its card doing nothing (2.2.5.d.p2). A declared attack waits in the
same way and is fought when both pass with the chain empty.

Passes. With ``options.passes = "explicit"`` every pass is logged. With ``"implicit"``
passes are inferred: when an event is not legal where the game stands, the players
pass as often as the rules allow (resolving the chain, fighting a declared battle,
moving to later phases and turns) until it is, never past what the rules make
compulsory (the Draw Phase draw, discarding down to ten, what an effect needs). If no
such point exists the event is judged where the game stood.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar, Final, NoReturn

import msgspec

from grammar import ast as A
from grammar import ttcg_nodes as T
from spec.core import interpreter
from spec.core.cards import CardDef
from spec.core.deck import over_limit, size_violation
from spec.core.findings import Violation
from spec.core.game import DeckError, Event, Game, Ruling, Setup, actor_problem
from spec.core.hidden import DeckKnowledge
from spec.core.interpreter import Need, Resolution, UnsupportedStep, unhandled
from spec.core.queue import Priority
from spec.core.state import CardObj, Zone
from spec.ttcg import actions as X
from spec.ttcg import board as B
from spec.ttcg import conflicts as TC
from spec.ttcg import events as E
from spec.ttcg.actions import BOOK
from spec.ttcg.effects import Choice, Effects, step_gap
from spec.ttcg.state import (
    EDITS,
    EXHAUSTION_LOSS,
    OPENING_HAND,
    Battle,
    Link,
    MarkSet,
    Pile,
    Side,
    Snapshot,
    TtcgState,
    force_changed,
)
from spec.ttcg.turn import TURN

cite = BOOK.cite

# (``Final``, as the names below that are never bound again: read from C statics by compiled code)
NO_ACTOR: Final = ("roll", "first", "phase", "destroyed", "points", "game")
"""Event kinds that no player performs."""

DECK_SIZE = (50, 70)
COPIES = 2
MAX_ADVANCES: Final = 400
"""A bound on the passes inferred for one event (each advances the game)."""

# Rules encoded by the structure of this module rather than by one function.
BOOK.note("2.2.3.a", "2.2.7.a", what="the turn graph (spec.ttcg.turn.TURN): Draw, Main and Battle Phases, then the end of the turn")
BOOK.note("2.2.4.a", what="a played card always enters its pile untapped and face up (Ttcg._do_play, Ttcg.new_pile)")
BOOK.note("2.2.4.b.1", "2.2.4.c.1", what="no check waits a turn before a new card's effects may be used")
BOOK.note("2.2.4.b.2", what="no check limits a magic card's effects to its owner's turn (only 2.2.4.c.2 for creatures)")
BOOK.note("2.2.5.f.3", what="no check looks at whether an attacker is tapped, and attacking taps nothing")
BOOK.note("2.2.5.h.2", "2.2.6.c.p2",
          what="only a pile's top card carries a tapped state: cards in hand, deck, discard pile or under others never do")
BOOK.note("2.2.6.f", what="the field limits count piles (board.creatures), not the cards under their tops")
BOOK.note("2.2.10.a", what="the hand is brought to ten at the end of its player's turn (the end phase waits for the discards)")
BOOK.note("2.2.1.c", what="deck construction checks sizes and copies only, never the mix of creatures and magic cards")
BOOK.contradiction("2.2.8.b", "2.2.8.c", why="2.2.8.b speaks of gaining points by destroying, while 2.2.8.c has the owner of the "
                   "destroyed creature lose them; the spec reads points as a count down from 20 (docs/ttcg-decisions.rst)")
BOOK.contradiction("2.2.4.b.2", "2.2.5.i.1", why="a Normal effect is used in the turn of its own player, yet magic cards use their "
                   "effects in either turn; the spec lets magic cards use every effect in either turn")
BOOK.contradiction("2.2.5.i.3", "2.2.4.c.2", why="Counter effects answer at any time, creatures use effects only in the turn of their "
                   "owner; the spec lets a Counter effect of a creature answer in either turn")
BOOK.contradiction("2.1.r", "2.1.ai", why="DESTROY is defined twice, in the same sense")


def copy_limit(_name: str) -> int:
    """Copies of one card a deck may hold, all rarities together (2.2.1.b)."""
    return COPIES


class Ttcg(Game[TtcgState, Event]):
    """The True Trading Card Game, basic rules (section 2 of the development document)."""

    chance_fields: ClassVar[dict[str, tuple[str, ...]]] = {"draw": ("card",), "roll": ("die",)}
    """Chance outcomes legal_moves samples (left out when matching moves, see Game.choice_key)."""

    id: ClassVar[str] = "ttcg"
    title: ClassVar[str] = "True Trading Card Game (TTCG)"
    rulesets: ClassVar[tuple[str, ...]] = ("ttcg/1",)
    default_cards: ClassVar[str] = "ttcg/base"
    events = E.EVENTS
    event_kinds = E.KINDS
    book = BOOK
    turn = TURN

    def __init__(self) -> None:
        self.effects = Effects(self)
        self._probing = False
        """True while :meth:`legal_moves` tries candidates (illegal ones need not be carried out)."""

    # ================================================================== set-up and decks

    @BOOK.encodes("2.2.8.a", what="each player's points start at 20")
    def setup(self, setup: Setup) -> TtcgState:
        sides: dict[str, Side] = {}
        for player in setup.players:
            deck = setup.decks.get(player)
            registered = self._check_deck(setup, player, deck) if deck is not None else None
            side = Side(player, Zone("deck", ordered=True, public=False), Zone("hand", public=False), Zone("discard pile"),
                        DeckKnowledge(registered, copy_limit, player))
            side.deck.hidden = sum(registered.values()) if registered is not None else DECK_SIZE[1]
            sides[player] = side
        state = TtcgState(setup.players, sides, setup.cards, setup.options.get("passes") == "explicit")
        state.priority = Priority(setup.players[0])
        return state

    @BOOK.encodes("2.2.1.a", "2.2.1.b", "2.2.1.c", what="deck construction checked against the registered decklist")
    def _check_deck(self, setup: Setup, player: str, deck: Any) -> Counter[str]:
        def find(rule: str, message: str, expected: str, actual: str) -> None:
            setup.rulings.append(Ruling(cite(rule), Violation(f"{player}'s deck: {message}", expected, actual)))

        try:
            typed = msgspec.convert(deck, E.Decklist)
        except msgspec.ValidationError as error:
            setup.rulings.append(Ruling(None, Violation(f"{player}'s decklist is not valid: {error}", "{\"deck\": {name: copies}}",
                                                        "a different shape", "malformed")))
            return Counter()
        counts = Counter({name: n for name, n in typed.deck.items() if n > 0})
        for name in counts:
            defn = setup.cards.get(name)
            if defn is None:
                setup.rulings.append(Ruling(None, Violation(f"{player}'s deck lists {name!r}, which is not in the card database",
                                                            "a card of the database", name, "unverifiable")))
            elif not (B.is_creature(defn) or B.is_magic(defn)):
                setup.rulings.append(Ruling(None, Violation(f"{player}'s deck lists {name!r}, a {defn.type}: only creatures and "
                                                            "magic cards are modelled", "Unit or Spell", defn.type, "unverifiable")))
        problem = size_violation(sum(counts.values()), *DECK_SIZE)
        if problem:
            find("2.2.1.a", "deck size", f"{DECK_SIZE[0]} to {DECK_SIZE[1]} cards", problem)
        for name, n, cap in over_limit(counts, copy_limit):
            find("2.2.1.b", f"{n} copies of {name}", f"at most {cap}", str(n))
        return counts

    # ================================================================== applying events

    def apply(self, state: TtcgState, event: Event) -> list[Ruling]:
        facts = _FACTS.get(type(event))
        if facts is None:
            facts = _FACTS[type(event)] = _Facts(type(event), str(event.__struct_config__.tag))
        kind = facts.kind
        state.seq = event.seq
        if state.notes:
            state.notes = []
        try:
            res = state.resolution
            if facts.plain_pass and state.stage == "turn" and (res is None or res.need is None) and event.by in state.players:
                rulings = self._pass(state, event, facts)  # most events
            else:
                rulings = self._apply(state, event, kind)
        except (B.Unmodelled, UnsupportedStep) as error:
            state.notes = []
            state.in_force_stamp = EDITS.field + EDITS.marks + EDITS.force  # in_force_edits(), written out
            return [Ruling(None, Violation(str(error), severity="unverifiable"))]
        if state.notes:
            rulings = [*rulings, *state.notes]
            state.notes = []
        for side in state.sides.values():
            if side.knowledge.marks:
                rulings = [*rulings, *self._hidden_contradiction(side)]
        state.in_force_stamp = EDITS.field + EDITS.marks + EDITS.force  # in_force_edits(), written out: after every event
        return rulings

    def _hidden_contradiction(self, side: Side) -> list[Ruling]:
        """What z3 finds wrong with a player's hidden cards once one was shown only as a kind.

        No TTCG event shows a card only as a kind (decision 28 of docs/ttcg-decisions.rst),
        so the journal holds no marks and counting decides; this stays ready for one that does.
        """
        registered = side.knowledge.registered
        outcome = side.knowledge.contradiction(sum(registered.values()) if registered else DECK_SIZE[1])
        if outcome is None:
            return []
        if outcome.status == "unknown":
            return [Ruling(None, Violation(outcome.explanation, "a decided check", "undecided", "unverifiable"), "hidden")]
        return [Ruling(cite("2.2.1.b"), Violation(outcome.explanation, "an arrangement of the deck that gives the log",
                                                  "none exists", "inconsistent"), "hidden")]

    conflicts_met = staticmethod(TC.conflicts_met)
    """Clashes of effects in force, settled by the TTCG policy (:func:`spec.ttcg.conflicts.conflicts_met`)."""

    conflicts_stamp: ClassVar[str | None] = "in_force_stamp"
    """The verifier asks for conflicts only after an event that moved :attr:`TtcgState.in_force_stamp`
    (:func:`spec.ttcg.edits.in_force_edits` as :meth:`apply` left it): it moves with everything
    :func:`spec.ttcg.conflicts.change_stamp` holds, so that conflicts_met starts with the change key."""

    def _apply(self, state: TtcgState, ev: Any, kind: str) -> list[Ruling]:
        by = ev.by
        if by not in state.players:  # not a player, or nobody
            problem = actor_problem(kind, by, state.players, kind not in NO_ACTOR)
            if problem is not None:
                return problem
        facts = _FACTS.get(type(ev))
        if facts is None:
            facts = _FACTS[type(ev)] = _Facts(type(ev), kind)
        fields = facts.fields
        missing = self._unknown_card(state, ev, kind, fields) if fields else None
        if missing is not None:
            return [missing]
        if facts.names_piles:
            self._note_unslotted(state, ev, kind)
        claim = facts.claim
        if state.stage == "over" and not claim:
            return [Ruling(cite("2.2.8.c"), Violation("an event after the game was over", "no more events", kind))]
        if not claim:
            state.destroyed_mark = len(state.destroyed_log)
            state.spared_mark = len(state.spared)
        if state.resolution is not None and state.resolution.need is not None and not claim:
            return self._feed(state, ev, kind)
        hit = _first_broken(facts, state, ev)
        if hit is not None and kind != "pass" and not state.explicit_passes:
            snapshot: Snapshot | None = None
            progressed: Any = hit
            steps = 0
            while progressed is not None and self._can_advance(state) and steps < MAX_ADVANCES:
                steps += 1
                if snapshot is None:
                    snapshot = state.snapshot()
                self._advance(state)
                if state.resolution is not None and state.resolution.need is not None and not claim:
                    need = state.resolution.need
                    if self._answers(need, kind) or need.optional:
                        return self._feed(state, ev, kind)
                    break
                progressed = _first_broken(facts, state, ev)
            if progressed is None:
                hit = None
            elif snapshot is not None:
                snapshot.restore(state)
        if hit is not None:
            return self._refused(state, ev, kind, hit)
        return self._carry_out(state, ev, kind, facts)

    def _carry_out(self, state: TtcgState, ev: Any, kind: str, facts: _Facts) -> list[Ruling]:
        """Carry out a move found legal: its method ``facts.perform`` (``_do_<kind>``).

        The moves of a turn are called by name here: compiled, each is then a direct call, where
        ``facts.perform`` is called through Python's generic call. Any other kind is called through
        ``facts.perform``. (``tests/test_ttcg_speed.py`` holds each kind to its own method.)"""
        if kind == "play":
            self._do_play(state, ev)
            return []
        if kind == "activate":
            self._do_activate(state, ev)
            return []
        if kind == "attack":
            self._do_attack(state, ev)
            return []
        if kind == "draw":
            return self._do_draw(state, ev) or []
        if kind == "discard":
            self._do_discard(state, ev)
            return []
        perform = facts.perform
        return (perform(self, state, ev) if perform is not None else None) or []

    def _pass(self, state: TtcgState, ev: Any, facts: _Facts) -> list[Ruling]:
        """:meth:`_apply` for a pass by a player in a turn while no effect waits for an answer (most
        events), its steps written out: such a pass names no card, is no claim, and a broken check
        of a pass is reported without inferring passes first; a native call of :meth:`_do_pass`
        instead of the generic call of ``facts.perform``."""
        state.destroyed_mark = len(state.destroyed_log)
        state.spared_mark = len(state.spared)
        hit = _first_broken(facts, state, ev)
        if hit is not None:
            return self._refused(state, ev, "pass", hit)
        self._do_pass(state, ev)
        return []

    def _refused(self, state: TtcgState, ev: Any, kind: str, hit: tuple[Any, Violation]) -> list[Ruling]:
        """The ruling of a move that broke the check ``hit`` names, the move carried out as far as it
        physically can be (:meth:`_apply_anyway`, for ``--keep-going``)."""
        check, violation = hit
        self._apply_anyway(state, ev, kind)
        return [Ruling(check.rule, violation, check.name)]

    @staticmethod
    def _answers(need: Need, kind: str) -> bool:
        return need.kind == kind or (need.kind == "rank_up" and kind in ("play", "decline"))

    def _apply_anyway(self, state: TtcgState, ev: Any, kind: str) -> None:
        """Carry out an illegal move as far as it physically can be (for ``--keep-going``)."""
        if not self._probing:
            self.apply_anyway(state, ev, kind)

    def _unknown_card(self, state: TtcgState, ev: Any, kind: str, fields: tuple[str, ...]) -> Ruling | None:
        """A card the event names (among its ``fields``) that the database does not hold."""
        if fields == ("card",):  # one name, found typed already: the common case
            value = getattr(ev, "card", None)
            if value is None or (type(value) is str and value in B.typed_names(state)):
                return None
        names: list[str] = []
        for name in fields:  # (in the order of _NAMING: the card, the references, then the list of them)
            if name == "card":
                value = getattr(ev, "card", None)
                if isinstance(value, str):
                    names.append(value)
            elif name == "cards":
                names += [ref.card for ref in getattr(ev, "cards", [])]
            else:
                ref = getattr(ev, name, None)
                if ref is not None:
                    names.append(ref.card)
        typed = B.typed_names(state)
        for name in names:
            if name in typed:
                continue
            if name not in state.cards:
                if kind in ("draw", "mill"):
                    return None  # the card moves as a hidden card; reported below
                return Ruling(None, Violation(f"{name!r} is not in the card database {state.cards.name}", "a card the spec knows",
                                              name, "unverifiable"))
            B.check_type(state.cards[name])
            typed.add(name)
        return None

    # ------------------------------------------------------------------ set-up

    def _do_shuffle(self, state: TtcgState, ev: E.Shuffle) -> None:
        state.sides[ev.by or ""].shuffled = True

    @BOOK.encodes("2.2.2.a.p2", what="the official die: the first player of the header takes even faces, the second odd ones")
    def _do_roll(self, state: TtcgState, ev: E.Roll) -> None:
        state.first = state.players[0] if ev.die % 2 == 0 else state.players[1]
        self._maybe_start(state)

    @BOOK.encodes("2.2.2.a.p1", what="the player picked by chance takes the first turn")
    def _do_first(self, state: TtcgState, ev: E.First) -> None:
        state.first = ev.player
        self._maybe_start(state)

    # rules 2.2.2.b, 2.2.3.a.1, 2.2.2.c.p2 (noted after the class: _NOTED_APART)
    def _do_draw(self, state: TtcgState, ev: E.Draw) -> list[Ruling]:
        rulings = self.draw(state, ev.by or "", ev.card)
        if state.stage == "setup":
            state.sides[ev.by or ""].opening_draws += 1
            self._maybe_start(state)
        else:
            state.flags.drew = True
        return rulings

    def draw(self, state: TtcgState, player: str, name: str | None) -> list[Ruling]:
        """The top card of the deck goes to the hand; a name the deck cannot hold is inconsistent."""
        rulings, card = self._out_of_deck(state, player, name, f"drew {name}")
        state.sides[player].hand.add(card)
        return rulings

    def _out_of_deck(self, state: TtcgState, player: str, name: str | None, words: str) -> tuple[list[Ruling], CardObj]:
        """A card taken out of ``player``'s hidden deck (drawn, milled, revealed, or put on the field
        by a rank up, decision 32), named ``name`` by the log (``None``: not shown); a name the
        decklist cannot hold one more copy of is inconsistent (see :meth:`_reveal_from_deck`)."""
        rulings = self._reveal_from_deck(state, player, name, words)
        deck = state.sides[player].deck
        if deck.hidden > 0:
            deck.hidden -= 1
        known = name if name is not None and name in state.cards else None
        return rulings, state.new_card(known, player, state.cards.get(known) if known else None)

    # rules 2.2.1.b (noted after the class: _NOTED_APART)
    def _reveal_from_deck(self, state: TtcgState, player: str, name: str | None, words: str = "") -> list[Ruling]:
        side = state.sides[player]
        if name is None:
            return []
        if name not in state.cards:
            return [Ruling(None, Violation(f"{name!r} is not in the card database", "a known card", name, "unverifiable"))]
        rulings: list[Ruling] = []
        words = words or f"took {name} from the deck"
        if not side.knowledge.can_reveal(name):
            rulings.append(Ruling(cite("2.2.1.b"), Violation(X.too_many(state, player, name, words),
                                                              f"at most {side.knowledge.bound(name)} cop(ies)",
                                                              f"copy {side.knowledge.located[name] + 1}", "inconsistent"), "hidden"))
        side.knowledge.dated(state.seq).reveal(name, words)
        return rulings

    def _maybe_start(self, state: TtcgState) -> None:
        if state.stage != "setup" or state.first is None:
            return
        if all(s.opening_draws >= OPENING_HAND for s in state.sides.values()):
            state.stage = "turn"
            state.active = state.first
            state.turn = 0
            self._start_turn(state)

    # ------------------------------------------------------------------ moves

    def _do_pass(self, state: TtcgState, ev: E.Pass) -> None:
        by = ev.by or ""
        first, second = state.players
        if state.priority.pass_(by, second if by == first else first):  # the other player is due to act next
            self._advance(state)

    # rules 2.2.3.a.2.a, 2.2.6.c.p1, 2.2.6.c.p2, 2.2.5.i.4.b (noted after the class: _NOTED_APART)
    def _do_play(self, state: TtcgState, ev: E.Play) -> None:
        player = ev.by or ""
        if not self._probing:
            state.notes.extend(TC.play_notes(state, player, ev.card, ev.on))
        card = self.take_from_hand(state, player, ev.card)
        state.flags.plays += 1
        self._place(state, player, card, ev.on, ev.equip, by_effect=False)
        state.priority.act(player)
        self._drive(state)

    def _place(self, state: TtcgState, player: str, card: CardObj, on: E.Ref | None, equip: E.Ref | None, by_effect: bool) -> None:
        if on is not None:
            pile = B.find_pile(state, player, on.card, on.slot)
            if pile is None:
                pile = self.new_pile(state, player, card, by_effect)
                return
            old = pile.card
            reading = B.field_now(state)
            pile.under.append(old)
            pile.card = card
            if reading is not None:
                reading.levelled(state, player, pile, old)  # the field's reading follows the change instead of being read again
            pile.tapped = False  # 2.2.4.a; the card beneath counts as untapped (2.2.6.c.p2)
            pile.tapped_turn = -1
            pile.switched_on = MarkSet()  # (what setting a plain set makes of it)
            if pile.row == "magic":
                pile.equipped_to = None  # 2.2.5.i.4.b
            self._forget(state, old)
            state.flags.played += 1
            self.fire(state, "ranked_up", player, old)
            self.fire(state, "played", player, card)
            return
        pile = self.new_pile(state, player, card, by_effect)
        if equip is not None:
            target = B.find_pile(state, player, equip.card, equip.slot, "creature")
            pile.equipped_to = target.id if target is not None else None

    def new_pile(self, state: TtcgState, player: str, card: CardObj, by_effect: bool) -> Pile:
        """A new pile on ``player``'s field for ``card``, face up and untapped (2.2.4.a)."""
        pile = Pile(state.new_id(), card, "creature" if B.is_creature(card.defn) else "magic")
        side = state.sides[player]
        reading = B.field_now(state)
        (side.creatures if pile.row == "creature" else side.magic).append(pile)
        if reading is not None:
            reading.joined(state, player, pile)  # the field's reading follows the change instead of being read again
        state.flags.played += 1
        self.fire(state, "played", player, card)
        return pile

    def row_full(self, state: TtcgState, player: str, defn: CardDef | None) -> bool:
        return X.room_for(state, player, defn.name if defn is not None else "") is not None

    def take_from_hand(self, state: TtcgState, player: str, name: str) -> CardObj:
        side = state.sides[player]
        card = side.hand.find(name)
        if card is None:
            card = side.hand.unknown()
            if card is None:  # keep going after an illegal move: conjure the card
                card = state.new_card(name, player)
            else:
                side.hand.remove(card)
                side.knowledge.dated(state.seq).reveal(name, f"showed {name} from a hidden card of the hand", "hidden")
            card.name, card.defn = name, state.cards.get(name)
        else:
            side.hand.remove(card)
        return card

    def take_from(self, state: TtcgState, card: CardObj, zone: str) -> None:
        """Take ``card`` out of its owner's ``zone`` (deck, hand or discard pile)."""
        side = state.sides[card.owner]
        if zone == "deck":
            if side.deck.hidden > 0:
                side.deck.hidden -= 1
        elif zone == "hand":
            if card in side.hand.cards:
                side.hand.remove(card)
        elif zone == "discard pile" and card in side.discard.cards:
            side.discard.remove(card)
        elif zone == "revealed" and state.resolution is not None:
            vars = state.resolution.vars
            vars["revealed"] = tuple(c for c in vars.get("revealed", ()) if c.uid != card.uid)

    def give_up_effect(self, state: TtcgState, reason: str) -> NoReturn:
        """Stop the effect being carried out as the spec cannot follow it, and report ``reason``:
        unverifiable, never legal."""
        if state.resolution is not None:
            self._drop_effect(state, state.resolution)
        raise B.Unmodelled(reason)

    def _drop_effect(self, state: TtcgState, res: Resolution) -> None:
        """An effect the spec cannot follow further is dropped: the cards it turned up go back
        into the deck (so later draws still count the deck right), and nothing waits for it."""
        self.put_back_revealed(state, res)
        state.resolution = None
        state.paying = None

    def put_back_revealed(self, state: TtcgState, res: Resolution) -> None:
        """Decision 30: the cards an effect turned up and did not take go back into their
        owner's deck once it is done. Where in the deck is not said, and the spec does not
        keep the deck's order, so no later draw is held to them: they are hidden again."""
        for card in res.vars.pop("revealed", ()):
            side = state.sides[card.owner]
            side.deck.hidden += 1
            side.knowledge.dated(state.seq).conceal(card.name or "", f"put {card.name} back into the deck after revealing it")

    # rules 2.2.5.f.1, 2.2.5.g.1, 2.2.5.i.2, 2.2.5.i.6.p2 (noted after the class: _NOTED_APART)
    def _do_activate(self, state: TtcgState, ev: E.Activate) -> None:
        player = ev.by or ""
        pile = X.activated_pile(state, ev)
        found = X.effect_of(state, ev)
        if pile is None or found is None:
            return
        label, ability = found
        pile.tapped = True
        pile.tapped_turn = state.turn
        state.priority.act(player)
        if isinstance(ability, A.Passive):
            pile.switched_on.add(ev.effect)
            self._drive(state)
            return
        assert isinstance(ability, A.Activated)
        link = Link(player, pile.card, pile.id, ability.effect, ev.effect, "activated", label)
        # A cost that takes the card itself off the field does not leave its effect without a card (2.2.5.d.p2).
        link.leaves_field = any(isinstance(step, T.Destroy | T.DiscardCards) and step.what.quantifier == "this" for step in ability.cost)
        if ability.cost:
            state.paying = link
            state.resolution = Resolution(player, pile.card, [interpreter.Frame(ability.cost)], None)
        else:
            state.chain.append(link)
        self._drive(state)

    def _do_attack(self, state: TtcgState, ev: E.Attack) -> None:
        player = ev.by or ""
        pile = B.find_pile(state, player, ev.card, ev.slot, "creature")
        if pile is None:
            return
        target = None
        if ev.target is not None:
            target = B.find_pile(state, state.other(player), ev.target.card, ev.target.slot, "creature")
        state.battle = Battle(pile.id, player, target.id if target is not None else None)
        state.flags.attacked.add(pile.id)
        self.fire(state, "attacks", player, pile.card)
        if target is not None:
            self.fire(state, "attacked", player, target.card)
        state.priority.act(player)
        self._drive(state)

    # rules 2.2.10.b (noted after the class: _NOTED_APART)
    def _do_discard(self, state: TtcgState, ev: E.Discard) -> None:
        self.discard_from_hand(state, ev.by or "", ev.card or "")
        self._drive(state)

    def discard_from_hand(self, state: TtcgState, player: str, name: str) -> None:
        card = self.take_from_hand(state, player, name)
        state.sides[player].discard.add(card)
        state.flags.discarded += 1
        self.fire(state, "discarded", player, card)

    def _do_destroyed(self, state: TtcgState, ev: E.Destroyed) -> None:
        index = X.unclaimed_destruction(state, ev.owner, ev.card)
        if index is not None:
            state.destroyed_claimed = index + 1

    # ================================================================== feeding an effect

    def _feed(self, state: TtcgState, ev: Any, kind: str) -> list[Ruling]:
        res = state.resolution
        assert res is not None and res.need is not None
        need = res.need
        if need.kind == "rank_up":
            return self._feed_rank_up(state, ev, kind, need)
        if kind == need.kind and ev.by == need.player:
            violation = self._feed_violation(state, need, ev)
            if violation is not None:
                return [Ruling(need.rule, violation)]
            rulings = self._take_fed(state, need, ev) or []
            need.started = True
            need.count -= 1
            if kind == "choose" or need.count <= 0:
                if res.need is need:
                    res.need = None
                self._drive(state)
            return rulings
        return [Ruling(need.rule, Violation(f"the effect being carried out needs {self._describe(need)}", self._describe(need),
                                            f"{kind} by {ev.by}"))]

    @staticmethod
    def _describe(need: Need) -> str:
        if need.kind == "choose" and isinstance(need.detail, Choice):
            return f"a choice by {need.player} of {need.detail.describe()}"
        return need.describe()

    def _feed_rank_up(self, state: TtcgState, ev: Any, kind: str, need: Need) -> list[Ruling]:
        res = state.resolution
        assert res is not None
        if kind == "play" and ev.by == need.player:
            violation = self._rank_up_violation(state, need, ev)
            if violation is not None:
                return [Ruling(need.rule, violation)]
            rulings: list[Ruling] = []
            if need.detail[1].zone == "deck":  # decision 32: the card comes out of the deck
                rulings, card = self._out_of_deck(state, need.player, ev.card, f"ranked up with {ev.card} from the deck")
            else:
                card = self.take_from_hand(state, need.player, ev.card)
            self._place(state, need.player, card, ev.on, None, by_effect=True)
            res.need = None
            self._drive(state)
            return rulings
        res.need = None
        self._drive(state)
        if kind == "decline" and ev.by == need.player:
            return []
        return self._apply(state, ev, kind)

    def _rank_up_violation(self, state: TtcgState, need: Need, ev: E.Play) -> Violation | None:
        targets, using = need.detail
        problem = None if using.zone == "deck" else X.in_hand(state, need.player, ev.card)
        if problem is not None:
            return problem
        if ev.on is None or ev.equip is not None:
            return Violation("the rank up the effect allows names no card to go on", "a card on the player's field", "none")
        pile = B.find_pile(state, need.player, ev.on.card, ev.on.slot)
        if pile is None or pile.id not in targets:
            return Violation(f"{ev.on.card} is not a card the effect ranks up", "a card the effect names", ev.on.card)
        defn = state.cards.get(ev.card)
        probe = CardObj(-1, ev.card, need.player, defn)
        if not B.cards_match(state, probe, msgspec.structs.replace(using, controller=None, owner=None, zone=None), need.player):
            return Violation(f"{ev.card} is not of the kind the effect names", " or ".join(using.kinds) or "a card", ev.card)
        if B.printed_rank(defn) != B.rank(state, pile.card) + 1:
            return Violation(f"{ev.card} is rank {B.printed_rank(defn)}", f"rank {B.rank(state, pile.card) + 1}",
                             str(B.printed_rank(defn)))
        return X.forbidden_play(state, need.player, ev.card)  # decision 31

    def _feed_violation(self, state: TtcgState, need: Need, ev: Any) -> Violation | None:
        side = state.sides[need.player]
        if need.kind == "discard":
            if ev.card is None:
                return Violation("a discard that does not show the card", "the card's name", "null")
            problem = X.in_hand(state, need.player, ev.card)
            if problem is None and need.detail is not None:
                probe = CardObj(-1, ev.card, need.player, state.cards.get(ev.card))
                if not B.cards_match(state, probe, msgspec.structs.replace(need.detail, zone=None, controller=None, owner=None),
                                     need.player):
                    return Violation(f"{ev.card} is not what the effect asks for", " or ".join(need.detail.kinds), ev.card)
            return problem
        if need.kind in ("draw", "mill") and len(side.deck) == 0:
            return Violation("the deck is empty", "no more cards", "a card from it")
        if need.kind == "reveal" and ev.card is None:
            if need.detail == "look":  # only the player saw it: the log may not know it
                self.give_up_effect(state, "the log does not name a card the player looked at, so the pick among "
                                           "them cannot be checked")
            return Violation("a reveal that does not show the card", "the card's name (revealed cards are shown)", "null")
        if need.kind == "choose":
            return self._choice_violation(state, need.detail, ev.cards)
        return None

    def _choice_violation(self, state: TtcgState, choice: Choice, refs: list[E.Ref]) -> Violation | None:
        if not choice.low <= len(refs) <= choice.high:
            return Violation(f"{len(refs)} card(s) picked", choice.describe(), str(len(refs)))
        if choice.zone in ("deck", "hand"):
            seen: Counter[str] = Counter()
            for ref in refs:
                defn = state.cards.get(ref.card)
                probe = CardObj(-1, ref.card, choice.owners[0], defn)
                if not B.cards_match(state, probe, msgspec.structs.replace(choice.what, controller=None, owner=None), choice.controller):
                    return Violation(f"{ref.card} is not what the effect asks for", choice.describe(), ref.card)
                seen[ref.card] += 1
                owner = ref.owner or choice.owners[0]
                forbidden = X.forbidden_play(state, owner, ref.card, choice.describe()) if isinstance(choice.step, T.PlayCards) else None
                if forbidden is not None:  # decision 31
                    return forbidden
                if owner not in choice.owners:
                    return Violation(f"{ref.card} taken from {owner}'s {choice.zone}", choice.describe(), owner)
                if choice.zone == "hand":
                    problem = X.in_hand(state, owner, ref.card)
                    if problem is None and seen[ref.card] > sum(1 for c in state.sides[owner].hand if c.name == ref.card) + \
                            sum(1 for c in state.sides[owner].hand if c.name is None):
                        problem = Violation(f"{ref.card} picked more often than the hand holds it", "cards of the hand", ref.card)
                    if problem is not None:
                        return problem
                else:
                    knowledge = state.sides[owner].knowledge
                    bound = knowledge.bound(ref.card)
                    if bound is not None and knowledge.located[ref.card] + seen[ref.card] > bound:
                        return Violation(X.too_many(state, owner, ref.card, f"searched the deck for {choice.describe()} and "
                                                    f"took {ref.card}", seen[ref.card]),
                                         f"at most {bound} cop(ies)", ref.card, "inconsistent")
            return None
        pool = self.effects.candidates(state, choice)
        for ref in refs:
            match = self._match_ref(state, pool, ref, choice.zone)
            if match is None:
                return Violation(f"{ref.card} cannot be picked", choice.describe(), ref.card)
            pool.remove(match)
        return None

    def _match_ref(self, state: TtcgState, pool: list[CardObj], ref: E.Ref, zone: str) -> CardObj | None:
        if zone == "field" and ref.slot is not None:
            pile = B.find_pile(state, ref.owner, ref.card, ref.slot)
            return pile.card if pile is not None and pile.card in pool else None
        for card in pool:
            if card.name == ref.card and ref.owner in (None, card.owner):
                return card
        return None

    def _take_fed(self, state: TtcgState, need: Need, ev: Any) -> list[Ruling] | None:
        player = need.player
        side = state.sides[player]
        if need.kind == "draw":
            return self.draw(state, player, ev.card)
        if need.kind == "mill":
            rulings, card = self._out_of_deck(state, player, ev.card, f"milled {ev.card}")
            side.discard.add(card)
            return rulings
        if need.kind == "discard":
            self.discard_from_hand(state, player, ev.card)
            return None
        if need.kind == "reveal":
            rulings, card = self._out_of_deck(state, player, ev.card, f"revealed {ev.card}")
            res = state.resolution
            assert res is not None
            res.vars["revealed"] = (*res.vars.get("revealed", ()), card)
            return rulings
        if need.kind == "choose":
            choice: Choice = need.detail
            res = state.resolution
            assert res is not None
            cards = self._picked(state, choice, ev.cards)
            res.need = None
            follow = self.effects.apply_choice(state, res, choice.step, cards)
            if follow is not None:
                res.need = follow
            return None
        return None

    def _picked(self, state: TtcgState, choice: Choice, refs: list[E.Ref]) -> list[CardObj]:
        out: list[CardObj] = []
        if choice.zone == "deck":
            for ref in refs:
                owner = ref.owner or choice.owners[0]
                state.sides[owner].knowledge.dated(state.seq).reveal(ref.card, f"searched the deck for {choice.describe()} and took {ref.card}")
                out.append(state.new_card(ref.card, owner, state.cards.get(ref.card)))
            return out
        if choice.zone == "hand":
            for ref in refs:
                owner = ref.owner or choice.owners[0]
                card = self.take_from_hand(state, owner, ref.card)
                state.sides[owner].hand.add(card)  # it leaves the hand as the step says
                out.append(card)
            return out
        pool = self.effects.candidates(state, choice)
        for ref in refs:
            match = self._match_ref(state, pool, ref, choice.zone)
            if match is not None:
                pool.remove(match)
                out.append(match)
        return out

    # ================================================================== the chain, battle, phases

    def _can_advance(self, state: TtcgState) -> bool:
        """Whether both players may pass now (nothing compulsory is owed)."""
        return (state.stage == "turn" and not X.waiting_for_events(state) and not X.draw_due(state)
                and not X.discard_due(state))

    # rules 2.2.5.d.p1 (noted after the class: _NOTED_APART)
    def _advance(self, state: TtcgState) -> None:
        """What both players passing in succession does."""
        if state.chain:
            state.resolving = state.chain
            state.chain = []
            self._drive(state)
            return
        if state.battle is not None:
            self._resolve_battle(state)
            self._drive(state)
            state.priority.reset(state.active)
            return
        self._leave(state)

    # rules 2.2.5.d.p2, 2.2.5.c (noted after the class: _NOTED_APART)
    def _valid(self, state: TtcgState, link: Link) -> bool:
        if link.negated:
            return False
        if link.leaves_field or link.pile is None:
            return True
        pile = B.pile_by_id(state, link.pile)
        return pile is not None and pile.card.uid == link.source.uid

    def _drive(self, state: TtcgState) -> None:
        """Carry on with what is under way until the log must say something."""
        while True:
            if state.stage == "over":
                self._clear(state)
                return
            res = state.resolution
            if res is not None:
                if res.need is not None:
                    return
                try:
                    done = interpreter.run(self.effects, state, res)
                except (B.Unmodelled, UnsupportedStep) as error:
                    self._drop_effect(state, res)
                    source = getattr(res.source, "name", None)
                    if source is not None and source not in str(error):
                        raise B.Unmodelled(f"{source}: {error}") from None
                    raise
                if not done:
                    if state.stage == "over":
                        continue
                    return
                state.resolution = None
                if "revealed" in res.vars:
                    self.put_back_revealed(state, res)
                if res.item is None and state.paying is not None:
                    link, state.paying = state.paying, None
                    state.chain.append(link)
                elif res.item is not None and not state.resolving:
                    state.priority.reset(state.active)
                continue
            if state.resolving:
                link = state.resolving.pop()
                if self._valid(state, link):
                    state.resolution = Resolution(link.controller, link.source, [interpreter.Frame(link.effect)], link)
                else:
                    state.fizzled += 1
                    if not state.resolving:
                        state.priority.reset(state.active)
                continue
            if state.waiting and state.paying is None:
                state.chain.extend(state.waiting)
                state.waiting = []
            return

    def _clear(self, state: TtcgState) -> None:
        state.chain, state.resolving, state.waiting = [], [], []
        state.resolution, state.paying, state.battle = None, None, None

    # rules 2.2.7.e, 2.2.7.f, 2.2.7.g, 2.2.7.d, 2.2.8.d (noted after the class: _NOTED_APART)
    def _resolve_battle(self, state: TtcgState) -> None:
        battle = state.battle
        state.battle = None
        if battle is None:
            return
        attacker = B.pile_by_id(state, battle.attacker)
        if attacker is None:
            return
        opponent = state.other(battle.player)
        if battle.target is None:
            self.change_points(state, opponent, -B.rank(state, attacker.card))
            return
        defender = B.pile_by_id(state, battle.target)
        if defender is None:
            return
        strike = B.stat(state, attacker, "attack")
        guard = B.stat(state, defender, "defense")
        if strike > guard:
            self.destroy(state, defender, by="battle")
        elif guard > strike:
            self.destroy(state, attacker, by="battle")

    def _leave(self, state: TtcgState) -> None:
        if state.node == "end":
            self._end_turn(state)
            return
        self._enter(state, TURN.next(state.node))

    # rules 2.2.11.a, 2.2.11.b (noted after the class: _NOTED_APART)
    def _enter(self, state: TtcgState, node: str) -> None:
        state.node = node
        state.priority.reset(state.active)
        if node == "draw" and len(state.sides[state.active].deck) == 0 and state.turn != 1:
            self.change_points(state, state.active, -EXHAUSTION_LOSS)
        if node == "end":
            for delayed in [d for d in state.delayed if d.turn == state.turn]:
                state.waiting.append(Link(delayed.controller, delayed.source, None, delayed.effect, -1, "triggered",
                                          leaves_field=True))
            state.delayed = [d for d in state.delayed if d.turn != state.turn]
        self._drive(state)

    def _start_turn(self, state: TtcgState) -> None:
        state.turn += 1
        state.flags = type(state.flags)()
        state.lasting = [x for x in state.lasting if x.until_start is None or x.until_start > state.turn]
        force_changed()  # a new turn, flags and lasting results
        state.priority.reset(state.active)
        state.node = "draw"
        self.fire(state, "turn_begins", state.active, None)
        self._enter(state, "draw")

    def _end_turn(self, state: TtcgState) -> None:
        self._expire_turn_end(state)
        nxt = state.nonactive
        while state.sides[nxt].skips > 0:
            state.sides[nxt].skips -= 1
            state.turn += 1  # the skipped turn passes, durations with it
            state.lasting = [x for x in state.lasting if x.until_start is None or x.until_start > state.turn]
            force_changed()
            self._expire_turn_end(state)
            nxt = state.other(nxt)
        state.active = nxt
        self._start_turn(state)

    def _expire_turn_end(self, state: TtcgState) -> None:
        state.lasting = [x for x in state.lasting if x.until_end is None or x.until_end > state.turn]
        force_changed()

    def duration_bounds(self, state: TtcgState, controller: str, duration: A.Duration | None) -> tuple[int | None, int | None]:
        """(turn it ends as it begins, turn it ends as it ends) for an effect's duration."""
        if duration is None or duration.until == "permanent":
            return None, None
        mine = 2 if controller == state.active else 1
        until = duration.until
        if until == "end_of_turn":
            return None, state.turn
        if until == "your_next_turn":
            return state.turn + mine, None
        if until == "end_of_your_next_turn":
            return None, state.turn + mine
        if until == "next_turn":
            return None, state.turn + 1
        if until.startswith("next_") and until.endswith("_turns"):
            return None, state.turn + int(until.split("_")[1])
        raise B.Unmodelled(f"the duration {until!r} is not modelled")

    # ================================================================== leaving the field, points

    # rules 2.1.r, 2.2.5.i.4.a, 2.2.8.c, 2.2.8.b, 2.2.6.d (noted after the class: _NOTED_APART)
    def destroy(self, state: TtcgState, pile: Pile, by: str, cause: CardObj | None = None, with_creature: bool = False) -> bool:
        """Destroy the pile whose top is ``pile.card`` (unless it cannot be destroyed); True if it was.

        A card an effect in force says cannot be destroyed is judged by the policy
        (spec.ttcg.conflicts.judge_destroy: 2.1.aj settles it); the clash is noted.
        """
        top = pile.card
        owner = B.owner_of_pile(state, pile.id) or top.owner
        if B.indestructible(state, top, by):
            destroyed, rulings = TC.judge_destroy(state, owner, top, by, cause, with_creature)
            state.notes.extend(rulings)
            if not destroyed:
                if not any(r.violation.severity == "unverifiable" for r in rulings):
                    why = rulings[0].violation.message if rulings else "an effect says it cannot be destroyed"
                    state.spared.append((owner, top.name or "", why))
                return False
        self._no_replacement(state, owner, pile)
        level = B.rank(state, top)
        was_tapped = pile.tapped
        equips = [p for _o, p in B.piles(state) if p.equipped_to == pile.id]
        self._remove(state, owner, pile)
        state.destroyed_log.append((owner, top.name or ""))
        state.flags.destroyed += 1
        if pile.row == "creature":
            self.change_points(state, owner, -level)
        self.fire(state, "destroyed", owner, top, leaving=(not was_tapped))
        for equip in equips:
            if state.stage == "over":
                break
            if B.pile_by_id(state, equip.id) is not None:
                self.destroy(state, equip, by, with_creature=True)
        return True

    def _no_replacement(self, state: TtcgState, owner: str, pile: Pile) -> None:
        if pile.card.name is None:
            return
        for index, (label, ability) in enumerate(B.effects_of(state, pile.card.name)):
            if isinstance(ability, A.Replacement) and B.in_force(state, owner, pile, pile.card, index, label, ability):
                raise B.Unmodelled(f"{pile.card.name}: replacing a destruction ('instead') is not modelled")

    def discard_pile(self, state: TtcgState, pile: Pile) -> None:
        """A card discarded from the field takes its pile with it (no points, not destroyed)."""
        owner = B.owner_of_pile(state, pile.id) or pile.card.owner
        was_tapped = pile.tapped
        self._remove(state, owner, pile)
        state.flags.discarded += 1
        self.fire(state, "discarded", owner, pile.card, leaving=(not was_tapped))

    def _remove(self, state: TtcgState, owner: str, pile: Pile) -> None:
        side = state.sides[owner]
        row = side.creatures if pile.row == "creature" else side.magic
        if pile in row:
            reading = B.field_now(state)
            row.remove(pile)
            if reading is not None:
                reading.left(state, owner, pile)  # the field's reading follows the change instead of being read again
        else:
            for other in list(row):
                if other.id == pile.id:
                    row.remove(other)
        for card in [*pile.under, pile.card]:
            state.sides[card.owner].discard.add(card)
            self._forget(state, card)
        if state.battle is not None and pile.id in (state.battle.attacker, state.battle.target):
            pass  # the battle finds the pile gone and does nothing

    def _forget(self, state: TtcgState, card: CardObj) -> None:
        """Changes that applied to a card end when it leaves its place (it is a new object elsewhere)."""
        for lasting in state.lasting:
            if lasting.uids is not None and card.uid in lasting.uids:
                lasting.uids = tuple(u for u in lasting.uids if u != card.uid)
        state.lasting = [x for x in state.lasting if x.uids != () or x.kind == "prohibit"]
        force_changed()

    def change_points(self, state: TtcgState, player: str, delta: int) -> None:
        """Add ``delta`` points to ``player``; the game ends when a player has none left (docs/ttcg-decisions.rst)."""
        state.sides[player].points += delta
        low = [p for p in state.players if state.sides[p].points <= 0]
        if low and state.stage == "turn":
            state.stage = "over"
            state.winner = state.other(low[0]) if len(low) == 1 else None

    # ================================================================== triggers

    # rules 2.2.5.h.1, 2.2.5.h.3, 2.2.5.i.5, 2.2.5.i.7, 2.2.5.e (noted after the class: _NOTED_APART)
    def fire(self, state: TtcgState, event: str, actor: str, card: CardObj | None, leaving: bool | None = None) -> None:
        """Set off the triggers ``event`` (happening to ``card``, by or to ``actor``) matches."""
        found_on_field = B.watching(state, event)
        if found_on_field is None:
            self._fire_pile_by_pile(state, event, actor, card)
        else:
            for owner, pile, top, found in found_on_field:
                for index, label, ability in found:
                    if self._matches(state, owner, top, ability.trigger, event, actor, card):
                        self._set_off(state, owner, pile, top, index, label, ability)
        if leaving is not None and card is not None and card.name is not None:
            for index, label, ability in B.triggers(state, card.name, event):
                subject = ability.trigger.subject
                if subject is None or subject.quantifier != "this":
                    continue  # 2.2.5.h.3: the card's other effects do not answer its own departure
                B.defined(label, card.name)
                if label != "passive" and not leaving:
                    continue  # 2.2.5.h.1: it was tapped
                state.waiting.append(Link(card.owner, card, None, ability.effect, index, "triggered", label, leaves_field=True))

    def _fire_pile_by_pile(self, state: TtcgState, event: str, actor: str, card: CardObj | None) -> None:
        """The field's part of :meth:`fire`, read pile by pile (when a card's text cannot be read)."""
        watching = B.trigger_table(state)
        for owner in B.players_in_order(state):
            side = state.sides[owner]
            for pile in side.creatures + side.magic:
                top = pile.card
                name = top.name
                if name is None:
                    continue
                found = watching.get((name, event))
                if found is None:
                    found = B.triggers(state, name, event)
                for index, label, ability in found:
                    if self._matches(state, owner, top, ability.trigger, event, actor, card):
                        self._set_off(state, owner, pile, top, index, label, ability)

    def _set_off(self, state: TtcgState, owner: str, pile: Pile, top: CardObj, index: int, label: str, ability: A.Triggered) -> None:
        B.defined(label, top.name or "")
        if label not in ("normal", "latent", "passive"):
            raise B.Unmodelled(f"{top.name}: a {label} effect with a trigger is not modelled")
        if label != "passive":
            if pile.tapped:
                return  # 2.2.5.e, 2.2.5.i.5: a tapped card's trigger does not go off
            pile.tapped = True  # 2.2.5.f.1, 2.2.5.g.1: going off is being used
            pile.tapped_turn = state.turn
        state.waiting.append(Link(owner, top, pile.id, ability.effect, index, "triggered", label))

    def _matches(self, state: TtcgState, owner: str, source: CardObj, trig: A.Trigger, event: str, actor: str,
                 card: CardObj | None) -> bool:
        if trig.event != event:
            return False
        if event in ("turn_begins",):
            return trig.who is None or actor in B.whose(state, owner, trig.who)
        if trig.who is not None and actor not in B.whose(state, owner, trig.who):
            return False
        if card is None:
            return trig.subject is None
        if trig.subject is not None and trig.subject.quantifier == "this":
            return card.uid == source.uid
        subject = trig.subject
        if event in ("destroyed", "discarded", "sent_to_discard"):
            if card.uid == source.uid:
                return False
            if subject is not None and subject.zone == "field":
                subject = msgspec.structs.replace(subject, zone=None)  # it was on the field: it has just left
        return B.selector_match(state, card, subject, owner, source)

    # ================================================================== simulation hooks

    def unsupported(self, cards: Any, name: str) -> str | None:
        """Which effect of a card the spec cannot run, and why (``None``: it runs them all)."""
        try:
            effects = B.effects_in(cards, name)
        except B.Unmodelled as error:
            return str(error)
        for label, ability in effects:
            if label not in B.DEFINED_LABELS:
                return f"its {label.capitalize()} effect is of a type the rulebook does not define (2.2.5.i)"
            if isinstance(ability, A.Passive):
                for step in ability.effect:
                    if not isinstance(step, B.STATIC_STEPS):
                        return f"the step {type(step).__name__} as an always-on effect is not modelled"
                    if isinstance(step, T.RankUp) and (step.using.zone or "hand") != "hand":
                        return f"an always-on permission to rank up with a card from the {step.using.zone} is not modelled"
            if isinstance(ability, A.Replacement):
                return "replacing a destruction ('instead') is not modelled"
            for node in A.nodes(ability):
                gap = unhandled(self.effects, node) or step_gap(node)
                if gap is not None:
                    return gap
                if isinstance(node, A.Trigger) and node.event not in ("destroyed", "discarded", "played", "attacks",
                                                                      "attacked", "turn_begins"):
                    return f"a trigger on {node.event!r} is not modelled"
        return None

    def random_deck(self, cards: Any, rng: random.Random) -> dict[str, Any]:
        """A random registered decklist within the construction rules (2.2.1): 50 to 70 cards, two copies at most.

        Two copies of each rank 1 card go in first (so a hand can start a board), as many as fit.
        """
        names = sorted(c.name for c in cards if (B.is_creature(c) or B.is_magic(c)) and self.supported(cards, c.name))
        low = [n for n in names if B.printed_rank(cards[n]) == 1]
        high = [n for n in names if n not in low]
        if 2 * len(names) < DECK_SIZE[0]:
            raise DeckError(f"{len(names)} cards the spec models, two copies each ({cite('2.2.1.b')}), make fewer than "
                            f"{DECK_SIZE[0]} ({cite('2.2.1.a')})")
        target = rng.randint(DECK_SIZE[0], min(DECK_SIZE[1], 2 * len(names)))
        if 2 * len(low) > target:  # a pool rich in rank 1 cards: as many of them as the deck holds
            low = sorted(rng.sample(low, target // 2))
        deck: dict[str, int] = {n: 2 for n in low}
        rng.shuffle(high)
        for name in high:
            if sum(deck.values()) >= target:
                break
            deck[name] = min(2, target - sum(deck.values()))
        return {"deck": dict(sorted(deck.items()))}

    def facts(self, state: TtcgState) -> tuple[int, tuple[int, ...], str]:
        return len(state.destroyed_log), tuple(state.sides[p].points for p in state.players), state.stage

    def claims_since(self, state: TtcgState, before: tuple[int, tuple[int, ...], str]) -> list[dict[str, Any]]:
        """Destroyed, points and game claims for what was derived since ``before``."""
        out: list[dict[str, Any]] = []
        destroyed, points, stage = before
        for owner, name in state.destroyed_log[destroyed:]:
            out.append({"do": "destroyed", "card": name, "owner": owner})
        for player, old in zip(state.players, points, strict=True):
            if state.sides[player].points != old:
                out.append({"do": "points", "player": player, "points": state.sides[player].points})
        if state.stage == "over" and stage != "over":
            out.append({"do": "game", "winner": state.winner})
        return out

    # ================================================================== end of log, views, copies

    def finish(self, state: TtcgState) -> list[Ruling]:
        """At the end of a log with inferred passes, the players pass until an event is needed."""
        rulings: list[Ruling] = []
        if not state.explicit_passes:
            try:
                steps = 0
                while self._can_advance(state) and steps < MAX_ADVANCES and not (state.node == "draw" and not state.chain):
                    steps += 1
                    self._advance(state)
            except (B.Unmodelled, UnsupportedStep) as error:
                rulings.append(Ruling(None, Violation(str(error), severity="unverifiable")))
        if state.resolution is not None and state.resolution.need is not None and not state.resolution.need.optional:
            need = state.resolution.need
            rulings.append(Ruling(need.rule, Violation("the log ends while an effect still needs events", self._describe(need),
                                                       "end of log", "info")))
        return rulings

    def view(self, state: TtcgState) -> dict[str, Any]:
        sides = {}
        for player in state.players:
            side = state.sides[player]
            sides[player] = {
                "points": side.points, "hand": len(side.hand), "deck": len(side.deck), "discard": len(side.discard),
                "creatures": [self._pile_view(state, p) for p in side.creatures],
                "magic": [self._pile_view(state, p) for p in side.magic],
            }
        return {"stage": state.stage, "turn": state.turn, "active": state.active, "phase": state.node,
                "chain": [link.source.name for link in state.chain],
                "battle": None if state.battle is None else {"attacker": state.battle.attacker, "target": state.battle.target},
                "players": sides}

    def _pile_view(self, state: TtcgState, pile: Pile) -> dict[str, Any]:
        out: dict[str, Any] = {"card": pile.card.name, "tapped": pile.tapped}
        try:
            out["rank"] = B.rank(state, pile.card)
            if pile.row == "creature":
                out["attack"] = B.stat(state, pile, "attack")
                out["defense"] = B.stat(state, pile, "defense")
        except B.Unmodelled:  # a card on the field whose text the spec cannot read: show what is printed
            defn = pile.card.defn
            out["rank"] = B.printed_rank(defn)
            if pile.row == "creature" and defn is not None:
                out["attack"], out["defense"] = defn.stat("attack"), defn.stat("defense")
        if pile.under:
            out["under"] = [c.name for c in pile.under]
        if pile.equipped_to is not None:
            out["equipped_to"] = pile.equipped_to
        return out

    def resources(self, state: TtcgState) -> dict[str, dict[str, int]]:
        """Per player: points, hand and deck sizes, creatures and magic cards on the field."""
        return {p: {"points": s.points, "hand": len(s.hand), "deck": len(s.deck), "creatures": len(s.creatures),
                    "magic": len(s.magic)} for p, s in state.sides.items()}

    def copy(self, state: TtcgState) -> TtcgState:
        return state.copy()

    # ================================================================== legal moves

    def legal_moves(self, state: TtcgState, rng: random.Random | None = None) -> list[Event]:
        """Every move the rules allow now; chance events are sampled (with ``rng``) or represented."""
        candidates = self._candidates(state, rng or random.Random(0))
        legal = []
        self._probing = True
        try:
            for move in candidates:
                trial = state.copy()
                rulings = self.apply(trial, move)
                if not any(r.violation.severity in ("illegal", "inconsistent", "malformed", "unverifiable") for r in rulings):
                    legal.append(move)
        finally:
            self._probing = False
        return legal

    def _candidates(self, state: TtcgState, rng: random.Random) -> list[Event]:
        out: list[Event] = []
        if state.stage == "over":
            return out
        res = state.resolution
        if res is not None and res.need is not None:
            out.extend(self._need_candidates(state, res.need, rng))
            if res.need.optional:
                out.append(E.Decline(0, res.need.player))
            return out
        if state.stage == "setup":
            out.append(E.Roll(0, None, rng.randint(1, 6)))
            out.extend(E.First(0, None, p) for p in state.players)
            for player in state.players:
                out.append(E.Shuffle(0, player))
                out.extend(E.Draw(0, player, n) for n in self._drawable(state, player, rng))
            return out
        for player in state.players:
            side = state.sides[player]
            out.append(E.Pass(0, player))
            if player == state.active:
                out.extend(E.Draw(0, player, n) for n in self._drawable(state, player, rng))
                for name in self._hand_names(state, player):
                    out.append(E.Discard(0, player, name))
                    out.extend(self._play_candidates(state, player, name))
                for pile in side.creatures:
                    ref = E.Ref(pile.card.name or "", None, B.slot_of(state, player, pile))
                    foes = state.sides[state.other(player)].creatures
                    targets: list[E.Ref | None] = [E.Ref(p.card.name or "", state.other(player), B.slot_of(state, state.other(player), p))
                                                   for p in foes]
                    for target in targets or [None]:
                        out.append(E.Attack(0, player, ref.card, ref.slot, target))
            for pile in side.piles():
                if pile.card.name is None:
                    continue
                slot = B.slot_of(state, player, pile)
                for index in range(len(B.effects_of(state, pile.card.name))):
                    out.append(E.Activate(0, player, pile.card.name, index, slot))
        return out

    def _play_candidates(self, state: TtcgState, player: str, name: str) -> list[Event]:
        out: list[Event] = []
        defn = state.cards[name]
        side = state.sides[player]
        if B.printed_rank(defn) == 1:
            out.append(E.Play(0, player, name))
            if B.is_magic(defn) and X.has_equip_effect(state, name):
                for pile in side.creatures:
                    out.append(E.Play(0, player, name, None, E.Ref(pile.card.name or "", None, B.slot_of(state, player, pile))))
        for pile in side.piles():
            if B.rank(state, pile.card) + 1 == B.printed_rank(defn):
                out.append(E.Play(0, player, name, E.Ref(pile.card.name or "", None, B.slot_of(state, player, pile))))
        return out

    def _hand_names(self, state: TtcgState, player: str) -> list[str]:
        """The names a card of the hand can have (a card the log kept hidden: any the deck can still give)."""
        side = state.sides[player]
        return side.knowledge.names_in(side.hand, state.cards)

    def _drawable(self, state: TtcgState, player: str, rng: random.Random) -> list[str | None]:
        """The names the top card of a registered deck can have (one ``None`` when unregistered)."""
        knowledge = state.sides[player].knowledge
        if knowledge.registered is None:
            return [None]
        names = sorted(n for n, k in knowledge.registered.items() if k > knowledge.located[n])
        return list(names) if names else [None]

    def _revealable(self, state: TtcgState, player: str) -> list[str]:
        """The names the top card of a deck can have when an effect turns it up (it is named)."""
        knowledge = state.sides[player].knowledge
        return sorted(d.name for d in state.cards if knowledge.can_reveal(d.name))

    def _need_candidates(self, state: TtcgState, need: Need, rng: random.Random) -> list[Event]:
        p = need.player
        side = state.sides[p]
        if need.kind == "draw":
            return [E.Draw(0, p, n) for n in self._drawable(state, p, rng)]
        if need.kind == "mill":
            return [E.Mill(0, p, n) for n in self._drawable(state, p, rng)]
        if need.kind == "reveal":
            return [E.Reveal(0, p, n) for n in self._revealable(state, p)]
        if need.kind == "shuffle":
            return [E.Shuffle(0, p)]
        if need.kind == "discard":
            return [E.Discard(0, p, n) for n in self._hand_names(state, p)]
        if need.kind == "rank_up":
            targets, using = need.detail
            names = self._revealable(state, p) if using.zone == "deck" else self._hand_names(state, p)
            out: list[Event] = []
            for pile in side.piles():
                if pile.id in targets:
                    for name in names:
                        out.append(E.Play(0, p, name, E.Ref(pile.card.name or "", None, B.slot_of(state, p, pile))))
            return out
        if need.kind == "choose":
            return [E.Choose(0, p, refs) for refs in self._choice_options(state, need.detail, rng)]
        return []

    def _choice_options(self, state: TtcgState, choice: Choice, rng: random.Random) -> list[list[E.Ref]]:
        if choice.zone == "deck":
            owner = choice.owners[0]
            knowledge = state.sides[owner].knowledge
            names = [n for n, k in (knowledge.registered or {}).items() for _ in range(k - knowledge.located[n])]
            fits = sorted({n for n in names if B.cards_match(state, CardObj(-1, n, owner, state.cards.get(n)),
                                                             msgspec.structs.replace(choice.what, controller=None, owner=None),
                                                             choice.controller)})
            options: list[list[E.Ref]] = [[]] if choice.low == 0 else []
            options += [[E.Ref(n)] for n in fits]
            return options
        if choice.zone == "hand":
            owner = choice.owners[0]
            what = msgspec.structs.replace(choice.what, controller=None, owner=None)
            fits = [n for n in self._hand_names(state, owner)  # (a card the log kept hidden may be any the deck can give)
                    if B.cards_match(state, CardObj(-1, n, owner, state.cards.get(n)), what, choice.controller)]
            options = [[]] if choice.low == 0 else []
            options += [[E.Ref(n)] for n in fits]
            return options
        refs = self._pool_refs(state, choice)
        options = []
        for size in sorted({choice.low, choice.high}):
            if size == 0:
                options.append([])
                continue
            for _ in range(3):
                options.append(rng.sample(refs, size) if len(refs) >= size else list(refs))
        return options

    def _pool_refs(self, state: TtcgState, choice: Choice) -> list[E.Ref]:
        """How a ``choose`` event names each card a choice among cards outside a hand or deck may pick."""
        refs = []
        for card in self.effects.candidates(state, choice):
            owner = card.owner
            pile = B.pile_of(state, card.uid)
            slot = B.slot_of(state, owner, pile) if pile is not None else None
            refs.append(E.Ref(card.name or "", owner, slot))
        return refs

    def offers(self, state: TtcgState, event: Event) -> bool:
        """Whether :meth:`legal_moves` offers ``event``, or would if it listed every pick.

        Among cards outside a hand or deck, legal_moves samples a few picks of the least and
        the most cards (every subset would be too many). A ``choose`` there is offered when
        it could be such a pick of any size between: distinct cards of the pool legal_moves
        draws from (all of them when fewer than the least), judged legal as legal_moves judges
        its moves.

        A card on the field named without its ``slot`` where its player has two piles of that
        name is read as the verifier reads it, the first of them (docs/ttcg-decisions, 29):
        legal_moves names that pile with its slot.

        While an optional part of an effect waits (a rank up it allows), an event that does not
        take it up lets it go, as a ``decline`` would (``Need.optional``): such an event is
        offered when legal_moves offers it once the ``decline`` is made.
        """
        res = state.resolution
        need = res.need if res is not None else None
        if need is not None and need.optional and type(event) is not E.Decline \
                and not (type(event) is E.Play and event.by == need.player):
            after = state.copy()
            self.apply(after, E.Decline(event.seq, need.player))
            return self.offers(after, event)
        if type(event) is E.Choose:
            res = state.resolution
            need = res.need if res is not None else None
            if (need is not None and need.kind == "choose" and need.player == event.by and isinstance(need.detail, Choice)
                    and need.detail.zone not in ("deck", "hand")):
                return self._could_pick(state, need.detail, event)
        if super().offers(state, event):
            return True
        slotted = self._slotted(state, event)
        return slotted is not event and super().offers(state, slotted)

    def _slotted(self, state: TtcgState, event: Event) -> Event:
        """``event`` with each card on the field it names without a slot given the slot of the
        pile the verifier takes for it, when that name is shared (the event itself otherwise)."""
        kind = str(event.__struct_config__.tag)
        if kind not in _NAMES_PILES:
            return event
        changes: dict[str, Any] = {}
        for field, owner, row, name in _unslotted(state, event, kind):
            shared = B.first_of_shared(state, owner, name, row)
            if shared is not None:
                slot = shared[1]
                changes[field] = slot if field == "slot" else msgspec.structs.replace(getattr(event, field), slot=slot)
        return msgspec.structs.replace(event, **changes) if changes else event

    @staticmethod
    def _note_unslotted(state: TtcgState, ev: Any, kind: str) -> None:
        """Decision 29: a move that names a card on the field by a name two piles of its row
        share, without a slot, is read as naming the first of them; a judge is told so (an
        ``info`` note citing the rule for which the pile matters, :data:`_UNSLOTTED_RULE`),
        as the log does not say."""
        for field, owner, row, name in _unslotted(state, ev, kind):
            _note_shared(state, kind, field, owner, name, row)

    def _could_pick(self, state: TtcgState, choice: Choice, event: E.Choose) -> bool:
        """Whether ``event`` is a pick legal_moves could list for ``choice`` (see :meth:`offers`)."""
        pool = self._pool_refs(state, choice)
        picked = list(event.cards)
        size = len(picked)
        if not (choice.low <= size <= choice.high or size == len(pool) < choice.low):
            return False
        for ref in picked:
            if ref not in pool:
                return False
            pool.remove(ref)
        trial = state.copy()
        self._probing = True
        try:
            rulings = self.apply(trial, event)
        finally:
            self._probing = False
        return not any(r.violation.severity in ("illegal", "inconsistent", "malformed", "unverifiable") for r in rulings)


# The rules these methods of Ttcg encode, noted here rather than by ``@BOOK.encodes`` on each: compiled, a
# decorated method is the attribute its decorator returned, so each call of it is looked up and made through
# Python's generic call, and these run on nearly every event (a pass, a phase, a battle, a trigger). In the
# order of the methods, as their decorators noted them.
# Ttcg._do_draw
BOOK.note("2.2.2.b", "2.2.3.a.1", "2.2.2.c.p2", what="a draw moves the top card of the deck to the hand; "
          "the game starts once both hands hold seven cards, with no draw in the first turn")
# Ttcg._reveal_from_deck
BOOK.note("2.2.1.b", what="every card the log shows leaving a deck is counted against the registered decklist "
          "(or the two copies of 2.2.1.b); one copy too many is inconsistent, explained from the journal")
# Ttcg._do_play
BOOK.note("2.2.3.a.2.a", "2.2.6.c.p1", "2.2.6.c.p2", "2.2.5.i.4.b",
          what="a play from the hand is counted; a level up puts the card on top, the cards beneath untapped")
# Ttcg._do_activate
BOOK.note("2.2.5.f.1", "2.2.5.g.1", "2.2.5.i.2", "2.2.5.i.6.p2",
          what="using an effect taps its card (a Dormant effect taps it anew) and puts the effect on the chain; "
          "a Continuous effect stays in force from then on")
# Ttcg._do_discard
BOOK.note("2.2.10.b", what="discarding at the end of the turn moves the card from the hand to the discard pile")
# Ttcg._advance
BOOK.note("2.2.5.d.p1", what="both players passing resolves the chain, last in first out, then a declared battle, "
          "and otherwise ends the phase")
# Ttcg._valid
BOOK.note("2.2.5.d.p2", "2.2.5.c", what="an effect whose card left the field, or that was countered, does nothing; "
          "its card stays tapped, as used")
# Ttcg._resolve_battle
BOOK.note("2.2.7.e", "2.2.7.f", "2.2.7.g", "2.2.7.d", "2.2.8.d",
          what="battle: attack against defense, the weaker creature destroyed; a direct attack costs the attacker's level")
# Ttcg._enter
BOOK.note("2.2.11.a", "2.2.11.b", what="a Draw Phase begun with an empty deck costs five points instead of the draw")
# Ttcg.destroy
BOOK.note("2.1.r", "2.2.5.i.4.a", "2.2.8.c", "2.2.8.b", "2.2.6.d",
          what="destroying sends the pile to the discard pile; its owner loses the creature's level in points; "
          "the equipment attached to it is destroyed too")
# Ttcg.fire
BOOK.note("2.2.5.h.1", "2.2.5.h.3", "2.2.5.i.5", "2.2.5.i.7", "2.2.5.e",
          what="triggers: a Latent or unlabelled trigger needs its card untapped and taps it, a Passive one does not; "
          "a card leaving the field sets off only its own 'this card' triggers, and only if it was untapped")

_NOTED_APART: Final = ("_do_draw", "_reveal_from_deck", "_do_play", "_do_activate", "_do_discard", "_advance", "_valid",
                       "_resolve_battle", "_enter", "destroy", "fire")
"""The methods of :class:`Ttcg` whose rules are noted above, not by a decorator (held by a test)."""

_NAMES_PILES: Final = frozenset({"play", "activate", "attack"})
"""The moves that name piles on the field by :class:`~spec.ttcg.events.Ref` or by a card and a slot."""

_UNSLOTTED_RULE: Final = {"on": "2.2.6.b", "equip": "2.2.5.i.4", "slot": "2.2.7.b", "target": "2.2.7.c"}
"""For a pile named without its slot, by the field of the move that names it
(:func:`_unslotted`): the rule for which the pile matters, that the note of decision 29
cites. A rank up goes on that pile (2.2.6.b), an equip card is attached to it (2.2.5.i.4),
each creature attacks once (2.2.7.b) and an attack's target is that creature (2.2.7.c).
An activated pile is tapped (2.2.5.f.1 for a creature, 2.2.5.g.1 for a magic card)."""


def _unslotted(state: TtcgState, ev: Any, kind: str) -> list[tuple[str, str, str | None, str]]:
    """(field, owner, row, name) of each pile on the field a move of :data:`_NAMES_PILES` names
    without a slot: the pile ``on`` of a play and its ``equip`` creature; an activated pile or an
    attacker (the event's card, whose slot is the field ``slot``); the ``target`` of an attack,
    on the opponent's side. ``row`` is the row :func:`spec.ttcg.board.find_pile` looks in
    (``None``: the creatures, then the magic cards)."""
    by = ev.by
    if by not in state.sides:
        return []
    out: list[tuple[str, str, str | None, str]] = []
    if kind == "play":
        on, equip = ev.on, ev.equip
        if on is not None and on.slot is None:
            out.append(("on", by, None, on.card))
        if equip is not None and equip.slot is None:
            out.append(("equip", by, "creature", equip.card))
    elif kind == "activate":
        if ev.slot is None:
            out.append(("slot", by, None, ev.card))
    elif kind == "attack":
        if ev.slot is None:
            out.append(("slot", by, "creature", ev.card))
        target = ev.target
        if target is not None and target.slot is None:
            out.append(("target", state.other(by), "creature", target.card))
    return out


def _note_shared(state: TtcgState, kind: str, field: str, owner: str, name: str, row: str | None) -> None:
    """The note of decision 29 (:meth:`Ttcg._note_unslotted`) when ``owner`` has two piles
    named ``name`` in ``row`` (``None``: the row it is in); ``field`` names the pile in the
    move (:func:`_unslotted`)."""
    shared = B.first_of_shared(state, owner, name, row)
    if shared is None:
        return
    found_row, slot = shared
    if kind == "activate":  # the card activated is tapped, by the rule of its row
        rule = "2.2.5.f.1" if found_row == "creature" else "2.2.5.g.1"
    else:
        rule = _UNSLOTTED_RULE[field]
    note = Ruling(cite(rule), Violation(
        f"{owner} has more than one {name} on the field and the {kind} names none by its slot: "
        f"the first, slot {slot}, is taken (decision 29)",
        "a slot where two piles share the name", f"{name} without a slot", "info"), "unslotted")
    if note not in state.notes:  # (a move an optional rank up let go is read again)
        state.notes.append(note)


_NAMING = ("card", "on", "equip", "target", "cards")
"""The fields of an event that name cards of the database: a name, references, a list of references."""


class _Facts:
    """What :meth:`Ttcg._apply` needs to know of one type of event, worked out once per type: which
    of :data:`_NAMING` it has, whether it is a claim, its action (the checks), the checks that can
    fail in each place the game can stand in (:meth:`spec.core.rules.Action.checks_where`; for an
    activate move, asked per move: :func:`spec.ttcg.actions.activate_checks`) and the method that
    carries it out (``Ttcg._do_<kind>``, if there is one)."""

    __slots__ = ("action", "by_place", "claim", "fields", "kind", "names_piles", "per_move", "perform", "plain_pass")

    def __init__(self, cls: type, kind: str) -> None:
        self.kind = kind
        self.fields = _card_fields(cls)
        self.claim = E.KINDS[kind] == "claim"
        self.names_piles = kind in _NAMES_PILES
        """A move that may name a pile on the field without its slot (:meth:`Ttcg._note_unslotted`)."""
        self.plain_pass = kind == "pass" and not self.fields and not self.claim
        """A pass naming no card and no claim: :meth:`Ttcg.apply` takes it by :meth:`Ttcg._pass` where it can."""
        self.action = BOOK.actions[kind]
        self.by_place = {place: self.action.checks_where(place=place) for place in X.PLACES}
        self.per_move = X.activate_checks if kind == "activate" else None
        self.perform = getattr(Ttcg, f"_do_{kind}", None)


def _first_broken(facts: _Facts, state: TtcgState, ev: Any) -> tuple[Any, Violation] | None:
    """The first check of the move's action it breaks where the game stands, with what it found
    (``None``: none), as ``action.first_violation`` finds it: the checks that cannot fail there
    (:meth:`spec.core.rules.Action.checks_where`) are not run."""
    place = state.node if state.stage == "turn" else state.stage
    per_move = facts.per_move
    for test, check in facts.by_place[place] if per_move is None else per_move(state, ev, place):
        violation = test(state, ev)
        if violation is not None:
            return check, violation
    return None


_FACTS: Final[dict[type, _Facts]] = {}
"""Event type -> its :class:`_Facts`."""


def _card_fields(cls: type) -> tuple[str, ...]:
    """The fields of :data:`_NAMING` an event type has (all of them for a type that does not list its fields)."""
    fields = getattr(cls, "__struct_fields__", None)
    return _NAMING if fields is None else tuple(f for f in _NAMING if f in fields)


__all__ = ["Ttcg"]
