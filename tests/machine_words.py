"""What counts as a machine word shown to players, and what each front end shows of a session
as plain text (tests/test_machine_words.py, issue 39: "every surface speaks the table's
language").

A machine word is a word of the programs, not of the table: a snake_case identifier (a
refusal's code, a command or phase name, a house-rule key or value: ``final_scoring``,
``no_kickout_final_round``, ``draw_visitor``), a code in brackets (``[seed_revealed]``), a
house-rule value that is an abbreviation (``rps``), a raw card id of The A.R.T. Project
(``c5``), a bare log position ("step 42" with nothing saying what it was). A rule id
("GAL-15") may stay, next to words.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from referee.errors import Refusal
from referee.session import Session

SNAKE = re.compile(r"(?<![\w./\\-])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w/\\-])")

ABBREVIATIONS = re.compile(r"\brps\b|\bhq\b")

DIE_ID = re.compile(r"(?<![\w-])ally\d\b")  # The A.R.T. Project's ally dice's ids
CARD_ID = re.compile(r"(?<![\w-])c\d+\b")  # its mission cards' ids (the table reads "card 5")
BARE_STEP = re.compile(r"\bUndone: step \d+(?=$|[;.,])")  # says nothing of what was undone
PLAIN_NAMES = ("Fourth location",)  # the built-in catalog's stand-in for the Sales Office


def machine_words(text: str) -> list[str]:
    """Every machine word in `text` (empty when it is all the table's words)."""
    found: list[str] = []
    for pattern in (SNAKE, ABBREVIATIONS, DIE_ID, CARD_ID, BARE_STEP):
        found += [m.group(0) for m in pattern.finditer(text)]
    found += [n for n in PLAIN_NAMES if n in text]
    return found


@dataclass
class Shown:
    """What the front ends showed, surface by surface, and the machine words in it."""

    found: dict[str, set[str]] = field(default_factory=dict)  # word -> where (surface: text)

    def add(self, surface: str, text: str) -> None:
        for line in text.splitlines():
            for word in machine_words(line):
                self.found.setdefault(word, set()).add(f"{surface}: {line.strip()[:160]}")

    def report(self) -> str:
        return "\n".join(f"{word!r}: {sorted(where)[:3]}" for word, where in
                         sorted(self.found.items()))


# ---- the surfaces, as text ----------------------------------------------------------------

def page_text(s: Session) -> str:
    """The phone page's HTML as the reader sees it: tags out, entities read."""
    from web import page
    from web.view import Snapshots

    body = page.body(Snapshots().snapshot(s))
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    body = re.sub(r"<br\s*/?>|</(p|li|tr|div|h\d|section|dt|dd)>", "\n", body)
    body = re.sub(r"<[^>]+>", " ", body)
    return html.unescape(body)


def log_text(s: Session) -> str:
    """The log as every front end words it (`referee.words.step_words`), and what undoing
    each standing step would take back."""
    from referee.words import step_words

    out = []
    for entry in s.log:
        out.append(step_words(s.ruleset, entry.command, entry.events))
        if not entry.undone:
            out.append(s.ruleset.undo_words(entry.command, entry.events))
    return "\n".join(out)


def code_as_words(refusal: Refusal, said: str) -> bool:
    """Whether `said` makes the refusal's code into words beside its own ("GAL-15 no
    kickout final round" for ``no_kickout_final_round``): the code's words more often in
    refusal's head (the line the console starts with ✗, the box with !!) than in its
    message."""
    words = re.compile(rf"\b{re.escape(refusal.code.replace('_', ' '))}\b", re.I)
    head = "\n".join(line for line in said.splitlines() if line.startswith(("✗", "!!")))
    return "_" in refusal.code and (len(words.findall(head))
                                    > len(words.findall(refusal.message)))


def console_refusal(refusal: Refusal) -> str:
    from ui.format import refusal_text

    return refusal_text(refusal)


def box_refusal(s: Session, refusal: Refusal) -> str:
    """The box's screen after a refusal (its notice), as the console's box panel says it."""
    from device.box import BoxController

    box = BoxController(s, idle_s=None, clock=lambda: 0.0)
    try:
        box._refused(refusal)
        return box.view().text()
    finally:
        box.close()


def box_walk(s: Session, presses: Iterable[tuple[str, bool]]) -> list[str]:
    """The box's screen (its words, before drawing) after each press of `presses`."""
    from device.box import BoxController

    clock = [0.0]
    box = BoxController(s, idle_s=None, clock=lambda: clock[0])
    seen = []
    try:
        seen.append(box.view().text())
        for button, long in presses:
            box.press(button, long)
            clock[0] += 0.5
            seen.append(box.view().text())
    finally:
        box.close()
    return seen


def refused(s: Session, requests: Iterable[dict[str, Any]]) -> list[Refusal]:
    """The refusals of `requests` in this state (nothing is applied)."""
    from referee.errors import BadRequest

    out = []
    for request in requests:
        if request.get("cmd") in ("undo", "reveal", "state"):  # the core's, not the rules'
            continue
        try:
            command = s.ruleset.parse({k: v for k, v in request.items() if k != "game"})
        except BadRequest:
            continue
        refusal = s.refusal(command)
        if refusal is not None:
            out.append(refusal)
    return out


def settings_text(ruleset_id: str) -> str:
    """Every house rule of a game, with each of its values, as the table reads them."""
    from referee.games import ruleset as find

    rules = find(ruleset_id)
    lines = []
    for setting in rules.house_rules():
        for value in setting.values:
            lines.append(f"{setting.name}: {setting.value_words(value)} — "
                         f"{setting.explain(value)}")
    return "\n".join(lines)
