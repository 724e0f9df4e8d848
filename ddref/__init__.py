"""ddref: the Dragon Dice rules reference (command line)."""

__version__ = "0.1.0"
