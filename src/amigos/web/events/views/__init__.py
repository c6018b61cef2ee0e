"""Pages of the events app: thin wrappers that parse input, call a service and render."""
