"""GNU Backgammon Match IDs (BG-14): the cube, score and turn state in 12 characters.

Layout (GNU Backgammon manual, "Match ID"): 66 bits, least significant first, in 9
little-endian bytes, base64 without padding:

    bits  0-3  log2 of the cube value      bits 15-17  die 1 (0 = not rolled)
    bits  4-5  cube owner (3 = centred)    bits 18-20  die 2
    bit     6  player on roll              bits 21-35  match length (0 = money game)
    bit     7  Crawford game               bits 36-50  player 0's score
    bits  8-10 game state                  bits 51-65  player 1's score
    bit    11  player to decide (turn)
    bit    12  a double is offered
    bits 13-14 resignation offered (0 none, 1 single, 2 gammon, 3 backgammon)
    bit    66  the Jacoby rule is on (newer GNU Backgammon versions write this bit)

Game states: 0 no game, 1 playing, 2 over, 3 resigned, 4 ended by a dropped double.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass

NO_GAME, PLAYING, OVER, RESIGNED, DROPPED = range(5)
CENTRED = 3

_FIELDS = (  # (name, width), in bit order
    ("cube_log2", 4),
    ("cube_owner", 2),
    ("on_roll", 1),
    ("crawford", 1),
    ("state", 3),
    ("turn", 1),
    ("doubled", 1),
    ("resigned", 2),
    ("die1", 3),
    ("die2", 3),
    ("length", 15),
    ("score0", 15),
    ("score1", 15),
    ("jacoby", 1),
)


@dataclass(frozen=True)
class MatchState:
    """The decoded fields of a Match ID. ``cube`` is the value (1, 2, 4, …); owner None
    = centred; ``dice`` (0, 0) = not rolled yet."""

    cube: int = 1
    owner: int | None = None
    on_roll: int = 0
    crawford: bool = False
    state: int = PLAYING
    turn: int = 0
    doubled: bool = False
    resigned: int = 0
    dice: tuple[int, int] = (0, 0)
    length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        # GNU Backgammon writes the higher die first; the order thrown does not matter.
        object.__setattr__(self, "dice", (max(self.dice), min(self.dice)))

    def to_id(self) -> str:
        if self.cube < 1 or self.cube & (self.cube - 1) or self.cube > 2**15:
            raise ValueError(f"cube value {self.cube} is not a power of two up to 32768")
        values = {
            "cube_log2": self.cube.bit_length() - 1,
            "cube_owner": CENTRED if self.owner is None else self.owner,
            "on_roll": self.on_roll,
            "crawford": int(self.crawford),
            "state": self.state,
            "turn": self.turn,
            "doubled": int(self.doubled),
            "resigned": self.resigned,
            "die1": self.dice[0],
            "die2": self.dice[1],
            "length": self.length,
            "score0": self.score[0],
            "score1": self.score[1],
            "jacoby": int(self.jacoby),
        }
        key = 0
        bit = 0
        for name, width in _FIELDS:
            v = values[name]
            if not 0 <= v < (1 << width):
                raise ValueError(f"match field {name}={v} does not fit in {width} bits")
            key |= v << bit
            bit += width
        return base64.b64encode(key.to_bytes(9, "little")).decode()

    @classmethod
    def from_id(cls, match_id: str) -> MatchState:
        mid = match_id.strip()
        if not re.fullmatch(r"[A-Za-z0-9+/]{12}", mid):
            raise ValueError(f"not a GNU Backgammon Match ID: {match_id!r}")
        key = int.from_bytes(base64.b64decode(mid), "little")
        v: dict[str, int] = {}
        bit = 0
        for name, width in _FIELDS:
            v[name] = (key >> bit) & ((1 << width) - 1)
            bit += width
        if v["cube_owner"] == 2 or v["state"] > DROPPED or v["die1"] > 6 or v["die2"] > 6:
            raise ValueError(f"Match ID {match_id!r} holds impossible values")
        return cls(
            cube=1 << v["cube_log2"],
            owner=None if v["cube_owner"] == CENTRED else v["cube_owner"],
            on_roll=v["on_roll"],
            crawford=bool(v["crawford"]),
            state=v["state"],
            turn=v["turn"],
            doubled=bool(v["doubled"]),
            resigned=v["resigned"],
            dice=(v["die1"], v["die2"]),
            length=v["length"],
            score=(v["score0"], v["score1"]),
            jacoby=bool(v["jacoby"]),
        )
