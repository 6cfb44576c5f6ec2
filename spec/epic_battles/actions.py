"""The preconditions of every Epic Battles event, each citing the rule it implements.

Each check reads: the rule ID, one line of what it requires, the condition, the finding.
``EpicBattles.apply`` runs them on a recorded event; ``EpicBattles.legal_moves`` keeps the
candidate events that pass them. They only read the state; the flow lives in
:mod:`spec.epic_battles.game` and the meaning of card text in :mod:`spec.epic_battles.effects`.

Whether a named card can be in a hand, an arena or a deck at all (hidden information) is
judged when the card is taken (``EpicBattles.identify``), as ``inconsistent`` rather than
``illegal``, citing the deck-construction rule that bounds it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from grammar import ast as A
from grammar import epic_battles_nodes as N
from spec.core.findings import Violation
from spec.core.rules import Action, RuleBook, RuleIndex, fails_only
from spec.core.rules import Check as RuleCheck
from spec.core.state import CardObj, Zone
from spec.epic_battles import board as B
from spec.epic_battles import conflicts as EC
from spec.epic_battles import events as E
from spec.epic_battles.state import EpicBattlesState, Occurrence, Strike

BOOK: Final = RuleBook(RuleIndex.load("epic_battles", Path(__file__).with_name("rules.tsv")))

CHARACTER: Final = BOOK.action("character")
SHUFFLE: Final = BOOK.action("shuffle")
AGGRESSOR: Final = BOOK.action("aggressor")
DRAW: Final = BOOK.action("draw")
SET: Final = BOOK.action("set")
PASS: Final = BOOK.action("pass")
ATTACK: Final = BOOK.action("attack")
BLOCK: Final = BOOK.action("block")
RECOVER: Final = BOOK.action("recover")
FLIP: Final = BOOK.action("flip")
ACTIVATE: Final = BOOK.action("activate")
DISCARD: Final = BOOK.action("discard")
UNASKED: Final = {kind: BOOK.action(kind) for kind in ("select", "accept", "decline", "reveal", "search")}
STEP: Final = BOOK.action("step")
DAMAGE: Final = BOOK.action("damage")
CHIP: Final = BOOK.action("chip")
DOWN: Final = BOOK.action("down")
ROUND: Final = BOOK.action("round")
GAME: Final = BOOK.action("game")

Check = Violation | None

# ====================================================================== where each check can fail

NODES: Final = ("setup", "draw", "set", "action", "discard", "over")
"""Where the game can stand (``state.node``): the set-up of a round, one of the four steps of a
turn, or the game won. The node tells the stage: ``setup`` exactly in the set-up stage, ``over``
once the game is won, a step of the turn otherwise (``_start_turn`` and ``end_round`` set both)."""

# A check that can fail only at some nodes says so with core ``fails_only(node=(...))``
# (:func:`spec.core.rules.fails_only`); :func:`checks_at` leaves it out at the other nodes.


def checks_at(action: Action[Any, Any], node: str) -> tuple[tuple[RuleCheck[Any, Any], ...], tuple[Callable[..., Check], ...]]:
    """The registered checks of ``action`` that can fail at ``node``, in their order, and
    their tests (the same order), by :meth:`spec.core.rules.Action.checks_where`. Running
    these tests and stopping at the first that fails finds what ``action.first_violation``
    finds: a check left out returns ``None`` there."""
    checks = tuple(check for _test, check in action.checks_where(node=node))
    return checks, tuple(c.test for c in checks)


def _free(state: EpicBattlesState) -> bool:
    """A turn is on and no effect or cost is being carried out (``state.busy``, read at once)."""
    return state.stage == "turn" and state.resolution is None and not state.pending


def _type(state: EpicBattlesState, name: str | None) -> str:
    defn = state.cards.get(name) if name is not None else None
    return B.role(defn)


def in_zone(zone: Zone, name: str, what: str, player: str) -> Violation | None:
    """The card is in the zone: known there, or one of its cards the log has not shown yet."""
    for card in zone.cards:  # (Zone.find and Zone.unknown, in one pass)
        if card.name == name or card.name is None:
            return None
    return Violation(f"{name} is not in {player}'s {what}", expected=f"a card of the {what}", actual=name)


def top_strike(state: EpicBattlesState) -> Strike | None:
    return state.strikes[-1] if state.strikes else None


# ====================================================================== set-up (EB.setup.*)

@CHARACTER.precondition("EB.setup.character", "each player shows their character once, while the first round is set up")
def character_in_first_setup(state: EpicBattlesState, ev: E.Character) -> Check:
    side = state.sides[ev.by or ""]
    if state.stage != "setup" or state.round != 1 or side.character is not None:
        return Violation("a character shown outside the first set-up, or twice", expected="one character per player, before the first round",
                         actual=f"character {ev.card}")
    return None


@CHARACTER.precondition("EB.setup.character", "the card shown beside the deck is a character card")
def character_is_a_character(state: EpicBattlesState, ev: E.Character) -> Check:
    if _type(state, ev.card) != "character":
        return Violation(f"{ev.card} is not a character card", expected="a Character", actual=_type(state, ev.card) or ev.card)
    return None


@SHUFFLE.precondition("EB.setup.shuffle", "a deck is shuffled once as each round is set up, or when an effect says so")
def shuffle_called_for(state: EpicBattlesState, ev: E.Shuffle) -> Check:
    side = state.sides[ev.by or ""]
    if state.stage == "setup" and not side.shuffled:
        return None
    return Violation("a shuffle no rule or effect calls for here", expected="no shuffle", actual="shuffle")


@AGGRESSOR.precondition("EB.setup.aggressor.first", "the first aggressor is picked at random once, in set-up, among the players")
def aggressor_picked_once(state: EpicBattlesState, ev: E.Aggressor) -> Check:
    if ev.player not in state.players:
        return Violation(f"{ev.player!r} is not a player of this game", expected="one of the players", actual=ev.player)
    if state.stage != "setup" or any(state.sides[p].drawn for p in state.players):
        return Violation("the aggressor is picked during set-up, before the cards are drawn", expected="no pick here", actual="aggressor")
    if state.round == 1 and state.aggressor is not None:
        return Violation("the aggressor was already picked", expected="one random pick", actual="another pick")
    return None


@AGGRESSOR.precondition("EB.setup.aggressor.later", "from the second round, the aggressor is the loser of the last round")
def aggressor_is_last_loser(state: EpicBattlesState, ev: E.Aggressor) -> Check:
    if state.round > 1 and ev.player != state.aggressor:
        return Violation(f"{ev.player} named aggressor of round {state.round}", expected=f"{state.aggressor}, who lost the last round",
                         actual=ev.player)
    return None


@fails_only(node=("setup",))
@DRAW.precondition("EB.setup.character", "no card is drawn before its player's character is shown")
def draw_after_character(state: EpicBattlesState, ev: E.Draw) -> Check:
    if state.stage == "setup" and state.sides[ev.by or ""].character is None:
        return Violation("a card drawn before the character was shown", expected="the character first", actual="draw")
    return None


@fails_only(node=("setup",))
@DRAW.precondition("EB.setup.shuffle", "no card is drawn in set-up before its player shuffled their deck")
def draw_after_shuffle(state: EpicBattlesState, ev: E.Draw) -> Check:
    if state.stage == "setup" and not state.sides[ev.by or ""].shuffled:
        return Violation("a card drawn from an unshuffled deck", expected="shuffle first", actual="draw")
    return None


@fails_only(node=("setup",))
@DRAW.precondition("EB.setup.aggressor.first", "the opening hands are drawn once the aggressor is known")
def draw_after_aggressor(state: EpicBattlesState, ev: E.Draw) -> Check:
    if state.stage == "setup" and state.aggressor is None:
        return Violation("a card drawn before the aggressor was picked", expected="the aggressor first", actual="draw")
    return None


@fails_only(node=("setup",))
@DRAW.precondition("EB.setup.draw", "each player draws three cards in set-up")
def three_in_setup(state: EpicBattlesState, ev: E.Draw) -> Check:
    if state.stage == "setup" and state.sides[ev.by or ""].drawn >= 3:
        return Violation("a fourth card drawn in set-up", expected="three cards", actual="a fourth draw")
    return None


@fails_only(node=("draw", "set", "action", "discard", "over"))
@DRAW.precondition("EB.turn.step1.draw", "outside set-up, a player draws only their three cards of the Draw step")
def draw_in_draw_step(state: EpicBattlesState, ev: E.Draw) -> Check:
    stage = state.stage
    if stage == "setup":
        return None
    if stage != "turn" or state.resolution is not None or state.pending or state.node != "draw" \
            or state.sides[ev.by or ""].drawn >= 3:  # (not _free, read at once: a draw is asked on a third of the events)
        return Violation("a draw no step or effect calls for", expected="no draw here", actual=f"draw by {ev.by}")
    return None


@fails_only(node=("draw",))
@DRAW.precondition("EB.turn.order", "in the Draw step the aggressor draws first")
def aggressor_draws_first(state: EpicBattlesState, ev: E.Draw) -> Check:
    if state.stage == "turn" and state.node == "draw" and state.aggressor is not None and ev.by != state.aggressor \
            and state.sides[state.aggressor].drawn < 3:
        return Violation(f"{ev.by} drew before the aggressor had drawn", expected=f"{state.aggressor} draws first", actual=f"draw by {ev.by}")
    return None


# ====================================================================== the Set step (EB.turn.step2.*)

@SET.precondition("EB.turn.step2.set", "events are set only in the Set step")
def set_in_set_step(state: EpicBattlesState, ev: E.Set) -> Check:
    if not _free(state) or state.node != "set":
        return Violation("an event set outside the Set step", expected="set in the Set step", actual=f"set in {state.node}")
    return None


@SET.precondition("EB.turn.order", "in the Set step the aggressor sets first, then the other player")
def set_in_turn_order(state: EpicBattlesState, ev: E.Set) -> Check:
    if ev.by != state.holder:
        return Violation(f"{ev.by} set an event while it was {state.holder}'s part of the step", expected=f"a move by {state.holder}",
                         actual=f"set by {ev.by}")
    return None


@SET.precondition("EB.card.event.set", "only event cards are set, from the hand")
def set_an_event(state: EpicBattlesState, ev: E.Set) -> Check:
    if ev.card is not None and _type(state, ev.card) != "event":
        return Violation(f"{ev.card} is not an event", expected="an Event", actual=_type(state, ev.card) or ev.card)
    hand = state.sides[ev.by or ""].hand
    if ev.card is None:
        return None if len(hand) else Violation("a card set from an empty hand", expected="a card in hand", actual="set")
    return in_zone(hand, ev.card, "hand", ev.by or "")


# ====================================================================== passing

@fails_only(node=("setup", "over"))
@PASS.precondition("EB.setup.draw", "nothing is passed in set-up: the opening cards are drawn")
def no_pass_in_setup(state: EpicBattlesState, ev: E.Pass) -> Check:
    if state.stage != "turn":
        return Violation("a pass where no player is asked to act", expected="no pass here", actual="pass")
    return None


@fails_only(node=("draw",))
@PASS.precondition("EB.turn.step1.draw", "the Draw step cannot be passed through: both players draw three")
def no_pass_in_draw_step(state: EpicBattlesState, ev: E.Pass) -> Check:
    if state.node == "draw":
        return Violation("a pass in the Draw step", expected="the draws", actual="pass")
    return None


@fails_only(node=("discard",))
@PASS.precondition("EB.turn.step4.discard", "the Discard step cannot be passed through: hands are discarded down to three")
def no_pass_in_discard_step(state: EpicBattlesState, ev: E.Pass) -> Check:
    if state.node == "discard":
        return Violation("a pass in the Discard step", expected=f"{state.holder} discards down to three", actual="pass")
    return None


@PASS.precondition("EB.turn.order", "a pass comes from the player whose turn it is to act")
def pass_by_holder(state: EpicBattlesState, ev: E.Pass) -> Check:
    if ev.by != state.holder:
        return Violation(f"{ev.by} passed while {state.holder} was to act", expected=f"a move by {state.holder}", actual=f"pass by {ev.by}")
    return None


# ====================================================================== attacks (EB.card.attack.*, EB.link.*)

@ATTACK.precondition("EB.turn.step3.choice", "attacking is an action of the Action step, made when an action or a link is due")
def attack_in_action_step(state: EpicBattlesState, ev: E.Attack) -> Check:
    if not _free(state) or state.node != "action" or state.window not in ("act", "link"):
        where = f"{state.node}/{state.window}" if state.window else state.node
        return Violation("an attack where no action is due", expected="an attack when an action is due", actual=f"attack in {where}")
    return None


@ATTACK.precondition("EB.turn.step3.alternate", "the players take their actions in turn: only the player due to act attacks")
def attack_in_turn(state: EpicBattlesState, ev: E.Attack) -> Check:
    if ev.by != state.holder:
        return Violation(f"{ev.by} attacked during {state.holder}'s action", expected=f"an action by {state.holder}", actual=f"attack by {ev.by}")
    return None


@ATTACK.precondition("EB.link.timing", "an attack said to link is played right after its player's previous attack; one said not to, as an action")
def attack_link_as_said(state: EpicBattlesState, ev: E.Attack) -> Check:
    if ev.link is True and state.window != "link":
        return Violation("an attack logged as linked with no attack of the action to link after", expected="a new action",
                         actual="a linked attack")
    if ev.link is False and state.window == "link":
        return Violation("an attack logged as a new action while its player's combo goes on", expected="a linked attack or the end of the combo",
                         actual="a new action")
    return None


@ATTACK.precondition("EB.card.attack.play", "only attack cards are played as attacks")
def attack_is_an_attack(state: EpicBattlesState, ev: E.Attack) -> Check:
    if _type(state, ev.card) != "attack":
        return Violation(f"{ev.card} is not an attack", expected="an Attack", actual=_type(state, ev.card) or ev.card)
    return None


@ATTACK.precondition("EB.card.attack.play", "an attack is played from its player's hand")
def attack_from_hand(state: EpicBattlesState, ev: E.Attack) -> Check:
    return in_zone(state.sides[ev.by or ""].hand, ev.card, "hand", ev.by or "")


def links(state: EpicBattlesState, player: str, card: CardObj) -> Violation | None:
    """Whether ``card`` may be played as the next attack of ``player``'s combo (EB.link.def)."""
    if not state.combo:
        return None
    prev_uid, prev_name = state.combo[-1]
    prev = state.cards.get(prev_name)
    if B.prohibited(state, player, "link attacks"):
        return Violation(f"{player} cannot link attacks now", expected="no linked attack", actual=card.name)
    verdict: bool | None = None
    for lasting, step in B.in_force(state, N.EpicBattlesLink):
        assert isinstance(step, N.EpicBattlesLink)
        if B.selects(state, lasting.controller, step.what, card.uid, card.defn, player, lasting.this, lasting.that) and \
                B.selects(state, lasting.controller, step.after, prev_uid, prev, player, lasting.this, lasting.that):
            verdict = step.allowed if verdict is None else verdict and step.allowed
    if verdict is False:
        return Violation(f"an effect forbids linking after {prev_name}", expected="no linked attack", actual=card.name)
    for step in B.own_steps(state, card.name or "", player, {}):
        if isinstance(step, N.EpicBattlesLink) and step.allowed and \
                B.selects(state, player, step.after, prev_uid, prev, player, card.uid, None):
            return None
    if verdict:
        return None
    ups = B.follow_ups(state, prev_uid, prev, player)
    mine = B.traits(state, card.uid, card.defn, player)
    if not set(ups) & set(mine):
        return Violation(f"{card.name} does not link after {prev_name}", expected=f"a trait among {', '.join(ups) or 'none'}",
                         actual=", ".join(mine) or "no trait")
    return None


def hand_card(state: EpicBattlesState, player: str, name: str) -> CardObj:
    """The card of that name in the hand, or a stand-in for an unknown one (for checks only)."""
    hand = state.sides[player].hand
    found = hand.find(name)
    if found is not None:
        return found
    unknown = hand.unknown()
    return CardObj(unknown.uid if unknown is not None else -1, name, player, state.cards.get(name))


@ATTACK.precondition("EB.link.timing", "an attack played right after another in the same action links to it")
def attack_links(state: EpicBattlesState, ev: E.Attack) -> Check:
    if state.window != "link":
        return None
    return links(state, ev.by or "", hand_card(state, ev.by or "", ev.card))


@ATTACK.precondition("EB.link.timing", "an attack's own timing holds: only as a linked attack, or only as the first of an action")
def attack_combo_timing(state: EpicBattlesState, ev: E.Attack) -> Check:
    for ability in B.abilities(state, ev.card, A.Conditional):
        if ability.timing == "combo" and state.window != "link":
            return Violation(f"{ev.card} is only played as a linked attack", expected="a combo under way", actual="the first attack of an action")
        if ability.timing == "combo_start" and state.window == "link":
            return Violation(f"{ev.card} is only played as the first attack of an action", expected="the first attack", actual="a linked attack")
    return None


@ATTACK.precondition("EB.card.attack.play", "an attack's own condition for being played holds")
def attack_condition(state: EpicBattlesState, ev: E.Attack) -> Check:
    for ability in B.abilities(state, ev.card, A.Conditional):
        if ability.condition is not None and not B.condition_holds(state, ev.by or "", ability.condition, {"combo": len(state.combo) + 1}):
            return Violation(f"{ev.card}'s condition for being played does not hold", expected="its condition", actual="not met")
    return None


def cost_shortfall(state: EpicBattlesState, player: str, energy_cost: int, extra: tuple[A.Step, ...], keep: int = 1) -> Violation | None:
    """Whether a player can pay ``energy_cost`` plus the additional cost ``extra``.

    ``keep`` is how many cards of the hand are not available to discard (the card being played).
    """
    side = state.sides[player]
    energy = energy_cost
    for step in extra:
        if isinstance(step, N.EpicBattlesPay):
            energy += B.amount(step.amount)
        elif isinstance(step, A.Discard):
            if len(side.hand) - keep < B.amount(step.amount):
                return Violation("not enough cards in hand to discard for the cost", expected=f"{B.amount(step.amount)} card(s)",
                                 actual=str(max(0, len(side.hand) - keep)))
        elif isinstance(step, N.EpicBattlesRemove):
            need = B.amount(step.what.count)
            have = sum(1 for c in side.discard if c.name is None or B.accepts(c.defn, step.what))
            if have < need:
                return Violation("not enough cards in the discard pile for the cost", expected=f"{need} {step.what.team or ''} {step.what.type}(s)",
                                 actual=str(have))
        else:
            raise B.Unmodelled(f"a cost of {type(step).__name__} is not modelled")
    energy_pile = side.energy
    if len(energy_pile.cards) + energy_pile.hidden < energy:  # (the size of the pile, read at once)
        return Violation("not enough energy", expected=f"{energy} energy", actual=f"{len(side.energy)} in the energy pile")
    return None


@ATTACK.precondition("EB.card.attack.pay", "the attack's cost (or its alternative cost) can be paid in full")
def attack_cost(state: EpicBattlesState, ev: E.Attack) -> Check:
    player = ev.by or ""
    card = hand_card(state, player, ev.card)
    _effect, extra = B.spell(state, ev.card)
    if ev.alternative:
        alt = B.alternative(state, ev.card)
        if alt is None:
            return Violation(f"{ev.card} has no alternative cost", expected="its energy cost", actual="an alternative cost")
        return cost_shortfall(state, player, 0, alt.cost + extra)
    price = B.cost(state, card, player, {"combo": len(state.combo) + 1})
    move = state.move
    if move is not None and move.event is ev and ev.card in state.cat.own_cost:  # (its own text adds the same in every state)
        move.price = (card.uid, price)  # what carrying the attack out pays (EpicBattles._play_strike)
    return cost_shortfall(state, player, price, extra)


# ====================================================================== blocks (EB.card.block.*)

@BLOCK.precondition("EB.card.attack.text", "a block answers an attack whose text is done and which waits for a block")
def block_awaits_attack(state: EpicBattlesState, ev: E.Block) -> Check:
    if not _free(state) or state.window != "block":
        return Violation("a block with no attack waiting for one", expected="no block here", actual=f"block with {ev.card}")
    return None


@BLOCK.precondition("EB.card.attack.blocked", "only the player the attack is aimed at blocks it")
def block_by_defender(state: EpicBattlesState, ev: E.Block) -> Check:
    strike = top_strike(state)
    if strike is None or ev.by != strike.defender:
        return Violation(f"{ev.by} blocked an attack not aimed at them", expected=f"a block by {strike.defender if strike else 'nobody'}",
                         actual=f"block by {ev.by}")
    return None


@BLOCK.precondition("EB.card.block.type", "only block cards are played to block an attack")
def block_is_a_block(state: EpicBattlesState, ev: E.Block) -> Check:
    if _type(state, ev.card) != "block":
        return Violation(f"{ev.card} is not a block", expected="a Block", actual=_type(state, ev.card) or ev.card)
    return None


@BLOCK.precondition("EB.card.block.sequence", "a block is played from its player's hand")
def block_from_hand(state: EpicBattlesState, ev: E.Block) -> Check:
    return in_zone(state.sides[ev.by or ""].hand, ev.card, "hand", ev.by or "")


def heights_blocked(state: EpicBattlesState, player: str, card: CardObj) -> set[str]:
    """The attack heights a block can stop: its own, and any its own text allows."""
    out = {h for h in [B.height(card.defn)] if h is not None}
    for step in B.own_steps(state, card.name or "", player, {}):
        if isinstance(step, A.Permit) and step.action.startswith("block ") and step.action.endswith(" attacks"):
            out.add(step.action.split(" ")[1])
    return out


@BLOCK.precondition("EB.card.block.type", "the block is of the attack's height")
def block_height(state: EpicBattlesState, ev: E.Block) -> Check:
    strike = top_strike(state)
    if strike is None:
        return None
    wanted = B.height(strike.card.defn)
    heights = heights_blocked(state, ev.by or "", hand_card(state, ev.by or "", ev.card))
    if wanted not in heights:
        return Violation(f"{ev.card} cannot block the {wanted} attack {strike.card.name}", expected=f"a {wanted} block",
                         actual=" or ".join(sorted(heights)) or "no height")
    return None


@BLOCK.precondition("EB.card.block.type", "nothing forbids the block: an unblockable attack, a banned height, the block's own condition")
def block_not_forbidden(state: EpicBattlesState, ev: E.Block) -> Check:
    strike = top_strike(state)
    if strike is None:
        return None
    for ability in B.abilities(state, ev.card, A.Conditional):
        if ability.condition is not None and not B.condition_holds(state, ev.by or "", ability.condition, {}):
            return Violation(f"{ev.card}'s condition for being played does not hold", expected="its condition", actual="not met")
    mine = B.height(state.cards.get(ev.card))
    if B.attack_prohibited(state, strike.card.uid, "be blocked"):
        return Violation(f"{strike.card.name} cannot be blocked", expected="no block", actual=f"block with {ev.card}")
    if mine is not None and B.attack_prohibited(state, strike.card.uid, f"be blocked by {mine} blocks"):
        return Violation(f"{strike.card.name} cannot be blocked by {mine} blocks", expected="another block", actual=ev.card)
    if mine is not None and B.prohibited(state, ev.by or "", f"play {mine} blocks"):
        return Violation(f"{ev.by} cannot play {mine} blocks now", expected="another block", actual=ev.card)
    return None


@BLOCK.precondition("EB.card.block.sequence", "the block's cost and any additional cost can be paid in full")
def block_cost(state: EpicBattlesState, ev: E.Block) -> Check:
    player = ev.by or ""
    _effect, extra = B.spell(state, ev.card)
    return cost_shortfall(state, player, B.cost(state, hand_card(state, player, ev.card), player), extra)


# ====================================================================== recovering by paying (EB.recover.block)

@RECOVER.precondition("EB.recover.effect", "a player a card effect stood up, the card prevailing over the knock-down, has nothing left to pay to recover from")
def recover_after_card(state: EpicBattlesState, ev: E.Recover) -> Check:
    """The log went the other way of a settled clash: it pays to recover as if the knock-down
    had prevailed over the card that made the player recover (spec.epic_battles.conflicts)."""
    if state.window == "recover":
        return None
    stood = next((o for o in reversed(state.recent) if o.event == "recovered" and o.who == ev.by and o.settled), None)
    if stood is None:
        return None
    return Violation(f"{ev.by} pays to recover, but a card effect already stood them up: {stood.settled}",
                     expected=f"no paid recovery: {ev.by} is no longer down", actual="recover")


@RECOVER.precondition("EB.recover.block", "a paid recovery comes right after its player blocked a Knock Down or Launcher")
def recover_after_blocking(state: EpicBattlesState, ev: E.Recover) -> Check:
    strike = top_strike(state)
    if not _free(state) or state.window != "recover" or strike is None or ev.by != strike.defender:
        return Violation("a paid recovery where no blocked Knock Down or Launcher allows one", expected="no recovery here", actual="recover")
    return None


@RECOVER.precondition("EB.recover.block", "the recovery is paid with a block from hand, or two blocks of the right height from the discard pile")
def recover_payment(state: EpicBattlesState, ev: E.Recover) -> Check:
    side = state.sides[ev.by or ""]
    strike = top_strike(state)
    wanted = "High" if strike is not None and strike.card.name and B.keyword(state, strike.card.name, "launcher") else "Low"
    if (ev.discard is None) == (not ev.remove):
        return Violation("a recovery pays with a block from hand or with two blocks from the discard pile", expected="one of the two",
                         actual="both" if ev.discard is not None else "neither")
    if ev.discard is not None:
        if _type(state, ev.discard) != "block":
            return Violation(f"{ev.discard} is not a block", expected="a block from hand", actual=ev.discard)
        return in_zone(side.hand, ev.discard, "hand", ev.by or "")
    if len(ev.remove) != 2:
        return Violation(f"{len(ev.remove)} cards removed to recover", expected=f"two {wanted} blocks", actual=str(len(ev.remove)))
    for name in ev.remove:
        defn = state.cards.get(name)
        if B.role(defn) != "block" or B.height(defn) != wanted:
            return Violation(f"{name} is not a {wanted} block", expected=f"two {wanted} blocks", actual=name)
    names = list(ev.remove)
    known = [c.name for c in side.discard if c.name is not None]
    unknown = sum(1 for c in side.discard if c.name is None)
    for name in names:
        if name in known:
            known.remove(name)
        elif unknown:
            unknown -= 1
        else:
            return Violation(f"{name} is not in {ev.by}'s discard pile", expected=f"two {wanted} blocks there", actual=name)
    return None


@RECOVER.precondition("EB.recover.block", "a player whom an effect stops from recovering cannot pay to recover")
def recover_allowed(state: EpicBattlesState, ev: E.Recover) -> Check:
    if B.prohibited(state, ev.by or "", "recover"):
        return Violation(f"{ev.by} cannot recover now", expected="no recovery", actual="recover")
    return None


# ====================================================================== events (EB.card.event.*)

@FLIP.precondition("EB.card.event.flip.timing", "events are flipped during a turn, never in the middle of an effect")
def flip_while_free(state: EpicBattlesState, ev: E.Flip) -> Check:
    if not _free(state):
        return Violation("an event flipped while an effect was being carried out", expected="the effect finished first", actual="flip")
    return None


def set_events(state: EpicBattlesState, player: str, names: list[str]) -> list[CardObj] | Violation:
    """The face-down cards of the arena the names stand for (unknown ones taken in arena order)."""
    arena = [c for c in state.sides[player].arena if not c.face_up]
    taken: list[CardObj] = []
    for name in names:
        card = next((c for c in arena if c.name == name and c not in taken), None)
        if card is None:
            card = next((c for c in arena if c.name is None and c not in taken), None)
        if card is None:
            return Violation(f"{name} is not set face down in {player}'s arena", expected="a set event", actual=name)
        taken.append(card)
    return taken


@FLIP.precondition("EB.card.event.flip", "only events set face down in the player's own arena are flipped")
def flip_set_events(state: EpicBattlesState, ev: E.Flip) -> Check:
    if not ev.cards:
        return Violation("a flip of no card", expected="one or more set events", actual="none")
    for name in ev.cards:
        if _type(state, name) != "event":
            return Violation(f"{name} is not an event", expected="an Event", actual=_type(state, name) or name)
    found = set_events(state, ev.by or "", ev.cards)
    if isinstance(found, Violation):
        return found
    move = state.move
    if move is not None and move.event is ev:
        move.found = found  # the cards carrying the flip out turns up (EpicBattles._do_flip)
    return None


def flip_moment(state: EpicBattlesState, player: str, name: str) -> Occurrence | None | bool:
    """The moment that lets ``player`` flip ``name`` now: an occurrence, ``True`` (any time), or ``None``."""
    if B.keyword(state, name, "flip_any_time"):
        return True
    trigger = B.flip_trigger(state, name)
    if trigger is None:
        return None
    for occ in reversed(state.recent):
        if matches(state, player, trigger, occ):
            return occ
    return None


def matches(state: EpicBattlesState, controller: str, trigger: A.Trigger, occ: Occurrence) -> bool:
    """Whether an occurrence is the moment a trigger of ``controller``'s card names."""
    if trigger.event != occ.event or (trigger.phase is not None and trigger.phase != occ.phase):
        return False
    if trigger.who in ("you", "opponent") and occ.who not in B.who(state, controller, trigger.who):
        return False
    sel = trigger.subject
    if sel is not None and sel.type != "player" and sel.quantifier != "this":
        if occ.defn is None or not B.kind_matches(occ.defn, sel.type):
            return False
        if sel.team is not None and sel.team not in occ.labels:
            return False
    return True


@FLIP.precondition("EB.card.event.flip.timing", "an event is flipped only at the moment its text names, and only while its conditions hold")
def flip_moment_named(state: EpicBattlesState, ev: E.Flip) -> Check:
    player = ev.by or ""
    permitted = EC.flip_permitted(state, player)
    if B.prohibited(state, player, "flip events") and not permitted:
        return Violation(f"{player} cannot flip events now", expected="no flip", actual="flip")
    moments: list[Occurrence | bool | None] = []
    for name in ev.cards:
        moment = flip_moment(state, player, name)
        if permitted and (moment is None or B.prohibited(state, player, "flip events")):
            mark = len(state.notes)
            try:  # a card lets them flip events: the policy decides (weighed here, noted as the flip is made)
                problem = EC.judge_flip(state, player, name)
            finally:
                del state.notes[mark:]  # (judge_flip only adds notes: what it noted is taken back)
            if problem is not None:
                return problem
        elif moment is None:
            trigger = B.flip_trigger(state, name)
            return Violation(f"{name} flipped when its moment had not come", expected=f"a flip at {trigger.event if trigger else 'no moment'}",
                             actual="flip now")
        for ability in B.abilities(state, name, A.Conditional):
            if ability.condition is not None and not B.condition_holds(state, player, ability.condition, {}):
                return Violation(f"{name}'s condition does not hold", expected="its condition", actual="not met")
        moments.append(moment)
    move = state.move
    if move is not None and move.event is ev:
        move.moments = moments  # the moments carrying the flip out notes (EpicBattles._do_flip)
    return None


def _flip_costs(state: EpicBattlesState, player: str, names: list[str]) -> list[int]:
    """The energy each event named costs now, as a card not yet in play (``-1``)."""
    cards = state.cards
    return [B.price(state, -1, name, cards.get(name), player) for name in names]


def flip_prices(state: EpicBattlesState, ev: E.Flip) -> list[int]:
    """:func:`_flip_costs` of a flip's events: worked out once for both checks of its costs
    (``state.move``) when ``EpicBattles._apply`` judges it, every time otherwise."""
    move = state.move
    if move is None or move.event is not ev:
        return _flip_costs(state, ev.by or "", ev.cards)
    prices = move.prices
    if prices is None:
        prices = move.prices = _flip_costs(state, ev.by or "", ev.cards)
    return prices


@FLIP.precondition("EB.card.event.flip.pay", "the flipping player can pay the event's cost (and any additional cost of its text)")
def flip_cost(state: EpicBattlesState, ev: E.Flip) -> Check:
    have = len(state.sides[ev.by or ""].energy)
    for name, price in zip(ev.cards, flip_prices(state, ev), strict=True):
        if price > have:
            return Violation(f"not enough energy to flip {name}", expected=f"{price} energy", actual=f"{have} in the energy pile")
        _effect, extra = B.spell(state, name)
        shortfall = cost_shortfall(state, ev.by or "", price, extra, keep=0) if extra else None
        if shortfall is not None:
            return shortfall
    return None


@FLIP.precondition("EB.card.event.flip.multi", "events flipped together are paid for together, in full")
def flip_together(state: EpicBattlesState, ev: E.Flip) -> Check:
    have = len(state.sides[ev.by or ""].energy)
    total = sum(flip_prices(state, ev))
    if total > have:
        return Violation(f"{len(ev.cards)} events flipped together cost more than the energy pile holds", expected=f"{total} energy",
                         actual=f"{have} in the energy pile")
    return None


# ====================================================================== a character's activated ability

@ACTIVATE.precondition("EB.kw.knockdown.state", "a character's ability is used during a turn, when no effect is being carried out")
def activate_while_free(state: EpicBattlesState, ev: E.Activate) -> Check:
    if not _free(state):
        return Violation("an ability used while an effect was being carried out", expected="the effect finished first", actual="activate")
    return None


@ACTIVATE.precondition("EB.setup.character", "the ability used is one of the player's character")
def activate_ability(state: EpicBattlesState, ev: E.Activate) -> Check:
    character = state.sides[ev.by or ""].character
    found = [] if character is None or character.name is None else [
        a for a in B.abilities(state, character.name, A.Activated) if not a.alternative]
    if not 0 <= ev.ability < len(found):
        return Violation(f"{ev.by}'s character has no ability {ev.ability}", expected=f"{len(found)} ability(ies)", actual=str(ev.ability))
    return None


@ACTIVATE.precondition("EB.energy.pay", "the ability's cost can be paid in full")
def activate_cost(state: EpicBattlesState, ev: E.Activate) -> Check:
    character = state.sides[ev.by or ""].character
    assert character is not None and character.name is not None
    ability = [a for a in B.abilities(state, character.name, A.Activated) if not a.alternative][ev.ability]
    return cost_shortfall(state, ev.by or "", 0, ability.cost, keep=0)


# ====================================================================== the Discard step (EB.turn.step4.*)

@DISCARD.precondition("EB.turn.step4.discard", "outside effects, cards are discarded in the Discard step, down to three")
def discard_in_discard_step(state: EpicBattlesState, ev: E.Discard) -> Check:
    hand = state.sides[ev.by or ""].hand
    if state.stage != "turn" or state.resolution is not None or state.pending or state.node != "discard" \
            or len(hand.cards) + hand.hidden <= 3:  # (not _free and the size of the hand, read at once)
        return Violation("a discard no step or effect calls for", expected="no discard here", actual=f"discard by {ev.by}")
    return None


@DISCARD.precondition("EB.turn.order", "in the Discard step the aggressor discards first")
def discard_in_turn_order(state: EpicBattlesState, ev: E.Discard) -> Check:
    if ev.by != state.holder:
        return Violation(f"{ev.by} discarded during {state.holder}'s part of the step", expected=f"a discard by {state.holder}",
                         actual=f"discard by {ev.by}")
    return None


@DISCARD.precondition("EB.turn.step4.discard", "the discarded card comes from the player's hand")
def discard_from_hand(state: EpicBattlesState, ev: E.Discard) -> Check:
    if ev.card is None:
        return None
    return in_zone(state.sides[ev.by or ""].hand, ev.card, "hand", ev.by or "")


def _unasked(kind: str, rule: str) -> None:
    def check(state: EpicBattlesState, ev: object) -> Check:
        return Violation(f"a {kind} that no effect asked for", expected="no such event here", actual=kind)

    check.__name__ = check.__qualname__ = f"unasked_{kind}"
    UNASKED[kind].precondition(rule, f"a {kind} happens only while an effect asks for one")(check)


for _kind in ("select", "accept", "decline"):
    _unasked(_kind, "EB.turn.step3.choice")
for _kind in ("reveal", "search"):
    _unasked(_kind, "EB.turn.steps")


# ====================================================================== claims

@STEP.precondition("EB.turn.steps", "a claimed step is the step the rules have reached")
def step_claim(state: EpicBattlesState, ev: E.Step) -> Check:
    now = "over" if state.stage == "over" else "setup" if state.stage == "setup" else state.node
    if ev.step != now:
        return Violation(f"the log claims the {ev.step} step", expected=now, actual=ev.step)
    return None


def unclaimed(state: EpicBattlesState, fact: tuple[object, ...]) -> int | None:
    """Index of an unclaimed fact equal to ``fact`` since the last move or chance event."""
    for index in range(state.facts_mark, len(state.facts)):
        if index not in state.claimed and state.facts[index] == fact:
            return index
    return None


def _derived(state: EpicBattlesState, kind: str) -> str:
    found = [f for i, f in enumerate(state.facts[state.facts_mark:], state.facts_mark) if f[0] == kind and i not in state.claimed]
    return ", ".join(" ".join(str(x) for x in f[1:]) for f in found) or "none"


@DAMAGE.precondition("EB.damage.take", "claimed damage is damage the rules dealt since the last move")
def damage_claim(state: EpicBattlesState, ev: E.Damage) -> Check:
    if unclaimed(state, ("damage", ev.to, ev.amount)) is None:
        dealt = [f[2] for f in state.facts[state.facts_mark:] if f[0] == "damage" and f[1] == ev.to]
        return Violation(f"the log claims {ev.amount} damage to {ev.to}", expected=_derived(state, "damage"), actual=f"{ev.to} {ev.amount}",
                         diff={"damage": {"computed": sum(int(d) for d in dealt), "claimed": ev.amount},
                               "deck": len(state.sides[ev.to].deck) if ev.to in state.sides else None})
    return None


@CHIP.precondition("EB.chip", "a claimed chip is chipping the rules made since the last move")
def chip_claim(state: EpicBattlesState, ev: E.Chip) -> Check:
    if unclaimed(state, ("chip", ev.player, ev.amount)) is None:
        return Violation(f"the log claims {ev.player} chipped {ev.amount}", expected=_derived(state, "chip"), actual=f"{ev.player} {ev.amount}")
    return None


@DOWN.precondition("EB.kw.knockdown", "a claimed knock-down or launch is one the rules made since the last move")
def down_claim(state: EpicBattlesState, ev: E.Down) -> Check:
    if unclaimed(state, ("down", ev.player, ev.how)) is None:
        return Violation(f"the log claims {ev.player} was {ev.how}", expected=_derived(state, "down"), actual=f"{ev.player} {ev.how}")
    return None


@ROUND.precondition("EB.win.round", "the claimed round winner is the player whose rival's deck ran out")
def round_claim(state: EpicBattlesState, ev: E.Round) -> Check:
    if unclaimed(state, ("round", ev.winner)) is None:
        return Violation(f"the log claims {ev.winner} won the round", expected=_derived(state, "round"), actual=ev.winner)
    return None


@GAME.precondition("EB.win.game", "the claimed game winner has won two rounds")
def game_claim(state: EpicBattlesState, ev: E.Game) -> Check:
    if state.winner != ev.winner:
        return Violation(f"the log claims {ev.winner} won the game", expected=state.winner or "no winner yet", actual=ev.winner)
    return None
