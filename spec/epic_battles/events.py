"""The Epic Battles event vocabulary of replay format v1.

Every event has ``seq`` and, where a player acts or is acted for, ``by``. Three kinds
(the design's contract 2): **moves** are players' choices and must be legal, **chance**
events are outcomes of randomness or hidden information and must be possible, **claims**
are derived facts and must equal what the rules compute.

A round starts with set-up (``character`` in the first round, ``shuffle``,
``aggressor`` in the first round, three ``draw`` each); a turn is the Draw step
(``draw``), the Set step (``set``, ``pass``), the Action step (``attack``, ``block``,
``recover``, ``pass``; ``flip`` and ``activate`` whenever allowed) and the Discard step
(``discard``). Effects that need the log name their cards with ``discard``, ``select``,
``draw``, ``reveal``, ``search``, ``shuffle``, ``accept`` and ``decline``.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from spec.core.cards import CardDef
from spec.core.game import Event
from spec.core.state import CardObj

# ------------------------------------------------------------------ set-up (chance)


class Character(Event, tag="character"):
    """Chance: ``by`` reveals ``card``, their character, beside the deck (EB.setup.character)."""

    card: str = ""


class Shuffle(Event, tag="shuffle"):
    """Chance: ``by`` shuffles their deck (set-up, EB.setup.shuffle; or when an effect says so)."""


class Aggressor(Event, tag="aggressor"):
    """Chance: the random pick made ``player`` the first aggressor (EB.setup.aggressor.first).

    In later rounds the aggressor follows from the rules (EB.setup.aggressor.later); a log
    may still state it, and it must then name the loser of the last round.
    """

    player: str = ""


class Draw(Event, tag="draw"):
    """Chance: ``by`` draws ``card`` from the top of their deck (``null`` when the log does not show it)."""

    card: str | None = None


class Reveal(Event, tag="reveal"):
    """Chance: ``by`` turns over ``card``, the top card of their deck (Taunt, EB.kw.taunt; or an effect)."""

    card: str = ""


class Search(Event, tag="search"):
    """Chance: ``by`` searched their deck and took ``card`` (``null``: took nothing)."""

    card: str | None = None


# ------------------------------------------------------------------ moves


class Pass(Event, tag="pass"):
    """Move: ``by`` does nothing more where they are asked to act.

    In the Set step it ends their setting; in the Action step it is their action, or it
    declines to block, to recover by paying, or to link another attack (which ends the
    combo). Logged only with ``options.passes = "explicit"``.
    """


class Set(Event, tag="set"):
    """Move: ``by`` sets the event ``card`` face down in their arena (``null``: not shown), EB.card.event.set."""

    card: str | None = None


class Attack(Event, tag="attack"):
    """Move: ``by`` plays the attack ``card`` from their hand (EB.card.attack.play).

    ``alternative`` pays the card's alternative cost instead of its energy cost.
    ``link`` says whether it links after their previous attack, continuing the action
    (``true``, EB.link.timing), or starts a new action (``false``); left out, it is read
    from where the game stands (with inferred passes: the earliest point it is legal).
    """

    card: str = ""
    alternative: bool = False
    link: bool | None = None


class Block(Event, tag="block"):
    """Move: ``by`` blocks the attack waiting for a block with ``card`` from their hand (EB.card.block.type)."""

    card: str = ""


class Recover(Event, tag="recover"):
    """Move: ``by`` pays to recover right after blocking a Knock Down or Launcher (EB.recover.block).

    Either ``discard`` names a block discarded from hand, or ``remove`` names the two
    blocks taken from the discard pile out of the game.
    """

    discard: str | None = None
    remove: list[str] = msgspec.field(default_factory=list)


class Flip(Event, tag="flip"):
    """Move: ``by`` pays for and turns face up the set events ``cards``, together (EB.card.event.flip)."""

    cards: list[str] = msgspec.field(default_factory=list)


class Activate(Event, tag="activate"):
    """Move: ``by`` uses the activated ability number ``ability`` (from 0) of their character."""

    ability: int = 0


class Discard(Event, tag="discard"):
    """Move: ``by`` discards ``card`` from hand: in the Discard step, or as an effect or cost asks."""

    card: str | None = None


class Select(Event, tag="select"):
    """Move: ``by`` picks ``card`` where an effect says "a ..." or "up to ..." of their discard pile."""

    card: str = ""


class Accept(Event, tag="accept"):
    """Move: ``by`` takes up an optional part of an effect ("you may")."""


class Decline(Event, tag="decline"):
    """Move: ``by`` declines an optional part of an effect ("you may", "up to")."""


# ------------------------------------------------------------------ claims


class Step(Event, tag="step"):
    """Claim: the turn is now in ``step`` (``draw``, ``set``, ``action``, ``discard``; ``setup`` between rounds)."""

    step: str = ""


class Damage(Event, tag="damage"):
    """Claim: ``to`` just took ``amount`` damage (EB.damage.take)."""

    to: str = ""
    amount: int = 0


class Chip(Event, tag="chip"):
    """Claim: ``player`` just chipped ``amount`` cards (EB.chip)."""

    player: str = ""
    amount: int = 0


class Down(Event, tag="down"):
    """Claim: ``player`` was just knocked down (``how`` = ``knock_down``) or launched (``launch``)."""

    player: str = ""
    how: str = "knock_down"


class Round(Event, tag="round"):
    """Claim: ``winner`` won the round that just ended (EB.win.round)."""

    winner: str = ""


class Game(Event, tag="game"):
    """Claim: ``winner`` won the game (EB.win.game)."""

    winner: str = ""


EVENTS: tuple[type[Event], ...] = (
    Character, Shuffle, Aggressor, Draw, Reveal, Search,
    Pass, Set, Attack, Block, Recover, Flip, Activate, Discard, Select, Accept, Decline,
    Step, Damage, Chip, Down, Round, Game,
)

KINDS: dict[str, str] = {
    "character": "chance", "shuffle": "chance", "aggressor": "chance", "draw": "chance",
    "reveal": "chance", "search": "chance",
    "pass": "move", "set": "move", "attack": "move", "block": "move", "recover": "move",
    "flip": "move", "activate": "move", "discard": "move", "select": "move", "accept": "move",
    "decline": "move",
    "step": "claim", "damage": "claim", "chip": "claim", "down": "claim", "round": "claim",
    "game": "claim",
}
"""``do`` -> ``move``, ``chance`` or ``claim``."""

NO_ACTOR = ("aggressor", "step", "damage", "chip", "down", "round", "game")
"""Event kinds that no player performs (``by`` is ``null``)."""

__all__ = [cls.__name__ for cls in EVENTS] + ["EVENTS", "KINDS", "NO_ACTOR", "Decklist", "Job", "Lasting", "Occurrence"]

assert set(KINDS) == {str(c.__struct_config__.tag) for c in EVENTS}


# ------------------------------------------------------------------ other structs
# The decklist and the state's immutable records are msgspec structs too; they live here, in a
# module left interpreted (mypyc would drop their class options, see spec.compiled), and
# spec.epic_battles.state names the records as before.


class Decklist(msgspec.Struct, forbid_unknown_fields=True):
    """A registered Epic Battles decklist: the character, the 59 other cards, the side deck."""

    character: str = ""
    main: dict[str, Annotated[int, msgspec.Meta(ge=0, le=1000)]] = {}
    side: dict[str, Annotated[int, msgspec.Meta(ge=0, le=1000)]] = {}


class Lasting(msgspec.Struct, frozen=True):
    """A change made by an effect that lasts: a damage or cost change, a can't, a can,
    a link permission or ban, a gained trait or follow-up.

    ``step`` is the effect step that made it; ``this`` and ``that`` are the card ids its
    ``this``/``that`` selectors meant when it was made. (Immutable records like this one
    and the two below are msgspec structs: many are made per event, and they are quick to make.)
    """

    step: Any
    controller: str
    this: int | None = None
    that: int | None = None
    until: str = "end_of_round"
    source: str | None = None
    """The name of the card whose text made it (for the conflicts it meets)."""


class Occurrence(msgspec.Struct, frozen=True):
    """Something that just happened, which an event's flip timing or a trigger can name.

    ``event`` uses the trigger vocabulary of the grammar (``played``, ``blocked``,
    ``hit``, ``dealt_damage``, ``chipped``, ``knocked_down``, ``launched``,
    ``recovered``, ``flipped``, ``combo_ends``, ``turn_begins``, ``turn_ends``,
    ``phase_begins``, ``phase_ends``); ``who`` is the player the trigger's wording makes
    its subject (who plays, who blocks, who is hit...); ``card`` the card concerned.
    """

    event: str
    who: str | None = None
    uid: int | None = None
    defn: CardDef | None = None
    labels: tuple[str, ...] = ()
    phase: str | None = None
    settled: str | None = None
    """For ``recovered``: how the policy settled the clash that let a card effect stand the
    player up against the knock-down (spec.epic_battles.conflicts.judge_recover)."""


class Job(msgspec.Struct, frozen=True):
    """Work the rules still have to do: run ``effect`` for ``controller`` (``kind="effect"``),
    or call the game's method ``then`` with ``args`` (``kind="then"``)."""

    kind: str
    controller: str = ""
    source: CardObj | None = None
    effect: tuple[Any, ...] = ()
    then: str = ""
    args: tuple[Any, ...] = ()
    vars: dict[str, Any] = msgspec.field(default_factory=dict)
