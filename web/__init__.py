"""The page for phones at the table (`referee run --web`; docs/web.md): a live, read-only view
of the game, served by the box on its own event loop."""
