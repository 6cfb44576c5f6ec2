"""Reading and writing the card text of Epic Battles.

:data:`GRAMMAR` tells :mod:`grammar.parser` how: the tree builder for
``grammar/epic_battles.lark``, how a line becomes an ability for each card type, how a
card's text is cut into ability lines, and the canonical renderer. The game's own AST
nodes are in :mod:`grammar.epic_battles_nodes`.

Card types
----------
``Character``, ``Attack``, ``Block`` and ``Event``; any other string is accepted too
(card pools print types such as ``Attack (High)``): a type that names ``character``
is read as a character, one that names ``attack``, ``block`` or ``event`` as a card
that is played and then leaves, anything else like ``None``.

* Plain sentences are what the card does when it is played (attacks, blocks) or
  flipped (events): a :class:`~grammar.ast.Spell`; on a character they are a
  :class:`~grammar.ast.Passive` ability.
* ``COST; EFFECT.`` is a Spell with an additional cost on attacks, blocks and events,
  and an :class:`~grammar.ast.Activated` ability on characters and unknown types.

Cutting a line
--------------
The book's attacks carry text before and after the word ``HIT`` (EB.card.attack.text),
and keyword sentences (``Knock Down.``, ``Side Deck Only.``, ``Flip when ...``) may
share a line with effects. :func:`split` therefore cuts every line before ``HIT`` (the
rest of the line is the HIT text) and around keyword sentences; every piece keeps its
line number and is padded with spaces to its column, so errors point into the line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

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
)
from grammar.epic_battles_nodes import (
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
from grammar.lexer import constant, first_child
from grammar.parser import NUMBER_WORDS as _WORDS
from grammar.parser import CoreBuilder, GameGrammar
from grammar.render import RenderError
from grammar.render import capitalise as _cap
from grammar.render import with_article as _a

__all__ = ["GRAMMAR", "THIS_ATTACK", "Builder", "render", "settle", "split"]

THIS_ATTACK = Selector("this", "Attack")
"""The attack whose text is read (the subject of ``HIT``)."""

HIT = Trigger("hit", subject=THIS_ATTACK)
"""The trigger of the text after ``HIT``: this attack is not blocked and deals damage."""

_YOU: Who = "you"


def _const(value: Any) -> Callable[[Builder, list[Any]], Any]:
    """A callback that ignores its children and returns ``value`` (see :func:`grammar.lexer.constant`)."""
    return constant(value)


_first = first_child
"""A callback that passes its only child through (the fast loop takes the child without calling it)."""


def _player(who: str) -> Selector:
    """A player seen from the ability's controller."""
    if who == "each":
        return Selector("each", "player")
    return Selector("the", "player", owner=who)  # type: ignore[arg-type]


def _split_label(c: list[Any]) -> tuple[str | None, list[Any]]:
    """Take an optional LABEL off the front of ``c``, the children of ``LABEL? kind``.

    The kind is always the last child, so a label is there exactly when another child
    comes before it. Telling it by its place rather than by its token type lets the
    callbacks read tokens as plain text (:attr:`Builder.tokens_as_text`); a label's
    words alone could not: a label may be spelt "Attack", as the kind of an attack reads.
    """
    if len(c) > 1:
        return str(c[0]), c[1:]
    return None, c


def _duration_of(c: list[Any]) -> Duration | None:
    """The trailing optional duration of a rule's children."""
    return c[-1] if c and isinstance(c[-1], Duration) else None


class Builder(CoreBuilder):
    """Tree callbacks for the rules of ``grammar/epic_battles.lark`` (the shared ones are inherited)."""

    tokens_as_text = True
    """Every token read here (names, labels, numbers) is read as its words alone, a label
    by its place (:func:`_split_label`): the fast loop hands the plain strings (see
    :attr:`grammar.parser.CoreBuilder.tokens_as_text`)."""

    # ---- ability lines
    def hit_ability(self, c: list[Any]) -> Ability:
        return Triggered(HIT, c[0])

    def flip_ability(self, c: list[Any]) -> Ability:
        return Triggered(c[-1], (EpicBattlesFlip(),))

    flip_any_time = _const(Keyword("flip_any_time"))
    knock_down_keyword = _const(Keyword("knock_down"))
    launcher_keyword = _const(Keyword("launcher"))
    side_deck_only_keyword = _const(Keyword("side_deck_only"))

    def game_only(self, c: list[Any]) -> Ability:
        names = c[0] if isinstance(c[0], tuple) else (str(c[0]),)
        if names == ("Side Deck",):  # "Side Deck only." in small letters
            return Keyword("side_deck_only")
        return EpicBattlesRestriction("game", names)

    def character_only(self, c: list[Any]) -> Ability:
        return EpicBattlesRestriction("character", c[0])

    def names(self, c: list[Any]) -> tuple[str, ...]:
        return tuple(str(t) for t in c)

    def labels(self, c: list[Any]) -> tuple[str, ...]:
        return tuple(str(t) for t in c)

    during_combo = _const("combo")
    combo_start = _const("combo_start")

    def limit_ability(self, c: list[Any]) -> Ability:
        return EpicBattlesLimit(c[0])

    def traits_bar(self, c: list[Any]) -> Ability:
        return EpicBattlesLinkBar("traits", c[0])

    def follow_ups_bar(self, c: list[Any]) -> Ability:
        return EpicBattlesLinkBar("follow_ups", c[0])

    # ---- steps
    def discard_you(self, c: list[Any]) -> Step:
        return self._discard(_YOU, c[0])

    def discard_other(self, c: list[Any]) -> Step:
        return self._discard(c[0], c[1])

    @staticmethod
    def _discard(who: Who, what: Selector | Amount) -> Step:
        if isinstance(what, Selector):
            return Discard(who, what.count, what=what)
        return Discard(who, what)

    plain_cards = _first

    def mill_you(self, c: list[Any]) -> Step:
        return Scrap(_YOU, c[0])

    def mill_other(self, c: list[Any]) -> Step:
        return Scrap(c[0], c[1])

    def chip_you(self, c: list[Any]) -> Step:
        return EpicBattlesChip(_YOU, c[0])

    def chip_other(self, c: list[Any]) -> Step:
        return EpicBattlesChip(c[0], c[1])

    def deal_damage(self, c: list[Any]) -> Step:
        return Deal(c[0], _player(c[1]))

    def take_damage(self, c: list[Any]) -> Step:
        return Deal(c[1], _player(c[0]))

    def pay_step(self, c: list[Any]) -> Step:
        return EpicBattlesPay(c[0])

    def put_step(self, c: list[Any]) -> Step:
        return EpicBattlesPut(c[0], c[1])

    into_zone = _first
    deck_top = _const("deck top")
    deck_bottom = _const("deck bottom")

    def remove_step(self, c: list[Any]) -> Step:
        return EpicBattlesRemove(c[0])

    def search_step(self, c: list[Any]) -> Step:
        return Search(_YOU, c[0], c[1], to=c[2])

    def reveal_you(self, c: list[Any]) -> Step:
        return Reveal(c[0])

    def reveal_other(self, c: list[Any]) -> Step:
        return Reveal(Selector("the", "card", count=c[1], owner=c[0], zone="deck"))

    shuffle_step = _const(Shuffle(_YOU, "deck"))

    def negate_step(self, c: list[Any]) -> Step:
        return Negate(c[0])

    recover_you = _const(EpicBattlesRecover(_YOU))

    def recover_other(self, c: list[Any]) -> Step:
        return EpicBattlesRecover(c[0])

    def knock_down(self, c: list[Any]) -> Step:
        return EpicBattlesKnockDown(c[0], "knock_down")

    def launch(self, c: list[Any]) -> Step:
        return EpicBattlesKnockDown(c[0], "launch")

    def taunt_step(self, c: list[Any]) -> Step:
        return EpicBattlesTaunt(c[0] if c else "opponent")

    def modify_step(self, c: list[Any]) -> Step:
        return Modify(c[0], c[2], c[1], _duration_of(c))

    plus = _first
    damage_stat = _const("damage")
    cost_stat = _const("cost")

    def link_allowed(self, c: list[Any]) -> Step:
        return EpicBattlesLink(c[0], c[1], True, _duration_of(c))

    def link_forbidden(self, c: list[Any]) -> Step:
        return EpicBattlesLink(c[0], c[1], False, _duration_of(c))

    def gain_step(self, c: list[Any]) -> Step:
        return EpicBattlesGain(c[0], str(c[1]), c[2], _duration_of(c))

    trait_part = _const("trait")
    follow_up_part = _const("follow_up")

    # ---- objects
    def this_ref(self, c: list[Any]) -> Selector:
        return Selector("this", c[0])

    def that_ref(self, c: list[Any]) -> Selector:
        return Selector("that", c[0])

    def any_ref(self, c: list[Any]) -> Selector:
        return Selector("each", c[0])

    def a_ref(self, c: list[Any]) -> Selector:
        label, rest = _split_label(c)
        return Selector("a", rest[0], team=label)

    def some_ref(self, c: list[Any]) -> Selector:
        label, rest = _split_label(c[1:])
        return Selector("a", rest[0], count=c[0], team=label)

    def up_to_ref(self, c: list[Any]) -> Selector:
        label, rest = _split_label(c[1:])
        return Selector("up_to", rest[0], count=c[0], team=label)

    def your_group(self, c: list[Any]) -> Selector:
        label, rest = _split_label(c)
        return Selector("each", rest[0], owner="you", team=label)

    def rival_group(self, c: list[Any]) -> Selector:
        label, rest = _split_label(c)
        return Selector("each", rest[0], owner="opponent", team=label)

    def from_zone(self, c: list[Any]) -> Selector:
        sel: Selector = c[0]
        return Selector(sel.quantifier, sel.type, count=sel.count, owner="you", zone=c[1],
                        team=sel.team)

    def top_cards(self, c: list[Any]) -> Selector:
        return Selector("the", "card", count=c[0], owner="you", zone=c[1])

    one = _const(1)
    top_count = _first
    card_count = _first
    kind = _first
    kinds = _first
    def card_kind(self, c: list[Any]) -> str:
        return "card"

    attack_kind = _const("Attack")
    block_kind = _const("Block")
    event_kind = _const("Event")

    hand_zone = _const("hand")
    deck_zone = _const("deck")
    discard_zone = _const("discard pile")
    energy_zone = _const("energy pile")
    arena_zone = _const("arena")

    # ---- can't / can
    be_blocked = _const("be blocked")

    def be_blocked_by(self, c: list[Any]) -> str:
        return f"be blocked by {c[0]} blocks"

    def block_label(self, c: list[Any]) -> str:
        return f"block {c[0]} attacks"

    def play_kinds(self, c: list[Any]) -> str:
        label, rest = _split_label(c)
        words = _PLURALS[rest[0]]
        return f"play {label} {words}" if label else f"play {words}"

    flip_events = _const("flip events")
    link_attacks = _const("link attacks")
    recover_action = _const("recover")
    pass_action = _const("pass")

    # ---- triggers
    this_attack_hits = _const(HIT)
    this_attack_blocked = _const(Trigger("blocked", subject=THIS_ATTACK))

    def attack_hits_you(self, c: list[Any]) -> Trigger:
        label = str(c[0]) if c else None  # "LABEL? attack": the only child is the label
        return Trigger("hit", who="you", subject=Selector("a", "Attack", team=label))

    def _event(self, event: str, who: Who, c: list[Any]) -> Trigger:
        label, rest = _split_label(c)
        return Trigger(event, who=who, subject=Selector("a", rest[0], team=label))

    def you_play(self, c: list[Any]) -> Trigger:
        return self._event("played", _YOU, c)

    def other_plays(self, c: list[Any]) -> Trigger:
        return self._event("played", c[0], c[1:])

    def you_block(self, c: list[Any]) -> Trigger:
        return self._event("blocked", _YOU, c)

    def other_blocks(self, c: list[Any]) -> Trigger:
        return self._event("blocked", c[0], c[1:])

    def you_flip(self, c: list[Any]) -> Trigger:
        return self._event("flipped", _YOU, c)

    def other_flips(self, c: list[Any]) -> Trigger:
        return self._event("flipped", c[0], c[1:])

    def you_become(self, c: list[Any]) -> Trigger:
        return Trigger(c[0], who=_YOU)

    def other_becomes(self, c: list[Any]) -> Trigger:
        return Trigger(c[1], who=c[0])

    you_take_damage = _const(Trigger("dealt_damage", who=_YOU))
    you_chip = _const(Trigger("chipped", who=_YOU))
    you_recover = _const(Trigger("recovered", who=_YOU))

    def other_takes_damage(self, c: list[Any]) -> Trigger:
        return Trigger("dealt_damage", who=c[0])

    def other_chips(self, c: list[Any]) -> Trigger:
        return Trigger("chipped", who=c[0])

    def other_recovers(self, c: list[Any]) -> Trigger:
        return Trigger("recovered", who=c[0])

    combo_ends = _const(Trigger("combo_ends"))
    each_turn_begins = _const(Trigger("turn_begins", who="each"))
    each_turn_ends = _const(Trigger("turn_ends", who="each"))

    def step_begins(self, c: list[Any]) -> Trigger:
        return Trigger("phase_begins", phase=c[0])

    def step_ends(self, c: list[Any]) -> Trigger:
        return Trigger("phase_ends", phase=c[0])

    knocked_down = _const("knocked_down")
    launched = _const("launched")
    draw_step_name = _const("Draw")
    set_step_name = _const("Set")
    action_step_name = _const("Action")
    discard_step_name = _const("Discard")

    def would_take_damage(self, c: list[Any]) -> Trigger:
        return Trigger("dealt_damage", subject=_player(c[0]))

    def would_chip(self, c: list[Any]) -> Trigger:
        return Trigger("chipped", subject=_player(c[0]))

    def would_become(self, c: list[Any]) -> Trigger:
        return Trigger(c[1], subject=_player(c[0]))

    # ---- conditions
    def state_condition(self, c: list[Any]) -> Condition:
        return Condition("state", "is", c[1], of=_player(c[0]))

    def not_state_condition(self, c: list[Any]) -> Condition:
        return Condition("state", "not", c[1], of=_player(c[0]))

    def aggressor_condition(self, c: list[Any]) -> Condition:
        return Condition("state", "is", "aggressor", of=_player(c[0]))

    def not_aggressor_condition(self, c: list[Any]) -> Condition:
        return Condition("state", "not", "aggressor", of=_player(c[0]))

    def cards_condition(self, c: list[Any]) -> Condition:
        op, value = c[1]
        return Condition("cards", op, value, of=Selector("the", "card", owner=c[0], zone=c[2]))

    linked_condition = _const(Condition("combo", ">=", 2))

    def combo_condition(self, c: list[Any]) -> Condition:
        op, value = c[0]
        return Condition("combo", op, value)

    # ---- durations
    until_end_of_combo = _const(Duration("end_of_combo"))
    end_of_combo = _const("end_of_combo")


_PLURALS = {"card": "cards", "Attack": "attacks", "Block": "blocks", "Event": "events"}
_SINGULARS = {"card": "card", "Attack": "attack", "Block": "block", "Event": "event"}


# ------------------------------------------------------------------ card types


def _role(card_type: str | None) -> str | None:
    """``character``, ``played`` (attack, block, event) or ``None`` (unknown)."""
    if card_type is None:
        return None
    low = card_type.lower()
    if "character" in low:
        return "character"
    if "attack" in low or "block" in low or "event" in low:  # no generator: this runs for every line
        return "played"
    return None


def settle(ability: Ability, card_type: str | None) -> Ability:
    """Give plain and costed lines the kind of ability the card type calls for."""
    role = _role(card_type)
    if isinstance(ability, Activated) and not ability.alternative:
        if role == "played":
            return Spell(effect=ability.effect, cost=ability.cost)
        return ability
    if isinstance(ability, Spell) and role == "character":
        return Passive(effect=ability.effect)
    return ability


# ------------------------------------------------------------------ line cutting

_SENTENCE_START = re.compile(r"\.\s+")
_HIT_START = re.compile(r"(?:HIT|Hit)\s*[:-]")
_KEYWORD_SENTENCE = re.compile(
    r"(?:Knock Down|Launcher|Side Deck [Oo]nly|Limit\b.*|Traits?\s*:.*|Follow[- ]ups?\s*:.*"
    r"|Only playable\b.*|Flip\b.*|[A-Z][A-Za-z0-9'-]*(?: [A-Z][A-Za-z0-9'-]*)* [Oo]nly)"
    r"\.\s*"
)

_MAY_CUT = re.compile(r"HIT|Hit|Knock Down|Launcher|Limit|Trait|Follow|Only|Flip|nly\.")
"""Words found in every sentence :func:`_segments` cuts at (each start of ``HIT``, each
alternative of ``_KEYWORD_SENTENCE``, "[Oo]nly." for the ones ending so): :func:`split`
leaves a line without any of them whole."""


def _segments(line: str) -> list[str]:
    """One line cut before ``HIT`` and around keyword sentences, padded to its column."""
    starts = [0] + [m.end() for m in _SENTENCE_START.finditer(line)]
    pieces: list[str] = []
    pending: int | None = None
    pending_end = 0

    def flush() -> None:
        if pending is not None:
            pieces.append(" " * pending + line[pending:pending_end].rstrip())

    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(line)
        sentence = line[start:end].rstrip()
        if not sentence.strip():
            continue
        if _HIT_START.match(sentence):
            flush()
            pieces.append(" " * start + line[start:].rstrip())
            return pieces
        if _KEYWORD_SENTENCE.fullmatch(sentence):
            flush()
            pending = None
            pieces.append(" " * start + sentence)
            continue
        if pending is None:
            pending = start
        pending_end = end
    flush()
    return pieces


def split(text: str) -> list[tuple[int, str]]:
    """The ability lines of ``text`` with their 1-based line numbers (see the module docstring)."""
    out: list[tuple[int, str]] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        if _SENTENCE_START.search(line) is None or _MAY_CUT.search(line) is None:
            # one sentence, or none to cut at: the line is one piece, as _segments finds
            # (no sentence after the first is blank, since the cut takes all the spaces);
            # most lines are, and are spared its work
            out.append((number, line.rstrip()))
        else:
            for piece in _segments(line):
                out.append((number, piece))
    return out


# ----------------------------------------------------------------------- render

_NAME = re.compile(r"[A-Z][A-Za-z0-9'-]*(?: [A-Z][A-Za-z0-9'-]*)*")
_LABEL = re.compile(r"[A-Z][A-Za-z-]*")




def _digits(amount: Amount) -> str:
    """A damage, energy or stat amount: digits, or ``X``."""
    if isinstance(amount, Var):
        if amount == Var("X"):
            return "X"
        raise RenderError(f"no wording for the amount {amount!r}")
    if amount < 0:
        raise RenderError(f"no wording for the negative amount {amount!r}")
    return str(amount)


def _count(amount: Amount) -> str:
    """A count of cards: words up to ten, else digits, or ``X``."""
    if isinstance(amount, int) and 1 <= amount <= 10:
        return _WORDS[amount]
    return _digits(amount)


def _cards(amount: Amount) -> str:
    """``a card``, ``two cards``, ``X cards``."""
    return "a card" if amount == 1 else f"{_count(amount)} cards"




def _label(label: str | None) -> str:
    """A label followed by a space, or nothing."""
    if label is None:
        return ""
    if not _LABEL.fullmatch(label):
        raise RenderError(f"no wording for the label {label!r}")
    return label + " "


def _kind(kind: str, plural: bool = False) -> str:
    table = _PLURALS if plural else _SINGULARS
    if kind not in table:
        raise RenderError(f"no wording for the card kind {kind!r}")
    return table[kind]


def _who(who: str | None) -> str:
    names = {"you": "you", "opponent": "your rival", "each": "each player"}
    if who not in names:
        raise RenderError(f"no wording for the player {who!r}")
    return names[who]


def _other(who: str) -> str:
    """A player other than ``you`` (the object of knock down, taunt...)."""
    if who == "you":
        raise RenderError("this step cannot name you as its object")
    return _who(who)


def _player_of(sel: Selector | None) -> str:
    """The Who of a player selector."""
    if sel == Selector("each", "player"):
        return "each"
    if sel is not None and sel.owner in ("you", "opponent") \
            and sel == Selector("the", "player", owner=sel.owner):
        return sel.owner
    raise RenderError(f"no wording for the player {sel!r}")


def _verb(who: str, base: str, third: str) -> str:
    """``draw`` after the implied ``you``; ``your rival draws`` otherwise."""
    return base if who == "you" else f"{_who(who)} {third}"


def _be(who: str) -> str:
    return f"{_who(who)} {'are' if who == 'you' else 'is'}"


def _whose(who: str) -> str:
    return "your" if who == "you" else "their"


_DURATIONS = {
    "end_of_turn": "until the end of the turn",
    "end_of_round": "until the end of the round",
    "end_of_combo": "until the end of the combo",
    "your_next_turn": "until the beginning of your next turn",
}


def _duration(duration: Duration | None) -> str:
    if duration is None:
        return ""
    if duration.until not in _DURATIONS:
        raise RenderError(f"no wording for the duration {duration.until!r}")
    return " " + _DURATIONS[duration.until]


_ZONES = {"hand", "deck", "discard pile", "energy pile", "arena"}


def _zone(zone: str | None) -> str:
    if zone not in _ZONES:
        raise RenderError(f"no wording for the zone {zone!r}")
    return zone


def _ref(sel: Selector) -> tuple[str, bool]:
    """A card reference as a subject, and whether it is plural."""
    if sel.quantifier in ("this", "that") and sel == Selector(sel.quantifier, sel.type):
        return f"{sel.quantifier} {_kind(sel.type)}", False
    if sel.quantifier == "each" and sel.owner in ("you", "opponent") \
            and sel == Selector("each", sel.type, owner=sel.owner, team=sel.team):
        whose = "your" if sel.owner == "you" else "your rival's"
        return f"{whose} {_label(sel.team)}{_kind(sel.type, True)}", True
    raise RenderError(f"no wording for the card reference {sel!r}")


def _subject(sel: Selector) -> str:
    """The subject of ``can't``/``can``: a player or a card reference."""
    if sel.type == "player":
        return _who(_player_of(sel))
    return _ref(sel)[0]


def _some(sel: Selector) -> str:
    """``a block``, ``two Kick attacks``, ``up to two cards`` (no owner, no zone)."""
    if sel.quantifier == "a" and sel.count == 1:
        if sel.type == "card" and sel.team is None:
            raise RenderError("'a card' is a plain count here")
        return _a(_label(sel.team) + _kind(sel.type))
    if sel.quantifier == "a":
        if sel.type == "card" and sel.team is None:
            raise RenderError("'N cards' is a plain count here")
        return f"{_count(sel.count)} {_label(sel.team)}{_kind(sel.type, True)}"
    if sel.quantifier == "up_to":
        return f"up to {_count(sel.count)} {_label(sel.team)}{_kind(sel.type, True)}"
    raise RenderError(f"no wording for the cards {sel!r}")


def _some_kind(sel: Selector) -> str:
    """Like :func:`_some`, where ``a card`` and ``two cards`` are allowed."""
    if sel.type == "card" and sel.team is None and sel.quantifier == "a":
        return _cards(sel.count)
    return _some(sel)


def _plain(sel: Selector, **fields: Any) -> bool:
    """Whether ``sel`` has nothing but the given fields set (besides quantifier etc.)."""
    return sel == Selector(sel.quantifier, sel.type, count=sel.count, team=sel.team, **fields)


def _top(sel: Selector, whose: str = "your") -> str:
    """``the top card of your deck``."""
    count = "card" if sel.count == 1 else f"{_count(sel.count)} cards"
    return f"the top {count} of {whose} {_zone(sel.zone)}"


def _movable(sel: Selector) -> str:
    """What a put step moves: this card, the top cards, cards from a zone."""
    if sel.quantifier == "this" and sel == Selector("this", sel.type):
        return f"this {_kind(sel.type)}"
    if sel.quantifier == "the" and sel.type == "card" and sel.owner == "you" and sel.team is None \
            and _plain(sel, owner="you", zone=sel.zone):
        return _top(sel)
    return _from_zone(sel)


def _from_zone(sel: Selector) -> str:
    if sel.owner == "you" and sel.quantifier in ("a", "up_to") and _plain(sel, owner="you",
                                                                          zone=sel.zone):
        return f"{_some_kind(sel)} from your {_zone(sel.zone)}"
    raise RenderError(f"no wording for the cards {sel!r}")


def _after(sel: Selector) -> str:
    if sel.quantifier == "each" and sel == Selector("each", sel.type):
        return f"any {_kind(sel.type)}"
    if sel.quantifier == "a" and sel == Selector("a", sel.type, team=sel.team):
        return _a(_label(sel.team) + _kind(sel.type))
    if sel.quantifier == "this" and sel == Selector("this", sel.type):
        return f"this {_kind(sel.type)}"
    raise RenderError(f"no wording for linking after {sel!r}")


_DESTINATIONS = {"deck top": "on top of your deck", "deck bottom": "on the bottom of your deck"}


def _destination(to: str) -> str:
    if to in _DESTINATIONS:
        return _DESTINATIONS[to]
    return f"into your {_zone(to)}"


_ACTION = re.compile(
    r"be blocked|be blocked by (?P<by>\S+) blocks|block (?P<block>\S+) attacks"
    r"|play (?:(?P<play>\S+) )?(?:cards|attacks|blocks|events)|flip events|link attacks"
    r"|recover|pass"
)


def _action(action: str) -> str:
    match = _ACTION.fullmatch(action)
    if match is None:
        raise RenderError(f"no wording for the action {action!r}")
    for group in ("by", "block", "play"):
        if match.group(group) is not None:
            _label(match.group(group))
    return action


def _step(step: Step) -> str:
    """One step as a clause starting with a small letter."""
    if isinstance(step, Draw):
        return f"{_verb(step.player, 'draw', 'draws')} {_cards(step.amount)}"
    if isinstance(step, Discard):
        verb = _verb(step.player, "discard", "discards")
        if step.what is None:
            return f"{verb} {_cards(step.amount)}"
        if step.what.count == step.amount and _plain(step.what):
            return f"{verb} {_some(step.what)}"
    if isinstance(step, Scrap):
        verb = _verb(step.player, "discard", "discards")
        count = "card" if step.amount == 1 else f"{_count(step.amount)} cards"
        return f"{verb} the top {count} of {_whose(step.player)} deck"
    if isinstance(step, EpicBattlesChip):
        return f"{_verb(step.player, 'chip', 'chips')} {_cards(step.amount)}"
    if isinstance(step, Deal):
        return f"deal {_digits(step.amount)} damage to {_who(_player_of(step.to))}"
    if isinstance(step, EpicBattlesPay):
        return f"pay {_digits(step.amount)} energy"
    if isinstance(step, EpicBattlesPut):
        return f"put {_movable(step.what)} {_destination(step.to)}"
    if isinstance(step, EpicBattlesRemove):
        return f"remove {_from_zone(step.what)}"
    if isinstance(step, Search) and step.player == "you" and _plain(step.what) \
            and step.what.quantifier in ("a", "up_to"):
        return (f"search your {_zone(step.zone)} for {_some_kind(step.what)} "
                f"and put it into your {_zone(step.to)}")
    if isinstance(step, Reveal) and step.what.quantifier == "the" and step.what.type == "card" \
            and _plain(step.what, owner=step.what.owner, zone=step.what.zone) \
            and step.what.team is None:
        if step.what.owner == "you":
            return f"reveal {_top(step.what)}"
        if step.what.owner in ("opponent", "each") and step.what.zone == "deck":
            return f"{_who(step.what.owner)} reveals {_top(step.what, 'their')}"
    if isinstance(step, Shuffle) and step.player == "you" and step.zone == "deck":
        return "shuffle your deck"
    if isinstance(step, Negate) and step.target.quantifier in ("this", "that"):
        return f"negate {_ref(step.target)[0]}"
    if isinstance(step, EpicBattlesRecover):
        return _verb(step.player, "recover", "recovers")
    if isinstance(step, EpicBattlesKnockDown):
        verb = "knock down" if step.how == "knock_down" else "launch"
        return f"{verb} {_other(step.player)}"
    if isinstance(step, EpicBattlesTaunt):
        return "taunt" if step.player == "opponent" else f"taunt {_other(step.player)}"
    if isinstance(step, Modify) and step.stat in ("damage", "cost"):
        ref, plural = _ref(step.target)
        delta = step.delta
        change = f"-{-delta}" if isinstance(delta, int) and delta < 0 else f"+{_digits(delta)}"
        verb = "get" if plural else "gets"
        return f"{ref} {verb} {change} {step.stat}{_duration(step.duration)}"
    if isinstance(step, EpicBattlesLink):
        can = "can" if step.allowed else "can't"
        return f"{_subject(step.what)} {can} link after {_after(step.after)}" \
               f"{_duration(step.duration)}"
    if isinstance(step, EpicBattlesGain):
        ref, plural = _ref(step.target)
        part = "trait" if step.part == "trait" else "follow-up"
        verb = "gain" if plural else "gains"
        return f"{ref} {verb} the {_label(step.label)}{part}{_duration(step.duration)}"
    if isinstance(step, Prohibit):
        return f"{_subject(step.subject)} can't {_action(step.action)}{_duration(step.duration)}"
    if isinstance(step, Permit):
        return f"{_subject(step.subject)} can {_action(step.action)}{_duration(step.duration)}"
    if isinstance(step, Delay):
        when = {"end_of_round": "the round", "end_of_turn": "this turn",
                "end_of_combo": "the combo"}.get(step.when)
        if when is not None:
            return f"at the end of {when}, {_steps(step.effect)}"
    if isinstance(step, If) and not step.otherwise:
        return f"if {_condition(step.condition)}, {_steps(step.then)}"
    if isinstance(step, May) and step.player == "you":
        return f"you may {_steps(step.steps)}"
    if isinstance(step, Unknown):
        return step.text.rstrip(".")
    raise RenderError(f"no wording for the step {step!r}")


def _steps(steps: tuple[Step, ...]) -> str:
    if not steps:
        raise RenderError("an empty list of steps has no wording")
    return " and ".join(_step(s) for s in steps)


def _effect(steps: tuple[Step, ...], *, first_small: bool = False) -> str:
    if not steps:
        raise RenderError("an empty effect has no wording")
    sentences = [_cap(_step(s)) + "." for s in steps]
    if first_small:
        sentences[0] = sentences[0][:1].lower() + sentences[0][1:]
    return " ".join(sentences)


_STATES = {"knocked_down": "knocked down", "launched": "launched"}


def _state(state: Amount | str) -> str:
    if state == "aggressor":
        return "the aggressor"
    if not isinstance(state, str) or state not in _STATES:
        raise RenderError(f"no wording for the state {state!r}")
    return _STATES[state]


def _comparison(op: str, value: Amount | str, fewer: bool = False) -> str:
    if isinstance(value, str):
        raise RenderError(f"no wording for comparing with {value!r}")
    number = _digits(value)
    less = "fewer" if fewer else "less"
    words = {"==": number, ">=": f"{number} or more", "<=": f"{number} or {less}"}
    if op not in words:
        raise RenderError(f"no wording for the comparison {op!r}")
    return words[op]


def _condition(cond: Condition) -> str:
    if cond.subject == "state" and cond.op in ("is", "not"):
        who = _player_of(cond.of)
        negation = "not " if cond.op == "not" else ""
        return f"{_be(who)} {negation}{_state(cond.value)}"
    if cond.subject == "cards" and cond.of is not None \
            and cond.of == Selector("the", "card", owner=cond.of.owner, zone=cond.of.zone):
        who = cond.of.owner or ""
        have = "have" if who == "you" else "has"
        return (f"{_who(who)} {have} {_comparison(cond.op, cond.value, fewer=True)} cards "
                f"in {_whose(who)} {_zone(cond.of.zone)}")
    if cond.subject == "combo" and cond.of is None:
        if cond.op == ">=" and cond.value == 2:
            return "this attack is linked"
        return f"the combo has {_comparison(cond.op, cond.value, fewer=True)} attacks"
    raise RenderError(f"no wording for the condition {cond!r}")


_STEP_NAMES = {"Draw", "Set", "Action", "Discard"}
_PLAYER_EVENTS = {
    "played": ("play", "plays"),
    "blocked": ("block", "blocks"),
    "flipped": ("flip", "flips"),
}


def _trigger(trig: Trigger) -> str:
    """The trigger before the comma (lower case)."""
    event, who, subject = trig.event, trig.who, trig.subject
    if trig.phase is not None:
        if event in ("phase_begins", "phase_ends") and who is None and subject is None \
                and trig.phase in _STEP_NAMES:
            edge = "beginning" if event == "phase_begins" else "end"
            return f"at the {edge} of the {trig.phase} step"
        raise RenderError(f"no wording for the trigger {trig!r}")
    if who is None and subject == THIS_ATTACK and event in ("hit", "blocked"):
        return "when this attack hits" if event == "hit" else "when this attack is blocked"
    if subject is not None:
        if subject != Selector("a", subject.type, team=subject.team):
            raise RenderError(f"no wording for the trigger {trig!r}")
        thing = _a(_label(subject.team) + _kind(subject.type))
        if event == "hit" and who == "you" and subject.type == "Attack":
            return f"when {thing} hits you"
        if event in _PLAYER_EVENTS and who is not None:
            return f"when {_verb(who, 'you ' + _PLAYER_EVENTS[event][0], _PLAYER_EVENTS[event][1])}" \
                   f" {thing}"
        raise RenderError(f"no wording for the trigger {trig!r}")
    if who in ("you", "opponent", "each") and event in _STATES:
        return f"when {_be(who)} {_STATES[event]}"
    simple = {"dealt_damage": ("take damage", "takes damage"), "chipped": ("chip", "chips"),
              "recovered": ("recover", "recovers")}
    if who in ("you", "opponent", "each") and event in simple:
        return f"when {_verb(who, 'you ' + simple[event][0], simple[event][1])}"
    if event == "combo_ends" and who is None:
        return "when a combo ends"
    if event in ("turn_begins", "turn_ends") and who == "each":
        edge = "beginning" if event == "turn_begins" else "end"
        return f"at the {edge} of each turn"
    raise RenderError(f"no wording for the trigger {trig!r}")


def _replaced(event: Trigger) -> str:
    if event.who is None and event.phase is None and event.subject is not None:
        who = _player_of(event.subject)
        if event.event == "dealt_damage":
            return f"{_who(who)} would take damage"
        if event.event == "chipped":
            return f"{_who(who)} would chip"
        if event.event in _STATES:
            return f"{_who(who)} would be {_STATES[event.event]}"
    raise RenderError(f"no wording for the replaced event {event!r}")


_TIMINGS = {"combo": "during a combo", "combo_start": "as the first attack of a combo"}
_KEYWORDS = {
    "knock_down": "Knock Down.",
    "launcher": "Launcher.",
    "side_deck_only": "Side Deck Only.",
    "flip_any_time": "Flip at any time.",
}


def _names(names: tuple[str, ...]) -> str:
    if not names:
        raise RenderError("a restriction needs at least one name")
    for name in names:
        if not _NAME.fullmatch(name):
            raise RenderError(f"no wording for the name {name!r}")
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " or " + names[-1]


def _ability(ability: Ability) -> str:
    """One ability as one line."""
    if isinstance(ability, Spell):
        if ability.cost:
            return f"{_cap(_steps(ability.cost))}; {_effect(ability.effect, first_small=True)}"
        return _effect(ability.effect)
    if isinstance(ability, Activated):
        line = f"{_steps(ability.cost)}; {_effect(ability.effect, first_small=True)}"
        return f"Alternatively, {line}" if ability.alternative else _cap(line)
    if isinstance(ability, Triggered):
        if ability.effect == (EpicBattlesFlip(),):
            return f"Flip {_trigger(ability.trigger)}."
        if ability.trigger == HIT:
            return f"HIT: {_effect(ability.effect)}"
        return f"{_cap(_trigger(ability.trigger))}, {_effect(ability.effect, first_small=True)}"
    if isinstance(ability, Passive):
        if ability.condition is None:
            return _effect(ability.effect)
        return f"While {_condition(ability.condition)}, " \
               f"{_effect(ability.effect, first_small=True)}"
    if isinstance(ability, Replacement):
        return f"If {_replaced(ability.event)}, {_steps(ability.effect)} instead."
    if isinstance(ability, Conditional):
        parts = ["Only playable"]
        if ability.timing is not None:
            if ability.timing not in _TIMINGS:
                raise RenderError(f"no wording for the timing {ability.timing!r}")
            parts.append(_TIMINGS[ability.timing])
        if ability.condition is not None:
            parts.append(f"if {_condition(ability.condition)}")
        if len(parts) == 1:
            raise RenderError("a Conditional needs a timing or a condition")
        return " ".join(parts) + "."
    if isinstance(ability, Keyword) and ability.argument is None and ability.name in _KEYWORDS:
        return _KEYWORDS[ability.name]
    if isinstance(ability, EpicBattlesRestriction):
        names = _names(ability.names)
        if ability.kind == "character":
            return f"Only playable by {names}."
        if len(ability.names) == 1 and names != "Side Deck":
            return f"{names} Only."
        return f"Only playable in {names} decks."
    if isinstance(ability, EpicBattlesLimit):
        return f"Limit {ability.copies} per deck."
    if isinstance(ability, EpicBattlesLinkBar):
        if not ability.labels:
            raise RenderError("a trait bar needs at least one label")
        for label in ability.labels:
            _label(label)
        head = "Traits" if ability.part == "traits" else "Follow-ups"
        return f"{head}: {', '.join(ability.labels)}."
    raise RenderError(f"no wording for the ability {ability!r}")


def render(tree: CardText) -> str:
    """The canonical text of ``tree`` in Epic Battles' templates, one ability per line.

    Raises :class:`~grammar.render.RenderError` for a node no template expresses.
    """
    return "\n".join(_ability(a) for a in tree.abilities)


GRAMMAR = GameGrammar("epic_battles", Builder, card_types=None, settle=settle, split=split,
                      render=render)
"""How :mod:`grammar.parser` reads and :func:`grammar.render.render` writes Epic Battles."""
