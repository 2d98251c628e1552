"""What the console says is in words, never the protocol's machine words (issue 39, item 9):
a refusal line has the rule and the refusal's words, not its code; the Gallerist's heading at
the end says why the winner won in words."""

from __future__ import annotations

from referee.errors import RuleViolation
from ui.format import refusal_text
from ui.games.gallerist.screens import heading


def test_a_refusal_line_has_the_rule_and_the_words_not_the_code() -> None:
    refusal = RuleViolation("In the final round players cannot take kicked-out actions.",
                            code="no_kickout_final_round", rule="GAL-15")
    said = refusal_text(refusal)
    assert said == "✗ GAL-15 In the final round players cannot take kicked-out actions."
    assert "no_kickout_final_round" not in said


def test_the_gallerist_s_heading_at_the_end_says_the_reason_in_words() -> None:
    said = heading({"phase": "over", "result": {"winners": ["Ann"],
                                                "reason": "works_acquired"}})
    assert said == "Game over — Ann (works of art acquired)"
