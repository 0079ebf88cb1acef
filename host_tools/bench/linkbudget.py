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


def value_bits(board):
    """Bits a value of the board's sensor takes (16 on the LIS2MDL mat:
    max_counts 65535)."""
    return max(1, int(board["sensor"]["max_counts"]).bit_length())


def _hex(bits):
    digits = (bits + 3) // 4
    fmt = "%%0%dx" % digits

    def enc(t, v):
        return '{"t":%d,"x":"%s"}' % (t, "".join([fmt % x for x in v]))
    return enc


def pack(v, bits):
    """The values as one bit string, each `bits` wide, most significant
    first, padded with zeros to whole bytes."""
    out = bytearray()
    acc = 0
    n = 0
    mask = (1 << bits) - 1
    for x in v:
        if not 0 <= x <= mask:
            raise ValueError("value %d does not fit %d bits" % (x, bits))
        acc = (acc << bits) | x
        n += bits
        while n >= 8:
            n -= 8
            out.append((acc >> n) & 0xFF)
        acc &= (1 << n) - 1
    if n:
        out.append((acc << (8 - n)) & 0xFF)
    return bytes(out)


def unpack(data, bits, count):
    """pack()'s inverse: count values of `bits` each."""
    acc = 0
    n = 0
    out = []
    for b in data:
        acc = (acc << 8) | b
        n += 8
        while n >= bits and len(out) < count:
            n -= bits
            out.append((acc >> n) & ((1 << bits) - 1))
        acc &= (1 << n) - 1
    return out


def _b64(bits):
    def enc(t, v):
        return '{"t":%d,"b":"%s"}' % (t, base64.b64encode(pack(v, bits)).decode())
    return enc


def encodings(board):
    """(name, encoder or None for the board's own) for the board's value width."""
    bits = value_bits(board)
    return (("json as the board sends it (protocol v1 `frame`)", None),
            ("hex, %d digits per value" % ((bits + 3) // 4), _hex(bits)),
            ("base64 of packed %d-bit values" % bits, _b64(bits)))


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
    for name, enc in encodings(board):
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


def markdown(board, rows, frames):
    """The report as docs/host-cli.md's table."""
    lines = ["%s, %d channels at %s Hz, %d simulated frames (`python -m host_tools.bench.linkbudget --markdown`):"
             % (board["name"], len(board["sensors"]), board["rate_hz"], len(frames)), "",
             "| encoding of a `frame` | bytes/frame | bytes/s | of 921600 baud | of 115200 baud |",
             "|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %.0f | %.0f | %.1f %% | %.0f %% |" % (
            r["encoding"], r["bytes_per_frame"], r["bytes_per_s"], 100 * r["load"][921600],
            100 * r["load"][115200]))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.bench.linkbudget")
    ap.add_argument("--board", default=boards.REFERENCE)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--markdown", action="store_true", help="the table as docs/host-cli.md has it")
    a = ap.parse_args(argv)
    try:
        board = boards.offered(a.board)
    except boards.BoardError as e:
        ap.exit(2, "linkbudget: %s\n" % e)
    frames = sample_frames(board, a.seconds)
    rows = measure(board, frames)
    print((markdown if a.markdown else report)(board, rows, frames))


if __name__ == "__main__":
    main()
