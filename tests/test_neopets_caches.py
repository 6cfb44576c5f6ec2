"""The Neopets caches never go stale: what they hold is what working it out afresh gives.

The board (what is in play, spec.neopets.board) is worked out again only when
``state.play_version`` moves; every event that moves a card into or out of a play zone
must move it. These tests replay every shipped Neopets replay (to the end, through
illegal moves) and compare the cached board with a fresh one at every lookup. Likewise
clashes of effects are looked for again only when ``state.changes`` moves: at every
look-up where it did not, what decides the effects in force must not have changed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spec.neopets import board as B
from verifier.verify import verify_file

ROOT = Path(__file__).resolve().parents[1]
REPLAYS = sorted((ROOT / "replays" / "neopets").glob("*/*.jsonl"))


def _ids(cards: list[tuple[str, Any]]) -> list[tuple[str, int, str | None]]:
    return [(player, card.uid, card.name) for player, card in cards]


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_cached_board_is_the_board(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    original = B._board
    looked = 0

    def checked(state: Any) -> Any:
        nonlocal looked
        looked += 1
        board = original(state)
        assert _ids(board.cards) == _ids(B.arrangement(state)), f"stale board at lookup {looked}"
        return board

    monkeypatch.setattr(B, "_board", checked)
    report = verify_file(path, keep_going=True)
    assert report.events > 0


def test_a_card_leaving_play_refreshes_the_board() -> None:
    """Removing a card from play moves the play version, so the board forgets it."""
    from spec.neopets.game import Neopets
    from tests.test_neopets_checks import in_play, preparation, state_where

    state = state_where(preparation)
    side = state.sides[state.active]
    collar = in_play(state, state.active, "Muffling Collar")
    side.equipment.append(collar)
    state.enter_play(collar)
    assert any(card is collar for _p, card in B.in_play(state))
    Neopets().remove_from_play(state, collar, "Discard")
    assert all(card is not collar for _p, card in B.in_play(state))


@pytest.mark.interpreted  # patches the spec's Python functions (tests/conftest.py)
@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_change_counter_moves_with_what_decides_the_effects_in_force(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """conflicts_met looks for clashes again only when ``state.changes`` moved: between two
    look-ups where it did not, who is active, what is in play, the lasting effects and
    the damage dealt are the same."""
    from spec.neopets import conflicts as NC

    original = NC.conflicts_met
    last: dict[int, tuple[int, tuple[Any, ...]]] = {}
    looked = 0

    def checked(state: Any, memo: dict[str, Any]) -> Any:
        nonlocal looked
        looked += 1
        facts = (state.active, state.play_version, state.next_order, len(state.lasting), len(state.damage_log),
                 [vars(x) for x in state.lasting])
        before = last.get(id(memo))
        if before is not None and before[0] == state.changes:
            assert before[1] == facts, f"the effects in force changed without state.changes at look-up {looked}"
        last[id(memo)] = (state.changes, facts)
        return original(state, memo)

    monkeypatch.setattr(NC, "conflicts_met", checked)
    from spec.neopets.game import Neopets

    monkeypatch.setattr(Neopets, "conflicts_met", staticmethod(checked))
    report = verify_file(path, keep_going=True)
    assert report.events > 0


def test_a_board_is_taken_again_when_the_turn_comes_back_to_the_same_cards() -> None:
    """The board before the current one is kept; it serves again only for the same
    active player and the same cards in play."""
    from tests.test_neopets_checks import in_play, preparation, state_where

    state = state_where(preparation)
    first = B._board(state)
    active, other = state.active, state.nonactive
    state.active = other
    turned = B._board(state)
    assert turned is not first and _ids(turned.cards) == _ids(B.arrangement(state))
    state.active = active
    assert B._board(state) is first  # the turn came back, nothing entered or left play
    collar = in_play(state, active, "Muffling Collar")
    state.sides[active].equipment.append(collar)
    state.enter_play(collar)
    state.active = other
    state.active = active
    again = B._board(state)
    assert again is not first and any(card is collar for _p, card in again.cards)


@pytest.mark.parametrize("seed", [3, 11])
def test_legal_moves_screened_by_the_checks_are_the_moves_apply_accepts(seed: int) -> None:
    """legal_moves refuses a candidate breaking a precondition without trying it on a
    copy; what it keeps must be exactly the candidates that apply accepts."""
    import random

    from spec import load_game
    from spec.core.cards import CardDatabase, shipped_database
    from spec.core.game import Setup
    from spec.neopets.game import REFUSED

    game: Any = load_game("neopets")
    cards = CardDatabase.load(shipped_database("neopets", "base"), "neopets")
    rng = random.Random(seed)
    decks = {p: game.random_deck(cards, rng) for p in ("alice", "bob")}
    state = game.setup(Setup(("alice", "bob"), decks, {"passes": "explicit"}, cards))
    compared = 0
    for step in range(400):
        candidates = game._candidates(state, random.Random(step))
        accepted = [m for m in candidates
                    if not any(r.violation.severity in REFUSED for r in game.apply(state.copy(), m))]
        legal = game.legal_moves(state, random.Random(step))
        assert legal == accepted, f"step {step}"
        compared += len(candidates)
        if not legal or state.stage == "over":
            break
        game.apply(state, rng.choice(legal))
    assert compared > 1000


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_resolved_card_put_away_keeps_the_board(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card that resolves and goes on to the Discard or the Void is stamped (the change
    count moves) but takes no place in play: the play version, and so the board, stay;
    a card that takes a place in play moves the play version."""
    from spec.neopets.game import Neopets

    original = Neopets._settle_card

    def checked(self: Any, state: Any, res: Any) -> None:
        before = (state.play_version, state.changes, _ids(B.arrangement(state)))
        original(self, state, res)
        owner = state.sides[res.source.owner]
        assert state.changes > before[1]
        if any(card is res.source for card in owner.discard.cards + owner.void.cards):
            assert state.play_version == before[0], "a card put away moved the play version"
            assert _ids(B.arrangement(state)) == before[2]
        else:
            assert state.play_version > before[0], "a card placed in play left the play version"

    monkeypatch.setattr(Neopets, "_settle_card", checked)
    report = verify_file(path, keep_going=True)
    assert report.events > 0
