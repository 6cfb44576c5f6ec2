"""TTCG: what the spec keeps or skips to verify faster gives the answers it would work out afresh.

The spec reads each card's effects once per card database (by label, Passive, triggered
by event, and which of them can clash); it reads the statics of one kind only from the
effects that have such steps or whose reading may fail; it tells that no effect is in
force without reading them when every card on the field is quiet; a snapshot before the
passes inferred for an event shares the cards whose name is known and copies them only
when it is put back; it keeps what it read of the field's make-up (piles by id and top
card, the cards with effects of each kind, the triggers of each event) until it changes,
and the marks counted for the change key until a pile is tapped, untapped or switched on. Each test
pins one of these against the plain reading, along the replays of ``replays/ttcg``.

Session 7 added structure: each action runs only the checks that can fail where the game stands
(``spec.core.rules.fails_only``, held to each check's code at every event); the verifier asks
for conflicts only after events that moved ``TtcgState.in_force_stamp``; a reading that looked at
some piles' marks is kept while those piles' own marks stay; the field's reading is put in a new
active player's order instead of being read again; the holders of Passive and triggered effects
are picked out by one look-up per card.

Session 8 made the field's reading follow the changes instead of being read again: a pile joining
or leaving the field updates it in place (``_Field.joined``, ``_Field.left``: piles, holders, piles
by id and top card, and what was read per kind and per event unless the pile's cards hold such
effects); a new active player takes over what was read per kind and per event, put in the new order
when first asked (``_Field.carried``); the conflicts signature is read as ids, without making the
effects (``conflicts._reading_in_force``); a pile is made without its per-field bookkeeping.
Its second round kept the marks counted for the change key on the state so that asking them never
reads the field again, and the left-out-checks test runs on
``tests.staging.agrees_with_every_check``.

Session 9 follows a level up in place too (``_Field.levelled``: the old top card goes under, the
new one on top; compared with a reading afresh right after each one, along the shipped replays and
simulated games), takes over what a turned reading carried per kind before a change is followed
(``_Field._settle``).

Session 10 keeps the statics of a kind whose conditions counted cards of the field without reading
their ranks until the make-up changes at all (``_Field.counted``; a rank read, ``Reads.ranks``, still
leaves them unkept), and puts the top cards kept in a new active player's order instead of listing
them again.

Session 11 keeps the marks the change key reads on each side (``state.Tally``), moved at the places
that change them (a pile joining or leaving a row, a mark placed or removed, a level up), so that asking
the change key is reading numbers, never counting the piles.

Session 12 takes most passes (by a player in a turn, no effect waiting for an answer) the short way
(``Ttcg._pass``: ``_apply``'s steps for such a pass, ``_do_pass`` called natively), held to ``_apply``
for passes by anyone, anywhere along the replays and simulated games.

Session 13 keeps the last card database asked about beside its reading (``board._LAST_READING``), and
reads a :class:`~spec.ttcg.state.Lasting`'s fields natively in ``lasting_covers`` (held to the reading
that asks for each field by name); both are held here to the plain way.

Session 14 writes out the ``__init__`` of the dataclasses made on many events (the one dataclasses
generates stays a Python function when compiled; a choice is no longer declared frozen but compares
and hashes as before), calls the moves of a turn by name (``Ttcg._carry_out``), notes the rules of the
methods run on most events apart instead of decorating them (compiled, a decorated method is called
generically), and finds a pile by name without a tuple of rows to walk; each is held here.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest

from grammar import ast as A
from grammar import ttcg_nodes as T
from spec import load_game
from spec.core.cards import CardDatabase, shipped_database
from spec.core.conflicts import Effect
from spec.core.game import Setup
from spec.ttcg import board as B
from spec.ttcg import conflicts as TC
from spec.ttcg.state import EDITS, Pile, TtcgState
from tests.written_out import defaults_as_declared, init_fields, made_again_by_keyword_and_position
from verifier.replay import read
from verifier.verify import Verifier, _decoder_for

GAME: Any = load_game("ttcg")
REPLAYS = sorted(Path("replays/ttcg").glob("*/*.jsonl"))
KINDS = (T.Restrict, T.RankUp, (T.Boost, T.SetStat), (T.Restrict, T.SetStat))


class _Watch(Verifier):
    """A verifier that shows each state (after each event) to ``see``."""

    def __init__(self, see: Callable[[TtcgState, Any], None]) -> None:
        super().__init__(keep_going=True)
        self.see = see

    def visit(self, event: Any, line: int) -> bool:
        going = super().visit(event, line)
        if self.state is not None:
            self.see(self.state, event)
        return going


def along_replays(see: Callable[[TtcgState, Any], None]) -> None:
    for path in REPLAYS:
        read(path, _Watch(see), _decoder_for)


def effects_afresh(state: TtcgState) -> list[Effect]:
    """The effects in force read the plain way: every static of the field, every card asked one by one."""
    out: list[Effect] = []
    field = [(owner, pile.card) for owner, pile in B.piles(state) if pile.card.name is not None]
    for controller, source, step in B.statics(state):
        if not isinstance(step, T.Restrict | T.SetStat):
            continue
        name = f"{source.card.name} ({controller})"
        key = f"{source.card.name}#{source.card.uid}"
        ident = f"{key}/{type(step).__name__}/{getattr(step, 'action', getattr(step, 'stat', ''))}"
        for owner, card in field:
            if not B.step_covers(state, controller, source, step.what, card):
                continue
            subject = TC.card_subject(owner, card)
            if isinstance(step, T.Restrict):
                out.append(Effect(f"{ident}>{subject}", "cant", subject, step.action, 0, name, "card", controller, key,
                                  text=f"{owner}'s {card.name} cannot {step.action}"))
            elif isinstance(step.value, int):
                out.append(Effect(f"{ident}>{subject}", "set", subject, step.stat, step.value, name, "card", controller, key,
                                  text=f"{owner}'s {card.name} has {step.value} {step.stat}"))
    for lasting in state.lasting:
        if lasting.kind == "prohibit":  # on a player (decision 31)
            out += [Effect(f"lasting{lasting.order}>{player}", "cant", "", "") for player in state.players
                    if lasting.uids == (B.player_key(state, player),)]
            continue
        if lasting.kind not in ("restrict", "set"):
            continue
        for owner, card in field:
            if B.lasting_covers(state, lasting, card):
                out.append(Effect(f"lasting{lasting.order}>{TC.card_subject(owner, card)}", "cant", "", ""))
    return out


def _statics_read(state: TtcgState) -> bool:
    try:
        B.statics(state)
    except B.Unmodelled:
        return False
    return True


def test_statics_of_one_kind_are_the_statics_of_that_kind_along_the_replays() -> None:
    def see(state: TtcgState, _event: Any) -> None:
        if not _statics_read(state):
            return
        every = B.statics(state)
        for kinds in KINDS:
            assert B.statics_of(state, kinds) == [s for s in every if isinstance(s[2], kinds)]

    along_replays(see)


def test_the_effects_in_force_are_those_read_afresh_along_the_replays() -> None:
    seen = {"some": 0, "none": 0}

    def see(state: TtcgState, _event: Any) -> None:
        if state.stage != "turn" or not _statics_read(state):
            return
        effects = TC.effects_in_force(state)
        afresh = effects_afresh(state)
        statics = [e for e in effects if not e.id.startswith(("lasting", "extra"))]
        assert statics == [e for e in afresh if not e.id.startswith("lasting")]
        assert {e.id for e in effects if e.id.startswith("lasting")} == {e.id for e in afresh if e.id.startswith("lasting")}
        if TC._nothing_in_force(state):
            assert effects == []
            seen["none"] += 1
        elif effects:
            seen["some"] += 1

    along_replays(see)
    assert seen["none"] and seen["some"]


def test_a_card_is_quiet_exactly_when_its_passive_effects_hold_no_clash_and_read_without_fail() -> None:
    cards = CardDatabase.load(shipped_database("ttcg", "base"), "ttcg")
    state = TtcgState(("ann", "ben"), {}, cards, False)
    for defn in cards:
        passives = B.passives_of(state, defn.name)
        clashing = any(isinstance(step, T.Restrict | T.SetStat) for _i, _label, ability in passives for step in ability.effect)
        assert B.quiet(state, defn.name) == (not clashing and not B.loud(state, defn.name))
        assert [(i, label) for i, label, *_rest in B.loud(state, defn.name)] == [
            (i, label) for i, label, ability in passives
            if any(isinstance(step, T.Restrict | T.SetStat) for step in ability.effect)
            or label not in B.DEFINED_LABELS or not B._read_without_fail(ability.condition)]
        for event in ("played", "destroyed", "attacks", "turn_begins"):
            assert B.triggers(state, defn.name, event) == tuple(
                (i, label, a) for i, (label, a) in enumerate(B.effects_of(state, defn.name))
                if isinstance(a, A.Triggered) and a.trigger.event == event)


def _covers_by_name(state: TtcgState, lasting: Any, card: Any, on_top: bool) -> bool:
    """The reading ``lasting_covers`` had before it read a Lasting's fields natively: each asked by name."""
    uids = getattr(lasting, "uids", None)
    if uids is not None:
        return card.uid in uids
    selector = getattr(lasting, "selector", None)
    if selector is None:
        return False
    return (on_top or B.pile_of(state, card.uid) is not None) and B.cards_match(state, card, selector, lasting.controller)


def test_a_lasting_result_covers_the_cards_it_covers_when_asked_by_name_along_the_replays() -> None:
    """``lasting_covers`` reads a :class:`Lasting`'s fields natively; an object of another class
    with the same fields, asked for them by name, gives the same answers."""
    seen = {"uids": 0, "selector": 0}

    def see(state: TtcgState, _event: Any) -> None:
        if state.stage != "turn":
            return
        cards = [pile.card for _owner, pile in B.piles(state) if pile.card.name is not None]
        for lasting in state.lasting:
            by_name = type("ByName", (), dataclasses.asdict(lasting) | {"selector": lasting.selector})()
            seen["uids" if lasting.uids is not None else "selector"] += 1
            for card in cards:
                for on_top in (False, True):
                    assert B.lasting_covers(state, lasting, card, on_top) == _covers_by_name(state, by_name, card, on_top)

    along_replays(see)
    assert seen["uids"] and seen["selector"]


def test_the_reading_of_a_card_database_is_its_own_as_databases_alternate() -> None:
    """The last database asked about is kept beside its reading (``board._LAST_READING``): each
    database is still answered with the reading kept on it, whichever was asked about before."""
    first = CardDatabase.load(shipped_database("ttcg", "base"), "ttcg")
    second = CardDatabase.load(shipped_database("ttcg", "base"), "ttcg")
    for cards in (first, first, second, second, first, second):
        reading = B._reading(cards)
        assert reading is cards.__dict__["_ttcg_reading"]
        assert reading is not (second if cards is first else first).__dict__.get("_ttcg_reading")
    state = TtcgState(("ann", "ben"), {}, second, False)
    assert B.typed_names(state) is second.__dict__["_ttcg_reading"].typed


def test_kinds_are_matched_as_the_words_of_the_card_say() -> None:
    cards = CardDatabase.load(shipped_database("ttcg", "base"), "ttcg")
    asked = [("fire",), ("unit",), ("spell",), ("fire dragon",), ("water", "beast"), ("card",), ("dark unit", "light")]
    for defn in cards:
        have = {"card", B.element(defn), "unit" if B.is_creature(defn) else "spell", *(t.lower() for t in defn.traits)}
        assert B.kinds_of(defn) == have
        for kinds in asked:
            for any_type in (False, True):
                plain = any(all(w in have for w in kind.split() if not (any_type and w in B.ELEMENTS)) for kind in kinds)
                assert B.kinds_match(defn, kinds, any_type) == plain


def _dump(state: TtcgState) -> Any:
    """Everything of a state that a snapshot must put back, as plain values."""
    def card(c: Any) -> Any:
        return (c.uid, c.name, c.owner, c.defn.name if c.defn is not None else None, c.face_up)

    def zone(z: Any) -> Any:
        return (z.name, z.ordered, z.public, [card(c) for c in z.cards], z.hidden)

    def pile(p: Any) -> Any:
        return (p.id, card(p.card), p.row, [card(c) for c in p.under], p.tapped, p.tapped_turn, sorted(p.switched_on), p.equipped_to)

    def link(x: Any) -> Any:  # a link of the chain, its cards as plain values (each copy has its own)
        return None if x is None else (x.controller, card(x.source), x.pile, x.effect, x.index, x.kind, x.label,
                                       x.leaves_field, x.negated, None if x.event_card is None else card(x.event_card))

    sides = {k: (s.name, zone(s.deck), zone(s.hand), zone(s.discard), dict(s.knowledge.located), s.knowledge.length,
                 [pile(p) for p in s.creatures], [pile(p) for p in s.magic], s.points, s.shuffled, s.opening_draws, s.skips)
             for k, s in state.sides.items()}
    linked = ("chain", "resolving", "waiting", "paying", "delayed")
    rest = {f.name: getattr(state, f.name) for f in dataclasses.fields(state)  # (a compiled state has no __dict__)
            if f.name not in ("sides", "priority", "flags", "lasting", "resolution", "battle", *linked)}
    links = ([link(x) for x in state.chain], [link(x) for x in state.resolving], [link(x) for x in state.waiting],
             link(state.paying), [(d.turn, d.controller, card(d.source), d.effect) for d in state.delayed])
    return (sides, rest, links, (state.priority.holder, state.priority.passes), state.flags, state.lasting, state.battle,
            None if state.resolution is None else (state.resolution.controller, {
                k: [card(c) for c in v] if k == "revealed" else v for k, v in state.resolution.vars.items()}))


def _cards_of(state: TtcgState) -> Iterator[Any]:
    for side in state.sides.values():
        for z in (side.deck, side.hand, side.discard):
            yield from z.cards
        for p in side.creatures + side.magic:
            yield p.card
            yield from p.under


@cache
def _states() -> list[tuple[TtcgState, list[Any]]]:
    """States along a few replays, each with the events that follow it."""
    out: list[tuple[TtcgState, list[Any]]] = []
    for path in REPLAYS[:6]:
        events: list[Any] = []
        copies: list[TtcgState] = []

        def see(state: TtcgState, event: Any, events: list[Any] = events, copies: list[TtcgState] = copies) -> None:
            events.append(event)
            copies.append(state.copy())

        read(path, _Watch(see), _decoder_for)
        out.extend((copies[i], events[i + 1:i + 4]) for i in range(0, len(copies) - 1, 5))
    return out


def test_a_snapshot_puts_back_what_a_copy_would() -> None:
    for original, later in _states():
        state = original.copy()
        snapshot, copy = state.snapshot(), state.copy()
        for event in later:
            GAME.apply(state, event)
        for _ in range(20):  # the passes the players could go on with
            if not GAME._can_advance(state) or state.resolution is not None:
                break
            GAME._advance(state)
        before = {id(c) for c in _cards_of(state)}
        snapshot.restore(state)
        assert _dump(state) == _dump(copy)
        assert not before & {id(c) for c in _cards_of(state)}


def test_a_hidden_card_named_after_a_snapshot_is_hidden_again_when_it_is_put_back() -> None:
    cards = CardDatabase.load(shipped_database("ttcg", "base"), "ttcg")
    state = GAME.setup(Setup(("ann", "ben"), {}, {}, cards))
    hidden = state.new_card(None, "ann")
    state.sides["ann"].hand.add(hidden)
    snapshot = state.snapshot()
    name = next(iter(cards)).name
    GAME.take_from_hand(state, "ann", name)
    assert hidden.name == name
    snapshot.restore(state)
    assert [c.name for c in state.sides["ann"].hand.cards] == [None]
    assert state.sides["ann"].hand.cards[0] is not hidden


def test_the_change_key_changes_exactly_when_the_plain_one_does() -> None:
    def plain(state: TtcgState) -> Any:
        return (state.next_uid, state.next_order, len(state.lasting), state.turn, len(state.flags.extra),
                tuple(len(state.sides[p].creatures) + len(state.sides[p].magic) for p in state.players),
                tuple(sum(p.tapped for p in state.sides[x].piles()) for x in state.players),
                tuple(sum(len(p.switched_on) for p in state.sides[x].piles()) for x in state.players))

    last: list[Any] = []

    def see(state: TtcgState, _event: Any) -> None:
        now = (plain(state), TC.change_key(state))
        if last:
            assert (last[0][0] == now[0]) == (last[0][1] == now[1])
        last[:] = [now]

    along_replays(see)


def _checked(module: Any, name: str, plain: Callable[..., Any], calls: dict[str, int], same: Callable[[Any, Any], bool] | None = None,
             ) -> Callable[..., Any]:
    """``module.name`` made to compare each answer with ``plain``'s (both failing alike counts as the same)."""
    kept = getattr(module, name)

    def both(*args: Any) -> Any:
        try:
            answer: Any = ("ok", kept(*args))
        except Exception as error:  # noqa: BLE001 - compared below
            answer = ("raised", type(error), str(error))
        try:
            afresh: Any = ("ok", plain(*args))
        except Exception as error:  # noqa: BLE001 - compared below
            afresh = ("raised", type(error), str(error))
        assert (same or (lambda a, b: a == b))(answer, afresh), (name, answer, afresh)
        calls[name] = calls.get(name, 0) + 1
        if answer[0] == "raised":
            raise answer[1](answer[2])
        return answer[1]

    return both


@pytest.mark.interpreted  # patches the spec's Python functions (tests/conftest.py)
def test_what_is_kept_of_the_field_is_what_is_read_afresh_at_every_lookup_along_the_replays(monkeypatch: Any) -> None:
    """The field's make-up (piles by id and by top card, the cards with effects of each kind, the
    triggers of each event, the marks counted for conflicts) read pile by pile at every lookup."""
    calls: dict[str, int] = {}

    def same_piles(a: Any, b: Any) -> bool:
        if a[0] != b[0]:
            return False
        if a[0] == "raised":
            return a[1:] == b[1:]
        return a[1] is b[1] or (isinstance(a[1], tuple) and len(a[1]) == 2 and a[1][0] is b[1][0] and a[1][1] == b[1][1])

    def same_lists(a: Any, b: Any) -> bool:
        if a[0] != b[0] or a[0] == "raised":
            return a == b
        return len(a[1]) == len(b[1]) and all(len(x) == len(y) and all(p is q or p == q for p, q in zip(x, y, strict=True))
                                              for x, y in zip(a[1], b[1], strict=True))

    def watching_or_plain(state: TtcgState, event: str) -> Any:
        return B.watching_plain(state, event)

    def watched(a: Any, b: Any) -> bool:
        if a[0] == "ok" and a[1] is None:  # a text that cannot be read: the field is read pile by pile
            return b[0] == "raised"
        return same_lists(a, b)

    monkeypatch.setattr(B, "pile_of", _checked(B, "pile_of", B.pile_of_plain, calls, same_piles))
    monkeypatch.setattr(B, "_pile_and_owner", _checked(B, "_pile_and_owner", B._pile_and_owner_plain, calls, same_piles))
    monkeypatch.setattr(B, "statics_of", _checked(B, "statics_of", B.statics_of_plain, calls, same_lists))
    monkeypatch.setattr(B, "watching", _checked(B, "watching", watching_or_plain, calls, watched))
    monkeypatch.setattr(B, "field_marks", _checked(B, "field_marks", B.field_marks_plain, calls))
    monkeypatch.setattr(TC, "_nothing_in_force", _checked(TC, "_nothing_in_force", TC._nothing_in_force_plain, calls))
    monkeypatch.setattr(TC, "_field_and_clashes", _checked(TC, "_field_and_clashes", TC._field_and_clashes_plain, calls,
                                                           lambda a, b: a[0] == b[0] and (a[0] == "raised" or (
                                                               list(a[1][0]) == list(b[1][0]) and same_lists(("ok", a[1][1]), ("ok", b[1][1]))))))
    along_replays(lambda _state, _event: None)
    assert set(calls) == {"pile_of", "_pile_and_owner", "statics_of", "watching", "field_marks", "_nothing_in_force",
                          "_field_and_clashes"}


def test_the_field_is_read_again_after_each_kind_of_change() -> None:
    """A change of the field's make-up or of a pile's marks, made any way, is seen by the next lookup."""
    cards = CardDatabase.load(shipped_database("ttcg", "base"), "ttcg")
    state = GAME.setup(Setup(("ann", "ben"), {}, {}, cards))
    state.stage, state.active = "turn", "ann"
    names = [d.name for d in cards if B.is_creature(d)][:3]
    first: Pile = GAME.new_pile(state, "ann", state.new_card(names[0], "ann", cards[names[0]]), by_effect=True)
    assert B.pile_of(state, first.card.uid) is first and B.field_marks(state) == B.field_marks_plain(state)
    second: Pile = GAME.new_pile(state, "ann", state.new_card(names[1], "ann", cards[names[1]]), by_effect=True)
    assert B.pile_of(state, second.card.uid) is second
    top = state.new_card(names[2], "ann", cards[names[2]])
    second.card = top
    assert B.pile_of(state, top.uid) is second and B.pile_of(state, second.under[0].uid if second.under else -5) is None
    second.under.append(state.new_card(names[0], "ann", cards[names[0]]))
    assert B.statics_of(state, KINDS[2]) == B.statics_of_plain(state, KINDS[2])
    second.under = []
    assert B.statics_of(state, KINDS[2]) == B.statics_of_plain(state, KINDS[2])
    first.tapped = True
    assert B.field_marks(state) == B.field_marks_plain(state)
    first.switched_on.add(1)
    assert B.field_marks(state) == B.field_marks_plain(state)
    first.switched_on = set()
    assert B.field_marks(state) == B.field_marks_plain(state)
    state.sides["ann"].creatures.remove(first)
    assert B.pile_of(state, first.card.uid) is None and B.field_marks(state) == B.field_marks_plain(state)
    state.active = "ben"
    assert B.field_of(state).piles == list(B.piles(state))


@pytest.mark.interpreted  # patches the spec's Python functions (tests/conftest.py)
def test_the_kept_signature_of_the_effects_in_force_is_the_one_read_afresh_at_every_lookup_along_the_replays(monkeypatch: Any) -> None:
    """What conflicts_met keeps of the effects in force (their ids, while what the reading looked
    at stays as it was) is, at every lookup, the set of ids read afresh; and it is kept at times."""
    calls: dict[str, int] = {}
    kept: dict[str, int] = {"hits": 0}
    reading = TC._in_force

    def counted(state: TtcgState) -> Any:
        kept["hits"] -= 1
        return reading(state)

    monkeypatch.setattr(TC, "_in_force", counted)
    plain = _checked(TC, "_signature_kept", lambda state, _memo: frozenset(e.id for e in TC._read_in_force(state)), calls)

    def signature(state: TtcgState, memo: dict[str, Any]) -> Any:
        kept["hits"] += 1
        return plain(state, memo)

    monkeypatch.setattr(TC, "_signature_kept", signature)
    along_replays(lambda _state, _event: None)
    assert calls["_signature_kept"] and kept["hits"] > 0


@pytest.mark.interpreted  # patches the spec's Python functions (tests/conftest.py)
def test_the_pile_and_effect_an_activate_move_names_are_those_found_afresh_at_every_lookup_along_the_replays(monkeypatch: Any) -> None:
    from spec.ttcg import actions as X

    calls: dict[str, int] = {}
    monkeypatch.setattr(X, "activated_pile", _checked(X, "activated_pile", X.activated_pile_plain, calls,
                                                      lambda a, b: a[0] == b[0] and (a[1] is b[1] if a[0] == "ok" else a == b)))
    monkeypatch.setattr(X, "effect_of", _checked(X, "effect_of", X.effect_of_plain, calls))
    along_replays(lambda _state, _event: None)
    assert calls["activated_pile"] and calls["effect_of"]


def test_the_change_key_stays_while_the_change_stamp_does() -> None:
    last: list[Any] = []

    def see(state: TtcgState, _event: Any) -> None:
        now = (TC.change_stamp(state), TC.change_key(state))
        if last and last[0][0] == now[0]:
            assert last[0][1] == now[1]
        last[:] = [now]

    along_replays(see)


def test_the_names_found_of_a_modelled_type_are_those_check_type_passes_along_the_replays() -> None:
    found: list[Any] = []

    def see(state: TtcgState, _event: Any) -> None:
        typed = B.typed_names(state)
        found.append(len(typed))
        for name in typed:
            assert name in state.cards
            B.check_type(state.cards[name])

    along_replays(see)
    assert max(found) > 0


def test_the_change_key_conflicts_met_keeps_is_the_change_key_after_every_event() -> None:
    """Asked only after events that moved the in-force stamp, conflicts_met still keeps the change
    key as it stands after every event (while the stamp stays, so does the key)."""
    memos: list[dict[str, Any]] = []

    class _Memo(Verifier):
        def visit(self, event: Any, line: int) -> bool:
            going = super().visit(event, line)
            asked = not self.diverged and not self.malformed  # the verifier asks for conflicts only then
            if asked and self.state is not None and self.state.stage == "turn" and "quick" in self.conflicts_memo:
                assert self.conflicts_memo["quick"] == TC.change_key(self.state)
                memos.append(self.conflicts_memo)
            return going

    for path in REPLAYS:
        read(path, _Memo(keep_going=True), _decoder_for)
    assert memos


@pytest.mark.interpreted  # patches the spec's Python functions (tests/conftest.py)
def test_checks_left_out_where_the_game_stands_cannot_fail_there(monkeypatch: Any) -> None:
    """At every event judged along the replays (legal and illegal, with their inferred passes)
    and in each case of tests/test_ttcg_checks.py (one per check, each breaking it), the staged
    tuple for where the game stands (and, for an activate move, what it names) agrees with every
    check (:func:`tests.staging.agrees_with_every_check`: each check it leaves out finds nothing
    and raises nothing, its :func:`spec.core.rules.fails_only` declaration holds; its first broken
    check is the action's first broken check), and the game's own ``_first_broken`` answers as
    ``action.first_violation`` does. Every check is seen finding something where it was kept."""
    from spec.ttcg import game as G
    from tests.staging import Staging, agrees_with_every_check

    original = G._first_broken
    judged: dict[str, int] = {}
    seen = Staging()

    def checked(facts: Any, state: TtcgState, event: Any) -> Any:
        action = facts.action
        place = state.node if state.stage == "turn" else state.stage
        try:
            staged = facts.by_place[place] if facts.per_move is None else facts.per_move(state, event, place)
        except Exception:  # noqa: BLE001 - the staged reading fails as the plain one does: every check is kept
            staged = None
        if staged is not None:
            assert all(test is check.test for test, check in staged)
        kept = [check for _test, check in staged] if staged is not None else list(action.checks)
        agrees_with_every_check(action, kept, state, event, seen, place)
        try:
            plain: Any = ("ok", action.first_violation(state, event))
        except Exception as error:  # noqa: BLE001 - both must fail alike
            plain = ("raised", type(error), str(error))
        try:
            answer: Any = ("ok", original(facts, state, event))
        except Exception as error:  # noqa: BLE001 - both must fail alike
            answer = ("raised", type(error), str(error))
        assert answer == plain, (action.name, place, answer, plain)
        judged[action.name] = judged.get(action.name, 0) + 1
        if answer[0] == "raised":
            raise answer[1](answer[2])
        return answer[1]

    monkeypatch.setattr(G, "_first_broken", checked)
    along_replays(lambda _state, _event: None)
    assert {"pass", "draw", "activate", "play", "attack"} <= set(judged)
    assert seen.compared == sum(judged.values()) and seen.skipped > 0
    from tests.test_ttcg_checks import CASES  # one case per check, each breaking it: its place is where it can fail

    for case in CASES:
        state = case.state()
        GAME.apply(state, case.event(state))
    assert seen.compared == sum(judged.values())
    every = {check.name for action in G.BOOK.actions.values() for check in action.checks}
    assert seen.found == every  # each check, kept where it can fail, is seen failing there
    assert seen.left_out and seen.left_out <= every


def test_each_check_is_in_the_tables_wherever_it_can_fail() -> None:
    """The staged tuples keep every check, in registration order, at every place (and for every
    kind of effect and row an activate move can name) where its declaration lets it fail; an
    undeclared check everywhere; and every declared check somewhere."""
    from spec.core.rules import FAILS_ONLY, can_fail_in
    from spec.ttcg import actions as X
    from spec.ttcg import game as G

    declared = {test for test in FAILS_ONLY if test.__module__ == X.__name__}
    assert declared <= {check.test for action in X.BOOK.actions.values() for check in action.checks}
    runs: dict[Any, int] = {}
    for action in X.BOOK.actions.values():
        for place in X.PLACES:
            for effect in (None, "counter", "dormant", "other"):
                for row in (None, "creature", "magic"):
                    staged = action.checks_where(place=place, effect=effect, row=row)
                    expected = [check for check in action.checks
                                if can_fail_in(check.test, {"place": place, "effect": effect, "row": row})]
                    assert [check for _test, check in staged] == expected
                    assert all(test is check.test for test, check in staged)
                    for check in expected:
                        runs[check.test] = runs.get(check.test, 0) + 1
    assert all(runs.get(test) for test in declared)
    facts = G._Facts(G.E.Pass, "pass")
    assert facts.by_place == {place: X.PASS.checks_where(place=place) for place in X.PLACES}


def test_the_in_force_stamp_moves_whenever_the_change_stamp_does() -> None:
    """The verifier asks for conflicts only after events that moved the game's ``conflicts_stamp``
    (``TtcgState.in_force_stamp``, set by ``apply``): along the replays, whenever the change stamp ``conflicts_met``
    compares moved over an event (sides compared by identity), so did it."""
    assert GAME.conflicts_stamp == "in_force_stamp"
    last: list[Any] = []
    moved = {"both": 0}

    from spec.ttcg.edits import in_force_edits

    def see(state: TtcgState, event: Any) -> None:
        assert state.in_force_stamp == in_force_edits()  # as the event left it
        stamp = TC.change_stamp(state)
        now = (stamp[:-1], id(stamp[-1]), state.in_force_stamp, state)
        if last and last[0][3] is state and (last[0][0] != now[0] or last[0][1] != now[1]):  # one replay's state
            assert last[0][2] != now[2], event
            moved["both"] += 1
        last[:] = [now]

    along_replays(see)
    assert moved["both"]


def test_each_pile_counts_the_changes_of_its_own_marks() -> None:
    """Tapping, untapping, attaching and switching effects on, made any way, move the pile's own
    ``mark_count`` (and the count of all marks), never another pile's; a reading that looked at
    some piles' marks is kept while theirs stay, and tells a reading under way around it."""
    from spec.core.state import CardObj
    from spec.ttcg.state import EDITS, Pile

    first, second = Pile(1, CardObj(1, "a", "ann"), "creature"), Pile(2, CardObj(2, "b", "ann"), "magic")
    changes: list[Callable[[], Any]] = [
        lambda: setattr(first, "tapped", True), lambda: setattr(first, "equipped_to", 2),
        lambda: setattr(first, "switched_on", {1}), lambda: first.switched_on.add(2), lambda: first.switched_on.discard(2),
        lambda: first.switched_on.update({3}), lambda: first.switched_on.clear(),
        lambda: first.switched_on.__ior__({4}), lambda: first.switched_on.__isub__({4}),
    ]
    for change in changes:
        mine, other, every = first.mark_count, second.mark_count, EDITS.marks
        change()
        assert first.mark_count > mine and second.mark_count == other and EDITS.marks > every
    second.switched_on = first.switched_on  # another pile's set: copied, so that each counts its own
    assert second.switched_on is not first.switched_on and second.switched_on.of(second)  # type: ignore[attr-defined]  # the pile's own set type

    def outer_reading() -> Any:
        B._marks_read(second)
        return B.marks_recorded(lambda: B._marks_read(first))[1]

    inner_seen, seen = B.marks_recorded(outer_reading)
    assert [p for p, _c in inner_seen] == [first] and [p for p, _c in seen] == [second, first]
    assert B.marks_unchanged(inner_seen)
    second.tapped = True
    assert B.marks_unchanged(inner_seen) and not B.marks_unchanged(seen)
    first.tapped = False
    assert not B.marks_unchanged(inner_seen)
    edits, inner_seen = EDITS.marks, B.marks_recorded(lambda: B._marks_read(first))[1]
    assert B.marks_unchanged(inner_seen, edits)
    first.switched_on.add(6)
    assert not B.marks_unchanged(inner_seen, edits) and not B.marks_unchanged(inner_seen)


@pytest.mark.interpreted  # wraps methods of the spec's classes (tests/conftest.py)
def test_the_field_turned_to_a_new_active_player_is_the_field_read_afresh_along_the_replays() -> None:
    """At every event, the field's reading (perhaps put in a new active player's order by
    ``_Field.turned``) lists the piles and holders a reading afresh lists; and it was turned at times."""
    turned = {"count": 0}
    original = B._Field.turned

    def counted(self: Any, state: TtcgState) -> Any:
        turned["count"] += 1
        return original(self, state)

    def see(state: TtcgState, _event: Any) -> None:
        index, fresh = B.field_of(state), B._Field(state)
        assert index.piles == fresh.piles and index.first == fresh.first
        assert index._tops is None or index._tops == fresh.tops  # (put in the new order when kept: session 10)
        if index.splits is not None:  # (None: read while a card was not known yet)
            assert index.splits == fresh.splits
        if fresh.splits is not None:
            for triggered in (False, True):
                assert index.holders(state, triggered) == fresh.holders(state, triggered)

    B._Field.turned = counted  # type: ignore[method-assign]
    try:
        along_replays(see)
    finally:
        B._Field.turned = original  # type: ignore[method-assign]
    assert turned["count"]


def _same_as_fresh(state: TtcgState, index: Any) -> None:
    """``index``, a reading of ``state``'s field kept up to date, lists the piles, holders, piles by id
    and top card, per kind and per event the holders, and the statics of each kind a reading afresh lists."""
    fresh = B._Field(state)
    assert index.piles == fresh.piles and index.first == fresh.first
    assert index.by_id == fresh.by_id and index.by_top == fresh.by_top and index.tops == fresh.tops
    if index.splits is not None and fresh.splits is not None:
        assert index.splits == fresh.splits
        for triggered in (False, True):
            assert index.holders(state, triggered) == fresh.holders(state, triggered)
        for kinds, entries in list(index.kinds.items()):
            if entries is not None:
                assert entries == B._holders_reading(state, fresh, False, kinds, B._reading(state.cards).of_kind,
                                                     B._passives_of_kind)
        for event, entries in list(index.watchers.items()):
            if entries is not None:
                assert entries == B._holders_reading(state, fresh, True, event, B.trigger_table(state), B.triggers)
    if _statics_read(state):
        for kinds in (*KINDS, B._STAT_STEPS, B._CLASHING):
            assert B.statics_of(state, kinds) == B.statics_of_plain(state, kinds)


@cache
def _simulated_games() -> tuple[list[bytes], ...]:
    """A few simulated games (fixed seeds), as replay lines."""
    from verifier.simulate import simulate

    return tuple(simulate("ttcg", seed, max_events=1500) for seed in (1, 2, 3, 4))


def along_replays_and_games(see: Callable[[TtcgState, Any], None], tmp: Path) -> None:
    """:func:`along_replays`, then along the simulated games (written under ``tmp``)."""
    along_replays(see)
    for number, lines in enumerate(_simulated_games()):
        path = tmp / f"simulated-{number}.jsonl"
        path.write_bytes(b"\n".join(lines) + b"\n")
        read(path, _Watch(see), _decoder_for)


@pytest.mark.interpreted  # wraps methods of the spec's classes (tests/conftest.py)
def test_the_field_followed_through_a_pile_joining_or_leaving_is_the_field_read_afresh_along_the_replays(tmp_path: Path) -> None:
    """At every event of the shipped replays and simulated games, a reading of the field brought up
    to date as piles joined or left it (``_Field.joined``, ``_Field.left``), as a pile was levelled
    up (``_Field.levelled``), or turned to a new active player (``_Field.carried``), lists what a
    reading afresh lists (:func:`_same_as_fresh`); right after each level up it follows, too; and
    each was used."""
    followed = {"joined": 0, "left": 0, "levelled": 0, "carried": 0}
    joined, left, levelled, carried = B._Field.joined, B._Field.left, B._Field.levelled, B._Field.carried

    def counted_carried(self: Any, table: str, key: Any) -> Any:
        found = carried(self, table, key)
        followed["carried"] += found is not B._MISSING
        return found

    def counted_joined(self: Any, state: TtcgState, owner: str, pile: Pile) -> None:
        joined(self, state, owner, pile)
        followed["joined"] += self.edits == B.EDITS.field

    def counted_left(self: Any, state: TtcgState, owner: str, pile: Pile) -> None:
        left(self, state, owner, pile)
        followed["left"] += self.edits == B.EDITS.field

    def counted_levelled(self: Any, state: TtcgState, owner: str, pile: Pile, old: Any) -> None:
        levelled(self, state, owner, pile, old)
        if self.edits == B.EDITS.field:
            followed["levelled"] += 1
            _same_as_fresh(state, self)

    def see(state: TtcgState, _event: Any) -> None:
        index = state.field_index
        if index is None or B.field_now(state) is None:
            return
        _same_as_fresh(state, index)

    B._Field.joined, B._Field.left, B._Field.carried = counted_joined, counted_left, counted_carried  # type: ignore[method-assign]
    B._Field.levelled = counted_levelled  # type: ignore[method-assign]
    try:
        along_replays_and_games(see, tmp_path)
    finally:
        B._Field.joined, B._Field.left, B._Field.carried = joined, left, carried  # type: ignore[method-assign]
        B._Field.levelled = levelled  # type: ignore[method-assign]
    assert all(followed.values()), followed


def _change_key_plain(state: TtcgState) -> tuple[Any, ...]:
    """The change key with the marks counted pile by pile."""
    return (state.next_uid, state.next_order, len(state.lasting), state.turn, len(state.flags.extra),
            B.field_marks_plain(state))


def test_the_change_key_kept_as_the_field_changes_is_the_one_counted_afresh_along_the_replays_and_games(tmp_path: Path) -> None:
    """Session 11: after every event of the shipped replays and simulated games, the change key (its marks
    followed by each side's tally as piles join, leave and change their marks) is the one counted pile by
    pile, and asking it never makes the field be read; most askings found the tallies ready (nothing
    counted), and the counts a ready tally held before it was asked were those counted afresh."""
    asked = {"ready": 0, "counted": 0}

    def see(state: TtcgState, _event: Any) -> None:
        if state.stage == "setup" and not state.sides:
            return
        index = state.field_index
        ready = all(side.tally is not None and side.tally.ready for side in state.sides.values())
        if ready:  # what the tallies held before the asking
            a, b = state.players
            held = tuple(n for p in (a, b) for n in (len(state.sides[p].creatures) + len(state.sides[p].magic),
                                                     state.sides[p].tally.tapped, state.sides[p].tally.switched))  # type: ignore[union-attr]
            assert held == B.field_marks_plain(state)
        asked["ready" if ready else "counted"] += 1
        assert TC.change_key(state) == _change_key_plain(state)
        assert state.field_index is index

    along_replays_and_games(see, tmp_path)
    assert asked["ready"] > 10 * asked["counted"] > 0, asked


@pytest.mark.interpreted  # patches the spec's Python functions (tests/conftest.py)
def test_marks_told_unchanged_by_the_count_of_all_changes_are_those_looked_at_pile_by_pile(
        monkeypatch: Any, tmp_path: Path) -> None:
    """Session 11: where the kept signature of the effects in force is asked whether the marks it looked
    at changed, the answer told by the count of all mark changes is, along the shipped replays and
    simulated games, the one each pile's own count tells; the count told it at times."""
    told = {"by_count": 0, "piles": 0}
    unchanged = B.marks_unchanged

    def both(seen: Any, edits: int = -1) -> bool:
        plain = all(pile.mark_count == count for pile, count in seen)
        told["by_count" if edits == EDITS.marks else "piles"] += 1
        answer = unchanged(seen, edits)
        assert answer == plain
        return answer

    monkeypatch.setattr(B, "marks_unchanged", both)
    along_replays_and_games(lambda _state, _event: None, tmp_path)
    assert told["by_count"] > 0 and told["piles"] > 0, told


def test_a_side_tally_follows_every_change_of_its_rows_and_marks() -> None:
    """Piles joining and leaving a row any way a list can change, a row replaced, marks changed any way,
    a set of effects replaced (the old one changed after), a pile on both sides at once, a copy and a
    snapshot put back: after each, the marks asked are those counted pile by pile."""
    cards = CardDatabase.load(shipped_database("ttcg", "base"), "ttcg")
    state = GAME.setup(Setup(("ann", "ben"), {}, {}, cards))
    state.stage, state.active = "turn", "ann"
    names = [d.name for d in cards if B.is_creature(d)][:3]

    def pile(n: int, tapped: bool = False, on: tuple[int, ...] = ()) -> Pile:
        made = GAME.new_pile(state, "ann", state.new_card(names[n % 3], "ann", cards[names[n % 3]]), by_effect=True)
        made.tapped = tapped
        made.switched_on.update(on)
        return made

    def same() -> None:
        assert B.field_marks(state) == B.field_marks_plain(state), (B.field_marks(state), B.field_marks_plain(state))

    same()
    ann, ben = state.sides["ann"], state.sides["ben"]
    first, second, third = pile(0, True, (1, 2)), pile(1), pile(2, False, (3,))
    same()
    ann.creatures.remove(second)
    same()
    ann.creatures.insert(0, second)
    second.tapped = True
    same()
    old = first.switched_on
    first.switched_on = {7}
    same()
    old.add(9)  # no longer the pile's set
    same()
    first.switched_on |= {8}
    first.switched_on.discard(7)
    first.switched_on.pop()
    same()
    gone = ann.creatures.pop()
    gone.tapped = True  # off the field: counts for no side
    same()
    ann.creatures[0:1] = [third, gone]
    same()
    del ann.creatures[0]
    ann.creatures += [second]
    ann.creatures.extend([])
    same()
    ann.creatures = [first]
    second.switched_on.add(4)  # left with the row it was in
    same()
    ben.creatures.append(first)  # on both sides at once
    first.tapped = False
    same()
    ann.creatures.remove(first)
    first.switched_on.add(5)
    same()
    copy = state.copy()
    snapshot = state.snapshot()
    ben.creatures.clear()
    same()
    snapshot.restore(state)
    same()
    assert B.field_marks(copy) == B.field_marks_plain(copy)


@pytest.mark.interpreted  # patches the spec's Python functions (tests/conftest.py)
def test_statics_that_counted_cards_of_the_field_are_kept_and_are_those_read_afresh_at_every_lookup(
        monkeypatch: Any, tmp_path: Path) -> None:
    """Session 10: a reading of the statics whose conditions counted cards of the field (without
    their ranks) is kept until the make-up changes (``_Field.counted``); at every lookup along the
    shipped replays and simulated games it is what a reading card by card finds, and such kept
    readings were given at times (not read again)."""
    calls: dict[str, int] = {}
    given = {"counted": 0}
    statics_of = B.statics_of

    def watched(state: TtcgState, kinds: Any) -> Any:
        index = B.field_of(state)
        before = (index.statics.get(kinds), index.counted)
        found = statics_of(state, kinds)
        if kinds in before[1] and before[0] is not None and before[0][1] is found:
            given["counted"] += 1
        return found

    monkeypatch.setattr(B, "statics_of", watched)
    monkeypatch.setattr(B, "statics_of", _checked(B, "statics_of", B.statics_of_plain, calls))
    along_replays_and_games(lambda _state, _event: None, tmp_path)
    assert calls["statics_of"] and given["counted"], (calls, given)


def _written_out(state: TtcgState) -> str:
    """:func:`_dump` as text, without what differs from run to run: the addresses of objects
    compared by identity, and the in-force stamp (a sum of counts kept for all states)."""
    return re.sub(r" at 0x[0-9a-f]+|'in_force_stamp': \d+", "", repr(_dump(state)))


@pytest.mark.interpreted  # patches a method of the spec's classes (tests/conftest.py)
def test_a_pass_taken_the_short_way_is_judged_and_carried_out_as_apply_does(monkeypatch: Any, tmp_path: Path) -> None:
    """``Ttcg.apply`` takes most passes by ``Ttcg._pass`` instead of ``Ttcg._apply``: along the
    replays and simulated games, with every pass sent to ``_apply`` instead, each state after each
    event (as :func:`_written_out`) and each report is the same; passes are seen taken the short way
    (those breaking a check, which the replays do not hold, are given in the next test)."""
    from spec.ttcg import game as G

    short = G.Ttcg._pass
    taken = {"legal": 0}

    def counted(self: Any, state: TtcgState, ev: Any, facts: Any) -> list[Any]:
        rulings: list[Any] = short(self, state, ev, facts)
        taken["legal"] += not rulings
        return rulings

    def run() -> list[Any]:
        seen: list[Any] = []
        along_replays_and_games(lambda state, _event: seen.append(_written_out(state)), tmp_path)
        for path in [*REPLAYS, *sorted(tmp_path.glob("*.jsonl"))]:
            for keep_going in (False, True):
                verifier = Verifier(keep_going=keep_going)
                seen.append(msgspec.json.encode(read(path, verifier, _decoder_for)))
        return seen

    monkeypatch.setattr(G.Ttcg, "_pass", counted)
    taken_short = run()
    assert taken["legal"] > 1000, taken
    monkeypatch.setattr(G.Ttcg, "_pass", lambda self, state, ev, _facts: self._apply(state, ev, "pass"))
    assert run() == taken_short


def test_a_pass_by_anyone_is_applied_as_apply_does_whichever_way_it_takes(tmp_path: Path) -> None:
    """Whether ``Ttcg.apply`` takes a pass the short way (``Ttcg._pass``: by a player in a turn while no
    effect waits for an answer, breaking a check or not) or sends it to ``Ttcg._apply`` (an effect
    waiting for an answer, set-up, the game over, a pass by nobody or by a stranger), it is what
    ``_apply`` makes of it: states along the replays and simulated games, each given a pass by each
    player, by nobody and by a stranger. Passes are seen taken the short way, legal and illegal."""
    from spec.ttcg import events as E
    from spec.ttcg import game as G

    states: list[TtcgState] = []

    def see(state: TtcgState, _event: Any) -> None:
        res = state.resolution
        if state.stage != "turn" or (res is not None and res.need is not None) or len(states) % 7 == 0:
            states.append(state.copy())

    along_replays_and_games(see, tmp_path)
    assert any(s.resolution is not None for s in states) and any(s.stage != "turn" for s in states)
    short = G.Ttcg._pass
    taken = {"legal": 0, "broken": 0}
    for state in states:
        for by in (*state.players, None, "stranger"):
            event = E.Pass(seq=(state.seq or 0) + 1, by=by)
            one, other = state.copy(), state.copy()
            other.seq, other.notes = event.seq, []  # (what apply does around _apply)
            try:
                rulings = GAME._apply(other, event, "pass") + other.notes
            except B.Unmodelled:
                continue
            other.notes = []
            assert repr(GAME.apply(one, event)) == repr(rulings)
            assert _written_out(one) == _written_out(other)
            res = state.resolution
            if state.stage == "turn" and (res is None or res.need is None) and by in state.players:
                taken["broken" if rulings else "legal"] += 1
    assert taken["legal"] > 20 and taken["broken"] > 20, taken
    assert G.Ttcg._pass is short


def _written_out_classes() -> tuple[type, ...]:
    """The dataclasses whose ``__init__`` is written out (``init=False``): the one dataclasses
    generates stays a Python function in the compiled build, and these are made on many events."""
    from spec.ttcg.effects import Choice
    from spec.ttcg.state import Battle, Delayed, Lasting, Link, TurnFlags

    return (Choice, Link, Battle, Lasting, Delayed, TurnFlags)


@pytest.fixture(scope="module")
def made_along_games(tmp_path_factory: pytest.TempPathFactory) -> dict[type, list[Any]]:
    """Objects of :func:`_written_out_classes` met on the states along the replays and simulated games, by class."""
    from spec.ttcg.effects import Choice
    from spec.ttcg.state import Battle, Delayed, Lasting, Link, TurnFlags

    found: dict[type, list[Any]] = {cls: [] for cls in _written_out_classes()}

    def see(state: TtcgState, _event: Any) -> None:
        found[TurnFlags].append(state.flags)
        found[Lasting].extend(state.lasting)
        found[Delayed].extend(state.delayed)
        found[Link].extend([*state.chain, *state.resolving, *state.waiting, *([state.paying] if state.paying else [])])
        if state.battle is not None:
            found[Battle].append(state.battle)
        res = state.resolution
        if res is not None and isinstance(res.item, Link):
            found[Link].append(res.item)
        if res is not None and res.need is not None and isinstance(res.need.detail, Choice):
            found[Choice].append(res.need.detail)

    along_replays_and_games(see, tmp_path_factory.mktemp("games"))
    return found


@pytest.mark.parametrize("name", [cls.__name__ for cls in _written_out_classes()])
def test_constructors_written_out_take_each_field_as_the_generated_one_would(name: str, made_along_games: dict[type, list[Any]]) -> None:
    """Each written-out ``__init__`` takes the dataclass's fields by their names and in their order:
    an object met along the replays and simulated games, made again from its fields by keyword and
    by position, has the same fields, the lists and sets given kept (not copied)."""
    cls = next(c for c in _written_out_classes() if c.__name__ == name)
    met = made_along_games[cls]
    assert met, name
    assert any(any(getattr(obj, f.name) != f.default for f in init_fields(cls) if f.default is not dataclasses.MISSING)
               for obj in met) or all(f.default is dataclasses.MISSING for f in init_fields(cls)), name  # not defaults alone
    assert made_again_by_keyword_and_position(cls, met[:400]) == len(met[:400])
    for obj in met[:400]:
        values = {f.name: getattr(obj, f.name) for f in init_fields(cls)}
        assert cls(**values) == obj and cls(*values.values()) == obj


@pytest.mark.parametrize("name", [cls.__name__ for cls in _written_out_classes()])
def test_constructors_written_out_give_the_declared_defaults(name: str, made_along_games: dict[type, list[Any]]) -> None:
    """Made with its required fields alone, each object has every other field at its declared default
    (a fresh list or set per object where the declaration has a factory)."""
    cls = next(c for c in _written_out_classes() if c.__name__ == name)
    defaults_as_declared(cls, made_along_games[cls][0])


def test_a_choice_compares_and_hashes_as_a_frozen_one_would(made_along_games: dict[type, list[Any]]) -> None:
    """:class:`~spec.ttcg.effects.Choice` is never changed but not declared frozen (so that its
    ``__init__`` can be written out): it compares by its fields and hashes by the tuple of them."""
    from spec.ttcg.effects import Choice

    met = made_along_games[Choice]
    assert len(met) > 10
    for choice in met:
        values = tuple(getattr(choice, f.name) for f in dataclasses.fields(Choice))
        assert choice == Choice(*values) and hash(choice) == hash(values)
        assert choice != Choice(*values[:-1], values[-1] + 1)


@pytest.mark.interpreted  # patches methods of the spec's classes (tests/conftest.py)
def test_each_move_carried_out_by_name_is_its_own_method(monkeypatch: Any, tmp_path: Path) -> None:
    """``Ttcg._carry_out`` calls the moves of a turn by name: along the replays and simulated games,
    each kind of event carried out reaches its own ``_do_<kind>``, those named and those found by
    name alike."""
    from spec.ttcg import game as G

    reached: dict[str, set[str]] = {}

    def counted(name: str, plain: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(self: Any, state: TtcgState, ev: Any) -> Any:
            reached.setdefault(name, set()).add(ev.__struct_config__.tag)
            return plain(self, state, ev)

        return wrapped

    for name in [n for n in vars(G.Ttcg) if n.startswith("_do_")]:
        monkeypatch.setattr(G.Ttcg, name, counted(name, getattr(G.Ttcg, name)))
    along_replays_and_games(lambda _state, _event: None, tmp_path)
    assert {"_do_play", "_do_activate", "_do_attack", "_do_draw", "_do_discard", "_do_pass"} <= set(reached), reached
    for name, tags in reached.items():
        assert tags == {name.removeprefix("_do_")}, (name, tags)


def test_methods_run_on_most_events_carry_no_decorator_and_their_rules_are_noted() -> None:
    """The methods of ``_NOTED_APART`` (run on nearly every event) are not decorated, since compiled
    a decorated method is called through Python's generic call; the rules each encodes are noted
    after the class instead, one ``BOOK.note`` under a comment naming each method, and are encoded."""
    import ast

    from spec.ttcg import game as G

    source = (Path(G.__file__).parent / "game.py").read_text()  # (compiled, the module is a built library beside it)
    (cls,) = [node for node in ast.parse(source).body if isinstance(node, ast.ClassDef) and node.name == "Ttcg"]
    methods = {node.name: node for node in cls.body if isinstance(node, ast.FunctionDef)}
    lines = source.splitlines()
    for name in G._NOTED_APART:
        assert not methods[name].decorator_list, name
        at = lines.index(f"# Ttcg.{name}")
        assert lines[at + 1].startswith("BOOK.note("), name
        rule_ids = re.findall(r'"(\d[\w.]*)"', lines[at + 1].split("what=")[0])
        assert rule_ids and all(rule_id in GAME.book.encoded for rule_id in rule_ids), name
    decorated = {name for name, node in methods.items() if node.decorator_list}
    assert decorated.isdisjoint(G._NOTED_APART)


def _find_pile_plain(state: TtcgState, owner: str | None, name: str, slot: int | None, row: str | None = None) -> Pile | None:
    """:func:`spec.ttcg.board.find_pile` as it was first written: each player, each row, in turn."""
    for player in state.players if owner is None else (owner,):
        if player not in state.sides:
            return None
        side = state.sides[player]
        for rowlist in (side.creatures, side.magic):
            if row is not None and (rowlist is side.creatures) != (row == "creature"):
                continue
            if slot is not None:
                if 0 <= slot < len(rowlist) and rowlist[slot].card.name == name:
                    return rowlist[slot]
                continue
            for pile in rowlist:
                if pile.card.name == name:
                    return pile
    return None


def test_a_pile_found_by_name_is_the_one_each_row_read_in_turn_finds_along_the_replays(tmp_path: Path) -> None:
    """:func:`spec.ttcg.board.find_pile` (written for native reading) finds the pile the plain walk
    over players and rows finds, for every name on the field and one that is not, by any owner or
    none (or a stranger), slot and row, at every event of the replays and simulated games."""
    asked = {"found": 0, "none": 0}

    def see(state: TtcgState, _event: Any) -> None:
        names = {pile.card.name or "" for _owner, pile in B.piles(state)} | {"no such card"}
        for owner in (None, *state.players, "stranger"):
            for name in names:
                for slot in (None, 0, 1, 2, -1):
                    for row in (None, "creature", "magic"):
                        found = B.find_pile(state, owner, name, slot, row)
                        assert found is _find_pile_plain(state, owner, name, slot, row), (owner, name, slot, row)
                        asked["found" if found is not None else "none"] += 1

    along_replays_and_games(see, tmp_path)
    assert asked["found"] > 1000 and asked["none"] > 1000, asked
