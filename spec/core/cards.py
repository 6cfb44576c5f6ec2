"""Card databases: our TOML card files, and the JSON Lines shape of public card pools.

A database file is read into :class:`CardDef` records; each card's text is parsed by the
game's grammar the first time it is needed (:meth:`CardDatabase.tree`; a text parsed by
an earlier process is read back from :mod:`grammar.tree_cache`), and a text that does not
parse is remembered with its error, so the verifier can report the card as unverifiable
instead of guessing.

Our format (TOML; see ``docs/cards.rst``)::

    database = "neopets/base"   # <game>/<set>
    game = "neopets"
    version = 1

    [[card]]
    name = "..."
    type = "..."
    text = "..."
    # optional: level, species, brush, team, stats = {...}, traits = [...], cost

The JSON Lines shape (one object a line: name, type, cost, stats, text) is read too,
so a real card pool can be used as it is.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from grammar.ast import CardText

if TYPE_CHECKING:
    from grammar.parser import GameGrammar

MAX_CARD_FILE_BYTES = 20_000_000

_LOADED: dict[tuple[str, str | None, int, int], CardDatabase] = {}


class CardFileError(ValueError):
    """A card file that cannot be read: names the file, the line where known, and why."""

    def __init__(self, path: str, reason: str, line: int | None = None) -> None:
        self.path, self.reason, self.line = path, reason, line
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {reason}")


class UnknownWording(ValueError):
    """A card text with parts that no template of the game's grammar covers."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"the text of {name!r} has parts the grammar does not cover")


class CardDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One card as printed: what the rules need to know of it."""

    name: str
    type: str
    text: str = ""
    level: int | None = None
    species: str | None = None
    brush: str | None = None
    team: str | None = None
    stats: dict[str, Any] = {}
    traits: list[str] = []
    cost: int | str | None = None
    source: str | None = None

    def stat(self, key: str) -> int:
        value = self.stats.get(key, 0)
        return value if isinstance(value, int) else 0


class _TomlFile(msgspec.Struct, forbid_unknown_fields=True):
    database: str
    game: str
    version: int
    card: list[CardDef] = []


class CardDatabase:
    """The cards of one game set, by name, with their parsed texts."""

    def __init__(self, name: str, game: str, version: int, cards: list[CardDef]) -> None:
        self.name = name
        self.game = game
        self.version = version
        self.cards: dict[str, CardDef] = {}
        for card in cards:
            self.cards[card.name] = card  # a later record of a name is a newer revision
        self._trees: dict[str, CardText | Exception] = {}
        self._abilities: dict[tuple[str, type], tuple[Any, ...]] = {}
        self._complete: dict[str, CardText | Exception] = {}
        self.get: Callable[[str], CardDef | None] = self.cards.get
        """The card of that name, or ``None`` (the dictionary's own look-up: the spec asks on every event)."""

    def __contains__(self, name: object) -> bool:
        return name in self.cards

    def __getitem__(self, name: str) -> CardDef:
        return self.cards[name]

    def __iter__(self) -> Iterator[CardDef]:
        return iter(self.cards.values())

    def __len__(self) -> int:
        return len(self.cards)

    def tree(self, name: str) -> CardText | Exception:
        """The parsed text of a card, or the error that stopped the parse."""
        cached = self._trees.get(name)
        if cached is None:
            from grammar.tree_cache import parse_cached

            card = self.cards[name]
            try:
                cached = parse_cached(card.text, self.game, card_type=card.type)
            except Exception as error:  # noqa: BLE001 - any parse failure is remembered
                cached = error
            self._trees[name] = cached
        return cached

    def complete_tree(self, name: str) -> CardText:
        """The parsed text of a card that parses completely (cached).

        Raises the parse error, or :class:`UnknownWording` when the lenient parts of the
        text hold words no template covers.
        """
        found = self._complete.get(name)
        if found is None:
            found = self.tree(name)
            if not isinstance(found, Exception):
                from grammar.ast import unknown_parts

                if unknown_parts(found):
                    found = UnknownWording(name)
            self._complete[name] = found
        if isinstance(found, Exception):
            raise found
        return found

    def abilities(self, name: str, kind: type) -> tuple[Any, ...]:
        """The abilities of one kind on a card whose text parses completely (cached).

        Raises the parse error, or :class:`UnknownWording` when the lenient parts of the
        text hold words no template covers: the spec must not guess what they mean.
        """
        key = (name, kind)
        found = self._abilities.get(key)
        if found is None:
            found = tuple(a for a in self.complete_tree(name).abilities if isinstance(a, kind))
            self._abilities[key] = found
        return found

    @classmethod
    def cached(cls, path: Path, game: str | None = None) -> CardDatabase:
        """:meth:`load`, remembered per process while the file is unchanged (size, mtime).

        A batch of replays over one database reads and parses its cards once.
        """
        try:
            stat = path.stat()
        except OSError:
            return cls.load(path, game)
        key = (os.path.abspath(path), game, stat.st_size, stat.st_mtime_ns)  # no symlink walk: cheap per replay
        found = _LOADED.get(key)
        if found is None:
            found = cls.load(path, game)
            if len(_LOADED) > 32:
                _LOADED.clear()
            _LOADED[key] = found
        return found

    @classmethod
    def load(cls, path: Path, game: str | None = None) -> CardDatabase:
        """Read a card file: ``.toml`` in our format, ``.jsonl``/``.json`` as a card pool."""
        try:
            size = path.stat().st_size
        except OSError as error:
            raise CardFileError(str(path), f"cannot read the card file ({error.strerror})") from None
        if not path.is_file():
            raise CardFileError(str(path), "not a file")
        if size > MAX_CARD_FILE_BYTES:
            raise CardFileError(str(path), f"card file is {size} bytes, over the {MAX_CARD_FILE_BYTES} limit")
        if path.suffix == ".toml":
            return cls._load_toml(path)
        return cls._load_jsonl(path, game or "unknown")

    @classmethod
    def _load_toml(cls, path: Path) -> CardDatabase:
        try:
            source = path.read_text(encoding="utf-8")
            raw = tomllib.loads(source)
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            found = re.search(r"line (\d+)", str(error))
            line = getattr(error, "lineno", None) or (int(found.group(1)) if found else None)
            raise CardFileError(str(path), f"not valid TOML: {error}", line) from None
        try:
            data = msgspec.convert(raw, _TomlFile)
        except msgspec.ValidationError as error:
            at = re.search(r"\$\.card\[(\d+)\]", str(error))
            if at is None:
                raise CardFileError(str(path), f"invalid card file: {error}") from None
            index = int(at.group(1))
            name = raw["card"][index].get("name") if isinstance(raw["card"][index], dict) else None
            raise CardFileError(str(path), f"invalid card file: card {index + 1}{f' ({name!r})' if isinstance(name, str) else ''}: "
                                           f"{error}", _card_line(source, index)) from None
        seen: set[str] = set()
        for index, card in enumerate(data.card):
            if card.name in seen:
                raise CardFileError(str(path), f"two cards are named {card.name!r}; names are unique in a card file",
                                    _card_line(source, index))
            seen.add(card.name)
        return cls(data.database, data.game, data.version, data.card)

    @classmethod
    def _load_jsonl(cls, path: Path, game: str) -> CardDatabase:
        records: list[tuple[int, Any]] = []
        with path.open(encoding="utf-8", errors="strict") as handle:
            try:
                for number, line in enumerate(handle, 1):
                    if not line.strip():
                        continue
                    try:
                        records.append((number, json.loads(line)))
                    except json.JSONDecodeError as error:
                        raise CardFileError(str(path), f"not JSON: {error.msg}", number) from None
            except UnicodeDecodeError:
                raise CardFileError(str(path), "not UTF-8 text") from None
        return cls(path.stem, game, 1, cards_from_pool(records, str(path), game))


def _card_line(source: str, index: int) -> int | None:
    """The line of a TOML card file where its card ``index`` (from 0) begins: the line of its
    ``[[card]]`` header (``None`` when the cards are written otherwise)."""
    headers = [number for number, line in enumerate(source.splitlines(), 1) if line.strip().startswith("[[card]]")]
    return headers[index] if index < len(headers) else None


def card_from_pool_record(obj: Any, path: str, line: int, game: str | None = None) -> CardDef:
    """A card from one record of a public card pool (name, type, cost, stats, text).

    The text is what the game's grammar makes of the record
    (:attr:`grammar.parser.GameGrammar.pool_text`), so wording kept outside ``text`` (a
    label of each line among the stats) is not lost; so are the fields the pool keeps in a
    shape of its own (:attr:`grammar.parser.GameGrammar.pool_fields`: numbers written as
    text, a card's traits among its stats).
    """
    if not isinstance(obj, dict) or not isinstance(obj.get("name"), str):
        raise CardFileError(path, "each line must be an object with a 'name'", line)
    stats: dict[str, Any] = obj["stats"] if isinstance(obj.get("stats"), dict) else {}
    cost = obj.get("cost")
    text = str(obj.get("text") or "")
    fields: dict[str, Any] = {}
    reader = _pool_reader(game)
    if reader is not None:
        text = reader.pool_text(obj)
        fields = reader.pool_fields(obj)
    card = CardDef(
        name=obj["name"],
        type=str(obj.get("type") or ""),
        text=text,
        stats=stats,
        cost=cost if isinstance(cost, int | str) else None,
        source=obj.get("source") if isinstance(obj.get("source"), str) else None,
    )
    return msgspec.structs.replace(card, **fields) if fields else card


def cards_from_pool(records: list[tuple[int, Any]], path: str, game: str | None = None) -> list[CardDef]:
    """The cards of a public card pool's records, each given with its line.

    Records of one name are revisions of one card, the later replacing the earlier
    (:class:`CardDatabase` keeps the last), unless the game tells their printings apart
    (:attr:`grammar.parser.GameGrammar.pool_printing`: one name printed on two cards of
    different texts, one per set, say). Then each printing is a card named ``"Name (printing)"``, and
    records of one name and one printing are still revisions.
    """
    cards = [card_from_pool_record(obj, path, line, game) for line, obj in records]
    reader = _pool_reader(game)
    if reader is None:
        return cards
    notes = [reader.pool_printing(obj) for _line, obj in records]
    printings: dict[str, set[str | None]] = {}
    for card, note in zip(cards, notes, strict=True):
        printings.setdefault(card.name, set()).add(note)
    return [msgspec.structs.replace(card, name=f"{card.name} ({note})") if note is not None and len(printings[card.name]) > 1
            else card for card, note in zip(cards, notes, strict=True)]


def _pool_reader(game: str | None) -> GameGrammar | None:
    """The grammar that reads a game's pool records (``None`` for no game, or one unknown)."""
    from grammar.parser import GAMES, grammar_of

    return grammar_of(game) if game is not None and game in GAMES else None


_SPEC_DIR = Path(__file__).resolve().parent.parent


def shipped_database(game: str, set_name: str) -> Path:
    """Where a database shipped with the spec lives: ``spec/<game>/cards/<set>.toml``."""
    return _SPEC_DIR / game / "cards" / f"{set_name}.toml"
