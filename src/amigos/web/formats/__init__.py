"""One format per language for every moment a page shows (settings.FORMAT_MODULE_PATH).

Django's own formats give Spanish a long and a short form ("28 de noviembre de 2026 a las 09:20",
"28/11/2026 09:20") and English a 12-hour clock ("Nov. 28, 2026, 9:20 a.m."), so one moment read
differently from page to page and from the chat's "09:20". Here the long and short forms are the
same, on a 24-hour clock, in both languages.
"""
