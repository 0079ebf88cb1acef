"""Sensing: magnetometer frames in, `land` / `leave` / `fault` events out.

    from sense.pipeline import Pipeline
    p = Pipeline(board_def, sink)      # board definition dict, sink(event dict)
    p.feed(frame, t_ms)                # one frame of counts in channel order

sense.pipeline wires the stages (health, frames, decide, battles, identify,
occupants; docs/sensing-pipeline.md) and is the only interface callers use.
The per-frame path (sense.health, sense.frames) is integer-only and
allocates nothing in steady state; the maths done only when something
happens: the kernel fit in sense.fit (its loops in sense.fitkernels,
viper, or sense.fitplain), the naming in sense.signature.
"""
