"""The A.R.T. Project on the box: its OLED screens and what each button does on them
(`oled`; `oled.OLED` is what the controller finds, entry point ``art-project`` in
``tableside_referee.oled_screens``)."""
