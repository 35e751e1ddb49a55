"""The ``medium`` Court Piece bot: the rule-based bot (:mod:`.rulebased`) with its leads
corrected (see :class:`MediumPlay`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import rulebased
from .rulebased import Play


class MediumPlay(Play):
    """The rule-based play with the leads corrected."""


def choose(view: Mapping[str, Any]) -> str:
    """The medium bot's action for the view (see :func:`.rulebased.choose`)."""
    return rulebased.choose(view, MediumPlay)
