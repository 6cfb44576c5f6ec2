"""Inferring passes always ends (spec.core.game.MAX_INFERRED_PASSES).

With implicit passes, a move that is not legal where the game stands lets the spec pass
for both players until it is. A mutated Bakugan log (tests/data) holds a move that never
becomes legal while passing changes nothing in the Energize step; the verifier used to
go round for ever on it with --keep-going. It must now judge it and go on.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from spec.core.game import MAX_INFERRED_PASSES

ROOT = Path(__file__).resolve().parents[1]
LOG = ROOT / "tests" / "data" / "bakugan-move-never-legal.jsonl"


def test_a_move_that_never_becomes_legal_is_judged_not_looped_over() -> None:
    assert MAX_INFERRED_PASSES > 0
    done = subprocess.run([sys.executable, "-m", "verifier.cli", "verify", str(LOG), "--keep-going", "--format", "json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 1, done.stderr[-2000:]
    assert '"verdict":"illegal"' in done.stdout.replace(" ", "")


def _implicit(lines: list[bytes], keep_passes: bool) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    import json

    header = {**json.loads(lines[0]), "options": {"passes": "implicit"}}
    events = [json.loads(line) for line in lines[1:]]
    events = [e for e in events if keep_passes or e["do"] != "pass"]
    for seq, event in enumerate(events, 1):
        event["seq"] = seq
    return header, events


def _write(path: Path, header: dict[str, Any], events: list[dict[str, Any]]) -> Path:
    import json

    path.write_text("\n".join(json.dumps(line) for line in [header, *events]) + "\n", encoding="utf-8")
    return path


def test_a_claim_lets_an_optional_choice_go_as_a_pass_would(tmp_path: Path) -> None:
    """Bob's Cindermoth may reroll after alice's defence roll; the explicit log lets it go
    with bob's pass, then claims the damage. With the passes left out, the claim has the
    players pass on through the optional choice (Game._pass_over), so the damage is dealt."""
    from verifier.simulate import simulate
    from verifier.verify import verify_file

    cards = ("Ember Cindermoth", "Pebblequoll")
    header, events = _implicit(simulate("neopets", 9503, claims=True, prefer=cards, hold=cards), keep_passes=False)
    report = verify_file(_write(tmp_path / "claims.jsonl", header, events))
    assert report.verdict == "legal", [(f.seq, f.rule, f.message) for f in report.findings]
    assert any(e["do"] == "damage" for e in events)


# An implicit log is read with every event at the first point the passes reach where it is
# legal. The simulator keeps the passes that reading cannot infer (verifier.simulate,
# _without_passes): here a Neopets equipment used in the next turn, which could also be used
# at the end of this one, and TTCG moves of the same kind.
@pytest.mark.parametrize(("game", "seed", "claims"), [("neopets", 4000, True), ("ttcg", 5006, False), ("ttcg", 5013, False)])
def test_an_implicit_simulated_log_keeps_the_passes_the_verifier_cannot_infer(game: str, seed: int, claims: bool,
                                                                            tmp_path: Path) -> None:
    from verifier.simulate import simulate
    from verifier.verify import verify_file

    lines = simulate(game, seed, passes="implicit", claims=claims)
    report = verify_file(_write(tmp_path / "kept.jsonl", *_implicit(lines, keep_passes=True)))
    assert report.verdict == "legal", [(f.seq, f.rule, f.message) for f in report.findings]
    assert any(b'"do":"pass"' in line for line in lines[1:])
    stripped = verify_file(_write(tmp_path / "stripped.jsonl", *_implicit(lines, keep_passes=False)))
    assert stripped.verdict == "illegal"  # every pass left out: read another way


@pytest.mark.parametrize(("game", "seed"), [("ttcg", 5006), ("neopets", 4000)])
def test_every_pass_an_implicit_simulated_log_keeps_is_needed(game: str, seed: int) -> None:
    """The passes kept are found in windows that double (_without_passes), and then each
    one the log does without is dropped (_fewer_passes): leaving out any pass still kept
    makes the log refused, or read as another game than the one played."""
    from spec import load_game
    from spec.core.cards import CardDatabase, shipped_database
    from spec.core.game import Setup
    from verifier.simulate import _reading, simulate

    header, events = _implicit(simulate(game, seed, passes="implicit", claims=game == "neopets"), keep_passes=True)
    spec = load_game(game)
    cards = CardDatabase.load(shipped_database(game, header["cards"].split("/", 1)[1]), game)

    def setup() -> Setup:
        return Setup(tuple(header["players"]), dict(header["decks"]), {"passes": "implicit"}, cards)

    refused, read = _reading(spec, setup(), events)
    assert refused is None
    kept = [i for i, e in enumerate(events) if e["do"] == "pass"]
    assert kept
    for i in kept:
        assert _reading(spec, setup(), events[:i] + events[i + 1:]) != (None, read), f"seq {i + 1} is not needed"


def test_a_move_an_optional_choice_cannot_take_is_read_as_made_later(tmp_path: Path) -> None:
    """Bob's Cindermoth may reroll one die after alice's defence roll; bob lets it go, then
    rerolls two dice as another rule allows. With the passes left out, the reroll of two is
    not given to the choice that allows one (Game._fits): bob passed over it, and the reroll
    is read where it is legal."""
    from verifier.simulate import simulate
    from verifier.verify import verify_file

    header, events = _implicit(simulate("neopets", 4102, claims=True), keep_passes=False)
    assert any(e["do"] == "reroll" and len(e["which"]) == 2 for e in events)
    report = verify_file(_write(tmp_path / "reroll.jsonl", header, events))
    assert report.verdict == "legal", [(f.seq, f.rule, f.message) for f in report.findings]
