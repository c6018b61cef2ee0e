"""Live tables: where four players (or fewer, with computer players) sit down and play."""
