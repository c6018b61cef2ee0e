"""amigos.engine."""
