"""Choice policies that play a battle from its `awaiting` prompts alone (issue 34): one
module per ruleset, each with `choose(prompt, reach, rng) -> dict` (a command as JSON),
shared by the domain play-throughs and the HTTP ones."""
