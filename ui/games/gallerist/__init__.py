"""The Gallerist's console screens: the table with the list of what the rules wait for, the
dialogs that record what the table did, and the new-game form. `screens.SCREENS` is what the
app finds (entry point ``gallerist`` in ``tableside_referee.screens``)."""
