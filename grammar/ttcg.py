"""Reading and writing the card text of the True Trading Card Game (TTCG).

:data:`GRAMMAR` tells :mod:`grammar.parser` how: the tree builder for
``grammar/ttcg.lark``, how a line becomes an ability for each card type, and the
canonical renderer. The game's own AST nodes are in :mod:`grammar.ttcg_nodes`.

How a line becomes an ability
-----------------------------
A TTCG card prints two effects, one per line (2.2.5.a). Every effect of every card
type is activated the same way, by tapping the card (2.2.5.f.1 for creatures,
2.2.5.g.1 for magic cards), so the kind of ability follows from the line's shape and
its effect-type label, never from the card type:

* ``COST to EFFECT.`` (and the core's ``COST; EFFECT.``) is an
  :class:`~grammar.ast.Activated` ability with that cost;
* plain sentences are an :class:`~grammar.ast.Activated` ability with no written cost
  (tapping is the cost), except under a ``Passive:`` or ``Equip:`` label, where they are
  a :class:`~grammar.ast.Passive` ability (always on);
* ``While CONDITION, ...`` is a conditioned :class:`~grammar.ast.Passive`,
  ``When(ever) ..., ...`` a :class:`~grammar.ast.Triggered` and
  ``If ... would be destroyed, ... instead.`` a :class:`~grammar.ast.Replacement`;
* a label (``Counter:``, ``Latent:``...) wraps the ability in
  :class:`~grammar.ttcg_nodes.Labelled`; Normal effects carry none.

``card_type`` may be any string (real pools print ``Unit (Fire)`` or ``Spell``):
:func:`base_type` reads the part before the element in brackets, and :func:`settle`
accepts unknown types, since the type does not change the reading.

The real card pool keeps each line's effect type outside the text (its
``effect_styles``); :func:`label_text` writes those labels into the text so that the
text reads with its type.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any, cast

import msgspec
from lark import Token

from grammar.ast import (
    Ability,
    Activated,
    Amount,
    CardText,
    Condition,
    Delay,
    Discard,
    Draw,
    Duration,
    If,
    May,
    Passive,
    Prohibit,
    Replacement,
    Scrap,
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
from grammar.lexer import constant, first_child
from grammar.parser import NUMBER_WORDS as _WORDS
from grammar.parser import CoreBuilder, GameGrammar, _player, printed_number
from grammar.render import RenderError
from grammar.render import capitalise as _cap
from grammar.ttcg_nodes import (
    THIS_CARD,
    AddToHand,
    Allow,
    Boost,
    Cards,
    Copy,
    Counter,
    Destroy,
    DiscardCards,
    Equip,
    ExtraPlay,
    ForEach,
    Labelled,
    PlaceUnder,
    PlayCards,
    Points,
    RankUp,
    Redirect,
    Restrict,
    ReturnCards,
    RevealTop,
    SetStat,
    SkipTurn,
    Swap,
    Tap,
    cards_selector,
)

__all__ = ["GRAMMAR", "LABELS", "Builder", "base_type", "label_text", "pool_fields", "pool_text", "render",
           "settle"]

LABELS: dict[str, str] = {
    "continuous": "Continuous",
    "counter": "Counter",
    "equip": "Equip",
    "latent": "Latent",
    "dormant": "Dormant",
    "passive": "Passive",
    "echo": "Echo",
    "overload": "Overload",
}
"""Effect-type labels as written before a line (2.2.5.i; Normal is unlabelled)."""

PASSIVE_LABELS = frozenset({"passive", "equip"})
"""Labels under which plain sentences are always on rather than activated."""

_LABEL_OF: dict[str, str] = {
    f"{name.capitalize()}{space}:": name for name in (*LABELS, "normal") for space in ("", " ")
}
"""The label of each way the grammar's EFFECT_LABEL is written (``Latent:``, ``Latent :``)."""

_WORD_VALUES = {w: i for i, w in enumerate(_WORDS)}
_NUMBER_VALUES = {**_WORD_VALUES, **{w.capitalize(): i for w, i in _WORD_VALUES.items()}}
"""Number words as the grammar writes them (``two``, and ``Two`` opening a sentence)."""

_KIND_SYNONYMS = {"creature": "unit", "monster": "unit", "magic": "spell"}
"""Words that name the same kind of card (2.1.u creature, 2.1.v magic card)."""


def base_type(card_type: str | None) -> str | None:
    """The card type without its element: ``Unit (Fire)`` -> ``Unit``."""
    if card_type is None:
        return None
    return card_type.split("(", 1)[0].strip() or None


def label_text(text: str, styles: list[str]) -> str:
    """Prefix each line of ``text`` with the label of its effect type.

    ``styles`` holds one entry per line, as a real card pool's ``effect_styles``:
    ``"None"`` (or ``"normal"``, or an empty string) leaves a line unlabelled, a known
    type (``"latent"``, ``"Counter"``...) adds ``"Latent: "``; types this grammar does
    not know are left out. Blank lines are kept and use no style.
    """
    lines = text.split("\n")
    out: list[str] = []
    styled = iter(styles)
    for line in lines:
        if not line.strip():
            out.append(line)
            continue
        style = next(styled, "None")
        label = LABELS.get(str(style).strip().lower())
        out.append(f"{label}: {line.lstrip()}" if label else line)
    return "\n".join(out)


# ------------------------------------------------------------------ tree building

Part = dict[str, Any]
"""A piece of a :class:`Cards` selector built by a sub-rule (merged by ``cards``)."""


def _const(value: Any) -> Callable[[Builder, list[Any]], Any]:
    """A callback that ignores its children and returns ``value`` (see :func:`grammar.lexer.constant`)."""
    return constant(value)


_first = first_child
"""A callback that passes its first child through (the fast loop takes the child without calling it)."""


def _singular(word: str) -> str:
    """A plural head noun in singular (``spells`` -> ``spell``, ``fairies`` -> ``fairy``)."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "os", "as")) and len(word) > 3:
        return word[:-1]
    return word


def _kind(words: list[str], head: bool) -> str:
    """One kind: words in canonical form; ``head`` when its last word is the noun."""
    if head:
        words = words[:-1] + [_singular(words[-1])]
    if len(words) == 1:  # the common case, a kind of one word ("golem", "spell")
        word = words[0]
        return _KIND_SYNONYMS.get(word, word)
    return " ".join([_KIND_SYNONYMS.get(w, w) for w in words])


def _merge(*parts: Part | None) -> Part:
    out: Part = {}
    for part in parts:
        if part:
            out.update(part)
    return out


def _timed(step: Step, duration: Duration) -> Step:
    """The step with the duration a timed sentence gives it (unless it has its own)."""
    if getattr(step, "duration", None) is None:
        return msgspec.structs.replace(step, duration=duration)  # type: ignore[type-var]
    return step


def _per(step: Step, rest: list[Any]) -> Step:
    """Wrap a step in a ForEach when the text counts "for each ..."."""
    if rest and isinstance(rest[-1], tuple):
        what, event = rest[-1]
        return ForEach(what, (step,), event)
    return step


def _flatten(items: list[Any]) -> tuple[Step, ...]:
    """Sentences (tuples of steps, or single steps) as one tuple of steps."""
    out: list[Step] = []
    for item in items:
        if isinstance(item, tuple):
            out.extend(item)
        else:
            out.append(item)
    return tuple(out)


_ADD_IT = AddToHand(Cards("it"))
""""Add it to your hand": says nothing more right after another AddToHand."""


def _discard(player: Who, what: Cards) -> Step:
    """A plain "discard N cards" is the shared Discard; naming the cards is TTCG's own."""
    if what == Cards("a", what.count):
        return Discard(player, what.count)
    return DiscardCards(what, player)


class _Words:
    """What a helper rule of words alone (``_card_noun``, ``_be``...) hands its parent.

    Lark inlines a ``_rule`` into the rule that uses it by taking the ``children`` of its
    value; these rules keep no children (their words are dropped), so the parent gets
    none, as it would from Lark's own tree.
    """

    __slots__ = ("children",)

    def __init__(self, children: list[Any]) -> None:
        self.children = children


class Builder(CoreBuilder):
    """Tree callbacks for the rules of ``grammar/ttcg.lark`` (the shared ones are inherited)."""

    # Every token read here (kind words, numbers, effect labels) is read as its words alone.
    tokens_as_text = True

    # ---- helper rules of words alone, inlined by Lark into the rules that use them
    _then = _article = _be = _card_noun = _unit_noun = _play = _rank_up = _Words
    _controls = _opponents = _owners = _owner_s = _owners_deck = _Words
    _by_effects = _their_effects = _in_battle = _Words

    # ---- lines
    def labelled_ability(self, c: list[Any]) -> Ability:
        try:
            label = _LABEL_OF[str(c[0])]  # a plain str key: no call of the Token's own ``__eq__``
        except KeyError:
            label = str(c[0]).rstrip(":").strip().lower()
        if label == "normal":
            return cast(Ability, c[1])
        return Labelled(label, c[1])  # type: ignore[arg-type]

    def paid_ability(self, c: list[Any]) -> Ability:
        return Activated(cost=c[0], effect=_flatten(c[1:]))

    def effect(self, c: list[Any]) -> tuple[Step, ...]:
        """The first sentence: a clause (one step, or a tuple of them)."""
        clause = c[0]
        return clause if clause.__class__ is tuple else (clause,)

    def more_sentences(self, c: list[Any]) -> tuple[Step, ...]:
        """The sentences so far, and one more."""
        sentences, clause = c
        return sentences + (clause if clause.__class__ is tuple else (clause,))  # type: ignore[no-any-return]

    def plain_ability(self, c: list[Any]) -> Ability:
        """The first sentence of a plain line: a Spell of its steps (:func:`settle` decides)."""
        clause = c[0]
        return Spell(effect=clause if clause.__class__ is tuple else (clause,))

    def more_plain(self, c: list[Any]) -> Ability:
        """A plain line's Spell so far, and one more sentence."""
        spell, clause = c
        return Spell(effect=spell.effect + (clause if clause.__class__ is tuple else (clause,)))

    def step_list(self, c: list[Any]) -> tuple[Step, ...]:
        if len(c) == 1:
            return (c[0],)
        # "Search your deck for one golem card and add it to your hand.": the second
        # step only says where the found card goes, which AddToHand already says.
        out: list[Step] = []
        for step in c:
            if step == _ADD_IT and out and isinstance(out[-1], AddToHand):
                continue
            out.append(step)
        return tuple(out)

    def delayed_body(self, c: list[Any]) -> tuple[Step, ...]:
        return (Delay(c[1], c[0]),)

    def timed_clause(self, c: list[Any]) -> tuple[Step, ...]:
        duration = c[0]
        return tuple(_timed(step, duration) for step in c[1:])

    def each_clause(self, c: list[Any]) -> Step:
        what, event = c[0]
        return ForEach(what, c[1], event)

    def counted(self, c: list[Any]) -> tuple[Cards, str | None]:
        parts = [x for x in c if isinstance(x, dict)]
        event = next((x for x in c if isinstance(x, str)), None)
        return Cards(**_merge({"quantifier": "all"}, *parts)), event

    destroyed_event = _const("destroyed")
    discarded_event = _const("discarded")
    played_event = _const("played")

    # ---- steps
    def add_step(self, c: list[Any]) -> Step:
        return AddToHand(c[0])

    def search_step(self, c: list[Any]) -> Step:
        return AddToHand(msgspec.structs.replace(c[1], **c[0]))

    def return_to_your_hand(self, c: list[Any]) -> Step:
        return AddToHand(c[0])

    def return_to_hand(self, c: list[Any]) -> Step:
        return ReturnCards(c[0], "hand")

    def return_to_deck(self, c: list[Any]) -> Step:
        return ReturnCards(c[0], "deck")

    def send_top(self, c: list[Any]) -> Step:
        return Scrap("you", c[0])

    def send_cards(self, c: list[Any]) -> Step:
        return _discard("you", c[0])

    def draw_per(self, c: list[Any]) -> Step:
        return _per(Draw("you", 1), c)

    def gain_points_per(self, c: list[Any]) -> Step:
        return _per(Points("you", 1), c)

    def gain_points_stat(self, c: list[Any]) -> Step:
        return Points("you", Var(c[0], of=Selector("this")))

    def look_step(self, c: list[Any]) -> Step:
        return RevealTop("you", c[0], private=True)

    def attack_directly(self, c: list[Any]) -> Step:
        return Allow(c[0], "attack directly", c[1] if len(c) > 1 else None)

    def attack_twice(self, c: list[Any]) -> Step:
        return Allow(c[0], "attack twice", c[1] if len(c) > 1 else None)

    def recover_step(self, c: list[Any]) -> Step:
        what: Cards = c[0]
        if what.zone is None:
            what = msgspec.structs.replace(what, zone="discard pile", owner="you")
        return AddToHand(what)

    def destroy_step(self, c: list[Any]) -> Step:
        return Destroy(c[0])

    def discard_you(self, c: list[Any]) -> Step:
        return _discard("you", c[0])

    def discard_other(self, c: list[Any]) -> Step:
        return _discard(c[0], c[1])

    def draw_you(self, c: list[Any]) -> Step:
        return _per(Draw("you", c[0]), c[1:])

    def draw_other(self, c: list[Any]) -> Step:
        return _per(Draw(c[0], c[1]), c[2:])

    def mill_you(self, c: list[Any]) -> Step:
        return Scrap("you", c[0])

    def mill_other(self, c: list[Any]) -> Step:
        return Scrap(c[0], c[1])

    def play_step(self, c: list[Any]) -> Step:
        return PlayCards(c[0])

    def place_step(self, c: list[Any]) -> Step:
        return PlaceUnder(c[0], c[1])

    def counter_step(self, c: list[Any]) -> Step:
        return Counter(c[0])

    def copy_step(self, c: list[Any]) -> Step:
        return Copy(c[0])

    def tap_step(self, c: list[Any]) -> Step:
        return Tap(c[0])

    def untap_step(self, c: list[Any]) -> Step:
        return Tap(c[0], untap=True)

    def gain_points_you(self, c: list[Any]) -> Step:
        return _per(Points("you", c[0]), c[1:])

    def lose_points_you(self, c: list[Any]) -> Step:
        return _per(Points("you", c[0], lose=True), c[1:])

    def gain_points(self, c: list[Any]) -> Step:
        return _per(Points(c[0], c[1]), c[2:])

    def lose_points(self, c: list[Any]) -> Step:
        return _per(Points(c[0], c[1], lose=True), c[2:])

    def rank_up_step(self, c: list[Any]) -> Step:
        return RankUp(c[0], c[1])

    def increase_step(self, c: list[Any]) -> Step:
        return Boost(c[1], c[0], c[2], c[3] if len(c) > 3 else None)

    def decrease_step(self, c: list[Any]) -> Step:
        return Boost(c[1], c[0], -cast(int, c[2]), c[3] if len(c) > 3 else None)

    def gain_stat_step(self, c: list[Any]) -> Step:
        duration = next((x for x in c[3:] if isinstance(x, Duration)), None)
        return _per(Boost(c[0], c[2], c[1], duration), [x for x in c[3:] if isinstance(x, tuple)])

    def lose_stat_step(self, c: list[Any]) -> Step:
        duration = next((x for x in c[3:] if isinstance(x, Duration)), None)
        return _per(Boost(c[0], c[2], -c[1], duration), [x for x in c[3:] if isinstance(x, tuple)])

    def become_step(self, c: list[Any]) -> Step:
        return SetStat(c[0], "rank", c[1], c[2] if len(c) > 2 else None)

    attack_stat = _const("attack")
    defense_stat = _const("defense")
    rank_stat = _const("rank")

    def restrict_step(self, c: list[Any]) -> Step:
        return Restrict(c[0], c[1], c[2] if len(c) > 2 else None)

    def indestructible_step(self, c: list[Any]) -> Step:
        return Restrict(c[0], "be destroyed", c[1] if len(c) > 1 else None)

    be_destroyed = _const("be destroyed")
    be_destroyed_by_effects = _const("be destroyed by effects")
    be_destroyed_in_battle = _const("be destroyed in battle")
    be_targeted = _const("be targeted")
    attack_restriction = _const("attack")
    be_attacked = _const("be attacked")
    activate_effects = _const("activate effects")

    def card_can_step(self, c: list[Any]) -> Step:
        return RankUp(c[0], c[1], permission=True, duration=c[2] if len(c) > 2 else None)

    def permit_step(self, c: list[Any]) -> Step:
        duration = c[1] if len(c) > 1 else None
        return msgspec.structs.replace(c[0], duration=duration)  # type: ignore[no-any-return]

    def prohibit_step(self, c: list[Any]) -> Step:
        return Prohibit(_player(c[0]), c[1], c[2] if len(c) > 2 else None)

    def extra_play(self, c: list[Any]) -> Step:
        return ExtraPlay(c[0])

    def may_rank_up(self, c: list[Any]) -> Step:
        return RankUp(c[0], c[1], permission=True)

    def extra_cards(self, c: list[Any]) -> Cards:
        return Cards(**_merge({"quantifier": "a", "count": c[0]}, c[1]))

    def one_extra(self, c: list[Any]) -> Cards:
        return Cards(**_merge({"quantifier": "a"}, c[0]))

    def play_kind(self, c: list[Any]) -> str:
        return "play " + _kind_phrase(Cards(**_merge({"quantifier": "any"}, c[0])), plural=True)

    attack_action = _const("attack")
    activate_action = _const("activate effects")
    draw_action = _const("draw cards")

    def reveal_step(self, c: list[Any]) -> Step:
        return RevealTop("you", c[0])

    def swap_step(self, c: list[Any]) -> Step:
        return Swap(c[0], c[1])

    skip_you = _const(SkipTurn("you"))

    def skip_other(self, c: list[Any]) -> Step:
        return SkipTurn(c[0])

    def redirect_step(self, c: list[Any]) -> Step:
        return Redirect(c[0])

    def equip_step(self, c: list[Any]) -> Step:
        return Equip(c[0], c[1])

    shuffle_step = _const(Shuffle("you", "deck"))

    # ---- card selection
    def counted_cards(self, c: list[Any]) -> Cards:
        fields: Part = {}
        for part in c:  # the quantity's, the kind's, and any place's and exception's
            fields.update(part)
        return Cards(**fields)

    def bare_cards(self, c: list[Any]) -> Cards:
        return Cards(**_merge({"quantifier": "any"}, *c))

    this_card = _const(THIS_CARD)

    def this_card_in(self, c: list[Any]) -> Cards:
        return Cards(**_merge({"quantifier": "this"}, c[0]))

    except_this = _const({"other": True})
    at_random = _const({"random": True})
    q_another = _const({"quantifier": "a", "count": 1, "other": True})
    q_all_other = _const({"quantifier": "all", "other": True})
    equipped_card = _const(Cards("equipped"))
    it_cards = _const(Cards("it"))

    q_one = _const({"quantifier": "a", "count": 1})

    def q_count(self, c: list[Any]) -> Part:
        return {"quantifier": "a", "count": c[0]}

    def q_up_to(self, c: list[Any]) -> Part:
        return {"quantifier": "up_to", "count": c[0]}

    def q_exactly(self, c: list[Any]) -> Part:
        return {"quantifier": "exactly", "count": c[0]}

    q_all = _const({"quantifier": "all"})

    def q_of_your(self, c: list[Any]) -> Part:
        return {"quantifier": "a", "count": c[0], "controller": "you", "zone": "field"}

    q_your = _const({"quantifier": "all", "controller": "you", "zone": "field"})
    q_opponents = _const({"quantifier": "all", "controller": "opponent", "zone": "field"})

    def rank_is(self, c: list[Any]) -> Part:
        return {"rank": c[0]}

    def rank_at_least(self, c: list[Any]) -> Part:
        return {"rank": c[0], "rank_op": ">="}

    def rank_at_most(self, c: list[Any]) -> Part:
        return {"rank": c[0], "rank_op": "<="}

    # A card kind is a Part with its "kinds", after the rank's Part when a rank is given.
    def kind_with_noun(self, c: list[Any]) -> Part:
        """One kind of one word before its noun ("golem card")."""
        word = c[-1].lower()
        kinds = (_KIND_SYNONYMS.get(word, word),)
        return {**c[0], "kinds": kinds} if len(c) > 1 else {"kinds": kinds}

    def kind_alone(self, c: list[Any]) -> Part:
        """One kind of one word that is its own noun ("spells")."""
        kinds = (_kind([c[-1].lower()], True),)
        return {**c[0], "kinds": kinds} if len(c) > 1 else {"kinds": kinds}

    def kinds_with_noun(self, c: list[Any]) -> Part:
        kinds = tuple([_kind(words, False) for words in c[-1]])
        return {**c[0], "kinds": kinds} if len(c) > 1 else {"kinds": kinds}

    def kinds_alone(self, c: list[Any]) -> Part:
        kinds = tuple([_kind(words, True) for words in c[-1]])
        return {**c[0], "kinds": kinds} if len(c) > 1 else {"kinds": kinds}

    def any_kind(self, c: list[Any]) -> Part:
        return dict(c[0]) if c else {}

    # The kinds as lists of words in small letters, grown word by word.
    def two_words(self, c: list[Token]) -> list[list[str]]:
        return [[c[0].lower(), c[1].lower()]]

    def two_kinds(self, c: list[Token]) -> list[list[str]]:
        return [[c[0].lower()], [c[1].lower()]]

    def kind_word(self, c: list[Any]) -> list[list[str]]:
        kinds: list[list[str]] = c[0]
        kinds[-1].append(c[1].lower())
        return kinds

    def other_kind(self, c: list[Any]) -> list[list[str]]:
        kinds: list[list[str]] = c[0]
        kinds.append([c[1].lower()])
        return kinds

    def word_number(self, c: list[Token]) -> int:
        try:
            return _NUMBER_VALUES[str(c[0])]  # a plain str key: no call of the Token's own ``__eq__``
        except KeyError:
            return _WORD_VALUES[c[0].lower()]

    on_field = _const({"zone": "field"})

    def on_side(self, c: list[Any]) -> Part:
        return {"controller": c[0], "zone": "field"}

    from_revealed = _const({"zone": "revealed"})
    you_control = _const({"controller": "you", "zone": "field"})

    def other_control(self, c: list[Any]) -> Part:
        return {"controller": "they" if c[0] == "each" else c[0], "zone": "field"}

    they_control = _const({"controller": "they", "zone": "field"})
    you_own = _const({"owner": "you", "zone": "field"})

    def other_own(self, c: list[Any]) -> Part:
        return {"owner": "they" if c[0] == "each" else c[0], "zone": "field"}

    any_type = _const({"any_type": True})
    of_choice = _const({})
    side_you = _const("you")
    side_opponent = _const("opponent")
    side_they = _const("they")

    def your_zone(self, c: list[Any]) -> Part:
        return {"owner": "you", "zone": c[0]}

    def opponent_zone(self, c: list[Any]) -> Part:
        return {"owner": "opponent", "zone": c[0]}

    def their_zone(self, c: list[Any]) -> Part:
        return {"owner": "they", "zone": c[0]}

    deck_zone = _const("deck")
    discard_pile_zone = _const("discard pile")
    hand_zone = _const("hand")

    # ---- triggers and replacements
    def card_trigger(self, c: list[Any]) -> Trigger:
        return Trigger(c[1], subject=cards_selector(c[0]))

    def play_trigger(self, c: list[Any]) -> Trigger:
        return Trigger("played", who=c[0], subject=cards_selector(c[1]))

    def turn_begins(self, c: list[Any]) -> Trigger:
        return Trigger("turn_begins", who=c[0])

    attacked_event = _const("attacked")
    tapped_event = _const("tapped")
    targeted_event = _const("targeted")
    ranked_up_event = _const("ranked_up")
    sent_to_discard_event = _const("sent_to_discard")
    attacks_event = _const("attacks")

    def would_be_destroyed(self, c: list[Any]) -> Trigger:
        return Trigger("destroyed", subject=cards_selector(c[0]))

    # ---- conditions
    def this_is(self, c: list[Any]) -> Condition:
        return Condition("state", "is", c[0], of=Selector("this"))

    on_field_position = _const("on the field")
    dormant_position = _const("dormant")
    tapped_position = _const("tapped")
    untapped_position = _const("untapped")
    under_position = _const("under another card")
    hand_position = _const("in hand")
    discard_position = _const("in discard pile")

    def controls_condition(self, c: list[Any]) -> Condition:
        op, value = c[1]
        kinds = Cards(**_merge({"quantifier": "all"}, c[2]))
        group = cards_selector(kinds)
        owner = cast(Who, c[0])
        return Condition("cards", op, value, of=msgspec.structs.replace(
            group, owner=owner, zone="field"))

    at_least_one = _const((">=", 1))
    none_of = _const(("==", 0))

    def points_condition(self, c: list[Any]) -> Condition:
        op, value = c[1]
        return Condition("points", op, value, of=_player(c[0]))

    # ---- durations
    this_turn = _const(Duration("end_of_turn"))
    until_end_of_your_next_turn = _const(Duration("end_of_your_next_turn"))
    next_turn = _const(Duration("next_turn"))

    def next_turns(self, c: list[Any]) -> Duration:
        count = c[0]
        return Duration("next_turn" if count == 1 else f"next_{count}_turns")


# ------------------------------------------------------------------------- settle


def _settle_plain(ability: Ability, label: str | None) -> Ability:
    if isinstance(ability, Spell) and not ability.cost:
        if label in PASSIVE_LABELS:
            return Passive(effect=ability.effect)
        return Activated(cost=(), effect=ability.effect)
    if isinstance(ability, Spell):
        return Activated(cost=ability.cost, effect=ability.effect)
    return ability


def settle(ability: Ability, card_type: str | None) -> Ability:
    """Give a parsed line its kind of ability (see the module docstring).

    The card type, known or not (``base_type`` reads ``Unit (Fire)`` as ``Unit``), does
    not change the reading: creature and magic effects are both activated by tapping.
    """
    if card_type is not None and card_type.__class__ is not str:
        base_type(card_type)  # a card type that is not text fails here, as it always has
    if isinstance(ability, Labelled):
        return Labelled(ability.label, _settle_plain(ability.ability, ability.label))
    return _settle_plain(ability, None)


# ----------------------------------------------------------------------- rendering




def _number(amount: Amount) -> str:
    """A number in digits (attack, defense, rank), or ``X``."""
    if isinstance(amount, Var):
        if amount.name == "X" and amount.of is None:
            return "X"
        raise RenderError(f"no wording for the amount {amount!r}")
    if amount < 0:
        raise RenderError(f"no wording for the negative amount {amount}")
    return str(amount)


def _count(amount: Amount) -> str:
    """A count in words from one to ten, else digits, or ``X``."""
    if isinstance(amount, int) and 1 <= amount <= 10:
        return _WORDS[amount]
    return _number(amount)


def _a(words: str) -> str:
    """``a`` or ``an`` before ``words`` (``a unit card``, ``an earth card``)."""
    vowel = words[:1] in "aeiouAEIOU" and not words.startswith(("uni", "use", "one", "eu"))
    return ("an " if vowel else "a ") + words


_WHO = {"you": "you", "opponent": "your opponent", "each": "both players"}
_WHOSE = {"you": "your", "opponent": "your opponent's", "they": "their"}


def _who(who: str) -> str:
    if who not in _WHO:
        raise RenderError(f"no wording for the player {who!r}")
    return _WHO[who]


def _verb(who: str, base: str, third: str) -> str:
    """``draw`` (you, implied), ``your opponent draws``, ``both players draw``."""
    if who == "you":
        return base
    return f"{_who(who)} {third if who == 'opponent' else base}"


def _kind_phrase(cards: Cards, plural: bool) -> str:
    """Rank and kinds with the noun: ``rank 2 or higher fire or water cards``."""
    words: list[str] = []
    if cards.rank is not None:
        words.append(f"rank {_number(cards.rank)}")
        if cards.rank_op != "==":
            words.append("or higher" if cards.rank_op == ">=" else "or lower")
    for kind in cards.kinds:
        if not re.fullmatch(r"[a-z][a-z'-]*( [a-z][a-z'-]*)*", kind):
            raise RenderError(f"no wording for the kind {kind!r}")
    if cards.kinds:
        words.append(" or ".join(cards.kinds))
    words.append("cards" if plural else "card")
    return " ".join(words)


def _place(cards: Cards, source: str = "from") -> str:
    """Where the cards are, with a leading space, or nothing (``source``: from / in)."""
    zone, controller, owner = cards.zone, cards.controller, cards.owner
    if cards.any_type or cards.random:
        if zone is not None or controller is not None or owner is not None \
                or (cards.any_type and cards.random):
            raise RenderError("'of any type' and 'at random' take no other place")
        return " of any type" if cards.any_type else " at random"
    if zone is None:
        if controller is None and owner is None:
            return ""
    elif zone == "field":
        if controller is not None and owner is None:
            return " " + {"you": "you control", "opponent": "your opponent controls",
                          "they": "they control"}[controller]
        if owner is not None and controller is None and owner != "they":
            return " " + {"you": "you own", "opponent": "your opponent owns"}[owner]
        if owner is None and controller is None:
            return " on the field"
    elif zone in ("deck", "discard pile", "hand") and owner is not None and controller is None:
        return f" {source} {_WHOSE[owner]} {zone}"
    elif zone == "revealed" and owner is None and controller is None:
        return " from among them"
    raise RenderError(f"no wording for where the cards are: {cards!r}")


def _cards(cards: Cards, article: bool = False) -> str:
    """A card selection as an object (lower case); ``article``: "a" rather than "one"."""
    q = cards.quantifier
    plain = Cards(q)
    if q == "this" and not cards.other and cards == Cards(
            "this", controller=cards.controller, owner=cards.owner, zone=cards.zone,
            any_type=cards.any_type, random=cards.random):
        return "this card" + _place(cards)
    if q in ("this", "equipped", "it"):
        if cards != plain:
            raise RenderError(f"'{q}' takes no filter: {cards!r}")
        return {"equipped": "the equip card", "it": "it"}[q]
    other = " except this card" if cards.other else ""
    if q in ("all", "any"):
        if cards.count != 1:
            raise RenderError("'all' takes no number")
        head = "all " if q == "all" else ""
        return head + _kind_phrase(cards, plural=True) + _place(cards) + other
    count = cards.count
    if isinstance(count, int) and count < 1:
        raise RenderError("a selection needs at least one card")
    phrase = _kind_phrase(cards, plural=count != 1) + _place(cards)
    if cards.other and q == "a" and count == 1:
        return f"another {phrase}"
    phrase += other
    if article and q == "a" and count == 1:
        return _a(phrase)
    lead = {"a": "", "up_to": "up to ", "exactly": "exactly "}[q] + _count(count)
    return f"{lead} {phrase}"


def _counted(cards: Cards) -> str:
    """The cards after ``for each``: no number, singular."""
    if cards.quantifier != "all" or cards.count != 1:
        raise RenderError(f"no wording for counting {cards!r}")
    other = " except this card" if cards.other else ""
    return _kind_phrase(cards, plural=False) + _place(cards, "in") + other


def _selector_phrase(sel: Selector) -> str:
    """A trigger's subject: ``this card``, ``a rank 2 aquatic card you control``."""
    if sel == Selector("this"):
        return "this card"
    if sel.name_contains is not None or sel.other or sel.team is not None:
        raise RenderError(f"no wording for the subject {sel!r}")
    kind = sel.type if sel.type == "card" or sel.type.endswith(" card") else f"{sel.type} card"
    if sel.quantifier == "a":
        if sel.count != 1:
            head = f"{_count(sel.count)} {kind}s"
        else:
            head = _a(kind)
    elif sel.quantifier == "all" and sel.count == 1:
        head = f"all {kind}s"
    else:
        raise RenderError(f"no wording for the subject {sel!r}")
    if sel.zone is None and sel.owner is None:
        return head
    if sel.zone == "field":
        if sel.owner is None:
            return head + " on the field"
        return head + " " + {"you": "you control", "opponent": "your opponent controls"}[
            str(sel.owner)]
    if sel.zone in ("deck", "discard pile", "hand") and sel.owner in ("you", "opponent"):
        return f"{head} from {_WHOSE[str(sel.owner)]} {sel.zone}"
    if sel.zone == "revealed" and sel.owner is None:
        return head + " from among them"
    raise RenderError(f"no wording for the subject {sel!r}")


def _plural(cards: Cards) -> bool:
    """Whether a selection reads as plural (for the verb after it)."""
    return cards.quantifier in ("all", "any") or (
        cards.quantifier in ("a", "up_to", "exactly") and cards.count != 1)


def _subject_verb(cards: Cards, base: str, third: str) -> str:
    """``this card gains`` / ``all fire cards gain``."""
    return f"{_cards(cards)} {base if _plural(cards) else third}"


_DURATIONS = {
    "end_of_turn": "this turn",
    "your_next_turn": "until your next turn",
    "end_of_your_next_turn": "until the end of your next turn",
    "next_turn": "next turn",
}


def _duration(duration: Duration) -> str:
    if duration.until in _DURATIONS:
        return _DURATIONS[duration.until]
    found = re.fullmatch(r"next_(\d+)_turns", duration.until)
    if found and int(found.group(1)) >= 2:
        return f"for the next {_count(int(found.group(1)))} turns"
    raise RenderError(f"no wording for the duration {duration.until!r}")


def _suffix(duration: Duration | None) -> str:
    return "" if duration is None else " " + _duration(duration)


_STATS = {"attack": "attack", "defense": "defense", "rank": "rank"}
_RESTRICTIONS = {
    "be destroyed": "cannot be destroyed",
    "be destroyed by effects": "cannot be destroyed by effects",
    "be destroyed in battle": "cannot be destroyed in battle",
    "be targeted": "cannot be targeted by effects",
    "attack": "cannot attack",
    "be attacked": "cannot be attacked",
    "activate effects": "cannot activate their effects",
}


def _play_action(action: str) -> str:
    if action in ("attack", "activate effects", "draw cards", "play cards"):
        return {"activate effects": "activate their effects"}.get(action, action)
    if action.startswith("play "):
        return action
    raise RenderError(f"no wording for the action {action!r}")


def _timed_core(step: Step) -> tuple[str, Duration | None]:
    """A step that can last, without its duration, and the duration."""
    if isinstance(step, Boost):
        what = step.what
        if step.stat == "rank":
            if isinstance(step.delta, int) and step.delta < 0:
                return f"decrease the rank of {_cards(what)} by {_count(-step.delta)}", \
                    step.duration
            return f"increase the rank of {_cards(what)} by {_count(step.delta)}", step.duration
        if step.stat not in ("attack", "defense"):
            raise RenderError(f"no wording for the stat {step.stat!r}")
        if isinstance(step.delta, int) and step.delta < 0:
            verb = _subject_verb(what, "lose", "loses")
            return f"{verb} {-step.delta} {step.stat}", step.duration
        verb = _subject_verb(what, "gain", "gains")
        return f"{verb} {_number(step.delta)} {step.stat}", step.duration
    if isinstance(step, SetStat) and step.stat == "rank":
        verb = _subject_verb(step.what, "become", "becomes")
        return f"{verb} rank {_number(step.value)}", step.duration
    if isinstance(step, Restrict):
        return f"{_cards(step.what)} {_RESTRICTIONS[step.action]}", step.duration
    if isinstance(step, Allow):
        return f"{_cards(step.what)} can {step.action}", step.duration
    if isinstance(step, RankUp) and step.permission:
        using = _cards(step.using, article=True)
        if step.target.quantifier == "any" and (step.target.kinds or step.target.rank is not None):
            return f"{_cards(step.target)} can rank up using {using}", step.duration
        return f"you can rank up {_cards(step.target)} using {using}", step.duration
    if isinstance(step, ExtraPlay):
        what = step.what
        if what.quantifier != "a" or what.zone or what.owner or what.controller \
                or what.any_type:
            raise RenderError(f"no wording for the extra play {what!r}")
        kind = _kind_phrase(what, plural=what.count != 1)
        return f"you can play {_count(what.count)} extra {kind}", step.duration
    if isinstance(step, Prohibit):
        who = next((w for w in ("you", "opponent", "each") if step.subject == _player(w)), None)
        if who is None:
            raise RenderError(f"no wording for the player {step.subject!r}")
        return f"{_who(who)} cannot {_play_action(step.action)}", step.duration
    raise RenderError(f"no wording for the step {step!r}")


_TIMED = (Boost, SetStat, Restrict, Allow, ExtraPlay, Prohibit)
_SUFFIXED = (ExtraPlay, Prohibit, RankUp)
"""Steps whose duration reads after them ("... this turn"); others lead with it."""


def _is_timed(step: Step) -> bool:
    return isinstance(step, _TIMED) or (isinstance(step, RankUp) and step.permission)


def _simple(step: Step) -> str:
    """A step as it reads inside a list of steps (lower case), with any suffix."""
    if _is_timed(step):
        text, duration = _timed_core(step)
        return text + _suffix(duration)
    if isinstance(step, Draw):
        amount = "one card" if step.amount == 1 else f"{_count(step.amount)} cards"
        return f"{_verb(step.player, 'draw', 'draws')} {amount}"
    if isinstance(step, Discard) and step.what is None:
        amount = "one card" if step.amount == 1 else f"{_count(step.amount)} cards"
        return f"{_verb(step.player, 'discard', 'discards')} {amount}"
    if isinstance(step, Scrap):
        amount = "one card" if step.amount == 1 else f"{_count(step.amount)} cards"
        return f"{_verb(step.player, 'mill', 'mills')} {amount}"
    if isinstance(step, Shuffle) and step.player == "you" and step.zone == "deck":
        return "shuffle your deck"
    if isinstance(step, AddToHand):
        return f"add {_cards(step.what)} to your hand"
    if isinstance(step, Destroy):
        return f"destroy {_cards(step.what)}"
    if isinstance(step, DiscardCards):
        if step.what == Cards("a", step.what.count):
            raise RenderError("a plain discard is the shared Discard")
        if step.player == "you" and step.what.zone == "deck":
            return f"send {_cards(step.what)} to the discard pile"
        return f"{_verb(step.player, 'discard', 'discards')} {_cards(step.what)}"
    if isinstance(step, PlayCards):
        return f"play {_cards(step.what)}"
    if isinstance(step, PlaceUnder):
        return f"place {_cards(step.what)} under {_cards(step.under)}"
    if isinstance(step, Counter):
        return f"counter the effect of {_cards(step.what, article=True)}"
    if isinstance(step, Copy):
        return f"copy the effect of {_cards(step.what)}"
    if isinstance(step, Tap):
        return f"{'untap' if step.untap else 'tap'} {_cards(step.what)}"
    if isinstance(step, Points) and isinstance(step.amount, Var) and step.amount.name != "X":
        if step.player != "you" or step.lose or step.amount.of != Selector("this") \
                or step.amount.name not in _STATS:
            raise RenderError(f"no wording for the points {step!r}")
        return f"gain points equal to the {step.amount.name} of this card"
    if isinstance(step, Points):
        noun = "point" if step.amount == 1 else "points"
        verb = _verb(step.player, "lose", "loses") if step.lose \
            else _verb(step.player, "gain", "gains")
        return f"{verb} {_count(step.amount)} {noun}"
    if isinstance(step, RankUp):
        return f"rank up {_cards(step.target)} using {_cards(step.using, article=True)}"
    if isinstance(step, RevealTop) and step.player == "you":
        noun = "card" if step.count == 1 else "cards"
        verb = "look at" if step.private else "reveal"
        return f"{verb} the top {_count(step.count)} {noun} of your deck"
    if isinstance(step, ReturnCards):
        return f"return {_cards(step.what)} to its owner's {step.to}"
    if isinstance(step, Swap):
        return f"swap {_cards(step.what)} with {_cards(step.other)}"
    if isinstance(step, SkipTurn):
        if step.player == "you":
            return "skip your next turn"
        return f"{_who(step.player)} {'skips' if step.player == 'opponent' else 'skip'} " \
               "their next turn"
    if isinstance(step, Redirect):
        return f"redirect the attack to {_cards(step.to)}"
    if isinstance(step, Equip):
        return f"equip {_cards(step.what)} to {_cards(step.to)}"
    if isinstance(step, ForEach) and step.event is None and len(step.effect) == 1:
        inner = step.effect[0]
        if isinstance(inner, (Draw, Points)):
            return f"{_simple(inner)} for each {_counted(step.what)}"
        if isinstance(inner, Boost) and inner.stat in ("attack", "defense") \
                and not (isinstance(inner.delta, Var) and inner.delta.name != "X"):
            text, duration = _timed_core(msgspec.structs.replace(inner, duration=None))
            return f"{text} for each {_counted(step.what)}{_suffix(duration or inner.duration)}"
    raise RenderError(f"no wording for the step {step!r} inside a list")


def _steps(steps: tuple[Step, ...]) -> str:
    if not steps:
        raise RenderError("an empty list of steps has no wording")
    for before, after in itertools.pairwise(steps):
        if isinstance(before, AddToHand) and after == AddToHand(Cards("it")):
            # "add X to your hand and add it to your hand" reads as one step (Builder.step_list)
            raise RenderError("adding 'it' to the hand right after adding a card says nothing more")
    return " and ".join(_simple(s) for s in steps)


def _condition(cond: Condition) -> str:
    if cond.subject == "state" and cond.op == "is" and cond.of == Selector("this"):
        position = {"on the field": "on the field", "dormant": "dormant", "tapped": "tapped",
                    "untapped": "untapped", "under another card": "under another card",
                    "in hand": "in your hand", "in discard pile": "in your discard pile"}
        if cond.value in position:
            return f"this card is {position[str(cond.value)]}"
    if cond.subject == "cards" and cond.of is not None and cond.of.zone == "field":
        sel = cond.of
        who = str(sel.owner)
        verb = "control" if who in ("you", "each") else "controls"
        kind = sel.type if sel.type == "card" or sel.type.endswith(" card") else f"{sel.type} card"
        if sel != Selector("all", sel.type, owner=sel.owner, zone="field"):
            raise RenderError(f"no wording for the condition {cond!r}")
        if (cond.op, cond.value) == (">=", 1):
            amount = _a(kind)
        elif (cond.op, cond.value) == ("==", 0):
            amount = f"no {kind}s"
        elif isinstance(cond.value, (int, Var)):
            amount = _comparison(cond.op, cond.value) + f" {kind}s"
        else:
            raise RenderError(f"no wording for the condition {cond!r}")
        return f"{_who(who)} {verb} {amount}"
    if cond.subject == "points" and cond.of is not None and isinstance(cond.value, (int, Var)):
        who = "each" if cond.of == Selector("each", "player") else str(cond.of.owner)
        have = "have" if who in ("you", "each") else "has"
        return f"{_who(who)} {have} {_comparison(cond.op, cond.value)} points"
    raise RenderError(f"no wording for the condition {cond!r}")


def _comparison(op: str, value: Amount) -> str:
    number = _number(value)
    if op == "==":
        return number
    if op in (">=", "<="):
        return f"{number} or {'more' if op == '>=' else 'less'}"
    raise RenderError(f"no wording for the comparison {op!r}")


def _clause(step: Step) -> str:
    """One step as a whole sentence (without its period), first letter small."""
    if _is_timed(step):
        text, duration = _timed_core(step)
        if duration is not None and not isinstance(step, _SUFFIXED):
            return f"{_duration(duration)}, {text}"
        return text + _suffix(duration)
    if isinstance(step, If) and not step.otherwise:
        body = step.then
        if len(body) == 1 and isinstance(body[0], May):
            return f"if {_condition(step.condition)}, {_clause(body[0])}"
        return f"if {_condition(step.condition)}, {_steps(body)}"
    if isinstance(step, May) and step.player == "you":
        return f"you may {_steps(step.steps)}"
    if isinstance(step, Delay):
        when = {"end_of_turn": "this turn", "end_of_round": "the round"}.get(step.when)
        if when is None:
            raise RenderError(f"no wording for the delay {step.when!r}")
        return f"at the end of {when}, {_steps(step.effect)}"
    if isinstance(step, ForEach):
        try:
            return _simple(step)
        except RenderError:
            pass
        event = f" {step.event} this turn" if step.event else ""
        body = step.effect
        if len(body) == 1 and isinstance(body[0], Delay) and body[0].when == "end_of_turn":
            inner = f"{_steps(body[0].effect)} at the end of the turn"
        else:
            inner = _steps(body)
        return f"for each {_counted(step.what)}{event}, {inner}"
    if isinstance(step, Unknown):
        return step.text.rstrip(".")
    return _simple(step)


def _effect(steps: tuple[Step, ...], *, first_small: bool = False) -> str:
    if not steps:
        raise RenderError("an empty effect has no wording")
    sentences = [_clause(s) + "." for s in steps]
    if not first_small:
        sentences[0] = _cap(sentences[0])
    return " ".join([sentences[0]] + [_cap(s) for s in sentences[1:]])


def _trigger(trig: Trigger) -> str:
    if trig.event == "turn_begins" and trig.subject is None and trig.phase is None:
        return f"at the start of {'your' if trig.who == 'you' else 'your opponent' + chr(39) + 's'} turn"
    if trig.event == "turn_ends" and trig.subject is None and trig.phase is None:
        return f"at the end of {'your' if trig.who == 'you' else 'your opponent' + chr(39) + 's'} turn"
    if trig.subject is None or trig.phase is not None:
        raise RenderError(f"no wording for the trigger {trig!r}")
    subject = _selector_phrase(trig.subject)
    if trig.event == "played" and trig.who in ("you", "opponent"):
        verb = "play" if trig.who == "you" else "plays"
        return f"when {_who(trig.who)} {verb} {subject}"
    if trig.who is not None:
        raise RenderError(f"no wording for the trigger {trig!r}")
    plural = trig.subject.quantifier == "all" or trig.subject.count != 1
    be = "are" if plural else "is"
    events = {"destroyed": f"{be} destroyed", "discarded": f"{be} discarded",
              "played": f"{be} played", "attacked": f"{be} attacked",
              "tapped": f"{be} tapped", "targeted": f"{be} targeted",
              "ranked_up": f"{be} ranked up",
              "sent_to_discard": f"{be} sent to the discard pile",
              "attacks": "attack" if plural else "attacks"}
    if trig.event not in events:
        raise RenderError(f"no wording for the trigger {trig!r}")
    return f"when {subject} {events[trig.event]}"


def _first_run(effect: tuple[Step, ...]) -> int:
    """How many leading steps read inside a list (for ``COST to STEPS.``)."""
    count = 0
    for step in effect:
        try:
            _simple(step)
        except RenderError:
            break
        count += 1
    return count


def _ability(ability: Ability) -> str:
    if isinstance(ability, Labelled):
        if ability.label not in LABELS:
            raise RenderError(f"no wording for the label {ability.label!r}")
        inner = ability.ability
        if isinstance(inner, Passive) and inner.condition is None \
                and ability.label not in PASSIVE_LABELS:
            raise RenderError("plain always-on sentences need a Passive or Equip label")
        if isinstance(inner, Activated) and not inner.cost and ability.label in PASSIVE_LABELS:
            raise RenderError("an activated effect cannot carry a Passive or Equip label")
        return f"{LABELS[ability.label]}: {_line(inner)}"
    if isinstance(ability, Passive) and ability.condition is None:
        raise RenderError("plain always-on sentences need a Passive or Equip label")
    return _line(ability)


def _line(ability: Ability) -> str:
    if isinstance(ability, Activated) and not ability.alternative:
        if not ability.cost:
            return _effect(ability.effect)
        run = _first_run(ability.effect)
        if run:
            first = _steps(ability.effect[:run])
            rest = ability.effect[run:]
            line = f"{_cap(_steps(ability.cost))} to {first}."
            return line + (" " + _effect(rest) if rest else "")
        return f"{_cap(_steps(ability.cost))}; {_effect(ability.effect, first_small=True)}"
    if isinstance(ability, Triggered):
        return f"{_cap(_trigger(ability.trigger))}, {_effect(ability.effect, first_small=True)}"
    if isinstance(ability, Passive):
        if ability.condition is None:
            return _effect(ability.effect)
        return f"While {_condition(ability.condition)}, " \
               f"{_effect(ability.effect, first_small=True)}"
    if isinstance(ability, Replacement):
        event = ability.event
        if event.event == "destroyed" and event.who is None and event.subject is not None:
            return f"If {_selector_phrase(event.subject)} would be destroyed, " \
                   f"{_steps(ability.effect)} instead."
    raise RenderError(f"no wording for the ability {ability!r}")


def render(tree: CardText) -> str:
    """The canonical TTCG text of ``tree``, one effect per line.

    Raises :class:`~grammar.render.RenderError` for a node no template expresses.
    """
    return "\n".join(_ability(a) for a in tree.abilities)


def pool_text(record: dict[str, Any]) -> str:
    """The text of a real card-pool record with each line's effect-type label written in.

    The pool keeps the types in ``stats["effect_styles"]`` (see :func:`label_text`); a
    record without them gives its ``text`` as it is.
    """
    text = str(record.get("text") or "")
    stats = record.get("stats")
    styles = stats.get("effect_styles") if isinstance(stats, dict) else None
    if not isinstance(styles, list):
        return text
    return label_text(text, [str(s) for s in styles])


def pool_fields(record: dict[str, Any]) -> dict[str, Any]:
    """Our card fields from a real card-pool record, whose numbers are written as text.

    The rank (``stats["rank"]``) is the card's ``level``; ``stats["subtypes"]`` its
    ``traits``; attack and defense (a Spell's signed changes) become ``stats`` of numbers,
    as in our card files; a cost written as a number becomes one. What cannot be read is
    left out.
    """
    stats = record.get("stats")
    if not isinstance(stats, dict):
        return {}
    out: dict[str, Any] = {}
    rank = printed_number(stats.get("rank"))
    if rank is not None:
        out["level"] = rank
    subtypes = stats.get("subtypes")
    if isinstance(subtypes, list):
        out["traits"] = [str(s) for s in subtypes if isinstance(s, str)]
    numbers = {key: printed_number(stats.get(key)) for key in ("attack", "defense")}
    out["stats"] = {key: value for key, value in numbers.items() if value is not None}
    cost = printed_number(record.get("cost"))
    if cost is not None:
        out["cost"] = cost
    return out


GRAMMAR = GameGrammar("ttcg", Builder, card_types=None, settle=settle, render=render, pool_text=pool_text,
                      pool_fields=pool_fields)
