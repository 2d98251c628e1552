"""The Gallerist on the box: its OLED screens and what each button does on them (`oled`;
`oled.OLED` is what the controller finds, entry point ``gallerist`` in
``tableside_referee.oled_screens``)."""
