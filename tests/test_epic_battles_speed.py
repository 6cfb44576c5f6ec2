"""Epic Battles: what the spec keeps to verify faster gives the answers it would work out afresh.

What the spec reads off a card database is kept in its catalog (``spec.epic_battles.catalog``):
abilities by kind, keywords, played text, triggers by moment, deck-construction answers.
The effects in force pass over an always-on ability with no step of the kind asked for
(when its condition can always be read), and the conflicts met skip the search when no
effect speaks of players. Each test pins one of these against the plain reading.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from grammar import ast as A
from grammar import epic_battles_nodes as N
from spec.core.cards import CardDatabase, shipped_database
from spec.epic_battles import board as B
from spec.epic_battles import conflicts as EC
from spec.epic_battles.corpus import play, replay_states
from spec.epic_battles.state import EpicBattlesState, Lasting

KINDS = (A.Modify, A.Prohibit, A.Permit, N.EpicBattlesGain, N.EpicBattlesLink)


def in_force_afresh(state: EpicBattlesState, kind: type) -> list[tuple[Lasting, Any]]:
    """Every lasting change and always-on step of ``kind``, every condition read."""
    out = [(lasting, lasting.step) for lasting in state.lasting if isinstance(lasting.step, kind)]
    for controller, ability in B.passives(state):
        out.extend((Lasting(step, controller), step) for step in ability.effect if isinstance(step, kind))
    return out


@cache
def _games() -> tuple[list[bytes], ...]:
    return (play(1), play(2, passes="implicit"), play(3, characters=("Kaito", "Brakka")))


def test_effects_in_force_are_those_read_afresh_along_played_games() -> None:
    for lines in _games():
        for state, _event, _raw in replay_states(lines):
            for kind in KINDS:
                assert list(B.in_force(state, kind)) == in_force_afresh(state, kind)
            if state.stage == "turn" and not EC._may_speak(state):
                assert EC.cards_in_force(state) == []


def _database() -> CardDatabase:
    """A database of its own (not the shared one), so that its catalog starts empty."""
    return CardDatabase.load(shipped_database("epic_battles", "base"), "epic_battles")


def test_the_catalog_gives_what_the_card_text_says() -> None:
    cards = _database()
    state = EpicBattlesState(("alice", "bob"), {}, cards, False)
    characters = [d.name for d in cards if B.is_character(d)]
    for defn in cards:
        tree = cards.tree(defn.name)
        if isinstance(tree, Exception) or A.unknown_parts(tree):
            continue
        for kind in (A.Keyword, A.Spell, A.Triggered, A.Passive, A.Activated, A.Conditional, N.EpicBattlesLimit):
            assert B.abilities(state, defn.name, kind) == tuple(a for a in tree.abilities if isinstance(a, kind))
        for word in B.KEYWORDS:
            keywords: list[Any] = [a for a in tree.abilities if isinstance(a, A.Keyword)]
            assert B.keyword(state, defn.name, word) == any(a.name == word for a in keywords)
        triggered: list[Any] = [a for a in tree.abilities if isinstance(a, A.Triggered)]
        for event in B.TRIGGER_EVENTS:
            assert B.triggered_on(state, defn.name, event) == tuple(a for a in triggered if a.trigger.event == event)
        restrictions: list[Any] = [a for a in tree.abilities if isinstance(a, N.EpicBattlesRestriction)]
        for character in characters:
            restricted = [a for a in restrictions if a.kind == "character"]
            expected = all(character in a.names for a in restricted) if restricted else not any(
                other != character and re.search(rf"(?<![A-Za-z]){re.escape(other)}(?![A-Za-z])", defn.name)
                for other in characters)
            assert B.character_allows(state, defn, character) == expected, (defn.name, character)
            assert B.character_allows(state, defn, character) == expected  # kept answer, same


def test_a_condition_said_always_readable_is_read_in_every_state() -> None:
    state = next(s for s, _e, _r in replay_states(_games()[0]) if s.stage == "turn")
    conditions = [
        A.Condition("state", "is", "knocked_down", A.Selector("the", "player", owner="opponent")),
        A.Condition("state", "is", "aggressor"),
        A.Condition("cards", ">=", 2, A.Selector("the", "card", owner="you", zone="discard pile")),
        A.Condition("combo", "==", 3),
        A.Condition("state", "is", "dizzy"),
        A.Condition("cards", ">=", 2, A.Selector("the", "card", owner="you", zone="graveyard")),
        A.Condition("weather", "is", "rain"),
        A.Condition("combo", "~", 3),  # type: ignore[arg-type]
    ]
    for cond in conditions:
        try:
            B.condition_holds(state, state.players[0], cond, {})
            readable = True
        except B.Unmodelled:
            readable = False
        assert B._always_readable(cond) == readable, cond


def _cards_of(state: EpicBattlesState) -> list[Any]:
    """Every card object of the state, where it lies."""
    out: list[Any] = []
    for side in state.sides.values():
        for zone in (side.deck, side.hand, side.energy, side.discard, side.arena, side.removed):
            out.extend(zone.cards)
        if side.character is not None:
            out.append(side.character)
    out.extend(strike.card for strike in state.strikes)
    return out


def test_passing_changes_no_card_so_the_snapshot_before_passes_may_share_them() -> None:
    """The snapshot taken before inferred passes shares the card objects (``copy(cards=False)``):
    passing (and what it sets going) must leave every existing card as it was."""
    from spec import load_game

    game: Any = load_game("epic_battles")
    advanced = 0
    for lines in _games():
        for state, _event, _raw in replay_states(lines):
            if state.stage != "turn" or not game._can_advance(state):
                continue
            trial = state.copy()
            before = [(card, card.uid, card.name, card.defn, card.owner, card.face_up) for card in _cards_of(trial)]
            try:
                game._advance(trial)
            except B.Unmodelled:
                continue
            advanced += 1
            assert [(card, card.uid, card.name, card.defn, card.owner, card.face_up) for card, *_ in before] == before
    assert advanced > 100
