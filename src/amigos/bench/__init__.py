"""amigos.bench."""
