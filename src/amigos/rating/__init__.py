"""amigos.rating."""
