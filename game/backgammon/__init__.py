"""Backgammon at the live tables: its registration, the board and move planner, the table's
HTML, GNU Backgammon as the bot (in worker processes), .mat export and its own pages. The
rules are the engine's (game.engine.backgammon)."""
