"""What the referee property tests (tests/host/test_*properties*.py) share:
feeding a stream of random input events with the invariants that hold for
every mode checked after each one, plus `canon` for comparing states."""
import referee


def canon(x):
    """Dicts as sorted item lists, so states compare whatever their dict order."""
    if isinstance(x, dict):
        return sorted((repr(k), canon(v)) for k, v in x.items())
    if isinstance(x, (list, tuple)):
        return [canon(v) for v in x]
    return x


def feed_stream(hdr, events, check=None, probe=False):
    """Feed events (t rising by 100 ms) to a new game of hdr, then finish.
    After every event: it never raises; a rejected one changed nothing and
    emitted only its `reject`; check(g) holds (the mode family's
    conservation rules); with probe, view() and expects() run too.
    Returns (game, output kinds); the output ends with exactly one `end`."""
    out = []
    g = referee.new_game(hdr, out.append)
    t = 0
    for e in events:
        t += 100
        e = dict(e)
        e["t"] = t
        before = canon(g._save())
        n = len(out)
        ok = g.feed(e)  # must never raise
        if not ok:
            assert canon(g._save()) == before
            assert [o[0] for o in out[n:]] == ["reject"]
        if check is not None:
            check(g)
        if probe:
            g.view()
            g.expects()
    g.finish(t)
    kinds = [o[0] for o in out]
    assert kinds.count("end") == 1 and kinds[-1] == "end"
    return g, kinds
