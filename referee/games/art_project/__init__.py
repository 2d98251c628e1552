"""The A.R.T. Project (the-art-project-rules.md): a cooperative game, refereed by phases.

`RULESET` is the game as the core runs it; the registry (`referee.games`) finds it through the
``tableside_referee.games`` entry point ``art-project``.
"""

from referee.games.art_project.ruleset import RULESET

__all__ = ["RULESET"]
