"""The interpreter that runs effect trees on a game state.

Resolving an effect carries out its steps in text order. Some steps need facts only the
log has (which card was drawn, which die faces came up, which card a player chose to
discard): such a step returns a :class:`Need`, the resolution pauses, and the next
events of the log must satisfy it. The resolution is plain data (frames of step tuples
with a program counter), so it can be copied with the state.

The interpreter names no game: it looks up a handler ``do_<node tag>`` on the game's
handler object for each step; a step with no handler raises :class:`UnsupportedStep`,
which the verifier reports as ``unverifiable``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Final, Protocol

from grammar.ast import Step, Triggered


class UnsupportedStep(Exception):
    """The game's spec has no meaning for this step (reported as unverifiable)."""

    def __init__(self, step: object, reason: str = "") -> None:
        self.step = step
        tag = getattr(getattr(step, "__struct_config__", None), "tag", type(step).__name__)
        super().__init__(reason or f"the spec cannot run a {tag!r} step")


@dataclass(slots=True)
class Need:
    """What the log must show next for a paused resolution to go on."""

    kind: str
    """The event kind (``draw``, ``roll``, ``discard``...)."""
    player: str
    count: int = 1
    rule: str = ""
    """Citation of the rule that demands the event."""
    detail: Any = None
    optional: bool = False
    """Whether the player may decline (a ``decline`` event, or an event of another kind)."""
    started: bool = False
    """Whether some event has already been taken toward this need."""
    among: tuple[str, ...] = ()
    """When the effect leaves it to a choice which player takes the need ("choose a
    player to ..."): the players it may be; the first event taken names the one chosen.
    Empty when ``player`` is fixed."""

    def describe(self) -> str:
        noun = self.kind if self.count == 1 else f"{self.count} x {self.kind}"
        who = " or ".join(self.among) if self.among else self.player
        return f"{noun} by {who}" + (" (optional)" if self.optional else "")


ONE_PLAYER: Final = (None, "you", "controller", "owner", "opponent", "active", "nonactive")
"""The ``Who`` values that name one player, relative to an effect's controller (``each`` and
``any`` name more: a static check that a condition or step is for one player reads this)."""


def sole_player(players: list[str], who: str | None, unmodelled: type[Exception]) -> str:
    """The one player of ``players`` (those a step's ``who`` names). A step that names
    several and is not carried out for each is not modelled: ``unmodelled`` (the game's
    exception for what its spec does not model) is raised, so the step is reported, never
    run for the first player alone."""
    if len(players) != 1:
        raise unmodelled(f"this step for {who} players is not modelled")
    return players[0]


def refuse(gap: str | None, unmodelled: type[Exception]) -> None:
    """Raise ``unmodelled`` (the game's exception for what its spec does not model) with
    ``gap``, what a game's static list (its ``step_gap``) says the spec cannot carry out
    about a step, if it says anything."""
    if gap is not None:
        raise unmodelled(gap)


STEP_TAGS: Final[frozenset[str]] = frozenset(node.__struct_config__.tag for node in Step.__args__)  # type: ignore[attr-defined]
"""The tag of every kind of step (:data:`grammar.ast.Step`, all games' steps)."""


def unhandled(handlers: object, node: object) -> str | None:
    """Why ``node`` of a card tree is a step ``handlers`` cannot run whatever the state (it
    has no ``do_<tag>``, so :func:`run` would raise :class:`UnsupportedStep`), or ``None``.
    A game's ``unsupported`` asks it of the steps it runs through the interpreter, so that
    lint names such a card before any replay reaches the step."""
    tag = getattr(getattr(node, "__struct_config__", None), "tag", None)
    if tag in STEP_TAGS and not hasattr(handlers, f"do_{tag}"):
        return f"the step {type(node).__name__} is not modelled"
    return None


@dataclass(slots=True)
class Frame:
    steps: tuple[Step, ...]
    pc: int = 0


@dataclass(slots=True)
class Resolution:
    """An effect being carried out: its frames, its variables and what it waits for."""

    controller: str
    source: Any
    frames: list[Frame]
    item: Any = None
    need: Need | None = None
    vars: dict[str, Any] = field(default_factory=dict)

    @property
    def done(self) -> bool:
        return self.need is None and not self.frames

    def push(self, steps: tuple[Step, ...]) -> None:
        """Run ``steps`` next, before the rest of the current frame."""
        if steps:
            self.frames.append(Frame(steps))

    def copy(self) -> Resolution:
        return Resolution(self.controller, self.source, [Frame(f.steps, f.pc) for f in self.frames],
                          self.item, None if self.need is None else replace(self.need), dict(self.vars))


class Handlers(Protocol):
    """What a game supplies: ``do_<tag>(state, resolution, step) -> Need | None``."""


_HANDLER_NAMES: dict[str, str] = {}
"""Node tag -> the name of its handler (``do_<tag>``), spelled once per tag."""


def run(handlers: object, state: Any, res: Resolution) -> bool:
    """Carry out steps until one needs the log or the effect is done; True when done."""
    while res.need is None and res.frames:
        frame = res.frames[-1]
        if frame.pc >= len(frame.steps):
            res.frames.pop()
            continue
        step = frame.steps[frame.pc]
        frame.pc += 1
        tag = step.__struct_config__.tag
        name = _HANDLER_NAMES.get(tag)
        if name is None:
            name = _HANDLER_NAMES[tag] = f"do_{tag}"
        handler = getattr(handlers, name, None)
        if handler is None:
            raise UnsupportedStep(step)
        res.need = handler(state, res, step)
    return res.need is None and not res.frames


def by_trigger_event(abilities: Iterable[Triggered]) -> dict[str, tuple[Triggered, ...]]:
    """Triggered abilities grouped by the event that sets each off, a group in the order given
    (a card's printed order), for looking up what one moment sets off at once."""
    grouped: dict[str, tuple[Triggered, ...]] = {}
    for ability in abilities:
        event = ability.trigger.event
        grouped[event] = (*grouped.get(event, ()), ability)
    return grouped
