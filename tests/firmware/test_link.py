"""Serial protocol v1 codec and the board-side link (CPython and micropython)."""
try:
    import unittest
except ImportError:
    import mpunit as unittest

from link import codec
from link.codec import Decoder, encode, crc16
from link.server import Link


class Rec:
    def __init__(self, max_len=codec.MAX_LEN):
        self.frames = []
        self.errors = []
        self.d = Decoder(self.on_frame, self.on_error, max_len)

    def on_frame(self, seq, typ, body):
        self.frames.append((seq, typ, body))

    def on_error(self, code, seq, detail):
        self.errors.append(code)


class Lcg:
    def __init__(self, seed):
        self.x = seed

    def next(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


class TestCodec(unittest.TestCase):
    def test_crc_check_value(self):
        self.assertEqual(crc16(b"123456789"), 0x29B1)   # CRC-16/CCITT-FALSE

    def test_roundtrip(self):
        r = Rec()
        bodies = [{}, {"ev": "gate", "player": 0, "gate": "dan gold", "zone": 6}, [1, 2, 3], "text with spaces", 0,
                  {"name": "\u00e9l\u00e8ve"}]
        for i in range(len(bodies)):
            r.d.feed(encode(i * 1000, "ctl", bodies[i]))
        self.assertEqual(r.errors, [])
        self.assertEqual([f[2] for f in r.frames], bodies)
        self.assertEqual([f[0] for f in r.frames], [i * 1000 for i in range(len(bodies))])

    def test_frame_is_printable_and_free_of_ctrl_c(self):
        f = encode(65535, "cfg", {"a": "x\u0003y", "b": "\n"})
        self.assertEqual(f[0], 0x1E)
        self.assertEqual(f[-1], 10)
        for b in f[1:-1]:
            self.assertTrue(32 <= b < 127, "byte %d" % b)

    def test_resync_after_garbage(self):
        r = Rec()
        r.d.feed(b"MicroPython v1.29\r\n>>> \xff\xfe\x00\x01 print('x')\r\n" + encode(1, "ping", {}))
        self.assertEqual(r.frames, [(1, "ping", {})])
        self.assertEqual(r.errors, [])
        self.assertGreater(r.d.garbage, 20)

    def test_checksum_mismatch_is_reported_and_dropped(self):
        r = Rec()
        f = bytearray(encode(5, "ctl", {"ev": "resolve"}))
        f[12] ^= 1
        r.d.feed(bytes(f) + encode(6, "ctl", {"ev": "resolve"}))
        self.assertEqual(r.errors, ["checksum"])
        self.assertEqual([x[0] for x in r.frames], [6])

    def test_truncated_frame_then_good_one(self):
        r = Rec()
        f = encode(9, "cfg", {"players": []})
        r.d.feed(f[:15] + encode(10, "ping", {}))
        self.assertEqual(r.errors, ["truncated"])
        self.assertEqual(r.frames, [(10, "ping", {})])

    def test_quiet_line_expires_partial_frame(self):
        r = Rec()
        r.d.feed(encode(9, "ping", {})[:8])
        self.assertTrue(r.d.pending())
        r.d.expire()
        self.assertEqual(r.errors, ["truncated"])
        r.d.feed(b"rest of it\n" + encode(3, "ping", {}))
        self.assertEqual(r.frames, [(3, "ping", {})])

    def test_oversized_dropped_then_good_one(self):
        r = Rec(max_len=64)
        r.d.feed(encode(1, "cfg", {"x": "y" * 200}) + encode(2, "ping", {}))
        self.assertEqual(r.errors, ["oversized"])
        self.assertEqual(r.frames, [(2, "ping", {})])

    def test_bad_fields(self):
        r = Rec()
        def raw(core):
            c = crc16(core)
            return b"\x1e" + core + ("%04x" % c).encode() + b"\n"
        r.d.feed(raw(b"B3 1 ping {} "))
        r.d.feed(raw(b"B1 x ping {} "))
        r.d.feed(raw(b"B1 1 PING {} "))
        r.d.feed(raw(b"B1 1 ping {nope "))
        r.d.feed(raw(b"B1 99999 ping {} "))
        r.d.feed(b"\x1eB1 1 ping {} zzzz\n")
        self.assertEqual(r.errors, ["version", "syntax", "syntax", "json", "syntax", "syntax"])
        self.assertEqual(r.frames, [])

    def test_byte_at_a_time_equals_bulk(self):
        stream = b"noise" + encode(1, "a", {"k": [1, 2]}) + b"\x1e\x1e" + encode(2, "b", "s") + b"\r\n"
        r1 = Rec()
        r1.d.feed(stream)
        r2 = Rec()
        for i in range(len(stream)):
            r2.d.feed(stream[i:i + 1])
        self.assertEqual(r1.frames, r2.frames)
        self.assertEqual(r1.errors, r2.errors)
        self.assertEqual(len(r1.frames), 2)

    def test_fuzz_never_crashes_and_keeps_intact_frames(self):
        rnd = Lcg(1234)
        r = Rec(max_len=256)
        sent = 0
        for round_ in range(60):
            junk = bytes(bytearray(rnd.next(256) for _ in range(rnd.next(40))))
            r.d.feed(junk)
            if rnd.next(3) == 0:       # a damaged frame: cut or flipped
                f = bytearray(encode(round_, "ctl", {"n": round_}))
                if rnd.next(2):
                    f = f[:rnd.next(len(f))]
                else:
                    f[1 + rnd.next(len(f) - 2)] ^= 0x40
                r.d.feed(bytes(f))
            r.d.feed(b"\n")             # garbage may have opened a frame
            r.d.feed(encode(round_, "ok", {"n": round_}))
            sent += 1
        oks = [f for f in r.frames if f[1] == "ok"]
        self.assertEqual([f[2]["n"] for f in oks], list(range(sent)))


class Both:
    """The same stream through the span decoder (find and slices) and the
    byte-at-a-time one (the reference where bytearray has no find())."""

    def __init__(self, max_len, keep_text=False):
        self.a = Rec(max_len)
        self.b = Rec(max_len)
        self.a.d.keep_text = self.b.d.keep_text = keep_text
        self.a.d.text = bytearray() if keep_text else None
        self.b.d.text = bytearray() if keep_text else None

    def feed(self, chunk):
        self.a.d._feed_spans(chunk, len(chunk))
        self.b.d._feed_bytes(chunk, len(chunk))


class TestSpanDecoder(unittest.TestCase):
    def test_the_same_frames_errors_and_garbage_as_byte_at_a_time(self):
        rnd = Lcg(77)
        pieces = [b"\x1e", b"\n", b"\r", b"\r\n", b"noise", b"\x1e\x1e", b"\x01", b"B1 ", b" 0000\n"]
        seen = []
        for max_len in (24, 64, 256):
            both = Both(max_len, keep_text=True)
            stream = bytearray()
            for round_ in range(120):
                k = rnd.next(5)
                if k == 0:
                    stream += pieces[rnd.next(len(pieces))]
                elif k == 1:
                    stream += bytes(bytearray(rnd.next(256) for _ in range(rnd.next(30))))
                else:
                    f = bytearray(encode(round_, "ctl", {"n": round_, "pad": "x" * rnd.next(80)}))
                    if rnd.next(4) == 0:
                        f[1 + rnd.next(len(f) - 2)] = (13, 30, 10, 1)[rnd.next(4)]
                    if rnd.next(4) == 0:
                        f = f[:rnd.next(len(f))]
                    stream += f
            i = 0
            while i < len(stream):       # in chunks as the link reads them
                n = 1 + rnd.next(40)
                both.feed(bytearray(stream[i:i + n]))
                i += n
            a, b = both.a, both.b
            self.assertEqual(a.frames, b.frames)
            self.assertEqual(a.errors, b.errors)
            # (the count of a dropped frame's bytes is not kept alike: unused)
            self.assertEqual((a.d.garbage, a.d.state, a.d.pending() and a.d.n, bytes(a.d.text)),
                             (b.d.garbage, b.d.state, b.d.pending() and b.d.n, bytes(b.d.text)))
            seen += a.errors
            if max_len == 256:
                self.assertGreater(len(a.frames), 20)
        for code in ("oversized", "truncated", "checksum", "syntax"):
            self.assertIn(code, seen)

    def test_a_frame_split_anywhere_and_a_cr_inside_it(self):
        f = encode(9, "ctl", {"ev": "resolve", "zone": 3})
        for cut in range(1, len(f)):
            r = Rec()
            r.d.feed(bytearray(f[:cut]))
            r.d.feed(bytearray(f[cut:]))
            self.assertEqual(r.frames, [(9, "ctl", {"ev": "resolve", "zone": 3})])
        r = Rec()
        r.d.feed(f[:10] + b"\r" + f[10:])
        self.assertEqual(r.frames, [(9, "ctl", {"ev": "resolve", "zone": 3})])

class Port:
    def __init__(self):
        self.rx = bytearray()
        self.out = bytearray()

    def read_into(self, buf, maxn):
        n = min(maxn, len(self.rx))
        buf[0:n] = self.rx[:n]
        self.rx = self.rx[n:]
        return n

    def write(self, data):
        self.out += bytes(data)


class Clock:
    def __init__(self):
        self.t = 0

    def ticks_ms(self):
        return self.t

    def ticks_diff(self, a, b):
        return a - b


class TestServer(unittest.TestCase):
    def setUp(self):
        self.port = Port()
        self.clock = Clock()
        self.link = Link(self.port, self.clock, rx_budget=100, tx_size=300, max_inbox=3)

    def test_rx_budget_and_inbox_cap(self):
        for i in range(10):
            self.port.rx += encode(i, "ping", {})
        total = len(self.port.rx)
        got = self.link.service(self.clock.t + 20)
        self.assertLessEqual(got, 100)
        self.assertLessEqual(len(self.link.inbox), 3)
        seen = []
        for _ in range(20):
            self.link.service(self.clock.t + 20)
            m = self.link.next()
            if m:
                seen.append(m[0])
        self.assertEqual(seen, list(range(10)))
        self.assertEqual(len(self.port.rx), 0)
        self.assertTrue(total > 100)

    def test_requests_with_an_identity_are_never_applied_late_or_twice(self):
        link = self.link
        me = "0badcafe-" + link.boot
        self.assertEqual(len(link.boot), 8)
        self.port.rx += encode(1, "ctl", {"ev": "resolve"}, "0badcafe-00000000")   # before a restart
        self.port.rx += encode(2, "ctl", {"ev": "resolve"}, me)
        self.port.rx += encode(2, "ctl", {"ev": "resolve"}, me)                    # the same again
        self.port.rx += encode(1, "ping", {}, me)                                  # older
        self.port.rx += encode(3, "ping", {}, "0badcafe")                          # no boot id
        for _ in range(5):
            link.service(self.clock.t + 20)
            link.flush(10000)
        m = link.next()
        self.assertEqual(m, ((me, 2), "ctl", {"ev": "resolve"}))
        self.assertIsNone(link.next())
        self.assertEqual(link.stale, 4)
        link.reply(m[0], "ack", {"ok": True})
        link.flush(10000)
        r = Rec()
        idents = []
        r.on_frame = lambda seq, typ, body: idents.append((r.d.ident, seq, typ, body.get("code"), body.get("boot")))
        r.d.on_frame = r.on_frame
        r.d.feed(bytes(self.port.out))
        stale = ("stale", link.boot)
        self.assertEqual(idents, [("0badcafe-00000000", 1, "err") + stale, (me, 2, "err") + stale,
                                  (me, 1, "err") + stale, ("0badcafe", 3, "err") + stale, (me, 2, "ack", None, None)])
        # a B1 request is taken as before
        self.port.rx += encode(2, "ping", {})
        link.service(self.clock.t + 20)
        self.assertEqual(link.next(), (2, "ping", {}))

    def test_deadline_stops_reading(self):
        self.port.rx += encode(1, "ping", {})
        self.assertEqual(self.link.service(self.clock.t), 0)

    def test_tx_ring_wraps_and_counts_drops(self):
        got = bytearray()
        for i in range(12):
            self.link.reply(i, "game", {"i": i, "pad": "x" * 40})
            got += self.port.out
            self.port.out = bytearray()
            self.link.flush(37)
        self.link.drain_all()
        r = Rec()
        r.d.feed(bytes(got) + bytes(self.port.out))
        self.assertEqual(r.errors, [])
        self.assertEqual(len(r.frames) + self.link.tx_drops, 12)
        self.assertGreater(len(r.frames), 6)
        self.assertGreater(self.link.tx_drops, 0)
        seqs = [f[0] for f in r.frames]
        self.assertEqual(seqs, sorted(seqs))
        for f in r.frames:
            self.assertEqual(f[2]["i"], f[0])

    def test_bulk_frames_yield_to_events(self):
        n_bulk = 0
        for i in range(20):
            if self.link.send("frame", {"c": [1, 2, 3]}, bulk=True):
                n_bulk += 1
        self.assertLess(n_bulk, 20)
        self.assertTrue(self.link.send("game", {"ev": "win"}))

    def test_error_replies_are_rate_limited(self):
        self.port.rx += b"\x1eB1 1 x {} 0000\n" * 20
        for _ in range(20):
            self.link.service(self.clock.t + 20)
        self.assertEqual(self.link.err_sent, 4)
        self.assertEqual(self.link.err_dropped, 16)
        self.clock.t += 1000
        self.port.rx += b"\x1eB1 1 x {} 0000\n"
        self.link.service(self.clock.t + 20)
        self.assertEqual(self.link.err_sent, 5)

    def _wire(self):
        self.link.drain_all()
        r = Rec()
        r.d.feed(bytes(self.port.out))
        self.port.out = bytearray()
        return [(f[1], f[2].get("n") if type(f[2]) is dict else f[2]) for f in r.frames]

    def test_later_calls_keep_the_order_frames_would_have_had(self):
        link = Link(self.port, self.clock, tx_size=4096)
        self.link = link
        ran = []

        def out(n, _):
            ran.append(n)
            link.send("game", {"n": n})
        link.send("mat", {"n": 0})
        link.later(out, 1, None)
        link.later(out, 2, None)
        link.send("input", {"n": 3})            # behind both outputs
        link.reply(7, "ack", {"n": 4})
        link.later(out, 5, None)
        link.reply(8, "ack", {"n": 6})
        self.assertTrue(link.send("frame", {"n": 7}, bulk=True))   # a raw frame waits too
        self.assertEqual(ran, [])
        self.assertTrue(link.pending_tx())
        link.flush(10000)
        r = Rec()
        r.d.feed(bytes(self.port.out))
        self.assertEqual([f[1] for f in r.frames], ["mat"])
        self.port.out = bytearray()
        link.pump()                              # one output a pump, with the frames before the next
        self.assertEqual(ran, [1])
        link.pump()
        self.assertEqual(ran, [1, 2])
        link.flush(10000)
        r = Rec()
        r.d.feed(bytes(self.port.out))
        self.assertEqual([(f[1], f[2]["n"]) for f in r.frames], [("game", 1), ("game", 2), ("input", 3), ("ack", 4)])
        self.port.out = bytearray()
        link.pump()
        self.assertEqual(link.held, [])
        self.assertEqual(self._wire(), [("game", 5), ("ack", 6), ("frame", 7)])
        link.send("mat", {"n": 8})               # nothing waits: straight into the ring
        self.assertEqual(link.held, [])
        self.assertEqual(self._wire(), [("mat", 8)])

    def test_the_boards_numbers_rise_on_the_wire_with_raw_frames_between(self):
        link = Link(self.port, self.clock, tx_size=8192)
        self.link = link
        link.later(lambda a, b: link.send_json("game", '{"n": 1}'), None, None)
        link.send("input", {"n": 2})
        for i in range(3):
            link.send("frame", {"n": 10 + i}, bulk=True)     # one a tick, as the loop sends them
            link.pump()
        link.drain_all()
        r = Rec()
        r.d.feed(bytes(self.port.out))
        seqs = [f[0] for f in r.frames]
        self.assertEqual(len(seqs), 5)
        self.assertEqual(seqs, sorted(seqs))

    def test_drain_all_and_a_long_wait_run_every_later_call(self):
        link = Link(self.port, self.clock, tx_size=8192)
        self.link = link
        for n in range(3):
            link.later(lambda n, _: link.send("game", {"n": n}), n, None)
            link.reply(n, "ack", {"n": 10 + n})
        self.assertEqual(self._wire(), [("game", 0), ("ack", 10), ("game", 1), ("ack", 11), ("game", 2),
                                        ("ack", 12)])
        for n in range(40):                      # more than _HELD_MAX wait: one pump runs them all
            link.later(lambda n, _: link.send("game", {"n": n}), n, None)
        link.pump()
        self.assertEqual(link.held, [])
        link.flush(100000)
        r = Rec()
        r.d.feed(bytes(self.port.out))
        self.assertEqual([f[2]["n"] for f in r.frames], list(range(40)))

    def test_a_failing_later_call_is_dropped_and_the_rest_go_on(self):
        link = Link(self.port, self.clock, tx_size=4096)
        self.link = link

        def bad(a, b):
            raise ValueError("boom")
        link.later(bad, 0, None)
        link.reply(1, "ack", {"n": 1})
        with self.assertRaises(ValueError):
            link.pump()
        self.assertFalse(link._pumping)
        self.assertEqual(self._wire(), [("ack", 1)])


class TestBulkLeavesRoom(unittest.TestCase):
    def test_raw_frames_never_take_the_room_a_reply_needs(self):
        link = Link(Port(), Clock(), tx_size=4096)
        frame = {"t": 0, "c": [2048] * 96}  # a raw frame of the reference mat, ~600 bytes
        queued = 0
        for i in range(40):  # far more than the ring holds; nothing is flushed
            if link.send("frame", frame, bulk=True):
                queued += 1
        self.assertGreater(queued, 0)
        self.assertGreaterEqual(link.tx_free(), 2048)  # app.TX_RESERVE: a request can still be answered
        self.assertTrue(link.reply(5, "pong", {}))
        self.assertGreater(link.tx_drops, 0)


if __name__ == "__main__":
    unittest.main()
