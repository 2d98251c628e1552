"""`python -m ui.css_warm`: Textual's stylesheets parsed for every game's first screen and
kept (ui/css_cache.py), as pip writes bytecode: scripts/install-pi, scripts/_venv.sh and the
bench run it. Each installed game's new-game form is drawn headless, as `referee console`
draws it, to a frame after its first, and the table is written whatever
PYTHONDONTWRITEBYTECODE says (as `compileall` writes bytecode)."""

from __future__ import annotations

from typing import Any

from referee.session import Session
from ui import css_cache
from ui.app import make_app
from ui.games import games_with_screens


def warm() -> css_cache.ParsedStyles:
    table = css_cache.install()
    for game, _ in games_with_screens():
        app = make_app(Session(), game=game)

        # The screen's toast rack and tooltip bring their rules in a frame after the first.
        def close(app: Any = app) -> None:
            app.call_after_refresh(lambda: app.call_after_refresh(app.exit))

        app.when_first_screen_drawn(close)
        app.run(headless=True, size=(80, 24))
    table.save()
    return table


if __name__ == "__main__":
    done = warm()
    print(f"textual css: {len(done.stored)} stylesheets in {done.path}")
