"""Effect-AST nodes that only the Bakugan grammar needs.

Shared nodes (selectors, amounts, durations, conditions and the steps and abilities
the games have in common) are in :mod:`grammar.ast`; a game adds here what its cards
say that the shared nodes cannot. Every class subclasses :class:`grammar.ast.Node`
with a unique ``tag`` (prefixed with the game, e.g. ``tag="bakugan_..."``), is listed in
:data:`STEPS` (effect steps) or :data:`ABILITIES` (ability kinds), and may annotate
fields with ``Step``, ``Ability`` or ``CardText`` as strings: :mod:`grammar.ast`
imports this module before those unions exist and fills them in afterwards.

Bakugan card text mostly reuses the shared nodes: a stat change such as ``+200 [B]``
is a :class:`~grammar.ast.Modify` (stats ``BPower``, ``Damage Rating``,
``FrostStrike``, ``DoubleStrike``, ``ShadowStrike``; ``Energy`` on a player), moving a
card is a :class:`~grammar.ast.Send`, drawing and discarding are
:class:`~grammar.ast.Draw` / :class:`~grammar.ast.Discard`, and so on. The nodes below
cover the game's own actions (destroy, retract, energize, recharge, [Stop], attacks made
by a card), its cost rules (energy to spend, cost changes, ``free``) and its two line
shapes that no shared ability has: the BakuCore-icon static (rule 6.5.2.1) and the
keyword rider (``Fury -``, ``Victor:``...).

How selectors are used in this game (fields of :class:`~grammar.ast.Selector`):

* ``type``: ``Bakugan``, a card type (``Action``, ``Hero``, ``Evo``, ``Flip``,
  ``Character``, ``Energy``), ``card`` for any card, ``BakuCore``, ``attack`` (an attack
  a Bakugan makes) or ``player``;
* ``owner``: ``you`` (yours), ``opponent`` (enemy / opposing);
* ``zone``: ``hand``, ``deck``, ``top of deck``, ``discard pile``, ``play`` (the play
  area), ``field`` (the BakuCore Field), ``held`` (BakuCores held by a Bakugan) and
  ``open`` for Bakugan: the open Bakugan (rule 7.2.6);
* ``team``: the faction icon the objects carry (``Aquos``...), ``non-Aquos`` for those
  without it; for a BakuCore, its icon (``FT``, ``FF``, ``SD``, ``MS``, ``HE``);
* ``Selector("the", "Bakugan")`` (no owner) is the *implied* Bakugan: the one the card
  is applied to (rule 1.13.1.2), or for a Character or Evo card the card's own Bakugan.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from grammar.ast import Amount, Condition, Node, Selector, Var, Who

if TYPE_CHECKING:  # filled in by grammar.ast once the union exists
    from grammar.ast import Step, Trigger

REPEAT = "use this any number of times"
"""The ``action`` of the :class:`~grammar.ast.Permit` that lets a rider's optional part be used
again ("You may use this any number of times.")."""

BAKUCORES: tuple[str, ...] = ("FT", "FF", "SD", "MS", "HE")
"""The BakuCore icons: Fist, Flaming Fist, Shield, Magic Shield, Helix."""

FACTIONS: tuple[str, ...] = ("Aquos", "Aurelus", "Darkus", "Haos", "Pyrus", "Ventus")
"""The six factions (rule 1.6.1)."""

RIDERS: tuple[str, ...] = ("Victor", "Fury", "Turbo", "Domination", "Flow", "Sacrifice")
"""The keyword riders real cards print before ``-`` or ``:``."""


# --------------------------------------------------------------------------- steps


class Destroy(Node, tag="bakugan_destroy", frozen=True):
    """The selected cards in play are destroyed: they go to their owners' discard piles
    (rules 3.4.2, 4.5.1)."""

    what: Selector


class Retract(Node, tag="bakugan_retract", frozen=True):
    """The selected open Bakugan close and give back the BakuCores they hold
    (rule 7.2.5)."""

    what: Selector


class Energize(Node, tag="bakugan_energize", frozen=True):
    """The selected cards are put into play as Energy cards (rule 7.2.4); ``uncharged``
    when they enter turned sideways, so they give no Energy this turn (rule 7.2.2)."""

    what: Selector
    uncharged: bool = False


class Recharge(Node, tag="bakugan_recharge", frozen=True):
    """The selected (uncharged) Energy cards become charged again (rule 7.2.1)."""

    what: Selector


class Stop(Node, tag="bakugan_stop", frozen=True):
    """The ``[Stop]`` icon: the attack being dealt is stopped, so its remaining damage
    is not dealt. Only an attack whose Bakugan matches stops: one of ``factions`` (any
    when empty; none of them when ``excluded``, as in ``non-[Aquos]``) and, when
    ``holding`` is not empty, holding one of those BakuCores."""

    factions: tuple[str, ...] = ()
    excluded: bool = False
    holding: tuple[str, ...] = ()


class Attack(Node, tag="bakugan_attack", frozen=True):
    """The card itself makes an attack of ``faction`` whose Damage Rating is
    ``amount``: that many cards are flipped from the opponent's deck (rule 1.16)."""

    faction: str
    amount: Amount


class Play(Node, tag="bakugan_play", frozen=True):
    """The controller plays the selected card (from the zone the selector names);
    ``free`` when its energy cost is zero (rules 1.15.2, 2.3.3)."""

    what: Selector
    free: bool = False


class CostChange(Node, tag="bakugan_cost", frozen=True):
    """The energy cost of the selected cards changes by ``delta`` (negative: less), or
    becomes zero when ``free`` (rule 1.15.2; a cost below zero counts as zero)."""

    what: Selector
    delta: Amount = 0
    free: bool = False


class Spend(Node, tag="bakugan_spend", frozen=True):
    """Energy to spend as a cost (``2 [Energy]: ...``); ``Var("X")`` when the player
    chooses how much (rule 1.8.1.2)."""

    amount: Amount


class SetStat(Node, tag="bakugan_set", frozen=True):
    """A stat of the selected Bakugan becomes ``value`` (its base value, rules 2.9.3 and
    2.10.3)."""

    target: Selector
    stat: str
    value: Amount


class ForEach(Node, tag="bakugan_for_each", frozen=True):
    """``steps`` happen once for each thing ``count`` counts (``+200 [B] for each
    [Aquos] Bakugan on your team``).

    ``count`` is a :class:`~grammar.ast.Var`: ``count`` of the objects its selector
    describes, ``played`` for cards played this turn, a stat name for points of that
    stat, ``shuffled`` for the cards an earlier step shuffled, ``X`` for the energy
    paid for X."""

    steps: tuple[Step, ...]
    count: Var


class Choice(Node, tag="bakugan_choice", frozen=True):
    """One of ``options`` happens; ``chooser`` picks which."""

    options: tuple[tuple[Step, ...], ...]
    chooser: Who = "you"


class Pay(Node, tag="bakugan_pay", frozen=True):
    """A payment inside an effect: ``discard a card for +5 [Damage Rating]``. The
    ``effect`` happens only if the ``cost`` is paid."""

    cost: tuple[Step, ...]
    effect: tuple[Step, ...]


class Instead(Node, tag="bakugan_instead", frozen=True):
    """``... instead``: when these steps happen, they replace the effect of the ability
    (or the sentence) before them rather than adding to it."""

    steps: tuple[Step, ...]


class Qualified(Node, tag="bakugan_qualified", frozen=True):
    """The object the inner step selects (its first selector) must also meet every
    condition in ``where``: ``Condition("cost", "<=", 4)`` for a cost of 4 or less,
    ``Condition("opened", "not", "this turn")``, ``Condition("played", "not", "this
    turn")`` or ``Condition("type", "not", "Energy")``."""

    step: Step
    where: tuple[Condition, ...]


class Detach(Node, tag="bakugan_detach", frozen=True):
    """BakuCores held by a Bakugan are removed from it and put back onto the BakuCore
    Field (face down when ``face_down``), and their effects stop (rule 6.10.2.3)."""

    what: Selector
    face_down: bool = False


class SwapCore(Node, tag="bakugan_swap_core", frozen=True):
    """A BakuCore held by ``first`` changes places with one held by ``second``."""

    first: Selector
    second: Selector


class FlipCoin(Node, tag="bakugan_flip_coin", frozen=True):
    """The controller flips a coin; later steps test ``Condition("coin", "is",
    "heads")``."""


class EndTurn(Node, tag="bakugan_end_turn", frozen=True):
    """The turn ends at once: nothing else happens in it."""


class Select(Node, tag="bakugan_select", frozen=True):
    """A player chooses an object (rule 1.13); the steps after it call it ``it``."""

    what: Selector
    player: Who = "you"


class Copy(Node, tag="bakugan_copy", frozen=True):
    """The effect of the selected card happens again for the controller, with new
    selections."""

    what: Selector


class TakeControl(Node, tag="bakugan_take_control", frozen=True):
    """The controller gains control of the selected card in play."""

    what: Selector


class Look(Node, tag="bakugan_look", frozen=True):
    """The controller looks at the selected cards without revealing them, and may put
    them back in any order."""

    what: Selector


class VictorBy(Node, tag="bakugan_victor_by", frozen=True):
    """This turn, the Victor is the Bakugan with the highest ``stat`` instead of the
    highest BPower (rule 5.10.1)."""

    stat: str


# ----------------------------------------------------------------------- abilities


class CoreStatic(Node, tag="bakugan_core_static", frozen=True):
    """``[FT]: EFFECT``: a static ability that applies while the Bakugan holds a
    BakuCore with one of the ``cores`` icons (rule 6.5.2.1). It does not use the
    batch (rule 4.4.4.3)."""

    cores: tuple[str, ...]
    effect: tuple[Step, ...]


class Rider(Node, tag="bakugan_rider", frozen=True):
    """A keyword rider: ``Turbo: If you control the most Energy cards, draw a card.``

    ``keyword`` is the printed word (``Victor``, ``Fury``, ``Turbo``, ``Domination``,
    ``Flow``, ``Sacrifice``...). ``condition`` is the test the rider spells out after
    ``If``; ``trigger`` the moment it waits for, if it names one (``Fury - At the end of
    the turn, ...``: a :class:`~grammar.ast.Trigger`, as a triggered ability's). ``Victor`` riders happen
    when the card's Bakugan is declared the Victor (rule 5.10.2). An :class:`Instead`
    in ``effect`` replaces the effect of the ability before the rider.
    """

    keyword: str
    effect: tuple[Step, ...]
    condition: Condition | None = None
    trigger: Trigger | None = None


STEPS: tuple[type[Any], ...] = (
    Destroy, Retract, Energize, Recharge, Stop, Attack, Play, CostChange, Spend, SetStat,
    ForEach, Choice, Pay, Instead, Qualified, Detach, SwapCore, FlipCoin, EndTurn, Select,
    Copy, TakeControl, Look, VictorBy,
)
"""This game's own effect steps (joined into :data:`grammar.ast.Step`)."""

ABILITIES: tuple[type[Any], ...] = (CoreStatic, Rider)
"""This game's own ability kinds (joined into :data:`grammar.ast.Ability`)."""

__all__ = [
    "ABILITIES", "BAKUCORES", "FACTIONS", "RIDERS", "STEPS", "Attack", "Choice", "Copy",
    "CoreStatic", "CostChange", "Destroy", "Detach", "EndTurn", "Energize", "FlipCoin",
    "ForEach", "Instead", "Look", "Pay", "Play", "Qualified", "Recharge", "Retract",
    "Rider", "Select", "SetStat", "Spend", "Stop", "SwapCore", "TakeControl", "VictorBy",
]
