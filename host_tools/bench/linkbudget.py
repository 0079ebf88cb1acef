"""How much of the serial link a raw sensor stream takes (for `bakumat record`).

    python -m host_tools.bench.linkbudget [--board NAME] [--seconds S]

Encodes simulated frames (a random official game on the board's mat, so
the values look like the real thing: baselines near zero_counts, magnets up
to full scale) as complete protocol v1 `frame` frames: as the board sends
them (the firmware's link.server.Link) and in other body encodings for
comparison, and prints bytes per frame, bytes per second at
the board's rate and the share of a 921600 baud and a 115200 baud line
(8N1: 10 bits per byte).
"""
import argparse
import base64

from host_tools import boards, fwpath

BAUDS = (921600, 115200)


class _Count:
    def __init__(self):
        self.n = 0

    def write(self, data):
        self.n += len(data)


def _board_frames(frames):
    """Bytes of the frames as the board sends them: the firmware's own link
    (link.server.Link.send, protocol v1 `frame`, compact JSON)."""
    from link.server import Link
    port = _Count()
    lk = Link(port, None, tx_size=1 << 16)
    for t, v in frames:
        lk.send("frame", {"t": t, "c": list(v)}, bulk=True)
        lk.drain_all()
    return port.n


def _hex12(t, v):
    return '{"t":%d,"x":"%s"}' % (t, "".join(["%03x" % x for x in v]))


def _b64_12(t, v):
    out = bytearray()
    for i in range(0, len(v) - 1, 2):
        a, b = v[i], v[i + 1]
        out += bytes(((a >> 4) & 0xFF, ((a & 15) << 4) | (b >> 8), b & 0xFF))
    if len(v) % 2:
        a = v[-1]
        out += bytes(((a >> 4) & 0xFF, (a & 15) << 4))
    return '{"t":%d,"b":"%s"}' % (t, base64.b64encode(bytes(out)).decode())


ENCODINGS = (("json as the board sends it (protocol v1 `frame`)", None),
             ("hex, 3 digits per value", _hex12),
             ("base64 of packed 12-bit", _b64_12))


def sample_frames(board, seconds=20, seed=1):
    from host_tools import sim
    sc = sim.random_game(seed, board)
    res = sim.run(board, sc, seed=seed)
    n = int(seconds * board["rate_hz"])
    frames = res.frames
    if len(frames) > n:
        # the busiest stretch: frames from the middle of the game
        k = (len(frames) - n) // 2
        frames = frames[k:k + n]
    return frames


def measure(board, frames):
    fwpath.ensure()
    from link import codec
    rate = board["rate_hz"]
    rows = []
    for name, enc in ENCODINGS:
        total = 0
        if enc is None:
            total = _board_frames(frames)
        for i, (t, v) in enumerate(frames):
            if enc is not None:
                total += len(codec.encode_json(i, "frame", enc(t, v)))
        per_frame = total / float(len(frames))
        bps = per_frame * rate
        rows.append({"encoding": name, "bytes_per_frame": per_frame, "bytes_per_s": bps,
                     "load": dict((b, bps * 10 / b) for b in BAUDS)})
    return rows


def report(board, rows, frames):
    lines = ["board %s: %d channels at %s Hz (%d simulated frames)"
             % (board["name"], len(board["sensors"]), board["rate_hz"], len(frames))]
    lines.append("%-48s %9s %10s %12s %12s" % ("encoding", "B/frame", "B/s", "of 921600", "of 115200"))
    for r in rows:
        lines.append("%-48s %9.1f %10.0f %11.1f%% %11.1f%%" % (
            r["encoding"], r["bytes_per_frame"], r["bytes_per_s"], 100 * r["load"][921600], 100 * r["load"][115200]))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.bench.linkbudget")
    ap.add_argument("--board", default=boards.REFERENCE)
    ap.add_argument("--seconds", type=float, default=20)
    a = ap.parse_args(argv)
    board = boards.offered(a.board)
    frames = sample_frames(board, a.seconds)
    print(report(board, measure(board, frames), frames))


if __name__ == "__main__":
    main()
