"""What an operator needs of a running server: health, readiness, metrics, logs, backups.

Nothing here decides anything about the game; it watches the process (`endpoints`, `metrics`,
`draining`), shapes its logs (`logs`) and copies its database (`backup`). See docs/deploy.md.
"""
