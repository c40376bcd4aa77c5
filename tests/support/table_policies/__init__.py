"""Choice policies that play a battle from its prompts alone (issue 34): one module per
ruleset, each with `choose(prompt, reach, rng) -> dict` (a command as JSON), so that a
domain-level play-through and an HTTP one pick their commands the same way."""
