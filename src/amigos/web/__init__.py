"""amigos.web."""
