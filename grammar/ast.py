"""The effect AST: what a card's text means, as plain frozen, typed nodes.

Every node is a frozen :class:`msgspec.Struct` with a ``node`` tag, so a whole tree
serialises to JSON (:func:`to_json`) and back (:func:`from_json`) without loss, and two
trees compare equal exactly when they mean the same thing.

The shape follows how the rulebooks describe card text:

* a card's text is a :class:`CardText`: an ordered tuple of abilities;
* an ability is one of :class:`Spell` (what a played card does as it resolves),
  :class:`Activated` (cost before a semicolon, then the effect), :class:`Triggered`
  (trigger before a comma, then the effect), :class:`Passive` (always on),
  :class:`Replacement` (an event done ``instead`` of another), :class:`Conditional`
  (a condition that must hold for the card to be added to the queue) and
  :class:`Keyword` (a keyword the game defines, e.g. a Map Piece's collect line);
* an effect is an ordered tuple of :data:`Step` nodes, carried out in text order;
* steps refer to objects through a :class:`Selector`, to numbers through
  :data:`Amount`, to time through :class:`Duration`, and test the state through
  :class:`Condition`.

Text that no template covers becomes an :class:`Unknown` node carrying the words, so a
caller can always tell a complete tree from a partial one (:func:`unknown_parts`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, Union

import msgspec


class _Node(msgspec.Struct, frozen=True, tag_field="node", omit_defaults=True):
    """Base of every AST node: frozen, and tagged by a ``node`` field in JSON."""


Node = _Node
"""The public name of the node base class (game node modules subclass it)."""


Who = Literal["you", "opponent", "each", "active", "nonactive", "owner", "controller", "any"]
"""Whose object or which player: relative to the controller of the ability."""


class Var(_Node, tag="var", frozen=True):
    """A number the text leaves open: ``X``, the result of a roll, a count or a stat.

    ``name`` is one of ``"X"``, ``"result"`` (the last die rolled by this effect),
    ``"damage"`` (damage on the referred Neopet), ``"cards"`` (cards in a zone) or a
    stat name (``"Attack"``, ``"Defence"``, ``"Agility"``, ``"Hit Points"``).
    ``of`` names the object or zone the variable is read from, where it needs one.
    """

    name: str
    of: Selector | None = None


Amount = int | Var
"""A count or quantity in card text: a literal number or a :class:`Var`."""


class Selector(_Node, tag="selector", frozen=True):
    """Which objects a step acts on, in the words of the text.

    ``quantifier``: ``this`` (the card itself), ``the`` (the one object of its kind, as
    in "your Neopet" or "your opponent"), ``target`` (chosen as it is queued),
    ``a`` (chosen on resolution), ``each``/``all``, ``up_to`` (up to ``count``),
    ``it``/``that`` (an object named earlier in the same ability).
    ``type``: a card type (``Equipment``, ``Codestone``...), ``card`` for any card, or
    ``Neopet`` for a Neopet, ``player`` for a player. ``owner``: whose objects qualify. ``zone``: where they are
    looked for (``Battledome``, ``Inventory``, ``Discard``, ``Void``, ``Main Deck``,
    ``queue``, ``Rainbow Pool``, ``Play Area``). ``name_contains``: a name reference
    (a card with those words in its name). ``other``: excludes the source itself.
    ``team``: a team icon the objects must carry.
    """

    quantifier: Literal["this", "the", "target", "a", "each", "all", "up_to", "it", "that"]
    type: str = "card"
    count: Amount = 1
    owner: Who | None = None
    zone: str | None = None
    name_contains: str | None = None
    other: bool = False
    team: str | None = None

    def describe(self) -> str:
        """A short description for messages, e.g. ``target Equipment in queue``."""
        return " ".join([self.quantifier, self.type] + ([f"in {self.zone}"] if self.zone else []))


class Duration(_Node, tag="duration", frozen=True):
    """How long a change lasts.

    ``until``: ``end_of_turn``, ``your_next_turn`` (the beginning of your next turn),
    ``end_of_round``, ``next_battle_phase`` (through the affected player's next Battle
    Phase), ``this_phase`` or ``permanent``.
    """

    until: str


class Condition(_Node, tag="condition", frozen=True):
    """A test on the game state.

    ``subject`` names what is measured (``damage`` on a Neopet, ``cards`` in a zone,
    a stat name, ``result`` of a roll, ``controls`` a kind of card, ``turn`` whose turn
    it is, ``phase`` the current phase); ``op`` compares (``>=``, ``<=``, ``==``,
    ``has``, ``is``); ``value`` is what it is compared with; ``of`` says whose object
    or zone is measured.
    """

    subject: str
    op: Literal[">=", "<=", "==", "has", "is", "not"]
    value: Amount | str
    of: Selector | None = None


# --------------------------------------------------------------------------- steps


class Draw(_Node, tag="draw", frozen=True):
    """A player draws ``amount`` cards from their Main Deck."""

    player: Who
    amount: Amount = 1


class Discard(_Node, tag="discard", frozen=True):
    """A player discards ``amount`` cards from their Inventory (a choice they make)."""

    player: Who
    amount: Amount = 1
    what: Selector | None = None


class Scrap(_Node, tag="scrap", frozen=True):
    """The top ``amount`` cards of a player's Main Deck go to their Discard."""

    player: Who
    amount: Amount = 1


class Send(_Node, tag="send", frozen=True):
    """Objects are sent to a zone (this is not discarding)."""

    what: Selector
    to: str


class Deal(_Node, tag="deal", frozen=True):
    """Damage is dealt to Neopets."""

    amount: Amount
    to: Selector


class Heal(_Node, tag="heal", frozen=True):
    """Damage is removed from Neopets."""

    amount: Amount
    target: Selector


class Search(_Node, tag="search", frozen=True):
    """A player looks through a zone for cards matching ``what`` and moves them."""

    player: Who
    zone: str
    what: Selector
    to: str = "Inventory"


class Reveal(_Node, tag="reveal", frozen=True):
    """Cards are shown to all players."""

    what: Selector


class Freeze(_Node, tag="freeze", frozen=True):
    """Neopets gain the frozen status."""

    target: Selector


class Negate(_Node, tag="negate", frozen=True):
    """A card, ability or effect is stopped from resolving or applying."""

    target: Selector


class Transform(_Node, tag="transform", frozen=True):
    """The controller's active Neopet is swapped with a Rainbow Pool Neopet.

    ``into`` names the Paint Brush (or Location) the new Neopet must carry, or ``None``
    when the effect allows any.
    """

    into: str | None = None


class Attach(_Node, tag="attach", frozen=True):
    """Codestones are attached to a Neopet by an effect."""

    what: Selector
    to: Selector


class Modify(_Node, tag="modify", frozen=True):
    """A stat of the selected Neopets changes by ``delta`` for ``duration``."""

    target: Selector
    stat: str
    delta: Amount
    duration: Duration | None = None


class Roll(_Node, tag="roll", frozen=True):
    """A player rolls dice (``d6`` or ``d3``); later steps read ``Var("result")``."""

    player: Who
    die: Literal["d6", "d3"] = "d6"
    count: Amount = 1


class Reroll(_Node, tag="reroll", frozen=True):
    """A player may reroll up to ``amount`` of their dice."""

    player: Who
    amount: Amount = 1


class Abandon(_Node, tag="abandon", frozen=True):
    """The controller abandons their Neopet and loses the round."""


class Prohibit(_Node, tag="prohibit", frozen=True):
    """``can't``: the subject may not do ``action`` for ``duration``."""

    subject: Selector
    action: str
    duration: Duration | None = None


class Permit(_Node, tag="permit", frozen=True):
    """``can``/``may``: the subject may do ``action`` (e.g. play an additional card)."""

    subject: Selector
    action: str
    duration: Duration | None = None


class Immune(_Node, tag="immune", frozen=True):
    """The selected Neopets cannot be affected by ``to`` (a status or ability)."""

    target: Selector
    to: str
    duration: Duration | None = None


class Shuffle(_Node, tag="shuffle", frozen=True):
    """A player shuffles a zone (their Main Deck)."""

    player: Who
    zone: str = "Main Deck"


class StayInPlay(_Node, tag="stay_in_play", frozen=True):
    """The card stays in the Play Area after it resolves."""


class Delay(_Node, tag="delay", frozen=True):
    """A delayed trigger: ``effect`` happens at ``when`` (e.g. the end of the round)."""

    when: str
    effect: tuple[Step, ...]


class If(_Node, tag="if", frozen=True):
    """``If CONDITION, STEPS`` inside an effect (otherwise ``otherwise``)."""

    condition: Condition
    then: tuple[Step, ...]
    otherwise: tuple[Step, ...] = ()


class May(_Node, tag="may", frozen=True):
    """``you may STEPS``: the controller chooses whether to carry the steps out."""

    player: Who
    steps: tuple[Step, ...]


class Unknown(_Node, tag="unknown", frozen=True):
    """Words no template covers; keeps the text so nothing is silently dropped."""

    text: str


# Each game's own nodes live in grammar/<game>_nodes.py (see the module docstring
# there); they are imported here, after the shared nodes they build on exist, so the
# unions below hold every game's steps and abilities.
from grammar import bakugan_nodes as _bakugan
from grammar import battle_monsters_nodes as _battle_monsters
from grammar import epic_battles_nodes as _epic_battles
from grammar import ttcg_nodes as _ttcg

GAME_NODE_MODULES = (_bakugan, _ttcg, _battle_monsters, _epic_battles)
"""The node modules of the games besides Neopets (whose nodes are above)."""

if TYPE_CHECKING:  # the unions take in every game's nodes at run time: static checkers see Any
    Step: TypeAlias = Any
    Ability: TypeAlias = Any
else:
    Step = Union[
        Draw, Discard, Scrap, Send, Deal, Heal, Search, Reveal, Freeze, Negate, Transform,
        Attach, Modify, Roll, Reroll, Abandon, Prohibit, Permit, Immune, Shuffle, StayInPlay,
        Delay, If, May, Unknown,
        *(node for module in GAME_NODE_MODULES for node in module.STEPS),
    ]
"""One instruction of an effect."""


# ----------------------------------------------------------------------- abilities


class Trigger(_Node, tag="trigger", frozen=True):
    """The event before the comma of a triggered ability.

    ``event``: ``phase_begins`` / ``phase_ends`` (with ``phase``), ``turn_begins``,
    ``turn_ends``, ``round_ends``, ``played`` (a card is played), ``attached``,
    ``discarded``, ``dealt_damage``, ``knocked_out``, ``rolled``, ``drawn``.
    ``who``: whose turn, phase or action it watches; ``subject``: the object the event
    happens to, where the text names one.
    """

    event: str
    who: Who | None = None
    phase: str | None = None
    subject: Selector | None = None


class Spell(_Node, tag="spell", frozen=True):
    """What a played card does as it resolves, with any additional cost before ``;``."""

    effect: tuple[Step, ...]
    cost: tuple[Step, ...] = ()


class Activated(_Node, tag="activated", frozen=True):
    """``COST; EFFECT`` on a card in play: usable once a turn unless it says more."""

    cost: tuple[Step, ...]
    effect: tuple[Step, ...]
    alternative: bool = False


class Triggered(_Node, tag="triggered", frozen=True):
    """``TRIGGER, EFFECT``: added to the queue when the trigger happens."""

    trigger: Trigger
    effect: tuple[Step, ...]


class Passive(_Node, tag="passive", frozen=True):
    """An always-on effect (stat changes, prohibitions, permissions)."""

    effect: tuple[Step, ...]
    condition: Condition | None = None


class Replacement(_Node, tag="replacement", frozen=True):
    """``If EVENT would happen, STEPS instead``."""

    event: Trigger
    effect: tuple[Step, ...]


class Conditional(_Node, tag="conditional", frozen=True):
    """A card may be added to the queue only while the condition holds.

    ``timing`` restricts when (``opponent_turn``, ``your_turn``, ``battle_phase``,
    ``after_dice``...) and ``condition`` tests the state.
    """

    condition: Condition | None = None
    timing: str | None = None


class Keyword(_Node, tag="keyword", frozen=True):
    """A keyword line the game defines.

    ``name``: ``map_piece`` (``argument`` = the Location it belongs to),
    ``rainbow_pool`` (begins the game in the Rainbow Pool), ``stay_in_play``.
    """

    name: str
    argument: str | None = None


if not TYPE_CHECKING:
    Ability = Union[
        Spell, Activated, Triggered, Passive, Replacement, Conditional, Keyword,
        *(node for module in GAME_NODE_MODULES for node in module.ABILITIES),
    ]
"""One ability of a card."""


class CardText(_Node, tag="card_text", frozen=True):
    """A card's whole text: its abilities in printed order."""

    abilities: tuple[Ability, ...]


AnyNode = Union[CardText, Ability, Step, Selector, Condition, Duration, Trigger, Var]  # noqa: UP007 - Step and Ability are typing unions

for _module in GAME_NODE_MODULES:
    # Game nodes may nest steps and abilities; their annotations name these unions,
    # which msgspec resolves in the game module when a tree is first decoded.
    _module.Step = Step  # type: ignore[attr-defined]
    _module.Ability = Ability  # type: ignore[attr-defined]
    _module.CardText = CardText  # type: ignore[attr-defined]
    _module.Trigger = Trigger  # type: ignore[attr-defined]


def to_json(tree: CardText) -> bytes:
    """Serialise a tree to JSON (tags name each node)."""
    return msgspec.json.encode(tree)


def from_json(data: bytes | str) -> CardText:
    """Read a tree back from :func:`to_json` output."""
    return msgspec.json.decode(data, type=CardText)


def nodes(tree: object) -> Iterator[object]:
    """Every node of ``tree`` and every value of its fields, depth first, in the order of the
    text (a node before its parts)."""
    yield tree
    if isinstance(tree, msgspec.Struct):
        for field in tree.__struct_fields__:
            yield from nodes(getattr(tree, field))
    elif isinstance(tree, tuple):
        for item in tree:
            yield from nodes(item)


def unknown_parts(tree: object) -> list[str]:
    """The text of every :class:`Unknown` node in ``tree``, in order."""
    return [node.text for node in nodes(tree) if isinstance(node, Unknown)]


def outline(node: object, indent: int = 0) -> str:
    """A readable, indented outline of a tree, one node a line (``arbiter card`` prints it).

    Each line shows a node's tag and its plain fields; fields that hold nodes or steps
    follow on indented lines under their field name.
    """
    pad = "  " * indent
    if isinstance(node, tuple):
        return "\n".join(outline(item, indent) for item in node)
    if not isinstance(node, msgspec.Struct):
        return pad + repr(node)
    tag = node.__struct_config__.tag
    plain: list[str] = []
    nested: list[tuple[str, object]] = []
    fields, defaults = node.__struct_fields__, node.__struct_defaults__
    offset = len(fields) - len(defaults)
    for i, field in enumerate(fields):
        value = getattr(node, field)
        default = defaults[i - offset] if i >= offset else msgspec.NODEFAULT
        if value == default:
            continue
        if isinstance(value, Selector):
            plain.append(f"{field}=<{_selector_words(value)}>")
        elif isinstance(value, (msgspec.Struct, tuple)) and value != ():
            nested.append((field, value))
        else:
            plain.append(f"{field}={value!r}")
    lines = [pad + str(tag) + (" " + " ".join(plain) if plain else "")]
    for field, value in nested:
        lines.append(f"{pad}  {field}:")
        lines.append(outline(value, indent + 2))
    return "\n".join(lines)


def _selector_words(sel: Selector) -> str:
    words: list[str] = [sel.quantifier]
    if sel.count != 1:
        words.append(str(sel.count))
    if sel.owner:
        words.append(f"{sel.owner}'s")
    words.append(sel.type)
    for field in ("zone", "name_contains", "team"):
        value = getattr(sel, field)
        if value:
            words.append(f"{field}={value}")
    if sel.other:
        words.append("other")
    return " ".join(words)
