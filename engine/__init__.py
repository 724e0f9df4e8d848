"""The Dragon Dice rules engine: pure functions over frozen game state."""
