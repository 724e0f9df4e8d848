"""The actions a step can take: roll, maneuver, melee, missile."""
