"""What each effect step of Neopets card text does (the semantics of the AST).

:class:`Effects` supplies the ``do_<step>`` handlers the core interpreter calls. A step
either changes the state at once or returns a :class:`~spec.core.interpreter.Need`
for the events the log must show next (which card was drawn, which die faces came up).
Each handler names the keyword-action rule it implements (8.20).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from grammar import ast as A
from spec.core.interpreter import Need, Resolution, refuse
from spec.neopets import board as B
from spec.neopets.actions import BOOK
from spec.neopets.state import Delayed, Lasting, NeopetsState

if TYPE_CHECKING:
    from spec.neopets.game import Neopets

cite = BOOK.cite


def step_gap(step: object) -> str | None:
    """What of an effect's ``step`` the spec does not carry out whatever the state, or
    ``None``: one list for the handlers (which raise it as :class:`~spec.neopets.board.Unmodelled`)
    and for ``Neopets.unsupported`` (so lint notes the card before any replay plays it)."""
    if isinstance(step, A.Search) and step.zone != "Main Deck":
        return f"searching the {step.zone} is not modelled"
    if isinstance(step, A.Send) and step.what.quantifier not in ("this", "target") and step.what.zone != "Codestone Slots":
        return f"sending {step.what.quantifier} {step.what.type} is not modelled"
    if isinstance(step, A.Negate) and step.target.zone != "queue":
        return "negating a Neopet's abilities is modelled as a passive ability only (8.20.6b)"
    return None


class Effects:
    """Step handlers for the interpreter, bound to the game for damage and round ends."""

    def __init__(self, game: Neopets) -> None:
        self.game = game

    # -------------------------------------------------------------- cards moving

    @BOOK.encodes("8.20.15d", "8.20.15b", what="effects run step by step in text order")
    def do_draw(self, state: NeopetsState, res: Resolution, step: A.Draw) -> Need | None:
        players = B.who(state, res.controller, step.player)
        n = B.amount(step.amount, res.vars)
        # 8.20.14a: as many as the deck allows. One Need per player, in turn order.
        needs = [(p, min(n, len(state.sides[p].deck))) for p in players]
        needs = [(p, k) for p, k in needs if k > 0]
        if not needs:
            return None
        for p, k in reversed(needs[1:]):
            res.push((A.Draw("you" if p == res.controller else "opponent", k),))
        p, k = needs[0]
        return Need("draw", p, k, cite("8.20.14a"))

    def do_discard(self, state: NeopetsState, res: Resolution, step: A.Discard) -> Need | None:
        players = B.who(state, res.controller, step.player)
        for p in reversed(players[1:]):  # "each player discards": one after the other, in turn order as draws are
            res.push((A.Discard("you" if p == res.controller else "opponent", step.amount, step.what),))
        player = players[0]
        n = min(B.amount(step.amount, res.vars), len(state.sides[player].inventory))
        return Need("discard", player, n, cite("8.20.3a"), step.what) if n else None

    def do_scrap(self, state: NeopetsState, res: Resolution, step: A.Scrap) -> Need | None:
        player = B.one_player(state, res.controller, step.player)
        n = min(B.amount(step.amount, res.vars), len(state.sides[player].deck))
        return Need("scrap", player, n, cite("8.20.8a")) if n else None

    def do_search(self, state: NeopetsState, res: Resolution, step: A.Search) -> Need | None:
        player = B.one_player(state, res.controller, step.player)
        refuse(step_gap(step), B.Unmodelled)
        res.push((A.Shuffle("you" if player == res.controller else "opponent"),))
        return Need("search", player, 1, cite("8.20.9a"), step.what)

    def do_shuffle(self, state: NeopetsState, res: Resolution, step: A.Shuffle) -> Need | None:
        player = B.one_player(state, res.controller, step.player)
        return Need("shuffle", player, 1, cite("8.20.9d"))

    def do_reveal(self, state: NeopetsState, res: Resolution, step: A.Reveal) -> Need | None:
        player = B.one_player(state, res.controller, step.what.owner)
        if len(state.sides[player].inventory) == 0:
            return None
        return Need("reveal", player, 1, cite("8.20.7a"), step.what)

    def do_send(self, state: NeopetsState, res: Resolution, step: A.Send) -> Need | None:
        sel = step.what
        if sel.quantifier == "this":
            res.vars["stay"] = step.to
            return None
        if sel.quantifier == "target":
            for target in res.item.targets if res.item is not None else ():
                if hasattr(target, "uid"):
                    self.game.remove_from_play(state, target, to=step.to)
            return None
        if sel.zone == "Codestone Slots":
            player = B.one_player(state, res.controller, sel.owner)
            if B.level(state, player) == 0:
                return None
            return Need("select", player, 1, cite("8.20.3b"), sel)
        raise B.Unmodelled(str(step_gap(step)))

    def do_attach(self, state: NeopetsState, res: Resolution, step: A.Attach) -> Need | None:
        player = B.one_player(state, res.controller, step.what.owner)
        if B.level(state, player) >= 5 or len(state.sides[player].inventory) == 0:
            return None  # 7.11.5: no sixth Codestone
        return Need("attach", player, 1, cite("7.11.5"), step.what, optional=True)

    # -------------------------------------------------------------- damage and status

    def do_deal(self, state: NeopetsState, res: Resolution, step: A.Deal) -> Need | None:
        n = B.amount(step.amount, res.vars)
        for player in self._neopets(state, res, step.to):
            self.game.deal_damage(state, player, n, cite("5.5.7e"))
            if state.stage != "turn":
                res.frames.clear()
                return None
        return None

    def do_heal(self, state: NeopetsState, res: Resolution, step: A.Heal) -> Need | None:
        n = B.amount(step.amount, res.vars)
        for player in self._neopets(state, res, step.target):
            neopet = state.sides[player].neopet
            if neopet is not None:
                neopet.damage = max(0, neopet.damage - n)
        return None

    @BOOK.encodes("8.20.4a", "8.20.4b.p1", "8.20.4c.p1", "8.20.4c.p2", "8.20.5b.p1", "8.20.5b.p2", "8.20.16a",
                  what="freeze: the Neopet skips its next attack; immunity and replacements checked first")
    def do_freeze(self, state: NeopetsState, res: Resolution, step: A.Freeze) -> Need | None:
        for player in self._neopets(state, res, step.target):
            neopet = state.sides[player].neopet
            if neopet is None or B.immune(state, player, "frozen"):
                continue  # 8.20.5a: an immune Neopet is not affected
            replacement = self._replacement(state, player, "frozen")
            if replacement is not None:
                controller, effect = replacement
                res.push(effect if controller == res.controller else ())
                continue
            neopet.frozen_for_turn = self.game.next_battle_turn(state, player)
        return None

    def do_modify(self, state: NeopetsState, res: Resolution, step: A.Modify) -> Need | None:
        delta = B.amount(step.delta, res.vars)
        for player in self._neopets(state, res, step.target):
            self._last(state, "modify", res.controller, player, step.stat, delta, step.duration)
        return None

    def do_prohibit(self, state: NeopetsState, res: Resolution, step: A.Prohibit) -> Need | None:
        for player in B.who(state, res.controller, step.subject.owner):
            self._last(state, "prohibit", res.controller, player, step.action, 0, step.duration)
        return None

    def do_permit(self, state: NeopetsState, res: Resolution, step: A.Permit) -> Need | None:
        for player in B.who(state, res.controller, step.subject.owner):
            self._last(state, "permit", res.controller, player, step.action, 0, step.duration)
        return None

    def do_immune(self, state: NeopetsState, res: Resolution, step: A.Immune) -> Need | None:
        for player in self._neopets(state, res, step.target):
            self._last(state, "immune", res.controller, player, step.to, 0, step.duration)
        return None

    @BOOK.encodes("8.20.6a", "8.20.13b", what="a negated card or ability leaves the queue without resolving")
    def do_negate(self, state: NeopetsState, res: Resolution, step: A.Negate) -> Need | None:
        refuse(step_gap(step), B.Unmodelled)
        for target in res.item.targets if res.item is not None else ():
            if target in state.queue.items:
                state.queue.items.remove(target)
                if target.kind == "card":
                    self.game.put_away(state, target.source)
        return None

    @BOOK.encodes("8.20.10a", "7.4.4.p1", "7.4.5", "7.4.6", what="transform: swap the active Neopet with the Rainbow Pool Neopet")
    def do_transform(self, state: NeopetsState, res: Resolution, step: A.Transform) -> Need | None:
        brush = step.into or (res.source.name if res.source is not None else None)
        self.game.transform(state, res.controller, brush, res.vars.get("neopet"))
        return None

    @BOOK.encodes("8.20.1a.p1", "8.20.1a.p2", "8.20.1b", what="abandon: the controller loses the round")
    def do_abandon(self, state: NeopetsState, res: Resolution, step: A.Abandon) -> Need | None:
        self.game.end_round(state, loser=res.controller, face_down=True)
        res.frames.clear()
        return None

    # -------------------------------------------------------------- dice

    def do_roll(self, state: NeopetsState, res: Resolution, step: A.Roll) -> Need | None:
        player = B.one_player(state, res.controller, step.player)
        return Need("roll", player, B.amount(step.count, res.vars), cite("9.4.1"), step.die)

    def do_reroll(self, state: NeopetsState, res: Resolution, step: A.Reroll) -> Need | None:
        player = B.one_player(state, res.controller, step.player)
        if not state.sides[player].dice:
            return None
        return Need("reroll", player, B.amount(step.amount, res.vars), cite("5.5.6c.p1"), optional=True)

    # -------------------------------------------------------------- structure

    def do_if(self, state: NeopetsState, res: Resolution, step: A.If) -> Need | None:
        holds = B.condition_holds(state, res.controller, step.condition, res.vars)
        res.push(step.then if holds else step.otherwise)
        return None

    def do_may(self, state: NeopetsState, res: Resolution, step: A.May) -> Need | None:
        player = B.one_player(state, res.controller, step.player)
        return Need("may", player, 1, cite("8.20.15b"), step.steps, optional=True)

    @BOOK.encodes("9.5.1.p1", "8.10.4", what="a card told to stay in play goes to the Play Area")
    def do_stay_in_play(self, state: NeopetsState, res: Resolution, step: A.StayInPlay) -> Need | None:
        res.vars["stay"] = "Play Area"
        return None

    @BOOK.encodes("8.19.1", "8.19.2", what="a delayed trigger waits for its moment, whatever became of its source")
    def do_delay(self, state: NeopetsState, res: Resolution, step: A.Delay) -> Need | None:
        state.delayed.append(Delayed(step.when, res.controller, res.source, step.effect))
        return None

    # -------------------------------------------------------------- helpers

    def _neopets(self, state: NeopetsState, res: Resolution, sel: A.Selector) -> list[str]:
        if sel.quantifier == "target":
            owners = []
            for target in res.item.targets if res.item is not None else ():
                for player in state.players:
                    if state.sides[player].neopet is target:
                        owners.append(player)
            return owners
        return B.neopet_owner(state, res.controller, sel)

    def _last(self, state: NeopetsState, kind: str, controller: str, player: str, what: str, amount: int,
              duration: A.Duration | None) -> None:
        state.lasting.append(Lasting(kind, controller, player, what, amount,
                                     duration.until if duration else "permanent", state.turn, state.next_order))
        state.next_order += 1
        state.changed()

    def _replacement(self, state: NeopetsState, player: str, event: str) -> tuple[str, tuple[A.Step, ...]] | None:
        """A replacement effect in force for an event happening to ``player``'s Neopet (8.20.16)."""
        for controller, card in B.working(state):
            if card.name is None:
                continue
            for ability in B.abilities(state, card.name, A.Replacement):
                subject = ability.event.subject
                owners = B.neopet_owner(state, controller, subject) if subject is not None else [controller]
                if ability.event.event == event and player in owners:
                    return controller, ability.effect
        return None
