"""Tests of the Bakugan card-text grammar, its renderer and the shipped base set.

The grammar-build checks (strict mode, no conflicts in the debug log) run for every
game in tests/test_grammar_neopets.py; here are the Bakugan templates, the line
splitter, the renderer's round trip, the invented cards and the real-card coverage.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grammar import bakugan as B
from grammar.ast import (
    Ability,
    Activated,
    Attach,
    CardText,
    Condition,
    Deal,
    Delay,
    Discard,
    Draw,
    Duration,
    If,
    Keyword,
    May,
    Modify,
    Negate,
    Passive,
    Permit,
    Prohibit,
    Reroll,
    Reveal,
    Search,
    Selector,
    Send,
    Shuffle,
    Spell,
    Step,
    Trigger,
    Triggered,
    Unknown,
    Var,
    Who,
    from_json,
    to_json,
    unknown_parts,
)
from grammar.bakugan_nodes import (
    Attack,
    Choice,
    Copy,
    CoreStatic,
    CostChange,
    Destroy,
    Detach,
    EndTurn,
    Energize,
    FlipCoin,
    ForEach,
    Instead,
    Look,
    Pay,
    Play,
    Qualified,
    Recharge,
    Retract,
    Rider,
    Select,
    SetStat,
    Spend,
    Stop,
    SwapCore,
    TakeControl,
    VictorBy,
)
from grammar.parser import MAX_TEXT_LENGTH, CardTextError, grammar_of, parse, parse_lenient
from grammar.render import RenderError, render
from tests.grammar_support import shipped_cards, walk

ROOT = Path(__file__).resolve().parent.parent
BASE_SET = ROOT / "spec" / "bakugan" / "cards" / "base.toml"
REAL_CARDS = Path(__file__).resolve().parents[2] / "shared" / "cards" / "bakugan.dev.jsonl"

GAME = "bakugan"
FACTIONS = {"Aquos", "Aurelus", "Darkus", "Haos", "Pyrus", "Ventus"}
CORES = {"FT", "FF", "SD", "MS", "HE"}

IMPLIED = B.IMPLIED
SAME = B.SAME
YOU = Selector("the", "player", owner="you")
THIS = Selector("this")
IT = Selector("it")


def p(text: str, card_type: str | None = None) -> CardText:
    return parse(text, GAME, card_type=card_type)


def r(tree: CardText) -> str:
    return render(tree, GAME)


CARDS = shipped_cards("bakugan")


# ------------------------------------------------------------------ shipped cards


def test_base_set_shape() -> None:
    assert len(CARDS) >= 40
    names = [c["name"] for c in CARDS]
    assert len(names) == len(set(names))
    by_type: dict[str, list[dict[str, Any]]] = {}
    for card in CARDS:
        by_type.setdefault(card["type"], []).append(card)
        assert set(card["traits"]) <= FACTIONS and card["traits"], card["name"]
    assert set(by_type) == {"Character", "Evo", "Hero", "Action", "Flip"}
    for kind, count in {"Character": 6, "Evo": 5, "Hero": 6, "Action": 12, "Flip": 5}.items():
        assert len(by_type[kind]) >= count, kind
    characters = {c["name"] for c in by_type["Character"]}
    for card in by_type["Character"]:
        stats = card["stats"]
        assert set(stats) == {"bpower", "damage", "cores"} and "cost" not in card
        assert len(stats["cores"]) == 2 and set(stats["cores"]) <= CORES
    for card in by_type["Evo"]:
        assert set(card["stats"]) == {"bpower", "damage", "evolves_from"}
        assert card["stats"]["evolves_from"] in characters
    for card in by_type["Hero"] + by_type["Action"] + by_type["Flip"]:
        assert "stats" not in card
        assert isinstance(card["cost"], int) or card["cost"] == "X"
    assert any(c["cost"] == "X" for c in by_type["Action"])


def test_base_set_loads_as_a_card_database() -> None:
    from spec.core.cards import CardDatabase

    database = CardDatabase.load(BASE_SET)
    assert database.game == GAME and len(database) == len(CARDS)
    for card in database:
        tree = database.tree(card.name)
        assert isinstance(tree, CardText), (card.name, tree)


@pytest.mark.parametrize("card", CARDS, ids=[c["name"] for c in CARDS])
def test_shipped_card_parses_strictly_and_round_trips(card: dict[str, Any]) -> None:
    tree = p(card["text"], card["type"])
    assert unknown_parts(tree) == []
    assert p(r(tree), card["type"]) == tree
    assert r(tree) == card["text"], "shipped text should be in canonical wording"
    assert from_json(to_json(tree)) == tree


def _shipped_trees() -> list[tuple[dict[str, Any], CardText]]:
    return [(c, p(c["text"], c["type"])) for c in CARDS]


def test_every_template_is_shipped() -> None:
    nodes = [(card, node) for card, tree in _shipped_trees() for node in walk(tree)]

    def has(pred: Any) -> bool:
        return any(pred(card, node) for card, node in nodes)

    def rider(word: str) -> Any:
        return lambda c, n: isinstance(n, Rider) and n.keyword == word

    checks = {
        "6.4.1 cost: effect": lambda c, n: isinstance(n, Activated)
        and not any(isinstance(s, Spend) for s in n.cost),
        "6.4.1 energy cost": lambda c, n: isinstance(n, Activated) and n.cost == (Spend(2),),
        "1.8.1.2 X cost (activated)": lambda c, n: isinstance(n, Activated)
        and n.cost == (Spend(Var("X")),),
        "1.8.1.2 X cost (card)": lambda c, n: isinstance(n, Spell)
        and n.cost == (Spend(Var("X")),),
        "6.3.1 when": lambda c, n: isinstance(n, Triggered) and n.trigger.event == "played",
        "6.3.1 if": lambda c, n: isinstance(n, Triggered) and n.trigger.event == "dealt_damage",
        "6.3.1 at": lambda c, n: isinstance(n, Triggered) and n.trigger.event == "turn_ends",
        "opens": lambda c, n: isinstance(n, Trigger) and n.event == "opens",
        "6.5.2.1 BakuCore static": lambda c, n: isinstance(n, CoreStatic),
        "6.5.2.1 two icons": lambda c, n: isinstance(n, CoreStatic) and len(n.cores) == 2,
        "6.5.1 conditional static": lambda c, n: isinstance(n, Passive)
        and n.condition is not None,
        "6.10 negate": lambda c, n: isinstance(n, Negate),
        "1.15.2 free": lambda c, n: isinstance(n, CostChange) and n.free,
        "1.15.2 for free": lambda c, n: isinstance(n, Play) and n.free,
        "cost change": lambda c, n: isinstance(n, CostChange) and not n.free,
        "FrostStrike": lambda c, n: isinstance(n, Modify) and n.stat == "FrostStrike",
        "DoubleStrike": lambda c, n: isinstance(n, Modify) and n.stat == "DoubleStrike",
        "ShadowStrike": lambda c, n: isinstance(n, Modify) and n.stat == "ShadowStrike",
        "+N [B]": lambda c, n: isinstance(n, Modify) and n.stat == "BPower"
        and n.target == IMPLIED,
        "-N [Damage Rating]": lambda c, n: isinstance(n, Modify)
        and n.stat == "Damage Rating" and isinstance(n.delta, int) and n.delta < 0,
        "[Energy] gain": lambda c, n: isinstance(n, Modify) and n.stat == "Energy",
        "reroll": lambda c, n: isinstance(n, Reroll),
        "reroll keyword": lambda c, n: isinstance(n, Keyword) and n.name == "reroll_on_miss",
        "retract": lambda c, n: isinstance(n, Retract),
        "instead": lambda c, n: isinstance(n, Instead),
        "make a [Pyrus] attack": lambda c, n: isinstance(n, Attack) and n.faction == "Pyrus",
        "destroy": lambda c, n: isinstance(n, Destroy),
        "draw": lambda c, n: isinstance(n, Draw),
        "discard": lambda c, n: isinstance(n, Discard),
        "search": lambda c, n: isinstance(n, Search),
        "play from somewhere": lambda c, n: isinstance(n, Play)
        and n.what.zone is not None,
        "return to deck": lambda c, n: isinstance(n, Send) and n.to == "bottom of deck",
        "energize": lambda c, n: isinstance(n, Energize) and n.uncharged,
        "recharge": lambda c, n: isinstance(n, Recharge),
        "[Stop] factions": lambda c, n: isinstance(n, Stop) and len(n.factions) == 2,
        "[Stop] non-": lambda c, n: isinstance(n, Stop) and n.excluded,
        "[Stop] holding": lambda c, n: isinstance(n, Stop) and bool(n.holding),
        "faction icon condition": lambda c, n: isinstance(n, Condition)
        and n.subject == "faction",
        "faction selector": lambda c, n: isinstance(n, Selector) and n.team in FACTIONS,
        "for each": lambda c, n: isinstance(n, ForEach),
        "cost filter": lambda c, n: isinstance(n, Qualified),
        "pay": lambda c, n: isinstance(n, Pay),
        "Victor": rider("Victor"),
        "Fury": rider("Fury"),
        "Turbo": rider("Turbo"),
        "Sacrifice": rider("Sacrifice"),
        "Domination": rider("Domination"),
        "Flow": rider("Flow"),
        "attach a BakuCore": lambda c, n: isinstance(n, Attach),
        "all factions": lambda c, n: isinstance(n, Keyword) and n.name == "all_factions",
    }
    missing = [name for name, pred in checks.items() if not has(pred)]
    assert missing == []


def test_json_round_trip_of_shipped_trees() -> None:
    for _card, tree in _shipped_trees():
        data = to_json(tree)
        assert from_json(data) == tree
        assert from_json(data.decode()) == tree


# ------------------------------------------------------------ specific templates

A_BAKUGAN = Selector("a", "Bakugan")
THAT = Selector("that", "Bakugan")

TEMPLATES: list[tuple[str, str | None, Ability]] = [
    # stat changes (1.8.1) and keyword icons as stats (1.9.1.2)
    ("+700 [B].", "Action", Spell((Modify(IMPLIED, "BPower", 700),))),
    ("-4 [Damage Rating].", "Action", Spell((Modify(IMPLIED, "Damage Rating", -4),))),
    ("+3 [FrostStrike] and +[ShadowStrike].", "Action",
     Spell((Modify(IMPLIED, "FrostStrike", 3), Modify(IMPLIED, "ShadowStrike", 1)))),
    ("4 [FrostStrike], [DoubleStrike], and [ShadowStrike].", "Character",
     Passive((Modify(IMPLIED, "FrostStrike", 4), Modify(IMPLIED, "DoubleStrike", 1),
              Modify(IMPLIED, "ShadowStrike", 1)))),
    ("+X [Damage Rating].", "Action", Spell((Modify(IMPLIED, "Damage Rating", Var("X")),))),
    ("+2 [Energy] for the turn.", "Action",
     Spell((Modify(YOU, "Energy", 2, Duration("end_of_turn")),))),
    ("+500 [B] to a [Darkus] Bakugan.", "Action",
     Spell((Modify(Selector("a", "Bakugan", team="Darkus"), "BPower", 500),))),
    ("-2 [Damage Rating] for all enemy Bakugan.", "Action",
     Spell((Modify(Selector("all", "Bakugan", owner="opponent"), "Damage Rating", -2),))),
    ("Give an open Bakugan +1 [FrostStrike].", "Action",
     Spell((Modify(Selector("a", "Bakugan", zone="open"), "FrostStrike", 1),))),
    ("Non-[Aquos] Bakugan get -100 [B].", "Hero",
     Passive((Modify(Selector("all", "Bakugan", team="non-Aquos"), "BPower", -100),))),
    ("That Bakugan gets +1 [Damage Rating] and +[DoubleStrike].", "Action",
     Spell((Modify(THAT, "Damage Rating", 1), Modify(THAT, "DoubleStrike", 1)))),  # decision 42: one subject for both
    ("Give a Bakugan +300 [B] and +3 [Damage Rating].", "Action",
     Spell((Modify(Selector("a", "Bakugan"), "BPower", 300), Modify(SAME, "Damage Rating", 3)))),
    ("An enemy Bakugan's [B] becomes 200.", "Action",
     Spell((SetStat(Selector("a", "Bakugan", owner="opponent"), "BPower", 200),))),
    ("+100 [B] for each Evo card you have in play.", "Action",
     Spell((ForEach((Modify(IMPLIED, "BPower", 100),),
                    Var("count", of=Selector("each", "Evo", owner="you", zone="play"))),))),
    ("+1 [Damage Rating] or +300 [B].", "Action",
     Spell((Choice(((Modify(IMPLIED, "Damage Rating", 1),), (Modify(IMPLIED, "BPower", 300),))),))),
    # BakuCore-icon statics (6.5.2.1)
    ("[HE]: +3 [FrostStrike].", "Character",
     CoreStatic(("HE",), (Modify(IMPLIED, "FrostStrike", 3),))),
    ("[FF] or [MS] : +[ShadowStrike].", "Evo",
     CoreStatic(("FF", "MS"), (Modify(IMPLIED, "ShadowStrike", 1),))),
    ("SD: +100 [B].", "Character", CoreStatic(("SD",), (Modify(IMPLIED, "BPower", 100),))),
    # activated abilities (6.4.1), X costs (1.8.1.2)
    ("3 [Energy]: Draw a card.", "Hero", Activated((Spend(3),), (Draw("you", 1),))),
    ("X [Energy]: +X [B].", "Hero",
     Activated((Spend(Var("X")),), (Modify(IMPLIED, "BPower", Var("X")),))),
    ("1 [Energy] and destroy this: Retract that Bakugan.", "Hero",
     Activated((Spend(1), Destroy(THIS)), (Retract(THAT),))),
    ("You may use any amount of [Energy] to play this. Draw X cards.", "Action",
     Spell((Draw("you", Var("X")),), cost=(Spend(Var("X")),))),
    # triggers (6.3.1)
    ("When you play this, draw two cards.", "Evo",
     Triggered(Trigger("played", who="you", subject=THIS), (Draw("you", 2),))),
    ("When this opens, you may recharge up to three Energy cards.", "Evo",
     Triggered(Trigger("opens", subject=THIS),
               (May("you", (Recharge(Selector("up_to", "Energy", count=3)),)),))),
    ("When you discard a card, this gets +100 [B].", "Character",
     Triggered(Trigger("discarded", who="you", subject=Selector("a", "card")),
               (Modify(THIS, "BPower", 100),))),
    ("If this is discarded, draw a card.", "Action",
     Triggered(Trigger("discarded", subject=THIS), (Draw("you", 1),))),
    ("If you deal 8 or more damage in an attack, draw a card.", "Hero",
     Triggered(Trigger("deals_damage", who="you"),
               (If(Condition("damage", ">=", 8), (Draw("you", 1),)),))),
    ("At the start of the turn, +1 [Energy].", "Hero",
     Triggered(Trigger("turn_begins"), (Modify(YOU, "Energy", 1),))),
    # keyword riders with ':' or '-'
    ("Victor - Destroy an enemy Hero card.", "Character",
     Rider("Victor", (Destroy(Selector("a", "Hero", owner="opponent")),))),
    ("Fury: If you have no cards in your hand, +4 [FrostStrike].", "Evo",
     Rider("Fury", (Modify(IMPLIED, "FrostStrike", 4),), condition=Condition(
         "count", "==", 0, of=Selector("all", "card", owner="you", zone="hand")))),
    ("Turbo -If you control the most Energy cards -6 [Damage Rating] instead.", "Action",
     Rider("Turbo", (Instead((Modify(IMPLIED, "Damage Rating", -6),)),),
           condition=Condition("most", "has", "Energy", of=YOU))),
    ("Domination: If your Bakugan are holding the most BakuCores, +1 [Energy].", "Action",
     Rider("Domination", (Modify(YOU, "Energy", 1),),
           condition=Condition("most", "has", "BakuCore", of=YOU))),
    ("Sacrifice - You may discard a card to draw three cards.", "Action",
     Rider("Sacrifice", (May("you", (Pay((Discard("you", 1),), (Draw("you", 3),)),)),))),
    ("Flow: If you played another card this turn, retract that Bakugan.", "Action",
     Rider("Flow", (Retract(THAT),), condition=Condition(
         "played", ">=", 1, of=Selector("all", "card", owner="you", other=True)))),
    ("Fury: At the end of the turn, if you control the most Energy cards, +1 [Energy].",
     "Hero", Rider("Fury", (Modify(YOU, "Energy", 1),), trigger=Trigger("turn_ends"),
                   condition=Condition("most", "has", "Energy", of=YOU))),
    # negate (6.10), destroy, retract, reroll, energize
    ("Negate a Flip card that costs 2 [Energy] or less.", "Action",
     Spell((Qualified(Negate(Selector("a", "Flip")), (Condition("cost", "<=", 2),)),))),
    ("Destroy all enemy Heroes.", "Action",
     Spell((Destroy(Selector("all", "Hero", owner="opponent")),))),
    ("Retract a [Haos] Bakugan that didn't open this turn.", "Flip",
     Spell((Qualified(Retract(Selector("a", "Bakugan", team="Haos")),
                      (Condition("opened", "not", "this turn"),)),))),
    ("You must Reroll your Bakugan.", "Action", Spell((Reroll("you"),))),
    ("The opposing Bakugan must Reroll.", "Action", Spell((Reroll("opponent"),))),
    ("Energize a card from your hand uncharged.", "Action",
     Spell((Energize(Selector("a", "card", owner="you", zone="hand"), uncharged=True),))),
    # free (1.15.2), cost changes, play from a zone
    ("Play an Evo card from your discard pile for free.", "Flip",
     Spell((Play(Selector("a", "Evo", owner="you", zone="discard pile"), free=True),))),
    ("Your Flip cards cost 2 [Energy] less to play.", "Hero",
     Passive((CostChange(Selector("all", "Flip", owner="you"), -2),))),
    ("This is free.", "Flip", Spell((CostChange(THIS, free=True),))),
    # moving cards
    ("Return this to the bottom of your deck.", "Action",
     Spell((Send(THIS, "bottom of deck"),))),
    ("Shuffle two cards from your discard pile into your deck.", "Action",
     Spell((Send(Selector("a", "card", count=2, owner="you", zone="discard pile"), "deck"),))),
    ("Search your deck for a Hero card, reveal it, then put it into your hand.", "Action",
     Spell((Search("you", "deck", Selector("a", "Hero"), to="hand"), Reveal(IT),
            Send(IT, "hand")))),
    ("Shuffle your deck.", "Action", Spell((Shuffle("you", "deck"),))),
    # attacks, [Stop], instead
    ("Make a [Ventus] attack for 6 [Damage Rating].", "Flip", Spell((Attack("Ventus", 6),))),
    ("[Stop] [Haos] or [Aurelus].", "Flip", Spell((Stop(("Haos", "Aurelus")),))),
    ("[Stop] a Bakugan holding [HE].", "Flip", Spell((Stop(holding=("HE",)),))),
    ("+100 [B]. If [Haos], +900 [B] instead.", "Action",
     Spell((Modify(IMPLIED, "BPower", 100), If(Condition("faction", "is", "Haos"), (
         Instead((Modify(IMPLIED, "BPower", 900),)),))))),
    ("If that Bakugan is holding [MS], draw a card.", "Action",
     Spell((If(Condition("holding", "has", "MS", of=THAT), (Draw("you", 1),)),))),
    # players and choices
    ("Choose a player to discard two cards.", "Flip", Spell((Discard("any", 2),))),
    ("All players must discard a card.", "Character", Passive((Discard("each", 1),))),
    ("Your opponent reveals their hand and you choose an Evo card.", "Flip",
     Spell((Reveal(Selector("all", "card", owner="opponent", zone="hand")),
            Select(Selector("a", "Evo"))))),
    ("Choose one: draw a card, or retract that Bakugan.", "Action",
     Spell((Choice(((Draw("you", 1),), (Retract(THAT),))),))),
    # statics on permanents (6.5.1)
    ("If you have three or more Evo cards in play, +300 [B].", "Evo",
     Passive((Modify(IMPLIED, "BPower", 300),), condition=Condition(
         "count", ">=", 3, of=Selector("all", "Evo", owner="you", zone="play")))),
    ("Once each turn, you may Reroll this if you miss a Roll with it.", "Evo",
     Keyword("reroll_on_miss", "once each turn")),
    ("You may use this any number of times.", "Action",
     Spell((Permit(YOU, "use this any number of times"),))),
    # the smaller actions
    ("Flip a coin. If heads, end the turn.", "Flip",
     Spell((FlipCoin(), If(Condition("coin", "is", "heads"), (EndTurn(),))))),
    ("Copy the first Action card you play each turn.", "Hero",
     Passive((Copy(Selector("the", "Action", owner="you", zone="first played each turn")),))),
    ("Take control of an enemy Hero card.", "Flip",
     Spell((TakeControl(Selector("a", "Hero", owner="opponent")),))),
    ("Look at the top four cards of your deck.", "Action",
     Spell((Look(Selector("the", "card", count=4, owner="you", zone="top of deck")),))),
    ("Remove an enemy Bakugan's BakuCore and negate its effect.", "Action",
     Spell((Detach(Selector("a", "BakuCore", owner="opponent", zone="held")), Negate(IT)))),
    ("Swap one of that Bakugan's BakuCores with the opposing Bakugan.", "Evo",
     Passive((SwapCore(THAT, Selector("the", "Bakugan", owner="opponent")),))),
    ("This turn, the Victor is decided by highest [FrostStrike] instead of [B].", "Action",
     Spell((VictorBy("FrostStrike"),))),
    ("Draw a card at the end of the turn.", "Action",
     Spell((Delay("end_of_turn", (Draw("you", 1),)),))),
    ("This counts as all Factions.", "Evo", Keyword("all_factions")),
    ("While this is holding [HE], +2 [FrostStrike].", "Action",
     Passive((Modify(IMPLIED, "FrostStrike", 2),),
             condition=Condition("holding", "has", "HE", of=THIS))),
    ("Each of your Bakugan gets +50 [B] until end of turn.", "Action",
     Spell((Modify(Selector("all", "Bakugan", owner="you"), "BPower", 50,
                   Duration("end_of_turn")),))),
    ("Deal 2 damage to your opponent.", "Action",
     Spell((Deal(2, Selector("the", "player", owner="opponent")),))),
    ("Gain 3 [Energy].", "Action", Spell((Modify(YOU, "Energy", 3),))),
    ("Overdrive - If the opposing Bakugan is [Aquos], +2 [FrostStrike].", "Action",
     Rider("Overdrive", (Modify(IMPLIED, "FrostStrike", 2),), condition=Condition(
         "faction", "is", "Aquos", of=Selector("the", "Bakugan", owner="opponent")))),
    ("When an enemy Bakugan opens, draw a card.", "Hero",
     Triggered(Trigger("opens", subject=Selector("a", "Bakugan", owner="opponent")),
               (Draw("you", 1),))),
    ("Your opponent can't play Flip cards this turn.", "Action",
     Spell((Prohibit(Selector("the", "player", owner="opponent"), "play Flip",
                     Duration("end_of_turn")),))),
    ("This can't be negated.", "Action", Spell((Prohibit(THIS, "be negated"),))),
    ("-100 [B] to an enemy Bakugan holding [MS].", "Action",
     Spell((Qualified(Modify(Selector("a", "Bakugan", owner="opponent"), "BPower", -100),
                      (Condition("holding", "has", "MS"),)),))),
    ("+2 [Damage Rating] for each BakuCore this is holding.", "Evo",
     Passive((ForEach((Modify(IMPLIED, "Damage Rating", 2),), Var("cores", of=THIS)),))),
    ("When this becomes the Victor, draw a card.", "Character",
     Triggered(Trigger("victor", subject=THIS), (Draw("you", 1),))),
    ("If it is a Flip card, draw a card. Otherwise, retract that Bakugan.", "Action",
     Spell((If(Condition("type", "is", "Flip", of=IT), (Draw("you", 1),), (Retract(THAT),)),))),
    ("If you control Wren Halloway, +500 [B].", "Evo",
     Passive((Modify(IMPLIED, "BPower", 500),),
             condition=Condition("controls", "has", "Wren Halloway", of=YOU))),
    ("The first Flip card you play each turn costs 1 [Energy] less.", "Hero",
     Passive((CostChange(Selector("the", "Flip", owner="you", zone="first played each turn"),
                         -1),))),
    ("Search your discard pile for an Evo card.", "Action",
     Spell((Search("you", "discard pile", Selector("a", "Evo"), to="hand"),))),
    ("Play a Hero card that costs 2 [Energy] or less from your hand.", "Action",
     Spell((Qualified(Play(Selector("a", "Hero", owner="you", zone="hand")),
                      (Condition("cost", "<=", 2),)),))),
]


@pytest.mark.parametrize(("text", "card_type", "ability"), TEMPLATES,
                         ids=[t[0][:50] for t in TEMPLATES])
def test_template_meaning(text: str, card_type: str | None, ability: Ability) -> None:
    tree = p(text, card_type)
    assert tree == CardText((ability,))
    assert p(r(tree), card_type) == tree


# ------------------------------------------------------------------ line splitting


def test_a_printed_line_is_cut_into_abilities() -> None:
    text = "[MS]: +4 [Damage Rating]. [HE]: +600 [B]. Victor: Draw a card."
    tree = p(text, "Evo")
    assert [type(a) for a in tree.abilities] == [CoreStatic, CoreStatic, Rider]
    assert r(tree) == "[MS]: +4 [Damage Rating].\n[HE]: +600 [B].\nVictor: Draw a card."
    assert p(r(tree), "Evo") == tree


def test_sentences_stay_with_their_ability() -> None:
    tree = p("When you play this, draw a card. Shuffle your deck.", "Hero")
    assert tree == CardText((Triggered(Trigger("played", who="you", subject=THIS),
                                       (Draw("you", 1), Shuffle("you", "deck"))),))


def test_a_static_printed_after_a_trigger_is_its_own_ability() -> None:
    tree = p("When you open a Bakugan, draw a card. +1 [Damage Rating] to your attacks.",
             "Hero")
    assert tree.abilities[1] == Passive(
        (Modify(Selector("all", "attack", owner="you"), "Damage Rating", 1),))
    tree = p("When you play this, draw a card. Your Bakugan have +2 [Damage Rating].", "Hero")
    assert tree.abilities == (Triggered(Trigger("played", who="you", subject=THIS), (Draw("you", 1),)),
                              Passive((Modify(Selector("all", "Bakugan", owner="you"), "Damage Rating", 2),)))
    delayed = p("When you play this, draw a card. Your Bakugan have +2 [Damage Rating] at the end of the turn.", "Hero")
    assert [type(a).__name__ for a in delayed.abilities] == ["Triggered"]  # a change the trigger makes later, not a static


def test_reminder_text_is_dropped_and_columns_are_kept() -> None:
    assert p("Draw a card. (Reminder words here.)", "Flip") == p("Draw a card.", "Flip")
    pieces = B.split("+1 [B]. Fury: Drow a card.")
    assert pieces == [(1, "+1 [B]."), (1, " " * 8 + "Fury: Drow a card.")]
    with pytest.raises(CardTextError) as info:
        p("+1 [B]. Fury: Drow a card.", "Action")
    assert (info.value.line, info.value.column) == (1, 15)


def _split_by_every_sentence(text: str) -> list[tuple[int, str]]:
    """:func:`grammar.bakugan.split` without its short cuts: every expression tried on every line."""
    sentence = re.compile(r"(?<=[.])\s+(?=\S)")
    out: list[tuple[int, str]] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = B._REMINDER.sub(lambda m: " " * len(m.group(0)), raw.rstrip("\r"))
        if not line.strip():
            continue
        starts = [0]
        triggered = bool(B._TRIGGER_START.match(line.lstrip()))
        for match in sentence.finditer(line):
            at = match.end()
            if B._OPENERS.match(line, at):
                starts.append(at)
                triggered = bool(B._TRIGGER_START.match(line, at))
            elif triggered and B._STATIC_AFTER_TRIGGER.match(line, at):
                starts.append(at)
                triggered = False
        for begin, end in zip(starts, [*starts[1:], len(line)], strict=True):
            piece = line[begin:end].rstrip()
            if piece.strip():
                out.append((number, " " * begin + piece))
    return out


_SPLIT_PARTS = [" ", ".", ". ", "\t", "\r", "\n", "\u00a0", "\u2003", "(", ")", "(a.) ", "Draw a card",
                "When you play this,", "If you take damage", "+1 [B] to your ", "Your Bakugan have ", "[FT]", " or ", ":", "Fury -",
                "Victor:", "At the end of the turn,", "x"]


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_SPLIT_PARTS), max_size=14))
def test_split_cuts_as_every_sentence_tried(parts: list[str]) -> None:
    """The splitter's short cuts (one-sentence lines, reminders only where a '(' is) cut alike."""
    text = "".join(parts)
    assert B.split(text) == _split_by_every_sentence(text)


def test_split_of_shipped_and_real_texts_is_unchanged() -> None:
    texts = [str(card.get("text") or "") for card in shipped_cards("bakugan")]
    if REAL_CARDS.is_file():
        texts += [str(json.loads(line).get("text") or "")
                  for line in REAL_CARDS.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert texts
    for text in texts:
        assert B.split(text) == _split_by_every_sentence(text), text


def test_missing_final_period_is_tolerated() -> None:
    assert p("+300 [B]", "Action") == p("+300 [B].", "Action")


# ------------------------------------------------------------------ card types


def test_card_type_decides_spell_or_static() -> None:
    assert isinstance(p("+100 [B].", "Action").abilities[0], Spell)
    assert isinstance(p("+100 [B].", "Flip").abilities[0], Spell)
    assert isinstance(p("+100 [B].").abilities[0], Spell)
    for kind in ("Character", "Evo", "Hero", "Evo (Aquos)"):
        assert isinstance(p("+100 [B].", kind).abilities[0], Passive)
    assert isinstance(p("+100 [B].", "Gadget").abilities[0], Spell)
    conditional = p("If [Pyrus], +100 [B].", "Evo").abilities[0]
    assert conditional == Passive((Modify(IMPLIED, "BPower", 100),),
                                  condition=Condition("faction", "is", "Pyrus"))
    assert p("If [Pyrus], +100 [B].", "Action").abilities[0] == Spell(
        (If(Condition("faction", "is", "Pyrus"), (Modify(IMPLIED, "BPower", 100),)),))
    assert grammar_of(GAME).card_types is None


def test_empty_text_is_a_vanilla_card() -> None:
    assert p("") == CardText(())
    assert parse_lenient("", GAME) == CardText(())


# ------------------------------------------------------------------------- errors


def test_error_names_line_column_and_expected_words() -> None:
    text = "+200 [B].\nDestroy an enemy Herp card."
    with pytest.raises(CardTextError) as info:
        p(text, "Action")
    err = info.value
    assert isinstance(err, ValueError)
    assert (err.line, err.column) == (2, 18)
    assert err.text == "Destroy an enemy Herp card."
    assert "the word 'Hero'" in err.expected
    lines = str(err).split("\n")
    assert lines[0].startswith("line 2, column 18: unexpected")
    assert lines[2] == " " * 17 + "^"
    assert lines[3].startswith("expected: ")


def test_error_when_the_line_ends_early() -> None:
    with pytest.raises(CardTextError) as info:
        p("When you play this,", "Hero")
    assert info.value.reason == "the line ends too early"
    assert info.value.expected


def test_error_on_an_unknown_icon() -> None:
    with pytest.raises(CardTextError) as info:
        p("+2 [Damage Points].", "Action")
    assert info.value.column == 4


def test_over_length_text_is_rejected() -> None:
    text = "\n".join(["+100 [B]."] * 300)
    assert len(text) > MAX_TEXT_LENGTH
    with pytest.raises(CardTextError, match="exceeds the limit"):
        p(text)
    with pytest.raises(CardTextError, match="exceeds the limit"):
        parse_lenient(text, GAME)


def test_lenient_keeps_what_it_can() -> None:
    tree = parse_lenient("+200 [B]. Juggle three moons.", GAME, card_type="Action")
    assert tree == CardText((Spell((Modify(IMPLIED, "BPower", 200),
                                    Unknown("Juggle three moons."))),))
    assert unknown_parts(tree) == ["Juggle three moons."]


def test_renderer_refuses_what_no_template_says() -> None:
    with pytest.raises(RenderError):
        r(CardText((Spell((Modify(Selector("each", "Hero"), "BPower", 1),)),)))
    with pytest.raises(RenderError):
        r(CardText((Spell((Draw("you", 1),), cost=(Discard("you", 1),)),)))
    with pytest.raises(RenderError):
        r(CardText((Spell(()),)))


# ------------------------------------------------------------- real-card coverage


def test_real_card_coverage() -> None:
    if not REAL_CARDS.is_file():
        pytest.skip("the shared real-card texts are not available")
    records = [json.loads(line) for line in REAL_CARDS.read_text(encoding="utf-8").splitlines()
               if line.strip()]
    assert records
    complete = 0
    for record in records:
        tree = parse_lenient(record["text"], GAME, card_type=record["type"])
        if not unknown_parts(tree):
            complete += 1
    share = complete / len(records)
    print(f"bakugan real-card coverage: {complete}/{len(records)} = {share:.3f}")
    assert share >= 0.95


def test_real_cards_that_parse_round_trip() -> None:
    if not REAL_CARDS.is_file():
        pytest.skip("the shared real-card texts are not available")
    for line in REAL_CARDS.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        tree = parse_lenient(record["text"], GAME, card_type=record["type"])
        if not unknown_parts(tree):
            assert p(r(tree), record["type"]) == tree, record["text"]


# ------------------------------------------------------------- property round trip

NUMBERS = st.integers(min_value=0, max_value=30)
COUNTS = st.one_of(st.integers(1, 30), st.just(Var("X")))
BIG = st.integers(min_value=0, max_value=3000)
WHO: st.SearchStrategy[Who] = st.sampled_from(cast(list[Who], ["you", "opponent", "each"]))
FACTION = st.sampled_from(sorted(FACTIONS))
CORE = st.sampled_from(sorted(CORES))
STATS = st.sampled_from(["BPower", "Damage Rating", "FrostStrike", "DoubleStrike",
                         "ShadowStrike"])
KINDS = st.sampled_from(["card", "Action", "Hero", "Evo", "Flip", "Energy"])
TYPED = st.sampled_from(["Action", "Hero", "Evo", "Flip", "Energy"])
DURATION = st.sampled_from([None, Duration("end_of_turn")])

BAKUGAN_OBJECTS = st.one_of(
    st.sampled_from([
        Selector("a", "Bakugan"), Selector("a", "Bakugan", owner="opponent"),
        Selector("a", "Bakugan", zone="open"), Selector("a", "Bakugan", other=True),
        Selector("a", "Bakugan", owner="you"), Selector("the", "Bakugan", owner="you"),
        Selector("all", "attack", owner="you"), Selector("the", "attack", owner="you"),
        Selector("the", "Bakugan", owner="opponent"), THAT, Selector("this", "Bakugan"),
        IT, THIS, Selector("all", "Bakugan"), Selector("all", "Bakugan", owner="opponent"),
        Selector("all", "Bakugan", owner="you"),
    ]),
    FACTION.map(lambda f: Selector("a", "Bakugan", team=f)),
    FACTION.map(lambda f: Selector("a", "Bakugan", team="non-" + f)),
    FACTION.map(lambda f: Selector("all", "Bakugan", owner="you", team=f)),
)
SUBJECTS = st.one_of(
    BAKUGAN_OBJECTS,
    st.sampled_from([Selector("all", "Bakugan", owner="you"),
                     Selector("all", "Bakugan", owner="opponent")]),
    FACTION.map(lambda f: Selector("all", "Bakugan", team="non-" + f)),
)
ZONE: st.SearchStrategy[tuple[str | None, Who | None]] = st.sampled_from([
    (None, None), ("hand", "you"), ("discard pile", "you"), ("deck", "you"), ("play", None)])


@st.composite
def card_selectors(draw: st.DrawFn) -> Selector:
    """Card selectors the templates can say."""
    form = draw(st.sampled_from(["a", "some", "all", "each", "any", "up_to", "your", "fixed",
                                 "top", "next", "core"]))
    kind = draw(KINDS)
    zone, owner = draw(ZONE)
    enemy = draw(st.booleans()) and zone in (None, "play")
    team = draw(st.one_of(st.none(), FACTION, FACTION.map(lambda f: "non-" + f)))
    extra: dict[str, Any] = {"team": team, "zone": zone,
                             "owner": owner if owner else ("opponent" if enemy else None),
                             "other": draw(st.booleans())}
    if form == "a":
        return Selector("a", kind, **extra)
    if form == "some":
        return Selector("a", kind, count=draw(st.integers(2, 12)), **extra)
    if form == "all":
        return Selector("all", kind, **extra)
    if form == "each":
        return Selector("each", kind, **extra)
    if form == "any":
        return Selector("up_to", kind, count=Var("any"), zone=zone, owner=owner)
    if form == "up_to":
        return Selector("up_to", kind, count=draw(st.integers(1, 12)), zone=zone, owner=owner)
    if form == "your":
        return Selector("all", kind, owner="you")
    if form == "top":
        count = draw(st.integers(1, 9))
        if count == 1:
            return Selector("the", "card", owner="you", zone="top of deck")
        return Selector("the", "card", count=count, owner=draw(st.sampled_from(["you", "each"])),
                        zone="top of deck")
    if form == "next":
        return Selector("the", kind, owner="you",
                        zone=draw(st.sampled_from(["next played", "first played each turn"])))
    if form == "core":
        return draw(st.sampled_from([
            Selector("a", "BakuCore"), Selector("a", "BakuCore", zone="field"),
            Selector("a", "BakuCore", team="FT", zone="field"), Selector("a", "BakuCore", team="MS"),
            Selector("a", "BakuCore", owner="opponent", zone="held"),
            Selector("a", "BakuCore", zone="held"),
            Selector("all", "BakuCore", owner="opponent", zone="held"),
            Selector("that", "BakuCore"),
        ]))
    return draw(st.sampled_from([THIS, IT, Selector("that", "Evo"),
                                 Selector("this", zone="discard pile")]))


CARD_SELECTORS = card_selectors()
FILTERS = st.sampled_from([(Condition("cost", "<=", 3),), (Condition("played", "not", "this turn"),),
                           (Condition("cost", "<=", 5), Condition("played", "not", "this turn"))])


def _renders(step: Step) -> bool:
    try:
        B._base(step)
    except RenderError:
        return False
    return True


def card_step(make: Any) -> st.SearchStrategy[Step]:
    plain = CARD_SELECTORS.map(make)
    qualified = st.builds(lambda s, w: Qualified(make(s), w), CARD_SELECTORS, FILTERS)
    non_energy = st.builds(lambda k, z: Qualified(make(Selector("a", k, zone=z)),
                                                  (Condition("type", "not", "Energy"),)),
                           st.sampled_from(["card", "Hero", "Evo"]), st.sampled_from([None, "play"]))
    return st.one_of(plain, qualified, non_energy).filter(_renders)


CHANGES = st.one_of(
    st.tuples(STATS, st.integers(-30, 3000)),
    st.tuples(STATS, st.just(Var("X"))),
)

BASE_STEPS: st.SearchStrategy[Step] = st.one_of(
    st.builds(lambda c, d: Modify(IMPLIED, c[0], c[1], d), CHANGES, DURATION),
    st.builds(lambda n, d: Modify(YOU, "Energy", n, d), st.one_of(BIG, st.just(Var("X"))),
              DURATION),
    st.builds(lambda s, c, d: Modify(s, c[0], c[1], d), SUBJECTS, CHANGES, DURATION),
    st.builds(lambda s: Modify(s, "Damage Rating", Var("cost", of=Selector(
        "that", "card", zone="discard pile"))), SUBJECTS),
    st.builds(SetStat, st.sampled_from([A_BAKUGAN, Selector("a", "Bakugan", owner="opponent"),
                                        THAT, Selector("this", "Bakugan")]), STATS, BIG),
    st.builds(Draw, WHO, COUNTS),
    WHO.map(lambda w: Permit(B._player(w), "draw an additional card each turn")),
    st.builds(Discard, st.sampled_from(cast(list[Who], ["you", "opponent", "each", "any",
                                                        "controller"])), COUNTS),
    st.builds(lambda w, what: Discard(w, 1, what), WHO, st.one_of(
        st.just(Selector("all", "card", zone="hand")), st.just(IT),
        TYPED.map(lambda k: Selector("a", k)))),
    card_step(Destroy), card_step(Negate), card_step(Recharge), card_step(Copy),
    card_step(TakeControl), card_step(Look), card_step(Reveal), card_step(Detach),
    card_step(Select),
    card_step(lambda s: Energize(s, uncharged=True)), card_step(Energize),
    card_step(lambda s: Play(s, free=True)), card_step(Play),
    card_step(lambda s: Search("you", "deck", s, to="hand")),
    st.builds(lambda s, to: Send(s, to), CARD_SELECTORS, st.sampled_from(
        ["hand", "bottom of deck", "top of deck", "discard pile", "deck", "field face down"]))
    .filter(_renders),
    st.builds(Retract, BAKUGAN_OBJECTS),
    st.builds(lambda s: Qualified(Retract(s), (Condition("opened", "not", "this turn"),)),
              st.sampled_from([A_BAKUGAN, Selector("a", "Bakugan", owner="you"),
                               Selector("a", "Bakugan", team="Haos")])),
    st.just(Shuffle("you", "deck")),
    st.builds(Attach, st.sampled_from([Selector("a", "BakuCore", zone="field"),
                                       Selector("a", "BakuCore", team="HE")]), BAKUGAN_OBJECTS),
    st.builds(Attack, FACTION, st.one_of(NUMBERS, st.just(Var("X")))),
    st.sampled_from([Reroll("you"), Reroll("opponent"), FlipCoin(), EndTurn(),
                     CostChange(THIS, free=True), Reveal(Selector("a", "BakuCore", zone="field"))]),
    st.builds(CostChange, st.one_of(st.just(THIS), KINDS.filter(lambda k: k != "card").map(
        lambda k: Selector("all", k, owner="you")),
        st.builds(lambda k, z: Selector("the", k, owner="you", zone=z), KINDS,
                  st.sampled_from(["next played", "first played each turn"]))),
        st.integers(-9, 9).filter(lambda n: n != 0)),
    st.builds(SwapCore, st.sampled_from([THAT, Selector("this", "Bakugan")]), BAKUGAN_OBJECTS),
    STATS.map(VictorBy),
    st.builds(lambda who, what: Select(what, who), st.sampled_from(cast(list[Who],
                                                                        ["opponent", "each"])),
              st.sampled_from([Selector("a", "Hero"), Selector("a", "card", owner="opponent")])),
    st.just(Select(Selector("a", "player"))),
    st.builds(Deal, st.one_of(NUMBERS, st.just(Var("X"))), WHO.map(B._player)),
    st.builds(Draw, st.just(cast(Who, "any")), COUNTS),
    st.builds(lambda z, s: Search("you", z, s, to="hand"),
              st.sampled_from(["hand", "discard pile"]), CARD_SELECTORS).filter(_renders),
    st.builds(lambda k, n: CostChange(Selector("all", k, owner="opponent"), n),
              TYPED, st.integers(-5, 5).filter(lambda n: n != 0)),
    st.sampled_from([Selector("all", "card", owner="opponent", zone="hand"),
                     Selector("all", "card", owner="you", zone="hand"),
                     Selector("all", "card", owner="you", zone="discard pile")]).map(Reveal),
    st.builds(lambda o, n: Look(Selector("the", "card", count=n, owner=o, zone="top of deck")),
              st.sampled_from(cast(list[Who], ["you", "opponent", "each"])), st.integers(1, 6)),
    st.builds(Prohibit, st.one_of(WHO.map(B._player), BAKUGAN_OBJECTS,
                                  st.just(Selector("all", "Bakugan", owner="opponent"))),
              st.one_of(st.sampled_from(["be negated", "be destroyed", "be retracted", "Reroll",
                                         "open", "play cards"]),
                        TYPED.map(lambda k: f"play {k}")), DURATION),
    st.builds(lambda sel, core, c: Qualified(Modify(sel, "BPower", c), (
        Condition("holding", "has", core),)), st.sampled_from([
            A_BAKUGAN, Selector("a", "Bakugan", owner="opponent"),
            Selector("a", "Bakugan", team="Pyrus")]), CORE, BIG),
)

PAYMENTS = st.builds(
    lambda cost, pay: Pay((cost,), (pay,)),
    st.one_of(st.builds(Discard, st.just("you"), COUNTS),
              TYPED.map(lambda k: Discard("you", 1, Selector("a", k)))),
    BASE_STEPS)

BASE_OR_PAY = st.one_of(BASE_STEPS, PAYMENTS)

COUNTED = st.one_of(
    st.sampled_from([Var("X"), Var("shuffled"),
                     Var("played", of=Selector("each", "card", owner="you", other=True)),
                     Var("played", of=Selector("each", "card", owner="you")),
                     Var("count", of=Selector("each", "BakuCore", owner="you", zone="held")),
                     Var("Damage Rating", of=Selector("the", "Bakugan", owner="you")),
                     Var("FrostStrike", of=THAT)]),
    FACTION.map(lambda f: Var("count", of=Selector("each", "Bakugan", owner="you", team=f))),
    st.builds(lambda k, z: Var("count", of=Selector("each", k, owner="you", zone=z)), KINDS,
              st.sampled_from(["play", "hand", "discard pile", "deck"])),
    KINDS.map(lambda k: Var("count", of=Selector("each", k, owner="opponent", zone="play"))),
    KINDS.map(lambda k: Var("count", of=Selector("each", k, zone="play"))),
    st.sampled_from([Var("cores", of=THIS), Var("count", of=Selector("each", "Bakugan",
                                                                       zone="open")),
                     Var("count", of=Selector("each", "Bakugan", owner="you"))]),
)

STOPS = st.one_of(
    st.just(Stop()),
    st.lists(FACTION, min_size=1, max_size=3).map(lambda fs: Stop(tuple(fs))),
    FACTION.map(lambda f: Stop((f,), excluded=True)),
    st.lists(CORE, min_size=1, max_size=3).map(lambda cs: Stop(holding=tuple(cs))),
)

STEPS: st.SearchStrategy[Step] = st.one_of(
    BASE_OR_PAY,
    STOPS,
    st.builds(lambda options, who: Choice(tuple((o,) for o in options), chooser=who),
              st.lists(BASE_OR_PAY, min_size=2, max_size=3),
              st.sampled_from(cast(list[Who], ["you", "opponent"]))),
    st.builds(lambda s, n: ForEach((s,), n), BASE_OR_PAY, COUNTED),
    BASE_OR_PAY.map(lambda s: Delay("end_of_turn", (s,))),
)
def _as_read(steps: list[Step]) -> tuple[Step, ...]:
    """A list of steps as the grammar reads it back: a change written without its subject after
    a change of a named Bakugan is for that Bakugan (decision 42, :func:`grammar.bakugan._shared_subject`)."""
    return B._shared_subject(tuple(steps))


LISTS = st.lists(STEPS, min_size=1, max_size=3).map(_as_read)
MAYS = st.one_of(
    st.builds(May, WHO, LISTS),
    st.just(Permit(YOU, "use this any number of times")),
)
LIST_WITH_MAY = st.one_of(LISTS, st.builds(lambda steps, may: (*steps, may),
                                           st.lists(STEPS, max_size=2).map(_as_read), MAYS))

FACTION_OR_CORE_CONDITIONS = st.one_of(
    FACTION.map(lambda f: Condition("faction", "is", f)),
    st.builds(lambda c, of: Condition("holding", "has", c, of=of), CORE, st.sampled_from(
        [THAT, Selector("the", "Bakugan", owner="you"), Selector("a", "Bakugan", owner="you"), IT])),
)
HOLDERS = st.sampled_from([THAT, Selector("the", "Bakugan", owner="you"),
                           Selector("a", "Bakugan", owner="you"), IT,
                           Selector("the", "Bakugan", owner="opponent"),
                           Selector("this", "Bakugan")])
COMPARE_OPS: st.SearchStrategy[Literal["==", ">=", "<="]] = st.sampled_from(["==", ">=", "<="])
COMPARE = st.tuples(COMPARE_OPS, st.one_of(NUMBERS, st.just(Var("X"))))
CONDITIONS = st.one_of(
    FACTION_OR_CORE_CONDITIONS,
    st.just(Condition("count", "==", 0, of=Selector("all", "card", owner="you", zone="hand"))),
    COMPARE.map(lambda c: Condition("count", c[0], c[1], of=Selector("all", "Bakugan",
                                                                     owner="you", zone="open"))),
    st.builds(lambda c, z: Condition("count", c[0], c[1], of=Selector("all", "card", owner="you",
                                                                      zone=z)),
              COMPARE, st.sampled_from(["hand", "deck", "discard pile"])),
    st.builds(lambda c, k, w, z: Condition("count", c[0], c[1], of=Selector("all", k, owner=w,
                                                                           zone=z)),
              COMPARE, KINDS, st.sampled_from(cast(list[Who], ["you", "opponent"])),
              st.sampled_from([None, "play"])),
    COMPARE.map(lambda c: Condition("cores", c[0], c[1], of=THIS)),
    st.sampled_from([Condition("most", "has", "Energy", of=YOU),
                     Condition("most", "has", "BakuCore", of=YOU),
                     Condition("played", ">=", 1, of=Selector("all", "card", owner="you",
                                                              other=True)),
                     Condition("reroll", "is", "open", of=YOU),
                     Condition("coin", "is", "heads"),
                     Condition("done", "is", "yes", of=YOU)]),
    st.builds(lambda c, w: Condition("played", c[0], c[1], of=Selector("all", "card", owner=w)),
              COMPARE, st.sampled_from(cast(list[Who], ["you", "opponent"]))),
    st.builds(lambda k, of: Condition("type", "not", k, of=of), TYPED, st.sampled_from([IT, THAT])),
    st.builds(lambda s, c: Condition(s, c[0], c[1], of=IMPLIED), STATS, COMPARE),
    st.builds(lambda s, c, of: Condition(s, c[0], c[1], of=of), STATS, COMPARE, HOLDERS),
    st.builds(lambda f, of: Condition("faction", "is", f, of=of), FACTION, HOLDERS),
    HOLDERS.map(lambda of: Condition("opens", "is", "yes", of=of)),
    CORE.map(lambda c: Condition("holding", "has", c, of=THIS)),
    st.builds(lambda w, k, c: Condition("count", c[0], c[1], of=Selector("all", k, owner=w,
                                                                         zone="hand")),
              st.sampled_from(cast(list[Who], ["you", "opponent"])), TYPED, COMPARE),
    st.just(Condition("count", "==", 0, of=Selector("all", "card", owner="opponent",
                                                    zone="hand"))),
    st.builds(lambda k, of: Condition("type", "is", k, of=of), TYPED, st.sampled_from([IT, THAT])),
    st.builds(lambda op, n: Condition("cost", op, n, of=IT), st.sampled_from(["<=", ">="]),
              NUMBERS),
    st.sampled_from(["Wren Halloway", "Old Marrow", "Captain Wexley"]).map(
        lambda n: Condition("controls", "has", n, of=YOU)),
)
BODIES = st.one_of(LIST_WITH_MAY, LISTS.map(lambda s: (Instead(s),)))

SENTENCES: st.SearchStrategy[Step] = st.one_of(
    STEPS,
    MAYS,
    st.builds(If, CONDITIONS, BODIES),
    st.builds(If, CONDITIONS, BODIES, BODIES),
    LISTS.map(Instead),
    st.builds(lambda steps, n: ForEach(steps, n), st.lists(STEPS, min_size=2, max_size=3)
              .map(_as_read), COUNTED),
)
EFFECTS = st.lists(SENTENCES, min_size=1, max_size=3).map(tuple)

TRIGGERS = st.one_of(
    st.builds(lambda w, s: Trigger("played", who=w, subject=s),
              st.sampled_from(cast(list[Who], ["you", "opponent"])),
              st.one_of(st.just(THIS), TYPED.map(lambda k: Selector("a", k)))),
    TYPED.map(lambda k: Trigger("played_on", who="you", subject=Selector("a", k))),
    st.sampled_from([
        Trigger("opens", subject=THIS), Trigger("opens", who="you", subject=A_BAKUGAN),
        Trigger("discarded", who="you", subject=Selector("a", "card")),
        Trigger("discarded", subject=THIS), Trigger("discarded", who="you", subject=THIS),
        Trigger("attacks", subject=Selector("a", "Bakugan", owner="you")),
        Trigger("attacks", subject=THIS), Trigger("opens", subject=A_BAKUGAN),
        Trigger("opens", subject=Selector("a", "Bakugan", owner="opponent")),
        Trigger("destroyed", subject=THIS), Trigger("victor", subject=THIS),
        Trigger("retracted", who="you", subject=A_BAKUGAN),
        Trigger("drawn", who="you", subject=Selector("a", "card")),
        Trigger("energized", who="opponent", subject=Selector("a", "card")),
        Trigger("selected", who="you", subject=A_BAKUGAN),
        Trigger("dealt_damage", who="you"), Trigger("dealt_damage", who="opponent"),
        Trigger("turn_ends"), Trigger("turn_begins"),
    ]),
)

RIDERS = st.sampled_from(["Victor", "Fury", "Turbo", "Domination", "Flow", "Sacrifice",
                          "Overdrive"])
PLAIN_EFFECTS = EFFECTS.filter(lambda e: not (len(e) == 1 and isinstance(e[0], If)))


def _rider(word: str, effect: tuple[Step, ...], condition: Condition | None,
           trigger: Trigger | None) -> Rider:
    return Rider(word, effect, condition=condition, trigger=trigger)


COMMON_ABILITIES: st.SearchStrategy[Ability] = st.one_of(
    st.builds(lambda c, e: Activated(c, e), st.one_of(
        st.builds(lambda n: (Spend(n),), st.one_of(NUMBERS, st.just(Var("X")))),
        st.builds(lambda n, s: (Spend(n), *s), NUMBERS, LISTS),
        st.lists(BASE_OR_PAY, min_size=1, max_size=2).map(_as_read)), EFFECTS),
    st.builds(Triggered, TRIGGERS, EFFECTS),
    st.builds(lambda c, e: Triggered(Trigger("deals_damage", who="you"),
                                     (If(Condition("damage", c[0], c[1]), e),)), COMPARE, EFFECTS),
    st.builds(lambda cores, e: CoreStatic(tuple(cores), e), st.lists(CORE, min_size=1,
                                                                     max_size=2), EFFECTS),
    st.builds(_rider, RIDERS, PLAIN_EFFECTS, st.none(), st.just(None)),
    st.builds(_rider, RIDERS, BODIES, CONDITIONS, st.one_of(st.none(), TRIGGERS)),
    st.builds(_rider, RIDERS, PLAIN_EFFECTS, st.none(), TRIGGERS),
    st.sampled_from([Keyword("reroll_on_miss", "once each turn"),
                     Keyword("reroll_on_miss", "any time"), Keyword("all_factions")]),
)


@st.composite
def card_texts(draw: st.DrawFn) -> tuple[str | None, CardText]:
    """A card type and a tree the grammar can produce for a card of that type."""
    card_type = draw(st.sampled_from([None, "Action", "Flip", "Character", "Evo", "Hero"]))
    if card_type in ("Character", "Evo", "Hero"):
        own = st.one_of(PLAIN_EFFECTS.map(Passive),
                        st.builds(lambda c, b: Passive(b, condition=c), CONDITIONS, BODIES))
    else:
        own = st.one_of(EFFECTS.map(Spell),
                        st.one_of(st.just(()), EFFECTS).map(
                            lambda e: Spell(e, cost=(Spend(Var("X")),))))
    abilities = draw(st.lists(st.one_of(own, COMMON_ABILITIES), min_size=0, max_size=3))
    return card_type, CardText(tuple(abilities))


@pytest.mark.filterwarnings("ignore:Generating overly large repr")
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.filter_too_much])
@given(card_texts())
def test_round_trip_property(case: tuple[str | None, CardText]) -> None:
    card_type, tree = case
    text = r(tree)
    if len(text) > MAX_TEXT_LENGTH:
        return
    assert p(text, card_type) == tree, text
    assert from_json(to_json(tree)) == tree


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=160))
def test_lenient_never_fails(text: str) -> None:
    tree = parse_lenient(text, GAME, card_type="Action")
    assert isinstance(tree, CardText)


WORDS = st.sampled_from(["+200", "[B]", "[Damage Rating]", "[FT]:", "Victor:", "Fury -", "If",
                         "you", "have", "a", "Bakugan", "draw", "card", "cards", "this", ".",
                         ",", "and", "or", "[Stop]", "non-[Haos]", "When", "play", "for",
                         "each", "instead", "X", "[Energy]", "Choose", "one:", "(", ")"])


@settings(max_examples=300, deadline=None)
@given(st.lists(WORDS, max_size=25).map(" ".join))
def test_lenient_never_fails_on_card_like_words(text: str) -> None:
    for card_type in ("Action", "Evo", None):
        assert isinstance(parse_lenient(text, GAME, card_type=card_type), CardText)
