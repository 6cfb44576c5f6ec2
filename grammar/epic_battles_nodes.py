"""Effect-AST nodes that only the Epic Battles grammar needs.

Shared nodes (selectors, amounts, durations, conditions and the steps and abilities
the games have in common) are in :mod:`grammar.ast`; a game adds here what its cards
say that the shared nodes cannot. Every class subclasses :class:`grammar.ast.Node`
with a unique ``tag`` (prefixed with the game, e.g. ``tag="epic_battles_..."``), is listed in
:data:`STEPS` (effect steps) or :data:`ABILITIES` (ability kinds), and may annotate
fields with ``Step``, ``Ability`` or ``CardText`` as strings: :mod:`grammar.ast`
imports this module before those unions exist and fills them in afterwards.

How Epic Battles uses the shared nodes
--------------------------------------
* Players are ``"you"`` and ``"opponent"`` (the book's *rival*).
* A :class:`~grammar.ast.Selector` of cards has ``type`` ``Attack``, ``Block``,
  ``Event`` or ``card``; ``zone`` is one of ``hand``, ``deck``, ``discard pile``,
  ``energy pile``, ``arena``; its ``team`` field carries the one *label* the cards
  must have: a height (``High``, ``Low``) or a link trait (``Kick``...). On an ordered
  pile (deck, discard pile) the quantifier ``the`` means the top ``count`` cards.
* Damage is :class:`~grammar.ast.Deal` to a player, discarding the top of a deck is
  :class:`~grammar.ast.Scrap`, a changed damage or cost is
  :class:`~grammar.ast.Modify` with ``stat`` ``damage`` or ``cost``.
* Text after ``HIT`` is a :class:`~grammar.ast.Triggered` ability with the trigger
  ``Trigger("hit", subject=Selector("this", "Attack"))``; an event's flip window is a
  Triggered ability whose effect is one :class:`EpicBattlesFlip` step.
* Knock Down, Launcher and Side Deck Only are :class:`~grammar.ast.Keyword` lines
  (``knock_down``, ``launcher``, ``side_deck_only``; ``flip_any_time`` for an event
  that may be flipped at any time).
"""

from __future__ import annotations

from typing import Any, Literal

from grammar.ast import Amount, Duration, Node, Selector, Who

# ------------------------------------------------------------------------- steps


class EpicBattlesChip(Node, tag="epic_battles_chip", frozen=True):
    """``player`` chips ``amount`` cards: the top cards of their deck go to their
    discard pile as chipping (EB.chip), which is neither damage nor a discard."""

    player: Who
    amount: Amount = 1


class EpicBattlesPay(Node, tag="epic_battles_pay", frozen=True):
    """The controller pays ``amount`` energy: that many cards of their energy pile go
    to their discard pile (EB.energy.pay)."""

    amount: Amount


class EpicBattlesPut(Node, tag="epic_battles_put", frozen=True):
    """The controller moves the cards ``what`` selects to ``to``.

    ``what.zone`` is where the cards come from (``Selector("this")`` for the card
    itself). ``to`` is ``hand``, ``deck``, ``discard pile``, ``energy pile`` or
    ``arena`` (of the controller), or ``deck top`` / ``deck bottom`` for the top or
    the bottom of their deck (which restores their Health Bar, EB.win.health).
    """

    what: Selector
    to: str


class EpicBattlesRemove(Node, tag="epic_battles_remove", frozen=True):
    """The cards ``what`` selects are removed from the game (as when paying to recover
    from a Knock Down with blocks of the discard pile, EB.recover.block)."""

    what: Selector


class EpicBattlesRecover(Node, tag="epic_battles_recover", frozen=True):
    """``player`` recovers: they are no longer knocked down or launched
    (EB.recover.effect)."""

    player: Who = "you"


class EpicBattlesKnockDown(Node, tag="epic_battles_knock_down", frozen=True):
    """``player`` is knocked down (``how="knock_down"``) or launched
    (``how="launch"``) for the rest of the combo unless they recover (EB.kw.knockdown,
    EB.kw.launcher)."""

    player: Who
    how: Literal["knock_down", "launch"] = "knock_down"


class EpicBattlesTaunt(Node, tag="epic_battles_taunt", frozen=True):
    """The controller taunts ``player``: they reveal the top card of their deck and, if
    it is an attack, must play it against the controller paying its costs; otherwise
    (or if they cannot pay) it goes to their discard pile (EB.kw.taunt)."""

    player: Who = "opponent"


class EpicBattlesLink(Node, tag="epic_battles_link", frozen=True):
    """Whether the attacks ``what`` selects may link after the attacks ``after``
    selects, whatever their traits and follow-ups (EB.link.def).

    ``allowed`` is ``True`` for "can link after", ``False`` for "can't link after";
    ``after`` is ``Selector("each", "Attack")`` for *any attack*.
    """

    what: Selector
    after: Selector
    allowed: bool = True
    duration: Duration | None = None


class EpicBattlesGain(Node, tag="epic_battles_gain", frozen=True):
    """The selected attacks gain the link trait or follow-up ``label`` (``part`` is
    ``trait`` or ``follow_up``) for ``duration`` (EB.link.def)."""

    target: Selector
    label: str
    part: Literal["trait", "follow_up"] = "trait"
    duration: Duration | None = None


class EpicBattlesFlip(Node, tag="epic_battles_flip", frozen=True):
    """The controller may pay this set event's cost and flip it face up; its other
    lines are then carried out and it is discarded (EB.card.event.flip,
    EB.card.event.flip.optional)."""


# --------------------------------------------------------------------- abilities


class EpicBattlesRestriction(Node, tag="epic_battles_restriction", frozen=True):
    """Which decks may hold the card.

    ``kind="game"``: only decks whose character comes from one of the games ``names``
    (EB.deck.game_only); ``kind="character"``: only decks of one of the characters
    ``names`` (EB.deck.character_name).
    """

    kind: Literal["game", "character"]
    names: tuple[str, ...]


class EpicBattlesLimit(Node, tag="epic_battles_limit", frozen=True):
    """A deck may hold at most ``copies`` copies of the card, instead of the usual
    four (EB.deck.copies)."""

    copies: int


class EpicBattlesLinkBar(Node, tag="epic_battles_link_bar", frozen=True):
    """The printed trait bar of an attack: its ``traits`` (``part="traits"``) or the
    follow-ups an attack linked after it must match (``part="follow_ups"``),
    EB.link.def."""

    part: Literal["traits", "follow_ups"]
    labels: tuple[str, ...]


STEPS: tuple[type[Any], ...] = (
    EpicBattlesChip,
    EpicBattlesPay,
    EpicBattlesPut,
    EpicBattlesRemove,
    EpicBattlesRecover,
    EpicBattlesKnockDown,
    EpicBattlesTaunt,
    EpicBattlesLink,
    EpicBattlesGain,
    EpicBattlesFlip,
)
"""This game's own effect steps (joined into :data:`grammar.ast.Step`)."""

ABILITIES: tuple[type[Any], ...] = (
    EpicBattlesRestriction,
    EpicBattlesLimit,
    EpicBattlesLinkBar,
)
"""This game's own ability kinds (joined into :data:`grammar.ast.Ability`)."""
