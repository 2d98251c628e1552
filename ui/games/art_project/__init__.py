"""The A.R.T. Project's console screens: the table, the dialogs for each decision the rules
hold open, the board entry, the new-game form and the player aid. `screens.SCREENS` is what the
app finds (entry point ``art-project`` in ``tableside_referee.screens``)."""
