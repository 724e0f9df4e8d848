"""Read a scenario file safely and remember where every value came from.

A scenario is user input: it may be malformed, hostile (YAML tags that build
Python objects, alias bombs) or simply wrong in one field. Whatever happens, the
user gets ``file:line:col: field.path: what is wrong`` and never a traceback.
So this module parses YAML into plain dicts, lists and scalars, keeps a
:class:`Locator` from field paths to positions, and turns pydantic's
validation errors into the same located messages.
"""

from __future__ import annotations

from engine.names import typed
import collections.abc
import difflib
import functools
import os
import re
import stat
import sys
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, Union

import pydantic
import pydantic_core.core_schema

from .yaml_reader import yaml   # PyYAML, its reader's pattern compiled the quick way: imported before yaml.events
from yaml.events import AliasEvent, MappingEndEvent, MappingStartEvent, SequenceEndEvent, SequenceStartEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from engine.value import Struct, field

from ..errors import UserError

MAX_BYTES = 1024 * 1024
"""Largest scenario accepted; real scenarios are a few KiB, so more is a mistake or an attack."""

MAX_DEPTH = 50
"""Deepest nesting of mappings and lists accepted; the format itself needs about six."""

MAX_NUMBER_CHARS = 100
"""Longest integer written (digits, sign, underscores, a 0x/0b/0o prefix, sexagesimal colons): the numbers of a
game are a few digits. Checked before the number is read: PyYAML reads a sexagesimal integer (``1:0:0``) in time
quadratic in its length (a 1 MiB one took minutes), and an integer of more than 4,300 decimal digits, which a
shorter hex or binary one makes, cannot even be printed in a message."""

Path = tuple[Any, ...]
"""A field path: mapping keys and list indices from the top of the file, e.g. ``("steps", 2, "army")``."""

_YAML = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_YAML + t for t in ("str", "int", "float", "bool", "null")}
_TEXT_TAGS = {_YAML + "timestamp", _YAML + "value"}
"""Tags whose value we keep as the text written: a date is just a label in a scenario."""


# --------------------------------------------------------------------------- errors


class ScenarioError(UserError):
    """One problem in a scenario file, with where it is and which field it concerns.

    It is a :class:`~ddref.errors.UserError`, so the CLI prints it and exits 2
    (``ddref serve`` answers 422).
    """

    status = 422

    def __init__(self, message: str, *, file: str = "", line: int | None = None,
                 column: int | None = None, path: str = "") -> None:
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ":".join(str(p) for p in (self.file or None, self.line,
                                          self.column if self.line else None) if p is not None)
        return ": ".join(p for p in (where, self.path, self.message) if p)

    def __repr__(self) -> str:
        return f"ScenarioError({str(self)!r})"

    def as_dict(self) -> dict[str, Any]:
        """The error as data, for ``--json`` output."""
        return {"file": self.file, "line": self.line, "column": self.column,
                "path": self.path, "message": self.message}


class ScenarioErrors(UserError):
    """Several problems reported together, so the user can fix them in one pass."""

    status = 422

    def __init__(self, errors: Iterable[ScenarioError]) -> None:
        self.errors = list(errors)
        super().__init__(str(self))

    def __str__(self) -> str:
        return errors_text(self.errors)


def errors_text(errors: Iterable[ScenarioError]) -> str:
    """One error per line, dropping exact repeats (pydantic unions can report one twice)."""
    lines = dict.fromkeys(str(e) for e in errors)
    return "\n".join(lines)


# --------------------------------------------------------------------------- paths


_PLAIN_KEY = re.compile(r"[A-Za-z0-9_-]+\Z")


def format_path(path: Iterable[Any]) -> str:
    """Render a path the way a user reads it: ``steps[2].roll['elves.3']``.

    Keys that contain dots or other punctuation (unit ids, ``expect`` paths) are
    quoted so the rendered path stays unambiguous.
    """
    out = []
    for part in path:
        if isinstance(part, bool) or part is None:
            out.append("." + _yaml_word(part))
        elif isinstance(part, int):
            out.append(f"[{part}]")
        elif isinstance(part, str) and _PLAIN_KEY.match(part):
            out.append("." + part)
        else:
            out.append(f"[{typed(str(part))}]")
    return "".join(out).lstrip(".")


def _yaml_word(value: bool | None) -> str:
    return {True: "true", False: "false", None: "null"}[value]


def show_value(value: Any, limit: int = 40) -> str:
    """A short description of a user's value for "got ..." messages."""
    if isinstance(value, bool) or value is None:
        return _yaml_word(value)
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        text = value if len(value) <= limit else value[: limit - 3] + "..."
        return typed(text)
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    return type(value).__name__


# --------------------------------------------------------------------------- locator


class Locator(Struct):
    """Maps field paths to 1-based (line, column) positions in one file.

    ``positions`` holds the position of each value node; ``key_positions`` the
    position of the key written for a mapping entry, which is where an
    "unknown field" error should point.
    """

    file: str
    positions: dict[Path, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[Path, tuple[int, int]] = field(default_factory=dict)

    def __contains__(self, path: Iterable[Any]) -> bool:
        return tuple(path) in self.positions

    def at(self, path: Iterable[Any]) -> tuple[int | None, int | None]:
        """Where the value at ``path`` was written, else its nearest written ancestor.

        Falling back matters because models fill defaults and transform values:
        an error about a field the user never wrote still belongs to its parent.
        """
        path = tuple(path)
        while path not in self.positions and path:
            path = path[:-1]
        return self.positions.get(path, (None, None))

    def key_at(self, path: Iterable[Any]) -> tuple[int | None, int | None]:
        """Where the key of the mapping entry at ``path`` was written (else :meth:`at`)."""
        path = tuple(path)
        return self.key_positions.get(path) or self.at(path)

    def error(self, path: Iterable[Any], message: str, *, at_key: bool = False) -> ScenarioError:
        """A :class:`ScenarioError` for the field at ``path``, located in this file."""
        path = tuple(path)
        line, column = self.key_at(path) if at_key else self.at(path)
        return ScenarioError(message, file=self.file, line=line, column=column,
                             path=format_path(path))


# --------------------------------------------------------------------------- loading


def _position(mark: yaml.Mark | None) -> tuple[int | None, int | None]:
    return (mark.line + 1, mark.column + 1) if mark is not None else (None, None)


class _Loader(yaml.SafeLoader):
    """SafeLoader that refuses aliases and deep nesting while composing nodes.

    Both checks must happen here, before any value exists: an alias bomb is
    dangerous as soon as it is expanded, and deep nesting would overflow the
    composer's recursion.
    """

    def __init__(self, text: str, file: str) -> None:
        super().__init__(text)
        self.file = file
        self.depth = 0

    def _fail(self, message: str, mark: yaml.Mark | None) -> ScenarioError:
        line, column = _position(mark)
        return ScenarioError(message, file=self.file, line=line, column=column)

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        event = self.peek_event()
        if isinstance(event, AliasEvent):
            raise self._fail(f"YAML aliases (*{event.anchor}) are not supported; "
                             "write the value out in full", event.start_mark)
        nests = isinstance(event, (MappingStartEvent, SequenceStartEvent))
        if nests:
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise self._fail(f"nesting is deeper than {MAX_DEPTH} levels", event.start_mark)
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= nests


def load_yaml(text: str | bytes, file: str) -> tuple[Any, Locator]:
    """Parse a scenario into plain data (a dict at the top) and a :class:`Locator`.

    Raises :class:`ScenarioError` for anything that is not a single, safe,
    UTF-8 YAML mapping: the error names the file and, when known, the line.
    """
    text = _decode(text, file)
    if not text.strip():
        raise ScenarioError("file is empty", file=file)
    root = _compose(text, file)
    if root is None or _is_blank(root):
        raise ScenarioError("file is empty (it has no YAML content)", file=file)
    builder = _Builder(Locator(file))
    data = builder.build(root, ())
    if not isinstance(data, dict):
        raise builder.locator.error((), "the top level must be a mapping of fields "
                                        f"(like 'ddref: 1'), got {show_value(data)}")
    return data, builder.locator


def read_file(path: os.PathLike, file: str) -> bytes:
    """A scenario file's bytes, reading no more than ``MAX_BYTES`` and one: a huge file is refused without being
    read whole. ``-`` reads standard input. Anything but a regular file (a FIFO, which would block ``open()``
    forever; a device such as ``/dev/zero``; a folder) is refused before it is opened, and opened without
    blocking, so one swapped in meanwhile is refused too."""
    if str(path) == "-":
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise _too_large(len(data), file, exact=False)
        return data
    try:
        _regular(os.stat(path).st_mode, file)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ScenarioError(f"cannot read the file: {exc.strerror or exc}", file=file) from None
    try:
        with open(fd, "rb") as stream:
            _regular(os.fstat(stream.fileno()).st_mode, file)
            data = stream.read(MAX_BYTES + 1)
            size = os.fstat(stream.fileno()).st_size
    except OSError as exc:
        raise ScenarioError(f"cannot read the file: {exc.strerror or exc}", file=file) from None
    if len(data) > MAX_BYTES:
        raise _too_large(max(size, len(data)), file, exact=size > MAX_BYTES)
    return data


def _regular(mode: int, file: str) -> None:
    if stat.S_ISREG(mode):
        return
    kind = ("a folder" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "not a regular file")
    raise ScenarioError(f"this is {kind}, not a scenario file; give a file, or - to read standard input",
                        file=file)


def _too_large(size: int, file: str, exact: bool = True) -> ScenarioError:
    amount = f"{size:,} bytes" if exact else f"more than {MAX_BYTES:,} bytes"
    return ScenarioError(f"file is too large ({amount}); the limit is "
                         f"{MAX_BYTES // 1024 // 1024} MiB ({MAX_BYTES:,} bytes)", file=file)


def _is_blank(node: Node) -> bool:
    """A document with nothing in it (``---`` alone), as opposed to an explicit ``~``."""
    return isinstance(node, ScalarNode) and node.tag == _YAML + "null" and node.value == ""


def _decode(text: str | bytes, file: str) -> str:
    """Check the size and decode bytes as UTF-8, locating the first bad byte."""
    if isinstance(text, str):
        size = len(text) if len(text) > MAX_BYTES else len(text.encode("utf-8", "surrogatepass"))
    else:
        size = len(text)
    if size > MAX_BYTES:
        raise _too_large(size, file)
    if isinstance(text, str):
        return text
    start = 3 if text.startswith(b"\xef\xbb\xbf") else 0  # a BOM some editors write
    try:
        return text[start:].decode("utf-8")
    except UnicodeDecodeError as exc:
        offset = start + exc.start
        line = text.count(b"\n", 0, offset) + 1
        column = offset - (text.rfind(b"\n", 0, offset) + 1) + 1
        raise ScenarioError(f"file is not valid UTF-8: byte 0x{text[offset]:02x} at offset "
                            f"{offset} cannot be decoded; save the file as UTF-8",
                            file=file, line=line, column=column) from None


def _compose(text: str, file: str) -> Node | None:
    """Run the parser and composer, turning every YAML error into a located ScenarioError.

    A well-formed file is composed by libyaml when PyYAML has it (about ten
    times faster); anything the fast path does not accept is composed again
    by the careful loader below, which says exactly what is wrong.
    """
    fast = _compose_fast(text)
    if fast is not None:
        return fast
    loader = None
    try:
        loader = _Loader(text, file)
        return loader.get_single_node()
    except yaml.reader.ReaderError as exc:
        raise _reader_error(exc, text, file) from None
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc, file) from None
    except RecursionError:  # a guard behind MAX_DEPTH, should the parser ever recurse
        raise ScenarioError(f"nesting is deeper than {MAX_DEPTH} levels", file=file) from None
    finally:
        if loader is not None:
            loader.dispose()


def _compose_fast(text: str) -> Node | None:
    """libyaml's composer, after its event stream is checked for aliases and depth; None to fall back."""
    if not getattr(yaml, "__with_libyaml__", False):
        return None
    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.CSafeLoader):
            if isinstance(event, AliasEvent):
                return None      # never expanded: the careful loader reports it
            if isinstance(event, (MappingStartEvent, SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    return None
            elif isinstance(event, (MappingEndEvent, SequenceEndEvent)):
                depth -= 1
        return yaml.compose(text, Loader=yaml.CSafeLoader)
    except yaml.YAMLError:
        return None


def _reader_error(exc: yaml.reader.ReaderError, text: str, file: str) -> ScenarioError:
    pos = exc.position
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    char = exc.character if isinstance(exc.character, int) else ord(exc.character)
    return ScenarioError(f"character U+{char:04X} is not allowed in YAML; remove it",
                         file=file, line=line, column=column)


def _syntax_error(exc: yaml.MarkedYAMLError, file: str) -> ScenarioError:
    """Use the parser's own words and the position it points at."""
    mark = exc.problem_mark or exc.context_mark
    line, column = _position(mark)
    problem = (exc.problem or "").replace("'<stream end>'", "the end of the file")
    context = exc.context or ""
    if problem.startswith("but ") and context:  # PyYAML splits "expected X, but found Y"
        message = f"{context}, {problem}"
    elif context:
        context_line = f", line {exc.context_mark.line + 1}" if exc.context_mark else ""
        message = f"{problem or 'invalid YAML'} ({context}{context_line})"
    else:
        message = problem or "invalid YAML"
    return ScenarioError(f"YAML syntax error: {message}", file=file, line=line, column=column)


class _Builder:
    """Turns composed YAML nodes into plain Python values, recording positions.

    Building by hand (rather than through a constructor) is what guarantees
    that no tag can create anything but dicts, lists, str, int, float, bool and
    None, and it gives every value its path for the locator.
    """

    def __init__(self, locator: Locator) -> None:
        self.locator = locator
        self.scalars = yaml.SafeLoader("")  # only its scalar constructors are used

    def build(self, node: Node, path: Path) -> Any:
        self.locator.positions[path] = _position(node.start_mark)
        if isinstance(node, MappingNode):
            return self.mapping(node, path)
        if isinstance(node, SequenceNode):
            self.check_tag(node, _YAML + "seq", path)
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        return self.scalar(node, path)

    def check_tag(self, node: Node, allowed: str, path: Path) -> None:
        if node.tag != allowed:
            raise self.locator.error(path, f"unsupported YAML tag {typed(_short_tag(node.tag))}; "
                                           "scenario files hold plain values only")

    def mapping(self, node: MappingNode, path: Path) -> dict:
        self.check_tag(node, _YAML + "map", path)
        result: dict[Any, Any] = {}
        first_line: dict[Any, int | None] = {}
        for key_node, value_node in node.value:
            key = self.key(key_node, path)
            line, column = _position(key_node.start_mark)
            if key in result:
                raise ScenarioError(f"duplicate key {typed(key_node.value)} (first at line "
                                    f"{first_line[key]})", file=self.locator.file, line=line,
                                    column=column, path=format_path(path))
            first_line[key] = line
            self.locator.key_positions[path + (key,)] = (line, column)
            result[key] = self.build(value_node, path + (key,))
        return result

    def key(self, node: Node, path: Path) -> Any:
        """A mapping key: a single plain value, never a list, mapping or merge."""
        if not isinstance(node, ScalarNode):
            line, column = _position(node.start_mark)
            raise ScenarioError("mapping keys must be single values, not lists or mappings",
                                file=self.locator.file, line=line, column=column,
                                path=format_path(path))
        if node.tag == _YAML + "merge":
            line, column = _position(node.start_mark)
            raise ScenarioError("YAML merge keys (<<) are not supported; write the fields out",
                                file=self.locator.file, line=line, column=column,
                                path=format_path(path))
        return self.scalar(node, path)

    def scalar(self, node: ScalarNode, path: Path) -> Any:
        """Resolve a scalar with SafeLoader's YAML 1.1 rules (so ``yes`` is true)."""
        if node.tag in _TEXT_TAGS:
            return node.value
        if node.tag not in _SCALAR_TAGS:
            self.check_tag(node, _YAML + "str", path)
        if node.tag == _YAML + "int" and len(node.value) > MAX_NUMBER_CHARS:
            raise self.locator.error(path, f"the number {show_value(node.value)} is {len(node.value):,} characters "
                                           f"long; a number in a scenario is at most {MAX_NUMBER_CHARS} characters")
        try:
            return self.scalars.yaml_constructors[node.tag](self.scalars, node)
        except (ValueError, yaml.YAMLError):  # e.g. ``!!int abc``
            raise self.locator.error(path, f"cannot read {show_value(node.value)} as "
                                           f"{_short_tag(node.tag)}") from None


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_YAML):] if tag.startswith(_YAML) else tag


# --------------------------------------------------------------------------- names


def normalize_name(name: str) -> str:
    """The lower-case kebab form names are compared in: ``Dragon's Breath`` -> ``dragons-breath``."""
    name = re.sub(r"['\u2019]", "", str(name).lower())
    return re.sub(r"[^a-z0-9]+", "-", name).strip("-")


def did_you_mean(name: str, known: Iterable[str], n: int = 3) -> str:
    """``"; did you mean: a, b?"`` listing up to ``n`` close known names, or ``""``.

    Names are compared in normalized form so that spelling style (case, spaces,
    underscores) does not hide a near miss; the known names are shown as given.
    """
    known = tuple(known)
    try:
        by_form, forms = _forms(known)
    except TypeError:       # a name that cannot be hashed: no cache
        by_form, forms = _forms.__wrapped__(known)
    close = difflib.get_close_matches(normalize_name(name), forms, n=n, cutoff=0.6)
    return f"; did you mean: {', '.join(by_form[c] for c in close)}?" if close else ""


@functools.lru_cache(maxsize=64)
def _forms(known: tuple[str, ...]) -> tuple[dict[str, str], list[str]]:
    """The normalized forms of a list of known names, built once per list (a file naming many unknown units
    asks about the same army's ids again and again)."""
    by_form: dict[str, str] = {}
    for item in known:
        by_form.setdefault(normalize_name(item), item)
    return by_form, list(by_form)


# --------------------------------------------------------------------------- pydantic


_EXPECTED = {
    "int_type": "an integer", "int_parsing": "an integer", "int_from_float": "a whole number",
    "float_type": "a number", "float_parsing": "a number",
    "bool_type": "true or false", "bool_parsing": "true or false",
    "string_type": "a string", "list_type": "a list", "tuple_type": "a list",
    "set_type": "a list", "frozen_set_type": "a list", "dict_type": "a mapping",
    "model_type": "a mapping", "model_attributes_type": "a mapping",
    "dataclass_type": "a mapping", "none_required": "nothing (null)",
}
"""Pydantic error types whose meaning is simply "expected this kind of value"."""

_PREFIXES = ("Value error, ", "Assertion failed, ")
"""Pydantic puts these before the message of a validator; the user needs only the message."""

_BUILTIN_ERRORS = frozenset(typing.get_args(pydantic_core.core_schema.ErrorType))

_KEY_MARK = "[key]"


def pydantic_errors(exc: pydantic.ValidationError, locator: Locator, prefix: Iterable[Any] = (),
                    *, model: Any = None,
                    known_fields: Mapping[Path, Iterable[str]] | None = None) -> list[ScenarioError]:
    """Convert every error in ``exc`` into a located :class:`ScenarioError`, in file order.

    ``prefix`` is the path of the value that was validated (``()`` for the whole
    file). ``model`` is the type that was validated; with it, union labels in
    pydantic's error locations are recognised exactly (otherwise by their look)
    and "unknown field" errors suggest the closest field names. ``known_fields``
    gives those names directly, keyed by the path of the mapping relative to
    ``prefix`` (``("steps", 0, "melee")``); it wins over ``model``.
    """
    prefix = tuple(prefix)
    result = []
    for err in exc.errors(include_url=False):
        about_key = _KEY_MARK in err["loc"]
        loc = tuple(p for p in err["loc"] if p != _KEY_MARK)
        labels = _walk_types(model, loc)[0] if model is not None else [None] * len(loc)
        path = _clean_loc(prefix, loc, labels, locator, err["type"] == "missing")
        message = _message(err, model, known_fields, loc, path[len(prefix):], show_got=not about_key)
        if about_key:
            message = f"key {show_value(err['input'])}: {message}"
        at_key = err["type"] == "extra_forbidden" or about_key
        result.append(locator.error(path, message, at_key=at_key))
    return sorted(result, key=_file_order)


def _file_order(err: ScenarioError) -> tuple[int, int]:
    """Errors in the order of the file, which is how a user fixes them; unlocated ones last."""
    big = 1 << 62
    return (err.line or big, err.column or big)


def _clean_loc(prefix: Path, loc: Path, labels: list[bool | None], locator: Locator,
               missing: bool = False) -> Path:
    """Map pydantic's ``loc`` onto a path in the file.

    Pydantic inserts labels that are not in the data: the union member an
    error belongs to (``MeleeStep``, ``list[str]``, ``function-after[...]``, a
    discriminator tag). ``labels`` says which parts are such labels where the
    model told us (True/False) and is None where we must guess. The guess
    prefers a reading in which every part is in the file (all but the last for
    a missing field), then the one that finds most of it, then the one that
    drops fewest parts. The last part is never guessed away: it names the field.
    """
    best: tuple[tuple[bool, int, int], Path] | None = None

    def visit(i: int, path: Path, found: int, drops: int) -> None:
        nonlocal best
        if i == len(loc):
            whole = found == len(path) - len(prefix) - (missing and len(path) > len(prefix))
            score = (whole, found, -drops)
            if best is None or score > best[0]:
                best = (score, path)
            return
        part, label = loc[i], labels[i]
        here = path + (part,) in locator
        if label is None and not here and _looks_internal(part):
            label = True
        if label is not True:
            visit(i + 1, path + (part,), found + here, drops)
        guess = label is None and isinstance(part, str) and i < min(len(loc) - 1, _GUESS_LIMIT)
        if label is True or guess:
            visit(i + 1, path, found, drops + 1)

    visit(0, prefix, 0, 0)
    return best[1]


_GUESS_LIMIT = 12
"""Only the first parts of a very long ``loc`` are guessed at, to bound the search."""


def _looks_internal(part: Any) -> bool:
    """Pydantic's names for union members: type expressions and class names."""
    return isinstance(part, str) and (any(c in part for c in "[(,") or part[:1].isupper()
                                      or part in {"int", "str", "float", "bool", "none"})


def _message(err: Mapping[str, Any], model: Any, known_fields: Mapping[Path, Iterable[str]] | None,
             loc: Path, rel_path: Path, show_got: bool = True) -> str:
    """Say what was expected in the user's terms rather than pydantic's."""
    kind = err["type"]
    if kind == "missing":
        return "required field missing"
    if kind == "extra_forbidden":
        name = str(loc[-1])
        known = _known_fields(model, known_fields, loc[:-1], rel_path[:-1])
        return f"unknown field {typed(name)}" + did_you_mean(name, known)
    got = f", got {show_value(err['input'])}" if show_got else ""
    if kind in _EXPECTED:
        return f"expected {_EXPECTED[kind]}{got}"
    if kind in {"literal_error", "enum"}:
        return f"expected one of {err.get('ctx', {}).get('expected', '?')}{got}"
    msg = err["msg"]
    for start in _PREFIXES:
        if msg.startswith(start):
            return msg[len(start):]
    if msg.startswith("Input should be "):
        return f"expected {msg[len('Input should be '):]}{got}"
    # A custom error type comes from one of our validators, whose message says it all.
    return msg[:1].lower() + msg[1:] + (got if kind in _BUILTIN_ERRORS else "")


def _known_fields(model: Any, known_fields: Mapping[Path, Iterable[str]] | None,
                  parent_loc: Path, parent_path: Path) -> list[str]:
    if known_fields is not None and parent_path in known_fields:
        return list(known_fields[parent_path])
    if model is None:
        return []
    models = [t for t in _expand(_walk_types(model, parent_loc)[1]) if _is_model(t)]
    return sorted({name for m in models for name in _field_names(m)})


# Following a pydantic ``loc`` through the type that was validated. Best effort:
# it understands models, lists, dicts, Optional, unions and Annotated, and
# answers "don't know" (None, or no types) for anything else.


def _walk_types(model: Any, loc: Path) -> tuple[list[bool | None], list[Any]]:
    """For each part of ``loc``, whether it is a union label; and the types at its end.

    Pydantic puts a label in ``loc`` after every union with two or more
    members (not after Optional), naming the member whose errors follow.
    """
    labels: list[bool | None] = []
    current = [model]
    for part in loc:
        if not current:
            labels.append(None)
            continue
        current = [_unwrap(t) for t in current]
        members = [m for t in current for m in _union_members(t)]
        if members:
            current = [m for m in members if _has_label(m, part)] or members
            labels.append(True)
        else:
            current = [nxt for t in current for nxt in _step(t, part)]
            labels.append(False)
    return labels, current


def _unwrap(tp: Any) -> Any:
    """Strip Annotated and Optional, which add no label to ``loc``."""
    while True:
        if typing.get_origin(tp) is typing.Annotated:
            tp = typing.get_args(tp)[0]
        elif _is_union(tp) and len(_non_none(tp)) == 1:
            tp = _non_none(tp)[0]
        else:
            return tp


def _is_union(tp: Any) -> bool:
    return typing.get_origin(tp) is Union or isinstance(tp, types.UnionType)


def _non_none(tp: Any) -> list[Any]:
    return [a for a in typing.get_args(tp) if a is not type(None)]


def _union_members(tp: Any) -> list[Any]:
    return _non_none(tp) if _is_union(tp) and len(_non_none(tp)) > 1 else []


def _has_label(member: Any, label: Any) -> bool:
    """Whether pydantic would name this union member ``label`` (class name or Tag)."""
    if typing.get_origin(member) is typing.Annotated:
        tags = [m.tag for m in typing.get_args(member)[1:] if isinstance(m, pydantic.Tag)]
        if label in tags:
            return True
    return getattr(_unwrap(member), "__name__", None) == label


def _expand(tps: Iterable[Any]) -> list[Any]:
    """Unwrap Annotated and unions so each entry is one concrete type."""
    out = []
    for tp in tps:
        tp = _unwrap(tp)
        if _is_union(tp):
            out.extend(_expand(typing.get_args(tp)))
        else:
            out.append(tp)
    return out


def _step(tp: Any, part: Any) -> list[Any]:
    """The type of ``part`` (a field, index or key) inside a value of type ``tp``."""
    if _is_model(tp):
        return [f.annotation for name, f in tp.model_fields.items() if part in (name, f.alias)]
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (list, set, frozenset, collections.abc.Sequence) and args:
        return [args[0]]
    if origin is tuple and args:
        return [args[0] if args[-1] is Ellipsis or not isinstance(part, int)
                else args[min(part, len(args) - 1)]]
    if origin in (dict, collections.abc.Mapping) and len(args) == 2:
        return [args[1]]
    return []


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, pydantic.BaseModel)


def _field_names(model: type[pydantic.BaseModel]) -> list[str]:
    """The names a user writes for a model's fields: the alias where there is one."""
    return [f.alias or name for name, f in model.model_fields.items()]
