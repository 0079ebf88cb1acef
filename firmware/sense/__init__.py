"""Sensing: Hall-sensor frames in, `land` / `leave` / `fault` events out.

    from sense.pipeline import Pipeline
    p = Pipeline(board_def, sink)      # board definition dict, sink(event dict)
    p.feed(frame, t_ms)                # one ADC frame in channel order

The per-frame path (sense.pipeline) is integer-only and allocates nothing in
steady state; the maths done only when something happens (position-corrected
signature fit, identification) lives in sense.signature.
"""
