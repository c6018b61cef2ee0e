"""amigos.bots."""
