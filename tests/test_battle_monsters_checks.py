"""Battle Monsters rule checks, one case each, and the ambiguity decisions, pinned.

Each :class:`Case` takes a state from a simulated legal game, arranges the situation the
rule is about, and applies one event: the first finding must cite the rule and come from
the named check. Remove the check and the case fails. (Many checks are also broken by a
replay of ``replays/battle_monsters/illegal``; ``tests/test_corpus.py``
makes sure every check has one or the other.) The decision tests pin
``docs/battle_monsters-decisions.rst``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from grammar import battle_monsters_nodes as N
from spec import load_game
from spec.battle_monsters import board as B
from spec.battle_monsters import events as E
from spec.battle_monsters.corpus import play, replay_states
from spec.battle_monsters.effects import Src
from spec.battle_monsters.state import BattleMonstersState, Bonus, Lasting, OnField
from spec.core.cards import CardDatabase, CardDef
from spec.core.game import Setup
from spec.core.interpreter import Frame, Need, Resolution

GAME: Any = load_game("battle_monsters")


@cache
def _states(seed: int) -> list[BattleMonstersState]:
    return [state.copy() for state, _event, _raw in replay_states(play(seed))]


def state_where(pred: Callable[[BattleMonstersState], bool], seeds: tuple[int, ...] = (1, 2, 3)) -> BattleMonstersState:
    """A copy of the first state of a simulated game where ``pred`` holds."""
    for seed in seeds:
        for state in _states(seed):
            if pred(state):
                return state.copy()
    raise LookupError("no such state in the simulated games")


def turn_open(s: BattleMonstersState) -> bool:
    """The active player may act: a turn is going on and nothing waits."""
    return s.stage == "turn" and not s.pending and s.battle is None and not s.ending and s.turn > 2


def in_setup(s: BattleMonstersState) -> bool:
    return s.stage == "setup" and s.first is None


def after_coin(s: BattleMonstersState) -> bool:
    return s.stage == "setup" and s.first is not None and all(side.buried == 0 for side in s.sides.values())


def me(s: BattleMonstersState) -> str:
    return s.active


def foe(s: BattleMonstersState) -> str:
    return s.other(s.active)


def put(s: BattleMonstersState, player: str, name: str, mode: str = "attack", visible: bool = True, **extra: Any) -> OnField:
    """Put a card on ``player``'s side as if it had been there since an earlier turn."""
    parts = B.printed(s.cards, name)
    assert parts is not None, name
    fc = OnField(s.new_card(name, player, parts[0]), B.card_kind(s.cards, name) or "monster", parts, mode, visible,
                 s.stamp(), s.turn - 2, was_visible=visible)
    for key, value in extra.items():
        setattr(fc, key, value)
    s.sides[player].field.append(fc)
    return fc


def clear(s: BattleMonstersState, player: str) -> None:
    s.sides[player].field.clear()


def to_hand(s: BattleMonstersState, player: str, name: str) -> None:
    s.sides[player].hand.add(s.new_card(name, player))


def outside_deck(s: BattleMonstersState, player: str) -> str:
    """A monster of the database the player's registered deck does not hold and that is nowhere in play."""
    registered: Mapping[str, int] = s.sides[player].knowledge.registered or {}
    return next(c.name for c in s.cards if B.kind_of(c) == "monster" and registered.get(c.name, 0) == 0
                and s.sides[player].graveyard.find(c.name) is None and s.sides[player].hand.find(c.name) is None)


def forbid(s: BattleMonstersState, player: str, actions: tuple[str, ...], fc: OnField | None = None) -> None:
    """An effect in force (as if a spell had resolved) that forbids ``actions`` to a player or a card."""
    subject = N.Cards("this") if fc is not None else N.Cards("the", ("player",), owner="you")
    s.lasting.append(Lasting(N.Cannot(subject, actions), player, "a test spell", fc.uid if fc else -1, s.stamp()))


def waiting(s: BattleMonstersState, kind: str, player: str) -> None:
    """An effect of the active player waiting for a ``kind`` event from ``player``."""
    res = Resolution(me(s), Src(-1, "Scroll of Plenty", me(s), "spell"), [Frame(())])
    res.need = Need(kind, player, 1)
    s.pending.append(res)


def hand_card(s: BattleMonstersState, player: str) -> str:
    names = s.sides[player].hand.names()
    if not names:
        to_hand(s, player, "Quarry Golem")
        return "Quarry Golem"
    return names[0]


@dataclass(frozen=True)
class Case:
    rule: str
    check: str
    where: Callable[[BattleMonstersState], bool]
    arrange: Callable[[BattleMonstersState], Any]
    event: Callable[[BattleMonstersState], Any]


def _nothing(s: BattleMonstersState) -> None:
    return None


def _ready(name: str, **extra: Any) -> Callable[[BattleMonstersState], Any]:
    """Arrange: the active player has ``name`` on the field (alone on their side), with ``extra`` set on it."""
    def arrange(s: BattleMonstersState) -> None:
        clear(s, me(s))
        put(s, me(s), name, **extra)
    return arrange


def _attack(name: str, target: str | None = None) -> Callable[[BattleMonstersState], Any]:
    return lambda s: E.Attack(0, me(s), name, 1, target)


def _facing(mine: str, theirs: str, **theirs_extra: Any) -> Callable[[BattleMonstersState], Any]:
    def arrange(s: BattleMonstersState) -> None:
        clear(s, me(s))
        clear(s, foe(s))
        put(s, me(s), mine)
        put(s, foe(s), theirs, **theirs_extra)
    return arrange


def _brine_serpent_choice(s: BattleMonstersState) -> None:
    clear(s, me(s))
    clear(s, foe(s))
    put(s, me(s), "Brine Serpent", visible=False)
    put(s, foe(s), "Quarry Golem", mode="defense", visible=False)
    put(s, foe(s), "Mossback Tortoise")
    assert not GAME.apply(s, E.Reveal(0, me(s), "Brine Serpent"))
    assert s.pending and s.pending[0].need is not None and s.pending[0].need.kind == "choose"


def _ended(s: BattleMonstersState) -> None:
    GAME.end(s, me(s), "surrender")


def _supply_empty(s: BattleMonstersState) -> None:
    s.sides[me(s)].supply = 0


def _lost_points(s: BattleMonstersState) -> None:
    _ready("Quarry Golem")(s)
    s.sides[me(s)].field[0].bonus.append(Bonus("attack", -2000))


def _zero_points_open_field(s: BattleMonstersState) -> None:
    _ready("Quarry Golem")(s)
    s.sides[me(s)].field[0].bonus.append(Bonus("attack", -600))
    clear(s, foe(s))


def _in_graveyard(s: BattleMonstersState) -> None:
    name = outside_deck(s, me(s))
    s.sides[me(s)].graveyard.add(s.new_card(name, me(s)))


def _summon_forbidden(s: BattleMonstersState) -> None:
    forbid(s, me(s), ("summon",))


def _reveal_forbidden(s: BattleMonstersState) -> None:
    _ready("Quarry Golem", visible=False)(s)
    forbid(s, me(s), ("reveal",))


def _switch_forbidden(s: BattleMonstersState) -> None:
    _ready("Quarry Golem")(s)
    forbid(s, me(s), ("be_switched",), s.sides[me(s)].field[0])


def _offered(s: BattleMonstersState) -> None:
    s.offer = me(s)


def _heron_later_than_adept(s: BattleMonstersState) -> None:
    """Coil Adept revealed this turn may attack by its own text; the opponent's Vigil Heron, on the field later, says it cannot."""
    _ready("Coil Adept", revealed_turn=s.turn, acted_turn=s.turn, acted="reveal")(s)
    clear(s, foe(s))
    put(s, foe(s), "Vigil Heron")


def _spent_name(s: BattleMonstersState) -> str:
    """The card :func:`_spent_from_unseen_hand` spends: the active player's first registered monster by name."""
    side = s.sides[me(s)]
    return next(n for n, k in sorted((side.knowledge.registered or {}).items()) if B.card_kind(s.cards, n) == "monster")


def _spent_from_unseen_hand(s: BattleMonstersState) -> None:
    """The active player's hand is unseen, and every registered copy of a card is already on the field."""
    side = s.sides[me(s)]
    name = _spent_name(s)
    side.hand.cards.clear()
    side.hand.add(s.new_card(None, me(s)))
    side.knowledge.located[name] = side.knowledge.bound(name) or 0


def _acted_this_turn(name: str, acted: str, **extra: Any) -> Callable[[BattleMonstersState], None]:
    """Arrange: ``_ready(name, **extra)``, and that card did ``acted`` (summon, reveal, attack, switch) this turn."""
    def arrange(s: BattleMonstersState) -> None:
        _ready(name, **extra)(s)
        history: dict[str, dict[str, Any]] = {"summon": {"summoned_turn": s.turn}, "reveal": {"revealed_turn": s.turn},
                                              "attack": {"attacked_turns": [s.turn]}, "switch": {}}
        _set(s, **history[acted], acted_turn=s.turn, acted=acted)
    return arrange


CASES: list[Case] = [
    Case("battle_monsters:BM.end.conditions", "game_not_over", turn_open, _ended, lambda s: E.Skip(0, me(s))),
    Case("battle_monsters:BM.start.first", "coin_once", lambda s: s.stage == "setup" and s.first is not None, _nothing,
         lambda s: E.First(0, None, s.players[1])),
    Case("battle_monsters:BM.start.graveyard", "two_chosen_for_graveyard", in_setup, _nothing,
         lambda s: E.Bury(0, s.players[0], next(iter(s.sides[s.players[0]].knowledge.registered or {"Quarry Golem": 1})))),
    Case("battle_monsters:BM.start.graveyard", "buried_card_is_in_deck", after_coin, _nothing,
         lambda s: E.Bury(0, s.players[0], outside_deck(s, s.players[0]))),
    Case("battle_monsters:BM.rules.card", "effect_first", turn_open, lambda s: waiting(s, "draw", me(s)), lambda s: E.Skip(0, me(s))),
    Case("battle_monsters:BM.start.lives_hand", "opening_hand", after_coin, _nothing, lambda s: E.Draw(0, s.players[0], None)),
    Case("battle_monsters:BM.actions.ends_turn", "acts_on_own_turn", turn_open, _nothing, lambda s: E.Skip(0, foe(s))),
    Case("battle_monsters:BM.actions.skip.forced", "draw_from_supply", turn_open, _supply_empty, lambda s: E.Draw(0, me(s), None)),
    Case("battle_monsters:BM.gloss.draw.graveyard", "draw_known_card", turn_open, _nothing,
         lambda s: E.Draw(0, me(s), outside_deck(s, me(s)))),
    Case("battle_monsters:BM.actions.discard", "discard_from_hand", turn_open, _nothing,
         lambda s: E.Discard(0, me(s), outside_deck(s, me(s)))),
    Case("battle_monsters:BM.start.lives_hand", "in_play", in_setup, _nothing, lambda s: E.Skip(0, s.players[0])),
    Case("battle_monsters:BM.actions.order", "subaction_before_action", turn_open, _nothing,
         lambda s: E.Summon(0, foe(s), hand_card(s, foe(s)))),
    Case("battle_monsters:BM.monster.graveyard", "no_summon_from_graveyard", turn_open, _in_graveyard,
         lambda s: E.Summon(0, me(s), s.sides[me(s)].graveyard.cards[-1].name or "")),
    Case("battle_monsters:BM.gloss.draw", "hidden_card_from_deck", turn_open, _spent_from_unseen_hand,
         lambda s: E.Summon(0, me(s), _spent_name(s))),
    Case("battle_monsters:BM.summon.where", "summon_from_hand", turn_open, _nothing,
         lambda s: E.Summon(0, me(s), outside_deck(s, me(s)))),
    Case("battle_monsters:BM.subactions.summon", "summon_a_printed_card", turn_open, lambda s: to_hand(s, me(s), "the Unbroken"),
         lambda s: E.Summon(0, me(s), "the Unbroken")),
    Case("battle_monsters:BM.rules.card", "summon_not_forbidden", turn_open, _summon_forbidden,
         lambda s: E.Summon(0, me(s), hand_card(s, me(s)))),
    Case("battle_monsters:BM.subactions.reveal", "reveal_own_face_down", turn_open, _ready("Quarry Golem"),
         lambda s: E.Reveal(0, me(s), "Quarry Golem")),
    Case("battle_monsters:BM.rules.card", "reveal_not_forbidden", turn_open, _reveal_forbidden,
         lambda s: E.Reveal(0, me(s), "Quarry Golem")),
    Case("battle_monsters:BM.subactions.per_card", "one_subaction_per_card", turn_open,
         _acted_this_turn("Quarry Golem", "summon", visible=False),
         lambda s: E.Reveal(0, me(s), "Quarry Golem")),
    Case("battle_monsters:BM.subactions.attack", "attacker_is_own_monster", turn_open, _ready("Scroll of Plenty"),
         _attack("Scroll of Plenty")),
    Case("battle_monsters:BM.stance.ai.monster.no_attack", "no_attack_face_down_attack_stance", turn_open,
         _ready("Quarry Golem", visible=False), _attack("Quarry Golem")),
    Case("battle_monsters:BM.stance.di.monster.no_attack", "no_attack_face_down_defence_stance", turn_open,
         _ready("Quarry Golem", visible=False, mode="defense"), _attack("Quarry Golem")),
    Case("battle_monsters:BM.stance.dv.monster.no_attack", "no_attack_in_defence_mode", turn_open,
         _ready("Quarry Golem", mode="defense"), _attack("Quarry Golem")),
    Case("battle_monsters:BM.rules.conflict", "attack_clash_settled", turn_open, _heron_later_than_adept, _attack("Coil Adept")),
    Case("battle_monsters:BM.subactions.attack", "attacks_once_per_turn", turn_open,
         _acted_this_turn("Quarry Golem", "attack"), _attack("Quarry Golem")),
    Case("battle_monsters:BM.subactions.attack.timing", "no_attack_on_summon_turn", turn_open,
         _acted_this_turn("Quarry Golem", "summon"), _attack("Quarry Golem")),
    Case("battle_monsters:BM.monster.reveal_turn", "no_attack_on_reveal_turn", turn_open,
         _acted_this_turn("Quarry Golem", "reveal"), _attack("Quarry Golem")),
    Case("battle_monsters:BM.subactions.switch.limits", "no_attack_after_switch", turn_open,
         _acted_this_turn("Quarry Golem", "switch"), _attack("Quarry Golem")),
    Case("battle_monsters:BM.monster.no_attack", "no_attack_with_negative_points", turn_open, _lost_points, _attack("Quarry Golem")),
    Case("battle_monsters:BM.rules.card", "attack_not_forbidden", turn_open, _ready("Hexbound Warden"), _attack("Hexbound Warden")),
    Case("battle_monsters:BM.start.direct_attack", "direct_attack_needs_open_field", turn_open,
         _facing("Quarry Golem", "Mossback Tortoise"), _attack("Quarry Golem")),
    Case("battle_monsters:BM.start.direct_attack", "direct_attack_needs_points", turn_open, _zero_points_open_field, _attack("Quarry Golem")),
    Case("battle_monsters:BM.stance.av.monster", "target_on_opponent_side", turn_open,
         _facing("Quarry Golem", "Mossback Tortoise"), _attack("Quarry Golem", "Gravel Titan")),
    Case("battle_monsters:BM.stance.ai.monster.untargetable", "target_not_attack_invisible", turn_open,
         _facing("Quarry Golem", "Mossback Tortoise", visible=False), _attack("Quarry Golem", "Mossback Tortoise")),
    Case("battle_monsters:BM.stance.av.spell.attack", "target_not_face_up_attack_spell", turn_open,
         _facing("Quarry Golem", "Scroll of Plenty"), _attack("Quarry Golem", "Scroll of Plenty")),
    Case("battle_monsters:BM.stance.ai.spell.attack", "target_not_face_down_attack_spell", turn_open,
         _facing("Quarry Golem", "Scroll of Plenty", visible=False), _attack("Quarry Golem", "Scroll of Plenty")),
    Case("battle_monsters:BM.stance.av.trap.attack", "target_not_face_up_attack_trap", turn_open,
         _facing("Quarry Golem", "Snapjaw Pit"), _attack("Quarry Golem", "Snapjaw Pit")),
    Case("battle_monsters:BM.stance.ai.trap.attack", "target_not_face_down_attack_trap", turn_open,
         _facing("Quarry Golem", "Snapjaw Pit", visible=False), _attack("Quarry Golem", "Snapjaw Pit")),
    Case("battle_monsters:BM.rules.card", "target_not_protected", turn_open,
         _facing("Quarry Golem", "Hollow Lantern"), _attack("Quarry Golem", "Hollow Lantern")),
    Case("battle_monsters:BM.subactions.switch", "switch_own_card", turn_open, _ready("Quarry Golem"),
         lambda s: E.Switch(0, me(s), "Gravel Titan")),
    Case("battle_monsters:BM.gloss.attack_mode.switch", "no_switch_after_attack", turn_open,
         _acted_this_turn("Quarry Golem", "attack"),
         lambda s: E.Switch(0, me(s), "Quarry Golem")),
    Case("battle_monsters:BM.gloss.defence_mode.switch", "switch_once_per_turn", turn_open,
         _acted_this_turn("Quarry Golem", "switch", mode="defense"),
         lambda s: E.Switch(0, me(s), "Quarry Golem")),
    Case("battle_monsters:BM.subactions.switch.limits", "no_defence_on_reveal_turn", turn_open,
         _acted_this_turn("Quarry Golem", "reveal"),
         lambda s: E.Switch(0, me(s), "Quarry Golem")),
    Case("battle_monsters:BM.rules.card", "switch_not_forbidden", turn_open, _switch_forbidden, lambda s: E.Switch(0, me(s), "Quarry Golem")),
    Case("battle_monsters:BM.gloss.revealed.permanent", "conceal_own_face_up", turn_open, _ready("Quarry Golem", visible=False),
         lambda s: E.Conceal(0, me(s), "Quarry Golem")),
    Case("battle_monsters:BM.stance.ai.monster.no_rehide", "no_rehide_attack_stance", turn_open, _ready("Quarry Golem"),
         lambda s: E.Conceal(0, me(s), "Quarry Golem")),
    Case("battle_monsters:BM.stance.di.monster.no_rehide", "no_rehide_defence_stance", turn_open, _ready("Quarry Golem", mode="defense"),
         lambda s: E.Conceal(0, me(s), "Quarry Golem")),
    Case("battle_monsters:BM.subactions.reveal.permanent", "no_rehide_magic", turn_open, _ready("Fog Bank", mode="defense"),
         lambda s: E.Conceal(0, me(s), "Fog Bank")),
    Case("battle_monsters:BM.rules.card", "choose_when_asked", turn_open, _ready("Quarry Golem"),
         lambda s: E.Choose(0, me(s), "Quarry Golem", me(s))),
    Case("battle_monsters:BM.monster.keywords", "chosen_card_fits", turn_open, _brine_serpent_choice,
         lambda s: E.Choose(0, me(s), "Mossback Tortoise", foe(s))),
    Case("battle_monsters:BM.rules.card", "may_when_offered", turn_open, _nothing, lambda s: E.Accept(0, me(s))),
    Case("battle_monsters:BM.end.draw", "draw_offer_in_play", turn_open, _offered, lambda s: E.Agree(0, me(s))),
    Case("battle_monsters:BM.start.life_loss", "lives_as_computed", turn_open, _nothing,
         lambda s: E.Lives(0, None, me(s), s.sides[me(s)].lives + 1)),
    Case("battle_monsters:BM.monster.loss", "sent_as_computed", turn_open, _nothing, lambda s: E.Sent(0, None, "Quarry Golem", me(s))),
    Case("battle_monsters:BM.gloss.trigger", "triggered_as_computed", turn_open, _nothing,
         lambda s: E.Triggered(0, None, "Snapjaw Pit", me(s))),
    Case("battle_monsters:BM.end.conditions", "result_as_computed", turn_open, _nothing, lambda s: E.Game(0, None, me(s))),
]


def _set(s: BattleMonstersState, **values: Any) -> None:
    """Set fields of the active player's last card on the field."""
    fc = s.sides[me(s)].field[-1]
    for key, value in values.items():
        setattr(fc, key, value)


def judged(case: Case) -> tuple[BattleMonstersState, list[Any]]:
    state = state_where(case.where)
    case.arrange(state)
    rulings = [r for r in GAME.apply(state, case.event(state)) if r.violation.severity in ("illegal", "inconsistent")]
    return state, rulings


def check_fired_by(case: Case) -> str | None:
    """The name of the check that judged the case's event first (None if it was accepted)."""
    _state, rulings = judged(case)
    return rulings[0].check if rulings else None


@pytest.mark.parametrize("case", CASES, ids=[c.check for c in CASES])
def test_rule_check_fires(case: Case) -> None:
    _state, rulings = judged(case)
    assert rulings, "the event was accepted"
    assert (rulings[0].rule, rulings[0].check) == (case.rule, case.check)


def test_every_check_has_a_case() -> None:
    checks = {c.name for a in GAME.book.actions.values() for c in a.checks}
    assert checks == {case.check for case in CASES}


# ----------------------------------------------------------------- never silently legal


def test_a_card_whose_text_does_not_parse_is_unverifiable() -> None:
    state = state_where(turn_open)
    garbled = CardDef("Garbled Golem", "Monster (root)", "Frobnicate: the moon wobbles twice sideways.", species="golem",
                      stats={"attack": 100, "defense": 100}, traits=["stone"])
    state.cards = CardDatabase("test", "battle_monsters", 1, list(state.cards) + [garbled])
    to_hand(state, me(state), "Garbled Golem")
    rulings = GAME.apply(state, E.Summon(0, me(state), "Garbled Golem"))
    assert [r.violation.severity for r in rulings] == ["unverifiable"]
    assert "Garbled Golem" in rulings[0].violation.message


def test_a_monster_whose_card_prints_no_points_cannot_be_judged_in_battle() -> None:
    """A public pool prints no attack or defense points: such a monster can be summoned, but
    the points a battle needs are not guessed as zero (unverifiable), and the simulator and
    lint are told the spec cannot run the card."""
    state = state_where(turn_open)
    bare = CardDef("Bare Drake", "Monster (root)", "", species="dragon", traits=["fire"])
    state.cards = CardDatabase("test", "battle_monsters", 1, list(state.cards) + [bare])
    assert "Bare Drake prints no attack or defense points" in (GAME.unsupported(state.cards, "Bare Drake") or "")
    assert GAME.unsupported(state.cards, "Quarry Golem") is None
    to_hand(state, me(state), "Bare Drake")
    assert not [r for r in GAME.apply(state, E.Summon(0, me(state), "Bare Drake")) if r.violation.severity != "info"]
    summoned = B.find(state, me(state), "Bare Drake")
    assert summoned is not None
    with pytest.raises(B.Unmodelled, match="Bare Drake prints no attack points"):
        B.points(state, summoned, "attack")


def test_an_unknown_card_name_is_unverifiable_and_an_unknown_event_malformed(tmp_path: Any) -> None:
    import json

    from verifier.verify import verify_file

    state = state_where(turn_open)
    rulings = GAME.apply(state, E.Summon(0, me(state), "Nonexistent Dragon"))
    assert [r.violation.severity for r in rulings] == ["unverifiable"]
    header = json.loads(play(2)[0])
    bad = tmp_path / "unknown.jsonl"
    bad.write_text("\n".join([json.dumps(header), json.dumps({"seq": 1, "by": "alice", "do": "teleport"})]) + "\n", encoding="utf-8")
    report = verify_file(bad)
    assert report.verdict == "malformed" and report.findings[0].line == 2


def test_a_step_without_a_handler_is_unverifiable() -> None:
    """A Reaction used as a step (a spell setting up a reaction) has no meaning in the spec yet."""
    state = state_where(turn_open)
    odd = CardDef("Odd Ward", "Spell", "TRIGGER: When revealed. Single use.\nEFFECT: When a monster is summoned, you gain 1 life point.",
                  traits=["light"])
    state.cards = CardDatabase("test", "battle_monsters", 1, list(state.cards) + [odd])
    assert not isinstance(state.cards.tree("Odd Ward"), Exception)
    to_hand(state, me(state), "Odd Ward")
    rulings = GAME.apply(state, E.Summon(0, me(state), "Odd Ward"))
    assert [r.violation.severity for r in rulings] == ["unverifiable"]
    assert "battle_monsters_reaction" in rulings[0].violation.message and "Odd Ward" in rulings[0].violation.message


def test_a_deck_below_thirty_cards_is_illegal_and_an_unknown_name_unverifiable() -> None:
    from spec.core.cards import shipped_database

    cards = CardDatabase.load(shipped_database("battle_monsters", "base"), "battle_monsters")
    setup = Setup(("ann", "ben"), {"ann": {"cards": {"Quarry Golem": 29}}, "ben": {"cards": {"Quarry Golem": 40, "Moon Thing": 1}}},
                  {}, cards)
    GAME.setup(setup)
    found = [(r.rule, r.violation.severity) for r in setup.rulings]
    assert ("battle_monsters:BM.start.deck_min", "illegal") in found
    assert (None, "unverifiable") in found


# ----------------------------------------------------------------- decisions (docs/battle_monsters-decisions.rst)


def _ok(state: BattleMonstersState, event: Any) -> None:
    bad = [r for r in GAME.apply(state, event) if r.violation.severity != "info"]
    assert not bad, f"{event}: {bad[0].rule} {bad[0].violation.message}"


def _bad(state: BattleMonstersState, event: Any) -> Any:
    """The first finding on ``event`` (judged on a copy: an illegal move is carried out as far as it can be)."""
    rulings = [r for r in GAME.apply(state.copy(), event) if r.violation.severity in ("illegal", "inconsistent")]
    assert rulings, f"{event} was accepted"
    return rulings[0]


def test_d1_set_up_runs_coin_graveyard_hands() -> None:
    """Decision 1: coin, two graveyard cards each, five cards each; the coin's winner starts without a draw."""
    from spec.core.cards import shipped_database

    cards = CardDatabase.load(shipped_database("battle_monsters", "base"), "battle_monsters")
    deck = {"cards": {"Quarry Golem": 20, "Scroll of Plenty": 10}}
    state = GAME.setup(Setup(("ann", "ben"), {"ann": deck, "ben": deck}, {}, cards))
    assert _bad(state, E.Draw(0, "ann", None)).check == "opening_hand"
    _ok(state, E.First(0, None, "ben"))
    assert _bad(state, E.Draw(0, "ann", None)).check == "opening_hand"
    for player in ("ann", "ben"):
        _ok(state, E.Bury(0, player, "Quarry Golem"))
        _ok(state, E.Bury(0, player, "Scroll of Plenty"))
    assert _bad(state, E.Bury(0, "ann", "Quarry Golem")).check == "two_chosen_for_graveyard"
    for player in ("ann", "ben"):
        for _ in range(5):
            _ok(state, E.Draw(0, player, None))
    assert (state.stage, state.active, state.turn) == ("turn", "ben", 1)
    assert all(len(s.hand) == 5 and len(s.graveyard) == 2 and s.lives == 5 and s.supply == 23 for s in state.sides.values())


def test_d2_face_down_monsters_do_not_shield_their_player() -> None:
    state = state_where(turn_open)
    _facing("Quarry Golem", "Mossback Tortoise", mode="defense", visible=False)(state)
    lives = state.sides[foe(state)].lives
    _ok(state, E.Attack(0, me(state), "Quarry Golem"))
    assert state.sides[foe(state)].lives == lives - 1


def test_d3_zero_attack_points_fight_monsters_but_not_players() -> None:
    state = state_where(turn_open)
    _facing("Quarry Golem", "Mossback Tortoise")(state)
    golem = state.sides[me(state)].field[0]
    golem.bonus.append(Bonus("attack", -600))
    assert B.points(state, golem, "attack") == 0
    _ok(state, E.Attack(0, me(state), "Quarry Golem", 1, "Mossback Tortoise"))
    assert B.find_uid(state, golem.uid) is None  # 0 against 200: the golem lost


def test_d4_an_empty_supply_forces_a_skip_then_loses() -> None:
    state = state_where(turn_open)
    player = me(state)
    state.sides[player].supply = 0
    assert _bad(state, E.Draw(0, player, None)).check == "draw_from_supply"
    _ok(state, E.Skip(0, player))
    assert state.stage == "turn"
    _ok(state, E.Skip(0, state.active))
    assert (state.stage, state.winner, state.ended_by) == ("over", state.other(player), "supply")


def test_d5_spells_and_traps_in_defence_stances_can_be_attacked() -> None:
    state = state_where(turn_open)
    _facing("Quarry Golem", "Scroll of Plenty", mode="defense", visible=False)(state)
    _ok(state, E.Attack(0, me(state), "Quarry Golem", 1, "Scroll of Plenty"))
    assert state.sides[foe(state)].graveyard.cards[-1].name == "Scroll of Plenty"
    state = state_where(turn_open)
    _facing("Quarry Golem", "Scroll of Plenty", mode="attack", visible=False)(state)
    assert _bad(state, E.Attack(0, me(state), "Quarry Golem", 1, "Scroll of Plenty")).check == "target_not_face_down_attack_spell"


def test_d6_a_tie_sends_nobody_to_the_graveyard() -> None:
    state = state_where(turn_open)
    _facing("Quarry Golem", "Quarry Golem")(state)
    _ok(state, E.Attack(0, me(state), "Quarry Golem", 1, "Quarry Golem"))
    assert len(state.sides[me(state)].field) == 1 and len(state.sides[foe(state)].field) == 1


def test_d7_an_attacked_face_down_monster_is_turned_face_up() -> None:
    state = state_where(turn_open)
    _facing("Quarry Golem", "Mossback Tortoise", mode="defense", visible=False)(state)
    _ok(state, E.Attack(0, me(state), "Quarry Golem", 1, "Mossback Tortoise"))
    tortoise = state.sides[foe(state)].field[0]
    assert tortoise.visible and tortoise.was_visible
    assert not state.sides[me(state)].field  # 600 attack against 700 defence


def test_d8_a_summon_uses_the_cards_sub_action_unless_a_card_lets_it_attack() -> None:
    state = state_where(turn_open)
    clear(state, me(state))
    clear(state, foe(state))
    to_hand(state, me(state), "Thornhide Boar")
    to_hand(state, me(state), "Quarry Golem")
    _ok(state, E.Summon(0, me(state), "Quarry Golem", "attack", False))
    assert _bad(state, E.Reveal(0, me(state), "Quarry Golem")).check == "one_subaction_per_card"
    _ok(state, E.Summon(0, me(state), "Thornhide Boar"))
    _ok(state, E.Attack(0, me(state), "Thornhide Boar"))


def test_d9_a_face_down_summon_sets_off_no_trap() -> None:
    state = state_where(turn_open)
    clear(state, me(state))
    clear(state, foe(state))
    put(state, foe(state), "Tripwire Net", visible=False)
    to_hand(state, me(state), "Quarry Golem")
    to_hand(state, me(state), "Gravel Titan")
    _ok(state, E.Summon(0, me(state), "Quarry Golem", "attack", False))
    assert not state.sides[foe(state)].field[0].visible
    _ok(state, E.Summon(0, me(state), "Gravel Titan", "attack", True))
    titan = B.find(state, me(state), "Gravel Titan")
    assert titan is not None and titan.mode == "defense"
    assert ("triggered", "Tripwire Net", foe(state)) in state.facts


def test_d10_a_spell_works_as_it_turns_face_up() -> None:
    state = state_where(turn_open)
    to_hand(state, me(state), "Scroll of Plenty")
    _ok(state, E.Summon(0, me(state), "Scroll of Plenty", "defense", False))
    assert not state.pending
    state = state_where(turn_open)
    to_hand(state, me(state), "Scroll of Plenty")
    _ok(state, E.Summon(0, me(state), "Scroll of Plenty", "attack", True))
    assert state.pending and state.pending[0].need is not None and state.pending[0].need.kind == "draw"
    assert ("triggered", "Scroll of Plenty", me(state)) in state.facts


def test_d11_a_trap_answers_an_attack_before_the_battle() -> None:
    state = state_where(turn_open)
    _facing("Quarry Golem", "Mossback Tortoise")(state)
    put(state, foe(state), "Snapjaw Pit", visible=False)
    _ok(state, E.Attack(0, me(state), "Quarry Golem", 1, "Mossback Tortoise"))
    golem = state.sides[me(state)].field[0]
    assert golem.mode == "defense"  # switched by the trap: the attack stopped
    assert B.find(state, foe(state), "Mossback Tortoise") is not None
    assert B.find(state, foe(state), "Snapjaw Pit") is None  # single use: in the graveyard


def test_d12_an_effect_waiting_for_a_draw_holds_the_game() -> None:
    state = state_where(turn_open)
    player = me(state)
    to_hand(state, player, "Scroll of Plenty")
    _ok(state, E.Summon(0, player, "Scroll of Plenty"))
    assert _bad(state, E.Skip(0, player)).check == "effect_first"
    _ok(state, E.Draw(0, player, None))
    _ok(state, E.Draw(0, player, None))
    assert state.active == player and not state.pending


def test_d13_a_draw_needs_an_offer_and_the_next_event_accepting_it() -> None:
    state = state_where(turn_open)
    _ok(state, E.Agree(0, me(state)))
    _ok(state, E.Agree(0, foe(state)))
    assert (state.stage, state.winner, state.result) == ("over", None, "draw")
    state = state_where(turn_open)
    _ok(state, E.Agree(0, me(state)))
    to_hand(state, me(state), "Quarry Golem")
    _ok(state, E.Summon(0, me(state), "Quarry Golem", "attack", False))
    _ok(state, E.Agree(0, foe(state)))
    assert state.stage == "turn" and state.offer == foe(state)
    assert GAME.book.status("BM.end.tournament") == "not checkable"
    assert GAME.book.status("BM.rules.house") == "not checkable"


def test_d14_lives_may_exceed_five_and_the_unbroken_stops_direct_hits() -> None:
    state = state_where(turn_open)
    GAME.change_lives(state, me(state), 3)
    assert state.sides[me(state)].lives > 5
    for guard, loss in (("Quarry Golem the Unbroken", 0), ("Quarry Golem", 1)):
        state = state_where(turn_open)
        _facing("Skyrunner Colt", guard, mode="defense")(state)
        lives = state.sides[foe(state)].lives
        _ok(state, E.Attack(0, me(state), "Skyrunner Colt"))
        assert state.sides[foe(state)].lives == lives - loss, guard


def test_d15_a_printed_monster_adds_up_its_parts() -> None:
    state = state_where(turn_open)
    name = "Emberclad Cinder Whelp the Restless"
    parts = B.printed(state.cards, name)
    assert parts is not None and [p.name for p in parts] == ["Emberclad", "Cinder Whelp", "the Restless"]
    fc = put(state, me(state), name)
    assert B.printed_points(fc, "attack") == 700 and B.elements(fc) == {"fire"} and B.species(fc) == "dragon"
    assert B.card_kind(state.cards, "the Unbroken") is None


def test_d16_copy_names_the_nth_copy_in_order_of_arrival() -> None:
    state = state_where(turn_open)
    clear(state, me(state))
    clear(state, foe(state))
    put(state, me(state), "Quarry Golem", summoned_turn=state.turn, acted_turn=state.turn, acted="summon")
    put(state, me(state), "Quarry Golem")
    assert _bad(state, E.Attack(0, me(state), "Quarry Golem", 1)).check == "no_attack_on_summon_turn"
    _ok(state, E.Attack(0, me(state), "Quarry Golem", 2))


def test_d17_concealing_is_always_illegal() -> None:
    for name, mode, check in (("Quarry Golem", "attack", "no_rehide_attack_stance"), ("Quarry Golem", "defense", "no_rehide_defence_stance"),
                              ("Fog Bank", "attack", "no_rehide_magic")):
        state = state_where(turn_open)
        _ready(name, mode=mode)(state)
        assert _bad(state, E.Conceal(0, me(state), name)).check == check


def test_d18_a_card_lasting_two_turns_leaves_after_them() -> None:
    state = state_where(turn_open)
    _facing("Hollow Lantern", "Mossback Tortoise")(state)
    put(state, foe(state), "Ward Sigil", visible=False)
    start = state.turn
    _ok(state, E.Attack(0, me(state), "Hollow Lantern", 1, "Mossback Tortoise"))
    sigil = B.find(state, foe(state), "Ward Sigil")
    assert sigil is not None and sigil.visible and sigil.expires == start + 1
    _ok(state, E.Skip(0, me(state)))
    assert B.find(state, state.active, "Ward Sigil") is not None
    _ok(state, E.Skip(0, state.active))
    assert state.turn == start + 2 and B.find(state, state.other(state.active), "Ward Sigil") is None


def test_d19_temporary_points_count_only_in_battle() -> None:
    state = state_where(turn_open)
    fc = put(state, me(state), "Emberclad Cinder Whelp")
    assert B.points(state, fc, "attack") == 600
    assert B.battle_points(state, fc) == 700


def test_d20_after_the_action_the_other_player_moves() -> None:
    state = state_where(turn_open)
    player = me(state)
    to_hand(state, player, "Quarry Golem")
    _ok(state, E.Skip(0, player))
    assert _bad(state, E.Summon(0, player, "Quarry Golem")).check == "subaction_before_action"
    assert _bad(state, E.Skip(0, player)).check == "acts_on_own_turn"


def test_d21_a_skipped_turn_passes_at_once() -> None:
    state = state_where(turn_open)
    player = me(state)
    to_hand(state, player, "Borrowed Time")
    _ok(state, E.Summon(0, player, "Borrowed Time"))
    start = state.turn
    _ok(state, E.Skip(0, player))
    assert state.active == player and state.turn == start + 2


def test_d22_the_later_card_wins_unless_one_holds_regardless() -> None:
    state = state_where(turn_open)
    clear(state, me(state))
    adept = put(state, me(state), "Coil Adept", revealed_turn=state.turn, acted_turn=state.turn, acted="reveal")
    state.lasting.append(Lasting(N.Cannot(N.Cards("this"), ("attack",)), foe(state), "a later spell", adept.uid, state.stamp()))
    assert B.permission(state, "attack", adept, when="revealed_turn").allowed is False
    state.lasting[-1].stamp = 0  # the prohibition came first: Coil Adept, later, prevails
    assert B.permission(state, "attack", adept, when="revealed_turn").allowed is True
    boar = put(state, me(state), "Thornhide Boar", summoned_turn=state.turn, acted_turn=state.turn, acted="summon")
    state.lasting.append(Lasting(N.Cannot(N.Cards("this"), ("attack",)), foe(state), "a later spell", boar.uid, state.stamp()))
    verdict = B.permission(state, "attack", boar, when="summoned_turn")
    assert verdict.allowed is True and verdict.rule == "BM.rules.conflict"


def test_d23_a_move_a_clash_decides_asks_the_policy() -> None:
    from spec.battle_monsters import conflicts as BC

    state = state_where(turn_open)
    clear(state, me(state))
    clear(state, foe(state))
    adept = put(state, me(state), "Coil Adept", revealed_turn=state.turn, acted_turn=state.turn, acted="reveal")
    heron = put(state, foe(state), "Vigil Heron")
    rulings = GAME.apply(state.copy(), E.Attack(0, me(state), "Coil Adept", 1, "Vigil Heron"))
    assert (rulings[0].rule, rulings[0].check) == ("battle_monsters:BM.rules.conflict", "attack_clash_settled")
    heron.arrived, adept.arrived = adept.arrived, heron.arrived  # Coil Adept now came later: it prevails
    assert [r for r in GAME.apply(state.copy(), E.Attack(0, me(state), "Coil Adept", 1, "Vigil Heron")) if r.violation.severity != "info"] == []
    listed = {r.rule for r in GAME.conflicts_met(state, {})}
    assert listed == {"battle_monsters:BM.rules.conflict", "battle_monsters:BM.rules.card"}
    assert BC.judge_manual(state, adept, "revealed_turn").allowed is True


def test_d24_cards_shown_from_a_hand_of_unseen_draws_are_counted_and_explained() -> None:
    state = state_where(turn_open)
    side = state.sides[me(state)]
    name = next(n for n, k in sorted((side.knowledge.registered or {}).items()) if B.card_kind(state.cards, n) == "monster")
    side.hand.cards.clear()
    side.hand.add(state.new_card(None, me(state)))
    side.knowledge.located[name] = (side.knowledge.bound(name) or 0) - 1
    assert [r for r in GAME.apply(state.copy(), E.Summon(0, me(state), name)) if r.violation.severity != "info"] == []
    side.knowledge.reveal(name, f"showed {name} on purpose")
    rulings = GAME.apply(state.copy(), E.Summon(0, me(state), name))
    assert (rulings[0].rule, rulings[0].violation.severity) == ("battle_monsters:BM.gloss.draw", "inconsistent")
    assert f"showed {name} on purpose" in rulings[0].violation.message and side.knowledge.marks == 0


def test_d25_unless_stated_speaks_of_card_effects_only() -> None:
    from spec.battle_monsters import conflicts as BC
    from spec.core.conflicts import Effect

    boar = Effect("b", "can", "P1's Boar", "attack", source="Thornhide Boar", since=2, overrides=True)
    manual = Effect("m", "cant", "P1's Boar", "attack", origin="rule", rule="battle_monsters:BM.subactions.attack.timing")
    settled = BC.POLICY.settle([boar, manual])
    assert settled is not None and settled.rule == "battle_monsters:BM.rules.card" and settled.losers == (manual,)
    fog = Effect("f", "cant", "P1's Boar", "attack", source="Fog Bank", since=3)
    settled = BC.POLICY.settle([boar, fog])
    assert settled is not None and settled.name == "unless stated" and settled.losers == (fog,)


def test_the_decisions_page_cites_index_rules_and_existing_tests() -> None:
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "battle_monsters-decisions.rst").read_text(encoding="utf-8")
    index = GAME.book.index
    cited = [rule for line in re.findall(r"^\*\*Rules:\*\* (.*)\.$", text, re.MULTILINE) for rule in line.split(", ")]
    assert len(cited) > 40
    for rule in cited:
        assert rule in index, rule
    pinned = re.findall(r"``(test_[a-z0-9_]+)``", text)
    assert len(pinned) >= len(re.findall(r"^\d+\. ", text, re.MULTILINE))
    for name in pinned:
        assert name in globals(), name


def test_a_clash_of_can_and_cannot_is_reported_once_as_settled() -> None:
    state = state_where(turn_open)
    clear(state, me(state))
    boar = put(state, me(state), "Thornhide Boar", summoned_turn=state.turn, acted_turn=state.turn, acted="summon")
    state.lasting.append(Lasting(N.Cannot(N.Cards("this"), ("attack",)), foe(state), "Fog Bank", boar.uid, state.stamp()))
    memo: dict[str, Any] = {}
    found = GAME.conflicts_met(state, memo)
    # the Boar's "regardless" against the Fog Bank (BM.rules.conflict), and its can against the manual's ban (BM.rules.card)
    assert sorted((r.rule, r.violation.severity, r.check) for r in found) == [
        ("battle_monsters:BM.rules.card", "info", "conflicts"), ("battle_monsters:BM.rules.conflict", "info", "conflicts")]
    assert all("Thornhide Boar" in r.violation.message for r in found)
    assert GAME.conflicts_met(state, memo) == []


def test_a_choice_given_to_each_player_is_unverifiable_not_the_first_players() -> None:
    """"Each player may draw a card" gives each player a choice; the spec does not model
    that, so it is reported unverifiable. Before, the first player's choice decided for both."""
    from grammar import ast as A

    state = state_where(lambda s: s.stage == "turn")
    res = Resolution(state.players[0], Src(-1, "Scroll of Plenty", state.players[0], "spell"), [Frame(())])
    with pytest.raises(B.Unmodelled):
        GAME.effects.do_may(state, res, A.May("each", (A.Draw("each", 1),)))


def test_a_step_for_a_chosen_player_is_unverifiable_not_both_players() -> None:
    """A discard (or draw) by "any player" is by one player of the controller's choice; the
    spec does not model that choice, so it is unverifiable. Before, the step went to both
    players, as ``who`` names both for a filter ("any player's card")."""
    from grammar import ast as A

    state = state_where(lambda s: s.stage == "turn")
    res = Resolution(state.players[0], Src(-1, "Scroll of Plenty", state.players[0], "spell"), [Frame(())])
    for step in (A.Discard("any", 1), A.Draw("any", 1)):
        with pytest.raises(B.Unmodelled, match="controller's choice"):
            getattr(GAME.effects, f"do_{step.__struct_config__.tag}")(state, res, step)
    assert B.who(state, state.players[0], "any") == [state.players[0], state.players[1]]  # as a filter: either's cards


def test_lint_names_the_steps_the_spec_cannot_carry_out_before_play() -> None:
    """``unsupported`` names a step of a card's text the spec does not carry out whatever the
    state (a monster taken from the graveyard to the hand; a fusion of one monster), so lint
    notes the card and the simulator leaves it out; the handlers raise the same reason.
    Before, only the printed points were looked at."""
    head = "TRIGGER: When revealed. Single use.\nEFFECT: "
    cards = CardDatabase("test", "battle_monsters", 1, [
        CardDef("Grave Robber", "Spell", head + "A monster in your graveyard is returned to your hand."),
        CardDef("Half Sigil", "Spell", head + "Fuse the special effects of 1 monster together."),
        CardDef("Grave Door", "Spell", head + "A monster in your graveyard is summoned to the field."),
    ])
    assert GAME.unsupported(cards, "Grave Robber") == "Grave Robber: moving cards from the graveyard to the hand is not modelled"
    assert GAME.unsupported(cards, "Half Sigil") == "Half Sigil: a fusion of anything but two or more chosen monsters is not modelled"
    assert GAME.unsupported(cards, "Grave Door") is None
