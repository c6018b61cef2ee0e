"""Amigos por el Dominó: rules engine, computer players and online platform for partnership dominoes."""

__version__ = "0.1.0"
