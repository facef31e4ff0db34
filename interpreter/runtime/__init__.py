"""What generated rule code calls while a game runs: chance, errors, helpers. Imports nothing else of rulecraft."""
