"""Hidden information with z3 (issue 6): decklists and revealed cards as constraints.

Counting copies per name (``spec.core.hidden.DeckKnowledge``) stays the fast path and is
exact while every card shown is shown by name; a card shown only as a kind ("a Faerie")
makes it a constraint problem for z3 (``spec.core.hidden_z3``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spec.core import hidden_z3 as H
from spec.core.hidden import DeckKnowledge
from spec.core.hidden_z3 import DeckModel, Observation, check

ROOT = Path(__file__).resolve().parent.parent
FAERIE_REPLAY = ROOT / "replays/neopets/illegal/inconsistent-hidden-faerie.jsonl"
DECK = {"Lumen Faerie": 1, "Hollow Faerie": 1, "Thornberry Omelette": 2, "Sparkflint Codestone": 46}
REGISTERED = DeckModel("alice", DECK, lambda name: 2, 50)


def out(seq: int, name: str, source: str = "deck") -> Observation:
    return Observation(seq, "out", name, words=f"took {name}", source=source)  # type: ignore[arg-type]


def mark(seq: int, *names: str) -> Observation:
    return Observation(seq, "mark", names=frozenset(names), words="showed a Faerie without its name")


def test_named_reveals_within_the_decklist_are_consistent() -> None:
    assert check(REGISTERED, [out(1, "Lumen Faerie"), out(2, "Thornberry Omelette"), out(3, "Thornberry Omelette")]).status == "consistent"


def test_a_copy_more_than_registered_is_inconsistent_and_the_core_names_the_events() -> None:
    outcome = check(REGISTERED, [out(1, "Sparkflint Codestone"), out(4, "Thornberry Omelette"), out(7, "Thornberry Omelette"),
                                 out(9, "Thornberry Omelette")])
    assert outcome.status == "inconsistent"
    assert outcome.seqs == [4, 7, 9]  # the Codestone at seq 1 has nothing to do with it
    assert "2 copies of Thornberry Omelette" in outcome.explanation


def test_a_card_shuffled_back_can_come_out_again() -> None:
    observations = [out(1, "Lumen Faerie"), Observation(2, "back", "Lumen Faerie", words="shuffled it back"), out(5, "Lumen Faerie")]
    assert check(REGISTERED, observations).status == "consistent"
    assert check(REGISTERED, observations[:1] + observations[2:]).status == "inconsistent"


def test_a_card_shown_only_as_a_kind_holds_a_copy_back() -> None:
    """The only Faerie was shown in hand: it cannot be drawn from the deck afterwards (counting says it can)."""
    model = DeckModel("alice", {"Lumen Faerie": 1, "Sparkflint Codestone": 49}, lambda name: 2, 50)
    outcome = check(model, [mark(40, "Lumen Faerie"), out(52, "Lumen Faerie")])
    assert outcome.status == "inconsistent" and outcome.seqs == [40, 52]
    assert "can only be Lumen Faerie" in outcome.explanation


def test_the_marked_card_itself_may_be_played_later() -> None:
    model = DeckModel("alice", {"Lumen Faerie": 1, "Sparkflint Codestone": 49}, lambda name: 2, 50)
    assert check(model, [mark(40, "Lumen Faerie"), out(52, "Lumen Faerie", source="hidden")]).status == "consistent"


def test_two_marks_may_be_one_card_shown_twice() -> None:
    marks = [mark(40, "Lumen Faerie", "Hollow Faerie"), mark(41, "Lumen Faerie", "Hollow Faerie")]
    assert check(REGISTERED, [*marks, out(52, "Lumen Faerie")]).status == "consistent"
    outcome = check(REGISTERED, [*marks, out(52, "Lumen Faerie"), out(53, "Hollow Faerie")])
    assert outcome.status == "inconsistent"  # at least one Faerie is in hand: both cannot come from the deck


def test_without_a_decklist_the_construction_limits_bound_what_is_shown() -> None:
    model = DeckModel("bob", None, lambda name: 1 if "Faerie" in name else None, 50)
    assert check(model, [out(3, "Lumen Faerie"), out(4, "Sparkflint Codestone"), out(5, "Sparkflint Codestone")]).status == "consistent"
    outcome = check(model, [mark(3, "Lumen Faerie"), out(5, "Lumen Faerie")])
    assert outcome.status == "inconsistent" and "construction rules allow at most 1 copy of Lumen Faerie" in outcome.explanation


def test_a_timeout_is_unknown_never_consistent() -> None:
    outcome = check(REGISTERED, [mark(40, "Lumen Faerie"), out(52, "Lumen Faerie")], rlimit=1)
    assert outcome.status == "unknown" and "could not decide" in outcome.explanation


def test_an_outcome_decided_is_kept_for_the_same_model_and_journal() -> None:
    """The simulator and the mutation tester ask of one journal many times: z3 answers it once."""
    journal = [mark(40, "Lumen Faerie", "Hollow Faerie"), out(52, "Lumen Faerie")]
    first = check(REGISTERED, journal)
    assert check(REGISTERED, list(journal)) is first
    assert check(DeckModel("bob", DECK, lambda name: 2, 50), journal) is not first  # the words name the player
    assert check(REGISTERED, journal[:1]) is not first
    assert check(REGISTERED, journal, rlimit=1) is not check(REGISTERED, journal, rlimit=1)  # unknown: never kept


# ============================================================================ DeckKnowledge: the fast path and the journal


def test_counting_stays_the_fast_path_without_marks(monkeypatch: pytest.MonkeyPatch) -> None:
    knowledge = DeckKnowledge(Counter(DECK), lambda name: 2, "alice")
    knowledge.reveal("Lumen Faerie", "drew Lumen Faerie")

    def boom(*args: object, **kwargs: object) -> None:
        raise AssertionError("z3 was called without a mark")

    monkeypatch.setattr(H, "check", boom)
    assert knowledge.contradiction(50) is None
    assert [o.name for o in knowledge.observations()] == ["Lumen Faerie"]


def test_the_journal_is_shared_by_copies_and_grows_apart() -> None:
    knowledge = DeckKnowledge(Counter(DECK), lambda name: 2, "alice")
    knowledge.now = 3
    knowledge.reveal("Lumen Faerie")
    other = knowledge.copy()
    other.reveal("Hollow Faerie")
    assert [o.name for o in knowledge.observations()] == ["Lumen Faerie"]
    assert [o.name for o in other.observations()] == ["Lumen Faerie", "Hollow Faerie"]
    assert other.observations()[0].seq == 3


def test_notes_are_dated_with_the_event_given_and_no_event_keeps_the_date() -> None:
    knowledge = DeckKnowledge(Counter(DECK), lambda name: 2, "alice")
    knowledge.dated(4).reveal("Lumen Faerie")
    knowledge.dated(None).reveal("Hollow Faerie")  # no event applied yet: the date stays
    knowledge.dated(7).conceal("Lumen Faerie")
    assert [o.seq for o in knowledge.observations()] == [4, 4, 7]


def test_a_contradiction_is_reported_once() -> None:
    knowledge = DeckKnowledge(Counter({"Lumen Faerie": 1}), lambda name: 2, "alice")
    knowledge.mark(["Lumen Faerie"], "showed a Faerie")
    assert knowledge.contradiction(1) is None
    knowledge.reveal("Lumen Faerie", "drew Lumen Faerie")
    found = knowledge.contradiction(1)
    assert found is not None and found.status == "inconsistent"
    knowledge.reveal("Lumen Faerie")
    assert knowledge.contradiction(1) is None


def _knowledge(ops: list[tuple[str, str]]) -> DeckKnowledge:
    """A journal from ``ops``: ``("out", name)`` shows a copy, ``("back", name)`` shuffles one
    back, ``("mark", "A|B")`` shows a hidden card to be one of the names."""
    knowledge = DeckKnowledge(Counter(DECK), lambda name: 2, "alice")
    for seq, (kind, name) in enumerate(ops, start=1):
        knowledge.dated(seq)
        if kind == "out":
            knowledge.reveal(name, f"took {name}")
        elif kind == "back":
            knowledge.conceal(name)
        else:
            knowledge.mark(name.split("|"), "showed a Faerie without its name")
    return knowledge


def test_the_solver_weighs_only_the_names_a_mark_may_be() -> None:
    """A name no mark may be is bounded alone and settled by counting: its copies stay out
    of the solver's problem while they are within the decklist."""
    knowledge = _knowledge([("out", "Sparkflint Codestone"), ("out", "Thornberry Omelette"), ("mark", "Lumen Faerie|Hollow Faerie"),
                            ("out", "Thornberry Omelette"), ("out", "Lumen Faerie")])
    kept = knowledge.entangled(knowledge.observations())
    assert [(o.kind, o.name, o.seq) for o in kept] == [("mark", None, 3), ("out", "Lumen Faerie", 5)]
    knowledge.reveal("Thornberry Omelette", "took a third Thornberry Omelette")  # beyond the 2 registered
    assert knowledge.entangled(knowledge.observations()) == knowledge.observations()  # the solver names it too


NAMES = ["Lumen Faerie", "Hollow Faerie", "Thornberry Omelette"]
OPS = st.one_of(st.tuples(st.sampled_from(["out", "back"]), st.sampled_from(NAMES)),
                st.tuples(st.just("mark"), st.sets(st.sampled_from(NAMES[:2]), min_size=1).map(lambda s: "|".join(sorted(s)))))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(OPS, max_size=9))
def test_weighing_only_the_entangled_part_decides_as_the_whole_journal(ops: list[tuple[str, str]]) -> None:
    """Leaving the names no mark may be to counting never changes what z3 decides."""
    knowledge = _knowledge(ops)
    journal = knowledge.observations()
    assert check(REGISTERED, knowledge.entangled(journal)).status == check(REGISTERED, journal).status


# ============================================================================ Neopets replays


def test_the_faerie_replay_is_inconsistent_and_only_z3_sees_it() -> None:
    from verifier.corpus import replay_states
    from verifier.verify import verify_file

    report = verify_file(FAERIE_REPLAY)
    first = next(f for f in report.findings if f.severity == "inconsistent")
    assert report.verdict == "inconsistent" and first.rule == "neopets:8.20.7a"
    assert "revealed a Faerie" in first.message and "drew Lumen Faerie" in first.message
    lines = FAERIE_REPLAY.read_bytes().splitlines()
    last = [(s.copy(), ev) for s, ev, _raw in replay_states("neopets", lines)][-1]
    state, event = last
    assert event.card == "Lumen Faerie" and state.sides["alice"].knowledge.can_reveal("Lumen Faerie")  # counting: fine


def test_an_unnamed_reveal_of_a_known_card_needs_no_solver() -> None:
    from spec import load_game
    from spec.neopets import events as E
    from verifier.corpus import replay_states

    game = load_game("neopets")
    lines = FAERIE_REPLAY.read_bytes().splitlines()
    state = next(s.copy() for s, ev, _raw in replay_states("neopets", lines) if ev.__struct_config__.tag == "reveal")
    faerie = state.new_card("Lumen Faerie", "alice", state.cards["Lumen Faerie"])
    state.sides["alice"].inventory.add(faerie)  # a known Faerie in hand: it may be the one shown
    assert not [r for r in game.apply(state, E.Reveal(0, "alice", "")) if r.violation.severity != "info"]
    assert state.sides["alice"].knowledge.marks == 0


def test_a_hidden_information_timeout_in_a_replay_is_unverifiable(monkeypatch: pytest.MonkeyPatch) -> None:
    from verifier.verify import verify_file

    monkeypatch.setattr(H, "DEFAULT_RLIMIT", 1)
    report = verify_file(FAERIE_REPLAY)
    assert report.verdict == "unverifiable"
    assert any("could not decide" in f.message for f in report.findings)
