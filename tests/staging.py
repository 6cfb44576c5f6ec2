"""What the speed tests of every game share: the checks a game leaves out where they cannot fail.

Each game runs, where it stands, only the checks of an action whose
:func:`spec.core.rules.fails_only` declaration lets them fail there (``Action.checks_where``).
A wrong declaration would hide a violation, so each game's speed test walks its replays
and, before every judged event, hands the action, the checks the game kept and the state
to :func:`agrees_with_every_check`, which runs every registered check the plain way.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from spec.core.rules import Action, Check


@dataclass
class Staging:
    """What the comparisons along a walk saw: how many, and which checks were left out or found something."""

    compared: int = 0
    skipped: int = 0
    """How many times a check left out was run and found nothing."""
    left_out: set[str] = field(default_factory=set)
    """Names of the checks seen left out (each finding nothing there)."""
    found: set[str] = field(default_factory=set)
    """Names of the kept checks seen finding something (or raising): each is run where it can fail."""


def agrees_with_every_check(action: Action[Any, Any], kept: Collection[Check[Any, Any]], state: Any, event: Any,
                            seen: Staging | None = None, where: object = "") -> None:
    """Assert that judging ``event`` with only the ``kept`` checks is judging it with all of them.

    ``kept`` must be the action's checks in registration order less some; each check left
    out must find nothing and raise nothing on ``state``; and the first kept check that
    finds something (with what it finds) must be the action's ``first_violation``, or both
    must raise the same error. ``where`` names the situation in assertion messages.
    """
    checks = list(action.checks)
    assert [check for check in checks if check in kept] == list(kept), (action.name, where, "not in registration order")
    first: Any = None
    for check in checks:
        try:
            found: Any = check.test(state, event)
        except Exception as error:  # a check left out must not raise; a kept one raises as first_violation does
            if check not in kept:
                raise AssertionError(f"{check.name} left out at {where} but raises {error!r} (seq {event.seq})") from error
            found = error
        if check in kept:
            if found is not None:
                first = first or (check, found)
                if seen is not None:
                    seen.found.add(check.name)
        else:
            assert found is None, f"{check.name} left out at {where} but finds {found} (seq {event.seq})"
            if seen is not None:
                seen.skipped += 1
                seen.left_out.add(check.name)
    try:
        plain: Any = action.first_violation(state, event)
    except Exception as error:  # noqa: BLE001 - compared with the staged reading below
        assert first is not None and isinstance(first[1], Exception), (action.name, where, error)
        assert (type(first[1]), str(first[1])) == (type(error), str(error)), (action.name, where)
    else:
        assert first == plain, (action.name, where, first, plain)
    if seen is not None:
        seen.compared += 1
