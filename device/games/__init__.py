"""Each game's box screens and flows, one package a game (found by the game's id through the
``tableside_referee.oled_screens`` entry points: the controller imports none of them)."""
