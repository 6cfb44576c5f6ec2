"""Battle Monsters as a transition system: set-up, turns of sub-actions and one action, battles.

:class:`BattleMonsters` implements :class:`spec.core.game.Game`. The preconditions of each
event live in :mod:`spec.battle_monsters.actions`; this module moves the game along:
set-up (coin, two graveyard cards, five-card hands; BM.start.*), the turn (sub-actions,
then the one action that ends it; BM.actions.*, BM.subactions.*), battles and direct
attacks (BM.monster.*, BM.start.life_loss), traps and spells going off when their
condition happens (BM.trap.def, BM.spell.*), and the end of the game (BM.end.*,
BM.gloss.game.win). Card effects come from the parsed trees, run through the core
interpreter by :mod:`spec.battle_monsters.effects`.

Effects that need the log (draws, discards, choices, "you can choose to") hold the game:
the next events must answer them. Effects are carried out first in, first out; when an
action sets off traps, the traps go first (they answer the action), then the effects of
the card that acted.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, ClassVar, NamedTuple

import msgspec

from grammar import ast as A
from grammar import battle_monsters_nodes as N
from spec.battle_monsters import actions as X
from spec.battle_monsters import board as B
from spec.battle_monsters import conflicts as BC
from spec.battle_monsters import events as E
from spec.battle_monsters.actions import BOOK
from spec.battle_monsters.effects import Effects, Src, candidates, step_gap
from spec.battle_monsters.state import (
    DECK_MIN,
    OPENING_HAND,
    Battle,
    BattleMonstersState,
    OnField,
    Side,
)
from spec.battle_monsters.turn import TURN
from spec.core import interpreter
from spec.core.deck import size_violation
from spec.core.findings import Violation
from spec.core.game import DeckError, Event, Game, Ruling, Setup, actor_problem
from spec.core.hidden import DeckKnowledge
from spec.core.interpreter import Frame, Resolution, UnsupportedStep
from spec.core.rules import Action
from spec.core.state import Zone

cite = BOOK.cite

NO_ACTOR = ("first", "lives", "sent", "triggered", "game")
"""Event kinds no player performs."""

NAMED_FIELDS: dict[type, tuple[str, ...]] = {
    cls: tuple(f for f in ("card", "target") if f in cls.__struct_fields__) for cls in E.EVENTS}
"""Per event class, its fields that name a card (``card``, ``target``): checked against the database."""


class KindFacts(NamedTuple):
    """What :meth:`BattleMonsters.apply` needs to know of one class of event, worked out once per class."""

    kind: str
    actor: bool
    """A player performs it: the event must say who (every kind but :data:`NO_ACTOR`)."""
    named: tuple[str, ...]
    """Its fields that name a card of the database (:data:`NAMED_FIELDS`; none for the claims
    ``sent`` and ``triggered``, whose cards may have left play)."""
    claim: bool
    """A claim (``E.KINDS``): it derives nothing, and the facts it may match stay those of the last move."""
    action: Action[Any, Any]
    """The action whose preconditions judge it (``BOOK.actions``)."""
    perform: str
    """The name of the method that carries it out (``_do_<kind>``)."""
    on_field: bool
    """It names a card of the mover's side of the field (and an attack a target on the other):
    looked up once, before its checks (:class:`spec.battle_monsters.state.Move`)."""


ON_FIELD = ("reveal", "switch", "attack", "conceal")
"""The kinds of move that name a card of the mover's side of the field."""


def facts_of(cls: type, kind: str) -> KindFacts:
    """The :class:`KindFacts` of an event class of the given kind."""
    named = () if kind in ("sent", "triggered") else NAMED_FIELDS.get(cls, ("card", "target"))
    return KindFacts(kind, kind not in NO_ACTOR, named, E.KINDS[kind] == "claim", BOOK.actions[kind], f"_do_{kind}",
                     kind in ON_FIELD)


FACTS: dict[type, KindFacts] = {cls: facts_of(cls, str(cls.__struct_config__.tag)) for cls in E.EVENTS}
"""Per event class of the vocabulary, its :class:`KindFacts`."""

MAX_DEPTH = 12
"""How deeply effects may set each other off within one event before the spec gives up (unverifiable)."""

# Rules encoded by the structure of this module rather than by one function.
BOOK.note("BM.rules.order", "BM.rules.manual",
          what="card permissions and prohibitions are consulted before the manual's defaults (board.permission)")
BOOK.note("BM.rules.conflict", what="a can against a cannot: the precedence policy decides, the later card wins unless one holds regardless (conflicts.judge)")
BOOK.note("BM.turn.one_action", "BM.actions.list", "BM.turn.actions_def",
          what="the event vocabulary: draw, discard and skip are the actions; each ends the turn (BattleMonsters._end_turn)")
BOOK.note("BM.turn.subaction_limit", "BM.subactions.list",
          what="the sub-actions summon, reveal, attack and switch, limited per card (actions.one_subaction_per_card)")
BOOK.note("BM.subactions.summon", "BM.subactions.summon.single", "BM.summon.stances",
          what="a summon in any of the four stances is one sub-action of the summoned card (BattleMonsters._do_summon)")
BOOK.note("BM.actions.hand_limit", what="no check limits the hand: it may grow without bound")
BOOK.note("BM.monster.keywords", what="selectors match species keywords and elements, never card names (board._filters)")
BOOK.note("BM.gloss.face_up.effects", "BM.gloss.face_down.effects", "BM.stance.ai.spell", "BM.stance.di.spell",
          what="only face-up cards and traps have effects in force (board.effects_on)")
BOOK.note("BM.stance.av.trap", "BM.stance.dv.trap", "BM.stance.ai.trap", "BM.stance.di.trap",
          what="traps go off in every stance when their condition happens (BattleMonsters._fire)")
BOOK.note("BM.stance.av.monster.visible_turn", what="the reveal-turn check (actions.no_attack_on_reveal_turn)")
BOOK.note("BM.stance.av.monster.calc", "BM.stance.dv.monster.calc", "BM.stance.ai.monster.calc", "BM.stance.di.monster.calc",
          "BM.monster.calc_mode", "BM.monster.calc_attacked",
          what="a card battles with the points of its mode, attacker or not (board.battle_points)")
BOOK.note("BM.stance.dv.monster", what="face-up monsters shield their player from direct attacks (actions.direct_attack_needs_open_field)")
BOOK.note("BM.monster.direct", what="read with BM.start.direct_attack: only face-up monsters shield (actions.direct_attack_needs_open_field)")
BOOK.note("BM.stance.di.monster.attackable", "BM.stance.dv.trap.attack", "BM.stance.dv.spell.attack", "BM.stance.di.trap",
          "BM.stance.di.spell", "BM.spell.attackable", "BM.trap.attackable",
          what="cards in defence stances may be attacked; attack-stance spells and traps may not (actions.target_*)")
BOOK.note("BM.monster.special_targets", what="a card's can-attack permission lets a monster attack an attack-stance spell or trap (actions._special_target)")
BOOK.note("BM.gloss.revealed.permanent", "BM.subactions.reveal.permanent",
          what="no event turns a card face down legally (actions.conceal checks)")
BOOK.note("BM.subactions.switch", what="a switch turns the card between attack and defence mode (BattleMonsters._do_switch)")
BOOK.contradiction("BM.start.direct_attack", "BM.monster.direct",
                   why="one rule lets a player be hit directly when they have no face-up monster, the other only when they have no monster at all")
BOOK.contradiction("BM.gloss.game.win", "BM.actions.skip.forced", "BM.end.conditions",
                   why="running out of cards wins the game for the opponent in the glossary, but only forces a skip in the actions, and is no end condition")
BOOK.contradiction("BM.spell.attackable", "BM.stance.ai.spell.attack",
                   why="face-down spells may be attacked in one rule, but not in the attack-invisible stance in the other (likewise traps)")
BOOK.contradiction("BM.monster.no_attack", "BM.start.direct_attack",
                   why="a monster with 0 attack points may attack, but must have more than 0 to attack the player")


class BattleMonsters(Game[BattleMonstersState, Event]):
    """The Battle Monsters manual."""

    id: ClassVar[str] = "battle_monsters"
    title: ClassVar[str] = "Battle Monsters"
    rulesets: ClassVar[tuple[str, ...]] = ("battle_monsters/1",)
    default_cards: ClassVar[str] = "battle_monsters/base"
    events = E.EVENTS
    event_kinds = E.KINDS
    book = BOOK
    turn = TURN
    ending_moves: ClassVar[frozenset[str]] = frozenset({"surrender", "agree"})
    parting_moves: ClassVar[frozenset[str]] = frozenset({"discard", "bury"})
    conflicts_stamp: ClassVar[str | None] = "conflicts_clock"
    """Moved whenever ``conflicts_met`` could find something new (``BattleMonstersState.conflicts_clock``)."""

    def __init__(self) -> None:
        self.effects = Effects(self)
        # Asked after the events that moved the clock: the function the method conflicts_met calls, bound without the extra call.
        self.conflicts_met = BC.conflicts_met  # type: ignore[method-assign]

    # ================================================================== set-up and decks

    def setup(self, setup: Setup) -> BattleMonstersState:
        sides: dict[str, Side] = {}
        for player in setup.players:
            deck = setup.decks.get(player)
            registered = self._check_deck(setup, player, deck) if deck is not None else None
            side = Side(player, Zone("hand", public=False), Zone("graveyard"), DeckKnowledge(registered, lambda name: None, player),
                        sum(registered.values()) if registered is not None else None)
            sides[player] = side
        return BattleMonstersState(setup.players, sides, setup.cards)

    @BOOK.encodes("BM.start.deck_min", "BM.start.duplicates", what="deck construction checked against the registered decklist")
    def _check_deck(self, setup: Setup, player: str, deck: Any) -> Counter[str]:
        try:
            typed = msgspec.convert(deck, E.Decklist)
        except msgspec.ValidationError as error:
            setup.rulings.append(Ruling(None, Violation(f"{player}'s decklist is not valid: {error}", "{\"cards\": {name: copies}}",
                                                        "a different shape", "malformed")))
            return Counter()
        registered = Counter({k: v for k, v in typed.cards.items() if v > 0})
        for name in registered:
            if B.printed(setup.cards, name) is None:
                setup.rulings.append(Ruling(None, Violation(f"{player}'s deck lists {name!r}, which is no printed card of the database",
                                                            "a monster, spell or trap of the database", name, "unverifiable")))
        problem = size_violation(sum(registered.values()), DECK_MIN, 10**9)
        if problem:
            setup.rulings.append(Ruling(cite("BM.start.deck_min"), Violation(f"{player}'s deck: {problem}", f"at least {DECK_MIN} cards", problem)))
        # BM.start.duplicates: no limit on copies, so no copy check is made.
        return registered

    # ================================================================== applying events

    def apply(self, state: BattleMonstersState, event: Event) -> list[Ruling]:
        facts = FACTS.get(type(event))
        if facts is None:
            facts = facts_of(type(event), str(event.__struct_config__.tag))
        state.seq = event.seq  # the decks' journals are dated with it as they note (DeckKnowledge.dated)
        try:
            return self._apply(state, event, facts)
        except (B.Unmodelled, UnsupportedStep) as error:
            return [Ruling(None, Violation(str(error), severity="unverifiable"))]
        except RecursionError:
            return [Ruling(None, Violation("effects set each other off without end", severity="unverifiable"))]
        finally:
            state.move = None  # what the move named holds no longer once it is carried out

    def _apply(self, state: BattleMonstersState, ev: Any, facts: KindFacts) -> list[Ruling]:
        kind = facts.kind
        by = ev.by
        if by not in state.players:  # not a player, or nobody
            problem = actor_problem(kind, by, state.players, facts.actor)
            if problem is not None:
                return problem
        if facts.named:  # each card the event names is one of the database
            cards = state.cards
            for field in facts.named:
                name = getattr(ev, field, None)
                if isinstance(name, str) and name and name not in cards.cards and B.printed(cards, name) is None:
                    return [Ruling(None, Violation(f"{name!r} is not a card of the database {cards.name}", "a printed card", name, "unverifiable"))]
        claim = facts.claim
        if not claim:
            state.mark = len(state.facts)
        target = None
        if facts.on_field:  # the cards it names on the field, found once for its checks and its step
            move = state.move = X.move_context(state, ev)
            if kind == "attack":  # what it aims at: the checks of the other sorts of target pass
                target = X.target_sort(move)
        # The checks that can fail now (actions.plan): the action's registered checks, less
        # those that always pass in this stage of the game, with an effect waiting or not and
        # these sorts of effects in force: first those the card database can give, then, if a
        # check left hangs on them, those the field gives (actions.spoken_now), and, for an
        # attack, with what it aims at (actions.target_sort); the first finding decides. The checks only read the state: a stretch of reading
        # (board.read_only, inline), from the field's sorts on.
        pending = state.pending
        waiting = bool(pending) and pending[0].need is not None
        profile = state.profile
        spoken = profile.spoken if profile is not None and profile.ok and not state.lasting else None
        plan = X.PLANS.get((kind, state.stage, waiting, spoken, target))
        if plan is None:
            plan = X.plan(kind, state.stage, waiting, spoken, target)
        outer = state.statics_memo is None
        if outer:
            state.statics_memo = {}
        violation = None
        try:
            if plan.speaks and spoken is not None:  # narrowed to the sorts the field gives
                spoken = B.field_sorts(state)
                plan = X.PLANS.get((kind, state.stage, waiting, spoken, target)) or X.plan(kind, state.stage, waiting, spoken, target)
            tests = plan.tests
            for test in tests:
                violation = test(state, ev)
                if violation is not None:
                    break
        finally:
            if outer:
                state.statics_memo = None
        if violation is not None:
            check = plan.checks[tests.index(test)]
            if not claim:
                self._apply_anyway(state, ev, kind)
            return [Ruling(check.rule, violation, check.name)]
        if claim:
            return []
        if kind != "agree":
            state.offer = None
        self._carry_out(state, ev, kind, facts.perform)
        if state.pending or state.battle is not None or state.ending:  # else _progress would find nothing to do
            self._progress(state)
        return []

    def _carry_out(self, state: BattleMonstersState, ev: Any, kind: str, perform: str) -> None:
        """Carry out a move found legal: its method ``perform`` (``_do_<kind>``).

        The moves of nearly every event (those of a turn) are called by name here: compiled,
        each is then a direct call, where ``getattr(self, perform)`` finds the method, binds it
        and calls it through Python's generic call on every event. Any other kind is found by
        name. (``tests/test_battle_monsters_speed.py`` holds each kind to its own method.)
        """
        if kind == "switch":
            self._do_switch(state, ev)
        elif kind == "draw":
            self._do_draw(state, ev)
        elif kind == "summon":
            self._do_summon(state, ev)
        elif kind == "skip":
            self._do_skip(state, ev)
        elif kind == "attack":
            self._do_attack(state, ev)
        elif kind == "reveal":
            self._do_reveal(state, ev)
        elif kind == "discard":
            self._do_discard(state, ev)
        else:
            getattr(self, perform)(state, ev)

    def _apply_anyway(self, state: BattleMonstersState, ev: Any, kind: str) -> None:
        """Carry out an illegal move as far as it physically can be (for ``--keep-going``)."""
        self.apply_anyway(state, ev, kind, after=self._progress)

    # ================================================================== set-up

    def _do_first(self, state: BattleMonstersState, ev: E.First) -> None:
        state.first = ev.player

    def _do_bury(self, state: BattleMonstersState, ev: E.Bury) -> None:
        side = state.sides[ev.by or ""]
        side.knowledge.dated(state.seq).reveal(ev.card, f"put {ev.card} into the graveyard at set-up")
        side.graveyard.add(state.new_card(ev.card, side.name))
        side.supply = None if side.supply is None else side.supply - 1
        side.buried += 1

    def _draw(self, state: BattleMonstersState, player: str, name: str | None) -> None:
        side = state.sides[player]
        if name is not None:
            side.knowledge.dated(state.seq).reveal(name, f"drew {name}")
        side.hand.add(state.new_card(name, player))
        side.supply = None if side.supply is None else side.supply - 1

    @BOOK.encodes("BM.actions.draw", "BM.actions.ends_turn", what="the draw action takes one card, then the turn passes")
    def _do_draw(self, state: BattleMonstersState, ev: E.Draw) -> None:
        player = ev.by or ""
        if state.pending and X.answering(state, ev):  # only an effect being carried out waits for a draw
            self._draw(state, player, ev.card)
            self._answered(state)
            return
        self._draw(state, player, ev.card)
        if state.stage == "setup":
            state.sides[player].opening += 1
            self._maybe_start(state)
            return
        state.ending = True

    @BOOK.encodes("BM.start.lives_hand", "BM.gloss.life.start", "BM.start.first",
                  what="play starts with the coin's winner once both hands hold five cards; five lives each")
    def _maybe_start(self, state: BattleMonstersState) -> None:
        if all(s.opening >= OPENING_HAND for s in state.sides.values()) and state.first is not None:
            state.stage = "turn"
            state.changed("stage")
            self._begin_turn(state, state.first)

    # ================================================================== actions

    def _take_from_hand(self, state: BattleMonstersState, player: str, name: str) -> None:
        side = state.sides[player]
        card = side.hand.find(name)
        if card is None:
            card = side.hand.unknown()
            if card is None:
                raise B.Unmodelled(f"{name} is not in {player}'s hand")
            side.knowledge.dated(state.seq).reveal(name, f"showed {name} from the hand", source="hidden")
        side.hand.remove(card)

    @BOOK.encodes("BM.actions.discard", "BM.actions.discard.no_trigger",
                  what="a discard puts the card in the graveyard and sets off nothing")
    def _do_discard(self, state: BattleMonstersState, ev: E.Discard) -> None:
        player = ev.by or ""
        self._take_from_hand(state, player, ev.card)
        state.sides[player].graveyard.add(state.new_card(ev.card, player))
        if state.pending and X.answering(state, ev):  # only an effect being carried out waits for a discard
            self._answered(state)
            return
        state.ending = True

    @BOOK.encodes("BM.actions.skip", "BM.actions.skip.forced", what="a skip ends the turn without a draw")
    def _do_skip(self, state: BattleMonstersState, ev: E.Skip) -> None:
        state.ending = True

    # ================================================================== sub-actions

    @BOOK.encodes("BM.summon.where", "BM.gloss.summon", "BM.gloss.summon.facedown",
                  what="a summon moves the card from hand to its owner's side; face down, nothing of it goes off")
    def _do_summon(self, state: BattleMonstersState, ev: E.Summon) -> None:
        player = ev.by or ""
        self._take_from_hand(state, player, ev.card)
        found = B.printed(state.cards, ev.card)
        parts = found or ()
        kind = B.kind_of_parts(found) or "monster"
        card = state.new_card(ev.card, player, parts[0] if parts else None)
        fc = OnField(card, kind, parts, ev.mode, ev.visible, state.stamp(), state.turn, was_visible=ev.visible,
                     acted_turn=state.turn, acted="summon")
        state.sides[player].field.append(fc)
        state.field_moved()
        if state.watching or B.may_bring_can(state, fc):
            state.changed("field")
        if not ev.visible:
            return  # BM.gloss.summon.facedown: a face-down card sets off nothing
        self._fire(state, "summoned", player, subject=fc)
        if kind == "monster":
            self._react(state, fc, "summoned")
        elif kind == "spell":
            self._spell_up(state, fc)

    def _do_reveal(self, state: BattleMonstersState, ev: E.Reveal) -> None:
        fc = X._field_card(state, ev)
        assert fc is not None
        fc.acted_turn, fc.acted = state.turn, "reveal"
        self.reveal(state, fc, by_effect=False)

    @BOOK.encodes("BM.subactions.reveal", "BM.gloss.revealed", "BM.spell.no_condition", "BM.stance.av.spell", "BM.stance.dv.spell",
                  what="a revealed card is face up for good; a spell without a condition works as it turns face up")
    def reveal(self, state: BattleMonstersState, fc: OnField, by_effect: bool) -> None:
        """Turn a face-down card face up (by the reveal sub-action or an effect) and set off what that sets off."""
        fc.visible = True
        fc.was_visible = True
        fc.revealed_turn = state.turn
        state.field_moved()
        if state.watching or B.may_bring_can(state, fc):
            state.changed("face")
        self._fire(state, "revealed", fc.owner, subject=fc)
        if fc.kind == "monster":
            self._react(state, fc, "revealed")
        elif fc.kind == "spell":
            self._spell_up(state, fc)

    def _do_switch(self, state: BattleMonstersState, ev: E.Switch) -> None:
        fc = X._field_card(state, ev)
        assert fc is not None
        fc.mode = "defense" if fc.mode == "attack" else "attack"
        fc.acted_turn, fc.acted = state.turn, "switch"

    def _do_conceal(self, state: BattleMonstersState, ev: E.Conceal) -> None:
        fc = X._field_card(state, ev)
        if fc is not None:
            fc.visible = False
            state.field_moved()
            if state.watching:
                state.changed("face")

    @BOOK.encodes("BM.subactions.attack", "BM.gloss.battle", what="an attack opens a battle (or a direct attack) that traps may answer")
    def _do_attack(self, state: BattleMonstersState, ev: E.Attack) -> None:
        player = ev.by or ""
        fc = X._field_card(state, ev)
        assert fc is not None
        target = X._target(state, ev)
        used = self._permission_used(state, fc)
        fc.attacked_turns.append(state.turn)
        fc.acted_turn, fc.acted = state.turn, "attack"
        state.battle = Battle(fc, target, used)
        self._fire(state, "attacked", player, subject=target, target_player=state.other(player), by=fc)

    def _permission_used(self, state: BattleMonstersState, fc: OnField) -> str | None:
        """The name of fc's own special effect that lets it attack now, when the manual alone would not."""
        when = "summoned_turn" if fc.summoned_turn == state.turn else "revealed_turn" if fc.revealed_turn == state.turn else None
        if when is None:
            return None
        for part in fc.parts:
            tree = state.cards.tree(part.name)
            if isinstance(tree, Exception):
                continue
            for ability in tree.abilities:
                if isinstance(ability, N.Special) and any(
                        isinstance(a, A.Passive) and any(isinstance(s, N.Can) and s.action == "attack" and s.when == when for s in a.effect)
                        for a in ability.abilities):
                    return ability.name
        return None

    # ================================================================== answers to effects

    def _answered(self, state: BattleMonstersState) -> None:
        res = state.pending[0]
        need = res.need
        assert need is not None
        need.count -= 1
        need.started = True
        if need.count <= 0:
            res.need = None

    def _do_choose(self, state: BattleMonstersState, ev: E.Choose) -> None:
        res = state.pending[0]
        self.effects.chosen(state, res, ev.card, ev.owner, ev.copy)
        self._answered(state)
        if res.need is not None and not candidates(state, res, res.need):
            res.need = None

    def _do_accept(self, state: BattleMonstersState, ev: E.Accept) -> None:
        res = state.pending[0]
        res.need = None
        res.push(res.vars.get("may", ()))

    def _do_decline(self, state: BattleMonstersState, ev: E.Decline) -> None:
        state.pending[0].need = None

    # ================================================================== the end of the game

    @BOOK.encodes("BM.end.conditions", what="a concession ends the game; the other player wins")
    def _do_surrender(self, state: BattleMonstersState, ev: E.Surrender) -> None:
        self.end(state, state.other(ev.by or ""), "surrender")

    @BOOK.encodes("BM.end.draw", what="an offer of a draw accepted by the other player with the next event ends the game drawn")
    def _do_agree(self, state: BattleMonstersState, ev: E.Agree) -> None:
        if state.offer == state.other(ev.by or ""):
            self.end(state, None, "draw")
        else:
            state.offer = ev.by

    def end(self, state: BattleMonstersState, winner: str | None, why: str) -> None:
        """The game is over: ``winner`` won (``None``: drawn)."""
        if state.stage == "over":
            return
        state.stage = "over"
        state.winner = winner
        state.result = "draw" if winner is None else "win"
        state.ended_by = why
        state.pending.clear()
        state.battle = None
        state.ending = False

    @BOOK.encodes("BM.gloss.game.win", "BM.gloss.life.start", "BM.start.life_loss",
                  what="lives change; a player at zero lives loses")
    def change_lives(self, state: BattleMonstersState, player: str, delta: int) -> None:
        side = state.sides[player]
        side.lives = max(0, side.lives + delta)
        if side.lives == 0:
            self.end(state, state.other(player), "lives")

    # ================================================================== moving cards

    def _leave(self, state: BattleMonstersState, fc: OnField) -> bool:
        side = state.sides[fc.owner]
        if fc not in side.field:
            return False
        side.field.remove(fc)
        fc.passives = None  # they name the card as their holder: kept, the card gone would be a cycle only the collector frees
        state.field_moved()
        if state.watching:
            state.changed("field")
        if state.lasting:  # its own lasting "cannot"s go with it
            state.lasting = [x for x in state.lasting if not (x.source_uid == fc.uid and x.step is not None and x.controller != "" and
                                                               isinstance(x.step, N.Cannot) and x.step.subject.quantifier == "this")]
        return True

    @BOOK.encodes("BM.gloss.graveyard", "BM.monster.loss", what="a card leaving the field for the graveyard; its own effect on that goes off")
    def to_graveyard(self, state: BattleMonstersState, fc: OnField) -> None:
        """Send a card from the field to its owner's graveyard (a battle, an effect, a used single-use card)."""
        was_on = B.effects_on(fc)
        if not self._leave(state, fc):
            return
        state.sides[fc.owner].graveyard.add(state.new_card(fc.name, fc.owner))
        state.facts.append(("sent", fc.name, fc.owner))
        if was_on and fc.kind == "monster":
            self._react(state, fc, "sent_to_graveyard", ghost=True)

    def to_hand(self, state: BattleMonstersState, fc: OnField) -> None:
        if self._leave(state, fc):
            state.sides[fc.owner].hand.add(state.new_card(fc.name, fc.owner))

    @BOOK.encodes("BM.monster.graveyard", what="only an effect brings a monster back from the graveyard (a face-up attack-mode summon)")
    def raise_from_graveyard(self, state: BattleMonstersState, owner: str, name: str, res: Resolution) -> None:
        side = state.sides[owner]
        card = side.graveyard.find(name)
        if card is None:
            return
        side.graveyard.remove(card)
        parts = B.printed(state.cards, name) or ()
        fc = OnField(state.new_card(name, owner, parts[0] if parts else None), B.card_kind(state.cards, name) or "monster", parts,
                     "attack", True, state.stamp(), state.turn, was_visible=True)
        side.field.append(fc)
        state.field_moved()
        if state.watching or B.may_bring_can(state, fc):
            state.changed("field")
        self._fire(state, "summoned", owner, subject=fc)
        if fc.kind == "monster":
            self._react(state, fc, "summoned")

    # ================================================================== effects going off

    def _enqueue(self, state: BattleMonstersState, fc: OnField, effect: tuple[Any, ...], the: OnField | None = None,
                 use: str | None = None) -> None:
        src = Src(fc.uid, fc.name, fc.owner, fc.kind, use, fc.copy())
        res = Resolution(fc.owner, src, [Frame(tuple(effect))])
        if the is not None:
            res.vars["the"] = the.uid
            res.vars["the_ghost"] = the.copy()
        state.pending.append(res)

    @BOOK.encodes("BM.gloss.face_up.effects", "BM.gloss.trigger", what="a monster's effects go off on their event while it is face up")
    def _react(self, state: BattleMonstersState, fc: OnField, kind: str, target_player: str | None = None,
               target: OnField | None = None, ghost: bool = False, name: str | None = None) -> None:
        if not ghost and not B.effects_on(fc):
            return
        for ability in B.reactions_to(state, fc, kind):
            event = ability.event
            if kind == "used" and event.name != name:
                continue
            if event.subject is not None and event.subject.quantifier != "this":
                raise B.Unmodelled(f"{fc.name}: a reaction to another card's {kind} is not modelled")
            if event.target is not None:
                if "player" in event.target.kinds:
                    if target_player is None or target_player not in B.who(state, fc.owner, event.target.owner, fc):
                        continue
                elif target is None or (target.kind not in event.target.kinds and "card" not in event.target.kinds):
                    continue
            self._enqueue(state, fc, ability.effect, the=target)

    def _spell_up(self, state: BattleMonstersState, fc: OnField) -> None:
        """BM.spell.no_condition, BM.stance.av.spell: a spell turning face up works at once if it has no other condition."""
        self._fire(state, "activated", fc.owner, subject=fc)
        for ability in B.abilities(state, fc):
            if not isinstance(ability, N.TriggerEffect):
                if isinstance(ability, (A.Passive,)):
                    continue
                raise B.Unmodelled(f"{fc.name}: a spell ability of kind {type(ability).__name__} is not modelled")
            trigger = ability.trigger
            if trigger is None or (set(trigger.kinds) & {"revealed", "activated"} and
                                   (trigger.subject is None or trigger.subject.quantifier == "this")):
                state.facts.append(("triggered", fc.name, fc.owner))
                self._enqueue(state, fc, ability.effect, use=ability.use or "single")  # silent on how often: once

    @BOOK.encodes("BM.trap.def", "BM.spell.def", "BM.spell.duration", "BM.trap.duration",
                  what="spells and traps go off when their condition happens; traps turn face up; use limits apply")
    def _fire(self, state: BattleMonstersState, kind: str, actor: str, subject: OnField | None = None,
              target_player: str | None = None, by: OnField | None = None) -> None:
        reading = state.field_reading()  # the spells and traps on the field, kept while no card comes or goes
        magic = reading.magic
        if not magic:
            return  # only spells and traps go off on their condition (and only they set _fire off again: no depth to count)
        if state.depth >= MAX_DEPTH:
            raise B.Unmodelled("effects set each other off more than the spec follows")
        # Of those, the ones with an ability that names this kind of event (B.may_trigger_on): the
        # others would find nothing to set off. Kept per kind while the same cards stand, none fused since.
        kept = reading.watchers.get(kind)
        if kept is not None and kept[0] == state.field_clock:
            watchers = kept[1]
        else:
            watchers = [fc for fc in magic if B.may_trigger_on(state, fc, kind)]
            reading.watchers[kind] = (state.field_clock, watchers)
        if not watchers:
            return
        state.depth += 1
        try:
            for fc in watchers:
                if (fc.kind == "spell" and not fc.visible) or fc.nullified:
                    continue
                if subject is not None and fc.uid == subject.uid and kind in ("revealed", "activated"):
                    continue  # a card's own turning face up is handled by _spell_up
                if fc.expires is not None and fc.expires < state.turn:
                    continue
                for ability in B.triggers_on(state, fc, kind):
                    if not self._trigger_matches(state, fc, ability.trigger, kind, actor, subject, target_player, by):
                        continue
                    if ability.use == "once_per_turn" and fc.used_turn == state.turn:
                        continue
                    fc.used_turn = state.turn
                    was_hidden = not fc.visible
                    fc.visible = True
                    fc.was_visible = True
                    if was_hidden:
                        state.field_moved()
                        fc.revealed_turn = state.turn
                        if state.watching or B.may_bring_can(state, fc):
                            state.changed("face")
                    state.facts.append(("triggered", fc.name, fc.owner))
                    self._enqueue(state, fc, ability.effect, the=subject if subject is not None else by, use=ability.use)
                    if was_hidden:
                        self._fire(state, "revealed", fc.owner, subject=fc)
                    break
        finally:
            state.depth -= 1

    def _trigger_matches(self, state: BattleMonstersState, fc: OnField, trig: N.Event, kind: str, actor: str,
                         subject: OnField | None, target_player: str | None, by: OnField | None) -> bool:
        ctx = B.Ctx(fc.owner, fc)
        if kind == "turn_begins":
            return state.active in B.who(state, fc.owner, trig.who or "you", fc)
        if trig.who is not None and actor not in B.who(state, fc.owner, trig.who, fc):
            return False
        sel = trig.subject
        if kind == "attacked":
            # A trap "when attacked" watches attacks on its controller: on them or on any card of theirs.
            if sel is not None and sel.quantifier == "this":
                if target_player != fc.owner:
                    return False
            elif sel is not None and (subject is None or not B._filters(state, sel, subject, ctx)):
                return False
        elif sel is not None:
            if sel.quantifier == "this":
                if subject is None or subject.uid != fc.uid:
                    return False
            elif subject is None or not B._filters(state, sel, subject, ctx):
                return False
        if trig.by is not None and (by is None or not B._filters(state, trig.by, by, ctx)):
            return False
        if trig.target is not None:
            raise B.Unmodelled(f"{fc.name}: a condition naming the target of an event is not modelled")
        return True

    # ================================================================== carrying effects out

    def _progress(self, state: BattleMonstersState) -> None:
        """Carry out pending effects, the battle in progress and the change of turn, until the log is needed."""
        for _ in range(1000):
            if state.stage == "over":
                return
            if state.pending:
                res = state.pending[0]
                if res.need is not None:
                    return
                src: Src = res.source
                holder = B.find_uid(state, src.uid)
                if holder is not None and holder.nullified and src.kind == "spell":
                    state.pending.pop(0)
                    self._after_use(state, src)
                    continue
                try:
                    done = interpreter.run(self.effects, state, res)
                except UnsupportedStep as error:
                    raise B.Unmodelled(f"{src.name}: {error}") from None
                if state.stage == "over":
                    return
                if done and state.pending and state.pending[0] is res:
                    state.pending.pop(0)
                    self._after_use(state, src)
                continue
            if state.battle is not None:
                self._resolve_battle(state)
                continue
            if state.ending:
                state.ending = False
                self._begin_turn(state, state.other(state.active))
                continue
            return
        raise B.Unmodelled("effects kept going without end")

    def _after_use(self, state: BattleMonstersState, src: Src) -> None:
        """BM.spell.duration, BM.trap.duration: a single-use card goes to the graveyard; one that lasts N turns is timed."""
        fc = B.find_uid(state, src.uid)
        if fc is None or fc.kind not in ("spell", "trap"):
            return
        if src.use == "single":
            self.to_graveyard(state, fc)
        elif src.use is not None and src.use.endswith("_turns") and fc.expires is None:
            n = int(src.use.split("_", 1)[0])
            fc.expires = state.turn + n - 1

    @BOOK.encodes("BM.monster.loss", "BM.stance.dv.trap.attack", "BM.stance.dv.spell.attack", "BM.start.life_loss",
                  what="a battle: the higher points win, the loser goes to the graveyard; a direct hit costs one life")
    def _resolve_battle(self, state: BattleMonstersState) -> None:
        battle = state.battle
        assert battle is not None
        attacker = B.find_uid(state, battle.attacker.uid)
        if attacker is None or attacker.mode != "attack":
            state.battle = None  # the attacker left the field or was switched to defence: the attack stops
            return
        defender_player = state.other(attacker.owner)
        target = None
        flipped = False
        if battle.defender is None:
            if B.permission(state, "lose_lives_in_battle", None, player=defender_player).allowed is not False:
                self.change_lives(state, defender_player, -1)
        else:
            target = B.find_uid(state, battle.defender.uid)
            if target is None:
                state.battle = None
                return
            if target.kind == "monster":
                flipped = not target.visible
                target.visible = True
                target.was_visible = True
                if flipped:
                    state.field_moved()
                if flipped and (state.watching or B.may_bring_can(state, target)):
                    state.changed("face")
                with B.Reading(state):
                    a, d = B.battle_points(state, attacker), B.battle_points(state, target)
                if a > d:
                    self.to_graveyard(state, target)
                elif d > a:
                    self.to_graveyard(state, attacker)
            else:
                self.to_graveyard(state, target)
        state.battle = None
        if state.stage == "over":
            return
        if target is not None and B.find_uid(state, target.uid) is not None:
            self._react(state, target, "defended")
            if flipped:
                self._react(state, target, "revealed")
        if B.find_uid(state, attacker.uid) is not None:
            self._react(state, attacker, "attacks", target_player=defender_player if battle.defender is None else None,
                        target=target)
            if battle.used is not None:
                self._react(state, attacker, "used", name=battle.used)

    @BOOK.encodes("BM.gloss.game.win", what="a player who begins a turn with an empty supply deck has run out and loses")
    def _begin_turn(self, state: BattleMonstersState, player: str) -> None:
        for _ in range(8):
            state.turn += 1
            state.turn_owner.append(player)
            state.active = player
            if state.watching:
                state.changed("turn")
            state.offer = None
            if state.lasting:
                state.lasting = [x for x in state.lasting if x.until is None or x.until >= state.turn]
            for fc in state.field_reading().magic:  # only a spell or trap lasts a number of turns (_after_use)
                if fc.expires is not None and fc.expires < state.turn:
                    self.to_graveyard(state, fc)
            side = state.sides[player]
            if side.skips > 0:
                side.skips -= 1
                player = state.other(player)
                continue
            break
        side = state.sides[player]
        if side.supply is not None and side.supply <= 0:
            self.end(state, state.other(player), "supply")
            return
        self._fire(state, "turn_begins", player)

    # ================================================================== conflicts met while verifying

    @BOOK.encodes("BM.rules.conflict", "BM.rules.card", "BM.rules.order",
                  what="clashes of effects in force, settled by the precedence policy, listed once each (conflicts.conflicts_met)")
    def conflicts_met(self, state: BattleMonstersState, memo: dict[str, Any]) -> list[Ruling]:
        """Clashes of effects in force, settled by the Battle Monsters policy (spec.battle_monsters.conflicts).

        Cheap pre-filter: nothing is computed unless a card's "can" is in force; z3 only once
        two effects could clash.
        """
        return BC.conflicts_met(state, memo)

    # ================================================================== simulation hooks

    def unsupported(self, cards: Any, name: str) -> str | None:
        """Why the spec cannot judge a card whatever the state, or ``None``: a monster whose
        root prints no attack or defense points in the card file (a public pool gives none),
        so a battle it fights cannot be judged (board.printed_points); a step of a part's
        text the spec does not carry out (:func:`~spec.battle_monsters.effects.step_gap`)."""
        for part in B.printed(cards, name) or ():
            missing = B.unprinted_points(part)
            if missing:
                return f"{part.name} prints no {' or '.join(missing)} points in the card file, so a battle it fights cannot be judged"
            gap = next(filter(None, map(step_gap, A.nodes(cards.tree(part.name)))), None) if part.text.strip() else None
            if gap is not None:
                return f"{part.name}: {gap}"
        return None

    def random_deck(self, cards: Any, rng: random.Random) -> dict[str, Any]:
        """A random registered decklist of 30 to 40 printed cards (BM.start.deck_min; copies unlimited),
        of the cards the spec can judge (:meth:`unsupported`)."""
        roots = sorted(c.name for c in cards if B.kind_of(c) == "monster" and self.supported(cards, c.name))
        if not roots:
            raise DeckError(f"no monster card the spec can judge to fill a deck with ({cite('BM.start.deck_min')})")
        magic = sorted(c.name for c in cards if B.kind_of(c) in ("spell", "trap") and self.supported(cards, c.name))
        prefixes = sorted(c.name for c in cards if "prefix" in c.type)
        suffixes = sorted(c.name for c in cards if "suffix" in c.type)
        deck: dict[str, int] = {}
        for name in rng.sample(roots, min(9, len(roots))):
            deck[name] = rng.randint(2, 3)
        for _ in range(2):
            name = rng.choice(roots)
            if rng.random() < 0.5 and prefixes:
                name = f"{rng.choice(prefixes)} {name}"
            else:
                name = f"{name} {rng.choice(suffixes)}" if suffixes else name
            deck[name] = deck.get(name, 0) + 1
        for name in rng.sample(magic, min(6, len(magic))):
            deck[name] = rng.randint(1, 2)
        while sum(deck.values()) < DECK_MIN:
            name = rng.choice(roots)
            deck[name] = deck.get(name, 0) + 1
        return {"cards": dict(sorted(deck.items()))}

    def choice_key(self, event: Event) -> Any:
        """A draw is identified by its player: which card comes is chance, sampled by legal_moves."""
        if event.__struct_config__.tag == "draw":
            return ("draw", event.by)
        return super().choice_key(event)

    def facts(self, state: BattleMonstersState) -> tuple[int, tuple[int, ...], str]:
        return len(state.facts), tuple(state.sides[p].lives for p in state.players), state.stage

    def claims_since(self, state: BattleMonstersState, before: tuple[int, tuple[int, ...], str]) -> list[dict[str, Any]]:
        """Claims (cards gone off, cards sent to the graveyard, lives, the result) for what was derived since ``before``."""
        seen, lives, stage = before
        out: list[dict[str, Any]] = []
        for kind, card, owner in state.facts[seen:]:
            out.append({"do": kind, "card": card, "owner": owner})
        for player, old in zip(state.players, lives, strict=True):
            if state.sides[player].lives != old:
                out.append({"do": "lives", "player": player, "lives": state.sides[player].lives})
        if state.stage == "over" and stage != "over":
            out.append({"do": "game", "winner": state.winner})
        return out

    # ================================================================== end of log, views, copies

    def finish(self, state: BattleMonstersState) -> list[Ruling]:
        """At the end of the log: an effect still waiting for events is noted."""
        need = X.need(state)
        if need is not None:
            return [Ruling(need.rule, Violation("the log ends while an effect still needs events", need.describe(), "end of log", "info"))]
        return []

    def view(self, state: BattleMonstersState) -> dict[str, Any]:
        sides = {}
        for player in state.players:
            side = state.sides[player]
            sides[player] = {
                "lives": side.lives, "hand": len(side.hand), "supply": side.supply, "graveyard": side.graveyard.names(),
                "field": [f"{fc.name} ({fc.mode}, {'visible' if fc.visible else 'invisible'})" for fc in side.field],
            }
        return {"stage": state.stage, "turn": state.turn, "active": state.active, "winner": state.winner,
                "pending": [r.source.name for r in state.pending], "players": sides}

    def resources(self, state: BattleMonstersState) -> dict[str, dict[str, int]]:
        """Per player: lives, hand size, supply deck size, cards on the field."""
        return {p: {"lives": s.lives, "hand": len(s.hand), "supply": s.supply or 0, "field": len(s.field)}
                for p, s in state.sides.items()}

    def copy(self, state: BattleMonstersState) -> BattleMonstersState:
        return state.copy()

    # ================================================================== legal moves

    def legal_moves(self, state: BattleMonstersState, rng: random.Random | None = None) -> list[Event]:
        """Every move the rules allow now; drawn cards are sampled (with ``rng``) from what the deck can hold."""
        legal = []
        for move in self._candidates(state, rng or random.Random(0)):
            kind = str(move.__struct_config__.tag)
            if E.KINDS[kind] != "claim":  # a move breaking a precondition is refused before anything happens
                try:
                    with B.Reading(state):  # the checks only read the state
                        refused = BOOK.actions[kind].first_violation(state, move) is not None
                except (B.Unmodelled, UnsupportedStep, RecursionError):
                    refused = True  # apply would call the move unverifiable: not offered
                if refused:  # (no ``continue`` inside the ``with``: mypyc cannot compile one there)
                    continue
            trial = state.copy()
            rulings = self.apply(trial, move)
            if not any(r.violation.severity in ("illegal", "inconsistent", "malformed", "unverifiable") for r in rulings):
                legal.append(move)
        return legal

    def _drawable(self, state: BattleMonstersState, player: str, rng: random.Random) -> str | None:
        knowledge = state.sides[player].knowledge
        if knowledge.registered is None:
            return None
        pool = sorted(n for n, k in knowledge.registered.items() for _ in range(k - knowledge.located[n]))
        return rng.choice(pool) if pool else None

    def _hand_names(self, state: BattleMonstersState, player: str) -> list[str]:
        side = state.sides[player]
        names = set(side.hand.names())
        if side.hand.unknown() is not None and side.knowledge.registered is not None:
            names |= {n for n in side.knowledge.registered if side.knowledge.can_reveal(n)}
        return sorted(names)

    def _candidates(self, state: BattleMonstersState, rng: random.Random) -> list[Event]:
        out: list[Event] = []
        if state.stage == "over":
            return out
        for player in state.players:
            out += [E.Surrender(0, player), E.Agree(0, player)]
        need = X.need(state)
        if need is not None:
            p = need.player
            if need.kind == "draw":
                out.append(E.Draw(0, p, self._drawable(state, p, rng)))
            elif need.kind == "discard":
                out += [E.Discard(0, p, n) for n in self._hand_names(state, p)]
            elif need.kind == "choose":
                out += [E.Choose(0, p, c, o, k) for c, o, k in candidates(state, state.pending[0], need)]
            elif need.kind == "may":
                out += [E.Accept(0, p), E.Decline(0, p)]
            return out
        if state.stage == "setup":
            if state.first is None:
                out += [E.First(0, None, p) for p in state.players]
            for p in state.players:
                side = state.sides[p]
                if side.knowledge.registered is not None:
                    out += [E.Bury(0, p, n) for n in sorted(side.knowledge.registered) if side.knowledge.can_reveal(n)]
                out.append(E.Draw(0, p, self._drawable(state, p, rng)))
            return out
        p = state.active
        side = state.sides[p]
        for name in self._hand_names(state, p):
            for mode in ("attack", "defense"):
                for visible in (True, False):
                    out.append(E.Summon(0, p, name, mode, visible))  # type: ignore[arg-type]
        foes = state.sides[state.other(p)].field
        for fc in side.field:
            k = B.copy_number(state, fc)
            out += [E.Reveal(0, p, fc.name, k), E.Switch(0, p, fc.name, k)]
            if fc.kind == "monster":
                out.append(E.Attack(0, p, fc.name, k, None))
                out += [E.Attack(0, p, fc.name, k, t.name, B.copy_number(state, t)) for t in foes]
        out.append(E.Draw(0, p, self._drawable(state, p, rng)))
        out += [E.Discard(0, p, n) for n in self._hand_names(state, p)]
        out.append(E.Skip(0, p))
        return out


__all__ = ["BattleMonsters"]
