"""Accounts: the player's identity, sign-in with throttling, idle sign-out and suspensions."""
