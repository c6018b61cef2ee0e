"""Recreo events on the site: organizer set-up, tables and score sheets on phones, standings, reports.

The rules live in :mod:`amigos.recreo`; this app stores what people enter and asks the pure core
what it means.
"""
