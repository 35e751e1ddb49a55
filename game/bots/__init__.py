"""Bots: players that see only their seat's ``view`` (so they cannot cheat by construction).

Pure Python beside the engines, under the same purity check (no Django, no I/O, no clock,
no global random state): ``game.bots.courtpiece`` (docs/ENGINE_CONTRACT.md). Each game's
registration (game.tables.registry) says which bot plays its seats.
"""
