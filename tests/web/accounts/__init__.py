"""Tests of the accounts app beyond the basic flows in tests/web/test_accounts.py."""
