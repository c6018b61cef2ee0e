"""English: 28 Nov 2026, 09:20 (the day first and the month in letters: never 11/28 against 28/11)."""

DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"
