"""The Battle Monsters event vocabulary of replay format v1.

Every event has ``seq`` and, where a player acts, ``by``. The three kinds of the design's
contract 2: **moves** are a player's choices and must be legal where the game stands;
**chance** events (the coin, the identity of a drawn card) must be possible; **claims**
are derived facts (lives, cards sent to the graveyard, traps going off, the result) and
must equal what the rules compute. Claims may be left out: the spec derives them anyway.

Cards on the field are named by ``card`` (the printed name: a root monster, optionally
with its element prefix and title suffix, e.g. ``"Emberclad Cinder Whelp"``) and, where a
side holds several copies of one name, by ``copy`` (1 for the copy that arrived first).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from spec.core.game import Event

Mode = Literal["attack", "defense"]


# ------------------------------------------------------------------ set-up

class First(Event, tag="first"):
    """Chance: the coin toss gave the first turn to ``player`` (BM.start.first)."""

    player: str = ""


class Bury(Event, tag="bury"):
    """Move: in set-up, ``by`` puts ``card`` from their supply deck into their graveyard (BM.start.graveyard)."""

    card: str = ""


# ------------------------------------------------------------------ actions (end the turn)

class Draw(Event, tag="draw"):
    """Move and chance: ``by`` draws ``card`` (``null`` when the log does not show it).

    In set-up it is one card of the opening hand; in a turn, with no effect waiting, it is
    the Draw Card action (BM.actions.draw); while an effect asks for draws, it is one of them
    (BM.actions.draw.effects).
    """

    card: str | None = None


class Discard(Event, tag="discard"):
    """Move: ``by`` discards ``card`` from their hand: the Discard Card action, or a discard an effect asks for."""

    card: str = ""


class Skip(Event, tag="skip"):
    """Move: ``by`` takes the Skip action (BM.actions.skip)."""


# ------------------------------------------------------------------ sub-actions

class Summon(Event, tag="summon"):
    """Move: ``by`` summons ``card`` from their hand in the stance ``mode`` + ``visible`` (BM.subactions.summon)."""

    card: str = ""
    mode: Mode = "attack"
    visible: bool = True


class Reveal(Event, tag="reveal"):
    """Move: ``by`` turns their face-down ``card`` face up (BM.subactions.reveal)."""

    card: str = ""
    copy: int = 1


class Attack(Event, tag="attack"):
    """Move: ``by`` attacks with their monster ``card``.

    ``target`` names a card on the opponent's side (``target_copy`` as ``copy``), or is
    ``null`` for an attack on the opponent themself (BM.start.direct_attack).
    """

    card: str = ""
    copy: int = 1
    target: str | None = None
    target_copy: int = 1


class Switch(Event, tag="switch"):
    """Move: ``by`` switches their ``card`` between attack and defence mode (BM.subactions.switch)."""

    card: str = ""
    copy: int = 1


class Conceal(Event, tag="conceal"):
    """Move: ``by`` turns their face-up ``card`` face down again (no rule of the book allows it)."""

    card: str = ""
    copy: int = 1


# ------------------------------------------------------------------ answers to effects

class Choose(Event, tag="choose"):
    """Move: ``by`` picks ``card`` of ``owner`` (``copy`` as above) where an effect says "the chosen" or "a"."""

    card: str = ""
    owner: str = ""
    copy: int = 1


class Accept(Event, tag="accept"):
    """Move: ``by`` takes up an effect's "you can choose to"."""


class Decline(Event, tag="decline"):
    """Move: ``by`` turns down an effect's "you can choose to"."""


# ------------------------------------------------------------------ ending the game

class Surrender(Event, tag="surrender"):
    """Move: ``by`` concedes; the other player wins (BM.end.conditions)."""


class Agree(Event, tag="agree"):
    """Move: ``by`` offers, or (right after the opponent's offer) accepts, a draw (BM.end.draw)."""


# ------------------------------------------------------------------ claims

class Lives(Event, tag="lives"):
    """Claim: ``player`` now has ``lives`` life points."""

    player: str = ""
    lives: int = 0


class Sent(Event, tag="sent"):
    """Claim: ``card`` of ``owner`` just went from the field to the graveyard (a battle or an effect)."""

    card: str = ""
    owner: str = ""


class Triggered(Event, tag="triggered"):
    """Claim: the spell or trap ``card`` of ``owner`` just went off because its condition happened."""

    card: str = ""
    owner: str = ""


class Game(Event, tag="game"):
    """Claim: the game is over; ``winner`` won it (``null``: an agreed draw)."""

    winner: str | None = None


EVENTS: tuple[type[Event], ...] = (
    First, Bury, Draw, Discard, Skip, Summon, Reveal, Attack, Switch, Conceal, Choose, Accept, Decline,
    Surrender, Agree, Lives, Sent, Triggered, Game,
)

KINDS: dict[str, str] = {
    "first": "chance", "draw": "chance",
    "bury": "move", "discard": "move", "skip": "move", "summon": "move", "reveal": "move", "attack": "move",
    "switch": "move", "conceal": "move", "choose": "move", "accept": "move", "decline": "move",
    "surrender": "move", "agree": "move",
    "lives": "claim", "sent": "claim", "triggered": "claim", "game": "claim",
}
"""``do`` -> ``move``, ``chance`` or ``claim``."""

SUB_ACTIONS = ("summon", "reveal", "attack", "switch", "conceal")
"""Moves that are sub-actions of the active player (conceal: the move no rule allows)."""

ACTIONS = ("draw", "discard", "skip")
"""Moves that are the turn's one action (when no effect is waiting for them)."""


class Decklist(msgspec.Struct, forbid_unknown_fields=True):
    """A registered Battle Monsters decklist: copies per printed card name.

    It lives beside the events, outside the compiled modules: mypyc would drop its
    ``forbid_unknown_fields``.
    """

    cards: dict[str, Annotated[int, msgspec.Meta(ge=0, le=10000)]] = {}
