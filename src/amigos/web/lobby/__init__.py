"""The lobby (Sala de Reunión): who is online, the public chat, the administrator's messages."""
