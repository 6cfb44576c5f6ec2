"""Tests of the Neopets card-text grammar, its renderer and the shipped base set."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Lark
from lark.exceptions import LexError

from grammar import parser as grammar_parser
from grammar.ast import (
    Abandon,
    Ability,
    Activated,
    Attach,
    CardText,
    Condition,
    Conditional,
    Deal,
    Delay,
    Discard,
    Draw,
    Duration,
    Freeze,
    Heal,
    If,
    Immune,
    Keyword,
    May,
    Modify,
    Negate,
    Passive,
    Permit,
    Prohibit,
    Replacement,
    Reroll,
    Reveal,
    Roll,
    Scrap,
    Search,
    Selector,
    Send,
    Shuffle,
    Spell,
    StayInPlay,
    Step,
    Transform,
    Trigger,
    Triggered,
    Unknown,
    Var,
    Who,
    from_json,
    to_json,
    unknown_parts,
)
from grammar.parser import (
    GAMES,
    MAX_TEXT_LENGTH,
    PERMANENT_TYPES,
    SPELL_TYPES,
    CardTextError,
    parse,
    parse_lenient,
)
from grammar.render import render
from tests.grammar_support import shipped_cards, walk

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR_DIR = ROOT / "grammar"
BASE_SET = ROOT / "spec" / "neopets" / "cards" / "base.toml"


CARDS = shipped_cards("neopets")


# ----------------------------------------------------------------- grammar build


@pytest.mark.parametrize("game", GAMES)
def test_grammar_builds_in_strict_mode(game: str) -> None:
    """Strict mode turns every shift/reduce conflict into an error.

    Lark runs the LALR analysis before it builds the lexer; without the optional
    ``interegular`` package the lexer step refuses strict mode, which proves the LALR
    tables were built without a conflict.
    """
    try:
        Lark.open(str(GRAMMAR_DIR / f"{game}.lark"), parser="lalr", lexer="contextual",
                  strict=True)
    except LexError as exc:
        assert "interegular" in str(exc)


@pytest.mark.parametrize("game", GAMES)
def test_grammar_has_no_conflicts_in_debug_log(game: str) -> None:
    """A second check: Lark logs every conflict it resolves while building."""
    records: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    lark_logger = logging.getLogger("lark")
    handler = Collect(level=logging.DEBUG)
    old_level = lark_logger.level
    lark_logger.addHandler(handler)
    lark_logger.setLevel(logging.DEBUG)
    try:
        Lark.open(str(GRAMMAR_DIR / f"{game}.lark"), parser="lalr", lexer="contextual",
                  debug=True)
    finally:
        lark_logger.removeHandler(handler)
        lark_logger.setLevel(old_level)
    assert not [r for r in records if "onflict" in r or "ollision" in r]


def test_parser_is_built_once_per_game() -> None:
    assert grammar_parser.get_parser("neopets") is grammar_parser.get_parser("neopets")
    assert GAMES == ("neopets", "bakugan", "ttcg", "battle_monsters", "epic_battles")
    with pytest.raises(ValueError):
        parse("Draw a card.", game="chess")


def test_unwritable_cache_does_not_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache file that can be neither read nor written only costs a rebuild."""
    nowhere = "/proc/tcg-arbiter-no-such-dir/lark.cache"
    built = grammar_parser._build("neopets", nowhere)
    assert built.parse("Draw a card.") == Spell(effect=(Draw("you", 1),))
    monkeypatch.setattr(grammar_parser, "_PARSERS", {})
    monkeypatch.setattr(grammar_parser, "_cache_path", lambda game: nowhere)
    assert parse("Draw a card.") == CardText((Spell((Draw("you", 1),)),))


def test_cache_path_is_keyed_by_grammar_contents() -> None:
    path = grammar_parser._cache_path("neopets")
    assert path is False or ("neopets" in Path(path).name and Path(path).suffix == ".cache")


# ------------------------------------------------------------------ shipped cards


def test_base_set_shape() -> None:
    assert len(CARDS) >= 45
    names = [c["name"] for c in CARDS]
    assert len(names) == len(set(names))
    by_type: dict[str, list[dict[str, Any]]] = {}
    for card in CARDS:
        by_type.setdefault(card["type"], []).append(card)
    minimum = {
        "Neopet": 5, "Rainbow Pool Neopet": 4, "Codestone": 5, "Faerie": 2, "Hero": 1,
        "Villain": 1, "Paint Brush": 2, "Legend": 3, "Equipment": 4, "Potion": 4,
        "Food": 5, "Location": 2, "Map Piece": 3,
    }
    for kind, count in minimum.items():
        assert len(by_type.get(kind, [])) >= count, kind
    species = {c["species"] for c in by_type["Neopet"]}
    assert len(species) >= 5
    for pet in by_type["Neopet"]:
        s = pet["stats"]
        assert 2 <= s["attack"] <= 4 and 1 <= s["defence"] <= 3
        assert 1 <= s["agility"] <= 4 and 5 <= s["hp"] <= 8
    brushes = {c["name"] for c in by_type["Paint Brush"]}
    for pet in by_type["Rainbow Pool Neopet"]:
        assert pet["species"] in species
        assert pet["brush"] in brushes
    for stone in by_type["Codestone"]:
        assert set(stone["stats"]) <= {"attack", "defence", "agility"}
        assert all(v == 1 for v in stone["stats"].values())
    assert sum(len(s["stats"]) == 2 for s in by_type["Codestone"]) >= 2
    assert {c["text"] for c in by_type["Paint Brush"]} >= {"", "Transform your Neopet."}


@pytest.mark.parametrize("card", CARDS, ids=[c["name"] for c in CARDS])
def test_shipped_card_parses_strictly_and_round_trips(card: dict[str, Any]) -> None:
    tree = parse(card["text"], card_type=card["type"])
    assert unknown_parts(tree) == []
    assert parse(render(tree), card_type=card["type"]) == tree
    assert render(tree) == card["text"], "shipped text should be in canonical wording"
    assert from_json(to_json(tree)) == tree


def _shipped_trees() -> list[tuple[dict[str, Any], CardText]]:
    return [(c, parse(c["text"], card_type=c["type"])) for c in CARDS]


def test_every_keyword_action_is_shipped() -> None:
    nodes = [(card, node) for card, tree in _shipped_trees() for node in walk(tree)]

    def has(pred: Any) -> bool:
        return any(pred(card, node) for card, node in nodes)

    checks = {
        "8.20.1 abandon": lambda c, n: isinstance(n, Abandon),
        "8.20.2 collect": lambda c, n: isinstance(n, Keyword) and n.name == "map_piece",
        "8.20.3 discard": lambda c, n: isinstance(n, Discard),
        "8.20.4 freeze": lambda c, n: isinstance(n, Freeze),
        "8.20.5 immune": lambda c, n: isinstance(n, Immune),
        "8.20.6 negate": lambda c, n: isinstance(n, Negate),
        "8.20.7 reveal": lambda c, n: isinstance(n, Reveal),
        "8.20.8 scrap": lambda c, n: isinstance(n, Scrap),
        "8.20.9 search": lambda c, n: isinstance(n, Search),
        "9.9.1 name reference": lambda c, n: isinstance(n, Search)
        and n.what.name_contains is not None
        and any(n.what.name_contains in other["name"] for other in CARDS),
        "8.20.10 transform": lambda c, n: isinstance(n, Transform),
        "8.20.10b inherent transform": lambda c, n: c["type"] == "Paint Brush"
        and c["text"] == "",
        "8.20.11 additional cost": lambda c, n: isinstance(n, Spell) and bool(n.cost),
        "8.20.12 alternative cost": lambda c, n: isinstance(n, Activated) and n.alternative,
        "8.20.13 targeting": lambda c, n: isinstance(n, Selector) and n.quantifier == "target",
        "8.20.16 replacement": lambda c, n: isinstance(n, Replacement),
        "7.7.4 potion dice cost": lambda c, n: c["type"] == "Potion" and isinstance(n, Spell)
        and any(isinstance(s, Roll) for s in n.cost),
        "activated": lambda c, n: isinstance(n, Activated) and not n.alternative,
        "triggered": lambda c, n: isinstance(n, Triggered),
        "passive": lambda c, n: isinstance(n, Passive),
        "conditional passive": lambda c, n: isinstance(n, Passive) and n.condition is not None,
        "conditional": lambda c, n: isinstance(n, Conditional),
        "delayed": lambda c, n: isinstance(n, Delay),
        "d3": lambda c, n: isinstance(n, Roll) and n.die == "d3",
        "until end of turn": lambda c, n: n == Duration("end_of_turn"),
        "stays in play": lambda c, n: isinstance(n, StayInPlay),
        "can't": lambda c, n: isinstance(n, Prohibit),
        "rainbow pool keyword": lambda c, n: isinstance(n, Keyword) and n.name == "rainbow_pool"
        and c["type"] == "Location",
        "map pieces condition": lambda c, n: isinstance(n, Condition)
        and n.subject == "map_pieces" and c["type"] == "Location",
    }
    missing = [name for name, pred in checks.items() if not has(pred)]
    assert missing == []


def test_map_pieces_name_a_shipped_location() -> None:
    locations = {c["name"] for c in CARDS if c["type"] == "Location"}
    pieces = [t for c, t in _shipped_trees() if c["type"] == "Map Piece"]
    assert len(pieces) >= 3
    for tree in pieces:
        assert tree.abilities[0] == Keyword("map_piece", "Sunken Grotto")
        assert "Sunken Grotto" in locations


# ------------------------------------------------------------ specific templates

NEO_YOU = Selector("the", "Neopet", owner="you")
NEO_OPP = Selector("the", "Neopet", owner="opponent")
PLAYER_YOU = Selector("the", "player", owner="you")
PLAYER_OPP = Selector("the", "player", owner="opponent")

TEMPLATES: list[tuple[str, str | None, Ability]] = [
    ("Draw two cards.", "Potion", Spell((Draw("you", 2),))),
    ("Draw 2 cards.", "Potion", Spell((Draw("you", 2),))),
    ("Your opponent draws a card.", "Food", Spell((Draw("opponent", 1),))),
    ("Each player draws a card.", "Food", Spell((Draw("each", 1),))),
    ("Draw X cards.", "Legend", Spell((Draw("you", Var("X")),))),
    ("Your opponent scraps a card.", "Legend", Spell((Scrap("opponent", 1),))),
    ("Send target Equipment to its owner's Discard.", "Legend",
     Spell((Send(Selector("target", "Equipment"), "Discard"),))),
    ("Negate target card in the queue.", "Potion",
     Spell((Negate(Selector("target", "card", zone="queue")),))),
    ("Attach a Codestone from your Inventory to your Neopet.", "Legend",
     Spell((Attach(Selector("a", "Codestone", owner="you", zone="Inventory"), NEO_YOU),))),
    ("Your opponent's Neopet gets -1 Defence until the beginning of your next turn.",
     "Potion", Spell((Modify(NEO_OPP, "Defence", -1, Duration("your_next_turn")),))),
    ("Your opponent's Neopet can't attack during its next Battle Phase.", "Potion",
     Spell((Prohibit(NEO_OPP, "attack", Duration("next_battle_phase")),))),
    ("You may play an additional card this Preparation Phase.", "Food",
     Spell((Permit(PLAYER_YOU, "play an additional card", Duration("this_phase")),))),
    ("You may draw a card.", "Food", Spell((May("you", (Draw("you", 1),)),))),
    ("Shuffle your Main Deck.", "Legend", Spell((Shuffle("you"),))),
    ("At the end of the round, draw two cards.", "Legend",
     Spell((Delay("end_of_round", (Draw("you", 2),)),))),
    ("Your Neopet gets +1 Defence.", "Equipment", Passive((Modify(NEO_YOU, "Defence", 1),))),
    ("Discard a card; draw a card.", "Equipment",
     Activated((Discard("you", 1),), (Draw("you", 1),))),
    ("Discard a card; draw a card.", "Potion", Spell((Draw("you", 1),), cost=(Discard("you", 1),))),
    ("Alternatively, scrap a card; draw a card.", "Potion",
     Activated((Scrap("you", 1),), (Draw("you", 1),), alternative=True)),
    ("At the beginning of your Battle Phase, draw a card.", "Faerie",
     Triggered(Trigger("phase_begins", who="you", phase="Battle"), (Draw("you", 1),))),
    ("At the beginning of your turn, draw a card.", "Hero",
     Triggered(Trigger("turn_begins", who="you"), (Draw("you", 1),))),
    ("At the end of your turn, draw a card.", "Hero",
     Triggered(Trigger("turn_ends", who="you"), (Draw("you", 1),))),
    ("When your Neopet is dealt damage, draw a card.", "Neopet",
     Triggered(Trigger("dealt_damage", subject=NEO_YOU), (Draw("you", 1),))),
    ("When your opponent rolls attack dice, draw a card.", "Neopet",
     Triggered(Trigger("rolled", who="opponent"), (Draw("you", 1),))),
    ("Play only during your opponent's turn.", "Food", Conditional(timing="opponent_turn")),
    ("Play only during a Battle Phase.", "Food", Conditional(timing="battle_phase")),
    ("Play only after dice are rolled.", "Potion", Conditional(timing="after_roll")),
    ("Play only if your Neopet has 3 or more damage.", "Legend",
     Conditional(condition=Condition("damage", ">=", 3, of=NEO_YOU))),
    ("Play only if you have three or more Map Pieces in your Play Area.", "Location",
     Conditional(condition=Condition("map_pieces", ">=", 3, of=PLAYER_YOU))),
    ("Your Neopet is immune to frozen.", "Neopet", Passive((Immune(NEO_YOU, "frozen"),))),
    ("If your Neopet would be frozen, draw a card instead.", "Neopet",
     Replacement(Trigger("frozen", subject=NEO_YOU), (Draw("you", 1),))),
    ("While you control a Faerie, your Neopet gets +1 Agility.", "Equipment",
     Passive((Modify(NEO_YOU, "Agility", 1),),
             condition=Condition("controls", "has", "Faerie", of=PLAYER_YOU))),
    ("Your opponent can't play Food cards until end of turn.", "Food",
     Spell((Prohibit(PLAYER_OPP, "play Food", Duration("end_of_turn")),))),
]


@pytest.mark.parametrize(("text", "card_type", "ability"), TEMPLATES,
                         ids=[t[0][:50] for t in TEMPLATES])
def test_template_meaning(text: str, card_type: str | None, ability: Ability) -> None:
    tree = parse(text, card_type=card_type)
    assert tree == CardText((ability,))
    assert parse(render(tree), card_type=card_type) == tree


def test_card_type_decides_plain_and_costed_lines() -> None:
    text = "Discard a card; draw a card."
    assert isinstance(parse(text).abilities[0], Activated)
    assert isinstance(parse(text, card_type="Food").abilities[0], Spell)
    assert isinstance(parse("Draw a card.").abilities[0], Spell)
    assert isinstance(parse("Draw a card.", card_type="Hero").abilities[0], Passive)
    with pytest.raises(ValueError):
        parse("Draw a card.", card_type="Wizard")


def test_empty_text_is_a_vanilla_card() -> None:
    assert parse("") == CardText(())
    assert parse_lenient("") == CardText(())


def test_multiple_lines() -> None:
    tree = parse("Play only during your turn.\nDraw a card.\n", card_type="Food")
    assert tree == CardText((Conditional(timing="your_turn"), Spell((Draw("you", 1),))))


# ------------------------------------------------------------------------- errors


def test_error_names_line_column_and_expected_words() -> None:
    text = "Draw a card.\nDeal 2 damage to your Nepoet."
    with pytest.raises(CardTextError) as info:
        parse(text)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.line == 2
    assert err.column == 23
    assert err.text == "Deal 2 damage to your Nepoet."
    assert "the word 'Neopet'" in err.expected
    lines = str(err).split("\n")
    assert lines[0].startswith("line 2, column 23: ")
    assert lines[1] == "Deal 2 damage to your Nepoet."
    assert lines[2] == " " * 22 + "^"
    assert lines[3].startswith("expected: ")
    assert "the word 'Neopet'" in lines[3]


def test_error_expected_words_are_plain() -> None:
    with pytest.raises(CardTextError) as info:
        parse("Deal damage to your Neopet.")
    assert "the word 'equal'" in info.value.expected
    with pytest.raises(CardTextError) as info:
        parse("Draw a card")
    assert info.value.expected == ["the word 'and'", "a period", "a semicolon"]
    with pytest.raises(CardTextError) as info:
        parse("Discard a card; draw a card")
    assert info.value.expected == ["a period"]
    with pytest.raises(CardTextError) as info:
        parse("Deal to your Neopet.")
    assert "a number" in info.value.expected
    with pytest.raises(CardTextError) as info:
        parse("Discard a card draw a card.")
    assert "a semicolon" in info.value.expected


def test_over_length_text_is_rejected() -> None:
    text = "\n".join(["Draw a card."] * 200)
    assert len(text) > MAX_TEXT_LENGTH
    with pytest.raises(CardTextError, match="exceeds the limit"):
        parse(text)
    with pytest.raises(CardTextError, match="exceeds the limit"):
        parse_lenient(text)


def test_lenient_keeps_what_it_can() -> None:
    tree = parse_lenient("Draw a card.\nFlibber the wumpus twice.", card_type="Food")
    assert tree.abilities[0] == Spell((Draw("you", 1),))
    assert tree.abilities[1] == Spell((Unknown("Flibber the wumpus twice."),))
    assert unknown_parts(tree) == ["Flibber the wumpus twice."]
    mixed = parse_lenient("Draw a card. Juggle three moons.", card_type="Hero")
    assert mixed == CardText((Passive((Draw("you", 1), Unknown("Juggle three moons."))),))


def test_json_round_trip() -> None:
    for _card, tree in _shipped_trees():
        data = to_json(tree)
        assert from_json(data) == tree
        assert from_json(data.decode()) == tree


# ------------------------------------------------------------- property round trip

NUMBERS = st.integers(min_value=0, max_value=25)
COUNTS = st.one_of(NUMBERS, st.just(Var("X")))
NEOPETS = st.sampled_from([NEO_YOU, NEO_OPP, Selector("each", "Neopet"),
                           Selector("target", "Neopet")])
WHO: st.SearchStrategy[Who] = st.sampled_from(cast(list[Who], ["you", "opponent", "each"]))
TWO_PLAYERS: st.SearchStrategy[Who] = st.sampled_from(cast(list[Who], ["you", "opponent"]))
PLAYERS = WHO.map(grammar_parser._player)
CARD_TYPES = st.sampled_from(["Codestone", "Equipment", "Faerie", "Food", "Potion", "Legend",
                              "Paint Brush", "Location", "Map Piece", "Hero", "Villain"])
KINDS = st.one_of(CARD_TYPES, st.just("card"))
DURATIONS = st.one_of(st.none(), st.sampled_from(
    [Duration(u) for u in ("end_of_turn", "end_of_round", "your_next_turn",
                           "next_battle_phase")]))
COMPARISONS = st.tuples(st.sampled_from(["==", ">=", "<="]), COUNTS)
NAMES = st.from_regex(r"[A-Z][a-z]{0,8}( [A-Za-z][a-z']{0,8}){0,3}", fullmatch=True)
QUOTED = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9 '!-]{0,14}", fullmatch=True)
ACTIONS = st.one_of(st.sampled_from(["attack", "defend", "play cards"]),
                    CARD_TYPES.map(lambda t: f"play {t}"))

CONDITIONS = st.one_of(
    COMPARISONS.map(lambda c: Condition("result", c[0], c[1])),  # type: ignore[arg-type]
    st.builds(lambda c, n: Condition("damage", c[0], c[1], of=n), COMPARISONS, NEOPETS),
    st.builds(lambda t, p: Condition("controls", "has", t, of=p), CARD_TYPES, PLAYERS),
    st.builds(lambda c, p: Condition("map_pieces", c[0], c[1], of=p), COMPARISONS, PLAYERS),
)

SIMPLE_STEPS: st.SearchStrategy[Step] = st.one_of(
    st.builds(Draw, WHO, COUNTS),
    st.builds(Discard, WHO, COUNTS),
    st.builds(Scrap, WHO, COUNTS),
    st.builds(Send, st.one_of(
        st.just(Selector("this")),
        st.just(Selector("a", "Codestone", owner="you", zone="Codestone Slots")),
        KINDS.map(lambda k: Selector("target", k))), st.sampled_from(["Discard", "Void"])),
    st.builds(Deal, st.one_of(COUNTS, st.just(Var("result"))), NEOPETS),
    st.builds(Heal, COUNTS, NEOPETS),
    st.builds(lambda z, k, n: Search("you", z, Selector("a", k, name_contains=n)),
              st.sampled_from(["Main Deck", "Discard"]), KINDS, st.one_of(st.none(), QUOTED)),
    KINDS.map(lambda k: Reveal(Selector("a", k, owner="you", zone="Inventory"))),
    st.builds(Freeze, NEOPETS),
    KINDS.map(lambda k: Negate(Selector("target", k, zone="queue"))),
    st.just(Transform()),
    st.sampled_from(["Inventory", "Discard"]).map(
        lambda z: Attach(Selector("a", "Codestone", owner="you", zone=z), NEO_YOU)),
    st.builds(Modify, NEOPETS, st.sampled_from(["Attack", "Defence", "Agility", "Hit Points"]),
              st.one_of(st.integers(-25, 25), st.just(Var("X"))), DURATIONS),
    st.builds(Roll, TWO_PLAYERS, st.sampled_from(["d6", "d3"]), st.integers(1, 25)),
    st.just(Abandon()),
    st.builds(Immune, NEOPETS, st.sampled_from(["frozen", "damage"]), DURATIONS),
    st.just(Shuffle("you")),
    st.just(StayInPlay()),
    st.builds(Prohibit, st.one_of(PLAYERS, NEOPETS), ACTIONS, DURATIONS),
    st.builds(Permit, st.one_of(PLAYERS, NEOPETS), ACTIONS, DURATIONS),
)
STEP_LISTS = st.lists(SIMPLE_STEPS, min_size=1, max_size=3).map(tuple)

YOU_MAY: st.SearchStrategy[Step] = st.one_of(
    STEP_LISTS.map(lambda s: May("you", s)),
    st.integers(0, 25).map(lambda n: Reroll("you", n)),
    st.sampled_from([None, Duration("this_phase")]).map(
        lambda d: Permit(PLAYER_YOU, "play an additional card", d)),
)

CLAUSES: st.SearchStrategy[Step] = st.one_of(
    SIMPLE_STEPS,
    YOU_MAY,
    st.builds(If, CONDITIONS, st.one_of(STEP_LISTS, YOU_MAY.map(lambda s: (s,)))),
    st.builds(Delay, st.sampled_from(["end_of_round", "end_of_turn"]), STEP_LISTS),
)
EFFECTS = st.lists(CLAUSES, min_size=1, max_size=3).map(tuple)

TRIGGERS = st.one_of(
    st.builds(lambda e, w: Trigger(e, who=w), st.sampled_from(["turn_begins", "turn_ends"]),
              TWO_PLAYERS),
    st.builds(lambda e, w, p: Trigger(e, who=w, phase=p),
              st.sampled_from(["phase_begins", "phase_ends"]), TWO_PLAYERS,
              st.sampled_from(["Draw", "Train", "Preparation", "Battle"])),
    NEOPETS.map(lambda n: Trigger("dealt_damage", subject=n)),
    st.builds(lambda w, k: Trigger("played", who=w, subject=Selector("a", k)), TWO_PLAYERS,
              KINDS),
    TWO_PLAYERS.map(lambda w: Trigger("attached", who=w, subject=Selector("a", "Codestone"))),
    TWO_PLAYERS.map(lambda w: Trigger("rolled", who=w)),
)

COMMON_ABILITIES: st.SearchStrategy[Ability] = st.one_of(
    st.builds(lambda c, e: Activated(c, e, alternative=True), STEP_LISTS, EFFECTS),
    st.builds(Triggered, TRIGGERS, EFFECTS),
    st.builds(lambda c, e: Passive(e, condition=c), CONDITIONS, EFFECTS),
    st.builds(Replacement, st.builds(lambda e, s: Trigger(e, subject=s),
                                     st.sampled_from(["frozen", "dealt_damage"]),
                                     st.one_of(PLAYERS, NEOPETS)), STEP_LISTS),
    st.builds(Conditional, st.one_of(st.none(), CONDITIONS), st.sampled_from(
        ["opponent_turn", "your_turn", "battle_phase", "after_roll"])),
    CONDITIONS.map(lambda c: Conditional(condition=c)),
    NAMES.map(lambda n: Keyword("map_piece", n)),
    st.just(Keyword("rainbow_pool")),
)


@st.composite
def card_texts(draw: st.DrawFn) -> tuple[str | None, CardText]:
    """A card type and a tree the grammar can produce for a card of that type."""
    card_type = draw(st.sampled_from([None, *sorted(SPELL_TYPES), *sorted(PERMANENT_TYPES)]))
    if card_type in SPELL_TYPES:
        own = st.one_of(EFFECTS.map(Spell), st.builds(lambda c, e: Spell(e, cost=c),
                                                      STEP_LISTS, EFFECTS))
    elif card_type in PERMANENT_TYPES:
        own = st.one_of(EFFECTS.map(Passive), st.builds(Activated, STEP_LISTS, EFFECTS))
    else:
        own = st.one_of(EFFECTS.map(Spell), st.builds(Activated, STEP_LISTS, EFFECTS))
    abilities = draw(st.lists(st.one_of(own, COMMON_ABILITIES), min_size=0, max_size=4))
    return card_type, CardText(tuple(abilities))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(card_texts())
def test_round_trip_property(case: tuple[str | None, CardText]) -> None:
    card_type, tree = case
    text = render(tree)
    if len(text) > MAX_TEXT_LENGTH:
        return
    assert parse(text, card_type=card_type) == tree, text
    assert from_json(to_json(tree)) == tree


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120))
def test_lenient_never_fails(text: str) -> None:
    tree = parse_lenient(text)
    assert isinstance(tree, CardText)
