"""Sensing: Hall-sensor frames in, `land` / `leave` / `fault` events out.

    from sense.pipeline import Pipeline
    p = Pipeline(board_def, sink)      # board definition dict, sink(event dict)
    p.feed(frame, t_ms)                # one ADC frame in channel order

sense.pipeline wires the stages (health, frames, decide, battles, identify,
occupants; docs/sensing-pipeline.md) and is the only interface callers use.
The per-frame path (sense.health, sense.frames) is integer-only and
allocates nothing in steady state; the maths done only when something
happens (signature fit, identification) lives in sense.signature.
"""
