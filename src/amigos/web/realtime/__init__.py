"""The socket tier: one WebSocket endpoint, a JSON envelope, presence, and the message bus."""
