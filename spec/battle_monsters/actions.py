"""The preconditions of every Battle Monsters event, each citing the rule it implements.

Each check reads: the rule ID, one line of what it requires, the condition, the finding.
``BattleMonsters.apply`` runs them on a recorded event; ``BattleMonsters.legal_moves``
keeps the candidate events that pass them. They only read the state; the flow and the
effects live in :mod:`spec.battle_monsters.game` and :mod:`spec.battle_monsters.effects`.

Two structures spare the common move what cannot matter to it. A check that can find
something wrong only in some stages of the game (set-up, turns, the end), only while an
effect waits for an answer, or only when card effects of some sort can be in force, says
so (:func:`can_fail`); ``apply`` runs the :func:`plan` of the move's action for where the
game stands: its registered checks in their order, less those that always pass there, so
the first finding is the one ``first_violation`` would give. And the cards a reveal,
switch, attack or conceal names on the field are looked up once per move
(:func:`move_context`, :class:`spec.battle_monsters.state.Move`), for its checks and for
the step that carries it out.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from spec.battle_monsters import board as B
from spec.battle_monsters import conflicts as BC
from spec.battle_monsters import events as E
from spec.battle_monsters import hidden as H
from spec.battle_monsters.state import BURIED, OPENING_HAND, BattleMonstersState, Move, OnField
from spec.core.findings import Violation
from spec.core.interpreter import Need
from spec.core.rules import Check as RuleCheck
from spec.core.rules import RuleBook, RuleIndex, can_fail_in, fails_only

BOOK = RuleBook(RuleIndex.load("battle_monsters", Path(__file__).with_name("rules.tsv")))

FIRST = BOOK.action("first")
BURY = BOOK.action("bury")
DRAW = BOOK.action("draw")
DISCARD = BOOK.action("discard")
SKIP = BOOK.action("skip")
SUMMON = BOOK.action("summon")
REVEAL = BOOK.action("reveal")
ATTACK = BOOK.action("attack")
SWITCH = BOOK.action("switch")
CONCEAL = BOOK.action("conceal")
CHOOSE = BOOK.action("choose")
ACCEPT = BOOK.action("accept")
DECLINE = BOOK.action("decline")
SURRENDER = BOOK.action("surrender")
AGREE = BOOK.action("agree")
LIVES = BOOK.action("lives")
SENT = BOOK.action("sent")
TRIGGERED = BOOK.action("triggered")
GAME = BOOK.action("game")

Check = Violation | None

ANSWERS = {"draw": "draw", "discard": "discard", "choose": "choose", "accept": "may", "decline": "may"}
"""Event kind -> the kind of effect need it can answer."""


def need(state: BattleMonstersState) -> Need | None:
    """What the effect being carried out waits for, if anything."""
    if state.pending and state.pending[0].need is not None:
        return state.pending[0].need
    return None


def answering(state: BattleMonstersState, ev: Any) -> bool:
    """Whether the event answers the effect waiting now (right kind, right player)."""
    waiting = need(state)
    kind = ev.__struct_config__.tag
    return waiting is not None and ANSWERS.get(kind) == waiting.kind and ev.by == waiting.player


def move_context(state: BattleMonstersState, ev: Any) -> Move:
    """The cards a reveal, switch, attack or conceal names on the field, looked up now (:class:`Move`):
    the mover's card, and the target an attack names on the other side."""
    by = ev.by
    # Of the events, only an attack names a target: the others are not asked for one (getattr's
    # default would be found by raising and catching AttributeError, on every reveal and switch).
    cls = type(ev)
    target = ev.target if cls is E.Attack else None if cls in UNTARGETED else getattr(ev, "target", None)
    found = B.find(state, state.other(by), target, ev.target_copy) if target is not None and by is not None else None
    return Move(ev, B.find(state, by or "", ev.card, ev.copy), found)


UNTARGETED: frozenset[type] = frozenset(cls for cls in E.EVENTS if "target" not in cls.__struct_fields__)
"""The event classes with no ``target`` field (all but :class:`~spec.battle_monsters.events.Attack`)."""


def _context(state: BattleMonstersState, ev: Any) -> Move:
    """The :class:`Move` of ``ev``: the one made for it if there is one, else one made now (kept
    while the state is only read, :class:`board.Reading`, which forgets it on leaving)."""
    move = state.move
    if move is not None and move.event is ev:
        return move
    move = move_context(state, ev)
    if state.statics_memo is not None:
        state.move = move
    return move


def _field_card(state: BattleMonstersState, ev: Any) -> OnField | None:
    """The card on the field the event names (found once per move: :class:`Move`)."""
    move = state.move
    if move is not None and move.event is ev:
        return move.card
    return _context(state, ev).card


# ====================================================================== where each check can fail

STAGES = ("setup", "turn", "over")
"""The stages of a game (``state.stage``): set-up, turns, and the end."""


def can_fail(*stages: str, waiting: bool | None = None, speaks: tuple[str, ...] | None = None,
             clashes: tuple[str, ...] | None = None, target: tuple[str, ...] | None = None,
             ) -> Callable[[Callable[..., Check]], Callable[..., Check]]:
    """Declare of a check that it finds nothing outside these stages (all of them when none
    is named); with ``waiting=True``, nothing while no effect waits for an answer; with
    ``speaks``, nothing while no effect of those sorts (``board.wanted``: ``act:summon``,
    ``cannot:attack``, ``immune``...) can be in force (:func:`spoken_now`); with ``clashes``,
    nothing unless, for one of these actions, a "can" and a "cannot" of it can both be in
    force (a clash needs the two: :func:`with_clashes`); with ``target``, nothing unless what an
    attack aims at is of one of these sorts (:func:`target_sort`). Core
    :func:`spec.core.rules.fails_only` with the aspects ``stage``, ``waiting`` (``yes``/``no``),
    ``speaks`` (a clash of an action being the sort ``clash:<action>`` there) and ``target``.

    :func:`plan` leaves it out there; ``tests/test_battle_monsters_speed.py`` runs every
    check where it is left out, along replays, and asserts that it passes there.
    """
    where: dict[str, tuple[str, ...]] = {"stage": stages or STAGES}
    if waiting is not None:
        where["waiting"] = ("yes",) if waiting else ("no",)
    if speaks is not None or clashes is not None:
        where["speaks"] = (*(speaks or ()), *(f"clash:{action}" for action in clashes or ()))
    if target is not None:
        where["target"] = target
    return fails_only(**where)


TARGET_SORTS = ("player", "missing", "monster", "spell", "trap")
"""What an attack can aim at (:func:`target_sort`)."""


def target_sort(move: Move) -> str:
    """What the attack of ``move`` aims at: ``player`` (a direct attack), ``missing`` (it names a
    card that is not on the opponent's side), or the kind of the card it names there
    (``monster``, ``spell``, ``trap``): the aspect ``target`` of :func:`can_fail`."""
    event: Any = move.event  # typed ``object`` in core's MoveContext: every move event here has a target
    if event.target is None:
        return "player"
    target = move.target
    return "missing" if target is None else target.kind


def with_clashes(spoken: frozenset[str] | None) -> frozenset[str] | None:
    """The sorts of effects that can be in force (``spoken``), with ``clash:<action>`` for each
    action of which both a "can" (``can:<action>``) and a "cannot" (``cannot:<action>``) can
    be: core :func:`spec.core.rules.fails_only` asks for any one sort of a declaration, and
    this is how a check declares that it needs two at once (``can_fail(clashes=...)``)."""
    if spoken is None:
        return None
    both = {f"clash:{sort[4:]}" for sort in spoken if sort.startswith("can:") and f"cannot:{sort[4:]}" in spoken}
    return spoken | both if both else spoken


class Plan(NamedTuple):
    """The registered checks of one action that can fail in one stage (:func:`plan`), in check order."""

    tests: tuple[Callable[..., Check], ...]
    checks: tuple[RuleCheck[BattleMonstersState, Any], ...]
    """The registered check of each test (its rule and name for the finding)."""
    speaks: bool
    """Some of its checks can fail only while effects of some sorts can be in force (declared
    with ``speaks``): a plan for the sorts the field gives (:func:`spoken_now`) may leave them out."""


PLANS: dict[tuple[str, str, bool, frozenset[str] | None, str | None], Plan] = {}
"""The plans made so far, by action kind, stage, whether an effect waits, the sorts of
effects that can be in force and what an attack aims at (:func:`plan`)."""


def plan(kind: str, stage: str, waiting: bool, spoken: frozenset[str] | None = None, target: str | None = None) -> Plan:
    """The checks of the action ``kind`` that can fail in ``stage``, with an effect waiting or
    not, when only effects of the sorts ``spoken`` can be in force (``None``: any sort, see
    :func:`spoken_now`) and, for an attack, when it aims at a ``target`` of that sort
    (:func:`target_sort`; ``None``: not known): its registered checks in order, less those declared
    (:func:`can_fail`) to pass there always (:meth:`spec.core.rules.Action.checks_where`).

    Running these and stopping at the first finding gives what the action's
    ``first_violation`` gives: a check left out would have passed. Made once per key (all
    the checks are registered when this module is imported).
    """
    key = (kind, stage, waiting, spoken, target)
    found = PLANS.get(key)
    if found is None:
        kept = [check for _test, check in BOOK.actions[kind].checks_where(
            stage=stage, waiting="yes" if waiting else "no", speaks=with_clashes(spoken), target=target)]
        speaks = any(not can_fail_in(check.test, {"speaks": frozenset()}) for check in kept)
        found = PLANS[key] = Plan(tuple(check.test for check in kept), tuple(kept), speaks)
    return found


def waiting_now(state: BattleMonstersState) -> bool:
    """Whether an effect being carried out waits for an answer (:func:`need` is not ``None``)."""
    pending = state.pending
    return bool(pending) and pending[0].need is not None


def spoken_now(state: BattleMonstersState) -> frozenset[str] | None:
    """The sorts of effects that can be in force now: with no lasting effect, in a tame card
    database, those the always-on abilities of the cards on the field whose effects work can
    give (``board.field_sorts``); ``None`` (any sort) otherwise."""
    return B.read_only(state, B.field_sorts)


# ====================================================================== checks shared by every move

MOVES = (BURY, DRAW, DISCARD, SKIP, SUMMON, REVEAL, ATTACK, SWITCH, CONCEAL, CHOOSE, ACCEPT, DECLINE, SURRENDER, AGREE, FIRST)


@can_fail("over")
def game_not_over(state: BattleMonstersState, ev: Any) -> Check:
    """BM.end.conditions: once the game has ended, nothing more is played."""
    if state.stage == "over":
        return Violation("a move after the game ended", expected="no more events", actual=ev.__struct_config__.tag)
    return None


@can_fail(waiting=True)
def effect_first(state: BattleMonstersState, ev: Any) -> Check:
    """BM.rules.card: an effect that has been set off is carried out before play goes on."""
    pending = state.pending
    waiting = pending[0].need if pending else None  # need(state), read inline: every move asks
    if waiting is None or answering(state, ev) or ev.__struct_config__.tag in ("surrender", "agree"):
        return None
    return Violation(f"a {ev.__struct_config__.tag} while an effect waits for {waiting.describe()}",
                     expected=waiting.describe(), actual=f"{ev.__struct_config__.tag} by {ev.by}")


for _action in MOVES:
    _action.precondition("BM.end.conditions", "no move or chance event comes after the game has ended")(game_not_over)
for _action in MOVES:
    if _action not in (SURRENDER, AGREE, FIRST, BURY):
        _action.precondition("BM.rules.card", "an effect already set off is carried out before any other move")(effect_first)


def _setup(state: BattleMonstersState) -> bool:
    return state.stage == "setup"


@can_fail("setup")
def in_play(state: BattleMonstersState, ev: Any) -> Check:
    """BM.start.lives_hand: turns begin once both players hold their opening hand."""
    if state.stage == "setup":
        return Violation(f"a {ev.__struct_config__.tag} before the game has begun", expected="set-up first (coin, graveyards, opening hands)",
                         actual=ev.__struct_config__.tag)
    return None


for _action in (SKIP, SUMMON, REVEAL, ATTACK, SWITCH, CONCEAL):
    _action.precondition("BM.start.lives_hand", "turns start only once both players have five cards in hand")(in_play)


# ====================================================================== set-up (BM.start.*)

@FIRST.precondition("BM.start.first", "the coin is tossed once, before anything else, and names a player")
def coin_once(state: BattleMonstersState, ev: E.First) -> Check:
    if not _setup(state) or state.first is not None:
        return Violation("the first player was already decided", expected="one coin toss", actual="another toss")
    if ev.player not in state.players:
        return Violation(f"{ev.player!r} is not a player of this game", expected="one of the players", actual=ev.player)
    return None


@BURY.precondition("BM.start.graveyard", "in set-up, after the coin, each player puts exactly two cards into their graveyard")
def two_chosen_for_graveyard(state: BattleMonstersState, ev: E.Bury) -> Check:
    side = state.sides[ev.by or ""]
    if not _setup(state) or state.first is None or side.buried >= BURIED or side.opening > 0:
        return Violation("a card put into the graveyard outside the set-up step", expected=f"{BURIED} cards after the coin, before the opening hand",
                         actual=f"card {side.buried + 1} at this point")
    return None


@BURY.precondition("BM.start.graveyard", "the two graveyard cards come from the player's own registered deck")
def buried_card_is_in_deck(state: BattleMonstersState, ev: E.Bury) -> Check:
    knowledge = state.sides[ev.by or ""].knowledge
    if not knowledge.can_reveal(ev.card):
        why = H.explain(knowledge.dated(state.seq), ev.card, f"put {ev.card} into the graveyard at set-up", "deck")
        return Violation(f"{ev.card} cannot come from this deck: {why}", expected="a card the registered deck still holds",
                         actual=ev.card, severity="inconsistent")
    return None


@DRAW.precondition("BM.start.lives_hand", "opening hands are drawn after the graveyard cards, five cards each")
@can_fail("setup")
def opening_hand(state: BattleMonstersState, ev: E.Draw) -> Check:
    if not _setup(state):
        return None
    side = state.sides[ev.by or ""]
    if state.first is None or side.buried < BURIED:
        return Violation("an opening card drawn before the coin and the graveyard cards", expected="coin, two graveyard cards, then five draws",
                         actual="draw")
    if side.opening >= OPENING_HAND:
        return Violation("a sixth card drawn for the opening hand", expected="five cards", actual="a sixth draw")
    return None


# ====================================================================== whose turn (BM.actions.*)

@can_fail("turn", "over")
def acts_on_own_turn(state: BattleMonstersState, ev: Any) -> Check:
    """BM.actions.ends_turn: a player whose turn ended by an action acts again only on their next turn."""
    if ev.by == state.active or state.stage == "setup" or answering(state, ev):
        return None
    return Violation(f"{ev.by} took an action during {state.active}'s turn", expected=f"an action by {state.active}",
                     actual=f"{ev.__struct_config__.tag} by {ev.by}")


def subaction_before_action(state: BattleMonstersState, ev: Any) -> Check:
    """BM.actions.order: sub-actions come before the player's action, never after it."""
    if ev.by == state.active:
        return None
    return Violation(f"{ev.by} made a sub-action after their action ended their turn", expected=f"a move by {state.active}",
                     actual=f"{ev.__struct_config__.tag} by {ev.by}")


for _action in (DRAW, DISCARD, SKIP):
    _action.precondition("BM.actions.ends_turn", "an action comes from the player whose turn it is; it ends that turn")(acts_on_own_turn)
for _action in (SUMMON, REVEAL, ATTACK, SWITCH, CONCEAL):
    _action.precondition("BM.actions.order", "a sub-action comes from the player whose turn it is, before their action")(subaction_before_action)


# ====================================================================== draws

@DRAW.precondition("BM.actions.skip.forced", "a player whose supply deck is empty cannot draw; they must skip")
def draw_from_supply(state: BattleMonstersState, ev: E.Draw) -> Check:
    supply = state.sides[ev.by or ""].supply
    if supply is not None and supply <= 0:
        return Violation("a card drawn from an empty supply deck", expected="skip or discard (the supply deck is empty)", actual="draw")
    return None


@DRAW.precondition("BM.gloss.draw.graveyard", "the drawn card is one the supply deck can still hold (not one known to be elsewhere)")
def draw_known_card(state: BattleMonstersState, ev: E.Draw) -> Check:
    if ev.card is not None and not state.sides[ev.by or ""].knowledge.can_reveal(ev.card):
        side = state.sides[ev.by or ""]
        where = "the graveyard" if side.graveyard.find(ev.card) is not None else "elsewhere"
        why = H.explain(side.knowledge.dated(state.seq), ev.card, f"drew {ev.card}", "deck")
        return Violation(f"{ev.card} drawn, but every copy of the registered deck is accounted for ({where}): {why}",
                         expected="a card the supply deck can hold", actual=ev.card, severity="inconsistent")
    return None


# ====================================================================== discards

@can_fail("turn", "over")
def hidden_card_from_deck(state: BattleMonstersState, ev: Any) -> Check:
    """BM.gloss.draw: a card shown from a hand of unseen draws was drawn from the player's deck,
    so the registered deck must still hold a copy of it (exact counting; explained by the journal)."""
    if _setup(state) or ev.by not in state.sides:
        return None
    side = state.sides[ev.by]
    if side.hand.find(ev.card) is not None or side.hand.unknown() is None or B.card_kind(state.cards, ev.card) is None:
        return None
    verb = "summoned" if ev.__struct_config__.tag == "summon" else "discarded"
    return H.unheld(side.knowledge.dated(state.seq), ev.card, f"{verb} {ev.card} from a hand of unseen draws")


def _hand_has(state: BattleMonstersState, player: str, name: str) -> bool:
    side = state.sides[player]
    return side.hand.find(name) is not None or (side.hand.unknown() is not None and side.knowledge.can_reveal(name))


DISCARD.precondition("BM.gloss.draw", "a card discarded from a hand of unseen draws is one the registered deck can still hold")(hidden_card_from_deck)


@DISCARD.precondition("BM.actions.discard", "the discarded card is in the player's hand")
def discard_from_hand(state: BattleMonstersState, ev: E.Discard) -> Check:
    if _setup(state):
        return Violation("a discard before the game has begun", expected="no discard in set-up", actual="discard")
    if not _hand_has(state, ev.by or "", ev.card):
        return Violation(f"{ev.card} is not in {ev.by}'s hand", expected="a card of the hand", actual=ev.card)
    return None


# ====================================================================== summons

@SUMMON.precondition("BM.monster.graveyard", "a monster in the graveyard is not summoned from there by the player")
def no_summon_from_graveyard(state: BattleMonstersState, ev: E.Summon) -> Check:
    side = state.sides[ev.by or ""]
    if not _hand_has(state, ev.by or "", ev.card) and side.graveyard.find(ev.card) is not None:
        return Violation(f"{ev.card} summoned while it lies in the graveyard", expected="a card from the hand", actual=f"{ev.card} from the graveyard")
    return None


SUMMON.precondition("BM.gloss.draw", "a card summoned from a hand of unseen draws is one the registered deck can still hold")(hidden_card_from_deck)


@SUMMON.precondition("BM.summon.where", "a summoned card comes from the summoner's own hand")
def summon_from_hand(state: BattleMonstersState, ev: E.Summon) -> Check:
    side = state.sides[ev.by or ""]
    if side.hand.find(ev.card) is not None or side.hand.unknown() is not None:
        return None  # a hand of unseen draws may hold it: hidden_card_from_deck asks the registered deck
    return Violation(f"{ev.card} is not in {ev.by}'s hand", expected="a card of the hand", actual=ev.card)


@SUMMON.precondition("BM.subactions.summon", "what is summoned is a printed monster, spell or trap, not a prefix or suffix alone")
def summon_a_printed_card(state: BattleMonstersState, ev: E.Summon) -> Check:
    if B.card_kind(state.cards, ev.card) is None:
        return Violation(f"{ev.card} is not a card that can be summoned", expected="a monster, spell or trap", actual=ev.card)
    return None


@SUMMON.precondition("BM.rules.card", "no effect in force forbids the player to summon")
@can_fail(speaks=("cannot:summon",))
def summon_not_forbidden(state: BattleMonstersState, ev: E.Summon) -> Check:
    verdict = B.permission(state, "summon", None, player=ev.by)
    if verdict.allowed is False:
        return Violation(f"{verdict.source} forbids {ev.by} to summon", expected="no summon", actual=ev.card)
    return None


# ====================================================================== reveals

@REVEAL.precondition("BM.subactions.reveal", "a reveal turns one of the player's own face-down cards face up")
def reveal_own_face_down(state: BattleMonstersState, ev: E.Reveal) -> Check:
    fc = _field_card(state, ev)
    if fc is None:
        return Violation(f"{ev.card} is not on {ev.by}'s side of the field", expected="a face-down card of theirs", actual=ev.card)
    if fc.visible:
        return Violation(f"{ev.card} is already face up", expected="a face-down card", actual="a face-up card")
    return None


def one_subaction_per_card(state: BattleMonstersState, ev: Any) -> Check:
    """BM.subactions.per_card: a card takes part in one sub-action a turn (summoning counts)."""
    fc = _field_card(state, ev)
    if fc is None or fc.acted_turn != state.turn:
        return None
    if ev.__struct_config__.tag == "attack" and _lifted_by_card(state, fc):
        return None
    return Violation(f"{ev.card} already had its sub-action this turn ({fc.acted})", expected="one sub-action per card per turn",
                     actual=f"{ev.__struct_config__.tag} after {fc.acted}")


def _when(state: BattleMonstersState, fc: OnField) -> str | None:
    return "summoned_turn" if fc.summoned_turn == state.turn else "revealed_turn" if fc.revealed_turn == state.turn else None


def _lifted_by_card(state: BattleMonstersState, fc: OnField) -> bool:
    """Whether a card lets this monster attack although it was summoned or revealed this turn (BM.rules.card)."""
    when = _when(state, fc)
    return when is not None and BC.judge_manual(state, fc, when).allowed is True


def _manual_ban(state: BattleMonstersState, fc: OnField, when: str, words: str) -> Check:
    """The manual's ban on attacking on the turn of a summon or reveal, unless the policy lets a card lift it.

    A card's "can attack on the turn it is ..." against the manual: BM.rules.card settles it
    for the card (conflicts.judge_manual); a clash no rule settles is unverifiable.
    """
    judged = BC.judge_manual(state, fc, when)
    if judged.problem is not None:
        return judged.problem
    if judged.allowed:
        return None
    return Violation(f"{fc.name} attacked on the turn it was {words}", expected="attacks from the next turn on", actual="attack")


@REVEAL.precondition("BM.rules.card", "no effect in force forbids the player to reveal")
@can_fail(speaks=("cannot:reveal",))
def reveal_not_forbidden(state: BattleMonstersState, ev: E.Reveal) -> Check:
    verdict = B.permission(state, "reveal", _field_card(state, ev), player=ev.by)
    if verdict.allowed is False:
        return Violation(f"{verdict.source} forbids this reveal", expected="no reveal", actual=ev.card)
    return None


# ====================================================================== attacks: the attacker

@ATTACK.precondition("BM.subactions.attack", "the attacker is a monster on the attacking player's side")
def attacker_is_own_monster(state: BattleMonstersState, ev: E.Attack) -> Check:
    fc = _field_card(state, ev)
    if fc is None:
        return Violation(f"{ev.card} is not on {ev.by}'s side of the field", expected="a monster of theirs", actual=ev.card)
    if fc.kind != "monster":
        return Violation(f"{ev.card} is a {fc.kind}; only monsters attack", expected="a monster", actual=fc.kind)
    return None


@ATTACK.precondition("BM.stance.ai.monster.no_attack", "a face-down monster in attack stance does not attack")
def no_attack_face_down_attack_stance(state: BattleMonstersState, ev: E.Attack) -> Check:
    fc = _field_card(state, ev)
    if fc is not None and not fc.visible and fc.mode == "attack":
        return Violation(f"{ev.card} attacked while face down (attack-invisible)", expected="a face-up attacker", actual="attack-invisible")
    return None


@ATTACK.precondition("BM.stance.di.monster.no_attack", "a face-down monster in defence stance does not attack")
def no_attack_face_down_defence_stance(state: BattleMonstersState, ev: E.Attack) -> Check:
    fc = _field_card(state, ev)
    if fc is not None and not fc.visible and fc.mode == "defense":
        return Violation(f"{ev.card} attacked while face down (defence-invisible)", expected="a face-up attacker", actual="defence-invisible")
    return None


@ATTACK.precondition("BM.stance.dv.monster.no_attack", "a monster in defence mode does not attack")
def no_attack_in_defence_mode(state: BattleMonstersState, ev: E.Attack) -> Check:
    fc = _field_card(state, ev)
    if fc is not None and fc.mode == "defense":
        return Violation(f"{ev.card} attacked from defence mode", expected="an attacker in attack mode", actual="defence-visible")
    return None


@ATTACK.precondition("BM.rules.conflict", "when card effects clash over this attack, the one the precedence rules favour decides it")
@can_fail(clashes=("attack", "be_attacked"))
def attack_clash_settled(state: BattleMonstersState, ev: E.Attack) -> Check:
    """A "can" and a "cannot" of card effects on the attacker attacking, or on the target being
    attacked: the policy settles the clash (unless stated, then the later card wins);
    a move the prevailing "cannot" forbids is illegal citing BM.rules.conflict."""
    fc = _field_card(state, ev)
    if fc is None or ev.by is None:
        return None
    problem = BC.clash_violation(state, "attack", fc, f"attack by {ev.card}", when=_when(state, fc))
    if problem is not None:
        return problem
    if ev.target is None:
        return BC.clash_violation(state, "be_attacked", None, f"direct attack on {state.other(ev.by)}", player=state.other(ev.by), other=fc)
    target = _target(state, ev)
    if target is None:
        return None
    return BC.clash_violation(state, "be_attacked", target, f"attack on {ev.target}", other=fc)


@ATTACK.precondition("BM.subactions.attack", "each monster attacks at most once a turn")
def attacks_once_per_turn(state: BattleMonstersState, ev: E.Attack) -> Check:
    fc = _field_card(state, ev)
    if fc is not None and state.turn in fc.attacked_turns:
        verdict = B.permission(state, "attack_twice", fc)
        if verdict.allowed is True and fc.attacked_turns.count(state.turn) < 2:
            return None
        return Violation(f"{ev.card} attacked a second time this turn", expected="one attack per monster per turn", actual="a second attack")
    return None


@ATTACK.precondition("BM.subactions.attack.timing", "a monster does not attack on the turn it was summoned, unless a card allows it")
def no_attack_on_summon_turn(state: BattleMonstersState, ev: E.Attack) -> Check:
    fc = _field_card(state, ev)
    if fc is not None and fc.summoned_turn == state.turn:
        return _manual_ban(state, fc, "summoned_turn", "summoned")
    return None


@ATTACK.precondition("BM.monster.reveal_turn", "a monster does not attack on the turn it was turned face up, unless a card allows it")
def no_attack_on_reveal_turn(state: BattleMonstersState, ev: E.Attack) -> Check:
    fc = _field_card(state, ev)
    if fc is not None and fc.revealed_turn == state.turn:
        return _manual_ban(state, fc, "revealed_turn", "revealed")
    return None


@ATTACK.precondition("BM.subactions.switch.limits", "a card switched into attack mode this turn attacks from the next turn on")
def no_attack_after_switch(state: BattleMonstersState, ev: E.Attack) -> Check:
    fc = _field_card(state, ev)
    if fc is not None and fc.acted_turn == state.turn and fc.acted == "switch":
        return Violation(f"{ev.card} attacked on the turn it was switched to attack mode", expected="wait a turn", actual="attack")
    return None


ATTACK.precondition("BM.subactions.per_card", "a card takes part in at most one sub-action a turn")(one_subaction_per_card)


@ATTACK.precondition("BM.monster.no_attack", "a monster with negative attack points does not attack")
def no_attack_with_negative_points(state: BattleMonstersState, ev: E.Attack) -> Check:
    fc = _field_card(state, ev)
    if fc is not None and B.points_below(state, fc, "attack", 0):
        return Violation(f"{ev.card} attacked with {B.points(state, fc, 'attack')} attack points", expected="0 or more attack points",
                         actual=str(B.points(state, fc, "attack")))
    return None


@ATTACK.precondition("BM.rules.card", "no effect in force forbids this monster to attack")
@can_fail(speaks=("cannot:attack",))
def attack_not_forbidden(state: BattleMonstersState, ev: E.Attack) -> Check:
    fc = _field_card(state, ev)
    if fc is None:
        return None
    when = "summoned_turn" if fc.summoned_turn == state.turn else "revealed_turn" if fc.revealed_turn == state.turn else None
    verdict = B.permission(state, "attack", fc, when=when)
    if verdict.allowed is False:
        return Violation(f"{verdict.source} forbids {ev.card} to attack", expected="no attack", actual="attack")
    return None


# ====================================================================== attacks: the target

def _target(state: BattleMonstersState, ev: E.Attack) -> OnField | None:
    """The card of the opponent an attack names (found once per move: :class:`Move`)."""
    move = state.move
    if move is not None and move.event is ev:
        return move.target
    return _context(state, ev).target


@ATTACK.precondition("BM.start.direct_attack", "the player is attacked directly only when they have no face-up monster")
@can_fail(target=("player",))
def direct_attack_needs_open_field(state: BattleMonstersState, ev: E.Attack) -> Check:
    if ev.target is not None or ev.by is None:
        return None
    defender = state.other(ev.by)
    shields = B.visible_monsters(state, defender)
    if shields:
        fc = _field_card(state, ev)
        if fc is not None and B.permission(state, "attack_directly", fc).allowed is True:
            return None
        return Violation(f"{ev.by} attacked {defender} directly while {shields[0].name} stands face up",
                         expected="attack a monster first", actual="a direct attack")
    return None


@ATTACK.precondition("BM.start.direct_attack", "a direct attack needs more than zero attack points")
@can_fail(target=("player",))
def direct_attack_needs_points(state: BattleMonstersState, ev: E.Attack) -> Check:
    fc = _field_card(state, ev)
    if ev.target is None and fc is not None and B.points_below(state, fc, "attack", 1):
        return Violation(f"{ev.card} attacked the player with {B.points(state, fc, 'attack')} attack points",
                         expected="more than 0 attack points", actual=str(B.points(state, fc, "attack")))
    return None


@ATTACK.precondition("BM.stance.av.monster", "an attacked card is one on the opponent's side of the field")
@can_fail(target=("missing",))
def target_on_opponent_side(state: BattleMonstersState, ev: E.Attack) -> Check:
    if ev.target is not None and _target(state, ev) is None:
        return Violation(f"{ev.target} is not on the opponent's side of the field", expected="a card of the opponent", actual=ev.target)
    return None


@ATTACK.precondition("BM.stance.ai.monster.untargetable", "a face-down monster in attack stance cannot be attacked")
@can_fail(target=("monster",))
def target_not_attack_invisible(state: BattleMonstersState, ev: E.Attack) -> Check:
    target = _target(state, ev)
    if target is not None and target.kind == "monster" and not target.visible and target.mode == "attack":
        return Violation(f"{ev.target} is attack-invisible and cannot be attacked", expected="an attackable card", actual="attack-invisible")
    return None


def _special_target(state: BattleMonstersState, ev: E.Attack, target: OnField) -> bool:
    """BM.monster.special_targets: a card effect lets this monster attack a spell or trap."""
    fc = _field_card(state, ev)
    return fc is not None and B.permission(state, "attack", fc, other=target).allowed is True


def _attack_mode_magic(state: BattleMonstersState, ev: E.Attack, kind: str, visible: bool) -> bool:
    target = _target(state, ev)
    return (target is not None and target.kind == kind and target.mode == "attack" and target.visible == visible
            and not _special_target(state, ev, target))


@ATTACK.precondition("BM.stance.av.spell.attack", "a face-up spell in attack stance cannot be attacked")
@can_fail(target=("spell",))
def target_not_face_up_attack_spell(state: BattleMonstersState, ev: E.Attack) -> Check:
    if _attack_mode_magic(state, ev, "spell", True):
        return Violation(f"{ev.target} is a spell in attack-visible stance", expected="an attackable card", actual="attack-visible spell")
    return None


@ATTACK.precondition("BM.stance.ai.spell.attack", "a face-down spell in attack stance cannot be attacked")
@can_fail(target=("spell",))
def target_not_face_down_attack_spell(state: BattleMonstersState, ev: E.Attack) -> Check:
    if _attack_mode_magic(state, ev, "spell", False):
        return Violation(f"{ev.target} is a spell in attack-invisible stance", expected="an attackable card", actual="attack-invisible spell")
    return None


@ATTACK.precondition("BM.stance.av.trap.attack", "a face-up trap in attack stance cannot be attacked")
@can_fail(target=("trap",))
def target_not_face_up_attack_trap(state: BattleMonstersState, ev: E.Attack) -> Check:
    if _attack_mode_magic(state, ev, "trap", True):
        return Violation(f"{ev.target} is a trap in attack-visible stance", expected="an attackable card", actual="attack-visible trap")
    return None


@ATTACK.precondition("BM.stance.ai.trap.attack", "a face-down trap in attack stance cannot be attacked")
@can_fail(target=("trap",))
def target_not_face_down_attack_trap(state: BattleMonstersState, ev: E.Attack) -> Check:
    if _attack_mode_magic(state, ev, "trap", False):
        return Violation(f"{ev.target} is a trap in attack-invisible stance", expected="an attackable card", actual="attack-invisible trap")
    return None


@ATTACK.precondition("BM.rules.card", "no effect in force protects the target (or the player) from this attacker")
@can_fail(speaks=("immune@attack", "cannot:be_attacked"))
def target_not_protected(state: BattleMonstersState, ev: E.Attack) -> Check:
    fc = _field_card(state, ev)
    if fc is None or ev.by is None:
        return None
    target = _target(state, ev)
    if ev.target is None:
        verdict = B.permission(state, "be_attacked", None, player=state.other(ev.by), other=fc)
        if verdict.allowed is False:
            return Violation(f"{verdict.source} keeps {state.other(ev.by)} from being attacked", expected="no direct attack", actual="a direct attack")
        return None
    if target is None:
        return None
    if B.immune(state, target, fc, attack=True):
        return Violation(f"{ev.target} is immune to {ev.card}'s attack", expected="an attackable card", actual=ev.target)
    verdict = B.permission(state, "be_attacked", target, other=fc)
    if verdict.allowed is False:
        return Violation(f"{verdict.source} keeps {ev.target} from being attacked by {ev.card}", expected="an attackable card", actual=ev.target)
    return None


# ====================================================================== switch mode

@SWITCH.precondition("BM.subactions.switch", "the switched card is one of the player's cards on the field")
def switch_own_card(state: BattleMonstersState, ev: E.Switch) -> Check:
    if _field_card(state, ev) is None:
        return Violation(f"{ev.card} is not on {ev.by}'s side of the field", expected="a card of theirs", actual=ev.card)
    return None


@SWITCH.precondition("BM.gloss.attack_mode.switch", "a card that attacked this turn is not switched to defence mode")
def no_switch_after_attack(state: BattleMonstersState, ev: E.Switch) -> Check:
    fc = _field_card(state, ev)
    if fc is not None and fc.mode == "attack" and state.turn in fc.attacked_turns:
        return Violation(f"{ev.card} switched to defence on the turn it attacked", expected="no switch this turn", actual="switch")
    return None


@SWITCH.precondition("BM.gloss.defence_mode.switch", "a card switches mode at most once a turn")
def switch_once_per_turn(state: BattleMonstersState, ev: E.Switch) -> Check:
    fc = _field_card(state, ev)
    if fc is not None and fc.acted_turn == state.turn and fc.acted == "switch":
        return Violation(f"{ev.card} switched mode a second time this turn", expected="one switch a turn", actual="a second switch")
    return None


@SWITCH.precondition("BM.subactions.switch.limits", "a card revealed this turn is not put into defence mode")
def no_defence_on_reveal_turn(state: BattleMonstersState, ev: E.Switch) -> Check:
    fc = _field_card(state, ev)
    if fc is not None and fc.mode == "attack" and fc.revealed_turn == state.turn:
        return Violation(f"{ev.card} switched to defence on the turn it was revealed", expected="no switch this turn", actual="switch")
    return None


SWITCH.precondition("BM.subactions.per_card", "a card takes part in at most one sub-action a turn")(one_subaction_per_card)
REVEAL.precondition("BM.subactions.per_card", "a card takes part in at most one sub-action a turn")(one_subaction_per_card)


@SWITCH.precondition("BM.rules.card", "no effect in force keeps this card from being switched")
@can_fail(speaks=("cannot:be_switched", "cannot:be_switched_manually"))
def switch_not_forbidden(state: BattleMonstersState, ev: E.Switch) -> Check:
    fc = _field_card(state, ev)
    if fc is None:
        return None
    for action in ("be_switched", "be_switched_manually"):
        verdict = B.permission(state, action, fc)
        if verdict.allowed is False:
            return Violation(f"{verdict.source} keeps {ev.card} from being switched", expected="no switch", actual="switch")
    return None


# ====================================================================== conceal (no rule allows it)

@CONCEAL.precondition("BM.gloss.revealed.permanent", "only a face-up card of the player's could be turned face down")
def conceal_own_face_up(state: BattleMonstersState, ev: E.Conceal) -> Check:
    fc = _field_card(state, ev)
    if fc is None or not fc.visible:
        return Violation(f"{ev.card} is not a face-up card of {ev.by}'s", expected="no conceal", actual="conceal")
    return None


@CONCEAL.precondition("BM.stance.ai.monster.no_rehide", "a monster once face up never goes back to the attack-invisible stance")
def no_rehide_attack_stance(state: BattleMonstersState, ev: E.Conceal) -> Check:
    fc = _field_card(state, ev)
    if fc is not None and fc.kind == "monster" and fc.mode == "attack":
        return Violation(f"{ev.card} turned face down again (attack-invisible)", expected="it stays face up", actual="conceal")
    return None


@CONCEAL.precondition("BM.stance.di.monster.no_rehide", "a monster once face up never goes back to the defence-invisible stance")
def no_rehide_defence_stance(state: BattleMonstersState, ev: E.Conceal) -> Check:
    fc = _field_card(state, ev)
    if fc is not None and fc.kind == "monster" and fc.mode == "defense":
        return Violation(f"{ev.card} turned face down again (defence-invisible)", expected="it stays face up", actual="conceal")
    return None


@CONCEAL.precondition("BM.subactions.reveal.permanent", "a revealed spell or trap is not hidden again")
def no_rehide_magic(state: BattleMonstersState, ev: E.Conceal) -> Check:
    return Violation(f"{ev.card} turned face down again", expected="it stays face up", actual="conceal")


# ====================================================================== answers to effects

@CHOOSE.precondition("BM.rules.card", "a card is chosen only when an effect asks its player to choose")
def choose_when_asked(state: BattleMonstersState, ev: E.Choose) -> Check:
    waiting = need(state)
    if waiting is None or waiting.kind != "choose" or waiting.player != ev.by:
        return Violation("a choice no effect asks for", expected="no choice here", actual=f"choose {ev.card}")
    return None


@CHOOSE.precondition("BM.monster.keywords", "the chosen card is one the effect describes (by kind, keywords and elements)")
@can_fail(waiting=True)
def chosen_card_fits(state: BattleMonstersState, ev: E.Choose) -> Check:
    waiting = need(state)
    if waiting is None or waiting.kind != "choose":
        return None
    from spec.battle_monsters.effects import choice_ok

    problem = choice_ok(state, state.pending[0], waiting, ev)
    if problem:
        return Violation(problem, expected=f"a card the effect of {state.pending[0].source.name} describes", actual=f"{ev.card} of {ev.owner}")
    return None


def may_when_offered(state: BattleMonstersState, ev: Any) -> Check:
    """BM.rules.card: an effect's option is taken or turned down only when the effect offers it."""
    waiting = need(state)
    if waiting is None or waiting.kind != "may" or waiting.player != ev.by:
        return Violation(f"{ev.__struct_config__.tag} when no effect offers a choice", expected="no answer here",
                         actual=ev.__struct_config__.tag)
    return None


for _action in (ACCEPT, DECLINE):
    _action.precondition("BM.rules.card", "an optional effect is answered only when it is offered, by its player")(may_when_offered)


# ====================================================================== the end of the game

@AGREE.precondition("BM.end.draw", "a draw is offered or accepted only while the game is going on")
def draw_offer_in_play(state: BattleMonstersState, ev: E.Agree) -> Check:
    if state.offer == ev.by:
        return Violation(f"{ev.by} offered a draw twice", expected=f"{state.other(ev.by or '')} accepts or play goes on", actual="a second offer")
    return None


# ====================================================================== claims

@LIVES.precondition("BM.start.life_loss", "a claimed life total equals the one the rules compute")
def lives_as_computed(state: BattleMonstersState, ev: E.Lives) -> Check:
    if ev.player not in state.sides:
        return Violation(f"{ev.player!r} is not a player", expected="a player", actual=ev.player, severity="malformed")
    have = state.sides[ev.player].lives
    if have != ev.lives:
        return Violation(f"{ev.player} has {have} lives, not {ev.lives}", expected=str(have), actual=str(ev.lives),
                         diff={"lives": {"computed": have, "claimed": ev.lives}, "player": ev.player})
    return None


@SENT.precondition("BM.monster.loss", "a card claimed sent to the graveyard did just go there")
def sent_as_computed(state: BattleMonstersState, ev: E.Sent) -> Check:
    recent = [(c, o) for k, c, o in state.facts[state.mark:] if k == "sent"]
    if (ev.card, ev.owner) not in recent:
        return Violation(f"{ev.card} of {ev.owner} did not go to the graveyard here", expected=", ".join(f"{c} of {o}" for c, o in recent) or "nothing",
                         actual=f"{ev.card} of {ev.owner}")
    return None


@TRIGGERED.precondition("BM.gloss.trigger", "a card claimed to have gone off had its special condition happen just now")
def triggered_as_computed(state: BattleMonstersState, ev: E.Triggered) -> Check:
    recent = [(c, o) for k, c, o in state.facts[state.mark:] if k == "triggered"]
    if (ev.card, ev.owner) not in recent:
        return Violation(f"{ev.card} of {ev.owner} did not go off here", expected=", ".join(f"{c} of {o}" for c, o in recent) or "nothing",
                         actual=f"{ev.card} of {ev.owner}")
    return None


@GAME.precondition("BM.end.conditions", "a claimed result is the one the rules reached: the game is over, with that winner")
def result_as_computed(state: BattleMonstersState, ev: E.Game) -> Check:
    if state.stage != "over":
        return Violation("the game is claimed over while it goes on", expected="the game goes on", actual=f"winner {ev.winner}")
    if ev.winner != state.winner:
        return Violation(f"the game was won by {state.winner}, not {ev.winner}", expected=str(state.winner), actual=str(ev.winner))
    return None
