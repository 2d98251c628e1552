"""The Textual console (issue #4): see docs/console.md."""
