"""The counts of the changes made to the fields of all TTCG states (:data:`EDITS`).

A module of its own, compiled with the rules (:mod:`spec.compiled`), so that both the compiled
state (:mod:`spec.ttcg.state`) and the lists kept interpreted (:mod:`spec.ttcg.fieldlist`) move
the same counters without importing each other; compiled readers of ``EDITS`` read a native
object's fields directly.
"""

from __future__ import annotations

from typing import Final


class Edits:
    """Counts of the changes made to the fields of all TTCG states (they only grow).

    ``field``: the make-up of a field changed: a pile joined or left a row, a pile got a new
    top card, or a card joined or left the cards under one. What :mod:`spec.ttcg.board`
    reads of the field's make-up (its piles in order, which card effects of each kind lie
    where) is kept until it moves. ``marks``: a pile's ``tapped``, ``switched_on`` or
    ``equipped_to`` may have changed.

    ``force``: something else the effects in force depend on changed: a card or pile was
    made (``next_uid``), a lasting result began or ended, a turn began, an extra play was
    granted, or a state was put back from a snapshot (:func:`force_changed`). While none of
    the three moves, neither does what ``conflicts_met`` compares (its change stamp):
    :func:`in_force_edits` adds them up (for the verifier: :attr:`TtcgState.in_force_stamp`).

    Readers on the hot path read the attributes; :func:`field_edits` and :func:`mark_edits`
    give the same counts.
    """

    __slots__ = ("field", "force", "marks")

    field: int
    marks: int
    force: int

    def __init__(self) -> None:
        self.field = 0
        self.marks = 0
        self.force = 0


EDITS: Final[Edits] = Edits()
"""The counts of changes to the fields of all TTCG states (see :class:`Edits`).

``Final`` (it is never bound again, only its counts move) so that compiled code, here and in the
modules that import it, reads it from a C static instead of looking it up in a module's namespace
on every use: a dict look-up per read, several per event on the hot path."""


def field_edits() -> int:
    """A count that changes whenever the make-up of a field changes, in any state (``EDITS.field``)."""
    return EDITS.field


def mark_edits() -> int:
    """A count that changes whenever a pile's ``tapped``, ``switched_on`` or ``equipped_to`` may have changed,
    in any state (``EDITS.marks``)."""
    return EDITS.marks


def in_force_edits() -> int:
    """A count that moves whenever the change stamp ``conflicts_met`` compares may have moved (see :class:`Edits`)."""
    return EDITS.field + EDITS.marks + EDITS.force


def force_changed() -> None:
    """Count a change of what the effects in force depend on besides the field (``EDITS.force``)."""
    EDITS.force += 1
