"""Gallery Grippers' console screens: the table and its widgets, a turn's dialogs, the
decisions the rules hold open, the hands, the new-game form and the player aid.
`screens.SCREENS` is what the app finds (entry point ``gallery-grippers`` in
``tableside_referee.screens``)."""
