"""Epic Battles: what the spec keeps to verify faster gives the answers it would work out afresh.

What the spec reads off a card database is kept in its catalog (``spec.epic_battles.catalog``):
abilities by kind, keywords, played text, triggers by moment, deck-construction answers.
The effects in force pass over an always-on ability with no step of the kind asked for
(when its condition can always be read), and the conflicts met skip the search when no
effect speaks of players. The game runs per node only the checks that can fail there, asks
for conflicts only when its conflicts clock moved, and reads a card's deck-construction answers
together. Each test pins one of these against the plain reading.
"""

from __future__ import annotations

import re
from functools import cache
from types import MethodType
from typing import Any

import pytest

from grammar import ast as A
from grammar import epic_battles_nodes as N
from spec.core.cards import CardDatabase, shipped_database
from spec.epic_battles import board as B
from spec.epic_battles import conflicts as EC
from spec.epic_battles.corpus import play, replay_states
from spec.epic_battles.state import EpicBattlesState, Lasting, Occurrence
from tests.staging import Staging, agrees_with_every_check

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


# ---------------------------------------------------------------- answers kept per state, checked at every look-up

def _triggered_afresh(state: EpicBattlesState, event: str) -> bool:
    """Whether a character in play has a triggered ability on ``event``, read from the card text."""
    return any(side.character is not None and side.character.name is not None
               and any(a.trigger.event == event for a in B.text_of(state, side.character.name).abilities if isinstance(a, A.Triggered))
               for side in state.sides.values())


def _speaks_afresh(state: EpicBattlesState) -> bool:
    """Whether a lasting change or a character in play may say what a player can or can't do (plain reading)."""
    if any(isinstance(lasting.step, (A.Prohibit, A.Permit)) for lasting in state.lasting):
        return True
    for side in state.sides.values():
        if side.character is None or side.character.name is None:
            continue
        for ability in B.text_of(state, side.character.name).abilities:
            if isinstance(ability, A.Passive) and (not B._always_readable(ability.condition)
                                                   or any(isinstance(s, (A.Prohibit, A.Permit)) for s in ability.effect)):
                return True
    return False


def _passives_by_player_afresh(state: EpicBattlesState, kind: type) -> dict[str, tuple[Any, ...]]:
    """Per player, the always-on abilities of their character holding a step of ``kind`` (or whose
    condition could fail to be read), from the card text."""
    out: dict[str, tuple[Any, ...]] = {}
    for player, side in state.sides.items():
        if side.character is None or side.character.name is None:
            continue
        found = tuple(a for a in B.text_of(state, side.character.name).abilities if isinstance(a, A.Passive)
                      and (any(isinstance(step, kind) for step in a.effect) or not B._always_readable(a.condition)))
        if found:
            out[player] = found
    return out


@pytest.mark.interpreted  # patches the spec's Python functions (tests/conftest.py)
def test_kept_answers_are_those_worked_out_afresh_at_every_look_up(monkeypatch: Any) -> None:
    """Along the shipped replays, every look-up of what is kept per state (``state.by_characters``:
    the always-on steps of a kind, the always-on steps without conditions per aggressor, the
    moments watched, who may speak of players) and per card (its own steps as printed) gives
    what the plain reading gives; the records of a step beginning or ending, made once
    (``STEP_MOMENTS``), are those ``occur`` would make."""
    from pathlib import Path

    from spec.epic_battles.game import EpicBattles
    from verifier.verify import verify_file

    looked: dict[str, int] = {"in_force": 0, "by_player": 0, "steady": 0, "moment": 0, "step": 0, "speaks": 0, "own": 0}
    in_force, occur, may_speak, own_steps = B.in_force, EpicBattles.occur, EC._may_speak, B.own_steps

    def checked_in_force(state: EpicBattlesState, kind: type) -> Any:
        found = list(in_force(state, kind))
        assert found == in_force_afresh(state, kind), f"stale in_force({kind.__name__})"
        kept = state.by_characters.get((B.BY_PLAYER, kind))
        if kept is not None:  # the always-on abilities read per player: those of each character, read afresh
            assert kept == _passives_by_player_afresh(state, kind), f"stale always-on abilities by player ({kind.__name__})"
            looked["by_player"] += 1
        steady = state.by_characters.get((B.STEADY, kind, state.aggressor))
        if steady is not None and steady is not False:  # the always-on steps kept: those read afresh after the lasting ones
            lasting = [x for x in state.lasting if isinstance(x.step, kind)]
            assert list(steady) == in_force_afresh(state, kind)[len(lasting):], f"stale always-on steps ({kind.__name__})"
            looked["steady"] += 1
        looked["in_force"] += 1
        return found

    def checked_occur(self: Any, state: EpicBattlesState, event: str, *args: Any, **kwargs: Any) -> None:
        kept = state.by_characters.get(event)
        if kept is not None:
            assert kept == _triggered_afresh(state, event), f"stale moment {event}"
            looked["moment"] += 1
        occur(self, state, event, *args, **kwargs)

    step_moment = EpicBattles._step_moment

    def checked_step_moment(self: Any, state: EpicBattlesState, event: str, occ: Occurrence) -> None:
        kept = state.by_characters.get(event)
        if kept is not None:
            assert kept == _triggered_afresh(state, event), f"stale moment {event}"
            looked["step"] += 1
        before = len(state.recent)
        step_moment(self, state, event, occ)
        # the record occur would make, for the step being entered or left (STEP_BEGINS, STEP_ENDS)
        assert state.recent[before] == Occurrence(event, None, None, None, (), state.node.capitalize())

    def checked_may_speak(state: EpicBattlesState) -> bool:
        found = may_speak(state)
        assert found == _speaks_afresh(state)
        looked["speaks"] += 1
        return found

    def checked_own_steps(state: EpicBattlesState, name: str, player: str, variables: dict[str, object]) -> Any:
        found = tuple(own_steps(state, name, player, variables))
        assert found == tuple(B._own_steps(state, name, player, variables)), f"stale own steps of {name}"
        looked["own"] += 1
        return found

    monkeypatch.setattr(B, "in_force", checked_in_force)
    monkeypatch.setattr(EpicBattles, "occur", checked_occur)
    monkeypatch.setattr(EpicBattles, "_step_moment", checked_step_moment)
    monkeypatch.setattr(EC, "_may_speak", checked_may_speak)
    monkeypatch.setattr(B, "own_steps", checked_own_steps)
    root = Path(__file__).resolve().parents[1] / "replays" / "epic_battles"
    replays = sorted(root.glob("*/*.jsonl"))
    assert replays
    for path in replays:
        verify_file(path, keep_going=True)
    assert all(n > 0 for n in looked.values()), looked


def test_showing_a_character_forgets_what_was_kept_of_the_characters() -> None:
    """``state.by_characters`` is emptied when a character is shown, and a copy starts afresh."""
    lines = _games()[0]
    for state, event, raw in replay_states(lines):
        if raw["do"] == "character":
            state.by_characters["phase_begins"] = True  # a stale answer the event must drop
            from spec import load_game

            load_game("epic_battles").apply(state, event)
            assert "phase_begins" not in state.by_characters
            break
    state = next(s for s, _e, _r in replay_states(lines) if s.stage == "turn")
    B.in_force(state, A.Modify)
    assert state.copy().by_characters == {}


def test_the_hidden_card_journals_are_dated_and_weighed_as_when_each_event_set_them() -> None:
    """Along played games: what the journals of hidden cards note is dated by the event that
    shows it (``state.seq``, set once per event rather than on every journal), and the flag that
    sends the journals to z3 (``state.marked``) is up whenever a journal holds a mark."""
    from spec import load_game

    game: Any = load_game("epic_battles")
    dated = 0
    for lines in _games():
        for state, event, _raw in replay_states(lines):
            trial = state.copy()
            journals = {p: (side.knowledge, side.knowledge.length) for p, side in trial.sides.items()}
            game.apply(trial, event)
            for player, side in trial.sides.items():
                knowledge, length = journals[player]
                if side.knowledge is knowledge:  # (not a fresh journal: the round did not end)
                    new = knowledge.observations()[length:]
                    assert all(o.seq == event.seq for o in new), (event, new)
                    dated += len(new)
            assert trial.marked or not any(side.knowledge.marks for side in trial.sides.values())
    assert dated > 100


@pytest.mark.interpreted  # patches the spec's Python functions (tests/conftest.py)
def test_a_card_shown_is_weighed_against_the_deck_as_can_reveal_says(monkeypatch: Any) -> None:
    """Along the shipped replays and played games, a card shown out of the unseen cards is found
    inconsistent exactly when ``B.can_reveal`` says the deck cannot hold another copy (the game
    reads its usual case, a registered deck with no card shown on top, at once; the usual draw
    weighs it in ``_do_draw`` itself, and only a copy too many goes through ``_identify``)."""
    from pathlib import Path

    from spec import load_game
    from spec.epic_battles.game import EpicBattles
    from verifier.verify import verify_file

    identify = EpicBattles._identify
    weighed = {"fits": 0, "not": 0, "draws": 0}

    def checked(self: Any, state: EpicBattlesState, side: Any, name: str, words: str, source: str, rulings: list[Any]) -> None:
        fits = B.can_reveal(state, side.name, name)
        before = len(rulings)
        identify(self, state, side, name, words, source, rulings)
        assert (len(rulings) == before) == fits, (side.name, name)
        weighed["fits" if fits else "not"] += 1

    do_draw = EpicBattles._do_draw

    def checked_draw(self: Any, state: EpicBattlesState, ev: Any) -> Any:
        side = state.sides.get(ev.by or "")
        usual = side is not None and ev.card is not None and not side.top and ev.card in state.cards.cards
        fits = usual and B.can_reveal(state, side.name, ev.card)
        rulings = do_draw(self, state, ev)
        if usual:  # the usual draw, weighed at once (or by _identify when the deck cannot hold another copy)
            refused = any("cannot hold another copy" in r.violation.message for r in rulings)
            assert refused == (not fits), (side.name, ev.card)
            weighed["draws"] += 1
        return rulings

    monkeypatch.setattr(EpicBattles, "_identify", checked)
    game: Any = load_game("epic_battles")  # (its handlers are bound once: the draw's is replaced in its table)
    monkeypatch.setitem(game._perform, "draw", MethodType(checked_draw, game))
    root = Path(__file__).resolve().parents[1] / "replays" / "epic_battles"
    for path in sorted(root.glob("*/*.jsonl")):
        verify_file(path, keep_going=True)
    for lines in _games():
        for state, event, _raw in replay_states(lines):
            game.apply(state.copy(), event)
    assert weighed["fits"] > 10 and weighed["not"] > 0 and weighed["draws"] > 100, weighed


# ---------------------------------------------------------------- checks per node, the conflicts clock

def _shipped_replays() -> list[Any]:
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "replays" / "epic_battles"
    replays = sorted(root.glob("*/*.jsonl"))
    assert replays
    return replays


@pytest.mark.interpreted  # patches the spec's Python functions (tests/conftest.py)
def test_the_checks_left_out_at_a_node_cannot_fail_there(monkeypatch: Any) -> None:
    """The game runs, per node (``state.node``), only the checks that can fail there
    (``actions.checks_at``, built from the registered checks and core ``fails_only``). Before
    every event of the shipped replays and played games, and for a draw and a pass by each
    player probed at every state of the played games: each check left out finds nothing, the
    checks run find what ``first_violation`` finds, and every check declared to fail only at
    some nodes is seen failing there (so it is run where it can fail)."""
    from spec.core.rules import FAILS_ONLY
    from spec.epic_battles import actions as X
    from spec.epic_battles import events as E
    from spec.epic_battles.game import FACTS, EpicBattles
    from verifier.verify import verify_file

    for action in X.BOOK.actions.values():  # every registered check runs at one node at least
        for check in action.checks:
            assert any(check in X.checks_at(action, node)[0] for node in X.NODES), check.name
    declared_tests = {test for test in FAILS_ONLY if test.__module__ == X.__name__}
    assert declared_tests <= {check.test for action in X.BOOK.actions.values() for check in action.checks}
    seen = Staging()

    def compare(state: EpicBattlesState, ev: Any, kind: str) -> None:
        action = X.BOOK.actions.get(kind)
        if action is None or state.node not in X.NODES:
            return
        checks, tests = FACTS[type(ev)].at_node[state.node]
        assert checks == X.checks_at(action, state.node)[0] and tests == tuple(c.test for c in checks)
        agrees_with_every_check(action, checks, state, ev, seen, state.node)

    apply_ = EpicBattles._apply

    def checked(self: Any, state: EpicBattlesState, ev: Any, kind: str, facts: Any = None) -> Any:
        compare(state, ev, kind)
        return apply_(self, state, ev, kind, facts)

    monkeypatch.setattr(EpicBattles, "_apply", checked)
    for path in _shipped_replays():
        verify_file(path, keep_going=True)
    for lines in _games():
        for state, _event, _raw in replay_states(lines):
            for player in state.players:
                compare(state, E.Draw(0, player, None), "draw")
                compare(state, E.Pass(0, player), "pass")
    assert seen.skipped > 1000 and seen.compared > 1000, seen
    declared = {test.__name__ for test in declared_tests}
    assert declared <= seen.found, declared - seen.found


@pytest.mark.interpreted  # patches the spec's Python functions (tests/conftest.py)
def test_the_conflicts_clock_moves_whenever_conflicts_met_could_find_something(monkeypatch: Any) -> None:
    """The verifier asks ``conflicts_met`` only after an event that moved ``state.conflicts_clock``
    (``EpicBattles.conflicts_stamp``). Along the shipped replays and played games, every event
    that changed what ``conflicts_met`` reads (the number of lasting changes, the round, the turn,
    the stage) or left settled clashes in ``state.notes`` moved it; and every report is the
    one made when it is asked after every event."""
    from spec.epic_battles.game import EpicBattles
    from verifier import verify as V

    apply_ = EpicBattles.apply
    moved = {"moved": 0, "still": 0}

    def key(state: EpicBattlesState) -> tuple[Any, ...]:
        return len(state.lasting), state.round, state.turn, state.stage

    def checked(self: Any, state: EpicBattlesState, event: Any) -> Any:
        before, clock = key(state), state.conflicts_clock
        rulings = apply_(self, state, event)
        if key(state) != before or state.notes:
            assert state.conflicts_clock != clock, event
        moved["moved" if state.conflicts_clock != clock else "still"] += 1
        return rulings

    monkeypatch.setattr(EpicBattles, "apply", checked)
    for path in _shipped_replays():
        gated = V.verify_file(path, keep_going=True)
        monkeypatch.setattr(EpicBattles, "conflicts_stamp", None)  # asked after every event
        assert V.verify_file(path, keep_going=True) == gated, path
        monkeypatch.setattr(EpicBattles, "conflicts_stamp", "conflicts_clock")
    for lines in _games():
        for _state, _event, _raw in replay_states(lines):  # (it applies each event itself)
            pass
    assert moved["moved"] > 10 and moved["still"] > moved["moved"], moved


def test_the_deck_facts_read_at_once_are_those_of_each_reading() -> None:
    """Deck construction reads a card's copy limit and Side Deck Only keyword together
    (``B.deck_limits``), and whether a character's deck may hold it by name and by game
    together (``B.deck_allows``): for every card of a fresh database and every character, each
    answer (kept or worked out) is what the separate readings give, or both fail alike."""
    cards = _database()
    state = EpicBattlesState(("alice", "bob"), {}, cards, False)
    characters = [d.name for d in cards if B.is_character(d)]

    def read(work: Any, *args: Any) -> Any:
        try:
            return work(*args)
        except B.Unmodelled as error:
            return ("unmodelled", str(error))

    def limits_apart(defn: Any) -> tuple[int, bool]:
        return B.copy_limit(state, defn), B.keyword(state, defn.name, "side_deck_only")

    def allows_apart(defn: Any, character: str) -> tuple[bool, bool]:
        return B.character_allows(state, defn, character), B.game_allows(state, defn, character)

    compared = 0
    for _twice in range(2):  # worked out, then kept
        for defn in cards:
            assert read(B.deck_limits, state, defn) == read(limits_apart, defn)
            for character in characters:
                assert read(B.deck_allows, state, defn, character) == read(allows_apart, defn, character)
                compared += 1
    assert compared > 100


# ---------------------------------------------------------------- the flow taken at once, stats and labels kept

def _reports_of_every_replay(folder: Any) -> list[bytes]:
    """The report (as JSON) of every shipped replay and of the played games (written to ``folder``),
    each verified with ``--keep-going``."""
    import msgspec

    from verifier.verify import verify_file

    played = []
    for number, lines in enumerate(_games()):
        path = folder / f"played{number}.jsonl"
        if not path.exists():
            path.write_bytes(b"\n".join(lines) + b"\n")
        played.append(path)
    return [msgspec.json.encode(verify_file(path, keep_going=True)) for path in [*_shipped_replays(), *played]]


@pytest.mark.interpreted  # patches the spec's Python functions (tests/conftest.py)
def test_the_flow_taken_at_once_gives_what_the_queued_flow_gives(monkeypatch: Any, tmp_path: Any) -> None:
    """With nothing queued or under way, ``EpicBattles._then`` carries on with the flow at once and
    ``EpicBattles.schedule`` begins an effect at once: every replay's report is the one given when
    each such step and effect is queued for ``_work`` instead (as before), and both are indeed
    taken at once (and queued) along the way."""
    from spec.epic_battles.game import EpicBattles
    from spec.epic_battles.state import Job

    taken = {"at once": 0, "queued": 0, "begun": 0, "scheduled": 0}
    then, schedule = EpicBattles._then, EpicBattles.schedule

    def counted_then(self: Any, state: EpicBattlesState, step: Any, *args: Any) -> None:
        queued = len(state.scheduled)
        then(self, state, step, *args)
        taken["queued" if len(state.scheduled) > queued else "at once"] += 1

    def counted_schedule(self: Any, state: EpicBattlesState, job: Job) -> None:
        queued = len(state.scheduled)
        schedule(self, state, job)
        taken["scheduled" if len(state.scheduled) > queued else "begun"] += 1

    monkeypatch.setattr(EpicBattles, "_then", counted_then)
    monkeypatch.setattr(EpicBattles, "schedule", counted_schedule)
    at_once = _reports_of_every_replay(tmp_path)

    def always_queued(self: Any, state: EpicBattlesState, step: Any, *args: Any) -> None:
        state.scheduled.append(Job("then", then=step.__name__, args=args))

    def always_scheduled(self: Any, state: EpicBattlesState, job: Job) -> None:
        state.scheduled.append(job)

    monkeypatch.setattr(EpicBattles, "_then", always_queued)
    monkeypatch.setattr(EpicBattles, "schedule", always_scheduled)
    assert _reports_of_every_replay(tmp_path) == at_once
    assert all(n > 10 for n in taken.values()) and taken["at once"] > 100, taken


@pytest.mark.interpreted  # patches the spec's Python functions (tests/conftest.py)
def test_stat_changes_and_moment_labels_kept_are_those_read_afresh(monkeypatch: Any, tmp_path: Any) -> None:
    """Along the shipped replays and played games, what ``B._modifiers`` adds to a stat (from the
    always-on changes kept per stat, ``B._stat_steps``) is the sum over every change in force read
    afresh, a card's cost (its own change kept per card, ``state.cat.own_cost``) is the one read
    afresh, and the labels of a moment (``B.moment_labels``, printed part kept per card) are the
    card's height and traits read afresh."""
    modifiers, moment_labels, price = B._modifiers, B.moment_labels, B.price
    looked = {"kept": 0, "read": 0, "labels": 0, "cost": 0}

    def modifiers_afresh(state: EpicBattlesState, stat: str, uid: int, defn: Any, owner: str) -> int:
        return sum(step.delta if isinstance(step.delta, int) else 0 for lasting, step in in_force_afresh(state, A.Modify)
                   if step.stat == stat and B.selects(state, lasting.controller, step.target, uid, defn, owner, lasting.this, lasting.that))

    def checked_modifiers(state: EpicBattlesState, stat: str, uid: int, defn: Any, owner: str) -> int:
        found = modifiers(state, stat, uid, defn, owner)
        assert found == modifiers_afresh(state, stat, uid, defn, owner), f"stale changes of {stat}"
        kept = state.by_characters.get((B.STAT_STEPS, stat, state.aggressor))
        looked["kept" if kept is not None and kept is not False else "read"] += 1
        return found

    def checked_labels(state: EpicBattlesState, uid: int, defn: Any, owner: str) -> tuple[str, ...]:
        found = moment_labels(state, uid, defn, owner)
        height = B.height(defn)
        assert found == tuple(([height] if height else []) + B.traits(state, uid, defn, owner)), f"stale labels of {defn.name}"
        looked["labels"] += 1
        return found

    def checked_price(state: EpicBattlesState, uid: int, name: str | None, defn: Any, owner: str,
                      variables: dict[str, object] | None = None) -> int:
        found = price(state, uid, name, defn, owner, variables)
        own = sum(step.delta for step in B._own_steps(state, name, owner, variables or {})
                  if isinstance(step, A.Modify) and isinstance(step.delta, int)) if name is not None else 0
        plain = B.printed(defn, "cost") + modifiers_afresh(state, "cost", uid, defn, owner) + own
        assert found == max(0, plain), f"stale cost of {name}"
        looked["cost"] += 1
        return found

    monkeypatch.setattr(B, "_modifiers", checked_modifiers)
    monkeypatch.setattr(B, "moment_labels", checked_labels)
    monkeypatch.setattr(B, "price", checked_price)  # (B.cost, and the flip's checks, read it)
    _reports_of_every_replay(tmp_path)
    assert looked["kept"] > 100 and looked["labels"] > 100 and looked["cost"] > 100, looked


@pytest.mark.interpreted  # patches the spec's Python functions (tests/conftest.py)
def test_what_the_checks_of_an_attack_or_flip_hand_on_is_what_carrying_it_out_finds_afresh(
        monkeypatch: Any, tmp_path: Any) -> None:
    """The checks of an attack or a flip keep what they find in ``state.Move`` for the move being
    carried out (``EpicBattles._apply``): along the shipped replays and played games, an attack's
    cost handed on is the cost ``_play_strike`` reads afresh, a flip's cards and moments are
    those ``_do_flip`` finds afresh, the costs its two checks share are those read afresh; and
    every report is the one given when nothing is handed on (each reading made afresh)."""
    from spec.epic_battles import actions as X
    from spec.epic_battles import game as G

    handed = {"price": 0, "found": 0, "moments": 0, "prices": 0}
    play_strike, do_flip, flip_prices = G.EpicBattles._play_strike, G.EpicBattles._do_flip, X.flip_prices

    def checked_play_strike(self: Any, state: EpicBattlesState, strike: Any, price: int | None = None) -> None:
        if price is not None:
            assert price == B.cost(state, strike.card, strike.attacker, {"combo": strike.position}), strike.card
            handed["price"] += 1
        play_strike(self, state, strike, price)

    def checked_do_flip(self: Any, state: EpicBattlesState, ev: Any) -> Any:
        move = state.move
        if move is not None and move.event is ev:
            player = ev.by or ""
            if move.found is not None:
                afresh = X.set_events(state, player, ev.cards)
                assert isinstance(afresh, list) and all(a is b for a, b in zip(move.found, afresh, strict=True)), ev
                handed["found"] += 1
            if move.moments is not None:
                afresh_moments = [X.flip_moment(state, player, name) for name in ev.cards]
                assert all(a is b or a == b for a, b in zip(move.moments, afresh_moments, strict=True)), ev
                handed["moments"] += 1
        return do_flip(self, state, ev)

    def checked_flip_prices(state: EpicBattlesState, ev: Any) -> list[int]:
        move = state.move
        kept = move is not None and move.event is ev and move.prices is not None
        found = flip_prices(state, ev)
        assert found == X._flip_costs(state, ev.by or "", ev.cards), ev
        handed["prices"] += kept
        return found

    monkeypatch.setattr(G.EpicBattles, "_play_strike", checked_play_strike)
    monkeypatch.setattr(G.EpicBattles, "_do_flip", checked_do_flip)
    from spec import load_game

    game = load_game("epic_battles")  # (the game loaded once: its handlers by kind were bound then)
    monkeypatch.setitem(game._perform, "flip", MethodType(checked_do_flip, game))  # type: ignore[attr-defined]
    monkeypatch.setattr(X, "flip_prices", checked_flip_prices)
    handed_on = _reports_of_every_replay(tmp_path)
    assert all(n > 10 for n in handed.values()), handed
    monkeypatch.undo()
    for facts in G.FACTS.values():  # nothing handed on: each check and the move read afresh
        monkeypatch.setattr(facts, "per_move", False)
    assert _reports_of_every_replay(tmp_path) == handed_on


def test_the_shared_list_of_no_rulings_stays_empty_along_the_replays() -> None:
    """A move that finds nothing returns ``NO_RULINGS`` rather than a list of its own: nothing
    may add to it (whoever adds rulings makes a new list), or a later move would report them."""
    from pathlib import Path

    from spec.epic_battles.game import NO_RULINGS
    from verifier.verify import verify_file

    root = Path(__file__).resolve().parents[1] / "replays" / "epic_battles"
    paths = sorted(root.glob("*/*.jsonl"))
    assert paths
    for path in paths:
        verify_file(path, keep_going=True)
        assert NO_RULINGS == [], path


# ====================================================================== constructors written out for mypyc


def _written_out_met(state: EpicBattlesState) -> dict[type, list[Any]]:
    """The objects of the dataclasses of spec.epic_battles.state with a written-out ``__init__`` in ``state``."""
    from spec.epic_battles.state import Side, Strike

    return {EpicBattlesState: [state], Side: list(state.sides.values()), Strike: list(state.strikes)}


def test_constructors_written_out_take_each_field_as_the_generated_one_would() -> None:
    """The state's dataclasses with a written-out ``__init__`` (the generated one stays interpreted
    when compiled): each object met along the shipped replays, made again from its fields by keyword
    and by position, has the same fields; made from its required fields alone, the declared defaults,
    and the fields left out of ``__init__`` set: the catalog of the cards, nothing worked out from the
    characters yet, no move (tests/written_out.py)."""
    from spec.epic_battles.catalog import catalog
    from tests.written_out import check_along_shipped, defaults_as_declared

    def left_out(made: Any, name: str) -> Any:
        return catalog(made.cards) if name == "cat" else None  # by_characters and move: their declared defaults

    first = check_along_shipped("epic_battles", _written_out_met)
    assert len(first) == 3, sorted(c.__name__ for c in first)
    for cls, obj in first.items():
        defaults_as_declared(cls, obj, stamps=frozenset({"conflicts_clock"}), left_out=left_out if cls is EpicBattlesState else None)
