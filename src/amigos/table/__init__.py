"""amigos.table."""
