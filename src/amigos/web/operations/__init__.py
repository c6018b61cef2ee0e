"""What an operator needs of a running server: health, readiness, metrics, logs, backups.

Nothing here decides anything about the game; it watches the process (`metrics`, `draining`),
shapes its logs (`logs`) and copies its database (`backup`). It imports none of the apps: they
touch its figures and its log context, and the endpoints that read them all at a scrape live above
every app (`amigos.web.probes`). See docs/deploy.md.
"""
