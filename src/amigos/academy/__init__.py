"""amigos.academy."""
