"""The kinds of lesson step, each asking the engine for its answer: what every step shares
in base, each game's steps in courtpiece and backgammon, both games' kinds by name in kinds.
"""
