"""Playing many games by agents and measuring the rules: `rulecraft simulate`."""
