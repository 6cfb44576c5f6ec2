"""Unit tests of the machinery every game shares (``spec/core``)."""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from grammar import ast as A
from grammar.parser import grammar_of
from spec.core import interpreter
from spec.core.cards import CardDatabase, CardDef, CardFileError, card_from_pool_record, cards_from_pool, shipped_database
from spec.core.deck import copies, over_limit, size_violation
from spec.core.findings import Finding, Violation, verdict_of
from spec.core.hidden import DeckKnowledge
from spec.core.queue import PendingQueue, Priority, QueueItem
from spec.core.rules import RuleBook, RuleEntry, RuleIndex
from spec.core.state import CardObj, Zone
from spec.core.turns import TurnStructure

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(__file__).resolve().parents[2] / "shared"
BASE_TOML = REPO / "spec" / "neopets" / "cards" / "base.toml"


# ====================================================================== rules

def make_book() -> RuleBook:
    return RuleBook(RuleIndex("demo", [
        RuleEntry("1.1", "normative", "one thing"),
        RuleEntry("1.2", "normative", "another thing"),
        RuleEntry("1.3", "normative", "an outcome"),
        RuleEntry("1.4", "normative", "a noted structure"),
        RuleEntry("2.1", "normative", "sleight of hand", not_checkable="a log cannot show dexterity"),
        RuleEntry("2.2", "normative", "nobody wrote this one yet"),
        RuleEntry("3.1", "definition", "what a card is"),
        RuleEntry("3.2", "informative", "a reminder"),
    ]))


def test_cite_gives_the_game_prefixed_citation() -> None:
    assert make_book().cite("1.1") == "demo:1.1"


def test_cite_rejects_an_unknown_id() -> None:
    book = make_book()
    with pytest.raises(KeyError, match=r"'9\.9'"):
        book.cite("9.9")


def test_every_way_of_naming_a_rule_rejects_an_unknown_id() -> None:
    """A typo in a citation fails when the spec is imported, never silently."""
    book = make_book()
    action = book.action("attach")
    with pytest.raises(KeyError):
        action.precondition("1.1.p9", "a typo")
    with pytest.raises(KeyError):
        book.encodes("1.1", "nope")
    with pytest.raises(KeyError):
        book.note("nope", what="x")
    assert action.checks == []
    assert book.encoded_ids() == {}


def test_action_is_created_once_per_name() -> None:
    book = make_book()
    assert book.action("play") is book.action("play")
    assert book.action("play") is not book.action("attach")


def test_first_violation_returns_the_first_failing_check_in_order() -> None:
    book = make_book()
    act = book.action("play")
    called: list[str] = []

    @act.precondition("1.1", "always fine")
    def fine(state: Any, move: Any) -> Violation | None:
        called.append("fine")
        return None

    @act.precondition("1.2", "move must not be odd")
    def not_odd(state: Any, move: Any) -> Violation | None:
        called.append("not_odd")
        return Violation("odd move", "even", str(move)) if move % 2 else None

    @act.precondition("1.3", "move must be small")
    def small(state: Any, move: Any) -> Violation | None:
        called.append("small")
        return Violation("big move", "< 10", str(move)) if move >= 10 else None

    assert [c.rule for c in act.checks] == ["demo:1.1", "demo:1.2", "demo:1.3"]

    hit = act.first_violation(None, 11)  # breaks both 1.2 and 1.3: the first in order wins
    assert hit is not None
    check, violation = hit
    assert check.rule == "demo:1.2"
    assert check.requires == "move must not be odd"
    assert violation.message == "odd move"
    assert violation.actual == "11"
    assert called == ["fine", "not_odd"]  # checks after the first failure are not run

    called.clear()
    hit = act.first_violation(None, 12)
    assert hit is not None and hit[0].rule == "demo:1.3"
    assert called == ["fine", "not_odd", "small"]

    assert act.first_violation(None, 4) is None
    assert act.allows(None, 4)
    assert not act.allows(None, 3)


def test_coverage_counts_encoded_not_checkable_and_missing() -> None:
    book = make_book()

    @book.action("play").precondition("1.1", "checked by an action")
    def check(state: Any, move: Any) -> None:
        return None

    @book.encodes("1.3", what="an outcome function")
    def outcome() -> None:
        return None

    book.note("1.4", what="the turn graph")
    assert book.coverage() == {"encoded": 3, "not checkable": 1, "missing": 2}
    assert {r: book.status(r) for r in ("1.1", "1.2", "1.3", "1.4", "2.1", "2.2", "3.1", "3.2")} == {
        "1.1": "encoded", "1.2": "missing", "1.3": "encoded", "1.4": "encoded",
        "2.1": "not checkable", "2.2": "missing", "3.1": "definition", "3.2": "informative",
    }
    encoded = book.encoded_ids()
    assert encoded["1.1"] == ["play: checked by an action"]
    assert encoded["1.3"] == ["an outcome function"]
    assert encoded["1.4"] == ["the turn graph"]


def test_a_rule_encoded_twice_is_counted_once() -> None:
    book = make_book()
    book.note("1.1", what="here")
    book.note("1.1", what="and there")
    assert book.coverage()["encoded"] == 1
    assert book.encoded_ids()["1.1"] == ["here", "and there"]


def test_rule_index_loads_a_tsv(tmp_path: Path) -> None:
    path = tmp_path / "rules.tsv"
    path.write_text("id\tkind\tsummary\tnot_checkable\n"
                    "1.1\tnormative\tDecks have fifty cards.\t\n"
                    "1.2\tnormative\tShuffle well.\tphysical: a log cannot show it\n"
                    "1.3\tdefinition\tA card is a card.\t\n", encoding="utf-8")
    index = RuleIndex.load("demo", path)
    assert len(index) == 3
    assert [e.id for e in index] == ["1.1", "1.2", "1.3"]
    assert "1.2" in index and "1.4" not in index
    assert index.entries["1.2"].not_checkable == "physical: a log cannot show it"
    assert index.entries["1.1"] == RuleEntry("1.1", "normative", "Decks have fifty cards.", "")


def test_the_neopets_book_cites_only_indexed_rules_and_its_coverage_adds_up() -> None:
    from spec import load_game

    book = load_game("neopets").book
    for rule_id in book.encoded_ids():
        assert rule_id in book.index
    counts = book.coverage()
    assert sum(counts.values()) == sum(1 for e in book.index if e.kind == "normative")


# ====================================================================== findings

def test_verdict_is_the_most_severe_finding() -> None:
    def f(severity: Any) -> Finding:
        return Finding(1, 2, severity, None, "x")

    assert verdict_of([]) == "legal"
    assert verdict_of([f("info")]) == "legal"
    assert verdict_of([f("unverifiable"), f("info")]) == "unverifiable"
    assert verdict_of([f("unverifiable"), f("inconsistent")]) == "inconsistent"
    assert verdict_of([f("illegal"), f("inconsistent"), f("unverifiable")]) == "illegal"
    assert verdict_of([f("illegal"), f("malformed")]) == "malformed"
    assert verdict_of([f("malformed"), f("illegal")]) == "malformed"


# ====================================================================== hidden information

def test_registered_counts_bound_the_copies_revealed() -> None:
    deck = DeckKnowledge(Counter({"Ember Codestone": 2}), limit=lambda name: 99)
    assert deck.bound("Ember Codestone") == 2
    assert deck.can_reveal("Ember Codestone")
    deck.reveal("Ember Codestone")
    assert deck.can_reveal("Ember Codestone")
    deck.reveal("Ember Codestone")
    assert not deck.can_reveal("Ember Codestone")
    # A registered deck holds no copy of a card it does not list, whatever the construction limit.
    assert deck.bound("Glacier Lance") == 0
    assert not deck.can_reveal("Glacier Lance")


@pytest.mark.parametrize("registered", [Counter({"Ember Codestone": 1}), None])
def test_show_answers_and_notes_as_can_reveal_dated_and_reveal_do(registered: Counter[str] | None) -> None:
    limit = {"Ember Codestone": 2, "Glacier Lance": None}.get
    plain, one_call = DeckKnowledge(registered, limit=limit), DeckKnowledge(registered, limit=limit)
    for seq, name in enumerate(["Ember Codestone", "Glacier Lance", "Ember Codestone", "Ember Codestone"], start=3):
        fits = plain.can_reveal(name)
        plain.dated(seq).reveal(name, f"drew {name}")
        assert one_call.show(name, seq, f"drew {name}") is fits
        assert one_call.observations() == plain.observations() and one_call.located == plain.located
    assert one_call.show("Ember Codestone", None, "") is False and one_call.observations()[-1].seq == 6


def test_a_card_shuffled_back_can_be_revealed_again() -> None:
    deck = DeckKnowledge(Counter({"Ember Codestone": 1}), limit=lambda name: None)
    deck.reveal("Ember Codestone")
    assert not deck.can_reveal("Ember Codestone")
    deck.conceal("Ember Codestone")
    assert deck.located["Ember Codestone"] == 0
    assert deck.can_reveal("Ember Codestone")


def test_concealing_an_unseen_card_does_not_make_room_for_extra_copies() -> None:
    deck = DeckKnowledge(Counter({"Ember Codestone": 1}), limit=lambda name: None)
    deck.conceal("Ember Codestone")  # nothing was located: no negative count
    assert deck.located["Ember Codestone"] == 0
    deck.reveal("Ember Codestone")
    assert not deck.can_reveal("Ember Codestone")


def test_without_a_decklist_the_limit_function_bounds_copies() -> None:
    limits = {"Hollow Faerie": 1, "Spiced Moonpie": 2}
    asked: list[str] = []

    def limit(name: str) -> int | None:
        asked.append(name)
        return limits.get(name)

    deck = DeckKnowledge(None, limit)
    assert deck.bound("Hollow Faerie") == 1
    deck.reveal("Hollow Faerie")
    assert not deck.can_reveal("Hollow Faerie")
    deck.reveal("Spiced Moonpie")
    assert deck.can_reveal("Spiced Moonpie")
    deck.reveal("Spiced Moonpie")
    assert not deck.can_reveal("Spiced Moonpie")
    for _ in range(30):  # no limit (a Codestone): any number
        deck.reveal("Ember Codestone")
    assert deck.bound("Ember Codestone") is None
    assert deck.can_reveal("Ember Codestone")
    assert "Hollow Faerie" in asked and "Ember Codestone" in asked


def test_deck_knowledge_copy_is_independent() -> None:
    deck = DeckKnowledge(Counter({"A": 2}), limit=lambda name: None)
    deck.reveal("A")
    other = deck.copy()
    other.reveal("A")
    assert deck.located["A"] == 1 and other.located["A"] == 2
    assert deck.can_reveal("A") and not other.can_reveal("A")


# ====================================================================== deck construction

def test_size_violation() -> None:
    assert size_violation(50, 50, 50) is None
    assert size_violation(49, 50, 50) == "49 cards, not exactly 50"
    assert size_violation(2, 3, 5) == "2 cards, fewer than 3"
    assert size_violation(6, 3, 5) == "6 cards, more than 5"
    assert size_violation(3, 3, 5) is None and size_violation(5, 3, 5) is None


def test_over_limit_lists_every_name_over_its_cap_sorted() -> None:
    counts = copies(["B", "A", "A", "A", "C", "C", "B", "B"])
    assert counts == Counter({"A": 3, "B": 3, "C": 2})
    caps = {"A": 2, "B": None, "C": 1}
    assert over_limit(counts, caps.get) == [("A", 3, 2), ("C", 2, 1)]
    assert over_limit(counts, lambda name: 3) == []


# ====================================================================== queue and priority

def item(name: str) -> QueueItem:
    return QueueItem("card", "alice", CardObj(1, name, "alice"), ())


def test_queue_items_written_out_constructor_takes_each_field_as_the_generated_one_would() -> None:
    """QueueItem's ``__init__`` is written out (tests/written_out.py): every field by keyword
    and by position, ``context`` a fresh dict when not given, and a copy made with
    ``dataclasses.replace`` (as PendingQueue.copy makes one) keeps the other fields."""
    from dataclasses import replace

    from tests.written_out import defaults_as_declared, made_again_by_keyword_and_position

    card = CardObj(1, "Spark", "alice")
    met = [item("plain"), QueueItem("triggered", "bob", card, (), ("x",), {"self": ("bob", "Spark")}, True),
           QueueItem("activated", "alice", None, (), context={"neopet": "Kacheek"})]
    assert made_again_by_keyword_and_position(QueueItem, met) == 3
    defaults_as_declared(QueueItem, met[1])
    copy = replace(met[1], context=dict(met[1].context))
    assert copy == met[1] and copy.context is not met[1].context


def test_fifo_queue_resolves_the_oldest_first() -> None:
    queue = PendingQueue("fifo")
    for name in ("first", "second", "third"):
        queue.add(item(name))
    assert len(queue) == 3 and bool(queue)
    assert [queue.next().name for _ in range(3)] == ["first", "second", "third"]
    assert not queue


def test_lifo_queue_resolves_the_newest_first() -> None:
    queue = PendingQueue("lifo")
    for name in ("first", "second", "third"):
        queue.add(item(name))
    assert [queue.next().name for _ in range(3)] == ["third", "second", "first"]


def test_queue_copy_and_clear() -> None:
    queue = PendingQueue("fifo")
    queue.add(item("a"))
    queue.items[0].context["x"] = 1
    copy = queue.copy()
    copy.items[0].context["x"] = 2
    copy.add(item("b"))
    assert len(queue) == 1 and queue.items[0].context == {"x": 1}
    assert copy.order == "fifo"
    removed = copy.clear()
    assert [i.name for i in removed] == ["a", "b"]
    assert len(copy) == 0 and len(queue) == 1


def test_two_passes_in_succession_close_the_window() -> None:
    priority = Priority("alice")
    assert priority.pass_("alice", "bob") is False
    assert priority.holder == "bob"
    assert priority.pass_("bob", "alice") is True
    assert priority.holder == "alice"


def test_acting_breaks_the_succession_of_passes() -> None:
    priority = Priority("alice")
    priority.pass_("alice", "bob")
    priority.act("bob")
    assert (priority.holder, priority.passes) == ("bob", 0)
    assert priority.pass_("bob", "alice") is False  # one pass since the act
    assert priority.pass_("alice", "bob") is True
    priority.reset("bob")
    assert (priority.holder, priority.passes) == ("bob", 0)


# ====================================================================== turn structure

NODES = [("begin", "demo:1.1"), ("main", "demo:1.2"), ("battle", "demo:1.3"), ("end", "demo:1.4")]
EDGES = [
    ("begin", "main", "start"),
    ("main", "battle", "both pass"),
    ("main", "end", "no battle on the first turn"),
    ("battle", "end", "damage dealt"),
    ("end", "begin", "next turn"),
]


def test_next_follows_the_first_edge_listed() -> None:
    turn = TurnStructure(NODES, EDGES)
    assert turn.next("begin") == "main"
    assert turn.next("main") == "battle"  # not "end": the first edge listed is the default
    assert turn.next("end") == "begin"
    assert turn.order == {"begin": 0, "main": 1, "battle": 2, "end": 3}
    with pytest.raises(KeyError):
        turn.next("nowhere")


def test_graph_is_a_networkx_digraph_of_the_same_data() -> None:
    import networkx as nx

    g = TurnStructure(NODES, EDGES).graph()
    assert isinstance(g, nx.DiGraph)
    assert list(g.nodes) == [name for name, _ in NODES]
    assert {n: g.nodes[n]["rule"] for n in g.nodes} == dict(NODES)
    assert set(g.edges) == {(s, d) for s, d, _ in EDGES}
    assert g.number_of_edges() == len(EDGES)
    assert {(s, d): g.edges[s, d]["label"] for s, d in g.edges} == {(s, d): label for s, d, label in EDGES}


def test_the_neopets_turn_graph_matches_its_data() -> None:
    from spec.neopets.turn import TURN

    g = TURN.graph()
    assert set(g.edges) == {(s, d) for s, d, _ in TURN.edges}
    assert {name for name, _ in TURN.nodes} <= set(g.nodes)
    first_edge: dict[str, str] = {}
    for src, dst, _label in TURN.edges:
        first_edge.setdefault(src, dst)
    assert {src: TURN.next(src) for src in first_edge} == first_edge
    assert TURN.next("preparation") == "attack"  # the Battle Phase is the default, skipping it the exception
    assert TURN.next("damage") == "end"


# ====================================================================== zones

def test_zone_counts_hidden_cards_and_finds_known_ones() -> None:
    zone = Zone("Main Deck", ordered=True, public=False)
    zone.hidden = 3
    known = CardObj(1, "Ember Codestone", "alice")
    unknown = CardObj(2, None, "alice")
    zone.add(known)
    zone.add(unknown)
    assert len(zone) == 5
    assert zone.names() == ["Ember Codestone"]
    assert zone.find("Ember Codestone") is known
    assert zone.find("Glacier Lance") is None
    assert zone.unknown() is unknown
    copy = zone.copy()
    copy.cards[0].name = "changed"
    copy.hidden = 0
    assert known.name == "Ember Codestone" and zone.hidden == 3
    zone.remove(known)
    assert zone.names() == [] and len(zone) == 4


# ====================================================================== interpreter

class Handlers:
    def __init__(self) -> None:
        self.done: list[str] = []

    def do_draw(self, state: Any, res: interpreter.Resolution, step: Any) -> interpreter.Need | None:
        self.done.append(f"draw {step.amount}")
        return interpreter.Need("draw", res.controller, step.amount, "demo:1.1")

    def do_heal(self, state: Any, res: interpreter.Resolution, step: Any) -> None:
        self.done.append("heal")


def test_interpreter_pauses_for_the_log_and_runs_steps_in_order() -> None:
    steps = (A.Heal(1, A.Selector("the", "Neopet")), A.Draw("you", 2), A.Heal(2, A.Selector("the", "Neopet")))
    res = interpreter.Resolution("alice", None, [interpreter.Frame(steps)])
    handlers = Handlers()
    assert interpreter.run(handlers, None, res) is False
    assert handlers.done == ["heal", "draw 2"]
    assert res.need is not None and res.need.describe() == "2 x draw by alice"
    saved = res.copy()
    res.need = None  # the log supplied the draws
    assert interpreter.run(handlers, None, res) is True
    assert handlers.done == ["heal", "draw 2", "heal"]
    assert res.done
    assert saved.need is not None and not saved.done  # the copy is independent


def test_interpreter_reports_a_step_the_game_cannot_run() -> None:
    res = interpreter.Resolution("alice", None, [interpreter.Frame((A.Discard("you", 1),))])
    with pytest.raises(interpreter.UnsupportedStep, match="'discard'"):
        interpreter.run(Handlers(), None, res)


# ====================================================================== card databases

def test_load_our_toml_card_file() -> None:
    tables = tomllib.loads(BASE_TOML.read_text(encoding="utf-8"))["card"]
    db = CardDatabase.load(BASE_TOML, "neopets")
    assert (db.name, db.game, db.version) == ("neopets/base", "neopets", 1)
    assert len(tables) >= 47  # the base set had 47 cards when this was written; it may grow
    assert len(db) == len(tables)  # names are unique in our files: every card is kept
    shipped = shipped_database("neopets", "base")  # in the compiled build's copy of spec/ when that runs
    assert shipped.parts[-3:] == ("neopets", "cards", "base.toml") and shipped.read_bytes() == BASE_TOML.read_bytes()
    names = [card.name for card in db]
    assert names == [t["name"] for t in tables]  # file order
    assert db[tables[0]["name"]].text == tables[0]["text"]
    some = db[names[0]]
    assert isinstance(some, CardDef)
    assert names[0] in db and "Potato of Doom" not in db
    assert db.get("Potato of Doom") is None
    neopets = [c for c in db if c.type == "Neopet"]
    assert neopets and all(c.stat("hp") > 0 for c in neopets)


def test_toml_cards_parse_and_bad_text_is_remembered(tmp_path: Path) -> None:
    path = tmp_path / "mini.toml"
    path.write_text('database = "neopets/mini"\ngame = "neopets"\nversion = 1\n\n'
                    '[[card]]\nname = "Good Tale"\ntype = "Legend"\ntext = "Draw two cards."\n\n'
                    '[[card]]\nname = "Bad Tale"\ntype = "Legend"\ntext = "Draw two potatoes."\n', encoding="utf-8")
    db = CardDatabase.load(path)
    good = db.tree("Good Tale")
    assert isinstance(good, A.CardText)
    bad = db.tree("Bad Tale")
    assert isinstance(bad, Exception)
    assert db.tree("Bad Tale") is bad  # parsed once, remembered


@pytest.fixture(scope="module")
def ttcg_pool() -> Path:
    path = SHARED / "cards" / "ttcg.dev.jsonl"
    if not path.exists():
        pytest.skip(f"{path} is not here (the shared card texts sit beside the checkout)")
    return path


def test_a_later_revision_of_a_card_replaces_the_earlier(tmp_path: Path) -> None:
    pool = tmp_path / "pool.jsonl"
    pool.write_text(json.dumps({"name": "Echo", "type": "Food", "text": "Draw a card."}) + "\n"
                    + json.dumps({"name": "Echo", "type": "Food", "text": "Draw two cards."}) + "\n", encoding="utf-8")
    assert CardDatabase.load(pool, "neopets")["Echo"].text == "Draw two cards."


def test_a_toml_card_file_with_two_cards_of_one_name_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "twice.toml"
    path.write_text('database = "neopets/x"\ngame = "neopets"\nversion = 1\n'
                    '[[card]]\nname = "Echo"\ntype = "Food"\n[[card]]\nname = "Echo"\ntype = "Food"\n', encoding="utf-8")
    with pytest.raises(CardFileError, match="Echo") as info:
        CardDatabase.load(path)
    assert info.value.line == 7  # the second card's [[card]] header


def test_a_toml_card_the_format_refuses_is_named_with_its_line(tmp_path: Path) -> None:
    """A card missing a required field (or with a field of the wrong kind) is named, by its
    place and its name, with the line its ``[[card]]`` header is on."""
    path = tmp_path / "untyped.toml"
    path.write_text('database = "neopets/x"\ngame = "neopets"\nversion = 1\n\n'
                    '[[card]]\nname = "Echo"\ntype = "Food"\n\n[[card]]\nname = "Hush"\ntext = ""\n', encoding="utf-8")
    with pytest.raises(CardFileError) as info:
        CardDatabase.load(path)
    assert info.value.line == 9
    assert "card 2 ('Hush')" in info.value.reason and "type" in info.value.reason
    assert f"{path}:9:" in str(info.value)


def test_load_a_json_lines_card_pool(ttcg_pool: Path) -> None:
    records = [json.loads(line) for line in ttcg_pool.read_text(encoding="utf-8").splitlines() if line.strip()]
    db = CardDatabase.load(ttcg_pool, "ttcg")
    assert (db.name, db.game, db.version) == ("ttcg.dev", "ttcg", 1)
    assert {card.name for card in db} == {r["name"] for r in records}
    assert len(db) == len({r["name"] for r in records})
    record = records[0]
    card = db[record["name"]]
    assert card.type == record["type"]
    assert card.text == grammar_of("ttcg").pool_text(record)  # effect types put back in front of lines
    assert record["text"].splitlines()[-1] in card.text
    assert card.source == record["source"]
    # the numbers the pool writes as text are numbers; the rank is the level, the sub-types the traits
    stats = record["stats"]
    assert card.cost == int(record["cost"]) and card.level == int(stats["rank"])
    assert card.stats == {"attack": int(stats["attack"]), "defense": int(stats["defense"])}
    assert card.traits == stats["subtypes"]


def test_printed_numbers_of_a_pool() -> None:
    from grammar.parser import printed_number

    assert [printed_number(v) for v in (7, "345", "+15", "-10", " 2 ")] == [7, 345, 15, -10, 2]
    assert [printed_number(v) for v in (None, True, "X", "1.5", "", [3])] == [None] * 6


def test_a_battle_monsters_pool_gives_its_elements_as_traits() -> None:
    record = {"name": "Glint", "type": "Monster (element prefix)", "text": "",
              "stats": {"elements": ["FIRE", "STONE"]}}
    assert card_from_pool_record(record, "pool.jsonl", 1, "battle_monsters").traits == ["fire", "stone"]
    record["stats"] = {"elements": ["ALL"]}  # kept as the word: no element a text names matches it
    assert card_from_pool_record(record, "pool.jsonl", 1, "battle_monsters").traits == ["all"]
    record["stats"] = {"elements": None}
    assert card_from_pool_record(record, "pool.jsonl", 1, "battle_monsters").traits == []


def _bakugan_record(name: str, kind: str, faction: str, printed_set: str, text: str, **stats: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "cost": 0 if kind == "Character" else 2, "text": text,
            "stats": {"bPower": None, "damage": None, "coreTypes": [], "evolvesFrom": None, "factions": [faction],
                      "set": printed_set, **stats}}


def test_a_bakugan_pool_keeps_each_printing_of_a_name_as_a_card_of_its_own(tmp_path: Path) -> None:
    """Cards of one name in two Factions (or sets) are two cards, named with their printing;
    two records of one name and one printing are revisions, the later kept."""
    records = [
        _bakugan_record("Glimmerfin", "Character", "Aquos", "Tide Set (TS)", "+100 [B].", bPower=300, damage=4,
                        coreTypes=["Fist", "[MS]"]),
        _bakugan_record("Glimmerfin", "Character", "Haos", "Tide Set (TS)", "+200 [B].", bPower=500, damage=2,
                        coreTypes=["Shield", "Helix"]),
        _bakugan_record("Glimmerfin Prime", "Evo", "Aquos", "Tide Set (TS)", "+300 [B].", bPower=900, damage=5,
                        evolvesFrom="Glimmerfin"),
        _bakugan_record("Quick Step", "Action", "Pyrus", "Tide Set (TS)", "Draw a card."),
        _bakugan_record("Quick Step", "Action", "Pyrus", "Tide Set (TS)", "Draw two cards."),
    ]
    pool = tmp_path / "pool.jsonl"
    pool.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    db = CardDatabase.load(pool, "bakugan")
    assert sorted(c.name for c in db) == ["Glimmerfin (Aquos, TS)", "Glimmerfin (Haos, TS)", "Glimmerfin Prime", "Quick Step"]
    aquos = db["Glimmerfin (Aquos, TS)"]
    assert aquos.traits == ["Aquos"] and aquos.stats == {"bpower": 300, "damage": 4, "cores": ["FT", "MS"]}
    assert db["Glimmerfin (Haos, TS)"].stats["cores"] == ["SD", "HE"]
    assert db["Glimmerfin Prime"].stats == {"bpower": 900, "damage": 5, "evolves_from": "Glimmerfin"}
    assert db["Quick Step"].text == "Draw two cards."  # one printing: the later record is a revision
    inline = cards_from_pool([(1, r) for r in records], "replay.jsonl", "bakugan")
    assert sorted(c.name for c in inline) == sorted(c.name for c in inline if c.name in db) and len(inline) == 5


def test_pool_record_without_a_name_is_rejected_with_its_line() -> None:
    with pytest.raises(CardFileError) as info:
        card_from_pool_record({"type": "Spell"}, "pool.jsonl", 7)
    assert info.value.line == 7
    assert "pool.jsonl:7" in str(info.value)


def test_a_bad_json_lines_line_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "pool.jsonl"
    path.write_text('{"name": "A", "type": "Spell", "text": ""}\n\n{"name": "B", "type": \n', encoding="utf-8")
    with pytest.raises(CardFileError) as info:
        CardDatabase.load(path, "ttcg")
    assert info.value.line == 3
    assert "not JSON" in info.value.reason
    assert f"{path}:3" in str(info.value)


def test_a_json_lines_line_that_is_not_a_card_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "pool.jsonl"
    path.write_text('{"name": "A", "type": "Spell"}\n[1, 2]\n', encoding="utf-8")
    with pytest.raises(CardFileError) as info:
        CardDatabase.load(path, "ttcg")
    assert info.value.line == 2


def test_a_card_file_that_is_not_utf8_is_a_card_file_error(tmp_path: Path) -> None:
    path = tmp_path / "pool.jsonl"
    path.write_bytes(b'{"name": "Caf\xe9", "type": "Spell"}\n')
    with pytest.raises(CardFileError, match="UTF-8"):
        CardDatabase.load(path, "ttcg")


def test_a_missing_card_file_is_a_card_file_error(tmp_path: Path) -> None:
    with pytest.raises(CardFileError, match="cannot read"):
        CardDatabase.load(tmp_path / "nowhere.toml")


def test_a_directory_as_card_file_is_a_card_file_error(tmp_path: Path) -> None:
    with pytest.raises(CardFileError):
        CardDatabase.load(tmp_path, "ttcg")


def test_a_toml_file_with_an_unknown_card_field_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text('database = "neopets/x"\ngame = "neopets"\nversion = 1\n'
                    '[[card]]\nname = "A"\ntype = "Legend"\ncolour = "red"\n', encoding="utf-8")
    with pytest.raises(CardFileError) as info:
        CardDatabase.load(path)
    assert "colour" in info.value.reason


def test_a_bad_toml_file_is_a_card_file_error(tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text('database = "neopets/x"\ngame = "neopets"\nversion = \n', encoding="utf-8")
    with pytest.raises(CardFileError) as info:
        CardDatabase.load(path)
    assert "not valid TOML" in info.value.reason
    assert "line 3" in info.value.reason
    assert info.value.line == 3
