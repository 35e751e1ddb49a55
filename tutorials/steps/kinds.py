"""Every kind of lesson step of both games, by class name. A module of its own: in base it
would import the games' modules, which import base.
"""

from __future__ import annotations

from tutorials.steps.backgammon import (
    BgCanMove,
    BgCubeValue,
    BgMayI,
    BgMove,
    BgPips,
    BgPlay,
    BgTakeOrDrop,
)
from tutorials.steps.base import Step
from tutorials.steps.courtpiece import (
    ChooseAction,
    CountTrumps,
    HandOutcome,
    IsOver,
    MayI,
    PickWinner,
    PlayCard,
    SpotRenege,
    TrumpSuit,
    WhoIsToMove,
)

STEP_KINDS: dict[str, type[Step]] = {
    cls.__name__: cls
    for cls in (
        PlayCard,
        ChooseAction,
        MayI,
        PickWinner,
        CountTrumps,
        TrumpSuit,
        HandOutcome,
        IsOver,
        WhoIsToMove,
        SpotRenege,
        BgPlay,
        BgMove,
        BgCanMove,
        BgPips,
        BgMayI,
        BgCubeValue,
        BgTakeOrDrop,
    )
}
