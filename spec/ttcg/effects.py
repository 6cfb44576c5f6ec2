"""What each effect step of TTCG card text does (the semantics of the AST).

:class:`Effects` supplies the ``do_<step>`` handlers the core interpreter calls. A step
either changes the state at once or returns a :class:`~spec.core.interpreter.Need` for
the events the log must show next: which card was drawn or milled, which cards a
player picked (a ``choose`` event), which card was discarded. A step the spec gives no
meaning has no handler: the interpreter raises
:class:`~spec.core.interpreter.UnsupportedStep` and the replay is unverifiable.

Steps without a handler, on purpose: ``ttcg_copy`` (which effect of the copied card,
and whose it becomes, is nowhere defined), ``ttcg_swap`` (where the piles beneath and
the equipment of a swapped card go is nowhere defined), and the player-level ``can`` step
(``Permit``), which no shipped card uses in a defined effect type. A player-level
``can't`` (``Prohibit``) is carried out for the actions of decision 31 only
(:func:`step_gap` names the others).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from grammar import ast as A
from grammar import ttcg_nodes as T
from spec.core.interpreter import Need, Resolution, refuse
from spec.core.state import CardObj
from spec.ttcg import board as B
from spec.ttcg.actions import BOOK
from spec.ttcg.state import Delayed, Lasting, Pile, TtcgState, force_changed

if TYPE_CHECKING:
    from spec.ttcg.game import Ttcg

cite = BOOK.cite


@dataclass(init=False, unsafe_hash=True)
class Choice:
    """What a ``choose`` event must pick for the step being carried out.

    Never changed once made. Not declared ``frozen``: a frozen dataclass can only be given its
    fields by the ``__init__`` that dataclasses generates, which stays a Python function in the
    compiled build, and one or two are made for every step that picks cards; this one is written
    out, and ``unsafe_hash`` keeps the equality and hash a frozen one would have."""

    step: Any
    """The step the cards are picked for (what happens to them follows from it)."""
    what: T.Cards
    zone: str
    """``field``, ``hand``, ``deck`` or ``discard pile``."""
    owners: tuple[str, ...]
    """Whose zones the cards are taken from."""
    low: int
    high: int
    controller: str
    source: int
    """The uid of the card whose effect it is."""

    def __init__(self, step: Any, what: T.Cards, zone: str, owners: tuple[str, ...], low: int, high: int,
                 controller: str, source: int) -> None:
        self.step = step
        self.what = what
        self.zone = zone
        self.owners = owners
        self.low = low
        self.high = high
        self.controller = controller
        self.source = source

    def describe(self) -> str:
        kinds = " or ".join(self.what.kinds) or "card"
        span = str(self.high) if self.low == self.high else f"{self.low} to {self.high}"
        if self.zone == "revealed":
            return f"{span} {kinds} card(s) among those {'/'.join(self.owners)} revealed"
        return f"{span} {kinds} card(s) from {'/'.join(self.owners)}'s {self.zone}"


def _count(amount: A.Amount, res: Resolution) -> int:
    if isinstance(amount, int):
        return amount
    value = res.vars.get(amount.name)
    if isinstance(value, int):
        return value
    raise B.Unmodelled(f"the number {amount.name!r} is not modelled")


def revealed(state: TtcgState) -> tuple[CardObj, ...]:
    """The cards the effect being carried out has turned up from the top of a deck and not
    yet taken (decision 30): they are out of the deck until the effect is done."""
    res = state.resolution
    return () if res is None else res.vars.get("revealed", ())


def step_gap(step: object) -> str | None:
    """What of an effect's ``step`` the spec does not carry out whatever the state, or
    ``None``: one list for the handlers (which raise it as :class:`~spec.ttcg.board.Unmodelled`)
    and for ``Ttcg.unsupported`` (so lint notes the card before any replay plays it)."""
    if isinstance(step, T.PlaceUnder) and step.under.quantifier != "this":
        return "placing cards under a card other than this one is not modelled"
    if isinstance(step, T.Equip) and step.what.quantifier != "this":
        return "equipping a card other than this one is not modelled"
    if isinstance(step, T.RankUp) and step.duration is not None:
        return "a lasting permission to rank up is not modelled"
    if isinstance(step, T.RankUp) and (step.using.zone or "hand") not in ("hand", "deck"):
        return f"ranking up with a card from the {step.using.zone} is not modelled"
    if isinstance(step, T.Redirect) and step.to.quantifier != "this":
        return "redirecting an attack to a card other than this one is not modelled"
    if isinstance(step, T.ForEach) and step.event is None and "they" not in (step.what.controller, step.what.owner) \
            and step.what.zone not in (None, "field"):
        return f"counting cards in the {step.what.zone} is not modelled"
    if isinstance(step, A.Delay) and step.when != "end_of_turn":
        return f"an effect delayed until {step.when} is not modelled"
    if isinstance(step, A.Prohibit):
        return _prohibit_gap(step)
    return None


def _prohibit_gap(step: A.Prohibit) -> str | None:
    """What of a prohibition on players (decision 31) the spec does not carry out."""
    if step.action not in ("attack", "activate effects") and not step.action.startswith("play "):
        return f"a prohibition to {step.action} is not modelled"
    if step.duration is None:
        return "a prohibition without a duration is not modelled"
    if step.subject.owner not in ("you", "opponent") and step.subject.quantifier != "each":
        return f"a prohibition on {step.subject.owner or 'a chosen'} player is not modelled"
    try:
        B.prohibited_kind(step.action)
    except B.Unmodelled as error:
        return str(error)
    return None


class Effects:
    """Step handlers for the interpreter, bound to the game for destruction and points."""

    def __init__(self, game: Ttcg) -> None:
        self.game = game

    # -------------------------------------------------------------- choosing cards

    def source_pile(self, state: TtcgState, res: Resolution) -> Pile | None:
        source: CardObj | None = res.source
        return None if source is None else B.pile_of(state, source.uid)

    def zone_cards(self, state: TtcgState, zone: str, owner: str) -> list[CardObj]:
        side = state.sides[owner]
        if zone == "field":
            return [p.card for p in side.piles()]
        if zone == "hand":
            return list(side.hand.cards)
        if zone == "discard pile":
            return list(side.discard.cards)
        if zone == "revealed":
            return [c for c in revealed(state) if c.owner == owner]
        return []

    def candidates(self, state: TtcgState, choice: Choice) -> list[CardObj]:
        """The public cards a choice may take (for the field, those that can be targeted)."""
        out: list[CardObj] = []
        for owner in choice.owners:
            for card in self.zone_cards(state, choice.zone, owner):
                if card.name is None or not B.cards_match(state, card, choice.what, choice.controller):
                    continue
                if choice.what.other and card.uid == choice.source:
                    continue
                if choice.zone == "field" and B.restricted(state, card, "be targeted"):
                    continue
                if isinstance(choice.step, T.PlayCards) and B.play_prohibited(state, card.owner, card.name):
                    continue  # decision 31: the player may not play it
                out.append(card)
        return out

    def choose(self, state: TtcgState, res: Resolution, step: Any, what: T.Cards, default_zone: str, rule: str) -> Need | None:
        """Pick the cards of ``what`` for ``step``: at once when nothing is left to choose, else a Need.

        ``all`` takes every matching card, ``this`` the card itself and ``it`` the cards
        the effect picked last; ``a`` takes ``count`` (as many as there are),
        ``exactly`` ``count`` or none (2.1.al), ``up_to`` any number up to ``count``.
        """
        zone = what.zone or default_zone
        who = what.owner if zone != "field" else (what.controller or what.owner)
        owners = tuple(B.whose(state, res.controller, who)) if who is not None else (
            tuple(state.players) if zone == "field" else (res.controller,))
        if what.quantifier == "this":
            return self.apply_choice(state, res, step, [res.source] if res.source is not None else [])
        if what.quantifier == "it":
            uids = res.vars.get("it", ())
            found = [c for c in self._all_cards(state) if c.uid in uids] if uids else ([res.source] if res.source is not None else [])
            return self.apply_choice(state, res, step, found)
        if what.quantifier == "equipped":
            pile = self.source_pile(state, res)
            target = B.pile_by_id(state, pile.equipped_to if pile is not None else None)
            return self.apply_choice(state, res, step, [target.card] if target is not None else [])
        choice = Choice(step, what, zone, owners, 0, 0, res.controller, res.source.uid if res.source is not None else -1)
        if what.quantifier in ("all", "any"):
            return self.apply_choice(state, res, step, self.candidates(state, choice))
        n = _count(what.count, res)
        hidden = zone in ("deck", "hand")
        available = sum(len(state.sides[o].deck) if zone == "deck" else len(state.sides[o].hand) for o in owners) if hidden \
            else len(self.candidates(state, choice))
        if what.quantifier == "up_to" or hidden:
            low = 0 if (what.quantifier == "up_to" or hidden) else min(n, available)
            high = min(n, available)
        elif what.quantifier == "exactly":
            if available < n:
                return None  # 2.1.al: not that many, so nothing happens
            low = high = n
        else:
            low = high = min(n, available)
        if high == 0:
            return None
        choice = Choice(step, what, zone, owners, low, high, res.controller, choice.source)
        return Need("choose", res.controller, 1, rule, choice)

    def _all_cards(self, state: TtcgState) -> list[CardObj]:
        out: list[CardObj] = []
        for side in state.sides.values():
            for pile in side.piles():
                out.append(pile.card)
            out.extend(side.hand.cards)
            out.extend(side.discard.cards)
        return out

    def apply_choice(self, state: TtcgState, res: Resolution, step: Any, cards: list[CardObj]) -> Need | None:
        """Carry out ``step`` on the cards picked for it."""
        res.vars["it"] = tuple(c.uid for c in cards)
        handler = getattr(self, f"on_{step.__struct_config__.tag}")
        result: Need | None = handler(state, res, step, cards)
        return result

    # -------------------------------------------------------------- cards moving

    @BOOK.encodes("2.2.3.a.1", what="an effect's draw is carried out by draw events, as many as the deck allows")
    def do_draw(self, state: TtcgState, res: Resolution, step: A.Draw) -> Need | None:
        players = B.whose(state, res.controller, step.player) if step.player != "each" else [state.active, state.nonactive]
        n = _count(step.amount, res)
        needs = [(p, min(n, len(state.sides[p].deck))) for p in players]
        needs = [(p, k) for p, k in needs if k > 0]
        if not needs:
            return None
        for p, k in reversed(needs[1:]):
            res.push((A.Draw("you" if p == res.controller else "opponent", k),))
        p, k = needs[0]
        return Need("draw", p, k, cite("2.1.d"))

    def do_scrap(self, state: TtcgState, res: Resolution, step: A.Scrap) -> Need | None:
        player = B.whose(state, res.controller, step.player)[0]
        n = min(_count(step.amount, res), len(state.sides[player].deck))
        return Need("mill", player, n, cite("2.1.i")) if n else None

    def do_shuffle(self, state: TtcgState, res: Resolution, step: A.Shuffle) -> Need | None:
        player = B.whose(state, res.controller, step.player)[0]
        return Need("shuffle", player, 1, cite("2.1.e"))

    def do_discard(self, state: TtcgState, res: Resolution, step: A.Discard) -> Need | None:
        player = B.whose(state, res.controller, step.player)[0]
        n = min(_count(step.amount, res), len(state.sides[player].hand))
        return Need("discard", player, n, cite("2.1.f"), None) if n else None

    def do_ttcg_discard(self, state: TtcgState, res: Resolution, step: T.DiscardCards) -> Need | None:
        if step.what.quantifier in ("this", "it", "equipped") or step.what.zone == "field":
            return self.choose(state, res, step, step.what, "field", cite("2.1.f"))
        player = B.whose(state, res.controller, step.player)[0]
        n = min(_count(step.what.count, res), len(state.sides[player].hand))
        return Need("discard", player, n, cite("2.1.f"), step.what) if n else None

    def on_ttcg_discard(self, state: TtcgState, res: Resolution, step: T.DiscardCards, cards: list[CardObj]) -> None:
        for card in cards:
            pile = B.pile_of(state, card.uid)
            if pile is not None:
                self.game.discard_pile(state, pile)

    @BOOK.encodes("2.2.5.b", what="an effect that reveals the top cards of a deck turns them up one by one, as "
                  "many as the deck holds; those it does not take go back into the deck when it is done")
    def do_ttcg_reveal_top(self, state: TtcgState, res: Resolution, step: T.RevealTop) -> Need | None:
        """Decision 30: ``reveal`` events name the cards, top first; later steps of the
        effect pick among them (the zone ``revealed``), and :meth:`Ttcg.put_back_revealed`
        returns the rest to the deck. Looking at the cards is read the same way: the log
        names what the player saw (``detail`` of the need is ``look``: a log that cannot name
        such a card leaves the rest of the effect unverifiable)."""
        player = B.whose(state, res.controller, step.player)[0]
        n = min(_count(step.count, res), len(state.sides[player].deck))
        return Need("reveal", player, n, cite("2.2.5.b"), "look" if step.private else None) if n else None

    def do_ttcg_add(self, state: TtcgState, res: Resolution, step: T.AddToHand) -> Need | None:
        return self.choose(state, res, step, step.what, "deck", cite("2.1.h") if step.what.zone == "deck" else cite("2.1.j"))

    def on_ttcg_add(self, state: TtcgState, res: Resolution, step: T.AddToHand, cards: list[CardObj]) -> None:
        for card in cards:
            self.game.take_from(state, card, step.what.zone or "deck")
            state.sides[card.owner].hand.add(card)

    @BOOK.encodes("2.2.3.a.2.b", what="a card an effect plays takes a new place on the field without counting as a play")
    def do_ttcg_play(self, state: TtcgState, res: Resolution, step: T.PlayCards) -> Need | None:
        return self.choose(state, res, step, step.what, "hand", cite("2.2.3.a.2.b"))

    def on_ttcg_play(self, state: TtcgState, res: Resolution, step: T.PlayCards, cards: list[CardObj]) -> None:
        for card in cards:
            if self.game.row_full(state, card.owner, card.defn):
                continue  # 2.2.9.b/c: no room, the card stays where it was
            self.game.take_from(state, card, step.what.zone or "hand")
            self.game.new_pile(state, card.owner, card, by_effect=True)

    def do_ttcg_place_under(self, state: TtcgState, res: Resolution, step: T.PlaceUnder) -> Need | None:
        refuse(step_gap(step), B.Unmodelled)
        if self.source_pile(state, res) is None:
            return None
        return self.choose(state, res, step, step.what, "hand", cite("2.2.6.c.p1"))

    @BOOK.encodes("2.2.6.c.p1", "2.2.6.d", what="a card placed under a pile stays on the field beneath its top card")
    def on_ttcg_place_under(self, state: TtcgState, res: Resolution, step: T.PlaceUnder, cards: list[CardObj]) -> None:
        pile = self.source_pile(state, res)
        if pile is None:
            return
        for card in cards:
            self.game.take_from(state, card, step.what.zone or "hand")
            pile.under.append(card)

    # -------------------------------------------------------------- destroying, tapping

    def do_ttcg_destroy(self, state: TtcgState, res: Resolution, step: T.Destroy) -> Need | None:
        return self.choose(state, res, step, step.what, "field", cite("2.1.r"))

    def on_ttcg_destroy(self, state: TtcgState, res: Resolution, step: T.Destroy, cards: list[CardObj]) -> None:
        for card in cards:
            pile = B.pile_of(state, card.uid)
            if pile is not None:
                self.game.destroy(state, pile, by="effect", cause=res.source)
            if state.stage == "over":
                res.frames.clear()
                return

    def do_ttcg_tap(self, state: TtcgState, res: Resolution, step: T.Tap) -> Need | None:
        return self.choose(state, res, step, step.what, "field", cite("2.1.o"))

    @BOOK.encodes("2.2.6.e", what="only the top card of a pile is tapped or untapped; cards under it stay untapped")
    def on_ttcg_tap(self, state: TtcgState, res: Resolution, step: T.Tap, cards: list[CardObj]) -> None:
        for card in cards:
            pile = B.pile_of(state, card.uid)
            if pile is None:
                continue
            if step.untap:
                pile.tapped = False
            elif not pile.tapped:
                pile.tapped = True
                pile.tapped_turn = state.turn
                self.game.fire(state, "tapped", card.owner, card)

    def do_ttcg_equip(self, state: TtcgState, res: Resolution, step: T.Equip) -> Need | None:
        pile = self.source_pile(state, res)
        refuse(step_gap(step), B.Unmodelled)
        if pile is None or pile.row != "magic":
            return None
        return self.choose(state, res, step, step.to, "field", cite("2.2.5.i.4"))

    def on_ttcg_equip(self, state: TtcgState, res: Resolution, step: T.Equip, cards: list[CardObj]) -> None:
        pile = self.source_pile(state, res)
        for card in cards:
            target = B.pile_of(state, card.uid)
            if pile is not None and target is not None and target.row == "creature":
                pile.equipped_to = target.id

    # -------------------------------------------------------------- points and numbers

    @BOOK.encodes("2.2.8.e", what="card effects add points to or take them from a player")
    def do_ttcg_points(self, state: TtcgState, res: Resolution, step: T.Points) -> Need | None:
        n = _count(step.amount, res)
        players = [state.active, state.nonactive] if step.player == "each" else B.whose(state, res.controller, step.player)
        for player in players:
            self.game.change_points(state, player, -n if step.lose else n)
            if state.stage == "over":
                res.frames.clear()
                return None
        return None

    def do_ttcg_boost(self, state: TtcgState, res: Resolution, step: T.Boost) -> Need | None:
        return self.choose(state, res, step, step.what, "field", cite("2.1.ab"))

    def on_ttcg_boost(self, state: TtcgState, res: Resolution, step: T.Boost, cards: list[CardObj]) -> None:
        self._last(state, res, "boost", step.stat, _count(step.delta, res), cards, step.what, step.duration)

    def do_ttcg_set_stat(self, state: TtcgState, res: Resolution, step: T.SetStat) -> Need | None:
        return self.choose(state, res, step, step.what, "field", cite("2.1.ab"))

    def on_ttcg_set_stat(self, state: TtcgState, res: Resolution, step: T.SetStat, cards: list[CardObj]) -> None:
        self._last(state, res, "set", step.stat, _count(step.value, res), cards, step.what, step.duration)

    def do_ttcg_restrict(self, state: TtcgState, res: Resolution, step: T.Restrict) -> Need | None:
        if step.what.quantifier == "any":
            self._last(state, res, "restrict", step.action, 0, None, step.what, step.duration)
            return None
        return self.choose(state, res, step, step.what, "field", cite("2.1.aj"))

    def on_ttcg_restrict(self, state: TtcgState, res: Resolution, step: T.Restrict, cards: list[CardObj]) -> None:
        self._last(state, res, "restrict", step.action, 0, cards, step.what, step.duration)

    @BOOK.encodes("2.2.5.b", what="card text overrides the rules it names: extra plays, other types for a level up, "
                  "creatures that cannot attack, be attacked or be destroyed")
    def do_ttcg_extra_play(self, state: TtcgState, res: Resolution, step: T.ExtraPlay) -> Need | None:
        if res.controller == state.active:
            state.flags.extra.append((_count(step.what.count, res), step.what.kinds))
            state.flags.extra_sources.append(res.source.name if res.source is not None and res.source.name else "an effect")
            force_changed()
        return None

    def do_ttcg_rank_up(self, state: TtcgState, res: Resolution, step: T.RankUp) -> Need | None:
        """A rank up the effect carries out (or, with ``permission``, allows): a ``play`` answers it.

        The card played comes from the hand, or from the deck where the text says so
        (decision 32); it must be one rank higher than the card it goes on (2.2.6.b), of the
        kind the text names instead of the same type. The player may decline (their hand
        and deck are hidden).
        """
        refuse(step_gap(step), B.Unmodelled)
        side = state.sides[res.controller]
        if not (side.deck if step.using.zone == "deck" else side.hand):
            return None
        targets: list[Pile] = []
        if step.target.quantifier == "this":
            pile = self.source_pile(state, res)
            targets = [pile] if pile is not None and res.controller == res.source.owner else []
        else:
            targets = [p for p in state.sides[res.controller].piles() if B.cards_match(state, p.card, step.target, res.controller)]
        if not targets:
            return None
        return Need("rank_up", res.controller, 1, cite("2.2.6.b"), (tuple(p.id for p in targets), step.using), optional=True)

    def do_ttcg_skip(self, state: TtcgState, res: Resolution, step: T.SkipTurn) -> Need | None:
        for player in B.whose(state, res.controller, step.player):
            state.sides[player].skips += 1
        return None

    def do_ttcg_redirect(self, state: TtcgState, res: Resolution, step: T.Redirect) -> Need | None:
        refuse(step_gap(step), B.Unmodelled)
        pile = self.source_pile(state, res)
        if state.battle is not None and pile is not None and pile.row == "creature" and state.battle.target is not None:
            state.battle.target = pile.id
        return None

    @BOOK.encodes("2.1.ae", what="a counter negates the opponent's effect it answers, if that effect is of the kind it names")
    def do_ttcg_counter(self, state: TtcgState, res: Resolution, step: T.Counter) -> Need | None:
        link = res.item
        if link is None:
            return None
        below = [x for x in state.resolving if x.controller != res.controller]
        if not below:
            return None
        target = below[-1]
        if B.cards_match(state, target.source, msgspec.structs.replace(step.what, controller=None, owner=None, zone=None), res.controller):
            target.negated = True
        return None

    @BOOK.encodes("2.2.5.b", what="an effect can forbid a player to play cards of a kind, to attack or to use effects, "
                  "for as long as it says")
    def do_prohibit(self, state: TtcgState, res: Resolution, step: A.Prohibit) -> Need | None:
        """Decision 31: the players the text names may not do the action until the duration
        ends (decision 19); the checks of ``play``, ``attack`` and ``activate`` ask
        :func:`~spec.ttcg.board.prohibited` and :func:`~spec.ttcg.board.play_prohibited`."""
        refuse(step_gap(step), B.Unmodelled)
        until_start, until_end = self.game.duration_bounds(state, res.controller, step.duration)
        kind = B.prohibited_kind(step.action)
        for player in B.whose(state, res.controller, step.subject.owner):  # (each player: no owner, both)
            state.lasting.append(Lasting("prohibit", res.controller, step.action, 0, (B.player_key(state, player),), kind, None,
                                         until_start, until_end, state.next_order))
            state.next_order += 1
        force_changed()
        return None

    # -------------------------------------------------------------- structure

    def do_ttcg_for_each(self, state: TtcgState, res: Resolution, step: T.ForEach) -> Need | None:
        if step.event is not None:
            count = {"discarded": state.flags.discarded, "destroyed": state.flags.destroyed, "played": state.flags.played}[step.event]
            res.push(tuple(step.effect) * count)
            return None
        if step.what.controller == "they" or step.what.owner == "they":
            for player in (state.active, state.nonactive):
                what = msgspec.structs.replace(step.what, controller=None, owner=None)
                count = sum(1 for p in state.sides[player].piles() if B.cards_match(state, p.card, what, res.controller))
                who = "you" if player == res.controller else "opponent"
                steps = tuple(self._for_player(s, who) for s in step.effect)
                res.push(steps * count)
            return None
        refuse(step_gap(step), B.Unmodelled)
        count = 0
        for owner, pile in B.piles(state):
            if B.cards_match(state, pile.card, step.what, res.controller):
                count += 1
        res.push(tuple(step.effect) * count)
        return None

    @staticmethod
    def _for_player(step: Any, who: str) -> Any:
        if hasattr(step, "player") and step.player == "each":
            return msgspec.structs.replace(step, player=who)
        return step

    def do_if(self, state: TtcgState, res: Resolution, step: A.If) -> Need | None:
        holds = B.condition_holds(state, res.controller, step.condition, res.source)
        res.push(step.then if holds else step.otherwise)
        return None

    def do_delay(self, state: TtcgState, res: Resolution, step: A.Delay) -> Need | None:
        refuse(step_gap(step), B.Unmodelled)
        state.delayed.append(Delayed(state.turn, res.controller, res.source, step.effect))
        return None

    # -------------------------------------------------------------- helpers

    def _last(self, state: TtcgState, res: Resolution, kind: str, what: str, amount: int, cards: list[CardObj] | None,
              sel: T.Cards, duration: A.Duration | None) -> None:
        until_start, until_end = self.game.duration_bounds(state, res.controller, duration)
        uids = None if cards is None else tuple(c.uid for c in cards)
        state.lasting.append(Lasting(kind, res.controller, what, amount, uids, sel if cards is None else None, None,
                                     until_start, until_end, state.next_order))
        state.next_order += 1
        force_changed()
