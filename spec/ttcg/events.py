"""The TTCG event vocabulary of replay format v1.

Every event has ``seq`` and, where a player acts or is acted for, ``by``. Three kinds
(see the design's contract 2): **moves** are players' choices and must be legal,
**chance** events are outcomes of randomness or hidden information and must be
possible, **claims** are derived facts and must equal what the rules compute.

A card on the field is named by a :class:`Ref`: its name, whose field it is on, and,
when a player has two piles of that name, which one (``slot``, counted from 0 in the
order the piles entered that player's creature or magic zone).
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from spec.core.game import Event


class Ref(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A card named by an event: ``card`` on the field of ``owner`` (pile ``slot`` if given).

    In a choice from a hand, deck or discard pile only ``card`` matters.
    """

    card: str
    owner: str | None = None
    slot: int | None = None


# ------------------------------------------------------------------ set-up

class Roll(Event, tag="roll"):
    """Chance: the official die roll for the first turn (2.2.2.a.p2): ``die`` is the face.

    The first player listed in the header takes the even faces, the second the odd ones.
    """

    die: int = 0


class First(Event, tag="first"):
    """Chance: another random method picked ``player`` to take the first turn (2.2.2.a.p1)."""

    player: str = ""


class Shuffle(Event, tag="shuffle"):
    """Chance: ``by`` shuffles their deck (before the opening hand, or when an effect says so)."""


class Draw(Event, tag="draw"):
    """Chance: ``by`` draws ``card`` from their deck (``null`` when the log does not show it)."""

    card: str | None = None


class Mill(Event, tag="mill"):
    """Chance: the top card of ``by``'s deck, ``card``, goes to their discard pile (2.1.i)."""

    card: str | None = None


class Reveal(Event, tag="reveal"):
    """Chance: ``by`` turns up the next card from the top of their deck, ``card``, while an
    effect reveals (or lets them look at) the top cards; one event per card, top first.

    The card must be named: the cards of the effect that are not taken go back into the
    deck when it is done (decision 30 of the TTCG decisions).
    """

    card: str | None = None


# ------------------------------------------------------------------ moves

class Pass(Event, tag="pass"):
    """Move: ``by`` passes (logged only with ``options.passes = "explicit"``).

    Both players passing in a row resolves the chain, then a declared battle, and
    otherwise ends the phase.
    """


class Play(Event, tag="play"):
    """Move: ``by`` puts ``card`` from their hand on their field in the Main Phase (2.2.3.a.2.a).

    ``on`` names the card of their own field that ``card`` levels up (2.2.6); ``equip``
    names the creature a card with an Equip effect is attached to as it is played
    (2.2.5.i.4). While an effect asks for a rank up, the same event answers it; ``card``
    then comes from the deck when the effect says so (decision 32 of the TTCG decisions).
    """

    card: str = ""
    on: Ref | None = None
    equip: Ref | None = None


class Activate(Event, tag="activate"):
    """Move: ``by`` uses effect ``effect`` (0 or 1, in printed order) of ``card`` on their field.

    ``slot`` picks the pile when the player has two of that name. The card is tapped
    and the effect joins the chain (2.2.5.f.1, 2.2.5.g.1).
    """

    card: str = ""
    effect: int = 0
    slot: int | None = None


class Attack(Event, tag="attack"):
    """Move: ``by``'s creature ``card`` attacks ``target`` (``null``: the opponent directly, 2.2.7)."""

    card: str = ""
    slot: int | None = None
    target: Ref | None = None


class Discard(Event, tag="discard"):
    """Move: ``by`` discards ``card`` from their hand, down to ten at the end of the turn
    (2.2.10.b) or as an effect or cost asks."""

    card: str | None = None


class Choose(Event, tag="choose"):
    """Move: ``by`` picks ``cards`` for the effect being carried out (where the effect says
    which zone: the field, a hand, the deck or the discard pile)."""

    cards: list[Ref] = msgspec.field(default_factory=list)


class Decline(Event, tag="decline"):
    """Move: ``by`` does not take up an optional part of an effect (a rank up it allows)."""


# ------------------------------------------------------------------ claims

class Phase(Event, tag="phase"):
    """Claim: the game is now in ``phase`` (``draw``, ``main``, ``battle`` or ``end``)."""

    phase: str = ""


class Destroyed(Event, tag="destroyed"):
    """Claim: ``owner``'s card ``card`` was destroyed since the last move or chance event."""

    card: str = ""
    owner: str = ""


class Points(Event, tag="points"):
    """Claim: ``player`` now has ``points`` points (2.2.8)."""

    player: str = ""
    points: int = 0


class GameOver(Event, tag="game"):
    """Claim: the game is over and ``winner`` won it (``null``: both reached zero together)."""

    winner: str | None = None


EVENTS: tuple[type[Event], ...] = (
    Roll, First, Shuffle, Draw, Mill, Reveal, Pass, Play, Activate, Attack, Discard, Choose, Decline,
    Phase, Destroyed, Points, GameOver,
)

KINDS: dict[str, str] = {
    "pass": "move", "play": "move", "activate": "move", "attack": "move", "discard": "move",
    "choose": "move", "decline": "move",
    "roll": "chance", "first": "chance", "shuffle": "chance", "draw": "chance", "mill": "chance", "reveal": "chance",
    "phase": "claim", "destroyed": "claim", "points": "claim", "game": "claim",
}


class Decklist(msgspec.Struct, forbid_unknown_fields=True):
    """A registered TTCG decklist: copies per card name (beside the events, so that the
    compiled rules modules hold no msgspec struct: see spec.compiled)."""

    deck: dict[str, Annotated[int, msgspec.Meta(ge=0, le=1000)]] = {}
