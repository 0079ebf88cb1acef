"""Random but plausible games as event logs, from a seed: the official game
(gamegen), the Chinese variant modes (gamegen_cn) and the official extras
modes (gamegen_official)."""
