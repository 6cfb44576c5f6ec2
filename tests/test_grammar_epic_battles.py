"""Tests of the Epic Battles card-text grammar, its renderer and the shipped base set.

There are no real Epic Battles card texts to test against: the set of invented cards
in ``spec/epic_battles/cards/base.toml`` must cover every template of the book's
vocabulary (HIT text, Knock Down, Launcher, Taunt, recovering, linking, energy,
blocking, Side Deck Only, "only" restrictions), and generated trees must survive
``parse(render(tree)) == tree``.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grammar import lexer as fast
from grammar.ast import (
    Ability,
    Activated,
    Amount,
    CardText,
    Condition,
    Conditional,
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
    Replacement,
    Reveal,
    Scrap,
    Search,
    Selector,
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
from grammar.epic_battles import GRAMMAR, HIT, THIS_ATTACK, settle, split
from grammar.epic_battles_nodes import (
    ABILITIES,
    STEPS,
    EpicBattlesChip,
    EpicBattlesFlip,
    EpicBattlesGain,
    EpicBattlesKnockDown,
    EpicBattlesLimit,
    EpicBattlesLink,
    EpicBattlesLinkBar,
    EpicBattlesPay,
    EpicBattlesPut,
    EpicBattlesRecover,
    EpicBattlesRemove,
    EpicBattlesRestriction,
    EpicBattlesTaunt,
)
from grammar.parser import MAX_TEXT_LENGTH, CardTextError, get_parser, grammar_of
from grammar.parser import parse as _parse
from grammar.parser import parse_lenient as _parse_lenient
from grammar.render import RenderError
from grammar.render import render as _render
from spec.core.cards import CardDatabase
from tests.grammar_support import shipped_cards, walk

GAME = "epic_battles"
ROOT = Path(__file__).resolve().parent.parent
BASE_SET = ROOT / "spec" / "epic_battles" / "cards" / "base.toml"
DOCS_PAGE = ROOT / "docs" / "grammar-epic_battles.rst"
RULE_INDEX = ROOT.parent / "shared" / "rules" / "epic_battles.tsv"


def parse(text: str, card_type: str | None = None) -> CardText:
    return _parse(text, GAME, card_type=card_type)


def parse_lenient(text: str, card_type: str | None = None) -> CardText:
    return _parse_lenient(text, GAME, card_type=card_type)


def render(tree: CardText) -> str:
    return _render(tree, GAME)


CARDS = shipped_cards("epic_battles")


def _shipped_trees() -> list[tuple[dict[str, Any], CardText]]:
    return [(c, parse(c["text"], c["type"])) for c in CARDS]


# ------------------------------------------------------------------ the node module


def test_docs_examples_parse() -> None:
    """Every example of the reference page is read by the grammar, in canonical form."""
    examples = re.findall(r"^     - ``(.+?)``$", DOCS_PAGE.read_text(encoding="utf-8"), re.MULTILINE)
    assert len(examples) >= 30
    for example in examples:
        tree = next((t for t in (_try(example, k) for k in ("Attack", "Event", "Character"))
                     if t is not None), None)
        assert tree is not None, example
        assert render(tree).replace("\n", " ") == example


def _try(text: str, card_type: str) -> CardText | None:
    try:
        return parse(text, card_type)
    except CardTextError:
        return None


@pytest.mark.skipif(not RULE_INDEX.exists(), reason="../shared is not beside the checkout")
def test_cited_rule_ids_exist() -> None:
    with RULE_INDEX.open(encoding="utf-8") as handle:
        known = {row["id"] for row in csv.DictReader(handle, delimiter="\t")}
    files = [ROOT / "grammar" / "epic_battles.lark", ROOT / "grammar" / "epic_battles.py",
             ROOT / "grammar" / "epic_battles_nodes.py", BASE_SET, DOCS_PAGE, Path(__file__)]
    cited = {m for f in files for m in re.findall(r"\bEB(?:\.[a-z0-9_]+)+",
                                                  f.read_text(encoding="utf-8"))}
    assert len(cited) >= 20
    assert cited - known == set()


def test_game_nodes_are_tagged_and_documented() -> None:
    tags = set()
    for cls in (*STEPS, *ABILITIES):
        tag = cls.__struct_config__.tag
        assert isinstance(tag, str) and tag.startswith("epic_battles_"), cls
        assert cls.__doc__ and len(cls.__doc__.split()) >= 8, cls
        tags.add(tag)
    assert len(tags) == len(STEPS) + len(ABILITIES)


def test_grammar_spec() -> None:
    spec = grammar_of(GAME)
    assert spec is GRAMMAR
    assert spec.card_types is None and spec.render is not None and spec.split is not None


# ------------------------------------------------------------------ shipped cards


def test_base_set_shape() -> None:
    assert len(CARDS) >= 40
    names = [c["name"] for c in CARDS]
    assert len(names) == len(set(names))
    by_type: dict[str, list[dict[str, Any]]] = {}
    for card in CARDS:
        by_type.setdefault(card["type"], []).append(card)
    assert set(by_type) == {"Character", "Attack", "Block", "Event"}
    minimum = {"Character": 4, "Attack": 15, "Block": 6, "Event": 8}
    for kind, count in minimum.items():
        assert len(by_type[kind]) >= count, kind
    games = {c["stats"]["game"] for c in by_type["Character"]}
    assert len(games) >= 2
    for card in CARDS:
        if card["type"] == "Character":
            assert "cost" not in card
        else:
            assert isinstance(card["cost"], int) and 0 <= card["cost"] <= 5
    for attack in by_type["Attack"]:
        stats = attack["stats"]
        assert set(stats) == {"damage", "height", "follow_ups"}
        assert 0 <= stats["damage"] <= 8 and stats["height"] in ("High", "Low")
        assert attack["traits"] and all(t[:1].isupper() for t in attack["traits"])
        assert all(t[:1].isupper() for t in stats["follow_ups"])
    for block in by_type["Block"]:
        assert block["stats"] == {"height": block["stats"]["height"]}
        assert block["stats"]["height"] in ("High", "Low")
    heights = {b["stats"]["height"] for b in by_type["Block"]}
    assert heights == {"High", "Low"}


def test_base_set_loads_as_a_database() -> None:
    db = CardDatabase.load(BASE_SET)
    assert db.game == GAME and len(db) == len(CARDS)
    for card in db:
        tree = db.tree(card.name)
        assert isinstance(tree, CardText), (card.name, tree)


@pytest.mark.parametrize("card", CARDS, ids=[c["name"] for c in CARDS])
def test_shipped_card_parses_strictly_and_round_trips(card: dict[str, Any]) -> None:
    tree = parse(card["text"], card["type"])
    assert unknown_parts(tree) == []
    assert parse(render(tree), card["type"]) == tree
    assert render(tree) == card["text"], "shipped text should be in canonical wording"
    assert from_json(to_json(tree)) == tree


def test_printed_trait_bars_agree_with_the_fields() -> None:
    printed = 0
    for card, tree in _shipped_trees():
        for ability in tree.abilities:
            if isinstance(ability, EpicBattlesLinkBar):
                printed += 1
                field = card["traits"] if ability.part == "traits" else card["stats"]["follow_ups"]
                assert list(ability.labels) == field, card["name"]
    assert printed >= 2


def test_restrictions_name_shipped_characters_and_games() -> None:
    characters = {c["name"] for c in CARDS if c["type"] == "Character"}
    games = {c["stats"]["game"] for c in CARDS if c["type"] == "Character"}
    for card, tree in _shipped_trees():
        for ability in tree.abilities:
            if isinstance(ability, EpicBattlesRestriction):
                known = characters if ability.kind == "character" else games
                assert set(ability.names) <= known, card["name"]
        # A card with a character's name in its title is restricted to that character
        # (EB.deck.character_name).
        owner = next((n for n in characters if card["name"].startswith(n + "'s ")), None)
        if owner is not None:
            assert any(isinstance(a, EpicBattlesRestriction) and a.kind == "character"
                       and owner in a.names for a in tree.abilities), card["name"]


def _is_hit(n: object) -> bool:
    return isinstance(n, Triggered) and n.trigger == HIT


def _is_flip(n: object) -> bool:
    return isinstance(n, Triggered) and n.effect == (EpicBattlesFlip(),)


# Every template of the book's vocabulary, and a predicate that finds it in a tree.
VOCABULARY: dict[str, Any] = {
    "EB.card.attack.text: text before HIT": lambda c, t: any(_is_hit(a) for a in t.abilities)
    and any(isinstance(a, Spell) for a in t.abilities),
    "EB.card.attack.unblocked: HIT text": lambda c, t: any(_is_hit(a) for a in t.abilities),
    "EB.card.attack.blocked: when blocked": lambda c, t: any(
        n == Trigger("blocked", subject=THIS_ATTACK) for n in walk(t)),
    "EB.kw.knockdown keyword": lambda c, t: Keyword("knock_down") in t.abilities,
    "EB.kw.launcher keyword": lambda c, t: Keyword("launcher") in t.abilities,
    "knock down step": lambda c, t: EpicBattlesKnockDown("opponent") in walk(t),
    "launch step": lambda c, t: EpicBattlesKnockDown("opponent", "launch") in walk(t),
    "EB.kw.taunt": lambda c, t: any(isinstance(n, EpicBattlesTaunt) for n in walk(t)),
    "EB.recover.effect: recover": lambda c, t: any(isinstance(n, EpicBattlesRecover)
                                                   for n in walk(t)),
    "EB.recover.block: remove blocks to recover": lambda c, t: any(
        isinstance(a, (Activated, Spell)) and any(isinstance(s, EpicBattlesRemove) for s in a.cost)
        and EpicBattlesRecover() in a.effect for a in t.abilities),
    "can't recover": lambda c, t: any(isinstance(n, Prohibit) and n.action == "recover"
                                      for n in walk(t)),
    "recover cards to the deck": lambda c, t: any(
        isinstance(n, EpicBattlesPut) and n.to == "deck bottom" for n in walk(t)),
    "EB.side.limit: Side Deck Only": lambda c, t: Keyword("side_deck_only") in t.abilities,
    "EB.deck.game_only: one game": lambda c, t: any(
        isinstance(a, EpicBattlesRestriction) and a.kind == "game" and len(a.names) == 1
        for a in t.abilities),
    "EB.deck.game_only: several games": lambda c, t: any(
        isinstance(a, EpicBattlesRestriction) and a.kind == "game" and len(a.names) > 1
        for a in t.abilities),
    "EB.deck.character_name: only playable by": lambda c, t: any(
        isinstance(a, EpicBattlesRestriction) and a.kind == "character" for a in t.abilities),
    "EB.deck.copies: limit": lambda c, t: any(isinstance(a, EpicBattlesLimit)
                                              for a in t.abilities),
    "only playable during a combo": lambda c, t: Conditional(timing="combo") in t.abilities,
    "only playable first in a combo": lambda c, t: Conditional(timing="combo_start")
    in t.abilities,
    "only playable if": lambda c, t: any(isinstance(a, Conditional) and a.condition is not None
                                         for a in t.abilities),
    "EB.link.def: traits bar": lambda c, t: any(
        isinstance(a, EpicBattlesLinkBar) and a.part == "traits" for a in t.abilities),
    "EB.link.def: follow-ups bar": lambda c, t: any(
        isinstance(a, EpicBattlesLinkBar) and a.part == "follow_ups" for a in t.abilities),
    "link after any attack": lambda c, t: any(
        isinstance(n, EpicBattlesLink) and n.allowed for n in walk(t)),
    "can't link after": lambda c, t: any(
        isinstance(n, EpicBattlesLink) and not n.allowed for n in walk(t)),
    "gain a trait": lambda c, t: any(isinstance(n, EpicBattlesGain) and n.part == "trait"
                                     for n in walk(t)),
    "gain a follow-up": lambda c, t: any(isinstance(n, EpicBattlesGain)
                                         and n.part == "follow_up" for n in walk(t)),
    "EB.combo.def: linked attack": lambda c, t: Condition("combo", ">=", 2) in walk(t),
    "EB.combo.def: combo length": lambda c, t: any(
        isinstance(n, Condition) and n.subject == "combo" and n.value != 2 for n in walk(t)),
    "knocked down condition": lambda c, t: any(
        isinstance(n, Condition) and n.value == "knocked_down" for n in walk(t)),
    "EB.turn.aggressor: aggressor condition": lambda c, t: any(
        isinstance(n, Condition) and n.value == "aggressor" for n in walk(t)),
    "cards in a zone condition": lambda c, t: any(
        isinstance(n, Condition) and n.subject == "cards" for n in walk(t)),
    "EB.damage.take: damage": lambda c, t: any(isinstance(n, Deal) for n in walk(t)),
    "damage modifier": lambda c, t: any(isinstance(n, Modify) and n.stat == "damage"
                                        for n in walk(t)),
    "EB.energy.pay: cost modifier": lambda c, t: any(isinstance(n, Modify) and n.stat == "cost"
                                                     for n in walk(t)),
    "EB.chip: chipping": lambda c, t: any(isinstance(n, EpicBattlesChip) for n in walk(t)),
    "EB.note.distinct: top of deck to discard": lambda c, t: any(isinstance(n, Scrap)
                                                                 for n in walk(t)),
    "EB.energy.pay: pay energy": lambda c, t: any(isinstance(n, EpicBattlesPay)
                                                  for n in walk(t)),
    "EB.energy.pile: gain energy": lambda c, t: any(
        isinstance(n, EpicBattlesPut) and n.to == "energy pile" for n in walk(t)),
    "put into hand": lambda c, t: any(isinstance(n, EpicBattlesPut) and n.to == "hand"
                                      for n in walk(t)),
    "draw": lambda c, t: any(isinstance(n, Draw) for n in walk(t)),
    "discard from hand": lambda c, t: any(isinstance(n, Discard) for n in walk(t)),
    "search": lambda c, t: any(isinstance(n, Search) for n in walk(t)),
    "shuffle": lambda c, t: any(isinstance(n, Shuffle) for n in walk(t)),
    "reveal": lambda c, t: any(isinstance(n, Reveal) for n in walk(t)),
    "negate": lambda c, t: any(isinstance(n, Negate) for n in walk(t)),
    "EB.card.block.type: can't be blocked by": lambda c, t: any(
        isinstance(n, Prohibit) and n.action.startswith("be blocked by") for n in walk(t)),
    "unblockable": lambda c, t: any(isinstance(n, Prohibit) and n.action == "be blocked"
                                    for n in walk(t)),
    "block other heights": lambda c, t: any(isinstance(n, Permit) and n.action.startswith("block")
                                            for n in walk(t)),
    "can't play blocks": lambda c, t: any(isinstance(n, Prohibit) and n.action.startswith("play")
                                          for n in walk(t)),
    "can't flip events": lambda c, t: any(isinstance(n, Prohibit) and n.action == "flip events"
                                          for n in walk(t)),
    "can't link attacks": lambda c, t: any(isinstance(n, Prohibit) and n.action == "link attacks"
                                           for n in walk(t)),
    "EB.card.event.flip.timing: flip when": lambda c, t: any(_is_flip(a) for a in t.abilities),
    "flip at a step": lambda c, t: any(_is_flip(a) and a.trigger.phase is not None
                                       for a in t.abilities),
    "flip any time": lambda c, t: Keyword("flip_any_time") in t.abilities,
    "character triggered": lambda c, t: c["type"] == "Character" and any(
        isinstance(a, Triggered) for a in t.abilities),
    "character passive": lambda c, t: c["type"] == "Character" and any(
        isinstance(a, Passive) for a in t.abilities),
    "character while": lambda c, t: any(isinstance(a, Passive) and a.condition is not None
                                        for a in t.abilities),
    "character activated": lambda c, t: c["type"] == "Character" and any(
        isinstance(a, Activated) for a in t.abilities),
    "additional cost": lambda c, t: any(isinstance(a, Spell) and a.cost for a in t.abilities),
    "alternative cost": lambda c, t: any(isinstance(a, Activated) and a.alternative
                                         for a in t.abilities),
    "replacement": lambda c, t: any(isinstance(a, Replacement) for a in t.abilities),
    "delayed until the end of the combo": lambda c, t: any(
        isinstance(n, Delay) and n.when == "end_of_combo" for n in walk(t)),
    "until the end of the combo": lambda c, t: Duration("end_of_combo") in walk(t),
    "you may": lambda c, t: any(isinstance(n, May) for n in walk(t)),
    "if": lambda c, t: any(isinstance(n, If) for n in walk(t)),
    "vanilla card": lambda c, t: c["text"] == "",
}


def test_every_template_of_the_vocabulary_is_shipped() -> None:
    trees = _shipped_trees()
    missing = [name for name, pred in VOCABULARY.items()
               if not any(pred(card, tree) for card, tree in trees)]
    assert missing == []


def test_every_game_node_is_shipped() -> None:
    used = {type(n) for _card, tree in _shipped_trees() for n in walk(tree)}
    assert set(STEPS) - used == set()
    assert set(ABILITIES) - used == set()


# ------------------------------------------------------------ specific templates

YOU = Selector("the", "player", owner="you")
RIVAL = Selector("the", "player", owner="opponent")
THAT_ATTACK = Selector("that", "Attack")


def _spell(*steps: Step) -> Spell:
    return Spell(tuple(steps))


TEMPLATES: list[tuple[str, str | None, Ability]] = [
    # text after HIT (EB.card.attack.text)
    ("HIT: Your rival discards a card.", "Attack", Triggered(HIT, (Discard("opponent", 1),))),
    ("Hit - draw a card.", "Attack", Triggered(HIT, (Draw("you", 1),))),
    ("When this attack hits, draw a card.", "Attack", Triggered(HIT, (Draw("you", 1),))),
    ("When this attack is blocked, your rival chips two cards.", "Attack",
     Triggered(Trigger("blocked", subject=THIS_ATTACK), (EpicBattlesChip("opponent", 2),))),
    # keywords
    ("Knock Down.", "Attack", Keyword("knock_down")),
    ("Knock down.", "Attack", Keyword("knock_down")),
    ("Knockdown.", "Attack", Keyword("knock_down")),
    ("Your opponent's attacks can't be blocked.", "Event",
     _spell(Prohibit(Selector("each", "Attack", owner="opponent"), "be blocked"))),
    ("Launcher.", "Attack (High)", Keyword("launcher")),
    ("Taunt.", "Attack", _spell(EpicBattlesTaunt("opponent"))),
    ("Taunt your rival.", "Attack", _spell(EpicBattlesTaunt("opponent"))),
    ("Knock down your rival.", "Attack", _spell(EpicBattlesKnockDown("opponent"))),
    ("Launch your opponent.", "Attack", _spell(EpicBattlesKnockDown("opponent", "launch"))),
    ("Side Deck Only.", "Event", Keyword("side_deck_only")),
    ("Side Deck only.", "Event", Keyword("side_deck_only")),
    # only restrictions
    ("Ironfist Saga Only.", "Attack", EpicBattlesRestriction("game", ("Ironfist Saga",))),
    ("Only playable in Ironfist Saga decks.", "Attack",
     EpicBattlesRestriction("game", ("Ironfist Saga",))),
    ("Only playable in Neon Rumble, Skyforge Clash or Ironfist Saga decks.", "Block",
     EpicBattlesRestriction("game", ("Neon Rumble", "Skyforge Clash", "Ironfist Saga"))),
    ("Only playable by Kaito.", "Attack", EpicBattlesRestriction("character", ("Kaito",))),
    ("Only playable by Kaito or Sable Quinn.", "Attack",
     EpicBattlesRestriction("character", ("Kaito", "Sable Quinn"))),
    ("Only playable during a combo.", "Attack", Conditional(timing="combo")),
    ("Only playable as the first attack of a combo.", "Attack",
     Conditional(timing="combo_start")),
    ("Only playable if your rival is launched.", "Attack",
     Conditional(condition=Condition("state", "is", "launched", of=RIVAL))),
    ("Only playable during a combo if you are not knocked down.", "Attack",
     Conditional(condition=Condition("state", "not", "knocked_down", of=YOU), timing="combo")),
    ("Limit 2 per deck.", "Block", EpicBattlesLimit(2)),
    ("Limit one per deck.", "Block", EpicBattlesLimit(1)),
    # linking
    ("Traits: Kick, Aerial.", "Attack", EpicBattlesLinkBar("traits", ("Kick", "Aerial"))),
    ("Follow-ups: Punch.", "Attack", EpicBattlesLinkBar("follow_ups", ("Punch",))),
    ("This attack can link after any attack.", "Attack",
     _spell(EpicBattlesLink(THIS_ATTACK, Selector("each", "Attack")))),
    ("This attack can link after a Throw attack until the end of the turn.", "Attack",
     _spell(EpicBattlesLink(THIS_ATTACK, Selector("a", "Attack", team="Throw"),
                            duration=Duration("end_of_turn")))),
    ("Your attacks can't link after this attack.", "Attack",
     _spell(EpicBattlesLink(Selector("each", "Attack", owner="you"), THIS_ATTACK, False))),
    ("This attack gains the Kick trait.", "Attack",
     _spell(EpicBattlesGain(THIS_ATTACK, "Kick"))),
    ("Your rival's Low attacks gain the Rush follow-up until the end of the combo.", "Event",
     _spell(EpicBattlesGain(Selector("each", "Attack", owner="opponent", team="Low"), "Rush",
                            "follow_up", Duration("end_of_combo")))),
    ("If this attack is linked, draw a card.", "Attack",
     _spell(If(Condition("combo", ">=", 2), (Draw("you", 1),)))),
    ("If the combo has 4 or more attacks, this attack gets +3 damage.", "Attack",
     _spell(If(Condition("combo", ">=", 4), (Modify(THIS_ATTACK, "damage", 3),)))),
    # damage, chipping, the top of the deck (EB.note.distinct)
    ("Deal 2 damage to your rival.", "Attack", _spell(Deal(2, RIVAL))),
    ("Your rival takes X damage.", "Attack", _spell(Deal(Var("X"), RIVAL))),
    ("Your rival chips a card.", "Attack", _spell(EpicBattlesChip("opponent", 1))),
    ("Chip two cards.", "Block", _spell(EpicBattlesChip("you", 2))),
    ("Discard the top card of your deck.", "Block", _spell(Scrap("you", 1))),
    ("Each player discards the top three cards of their deck.", "Event", _spell(Scrap("each", 3))),
    ("That attack gets -2 damage.", "Event", _spell(Modify(THAT_ATTACK, "damage", -2))),
    ("This attack gets +1 cost.", "Attack", _spell(Modify(THIS_ATTACK, "cost", 1))),
    ("Your Kick attacks get +1 damage.", "Character",
     Passive((Modify(Selector("each", "Attack", owner="you", team="Kick"), "damage", 1),))),
    # hand and deck
    ("Draw two cards.", "Block", _spell(Draw("you", 2))),
    ("Your rival draws a card.", "Event", _spell(Draw("opponent", 1))),
    ("Discard a card.", "Attack", _spell(Discard("you", 1))),
    ("Your rival discards two High blocks.", "Attack",
     _spell(Discard("opponent", 2, what=Selector("a", "Block", count=2, team="High")))),
    ("Discard up to three events.", "Attack",
     _spell(Discard("you", 3, what=Selector("up_to", "Event", count=3)))),
    ("Search your deck for an attack card and put it into your hand.", "Event",
     _spell(Search("you", "deck", Selector("a", "Attack"), to="hand"))),
    ("Shuffle your deck.", "Event", _spell(Shuffle("you", "deck"))),
    ("Reveal the top two cards of your deck.", "Event",
     _spell(Reveal(Selector("the", "card", count=2, owner="you", zone="deck")))),
    ("Your rival reveals the top card of their deck.", "Event",
     _spell(Reveal(Selector("the", "card", owner="opponent", zone="deck")))),
    # energy (EB.energy.pay, EB.energy.pile) and recovering (EB.recover.effect)
    ("Pay 2 energy; draw a card.", "Character", Activated((EpicBattlesPay(2),), (Draw("you", 1),))),
    ("Pay 2 energy; draw a card.", "Attack", Spell((Draw("you", 1),), cost=(EpicBattlesPay(2),))),
    ("Put this card into your energy pile.", "Block",
     _spell(EpicBattlesPut(Selector("this", "card"), "energy pile"))),
    ("Put the top card of your discard pile into your energy pile.", "Event",
     _spell(EpicBattlesPut(Selector("the", "card", owner="you", zone="discard pile"),
                           "energy pile"))),
    ("Put two blocks from your energy pile into your hand.", "Event",
     _spell(EpicBattlesPut(Selector("a", "Block", count=2, owner="you", zone="energy pile"),
                           "hand"))),
    ("Put a card from your discard pile on top of your deck.", "Event",
     _spell(EpicBattlesPut(Selector("a", "card", owner="you", zone="discard pile"), "deck top"))),
    ("Recover.", "Block", _spell(EpicBattlesRecover("you"))),
    ("Your rival recovers.", "Event", _spell(EpicBattlesRecover("opponent"))),
    ("Remove two High blocks from your discard pile; recover.", "Character",
     Activated((EpicBattlesRemove(Selector("a", "Block", count=2, owner="you",
                                           zone="discard pile", team="High")),),
               (EpicBattlesRecover("you"),))),
    ("Your rival can't recover until the end of the combo.", "Attack",
     _spell(Prohibit(RIVAL, "recover", Duration("end_of_combo")))),
    # blocking (EB.card.block.type)
    ("This attack can't be blocked.", "Attack", _spell(Prohibit(THIS_ATTACK, "be blocked"))),
    ("This attack can't be blocked by High blocks.", "Attack",
     _spell(Prohibit(THIS_ATTACK, "be blocked by High blocks"))),
    ("This block can block High attacks.", "Block",
     _spell(Permit(Selector("this", "Block"), "block High attacks"))),
    ("Your rival can't play Low blocks.", "Attack", _spell(Prohibit(RIVAL, "play Low blocks"))),
    ("You can't pass until the end of the turn.", "Event",
     _spell(Prohibit(YOU, "pass", Duration("end_of_turn")))),
    ("Negate that attack.", "Event", _spell(Negate(THAT_ATTACK))),
    # events (EB.card.event.flip.timing)
    ("Flip when your rival plays a Low attack.", "Event",
     Triggered(Trigger("played", who="opponent", subject=Selector("a", "Attack", team="Low")),
               (EpicBattlesFlip(),))),
    ("Flip this event when an attack hits you.", "Event",
     Triggered(Trigger("hit", who="you", subject=Selector("a", "Attack")), (EpicBattlesFlip(),))),
    ("Flip this event when a Kick attack hits you.", "Event",
     Triggered(Trigger("hit", who="you", subject=Selector("a", "Attack", team="Kick")),
               (EpicBattlesFlip(),))),
    ("Flip at the end of the Set step.", "Event",
     Triggered(Trigger("phase_ends", phase="Set"), (EpicBattlesFlip(),))),
    ("Flip at any time.", "Event", Keyword("flip_any_time")),
    # characters: triggers, statics, costs
    ("Whenever you play a Kick attack, draw a card.", "Character",
     Triggered(Trigger("played", who="you", subject=Selector("a", "Attack", team="Kick")),
               (Draw("you", 1),))),
    ("When your rival is knocked down, your rival chips a card.", "Character",
     Triggered(Trigger("knocked_down", who="opponent"), (EpicBattlesChip("opponent", 1),))),
    ("When you take damage, you may draw a card.", "Character",
     Triggered(Trigger("dealt_damage", who="you"), (May("you", (Draw("you", 1),)),))),
    ("At the beginning of each turn, draw a card.", "Character",
     Triggered(Trigger("turn_begins", who="each"), (Draw("you", 1),))),
    ("When a combo ends, recover.", "Character",
     Triggered(Trigger("combo_ends"), (EpicBattlesRecover("you"),))),
    ("While you are the aggressor, your attacks get +1 damage.", "Character",
     Passive((Modify(Selector("each", "Attack", owner="you"), "damage", 1),),
             condition=Condition("state", "is", "aggressor", of=YOU))),
    ("While your rival has 5 or fewer cards in their deck, draw a card.", "Character",
     Passive((Draw("you", 1),), condition=Condition(
         "cards", "<=", 5, of=Selector("the", "card", owner="opponent", zone="deck")))),
    ("If you would be knocked down, pay 1 energy instead.", "Character",
     Replacement(Trigger("knocked_down", subject=YOU), (EpicBattlesPay(1),))),
    ("Alternatively, discard a card; draw a card.", "Attack",
     Activated((Discard("you", 1),), (Draw("you", 1),), alternative=True)),
    ("At the end of the combo, draw a card.", "Attack",
     _spell(Delay("end_of_combo", (Draw("you", 1),)))),
]


@pytest.mark.parametrize(("text", "card_type", "ability"), TEMPLATES,
                         ids=[t[0][:50] for t in TEMPLATES])
def test_template_meaning(text: str, card_type: str | None, ability: Ability) -> None:
    tree = parse(text, card_type)
    assert tree == CardText((ability,))
    assert parse(render(tree), card_type) == tree


# ------------------------------------------------------------ card types and lines


def test_card_type_decides_plain_and_costed_lines() -> None:
    costed = "Pay 1 energy; draw a card."
    for played in ("Attack", "Block", "Event", "Attack (High)", "Low Block"):
        assert isinstance(parse(costed, played).abilities[0], Spell)
        assert isinstance(parse("Draw a card.", played).abilities[0], Spell)
    assert isinstance(parse(costed, "Character").abilities[0], Activated)
    assert isinstance(parse("Draw a card.", "Character").abilities[0], Passive)
    for unknown in (None, "Unit (Fire)", ""):
        assert isinstance(parse(costed, unknown).abilities[0], Activated)
        assert isinstance(parse("Draw a card.", unknown).abilities[0], Spell)
    alternative = Activated((Discard("you", 1),), (Draw("you", 1),), alternative=True)
    assert settle(alternative, "Attack") is alternative


def test_hit_cuts_a_line_into_before_and_after() -> None:
    tree = parse("Your rival discards a card. HIT: Draw a card. Taunt.", "Attack")
    assert tree == CardText((
        Spell((Discard("opponent", 1),)),
        Triggered(HIT, (Draw("you", 1), EpicBattlesTaunt("opponent"))),
    ))
    assert render(tree) == "Your rival discards a card.\nHIT: Draw a card. Taunt."


def test_keyword_sentences_share_a_line() -> None:
    tree = parse("Knock Down. Ironfist Saga Only. Draw a card. Discard a card. HIT: Recover.",
                 "Attack")
    assert tree == CardText((
        Keyword("knock_down"),
        EpicBattlesRestriction("game", ("Ironfist Saga",)),
        Spell((Draw("you", 1), Discard("you", 1))),
        Triggered(HIT, (EpicBattlesRecover(),)),
    ))
    flip = parse("Flip when your rival plays an attack. Negate that attack.", "Event")
    assert len(flip.abilities) == 2


@pytest.mark.parametrize("sentence", [
    "HIT: Recover.", "Hit - Recover.", "Knock Down.", "Launcher.", "Side Deck only.", "Limit 2.",
    "Traits: Kick.", "Follow-ups: Kick.", "Only playable during a combo.", "Flip any time.",
    "Ironfist Saga Only.", "Kaito only.",
])
def test_every_kind_of_cut_sentence_is_cut_after_another(sentence: str) -> None:
    """Each sentence ``split`` cuts at is cut when it follows another on its line (the
    look for such words that lets most lines through whole must know every one)."""
    assert split(f"Draw a card. {sentence}") == [(1, "Draw a card."), (1, " " * 13 + sentence)]
    assert split(f"Draw a card. Discard a card.  {sentence}")[1:] == [(1, " " * 30 + sentence)]


def test_the_fast_loop_hands_the_builder_plain_strings() -> None:
    """The builder reads every token as text (a label by its place), so the parser's
    loop hands it strings, making no Token (see ``CoreBuilder.tokens_as_text``)."""
    assert GRAMMAR.builder.tokens_as_text
    assert isinstance(get_parser("epic_battles").parser.parser, fast._TextTokensParser)


def test_split_keeps_line_numbers_and_columns() -> None:
    assert split("Draw a card. HIT: Recover.\n\nKnock Down.") == [
        (1, "Draw a card."), (1, " " * 13 + "HIT: Recover."), (3, "Knock Down."),
    ]


def test_empty_text_is_a_vanilla_card() -> None:
    assert parse("", "Attack") == CardText(())
    assert parse_lenient("", "Block") == CardText(())


# ------------------------------------------------------------------------- errors


def test_error_names_line_column_and_expected_words() -> None:
    text = "Knock Down.\nDraw a card. HIT: Your rival dicsards a card."
    with pytest.raises(CardTextError) as info:
        parse(text, "Attack")
    err = info.value
    assert err.line == 2
    assert err.column == text.split("\n")[1].index("dicsards") + 1
    assert "the word 'discards'" in err.expected
    lines = str(err).split("\n")
    assert lines[0].startswith(f"line 2, column {err.column}: unexpected")
    assert "'dicsards'" in lines[0]
    assert lines[2] == " " * (err.column - 1) + "^"
    assert lines[3].startswith("expected: ")


def test_error_expected_words_are_plain() -> None:
    with pytest.raises(CardTextError) as info:
        parse("Deal damage to your rival.", "Attack")
    assert "a number" in info.value.expected
    with pytest.raises(CardTextError) as info:
        parse("This attack gets +2 power.", "Attack")
    assert {"the word 'damage'", "the word 'cost'"} <= set(info.value.expected)
    with pytest.raises(CardTextError) as info:
        parse("Flip when your rival plays a High attack", "Event")
    assert info.value.reason == "the line ends too early"
    assert info.value.expected == ["the word 'card'", "a period"]


def test_over_length_text_is_rejected() -> None:
    text = "\n".join(["Draw a card."] * 200)
    assert len(text) > MAX_TEXT_LENGTH
    with pytest.raises(CardTextError, match="exceeds the limit"):
        parse(text, "Attack")


def test_lenient_keeps_what_it_can() -> None:
    tree = parse_lenient("Knock Down.\nDraw a card. Juggle three moons.", "Attack")
    assert tree.abilities[0] == Keyword("knock_down")
    assert tree.abilities[1] == Spell((Draw("you", 1), Unknown("Juggle three moons.")))
    assert unknown_parts(tree) == ["Juggle three moons."]


def test_render_refuses_what_no_template_says() -> None:
    with pytest.raises(RenderError):
        render(CardText((Spell((EpicBattlesKnockDown("you"),)),)))
    with pytest.raises(RenderError):
        render(CardText((EpicBattlesRestriction("game", ("not capitalised",)),)))
    with pytest.raises(RenderError):
        render(CardText((Spell((Modify(THIS_ATTACK, "speed", 1),)),)))


# ------------------------------------------------------------- property round trip

NUMBERS = st.integers(min_value=0, max_value=25)
COUNTS: st.SearchStrategy[Amount] = st.one_of(NUMBERS, st.just(Var("X")))
WHO: st.SearchStrategy[Who] = st.sampled_from(cast(list[Who], ["you", "opponent", "each"]))
OTHERS: st.SearchStrategy[Who] = st.sampled_from(cast(list[Who], ["opponent", "each"]))
PLAYERS = WHO.map(lambda w: Selector("each", "player") if w == "each"
                  else Selector("the", "player", owner=w))
KINDS = st.sampled_from(["card", "Attack", "Block", "Event"])
LABELS = st.from_regex(r"[A-Z][a-z]{0,7}(-[A-Z][a-z]{1,5})?", fullmatch=True)
MAYBE_LABEL = st.one_of(st.none(), LABELS)
ZONES = st.sampled_from(["hand", "deck", "discard pile", "energy pile", "arena"])
DURATIONS = st.one_of(st.none(), st.sampled_from(
    [Duration(u) for u in ("end_of_turn", "end_of_round", "end_of_combo", "your_next_turn")]))
COMPARISONS = st.tuples(st.sampled_from(["==", ">=", "<="]), COUNTS)
NAME_WORDS = st.from_regex(r"[A-Z][a-z]{1,8}", fullmatch=True).filter(lambda w: w != "Side")
NAMES = st.lists(NAME_WORDS, min_size=1, max_size=3).map(" ".join)

REFS = st.one_of(
    st.builds(Selector, st.sampled_from(["this", "that"]), KINDS),
    st.builds(lambda k, o, label: Selector("each", k, owner=o, team=label), KINDS,
              st.sampled_from(["you", "opponent"]), MAYBE_LABEL),
)
SUBJECTS = st.one_of(PLAYERS, REFS)


@st.composite
def some_cards(draw: st.DrawFn, allow_plain: bool) -> Selector:
    """``a block``, ``two Kick attacks``, ``up to X cards``."""
    quantifier = draw(st.sampled_from(["a", "up_to"]))
    kind, label = draw(KINDS), draw(MAYBE_LABEL)
    count = draw(COUNTS)
    if quantifier == "a" and kind == "card" and label is None and not allow_plain:
        label = "Kick"
    return Selector(quantifier, kind, count=count, team=label)  # type: ignore[arg-type]


FROM_ZONE = st.builds(
    lambda s, z: Selector(s.quantifier, s.type, count=s.count, owner="you", zone=z, team=s.team),
    some_cards(allow_plain=True), ZONES)
TOP = st.builds(lambda n, z: Selector("the", "card", count=n, owner="you", zone=z), COUNTS, ZONES)

ACTIONS = st.one_of(
    st.sampled_from(["be blocked", "flip events", "link attacks", "recover", "pass"]),
    LABELS.map(lambda label: f"be blocked by {label} blocks"),
    LABELS.map(lambda label: f"block {label} attacks"),
    st.builds(lambda label, k: f"play {label + ' ' if label else ''}{k}", MAYBE_LABEL,
              st.sampled_from(["cards", "attacks", "blocks", "events"])),
)

STATES = st.sampled_from(["knocked_down", "launched", "aggressor"])
CONDITIONS = st.one_of(
    st.builds(lambda op, s, p: Condition("state", op, s, of=p), st.sampled_from(["is", "not"]),
              STATES, PLAYERS),
    st.builds(lambda c, w, z: Condition("cards", c[0], c[1],
                                        of=Selector("the", "card", owner=w, zone=z)),
              COMPARISONS, WHO, ZONES),
    COMPARISONS.map(lambda c: Condition("combo", c[0], c[1])),  # type: ignore[arg-type]
)

SIMPLE_STEPS: st.SearchStrategy[Step] = st.one_of(
    st.builds(Draw, WHO, COUNTS),
    st.builds(Discard, WHO, COUNTS),
    st.builds(lambda w, s: Discard(w, s.count, what=s), WHO, some_cards(allow_plain=False)),
    st.builds(Scrap, WHO, COUNTS),
    st.builds(EpicBattlesChip, WHO, COUNTS),
    st.builds(Deal, COUNTS, PLAYERS),
    st.builds(EpicBattlesPay, COUNTS),
    st.builds(EpicBattlesPut, st.one_of(KINDS.map(lambda k: Selector("this", k)), TOP, FROM_ZONE),
              st.one_of(ZONES, st.sampled_from(["deck top", "deck bottom"]))),
    st.builds(EpicBattlesRemove, FROM_ZONE),
    st.builds(lambda z, s, t: Search("you", z, s, to=t), ZONES, some_cards(allow_plain=True),
              ZONES),
    TOP.map(Reveal),
    st.builds(lambda w, n: Reveal(Selector("the", "card", count=n, owner=w, zone="deck")),
              OTHERS, COUNTS),
    st.just(Shuffle("you", "deck")),
    st.builds(lambda q, k: Negate(Selector(q, k)), st.sampled_from(["this", "that"]), KINDS),
    st.builds(EpicBattlesRecover, WHO),
    st.builds(EpicBattlesKnockDown, OTHERS, st.sampled_from(["knock_down", "launch"])),
    st.builds(EpicBattlesTaunt, OTHERS),
    st.builds(Modify, REFS, st.sampled_from(["damage", "cost"]),
              st.one_of(st.integers(-25, 25), st.just(Var("X"))), DURATIONS),
    st.builds(EpicBattlesLink, SUBJECTS, st.one_of(
        KINDS.map(lambda k: Selector("each", k)),
        st.builds(lambda k, label: Selector("a", k, team=label), KINDS, MAYBE_LABEL),
        KINDS.map(lambda k: Selector("this", k))), st.booleans(), DURATIONS),
    st.builds(EpicBattlesGain, REFS, LABELS, st.sampled_from(["trait", "follow_up"]), DURATIONS),
    st.builds(Prohibit, SUBJECTS, ACTIONS, DURATIONS),
    st.builds(Permit, SUBJECTS, ACTIONS, DURATIONS),
)
STEP_LISTS = st.lists(SIMPLE_STEPS, min_size=1, max_size=3).map(tuple)

CLAUSES: st.SearchStrategy[Step] = st.one_of(
    SIMPLE_STEPS,
    STEP_LISTS.map(lambda s: May("you", s)),
    st.builds(If, CONDITIONS, st.one_of(STEP_LISTS, STEP_LISTS.map(lambda s: (May("you", s),)))),
    st.builds(Delay, st.sampled_from(["end_of_round", "end_of_turn", "end_of_combo"]),
              STEP_LISTS),
)
EFFECTS = st.lists(CLAUSES, min_size=1, max_size=3).map(tuple)

KIND_EVENTS = st.builds(
    lambda e, w, k, label: Trigger(e, who=w, subject=Selector("a", k, team=label)),
    st.sampled_from(["played", "blocked", "flipped"]), WHO, KINDS, MAYBE_LABEL)
TRIGGERS = st.one_of(
    st.sampled_from([HIT, Trigger("blocked", subject=THIS_ATTACK), Trigger("combo_ends"),
                     Trigger("turn_begins", who="each"), Trigger("turn_ends", who="each")]),
    MAYBE_LABEL.map(lambda label: Trigger("hit", who="you",
                                          subject=Selector("a", "Attack", team=label))),
    KIND_EVENTS,
    st.builds(lambda e, w: Trigger(e, who=w),
              st.sampled_from(["knocked_down", "launched", "dealt_damage", "chipped",
                               "recovered"]), WHO),
    st.builds(lambda e, p: Trigger(e, phase=p), st.sampled_from(["phase_begins", "phase_ends"]),
              st.sampled_from(["Draw", "Set", "Action", "Discard"])),
)

COMMON_ABILITIES: st.SearchStrategy[Ability] = st.one_of(
    st.builds(lambda c, e: Activated(c, e, alternative=True), STEP_LISTS, EFFECTS),
    st.builds(Triggered, TRIGGERS, EFFECTS),
    TRIGGERS.map(lambda t: Triggered(t, (EpicBattlesFlip(),))),
    st.builds(lambda c, e: Passive(e, condition=c), CONDITIONS, EFFECTS),
    st.builds(Replacement, st.builds(lambda e, p: Trigger(e, subject=p),
                                     st.sampled_from(["dealt_damage", "chipped", "knocked_down",
                                                      "launched"]), PLAYERS), STEP_LISTS),
    st.builds(Conditional, st.one_of(st.none(), CONDITIONS),
              st.sampled_from(["combo", "combo_start"])),
    CONDITIONS.map(lambda c: Conditional(condition=c)),
    st.sampled_from([Keyword("knock_down"), Keyword("launcher"), Keyword("side_deck_only"),
                     Keyword("flip_any_time")]),
    st.builds(EpicBattlesRestriction, st.sampled_from(["game", "character"]),
              st.lists(NAMES, min_size=1, max_size=3).map(tuple)),
    st.integers(0, 99).map(EpicBattlesLimit),
    st.builds(EpicBattlesLinkBar, st.sampled_from(["traits", "follow_ups"]),
              st.lists(LABELS, min_size=1, max_size=3).map(tuple)),
)


@st.composite
def card_texts(draw: st.DrawFn) -> tuple[str | None, CardText]:
    """A card type and a tree the grammar can produce for a card of that type."""
    card_type = draw(st.sampled_from([None, "Character", "Attack", "Block", "Event",
                                      "Attack (Low)", "Unit (Fire)"]))
    if card_type in ("Attack", "Block", "Event", "Attack (Low)"):
        own = st.one_of(EFFECTS.map(Spell), st.builds(lambda c, e: Spell(e, cost=c),
                                                      STEP_LISTS, EFFECTS))
    elif card_type == "Character":
        own = st.one_of(EFFECTS.map(Passive), st.builds(Activated, STEP_LISTS, EFFECTS))
    else:
        own = st.one_of(EFFECTS.map(Spell), st.builds(Activated, STEP_LISTS, EFFECTS))
    abilities = draw(st.lists(st.one_of(own, COMMON_ABILITIES), min_size=0, max_size=4))
    return card_type, CardText(tuple(abilities))


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(card_texts())
def test_round_trip_property(case: tuple[str | None, CardText]) -> None:
    card_type, tree = case
    text = render(tree)
    if len(text) > MAX_TEXT_LENGTH:
        return
    assert parse(text, card_type) == tree, text
    assert from_json(to_json(tree)) == tree


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120))
def test_lenient_never_fails(text: str) -> None:
    assert isinstance(parse_lenient(text, "Attack"), CardText)


_PIECES = ["Deal 2 damage.", "HIT: draw a card.", "Hit - gain 1 health.", "Knock Down.", "Launcher.",
           "Limit 1 per turn.", "Traits: Fire.", "Follow-up: Kick.", "Only playable on your turn.",
           "Flip this card.", "Side Deck only.", "Brawler Only.", "Draw a card.", "Hitting hard.",
           "Limited draw.", "Only", "nly.", "Follow", "Trait", "flip a coin.", "  "]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=5), st.sampled_from(["", " ", "  "]))
def test_a_line_left_whole_is_one_the_full_cut_leaves_whole(pieces: list[str], gap: str) -> None:
    """``split`` spares a line the full cut (``_segments``) when it has one sentence or
    none of the words a cut needs; on any line the pieces are those of the full cut."""
    from grammar.epic_battles import _segments

    line = (" " + gap).join(pieces)
    if not line.strip():
        return
    assert split(line) == [(1, piece) for piece in _segments(line)]
