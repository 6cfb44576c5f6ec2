"""Turn card text into the effect AST of :mod:`grammar.ast`.

The public entry points are :func:`parse` (strict: any wording outside the templates is
an error) and :func:`parse_lenient` (never fails on wording: what it cannot read becomes
:class:`~grammar.ast.Unknown` steps). Both read one ability per line; every ability
ends with a period.

How a line becomes an ability
-----------------------------
Most lines say on their own which kind of ability they are: a trigger before a comma
makes a :class:`~grammar.ast.Triggered`, ``While ...,`` a conditioned
:class:`~grammar.ast.Passive`, ``If ... would ..., ... instead.`` a
:class:`~grammar.ast.Replacement`, ``Play only ...`` a
:class:`~grammar.ast.Conditional`, ``Alternatively, COST; EFFECT.`` an alternative-cost
:class:`~grammar.ast.Activated`, and the two keyword lines a
:class:`~grammar.ast.Keyword`.

Two shapes depend on the kind of card, which the words alone cannot tell, so the
caller passes ``card_type``:

* ``COST; EFFECT.`` is a :class:`~grammar.ast.Spell` with an additional cost on the
  cards that resolve and leave (Legend, Potion, Food, Paint Brush) and an
  :class:`~grammar.ast.Activated` ability on everything else, including when
  ``card_type`` is ``None``.
* Plain sentences are the :class:`~grammar.ast.Spell` effect of those same four types
  (and when ``card_type`` is ``None``), and a :class:`~grammar.ast.Passive` ability on
  any other card type (Neopet, Rainbow Pool Neopet, Equipment, Faerie, Hero, Villain,
  Location, Codestone, Map Piece).

Grammars
--------
``grammar/core.lark`` holds the sentence structure the games share and
``grammar/<game>.lark`` extends it. Each game's parser is built once (LALR(1) with the
contextual lexer, the tree builder passed in so a parse returns AST nodes directly) and
kept in a module-level dict; Lark's cache file lives in the user cache directory when
that is writable. The parsers run with the lexer and parse loop of ``grammar/lexer.py``,
which find the same tokens, trees and errors as Lark's own, sooner.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, cast

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternRE, PatternStr

from grammar import lexer as fast
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
)
from grammar.tree_cache import user_cache_file

__all__ = [
    "CARD_TYPES",
    "GAMES",
    "MAX_TEXT_LENGTH",
    "PERMANENT_TYPES",
    "SPELL_TYPES",
    "CardTextError",
    "CoreBuilder",
    "GameGrammar",
    "get_parser",
    "grammar_of",
    "parse",
    "parse_lenient",
]

GAMES: tuple[str, ...] = ("neopets", "bakugan", "ttcg", "battle_monsters", "epic_battles")
"""Games with a grammar: ``grammar/<game>.lark`` for each name."""

MAX_TEXT_LENGTH = 2000
"""Longest card text (in characters) the parser accepts."""

SPELL_TYPES: frozenset[str] = frozenset({"Legend", "Potion", "Food", "Paint Brush"})
"""Card types whose text is what they do as they resolve (plain lines become Spells)."""

PERMANENT_TYPES: frozenset[str] = frozenset(
    {
        "Neopet",
        "Rainbow Pool Neopet",
        "Equipment",
        "Faerie",
        "Hero",
        "Villain",
        "Location",
        "Codestone",
        "Map Piece",
    }
)
"""Card types that stay around, so plain lines on them are Passive abilities."""

CARD_TYPES: frozenset[str] = SPELL_TYPES | PERMANENT_TYPES
"""Every ``card_type`` value :func:`parse` accepts (besides ``None``)."""

_GRAMMAR_DIR = Path(__file__).resolve().parent
_PARSERS: dict[str, Lark] = {}
_READERS: dict[str, tuple[Lark, GameGrammar, Callable[[str], Any]]] = {}
_YOU: Who = "you"


# --------------------------------------------------------------------------- errors


class CardTextError(ValueError):
    """Card text that does not follow the templates.

    ``line`` and ``column`` are 1-based positions in the whole text; ``text`` is the
    offending line; ``expected`` lists, in plain words, what could have come at that
    point (empty when the whole text is refused, e.g. for its length).
    """

    def __init__(
        self,
        reason: str,
        *,
        line: int,
        column: int,
        text: str,
        expected: Iterable[str] = (),
    ) -> None:
        self.reason = reason
        self.line = line
        self.column = column
        self.text = text
        self.expected: list[str] = list(expected)
        super().__init__(reason)

    def __str__(self) -> str:
        caret = " " * max(self.column - 1, 0) + "^"
        out = f"line {self.line}, column {self.column}: {self.reason}\n{self.text}\n{caret}"
        if self.expected:
            out += "\nexpected: " + ", ".join(self.expected)
        return out


# ------------------------------------------------------------------ tree building


def _player(who: str) -> Selector:
    """The selector for a player seen from the ability's controller."""
    if who == "each":
        return Selector("each", "player")
    return Selector("the", "player", owner=who)  # type: ignore[arg-type]


def _neopet(owner: str) -> Selector:
    """The selector for one player's active Neopet."""
    return Selector("the", "Neopet", owner=owner)  # type: ignore[arg-type]


def _const(value: Any) -> Callable[[CoreBuilder, list[Any]], Any]:
    """A callback that ignores its children and returns ``value`` (the fast loop knows it: :func:`grammar.lexer.constant`)."""
    return fast.constant(value)


_first = fast.first_child
"""A callback that passes its only child through (the fast loop takes the child without calling it)."""


class CoreBuilder(Transformer):  # type: ignore[type-arg]
    """Lark callbacks that build AST nodes while the LALR parser reduces.

    Rules imported from ``core.lark`` reach here with a ``core__`` prefix on their
    alias; :meth:`__getattr__` strips it so each callback is written once.
    Plain lines come out as :class:`Spell` and costed lines as :class:`Activated`;
    :func:`_settle` turns them into what the card type calls for.
    """

    tokens_as_text = False
    """True when every callback reads the tokens it gets as text alone (their words as
    a ``str``, never their type or position, and no Token kept in a tree): the fast loop
    then hands plain strings (see :func:`grammar.lexer.plugins`)."""

    def __getattr__(self, name: str) -> Any:
        prefix, sep, rest = name.partition("__")
        if sep and prefix and rest and not name.startswith("__"):
            return getattr(self, rest)
        raise AttributeError(name)

    def __default__(self, data: Any, children: list[Any], meta: Any) -> Any:
        if str(data).startswith("_"):
            # Lark's own helper rules (for "+", "*"...) are inlined into their parent;
            # the tree builder only does that for Tree objects.
            return Tree(data, children)
        raise RuntimeError(f"no AST builder for grammar rule {data!r}")

    __default__.helper_tree = Tree  # type: ignore[attr-defined]  # the fast loop makes these Trees itself

    # ---- ability lines
    start = _first

    def plain_ability(self, c: list[Any]) -> Ability:
        return Spell(effect=c[0])

    def costed_ability(self, c: list[Any]) -> Ability:
        return Activated(cost=c[0], effect=c[1])

    def alternative_ability(self, c: list[Any]) -> Ability:
        return Activated(cost=c[0], effect=c[1], alternative=True)

    def triggered_ability(self, c: list[Any]) -> Ability:
        return Triggered(trigger=c[0], effect=c[1])

    def while_ability(self, c: list[Any]) -> Ability:
        return Passive(effect=c[1], condition=c[0])

    def replacement_ability(self, c: list[Any]) -> Ability:
        return Replacement(event=c[0], effect=c[1])

    def conditional_ability(self, c: list[Any]) -> Ability:
        timing = next((x for x in c if isinstance(x, str)), None)
        condition = next((x for x in c if isinstance(x, Condition)), None)
        return Conditional(condition=condition, timing=timing)

    def map_piece_keyword(self, c: list[Any]) -> Ability:
        return Keyword("map_piece", str(c[0]))

    rainbow_pool_keyword = _const(Keyword("rainbow_pool"))

    opponent_turn = _const("opponent_turn")
    your_turn = _const("your_turn")
    battle_phase = _const("battle_phase")
    after_roll = _const("after_roll")

    # ---- effects and lists
    def effect(self, c: list[Any]) -> tuple[Step, ...]:
        return tuple(c)

    cost = _first

    def step_list(self, c: list[Any]) -> tuple[Step, ...]:
        return tuple(c)

    def single_step(self, c: list[Any]) -> tuple[Step, ...]:
        return (c[0],)

    def may_clause(self, c: list[Any]) -> Step:
        return May(_YOU, c[0])

    def if_clause(self, c: list[Any]) -> Step:
        return If(c[0], c[1])

    def delay_clause(self, c: list[Any]) -> Step:
        return Delay(c[0], c[1])

    end_of_round = _const("end_of_round")
    end_of_turn = _const("end_of_turn")

    # ---- can't / can
    def prohibit_step(self, c: list[Any]) -> Step:
        return Prohibit(c[0], c[1], c[2] if len(c) > 2 else None)

    def permit_step(self, c: list[Any]) -> Step:
        return Permit(c[0], c[1], c[2] if len(c) > 2 else None)

    def player_subject(self, c: list[Any]) -> Selector:
        return _player(c[0])

    play_any_cards = _const("play cards")
    attack_action = _const("attack")
    defend_action = _const("defend")

    def play_type_cards(self, c: list[Any]) -> str:
        return f"play {c[0]}"

    # ---- players
    you = _const("you")
    opponent = _const("opponent")
    each_player = _const("each")
    player = _first

    # ---- triggers
    def turn_begins(self, c: list[Any]) -> Trigger:
        return Trigger("turn_begins", who=c[0])

    def turn_ends(self, c: list[Any]) -> Trigger:
        return Trigger("turn_ends", who=c[0])

    def phase_begins(self, c: list[Any]) -> Trigger:
        return Trigger("phase_begins", who=c[0], phase=c[1])

    def phase_ends(self, c: list[Any]) -> Trigger:
        return Trigger("phase_ends", who=c[0], phase=c[1])

    def when_dealt_damage(self, c: list[Any]) -> Trigger:
        return Trigger("dealt_damage", subject=c[0])

    def when_you_play(self, c: list[Any]) -> Trigger:
        return Trigger("played", who="you", subject=Selector("a", c[0]))

    def when_opponent_plays(self, c: list[Any]) -> Trigger:
        return Trigger("played", who="opponent", subject=Selector("a", c[0]))

    def when_attached(self, c: list[Any]) -> Trigger:
        return Trigger("attached", who=c[0], subject=Selector("a", "Codestone"))

    when_you_roll = _const(Trigger("rolled", who="you"))
    when_opponent_rolls = _const(Trigger("rolled", who="opponent"))

    draw_phase = _const("Draw")
    train_phase = _const("Train")
    preparation_phase = _const("Preparation")
    battle_phase_name = _const("Battle")

    def would_be_dealt_damage(self, c: list[Any]) -> Trigger:
        return Trigger("dealt_damage", subject=c[0])

    def would_be_frozen(self, c: list[Any]) -> Trigger:
        return Trigger("frozen", subject=c[0])

    # ---- conditions
    def result_condition(self, c: list[Any]) -> Condition:
        op, value = c[0]
        return Condition("result", op, value)

    def damage_condition(self, c: list[Any]) -> Condition:
        op, value = c[1]
        return Condition("damage", op, value, of=c[0])

    def controls_condition(self, c: list[Any]) -> Condition:
        return Condition("controls", "has", c[1], of=_player(c[0]))

    def map_pieces_condition(self, c: list[Any]) -> Condition:
        op, value = c[1]
        return Condition("map_pieces", op, value, of=_player(c[0]))

    def exactly(self, c: list[Any]) -> tuple[str, Any]:
        return ("==", c[0])

    def at_least(self, c: list[Any]) -> tuple[str, Any]:
        return (">=", c[0])

    def at_most(self, c: list[Any]) -> tuple[str, Any]:
        return ("<=", c[0])

    # ---- durations
    until_end_of_turn = _const(Duration("end_of_turn"))
    until_end_of_round = _const(Duration("end_of_round"))
    until_your_next_turn = _const(Duration("your_next_turn"))
    during_next_battle_phase = _const(Duration("next_battle_phase"))
    this_phase = _const(Duration("this_phase"))

    # ---- numbers
    x_var = _const(Var("X"))

    def digits(self, c: list[Token]) -> int:
        return int(c[0])

    def word_number(self, c: list[Token]) -> int:
        return _WORD_VALUES[str(c[0])]

    # ---- Neopets steps
    def draw_you(self, c: list[Any]) -> Step:
        return Draw(_YOU, c[0])

    def draw_other(self, c: list[Any]) -> Step:
        return Draw(c[0], c[1])

    def discard_you(self, c: list[Any]) -> Step:
        return Discard(_YOU, c[0])

    def discard_other(self, c: list[Any]) -> Step:
        return Discard(c[0], c[1])

    def scrap_you(self, c: list[Any]) -> Step:
        return Scrap(_YOU, c[0])

    def scrap_other(self, c: list[Any]) -> Step:
        return Scrap(c[0], c[1])

    one_card = _const(1)
    card_count = _first

    def send_step(self, c: list[Any]) -> Step:
        return Send(c[0], c[1])

    this_card = _const(Selector("this"))
    attached_codestone = _const(
        Selector("a", "Codestone", owner="you", zone="Codestone Slots")
    )

    def target_card(self, c: list[Any]) -> Selector:
        return Selector("target", c[0])

    your_pile = _first
    owners_pile = _first
    discard_pile = _const("Discard")
    void_pile = _const("Void")

    def deal_step(self, c: list[Any]) -> Step:
        return Deal(c[0], c[1])

    def deal_result(self, c: list[Any]) -> Step:
        return Deal(Var("result"), c[0])

    def heal_step(self, c: list[Any]) -> Step:
        return Heal(c[0], c[1])

    def search_step(self, c: list[Any]) -> Step:
        return Search(_YOU, c[0], c[1])

    main_deck = _const("Main Deck")
    discard_zone = _const("Discard")
    inventory_zone = _const("Inventory")

    def search_what(self, c: list[Any]) -> Selector:
        return Selector("a", c[0])

    def named_card(self, c: list[Any]) -> Selector:
        return Selector("a", c[0], name_contains=str(c[1])[1:-1])

    def reveal_step(self, c: list[Any]) -> Step:
        return Reveal(Selector("a", c[0], owner="you", zone="Inventory"))

    def freeze_step(self, c: list[Any]) -> Step:
        return Freeze(c[0])

    def immune_step(self, c: list[Any]) -> Step:
        return Immune(c[0], c[1], c[2] if len(c) > 2 else None)

    frozen = _const("frozen")
    damage = _const("damage")

    def negate_step(self, c: list[Any]) -> Step:
        return Negate(Selector("target", c[0], zone="queue"))

    def negate_abilities(self, c: list[Any]) -> Step:
        return Negate(c[0])

    transform_step = _const(Transform())

    def attach_step(self, c: list[Any]) -> Step:
        return Attach(Selector("a", "Codestone", owner="you", zone=c[0]), _neopet("you"))

    def modify_step(self, c: list[Any]) -> Step:
        return Modify(c[0], c[2], c[1], c[3] if len(c) > 3 else None)

    plus = _first

    def minus(self, c: list[Any]) -> int:
        return -c[0]

    attack = _const("Attack")
    defence = _const("Defence")
    agility = _const("Agility")
    hit_points = _const("Hit Points")

    def roll_you(self, c: list[Any]) -> Step:
        die, count = c[0]
        return Roll(_YOU, die, count)

    def roll_opponent(self, c: list[Any]) -> Step:
        die, count = c[0]
        return Roll("opponent", die, count)

    def one_die(self, c: list[Any]) -> tuple[str, int]:
        return (c[0], 1)

    def some_dice(self, c: list[Any]) -> tuple[str, int]:
        return (c[1], c[0])

    d6 = _const("d6")
    d3 = _const("d3")

    abandon_step = _const(Abandon())
    shuffle_step = _const(Shuffle(_YOU))
    stay_in_play_step = _const(StayInPlay())

    def reroll_step(self, c: list[Any]) -> Step:
        return Reroll(_YOU, c[0])

    def extra_play_step(self, c: list[Any]) -> Step:
        return Permit(_player(_YOU), "play an additional card", c[0] if c else None)

    your_neopet = _const(_neopet("you"))
    opponent_neopet = _const(_neopet("opponent"))
    each_neopet = _const(Selector("each", "Neopet"))
    target_neopet = _const(Selector("target", "Neopet"))

    card_kind = _first
    any_card = _const("card")
    codestone = _const("Codestone")
    equipment = _const("Equipment")
    faerie = _const("Faerie")
    food = _const("Food")
    potion = _const("Potion")
    legend = _const("Legend")
    paint_brush = _const("Paint Brush")
    location = _const("Location")
    map_piece = _const("Map Piece")
    hero = _const("Hero")
    villain = _const("Villain")



# ------------------------------------------------------------------ games


@dataclass(frozen=True)
class GameGrammar:
    """How one game's card text is read and written.

    Neopets' is defined in this module; every other game's is the ``GRAMMAR`` of
    ``grammar/<game>.py``, next to its ``grammar/<game>.lark`` and
    ``grammar/<game>_nodes.py``.
    """

    game: str
    builder: type[CoreBuilder]
    """The tree builder (a :class:`CoreBuilder` subclass with the game's callbacks)."""
    card_types: frozenset[str] | None = None
    """The ``card_type`` values :func:`parse` accepts, or ``None`` for any string."""
    settle: Callable[[Ability, str | None], Ability] = field(default=lambda ability, card_type: ability)
    """Give a parsed line the kind of ability its card type calls for."""
    split: Callable[[str], list[tuple[int, str]]] | None = None
    """Cut a text into ability lines with 1-based line numbers (default: by newline)."""
    split_read: Callable[[str, Callable[[str], Any]], list[tuple[str, Any]]] | None = None
    """Cut a text like ``split`` and read each of its lines with the reader passed in.

    For a game whose cut reads lines to decide where they end (Battle Monsters joins
    two printed lines when they read as one): :func:`parse_lenient` takes the lines
    and their readings (an ability, or :data:`grammar.lexer.NO_PARSE`) from here, so a
    line the cut has read already is not read a second time. ``None``: ``split``, then
    each line read once.
    """
    render: Callable[[CardText], str] | None = None
    """The canonical renderer of the game (:func:`grammar.render.render` dispatches here)."""
    pool_text: Callable[[dict[str, Any]], str] = field(default=lambda record: str(record.get("text") or ""))
    """The card text of one record of a public card pool (JSON Lines: name, type, stats, text).

    A game whose pools keep part of the wording outside ``text`` (TTCG's effect types)
    puts it back here.
    """
    pool_fields: Callable[[dict[str, Any]], dict[str, Any]] = field(default=lambda record: {})
    """The card fields of our format (``level``, ``traits``, ``stats``, ``cost``...) that a
    record of a public card pool keeps in a shape of its own: its numbers as text, its
    factions or sub-types among its stats. A field left out keeps what the record says
    under that key (``stats`` and ``cost`` as they are). Never raises: a value the game
    cannot read is left out, and the rules then see the card without it.
    """
    pool_printing: Callable[[dict[str, Any]], str | None] = field(default=lambda record: None)
    """What tells apart two printings of one name in a card pool, or ``None`` where a later
    record of a name is a newer revision of the same card.

    A pool holding records of one name with different printings keeps each as a card of
    its own, named ``"Name (printing)"``.
    """


def printed_number(value: Any) -> int | None:
    """A number as a card pool prints it: ``7``, ``"345"``, ``"+15"``, ``"-10"``; else ``None``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d{1,9}\s*", value):
        return int(value)
    return None


def grammar_of(game: str) -> GameGrammar:
    """The :class:`GameGrammar` of ``game``; raises ValueError for an unknown game."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; known games: {', '.join(GAMES)}")
    if game == "neopets":
        return NEOPETS
    module = importlib.import_module(f"grammar.{game}")
    found = module.GRAMMAR
    assert isinstance(found, GameGrammar)
    return found


NUMBER_WORDS: tuple[str, ...] = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
)
"""Numbers in words, zero to ten (index = value): read by every grammar, written by every renderer."""
_WORD_VALUES: dict[str, int] = {w: i for i, w in enumerate(NUMBER_WORDS)}


# ------------------------------------------------------------------ parser building


def _grammar_files(game: str) -> list[Path]:
    """The grammar files a game's parser is built from (the game's own file first)."""
    return [_GRAMMAR_DIR / f"{game}.lark", _GRAMMAR_DIR / "core.lark"]


def _cache_path(game: str) -> str | Literal[False]:
    """Where Lark may keep its cache for ``game``, or ``False`` when nowhere is writable.

    The file name carries a digest of every grammar file, so an edited grammar never
    loads a stale table.
    """
    digest = hashlib.sha256()
    for path in _grammar_files(game):
        digest.update(path.read_bytes())
    target = user_cache_file(f"lark-{game}-{digest.hexdigest()[:20]}.cache")
    return str(target) if target is not None else False


def _build(game: str, cache: str | Literal[False], *, plain: bool = False) -> Lark:
    """Build a game's LALR parser with the AST builder wired in.

    The parser runs with the lexer and LALR loop of :mod:`grammar.lexer`, which decide
    exactly as Lark's own (``plain=True`` builds Lark's own, for comparison).
    """
    return Lark.open(
        str(_GRAMMAR_DIR / f"{game}.lark"),
        parser="lalr",
        lexer="contextual",
        transformer=grammar_of(game).builder(),
        cache=cache,
        propagate_positions=False,
        maybe_placeholders=False,
        _plugins={} if plain else fast.plugins(text_tokens=grammar_of(game).builder.tokens_as_text),
    )


def get_parser(game: str = "neopets") -> Lark:
    """The (shared, built once) Lark parser of ``game``; raises ValueError if unknown."""
    parser = _PARSERS.get(game)
    if parser is None:
        grammar_of(game)
        cache = _cache_path(game)
        lark_logger = logging.getLogger("lark")
        old_level = lark_logger.level
        lark_logger.setLevel(logging.CRITICAL)  # a broken cache file is rebuilt, quietly
        try:
            parser = _build(game, cache)
        except OSError:
            parser = _build(game, False)
        finally:
            lark_logger.setLevel(old_level)
        _PARSERS[game] = parser
    return parser


# ------------------------------------------------------------------ error wording

_PUNCTUATION: dict[str, str] = {
    ".": "a period",
    ",": "a comma",
    ";": "a semicolon",
    "+": "a plus sign",
    "-": "a minus sign",
}

_NAMED_TERMINALS: dict[str, str] = {
    "NUMBER": "a number",
    "NUMBER_WORD": "a number",
    "QUOTED": 'a name in quotes ("...")',
    "LOCATION_NAME": "a Location name",
    "$END": "the end of the line",
}


def _describe_terminal(name: str, parser: Lark) -> list[str]:
    """Plain words for one terminal of the grammar."""
    base = name.rpartition("__")[2] if "__" in name.strip("_") else name
    if base in _NAMED_TERMINALS:
        return [_NAMED_TERMINALS[base]]
    if name in _NAMED_TERMINALS:
        return [_NAMED_TERMINALS[name]]
    term = next((t for t in parser.terminals if t.name == name), None)
    if term is None:
        return [name.lower().strip("_")]
    pattern = term.pattern
    if isinstance(pattern, PatternStr):
        value = pattern.value
        if value in _PUNCTUATION:
            return [_PUNCTUATION[value]]
        return [f"the word '{value}'" if " " not in value else f"the words '{value}'"]
    if isinstance(pattern, PatternRE):
        body = pattern.value
        if body.startswith("(?:") and body.endswith(")"):
            body = body[3:-1]
        options = body.split("|")
        if all(re.fullmatch(r"[A-Za-z' ]+", o) for o in options):
            seen: list[str] = []
            for option in options:
                word = option[0].lower() + option[1:]
                if word not in seen:
                    seen.append(word)
            return [f"the word '{w}'" for w in seen]
    return [name.lower().strip("_")]


def _expected_words(names: Iterable[str], parser: Lark) -> list[str]:
    """Plain, sorted, de-duplicated words for a set of terminal names."""
    words: set[str] = set()
    for name in names:
        words.update(_describe_terminal(name, parser))
    return sorted(words, key=lambda w: (not w.startswith("the word"), w.lower(), w))  # w: one order for Both/both


def _word_at(line_text: str, column: int) -> str:
    """The word (or punctuation mark) that starts at a 1-based column."""
    match = re.match(r"[^\s.,;]+|[.,;]", line_text[column - 1:])
    return match.group(0) if match else line_text[column - 1:column]


def _line_error(exc: UnexpectedInput, line_text: str, line_no: int, parser: Lark) -> CardTextError:
    """Turn a Lark error on one line into a :class:`CardTextError`."""
    column = getattr(exc, "column", None)
    if not isinstance(column, int) or column < 1:
        column = len(line_text) + 1
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        if token.type == "$END":
            reason = "the line ends too early"
            column = len(line_text.rstrip()) + 1
        else:
            reason = f"unexpected word '{_word_at(line_text, column)}'"
        names: Iterable[str] = exc.expected
        interactive = getattr(exc, "interactive_parser", None)
        if interactive is not None:
            try:
                # LALR tables merge look-aheads; ask the parser what truly fits here.
                names = interactive.accepts() or exc.expected
            except Exception:  # noqa: BLE001 # pragma: no cover - fall back to the table's view
                names = exc.expected
        expected = _expected_words(names, parser)
    elif isinstance(exc, UnexpectedCharacters):
        reason = f"unexpected text '{_word_at(line_text, column)}'"
        expected = _expected_words(exc.allowed or (), parser)
    else:  # pragma: no cover - other Lark errors carry no position
        reason = str(exc)
        expected = []
    return CardTextError(reason, line=line_no, column=column, text=line_text, expected=expected)


# ------------------------------------------------------------------------ parsing


def _check_card_type(card_type: str | None, game: GameGrammar) -> None:
    """Refuse card types the game's parser does not know (to catch typos early)."""
    known = game.card_types
    if card_type is not None and known is not None and card_type not in known:
        raise ValueError(
            f"unknown card type {card_type!r}; known types: {', '.join(sorted(known))}"
        )


def _settle(ability: Ability, card_type: str | None) -> Ability:
    """Give plain and costed lines the kind of ability the card type calls for."""
    if isinstance(ability, Activated) and not ability.alternative:
        if card_type in SPELL_TYPES:
            return Spell(effect=ability.effect, cost=ability.cost)
        return ability
    if isinstance(ability, Spell) and card_type in PERMANENT_TYPES:
        return Passive(effect=ability.effect)
    return ability


NEOPETS = GameGrammar("neopets", CoreBuilder, CARD_TYPES, _settle)
"""The Neopets grammar: its builder is :class:`CoreBuilder` itself."""


def _check_length(text: str) -> None:
    """Refuse text over :data:`MAX_TEXT_LENGTH` characters."""
    if len(text) > MAX_TEXT_LENGTH:
        first = text.split("\n", 1)[0]
        raise CardTextError(
            f"the text is {len(text)} characters long, which exceeds the limit of "
            f"{MAX_TEXT_LENGTH}",
            line=1,
            column=1,
            text=first[:80],
        )


def _lines(text: str) -> list[tuple[int, str]]:
    """The non-blank lines of ``text`` with their 1-based numbers."""
    if "\n" not in text:  # one line: no cutting
        return [(1, text.rstrip("\r"))] if text.strip() else []
    return [
        (number, line.rstrip("\r"))
        for number, line in enumerate(text.split("\n"), start=1)
        if line.strip()
    ]


def _run(parser: Lark, line: str) -> Ability:
    """Parse one line; the AST builder wired into the parser makes the result an Ability."""
    return cast(Ability, parser.parse(line))


def _lenient_reading(game: str) -> tuple[GameGrammar, Callable[[str], Any]]:
    """The game's grammar, and its parser as a function from one line to an Ability or :data:`grammar.lexer.NO_PARSE`.

    The function is for callers that only need to know whether a line reads:
    ``NO_PARSE`` stands where :func:`_run` would raise ``UnexpectedInput``, and Lark's
    error report (with the second run that makes it) is skipped. Both are kept per
    game, along with the parser they belong to (a new parser gets a new function).
    Raises ValueError for an unknown game.
    """
    known = _READERS.get(game)
    if known is None or known[0] is not _PARSERS.get(game):
        spec = grammar_of(game)
        parser = get_parser(game)
        known = _READERS[game] = (parser, spec, fast.reader(parser))
    return known[1], known[2]


def _split(text: str, game: GameGrammar) -> list[tuple[int, str]]:
    """The ability lines of ``text`` as the game cuts them."""
    return game.split(text) if game.split is not None else _lines(text)


def _parse_line(line: str, line_no: int, parser: Lark) -> Ability:
    """Parse one ability line, raising :class:`CardTextError` on failure."""
    try:
        return _run(parser, line)
    except UnexpectedInput as exc:
        raise _line_error(exc, line, line_no, parser) from None


def parse(text: str, game: str = "neopets", card_type: str | None = None) -> CardText:
    """Read card text strictly into a :class:`~grammar.ast.CardText`.

    ``text`` holds one ability per line (blank lines are skipped; an empty text is a
    card without abilities). ``card_type`` decides how plain and ``COST; EFFECT`` lines
    are read (see the module docstring). Any wording outside the game's templates
    raises :class:`CardTextError` naming the line, the column and what was expected;
    so does a text longer than :data:`MAX_TEXT_LENGTH` characters.
    """
    spec = grammar_of(game)
    _check_card_type(card_type, spec)
    _check_length(text)
    parser = get_parser(game)
    abilities = [
        spec.settle(_parse_line(line, number, parser), card_type)
        for number, line in _split(text, spec)
    ]
    return CardText(tuple(abilities))


_SENTENCE_END = re.compile(r"(?<=\.)\s+")


def _unknown_ability(steps: tuple[Step, ...], card_type: str | None, spec: GameGrammar) -> Ability:
    """Wrap steps (some of them Unknown) in the plain ability of the card type."""
    return spec.settle(Spell(effect=steps), card_type)


def _lenient_sentences(
    line: str, read: Callable[[str], Any], card_type: str | None, spec: GameGrammar
) -> list[Ability]:
    """A line that does not read as a whole: keep every sentence that reads, mark the rest Unknown.

    ``read`` is the game's reading function of :func:`_lenient_reading`.
    """
    _settle = spec.settle
    sentences = [s for s in _SENTENCE_END.split(line.strip()) if s]
    if len(sentences) <= 1:
        return [_unknown_ability((Unknown(line.strip()),), card_type, spec)]
    out: list[Ability] = []
    pending: list[Step] = []
    for sentence in sentences:
        ability = read(sentence)
        if ability is fast.NO_PARSE:
            pending.append(Unknown(sentence))
            continue
        ability = _settle(ability, card_type)
        if isinstance(ability, (Spell, Passive)) and not getattr(ability, "cost", ()) and (
            getattr(ability, "condition", None) is None
        ):
            pending.extend(ability.effect)
        else:
            if pending:
                out.append(_unknown_ability(tuple(pending), card_type, spec))
                pending = []
            out.append(ability)
    if pending:
        out.append(_unknown_ability(tuple(pending), card_type, spec))
    return out


def parse_lenient(text: str, game: str = "neopets", card_type: str | None = None) -> CardText:
    """Read card text like :func:`parse`, but never fail on the wording.

    A line that does not parse is split into sentences; the sentences that parse keep
    their meaning and the others become :class:`~grammar.ast.Unknown` steps inside a
    Spell (or a Passive on a permanent). Only an over-long text raises
    :class:`CardTextError`; :func:`grammar.ast.unknown_parts` lists what was not read.
    """
    known = _READERS.get(game)
    if known is not None and known[0] is _PARSERS.get(game):  # the common case, without a call
        spec, read = known[1], known[2]
    else:
        spec, read = _lenient_reading(game)
    if card_type is not None and spec.card_types is not None:  # a game that lists its card types
        _check_card_type(card_type, spec)
    if len(text) > MAX_TEXT_LENGTH:
        _check_length(text)
    settle = spec.settle
    abilities: list[Ability] = []
    if spec.split_read is not None:  # the game's cut hands on the readings it made
        for line, ability in spec.split_read(text, read):
            if ability is fast.NO_PARSE:
                abilities.extend(_lenient_sentences(line, read, card_type, spec))
            else:
                abilities.append(settle(ability, card_type))
        return CardText(tuple(abilities))
    lines: Iterable[str]
    if spec.split is not None:
        lines = [line for _number, line in spec.split(text)]
    elif "\n" not in text:  # one line: no cutting (the lines of :func:`_lines`, without their numbers)
        lines = (text.rstrip("\r"),) if text.strip() else ()
    else:
        lines = [line.rstrip("\r") for line in text.split("\n") if line.strip()]
    for line in lines:
        ability = read(line)
        if ability is fast.NO_PARSE:
            abilities.extend(_lenient_sentences(line, read, card_type, spec))
        else:
            abilities.append(settle(ability, card_type))
    return CardText(tuple(abilities))
