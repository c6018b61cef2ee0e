"""Test suite; mirrors src/amigos."""
