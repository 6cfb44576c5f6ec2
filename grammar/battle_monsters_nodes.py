"""Effect-AST nodes that only the Battle Monsters grammar needs.

Shared nodes (selectors, amounts, durations, conditions and the steps and abilities
the games have in common) are in :mod:`grammar.ast`; a game adds here what its cards
say that the shared nodes cannot. Every class subclasses :class:`grammar.ast.Node`
with a unique ``tag`` (prefixed with the game, e.g. ``tag="battle_monsters_..."``), is listed in
:data:`STEPS` (effect steps) or :data:`ABILITIES` (ability kinds), and may annotate
fields with ``Step``, ``Ability`` or ``CardText`` as strings: :mod:`grammar.ast`
imports this module before those unions exist and fills them in afterwards.

Why Battle Monsters needs its own selector
------------------------------------------
Battle Monsters texts pick cards by what is printed on them and how they lie on the
field: "another visible fire element monster on your side of the field", "all
non-water element monsters, traps, and spells", "a dragon whose attack points do not
exceed this card's". The shared :class:`grammar.ast.Selector` has no room for
visibility, elements, species keywords, name prefixes or stat comparisons, and the
shared :class:`grammar.ast.Condition` and :class:`grammar.ast.Trigger` only take that
selector. So objects are described by :class:`Cards`, tested by the conditions below
(:data:`Cond`), and the steps and abilities that hold them are game nodes. The shared
nodes are used where they say exactly what the text says: :class:`grammar.ast.Draw`,
:class:`grammar.ast.Discard`, :class:`grammar.ast.May`, :class:`grammar.ast.Passive`,
:class:`grammar.ast.Spell`, :class:`grammar.ast.Duration` and :class:`grammar.ast.Var`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from grammar.ast import Duration, Node, Var, Who

if TYPE_CHECKING:  # filled in by grammar.ast once its unions exist
    from grammar.ast import Ability, Step

Kind = Literal["monster", "spell", "trap", "card", "player", "effect", "attack"]
"""What sort of object a :class:`Cards` describes.

``monster``, ``spell`` and ``trap`` are the three card kinds (a "magic card" is a
spell), ``card`` is any card, ``player`` a player, ``effect`` a monster's special
effect and ``attack`` a monster's attack (only in what something is immune to).
"""

CompareOp = Literal["<", "<=", "==", ">=", ">"]
"""How two numbers are compared ("less than" is ``<``, "does not exceed" is ``<=``)."""


class Slot(Node, tag="battle_monsters_slot", frozen=True):
    """A placeholder the printed card fills in from the monster it belongs to.

    Real Battle Monsters texts are templates: a monster card is assembled from a root
    and an optional element prefix and title suffix, and the text names the finished
    card's traits through slots. ``name`` is the slot without its ``%``:
    ``SPECIES`` (the monster's species keyword), ``SPECIES_C`` (the same word,
    capitalised), ``ELEMENT_AND`` (every element of the monster: a card must have all
    of them) and ``ELEMENT_OR`` (any one of its elements). ``%NAME``, the card's own
    name, is not a slot node: it is the card itself, :class:`Cards` with quantifier
    ``this``.
    """

    name: str

    def text(self) -> str:
        """The slot as printed, e.g. ``%ELEMENT_OR``."""
        return "%" + self.name


class Quantity(Node, tag="battle_monsters_quantity", frozen=True):
    """A number read from the game state.

    ``name``: ``attack`` or ``defense`` (the points of the card ``of``), ``lives``
    (the life points of ``player``) or ``count`` (how many cards match ``of``).
    """

    name: Literal["attack", "defense", "lives", "count"]
    of: Cards | None = None
    player: Who | None = None


Number = int | Var | Quantity
"""A number in a Battle Monsters text: a literal, ``X``, or a :class:`Quantity`."""


class StatTest(Node, tag="battle_monsters_stat_test", frozen=True):
    """A filter on a monster's points: "with more attack points than %NAME".

    The monster's ``stat`` (``attack`` or ``defense``) must compare by ``op`` with
    ``value``; a :class:`Quantity` value is read when the filter is applied.
    """

    stat: Literal["attack", "defense"]
    op: CompareOp
    value: Number


class Cards(Node, tag="battle_monsters_cards", frozen=True):
    """Which cards (or players) a Battle Monsters effect speaks of.

    ``quantifier``: ``this`` (the card itself: ``%NAME``, "this card"), ``it`` (an
    object named earlier in the same ability: "it", "they"), ``the`` (the one the
    context makes definite, e.g. the card that set off the trigger, or a player),
    ``chosen`` ("the chosen ...": picked by the player as the effect resolves), ``a``
    (any ``count`` of them), ``all`` (every one that matches), ``both`` (the two named
    before) or ``up_to`` (up to ``count``).

    ``kinds`` lists what qualifies (see :data:`Kind`); ``owner`` whose they are
    (``you`` is the side of the card's controller, ``owner`` the card's owner);
    ``zone`` where they are (``field``, ``hand``, ``graveyard``, ``supply``);
    ``visible`` ``True`` for face-up (visible, revealed) and ``False`` for face-down
    cards; ``other`` excludes the card itself; ``species`` a species keyword
    (``"dragon"``) or a :class:`Slot`; ``element`` an element (``"fire"``) or a
    :class:`Slot`, excluded instead of required when ``exclude_element``; ``prefix``
    an element or name prefix the card's name carries; ``state`` a condition the
    cards are in (``fused``; ``attacking`` and ``defending``: the two sides of the
    battle being fought; ``summoned``: the monster whose summoning set off the effect);
    ``mode`` ``attack`` or ``defense`` mode; ``stat`` a
    filter on their points.
    """

    quantifier: Literal["this", "it", "the", "chosen", "a", "all", "both", "up_to"]
    kinds: tuple[Kind, ...] = ("card",)
    count: int = 1
    owner: Who | None = None
    zone: str | None = None
    visible: bool | None = None
    other: bool = False
    species: str | Slot | None = None
    element: str | Slot | None = None
    exclude_element: bool = False
    prefix: str | None = None
    state: str | None = None
    mode: Literal["attack", "defense"] | None = None
    stat: StatTest | None = None


# ---------------------------------------------------------------------- conditions


class Present(Node, tag="battle_monsters_present", frozen=True):
    """The described cards are there: "if there is another visible %SPECIES on ...".

    True when at least ``what.count`` objects match ``what`` (for ``this``: when the
    card itself matches, e.g. "%NAME is visible"); ``negated`` turns it round ("there
    are no visible monsters").
    """

    what: Cards
    negated: bool = False


class Did(Node, tag="battle_monsters_did", frozen=True):
    """The cards did something on an earlier turn: "%NAME attacked on the owner's previous turn".

    ``action``: ``attacked`` or ``defended``; ``turn``: ``previous`` or ``this``;
    ``whose``: whose turn it was, where the text says.
    """

    what: Cards
    action: Literal["attacked", "defended"]
    turn: Literal["previous", "this"]
    whose: Who | None = None


class Battling(Node, tag="battle_monsters_battling", frozen=True):
    """The card itself is in a battle: "when defending against another fire monster".

    ``role``: ``defending``, ``attacking`` or ``any``; ``against``: the monster on the
    other side, if the text names one.
    """

    role: Literal["defending", "attacking", "any"]
    against: Cards | None = None


class TurnOf(Node, tag="battle_monsters_turn_of", frozen=True):
    """It is ``player``'s turn: "during your turn"."""

    player: Who


class Compare(Node, tag="battle_monsters_compare", frozen=True):
    """Two numbers compare: "the owner's lifepoints are less than 5"."""

    left: Number
    op: CompareOp
    right: Number


Cond = Present | Did | Battling | Compare | TurnOf
"""A Battle Monsters condition."""


# -------------------------------------------------------------------------- events


class Event(Node, tag="battle_monsters_event", frozen=True):
    """What sets off a reaction or a spell's special condition.

    ``kinds`` (one of them happening is enough): ``summoned`` (played onto the field;
    "played" reads the same), ``revealed``, ``activated``, ``attacked`` (is attacked),
    ``attacks``, ``defended`` (successfully defended from an attack), ``defeats`` (won a
    battle, against ``target`` if named), ``defeated`` (lost a battle),
    ``sent_to_graveyard``, ``used`` (the special effect called ``name`` was used),
    ``turn_begins`` and ``turn_ends``.

    ``drawn`` and ``discarded`` (a player draws or discards cards).

    ``subject`` is what it happens to or what does it; ``who`` is the player who does
    it where the text names one ("the opponent reveals a trap card") or whose turn it
    is; ``target`` is what an attack is aimed at (or the monster defeated); ``by`` is
    what does it to the subject ("attacked by a fire element monster").
    """

    kinds: tuple[str, ...]
    subject: Cards | None = None
    who: Who | None = None
    target: Cards | None = None
    name: str | None = None
    by: Cards | None = None


# --------------------------------------------------------------------------- steps


class SendTo(Node, tag="battle_monsters_send_to", frozen=True):
    """Cards are moved by an effect: sent (or destroyed) to the ``graveyard``, returned or
    added to their owner's ``hand``, or summoned onto the ``field``. Sending a card to the
    graveyard is not the discard action (``BM.actions.discard.no_trigger``).
    """

    what: Cards
    to: Literal["graveyard", "hand", "field"] = "graveyard"


class Points(Node, tag="battle_monsters_points", frozen=True):
    """Monsters gain (or, when ``delta`` is negative, lose) attack or defense points.

    ``duration`` ``temporary`` ("temporarily gains ... bonus points") lasts for the
    battle being calculated; ``None`` lasts as long as the ability applies. ``per``
    multiplies the change by how many cards match it ("for each visible dragon").
    """

    target: Cards
    stat: Literal["attack", "defense"]
    delta: Number
    duration: Duration | None = None
    per: Cards | None = None


class ImmuneTo(Node, tag="battle_monsters_immune_to", frozen=True):
    """Cards or players cannot be affected by what ``to`` describes.

    ``to.kinds`` says by what: ``spell``, ``trap``, ``effect`` (special effects) or
    ``attack`` (monster attacks); its other fields narrow it ("%ELEMENT_OR based").
    "attack immune" is immunity to all monster attacks.
    """

    target: Cards
    to: Cards


class Cannot(Node, tag="battle_monsters_cannot", frozen=True):
    """A prohibition on cards or players: "%NAME cannot be attacked by %SPECIES monsters".

    ``actions`` (none of them may happen): ``attack``, ``be_attacked``,
    ``lose_lives_in_battle``, ``be_switched`` (to attack or defense mode),
    ``be_switched_manually``, ``be_destroyed`` (sent to the graveyard), ``be_targeted``,
    ``attack_directly`` (attack the player), ``attack_twice``, and for players
    ``summon``, ``activate``, ``draw`` and ``reveal``. ``by`` narrows the other side of
    the action (the attacker or destroyer, or what may not be attacked, summoned,
    activated, drawn or revealed); ``when`` limits it to ``fused_turn``, ``revealed_turn``,
    ``summoned_turn`` (the turn the subject was fused, revealed or summoned) or
    ``this_turn``.
    """

    subject: Cards
    actions: tuple[str, ...]
    by: Cards | None = None
    when: str | None = None


class Can(Node, tag="battle_monsters_can", frozen=True):
    """A permission: "%NAME can attack as soon as it's revealed".

    ``action`` as in :class:`Cannot`; ``only`` makes it the only way ("can only be
    attacked by ..."); ``overriding`` says it holds regardless of other penalties.
    """

    subject: Cards
    action: str
    by: Cards | None = None
    when: str | None = None
    only: bool = False
    overriding: bool = False


class Switch(Node, tag="battle_monsters_switch", frozen=True):
    """Monsters are switched to ``attack`` or ``defense`` mode by an effect."""

    target: Cards
    mode: Literal["attack", "defense"]


class RevealCards(Node, tag="battle_monsters_reveal", frozen=True):
    """Face-down cards are turned face up."""

    what: Cards


class Nullify(Node, tag="battle_monsters_nullify", frozen=True):
    """The special effect of the cards does not apply."""

    what: Cards


class Fuse(Node, tag="battle_monsters_fuse", frozen=True):
    """The special effects of the monsters are fused: each has the effects of all."""

    what: Cards


class Lives(Node, tag="battle_monsters_lives", frozen=True):
    """A player's life points change by ``delta`` (restore health: up; damage: down)."""

    player: Who
    delta: Number


class SkipTurn(Node, tag="battle_monsters_skip_turn", frozen=True):
    """A player's next turn is skipped."""

    player: Who


class EndGame(Node, tag="battle_monsters_end_game", frozen=True):
    """The game ends: ``player`` wins (``result`` ``win``) or loses (``lose``)."""

    player: Who
    result: Literal["win", "lose"] = "win"


class DrawUntil(Node, tag="battle_monsters_draw_until", frozen=True):
    """A player draws cards until they hold ``hand`` cards."""

    player: Who
    hand: int


class Trade(Node, tag="battle_monsters_trade", frozen=True):
    """``cost`` is paid in order to carry out ``effect``: "sacrifice 2 lifepoints to ...".

    The effect happens only if the cost could be paid in full.
    """

    cost: tuple[Step, ...]
    effect: tuple[Step, ...]


class IfThen(Node, tag="battle_monsters_if", frozen=True):
    """``then`` happens (or, in an always-on ability, applies) only while ``condition`` holds.

    The shared :class:`grammar.ast.If` takes a shared Condition only; Battle Monsters
    conditions are :data:`Cond`.
    """

    condition: Cond
    then: tuple[Step, ...]


# ----------------------------------------------------------------------- abilities


class Reaction(Node, tag="battle_monsters_reaction", frozen=True):
    """When ``event`` happens, ``effect`` is carried out.

    As an ability it is a monster's triggered special effect ("When %NAME is summoned,
    ..."); as a step (in a spell's effect) it sets up that reaction.
    """

    event: Event
    effect: tuple[Step, ...]


class Special(Node, tag="battle_monsters_special", frozen=True):
    """A monster's named special effect: ``Name: sentences``.

    ``name`` is kept as printed (it may hold a slot, e.g. ``%SPECIES_C Kinship``).
    ``abilities`` are what the sentences say, in order: consecutive always-on
    sentences form one :class:`grammar.ast.Passive`, sentences with a trigger are
    :class:`Reaction` abilities.
    """

    name: str
    abilities: tuple[Ability, ...]


class TriggerEffect(Node, tag="battle_monsters_trigger_effect", frozen=True):
    """A spell or trap: its special condition (``TRIGGER:``) and special effect (``EFFECT:``).

    ``trigger`` ``None`` means the card has no special condition, so the effect takes
    place when the card is revealed. ``use``: ``single`` ("Single use": the card goes
    to the graveyard once used), ``unlimited`` or ``permanent`` (it stays as long as
    its condition holds), ``once_per_turn``, ``N_turns`` (it lasts N turns), or
    ``None`` when the card does not say.
    """

    trigger: Event | None
    effect: tuple[Step, ...]
    use: str | None = None


STEPS: tuple[type[Any], ...] = (
    SendTo, Points, ImmuneTo, Cannot, Can, Switch, RevealCards, Nullify, Fuse, Lives,
    SkipTurn, EndGame, DrawUntil, Trade, IfThen, Reaction,
)
"""This game's own effect steps (joined into :data:`grammar.ast.Step`)."""

ABILITIES: tuple[type[Any], ...] = (Special, TriggerEffect, Reaction)
"""This game's own ability kinds (joined into :data:`grammar.ast.Ability`)."""

NODES: tuple[type[Any], ...] = (
    Slot, Quantity, StatTest, Cards, Present, Did, Battling, Compare, TurnOf, Event,
    *STEPS, Special, TriggerEffect,
)
"""Every node class of this module."""
