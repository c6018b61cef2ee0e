"""Settings modules: base (shared), dev (make run), test, production."""
