"""The games the referee knows: each is a ruleset in its own folder (docs/architecture.md)."""
