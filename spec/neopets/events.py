"""The Neopets event vocabulary of replay format v1.

Every event has ``seq`` and, where a player acts or is acted for, ``by``. Three kinds
(see the design's contract 2): **moves** are players' choices and must be legal,
**chance** events are outcomes of randomness or hidden information and must be
possible, **claims** are derived facts and must equal what the rules compute.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from spec.core.game import Event


class TargetRef(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A chosen target: a card by name and whose it is (``card`` = ``Neopet`` for a Neopet)."""

    card: str
    owner: str | None = None


# ------------------------------------------------------------------ set-up events

class Shuffle(Event, tag="shuffle"):
    """Chance: ``by`` shuffles their Main Deck (set-up 2.p1, after a search 8.20.9d)."""


class First(Event, tag="first"):
    """Chance: the random method picked ``player`` as starting player (2.p4)."""

    player: str = ""


class Defer(Event, tag="defer"):
    """Move: the starting player hands the first turn to the opponent (2.p5)."""


class Mulligan(Event, tag="mulligan"):
    """Move: ``by`` shuffles their Inventory back and will draw five again (2.p8)."""


class Choose(Event, tag="choose"):
    """Move: ``by`` puts ``neopet`` from their Neopet Deck into play (2.p10, 5.5.12)."""

    neopet: str = ""


# ------------------------------------------------------------------ moves in play

class Pass(Event, tag="pass"):
    """Move: ``by`` passes priority (logged only with ``options.passes = "explicit"``)."""


class Attach(Event, tag="attach"):
    """Move: ``by`` attaches the Codestone ``card`` from their Inventory (5.3.2b, 7.11)."""

    card: str = ""


class Play(Event, tag="play"):
    """Move: ``by`` plays ``card`` from their Inventory, adding it to the queue.

    ``targets`` are chosen as it is queued (8.20.13a); ``alternative`` pays the
    alternative cost (8.20.12); ``replace`` names the Equipment or Location it displaces
    (7.6.6, 7.9.7); ``neopet`` names the Rainbow Pool Neopet a Paint Brush brings in.
    """

    card: str = ""
    targets: list[TargetRef] = []
    alternative: bool = False
    replace: str | None = None
    neopet: str | None = None


class Collect(Event, tag="collect"):
    """Move: ``by`` collects the Map Piece ``card`` into their Play Area (7.10, 8.20.2)."""

    card: str = ""


class Activate(Event, tag="activate"):
    """Move: ``by`` uses the activated ability of ``card`` (``Neopet`` for their Neopet)."""

    card: str = ""
    ability: int = 0
    targets: list[TargetRef] = []


class Discard(Event, tag="discard"):
    """Move: ``by`` discards ``card`` from their Inventory, as an effect or cost asks."""

    card: str | None = None


class Select(Event, tag="select"):
    """Move: ``by`` picks ``card`` where an effect says "a ..." (which Codestone to send)."""

    card: str = ""


class Decline(Event, tag="decline"):
    """Move: ``by`` declines an optional part of an effect ("you may")."""


class Reroll(Event, tag="reroll"):
    """Move and chance: ``by`` rerolls their dice at positions ``which``; ``dice`` are the new faces."""

    which: list[int] = []
    dice: list[int] = []


# ------------------------------------------------------------------ chance events

class Draw(Event, tag="draw"):
    """Chance: ``by`` draws ``card`` (``null`` when the log does not show it)."""

    card: str | None = None


class Roll(Event, tag="roll"):
    """Chance: ``by`` rolls ``dice`` (d6 faces; a d3 is logged as the d6 faces, 9.4.1)."""

    dice: list[int] = []


class Scrap(Event, tag="scrap"):
    """Chance: the top card of ``by``'s Main Deck, ``card``, goes to their Discard."""

    card: str | None = None


class Search(Event, tag="search"):
    """Chance: ``by`` searched and took ``card`` (``null``: found nothing, 8.20.9c)."""

    card: str | None = None


class Reveal(Event, tag="reveal"):
    """Chance: ``by`` reveals ``card`` from where the effect says."""

    card: str = ""


# ------------------------------------------------------------------ claims

class Phase(Event, tag="phase"):
    """Claim: the game is now in ``phase`` (``draw``, ``train``, ``preparation``, ``battle``, ``end``)."""

    phase: str = ""


class Resolve(Event, tag="resolve"):
    """Claim: ``card`` resolves now (the next item of the queue)."""

    card: str = ""


class Damage(Event, tag="damage"):
    """Claim: the Neopet of ``to`` was just dealt ``amount`` damage."""

    to: str = ""
    amount: int = 0


class Knockout(Event, tag="knockout"):
    """Claim: the Neopet of ``player`` is knocked out."""

    player: str = ""


class Round(Event, tag="round"):
    """Claim: ``winner`` won the round that just ended."""

    winner: str = ""


class Game(Event, tag="game"):
    """Claim: ``winner`` won the game."""

    winner: str = ""


EVENTS: tuple[type[Event], ...] = (
    Shuffle, First, Defer, Mulligan, Choose, Pass, Attach, Play, Collect, Activate, Discard,
    Select, Decline, Reroll, Draw, Roll, Scrap, Search, Reveal, Phase, Resolve, Damage,
    Knockout, Round, Game,
)

KINDS: dict[str, str] = {
    "defer": "move", "mulligan": "move", "choose": "move", "pass": "move", "attach": "move",
    "play": "move", "collect": "move", "activate": "move", "discard": "move", "select": "move",
    "decline": "move", "reroll": "move",
    "shuffle": "chance", "first": "chance", "draw": "chance", "roll": "chance",
    "scrap": "chance", "search": "chance", "reveal": "chance",
    "phase": "claim", "resolve": "claim", "damage": "claim", "knockout": "claim",
    "round": "claim", "game": "claim",
}


class Decklist(msgspec.Struct, forbid_unknown_fields=True):
    """A registered Neopets decklist: Main Deck counts, Neopet Deck, Rainbow Pool."""

    main: dict[str, Annotated[int, msgspec.Meta(ge=0, le=1000)]] = {}
    neopets: list[str] = []
    rainbow_pool: list[str] = []
