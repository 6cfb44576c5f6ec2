"""The Bakugan event vocabulary of replay format v1.

Every event has ``seq`` and, where a player acts or is acted for, ``by``. Three kinds
(the design's contract 2): **moves** are a player's choices and must be legal where the
game stands; **chance** events are outcomes of randomness, of hidden information or of a
throw of a toy (which the rules cannot judge, only record) and must be possible;
**claims** are derived facts and must equal what the rules compute.

A Bakugan is named by its Character card (``"Cindercrawl"``), also once Evos lie on it.
A BakuCore on the BakuCore Field is named by its *slot*: 1 for the first one placed in
set-up, 2 for the second, and so on; a BakuCore keeps its slot when it is picked up and
put back.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from spec.core.game import Event


class TargetRef(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A selection made as a card or ability is played (1.13.1, 6.2.1.2).

    ``card`` names a Bakugan (by its Character), a Hero or Evo in play, or a card in the
    batch; ``owner`` is the player it belongs to (its controller for a batch entry);
    ``core`` is the slot of a BakuCore instead of a card. A selection names one or the
    other: one naming both does not say what was chosen and is refused (6.2.1.2).

    An Energy card in play is face down (3.7.3): a selection of one names no card but its
    ``owner`` and whether it is ``charged`` (decision 44).
    """

    card: str = ""
    owner: str | None = None
    core: int | None = None
    charged: bool | None = None


# ------------------------------------------------------------------ set-up events

class First(Event, tag="first"):
    """Chance: the random pick made ``player`` the first to place a BakuCore (1.4/4.2)."""

    player: str = ""


class Place(Event, tag="place"):
    """Move: ``by`` puts a BakuCore with icon ``core`` on the Field (1.4/4.3).

    ``touches`` lists the slots of BakuCores already placed that it lies edge to edge
    with (1.4/4.3.1): a fact the log records, as the table showed it.
    """

    core: str = ""
    touches: list[int] = msgspec.field(default_factory=list)


class Shuffle(Event, tag="shuffle"):
    """Chance: ``by`` shuffles their deck (1.4/4.4.p1; a search effect, 4.2.2.p2)."""


class Draw(Event, tag="draw"):
    """Chance: ``by`` draws ``card`` (``null`` when the log does not show it)."""

    card: str | None = None


# ------------------------------------------------------------------ moves in a turn

class Energize(Event, tag="energize"):
    """Move: ``by`` energizes ``card`` from their hand in the Energize step (3.7.1, 5.4)."""

    card: str | None = None


class Select(Event, tag="select"):
    """Move: ``by`` picks the closed Bakugan ``bakugan`` to roll this turn (5.6.1)."""

    bakugan: str = ""


class Play(Event, tag="play"):
    """Move: ``by`` plays ``card`` (from their hand, or a Flip card just turned over).

    ``targets`` are the selections made as it is played (1.13.1, 6.2.1.2); ``on`` names
    the Bakugan an Evo goes on (3.3.2); ``x`` is the value chosen for X (1.8.1.2.2);
    ``uncharge`` is how many charged Energy cards are turned to pay (1.7.1.1; when left
    out, exactly as many as the payment needs).
    """

    card: str = ""
    targets: list[TargetRef] = msgspec.field(default_factory=list)
    on: str | None = None
    x: int | None = None
    uncharge: int | None = None


class Activate(Event, tag="activate"):
    """Move: ``by`` uses activated ability ``ability`` (0, 1, ...) of the Hero ``card`` (6.4)."""

    card: str = ""
    ability: int = 0
    targets: list[TargetRef] = msgspec.field(default_factory=list)
    x: int | None = None
    uncharge: int | None = None


class Reroll(Event, tag="reroll"):
    """Move: ``by`` uses the reroll keyword of their Bakugan ``bakugan`` after it missed (1.18)."""

    bakugan: str = ""


class Pass(Event, tag="pass"):
    """Move: ``by`` passes priority, or declines an energize or a Flip card's play.

    Logged only with ``options.passes = "explicit"``; otherwise the spec infers passes.
    """


class Discard(Event, tag="discard"):
    """Move: ``by`` discards ``card`` from their hand, as an effect, a cost or the hand limit asks."""

    card: str | None = None


class Decline(Event, tag="decline"):
    """Move: ``by`` declines an optional part of an effect ("you may")."""


class Forfeit(Event, tag="forfeit"):
    """Move: ``by`` concedes the game (4.4.4.4)."""


# ------------------------------------------------------------------ chance events

class Roll(Event, tag="roll"):
    """Chance: ``by`` rolled their selected Bakugan (5.7).

    ``opened``: it opened; ``core``: the slot of the BakuCore it touched; ``attached``:
    it stayed on that BakuCore (5.7.2.3); ``foul``: the throw broke the rolling rules
    (5.7.1.1-5.7.1.3), so it counts as a miss (7.2.6.2.p2).
    """

    opened: bool = False
    core: int | None = None
    attached: bool = False
    foul: bool = False


class Flip(Event, tag="flip"):
    """Chance: the top card of ``by``'s deck, ``card``, is turned face up and put in their discard pile.

    Damage (1.16.2, 5.11.1) and the BPower tie break (5.9.2.1) turn cards over this way.
    """

    card: str | None = None


class Search(Event, tag="search"):
    """Chance: ``by`` searched their deck and took ``card`` (``null``: found nothing)."""

    card: str | None = None


class ShuffleIn(Event, tag="shuffle_in"):
    """Move: ``by`` picks ``card`` of their discard pile for an effect that shuffles cards of
    it into their deck (the Victor riders of two Haos Hydorous Ultras): one event per
    card, then the ``shuffle`` of the deck (decision 48). ``null`` only for a card the log
    left unnamed when it was discarded."""

    card: str | None = None


class Coin(Event, tag="coin"):
    """Chance: ``by`` flipped a coin; ``result`` is ``heads`` or ``tails``."""

    result: str = ""


class Choose(Event, tag="choose"):
    """Move: ``by`` picks one of the options an effect offers ("choose one: ..., or ..."),
    ``option`` counting from 1 in the order the text prints them (decision 38)."""

    option: int = 0


class Target(Event, tag="target"):
    """Move: ``by`` makes the selections of their triggered ability (or Victor rider) as it
    enters the batch, one per selection the text asks for, in text order, as a played card's
    ``targets`` are (decision 40)."""

    targets: list[TargetRef] = msgspec.field(default_factory=list)


# ------------------------------------------------------------------ claims

class Phase(Event, tag="phase"):
    """Claim: the game is now in ``step`` (a node of :data:`spec.bakugan.turn.TURN`)."""

    step: str = ""


class Victor(Event, tag="victor"):
    """Claim: ``player``'s Bakugan is the Victor of this turn's brawl (5.10.1)."""

    player: str = ""


class Damage(Event, tag="damage"):
    """Claim: the attack that just ended dealt ``amount`` damage to ``to`` (1.16.2)."""

    to: str = ""
    amount: int = 0


class Resolve(Event, tag="resolve"):
    """Claim: ``card`` is the batch entry that completed last (4.4.3)."""

    card: str = ""


class Game(Event, tag="game"):
    """Claim: the game is over; ``winner`` won it (``null``: a draw, 5.9.2.1.1.1)."""

    winner: str | None = None


EVENTS: tuple[type[Event], ...] = (
    First, Place, Shuffle, Draw, Energize, Select, Play, Activate, Reroll, Pass, Discard,
    Decline, Forfeit, Roll, Flip, Search, ShuffleIn, Coin, Choose, Target, Phase, Victor, Damage, Resolve, Game,
)

KINDS: dict[str, str] = {
    "place": "move", "energize": "move", "select": "move", "play": "move", "activate": "move",
    "reroll": "move", "pass": "move", "discard": "move", "decline": "move", "forfeit": "move",
    "choose": "move", "target": "move", "shuffle_in": "move",
    "first": "chance", "shuffle": "chance", "draw": "chance", "roll": "chance", "flip": "chance",
    "search": "chance", "coin": "chance",
    "phase": "claim", "victor": "claim", "damage": "claim", "resolve": "claim", "game": "claim",
}
"""``do`` value -> ``move``, ``chance`` or ``claim``."""


class Decklist(msgspec.Struct, forbid_unknown_fields=True):
    """A registered Bakugan decklist: the 40-card deck, the team's three Characters, six BakuCores."""

    deck: dict[str, Annotated[int, msgspec.Meta(ge=0, le=1000)]] = {}
    team: list[str] = []
    bakucores: list[str] = []


# ------------------------------------------------------------------ steps the game adds to a resolution
# (kept beside the events: a msgspec struct must stay in an interpreted module, see spec.compiled)

class OrElse(msgspec.Struct, frozen=True, tag="bakugan_or_else"):
    """A "you may ... instead" rider: ``steps`` if the player takes it, else ``otherwise`` (the text it replaces)."""

    player: str
    steps: tuple[Any, ...]
    otherwise: tuple[Any, ...]


class AttackDone(msgspec.Struct, frozen=True, tag="bakugan_attack_done"):
    """Bookkeeping after a card's attack has turned over its cards: the damage is recorded."""

    to: str


class Again(msgspec.Struct, frozen=True, tag="bakugan_again"):
    """A rider's optional part that "you may use ... any number of times": offered again after each use (decision 36)."""

    may: Any
