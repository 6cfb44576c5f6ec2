"""What each effect step of Battle Monsters card text does (the semantics of the AST).

:class:`Effects` supplies the ``do_<step>`` handlers the core interpreter calls. A step
either changes the state at once or returns a :class:`~spec.core.interpreter.Need` for
the events the log must show next (drawn cards, a discard, a choice, an answer to "you
can choose to"). A step with no handler raises
:class:`~spec.core.interpreter.UnsupportedStep`: the replay is then unverifiable.

Effects reach cards through selectors (:mod:`spec.battle_monsters.board`); a card immune
to the source's kind of card is left out (BM.rules.card).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from grammar import ast as A
from grammar import battle_monsters_nodes as N
from spec.battle_monsters import board as B
from spec.battle_monsters.actions import BOOK
from spec.battle_monsters.state import Bonus, Lasting, OnField
from spec.core.interpreter import Need, Resolution

if TYPE_CHECKING:
    from spec.battle_monsters.events import Choose
    from spec.battle_monsters.game import BattleMonsters
    from spec.battle_monsters.state import BattleMonstersState

cite = BOOK.cite


@dataclass(init=False, unsafe_hash=True)
class Src:
    """Where an effect being carried out comes from: the card, its owner and what it was on the field.

    Never changed once made. Not declared ``frozen``: a frozen dataclass can only be given its
    fields by the ``__init__`` dataclasses generates, which stays interpreted in the compiled
    build, and one is made for every effect set off; this one is written out, and
    ``unsafe_hash`` keeps the hash a frozen one would have."""

    uid: int
    name: str
    owner: str
    kind: str
    use: str | None = None
    ghost: OnField | None = None
    """The card as it was when the effect was set off (it may have left the field since)."""

    def __init__(self, uid: int, name: str, owner: str, kind: str, use: str | None = None, ghost: OnField | None = None) -> None:
        self.uid = uid
        self.name = name
        self.owner = owner
        self.kind = kind
        self.use = use
        self.ghost = ghost


def ctx_of(state: BattleMonstersState, res: Resolution) -> B.Ctx:
    """The reading context of an effect being carried out."""
    src: Src = res.source
    holder = B.find_uid(state, src.uid) or src.ghost
    the_uid = res.vars.get("the")
    the = B.find_uid(state, the_uid) if the_uid is not None else None
    return B.Ctx(res.controller, holder, the if the is not None else res.vars.get("the_ghost"))


def affected(state: BattleMonstersState, fc: OnField, res: Resolution) -> bool:
    """Whether an effect reaches ``fc``: not when ``fc`` is immune to the source's kind (BM.rules.card)."""
    src: Src = res.source
    if fc.uid == src.uid:
        return True
    return not B.immune(state, fc, B.find_uid(state, src.uid) or src.ghost)


def choice_ok(state: BattleMonstersState, res: Resolution, need: Need, ev: Choose) -> str:
    """Why a ``choose`` event does not answer the effect's question (empty if it does)."""
    sel, purpose = need.detail
    if ev.owner not in state.players:
        return f"{ev.owner!r} is not a player"
    ctx = ctx_of(state, res)
    if purpose == "graveyard":
        side = state.sides[ev.owner]
        if ev.owner not in B.who(state, res.controller, sel.owner, ctx.holder):
            return f"the effect looks in another graveyard than {ev.owner}'s"
        if side.graveyard.find(ev.card) is None:
            return f"{ev.card} is not in {ev.owner}'s graveyard"
        kind = B.card_kind(state.cards, ev.card)
        if "card" not in sel.kinds and kind not in sel.kinds:
            return f"{ev.card} is a {kind}, not a {'/'.join(sel.kinds)}"
        return ""
    fc = B.find(state, ev.owner, ev.card, ev.copy)
    if fc is None:
        return f"{ev.card} is not on {ev.owner}'s side of the field"
    if fc.uid in res.vars.get("chosen", []):
        return f"{ev.card} was already chosen"
    if not B._filters(state, sel, fc, ctx):
        return f"{ev.card} is not a card the effect describes"
    if not affected(state, fc, res):
        return f"{ev.card} is immune to {res.source.name}"
    return ""


def candidates(state: BattleMonstersState, res: Resolution, need: Need) -> list[tuple[str, str, int]]:
    """Every ``(card, owner, copy)`` a ``choose`` may name for the effect's question."""
    sel, purpose = need.detail
    ctx = ctx_of(state, res)
    out: list[tuple[str, str, int]] = []
    if purpose == "graveyard":
        for player in B.who(state, res.controller, sel.owner, ctx.holder):
            for card in state.sides[player].graveyard:
                kind = B.card_kind(state.cards, card.name or "")
                if card.name and ("card" in sel.kinds or kind in sel.kinds) and (card.name, player, 1) not in out:
                    out.append((card.name, player, 1))
        return out
    for fc in state.on_field():
        if fc.uid in res.vars.get("chosen", []):
            continue
        if B._filters(state, sel, fc, ctx) and affected(state, fc, res):
            out.append((fc.name, fc.owner, B.copy_number(state, fc)))
    return out


def step_gap(step: object) -> str | None:
    """What of an effect's ``step`` the spec does not carry out whatever the state, or
    ``None``: one list for the handlers (which raise it, naming the card, as
    :class:`~spec.battle_monsters.board.Unmodelled`) and for ``BattleMonsters.unsupported``
    (so lint notes the card before any replay plays it)."""
    if isinstance(step, N.SendTo):
        sel = step.what
        if (step.to == "field") != (sel.zone == "graveyard"):  # only from the graveyard onto the field
            return f"moving cards from the {sel.zone} to the {step.to} is not modelled"
        if step.to not in ("field", "graveyard", "hand"):
            return f"sending cards to the {step.to} is not modelled"
    if isinstance(step, N.Fuse) and (step.what.quantifier not in ("a", "chosen") or step.what.count < 2):
        return "a fusion of anything but two or more chosen monsters is not modelled"
    if isinstance(step, N.Trade):
        for cost in step.cost:
            if not isinstance(cost, N.Lives):
                return f"a cost of {type(cost).__name__} is not modelled"
    return None


def _refuse_gap(res: Resolution, step: object) -> None:
    gap = step_gap(step)
    if gap is not None:
        raise B.Unmodelled(f"{res.source.name}: {gap}")


class Effects:
    """Step handlers for the interpreter, bound to the game for moving cards and ending the game."""

    def __init__(self, game: BattleMonsters) -> None:
        self.game = game

    # -------------------------------------------------------------- helpers

    def _targets(self, state: BattleMonstersState, res: Resolution, sel: N.Cards) -> list[OnField]:
        ctx = ctx_of(state, res)
        if sel.quantifier == "this":
            holder = B.find_uid(state, res.source.uid)
            return [holder] if holder is not None else []
        if sel.quantifier in ("the", "it", "both"):
            if sel.state in ("attacking", "defending"):
                return [fc for fc in state.on_field() if B.matches(state, sel, fc, ctx)]
            if ctx.the is not None and B.find_uid(state, ctx.the.uid) is not None:
                return [ctx.the]
            return []
        if sel.quantifier == "all":
            return [fc for fc in B.select(state, sel, ctx) if affected(state, fc, res)]
        raise B.Unmodelled(f"{res.source.name}: selecting {sel.quantifier!r} cards here is not modelled")

    def _choose(self, state: BattleMonstersState, res: Resolution, sel: N.Cards, purpose: str, then: Any) -> Need | None:
        """Ask the controller to choose ``sel.count`` cards; ``then`` is carried out on each as it is chosen."""
        count = sel.count if sel.quantifier in ("a", "up_to", "chosen") else 1
        res.vars["then"] = then
        res.vars["chosen"] = []
        need = Need("choose", res.controller, count, cite("BM.rules.card"), (sel, purpose))
        if not candidates(state, res, need):
            return None
        return need

    # -------------------------------------------------------------- cards moving

    @BOOK.encodes("BM.actions.draw.effects", what="effect draws are asked of the log and do not end the turn")
    def do_draw(self, state: BattleMonstersState, res: Resolution, step: A.Draw) -> Need | None:
        ctx = ctx_of(state, res)
        players = B.takers(state, res.controller, step.player, ctx.holder)
        n = B.number(state, step.amount, ctx)
        for player in reversed(players[1:]):
            res.push((A.Draw("you" if player == res.controller else "opponent", n),))
        player = players[0]
        supply = state.sides[player].supply
        k = n if supply is None else min(n, supply)
        return Need("draw", player, k, cite("BM.actions.draw.effects")) if k > 0 else None

    def do_discard(self, state: BattleMonstersState, res: Resolution, step: A.Discard) -> Need | None:
        ctx = ctx_of(state, res)
        players = B.takers(state, res.controller, step.player, ctx.holder)
        n = B.number(state, step.amount, ctx)
        for player in reversed(players[1:]):
            res.push((A.Discard("you" if player == res.controller else "opponent", n),))
        player = players[0]
        k = min(n, len(state.sides[player].hand))
        return Need("discard", player, k, cite("BM.gloss.graveyard")) if k > 0 else None

    def do_may(self, state: BattleMonstersState, res: Resolution, step: A.May) -> Need | None:
        player = B.one_player(state, res.controller, step.player, ctx_of(state, res).holder)
        res.vars["may"] = step.steps
        return Need("may", player, 1, cite("BM.rules.card"), optional=True)

    @BOOK.encodes("BM.monster.loss", "BM.gloss.graveyard", what="effects send cards to the graveyard, to the hand or onto the field")
    def do_battle_monsters_send_to(self, state: BattleMonstersState, res: Resolution, step: N.SendTo) -> Need | None:
        sel = step.what
        _refuse_gap(res, step)
        if step.to == "field":  # from the graveyard (step_gap)
            return self._choose(state, res, sel, "graveyard", ("raise",))
        if sel.quantifier in ("a", "chosen", "up_to"):
            return self._choose(state, res, sel, "field", ("send", step.to))
        for fc in self._targets(state, res, sel):
            self._send(state, fc, step.to)
        return None

    def _send(self, state: BattleMonstersState, fc: OnField, to: str) -> None:
        if to == "graveyard":
            self.game.to_graveyard(state, fc)
        elif to == "hand":
            self.game.to_hand(state, fc)
        else:
            raise B.Unmodelled(f"sending {fc.name} to the {to} is not modelled")

    def chosen(self, state: BattleMonstersState, res: Resolution, card: str, owner: str, copy: int) -> None:
        """Carry out what the effect does to a card its controller has just chosen."""
        then = res.vars.get("then", ())
        if then[0] == "raise":
            self.game.raise_from_graveyard(state, owner, card, res)
            return
        fc = B.find(state, owner, card, copy)
        if fc is None:
            return
        res.vars["chosen"] = [*res.vars.get("chosen", []), fc.uid]  # a new list: copies of the state share the old one
        if then[0] == "send":
            self._send(state, fc, then[1])
        elif then[0] == "reveal":
            self.game.reveal(state, fc, by_effect=True)
        elif then[0] == "fuse":
            group = res.vars["chosen"]
            if len(group) >= 2:
                fused = [B.find_uid(state, uid) for uid in group]
                silent, quiet = B.fused_hush(state, [one for one in fused if one is not None])
                for one in fused:
                    if one is not None:
                        one.fused = [uid for uid in group if uid != one.uid]
                        state.field_moved()
                        state.changed("fused")
                        one.fused_silent, one.fused_quiet = silent, quiet

    # -------------------------------------------------------------- points, modes, visibility

    @BOOK.encodes("BM.monster.stats", what="effects add to or take from a monster's points, for a turn or for good")
    def do_battle_monsters_points(self, state: BattleMonstersState, res: Resolution, step: N.Points) -> Need | None:
        ctx = ctx_of(state, res)
        delta = B.number(state, step.delta, ctx)
        if step.per is not None:
            delta *= B.count(state, step.per, ctx)
        until = state.turn if step.duration is not None and step.duration.until in ("end_of_turn", "temporary") else None
        for fc in self._targets(state, res, step.target):
            if fc.kind == "monster":
                fc.bonus.append(Bonus(step.stat, delta, until, res.source.name))
        return None

    @BOOK.encodes("BM.subactions.effects", what="switches, reveals and summons made by effects are not counted as sub-actions")
    def do_battle_monsters_switch(self, state: BattleMonstersState, res: Resolution, step: N.Switch) -> Need | None:
        for fc in self._targets(state, res, step.target):
            if fc.mode != step.mode and B.permission(state, "be_switched", fc).allowed is not False:
                fc.mode = step.mode
        return None

    def do_battle_monsters_reveal(self, state: BattleMonstersState, res: Resolution, step: N.RevealCards) -> Need | None:
        sel = step.what
        if sel.quantifier in ("a", "chosen", "up_to"):
            return self._choose(state, res, sel, "field", ("reveal",))
        for fc in self._targets(state, res, sel):
            if not fc.visible:
                self.game.reveal(state, fc, by_effect=True)
        return None

    def do_battle_monsters_fuse(self, state: BattleMonstersState, res: Resolution, step: N.Fuse) -> Need | None:
        sel = step.what
        _refuse_gap(res, step)
        need = self._choose(state, res, sel, "field", ("fuse",))
        if need is not None and len(candidates(state, res, need)) < sel.count:
            return None  # fewer monsters than the fusion needs: nothing happens
        return need

    def do_battle_monsters_nullify(self, state: BattleMonstersState, res: Resolution, step: N.Nullify) -> Need | None:
        for fc in self._targets(state, res, step.what):
            fc.nullified = True
            state.field_moved()
            if state.watching:
                state.changed("nullified")
        return None

    # -------------------------------------------------------------- lives, turns, the game

    @BOOK.encodes("BM.gloss.life", what="effects change life totals; zero lives ends the game")
    def do_battle_monsters_lives(self, state: BattleMonstersState, res: Resolution, step: N.Lives) -> Need | None:
        ctx = ctx_of(state, res)
        delta = B.number(state, step.delta, ctx)
        for player in B.takers(state, res.controller, step.player, ctx.holder):
            self.game.change_lives(state, player, delta)
            if state.stage == "over":
                res.frames.clear()
                return None
        return None

    def do_battle_monsters_trade(self, state: BattleMonstersState, res: Resolution, step: N.Trade) -> Need | None:
        ctx = ctx_of(state, res)
        _refuse_gap(res, step)
        for cost in step.cost:
            assert isinstance(cost, N.Lives)  # (step_gap)
            for player in B.takers(state, res.controller, cost.player, ctx.holder):
                if state.sides[player].lives < -B.number(state, cost.delta, ctx):
                    return None  # the cost cannot be paid in full: nothing happens
        res.push(step.effect)
        res.push(step.cost)
        return None

    def do_battle_monsters_skip_turn(self, state: BattleMonstersState, res: Resolution, step: N.SkipTurn) -> Need | None:
        for player in B.takers(state, res.controller, step.player, ctx_of(state, res).holder):
            state.sides[player].skips += 1
        return None

    def do_battle_monsters_end_game(self, state: BattleMonstersState, res: Resolution, step: N.EndGame) -> Need | None:
        player = B.one_player(state, res.controller, step.player, ctx_of(state, res).holder)
        self.game.end(state, player if step.result == "win" else state.other(player), "effect")
        res.frames.clear()
        return None

    def do_battle_monsters_draw_until(self, state: BattleMonstersState, res: Resolution, step: N.DrawUntil) -> Need | None:
        player = B.one_player(state, res.controller, step.player, ctx_of(state, res).holder)
        missing = step.hand - len(state.sides[player].hand)
        if missing > 0:
            res.push((A.Draw("you" if player == res.controller else "opponent", missing),))
        return None

    def do_battle_monsters_if(self, state: BattleMonstersState, res: Resolution, step: N.IfThen) -> Need | None:
        if B.holds(state, step.condition, ctx_of(state, res)):
            res.push(step.then)
        return None

    def do_battle_monsters_cannot(self, state: BattleMonstersState, res: Resolution, step: N.Cannot) -> Need | None:
        """A "cannot" a resolved spell or trap leaves in force (for the turn with "this turn")."""
        until = state.turn if step.when == "this_turn" else None
        src: Src = res.source
        ctx = ctx_of(state, res)
        if step.subject.quantifier == "all":
            # the cards it speaks of are those there as it resolves
            uids = [fc.uid for fc in B.select(state, step.subject, ctx) if affected(state, fc, res)]
            for uid in uids:
                fc = B.find_uid(state, uid)
                if fc is not None:
                    kept = N.Cannot(N.Cards("this"), step.actions, step.by, None)
                    state.lasting.append(Lasting(kept, res.controller, src.name, fc.uid, state.stamp(), until))
                    state.changed("lasting")
            return None
        state.lasting.append(Lasting(step, res.controller, src.name, src.uid, state.stamp(), until))
        state.changed("lasting")
        return None
