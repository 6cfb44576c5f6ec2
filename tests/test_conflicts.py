"""Conflicts between effects (issue 6): the z3 encoding, each game's policy, replays, designers' analysis.

Every precedence decision has a test that fails when the decision is taken out of the
policy (:meth:`spec.core.conflicts.Policy.without`): the outcome then changes, most
often to a gap in the rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from spec.core import conflicts as C
from spec.core.cards import CardDef
from spec.core.conflicts import ConflictSolver, Effect, Guard, Policy, analyse, resolve
from spec.neopets import conflicts as NC

ROOT = Path(__file__).resolve().parent.parent
LEGAL = ROOT / "replays/neopets/legal/conflicts-settled-1.jsonl"
ILLEGAL = ROOT / "replays/neopets/illegal/breaks-4-1.jsonl"


def card(name: str, kind: str = "card", rule: str | None = None, **fields: object) -> Effect:
    """A synthetic effect: ``card("Tea", "can", subject="alice", topic="play cards")``."""
    base: dict[str, object] = {"id": name, "kind": kind, "subject": "alice", "topic": "play cards", "source": name}
    if rule is not None:
        base.update(origin="rule", rule=rule, source="rules")
    base.update(fields)
    return Effect(**base)  # type: ignore[arg-type]


class Toy(Policy):
    """A policy that settles nothing, with stats clamped into 0..10."""

    game = "toy"

    def clamp(self, stat: str) -> tuple[int | None, int | None]:
        return (0, 10)


TOY = Toy()


@pytest.fixture
def fresh_solver() -> Iterator[None]:
    """Forget cached resolutions (tests swap policies and solvers)."""
    C._RESOLVED.clear()
    yield
    C._RESOLVED.clear()


# ============================================================================ the encoding


def test_a_cant_and_a_can_of_one_action_cannot_both_hold() -> None:
    outcome = ConflictSolver().check([card("Tea", "can"), card("Skewer", "cant", topic="play Food")], TOY)
    assert outcome.status == "conflict"
    assert {e.source for e in outcome.core} == {"Tea", "Skewer"}


def test_effects_that_speak_of_different_actions_hold_together() -> None:
    assert ConflictSolver().check([card("A", "can", topic="play Food"), card("B", "cant", topic="attack")], TOY).status == "consistent"
    assert ConflictSolver().check([card("A", "can"), card("B", "cant", subject="bob")], TOY).status == "consistent"


def test_two_settings_of_one_stat_clash_and_the_core_leaves_out_bystanders() -> None:
    effects = [card("Giant", "set", topic="Attack", value=7), card("Dwarf", "set", topic="Attack", value=2),
               card("Sword", "modify", topic="Defence", value=1), card("Tea", "can")]
    outcome = ConflictSolver().check(effects, TOY)
    assert outcome.status == "conflict"
    assert {e.source for e in outcome.core} >= {"Giant", "Dwarf"}
    assert "Tea" not in {e.source for e in outcome.core} and "Sword" not in {e.source for e in outcome.core}


def test_a_grant_of_extra_plays_clashes_with_a_limit() -> None:
    effects = [card("Picnic", "grant", topic="play a card", value=1), card("limit", "limit", rule="toy:1", topic="play a card", value=1)]
    assert ConflictSolver().check(effects, TOY).status == "conflict"
    assert ConflictSolver().check(effects[:1] + [card("limit", "limit", rule="toy:1", topic="play a card", value=2)], TOY).status == "consistent"


def test_a_must_clashes_with_a_cant_and_a_negation_with_the_abilities_it_removes() -> None:
    assert ConflictSolver().check([card("Snowcone", "must", topic="be frozen"), card("Bramble", "cant", topic="be frozen")], TOY).status == "conflict"
    negation = card("Collar", "negate", topic="abilities", source_key="collar", negates=("bramble",))
    shield = card("Bramble", "cant", topic="be frozen", source_key="bramble")
    assert ConflictSolver().check([negation, shield], TOY).status == "conflict"
    assert ConflictSolver().check([negation, card("Other", "cant", topic="be frozen", source_key="other")], TOY).status == "consistent"


def test_the_witness_is_a_situation_where_a_cap_and_a_modifier_clash() -> None:
    effects = [card("Cap", "cap", topic="Attack", value=5), card("Sword", "modify", topic="Attack", value=3)]
    outcome = ConflictSolver().witness(effects, TOY)
    assert outcome.status == "conflict"
    printed = outcome.situation["printed Attack of alice"]
    assert printed + 3 > 5  # z3 chose a printed value for which the total goes over the cap
    assert ConflictSolver().witness([card("Cap", "cap", topic="Attack", value=15), effects[1]], TOY).status == "consistent"


def test_a_guard_the_witness_needs_is_reported() -> None:
    effects = [card("Tea", "can", topic="play Food"),
               card("rule", "cant", rule="toy:1", topic="play Food", guard=(Guard("alice is outside her phase", ">=", 1, fact=True),))]
    outcome = ConflictSolver().witness(effects, TOY)
    assert outcome.status == "conflict" and "alice is outside her phase?" in outcome.situation


def test_a_general_can_gives_way_only_where_a_cant_speaks() -> None:
    """"Can play cards" against "can't play Food": Food is forbidden, Potions stay allowed."""
    policy = C.NoPolicy("toy")
    policy.precedence = (C.cant_beats_can("toy:4.1"),)
    result = resolve([card("Tea", "can"), card("Skewer", "cant", topic="play Food"),
                      card("Vigor", "must", topic="play Potion")], policy, ConflictSolver())
    assert [c.settlement.rule for c in result.conflicts if c.settlement] == ["toy:4.1"]
    kept = {(e.source, e.topic) for e in result.prevailing}
    assert ("Tea", "play Potion") in kept and ("Tea", "play Food") not in kept


def test_the_cheap_pre_filter_needs_two_effects_that_could_clash() -> None:
    assert not C.could_interact([card("Tea", "can")], TOY)
    assert not C.could_interact([card("A", "modify", topic="Attack", value=1), card("B", "modify", topic="Attack", value=2)], TOY)
    assert C.could_interact([card("Tea", "can"), card("Skewer", "cant", topic="play Food")], TOY)
    assert not C.could_interact([card("Tea", "can"), card("Other", "can", topic="play Food")], TOY)


def test_a_timeout_makes_the_resolution_undecided(fresh_solver: None) -> None:
    result = resolve([card("Tea", "can"), card("Skewer", "cant", topic="play Food")], TOY, ConflictSolver(rlimit=1))
    assert result.undecided is not None and "could not decide" in result.undecided
    assert result.conflicts == []


def test_a_clash_no_rule_settles_is_a_gap() -> None:
    result = resolve([card("Giant", "set", topic="Attack", value=7), card("Dwarf", "set", topic="Attack", value=2)], TOY,
                     ConflictSolver())
    assert result.gaps and result.gaps[0].settlement is None
    assert {e.source for e in result.gaps[0].effects} >= {"Giant", "Dwarf"}


# ============================================================================ the Neopets policy

NEOPETS = NC.POLICY
TEA = Effect("tea", "can", "alice", "play cards", source="Stargazer Tea", static=False, text="alice can play cards")
SKEWER = Effect("skewer", "cant", "alice", "play Food", source="Sizzleroot Skewer", static=False, text="alice can't play Food")
GRANT = Effect("picnic", "grant", "alice", "play a card", 1, source="Picnic", static=False)
ONE_PLAY = Effect("one", "limit", "alice", "play a card", 1, origin="rule", rule="neopets:5.4.2a.p1")
OLD_H = Effect("h1", "negate", "bob", "abilities", source="Hushwing (alice)", source_key="h1", negates=("h2",), since=(1, 0))
NEW_H = Effect("h2", "negate", "alice", "abilities", source="Hushwing (bob)", source_key="h2", negates=("h1",), since=(5, 1))
COLLAR = Effect("collar", "negate", "alice", "abilities", source="Muffling Collar (bob)", source_key="collar", negates=("h1",),
                since=(9, 1))


def settled(effects: list[Effect], policy: Policy) -> C.Conflict:
    result = resolve(effects, policy, ConflictSolver())
    assert len(result.conflicts) == 1, result.conflicts
    return result.conflicts[0]


@pytest.mark.rule("neopets:4.1")
def test_neopets_cant_beats_can() -> None:
    conflict = settled([TEA, SKEWER], NEOPETS)
    assert conflict.settlement is not None and conflict.settlement.rule == "neopets:4.1"
    assert [e.source for e in conflict.settlement.winners] == ["Sizzleroot Skewer"]
    assert settled([TEA, SKEWER], NEOPETS.without("neopets:4.1")).settlement is None


def test_effects_that_cannot_clash_do_not_ask_z3_again(fresh_solver: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bystander joining the effects in force changes nothing among those that clash:
    the answer for the clashing ones is reused, and the bystander prevails too."""
    asked: list[int] = []
    check = ConflictSolver.check

    def counting(self: ConflictSolver, *args: object, **kwargs: object) -> C.Outcome:
        asked.append(1)
        return check(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ConflictSolver, "check", counting)
    first = resolve([TEA, SKEWER], NEOPETS)
    calls = len(asked)
    bystander = Effect("boots", "modify", "bob", "Agility", 1, source="Swift Boots", static=True)
    again = resolve([TEA, SKEWER, bystander], NEOPETS)
    assert len(asked) == calls  # answered without z3
    assert [c.key for c in again.conflicts] == [c.key for c in first.conflicts]
    assert [e.id for e in again.prevailing] == [e.id for e in first.prevailing] + ["boots"]


@pytest.mark.rule("neopets:4.2")
def test_neopets_card_text_over_rules() -> None:
    conflict = settled([GRANT, ONE_PLAY], NEOPETS)
    assert conflict.settlement is not None and conflict.settlement.rule == "neopets:4.2"
    assert conflict.settlement.losers == (ONE_PLAY,)
    assert settled([GRANT, ONE_PLAY], NEOPETS.without("neopets:4.2")).settlement is None


@pytest.mark.rule("neopets:8.18.5")
def test_neopets_the_longer_standing_passive_wins() -> None:
    conflict = settled([OLD_H, NEW_H], NEOPETS)
    assert conflict.settlement is not None and conflict.settlement.rule == "neopets:8.18.5"
    assert conflict.settlement.losers == (NEW_H,)
    assert settled([OLD_H, NEW_H], NEOPETS.without("neopets:8.18.5")).settlement is None


def test_neopets_sources_that_entered_together_go_active_player_first() -> None:
    together = Effect("h2", "negate", "alice", "abilities", source="Hushwing (bob)", source_key="h2", negates=("h1",), since=(1, 1))
    conflict = settled([OLD_H, together], NEOPETS)
    assert conflict.settlement is not None and conflict.settlement.losers == (together,)
    assert "entered play together" in conflict.settlement.reason and "9.7.1" in conflict.settlement.reason


@pytest.mark.rule("neopets:8.20.6b")
def test_neopets_a_negation_removes_what_it_names_even_a_negation() -> None:
    """The Collar is newer than Hushwing, but it negates Hushwing; Hushwing's negation names another Neopet."""
    conflict = settled([COLLAR, OLD_H], NEOPETS)
    assert conflict.settlement is not None and conflict.settlement.rule == "neopets:8.20.6b"
    assert conflict.settlement.losers == (OLD_H,)
    without = settled([COLLAR, OLD_H], NEOPETS.without("neopets:8.20.6b"))
    assert without.settlement is not None and without.settlement.rule == "neopets:8.18.5"
    assert without.settlement.losers == (COLLAR,)  # the older Hushwing would win: a different outcome


def test_neopets_4_2_is_tried_before_4_1() -> None:
    """A rule's can't (the timing of Equipment) does not beat a card's can by 4.1: 4.2 gives it to the card."""
    timing = Effect("timing", "cant", "alice", "play Equipment", origin="rule", rule="neopets:7.6.3")
    conflict = settled([TEA, timing], NEOPETS)
    assert conflict.settlement is not None and conflict.settlement.rule == "neopets:4.2"
    assert conflict.settlement.losers == (timing,)


def test_neopets_4_1_is_tried_before_8_18_5() -> None:
    """Between two passives, an older can and a newer can't: the golden rule 4.1 decides, not age."""
    can = Effect("c", "can", "alice", "attack", source="Old", source_key="o", since=(1, 0))
    cant = Effect("d", "cant", "alice", "attack", source="New", source_key="n", since=(7, 0))
    assert settled([can, cant], NEOPETS).settlement.losers == (can,)  # type: ignore[union-attr]
    swapped = NEOPETS.without()
    swapped.precedence = (NC.NEGATION, NC.CARD_OVER_RULES, NC.LONGER_STANDING, NC.CANT_BEATS_CAN)
    assert settled([can, cant], swapped).settlement.losers == (cant,)  # type: ignore[union-attr]


def test_neopets_two_lasting_settings_are_a_gap() -> None:
    """8.18.5 speaks of passive abilities only: two results of resolved cards are left open."""
    a = Effect("a", "set", "alice", "Attack", 3, source="A", static=False)
    b = Effect("b", "set", "alice", "Attack", 5, source="B", static=False)
    result = resolve([a, b], NEOPETS, ConflictSolver())
    assert result.gaps and {e.source for e in result.gaps[0].effects} >= {"A", "B"}


def test_neopets_precedence_rules_cite_the_rule_index() -> None:
    from spec import load_game

    index = load_game("neopets").book.index
    for rule in NEOPETS.precedence:
        assert rule.rule.split(":", 1)[1] in index


# ============================================================================ Neopets replays


def _first(report: object, severity: str) -> object:
    return next(f for f in report.findings if f.severity == severity)  # type: ignore[attr-defined]


def test_a_legal_game_lists_each_conflict_met_and_how_it_was_settled() -> None:
    from verifier.verify import verify_file

    report = verify_file(LEGAL)
    assert report.verdict == "legal"
    assert {f.rule for f in report.conflicts} == {"neopets:4.1", "neopets:4.2", "neopets:8.18.5", "neopets:8.20.6b"}
    assert all(f.severity == "info" for f in report.conflicts)
    assert all(f.severity == "info" for f in report.findings)
    tea = next(f for f in report.conflicts if f.rule == "neopets:4.1")
    assert "Stargazer Tea" in tea.message and "Sizzleroot Skewer" in tea.message and "prevails" in tea.message


def test_info_findings_never_change_a_verdict() -> None:
    from spec.core.findings import Finding, verdict_of

    assert verdict_of([Finding(3, 4, "info", "neopets:4.1", "a conflict met")]) == "legal"


@pytest.mark.parametrize("rule", ["neopets:4.1", "neopets:4.2", "neopets:8.18.5"])
def test_the_legal_game_is_no_longer_judged_legal_without_a_policy_rule(rule: str, monkeypatch: pytest.MonkeyPatch,
                                                                         fresh_solver: None) -> None:
    from verifier.verify import verify_file

    monkeypatch.setattr(NC, "POLICY", NEOPETS.without(rule))
    report = verify_file(LEGAL)
    assert report.verdict != "legal"
    assert rule not in {f.rule for f in report.conflicts}


def test_without_8_20_6b_the_collar_gives_way_to_the_older_hushwing(monkeypatch: pytest.MonkeyPatch, fresh_solver: None) -> None:
    from verifier.verify import verify_file

    monkeypatch.setattr(NC, "POLICY", NEOPETS.without("neopets:8.20.6b"))
    report = verify_file(LEGAL)
    collar = [f for f in report.conflicts if "Muffling Collar" in f.message]
    assert collar and collar[0].rule == "neopets:8.18.5" and "Muffling Collar" in (collar[0].actual or "")


def test_a_log_that_follows_the_can_is_illegal_citing_4_1() -> None:
    from verifier.verify import verify_file

    report = verify_file(ILLEGAL)
    first = _first(report, "illegal")
    assert report.verdict == "illegal" and first.rule == "neopets:4.1"  # type: ignore[attr-defined]
    assert "Stargazer Tea" in first.message and "Sizzleroot Skewer" in first.message  # type: ignore[attr-defined]


def test_without_4_1_the_same_log_is_a_gap_not_illegal(monkeypatch: pytest.MonkeyPatch, fresh_solver: None) -> None:
    from verifier.verify import verify_file

    monkeypatch.setattr(NC, "POLICY", NEOPETS.without("neopets:4.1"))
    report = verify_file(ILLEGAL)
    assert report.verdict == "unverifiable"
    assert any("gap in the rules" in f.message for f in report.findings)


def test_a_z3_timeout_in_a_replay_is_unverifiable(monkeypatch: pytest.MonkeyPatch, fresh_solver: None) -> None:
    from verifier.verify import verify_file

    monkeypatch.setattr(C, "_SHARED", ConflictSolver(rlimit=1))
    report = verify_file(LEGAL)
    assert report.verdict == "unverifiable"
    assert any("could not decide" in f.message for f in report.findings)


def test_effects_in_force_read_negated_sources_too() -> None:
    """The Hushwing game's state: both negations are effects in force, whatever board.negated_neopets decides."""
    from verifier.corpus import replay_states

    lines = LEGAL.read_bytes().splitlines()
    state = next(s for s, _event, _raw in replay_states("neopets", lines) if s.stage == "turn" and s.turn >= 2)
    negations = [e for e in NC.effects_in_force(state) if e.kind == "negate"]
    assert {e.source for e in negations} == {"Hushwing (alice)", "Hushwing (bob)"}


# ============================================================================ designers: pairs, sets, loops


def _neopets_cards() -> list[CardDef]:
    from spec.core.cards import CardDatabase, shipped_database

    return list(CardDatabase.load(shipped_database("neopets", "base")))


def test_designer_analysis_finds_the_shipped_clashes_and_settles_them() -> None:
    cards = {c.name: c for c in _neopets_cards()}
    picked = [cards[n] for n in ("Stargazer Tea", "Sizzleroot Skewer", "Hushwing", "Bramblewump", "Snowcone Surprise")]
    result = analyse(picked, NEOPETS)
    by_cards = {f.cards: f for f in result.findings}
    assert by_cards[("Sizzleroot Skewer", "Stargazer Tea")].settlement.rule == "neopets:4.1"  # type: ignore[union-attr]
    assert by_cards[("Bramblewump", "Snowcone Surprise")].settlement.rule == "neopets:4.1"  # type: ignore[union-attr]
    assert by_cards[("Bramblewump", "Hushwing")].settlement.rule == "neopets:8.20.6b"  # type: ignore[union-attr]
    hush = by_cards[("Hushwing", "Hushwing")].settlement
    assert hush is not None and hush.rule == "neopets:8.18.5" and hush.conditional
    tea = by_cards[("Stargazer Tea",)].settlement  # against the rules' timing
    assert tea is not None and tea.rule == "neopets:4.2"
    assert all(f.situation for f in result.findings)


def test_designer_analysis_against_a_database_and_json() -> None:
    import msgspec

    cards = {c.name: c for c in _neopets_cards()}
    result = analyse([cards["Snowcone Surprise"]], NEOPETS, against=[cards["Bramblewump"], cards["Snowcone Surprise"]])
    data = msgspec.json.decode(result.to_json())
    assert data["conflicts"][0]["cards"] == ["Bramblewump", "Snowcone Surprise"]
    assert data["conflicts"][0]["settled_by"]["rule"] == "neopets:4.1"


def test_a_set_of_three_is_reported_when_no_pair_explains_it() -> None:
    class Capped(Policy):
        game = "toy"

    policy = Capped()
    policy.precedence = ()
    a = CardDef("Cap Charm", "Equipment", "Your Neopet gets +5 Attack.")
    b = CardDef("Big Sword", "Equipment", "Your Neopet gets +5 Attack.")
    triple = C.CardReading(CardDef("Limiter", "Equipment"), (C.Template("cap", "Attack", "you", "player", 12),))
    first = C.read_card(a, NC.POLICY)
    second = C.read_card(b, NC.POLICY)
    findings = C._check_set((first, second, triple), policy, ConflictSolver(), set())
    assert findings and set(findings[0].cards) == {"Cap Charm", "Big Sword", "Limiter"}
    assert findings[0].status == "gap"
    assert any("printed Attack" in words for words in findings[0].situation)


def test_possible_endless_loops_are_cycles_of_the_trigger_graph() -> None:
    ping = CardDef("Ping Pup", "Neopet", "When your Neopet is dealt damage, deal 1 damage to your opponent's Neopet.")
    calm = CardDef("Calm Carp", "Neopet", "When your Neopet is dealt damage, draw a card.")
    readings = [C.read_card(c, NEOPETS) for c in (ping, calm)]
    loops = C.loops(readings)
    assert [loop.cards for loop in loops] == [("Ping Pup",)]
    assert loops[0].events == ("dealt_damage",)
    graph = C.trigger_graph(readings)
    assert graph.has_edge("Ping Pup", "Calm Carp") and not graph.has_edge("Calm Carp", "Ping Pup")


def test_an_unreadable_card_is_reported_not_guessed() -> None:
    result = analyse([CardDef("Garbled", "Food", "Frobnicate the widget.")], NEOPETS)
    assert result.unreadable and result.unreadable[0][0] == "Garbled"


def test_a_game_without_a_policy_reports_clashes_unsettled() -> None:
    policy = C.policy_for("no_such_game")
    assert isinstance(policy, C.NoPolicy) and "no precedence policy" in policy.note
    assert policy.settle([TEA, SKEWER]) is None
    assert C.policy_for("neopets") is NC.POLICY


# ============================================================================ the other games' policies (synthetic effect sets)


def _policy(game: str) -> Policy:
    policy = C.policy_for(game)
    assert not isinstance(policy, C.NoPolicy), game
    return policy


@pytest.mark.parametrize("game", ["bakugan", "ttcg", "battle_monsters", "epic_battles"])
def test_each_policy_cites_rules_of_its_index(game: str) -> None:
    import csv

    path = Path(f"/work/shared/rules/{game}.tsv")
    local = ROOT / "spec" / game / "rules.tsv"
    source = local if local.exists() else path
    if not source.exists():
        pytest.skip(f"no rule index for {game}")
    with source.open(encoding="utf-8", newline="") as handle:
        ids = {row["id"] for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)}
    for rule in _policy(game).precedence:
        assert rule.rule.split(":", 1)[1] in ids, rule.rule


def test_bakugan_a_cant_overrides_anything() -> None:
    policy = _policy("bakugan")
    cant = Effect("c", "cant", "P1's Bakugan", "attack", source="Jammer")
    rule_can = Effect("r", "can", "P1's Bakugan", "attack", origin="rule", rule="bakugan:5.1")
    card_can = Effect("k", "can", "P1's Bakugan", "attack", source="Charger")
    for other in (rule_can, card_can):
        conflict = settled([cant, other], policy)
        assert conflict.settlement is not None and conflict.settlement.rule == "bakugan:1.3/3.2"
        assert conflict.settlement.losers == (other,)
    assert settled([cant, card_can], policy.without("bakugan:1.3/3.2")).settlement is None


def test_bakugan_card_text_overrides_the_basic_rules() -> None:
    policy = _policy("bakugan")
    grant = Effect("g", "grant", "P1", "play a card", 1, source="Rush")
    limit = Effect("l", "limit", "P1", "play a card", 1, origin="rule", rule="bakugan:4.3.2.p1")
    conflict = settled([grant, limit], policy)
    assert conflict.settlement is not None and conflict.settlement.rule == "bakugan:1.3/3.1"
    assert settled([grant, limit], policy.without("bakugan:1.3/3.1")).settlement is None
    two = [Effect("a", "set_base", "P1's Bakugan", "BPower", 300, source="A"), Effect("b", "set_base", "P1's Bakugan", "BPower", 500, source="B")]
    assert resolve(two, policy, ConflictSolver()).gaps  # two base settings: the book is silent


def test_ttcg_only_a_stated_override_beats_the_rules() -> None:
    policy = _policy("ttcg")
    twice = Effect("t", "grant", "P1's card", "attack", 1, source="Twin Fang", overrides=True)
    once = Effect("o", "limit", "P1's card", "attack", 1, origin="rule", rule="ttcg:2.2.7.b")
    conflict = settled([twice, once], policy)
    assert conflict.settlement is not None and conflict.settlement.rule == "ttcg:2.2.5.b" and conflict.settlement.losers == (once,)
    quiet = Effect("q", "grant", "P1's card", "attack", 1, source="Quiet Fang")
    standing = settled([quiet, once], policy)
    assert standing.settlement is not None and standing.settlement.losers == (quiet,)  # the rule stands
    assert settled([quiet, once], policy.without("ttcg:2.2.5.b")).settlement is None


def test_ttcg_two_plays_hold_barring_card_text_and_indestructible_holds() -> None:
    policy = _policy("ttcg")
    extra = Effect("x", "grant", "P1", "put a card on the field", 1, source="Quiet Growth")
    two = Effect("two", "limit", "P1", "put a card on the field", 2, origin="rule", rule="ttcg:2.2.3.a.2.a")
    conflict = settled([extra, two], policy)
    assert conflict.settlement is not None and conflict.settlement.rule == "ttcg:2.2.3.a.2.a"
    assert settled([extra, two], policy.without("ttcg:2.2.3.a.2.a")).settlement.losers == (extra,)  # type: ignore[union-attr]
    shield = Effect("s", "cant", "P1's card", "be destroyed", source="Bastion")
    blow = Effect("b", "must", "P1's card", "be destroyed by effects", source="Quake", static=False)
    conflict = settled([shield, blow], policy)
    assert conflict.settlement is not None and conflict.settlement.rule == "ttcg:2.1.aj"
    assert settled([shield, blow], policy.without("ttcg:2.1.aj")).settlement is None
    assert resolve([Effect("a", "set", "P1's card", "attack", 3, source="A"), Effect("b", "set", "P1's card", "attack", 5, source="B")],
                   policy, ConflictSolver()).gaps


def test_battle_monsters_ranks_agreed_rules_cards_manual_and_the_later_card() -> None:
    policy = _policy("battle_monsters")
    can = Effect("c", "can", "P1's Boar", "attack", source="Boar", since=2)
    cant = Effect("d", "cant", "P1's Boar", "attack", source="Fog Bank", since=1)
    later = settled([can, cant], policy)
    assert later.settlement is not None and later.settlement.rule == "battle_monsters:BM.rules.conflict"
    assert later.settlement.losers == (cant,)
    assert settled([can, cant], policy.without("the later card wins")).settlement is None
    unknown = settled([C.replace(can, since=None), C.replace(cant, since=None)], policy)
    assert unknown.settlement is not None and unknown.settlement.conditional
    stated = C.replace(can, since=0, overrides=True)
    assert settled([stated, cant], policy).settlement.losers == (cant,)  # type: ignore[union-attr]
    manual = Effect("m", "cant", "P1's Boar", "attack", origin="rule", rule="battle_monsters:BM.monster.reveal_turn")
    over_manual = settled([can, manual], policy)
    assert over_manual.settlement is not None and over_manual.settlement.rule == "battle_monsters:BM.rules.card"
    agreed = Effect("h", "cant", "P1's Boar", "attack", origin="rule", rule="battle_monsters:BM.rules.house")
    house = settled([can, agreed], policy)
    assert house.settlement is not None and house.settlement.rule == "battle_monsters:BM.rules.house"
    assert house.settlement.losers == (can,)
    assert settled([can, agreed], policy.without("agreed rules first")).settlement.losers == (agreed,)  # type: ignore[union-attr]


def test_epic_battles_card_text_decides_only_where_the_book_defers() -> None:
    policy = _policy("epic_battles")
    grant = Effect("g", "grant", "P1's deck", "copies of Rush", 4, source="Rush")
    copies = Effect("r", "limit", "P1's deck", "copies of Rush", 4, origin="rule", rule="epic_battles:EB.deck.copies")
    conflict = settled([grant, copies], policy)
    assert conflict.settlement is not None and conflict.settlement.rule == "epic_battles:EB.deck.copies"
    assert settled([grant, copies], policy.without("epic_battles:EB.deck.copies")).settlement is None
    can = Effect("a", "can", "P1's attack", "link after any attack", source="Wild Card")
    cant = Effect("b", "cant", "P1's attack", "link after any attack", source="Finisher")
    assert settled([can, cant], policy).settlement is None  # the book is silent between two cards: a gap


def test_every_game_with_a_grammar_can_be_analysed() -> None:
    from grammar.parser import GAMES
    from spec.core.cards import CardDatabase, shipped_database

    for game in GAMES:
        path = shipped_database(game, "base")
        if not path.exists():
            continue
        cards = list(CardDatabase.load(path, game))[:12]
        result = analyse(cards, C.policy_for(game), max_set=2)
        assert result.game == game and result.cards == len(cards)


def test_a_designer_check_that_runs_out_is_undecided_not_clean() -> None:
    cards = {c.name: c for c in _neopets_cards()}
    result = analyse([cards["Stargazer Tea"], cards["Sizzleroot Skewer"]], NEOPETS, solver=ConflictSolver(rlimit=1), max_set=2)
    assert result.findings and all(f.status == "undecided" for f in result.findings)
    assert "could not decide" in result.findings[0].note
