"""Validating rules: generic properties, the author's invariants and scenarios, exploration."""
