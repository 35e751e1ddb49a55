"""Backgammon positions, GNU Backgammon Position IDs, legal plays and move notation.

Representation (chosen for speed, see bench/backgammon.py): one side's checkers are a
single int holding 26 four-bit counters. Slot 0 is "borne off", slots 1..24 are the
points numbered from that side's own point of view (it moves from 24 towards 1), slot 25
is the bar. Moving a checker from slot s to slot t is ``b - (1 << 4*s) + (1 << 4*t)``:
one big-int operation; the general search dedupes plays by one int key,
``(b << 25) | hits``. Ordinary rolls (nothing to bear off this turn, at most one checker
on the bar for a non-double, three for a double) take shortcuts that name a play by its
moves' sources only, with small ints, and leave the board of a play to be worked out
when it is asked for (Play.key): a random game asks for one play's board a turn. The
general search stays as the reference the shortcuts are proved against
(tests/engine/backgammon/test_fast_paths.py), so its parts have public names for those
tests: ``steps`` (one checker, one die), ``single_plays`` and ``double_plays`` (the search),
``occupied`` and ``opponent_masks`` (its masks), the key layout ``KEY_SHIFT`` and
``HITS_MASK``, and ``resulting_position`` (a key's board as a Position).

A ``Position`` is (mine, theirs): mine = the player on roll. The opponent's point p is
the roller's point 25 - p.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from itertools import pairwise, product, repeat
from typing import Any, NamedTuple

from ..protocol import IllegalAction

CHECKERS = 15
BAR = 25
OFF = 0
_ALL_SLOTS = 26


class IllegalMove(IllegalAction):
    """An illegal or malformed play; the message says why, in English. A subclass of the
    one engine error, ``game.engine.IllegalAction``, so tables catch one class."""


def _pack(counts: Iterable[int]) -> int:
    """26 slot counts (off, 1..24, bar) -> one int."""
    b = 0
    for slot, c in enumerate(counts):
        b |= c << (4 * slot)
    return b


def _unpack(b: int) -> list[int]:
    return [(b >> (4 * s)) & 15 for s in range(_ALL_SLOTS)]


def _pips(b: int) -> int:
    return sum(s * c for s, c in enumerate(_unpack(b)))


_POINTS = ((1 << 25) - 1) & ~1  # bits 1..24


def _flag_table(flag: Callable[[int], int]) -> bytes:
    """For each byte of a packed side (slot 2j in the low nibble, 2j+1 in the high one):
    a byte whose hex digits are flag(slot 2j) then flag(slot 2j+1), each 0 or 1."""
    return bytes((flag(c & 15) << 4) | flag(c >> 4) for c in range(256))


_TWO_PLUS = _flag_table(lambda n: int(n >= 2))
_ONE = _flag_table(lambda n: int(n == 1))


# Big-endian bytes hold slots 25,24 | 23,22 | ... | 1,0 (high nibble first): read as
# hex digits after this table, they are the occupied flags, highest slot first.
_NONZERO_BE = bytes((int(c >> 4 > 0) << 4) | int(c & 15 > 0) for c in range(256))


def occupied(b: int) -> int:
    """Bit s set when slot s (1..25) holds a checker; the off slot is left out."""
    return int(b.to_bytes(13, "big").translate(_NONZERO_BE).hex(), 2) & ~1


def opponent_masks(theirs: int) -> tuple[int, int]:
    """(blocked, blots) as bit masks over the roller's points 1..24.

    Their slot q is the roller's point 25 - q. The side's bytes are mapped through a
    table in C (bytes.translate) to one hex digit 0/1 per slot, lowest slot first; read as
    binary, the first digit is the highest bit, so slot q lands on bit 25 - q: the
    reversal comes free. About twice as fast as shifting and masking the int.
    """
    raw = theirs.to_bytes(13, "little")
    blocked = int(raw.translate(_TWO_PLUS).hex(), 2) & _POINTS
    blots = int(raw.translate(_ONE).hex(), 2) & _POINTS
    return blocked, blots


# Builds a Position from (mine, theirs) in C, skipping the Python-level __new__ that
# NamedTuple generates (about 40% of the cost of a Position on the hot path).
_new_position = tuple.__new__


class Position(NamedTuple):
    """A backgammon position with the player on roll to move (dice not included).

    ``mine`` and ``theirs`` are packed sides (see the module docstring); build positions
    with the class methods, read them with ``board()``, ``off()``, ``pips()``.

    Immutable: a Position is a pair of ints (a NamedTuple), so ``pos.mine = …`` raises
    AttributeError and its hash can never go stale. Being a tuple costs nothing where
    speed counts: it is made by one C call (``_new_position``) and its fields are read by
    C descriptors; a slotted class guarded by a ``__setattr__`` was measured twice as slow
    to build (bench/backgammon.py builds one a turn).
    """

    mine: int
    theirs: int

    # --- construction -------------------------------------------------------------
    @classmethod
    def from_points(
        cls, mine: dict[int, int] | Iterable[int], theirs: dict[int, int] | Iterable[int]
    ) -> Position:
        """From counts per point (1..24, 25 = bar), each side from its own point of view.

        Accepts dicts ``{point: count}`` or GNU-style 25-sequences (index 0 = point 1,
        index 24 = bar). Checkers not placed are borne off. Invalid input raises
        ValueError.
        """
        sides = []
        for side in (mine, theirs):
            counts = [0] * _ALL_SLOTS
            items = side.items() if isinstance(side, dict) else enumerate(side, start=1)
            for point, n in items:
                if not (1 <= point <= 25) or not (0 <= n <= CHECKERS):
                    raise ValueError(f"bad point/count {point}:{n}")
                counts[point] += n
            on_board = sum(counts)
            if on_board > CHECKERS:
                raise ValueError(f"{on_board} checkers on one side; at most {CHECKERS}")
            counts[OFF] = CHECKERS - on_board
            sides.append(counts)
        for p in range(1, 25):
            if sides[0][p] and sides[1][25 - p]:
                raise ValueError(f"point {p} holds checkers of both players")
        return cls(_pack(sides[0]), _pack(sides[1]))

    @classmethod
    def start(cls) -> Position:
        """The standard start (BG-1)."""
        side = {24: 2, 13: 5, 8: 3, 6: 5}
        return cls.from_points(side, side)

    @classmethod
    def nackgammon(cls) -> Position:
        """The Nackgammon start (BG-13)."""
        side = {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}
        return cls.from_points(side, side)

    @classmethod
    def from_id(cls, position_id: str) -> Position:
        """From a GNU Backgammon Position ID (14 base64 characters)."""
        pid = position_id.strip()
        if not re.fullmatch(r"[A-Za-z0-9+/]{14}", pid):
            raise ValueError(f"not a GNU Backgammon Position ID: {position_id!r}")
        key = int.from_bytes(base64.b64decode(pid + "=="), "little")
        # The key is, for the player NOT on roll and then the player on roll, for each of
        # points 1..24 and the bar: as many 1 bits as checkers, then a 0 bit.
        boards: list[list[int]] = [[], []]
        bit = 0
        for side in (0, 1):
            while len(boards[side]) < 25:
                n = 0
                while bit < 80 and (key >> bit) & 1:
                    n += 1
                    bit += 1
                if bit >= 80:
                    raise ValueError(f"Position ID {position_id!r} runs out of bits")
                bit += 1
                boards[side].append(n)
        if key >> bit:
            raise ValueError(f"Position ID {position_id!r} has stray bits")
        return cls.from_points(boards[1], boards[0])

    # --- export -------------------------------------------------------------------
    def board(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """GNU Backgammon's board: (opponent, player on roll), each 25 counts with
        index 0 = point 1 .. index 23 = point 24, index 24 = bar."""
        return tuple(_unpack(self.theirs)[1:]), tuple(_unpack(self.mine)[1:])

    def to_id(self) -> str:
        key = 0
        bit = 0
        for side in self.board():
            for n in side:
                key |= ((1 << n) - 1) << bit
                bit += n + 1
        return base64.b64encode(key.to_bytes(10, "little")).decode()[:14]

    def off(self) -> tuple[int, int]:
        """Checkers borne off: (player on roll, opponent)."""
        return self.mine & 15, self.theirs & 15

    def pips(self) -> tuple[int, int]:
        """Pip counts: (player on roll, opponent)."""
        return _pips(self.mine), _pips(self.theirs)

    def swapped(self) -> Position:
        """The same board with the other player on roll."""
        return _new_position(Position, (self.theirs, self.mine))

    # A Position equals only a Position, never the plain tuple of its two ints.
    def __eq__(self, other: object) -> bool:
        return type(other) is Position and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __repr__(self) -> str:
        return f"Position.from_id({self.to_id()!r})"


# --- move generation ------------------------------------------------------------------
# A search state is (b, occ, hits): b the roller's packed checkers, occ the occupied
# mask of slots 1..25, hits the mask of the roller's points where an opposing blot has
# been hit this turn. The opponent's side is fixed during the turn except for hits, so
# the (blocked, blots) masks are computed once.


def steps(
    b: int, occ: int, hits: int, d: int, blocked: int, blots: int, max_src: int = BAR
) -> list[tuple[int, int, int, int, int]]:
    """Every legal single move with die d: (src, dst, b', occ', hits').

    Only sources <= max_src (used to order the moves of a double, see double_plays).
    """
    out: list[tuple[int, int, int, int, int]] = []
    if occ >> BAR:  # BG-8: the bar enters first, on the opponent's home board
        if max_src < BAR:
            return out
        srcs = 1 << BAR if not (blocked >> (BAR - d)) & 1 else 0
    else:
        # BG-3/BG-4: forward by d onto a point the opponent has not made.
        srcs = occ & ~(blocked << d) & ~((2 << d) - 1) & ((2 << max_src) - 1)
    while srcs:
        low = srcs & -srcs
        srcs ^= low
        s = low.bit_length() - 1
        t = s - d
        nb = b - (1 << 4 * s) + (1 << 4 * t)
        nocc = occ | (1 << t)
        if not (nb >> 4 * s) & 15:
            nocc ^= low
        nhits = hits
        if (blots >> t) & 1 and not (hits >> t) & 1:
            nhits |= 1 << t  # BG-7: a blot is hit on any landing, final or intermediate
        out.append((s, t, nb, nocc, nhits))
    if occ < 128:  # BG-9: every checker home (bits 7..25 clear): bearing off
        s = 0
        if (occ >> d) & 1:
            s = d  # the exact number
        elif occ < (1 << d):
            s = occ.bit_length() - 1  # higher than the highest point: from the highest
        if 0 < s <= max_src:
            nb = b - (1 << 4 * s) + 1
            nocc = occ if (nb >> 4 * s) & 15 else occ ^ (1 << s)
            out.append((s, 0, nb, nocc, hits))
    return out


# Precomputed: _MOVE[d][s] is what moving one checker from slot s by d adds to b.
_MOVE: tuple[tuple[int, ...], ...] = tuple(
    tuple((1 << 4 * (s - d)) - (1 << 4 * s) if s > d else 0 for s in range(26)) for d in range(7)
)
# A play's result key is one int, (b << 25) | hits: ints are not tracked by the garbage
# collector, and tuples made by the thousand were (see bench/backgammon.py).
KEY_SHIFT = 25
HITS_MASK = (1 << KEY_SHIFT) - 1
_MOVE_K: tuple[tuple[int, ...], ...] = tuple(tuple(m << KEY_SHIFT for m in row) for row in _MOVE)
# _ABOVE[d]: mask of slots whose checker moved d does not reach the off slot.
_ABOVE: tuple[int, ...] = tuple(~((2 << d) - 1) & ((1 << 26) - 1) for d in range(7))
_OUT_NIBBLES = (1 << 72) - 1  # slots 7..24 once shifted down by 7 slots
_M0F = int("0f" * 9, 16)
_M01 = int("01" * 9, 16)


def _outside(b: int) -> int:
    """Checkers on points 7..24 (outside the home board, bar not counted): the 18 slot
    counters are added pairwise into bytes, then all bytes at once by one multiply."""
    x = (b >> 28) & _OUT_NIBBLES
    x = (x & _M0F) + ((x >> 4) & _M0F)
    return ((x * _M01) >> 64) & 255


_LOW_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(13) if m >> i & 1) for m in range(1 << 13)
)
_HIGH_BITS: tuple[tuple[int, ...], ...] = tuple(tuple(i + 13 for i in t) for t in _LOW_BITS)


def _bits(mask: int) -> tuple[int, ...]:
    """The set bits (0..25) of mask, ascending, from two precomputed 13-bit tables."""
    return _LOW_BITS[mask & 8191] + _HIGH_BITS[mask >> 13]


# Big-endian bytes, as for occupied: the flags of slots holding exactly one checker.
_LONE_BE = bytes((int(c >> 4 == 1) << 4) | int(c & 15 == 1) for c in range(256))


def _fast_single_plays(
    ctx: tuple[Position, tuple[int, int]],
    b: int,
    occ: int,
    blocked: int,
    blots: int,
    da: int,
    db: int,
) -> list[Play]:
    """The common case of a non-double: nothing on the bar and at least two checkers
    outside the home board, so neither entering nor bearing off can arise this turn.

    Then landing rules depend only on the fixed opponent masks, so two different
    checkers' moves commute and every play is "the checker on x moves da, the one on y
    moves db": the plays are made directly as Play(ctx, x, y), by itertools.product in C,
    and the board is worked out only for the play chosen (Play.key). One checker moving
    both numbers is (x, x - da) (on through x - da) or (x - db, x) (through x - db): the
    sums come out the same whether the point passed was empty or held a checker of its
    own. Returns [] when both numbers cannot be used together; the caller's general
    search handles that.
    """
    open_a = ~(blocked << da) & _ABOVE[da]  # points a checker may move da from
    open_b = ~(blocked << db) & _ABOVE[db]
    src_a = occ & open_a
    src_b = occ & open_b
    plays = list(map(Play, product((ctx,), _bits(src_a), _bits(src_b))))
    free = ~occ
    chains = src_a & ((free & open_b) << da)  # on through an empty point (or a blot)
    if chains:
        plays += [Play((ctx, x, x - da)) for x in _bits(chains)]
    chains = src_b & ((free & open_a) << db)
    if chains:
        plays += [Play((ctx, x - db, x)) for x in _bits(chains)]
    both = src_a & src_b
    if both:
        lone = both & int(b.to_bytes(13, "big").translate(_LONE_BE).hex(), 2)
        for x in _bits(lone):  # one checker cannot leave its point twice
            plays.remove(Play((ctx, x, x)))
        # x -> x-da -> x-da-db and x -> x-db -> x-da-db give one position unless a
        # blot is hit on the way.
        dual = both & (open_b << da) & (open_a << db) & ~(blots << da) & ~(blots << db)
        for x in _bits(dual):
            plays.remove(Play((ctx, x - db, x)))
    return plays


def _pair_key(pos: Position, d1: int, d2: int, x: int, y: int) -> int:
    """The result key of the checker on x moving d1 and the one on y moving d2."""
    t1 = x - d1
    t2 = y - d2
    theirs = pos.theirs
    hits = 1 << t1 if (theirs >> 4 * (BAR - t1)) & 15 == 1 else 0
    if (theirs >> 4 * (BAR - t2)) & 15 == 1:  # BG-7: every landing on a blot hits it
        hits |= 1 << t2
    return (pos.mine << KEY_SHIFT) + _MOVE_K[d1][x] + _MOVE_K[d2][y] + hits


def _compact_key(pos: Position, d: int, code: int) -> int:
    """The result key of a _fast_double_plays code: 5-bit sources, each moving d."""
    theirs = pos.theirs
    key = pos.mine << KEY_SHIFT
    move = _MOVE_K[d]
    hits = 0
    while code:
        s = code & 31
        code >>= 5
        key += move[s]
        t = s - d
        if (theirs >> 4 * (BAR - t)) & 15 == 1:  # BG-7: every landing on a blot hits it
            hits |= 1 << t
    return key + hits


def _fast_bar_single_plays(
    ctx: tuple[Position, tuple[int, int]], occ: int, blocked: int, blots: int, da: int, db: int
) -> list[Play]:
    """A non-double with exactly one checker on the bar: it enters with one number
    (BG-8) and any checker, itself included, plays the other. No bearing off can arise:
    the entered checker is still outside the home board. Plays are made directly as in
    _fast_single_plays: Play(ctx, BAR, y) enters with da and moves y by db,
    Play(ctx, x, BAR) enters with db and moves x by da. Returns [] when both numbers
    cannot be used; the caller's general search handles that."""
    board = occ ^ (1 << BAR)
    plays: list[Play] = []
    t_a = BAR - da
    t_b = BAR - db
    if not (blocked >> t_a) & 1:
        srcs = (board | (1 << t_a)) & ~(blocked << db) & _ABOVE[db]
        plays = list(map(Play, product((ctx,), (BAR,), _bits(srcs))))
    if not (blocked >> t_b) & 1:
        srcs = (board | (1 << t_b)) & ~(blocked << da) & _ABOVE[da]
        plays += map(Play, product((ctx,), _bits(srcs), (BAR,)))
        # bar/t_a/t and bar/t_b/t: one position unless a blot is hit on the way.
        if (
            (srcs >> t_b) & 1
            and not (blocked >> t_a) & 1
            and not (blocked >> (t_a - db)) & 1
            and not (blots >> t_a) & 1
            and not (blots >> t_b) & 1
        ):
            plays.remove(Play((ctx, t_b, BAR)))
    return plays


def single_plays(b: int, occ: int, blocked: int, blots: int, d1: int, d2: int) -> dict[int, None]:
    """Result keys of every legal play of a non-double roll (BG-6)."""
    full: dict[int, None] = {}
    one: dict[int, dict[int, None]] = {d1: {}, d2: {}}
    for da, db in ((d1, d2), (d2, d1)):
        for _s, _t, b1, o1, h1 in steps(b, occ, 0, da, blocked, blots):
            seconds = steps(b1, o1, h1, db, blocked, blots)
            if seconds:
                for _s2, _t2, b2, _o2, h2 in seconds:
                    full[(b2 << KEY_SHIFT) | h2] = None
            elif not full:
                one[da][(b1 << KEY_SHIFT) | h1] = None
    if full:
        return full
    # BG-6: only one number can be played: the higher if it can be, else the lower.
    hi, lo = max(d1, d2), min(d1, d2)
    return one[hi] or one[lo]


# bytes.translate table from a hex digit's ASCII code to its value.
_HEX_VALUE = bytes(int(chr(c), 16) if chr(c) in "0123456789abcdef" else 0 for c in range(256))


def _fast_double_plays(b: int, occ: int, blocked: int, d: int, on_bar: int = 0) -> list[int]:
    """A double where, once the ``on_bar`` checkers (at most 3) have entered, bearing off
    cannot arise (more checkers outside the home board than moves left): a move is then
    legal exactly when its source holds a checker and its landing point is not made by
    the opponent.

    Moves are taken with non-increasing sources, as in double_plays, and a play comes
    back as the small code of its sources, 5 bits each, the last move lowest (see
    _compact_key). Each multiset of sources is tried once and gives its own position (a
    source's count of moves follows from the board, highest point down), so nothing is
    deduplicated, and search nodes hold only small ints:
    (code, landed mask, arrivals with 2 bits per point, checkers left on the last
    source, last source).
    """
    count = (b"%026x" % b).translate(_HEX_VALUE)[::-1]  # count[s]: checkers on slot s
    open_src = ~(blocked << d) & _ABOVE[d]
    if on_bar:  # BG-8: they all enter first, or the roll cannot be played at all
        t = BAR - d
        if (blocked >> t) & 1:
            return []
        code = 0
        for _ in range(on_bar):
            code = code << 5 | BAR
        frontier = [(code, 1 << t, on_bar << 2 * t, 0, BAR)]
    else:
        frontier = [(0, 0, 0, 0, BAR + 1)]
    for _depth in range(on_bar, 3):
        nxt = []
        for code, landed, arr, left, ms in frontier:
            if left:  # the last source again
                t = ms - d
                nxt.append((code << 5 | ms, landed | 1 << t, arr + (1 << 2 * t), left - 1, ms))
            for s in _bits((occ | landed) & open_src & ((1 << ms) - 1)):
                t = s - d
                nxt.append(
                    (
                        code << 5 | s,
                        landed | 1 << t,
                        arr + (1 << 2 * t),
                        count[s] + (arr >> 2 * s & 3) - 1,
                        s,
                    )
                )
        if not nxt:  # fewer than four moves possible: the last level reached is it
            return [node[0] for node in frontier] if _depth else []
        frontier = nxt
    last = [
        code << 5 | s
        for code, landed, _arr, left, ms in frontier
        for s in _bits((occ | landed) & open_src & ((2 << ms) - 1 if left else (1 << ms) - 1))
    ]
    return last or [node[0] for node in frontier]


def double_plays(b: int, occ: int, blocked: int, blots: int, d: int) -> dict[int, None]:
    """Result keys of every legal play of a double: as many moves as possible.

    Moves are generated with non-increasing source points, so each multiset of moves is
    tried once (a later move from a lower point never enables or blocks an earlier move
    from a higher one: it changes only points below its source and the opponent's bar).
    """
    best = 0
    found: dict[int, None] = {}
    frontier: list[tuple[int, int, int, int]] = [(b, occ, 0, BAR)]
    for depth in range(1, 5):
        nxt = []
        seen: set[tuple[int, int, int]] = set()
        for cb, co, ch, ms in frontier:
            for s, _t, nb, no, nh in steps(cb, co, ch, d, blocked, blots, ms):
                key = (nb, nh, s)
                if key not in seen:
                    seen.add(key)
                    nxt.append((nb, no, nh, s))
        if not nxt:
            break
        best = depth
        frontier = nxt
    if best:
        for cb, _co, ch, _ms in frontier:
            found[(cb << KEY_SHIFT) | ch] = None
    return found


def resulting_position(pos: Position, b: int, hits: int) -> Position:
    """The position after the roller's checkers became b, with the opponent on roll."""
    theirs = pos.theirs
    while hits:
        low = hits & -hits
        hits ^= low
        t = low.bit_length() - 1
        theirs += (1 << 4 * BAR) - (1 << 4 * (BAR - t))  # their point 25 - t -> their bar
    return _new_position(Position, (theirs, b))


class Play(tuple[Any, ...]):
    """One legal full play: a start position, the dice, and where it leads.

    A plain tuple, so that a turn's dozens of plays are built in C (map, product) without
    a Python call each: ((start, dice), key) with key = (b << 25) | hits the search's own
    result key or, below 1 << 25, a _fast_double_plays code; or ((start, dice), x, y) from
    _fast_single_plays. ``.key`` gives the result key either way; boards are worked out
    only for the plays asked about. Within one ``legal_plays`` answer plays are distinct
    by resulting position. ``str(play)`` is standard notation, worked out on demand.
    """

    __slots__ = ()

    @property
    def start(self) -> Position:
        start: Position = self[0][0]
        return start

    @property
    def dice(self) -> tuple[int, int]:
        dice: tuple[int, int] = self[0][1]
        return dice

    @property
    def key(self) -> int:
        """The search's result key, (b << 25) | hits."""
        pos: Position
        code: int
        if len(self) == 3:
            (pos, (d1, d2)), x, y = self
            return _pair_key(pos, d1, d2, x, y)
        (pos, (d1, _d2)), code = self
        if code >> KEY_SHIFT:
            return code
        return _compact_key(pos, d1, code)

    @property
    def after(self) -> Position:
        """The resulting position, opponent on roll."""
        key = self.key
        return resulting_position(self[0][0], key >> KEY_SHIFT, key & HITS_MASK)

    def moves(self) -> list[tuple[int, int, bool]]:
        """One sequence of single-die moves (from, to, hit) that makes this play; points
        are the mover's, 25 = bar, 0 = off."""
        pos, (d1, d2) = self[0]
        return list(_move_paths(pos, d1, d2)[self.key])

    def __str__(self) -> str:
        return format_moves(self.moves())

    def __repr__(self) -> str:
        d1, d2 = self[0][1]
        return f"<Play {self} with {d1}-{d2}>"


def _check_dice(dice: tuple[int, int]) -> tuple[int, int]:
    try:
        d1, d2 = dice
    except (TypeError, ValueError):
        raise ValueError(f"dice must be two numbers 1..6, not {dice!r}") from None
    if not (type(d1) is int and type(d2) is int and 1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise ValueError(f"dice must be two numbers 1..6, not {dice!r}")
    return d1, d2


def _plays(pos: Position, d1: int, d2: int) -> list[Play]:
    """Each shortcut where its precondition holds; the general search (single_plays,
    double_plays) for everything else and wherever a non-double's shortcut hands the
    roll back. The search is the reference: tests/engine/backgammon/test_fast_paths.py
    checks every shortcut against it and asserts which part answered."""
    blocked, blots = opponent_masks(pos.theirs)
    b = pos.mine
    occ = occupied(b)
    ctx = (pos, (d1, d2))
    found: Iterable[int]
    if d1 == d2:
        on_bar = b >> 4 * BAR
        # Checkers outside the home board once the bar has entered (entering lands
        # outside it) against moves left: with at least as many, no bearing off.
        if on_bar < 4 and _outside(b) + 2 * on_bar >= 4:
            found = _fast_double_plays(b, occ, blocked, d1, on_bar)
        else:
            found = double_plays(b, occ, blocked, blots, d1)
    else:
        if not occ >> BAR:
            if _outside(b) >= 2:
                plays = _fast_single_plays(ctx, b, occ, blocked, blots, d1, d2)
                if plays:
                    return plays
        elif b >> 4 * BAR == 1:
            plays = _fast_bar_single_plays(ctx, occ, blocked, blots, d1, d2)
            if plays:
                return plays
        found = single_plays(b, occ, blocked, blots, d1, d2)
    return list(map(Play, zip(repeat(ctx), found)))


_ROLLS = {(a, b): (max(a, b), min(a, b)) for a in range(1, 7) for b in range(1, 7)}
# The last listing: a Game lists the plays when the dice fall, then finds the chosen one
# among the same listing. One entry compared by hand costs less than an lru_cache, whose
# key hashes the Position in Python and whose links the garbage collector walks; a
# larger cache was measured to lose (bench/backgammon.py). Replaced in one assignment,
# so a reader in another thread sees an old or a new entry, never a torn one.
_NO_POSITION = _new_position(Position, (0, 0))
_last: tuple[Position, tuple[int, int] | None, list[Play]] = (_NO_POSITION, None, [])


def clear_caches() -> None:
    """Forget the last listing and the notation searches (for benchmarks and tests)."""
    global _last
    _last = (_NO_POSITION, None, [])
    _move_paths.cache_clear()


def legal_plays(pos: Position, dice: tuple[int, int]) -> list[Play]:
    """Every legal full play for the player on roll (BG-3..BG-9), one per resulting
    position; [] when the roll cannot be played at all (BG-8 closed board, BG-6)."""
    global _last
    try:
        got = _ROLLS.get(dice) if type(dice) is tuple else None
    except TypeError:  # unhashable parts
        got = None
    if got is None or type(dice[0]) is not int or type(dice[1]) is not int:
        got = _ROLLS[_check_dice(dice)]  # raises saying what is wrong
    last_pos, last_roll, plays = _last
    if last_roll is not got or last_pos.mine != pos.mine or last_pos.theirs != pos.theirs:
        plays = _plays(pos, *got)
        _last = (pos, got, plays)
    return list(plays)


@lru_cache(maxsize=32)
def _move_paths(pos: Position, d1: int, d2: int) -> dict[int, tuple[tuple[int, int, bool], ...]]:
    """For every result key reachable with this roll, the first single-die move sequence
    that reaches it, in a fixed search order: the higher die first, lower source points
    first. One search serves the notation of every play of the roll."""
    blocked, blots = opponent_masks(pos.theirs)
    first: dict[int, tuple[tuple[int, int, bool], ...]] = {}

    def search(
        cb: int,
        co: int,
        ch: int,
        order: tuple[int, ...],
        path: tuple[tuple[int, int, bool], ...],
        seen: set[tuple[int, int, int]],
    ) -> None:
        depth = len(path)
        if depth == len(order):
            return
        for s, t, nb, no, nh in steps(cb, co, ch, order[depth], blocked, blots):
            if (nb, nh, depth) in seen:  # explored already, and found first there
                continue
            seen.add((nb, nh, depth))
            step = (*path, (s, t, bool(((nh ^ ch) >> t) & 1) if t else False))
            first.setdefault((nb << KEY_SHIFT) | nh, step)
            search(nb, no, nh, order, step, seen)

    for order in [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]:
        search(pos.mine, occupied(pos.mine), 0, order, (), set())
    return first


# --- notation ---------------------------------------------------------------------------
def _pt(p: int) -> str:
    return "bar" if p == BAR else "off" if p == OFF else str(p)


def format_moves(moves: list[tuple[int, int, bool]]) -> str:
    """GNU Backgammon style: one checker's moves are joined ("24/13"), a hit is starred
    where it happens ("24/18*/13"), identical moves are counted, a hit among them marking
    the group ("13/7(2)", "13/11*(2)")."""
    chains: list[list[tuple[int, bool]]] = []  # [(point, hit_on_landing)], first = start
    for s, t, hit in sorted(moves, key=lambda m: (-m[0], -m[1])):
        for ch in chains:
            if ch[-1][0] == s and s != OFF:
                ch.append((t, hit))
                break
        else:
            chains.append([(s, False), (t, hit)])
    groups: dict[tuple[int, ...], list[bool]] = {}  # full path -> hit at each landing
    counts: dict[tuple[int, ...], int] = {}
    for ch in chains:
        path = tuple(p for p, _ in ch)
        hits = [h for _, h in ch]
        old = groups.get(path)
        groups[path] = hits if old is None else [a or b for a, b in zip(old, hits, strict=True)]
        counts[path] = counts.get(path, 0) + 1
    out = []
    for path, hits in groups.items():
        pts = [_pt(path[0])]
        for i in range(1, len(path)):
            if hits[i]:
                pts.append(_pt(path[i]) + "*")
            elif i == len(path) - 1:
                pts.append(_pt(path[i]))
        text = "/".join(pts)
        out.append(text if counts[path] == 1 else f"{text}({counts[path]})")
    return " ".join(out)


_TOKEN = re.compile(r"^((?:bar|off|\d{1,2})\*?(?:/(?:bar|off|\d{1,2})\*?)+)(?:\((\d)\))?$")


def _parse_point(text: str) -> int:
    text = text.rstrip("*")
    if text == "bar":
        return BAR
    if text == "off":
        return OFF
    p = int(text)
    if not 0 <= p <= 25:
        raise IllegalMove(f"no point {p} on the board")
    return p


def parse_notation(text: str) -> list[tuple[int, int, bool]]:
    """Notation -> segments (from, to, starred), one per checker movement written.

    "24/18*/13" -> [(24, 18, True), (18, 13, False)]; "13/7(2)" -> two (13, 7, False).
    """
    segments: list[tuple[int, int, bool]] = []
    tokens = text.lower().replace(",", " ").split()
    if not tokens:
        raise IllegalMove("empty move: write it like '8/3 6/3' or 'bar/22*'")
    for tok in tokens:
        m = _TOKEN.match(tok)
        if not m:
            raise IllegalMove(f"cannot read {tok!r}: write moves like '13/7', 'bar/22*', '6/off'")
        pts = m.group(1).split("/")
        times = int(m.group(2) or 1)
        if not 1 <= times <= 4:
            raise IllegalMove(f"{tok!r}: a move can be repeated at most 4 times")
        chain = [(_parse_point(p), p.endswith("*")) for p in pts]
        for (a, _), (c, star) in pairwise(chain):
            if a == OFF:
                raise IllegalMove(f"{tok!r}: a checker borne off cannot move again")
            if c == BAR:
                raise IllegalMove(f"{tok!r}: a checker cannot move to the bar")
            if c >= a:
                raise IllegalMove(f"{tok!r}: checkers move forward only (from {a} to {c})")
            segments.extend([(a, c, star)] * times)
    if len(segments) > 4:
        raise IllegalMove(f"{text!r} makes more than four moves")
    return segments


def _realize(
    pos: Position, dice: tuple[int, int], segments: list[tuple[int, int, bool]]
) -> set[int]:
    """Every result key that the written segments can mean with these dice.

    The segments' single steps may interleave: in "bar/15(2)" with 5-5 both checkers
    enter before either moves on, and in "8/off 7/off" with 4-4 both reach home before
    either bears off.
    """
    blocked, blots = opponent_masks(pos.theirs)
    d1, d2 = dice
    results: set[int] = set()

    def walk(
        cb: int, co: int, ch: int, pool: tuple[int, ...], todo: tuple[tuple[int, int], ...]
    ) -> None:
        if not todo:
            results.add((cb << KEY_SHIFT) | ch)
            return
        for i, (here, goal) in enumerate(todo):
            if (here, goal) in todo[:i]:
                continue
            for j, d in enumerate(pool):
                if d in pool[:j]:
                    continue
                for s, t, nb, no, nh in steps(cb, co, ch, d, blocked, blots):
                    if s == here and t >= goal:
                        moved = () if t == goal else ((t, goal),)
                        rest = (*todo[:i], *moved, *todo[i + 1 :])
                        walk(nb, no, nh, pool[:j] + pool[j + 1 :], rest)

    pool = (d1,) * 4 if d1 == d2 else (d1, d2)
    walk(pos.mine, occupied(pos.mine), 0, pool, tuple((a, c) for a, c, _ in segments))
    return results


def find_play(pos: Position, dice: tuple[int, int], text: str) -> Play:
    """The legal play that ``text`` writes, or IllegalMove saying why not."""
    segments = parse_notation(text)
    plays = legal_plays(pos, dice)
    if not plays:
        raise IllegalMove(f"no legal play with {dice[0]}-{dice[1]}: the turn passes")
    by_result = {p.key: p for p in plays}
    realized = _realize(pos, dice, segments)
    if not realized:
        raise IllegalMove(
            f"{text!r} cannot be played with {dice[0]}-{dice[1]} in this position "
            "(a landing point is blocked, a number does not fit, or checkers on the bar "
            "must enter first)"
        )
    legal = [key for key in realized if key in by_result]
    if not legal:
        raise IllegalMove(
            f"{text!r} is not a legal full play with {dice[0]}-{dice[1]}: you must use both "
            "numbers if you can, the higher one if only one fits, and as many of a double "
            "as possible"
        )
    if len(legal) > 1:
        # "24/13" may pass an open point or hit a blot on the way: the stars decide.
        starred = 0
        for _a, c, star in segments:
            if star:
                starred |= 1 << c
        legal = [key for key in legal if key & HITS_MASK == starred]
        if len(legal) != 1:
            raise IllegalMove(
                f"{text!r} is ambiguous with {dice[0]}-{dice[1]}: write the intermediate "
                "point, and mark hits with '*'"
            )
    return by_result[legal[0]]


def apply(pos: Position, play: Play | str, dice: tuple[int, int] | None = None) -> Position:
    """The position after ``play``, with the opponent on roll.

    ``play`` is a Play from legal_plays(pos, …) or notation. With notation and no dice,
    the dice are inferred from the notation when only one roll fits.
    """
    if isinstance(play, Play):
        if play.start != pos:
            raise IllegalMove(f"{play} was generated for another position")
        return play.after
    if not isinstance(play, str):
        raise IllegalMove(f"a play is a Play or notation, not {type(play).__name__}")
    if dice is not None:
        return find_play(pos, _check_dice(dice), play).after
    parse_notation(play)  # a spelling mistake is reported as such, not per roll
    fits: set[Position] = set()
    errors: list[str] = []
    for d1 in range(6, 0, -1):
        for d2 in range(d1, 0, -1):
            try:
                fits.add(find_play(pos, (d1, d2), play).after)
            except IllegalMove as e:
                errors.append(str(e))
    if len(fits) == 1:
        return fits.pop()
    if not fits:
        for why in errors:
            if "ambiguous" in why:
                raise IllegalMove(why)
        raise IllegalMove(f"{play!r} is not a legal play with any roll in this position")
    raise IllegalMove(f"{play!r} fits several rolls here; give the dice")
