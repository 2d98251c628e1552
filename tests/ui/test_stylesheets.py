"""The A.R.T. Project's and The Gallerist's styles live in their own stylesheet
(ui/games/art_gallerist.tcss), added when one of their screens is first shown: a console
starting on Gallery Grippers neither parses nor matches them (issue 41), and a console whose
first screen is one of those games' has them from its first frame (Textual does not load the
first screen's own CSS_PATH: GameScreens.stylesheets)."""

from __future__ import annotations

from typing import Any

from referee.session import Session
from tests.ui.conftest import SIZE, keys
from tests.ui.test_art_console import choose_art, drawn
from tests.ui.test_gallerist_table_view import four_players
from ui.app import make_app
from ui.games import OTHER_GAMES_CSS


def sheets(app: Any) -> set[str]:
    return {path for path, _ in app.stylesheet.source}


async def test_gallery_grippers_start_has_not_the_other_games_styles() -> None:
    app = make_app(Session())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert OTHER_GAMES_CSS not in sheets(app)
        assert any(path.endswith("console.tcss") for path in sheets(app))
        await choose_art(pilot, app)  # F2: the A.R.T. Project's form brings them in
        assert OTHER_GAMES_CSS in sheets(app)
        form = app.screen.query_one("#art-newgame")
        assert form.styles.padding.left == 1  # (its rule applies)


async def test_a_first_screen_of_another_game_is_styled_from_its_first_frame() -> None:
    for app, widget in ((make_app(drawn()), "#art-phases"),
                        (make_app(four_players()), "#gal-info"),
                        (make_app(Session(), game="gallerist"), "#gal-newgame")):
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            if widget != "#gal-newgame":
                await keys(pilot, "r")  # resume
            assert OTHER_GAMES_CSS in sheets(app)
            assert app.screen.query_one(widget).styles.padding.left == 1, widget
