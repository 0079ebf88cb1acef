"""Game modes: one module each, imported only when a game of that mode starts."""
