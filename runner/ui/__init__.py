"""Front ends: thin adapters over the engine's events."""
