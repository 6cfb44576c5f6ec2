"""Bakugan under the compiled spec (spec.compiled): what compiling could change in meaning
(checks made in a loop) still means the same. Its reports, compiled and interpreted, are
compared in tests/test_compiled.py."""

from __future__ import annotations

import pytest

from spec import compiled


def test_bakugan_rules_modules_are_compiled_but_not_its_structs() -> None:
    """Its per-event modules are in the list; events (msgspec structs, the decklist and the
    resolution steps beside them) and the corpus stay interpreted."""
    ours = {m for m in compiled.COMPILED if m.startswith("spec.bakugan.")}
    assert {"spec.bakugan.actions", "spec.bakugan.game", "spec.bakugan.effects", "spec.bakugan.state"} <= ours
    assert not ours & {"spec.bakugan.events", "spec.bakugan.corpus", "spec.bakugan.__init__"}


@pytest.mark.rule("bakugan:6.7.1.4")
def test_each_unasked_choice_check_names_its_own_kind() -> None:
    """The check names the kind of the event it is given (a function defined in a loop would share one kind
    when compiled), and keeps its name compiled (what reports and the corpus tests call it)."""
    from spec.bakugan import actions as X
    from spec.bakugan import events as E
    from spec.bakugan.game import _reader
    from spec.core.cards import CardDatabase, shipped_database

    state = _reader(CardDatabase.load(shipped_database("bakugan", "base"), "bakugan"))  # compiled code checks it is a state
    for kind, action in X.UNASKED.items():
        event = next(t for t in E.EVENTS if t.__struct_config__.tag == kind)(seq=1)
        ours = [check for check in action.checks if check.rule == "bakugan:6.7.1.4"]
        assert [check.name for check in ours] == ["_unasked"]
        found = [check.test(state, event) for check in ours]
        assert [v.actual for v in found if v is not None] == [kind]
