"""The refusal every table write and read may answer with (docs/TABLE_PROTOCOL.md's codes)."""

from __future__ import annotations

from typing import ClassVar


class TableError(Exception):
    """A refusal: ``code`` is docs/TABLE_PROTOCOL.md's (or bad_request, forbidden, conflict,
    not_found, needs_account, not_over), ``message`` says why in English."""

    STATUS: ClassVar[dict[str, int]] = {
        "bad_request": 400, "malformed": 400, "forbidden": 403, "needs_account": 403,
        "not_seated": 403, "not_found": 404, "conflict": 409, "not_your_turn": 409,
        "illegal": 409, "stale": 409, "rate_limited": 429, "not_over": 404,
    }

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.http_status = self.STATUS.get(code, 400)
