"""The match archive: every match played on the site or imported, its players, its statistics and
the PR rating that complete Amigos matches feed."""
