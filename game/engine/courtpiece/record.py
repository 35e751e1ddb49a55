"""A plain-text hand record: variant, options, dealer, deal and actions.

Bug reports, lessons and replays point at hands with it. It is line-based so it reads
well in an issue or an email and diffs cleanly::

    baithak-hand 1
    variant: rung
    options: claim82=true court=all13 redeal=true thirteenth=true
    dealer: 3
    seat 0: AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
    seat 1: ...
    seat 2: ...
    seat 3: ...
    actions:
    0 call:S
    0 play:AS

Blank lines and lines starting with ``#`` are ignored. ``from_record`` replays the
actions through the engine, so a record that breaks a rule is refused with the reason.
"""

from __future__ import annotations

from typing import Any

from ..protocol import IllegalAction
from .hand import Hand, new_hand
from .rules import Rules

MAGIC = "baithak-hand 1"


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _parse_value(text: str) -> Any:
    if text == "true":
        return True
    if text == "false":
        return False
    return text


def to_record(hand: Hand) -> str:
    options = " ".join(f"{k}={_format_value(v)}" for k, v in sorted(hand.rules.options.items()))
    lines = [
        MAGIC,
        f"variant: {hand.rules.variant}",
        f"options: {options}".rstrip(),
        f"dealer: {hand.dealer}",
    ]
    lines += [f"seat {s}: {' '.join(cards)}" for s, cards in enumerate(hand.deal)]
    lines.append("actions:")
    lines += [f"{seat} {action}" for seat, action in hand.history]
    return "\n".join(lines) + "\n"


def from_record(text: str) -> Hand:
    """Parse a record and replay it. Malformed records raise ValueError saying where."""
    lines = [
        (n, line.strip())
        for n, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.strip().startswith("#")
    ]
    if not lines or lines[0][1] != MAGIC:
        raise ValueError(f"not a hand record: the first line must be {MAGIC!r}")
    header: dict[str, str] = {}
    seats: dict[int, list[str]] = {}
    actions: list[tuple[int, int, str]] = []
    in_actions = False
    for n, line in lines[1:]:
        if in_actions:
            seat_text, _, action = line.partition(" ")
            if not seat_text.isdigit() or not action:
                raise ValueError(f"line {n}: an action line is '<seat> <action>', got {line!r}")
            actions.append((n, int(seat_text), action.strip()))
        elif line == "actions:":
            in_actions = True
        elif line.startswith("seat "):
            key, _, cards = line.partition(":")
            seat_text = key[5:].strip()
            if seat_text not in ("0", "1", "2", "3"):
                raise ValueError(f"line {n}: unknown seat {seat_text!r}")
            seats[int(seat_text)] = cards.split()
        else:
            key, sep, value = line.partition(":")
            if not sep:
                raise ValueError(f"line {n}: expected 'key: value', got {line!r}")
            header[key.strip()] = value.strip()
    for key in ("variant", "dealer"):
        if key not in header:
            raise ValueError(f"the record has no {key!r} line")
    if sorted(seats) != [0, 1, 2, 3]:
        raise ValueError("the record must list the cards of seats 0, 1, 2 and 3")
    options: dict[str, Any] = {}
    for item in header.get("options", "").split():
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"option {item!r} is not name=value")
        options[name] = _parse_value(value)
    rules = Rules(variant=header["variant"], **options)
    if header["dealer"] not in ("0", "1", "2", "3"):
        raise ValueError(f"dealer must be 0..3, got {header['dealer']!r}")
    hand = new_hand(rules, dealer=int(header["dealer"]), deal=[seats[s] for s in range(4)])
    for n, seat, action in actions:
        try:
            hand = hand.apply(action, seat=seat)
        except IllegalAction as exc:
            raise IllegalAction(f"line {n}: seat {seat} {action}: {exc}") from None
    return hand
