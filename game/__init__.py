"""Games: the pure rules engines (``game.engine``) and, later, the live tables."""
