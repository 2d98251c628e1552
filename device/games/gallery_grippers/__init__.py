"""Gallery Grippers on the box: its OLED screens (`screens`), what each button does on each of
them (`actions`), the balanced deal (`dealing`). `oled.OLED` is what the controller finds
(entry point ``gallery-grippers`` in ``tableside_referee.oled_screens``)."""
