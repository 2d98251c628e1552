"""Gallery Grippers: its rules, commands, state, catalog and house rules (gallery-grippers-rules.md)."""
