"""The Gallerist (the-gallerist-scoring.md): a worker-placement game the box keeps the clock
and the score of; it records what the table does and never resolves an action.

`RULESET` is the game as the core runs it; the registry (`referee.games`) finds it through the
``tableside_referee.games`` entry point ``gallerist``.
"""

from referee.games.gallerist.ruleset import RULESET

__all__ = ["RULESET"]
