"""Bakugan: what the spec keeps or shares to verify faster gives the answers it would work out afresh.

The spec reads each card's abilities once per card database (by kind, and its triggered
ones by event), the steps a played card selects for and their slots once per steps; the
four checks of a play's selections share one reading of them; the conflicts met after each
event compare a key of what is in play (the BakuCores held only where they can change an
effect in force), and the effects in force are read from the abilities that can make one.
Each test pins one of these against the plain reading, along the replays of ``replays/bakugan``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from grammar import ast as A
from grammar import bakugan_nodes as K
from spec import load_game
from spec.bakugan import actions as X
from spec.bakugan import board as B
from spec.bakugan import conflicts as BC
from spec.bakugan import events as E
from spec.bakugan import game as G
from spec.bakugan import targets as T
from spec.bakugan.state import BakuganState
from spec.core.cards import CardDatabase, shipped_database
from spec.core.findings import Violation
from spec.core.game import Setup
from spec.core.rules import FAILS_ONLY, can_fail_in
from tests.staging import Staging, agrees_with_every_check
from verifier.replay import read
from verifier.report import to_json
from verifier.verify import Verifier, _decoder_for

GAME: Any = load_game("bakugan")
REPLAYS = sorted(Path("replays/bakugan").glob("*/*.jsonl"))
KINDS = (A.Triggered, A.Activated, A.Keyword, K.Rider, A.Passive, (A.Passive, K.CoreStatic, K.Rider))


class _Watch(Verifier):
    """A verifier that shows each state to ``see``, before (``True``) and after (``False``) each event."""

    def __init__(self, see: Callable[[BakuganState, Any, bool], None]) -> None:
        super().__init__(keep_going=True)
        self.see = see

    def visit(self, event: Any, line: int) -> bool:
        if self.state is not None:
            self.see(self.state, event, True)
        going = super().visit(event, line)
        if self.state is not None:
            self.see(self.state, event, False)
        return going


def along_replays(see: Callable[[BakuganState, Any, bool], None], paths: list[Path] | None = None) -> None:
    for path in REPLAYS if paths is None else paths:
        read(path, _Watch(see), _decoder_for)


def _database() -> CardDatabase:
    """A database of its own (not the shared one), so that what is read off it starts empty."""
    return CardDatabase.load(shipped_database("bakugan", "base"), "bakugan")


def test_abilities_triggers_and_played_steps_are_what_the_text_says() -> None:
    cards = _database()
    state = BakuganState(("alice", "bob"), {}, cards, False)
    for defn in cards:
        try:
            text = B.text_of(state, defn.name)
        except B.Unmodelled:
            continue
        for kind in KINDS:
            assert B.abilities(state, defn.name, kind) == tuple(a for a in text.abilities if isinstance(a, kind))
        for event in ("opens", "played", "played_on", "dealt_damage", "turn_ends"):
            assert B.triggers(state, defn.name, event) == tuple(
                a for a in text.abilities if isinstance(a, A.Triggered) and a.trigger.event == event)
            assert B.triggers_by_event(state, defn.name).get(event, ()) == B.triggers(state, defn.name, event)
        assert all(B.triggers_by_event(state, defn.name).values())  # an event no ability watches is left out
        steps: tuple[Any, ...] = ()
        for ability in text.abilities:
            if isinstance(ability, A.Spell) or isinstance(ability, K.Rider) and defn.type in ("Action", "Flip"):
                steps += ability.effect
        assert X.played_steps(state, defn.name) == steps
        kept = X.played_steps(state, defn.name)
        walked: list[T.Slot] = []
        T._walk(kept, (), walked)
        assert T.slots_of(kept) == walked
        assert T.slots_of(kept) == walked  # the second time from what was kept


def test_the_selection_checks_of_a_play_give_what_a_fresh_reading_gives() -> None:
    seen = {"plays": 0}

    def see(state: BakuganState, event: Any, before: bool) -> None:
        if not before or not isinstance(event, E.Play):
            return
        try:
            fresh = X._selections_violation(state, event)
        except (B.Unmodelled, Exception):  # noqa: BLE001 - a card the spec cannot read: nothing to compare
            return
        seen["plays"] += 1
        for check, rule in ((X.play_has_selection, "1.13.1.p2"), (X.play_selections_made, "1.13.1.p1"),
                            (X.play_face_up_target, "1.13.1.2"), (X.play_targets_legal, "6.2.1.2")):
            assert check(state, event) == (fresh[1] if fresh is not None and fresh[0] == rule else None)

    along_replays(see)
    assert seen["plays"]


def test_the_later_selection_checks_read_afresh_for_another_state_or_event() -> None:
    cards = _database()
    state = GAME.setup(Setup(("alice", "bob"), {}, {}, cards))
    name = next(d.name for d in cards if d.type == "Action" and T.slots_of(X.played_steps(state, d.name)))
    first, second = E.Play(1, "alice", name), E.Play(1, "alice", name)

    def afresh(state: BakuganState, play: E.Play) -> Violation | None:
        found = X._selections_violation(state, play)
        return found[1] if found is not None and found[0] == "6.2.1.2" else None

    stale = ("6.2.1.2", Violation("what a stale reading would say"))
    X.play_has_selection(state, first)
    X._Selections.last = (state, first, stale, None)
    assert X.play_targets_legal(state, second) == afresh(state, second)
    other = GAME.setup(Setup(("alice", "bob"), {}, {}, cards))
    X._Selections.last = (state, first, stale, None)
    assert X.play_targets_legal(other, first) == afresh(other, first)
    X._Selections.last = (state, first, stale, None)
    assert X.play_targets_legal(state, first) == stale[1]  # the same play of the same state: what the first check found


def _holding_counts(state: BakuganState, name: str | None) -> bool:
    """A card with a BakuCore static that makes a can, a can't or an immunity (an unreadable text counts)."""
    if name is None:
        return False
    try:
        text = B.text_of(state, name)
    except B.Unmodelled:
        return True
    return any(isinstance(a, K.CoreStatic) and any(isinstance(s, BC.PRODUCES) for s in a.effect) for a in text.abilities)


def test_the_key_of_what_is_in_play_changes_exactly_when_the_plain_one_does() -> None:
    def plain(state: BakuganState) -> Any:
        return (tuple((p, b.name, b.top.uid, tuple(b.holding) if _holding_counts(state, b.top.name) else ())
                      for p in state.players for b in state.sides[p].team.values()),
                tuple(h.uid for p in state.players for h in state.sides[p].heroes),
                tuple((x.player, x.bakugan, x.stat, x.amount) for x in state.lasting if x.base))

    last: list[Any] = []

    def see(state: BakuganState, _event: Any, before: bool) -> None:
        if before:
            return
        now = (plain(state), BC.in_play_key(state))
        if last:
            assert (last[0][0] == now[0]) == (last[0][1] == now[1])
        last[:] = [now]

    along_replays(see)


def test_an_unchanged_stamp_of_what_is_in_play_means_an_unchanged_key(paths: list[Path] | None = None) -> None:
    """Whenever the ``in_play`` stamp is what it was, the conflicts' key of what is in play is too."""
    last: list[Any] = []
    seen = {"same": 0, "changed": 0}

    def see(state: BakuganState, _event: Any, before: bool) -> None:
        now = (state, state.in_play, BC.in_play_key(state))
        if last and last[0][0] is state and last[0][1] == now[1]:
            assert last[0][2] == now[2]
            seen["same"] += 1
        elif last and last[0][0] is state:
            seen["changed"] += 1
        last[:] = [now]

    along_replays(see, paths)
    assert seen["same"] and seen["changed"]


def test_an_unchanged_key_of_what_is_in_play_means_unchanged_effects(paths: list[Path] | None = None) -> None:
    """Whenever the conflicts' key of what is in play is what it was and no effect in force has a condition,
    the effects in force are those of the last state: the BakuCores the key leaves out change none."""
    last: list[Any] = []
    seen = {"same": 0, "held": 0}

    def ids(state: BakuganState) -> Any:
        memo: dict[str, Any] = {}
        try:
            return frozenset(e.id for e in BC.effects_in_force(state, memo)), memo  # what conflicts_met compares
        except B.Unmodelled:
            return None, memo

    def see(state: BakuganState, _event: Any, before: bool) -> None:
        if before:
            return
        now = (state, BC.in_play_key(state), ids(state), [tuple(b.holding) for s in state.sides.values() for b in s.team.values()])
        if last and last[0][0] is state and last[0][1] == now[1] and not now[2][1] and not last[0][2][1]:
            assert last[0][2][0] == now[2][0]
            seen["same"] += 1
            seen["held"] += last[0][3] != now[3]
        last[:] = [now]

    along_replays(see, paths)
    assert seen["same"] and seen["held"]


def test_copies_and_new_states_take_stamps_of_their_own() -> None:
    state = GAME.setup(Setup(("alice", "bob"), {}, {}, _database()))
    copy = state.copy()
    assert copy.in_play != state.in_play
    before = state.in_play
    state.in_play_changed()
    assert state.in_play not in (before, copy.in_play)


@pytest.mark.interpreted  # puts its own function in place of the spec's (tests/conftest.py)
def test_the_index_of_triggered_abilities_is_the_plain_scan(monkeypatch: pytest.MonkeyPatch, paths: list[Path] | None = None) -> None:
    """At every lookup the index gives what scanning the working sources gives afresh."""
    kept = G._watchers
    seen = {"lookups": 0, "firing": 0}

    def compared(state: BakuganState, event: str) -> Any:
        found = kept(state, event)
        try:
            plain = tuple((c, s, b, t) for c, s, b in B.working_sources(state) if (t := B.triggers(state, s.name, event)))
        except B.Unmodelled:
            assert found is None
            return found
        assert found == plain
        assert all(f[1] is p[1] and f[2] is p[2] for f, p in zip(found, plain, strict=True))  # the very cards and Bakugan
        seen["lookups"] += 1
        seen["firing"] += bool(found)
        return found

    monkeypatch.setattr(G, "_watchers", compared)
    along_replays(lambda *_: None, paths)
    assert seen["lookups"] and seen["firing"]


def _plain_statics(state: BakuganState) -> list[Any]:
    """The always-on abilities in play, read from each card's whole text (what ``BC._statics`` gives)."""
    out: list[Any] = []
    for player, bak in B.all_bakugan(state):
        top = bak.top
        if top.name is None:
            continue
        held = {state.field_cores[s][0] for s in bak.holding if s in state.field_cores}
        key, own = f"{top.name}#{top.uid}", (player, bak.name)
        for index, ability in enumerate(B.text_of(state, top.name).abilities):
            if isinstance(ability, K.CoreStatic):
                if held & set(ability.cores):
                    out.append((player, top.name, key, index, ability, own, ability.effect, None))
            elif isinstance(ability, A.Passive) or isinstance(ability, K.Rider) and ability.keyword != "Victor" and ability.trigger is None:
                out.append((player, top.name, key, index, ability, own, ability.effect, ability.condition))
            elif isinstance(ability, A.Keyword) and ability.name == BC.REROLL_KEYWORD:
                out.append((player, top.name, key, index, ability, own, (), None))
    for player in state.players:
        for hero in state.sides[player].heroes:
            if hero.name is None:
                continue
            for index, ability in enumerate(B.text_of(state, hero.name).abilities):
                if isinstance(ability, A.Passive):
                    out.append((player, hero.name, f"{hero.name}#{hero.uid}", index, ability, None, ability.effect, ability.condition))
    return out


def test_the_always_on_abilities_are_read_as_from_the_whole_text(paths: list[Path] | None = None) -> None:
    """At every state along the replays, the abilities read once per card give the statics a full reading gives."""
    seen = {"found": 0}

    def see(state: BakuganState, _event: Any, before: bool) -> None:
        try:
            plain = _plain_statics(state)
        except B.Unmodelled:
            with pytest.raises(B.Unmodelled):
                list(BC._statics(state))
            return
        assert list(BC._statics(state)) == plain
        seen["found"] += bool(plain)

    along_replays(see, paths)
    assert seen["found"]


def _plain_effects(state: BakuganState, memo: dict[str, Any]) -> list[Any]:
    """The effects in force read from every always-on ability :func:`BC._statics` finds (what ``BC.effects_in_force`` gives)."""
    out: list[Any] = []
    for player, name, key, index, ability, own, steps, condition in BC._statics(state):
        source = f"{name} ({player})"
        if isinstance(ability, A.Keyword):
            assert own is not None
            who = BC.subject(*own)
            out.append(BC.Effect(f"{key}/reroll>{who}", "can", who, BC.REROLL, 0, source, "card", player, key,
                                 text=f"{who} may be rerolled after a missed roll"))
            continue
        wanted = [step for step in steps if isinstance(step, BC.PRODUCES)]
        if not wanted:
            continue
        if condition is not None:
            memo["conditional"] = True
            try:
                if not B.condition_holds(state, player, condition, {"self": own}):
                    continue
            except B.Unmodelled:
                continue
        for number, step in enumerate(wanted):
            out.extend(BC._step_effects(state, player, source, key, own, f"{key}/{index}.{number}", step))
    for number, change in enumerate(state.lasting):
        if change.base:
            who = BC.subject(change.player, change.bakugan)
            out.append(BC.Effect(f"lasting{number}>{who}|{change.stat}", "set_base", who, change.stat, change.amount,
                                 change.source or "an effect", "card", None, None, (), None, False, False, None,
                                 f"the base {change.stat} of {who} is {change.amount} this turn"))
    return out


def test_the_effects_in_force_skip_only_abilities_that_make_none(paths: list[Path] | None = None) -> None:
    """At every state along the replays, the effects read from the abilities that can make one are those
    read from every always-on ability, and a condition is met exactly when it is met there."""
    seen = {"effects": 0}

    def see(state: BakuganState, _event: Any, before: bool) -> None:
        plain_memo: dict[str, Any] = {}
        memo: dict[str, Any] = {}
        try:
            plain = _plain_effects(state, plain_memo)
        except B.Unmodelled:
            with pytest.raises(B.Unmodelled):
                BC.effects_in_force(state, memo)
            return
        assert BC.effects_in_force(state, memo) == plain
        assert memo == plain_memo
        seen["effects"] += bool(plain)

    along_replays(see, paths)
    assert seen["effects"]


def _plain_raw_stat(state: BakuganState, player: str, bak: Any, stat: str) -> int:
    """A Bakugan's stat read step by step from every static that can touch it (what ``B.raw_stat`` gives)."""
    defn = bak.top.defn
    value = defn.stat(B.BASE_KEY[stat]) if defn is not None and stat in B.BASE_KEY else 0
    for change in state.lasting:
        if change.base and change.player == player and change.bakugan == bak.name and change.stat == stat and change.uid == bak.character.uid:
            value = change.amount
    if stat in B.BASE_KEY:
        index = 0 if stat == "BPower" else 1
        for slot in bak.holding:
            value += B.CORE_BONUS.get(state.field_cores.get(slot, ("", ""))[0], (0, 0))[index]
    held = {state.field_cores[s][0] for s in bak.holding if s in state.field_cores}
    statics: list[tuple[Any, Any, str, bool]] = []
    for ability in B.abilities(state, bak.top.name, (A.Passive, K.CoreStatic, K.Rider)):
        if isinstance(ability, K.CoreStatic):
            if held & set(ability.cores):
                statics += [(step, None, player, True) for step in ability.effect]
        elif isinstance(ability, A.Passive) or ability.keyword != "Victor" and ability.trigger is None:
            statics += [(step, ability.condition, player, True) for step in ability.effect]
    for controller in state.players:
        for hero in state.sides[controller].heroes:
            for ability in B.abilities(state, hero.name, A.Passive):
                statics += [(step, ability.condition, controller, False) for step in ability.effect]
    for step, condition, controller, own in statics:
        if not isinstance(step, A.Modify) or step.stat != stat:
            continue
        applies = B._own(step.target) if own else (
            step.target.quantifier == "all" and B.bakugan_matches(state, controller, step.target, player, bak))
        if applies and (condition is None or B.condition_holds(state, controller, condition, {"self": (player, bak.name)})):
            value += B.amount(step.delta, {})
    for change in state.lasting:
        if not change.base and change.player == player and change.bakugan == bak.name and change.stat == stat and change.uid == bak.character.uid:
            value += change.amount
    return value


def test_stats_read_from_the_changes_kept_per_card_are_the_plain_reading(paths: list[Path] | None = None) -> None:
    """Every stat of every Bakugan, at every state along the replays, is what reading every static afresh gives."""
    seen = {"changed": 0}

    def see(state: BakuganState, _event: Any, before: bool) -> None:
        for player, bak in B.all_bakugan(state):
            plains: list[int] = []
            raised = False
            for stat in B.STATS:
                try:
                    plain = _plain_raw_stat(state, player, bak, stat)
                except B.Unmodelled as error:
                    with pytest.raises(B.Unmodelled, match=re.escape(str(error))):
                        B.raw_stat(state, player, bak, stat)
                    if not raised:  # several read at once raise what the first read alone to raise raises
                        with pytest.raises(B.Unmodelled, match=re.escape(str(error))):
                            B.stats(state, player, bak, B.STATS)
                    raised = True
                    continue
                assert B.raw_stat(state, player, bak, stat) == plain
                plains.append(plain)
                printed = bak.top.defn.stat(B.BASE_KEY[stat]) if bak.top.defn is not None and stat in B.BASE_KEY else 0
                seen["changed"] += plain != printed
            if not raised:  # several stats read at once: each as read alone
                assert B.stats(state, player, bak, B.STATS) == [max(0, p) for p in plains]

    along_replays(see, paths)
    assert seen["changed"]


def _meaning(obj: Any) -> Any:
    """What a selection means, comparable from one run to another (a card by its uid, a batch entry by its card)."""
    if hasattr(obj, "uid"):
        return ("card", obj.uid, obj.name)
    if hasattr(obj, "source"):
        return ("entry", obj.controller, getattr(obj.source, "uid", None))
    return obj


@pytest.mark.interpreted  # puts its own function in place of the spec's (tests/conftest.py)
def test_a_play_takes_from_its_checks_what_working_it_out_afresh_gives(monkeypatch: pytest.MonkeyPatch,
                                                                      paths: list[Path] | None = None) -> None:
    """At every lookup, the cost and the meaning of the selections the checks of a play found are the plain ones."""
    kept = X.checked_play
    seen = {"costs": 0, "selections": 0}

    def compared(state: BakuganState, ev: Any, free: bool) -> Any:
        cost, objects = kept(state, ev, free)
        defn = state.cards[ev.card]
        assert cost is not None
        assert cost == B.cost_to_pay(state, ev.by or "", defn, ev.x, free)
        seen["costs"] += 1
        if defn.type in ("Action", "Flip"):
            assert objects is not None
            slots = T.slots_of(X.played_steps(state, ev.card))
            plain = T.resolve_all(state, ev.by or "", slots, ev.targets)
            assert [_meaning(o) for o in objects] == [_meaning(o) for o in plain]
            assert all(o is p or o == p for o, p in zip(objects, plain, strict=True))
            seen["selections"] += bool(plain)
        return cost, objects

    monkeypatch.setattr(X, "checked_play", compared)
    along_replays(lambda *_: None, paths)
    assert seen["costs"] and seen["selections"]


@pytest.mark.interpreted  # puts its own function in place of the spec's (tests/conftest.py)
def test_a_play_reusing_its_checks_queues_what_the_plain_play_queues(monkeypatch: pytest.MonkeyPatch,
                                                                    paths: list[Path] | None = None) -> None:
    """The whole replays give the same reports and queue the same plays (selections worked out after the card
    left the hand and the Energy was paid) whether a play reuses what its checks found or works it out again."""

    def run() -> tuple[list[Any], list[Any]]:
        queued: list[Any] = []
        fire = G.Bakugan._fire_played

        def record(self: Any, state: BakuganState, player: str, card: Any, item: Any) -> None:
            targets = item.context.get("targets", {})
            queued.append((player, card.uid, sorted((str(k), _meaning(v)) for k, v in targets.items()),
                           [(s.name, s.pool, [e.charged for e in s.energy]) for s in state.sides.values()]))
            fire(self, state, player, card, item)

        with monkeypatch.context() as patch:
            patch.setattr(G.Bakugan, "_fire_played", record)
            reports = []
            for path in REPLAYS if paths is None else paths:
                verifier = Verifier(keep_going=True)
                read(path, verifier, _decoder_for)
                reports.append(to_json(verifier.result()))
        return reports, queued

    reused = run()
    monkeypatch.setattr(X, "checked_play", lambda state, ev, free: (None, None))
    plain = run()
    assert reused == plain
    assert any(q[2] for q in reused[1])


def test_factions_kept_per_card_are_the_plain_reading(paths: list[Path] | None = None) -> None:
    """At every lookup along the replays, the Factions kept per card are what reading its icons and keywords gives."""
    seen = {"lookups": 0}

    def plain(state: BakuganState, defn: Any) -> frozenset[str]:
        try:
            if any(a.name == "all_factions" for a in B.text_of(state, defn.name).abilities if isinstance(a, A.Keyword)):
                return frozenset(B.FACTIONS)
        except B.Unmodelled:
            pass
        return frozenset(defn.traits)

    def see(state: BakuganState, _event: Any, _before: bool) -> None:
        for _player, bak in B.all_bakugan(state):
            for card in (bak.character, *bak.evos):
                if card.defn is not None:
                    assert B.card_factions(state, card.defn) == plain(state, card.defn)
                    seen["lookups"] += 1
            assert B.factions(state, bak) == (plain(state, bak.top.defn) if bak.top.defn is not None else frozenset())

    along_replays(see, paths)
    assert seen["lookups"]


def test_each_deck_journal_dates_what_it_records_with_the_event(paths: list[Path] | None = None) -> None:
    """Every observation a deck's journal records while an event is judged carries that event's ``seq``."""
    before: dict[str, int] = {}
    seen = {"dated": 0}

    def see(state: BakuganState, event: Any, is_before: bool) -> None:
        for name, side in state.sides.items():
            if is_before:
                before[name] = side.knowledge.length
                continue
            new = side.knowledge.observations()[before.get(name, 0):]
            if side.knowledge.length >= before.get(name, 0):
                assert all(o.seq == event.seq for o in new), (event, new)
                seen["dated"] += len(new)

    along_replays(see, paths)
    assert seen["dated"]



def test_the_cost_checks_of_a_play_give_what_a_fresh_reading_gives() -> None:
    """Along the replays both cost checks of every play find what they find with the cost worked out afresh;
    the second takes the kept cost only for the very state and event the first worked it out for."""
    seen = {"plays": 0}

    def see(state: BakuganState, event: Any, before: bool) -> None:
        if not before or not isinstance(event, E.Play) or event.card not in state.cards:
            return
        try:
            fresh = X.play_cost(state, event, fresh=True)
            assert X.uncharge_only_as_needed(state, event) == X.energy_violation(state, event.by or "", fresh, event.uncharge)
            assert X.play_affordable(state, event) == X.affordable(state, event.by or "", fresh, event.uncharge)
        except B.Unmodelled:
            return
        seen["plays"] += 1

    along_replays(see)
    assert seen["plays"]
    cards = _database()
    state = GAME.setup(Setup(("alice", "bob"), {}, {}, cards))
    name = next(d.name for d in cards if d.type == "Action" and isinstance(d.cost, int) and d.cost > 0)
    first, second = E.Play(1, "alice", name), E.Play(1, "alice", name)
    X._Cost.last = (state, first, False, 99)
    assert X.play_cost(state, second) == X.play_cost(state, second, fresh=True)  # another event: afresh
    other = GAME.setup(Setup(("alice", "bob"), {}, {}, cards))
    X._Cost.last = (state, first, False, 99)
    assert X.play_cost(other, first) != 99  # another state: afresh
    X._Cost.last = (state, first, False, 99)
    assert X.play_cost(state, first) == 99  # the same play of the same state: what the first check found
    assert X.checked_play(state, first, True)[0] is None  # kept for a play that is not free: not for a free one


def test_each_check_finds_something_only_where_it_is_declared_to(paths: list[Path] | None = None) -> None:
    """At every event of the replays, every check declared to find something only somewhere
    (:func:`X.fails_only_in`) returns ``None`` anywhere else, without raising; and the checks
    :func:`X.staged` keeps where the game stands find first what all the checks of the action find first."""
    seen = Staging()

    def see(state: BakuganState, event: Any, before: bool) -> None:
        if not before:
            return
        action = X.BOOK.actions[str(event.__struct_config__.tag)]
        place, mode = X.place_of(state), state.mode
        kept = X.staged(action)[place][mode]
        assert all(test is check.test for check, test in kept)
        assert [c for c, _t in kept] == [c for c in action.checks if can_fail_in(c.test, {"place": place, "mode": mode})]
        agrees_with_every_check(action, [c for c, _t in kept], state, event, seen, (place, mode))

    along_replays(see, paths)
    declared = {c.name for a in X.BOOK.actions.values() for c in a.checks if c.test in FAILS_ONLY}
    assert seen.skipped and seen.found and seen.found & declared


def test_the_checks_kept_per_place_are_every_check_that_can_fail_there() -> None:
    """Per action and place, the checks kept are the registered ones in their order, but those declared
    to find something only elsewhere; each declared check is kept at every place it names."""
    declared = 0
    for action in X.BOOK.actions.values():
        table = X.staged(action)
        assert set(table) == set(X.PLACES)
        for place, by_mode in table.items():
            assert set(by_mode) == set(X.MODES)
            for mode, kept in by_mode.items():
                assert [c for c, _t in kept] == [c for c in action.checks if can_fail_in(c.test, {"place": place, "mode": mode})]
                assert all(t is c.test for c, t in kept)
            assert [c for c, _t in by_mode["a mode added later"]] == action.checks  # an unknown mode runs them all
        for check in action.checks:
            where = FAILS_ONLY.get(check.test, {"place": X.PLACES, "mode": X.MODES})
            places, modes = where["place"], where["mode"]
            declared += check.test in FAILS_ONLY
            assert places and modes
            assert all(any(c is check for c, _t in table[p][m]) for p in places for m in modes)
    assert declared
    with pytest.raises(ValueError):
        X.fails_only_in("nowhere")
    with pytest.raises(ValueError):
        X.fails_only_in("power", modes=("no such mode",))


def test_conflicts_asked_after_the_clock_moved_are_those_asked_after_every_event(monkeypatch: pytest.MonkeyPatch,
                                                                               paths: list[Path] | None = None) -> None:
    """The whole replays give the same reports whether the verifier asks for conflicts after every event
    or only after the events that moved ``conflicts_clock`` (the game's ``conflicts_stamp``)."""

    def reports() -> tuple[list[Any], int]:
        out, met = [], 0
        for path in REPLAYS if paths is None else paths:
            verifier = Verifier(keep_going=True)
            read(path, verifier, _decoder_for)
            out.append(to_json(verifier.result()))
            met += len(verifier.conflicts)
        return out, met

    assert G.Bakugan.conflicts_stamp == "conflicts_clock"
    stamped = reports()
    monkeypatch.setattr(G.Bakugan, "conflicts_stamp", None)
    assert reports() == stamped
    assert stamped[1]  # some replays meet conflicts


def test_the_conflicts_clock_moves_as_turns_begin_and_after_each_reading_of_a_condition() -> None:
    """The clock moves with every new ``in_play`` stamp, as the first turn begins, and, once an effect in force
    has a condition, after every reading (so that the verifier asks again after the next event)."""
    state = GAME.setup(Setup(("alice", "bob"), {}, {}, _database()))
    clock = state.conflicts_clock
    state.in_play_changed(sources=False)
    assert state.conflicts_clock == state.in_play != clock
    assert state.copy().conflicts_clock != state.conflicts_clock
    clock = state.conflicts_clock
    state.field_cores = {slot: ("Fire", "alice" if slot % 2 else "bob") for slot in range(1, 13)}
    for side in state.sides.values():
        side.opening_draws = 5
    GAME._maybe_begin(state)
    assert state.stage == "turn" and state.conflicts_clock != clock
    memo: dict[str, Any] = {}
    clock = state.conflicts_clock
    BC.conflicts_met(state, memo)
    assert state.conflicts_clock == clock  # no condition: read again only once something moves it
    memo = {"conditional": True}  # what effects_in_force notes on meeting an effect with a condition
    for _reading in range(2):
        BC.conflicts_met(state, memo)
        assert state.conflicts_clock != clock
        clock = state.conflicts_clock


@pytest.mark.interpreted  # puts its own function in place of the spec's (tests/conftest.py)
def test_what_the_deck_checks_read_of_a_card_is_the_plain_reading(monkeypatch: pytest.MonkeyPatch,
                                                                   paths: list[Path] | None = None) -> None:
    """At every lookup of the deck checks along the replays, and for every card of a fresh database, the
    reading kept per card is the key its copies are counted by and its Factions, read afresh."""
    kept = G.deck_reading
    seen = {"lookups": 0}

    def plain(cards: CardDatabase, defn: Any) -> tuple[str, frozenset[str]]:
        base, hero_id, text = G.card_identity(defn)
        return f"{base}|{hero_id}|{text}", B.card_factions(G._reader(cards), defn)

    def compared(cards: CardDatabase, defn: Any) -> tuple[str, frozenset[str]]:
        found = kept(cards, defn)
        assert found == plain(cards, defn)
        seen["lookups"] += 1
        return found

    monkeypatch.setattr(G, "deck_reading", compared)
    along_replays(lambda *_: None, paths)
    assert seen["lookups"]
    cards = _database()
    for defn in cards:
        assert kept(cards, defn) == plain(cards, defn)
        assert kept(cards, defn) == plain(cards, defn)  # the second time from what was kept


@pytest.mark.interpreted  # puts its own function in place of the spec's (tests/conftest.py)
def test_the_activated_ability_kept_is_the_one_read_afresh(monkeypatch: pytest.MonkeyPatch,
                                                          paths: list[Path] | None = None) -> None:
    """Each time a check (or carrying out) of a use of an ability asks which ability it is, the answer
    (kept from the last question about the same event while nothing came into or left play) is what
    reading the Hero in play afresh gives."""
    asked = {"kept": 0, "read": 0}
    fast = X.activated_ability

    def compared(state: BakuganState, ev: E.Activate) -> Any:
        kept = X._Activated.last[0] is ev and X._Activated.last[1] == state.in_play
        answer = fast(state, ev)
        assert answer is X.activated_ability_plain(state, ev)
        asked["kept" if kept else "read"] += 1
        return answer

    monkeypatch.setattr(X, "activated_ability", compared)
    along_replays(lambda _state, _event, _before: None, paths)
    assert asked["kept"] and asked["read"]


@pytest.mark.interpreted  # puts its own function in place of the spec's (tests/conftest.py)
def test_a_choice_still_legal_is_what_the_list_of_candidates_says(monkeypatch: pytest.MonkeyPatch,
                                                                  paths: list[Path] | None = None) -> None:
    """Each time an effect asks whether a choice made at announcement is still legal, the answer
    (a Bakugan asked about alone where it can be) is what looking for it among all the candidates gives."""
    asked = {"alone": 0, "all": 0}
    fast = T.still_legal

    def compared(state: BakuganState, controller: str, slot: Any, obj: Any) -> bool:
        answer = fast(state, controller, slot, obj)
        assert answer == T.still_legal_plain(state, controller, slot, obj)
        asked["alone" if slot.kind == "bakugan" and not slot.where and type(obj) is tuple else "all"] += 1
        return answer

    monkeypatch.setattr(T, "still_legal", compared)
    along_replays(lambda _state, _event, _before: None, paths)
    assert asked["alone"]


def test_the_tests_apply_runs_are_the_checks_kept_per_place_and_name_their_checks() -> None:
    """Per event type, the tests ``apply`` runs where the game stands are those of the checks :func:`X.staged`
    keeps there, in their order, and each names the registered check it is the test of; each kind is carried
    out by its own ``_do_<kind>`` (a play and a reroll through their wrappers), or changes nothing."""
    for cls in E.EVENTS:
        facts = G._facts_for(cls)
        for place, by_mode in facts.staged.items():
            for mode, kept in by_mode.items():
                assert facts.tests[place][mode] == tuple(test for _check, test in kept)
            assert facts.tests[place]["a mode added later"] == tuple(check.test for check in facts.action.checks)
        assert all(facts.check_of[check.test] is check for check in facts.action.checks)
        expected = G._PERFORM.get(facts.kind) or getattr(G.Bakugan, f"_do_{facts.kind}", None) or G.Bakugan._do_nothing
        assert facts.perform is expected
        assert facts.fed == (not facts.claim and facts.kind != "forfeit")  # a concession goes on while an effect waits
    forfeit = G._facts_for(E.Forfeit)
    assert not forfeit.action.checks and forfeit.perform is G.Bakugan._do_forfeit  # carried out wherever the game stands


@pytest.mark.interpreted  # puts its own function in place of the spec's (tests/conftest.py)
def test_events_that_find_nothing_give_the_one_shared_empty_result(paths: list[Path] | None = None) -> None:
    """Along the replays (judged on past an illegal move), the events ``apply`` judges that find nothing give
    mostly :data:`G.NONE_FOUND` itself, no list made for them (the reports, compared elsewhere, are as before);
    that shared result is still empty after them all, and adding to it fails at once rather than handing a
    finding to the events after."""
    given: list[Any] = []
    plain = G.Bakugan.apply

    def apply(self: Any, state: BakuganState, ev: Any) -> Any:
        found = plain(self, state, ev)
        given.append(found)
        return found

    G.Bakugan.apply = apply  # type: ignore[method-assign]
    try:
        along_replays(lambda _state, _event, _before: None, paths)
    finally:
        G.Bakugan.apply = plain  # type: ignore[method-assign]
    shared = sum(found is G.NONE_FOUND for found in given)
    assert shared > len(given) // 2  # most events find nothing; the few others made their own list, as before
    assert any(found for found in given) and all(isinstance(found, list) for found in given if found is not G.NONE_FOUND)
    assert len(G.NONE_FOUND) == 0
    with pytest.raises(AttributeError):
        G.NONE_FOUND.append(None)  # type: ignore[arg-type]


# ====================================================================== constructors written out for mypyc


def _written_out_met(state: BakuganState) -> dict[type, list[Any]]:
    """The objects of the dataclasses of spec.bakugan.state with a written-out ``__init__`` in ``state``."""
    from spec.bakugan.state import Attack, Bakugan, EnergyCard, Lasting, Side, TurnFlags

    sides = list(state.sides.values())
    return {BakuganState: [state], Side: sides, Bakugan: [b for s in sides for b in s.team.values()],
            EnergyCard: [e for s in sides for e in s.energy], Lasting: list(state.lasting),
            Attack: [] if state.attack is None else [state.attack], TurnFlags: [state.flags]}


def test_constructors_written_out_take_each_field_as_the_generated_one_would() -> None:
    """The state's dataclasses with a written-out ``__init__`` (the generated one stays interpreted
    when compiled): each object met along the shipped replays, made again from its fields by keyword
    and by position, has the same fields; made from its required fields alone, the declared defaults
    (tests/written_out.py)."""
    from tests.written_out import check_along_shipped, defaults_as_declared

    first = check_along_shipped("bakugan", _written_out_met)
    assert len(first) == 7, sorted(c.__name__ for c in first)
    for cls, obj in first.items():
        defaults_as_declared(cls, obj, stamps=frozenset({"in_play", "conflicts_clock"}))
