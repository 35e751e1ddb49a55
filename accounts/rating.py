"""The rating model: openskill's Plackett-Luce with its defaults (mu 25, sigma 25/3).

One module-level instance: the model is stateless apart from its parameters, and the
defaults of ``GameStats.mu`` / ``GameStats.sigma`` must come from the same instance that
rates games.
"""

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
