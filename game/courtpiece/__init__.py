"""Court Piece at the live tables (Rung, Hukum and their variants): its registration, its
words, the table's HTML and its own pages. The rules are the engine's
(game.engine.courtpiece); this package only draws them and plugs them in."""
