"""F1 at The A.R.T. Project's table: a short player aid in the project's own words (the round,
the two strengths of a battle, how the game is won and lost), the house rules in force and
every key."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Markdown

from referee.games.art_project.settings import ArtRules
from ui.base import Dialog, KeyBar, either_case, house_rules_markdown
from ui.games import OtherGameStyles

GAME = "art-project"

AID = """\
# The A.R.T. Project — player aid

The box keeps the team's counts: the van and the reserve, everyone's health, the agents, lost
cities, the clue chain, the artwork track and the ally dice. Mission cards stay secret: the box
only counts them. Whatever is paid and cannot be paid in tokens is paid in health (the golden
rule), and the box says who paid what.

## A round, phase by phase
1. **A — Mission** (ART-10..15). Every player makes the draws owed (two; three in solo), one
   at a time. Until the first card is played, a player may pay one token (health only once the
   van has no fuel, radio or weapon left) for one more draw. Then each player plays one card
   (two in solo) and enters what it shows: the cost, the agents and where they go, what it
   gives, its clue symbols. Three matching clues in the chain uncover an artwork.
2. **B — Movement** (ART-16, 17). A step along a road costs one fuel from the van; with no
   fuel left, the player moving pays a health token instead. Nobody enters or crosses a lost
   city. When the phase ends, artwork is collected wherever a pawn
   stands and no agent does.
3. **C — Battle** (ART-19..23). One battle at a time, at most one per city per round.
   - The team's strength: the leader's die, the unlocked ally dice, each other player's die
     in that city, plus 2 for each weapon added.
   - The agents' strength: the agents in the city, the threat of the track's next free space
     and the agents at headquarters.
   - Equal or more wins at once. Below it, the team rerolls (a clue card from the chain: one
     die per symbol), adds a weapon, or concedes (the leader loses one health).
4. **D — End of round** (ART-24, 25). Every city with five or more agents is lost. If this was
   the round of the final card and the track is not full, the team has lost.

Between two phases (A/B, B/C, C/D) radio tokens unlock an ally die, at the cost shown by the
track's next free space (ART-18); health tokens, from whoever the team chooses, pay for the
radio the van lacks. Every list of actions shows who would pay what.

## Winning and losing
- **Won** when the last space of the artwork track is filled (ART-26).
- **Lost** at once (ART-27) when a player's last health goes, an agent must be placed and none
  is left, a lost-city marker is needed and none is left, a pawn must leave a lost city and
  cannot, or the final round ends without the win (some boards add their own way to lose).
"""

KEYS = """\
## Keys
- Table: **A** everything that can be done now · **D** draw · **P** play a card · **M** move ·
  **B** battle · **U** unlock an ally die · **E** end the phase · **X** an extra draw ·
  **S** place the set-up agents · **C** give a clue card · **G** the result (game over) ·
  **O** the box · **Ctrl+N** new game.
- Everywhere: **F1** this aid · **Ctrl+Z** undo (it says first what it takes back; not after
  the end: the result stands) · **Ctrl+Q** quit · **Esc** closes a dialog (a decision the
  rules hold open closes only when answered, or undone).
- In a battle: **R** reroll (Space marks a die) · **W** weapon · **C** concede; both sums
  are shown term by term.
- The log under the table says what happened, newest first; an undone step is struck
  through. On the map, ✦ marks a city's artwork and LOST a lost city.
"""


class ArtHelpScreen(OtherGameStyles, Dialog[None]):
    """The A.R.T. Project's player aid, the house rules in force and every key."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Close"), Binding("f1", "cancel", "Close"),
        Binding(either_case("q"), "cancel", "Close", show=False),
    ]

    def compose(self) -> ComposeResult:
        session = self.referee.session
        if session.ruleset.id == GAME and getattr(session.state, "phase", "") != "no_game":
            rules, which = session.state.rules, house_rules_markdown(session.state.rules)
        else:  # a new game's form: the rules a game starts with unless the form changes them
            table = session.house_rules  # (--rules: the settings of the session's own game)
            rules = table if isinstance(table, ArtRules) else ArtRules()
            which = house_rules_markdown(rules).replace(
                "## House rules in force", "## House rules (a new game's, unless changed)", 1)
        with VerticalScroll(id="rules"):
            yield Markdown(AID + "\n" + which + "\n\n" + KEYS, id="art-aid")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#rules").focus()
