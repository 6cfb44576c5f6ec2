"""What each effect step of Epic Battles card text does (the semantics of the AST).

:class:`Effects` supplies the ``do_<step>`` handlers the core interpreter calls. A step
either changes the state at once or returns a :class:`~spec.core.interpreter.Need` for
the events the log must show next (which card was drawn, which card a player discarded
or picked). A step with no handler here raises
:class:`~spec.core.interpreter.UnsupportedStep`, which the verifier reports as
unverifiable, naming the card.

The resolution's variables carry the context: ``this`` (the id of the card whose text
it is), ``that`` (the id of the card the moment of a flip or trigger was about),
``combo`` (the place of an attack in its combo) and ``rule`` (the rule the text is
carried out under, cited when the log does not give what the text needs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from grammar import ast as A
from grammar import epic_battles_nodes as N
from spec.core.interpreter import Need, Resolution, refuse
from spec.epic_battles import board as B
from spec.epic_battles.actions import BOOK
from spec.epic_battles.state import Delayed, EpicBattlesState, Lasting

if TYPE_CHECKING:
    from spec.epic_battles.game import EpicBattles

cite = BOOK.cite


def _rule(res: Resolution) -> str:
    return str(res.vars.get("rule") or cite("EB.card.attack.text"))


def _uid(res: Resolution, key: str) -> int | None:
    value = res.vars.get(key)
    return value if isinstance(value, int) else None


_TOP_TO: Final = {"energy pile": "energy", "hand": "hand", "discard pile": "discard"}
"""Where a put from the top of a deck may go, and the zone it is."""


def step_gap(step: object) -> str | None:
    """What of an effect's ``step`` the spec does not carry out whatever the state, or
    ``None``: one list for the handlers (which raise it as :class:`~spec.epic_battles.board.Unmodelled`)
    and for ``EpicBattles.unsupported`` (so lint notes the card before any replay plays it)."""
    if isinstance(step, A.Search) and (step.zone != "deck" or step.to != "hand"):
        return f"searching the {step.zone} for the {step.to} is not modelled"
    if isinstance(step, A.Reveal) and (step.what.zone != "deck" or step.what.quantifier != "the"):
        return f"revealing {step.what.describe()} is not modelled"
    if isinstance(step, N.EpicBattlesPut):
        sel = step.what
        if sel.zone == "deck" and sel.quantifier == "the":
            return None if step.to in _TOP_TO else f"putting the top of a deck into the {step.to} is not modelled"
        if sel.zone == "discard pile" and sel.quantifier in ("a", "up_to"):
            return None if step.to in ("hand", "deck bottom", "deck top", "energy pile") else \
                f"putting cards into the {step.to} is not modelled"
        return f"putting {sel.describe()} into the {step.to} is not modelled"
    if isinstance(step, N.EpicBattlesRemove) and step.what.zone != "discard pile":
        return f"removing cards from the {step.what.zone} is not modelled"
    if isinstance(step, A.Modify) and step.stat not in ("damage", "cost"):
        return f"changing {step.stat!r} is not modelled"
    if isinstance(step, A.Permit) and not (step.subject.type == "player" and step.action == "flip events") \
            and step.subject.quantifier != "this":
        return f"a 'can' for {step.subject.describe()} is not modelled"
    if isinstance(step, A.Negate) and (step.target.quantifier not in ("that", "this") or step.target.type != "Attack"):
        return f"negating {step.target.describe()} is not modelled"
    if isinstance(step, A.Delay) and step.when != "end_of_combo":
        return f"an effect delayed until {step.when!r} is not modelled"
    return None


class Effects:
    """Step handlers for the interpreter, bound to the game for damage, chipping and rounds."""

    def __init__(self, game: EpicBattles) -> None:
        self.game = game

    # -------------------------------------------------------------- cards moving

    def do_draw(self, state: EpicBattlesState, res: Resolution, step: A.Draw) -> Need | None:
        players = B.who(state, res.controller, step.player)
        n = B.amount(step.amount)
        needs = [(p, min(n, len(state.sides[p].deck))) for p in players]
        needs = [(p, k) for p, k in needs if k > 0]
        if not needs:
            return None
        for p, k in reversed(needs[1:]):
            res.push((A.Draw("you" if p == res.controller else "opponent", k),))
        p, k = needs[0]
        return Need("draw", p, k, _rule(res))

    def do_discard(self, state: EpicBattlesState, res: Resolution, step: A.Discard) -> Need | None:
        players = B.who(state, res.controller, step.player)
        for p in reversed(players[1:]):  # "each player discards": one after the other, in order as draws are
            res.push((A.Discard("you" if p == res.controller else "opponent", step.amount, step.what),))
        player = players[0]
        hand = state.sides[player].hand
        if step.what is not None and step.what.type != "card":
            fitting = sum(1 for c in hand if c.name is None or B.accepts(c.defn, step.what))
        else:
            fitting = len(hand)
        n = min(B.amount(step.amount), fitting)
        return Need("discard", player, n, _rule(res), step.what) if n else None

    @BOOK.encodes("EB.note.distinct", what="discarding the top of a deck is neither damage nor chipping: no damage or chip is recorded")
    def do_scrap(self, state: EpicBattlesState, res: Resolution, step: A.Scrap) -> Need | None:
        player = B.one_player(state, res.controller, step.player)
        self.game.move_top(state, player, B.amount(step.amount), "discard", "discarded")
        return None

    def do_deal(self, state: EpicBattlesState, res: Resolution, step: A.Deal) -> Need | None:
        player = B.player_of(state, res.controller, step.to)
        self.game.deal_damage(state, player, B.amount(step.amount))
        return None

    def do_search(self, state: EpicBattlesState, res: Resolution, step: A.Search) -> Need | None:
        player = B.one_player(state, res.controller, step.player)
        refuse(step_gap(step), B.Unmodelled)
        if len(state.sides[player].deck) == 0:
            return None
        return Need("search", player, 1, _rule(res), step.what)

    def do_shuffle(self, state: EpicBattlesState, res: Resolution, step: A.Shuffle) -> Need | None:
        player = B.one_player(state, res.controller, step.player)
        return Need("shuffle", player, 1, _rule(res))

    def do_reveal(self, state: EpicBattlesState, res: Resolution, step: A.Reveal) -> Need | None:
        sel = step.what
        refuse(step_gap(step), B.Unmodelled)
        player = B.one_player(state, res.controller, sel.owner)
        n = min(B.amount(sel.count), len(state.sides[player].deck))
        res.vars["revealed"] = 0
        return Need("reveal", player, n, _rule(res), "top") if n else None

    def do_epic_battles_put(self, state: EpicBattlesState, res: Resolution, step: N.EpicBattlesPut) -> Need | None:
        refuse(step_gap(step), B.Unmodelled)
        sel = step.what
        player = B.one_player(state, res.controller, sel.owner)
        if sel.zone == "deck":  # the top of the deck (step_gap)
            self.game.move_top(state, player, B.amount(sel.count), _TOP_TO[step.to], f"put into the {step.to}")
            return None
        n = min(B.amount(sel.count), self._fitting(state, player, sel))  # from the discard pile (step_gap)
        res.vars["put_to"] = step.to
        return Need("select", player, n, _rule(res), sel, optional=sel.quantifier == "up_to") if n else None

    def do_epic_battles_remove(self, state: EpicBattlesState, res: Resolution, step: N.EpicBattlesRemove) -> Need | None:
        refuse(step_gap(step), B.Unmodelled)
        sel = step.what
        player = B.one_player(state, res.controller, sel.owner)
        n = min(B.amount(sel.count), self._fitting(state, player, sel))
        res.vars["put_to"] = "removed"
        return Need("select", player, n, _rule(res), sel) if n else None

    @staticmethod
    def _fitting(state: EpicBattlesState, player: str, sel: A.Selector) -> int:
        """How many cards of the discard pile could be what ``sel`` asks for (unseen ones may be)."""
        return sum(1 for c in state.sides[player].discard if c.name is None or B.accepts(c.defn, sel))

    # -------------------------------------------------------------- damage, chipping, energy

    def do_epic_battles_chip(self, state: EpicBattlesState, res: Resolution, step: N.EpicBattlesChip) -> Need | None:
        player = B.one_player(state, res.controller, step.player)
        self.game.chip(state, player, B.amount(step.amount))
        return None

    @BOOK.encodes("EB.energy.value", what="an energy cost takes one energy-pile card per point")
    def do_epic_battles_pay(self, state: EpicBattlesState, res: Resolution, step: N.EpicBattlesPay) -> Need | None:
        self.game.pay_energy(state, res.controller, B.amount(step.amount))
        return None

    # -------------------------------------------------------------- knock downs and recovering

    @BOOK.encodes("EB.recover.effect", what="a recover step stands its player up (unless an effect forbids recovering)")
    def do_epic_battles_recover(self, state: EpicBattlesState, res: Resolution, step: N.EpicBattlesRecover) -> Need | None:
        source = getattr(res.source, "name", None) or "an effect"
        for player in B.who(state, res.controller, step.player):
            self.game.recover(state, player, source=source)
        return None

    def do_epic_battles_knock_down(self, state: EpicBattlesState, res: Resolution, step: N.EpicBattlesKnockDown) -> Need | None:
        for player in B.who(state, res.controller, step.player):
            self.game.knock_down(state, player, step.how)
        return None

    @BOOK.encodes("EB.kw.taunt", what="Taunt: the rival turns over their top card (a reveal the log names)")
    def do_epic_battles_taunt(self, state: EpicBattlesState, res: Resolution, step: N.EpicBattlesTaunt) -> Need | None:
        player = B.one_player(state, res.controller, step.player)
        if len(state.sides[player].deck) == 0:
            return None
        return Need("reveal", player, 1, cite("EB.kw.taunt"), "taunt")

    # -------------------------------------------------------------- lasting changes

    def _last(self, state: EpicBattlesState, res: Resolution, step: object, duration: A.Duration | None) -> None:
        until = duration.until if duration is not None else "end_of_round"
        state.lasting.append(Lasting(step, res.controller, _uid(res, "this"), _uid(res, "that"), until, getattr(res.source, "name", None)))
        state.effects_may_change()

    def do_modify(self, state: EpicBattlesState, res: Resolution, step: A.Modify) -> Need | None:
        refuse(step_gap(step), B.Unmodelled)
        if step.stat == "cost" and step.target.quantifier == "this":
            return None  # read when the card was checked and paid for (board.own_steps)
        self._last(state, res, step, step.duration)
        return None

    def do_prohibit(self, state: EpicBattlesState, res: Resolution, step: A.Prohibit) -> Need | None:
        self._last(state, res, step, step.duration)
        return None

    def do_permit(self, state: EpicBattlesState, res: Resolution, step: A.Permit) -> Need | None:
        if step.subject.type == "player" and step.action == "flip events":
            self._last(state, res, step, step.duration)  # weighed against the flip timing by the policy (conflicts.judge_flip)
            return None
        refuse(step_gap(step), B.Unmodelled)
        return None  # a card's own permission is read when it is checked (board.own_steps)

    @BOOK.encodes("EB.link.limit", what="linking is limited only by link effects and by paying: blocked attacks link too")
    def do_epic_battles_link(self, state: EpicBattlesState, res: Resolution, step: N.EpicBattlesLink) -> Need | None:
        if step.what.quantifier == "this":
            return None  # read when the attack was checked (board.own_steps)
        self._last(state, res, step, step.duration)
        return None

    def do_epic_battles_gain(self, state: EpicBattlesState, res: Resolution, step: N.EpicBattlesGain) -> Need | None:
        self._last(state, res, step, step.duration)
        return None

    def do_negate(self, state: EpicBattlesState, res: Resolution, step: A.Negate) -> Need | None:
        refuse(step_gap(step), B.Unmodelled)
        uid = _uid(res, step.target.quantifier)
        for strike in state.strikes:
            if strike.card.uid == uid:
                strike.negated = True
        return None

    # -------------------------------------------------------------- structure

    def do_if(self, state: EpicBattlesState, res: Resolution, step: A.If) -> Need | None:
        holds = B.condition_holds(state, res.controller, step.condition, res.vars)
        res.push(step.then if holds else step.otherwise)
        return None

    def do_may(self, state: EpicBattlesState, res: Resolution, step: A.May) -> Need | None:
        player = B.one_player(state, res.controller, step.player)
        return Need("may", player, 1, _rule(res), step.steps, optional=True)

    def do_delay(self, state: EpicBattlesState, res: Resolution, step: A.Delay) -> Need | None:
        refuse(step_gap(step), B.Unmodelled)
        state.delayed.append(Delayed(step.when, res.controller, res.source, step.effect))
        return None


__all__ = ["Effects"]
