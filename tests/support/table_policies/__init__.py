"""Choice policies for playing a battle from `awaiting` (and `reach`) alone, one module per
ruleset, each with `choose(prompt, reach, rng) -> command as JSON` and `pick(prompts, rng)`;
`play` holds the in-process loop with table dice that the unit tests share."""
