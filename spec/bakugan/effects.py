"""What each effect step of Bakugan card text does (the semantics of the AST).

:class:`Effects` supplies the ``do_<step>`` handlers the core interpreter calls. A step
either changes the state at once or returns a :class:`~spec.core.interpreter.Need` for
the events the log must show next (a card drawn, a card turned over by an attack, a
roll). A step the spec gives no meaning has no handler: the interpreter raises
:class:`~spec.core.interpreter.UnsupportedStep` and the verifier reports the card as
unverifiable.

Resolution variables (``res.vars``): ``targets`` (slot key -> chosen object) and
``slots`` (slot key -> :class:`~spec.bakugan.targets.Slot`) from the announcement;
``implied`` (the Bakugan a played card is applied to, 1.13.1.2); ``self`` (for an
ability printed on a Character or Evo, its own Bakugan); ``it`` (what an earlier step
or the trigger picked); ``x`` (the Energy paid for X, 1.8.1.2.2); ``coin``; ``rerolled``
(how the effect's own Reroll ended: ``open``, ``missed`` or ``none``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, cast

import msgspec

from grammar import ast as A
from grammar import bakugan_nodes as K
from spec.bakugan import board as B
from spec.bakugan import conflicts as BC
from spec.bakugan import targets as T
from spec.bakugan.actions import BOOK
from spec.bakugan.events import Again, AttackDone, OrElse
from spec.bakugan.state import BakuganState, EnergyCard, Lasting
from spec.core.interpreter import Need, Resolution, UnsupportedStep, refuse, sole_player
from spec.core.queue import QueueItem
from spec.core.state import CardObj

if TYPE_CHECKING:
    from spec.bakugan.game import Bakugan

cite = BOOK.cite


class Effects:
    """Step handlers for the interpreter, bound to the game for moves of cards and damage."""

    def __init__(self, game: Bakugan) -> None:
        self.game = game

    # -------------------------------------------------------------- whom a step touches

    def _player(self, state: BakuganState, res: Resolution, who: str | None) -> list[str]:
        return B.owner_of(state, res.controller, who or "you")

    def _one(self, state: BakuganState, res: Resolution, who: str | None) -> str:
        """The one player a step is for. A step meant for several players that the spec
        neither splits (:meth:`_each`) nor lets be chosen is not modelled, never run for one."""
        return sole_player(self._player(state, res, who), who, B.Unmodelled)

    @BOOK.encodes("1.14.3.p1", what="a step each player takes is taken by one player after the other, the starting player first")
    def _each(self, state: BakuganState, res: Resolution, step: Any) -> None:
        """Carry out "each player ..." as one copy of ``step`` per player, in turn order
        (docs/bakugan-decisions.rst, decision 32)."""
        res.push(tuple(_said_to(step, "you" if player == res.controller else "opponent") for player in state.turn_order))

    def _chosen(self, state: BakuganState, res: Resolution, key: Any) -> Any:
        """The object selected for slot ``key`` at announcement, if it is still legal (6.7.1.2, 1.13.1.1)."""
        obj = res.vars.get("targets", {}).get(key)
        slot = res.vars.get("slots", {}).get(key)
        if obj is None or slot is None:
            return None
        return obj if T.still_legal(state, res.controller, slot, obj) else None

    def _bakugan(self, state: BakuganState, res: Resolution, sel: A.Selector, key: Any) -> list[tuple[str, str]]:
        """The (player, Bakugan) pairs a selector means in this resolution (6.8.2: Characters by default)."""
        if sel.quantifier == "it":
            it = res.vars.get("it")
            return [it] if isinstance(it, tuple) else []
        if sel.quantifier in ("the", "this") and sel.owner is None and sel.team is None and "self" in res.vars and not res.vars.get("announced"):
            return [res.vars["self"]] if state.bakugan(*res.vars["self"]) else []
        if sel.quantifier == "the":
            if "implied" not in res.vars.get("slots", {}):  # no Bakugan was selected for it: which is meant? (decision 50)
                raise B.Unmodelled(f"{sel.describe()}, where no Bakugan was selected as the card was played, is not modelled")
            chosen = self._chosen(state, res, "implied")
            if chosen and sel.owner is not None and chosen[0] not in self._player(state, res, sel.owner):
                # "+300 [B]. Retract your Bakugan ...", played on another player's Bakugan: which is meant? (decision 50)
                raise B.Unmodelled(f"{sel.describe()} where the Bakugan selected is another player's is not modelled")
            return [chosen] if chosen else []
        if sel.quantifier == "a":
            chosen = self._chosen(state, res, res.vars.get("_key", key))
            res.vars["it"] = chosen  # "and +2 [Damage Rating]" after it: the same Bakugan (grammar.bakugan.SAME), or none
            return [chosen] if chosen else []
        if sel.quantifier in ("all", "each"):
            return [(p, b.name) for p, b in B.all_bakugan(state) if B.bakugan_matches(state, res.controller, sel, p, b)]
        raise B.Unmodelled(f"the Bakugan selector {sel.describe()} is not modelled")

    # -------------------------------------------------------------- stats (1.8.1, 2.9, 2.10)

    @BOOK.encodes("3.5.3.p1", "1.8.1.1.1", "6.8.2", what="a stat change made by an effect lasts the turn, on the Bakugan's top card")
    def do_modify(self, state: BakuganState, res: Resolution, step: A.Modify) -> Need | None:
        refuse(step_gap(step), B.Unmodelled)
        delta = B.amount(step.delta, res.vars)
        if step.target.type == "player":
            for player in self._player(state, res, step.target.owner):
                state.sides[player].pool += delta  # 1.7.1.2.p1: usable for the rest of the turn
            return None
        for player, name in self._bakugan(state, res, step.target, id(step)):
            bak = state.bakugan(player, name)
            if bak is not None:
                state.lasting.append(Lasting(player, name, step.stat, delta, uid=bak.character.uid))  # no stamp: not a base value
        return None

    @BOOK.encodes("2.9.3", "2.10.3", what="an effect that sets BPower or Damage Rating sets the base value for the turn")
    def do_bakugan_set(self, state: BakuganState, res: Resolution, step: K.SetStat) -> Need | None:
        value = B.amount(step.value, res.vars)
        for player, name in self._bakugan(state, res, step.target, id(step)):
            bak = state.bakugan(player, name)
            if bak is not None:
                source = f"{getattr(res.source, 'name', None) or 'an effect'} ({res.controller})"
                state.lasting.append(Lasting(player, name, step.stat, value, base=True, uid=bak.character.uid, source=source))
                state.in_play_changed(sources=False)
        return None

    def do_bakugan_spend(self, state: BakuganState, res: Resolution, step: K.Spend) -> Need | None:
        return None  # Energy is paid as the ability is announced (6.4.2.p1)

    def do_bakugan_cost(self, state: BakuganState, res: Resolution, step: K.CostChange) -> Need | None:
        return None  # a cost change is read where costs are computed (board.cost_to_pay)

    # -------------------------------------------------------------- cards moving

    @BOOK.encodes("1.17.2", "6.8.3", "1.3/3.4", what="an effect draws or discards as many as the deck or hand allows")
    def do_draw(self, state: BakuganState, res: Resolution, step: A.Draw) -> Need | None:
        n = B.amount(step.amount, res.vars)
        players = self._player(state, res, step.player)
        needs = [(p, min(n, len(state.sides[p].deck))) for p in players]
        needs = [(p, k) for p, k in needs if k > 0]
        if not needs:
            return None
        for p, k in reversed(needs[1:]):
            res.push((A.Draw("you" if p == res.controller else "opponent", k),))
        p, k = needs[0]
        return Need("draw", p, k, cite("1.17.1.p2"))

    @BOOK.encodes("6.7.1.4", what="the player an effect lets its controller choose is shown by the one who then takes the step")
    def do_discard(self, state: BakuganState, res: Resolution, step: A.Discard) -> Need | None:
        amount = B.amount(step.amount, res.vars)
        if step.player == "each":
            self._each(state, res, step)
            return None
        if step.player == "any":  # "choose a player to discard": decision 32
            holding = tuple(p for p in state.turn_order if len(state.sides[p].hand) > 0)
            if not holding or amount <= 0:
                return None
            if len(holding) == 1:  # the player with no cards may be the one chosen, and then nothing is discarded
                return Need("discard", holding[0], min(amount, len(state.sides[holding[0]].hand)), cite("6.7.1.4"), step.what,
                            optional=True)
            return Need("discard", res.controller, amount, cite("6.7.1.4"), step.what, among=holding)
        player = self._one(state, res, step.player)
        n = min(amount, len(state.sides[player].hand))
        return Need("discard", player, n, cite("6.7.1.4"), step.what) if n else None

    def do_search(self, state: BakuganState, res: Resolution, step: A.Search) -> Need | None:
        refuse(step_gap(step), B.Unmodelled)
        player = self._one(state, res, step.player)
        return Need("search", player, 1, cite("6.7.1.4"), step.what)

    def do_reveal(self, state: BakuganState, res: Resolution, step: A.Reveal) -> Need | None:
        return None  # the searched card is shown by the search event itself

    def do_shuffle(self, state: BakuganState, res: Resolution, step: A.Shuffle) -> Need | None:
        player = self._one(state, res, step.player)
        return Need("shuffle", player, 1, cite("4.2.2.p2"))

    @BOOK.encodes("4.2.2.p1", "1.3/3.1", what="cards looked at on top of the deck and put back in any order leave the deck as "
                                               "the log knows it: face down, its order unknown")
    def do_send(self, state: BakuganState, res: Resolution, step: A.Send) -> Need | None:
        refuse(step_gap(step, (K.Look,) if res.vars.get("looked") else ()), B.Unmodelled)
        if step.to == "top of deck":
            return None  # the looked-at cards go back (decision 37)
        if _shuffles_in(step.what, step.to):
            return self._shuffle_in(state, res, step)
        if step.what.quantifier == "this":
            if res.item is None or res.item.kind != "card":
                raise B.Unmodelled(f"moving a card in play to {step.to} is not modelled")
            res.vars["stay"] = "bottom" if step.to == "bottom of deck" else "hand"  # where _settle puts it
            return None
        it = res.vars.pop("it", None)
        if isinstance(it, CardObj):
            self.game.to_hand(state, it, res.controller)
        return None

    @BOOK.encodes("6.7.1.4", "4.5.2", "1.13.1.1", what="cards shuffled from a discard pile into the deck: its player picks them as "
                                                      "the effect completes, as many as the pile holds, then shuffles the deck")
    def _shuffle_in(self, state: BakuganState, res: Resolution, step: A.Send) -> Need | None:
        """Decision 48: the player picks each card (a ``shuffle_in`` event: the pile is face up,
        so the card is named), then the deck is shuffled (a ``shuffle`` event), also when the
        pile held none to pick."""
        player = self._one(state, res, step.what.owner)
        res.push((A.Shuffle(player="you", zone="deck"),))  # the controller's own deck: _shuffles_in
        picks = [card for card in state.sides[player].discard if step.what.type in ("card", B.type_of(state, card.name or ""))]
        n = min(B.amount(step.what.count, res.vars), len(picks))
        return Need("shuffle_in", player, n, cite("6.7.1.4"), step.what) if n > 0 else None

    @BOOK.encodes("7.2.4.1", "7.2.2.1.p1", what="an effect energizes cards: the top of a deck, cards its player picks from "
                                               "their hand, or the card being played, which goes into its owner's Energy "
                                               "as it completes; sideways when uncharged")
    def do_bakugan_energize(self, state: BakuganState, res: Resolution, step: K.Energize) -> Need | None:
        refuse(step_gap(step, (K.Select,) if "it" in res.vars else ()), B.Unmodelled)
        sel = step.what
        if sel.quantifier == "this":
            if res.item is None or res.item.kind != "card":
                raise B.Unmodelled("energizing a card in play is not modelled")
            res.vars["stay"] = "energy uncharged" if step.uncharged else "energy"  # where _settle puts it
            return None
        if sel.quantifier == "it":  # a Hero an earlier step chose (decision 37)
            self._energize_chosen(state, res, step)
            return None
        if sel.zone == "discard pile":  # each card of it, all face up (4.5.2, decision 37)
            for player in self._player(state, res, sel.owner):
                pile = state.sides[player].discard
                for card in list(pile.cards):
                    pile.remove(card)
                    self.game.to_energy(state, card, charged=not step.uncharged, player=player)
            return None
        if sel.zone == "hand":  # the player shows which cards with energize events (decision 34)
            player = self._one(state, res, sel.owner)
            n = min(B.amount(sel.count, res.vars), len(state.sides[player].hand))
            return Need("energize", player, n, cite("7.2.4.1"), step, optional=sel.quantifier == "up_to") if n else None
        n = B.amount(sel.count, res.vars)
        for player in self._player(state, res, sel.owner):
            side = state.sides[player]
            for _ in range(min(n, len(side.deck))):  # 6.8.3: as many as the deck holds
                side.deck.hidden = max(0, side.deck.hidden - 1)
                side.energy.append(EnergyCard(state.new_card(None, player), charged=not step.uncharged))
        return None

    @BOOK.encodes("7.2.4.1", "3.4.2.p2", what="an effect energizes a Hero in play it chose: the Hero leaves the play area "
                                               "for its controller's Energy")
    def _energize_chosen(self, state: BakuganState, res: Resolution, step: K.Energize) -> None:
        it = res.vars.get("it")
        if not isinstance(it, CardObj) or it.defn is None or it.defn.type != "Hero":
            raise B.Unmodelled("energizing a chosen card that is not a Hero is not modelled")
        for player, side in state.sides.items():
            if it in side.heroes:
                self.game.out_of_play(state, it)
                self.game.to_energy(state, it, charged=not step.uncharged, player=player)

    @BOOK.encodes("7.2.1.1.p2", what="recharging turns a player's uncharged Energy cards upright")
    def do_bakugan_recharge(self, state: BakuganState, res: Resolution, step: K.Recharge) -> Need | None:
        for player in self._player(state, res, step.what.owner):
            for energy in state.sides[player].energy:
                energy.charged = True
        return None

    # -------------------------------------------------------------- the batch and play area

    @BOOK.encodes("6.2.1.1.p3", "6.10.2", "6.10.2.1", "6.10.2.2", "6.10.2.4", "6.10.3",
                  what="negation takes an entry out of the batch; an Action goes to the discard pile, a card in play stays")
    def do_negate(self, state: BakuganState, res: Resolution, step: A.Negate) -> Need | None:
        target = self._chosen(state, res, res.vars.get("_key", id(step)))
        if isinstance(target, QueueItem) and target in state.batch.items:
            state.batch.items.remove(target)
            if target.kind == "card":
                self.game.put_away(state, target.source)
        return None

    @BOOK.encodes("3.4.2.p2", what="a Hero leaves play only when an effect destroys or moves it")
    def do_bakugan_destroy(self, state: BakuganState, res: Resolution, step: K.Destroy) -> Need | None:
        refuse(step_gap(step), B.Unmodelled)
        if step.what.quantifier == "this":
            target = res.source if isinstance(res.source, CardObj) else None
        elif step.what.quantifier in ("all", "each"):  # every card in play the text describes, none selected (decision 44)
            for card in B.in_play_of(state, res.controller, step.what, res.source):
                self.game.destroy(state, card)
            return None
        elif step.what.type == "Energy":  # one slot per card (decision 44)
            for key in T.energy_keys(res.vars.get("_key", id(step)), cast(int, step.what.count)):
                chosen = self._chosen(state, res, key)
                if isinstance(chosen, CardObj):
                    self.game.destroy(state, chosen)
            return None
        else:
            target = self._chosen(state, res, res.vars.get("_key", id(step)))
        if isinstance(target, CardObj):
            self.game.destroy(state, target)
        return None

    def do_bakugan_take_control(self, state: BakuganState, res: Resolution, step: K.TakeControl) -> Need | None:
        refuse(step_gap(step), B.Unmodelled)
        target = self._chosen(state, res, res.vars.get("_key", id(step)))
        if isinstance(target, CardObj):
            for side in state.sides.values():
                if target in side.heroes:
                    side.heroes.remove(target)
            state.sides[res.controller].heroes.append(target)
            state.in_play_changed()
        return None

    def do_bakugan_select(self, state: BakuganState, res: Resolution, step: K.Select) -> Need | None:
        target = self._chosen(state, res, res.vars.get("_key", id(step)))
        if target is not None:
            res.vars["it"] = target
        return None

    def do_bakugan_look(self, state: BakuganState, res: Resolution, step: K.Look) -> Need | None:
        res.vars["looked"] = True  # looking changes nothing the log can show; the cards may be put back (do_send)
        return None

    @BOOK.encodes("6.2.1.p1", "2.3.3", what="an effect lets its player play a card from the hand, of the type, Factions and "
                                           "cost it names, maybe for free")
    def do_bakugan_play(self, state: BakuganState, res: Resolution, step: K.Play,
                        where: tuple[A.Condition, ...] = ()) -> Need | None:
        must = id(step) not in res.vars.get("optional_plays", ())
        discarded = res.vars.get("discarded")
        if step.what.quantifier == "it" and isinstance(discarded, CardObj):  # "play it" of a card's own discard trigger (decision 41)
            if B.in_discard_pile(state, res.controller, discarded) is None:
                return None  # 1.3/3.4: it has left the discard pile, so there is nothing to play
            return Need("play", res.controller, 1, cite("2.3.3"), T.PlayAsked(step.what, where, step.free, must, discarded), optional=True)
        refuse(step_gap(step), B.Unmodelled)
        if len(state.sides[res.controller].hand) == 0:
            return None  # 1.3/3.4: nothing to play
        asked = T.PlayAsked(step.what, where, step.free, must=must)
        return Need("play", res.controller, 1, cite("2.3.3"), asked, optional=True)  # the play is checked as it is fed

    # -------------------------------------------------------------- Bakugan and BakuCores

    def do_bakugan_retract(self, state: BakuganState, res: Resolution, step: K.Retract) -> Need | None:
        closed = False
        for player, name in self._bakugan(state, res, step.what, id(step)):
            bak = state.bakugan(player, name)
            if bak is not None:
                closed = closed or bak.open
                self.game.retract(state, player, bak)
        res.vars["done"] = closed  # "if you do": a Bakugan was closed (7.2.5.1, decision 33)
        return None

    def do_attach(self, state: BakuganState, res: Resolution, step: A.Attach) -> Need | None:
        refuse(step_gap(step), B.Unmodelled)
        slot = self._chosen(state, res, (id(step), "core"))
        to = self._chosen(state, res, (id(step), "to"))
        bak = state.bakugan(*to) if to else None
        if isinstance(slot, int) and bak is not None and bak.open:
            bak.holding.append(slot)
            BC.holding_changed(state, bak)
        return None

    @BOOK.encodes("1.3/3.4", what="a reroll a card's can't forbids cannot be carried out, and is skipped")
    def do_reroll(self, state: BakuganState, res: Resolution, step: A.Reroll) -> Need | None:
        player = self._one(state, res, step.player)
        selected = state.flags.selected.get(player)
        source = f"{getattr(res.source, 'name', None) or 'an effect'} ({res.controller})"
        res.vars["rerolled"] = "none"  # "if you open on the Reroll": none made, none opened on (decision 33)
        if selected is not None and BC.prohibited(state, player, selected, BC.REROLL, source):
            return None  # 1.3/3.2: the can't prevails; 1.3/3.4: the instruction is skipped
        if self.game.start_reroll(state, player):
            return Need("roll", player, 1, cite("1.18.1.7"))
        return None

    # -------------------------------------------------------------- attacks (1.16) and [Stop]

    @BOOK.encodes("1.16.1.2", what="a card's own attack deals its printed amount; Damage Rating changes do not touch it")
    def do_bakugan_attack(self, state: BakuganState, res: Resolution, step: K.Attack) -> Need | None:
        to = state.other(res.controller)
        n = B.amount(step.amount, res.vars)
        if n <= 0:
            return None
        if len(state.sides[to].deck) == 0:
            self.game.lose(state, to)  # 1.5.1
            res.frames.clear()
            return None
        res.vars["attack_dealt"] = 0
        res.push((AttackDone(to),))
        return Need("flip", to, n, cite("1.16.2"))

    def do_bakugan_attack_done(self, state: BakuganState, res: Resolution, step: AttackDone) -> Need | None:
        self.game.record_damage(state, step.to, res.vars.pop("attack_dealt", 0))
        return None

    def do_bakugan_stop(self, state: BakuganState, res: Resolution, step: K.Stop) -> Need | None:
        attack = state.attack
        if attack is None or state.node != "damage" or attack.shadow:
            return None  # ShadowStrike: the attack cannot be stopped (docs/bakugan-decisions.rst)
        facs = set(attack.factions)
        if step.factions:
            hit = bool(facs & set(step.factions))
            if hit == step.excluded:
                return None
        if step.holding and not set(attack.holding) & set(step.holding):
            return None
        attack.stopped = True
        return None

    @BOOK.encodes("6.7.1.4", what="a choice between the options of an effect is made as it completes, by the player the text names")
    def do_bakugan_choice(self, state: BakuganState, res: Resolution, step: K.Choice) -> Need | None:
        refuse(step_gap(step), B.Unmodelled)
        return Need("choose", self._one(state, res, step.chooser), 1, cite("6.7.1.4"), step)  # a choose event picks (decision 38)

    @BOOK.encodes("5.10.1", "3.5.3.p1", what="an effect can make the Victor the Bakugan with the highest of another stat, for the rest of the turn")
    def do_bakugan_victor_by(self, state: BakuganState, res: Resolution, step: K.VictorBy) -> Need | None:
        """An effect naming another stat for the Victor: the Power step of this turn compares that
        stat instead of BPower (docs/bakugan-decisions.rst, decision 39)."""
        state.flags.victor_by = step.stat
        return None

    def do_bakugan_flip_coin(self, state: BakuganState, res: Resolution, step: K.FlipCoin) -> Need | None:
        return Need("coin", res.controller, 1, cite("6.7.1.4"))

    # -------------------------------------------------------------- structure (1.3/3.3, 6.7.1.3)

    @BOOK.encodes("6.3.2.p2", what="an effect to happen at the end of the turn waits, then joins the batch as a triggered "
                  "ability does, with the selections made when its card was played")
    def do_delay(self, state: BakuganState, res: Resolution, step: A.Delay) -> Need | None:
        """Decision 50: "... at the end of the turn" waits in :attr:`TurnFlags.delayed` and joins the
        batch with the abilities the end of the turn triggers (in ``Bakugan._leave``, as the Play step ends)."""
        refuse(step_gap(step), B.Unmodelled)
        if state.flags.end_triggers_fired:
            raise B.Unmodelled("an effect delayed to the end of a turn whose end has come is not modelled")
        kept: dict[str, Any] = {key: res.vars[key] for key in ("targets", "slots", "self") if key in res.vars}
        state.flags.delayed.append(QueueItem("delayed", res.controller, res.source, step.effect, (), kept))
        return None

    @BOOK.encodes("6.3.5", "6.4.4", "6.7.1.1", "6.7.1.5", what="a condition in an effect is tested once, as the effect completes")
    def do_if(self, state: BakuganState, res: Resolution, step: A.If) -> Need | None:
        holds = B.condition_holds(state, res.controller, step.condition, _context(res))
        res.push(step.then if holds else step.otherwise)
        return None

    @BOOK.encodes("6.3.4", what="an optional part of an effect happens only if its player takes it (a decline event refuses)")
    def do_may(self, state: BakuganState, res: Resolution, step: A.May) -> Need | None:
        if step.player == "each":
            refuse(step_gap(step), B.Unmodelled)
            self._each(state, res, step)
            return None
        player = self._one(state, res, step.player)
        _optional_plays(res, step.steps)
        return Need("may", player, 1, cite("6.7.1.4"), (step.steps, ()), optional=True)

    def do_bakugan_or_else(self, state: BakuganState, res: Resolution, step: OrElse) -> Need | None:
        player = self._one(state, res, step.player)
        _optional_plays(res, step.steps)
        return Need("may", player, 1, cite("6.7.1.4"), (step.steps, step.otherwise), optional=True)

    @BOOK.encodes("1.3/3.1", "1.15.1.p2", what="a rider the player may use any number of times is offered again after each "
                                               "use, while its cost can be paid")
    def do_bakugan_again(self, state: BakuganState, res: Resolution, step: Again) -> Need | None:
        may = step.may
        player = self._one(state, res, may.player)
        if any(isinstance(part, K.Pay) and not self._payable(state, res, part) for part in may.steps):
            return None  # 1.15.1.p2: the cost cannot be paid again, so the offer ends
        _optional_plays(res, may.steps)
        return Need("may", player, 1, cite("6.7.1.4"), (may.steps + (step,), ()), optional=True)

    def do_bakugan_instead(self, state: BakuganState, res: Resolution, step: K.Instead) -> Need | None:
        res.push(step.steps)
        return None

    def do_bakugan_pay(self, state: BakuganState, res: Resolution, step: K.Pay) -> Need | None:
        if not self._payable(state, res, step):
            return None  # 1.15.1.p2: the cost cannot be paid, so nothing is bought
        res.push(step.cost + step.effect)
        return None

    def _payable(self, state: BakuganState, res: Resolution, step: K.Pay) -> bool:
        """Whether the hand holds the cards a "discard ... to/for ..." cost asks for."""
        for cost in step.cost:
            if isinstance(cost, A.Discard):
                player = self._one(state, res, cost.player)
                if len(state.sides[player].hand) < B.amount(cost.amount, res.vars):
                    return False
        return True

    def do_bakugan_for_each(self, state: BakuganState, res: Resolution, step: K.ForEach) -> Need | None:
        refuse(step_gap(step), B.Unmodelled)
        n = next(reader(state, res, step.count) for shape, reader in FOR_EACH if shape(step.count))
        for _ in range(n):
            res.push(step.steps)
        return None

    def do_bakugan_qualified(self, state: BakuganState, res: Resolution, step: K.Qualified) -> Need | None:
        inner = step.step
        handler = getattr(self, f"do_{inner.__struct_config__.tag}", None)
        if handler is None:
            raise UnsupportedStep(inner)
        if isinstance(inner, K.Play):  # its conditions are on the card played, checked as it is fed
            return self.do_bakugan_play(state, res, inner, step.where)
        res.vars["_key"] = id(step)
        try:
            return handler(state, res, inner)
        finally:
            res.vars.pop("_key", None)


def repeated(effect: tuple[A.Step, ...]) -> tuple[A.Step, ...]:
    """A rider's effect as it is carried out: "you may ... . You may use this any number of
    times" becomes its one optional part, offered again after each use (decision 36); any
    other effect as it is."""
    if len(effect) == 2 and isinstance(effect[0], A.May) and isinstance(effect[1], A.Permit) and effect[1].action == K.REPEAT:
        return (Again(effect[0]),)
    return effect


def _optional_plays(res: Resolution, steps: tuple[A.Step, ...]) -> None:
    """Mark the plays inside an optional part of the effect as the player's to make or not
    (decision 35); a play the text makes is skipped only when no card can be played."""
    marked: set[int] = res.vars.setdefault("optional_plays", set())
    marked.update(id(node) for node in A.nodes(steps) if isinstance(node, K.Play))


def _context(res: Resolution) -> dict[str, Any]:
    """What a condition or a count of the effect may read (``board.ConditionReader``)."""
    return {"implied": res.vars.get("targets", {}).get("implied") or res.vars.get("self"), "self": res.vars.get("self"),
            "coin": res.vars.get("coin"), "played_self": res.vars.get("played_self"), "rerolled": res.vars.get("rerolled"),
            "done": res.vars.get("done"), "damage": res.vars.get("damage")}


def _stat_counted(state: BakuganState, res: Resolution, count: A.Var) -> int:
    """"For each point of [FrostStrike] that Bakugan has": the stat as the rules read it (never
    under zero, 2.9.2, 2.10.2) of the Bakugan the effect is about, or of the Bakugan itself in
    its own text, as it is when the count is made (after the steps before it; decision 33)."""
    player, bak = B.named_bakugan(state, count.of, _context(res), ("it", "this"), f"the count of {count.name}")
    return B.stat(state, player, bak, count.name)


def _bakugan_counted(state: BakuganState, res: Resolution, count: A.Var) -> int:
    assert count.of is not None
    return sum(1 for p, b in B.all_bakugan(state) if B.bakugan_matches(state, res.controller, count.of, p, b))


def _played(state: BakuganState, res: Resolution, count: A.Var) -> int:
    """The cards the player played this turn; "every other card" leaves out the one whose effect
    this is, when it was played (decision 33, as the condition on plays does)."""
    plays = state.flags.plays.get(res.controller, 0)
    return plays - 1 if count.of is not None and count.of.other and res.vars.get("played_self") else plays


FOR_EACH: Final[tuple[tuple[Callable[[A.Var], bool], Callable[[BakuganState, Resolution, A.Var], int]], ...]] = (
    (lambda v: v.name == "X", lambda state, res, v: int(res.vars.get("x") or 0)),  # 1.8.1.2.2
    (lambda v: v.name == "count" and v.of is not None and v.of.type == "Bakugan", _bakugan_counted),
    (lambda v: v.name == "count" and v.of is not None and v.of.owner == "you" and (v.of.zone or "", v.of.type) in B.COUNTED,
     lambda state, res, v: B.COUNTED[v.of.zone or "", v.of.type](state, res.controller)),  # type: ignore[union-attr]
    (lambda v: v.name == "count" and v.of is not None and v.of.owner == "you" and v.of.type == "BakuCore" and v.of.zone == "held",
     lambda state, res, v: B.cores_held(state, res.controller)),  # 6.5.2
    (lambda v: v.name == "played" and v.of is not None and v.of.owner == "you", _played),
    (lambda v: v.name in B.STATS and v.of is not None and v.of.type == "Bakugan" and v.of.quantifier in ("the", "that", "it", "this"),
     _stat_counted),
)
"""What "for each ..." counts (a test of the count's shape, its reader), one list for the
handler and :func:`step_gap` (decision 33): X as paid, Bakugan matching the text, the
player's Heroes or Energy cards in play, discards (all, or of one type) or open Bakugan
(``board.COUNTED``), the BakuCores their Bakugan hold, the cards they played this turn, the
points of a stat the Bakugan the effect is about has."""


_MOVES: Final = (("this", "bottom of deck"), ("this", "hand"), ("it", "hand"))
"""The moves of cards the spec carries out: the card being played to the bottom of its deck
or back to its owner's hand, and the card an earlier step picked to its owner's hand (and,
after a look at the top of the deck, the cards looked at back on top: :func:`step_gap`)."""


def _shuffles_in(sel: A.Selector, to: str) -> bool:
    """Whether a move of ``sel`` to ``to`` shuffles cards the effect's controller picks from
    their own discard pile into their deck, a number the text fixes (decision 48)."""
    return to == "deck" and sel.zone == "discard pile" and sel.quantifier == "a" and sel.owner == "you" and isinstance(sel.count, int)


def _energizes(sel: A.Selector, earlier: tuple[type, ...]) -> bool:
    """Whether the spec carries out energizing what ``sel`` names: the top of a deck, the card
    being played ("this"), cards its player picks from the hand (decision 34), each card of a
    discard pile, or a Hero an earlier step chose (decision 37)."""
    return (sel.zone == "top of deck" or sel.quantifier == "this"
            or sel.zone == "hand" and sel.quantifier in ("a", "up_to")
            or sel.zone == "discard pile" and sel.quantifier in ("each", "all")
            or sel.quantifier == "it" and K.Select in earlier)


def step_gap(step: Any, earlier: tuple[type, ...] = ()) -> str | None:
    """What of ``step`` the spec does not model whatever the game state, or ``None``;
    ``earlier``: the kinds of step before it in its effect.

    One list for the handlers (which raise it as :class:`~spec.bakugan.board.Unmodelled`)
    and for ``Bakugan.unsupported`` (so lint notes the card and the simulator leaves it out
    before any replay reaches the step)."""
    if isinstance(step, A.Delay) and step.when != "end_of_turn":
        return f"an effect delayed until {step.when} is not modelled"
    if isinstance(step, A.Send) and (step.what.quantifier, step.to) == ("it", "top of deck") and K.Look in earlier:
        return None  # cards looked at, put back (decision 37)
    if isinstance(step, A.Modify):
        if step.target.type == "player" and step.stat != "Energy":
            return f"a player's {step.stat} is not modelled"
        if step.target.type != "player" and step.stat not in B.STATS:
            return f"the stat {step.stat!r} is not modelled"
    elif isinstance(step, A.Search) and step.zone != "deck":
        return f"searching the {step.zone} is not modelled"
    elif isinstance(step, A.Send) and (step.what.quantifier, step.to) not in _MOVES and not _shuffles_in(step.what, step.to):
        return f"moving {step.what.describe()} to {step.to} is not modelled"
    elif isinstance(step, K.Energize) and not _energizes(step.what, earlier):
        return f"energizing {step.what.describe()} is not modelled"
    elif isinstance(step, K.Play) and step.what.quantifier in ("all", "each"):  # a standing leave, not one play
        return f"a lasting leave to play {step.what.describe()} is not modelled"
    elif isinstance(step, K.Play) and (step.what.zone not in (None, "hand") or step.what.quantifier != "a"):
        # one card of the hand (6.2.1.p1), not a card named otherwise ("it", "this", "that Evo")
        return f"playing {step.what.describe()} is not modelled"
    elif isinstance(step, K.Select | K.Destroy | K.TakeControl) and step.what.quantifier == "a" and T.out_of_play_gap(step.what) is not None:
        return T.out_of_play_gap(step.what)
    elif isinstance(step, K.TakeControl) and T.energy_gap(step.what) is not None:
        return T.energy_gap(step.what)
    elif isinstance(step, K.TakeControl) and step.what.type == "Evo":  # an Evo lies on its owner's Character (3.3.2.p1)
        return f"taking control of {step.what.describe()} is not modelled"
    elif isinstance(step, K.Destroy) and step.what.quantifier not in ("a", "this", "all", "each"):
        return f"destroying {step.what.describe()} is not modelled"
    elif isinstance(step, K.Destroy) and step.what.quantifier in ("all", "each") and not B.reads_every(step.what):
        return f"destroying every {step.what.describe()} in play is not modelled"
    elif isinstance(step, K.Destroy) and not isinstance(step.what.count, int):
        return f"destroying {step.what.describe()}, a number the text does not fix, is not modelled"
    elif isinstance(step, A.Attach) and step.what.type != "BakuCore":
        return f"attaching {step.what.describe()} is not modelled"
    elif isinstance(step, A.May) and step.player == "each" and T.slots_of(step.steps):
        return "a choice each player may make with selections of its own is not modelled"
    elif isinstance(step, K.Choice) and any(T.slots_of(option) for option in step.options):
        return "a choice between options that select their own objects is not modelled"
    elif isinstance(step, K.ForEach) and not any(shape(step.count) for shape, _reader in FOR_EACH):
        return f"counting {step.count.name!r}{f' of {step.count.of.describe()}' if step.count.of else ''} is not modelled"
    return None


def _said_to(node: Any, relative: str) -> Any:
    """``node`` as said to one player: each "each player" and "their" in it (player or
    owner ``each``) becomes ``relative``. Parts that do not change are kept as they are,
    so a step keeps its identity (selections are keyed by it)."""
    if isinstance(node, tuple):
        parts = tuple(_said_to(part, relative) for part in node)
        return node if all(a is b for a, b in zip(parts, node, strict=True)) else parts
    if not isinstance(node, msgspec.Struct):
        return node
    changes: dict[str, Any] = {}
    for field in node.__struct_fields__:
        value = getattr(node, field)
        if field in ("player", "owner") and value == "each":
            changes[field] = relative
        elif isinstance(value, msgspec.Struct | tuple):
            said = _said_to(value, relative)
            if said is not value:
                changes[field] = said
    return msgspec.structs.replace(node, **changes) if changes else node
