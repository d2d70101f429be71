"""The application layer between Discord and the engine: configuration, persistence, deadlines, the game service."""
