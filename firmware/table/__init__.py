"""Play at the table without a laptop: player buttons, inputs inferred from
the sensors, and what each press means in each game state
(docs/table-play.md)."""
