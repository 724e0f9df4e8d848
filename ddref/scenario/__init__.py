"""Scenario files: loading YAML safely, validating it, and replaying it under the rules."""
