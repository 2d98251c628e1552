"""Gallery Grippers (gallery-grippers-rules.md): the only place its rules live.

`RULESET` is the game as the core runs it; the registry (`referee.games`) finds it through the
``tableside_referee.games`` entry point, never by importing this package by name.
"""

from referee.games.gallery_grippers.ruleset import RULESET

__all__ = ["RULESET"]
