"""Words for the console that every game's screens share: game data made safe for markup,
and a refusal as one line. Each game's own wording lives beside its screens
(`ui/games/<game>/`, e.g. Gallery Grippers' `ui.games.gallery_grippers.format`)."""

from __future__ import annotations

from referee.errors import Refusal


def escape(text: str) -> str:
    """Game data (a name, a card, a colour) made safe to put into markup: written as it is,
    never read as a tag. A backslash at the end would escape the tag that follows it, so a
    zero-width space (drawn as nothing) keeps them apart."""
    text = text.replace("[", r"\[")
    return text + "\u200b" if text.endswith("\\") else text


def refusal_text(refusal: Refusal) -> str:
    """A refusal as the table reads it: the rule it cites and its words. The code is for
    programs (the protocol's answer carries it), not for the table."""
    rule = f"{refusal.rule} " if refusal.rule else ""
    return f"✗ {rule}{refusal.message}"
