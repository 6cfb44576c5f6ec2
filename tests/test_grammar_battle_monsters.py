"""Tests of the Battle Monsters card-text grammar, its renderer and the shipped base set.

Every example text here is our own invention; real card texts are only read at run
time from the shared card pool (``test_real_card_coverage``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grammar import battle_monsters as bm
from grammar.ast import (
    Ability,
    CardText,
    Discard,
    Draw,
    Duration,
    May,
    Passive,
    Selector,
    Spell,
    Step,
    Unknown,
    Var,
    Who,
    from_json,
    to_json,
    unknown_parts,
)
from grammar.battle_monsters_nodes import (
    Battling,
    Can,
    Cannot,
    Cards,
    Compare,
    Cond,
    Did,
    DrawUntil,
    EndGame,
    Event,
    Fuse,
    IfThen,
    ImmuneTo,
    Kind,
    Lives,
    Nullify,
    Points,
    Present,
    Quantity,
    Reaction,
    RevealCards,
    SendTo,
    SkipTurn,
    Slot,
    Special,
    StatTest,
    Switch,
    Trade,
    TriggerEffect,
    TurnOf,
)
from grammar.parser import MAX_TEXT_LENGTH, CardTextError, parse, parse_lenient
from grammar.render import render
from tests.grammar_support import shipped_cards, walk

GAME = "battle_monsters"
ROOT = Path(__file__).resolve().parent.parent
BASE_SET = ROOT / "spec" / "battle_monsters" / "cards" / "base.toml"
REAL_CARDS = Path(__file__).resolve().parents[2] / "shared" / "cards"

THIS = Cards("this")
IT = Cards("it")
YOU = Cards("the", ("player",), owner="you")
OPPONENT = Cards("the", ("player",), owner="opponent")
OWNER = Cards("the", ("player",), owner="owner")


def bm_parse(text: str, card_type: str | None = "Monster (root)") -> CardText:
    return parse(text, GAME, card_type=card_type)


def bm_render(tree: CardText) -> str:
    return render(tree, GAME)


CARDS = shipped_cards("battle_monsters")


# ------------------------------------------------------------------ shipped cards


def test_base_set_shape() -> None:
    assert len(CARDS) >= 40
    names = [c["name"] for c in CARDS]
    assert len(names) == len(set(names))
    kinds = {bm.base_type(c["type"]) for c in CARDS}
    assert kinds == {"Monster", "Spell", "Trap"}
    types = {c["type"] for c in CARDS}
    assert {"Monster (root)", "Monster (element prefix)", "Monster (title suffix)"} <= types
    for card in CARDS:
        if bm.base_type(card["type"]) == "Monster":
            assert set(card["stats"]) == {"attack", "defense"}
        if card["type"] == "Monster (root)":
            assert card["species"]


@pytest.mark.parametrize("card", CARDS, ids=[c["name"] for c in CARDS])
def test_shipped_card_parses_strictly_and_round_trips(card: dict[str, Any]) -> None:
    tree = bm_parse(card["text"], card["type"])
    assert unknown_parts(tree) == []
    assert bm_parse(bm_render(tree), card["type"]) == tree
    assert bm_render(tree) == card["text"], "shipped text should be in canonical wording"
    assert from_json(to_json(tree)) == tree


def test_every_template_is_shipped() -> None:
    nodes = [(card, node) for card in CARDS
             for node in walk(bm_parse(card["text"], card["type"]))]

    def has(pred: Any) -> bool:
        return any(pred(card, node) for card, node in nodes)

    checks = {
        "named special effect": lambda c, n: isinstance(n, Special),
        "two special effects on one card": lambda c, n: c["text"].count("\n") == 1
        and bm.base_type(c["type"]) == "Monster",
        "spell: condition then effect": lambda c, n: isinstance(n, TriggerEffect)
        and n.trigger is not None and bool(n.effect) and c["type"] == "Spell",
        "spell without a condition": lambda c, n: isinstance(n, TriggerEffect)
        and n.trigger is None,
        "trap": lambda c, n: isinstance(n, TriggerEffect) and c["type"] == "Trap",
        "when revealed": lambda c, n: isinstance(n, Event) and n.kinds == ("revealed",),
        "when attacked": lambda c, n: isinstance(n, Event) and n.kinds == ("attacked",),
        "when activated": lambda c, n: isinstance(n, Event) and n.kinds == ("activated",),
        "single use": lambda c, n: isinstance(n, TriggerEffect) and n.use == "single",
        "permanent": lambda c, n: isinstance(n, TriggerEffect) and n.use == "permanent",
        "summon trigger": lambda c, n: isinstance(n, Reaction) and "summoned" in n.event.kinds,
        "reveal trigger": lambda c, n: isinstance(n, Reaction) and "revealed" in n.event.kinds,
        "opponent's action trigger": lambda c, n: isinstance(n, Event) and n.who == "opponent",
        "turn trigger": lambda c, n: isinstance(n, Event) and n.kinds == ("turn_begins",),
        "immune to spells": lambda c, n: isinstance(n, ImmuneTo) and n.to.kinds == ("spell",),
        "immune to traps": lambda c, n: isinstance(n, ImmuneTo) and "trap" in n.to.kinds,
        "immune to an element's attacks": lambda c, n: isinstance(n, ImmuneTo)
        and n.to.kinds == ("attack",) and n.to.element is not None,
        "attack immune": lambda c, n: isinstance(n, ImmuneTo) and n.to == Cards("all", ("attack",)),
        "name slot": lambda c, n: n == THIS and "%NAME" in c["text"],
        "species slot": lambda c, n: n == Slot("SPECIES"),
        "element slots": lambda c, n: n == Slot("ELEMENT_OR"),
        "element and slot": lambda c, n: n == Slot("ELEMENT_AND"),
        "as long as visible": lambda c, n: isinstance(n, IfThen)
        and n.condition == Present(Cards("this", visible=True)),
        "temporary bonus points": lambda c, n: isinstance(n, Points)
        and n.duration == Duration("temporary"),
        "defense points": lambda c, n: isinstance(n, Points) and n.stat == "defense",
        "points lost": lambda c, n: isinstance(n, Points) and isinstance(n.delta, int)
        and n.delta < 0,
        "send to the graveyard": lambda c, n: isinstance(n, SendTo) and n.to == "graveyard",
        "discard": lambda c, n: isinstance(n, Discard),
        "skip a turn": lambda c, n: isinstance(n, SkipTurn),
        "restore health": lambda c, n: isinstance(n, Lives) and n.delta == 1,
        "lose health": lambda c, n: isinstance(n, Lives) and n.delta == -1,
        "if a visible ... is on the field": lambda c, n: isinstance(n, Present)
        and n.what.visible is True and n.what.zone == "field" and n.what.quantifier == "a",
        "there is no": lambda c, n: isinstance(n, Present) and n.negated,
        "cannot be attacked by": lambda c, n: isinstance(n, Cannot)
        and n.actions == ("be_attacked",) and n.by is not None,
        "can only be attacked by": lambda c, n: isinstance(n, Can) and n.only,
        "can attack at once": lambda c, n: isinstance(n, Can) and n.overriding,
        "may": lambda c, n: isinstance(n, May),
        "trade": lambda c, n: isinstance(n, Trade),
        "win the game": lambda c, n: isinstance(n, EndGame),
        "draw": lambda c, n: isinstance(n, Draw),
        "draw until": lambda c, n: isinstance(n, DrawUntil),
        "fuse": lambda c, n: isinstance(n, Fuse),
        "nullify": lambda c, n: isinstance(n, Nullify),
        "reveal": lambda c, n: isinstance(n, RevealCards),
        "switch mode": lambda c, n: isinstance(n, Switch),
        "battling": lambda c, n: isinstance(n, Battling),
        "attacked last turn": lambda c, n: isinstance(n, Did),
        "life comparison": lambda c, n: isinstance(n, Compare)
        and isinstance(n.left, Quantity) and n.left.name == "lives",
        "card count comparison": lambda c, n: isinstance(n, Compare)
        and isinstance(n.left, Quantity) and n.left.name == "count",
        "ability used": lambda c, n: isinstance(n, Event) and n.kinds == ("used",),
        "prefix": lambda c, n: isinstance(n, Cards) and n.prefix is not None,
        "excluded element": lambda c, n: isinstance(n, Cards) and n.exclude_element,
        "face-down cards": lambda c, n: isinstance(n, Cards) and n.visible is False,
        "mode filter": lambda c, n: isinstance(n, Cards) and n.mode is not None,
        "points for each": lambda c, n: isinstance(n, Points) and n.per is not None,
        "attack directly": lambda c, n: isinstance(n, Can) and n.action == "attack_directly",
        "during your turn": lambda c, n: isinstance(n, IfThen) and n.condition == TurnOf("you"),
        "summon from the graveyard": lambda c, n: isinstance(n, SendTo) and n.to == "field",
        "once per turn": lambda c, n: isinstance(n, TriggerEffect) and n.use == "once_per_turn",
        "lasts turns": lambda c, n: isinstance(n, TriggerEffect) and n.use == "2_turns",
        "attacked by": lambda c, n: isinstance(n, Event) and n.by is not None,
        "the attacking monster": lambda c, n: isinstance(n, Cards) and n.state == "attacking",
    }
    missing = [name for name, pred in checks.items() if not has(pred)]
    assert missing == []


# ------------------------------------------------------------ specific templates

FIRE_MONSTER = Cards("a", ("monster",), element="fire")
TEMPLATES: list[tuple[str, str | None, Ability]] = [
    # special condition then special effect (two printed lines, one ability)
    ("TRIGGER: When revealed. Single use.\nEFFECT: Draw 4 cards.", "Spell",
     TriggerEffect(Event(("revealed",), subject=THIS), (Draw("you", 4),), "single")),
    ("TRIGGER: When attacked. Permanent.\nEFFECT: The opponent discards a card.", "Trap",
     TriggerEffect(Event(("attacked",), subject=THIS), (Discard("opponent", 1),),
                   "permanent")),
    ("TRIGGER: When the opponent summons a monster.\nEFFECT: The monster is revealed.",
     "Trap", TriggerEffect(Event(("summoned",), subject=Cards("a", ("monster",)),
                                 who="opponent"),
                           (RevealCards(Cards("the", ("monster",))),))),
    ("EFFECT: Draw 1 card.", "Spell", TriggerEffect(None, (Draw("you", 1),))),
    ("TRIGGER: At the start of your turn.", "Spell",
     TriggerEffect(Event(("turn_begins",), who="you"), ())),
    # named monster abilities
    ("Hearth Song: %NAME gains 150 defense points.", "Monster (root)",
     Special("Hearth Song", (Passive((Points(THIS, "defense", 150),)),))),
    ("Twin Fang: %NAME gains 50 attack points. %NAME loses 50 defense points.",
     "Monster (root)",
     Special("Twin Fang", (Passive((Points(THIS, "attack", 50),
                                    Points(THIS, "defense", -50))),))),
    # summon and reveal triggers, leading and trailing
    ("Greeting: When %NAME is summoned, draw a card.", "Monster (root)",
     Special("Greeting", (Reaction(Event(("summoned",), subject=THIS), (Draw("you", 1),)),))),
    ("Greeting: Draw a card when summoned.", "Monster (root)",
     Special("Greeting", (Reaction(Event(("summoned",), subject=THIS), (Draw("you", 1),)),))),
    ("Wake: When %NAME is played or revealed, the opponent discards a card.",
     "Monster (root)",
     Special("Wake", (Reaction(Event(("summoned", "revealed"), subject=THIS),
                               (Discard("opponent", 1),)),))),
    ("Parting Gift: If %NAME is sent to a graveyard, draw 2 cards.", "Monster (root)",
     Special("Parting Gift", (Reaction(Event(("sent_to_graveyard",), subject=THIS),
                                       (Draw("you", 2),)),))),
    # immunities
    ("Aegis: %NAME is immune to water element spell cards.", "Monster (root)",
     Special("Aegis", (Passive((ImmuneTo(THIS, Cards("all", ("spell",), element="water")),)),))),
    ("Aegis: %NAME is immune to all traps and spells.", "Monster (root)",
     Special("Aegis", (Passive((ImmuneTo(THIS, Cards("all", ("trap", "spell"))),)),))),
    ("Aegis: %NAME is attack immune.", "Monster (root)",
     Special("Aegis", (Passive((ImmuneTo(THIS, Cards("all", ("attack",))),)),))),
    ("Aegis: %NAME is immune to any %ELEMENT_OR based monster attacks.", "Monster (root)",
     Special("Aegis", (Passive((ImmuneTo(THIS, Cards("all", ("attack",),
                                                     element=Slot("ELEMENT_OR"))),)),))),
    ("Aegis: Its owner cannot be affected by spells.", "Monster (root)",
     Special("Aegis", (Passive((ImmuneTo(OWNER, Cards("all", ("spell",))),)),))),
    # self-reference slots
    ("%SPECIES_C Pride: All other %SPECIES monsters gain 10 attack points.",
     "Monster (root)",
     Special("%SPECIES_C Pride", (Passive((Points(
         Cards("all", ("monster",), other=True, species=Slot("SPECIES")), "attack", 10),)),))),
    ("Mimic: %NAME is immune to %ELEMENT_AND type traps.", "Monster (root)",
     Special("Mimic", (Passive((ImmuneTo(THIS, Cards("all", ("trap",),
                                                     element=Slot("ELEMENT_AND"))),)),))),
    # statics while visible
    (("Beacon: As long as %NAME is visible, all monsters on your side of the field gain "
     "20 attack points."), "Monster (root)",
     Special("Beacon", (Passive((IfThen(Present(Cards("this", visible=True)), (Points(
         Cards("all", ("monster",), owner="you", zone="field"), "attack", 20),)),)),))),
    (("Beacon: All monsters on your side of the field gain 20 attack points as long as %NAME "
     "is visible."), "Monster (root)",
     Special("Beacon", (Passive((IfThen(Present(Cards("this", visible=True)), (Points(
         Cards("all", ("monster",), owner="you", zone="field"), "attack", 20),)),)),))),
    # temporary bonus points
    ("Rally: %NAME temporarily gains 75 bonus attack points.", "Monster (root)",
     Special("Rally", (Passive((Points(THIS, "attack", 75, Duration("temporary")),)),))),
    ("Rally: %NAME receives an additional 75 defense points until the end of the turn.",
     "Monster (root)",
     Special("Rally", (Passive((Points(THIS, "defense", 75, Duration("end_of_turn")),)),))),
    # send to the graveyard
    ("TRIGGER: When revealed.\nEFFECT: Send a face down trap card to the graveyard.", "Spell",
     TriggerEffect(Event(("revealed",), subject=THIS),
                   (SendTo(Cards("a", ("trap",), visible=False)),))),
    ("TRIGGER: When revealed.\nEFFECT: The chosen spell is sent to the graveyard.", "Spell",
     TriggerEffect(Event(("revealed",), subject=THIS), (SendTo(Cards("chosen", ("spell",))),))),
    # discard
    ("EFFECT: The opponent must discard their entire hand.", "Spell",
     TriggerEffect(None, (Discard("opponent", Var("cards", of=Selector(
         "all", "card", owner="opponent", zone="hand"))),))),
    # skip a turn
    ("EFFECT: The opponent's turn is skipped.", "Spell",
     TriggerEffect(None, (SkipTurn("opponent"),))),
    ("EFFECT: Skip your next turn.", "Spell", TriggerEffect(None, (SkipTurn("you"),))),
    # restore health
    ("EFFECT: Restore health by 2 points.", "Spell", TriggerEffect(None, (Lives("you", 2),))),
    ("EFFECT: Restore health by 1 point, if under 3.", "Spell",
     TriggerEffect(None, (IfThen(Compare(Quantity("lives", player="you"), "<", 3),
                                 (Lives("you", 1),)),))),
    ("EFFECT: Damage the opponent's health by 2 points, if over 2.", "Spell",
     TriggerEffect(None, (IfThen(Compare(Quantity("lives", player="opponent"), ">", 2),
                                 (Lives("opponent", -2),)),))),
    # "if a visible ... is on the field"
    ("Kinfire: %NAME gains 40 attack points if a visible fire element monster is on the field.",
     "Monster (root)",
     Special("Kinfire", (Passive((IfThen(Present(Cards("a", ("monster",), zone="field",
                                                       visible=True, element="fire")),
                                         (Points(THIS, "attack", 40),)),)),))),
    (("Kinfire: If there is another visible fire monster on the same side of the field, "
     "%NAME gains 40 attack points."), "Monster (root)",
     Special("Kinfire", (Passive((IfThen(Present(Cards(
         "a", ("monster",), owner="you", zone="field", visible=True, other=True,
         element="fire")), (Points(THIS, "attack", 40),)),)),))),
    (("Lone Wolf: As long as there are no visible monsters on your side of the field, %NAME "
     "gains 30 attack points."), "Monster (root)",
     Special("Lone Wolf", (Passive((IfThen(Present(Cards(
         "a", ("monster",), owner="you", zone="field", visible=True), negated=True),
         (Points(THIS, "attack", 30),)),)),))),
    # can / cannot
    ("Sleepy: %NAME cannot attack or be attacked by dragons.", "Monster (root)",
     Special("Sleepy", (Passive((Cannot(THIS, ("attack", "be_attacked"),
                                        by=Cards("all", ("monster",), species="dragons")),)),))),
    ("Quick: %NAME can attack as soon as it is summoned.", "Monster (root)",
     Special("Quick", (Passive((Can(THIS, "attack", when="summoned_turn"),)),))),
    # choices and trades
    (("Barter: When %NAME is summoned, its owner can choose to sacrifice 1 of their lifepoints "
     "to draw a card."), "Monster (root)",
     Special("Barter", (Reaction(Event(("summoned",), subject=THIS), (May("owner", (Trade(
         (Lives("owner", -1),), (Draw("owner", 1),)),)),)),))),
    # conditions with events
    (("Brood: If 3 monsters with a hatchling prefix exist on your side of the field when %NAME "
     "is revealed, you win the game."), "Monster (root)",
     Special("Brood", (Reaction(Event(("revealed",), subject=THIS), (IfThen(Present(Cards(
         "a", ("monster",), count=3, owner="you", zone="field", prefix="hatchling")),
         (EndGame("you"),)),)),))),
    (("Spite: If %NAME attacks the opponent, the opponent loses 1 lifepoint as long as the "
     "opponent's lifepoints are more than 2."), "Monster (root)",
     Special("Spite", (Reaction(Event(("attacks",), subject=THIS, target=OPPONENT), (IfThen(
         Compare(Quantity("lives", player="opponent"), ">", 2), (Lives("opponent", -1),)),)),))),
    (("Guard Up: %NAME temporarily gains 90 bonus defense points when defending against a "
     "%ELEMENT_OR type monster."), "Monster (root)",
     Special("Guard Up", (Passive((IfThen(Battling("defending", Cards(
         "a", ("monster",), element=Slot("ELEMENT_OR"))), (Points(
             THIS, "defense", 90, Duration("temporary")),)),)),))),
    (("Hunter: %NAME gains 60 attack points if there is a monster with more defense points "
     "than %NAME on the opposing side of the field."), "Monster (root)",
     Special("Hunter", (Passive((IfThen(Present(Cards(
         "a", ("monster",), owner="opponent", zone="field",
         stat=StatTest("defense", ">", Quantity("defense", of=THIS)))),
         (Points(THIS, "attack", 60),)),)),))),
    # more points, per card, moves, player prohibitions, battles, card counts
    ("Vigor: %NAME gains 30 attack points and 40 defense points.", "Monster (root)",
     Special("Vigor", (Passive((Points(THIS, "attack", 30), Points(THIS, "defense", 40))),))),
    ("Vigor: %NAME gains 30 attack and defense points.", "Monster (root)",
     Special("Vigor", (Passive((Points(THIS, "attack", 30), Points(THIS, "defense", 30))),))),
    ("Swarm: %NAME gains 25 attack points for each other visible insect on the field.",
     "Monster (root)",
     Special("Swarm", (Passive((Points(THIS, "attack", 25, per=Cards(
         "all", ("monster",), zone="field", visible=True, other=True, species="insect")),)),))),
    ("EFFECT: Return the chosen monster to its owner's hand.", "Spell",
     TriggerEffect(None, (SendTo(Cards("chosen", ("monster",)), "hand"),))),
    ("EFFECT: Summon a monster from your graveyard.", "Spell",
     TriggerEffect(None, (SendTo(Cards("a", ("monster",), owner="you", zone="graveyard"),
                                 "field"),))),
    ("EFFECT: Destroy the chosen trap card.", "Spell",
     TriggerEffect(None, (SendTo(Cards("chosen", ("trap",))),))),
    ("EFFECT: The opponent cannot summon monsters this turn.", "Spell",
     TriggerEffect(None, (Cannot(OPPONENT, ("summon",), by=Cards("all", ("monster",)),
                                 when="this_turn"),))),
    ("Sturdy: %NAME cannot be destroyed by traps.", "Monster (root)",
     Special("Sturdy", (Passive((Cannot(THIS, ("be_destroyed",),
                                        by=Cards("all", ("trap",))),)),))),
    ("Trophy: When %NAME destroys a monster, draw a card.", "Monster (root)",
     Special("Trophy", (Reaction(Event(("defeats",), subject=THIS,
                                       target=Cards("a", ("monster",))), (Draw("you", 1),)),))),
    ("Trophy: When %NAME wins a battle, draw a card.", "Monster (root)",
     Special("Trophy", (Reaction(Event(("defeats",), subject=THIS), (Draw("you", 1),)),))),
    (("Crowd: As long as the opponent has 4 or more cards in their hand, %NAME gains 10 attack "
     "points."), "Monster (root)",
     Special("Crowd", (Passive((IfThen(Compare(Quantity("count", of=Cards(
         "all", ("card",), owner="opponent", zone="hand")), ">=", 4),
         (Points(THIS, "attack", 10),)),)),))),
    ("Blitz: %NAME can attack the opponent directly.", "Monster (root)",
     Special("Blitz", (Passive((Can(THIS, "attack_directly"),)),))),
    ("Flurry: %NAME can attack twice.", "Monster (root)",
     Special("Flurry", (Passive((Can(THIS, "attack_twice"),)),))),
    ("Blur: %NAME cannot be targeted by spells.", "Monster (root)",
     Special("Blur", (Passive((Cannot(THIS, ("be_targeted",), by=Cards("all", ("spell",))),)),))),
    (("TRIGGER: When attacked by a fire monster. Once per turn.\nEFFECT: The attacking monster "
     "loses 10 attack points."), "Trap",
     TriggerEffect(Event(("attacked",), subject=THIS, by=FIRE_MONSTER),
                   (Points(Cards("the", ("monster",), state="attacking"), "attack", -10),),
                   "once_per_turn")),
    ("TRIGGER: When the opponent draws a card. Lasts 3 turns.\nEFFECT: Gain a life.", "Spell",
     TriggerEffect(Event(("drawn",), subject=Cards("a", ("card",)), who="opponent"),
                   (Lives("you", 1),), "3_turns")),
    ("Home Field: During your turn, %NAME gains 5 attack points.", "Monster (root)",
     Special("Home Field", (Passive((IfThen(TurnOf("you"), (Points(THIS, "attack", 5),)),)),))),
    ("Rude: When an opponent's monster is summoned, %NAME gains 5 attack points.",
     "Monster (root)",
     Special("Rude", (Reaction(Event(("summoned",), subject=Cards(
         "a", ("monster",), owner="opponent")), (Points(THIS, "attack", 5),)),))),
    # plain lines
    ("Draw 2 cards.", "Spell", Spell((Draw("you", 2),))),
    ("Draw 2 cards.", "Monster (element prefix)", Passive((Draw("you", 2),))),
]


@pytest.mark.parametrize(("text", "card_type", "ability"), TEMPLATES,
                         ids=[t[0][:60] for t in TEMPLATES])
def test_template_meaning(text: str, card_type: str | None, ability: Ability) -> None:
    tree = bm_parse(text, card_type)
    assert tree == CardText((ability,))
    assert bm_parse(bm_render(tree), card_type) == tree


def test_card_type_decides_plain_lines() -> None:
    text = "The opponent discards a card."
    assert isinstance(bm_parse(text, "Spell").abilities[0], Spell)
    assert isinstance(bm_parse(text, "Trap").abilities[0], Spell)
    assert isinstance(bm_parse(text, None).abilities[0], Spell)
    assert isinstance(bm_parse(text, "Monster (root)").abilities[0], Passive)
    assert isinstance(bm_parse(text, "Monster").abilities[0], Passive)
    assert isinstance(bm_parse(text, "Gadget (odd)").abilities[0], Spell)
    assert bm.base_type("Monster (title suffix)") == "Monster"
    assert bm.base_type(None) is None


def test_slots_are_tokens() -> None:
    tree = bm_parse("Kin: %NAME gains 5 attack points if there is another %SPECIES on "
                    "the field.")
    present = cast(IfThen, cast(Passive, cast(Special, tree.abilities[0]).abilities[0])
                   .effect[0]).condition
    assert present == Present(Cards("a", ("monster",), zone="field", other=True,
                                    species=Slot("SPECIES")))
    assert Slot("ELEMENT_OR").text() == "%ELEMENT_OR"
    # a species keyword is any word the grammar does not know
    tree = bm_parse("Kin: %NAME gains 5 attack points if there is a visible gryphon on the field.")
    assert any(isinstance(n, Cards) and n.species == "gryphon" for n in walk(tree))


def test_empty_text_is_a_vanilla_card() -> None:
    assert bm_parse("") == CardText(())
    assert parse_lenient("", GAME) == CardText(())


def test_named_line_and_spell_lines_together() -> None:
    text = "Glint: %NAME gains 5 attack points.\nTRIGGER: When revealed.\nEFFECT: Draw a card."
    tree = bm_parse(text, None)
    assert len(tree.abilities) == 2
    assert isinstance(tree.abilities[1], TriggerEffect)


# ---------------------------------------------------------------- diagnostics


def test_error_names_line_column_and_expected_words() -> None:
    with pytest.raises(CardTextError) as info:
        bm_parse("Glint: %NAME gains 5 attack points.\nBolt: %NAME gains 5 atack points.")
    err = info.value
    column = "Bolt: %NAME gains 5 atack points.".index("atack") + 1
    assert err.line == 2
    assert err.column == column
    assert err.text == "Bolt: %NAME gains 5 atack points."
    assert "the word 'attack'" in err.expected
    lines = str(err).split("\n")
    assert lines[0].startswith(f"line 2, column {column}: unexpected word 'atack'")
    assert lines[2] == " " * (column - 1) + "^"


def test_error_in_effect_line_is_reported_on_that_line() -> None:
    with pytest.raises(CardTextError) as info:
        bm_parse("TRIGGER: When revealed. Single use.\nEFFECT: Draw 3 cardz.", "Spell")
    err = info.value
    assert err.line == 2
    assert err.text == "EFFECT: Draw 3 cardz."
    assert err.column == len("EFFECT: Draw 3 ") + 1
    with pytest.raises(CardTextError) as info:
        bm_parse("TRIGGER: When revealed, Single use.\nEFFECT: Draw 3 cards.", "Spell")
    assert info.value.line == 1
    assert info.value.column == len("TRIGGER: When revealed") + 1


def test_error_for_a_sentence_without_a_period() -> None:
    with pytest.raises(CardTextError) as info:
        bm_parse("Glint: %NAME gains 5 attack points")
    assert info.value.reason == "the line ends too early"
    assert "a period" in info.value.expected or any("stop" in e for e in info.value.expected)


def test_over_length_text_is_rejected() -> None:
    text = "\n".join(["EFFECT: Draw 2 cards."] * 120)
    assert len(text) > MAX_TEXT_LENGTH
    with pytest.raises(CardTextError, match="exceeds the limit"):
        parse(text, GAME)


def test_split_joins_condition_and_effect_lines() -> None:
    text = "Glint: %NAME gains 5 attack points.\n\nTRIGGER: When revealed.\nEFFECT: Draw a card."
    assert bm.split(text) == [(1, "Glint: %NAME gains 5 attack points."),
                              (3, "TRIGGER: When revealed. EFFECT: Draw a card.")]
    bad = "TRIGGER: When revealed.\nEFFECT: Draw a cat."
    assert bm.split(bad) == [(1, "TRIGGER: When revealed."), (2, "EFFECT: Draw a cat.")]


def test_lenient_keeps_what_it_can() -> None:
    tree = parse_lenient("Glint: %NAME gains 5 attack points.\nFlibber the wumpus twice.",
                         GAME, card_type="Monster (root)")
    assert tree.abilities[0] == Special("Glint", (Passive((Points(THIS, "attack", 5),)),))
    assert unknown_parts(tree) == ["Flibber the wumpus twice."]
    tree = parse_lenient("TRIGGER: When revealed.\nEFFECT: Draw a card. Juggle moons.",
                         GAME, card_type="Spell")
    assert isinstance(tree.abilities[0], TriggerEffect)
    assert Unknown("Juggle moons.") in list(walk(tree))


def test_render_refuses_what_no_template_says() -> None:
    with pytest.raises(ValueError):
        bm_render(CardText((Special("Odd", (Passive((Points(Cards("it", ("monster",)),
                                                            "attack", 5),)),)),)))
    with pytest.raises(ValueError):
        bm_render(CardText((TriggerEffect(None, ()),)))


# ------------------------------------------------------------- real card pool


def test_real_card_coverage() -> None:
    """At least 95% of the real card texts read completely (run-time data, not shipped)."""
    pool = REAL_CARDS / "battle_monsters.dev.jsonl"
    if not pool.is_file():
        pytest.skip("the shared card pool is not here")
    records = [json.loads(line) for line in pool.read_text(encoding="utf-8").splitlines()
               if line.strip()]
    assert records
    read = 0
    for record in records:
        tree = parse_lenient(record["text"], GAME, card_type=record["type"])
        if not unknown_parts(tree):
            read += 1
            assert bm_parse(bm_render(tree), record["type"]) == tree
    share = read / len(records)
    print(f"battle_monsters real card coverage: {read}/{len(records)} = {share:.1%}")
    assert share >= 0.95


# ------------------------------------------------------------- property round trip

Stat = Literal["attack", "defense"]
"""The type of :attr:`StatTest.stat` and :attr:`Cards.mode`."""

SPECIES: st.SearchStrategy[str | Slot] = st.sampled_from(["dragon", "spellcaster", "golem", Slot("SPECIES"),
                                                          Slot("SPECIES_C")])
ELEMENTS: st.SearchStrategy[str | Slot] = st.sampled_from(["fire", "water", "light", "plasma", Slot("ELEMENT_OR"),
                                                           Slot("ELEMENT_AND")])
KIND_SETS: st.SearchStrategy[tuple[Kind, ...]] = st.sampled_from([
    ("monster",), ("spell",), ("trap",), ("card",), ("spell", "trap"), ("monster", "trap", "spell"), ("trap", "spell")])
STAT: st.SearchStrategy[Stat] = st.sampled_from(["attack", "defense"])
SELF_REFS = st.sampled_from([THIS, IT])
PLAYER_WHO: st.SearchStrategy[Who] = st.sampled_from(
    cast(list[Who], ["you", "opponent", "owner", "each"]))
AMOUNTS = st.integers(min_value=0, max_value=2000)
SMALL = st.integers(min_value=1, max_value=9)
NAMES = st.from_regex(r"[A-Z][a-z]{2,7}( [A-Z][a-z]{2,7})?", fullmatch=True)


@st.composite
def stat_tests(draw: st.DrawFn) -> StatTest:
    stat = draw(STAT)
    if draw(st.booleans()):
        return StatTest(stat, draw(st.sampled_from(["<", ">"])),
                        Quantity(stat, of=draw(SELF_REFS)))
    return StatTest(stat, draw(st.sampled_from(["<", ">", "<=", ">="])), draw(AMOUNTS))


ZONES_AND_OWNERS: st.SearchStrategy[tuple[str | None, Who | None]] = st.sampled_from([
    (None, None), ("field", None), ("field", "you"), ("field", "opponent"),
    ("field", "owner"), ("hand", "you"), ("graveyard", "opponent"), ("graveyard", None),
    (None, "you"), (None, "opponent")])
"""Where the cards of :func:`filtered_cards` are, and whose."""
PRESENT_ZONES_AND_OWNERS: st.SearchStrategy[tuple[str | None, Who | None]] = st.sampled_from([
    (None, None), ("field", None), ("field", "you")])
"""Where the card itself is, and whose, in a "there is" condition."""


@st.composite
def filtered_cards(draw: st.DrawFn, players: bool = False) -> Cards:
    """A noun phrase the canonical wording can say."""
    quantifier: Literal["a", "all", "the", "chosen", "both", "up_to"] = draw(
        st.sampled_from(["a", "all", "the", "chosen", "both", "up_to"]))
    count = draw(SMALL) if quantifier in ("a", "up_to") else 1
    zone, owner = draw(ZONES_AND_OWNERS)
    if zone is None and owner is not None and not (
            quantifier == "all" or (quantifier == "a" and count == 1)):
        owner = None
    element = draw(st.one_of(st.none(), ELEMENTS))
    species = draw(st.one_of(st.none(), SPECIES))
    kinds = ("monster",) if species is not None else draw(KIND_SETS)
    return Cards(
        quantifier, kinds, count=count, owner=owner, zone=zone,
        visible=draw(st.sampled_from([None, True, False])), other=draw(st.booleans()),
        species=species, element=element,
        exclude_element=element is not None and draw(st.booleans()),
        prefix=draw(st.sampled_from([None, "Potassium", "cultist"])),
        state=draw(st.sampled_from([None, "fused", "attacking", "defending", "summoned"])),
        mode=draw(st.sampled_from([None, "attack", "defense"])),
        stat=draw(st.one_of(st.none(), stat_tests())),
    )


PLAYER_CARDS = PLAYER_WHO.map(bm._player)
ANY_CARDS = st.one_of(SELF_REFS, filtered_cards())
SUBJECTS = st.one_of(ANY_CARDS, PLAYER_CARDS)
IMMUNITIES = st.builds(
    lambda kinds, element, exclude, visible: Cards(
        "all", kinds, element=element, exclude_element=element is not None and exclude,
        visible=visible),
    st.sampled_from([("spell",), ("trap",), ("attack",), ("effect",), ("spell", "trap"),
                     ("spell", "trap", "effect"), ("trap", "attack")]),
    st.one_of(st.none(), ELEMENTS), st.booleans(), st.sampled_from([None, True]))
ACTIONS = st.sampled_from(["attack", "be_attacked", "lose_lives_in_battle", "be_switched",
                           "be_switched_manually", "attack_directly", "attack_twice",
                           "be_targeted"])
PROHIBITED = st.one_of(ACTIONS, st.sampled_from(["summon", "activate", "draw", "reveal",
                                                 "be_destroyed"]))
PER = filtered_cards().map(lambda c: Cards(
    "all", c.kinds, owner=c.owner if c.zone else None, zone=c.zone, visible=c.visible,
    other=c.other, species=c.species, element=c.element, exclude_element=c.exclude_element,
    prefix=c.prefix, state=c.state, mode=c.mode, stat=c.stat))
WHEN = st.sampled_from([None, "fused_turn", "revealed_turn", "summoned_turn", "this_turn"])
RESULTS: st.SearchStrategy[Literal["win", "lose"]] = st.sampled_from(["win", "lose"])


@st.composite
def choice_steps(draw: st.DrawFn, chooser: Who) -> Step:
    """A step a player can choose to do ("can choose to ...")."""
    options: list[st.SearchStrategy[Step]] = [
        SMALL.map(lambda n: Draw(chooser, n)),
        SMALL.map(lambda n: Discard(chooser, n)),
        st.builds(lambda n: Lives(chooser, n), st.integers(-9, 9)),
        st.builds(lambda p, n: Lives(p, -n), PLAYER_WHO, SMALL),
        st.builds(SendTo, ANY_CARDS, st.sampled_from(["graveyard", "hand", "field"])),
        st.builds(RevealCards, ANY_CARDS),
        st.builds(Switch, ANY_CARDS, st.sampled_from(["attack", "defense"])),
        st.builds(Nullify, ANY_CARDS),
        st.builds(Fuse, ANY_CARDS),
        RESULTS.map(lambda r: EndGame(chooser, r)),
    ]
    step = draw(st.one_of(options))
    if draw(st.integers(0, 4)) == 0 and not isinstance(step, EndGame):
        return Trade((Lives(chooser, -draw(SMALL)),), (step,))
    return step


SIMPLE_STEPS: st.SearchStrategy[Step] = st.one_of(
    st.builds(Draw, PLAYER_WHO, SMALL),
    st.builds(Discard, PLAYER_WHO, SMALL),
    PLAYER_WHO.map(lambda p: Discard(p, bm._hand(p))),
    st.builds(DrawUntil, PLAYER_WHO, SMALL),
    st.builds(Lives, PLAYER_WHO, st.integers(-9, 9)),
    st.builds(SkipTurn, PLAYER_WHO),
    st.builds(EndGame, PLAYER_WHO, st.sampled_from(["win", "lose"])),
    st.builds(SendTo, ANY_CARDS, st.sampled_from(["graveyard", "hand", "field"])),
    st.builds(RevealCards, ANY_CARDS),
    st.builds(Switch, ANY_CARDS, st.sampled_from(["attack", "defense"])),
    st.builds(Nullify, ANY_CARDS),
    st.builds(Fuse, ANY_CARDS),
    st.builds(Points, ANY_CARDS, STAT, st.integers(-2000, 2000),
              st.sampled_from([None, Duration("temporary"), Duration("end_of_turn")]),
              st.one_of(st.none(), PER)),
    st.builds(ImmuneTo, SUBJECTS, IMMUNITIES),
    st.builds(lambda s, a, by, w: Cannot(s, tuple(dict.fromkeys(a)), by, w), SUBJECTS,
              st.lists(PROHIBITED, min_size=1, max_size=2),
              st.one_of(st.none(), ANY_CARDS), WHEN),
    st.builds(Can, SUBJECTS, ACTIONS, st.one_of(st.none(), ANY_CARDS), WHEN, st.booleans(),
              st.booleans()),
    PLAYER_WHO.flatmap(lambda p: choice_steps(p).map(lambda s: May(p, (s,)))),
    choice_steps("you").filter(lambda s: isinstance(s, Trade)),
)
STEP_LISTS = st.lists(SIMPLE_STEPS, min_size=1, max_size=3).map(tuple)


@st.composite
def conditions(draw: st.DrawFn) -> Cond:
    kind = draw(st.integers(0, 8))
    if kind == 8:
        return TurnOf(draw(PLAYER_WHO))
    if kind == 7:
        zone: str | None = draw(st.sampled_from(["field", "hand", "graveyard"]))
        return Compare(Quantity("count", of=Cards("all", ("card",), owner=draw(st.sampled_from(
            ["you", "opponent", "owner"])), zone=zone)),
            draw(st.sampled_from(["<", ">", "<=", ">=", "=="])), draw(AMOUNTS))
    if kind == 0:
        base = draw(SELF_REFS)
        zone, owner = draw(PRESENT_ZONES_AND_OWNERS)
        visible = draw(st.sampled_from([None, True, False]))
        mode: Stat | None = draw(st.sampled_from([None, "attack", "defense"]))
        if zone is None and visible is None and mode is None:
            visible = True
        what = Cards(base.quantifier, zone=zone, owner=owner, visible=visible, mode=mode)
        return Present(what, negated=draw(st.booleans()))
    if kind == 1:
        what = draw(filtered_cards())
        if draw(st.booleans()):
            what = Cards("a", what.kinds, zone=what.zone, owner=what.owner if what.zone else None,
                         visible=what.visible, element=what.element,
                         exclude_element=what.exclude_element, species=what.species)
            return Present(what, negated=True)
        return Present(what)
    if kind == 2:
        turn: Literal["previous", "this"] = draw(st.sampled_from(["previous", "this"]))
        whose: Who | None = draw(st.sampled_from([None, "you", "opponent", "owner"])) \
            if turn == "previous" else None
        return Did(draw(ANY_CARDS), draw(st.sampled_from(["attacked", "defended"])), turn, whose)
    if kind == 3:
        return Battling(draw(st.sampled_from(["defending", "attacking", "any"])),
                        draw(st.one_of(st.none(), ANY_CARDS)))
    if kind == 4:
        return Compare(Quantity("lives", player=draw(PLAYER_WHO)),
                       draw(st.sampled_from(["<", ">", "<=", ">=", "=="])), draw(AMOUNTS))
    if kind == 5:
        stat = draw(STAT)
        right = draw(st.one_of(AMOUNTS, st.builds(Quantity, STAT, of=ANY_CARDS)))
        return Compare(Quantity(stat, of=draw(ANY_CARDS)),
                       draw(st.sampled_from(["<", ">", "<=", ">=", "=="])), right)
    who: Who = draw(st.sampled_from(["you", "opponent", "owner"]))
    zones = draw(st.permutations(["field", "hand", "graveyard"]))
    return Compare(Quantity("count", of=Cards("all", ("card",), owner=who, zone=zones[0])),
                   ">", Quantity("count", of=Cards("all", ("card",), owner=who, zone=zones[1])))


@st.composite
def events(draw: st.DrawFn) -> Event:
    kind = draw(st.integers(0, 6))
    if kind == 6:
        return Event(("defeats",), subject=draw(ANY_CARDS),
                     target=draw(st.one_of(st.none(), ANY_CARDS)))
    if kind == 0:
        kinds = draw(st.lists(st.sampled_from(["summoned", "revealed", "activated", "attacked",
                                               "sent_to_graveyard", "defeated"]),
                              min_size=1, max_size=2, unique=True))
        return Event(tuple(kinds), subject=draw(ANY_CARDS),
                     by=draw(st.one_of(st.none(), ANY_CARDS)))
    if kind == 1:
        return Event(("attacks",), subject=draw(ANY_CARDS),
                     target=draw(st.one_of(st.none(), ANY_CARDS, PLAYER_CARDS)))
    if kind == 2:
        return Event(("defended",), subject=draw(ANY_CARDS))
    if kind == 3:
        return Event((draw(st.sampled_from(["summoned", "revealed", "activated", "drawn",
                                            "discarded"])),),
                     subject=draw(filtered_cards()),
                     who=draw(st.sampled_from(["you", "opponent", "owner"])))
    if kind == 4:
        return Event(("used",), name=draw(NAMES))
    return Event((draw(st.sampled_from(["turn_begins", "turn_ends"])),), who=draw(PLAYER_WHO))


GUARDED = st.builds(IfThen, conditions(), STEP_LISTS)
REACTION_BODIES = st.one_of(STEP_LISTS, GUARDED.map(lambda g: (g,)))
REACTIONS = st.builds(Reaction, events(), REACTION_BODIES)
EFFECTS = st.lists(st.one_of(SIMPLE_STEPS, GUARDED, REACTIONS), min_size=1, max_size=3).map(tuple)
STATIC_EFFECTS = st.lists(st.one_of(SIMPLE_STEPS, GUARDED), min_size=1, max_size=3).map(tuple)


@st.composite
def specials(draw: st.DrawFn) -> Special:
    parts: list[Ability] = []
    for _ in range(draw(st.integers(1, 3))):
        if parts and isinstance(parts[-1], Passive) or draw(st.booleans()):
            parts.append(draw(REACTIONS))
        else:
            parts.append(Passive(draw(STATIC_EFFECTS)))
    return Special(draw(NAMES), tuple(parts))


@st.composite
def trigger_effects(draw: st.DrawFn) -> TriggerEffect:
    trigger = draw(st.one_of(st.none(), events()))
    effect = draw(EFFECTS)
    use = draw(st.sampled_from([None, "single", "unlimited", "permanent", "once_per_turn",
                                "3_turns"]))
    return TriggerEffect(trigger, effect, use)


@st.composite
def card_texts(draw: st.DrawFn) -> tuple[str | None, CardText]:
    """A card type and a tree the grammar can produce for a card of that type."""
    card_type = draw(st.sampled_from([None, "Spell", "Trap", "Monster (root)"]))
    plain = Passive if card_type == "Monster (root)" else Spell
    own = st.one_of(specials(), trigger_effects(), EFFECTS.map(plain))
    abilities = draw(st.lists(own, min_size=0, max_size=3))
    return card_type, CardText(tuple(abilities))


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(card_texts())
def test_round_trip_property(case: tuple[str | None, CardText]) -> None:
    card_type, tree = case
    text = bm_render(tree)
    if len(text) > MAX_TEXT_LENGTH:
        return
    assert bm_parse(text, card_type) == tree, text
    assert from_json(to_json(tree)) == tree


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120))
def test_lenient_never_fails(text: str) -> None:
    tree = parse_lenient(text, GAME, card_type="Monster (root)")
    assert isinstance(tree, CardText)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["TRIGGER:", "EFFECT:", "When", "revealed.", "%NAME", "gains",
                                 "5", "attack", "points.", "Single use.", "\n", "Name:"]),
                max_size=14).map(" ".join))
def test_lenient_never_fails_on_near_misses(text: str) -> None:
    assert isinstance(parse_lenient(text, GAME, card_type="Spell"), CardText)
