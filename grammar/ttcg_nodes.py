"""Effect-AST nodes that only the TTCG grammar needs.

Shared nodes (selectors, amounts, durations, conditions and the steps and abilities
the games have in common) are in :mod:`grammar.ast`; a game adds here what its cards
say that the shared nodes cannot. Every class subclasses :class:`grammar.ast.Node`
with a unique ``tag`` (prefixed with the game, e.g. ``tag="ttcg_..."``), is listed in
:data:`STEPS` (effect steps) or :data:`ABILITIES` (ability kinds), and may annotate
fields with ``Step``, ``Ability`` or ``CardText`` as strings: :mod:`grammar.ast`
imports this module before those unions exist and fills them in afterwards.

What the TTCG needs beyond the shared nodes
-------------------------------------------
* :class:`Cards`, the game's card selector. TTCG text picks cards by *rank* ("rank 2
  or higher"), by one or more *kinds* (an element such as ``fire``, a sub-type such as
  ``aquatic``, or a category: ``spell`` for magic cards, ``unit`` for creatures), by
  who *controls* or *owns* them and by zone, and it can insist on an *exact* number.
  The shared :class:`~grammar.ast.Selector` has no field for a rank, for alternative
  kinds or for "exactly", so every TTCG step that picks cards takes a :class:`Cards`.
  Shared nodes that hold a Selector (a :class:`~grammar.ast.Trigger`'s subject, a
  :class:`~grammar.ast.Condition`'s ``of``) get one built by :func:`cards_selector`.
* :class:`Labelled`: the effect type of an ability line (rules 2.2.5.i.1-7).
* The game's verbs (2.1): destroy, add to hand (search / recover), play from a zone,
  place under, counter, copy, tap / untap, points, rank up, rank and stat changes,
  restrictions (indestructible, can't be targeted), extra plays, reveal, swap, skip,
  redirect, equip, and a "for each" repetition.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from grammar.ast import Amount, Duration, Node, Selector, Who

if TYPE_CHECKING:  # filled in by grammar.ast once its unions exist
    from grammar.ast import Ability, Step

Whose = Literal["you", "opponent", "they"]
"""Whose cards: ``they`` is the player a step speaks about ("cards they control")."""

Quantifier = Literal["a", "up_to", "exactly", "all", "any", "this", "equipped", "it"]
"""How many of the matching cards a step takes (see :class:`Cards`)."""

RankOp = Literal["==", ">=", "<="]

EffectLabel = Literal[
    "continuous", "counter", "equip", "latent", "dormant", "passive", "echo", "overload"
]
"""Effect types a line can be labelled with (Normal effects carry no label)."""


class Cards(Node, tag="ttcg_cards", frozen=True):
    """Which cards a TTCG step acts on, as the text picks them.

    ``quantifier``:

    * ``a``: ``count`` cards chosen as the step resolves ("one", "two", "a");
    * ``up_to``: between zero and ``count`` of them ("up to two");
    * ``exactly``: ``count`` of them, and the step does nothing unless that many can be
      chosen (the term EXACTLY, 2.1.al);
    * ``all``: every matching card ("all", "each");
    * ``any``: matching cards in general, with no number ("water cards can rank up");
    * ``this``: the card that carries the effect;
    * ``equipped``: the card this card is equipped to (2.2.5.i.4);
    * ``it``: the card(s) named earlier in the same effect.

    ``kinds``: the card must be of one of these kinds (empty: any card). A kind is an
    element (``fire``, ``water``, ``earth``, ``nature``, ``light``, ``dark``,
    ``electric``), a sub-type (``aquatic``, ``beast``, ``spellcaster``...), ``spell``
    (a magic card) or ``unit`` (a creature card); several words in one kind all apply
    (``fire dragon``). ``rank`` with ``rank_op`` compares the card's rank (its stars).
    ``controller``/``owner``: whose cards on the field qualify (2.1.an). ``zone``:
    ``field``, ``deck``, ``discard pile``, ``hand`` or ``revealed`` (the cards just
    revealed by the same effect); cards in a deck, hand or discard pile belong to
    ``owner``. ``any_type``: the element does not matter ("of any type"), which lifts
    the same-type demand of a rank up (2.2.6.b). ``other``: the card carrying the
    effect does not count ("another", "except this card"). ``random``: the cards are
    picked at random rather than chosen.
    """

    quantifier: Quantifier
    count: Amount = 1
    kinds: tuple[str, ...] = ()
    rank: Amount | None = None
    rank_op: RankOp = "=="
    controller: Whose | None = None
    owner: Whose | None = None
    zone: str | None = None
    any_type: bool = False
    other: bool = False
    random: bool = False


THIS_CARD = Cards("this")
"""The card that carries the effect."""


def cards_selector(cards: Cards) -> Selector:
    """The shared :class:`~grammar.ast.Selector` for a card set a shared node refers to.

    Its ``type`` is the kind phrase in words (``aquatic``, ``fire or water``,
    ``rank 2 or higher beast``; ``card`` for any card), ``owner`` is the controller on
    the field or the owner elsewhere. Used for trigger subjects and conditions only.
    """
    if cards.quantifier == "this":
        return Selector("this")
    words = " or ".join(cards.kinds) if cards.kinds else "card"
    if cards.rank is not None:
        suffix = {"==": "", ">=": " or higher", "<=": " or lower"}[cards.rank_op]
        rank = cards.rank if isinstance(cards.rank, int) else "X"
        words = f"rank {rank}{suffix} {words}" if cards.kinds else f"rank {rank}{suffix} card"
    quantifier: Any = {"a": "a", "up_to": "up_to", "all": "all", "any": "all",
                       "exactly": "a", "equipped": "that", "it": "it"}[cards.quantifier]
    owner = cards.controller or cards.owner
    return Selector(quantifier, words, count=cards.count,
                    owner=None if owner in (None, "they") else owner,  # type: ignore[arg-type]
                    zone=cards.zone)


# ---------------------------------------------------------------------- abilities


class Labelled(Node, tag="ttcg_labelled", frozen=True):
    """An ability line with its effect type (rules 2.2.5.i.2-7).

    ``label``: ``continuous`` (activated like a Normal effect, then lasts while the card
    is on the field), ``counter`` (usable at any time in answer to an opponent's
    action), ``equip`` (the card is attached to another and stays active until either
    is destroyed), ``latent`` (happens by itself while the card is untapped and its
    trigger occurs), ``dormant`` (usable only while the card is tapped, and not in the
    turn it became tapped), ``passive`` (always on). ``echo`` and ``overload`` are
    labels of the real card pool that the rulebook does not define; they are kept so
    that nothing is dropped. A Normal effect (2.2.5.i.1) carries no label.
    ``ability`` is the line itself: :class:`~grammar.ast.Activated` (its cost may be
    empty: tapping the card, 2.2.5.f.1 and 2.2.5.g.1, is the cost of every activated
    effect), :class:`~grammar.ast.Triggered`, :class:`~grammar.ast.Passive` or
    :class:`~grammar.ast.Replacement`.
    """

    label: EffectLabel
    ability: Ability


# -------------------------------------------------------------------------- steps


class AddToHand(Node, tag="ttcg_add", frozen=True):
    """The controller puts ``what`` into their hand.

    From the deck this is a search (2.1.h), from the discard pile a recovery (2.1.j);
    ``what.zone`` says which. The deck is not revealed beyond the cards taken.
    """

    what: Cards


class Destroy(Node, tag="ttcg_destroy", frozen=True):
    """``what`` goes to the discard pile with every card under it (2.1.r, 2.1.ai).

    Cards that are indestructible (:class:`Restrict` with ``be destroyed``) stay.
    """

    what: Cards


class DiscardCards(Node, tag="ttcg_discard", frozen=True):
    """``player`` moves the chosen cards to the discard pile from where they are (2.1.f).

    A plain "discard N cards" (from hand, any cards) is the shared
    :class:`~grammar.ast.Discard`; this node is for discards that name the cards, and
    for cards sent to the discard pile. Unlike :class:`Destroy`, the cards under them
    stay.
    """

    what: Cards
    player: Who = "you"


class ReturnCards(Node, tag="ttcg_return", frozen=True):
    """``what`` goes back to its owner's hand, or into its owner's deck (shuffled)."""

    what: Cards
    to: Literal["hand", "deck"]


class PlayCards(Node, tag="ttcg_play", frozen=True):
    """The controller puts ``what`` onto the field from ``what.zone`` (2.1.n).

    Cards played by an effect do not count toward the two plays of a Main Phase
    (2.2.3.a.2.b).
    """

    what: Cards


class PlaceUnder(Node, tag="ttcg_place_under", frozen=True):
    """``what`` is put beneath ``under`` (2.1.q); it stays on the field (2.2.6.d)."""

    what: Cards
    under: Cards


class Counter(Node, tag="ttcg_counter", frozen=True):
    """The effect of ``what`` being activated is negated (the term COUNTER, 2.1.ae)."""

    what: Cards


class Copy(Node, tag="ttcg_copy", frozen=True):
    """This effect does what an effect of ``what`` does (the controller picks which)."""

    what: Cards


class Tap(Node, tag="ttcg_tap", frozen=True):
    """``what`` turns sideways, or upright again when ``untap`` (the term TAP, 2.1.o)."""

    what: Cards
    untap: bool = False


class Points(Node, tag="ttcg_points", frozen=True):
    """``player`` gains (or, with ``lose``, loses) ``amount`` points (2.1.t, 2.2.8)."""

    player: Who
    amount: Amount
    lose: bool = False


class RankUp(Node, tag="ttcg_rank_up", frozen=True):
    """``target`` is ranked (levelled) up with a card of ``using`` put on top (2.2.6).

    With ``permission`` the text only allows it ("you can rank up this card using an
    earth card"): a rank up that would need a card of the same type (2.2.6.b) may use
    ``using`` instead, for ``duration`` when one is given. Without it the effect ranks
    the card up as it resolves.
    """

    target: Cards
    using: Cards
    permission: bool = False
    duration: Duration | None = None


class Boost(Node, tag="ttcg_boost", frozen=True):
    """A number printed on ``what`` changes by ``delta`` for ``duration``.

    ``stat``: ``attack``, ``defense`` or ``rank``. Without a duration the change lasts
    while the card stays on the field.
    """

    what: Cards
    stat: Literal["attack", "defense", "rank"]
    delta: Amount
    duration: Duration | None = None


class SetStat(Node, tag="ttcg_set_stat", frozen=True):
    """A number of ``what`` becomes ``value`` for ``duration`` ("become rank 3")."""

    what: Cards
    stat: Literal["attack", "defense", "rank"]
    value: Amount
    duration: Duration | None = None


class Restrict(Node, tag="ttcg_restrict", frozen=True):
    """``what`` cannot do ``action`` for ``duration``.

    ``action``: ``be destroyed`` (INDESTRUCTIBLE / IMMORTAL, 2.1.aj-ak), ``be destroyed
    by effects``, ``be destroyed in battle`` (2.2.7), ``be targeted`` (by effects),
    ``attack``, ``be attacked`` or ``activate effects``.
    """

    what: Cards
    action: Literal["be destroyed", "be destroyed by effects", "be destroyed in battle",
                    "be targeted", "attack", "be attacked", "activate effects"]
    duration: Duration | None = None


class Allow(Node, tag="ttcg_allow", frozen=True):
    """``what`` may do ``action`` for ``duration``, beyond what the rules allow.

    ``action``: ``attack directly`` (the opponent even while they control creatures,
    against 2.2.7.c) or ``attack twice`` (against the one attack of 2.2.7.b).
    """

    what: Cards
    action: Literal["attack directly", "attack twice"]
    duration: Duration | None = None


class ExtraPlay(Node, tag="ttcg_extra_play", frozen=True):
    """The controller may put ``what.count`` more cards of ``what``'s kind on the field.

    These plays come on top of the two of the Main Phase (2.2.3.a.2.a).
    """

    what: Cards
    duration: Duration | None = None


class RevealTop(Node, tag="ttcg_reveal_top", frozen=True):
    """``player`` shows the top ``count`` cards of their deck; later steps of the same
    effect pick from them (:class:`Cards` with zone ``revealed``). With ``private`` only
    the player looks at them ("look at the top three cards")."""

    player: Who
    count: Amount
    private: bool = False


class Swap(Node, tag="ttcg_swap", frozen=True):
    """``what`` and ``other`` trade places (each goes where the other was)."""

    what: Cards
    other: Cards


class SkipTurn(Node, tag="ttcg_skip", frozen=True):
    """``player`` skips their next turn."""

    player: Who


class Redirect(Node, tag="ttcg_redirect", frozen=True):
    """The attack that set off the trigger now targets ``to`` instead (2.2.7.c)."""

    to: Cards


class Equip(Node, tag="ttcg_equip", frozen=True):
    """``what`` is attached to ``to`` (the term EQUIP, 2.1.ad; 2.2.5.i.4)."""

    what: Cards
    to: Cards


class ForEach(Node, tag="ttcg_for_each", frozen=True):
    """``effect`` is carried out once for each card of ``what``.

    ``event``, when given, counts the cards that this happened to instead of the cards
    that are there: ``destroyed``, ``discarded`` or ``played``, this turn.
    """

    what: Cards
    effect: tuple[Step, ...]
    event: Literal["destroyed", "discarded", "played"] | None = None


STEPS: tuple[type[Any], ...] = (
    AddToHand, Destroy, DiscardCards, ReturnCards, PlayCards, PlaceUnder, Counter, Copy, Tap, Points,
    RankUp, Boost, SetStat, Restrict, Allow, ExtraPlay, RevealTop, Swap, SkipTurn, Redirect, Equip,
    ForEach,
)
"""This game's own effect steps (joined into :data:`grammar.ast.Step`)."""

ABILITIES: tuple[type[Any], ...] = (Labelled,)
"""This game's own ability kinds (joined into :data:`grammar.ast.Ability`)."""

__all__ = [
    "ABILITIES",
    "STEPS",
    "THIS_CARD",
    "AddToHand",
    "Allow",
    "Boost",
    "Cards",
    "Copy",
    "Counter",
    "Destroy",
    "DiscardCards",
    "EffectLabel",
    "Equip",
    "ExtraPlay",
    "ForEach",
    "Labelled",
    "PlaceUnder",
    "PlayCards",
    "Points",
    "RankUp",
    "Redirect",
    "Restrict",
    "ReturnCards",
    "RevealTop",
    "SetStat",
    "SkipTurn",
    "Swap",
    "Tap",
    "Whose",
    "cards_selector",
]
