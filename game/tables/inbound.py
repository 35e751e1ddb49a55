"""What a client sends, decoded with limits before anything trusts it: a socket frame (JSON
from programs, htmx's form posts from browsers) and a JSON body to the API.

Nothing here raises anything but :class:`Malformed`, whatever the input: a frame's size and
nesting are checked before it is parsed (``"[" * 1024 + "]" * 1024`` is two kilobytes and
would otherwise reach the parser's recursion limit), and every field is checked for its
exact type (a ``bool`` is not a number, ``"²"`` is not a digit) and range. The limits are
docs/TABLE_PROTOCOL.md's and docs/TABLES.md's.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_FRAME = 2048  # bytes of one socket frame; the longest legal frame is well under 200
FRAME_DEPTH = 3  # nesting of a frame: an object, htmx's HEADERS object in it, one more
BODY_DEPTH = 8  # nesting of an API body (its options object is the deepest part)
MAX_VERSION = 2**31 - 1  # a table's version is a count of actions: far below this
MAX_ACTION = 64  # characters of an action ("play:QH", "move:24/18 13/11", …)
TYPES = ("action", "ping", "emote")

_DIGITS = re.compile(r"[0-9]{1,10}")  # ASCII digits only: str.isdigit() takes "²" too
_TOKENS = re.compile(r'[\[\]{}"\\]')


class Malformed(Exception):
    """The input is not what the protocol allows; ``message`` says why, in English."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def depth(text: str) -> int:
    """How deeply ``text``'s JSON arrays and objects nest (brackets inside strings do not
    count), without parsing it: linear, with no recursion."""
    deepest = level = 0
    in_string, escaped = False, -1  # escaped: where the character after a backslash is
    for token in _TOKENS.finditer(text):
        char, at = token.group(), token.start()
        if at == escaped:
            continue
        if in_string:
            if char == "\\":
                escaped = at + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            level += 1
            deepest = max(deepest, level)
        elif char in "]}":
            level -= 1
    return deepest


def _no_constant(name: str) -> Any:
    raise Malformed(f"{name} is not a JSON number")


def load(text: str | bytes, *, max_bytes: int, max_depth: int) -> Any:
    """``text`` parsed as JSON, if it is at most ``max_bytes`` long in UTF-8 and nests at
    most ``max_depth`` deep; :class:`Malformed` otherwise (never anything else)."""
    if isinstance(text, bytes):
        if len(text) > max_bytes:
            raise Malformed(f"at most {max_bytes} bytes")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise Malformed("not UTF-8") from None
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise Malformed(f"at most {max_bytes} bytes")
    if depth(text) > max_depth:
        raise Malformed(f"nested at most {max_depth} deep")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
        raise Malformed("not JSON") from None


def whole_number(value: Any, *, form: bool = False, top: int = MAX_VERSION) -> int:
    """``value`` as a whole number from 0 to ``top``: an int (never a bool), or with
    ``form`` (a browser's form field) a string of ASCII digits."""
    if form and isinstance(value, str) and _DIGITS.fullmatch(value):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
        raise Malformed(f"a whole number from 0 to {top}")
    return value


def digits(text: Any, *, top: int = MAX_VERSION) -> int | None:
    """A query string's or form's whole number: ASCII digits only, at most ``top``; None
    for anything else."""
    if not isinstance(text, str) or not _DIGITS.fullmatch(text):
        return None
    number = int(text)
    return number if number <= top else None


def word(value: Any) -> bool:
    """Whether ``value`` may be an action or an emote: printable ASCII (every one the
    engines and the emotes know is), 1 to MAX_ACTION characters."""
    return (
        isinstance(value, str) and 0 < len(value) <= MAX_ACTION
        and value.isascii() and value.isprintable()
    )


def frame(text: str | None, fmt: str) -> dict[str, Any]:
    """A socket frame checked field by field: ``{"type": "ping"}``, ``{"type": "emote",
    "emote": str}`` or ``{"type": "action", "action": str, "version": int}``. ``fmt`` is
    the socket's format: with ``html`` the version may be a form field's digits."""
    if text is None:
        raise Malformed("frames are JSON text")
    message = load(text, max_bytes=MAX_FRAME, max_depth=FRAME_DEPTH)
    if not isinstance(message, dict) or message.get("type") not in TYPES:
        raise Malformed(f"a frame is an object with type one of {TYPES}")
    kind = message["type"]
    if kind == "ping":
        return {"type": "ping"}
    if kind == "emote":
        emote = message.get("emote")
        if not word(emote):
            raise Malformed("emote must be a string")
        return {"type": "emote", "emote": emote}
    action = message.get("action")
    if not word(action):
        raise Malformed("action must be a non-empty string")
    try:
        version = whole_number(message.get("version"), form=fmt == "html")
    except Malformed:
        raise Malformed("version must be a whole number") from None
    return {"type": "action", "action": action, "version": version}


def body(raw: bytes, *, max_bytes: int) -> dict[str, Any]:
    """An API request's JSON object ({} for an empty body)."""
    if not raw:
        return {}
    found = load(raw, max_bytes=max_bytes, max_depth=BODY_DEPTH)
    if not isinstance(found, dict):
        raise Malformed("the body must be a JSON object")
    return found
