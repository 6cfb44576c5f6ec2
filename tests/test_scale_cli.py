"""``arbiter simulate`` and ``arbiter bench`` (speed is measured there, never asserted here)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from verifier.cli import app
from verifier.verify import verify_file

ROOT = Path(__file__).resolve().parents[1]


def test_simulate_writes_legal_games_and_the_same_seed_gives_the_same_files(tmp_path: Path) -> None:
    runner = CliRunner()
    for out in ("a", "b"):
        result = runner.invoke(app, ["simulate", "neopets", "--games", "2", "--seed", "11", "-o", str(tmp_path / out)])
        assert result.exit_code == 0, result.output
    first = sorted((tmp_path / "a").glob("*.jsonl"))
    assert [p.name for p in first] == ["neopets-000011.jsonl", "neopets-000012.jsonl"]
    for path in first:
        assert path.read_bytes() == (tmp_path / "b" / path.name).read_bytes()
        assert verify_file(path).verdict == "legal"


def test_simulate_refuses_a_game_without_a_spec(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["simulate", "chess", "-o", str(tmp_path)])
    assert result.exit_code == 2


def _lines(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    header, *events = (json.loads(line) for line in path.read_text().splitlines())
    return header, events


def test_simulate_prefer_holds_a_card_in_every_deck_and_plays_it(tmp_path: Path) -> None:
    """--prefer tries a card out: the game's own deck builder is drawn from until each deck
    holds it (Kaito's Rising Fang goes only in Kaito's decks, about one random Epic Battles
    deck in twenty), and it is played whenever it may be. The games stay legal, the same
    seed gives the same files, the header's meta says which card was tried, and the
    command says how often it was played."""
    from verifier.simulate import deck_names

    card = "Kaito's Rising Fang"
    for out in ("a", "b"):
        result = CliRunner().invoke(app, ["simulate", "epic_battles", "-n", "2", "--seed", "5", "--prefer", card, "-o", str(tmp_path / out)])
        assert result.exit_code == 0, result.output
        assert f"{card}: named by " in result.output and " attack, " in result.output and "in 2 of 2 game(s)" in result.output
    for path in sorted((tmp_path / "a").glob("*.jsonl")):
        header, events = _lines(path)
        assert header["meta"]["prefer"] == [card]
        assert all(card in deck_names(deck) for deck in header["decks"].values())
        assert any(event.get("card") == card for event in events)
        assert verify_file(path).verdict == "legal"
        assert path.read_bytes() == (tmp_path / "b" / path.name).read_bytes()


def test_a_card_tried_out_is_put_away_only_when_nothing_else_is_left() -> None:
    """Trying a card out (``hold``), the simulator favours playing it and does not draw a move
    that discards it while any other move but passing is left (``Game.parting_moves``);
    with only that discard and passing left, the discard may be drawn."""
    import random

    from spec import load_game
    from spec.epic_battles import events as E
    from verifier.simulate import _Chooser

    game = load_game("epic_battles")
    card = "Kaito's Rising Fang"
    chooser = _Chooser(game, random.Random(1), 1, (card,), 0.35, 0.001, keep=(card,))
    discard, other, passing = E.Discard(1, "alice", card=card), E.Discard(1, "alice", card="Quick Jab"), E.Pass(1, "alice")
    assert all(chooser.pick([discard, other, passing]) is not discard for _ in range(200))
    assert any(chooser.pick([discard, passing]) is discard for _ in range(200))
    attack = E.Attack(1, "alice", card=card)
    assert all(chooser.pick([discard, attack, other, passing]) is attack for _ in range(50))
    merely_preferred = _Chooser(game, random.Random(1), 1, (card,), 0.35, 0.001)  # as the corpora prefer cards: no keeping
    assert all(merely_preferred.pick([discard, other, passing]) is discard for _ in range(50))


def test_simulate_no_hold_lets_a_card_tried_out_be_put_away(tmp_path: Path) -> None:
    """With --no-hold, a card tried out is favoured in every move naming it, discards too (to
    try out what it does as it is discarded), and the header says none is kept; by default a
    discard of it waits until nothing else is left. The same seed and cards, both ways."""
    card = "Kaito's Rising Fang"
    named = {}
    for flag in ("--hold", "--no-hold"):
        result = CliRunner().invoke(app, ["simulate", "epic_battles", "-n", "2", "--seed", "5", "--prefer", card, flag,
                                          "-o", str(tmp_path / flag)])
        assert result.exit_code == 0, result.output
        named[flag] = result.output
        header, _events = _lines(next((tmp_path / flag).glob("*.jsonl")))
        assert header["meta"].get("keep", "absent") == ([] if flag == "--no-hold" else "absent")
    discards = {flag: int(re.search(r"(\d+) discard", out).group(1)) for flag, out in named.items()}  # type: ignore[union-attr]
    assert discards["--no-hold"] > discards["--hold"], named


def test_simulate_says_when_a_card_tried_out_was_never_played(tmp_path: Path) -> None:
    """A Bakugan Character is held by a team, not played from a deck, so no move names it:
    the command says so rather than only counting nothing."""
    result = CliRunner().invoke(app, ["simulate", "bakugan", "-n", "1", "--seed", "2", "--prefer", "Emberclaw", "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "Emberclaw: named by 0 move(s), in 0 of 1 game(s) (never played: no move could play it in these games)" in result.output
    header, _events = _lines(next((tmp_path / "out").glob("*.jsonl")))
    assert any("Emberclaw" in deck["team"] for deck in header["decks"].values())


def test_simulate_prefer_shares_out_cards_no_single_deck_may_hold(tmp_path: Path) -> None:
    """Two Epic Battles characters cannot be in one deck: each player gets one of them."""
    result = CliRunner().invoke(app, ["simulate", "epic_battles", "-n", "2", "--seed", "5", "--prefer", "Brakka", "--prefer", "Rhea",
                                      "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for path in sorted(tmp_path.glob("*.jsonl")):
        header, _events = _lines(path)
        assert sorted(deck["character"] for deck in header["decks"].values()) == ["Brakka", "Rhea"]


@pytest.mark.parametrize(("game", "card", "says"), [
    ("battle_monsters", "Vigil Heorn", "'Vigil Heorn' is no card of the database (did you mean 'Vigil Heron'?)"),
    ("ttcg", "Voidcaller", "'Voidcaller' is in the database, but the spec does not run it yet (its Overload effect is of a type"),
    ("battle_monsters", "the Unbroken", "'the Unbroken' is listed in decks only within longer names, such as '"),  # a suffix
])
def test_simulate_prefer_of_a_card_no_deck_holds_says_why(tmp_path: Path, game: str, card: str, says: str) -> None:
    result = CliRunner().invoke(app, ["simulate", game, "--prefer", card, "-o", str(tmp_path)])
    assert result.exit_code == 2
    assert says in result.output
    assert not list(tmp_path.glob("*.jsonl"))


def test_simulate_prefer_of_a_card_the_decks_drawn_lacked_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card the spec runs, which no deck drawn held (here with one deck drawn a player):
    the message says the deck builder left it out, not that the spec cannot run it."""
    import verifier.simulate

    monkeypatch.setattr(verifier.simulate, "DECK_TRIES", 1)
    result = CliRunner().invoke(app, ["simulate", "neopets", "--seed", "1", "--prefer", "Glacier Lance", "-o", str(tmp_path)])
    assert result.exit_code == 2
    assert "'Glacier Lance' is in the database and the spec runs it, but no deck drawn held it" in " ".join(result.output.split())
    assert not list(tmp_path.glob("*.jsonl"))


def test_simulate_tries_a_new_card_from_a_designer_s_card_file(tmp_path: Path) -> None:
    """--cards builds the decks from a designer's file: here the shipped set and one new
    Food. The headers name the file by its path from the output folder, so the verifier
    finds it; the new card is played and the games are legal."""
    from spec.core.cards import shipped_database

    mine = tmp_path / "mine.toml"
    mine.write_text(shipped_database("neopets", "base").read_text()
                    + '\n[[card]]\nname = "Moonpetal Tart"\ntype = "Food"\ntext = "Freeze your opponent\'s Neopet."\n')
    result = CliRunner().invoke(app, ["simulate", "neopets", "-n", "2", "--seed", "1", "--cards", str(mine), "--prefer", "Moonpetal Tart",
                                      "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    for path in sorted((tmp_path / "out").glob("*.jsonl")):
        header, events = _lines(path)
        assert header["cards"] == "../mine.toml"
        assert any(event["do"] == "play" and event.get("card") == "Moonpetal Tart" for event in events)
        assert verify_file(path).verdict == "legal"


def test_simulate_draws_any_neopet_of_a_species(tmp_path: Path) -> None:
    """A second Neopet of a species already in the cards is drawn too (one per species in a
    deck, neopets:1.4.p1), and the game played with it is legal."""
    from spec.core.cards import shipped_database

    mine = tmp_path / "mine.toml"
    mine.write_text(shipped_database("neopets", "base").read_text()
                    + '\n[[card]]\nname = "Elder Glimmerfox"\ntype = "Neopet"\nspecies = "Glimmerfox"\n'
                    'stats = { attack = 4, defence = 2, agility = 2, hp = 7 }\ntext = "Your Neopet is immune to frozen."\n')
    result = CliRunner().invoke(app, ["simulate", "neopets", "--seed", "2", "--cards", str(mine), "--prefer", "Elder Glimmerfox",
                                      "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    header, _events = _lines(next((tmp_path / "out").glob("*.jsonl")))
    assert any("Elder Glimmerfox" in deck["neopets"] and "Glimmerfox" not in deck["neopets"] for deck in header["decks"].values())
    assert verify_file(next((tmp_path / "out").glob("*.jsonl"))).verdict == "legal"


def test_simulate_refuses_to_try_a_card_whose_text_the_spec_does_not_read(tmp_path: Path) -> None:
    from spec.core.cards import shipped_database

    mine = tmp_path / "mine.toml"
    mine.write_text(shipped_database("neopets", "base").read_text()
                    + '\n[[card]]\nname = "Gloomberry Pie"\ntype = "Food"\ntext = "Juggle three moons."\n')
    result = CliRunner().invoke(app, ["simulate", "neopets", "--cards", str(mine), "--prefer", "Gloomberry Pie", "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "does not read the text of 'Gloomberry Pie'" in result.output
    other = CliRunner().invoke(app, ["simulate", "ttcg", "--cards", str(mine), "-o", str(tmp_path / "out")])
    assert other.exit_code == 2 and "a card file of neopets, not of ttcg" in other.output
    missing = CliRunner().invoke(app, ["simulate", "ttcg", "--cards", str(tmp_path / "none.toml"), "-o", str(tmp_path / "out")])
    assert missing.exit_code == 2 and "none.toml: cannot read the card file" in missing.output
    assert not (tmp_path / "out").exists()


def test_simulate_leaves_cards_whose_text_the_spec_does_not_read_out_of_the_decks(tmp_path: Path) -> None:
    """A designer's file may hold texts that do not parse yet: the decks are drawn without
    them (no move could play one and be judged), the command says which, and the games
    are legal."""
    from spec.core.cards import shipped_database

    mine = tmp_path / "mine.toml"
    mine.write_text(shipped_database("neopets", "base").read_text()
                    + '\n[[card]]\nname = "Gloomberry Pie"\ntype = "Food"\ntext = "Juggle three moons."\n'
                    + '\n[[card]]\nname = "Fogberry Pie"\ntype = "Food"\ntext = "Whistle at the moon."\n')
    result = CliRunner().invoke(app, ["simulate", "neopets", "-n", "3", "--seed", "4", "--cards", str(mine), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "left out of the decks: 2 card(s) the spec cannot play" in result.output
    assert "(Gloomberry Pie, Fogberry Pie)" in result.output
    for path in sorted((tmp_path / "out").glob("*.jsonl")):
        header, _events = _lines(path)
        listed = json.dumps(header["decks"])
        assert "Gloomberry Pie" not in listed and "Fogberry Pie" not in listed
        assert verify_file(path).verdict == "legal"


def test_simulate_leaves_out_a_card_with_an_ability_the_spec_gives_no_meaning_to(tmp_path: Path) -> None:
    """An Epic Battles attack that flips at a step parses, but the spec gives an attack's
    triggers no meaning beyond its HIT text and being blocked (spec.epic_battles.board):
    the decks leave it out, as they leave out a text that does not parse."""
    from spec.core.cards import shipped_database

    shipped = shipped_database("epic_battles", "base").read_text()
    old = 'traits = ["Punch"]\ntext = ""\n'
    assert shipped.count(old) == 1  # Quick Jab
    mine = tmp_path / "mine.toml"
    mine.write_text(shipped.replace(old, 'traits = ["Punch"]\ntext = "Flip at the beginning of the Action step."\n'))
    result = CliRunner().invoke(app, ["simulate", "epic_battles", "-n", "2", "--seed", "3", "--cards", str(mine),
                                      "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "left out of the decks: 1 card(s) the spec cannot play" in result.output and "(Quick Jab)" in result.output
    for path in sorted((tmp_path / "out").glob("*.jsonl")):
        header, _events = _lines(path)
        assert "Quick Jab" not in json.dumps(header["decks"])
        assert verify_file(path).verdict == "legal"


# A card file of each game too short of a kind of card for a legal deck: what it lacks, and
# the rule the shortage breaks (each game's random_deck raises DeckError, or the deck it
# draws breaks the game's construction check).
TOO_FEW = [
    ("neopets", "Codestone", "neopets:1.1.p1"),
    ("bakugan", "40 cards", "bakugan:1.1/2.1.p3"),
    ("ttcg", "two copies each", "ttcg:2.2.1.a"),
    ("battle_monsters", "no monster card", "battle_monsters:BM.start.deck_min"),
    ("epic_battles", "deck size", "epic_battles:EB.deck.size"),
]


@pytest.mark.parametrize(("game", "says", "rule"), TOO_FEW)
def test_simulate_says_which_rule_a_card_file_too_small_for_a_deck_breaks(tmp_path: Path, game: str, says: str,
                                                                           rule: str) -> None:
    from spec.core.cards import shipped_database

    text = shipped_database(game, "base").read_text()
    kept = "[[card]]".join(text.split("[[card]]")[:7])  # the first six cards
    if game == "battle_monsters":  # the first six are monsters: keep the others
        parts = text.split("[[card]]")
        kept = "[[card]]".join([parts[0]] + [p for p in parts[1:] if 'species = ' not in p and 'type = "Monster' not in p])
    mine = tmp_path / "mine.toml"
    mine.write_text(kept)
    result = CliRunner().invoke(app, ["simulate", game, "--cards", str(mine), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert str(mine) in result.output and says in result.output and rule in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not (tmp_path / "out").exists()


REAL_POOLS = Path(__file__).resolve().parents[2] / "shared" / "cards"


@pytest.mark.skipif(not REAL_POOLS.is_dir(), reason="../shared/cards is not beside the checkout")
def test_real_card_pools_are_read_with_their_numbers_and_printings(tmp_path: Path) -> None:
    """A public pool as it is: TTCG ranks, points and sub-types written as text, Bakugan
    Factions and BPower among the stats and one name printed in several Factions. Games
    simulated from them are legal; Battle Monsters' pool prints no points, so no deck of
    monsters the spec can judge is drawn from it, and the command says so."""
    for game in ("ttcg", "bakugan"):
        out = tmp_path / game
        result = CliRunner().invoke(app, ["simulate", game, "-n", "1", "--seed", "4", "--cards",
                                          str(REAL_POOLS / f"{game}.dev.jsonl"), "-o", str(out)])
        assert result.exit_code == 0, result.output
        (path,) = sorted(out.glob("*.jsonl"))
        assert verify_file(path).verdict == "legal"
        header, _events = _lines(path)
        named = set().union(*(deck.get("deck", {}) for deck in header["decks"].values()))
        if game == "ttcg":
            assert len(named) > 25  # the rank 1 cards alone would overfill a deck: the builder keeps to 70
        else:
            teams = [name for deck in header["decks"].values() for name in deck["team"]]
            assert any(name.endswith((", BB)", ", BR)")) for name in teams + sorted(named))
    result = CliRunner().invoke(app, ["simulate", "battle_monsters", "--cards", str(REAL_POOLS / "battle_monsters.dev.jsonl"),
                                      "-o", str(tmp_path / "bm")])
    assert result.exit_code == 2 and "no monster card the spec can judge" in result.output
    assert "battle_monsters:BM.start.deck_min" in result.output


def test_simulate_draws_again_a_move_the_spec_cannot_judge(tmp_path: Path) -> None:
    """A text that parses may still meet a case the spec does not model when it resolves:
    here a Food negates a Neopet's abilities once, which Neopets models only as a passive
    ability, so passing to let it resolve is ``unverifiable``. The simulator draws again
    there, as it does for a clash no rule settles, and the games it writes are legal."""
    from spec.core.cards import shipped_database

    old = 'text = "Freeze your opponent\'s Neopet."'
    shipped = shipped_database("neopets", "base").read_text()
    assert shipped.count(old) == 1
    mine = tmp_path / "mine.toml"
    mine.write_text(shipped.replace(old, 'text = "Negate the abilities of your opponent\'s Neopet."'))
    result = CliRunner().invoke(app, ["simulate", "neopets", "-n", "2", "--seed", "9001", "--prefer", "Snowcone Surprise",
                                      "--cards", str(mine), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    for path in sorted((tmp_path / "out").glob("*.jsonl")):
        assert verify_file(path).verdict == "legal"


def test_bench_reports_every_measure(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["bench", "neopets", "--events", "300", "--corpus", str(tmp_path), "--no-jobs", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    (game,) = data["games"]
    assert game["events"] >= 300 and game["verify_events_per_s"] > 0 and game["decode_events_per_s"] > 0
    assert game["verify_over_decode"] > 0 and game["verdicts"] == {"legal": game["corpus_files"]}
    (grammar,) = data["grammars"]
    assert grammar["texts"] > 40 and grammar["texts_per_s"] > 0 and grammar["lexer_texts_per_s"] > 0
    assert data["targets"]["verify_events_per_s"] == 150_000
    assert data["repeat"] == 3 and data["isolated"] is True  # measured in a fresh interpreter, fastest of 3


def test_bench_keeps_the_fastest_run() -> None:
    """Each timed part runs ``repeat`` times; the least disturbed (shortest) run counts."""
    import time

    from verifier.bench import _fastest

    pauses = iter([0.2, 0.01, 0.1])
    assert 0.01 <= _fastest(3, lambda: time.sleep(next(pauses))) < 0.1


def test_bench_times_the_two_sides_of_a_ratio_in_turns() -> None:
    """Verify against decode and one job against two are timed in turns (first, second,
    first, ...), so each side's fastest run comes from the same stretch of a host whose
    speed moves; each side keeps its own fastest run."""
    import time

    from verifier.bench import _fastest_in_turns

    calls: list[str] = []
    pauses = {"first": iter([0.3, 0.01, 0.2]), "second": iter([0.02, 0.3, 0.2])}

    def side(name: str) -> None:
        calls.append(name)
        time.sleep(next(pauses[name]))

    first, second = _fastest_in_turns(3, lambda: side("first"), lambda: side("second"))
    assert calls == ["first", "second"] * 3
    assert 0.01 <= first < 0.15 and 0.02 <= second < 0.15


def test_bench_reads_the_hosts_stolen_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The stolen share is the growth of /proc/stat's steal column over the growth of all its columns."""
    from verifier.bench import HostWatch

    stat = tmp_path / "stat"
    monkeypatch.setattr(HostWatch, "STAT", stat)
    stat.write_text("cpu  100 0 50 800 10 0 0 40 0 0\ncpu0 1 2 3\n", encoding="ascii")
    watch = HostWatch()
    stat.write_text("cpu  160 0 60 890 10 0 0 80 0 0\ncpu0 1 2 3\n", encoding="ascii")  # 200 ticks more, 40 stolen
    assert watch.steal_share == pytest.approx(0.2)
    stat.write_text("cpu  a b c\n", encoding="ascii")
    assert watch.steal_share is None  # a count it cannot read: nothing is claimed
    stat.unlink()
    assert watch.steal_share is None  # a system without the count: nothing is claimed


def test_bench_spread_leaves_out_the_run_that_fills_the_caches() -> None:
    from verifier.bench import _spread

    assert _spread([3.0, 1.0, 1.2]) == pytest.approx(1.2)  # the cold first run is not the host's doing
    assert _spread([1.0, 1.0, 2.0]) == pytest.approx(2.0)
    assert _spread([2.0]) == 1.0 and _spread([]) == 1.0


def test_bench_warns_when_the_host_was_busy() -> None:
    from verifier.bench import TARGETS, _host_lines, to_text

    def result(steal: float, spread: float) -> dict[str, object]:
        game = {"game": "neopets", "events": 10, "corpus_files": 1, "verify_events_per_s": 1.0, "decode_events_per_s": 1.0,
                "verify_over_decode": 1.0, "jobs2_speedup": None, "startup_s": 0.1, "host_steal": steal, "verify_spread": spread}
        return {"targets": TARGETS, "games": [game], "grammars": []}

    quiet = _host_lines(result(0.01, 1.05))
    assert quiet == ["host: other guests took 1%-1% of the processor time; the slowest warm verify run took up to 1.05x the fastest"]
    assert "the host was busy" in _host_lines(result(0.12, 1.05))[-1]
    assert "the host was busy" in _host_lines(result(0.0, 1.6))[-1]
    assert to_text(result(0.12, 1.05)).splitlines()[-1] == _host_lines(result(0.12, 1.05))[-1]


def _burn(seconds: float) -> None:
    import time

    start = time.process_time()
    while time.process_time() - start < seconds:
        pass


def test_bench_counts_the_processor_time_of_the_workers_it_started() -> None:
    """A run that leaves a worker to finish on its own (as the pool does with a worker that
    owes nothing) has that worker's processor time counted, once the clock has stopped."""
    import multiprocessing

    from verifier.bench import _fastest, processor_seconds

    if processor_seconds() is None:
        pytest.skip("this system does not count processor time")
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    processor: list[float] = []
    _fastest(1, lambda: context.Process(target=_burn, args=(0.3,), daemon=True).start(), processor=processor)
    assert len(processor) == 1 and processor[0] >= 0.3  # the worker's time, though the run did not wait for it
    assert not multiprocessing.active_children()  # waited for, after the clock stopped


def test_bench_says_what_two_slower_cores_bound_the_speed_up_to() -> None:
    from verifier.bench import TARGETS, _host_lines, _processor_ratio, to_text

    assert _processor_ratio([0.9, 0.8, 1.0], [1.2, 1.0]) == pytest.approx(1.25)  # least over least
    assert _processor_ratio([], [1.0]) is None and _processor_ratio([1.0], []) is None

    def result(ratio: float | None) -> dict[str, object]:
        game = {"game": "neopets", "events": 10, "corpus_files": 1, "verify_events_per_s": 1.0, "decode_events_per_s": 1.0,
                "verify_over_decode": 1.0, "jobs2_speedup": 1.5, "jobs2_processor_ratio": ratio, "startup_s": 0.1,
                "host_steal": 0.0, "verify_spread": 1.05}
        return {"targets": TARGETS, "games": [game], "grammars": []}

    assert len(_host_lines(result(1.08))) == 1  # a quiet pair of cores: nothing more said
    slow = _host_lines(result(1.25))[-1]
    assert "1.25x the processor time of one job" in slow and "room for a speed-up of about 1.60x" in slow
    assert "--jobs 2 speed-up 1.50x (target 1.8, 1.25x one job's processor time)" in to_text(result(1.25))
    assert "--jobs 2 speed-up 1.50x (target 1.8)" in to_text(result(None))  # a system that does not count it


def test_random_games_are_not_ended_by_choice_at_once() -> None:
    """Surrender and draw offers are always legal in Battle Monsters; the simulator plays
    such moves (Game.ending_moves) only rarely, so random games reach the rules."""
    from spec import load_game
    from verifier.simulate import simulate

    assert load_game("battle_monsters").ending_moves == {"surrender", "agree"}
    lengths = [len(simulate("battle_monsters", seed)) - 1 for seed in range(7, 11)]
    assert min(lengths) > 30, lengths
    ended = [len(simulate("battle_monsters", seed, ending_weight=1.0)) - 1 for seed in range(7, 11)]
    assert max(ended) < min(lengths), ended


def test_random_games_steer_clear_of_clashes_no_rule_settles(tmp_path: Path) -> None:
    """Showboat lets its player flip events and Heckling Fans forbids the rival to: a clash
    between two cards that no Epic Battles rule settles, so the verifier calls a game
    where both are in force unverifiable (Game.conflicts_met). The simulator, playing
    both whenever it may, draws another move instead: every game it writes is legal."""
    from verifier.simulate import simulate

    for seed in range(1, 4):
        path = tmp_path / f"clash-{seed}.jsonl"
        path.write_bytes(b"\n".join(simulate("epic_battles", seed, prefer=("Showboat", "Heckling Fans"))) + b"\n")
        report = verify_file(path)
        assert report.verdict == "legal", (seed, [f.message for f in report.findings if f.severity != "info"][:1])


def test_a_simulated_game_goes_back_from_a_dead_end_rather_than_give_up(tmp_path: Path) -> None:
    """Battle Monsters seed 145 comes to a state (seq 73) where every move that plays on
    brings a clash no rule settles, so only surrendering or agreeing to end was left, and
    the game was given up there. The simulator now goes back a decision and plays on
    another way: the game is played to its end, and legal."""
    from spec import load_game
    from verifier.simulate import simulate

    lines = simulate("battle_monsters", 145, claims=True)
    events = [json.loads(line) for line in lines[1:]]
    assert not [e for e in events if e["do"] in load_game("battle_monsters").ending_moves]
    assert events[-1]["do"] == "game" and events[-1]["winner"] in ("alice", "bob")  # played to a winner
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    report = verify_file(path)
    assert report.verdict == "legal", [f.message for f in report.findings if f.severity != "info"][:1]


def _against(ref: str, corpus: Path, *more: str) -> Any:
    return CliRunner().invoke(app, ["bench", "neopets", "--against", ref, "--events", "300", "--corpus", str(corpus),
                                    "--pairs", "1", "--repeat", "1", *more])


def test_bench_against_another_checkout_measures_both_in_turns(tmp_path: Path) -> None:
    """A folder holding a checkout is measured by its own bench, beside this tree, on the same corpus."""
    result = _against(str(ROOT), tmp_path, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["reference"] == str(ROOT) and data["pairs"] == 1
    (game,) = data["games"]
    verify = game["measures"]["verify_events_per_s"]
    assert len(verify["this"]) == len(verify["reference"]) == 1 and verify["this"][0] > 0 and verify["reference"][0] > 0
    assert verify["ratios"] == [verify["this"][0] / verify["reference"][0]]
    assert "texts_per_s" in game["measures"] and "jobs2_speedup" not in game["measures"]  # --jobs is off unless asked


def test_bench_against_a_git_revision_takes_it_out_apart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The revision is taken out and measured; with ARBITER_INTERPRETED=1 neither side is
    compiled (taking a revision out otherwise builds its compiled spec, as make would)."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    monkeypatch.setenv("ARBITER_INTERPRETED", "1")
    result = _against("HEAD", tmp_path)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("this tree against HEAD (") and "verify events/s" in result.output
    assert "spec: this tree interpreted (ARBITER_INTERPRETED is set); reference interpreted (ARBITER_INTERPRETED is set)" \
        in result.output


@pytest.mark.parametrize("ref", ["no-such-revision-of-this-repository", "{folder}"])
def test_bench_against_something_that_is_no_version_is_refused(tmp_path: Path, ref: str) -> None:
    result = _against(ref.format(folder=tmp_path), tmp_path / "corpus")
    assert result.exit_code == 2
    assert "neither a folder nor a git revision" in result.output or "not a tcg-arbiter checkout" in result.output


def test_bench_comparison_reads_each_change_as_better_or_worse_for_this_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The change is the median of the pairs' ratios, this tree over the reference; verify/decode
    is better lower, so its ratio is turned; a measure one version lacks is left out."""
    from verifier import bench_compare

    runs = iter([(110.0, 10.0, True), (100.0, 12.0, False), (120.0, 10.0, True), (100.0, 12.0, False),
                 (90.0, 10.0, True), (100.0, 12.0, False)])  # this tree, then the reference, in turns

    def fake(tree: Path, game: str, *_: object) -> dict[str, Any]:
        verify, ratio, ours = next(runs)
        extra = {"jobs2_speedup": 1.9} if ours else {}
        return {"games": [{"game": game, "verify_events_per_s": verify, "verify_over_decode": ratio, **extra}], "grammars": [],
                "spec": "compiled with mypyc (x)" if ours else "interpreted (y)"}

    monkeypatch.setattr(bench_compare, "measure", fake)
    result = bench_compare.compare(["no_spec_game"], str(ROOT), tmp_path, 10, pairs=3)
    (game,) = result["games"]
    verify, ratio = game["measures"]["verify_events_per_s"], game["measures"]["verify_over_decode"]
    assert verify["ratios"] == [1.1, 1.2, 0.9] and verify["median_ratio"] == 1.1
    assert ratio["ratios"] == [1.2, 1.2, 1.2] and set(game["measures"]) == {"verify_events_per_s", "verify_over_decode"}
    text = bench_compare.to_text(result).splitlines()
    assert text[1] == "  spec: this tree compiled with mypyc (x); reference interpreted (y)"  # which spec each side ran
    assert "+10.0%" in text[3] and "-10.0% .. +20.0%" in text[3] and "+20.0%" in text[4]


def test_simulate_names_a_game_the_spec_fails_on_and_writes_the_others(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug of the spec met in one game (an error, not a ruling) never prints a traceback:
    the other games are written, and the seed and error are named (exit 1)."""
    from verifier import simulate as simulate_module

    played = simulate_module.simulate

    def failing(game_id: str, seed: int, **options: Any) -> list[bytes]:
        if seed == 12:
            raise IndexError("a zone the spec thought held a card")
        return played(game_id, seed, **options)

    monkeypatch.setattr(simulate_module, "simulate", failing)
    result = CliRunner().invoke(app, ["simulate", "neopets", "-n", "3", "--seed", "11", "-o", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert "2 game(s) written" in result.output
    assert "seed 12 (IndexError: a zone the spec thought held a card)" in result.output
    assert sorted(p.name for p in tmp_path.glob("*.jsonl")) == ["neopets-000011.jsonl", "neopets-000013.jsonl"]


def test_bench_leaves_out_a_game_the_spec_fails_on_and_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug of the spec met while the bench corpus is simulated never prints a traceback:
    that seed is left out, the rest is measured, the seed and error are named (exit 1), and
    a later run on the same corpus still names it without playing it again."""
    from verifier import simulate as simulate_module

    played = simulate_module.simulate
    asked: list[int] = []

    def failing(game_id: str, seed: int, **options: Any) -> list[bytes]:
        asked.append(seed)
        if seed == 2:
            raise IndexError("a zone the spec thought held a card")
        return played(game_id, seed, **options)

    monkeypatch.setattr(simulate_module, "simulate", failing)
    bench = ["bench", "neopets", "--events", "1200", "--corpus", str(tmp_path), "--no-jobs", "--no-isolate", "--repeat", "1"]
    result = CliRunner().invoke(app, bench)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert "spec fault: neopets seed 2 was left out of the corpus (IndexError: a zone the spec thought held a card)" in result.output
    assert "neopets-000002.jsonl" not in {p.name for p in (tmp_path / "neopets").iterdir()}
    assert "verify" in result.output and "events in" in result.output  # the rest was measured

    asked.clear()
    again = CliRunner().invoke(app, [*bench, "--json"])
    assert again.exit_code == 1 and asked == []  # the corpus is whole: nothing simulated again
    data = json.loads(again.output)
    assert data["corpus_faults"] == [{"game": "neopets", "seed": 2, "error": "IndexError: a zone the spec thought held a card"}]
    assert data["games"][0]["events"] >= 1200


def test_bench_says_when_a_game_was_measured_with_another_spec() -> None:
    """An edit to spec/ while the bench runs makes the build stale for the processes started
    after it: a game measured so is marked, as its figures are not the compiled spec's."""
    from verifier.bench import TARGETS, to_text

    game = {"game": "ttcg", "events": 1000, "corpus_files": 2, "verify_events_per_s": 1000.0, "decode_events_per_s": 9000.0,
            "verify_over_decode": 9.0, "jobs2_speedup": None, "startup_s": 0.1, "spec": "interpreted (the build is stale)"}
    same = dict(game, game="neopets", spec="compiled with mypyc (x)")
    text = to_text({"targets": TARGETS, "spec": "compiled with mypyc (x)", "games": [same, game], "grammars": []}).splitlines()
    marked = [i for i, line in enumerate(text) if "measured with another spec" in line]
    assert marked == [4] and text[3].lstrip().startswith("ttcg")  # under the game measured so, and only there
    assert text[4] == "    measured with another spec than the one above: interpreted (the build is stale)"


def test_bench_says_when_its_kept_corpus_is_no_longer_legal() -> None:
    """The corpus is kept between runs; when the spec has since found moves of it illegal
    (a new check), those replays stop early and count fewer events. The bench says so under
    the game, and how to build the corpus afresh; an all-legal corpus says nothing."""
    from verifier.bench import TARGETS, to_text

    game = {"game": "bakugan", "events": 1000, "corpus_files": 5, "verify_events_per_s": 1000.0, "decode_events_per_s": 9000.0,
            "verify_over_decode": 9.0, "jobs2_speedup": None, "startup_s": 0.1, "verdicts": {"legal": 3, "illegal": 2}}
    fine = dict(game, game="neopets", verdicts={"legal": 5})
    text = to_text({"targets": TARGETS, "games": [fine, game], "grammars": []}).splitlines()
    marked = [i for i, line in enumerate(text) if "not legal under this spec" in line]
    assert marked == [3] and text[2].lstrip().startswith("bakugan")
    assert "2 of 5 replays" in text[3] and "(2 illegal)" in text[3] and ".bench/bakugan" in text[3]


def test_bench_against_names_the_games_the_spec_failed_on_in_this_tree() -> None:
    """``bench --against``: a seed this tree's spec failed on while it simulated the shared
    corpus is named under the comparison, as this tree's (the reference never simulates)."""
    from verifier.bench_compare import to_text

    fault = {"game": "ttcg", "seed": 7, "error": "KeyError: 'hand'"}
    text = to_text({"reference": "HEAD~1", "pairs": 1, "repeat": 1, "games": [], "corpus_faults": [fault]}).splitlines()
    assert text[-1] == "spec fault (this tree): ttcg seed 7 was left out of the corpus (KeyError: 'hand')"
    assert "spec fault" not in to_text({"reference": "HEAD~1", "pairs": 1, "repeat": 1, "games": [], "corpus_faults": []})


_REAL_BAKUGAN = ROOT.parent / "shared" / "cards" / "bakugan.dev.jsonl"


def _evos_of_three_characters() -> tuple[Any, list[str]]:
    """The real Bakugan pool the simulator deals with, and three of its Evos each played on a
    different Character: a random team holds a given Character about one time in twenty-five."""
    from spec import load_game
    from spec.bakugan import board as B
    from spec.core.cards import CardDatabase
    from verifier.simulate import unread

    game = load_game("bakugan")
    real = CardDatabase.cached(_REAL_BAKUGAN, "bakugan")
    left_out = set(unread(real))
    pool = CardDatabase(real.name, real.game, real.version, [c for c in real if c.name not in left_out])
    characters = [c.name for c in pool if c.type == "Character"]
    evos: list[str] = []
    taken: set[str] = set()
    for evo in (c for c in pool if c.type == "Evo" and game.supported(pool, c.name)):
        bases = {name for name in characters if B.evolves(evo, name, pool)}
        if bases and not bases & taken:
            evos.append(evo.name)
            taken |= bases
        if len(evos) == 3:
            break
    assert len(evos) == 3
    return pool, evos


def test_a_bakugan_deck_built_around_evos_draws_a_team_they_evolve_from(monkeypatch: pytest.MonkeyPatch) -> None:
    """Trying out Evos, the Bakugan builder draws the team around them (``Game.deck_around``):
    a Character each evolves from (3.3.1), so the first deck drawn holds all three. Drawing
    plain random decks, not one of 1000 held three such Evos of the real pool."""
    import random

    from spec import load_game
    from spec.bakugan import board as B
    from verifier import simulate

    pool, evos = _evos_of_three_characters()
    game = load_game("bakugan")
    monkeypatch.setattr(simulate, "DECK_TRIES", 1)
    for seed in range(5):
        deck = simulate.deck_holding(game, pool, random.Random(seed), tuple(evos))
        assert set(evos) <= simulate.deck_names(deck)
        assert all(any(B.evolves(pool[evo], name, pool) for name in deck["team"]) for evo in evos)
    hero = next(c for c in pool if c.type == "Hero" and len(c.traits) == 1 and game.supported(pool, c.name))
    deck = game.deck_around(pool, random.Random(1), (hero.name,))  # a card of one Faction: a team member of it
    assert hero.name in simulate.deck_names(deck)
    assert game.deck_around(pool, random.Random(4), ()) == game.random_deck(pool, random.Random(4))


def test_simulate_bakugan_prefer_of_three_evos_holds_them_and_plays_legal_games(tmp_path: Path) -> None:
    """From the command: the real pool, three Evos of different Characters tried out at once.
    Before, no deck could be drawn holding them (exit 2)."""
    _pool, evos = _evos_of_three_characters()
    prefer = [arg for evo in evos for arg in ("--prefer", evo)]
    result = CliRunner().invoke(app, ["simulate", "bakugan", "-n", "1", "--seed", "3", "--cards", str(_REAL_BAKUGAN), *prefer,
                                      "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    path = next(tmp_path.glob("*.jsonl"))
    header, _events = _lines(path)
    from verifier.simulate import deck_names

    assert all(any(evo in deck_names(deck) for deck in header["decks"].values()) for evo in evos)
    assert verify_file(path, cards=_REAL_BAKUGAN).verdict == "legal"
