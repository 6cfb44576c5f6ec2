"""Mutation testing: illegal mutants of a legal game are flagged with a rule, legal ones are recognised."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from verifier.cli import app
from verifier.mutate import OPERATORS, mutate_once, run
from verifier.simulate import simulate
from verifier.verify import verify_file


@pytest.fixture(scope="module")
def legal_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("mutate") / "game.jsonl"
    lines = simulate("neopets", 7, passes="explicit", max_events=400)
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def test_every_operator_changes_what_it_says() -> None:
    header = {"players": ["alice", "bob"]}
    events = [{"seq": 1, "do": "shuffle", "by": "alice"}, {"seq": 2, "do": "draw", "by": "alice", "card": "A"},
              {"seq": 3, "do": "roll", "by": "bob", "dice": [1, 2]},
              {"seq": 4, "do": "play", "by": "bob", "card": "B", "targets": [{"card": "Neopet", "owner": "alice"}]}]
    rng = random.Random(3)
    for operator in ("drop", "duplicate", "swap", "card", "number", "player", "target"):
        changed = mutate_once(header, events, operator, rng, ["A", "B", "C"])
        assert changed is not None, operator
        _index, _description, mutated = changed
        assert mutated != events, operator
        assert [e["seq"] for e in mutated] == list(range(1, len(mutated) + 1))
    assert mutate_once(header, events, "phase", rng, ["A"]) is None  # no event names a phase


def test_illegal_mutants_are_flagged_with_a_rule(legal_game: Path) -> None:
    report = run([legal_game], count=len(OPERATORS) + 2, seed=5)
    counts = report.counts
    assert counts["missed"] == 0, [(m.description, m.why) for m in report.mutants if m.outcome == "missed"]
    assert counts["flagged"] >= 3
    assert all(m.rule for m in report.mutants if m.outcome == "flagged")
    assert report.share_flagged == 1.0


def test_the_mutate_command(legal_game: Path) -> None:
    result = CliRunner().invoke(app, ["mutate", str(legal_game), "-n", "3", "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["share_flagged"] == 1.0 and data["missed"] == []


def test_the_verifiers_gaps_are_kept_as_replays_to_verify_again(legal_game: Path, tmp_path: Path) -> None:
    """``--keep DIR`` writes each mutant missed or flagged without a rule as a replay file."""
    from verifier.mutate import keep

    report = run([legal_game], count=4, seed=2)
    assert keep(report, tmp_path / "none") == [] and (tmp_path / "none").is_dir()  # no gap: nothing written
    gap = next(m for m in report.mutants if m.outcome == "flagged")
    gap.outcome = "missed"  # stands for a gap the verifier would have
    (written,) = keep(report, tmp_path / "kept")
    assert written.name == "game-mutant-1.jsonl"
    assert written.read_text(encoding="utf-8").splitlines() == gap.lines
    assert verify_file(written).findings[0].rule == gap.rule  # the same game, verified again

    result = CliRunner().invoke(app, ["mutate", str(legal_game), "-n", "2", "--keep", str(tmp_path / "cli"), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["kept"] == []
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="utf-8")
    result = CliRunner().invoke(app, ["mutate", str(legal_game), "-n", "2", "--keep", str(blocked / "sub")])
    assert result.exit_code == 2 and "cannot write the mutants to" in result.output


def test_a_mutant_led_into_what_the_spec_does_not_model_is_counted_apart(legal_game: Path, tmp_path: Path) -> None:
    """A mutant the verifier cannot judge from some event on (here: an event plays a card the
    card database does not hold) is ``unmodelled``: not a miss, not flagged without a rule,
    and out of the share; so is one whose later events are then found illegal, in a game
    the verifier no longer follows as played."""
    from verifier.mutate import Mutant, MutationReport, judge

    lines = legal_game.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    at = next(n for n, line in enumerate(lines[1:], 1) if json.loads(line)["do"] == "play")
    unknown = {**json.loads(lines[at]), "card": "Unheard Of Card"}
    odd = Mutant("game.jsonl", "card", at - 1, "a card no database holds", [*lines[:at], json.dumps(unknown)])
    judge(odd, "neopets", header, tmp_path)
    assert odd.outcome == "unmodelled" and odd.rule is None and "Unheard Of Card" in odd.why
    on = Mutant("game.jsonl", "card", at - 1, "a card no database holds, the game going on",
                [*lines[:at], json.dumps(unknown), *lines[at + 1:]])
    judge(on, "neopets", header, tmp_path)
    assert verify_file(tmp_path / "mutant.jsonl").verdict == "illegal"  # found illegal after, in another game
    assert on.outcome == "unmodelled" and on.rule is None
    flagged = Mutant("game.jsonl", "drop", 0, "", [], outcome="flagged", rule="neopets:1.1")
    report = MutationReport([odd, flagged])
    assert report.share_flagged == 1.0 and report.counts["unmodelled"] == 1


ROOT = Path(__file__).resolve().parents[1]


def _explicit_legal(game: str) -> Path | None:
    for path in sorted((ROOT / "replays" / game / "legal").glob("*.jsonl")):
        if json.loads(path.read_text(encoding="utf-8").splitlines()[0]).get("options", {}).get("passes") == "explicit":
            return path
    return None


@pytest.mark.parametrize("game", ["bakugan", "ttcg", "epic_battles", "battle_monsters"])
def test_no_mutant_of_another_game_is_missed(game: str, tmp_path: Path) -> None:
    path = _explicit_legal(game)
    if path is None:  # a simulated game, every pass logged
        path = tmp_path / f"{game}.jsonl"
        path.write_bytes(b"\n".join(simulate(game, 5, passes="explicit", max_events=300)) + b"\n")
    report = run([path], count=4, seed=3)
    assert report.counts["missed"] == 0, [(m.description, m.why) for m in report.mutants if m.outcome == "missed"]
    assert all(m.rule for m in report.mutants if m.outcome == "flagged")


def test_a_replay_naming_its_card_file_by_a_relative_path_can_be_mutated(tmp_path: Path) -> None:
    """Mutants are verified elsewhere; they must still find the replay's own card file."""
    import shutil

    from spec.core.cards import shipped_database

    source = _explicit_legal("neopets") or next((ROOT / "replays" / "neopets" / "legal").glob("*.jsonl"))
    shutil.copy(shipped_database("neopets", "base"), tmp_path / "my-cards.toml")
    lines = source.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["cards"] = "my-cards.toml"
    replay = tmp_path / "game.jsonl"
    replay.write_text("\n".join([json.dumps(header)] + lines[1:400]) + "\n", encoding="utf-8")
    report = run([replay], count=3, seed=1)
    assert report.mutants and all(m.outcome in ("flagged", "still_legal") for m in report.mutants)
    assert not any("card database" in m.why for m in report.mutants)


@pytest.mark.parametrize("game", ["neopets", "ttcg", "epic_battles"])
def test_a_legal_game_with_implicit_passes_is_offered_by_legal_moves_with_its_passes_put_in(game: str) -> None:
    """The passes an implicit log leaves out are put in from ``legal_moves``, as the verifier infers them."""
    from verifier.mutate import _offered_from

    path = next(p for p in sorted((ROOT / "replays" / game / "legal").glob("*.jsonl"))
                if json.loads(p.read_text(encoding="utf-8").splitlines()[0])["options"].get("passes") == "implicit")
    lines = path.read_text(encoding="utf-8").splitlines()
    events = [json.loads(line) for line in lines[1:]]
    assert _offered_from(game, json.loads(lines[0]), events, 0, window=len(events), source=str(path)) == (True, "")
    moved = [dict(e) for e in events]
    first_move = next(i for i, e in enumerate(moved) if e["do"] not in ("shuffle", "first", "game"))
    moved.insert(first_move, dict(moved[-1], seq=0))  # the game's end claimed too early is refused
    offered, why = _offered_from(game, json.loads(lines[0]), moved, first_move, window=len(moved), source=str(path))
    assert not offered and why


def _claim_swapped_with_the_link(name: str) -> tuple[Path, dict[str, Any], list[dict[str, Any]], int]:
    """An Epic Battles log with implicit passes where an attack's damage claim and the linked
    attack after it change places: the attack, the linked attack, then the claim. The passes
    left unsaid before the linked attack dealt the damage, and a claim after a move may name
    what it and the passes before it brought about (EB.damage.take), so the verifier calls
    it legal. Returns (path, header, events, index of the linked attack)."""
    path = ROOT / "replays" / "epic_battles" / "legal" / name
    lines = path.read_text(encoding="utf-8").splitlines()
    header, events = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    at = next(i for i in range(len(events) - 2) if events[i]["do"] == "attack" and events[i + 1]["do"] == "damage"
              and events[i + 2]["do"] == "attack" and events[i + 2].get("link"))
    events[at + 1], events[at + 2] = events[at + 2], events[at + 1]
    for seq, event in enumerate(events, 1):
        event["seq"] = seq
    return path, header, events, at + 1


@pytest.mark.parametrize("name", ["blocked-knock-down-recover-by-block-102.jsonl", "plays-neon-uppercut-rhea-105.jsonl"])
def test_a_claim_of_what_passes_left_unsaid_did_is_judged_as_the_verifier_reads_it(name: str, tmp_path: Path) -> None:
    """The oracle played the passes a move needs as events of their own, so the damage they
    dealt came before the move and a claim after the move was refused: a legal mutant was
    counted as missed. The passes are now played on a copy, to ask legal_moves, and the
    replay goes on as the verifier reads the move."""
    from verifier.mutate import _offered_from

    source, header, events, at = _claim_swapped_with_the_link(name)
    mutant = tmp_path / name
    mutant.write_text("\n".join(json.dumps(line) for line in [header, *events]) + "\n", encoding="utf-8")
    assert verify_file(mutant).verdict == "legal"
    assert _offered_from("epic_battles", header, events, at, source=str(source)) == (True, "")


def test_a_move_read_where_the_offered_passes_do_not_lead_is_a_miss(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the passes legal_moves offers before a move lead to another game than the
    verifier's reading of the move, the oracle does not call the mutant legal. (Here the
    passes are made to lead elsewhere: one more round is counted on the copy they play on.)"""
    from verifier import mutate

    source, header, events, at = _claim_swapped_with_the_link("plays-neon-uppercut-rhea-105.jsonl")
    passes = mutate._pass_until_offered

    def astray(game: Any, state: Any, event: Any) -> None:
        passes(game, state, event)
        state.round += 1

    monkeypatch.setattr(mutate, "_pass_until_offered", astray)
    offered, why = mutate._offered_from("epic_battles", header, events, at, source=str(source))
    assert not offered and "where the passes legal_moves offers do not lead" in why


def test_mutants_of_an_implicit_pass_game_are_judged_not_left_unconfirmed(tmp_path: Path) -> None:
    path = tmp_path / "implicit.jsonl"
    path.write_bytes(b"\n".join(simulate("neopets", 11, passes="implicit", max_events=300)) + b"\n")
    report = run([path], count=12, seed=4)
    assert report.counts["missed"] == 0, [(m.description, m.why) for m in report.mutants if m.outcome == "missed"]
    assert {m.outcome for m in report.mutants} <= {"flagged", "still_legal"}


def test_a_replay_that_is_not_legal_is_skipped_not_mutated(legal_game: Path) -> None:
    """A mutant of a replay the verifier already refuses cannot show what the change did:
    such a replay is skipped and listed with its verdict; given nothing else, the command
    says there is no legal replay to mutate."""
    illegal = Path(__file__).parent.parent / "replays" / "neopets" / "illegal" / "breaks-1-1-p2.jsonl"
    report = run([illegal, legal_game], count=3, seed=1)
    assert [source for source, _why in report.skipped] == [str(illegal)]
    assert report.skipped[0][1].startswith("illegal at seq ")
    assert report.mutants and {m.source for m in report.mutants} == {str(legal_game)}
    result = CliRunner().invoke(app, ["mutate", str(illegal), "-n", "2"])
    assert result.exit_code == 2 and "no legal replay to mutate" in result.output


# A log kept by a judge often shows one player's draws and not the other's: the hidden
# cards are named only when played. legal_moves must offer such a move too (a hidden card
# of the hand can be any card the deck can still give), or mutate counts legal mutants of
# the log as missed. These replays each move a hidden card at some point.
HIDDEN_HAND = [("bakugan", "game-108"), ("neopets", "game-111"), ("ttcg", "ranks-20")]


@pytest.mark.parametrize(("game", "name"), HIDDEN_HAND)
def test_a_card_drawn_unseen_and_named_when_it_leaves_the_hand_is_offered(game: str, name: str) -> None:
    from verifier.mutate import _offered_from

    path = ROOT / "replays" / game / "legal" / f"{name}.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    header, events = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    first = header["players"][0]
    hidden = 0
    for event in events:
        if event["do"] == "draw" and event.get("by") == first and event.get("card"):
            event["card"], hidden = None, hidden + 1
    assert hidden
    assert _offered_from(game, header, events, 0, window=len(events), source=str(path)) == (True, "")


def test_a_hidden_hand_card_an_effect_chooses_is_offered(tmp_path: Path) -> None:
    """Seed Vault has its player choose a plant card of the hand: with the draws hidden, the
    card chosen may be any plant the deck can still give (TTCG ``_choice_options``)."""
    from verifier.mutate import _offered_from
    from verifier.simulate import simulate

    lines = simulate("ttcg", 302, prefer=("Seed Vault",), hold=("Seed Vault",))
    header, events = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    first = header["players"][0]
    for event in events:
        if event["do"] == "draw" and event.get("by") == first:
            event["card"] = None
    assert any(e["do"] == "choose" and e.get("by") == first and e.get("cards") for e in events)
    replay = tmp_path / "hidden.jsonl"
    replay.write_text("\n".join(json.dumps(line) for line in [{**header, "expect": {"verdict": "legal"}}, *events]) + "\n", encoding="utf-8")
    assert verify_file(replay).verdict == "legal"
    assert _offered_from("ttcg", header, events, 0, window=len(events), source=str(replay)) == (True, "")


# Logs that leave a card unnamed where only its owner saw it: an Epic Battles event set face
# down and a card discarded (``null``), a Neopets card revealed only as a kind (``""``).
# Each game before the inconsistency it was written for is legal.
UNNAMED = [("epic_battles", "inconsistent-hidden-event", {"set", "discard"}), ("neopets", "inconsistent-hidden-faerie", {"reveal"})]


@pytest.mark.parametrize(("game", "name", "kinds"), UNNAMED)
def test_a_card_left_unnamed_by_the_log_is_offered(game: str, name: str, kinds: set[str], tmp_path: Path) -> None:
    """A mutant that keeps such a game legal is recognised (Game.hidden_fields), not counted as a miss."""
    from spec import load_game
    from verifier.mutate import _offered_from

    path = ROOT / "replays" / game / "illegal" / f"{name}.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    header, events = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    legal = [e for e in events if e["seq"] < header["expect"]["seq"]]
    unnamed = {e["do"] for e in legal if e["do"] in load_game(game).hidden_fields and not e.get("card")}
    assert unnamed == kinds
    assert _offered_from(game, header, legal, 0, window=len(legal), source=str(path)) == (True, "")
    replay = tmp_path / "hidden.jsonl"
    replay.write_text("\n".join([json.dumps({**header, "expect": {"verdict": "legal"}})] + [json.dumps(e) for e in legal]) + "\n",
                      encoding="utf-8")
    report = run([replay], count=30, seed=3)
    assert report.mutants and not [m for m in report.mutants if m.outcome == "missed"]


def test_a_mutant_the_spec_fails_on_is_a_spec_fault_kept_to_mend(legal_game: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """An error the spec raises on a mutant (a bug, not a ruling), whether the verifier or the
    replay through ``legal_moves`` meets it, is the outcome ``spec_fault``: never a crash of the
    run, never counted as unmodelled, written out by ``keep`` and out of the share."""
    from spec import load_game
    from verifier import mutate as mutate_module
    from verifier import verify as verify_module
    from verifier.mutate import Mutant, MutationReport, judge, keep

    class Faulty:
        def __init__(self, game: Any) -> None:
            self._game = game

        def __getattr__(self, name: str) -> Any:
            return getattr(self._game, name)

        def apply(self, state: Any, event: Any) -> Any:
            if event.seq == 3:
                raise KeyError("a slot the spec forgot")
            return self._game.apply(state, event)

    lines = legal_game.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    with monkeypatch.context() as patch:
        patch.setattr(verify_module, "load_game", lambda game_id: Faulty(load_game(game_id)))
        verified = Mutant("game.jsonl", "number", 2, "a changed number", lines)
        judge(verified, "neopets", header, tmp_path)
    assert verified.outcome == "spec_fault" and "KeyError" in verified.why

    def failing(*_args: Any, **_options: Any) -> tuple[bool, str]:
        raise IndexError("a zone the spec thought held a card")

    monkeypatch.setattr(mutate_module, "_offered_from", failing)
    replayed = Mutant("game.jsonl", "number", 2, "a changed number", lines)  # the legal game: verified legal
    judge(replayed, "neopets", header, tmp_path)
    assert replayed.outcome == "spec_fault" and "legal_moves" in replayed.why and "IndexError" in replayed.why
    report = MutationReport([verified, replayed, Mutant("game.jsonl", "drop", 0, "", [], outcome="flagged", rule="neopets:1.1")])
    assert report.share_flagged == 1.0
    assert [f["why"] for f in report.to_json()["faults"]] == [verified.why, replayed.why]
    assert len(keep(report, tmp_path / "kept")) == 2


def test_the_mutate_command_names_each_spec_fault_and_exits_1(legal_game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from verifier import mutate as mutate_module
    from verifier.mutate import Mutant, MutationReport

    fault = Mutant(str(legal_game), "swap", 4, "swapped two events", [], outcome="spec_fault",
                   why="the spec failed on this event (KeyError: 'x')")
    monkeypatch.setattr(mutate_module, "run", lambda *_args, **_options: MutationReport([fault]))
    result = CliRunner().invoke(app, ["mutate", str(legal_game), "-n", "1"])
    assert result.exit_code == 1, result.output
    assert f"SPEC FAULT {legal_game} [swap] swapped two events: the spec failed on this event (KeyError: 'x')" in result.output
