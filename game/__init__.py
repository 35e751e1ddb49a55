"""Games: the pure rules engines (``game.engine``) and bots (``game.bots``), the live tables
every game shares (``game.tables``, with the app's models), and one package per game
(``game.courtpiece``, ``game.backgammon``). docs/ARCHITECTURE.md draws the layers."""
