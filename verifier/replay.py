"""Reading replay files (format v1) as a stream fed to visitors.

Like python-chess reads PGN, a replay is read once, front to back, and each part is
handed to a :class:`Visitor`: the header, then each event as it is decoded (events are
not kept). :class:`verifier.verify.Verifier` checks the game; :class:`HeaderReader`
stops after the header; :class:`EventCounter` only counts. Decoding is typed (msgspec):
a header field or event field the format does not define is an error with its line.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Generic, TypeVar

import msgspec

MAX_LINE_BYTES = 1_000_000
MAX_EVENTS = 2_000_000
MAX_FILE_BYTES = 512_000_000


class ReplayError(ValueError):
    """A replay that is not valid input: the file, the line and the reason."""

    def __init__(self, path: str, line: int | None, reason: str) -> None:
        self.path, self.line, self.reason = path, line, reason
        super().__init__(f"{path}:{line}: {reason}" if line else f"{path}: {reason}")


class Expect(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """The verdict a test corpus expects (first finding's seq and rule)."""

    verdict: str
    seq: int | None = None
    rule: str | None = None


class Header(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Line 1 of a replay."""

    replay: int
    game: str
    ruleset: str
    players: list[str]
    decks: dict[str, Any] = {}
    cards: str | list[Any] | None = None
    options: dict[str, Any] = {}
    meta: dict[str, Any] = {}
    expect: Expect | None = None


_header_decoder = msgspec.json.Decoder(Header)
_seq_decoder = msgspec.json.Decoder(dict[str, Any])

T = TypeVar("T")


class Visitor(Generic[T]):
    """Receives a replay part by part; override what you need.

    ``begin`` gets the header and returns False to skip the events; ``visit`` gets each
    decoded event with its line number and returns False to stop early; ``error`` gets
    a :class:`ReplayError` for a bad line (reading stops there); ``result`` is what
    :func:`read` returns.
    """

    def begin(self, header: Header, path: str) -> bool:
        return True

    def visit(self, event: Any, line: int) -> bool:
        return True

    def error(self, error: ReplayError) -> None:
        raise error

    def end(self) -> None:
        return None

    def result(self) -> T:
        raise NotImplementedError


class HeaderReader(Visitor[Header | None]):
    """Reads only the header."""

    def __init__(self) -> None:
        self.header: Header | None = None

    def begin(self, header: Header, path: str) -> bool:
        self.header = header
        return False

    def result(self) -> Header | None:
        return self.header


class EventCounter(Visitor[int]):
    """Counts events without checking them (decoding only)."""

    def __init__(self) -> None:
        self.count = 0

    def visit(self, event: Any, line: int) -> bool:
        self.count += 1
        return True

    def result(self) -> int:
        return self.count


def decode_header(raw: bytes, path: str) -> Header:
    try:
        header = _header_decoder.decode(raw)
    except msgspec.ValidationError as error:
        raise ReplayError(path, 1, f"bad header: {error}") from None
    except msgspec.DecodeError as error:
        raise ReplayError(path, 1, f"header is not JSON: {error}") from None
    if header.replay != 1:
        raise ReplayError(path, 1, f"replay format version {header.replay} is not supported (this verifier reads version 1)")
    if len(header.players) != 2 or len(set(header.players)) != 2:
        raise ReplayError(path, 1, "the header must name two different players")
    return header


def lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """Numbered non-empty lines of a file, with the size limits applied.

    The file is read at once (it is at most :data:`MAX_FILE_BYTES`); a line's length
    counts its newline, as when the file is read line by line.
    """
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise ReplayError(str(path), None, f"file is {size} bytes, over the {MAX_FILE_BYTES}-byte limit")
    pieces = path.read_bytes().split(b"\n")
    if pieces and max(map(len, pieces)) + 1 > MAX_LINE_BYTES:
        return _checked_lines(str(path), pieces)
    return iter([(number, raw) for number, raw in enumerate(pieces, 1) if raw.strip()])


def _checked_lines(name: str, pieces: list[bytes]) -> Iterator[tuple[int, bytes]]:
    """The lines of a file holding a long line: the error comes when that line is reached."""
    last = len(pieces) - 1
    for index, raw in enumerate(pieces):
        if len(raw) + (index < last) > MAX_LINE_BYTES:
            raise ReplayError(name, index + 1, f"line is over the {MAX_LINE_BYTES}-byte limit")
        if raw.strip():
            yield index + 1, raw


def read(path: Path, visitor: Visitor[T], event_decoder: Any = None) -> T:
    """Feed a replay file to a visitor and return its result.

    ``event_decoder`` is a function from the header to a msgspec decoder of one event
    line (the game's vocabulary); without it, events are plain dicts.
    """
    name = str(path)
    try:
        stream = lines(path)
        first = next(stream, None)
        if first is None:
            raise ReplayError(name, None, "the file is empty: a replay needs a header line")
        header = decode_header(first[1], name)
        if not visitor.begin(header, name):
            visitor.end()
            return visitor.result()
        decoder = event_decoder(header) if event_decoder is not None else _seq_decoder
        expected_seq = 1
        for number, raw in stream:
            if expected_seq > MAX_EVENTS:
                raise ReplayError(name, number, f"more than {MAX_EVENTS} events")
            try:
                event = decoder.decode(raw)
            except msgspec.ValidationError as error:
                raise ReplayError(name, number, f"bad event: {error}") from None
            except msgspec.DecodeError as error:
                raise ReplayError(name, number, f"not JSON: {error}") from None
            except UnicodeDecodeError:
                raise ReplayError(name, number, "not UTF-8 text") from None
            seq = event.get("seq") if type(event) is dict else getattr(event, "seq", None)
            if seq != expected_seq:
                raise ReplayError(name, number, f"seq is {seq}, expected {expected_seq}")
            expected_seq += 1
            if not visitor.visit(event, number):
                break
    except ReplayError as error:
        visitor.error(error)
    except OSError as error:
        visitor.error(ReplayError(name, None, f"cannot read the file: {error.strerror or error}"))
    except UnicodeDecodeError:
        visitor.error(ReplayError(name, None, "not UTF-8 text"))
    visitor.end()
    return visitor.result()
