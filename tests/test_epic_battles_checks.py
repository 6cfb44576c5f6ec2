"""Epic Battles: rule checks the corpus does not break first, and the decisions, pinned.

Each :class:`Case` takes a state from a game played through the spec, arranges the
situation the check is about, and applies one event: the first finding must come from
that check, citing its rule. Remove the check and the case fails. (Most checks are also
broken by a replay of ``replays/epic_battles/illegal``; ``tests/test_corpus.py``
makes sure every check has one or the other.)

The second half pins each decision of ``docs/epic_battles-decisions.rst``: ``test_dN_...`` is
decision N.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from grammar import ast as A
from spec import load_game
from spec.core.cards import CardDatabase, shipped_database
from spec.core.game import Setup
from spec.core.state import CardObj
from spec.epic_battles import board as B
from spec.epic_battles import events as E
from spec.epic_battles.corpus import play, replay_states
from spec.epic_battles.game import EpicBattles
from spec.epic_battles.state import EpicBattlesState, Lasting, Strike

_GAME = load_game("epic_battles")
assert isinstance(_GAME, EpicBattles)
GAME: EpicBattles = _GAME
BAD = ("illegal", "inconsistent")


@cache
def _states(seed: int) -> list[EpicBattlesState]:
    return [state.copy() for state, _event, _raw in replay_states(play(seed))]


def state_where(pred: Callable[[EpicBattlesState], bool], seed: int = 1) -> EpicBattlesState:
    """A copy of the first state of a played game where ``pred`` holds."""
    for state in _states(seed):
        if pred(state):
            return state.copy()
    raise LookupError("no such state in the played game")


def give(state: EpicBattlesState, player: str, name: str) -> CardObj:
    card = state.new_card(name, player, state.cards[name])
    state.sides[player].hand.add(card)
    return card


def energy(state: EpicBattlesState, player: str, n: int) -> None:
    """Exactly ``n`` cards in the player's energy pile."""
    state.sides[player].energy.cards = [state.new_card("Quick Jab", player, state.cards["Quick Jab"]) for _ in range(n)]


def neutral(state: EpicBattlesState) -> EpicBattlesState:
    """Both players play Vesna (whose only ability is activated), nobody is down, no lasting effect."""
    for side in state.sides.values():
        side.character = state.new_card("Vesna", side.name, state.cards["Vesna"])
        side.down = None
    state.lasting.clear()
    state.recent.clear()
    return state


def act(state: EpicBattlesState) -> bool:
    return state.stage == "turn" and not state.busy and state.node == "action" and state.window == "act"


def free(state: EpicBattlesState) -> bool:
    return state.stage == "turn" and not state.busy


def setup_start(state: EpicBattlesState) -> bool:
    return state.stage == "setup" and state.round == 1 and all(s.character is None for s in state.sides.values())


def discard_step(state: EpicBattlesState) -> bool:
    return state.stage == "turn" and not state.busy and state.node == "discard"


def attack_in(state: EpicBattlesState, attacker: str, name: str, window: str = "block") -> Strike:
    """Put an attack of ``attacker`` on the stack, waiting in ``window``."""
    card = state.new_card(name, attacker, state.cards[name])
    strike = Strike(state.next_sid, attacker, state.other(attacker), card, stage=window)
    state.next_sid += 1
    state.strikes.append(strike)
    state.combo, state.combo_owner = [(card.uid, name)], attacker
    state.window = window
    state.holder = strike.defender if window in ("block", "recover") else attacker
    return strike


def apply(state: EpicBattlesState, event: Any) -> list[Any]:
    """The illegal or inconsistent rulings of one event."""
    return [r for r in GAME.apply(state, event) if r.violation.severity in BAD]


@dataclass(frozen=True)
class Case:
    check: str
    rule: str
    where: Callable[[EpicBattlesState], bool]
    arrange: Callable[[EpicBattlesState], Any]
    event: Callable[[EpicBattlesState], Any]


def _recover_window(s: EpicBattlesState) -> None:
    neutral(s)
    strike = attack_in(s, s.holder, "Shin Sweep", "recover")
    s.sides[strike.defender].down = "knock_down"
    give(s, strike.defender, "Low Parry")


def _recover_banned(s: EpicBattlesState) -> None:
    _recover_window(s)
    ban = A.Prohibit(A.Selector("the", "player", owner="opponent"), "recover", A.Duration("end_of_combo"))
    s.lasting.append(Lasting(ban, s.strikes[-1].attacker, until="end_of_combo"))


def _unblockable(s: EpicBattlesState) -> None:
    neutral(s)
    strike = attack_in(s, s.holder, "Quick Jab")
    s.lasting.append(Lasting(A.Prohibit(A.Selector("this", "Attack"), "be blocked"), strike.attacker, this=strike.card.uid))
    give(s, strike.defender, "Forearm Guard")


def _iron_wall_without_energy(s: EpicBattlesState) -> None:
    neutral(s)
    strike = attack_in(s, s.holder, "Quick Jab")
    give(s, strike.defender, "Iron Wall")
    energy(s, strike.defender, 0)


def _vesna_without_energy(s: EpicBattlesState) -> None:
    neutral(s)
    energy(s, s.holder, 1)


def _both_over_three(s: EpicBattlesState) -> None:
    other = s.other(s.holder)
    while len(s.sides[other].hand) <= 3:
        give(s, other, "Quick Jab")


def _holding(name: str) -> Callable[[EpicBattlesState], None]:
    """Arrange: the player due to act holds ``name`` and five energy."""

    def arrange(s: EpicBattlesState) -> None:
        neutral(s)
        give(s, s.holder, name)
        energy(s, s.holder, 5)

    return arrange


def _set_up(s: EpicBattlesState, shuffle: bool, aggressor: bool) -> None:
    """Show both characters, and shuffle and pick the aggressor if asked."""
    for player in s.players:
        assert not apply(s, E.Character(0, player, s.sides[player].registered_character or "Vesna"))
        if shuffle:
            assert not apply(s, E.Shuffle(0, player))
    if aggressor:
        assert not apply(s, E.Aggressor(0, None, s.players[1]))


def _not_in_hand(s: EpicBattlesState, kind: str) -> str:
    names = {c.name for c in s.sides[s.holder].hand}
    return next(d.name for d in s.cards if B.role(d) == kind and d.name not in names)


CASES: list[Case] = [
    Case("activate_while_free", "epic_battles:EB.kw.knockdown.state", setup_start, lambda s: None, lambda s: E.Activate(0, s.players[0], 0)),
    Case("activate_ability", "epic_battles:EB.setup.character", act, neutral, lambda s: E.Activate(0, s.holder, 3)),
    Case("activate_cost", "epic_battles:EB.energy.pay", act, _vesna_without_energy, lambda s: E.Activate(0, s.holder, 0)),
    Case("attack_link_as_said", "epic_battles:EB.link.timing", act, neutral, lambda s: E.Attack(0, s.holder, "Quick Jab", link=True)),
    Case("attack_from_hand", "epic_battles:EB.card.attack.play", act, neutral, lambda s: E.Attack(0, s.holder, _not_in_hand(s, "attack"), link=False)),
    Case("attack_combo_timing", "epic_battles:EB.link.timing", act, _holding("Finishing Crash"),
         lambda s: E.Attack(0, s.holder, "Finishing Crash", link=False)),
    Case("attack_condition", "epic_battles:EB.card.attack.play", act, _holding("Grounded Stomp"),
         lambda s: E.Attack(0, s.holder, "Grounded Stomp", link=False)),
    Case("block_is_a_block", "epic_battles:EB.card.block.type", act, lambda s: (neutral(s), attack_in(s, s.holder, "Quick Jab"), give(s, s.holder, "Feint Step")),
         lambda s: E.Block(0, s.holder, "Feint Step")),
    Case("block_from_hand", "epic_battles:EB.card.block.sequence", act, lambda s: (neutral(s), attack_in(s, s.holder, "Quick Jab")),
         lambda s: E.Block(0, s.holder, _not_in_hand(s, "block"))),
    Case("block_not_forbidden", "epic_battles:EB.card.block.type", act, _unblockable, lambda s: E.Block(0, s.holder, "Forearm Guard")),
    Case("block_cost", "epic_battles:EB.card.block.sequence", act, _iron_wall_without_energy, lambda s: E.Block(0, s.holder, "Iron Wall")),
    Case("recover_payment", "epic_battles:EB.recover.block", act, _recover_window, lambda s: E.Recover(0, s.holder, discard="Quick Jab")),
    Case("recover_allowed", "epic_battles:EB.recover.block", act, _recover_banned, lambda s: E.Recover(0, s.holder, discard="Low Parry")),
    Case("character_is_a_character", "epic_battles:EB.setup.character", setup_start, lambda s: None, lambda s: E.Character(0, s.players[0], "Quick Jab")),
    Case("draw_after_character", "epic_battles:EB.setup.character", setup_start, lambda s: None, lambda s: E.Draw(0, s.players[0], None)),
    Case("draw_after_shuffle", "epic_battles:EB.setup.shuffle", setup_start, lambda s: _set_up(s, shuffle=False, aggressor=True),
         lambda s: E.Draw(0, s.players[0], None)),
    Case("draw_after_aggressor", "epic_battles:EB.setup.aggressor.first", setup_start, lambda s: _set_up(s, shuffle=True, aggressor=False),
         lambda s: E.Draw(0, s.players[0], None)),
    Case("flip_while_free", "epic_battles:EB.card.event.flip.timing", setup_start, lambda s: None, lambda s: E.Flip(0, s.players[0], ["Spotlight"])),
    Case("game_claim", "epic_battles:EB.win.game", act, lambda s: None, lambda s: E.Game(0, None, s.holder)),
    Case("no_pass_in_setup", "epic_battles:EB.setup.draw", setup_start, lambda s: None, lambda s: E.Pass(0, s.players[0])),
    Case("no_pass_in_draw_step", "epic_battles:EB.turn.step1.draw", lambda s: free(s) and s.node == "draw", lambda s: None,
         lambda s: E.Pass(0, s.holder)),
    Case("no_pass_in_discard_step", "epic_battles:EB.turn.step4.discard", discard_step, lambda s: None, lambda s: E.Pass(0, s.holder)),
    Case("pass_by_holder", "epic_battles:EB.turn.order", lambda s: free(s) and s.node == "set", lambda s: None, lambda s: E.Pass(0, s.other(s.holder))),
    Case("set_in_turn_order", "epic_battles:EB.turn.order", lambda s: free(s) and s.node == "set", lambda s: give(s, s.other(s.holder), "Spotlight"),
         lambda s: E.Set(0, s.other(s.holder), "Spotlight")),
    Case("discard_from_hand", "epic_battles:EB.turn.step4.discard", discard_step, lambda s: None,
         lambda s: E.Discard(0, s.holder, next(d.name for d in s.cards if s.sides[s.holder].hand.find(d.name) is None))),
    Case("discard_in_turn_order", "epic_battles:EB.turn.order", discard_step, _both_over_three,
         lambda s: E.Discard(0, s.other(s.holder), s.sides[s.other(s.holder)].hand.cards[0].name)),
    Case("unasked_select", "epic_battles:EB.turn.step3.choice", act, lambda s: None, lambda s: E.Select(0, s.holder, "Quick Jab")),
    Case("unasked_accept", "epic_battles:EB.turn.step3.choice", act, lambda s: None, lambda s: E.Accept(0, s.holder)),
    Case("unasked_decline", "epic_battles:EB.turn.step3.choice", act, lambda s: None, lambda s: E.Decline(0, s.holder)),
    Case("unasked_reveal", "epic_battles:EB.turn.steps", act, lambda s: None, lambda s: E.Reveal(0, s.holder, "Quick Jab")),
    Case("unasked_search", "epic_battles:EB.turn.steps", act, lambda s: None, lambda s: E.Search(0, s.holder, "Quick Jab")),
]


def check_fired_by(case: Case) -> str | None:
    """The name of the check that judged the case's event first (None if it was accepted)."""
    state = state_where(case.where)
    case.arrange(state)
    rulings = apply(state, case.event(state))
    return rulings[0].check if rulings else None


@pytest.mark.parametrize("case", CASES, ids=[c.check for c in CASES])
def test_rule_check_fires(case: Case) -> None:
    state = state_where(case.where)
    case.arrange(state)
    event = case.event(state)
    rulings = apply(state, event)
    assert rulings, f"{event} was accepted"
    assert (rulings[0].check, rulings[0].rule) == (case.check, case.rule)


# ============================================================= decisions (docs/epic_battles-decisions.rst)


def _played(state: EpicBattlesState, player: str, name: str, **fields: Any) -> EpicBattlesState:
    """``player`` plays the attack ``name`` (given and paid for) as a new action."""
    give(state, player, name)
    energy(state, player, max(len(state.sides[player].energy), B.printed(state.cards[name], "cost")))
    assert not apply(state, E.Attack(0, player, name, link=False, **fields))
    return state


def test_d1_the_aggressor_role_alternates_between_the_two_players() -> None:
    """Decision 1: with two players, 'the player to the left' is the other player (EB.turn.next)."""
    by_turn = {s.turn: s.aggressor for s in _states(1) if s.stage == "turn" and s.round == 1}
    assert len(by_turn) >= 4
    assert all(by_turn[t] != by_turn[t + 1] for t in by_turn if t + 1 in by_turn)


def test_d2_a_knock_down_attack_knocks_down_when_it_is_played() -> None:
    """Decisions 2 and 9: 'Kick Down' is Knock Down; the target is down as the attack is played, before any block."""
    state = neutral(state_where(act))
    attacker = state.holder
    _played(state, attacker, "Shin Sweep")
    assert state.window == "block" and state.sides[state.other(attacker)].down == "knock_down"
    assert ("down", state.other(attacker), "knock_down") in state.facts


def test_d3_the_first_action_step_starts_with_six_cards() -> None:
    """Decision 3: the set-up draw and the first Draw step's draw are two draws of three."""
    state = state_where(lambda s: s.stage == "turn" and s.node == "set" and s.turn == 1 and s.round == 1)
    assert [len(s.hand) for s in state.sides.values()] == [6, 6]


def test_d4_the_energy_pile_starts_empty_and_free_cards_can_be_played() -> None:
    """Decision 4: no energy at the start; a cost-0 attack is the way in."""
    state = neutral(state_where(lambda s: act(s) and s.turn == 1 and s.round == 1))
    assert all(len(s.energy) == 0 for s in state.sides.values())
    give(state, state.holder, "Quick Jab")
    assert not apply(state, E.Attack(0, state.holder, "Quick Jab", link=False))


def test_d5_costs_take_the_oldest_energy_cards_first() -> None:
    """Decision 5: the energy pile pays oldest first; paid cards go to the discard pile."""
    state = neutral(state_where(act))
    player = state.holder
    pile = [state.new_card(n, player, state.cards[n]) for n in ("Quick Jab", "Gut Hook", "Shin Sweep")]
    state.sides[player].energy.cards = list(pile)
    give(state, player, "Skyward Heel")  # cost 2
    assert not apply(state, E.Attack(0, player, "Skyward Heel", link=False))
    assert [c.name for c in state.sides[player].energy] == ["Shin Sweep"]
    assert [c.name for c in state.sides[player].discard][-2:] == ["Quick Jab", "Gut Hook"]


def test_d6_setting_an_event_costs_nothing() -> None:
    """Decision 6: an event's cost is paid when it is flipped, not when it is set."""
    state = state_where(lambda s: free(s) and s.node == "set")
    energy(state, state.holder, 0)
    give(state, state.holder, "Read the Feint")  # cost 2
    assert not apply(state, E.Set(0, state.holder, "Read the Feint"))
    assert len(state.sides[state.holder].energy) == 0


def test_d7_the_discard_step_goes_down_to_exactly_three_without_passes() -> None:
    """Decision 7: 'keep up to three' is read as discarding down to three; no pass ends the step."""
    state = state_where(discard_step)
    player = state.holder
    assert len(state.sides[player].hand) > 3
    rulings = apply(state.copy(), E.Pass(0, player))
    assert rulings and rulings[0].rule == "epic_battles:EB.turn.step4.discard"
    while state.node == "discard" and state.holder == player:
        assert not apply(state, E.Discard(0, player, state.sides[player].hand.cards[0].name))
    assert len(state.sides[player].hand) == 3
    done = state_where(lambda s: free(s) and s.node == "discard" and len(s.sides[s.holder].hand) == 4)
    other = done.other(done.holder)
    done.sides[other].hand.cards = done.sides[other].hand.cards[:3]
    assert not apply(done, E.Discard(0, done.holder, done.sides[done.holder].hand.cards[0].name))
    assert done.node == "draw"  # the next turn began: nobody else had to discard


def test_d8_a_single_attack_is_a_combo_for_timing_but_not_for_combo_triggers() -> None:
    """Decision 8: a knock-down lasts to the end of the action, even with one attack; 'a combo ends' needs two."""
    state = neutral(state_where(act))
    attacker = state.holder
    defender = state.other(attacker)
    _played(state, attacker, "Shin Sweep")
    assert not apply(state, E.Pass(0, defender))  # no block: damage
    assert state.window == "link" and state.sides[defender].down == "knock_down"
    assert not apply(state, E.Pass(0, attacker))  # no link: the combo ends
    assert state.sides[defender].down is None
    assert not any(o.event == "combo_ends" for o in state.recent)
    assert any(o.event == "recovered" and o.who == defender for o in state.recent)


def test_d9_a_blocked_knock_down_still_knocks_down() -> None:
    """Decision 9: blocking a Knock Down leaves its target down; only paying (or an effect) stands them up."""
    state = neutral(state_where(act))
    attacker, defender = state.holder, state.other(state.holder)
    _played(state, attacker, "Shin Sweep")  # Knock Down, Low
    give(state, defender, "Low Parry")
    assert not apply(state, E.Block(0, defender, "Low Parry"))
    assert state.sides[defender].down == "knock_down" and state.window == "recover"
    assert not apply(state, E.Pass(0, defender))  # no paid recovery
    assert state.sides[defender].down == "knock_down" and state.window == "link"


def test_d10_a_knock_down_outside_a_combo_lasts_to_the_end_of_the_next_one() -> None:
    """Decision 10: knocked down outside any combo (by an event), a player stays down until a combo ends."""
    state = neutral(state_where(lambda s: free(s) and s.node == "set"))
    player = state.holder
    GAME.knock_down(state, player, "knock_down")
    while state.node != "action":
        assert not apply(state, E.Pass(0, state.holder))
    assert state.sides[player].down == "knock_down"
    attacker = state.holder
    _played(state, attacker, "Quick Jab")
    assert not apply(state, E.Pass(0, state.other(attacker)))
    assert not apply(state, E.Pass(0, attacker))
    assert state.sides[player].down is None


def test_d11_a_paid_recovery_from_a_launcher_removes_two_high_blocks() -> None:
    """Decision 11: Low blocks for a Knock Down, High ones for a Launcher; they leave the game for the round."""
    state = neutral(state_where(act))
    attacker, defender = state.holder, state.other(state.holder)
    _played(state, attacker, "Skyward Heel")  # Launcher, High
    side = state.sides[defender]
    side.discard.cards = [state.new_card(n, defender, state.cards[n]) for n in ("Low Parry", "Low Parry", "Forearm Guard", "Patient Cover")]
    give(state, defender, "Forearm Guard")
    energy(state, defender, 0)
    assert not apply(state, E.Block(0, defender, "Forearm Guard"))
    assert state.window == "recover"
    rulings = apply(state.copy(), E.Recover(0, defender, remove=["Low Parry", "Low Parry"]))
    assert rulings and rulings[0].check == "recover_payment"
    assert not apply(state, E.Recover(0, defender, remove=["Forearm Guard", "Patient Cover"]))
    assert side.down is None and sorted(side.removed.names()) == ["Forearm Guard", "Patient Cover"]
    assert state.window == "link"


def test_d12_launched_is_not_knocked_down() -> None:
    """Decision 12: an effect about a knocked-down player does not see a launched one."""
    state = neutral(state_where(act))
    rival = state.other(state.holder)
    state.sides[rival].down = "launch"
    give(state, state.holder, "Grounded Stomp")
    energy(state, state.holder, 5)
    rulings = apply(state.copy(), E.Attack(0, state.holder, "Grounded Stomp", link=False))
    assert rulings and rulings[0].check == "attack_condition"
    state.sides[rival].down = "knock_down"
    assert not apply(state, E.Attack(0, state.holder, "Grounded Stomp", link=False))


def test_d13_a_cards_text_about_itself_counts_when_it_is_checked() -> None:
    """Decision 13: own cost (Desperation Rush), own link (Wild Card Haymaker), own block (Iron Wall)."""
    state = neutral(state_where(act))
    player = state.holder
    state.sides[player].deck.hidden = 10
    give(state, player, "Desperation Rush")  # cost 2, -2 with ten or fewer cards in the deck
    energy(state, player, 0)
    assert not apply(state, E.Attack(0, player, "Desperation Rush", link=False))
    linked = neutral(state_where(lambda s: free(s) and s.window == "link"))
    give(linked, linked.holder, "Wild Card Haymaker")
    energy(linked, linked.holder, 2)
    linked.combo[-1] = (linked.combo[-1][0], "Finishing Crash")  # no follow-ups at all
    assert not apply(linked, E.Attack(0, linked.holder, "Wild Card Haymaker", link=True))
    wall = neutral(state_where(act))
    strike = attack_in(wall, wall.holder, "Shin Sweep")  # Low
    give(wall, strike.defender, "Iron Wall")  # High, "can block Low attacks"
    energy(wall, strike.defender, 2)
    assert not apply(wall, E.Block(0, strike.defender, "Iron Wall"))


def _deck(character: str, main: dict[str, int], side: dict[str, int] | None = None) -> dict[str, Any]:
    return {"character": character, "main": main, "side": side or {}}


def _deck_rulings(deck: dict[str, Any]) -> list[str]:
    cards = CardDatabase.load(shipped_database("epic_battles", "base"), "epic_battles")
    setup = Setup(("ann", "ben"), {"ann": deck, "ben": None}, {}, cards)
    GAME.setup(setup)
    return [r.rule or "" for r in setup.rulings]


FILLER = {"Quick Jab": 4, "Feint Step": 4, "Forearm Guard": 4, "Low Parry": 4, "Gut Hook": 4, "Shin Sweep": 4, "Chain Elbow": 4,
          "Patient Cover": 4, "Reversal Catch": 4, "Steady Stance": 4, "Spotlight": 4, "Cornered": 4, "Rope Break": 4, "Crowd Roars": 3}


def test_d14_only_playable_by_overrides_the_name_in_the_title() -> None:
    """Decision 14: Rhea's Lotus Spiral names Kaito among its players, so a Kaito deck may hold it."""
    assert sum(FILLER.values()) == 55
    kaito = _deck("Kaito", {**FILLER, "Rhea's Lotus Spiral": 4})
    assert _deck_rulings(kaito) == []
    rhea = _deck("Rhea", {**FILLER, "Kaito's Rising Fang": 4})
    assert _deck_rulings(rhea) == ["epic_battles:EB.deck.character_name"]


def test_d15_a_side_deck_has_six_single_side_deck_only_cards_that_never_come_into_play() -> None:
    """Decision 15: six cards when brought; a side-deck card shown in play is not in the registered deck."""
    side = {"Corner Towel": 1, "Rematch Guard": 1, "Title Shot": 1, "Crowd Favourite": 1, "Second Corner": 1, "Ringside Sweep": 1}
    main = {**FILLER, "Rolling Thunder Knee": 4}
    assert _deck_rulings(_deck("Kaito", main, side)) == []
    five = dict(list(side.items())[:5])
    assert _deck_rulings(_deck("Kaito", main, five)) == ["epic_battles:EB.side.size"]
    double = {**five, "Corner Towel": 2}
    assert _deck_rulings(_deck("Kaito", main, double)) == ["epic_battles:EB.side.limit"]
    state = state_where(lambda s: free(s) and s.node == "draw" and s.sides[s.aggressor or ""].drawn == 0)
    rulings = apply(state, E.Draw(0, state.aggressor, "Title Shot"))
    assert rulings and rulings[0].violation.severity == "inconsistent"


def test_d16_a_flip_is_allowed_from_its_moment_until_the_next_move() -> None:
    """Decision 16: the moment an event names stays open until the next move by either player."""
    state = neutral(state_where(act))
    attacker, defender = state.holder, state.other(state.holder)
    cornered = state.new_card("Cornered", defender, state.cards["Cornered"])  # flip when your rival plays a High attack
    cornered.face_up = False
    state.sides[defender].arena.add(cornered)
    energy(state, defender, 1)
    early = state.copy()
    rulings = apply(early, E.Flip(0, defender, ["Cornered"]))
    assert rulings and rulings[0].check == "flip_moment_named"
    _played(state, attacker, "Quick Jab")  # High
    late = state.copy()
    assert not apply(state, E.Flip(0, defender, ["Cornered"]))
    assert not apply(late, E.Pass(0, defender))  # the move closes the moment
    rulings = apply(late, E.Flip(0, defender, ["Cornered"]))
    assert rulings and rulings[0].check == "flip_moment_named"


def test_d17_flipping_commits_to_the_events_text_then_discards_it() -> None:
    """Decision 17: a flipped Rope Break recovers its player at once; the event then goes to the discard pile."""
    state = neutral(state_where(act))
    attacker, defender = state.holder, state.other(state.holder)
    rope = state.new_card("Rope Break", defender, state.cards["Rope Break"])
    rope.face_up = False
    state.sides[defender].arena.add(rope)
    set_before = state.sides[defender].arena.names().count("Rope Break")
    discarded_before = state.sides[defender].discard.names().count("Rope Break")
    energy(state, defender, 1)
    _played(state, attacker, "Shin Sweep")
    assert state.sides[defender].down == "knock_down"
    assert not apply(state, E.Flip(0, defender, ["Rope Break"]))
    assert state.sides[defender].down is None
    assert state.sides[defender].arena.names().count("Rope Break") == set_before - 1
    assert state.sides[defender].discard.names().count("Rope Break") == discarded_before + 1


def test_d18_a_taunted_attack_its_player_cannot_pay_for_is_discarded() -> None:
    """Decision 18: Taunt turns over the top card; an unpayable attack goes to the discard pile, the Taunt goes on."""
    state = neutral(state_where(act))
    attacker, rival = state.holder, state.other(state.holder)
    energy(state, rival, 0)
    state.sides[rival].knowledge.registered = None  # any card the construction rules allow
    before = len(state.sides[rival].deck)
    _played(state, attacker, "Mocking Bow")
    need = state.resolution.need if state.resolution is not None else None
    assert need is not None and need.kind == "reveal" and need.player == rival
    assert not apply(state, E.Reveal(0, rival, "Burning Palm"))  # costs 2
    assert state.sides[rival].discard.names()[-1] == "Burning Palm"
    assert len(state.sides[rival].deck) == before - 1
    assert state.window == "block" and state.strikes[-1].card.name == "Mocking Bow"


def test_d18b_a_taunted_attack_that_can_be_paid_is_played_at_the_taunter() -> None:
    """Decision 18: the turned-over attack is played against the taunter, who may block it; it does not link."""
    state = neutral(state_where(act))
    attacker, rival = state.holder, state.other(state.holder)
    energy(state, rival, 3)
    state.sides[rival].knowledge.registered = None
    _played(state, attacker, "Mocking Bow")
    assert not apply(state, E.Reveal(0, rival, "Quick Jab"))
    assert state.window == "block" and state.holder == attacker and state.strikes[-1].taunted
    assert not apply(state, E.Pass(0, attacker))  # not blocked: one damage to the taunter
    assert ("damage", attacker, 1) in state.facts
    assert state.strikes[-1].card.name == "Mocking Bow" and state.window == "block" and state.holder == rival
    assert "Quick Jab" in state.sides[rival].energy.names()


def test_d19_a_negated_attack_ends_at_once_in_the_energy_pile() -> None:
    """Decision 19: Read the Feint negates a Throw attack: no block, no damage, no HIT; it still reaches the energy pile."""
    state = neutral(state_where(act))
    attacker, defender = state.holder, state.other(state.holder)
    feint = state.new_card("Read the Feint", defender, state.cards["Read the Feint"])
    feint.face_up = False
    state.sides[defender].arena.add(feint)
    energy(state, defender, 2)
    _played(state, attacker, "Counterweight Throw")
    facts = len(state.facts)
    assert not apply(state, E.Flip(0, defender, ["Read the Feint"]))
    assert not state.strikes and state.window == "link" and state.holder == attacker
    assert state.facts[facts:] == []
    assert "Counterweight Throw" in state.sides[attacker].energy.names()


def test_d20_drawing_the_last_card_loses_the_round_and_everything_goes_back() -> None:
    """Decision 20: the round ends the instant a deck is empty; the next round starts from a full deck."""
    state = state_where(lambda s: free(s) and s.node == "draw" and s.round == 1 and s.sides[s.aggressor or ""].drawn == 0)
    loser = state.aggressor or ""
    state.sides[loser].deck.hidden = 1
    assert not apply(state, E.Draw(0, loser, None))
    assert state.stage == "setup" and state.round == 2 and state.aggressor == loser
    assert ("round", state.other(loser)) in state.facts
    assert all(len(s.deck) == s.deck_size and not s.hand.cards and not s.energy.cards for s in state.sides.values())


def test_d21_blocking_a_free_attack_chips_nothing() -> None:
    """Decision 21: chipping zero cards is no chip (and nothing for Sable Quinn to replace)."""
    state = neutral(state_where(act))
    attacker, defender = state.holder, state.other(state.holder)
    state.sides[defender].character = state.new_card("Sable Quinn", defender, state.cards["Sable Quinn"])
    deck = len(state.sides[defender].deck)
    _played(state, attacker, "Quick Jab")  # cost 0
    give(state, defender, "Forearm Guard")
    facts = len(state.facts)
    assert not apply(state, E.Block(0, defender, "Forearm Guard"))
    assert state.facts[facts:] == [] and len(state.sides[defender].deck) == deck


def test_d22_an_alternative_cost_replaces_the_energy_cost() -> None:
    """Decision 22: Shoulder Check paid by discarding two cards needs no energy, and deals one less damage."""
    state = neutral(state_where(act))
    attacker, defender = state.holder, state.other(state.holder)
    energy(state, attacker, 0)
    give(state, attacker, "Shoulder Check")
    state.sides[attacker].hand.cards = state.sides[attacker].hand.cards[-1:]
    rulings = apply(state.copy(), E.Attack(0, attacker, "Shoulder Check", alternative=True, link=False))
    assert rulings and rulings[0].check == "attack_cost"
    give(state, attacker, "Low Parry")
    give(state, attacker, "Spotlight")
    assert not apply(state, E.Attack(0, attacker, "Shoulder Check", alternative=True, link=False))
    assert not apply(state, E.Discard(0, attacker, "Low Parry"))
    assert not apply(state, E.Discard(0, attacker, "Spotlight"))
    assert state.window == "block"
    facts = len(state.facts)
    assert not apply(state, E.Pass(0, defender))
    assert not [f for f in state.facts[facts:] if f[0] == "damage"]  # one damage printed, minus one


def test_d23_simultaneous_triggers_take_the_aggressor_first() -> None:
    """Decision 23: two characters' triggers at one moment run aggressor's first."""
    state = state_where(lambda s: free(s) and s.node == "set")
    for side in state.sides.values():
        side.character = state.new_card("Orrin", side.name, state.cards["Orrin"])
    GAME.occur(state, "phase_begins", None, phase="Draw")
    assert [job.controller for job in state.waiting] == list(state.in_order())


def test_d24_set_up_draws_come_in_any_order_but_the_draw_step_goes_aggressor_first() -> None:
    """Decision 24: set-up does not order the draws; every step of a turn does (EB.turn.order)."""
    state = state_where(setup_start)
    _set_up(state, shuffle=True, aggressor=True)
    assert not apply(state, E.Draw(0, state.other(state.aggressor or ""), None))
    turn = state_where(lambda s: free(s) and s.node == "draw" and s.sides[s.aggressor or ""].drawn == 0)
    rulings = apply(turn, E.Draw(0, turn.other(turn.aggressor or ""), None))
    assert rulings and rulings[0].check == "aggressor_draws_first"


def test_d25_a_knocked_down_player_can_use_their_characters_ability_any_number_of_times() -> None:
    """Decision 25: Vesna pays two energy to recover whenever no effect is under way, knocked down or not."""
    state = neutral(state_where(act))
    attacker, defender = state.holder, state.other(state.holder)
    _played(state, attacker, "Shin Sweep")
    energy(state, defender, 4)
    assert state.window == "block"
    assert not apply(state, E.Activate(0, defender, 0))
    assert state.sides[defender].down is None and len(state.sides[defender].energy) == 2
    assert not apply(state, E.Activate(0, defender, 0))
    assert len(state.sides[defender].energy) == 0


def test_d26_an_attack_logged_as_a_new_action_is_not_read_as_a_link() -> None:
    """Decision 26: with inferred passes, link=false ends the combo and lets the rival pass before the new action."""
    state = neutral(state_where(lambda s: free(s) and s.window == "link"))
    state.explicit_passes = False
    player = state.holder
    give(state, player, "Quick Jab")
    assert not apply(state, E.Attack(0, player, "Quick Jab", link=False))
    assert state.combo == [(state.strikes[-1].card.uid, "Quick Jab")] and state.passes == 0
    linked = neutral(state_where(lambda s: free(s) and s.window == "link"))
    linked.explicit_passes = False
    linked.combo[-1] = (linked.combo[-1][0], "Quick Jab")  # follow-ups Punch, Kick
    give(linked, linked.holder, "Quick Jab")  # trait Punch
    length = len(linked.combo)
    assert not apply(linked, E.Attack(0, linked.holder, "Quick Jab"))
    assert len(linked.combo) == length + 1  # left out, it is read as a link where it links


def test_d27_a_you_may_is_answered_by_accept_or_decline() -> None:
    """Decision 27: Rhea's 'you may' waits for accept or decline; any other event declines it."""
    state = neutral(state_where(act))
    attacker, defender = state.holder, state.other(state.holder)
    state.sides[defender].character = state.new_card("Rhea", defender, state.cards["Rhea"])
    _played(state, attacker, "Gut Hook")  # cost 1, High
    give(state, defender, "Forearm Guard")
    assert not apply(state, E.Block(0, defender, "Forearm Guard"))
    need = state.resolution.need if state.resolution is not None else None
    assert need is not None and need.kind == "may" and need.player == defender
    accepted = state.copy()
    energy_before = len(accepted.sides[defender].energy)
    assert not apply(accepted, E.Accept(0, defender))
    assert len(accepted.sides[defender].energy) == energy_before + 1
    assert not apply(state, E.Pass(0, attacker))  # declines the may, then ends the combo
    assert len(state.sides[defender].energy) == energy_before and state.window == "act"


def test_an_unparsed_or_unmodelled_card_is_unverifiable_with_its_name() -> None:
    """Never silently legal: a card with text the spec has no meaning for is reported, named."""
    from spec.core.cards import CardDatabase, CardDef

    base = CardDatabase.load(shipped_database("epic_battles", "base"), "epic_battles")
    odd = CardDef("Odd Elbow", "Attack", "Roll a die.", stats={"damage": 1, "height": "High", "follow_ups": []}, traits=["Punch"], cost=0)
    cards = CardDatabase("test", "epic_battles", 1, [*base, odd])
    state = neutral(state_where(act))
    state.cards = cards
    give(state, state.holder, "Odd Elbow")
    rulings = GAME.apply(state, E.Attack(0, state.holder, "Odd Elbow", link=False))
    assert rulings and rulings[0].violation.severity == "unverifiable" and "Odd Elbow" in rulings[0].violation.message


def test_an_unnamed_set_keeps_every_reading_open() -> None:
    """A set the log does not name: the one event in hand, or else any of them (their names are forgotten)."""
    state = neutral(state_where(lambda s: free(s) and s.node == "set"))
    player = state.holder
    hand = state.sides[player].hand
    hand.cards = [c for c in hand.cards if B.role(c.defn) != "event"]
    give(state, player, "Spotlight")
    one = state.copy()
    assert not apply(one, E.Set(0, player, None))
    assert one.sides[player].arena.cards[-1].name == "Spotlight"
    give(state, player, "Cornered")
    assert not apply(state, E.Set(0, player, None))
    assert state.sides[player].arena.cards[-1].name is None
    assert sum(1 for c in state.sides[player].hand if c.name is None) == 1


def test_a_finished_attack_goes_to_the_energy_pile_and_its_block_to_the_discard_pile() -> None:
    """EB.card.attack.after, EB.energy.event_block_to_discard, EB.card.block.sequence, EB.chip."""
    state = neutral(state_where(act))
    attacker, defender = state.holder, state.other(state.holder)
    _played(state, attacker, "Gut Hook")  # cost 1
    give(state, defender, "Forearm Guard")
    deck = len(state.sides[defender].deck)
    assert not apply(state, E.Block(0, defender, "Forearm Guard"))
    assert state.sides[attacker].energy.names()[-1] == "Gut Hook"
    assert state.sides[defender].discard.names()[-1] == "Forearm Guard"
    assert ("chip", defender, 1) in state.facts and len(state.sides[defender].deck) == deck - 1


def test_d28_the_card_prevails_where_the_book_defers_and_two_cards_are_a_gap() -> None:
    """Decision 28: the three deferring rules give way to the card; two contradicting cards are a gap."""
    from spec.epic_battles import conflicts as EC

    ruling = EC.judge_copies("alice", "Pocket Jab", 6, 6)
    assert ruling is not None and ruling.violation.severity == "info" and ruling.rule == EC.COPIES
    state = neutral(state_where(act))
    attacker, defender = state.holder, state.other(state.holder)
    _played(state, attacker, "Shin Sweep")
    stands, how = EC.judge_recover(state, defender, "Rope Break")
    assert stands and how is not None and how.startswith(EC.RECOVERY)
    pin = A.Prohibit(A.Selector("the", "player", owner="opponent"), "recover", A.Duration("end_of_combo"))
    state.lasting.append(Lasting(pin, attacker, until="end_of_combo", source="Pinning Hold"))
    state.notes.clear()
    assert EC.judge_recover(state, defender, "Rope Break") == (True, None)
    assert [n.violation.severity for n in state.notes] == ["unverifiable"]
    narrowing = A.Prohibit(A.Selector("the", "player", owner="opponent"), "flip events", A.Duration("end_of_turn"))
    state.lasting.append(Lasting(narrowing, attacker, until="end_of_turn", source="Heckling Fans"))
    rulings = apply(state, E.Flip(0, defender, ["Rope Break"]))  # a can't alone narrows the rules: illegal, no clash
    assert rulings and rulings[0].check == "flip_moment_named" and rulings[0].violation.severity == "illegal"


def test_d29_paying_to_recover_after_a_card_stood_the_player_up_cites_the_precedence_rule() -> None:
    """Decision 29: Steady Stance stood the blocker up; a paid recovery then cites EB.recover.effect."""
    state = neutral(state_where(act))
    attacker, defender = state.holder, state.other(state.holder)
    _played(state, attacker, "Skyward Heel")  # Launcher, High
    assert state.sides[defender].down == "launch"
    give(state, defender, "Steady Stance")
    give(state, defender, "Forearm Guard")
    energy(state, defender, 1)
    assert not apply(state, E.Block(0, defender, "Steady Stance"))
    assert state.sides[defender].down is None and state.window == "link"
    rulings = apply(state, E.Recover(0, defender, discard="Forearm Guard"))
    assert rulings and rulings[0].check == "recover_after_card" and rulings[0].rule == "epic_battles:EB.recover.effect"


def test_d30_a_card_that_lets_its_player_flip_events_waives_the_moment() -> None:
    """Decision 30: under Showboat's permission a set Cornered is flipped with no High attack played."""
    state = neutral(state_where(act))
    player = state.holder
    cornered = state.new_card("Cornered", player, state.cards["Cornered"])
    cornered.face_up = False
    state.sides[player].arena.add(cornered)
    energy(state, player, 1)
    early = state.copy()
    assert apply(early, E.Flip(0, player, ["Cornered"]))  # no moment, no permission
    can = A.Permit(A.Selector("the", "player", owner="you"), "flip events", A.Duration("end_of_turn"))
    state.lasting.append(Lasting(can, player, until="end_of_turn", source="Showboat"))
    rulings = GAME.apply(state, E.Flip(0, player, ["Cornered"]))
    assert not [r for r in rulings if r.violation.severity != "info"]
    assert any(n.rule == "epic_battles:EB.card.event.flip.timing" for n in state.notes)


def test_d31_a_card_set_face_down_unnamed_is_an_event_that_z3_weighs() -> None:
    """Decision 31: the unnamed set card is marked an event; with the deck's one event drawn later, z3 objects."""
    from spec.epic_battles.corpus import hidden_replay

    states = [(s.copy(), e, raw) for s, e, raw in replay_states(hidden_replay())]
    before_set = next(s for s, _e, raw in states if raw["seq"] == 18)
    assert before_set.sides["alice"].knowledge.marks == 0
    state, event, _raw = states[-1]
    rulings = GAME.apply(state.copy(), event)
    assert [r.violation.severity for r in rulings] == ["inconsistent"] and rulings[0].rule == "epic_battles:EB.card.event"
    assert state.sides["alice"].knowledge.marks == 1 and state.sides["alice"].knowledge.can_reveal("Crowd Roars")


def test_each_player_discards_one_after_the_other() -> None:
    """"Each player discards a card" is a discard by each player, in the order draws take.
    Before, only the first player discarded."""
    from spec.core.interpreter import Resolution

    state = state_where(lambda s: s.stage == "turn" and all(len(s.sides[p].hand) > 0 for p in s.players))
    first, _second = state.in_order()
    res = Resolution(first, None, [])
    need = GAME.effects.do_discard(state, res, A.Discard("each", 1))
    assert need is not None and need.player == first
    pushed = [step for frame in res.frames for step in frame.steps]
    assert pushed == [A.Discard("opponent", 1, None)]
    with pytest.raises(B.Unmodelled):  # a step for every player that is not split is reported, never run for one
        GAME.effects.do_shuffle(state, Resolution(first, None, []), A.Shuffle("each"))


def test_lint_names_the_steps_the_spec_cannot_carry_out_before_play() -> None:
    """``unsupported`` names a step the spec does not carry out whatever the state (removing
    cards from the hand, searching the discard pile, negating a block), so lint notes the card
    and the simulator leaves it out; the handlers raise the same reason when a replay reaches
    the step. Before, only the text's parse and its kinds of ability were looked at."""
    from spec.core.cards import CardDef

    cards = CardDatabase("test", "epic_battles", 1, [
        CardDef("Palm Sweep", "Block", "Remove two Low blocks from your hand; recover."),
        CardDef("Grave Call", "Event", "Flip when a combo ends.\nSearch your discard pile for a Special attack and put it into your hand."),
        CardDef("Wall Breaker", "Event", "Flip when your rival plays a Throw attack.\nNegate that block."),
        CardDef("Tidy Up", "Block", "Put up to two cards from your discard pile into your energy pile."),
    ])
    game = load_game("epic_battles")
    assert game.unsupported(cards, "Palm Sweep") == "removing cards from the hand is not modelled"
    assert game.unsupported(cards, "Grave Call") == "searching the discard pile for the hand is not modelled"
    assert game.unsupported(cards, "Wall Breaker") == "negating that Block is not modelled"
    assert game.unsupported(cards, "Tidy Up") is None


def test_a_condition_on_several_players_is_unmodelled_not_the_first_players() -> None:
    """Whether "each player" is knocked down, or how many cards each holds, is not read as
    the first player's (as it was): ``condition_holds`` raises ``Unmodelled`` and
    ``condition_gap`` names it."""
    from spec.epic_battles import board as B

    state = state_where(lambda s: s.stage != "setup")
    for cond in (A.Condition("state", "is", "knocked_down", A.Selector("the", "player", owner="each")),
                 A.Condition("cards", ">=", 1, A.Selector("the", "card", owner="each", zone="hand"))):
        assert B.condition_gap(cond) is not None
        with pytest.raises(B.Unmodelled):
            B.condition_holds(state, state.players[0], cond, {})


def test_lint_takes_a_characters_always_on_can_as_read() -> None:
    """A character's always-on "you can play High blocks" is read as a "can" in force (the
    conflicts weigh it against any can't), so ``unsupported`` does not name it, while the same
    leave given once by an event, which the spec does not carry out, is named."""
    from spec.core.cards import CardDef

    cards = CardDatabase("test", "epic_battles", 1, [
        CardDef("Open Guard", "Character", "You can play High blocks.", stats={"health": "20"}),
        CardDef("Brief Guard", "Event", "Flip at any time.\nYou can play High blocks until the end of the turn."),
    ])
    game = load_game("epic_battles")
    assert game.unsupported(cards, "Open Guard") is None
    assert (game.unsupported(cards, "Brief Guard") or "").startswith("a 'can' for")
