"""amigos.recreo."""
