"""The live tables: what every game shares (seats, the action log, moves, deadlines,
presence, frames, the socket and the API). A game plugs in through
:mod:`game.tables.registry`; nothing here imports a game."""
