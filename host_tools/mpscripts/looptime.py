# Runs under the unix port's micropython from mpscripts/heap32.py (copied
# beside it by host_tools/heap32.run): the per-frame loops with and without
# their viper kernels (sense.viperloops). A file of its own so that its
# names are not in the WebAssembly heap runs (whose name pools they would
# shift).
import time


def plain():
    """The plain-Python per-frame loops (as before their viper kernels)."""
    import sense.frames
    import sense.health
    sense.frames.viperloops = None
    sense.health.viperloops = None


def run(report, _board, P):
    """Unix run: the per-frame loops' speed with and without their viper
    kernels (sense.viperloops), in this process: a fresh pipeline of the
    board fed the game's first second of frames (an empty mat, before the
    first Bakugan) over and over to settle, then timed per frame (the least
    of 5 runs of 200 frames; us x 100): Frames.feed
    whole (feed_plain, feed_viper) and the loops alone (loops_plain: the
    plain health scan and zone loop over every channel and zone,
    loops_viper: the two kernels doing the same)."""
    from array import array
    from runtime.boarddef import compact, expand
    from runtime.session import ROLL_PARAMS
    from sense import frames as F
    from sense import viperloops as vl
    from sense.pipeline import Pipeline
    if F.viperloops is None:
        return          # a run of the plain loops (or an interpreter without viper)
    pipes = []
    evs = []
    for fast in (False, True):
        p = Pipeline(expand(compact(_board())), evs.append, params=ROLL_PARAMS)
        p.fr.fast = p.hl.fast = fast
        pipes.append(p)
    n = pipes[0].n
    frames = []
    f = open("frames.bin", "rb")
    for _ in range(50):
        a = array("H", bytearray(2 * n))
        if f.readinto(a) != 2 * n:
            break
        frames.append(a)
    f.close()
    t = [0]
    buf = array("H", bytearray(2 * n))   # one frame buffer, filled each time, as the scanner does

    def settle(p):
        for _ in range(3):
            for fr in frames:
                t[0] += 20
                buf[:] = fr
                p.feed(buf, t[0])

    def best(fn):
        b = 1 << 30
        for _ in range(5):
            t0 = time.ticks_us()
            for _ in range(4):
                for fr in frames:
                    t[0] += 20
                    buf[:] = fr
                    fn(buf, t[0])
            d = time.ticks_diff(time.ticks_us(), t0)
            if d < b:
                b = d
        return b * 100 // (4 * len(frames))

    pp, pv = pipes
    settle(pp)
    settle(pv)
    report("feed_plain_us100", best(pp.feed))
    report("feed_viper_us100", best(pv.feed))
    fr0 = pp.fr
    hl0 = pp.hl
    nz = len(pp.zch)

    def plain(fr, tt):
        hl0._plain(fr, tt, fr0.base, fr0.dev, 0, n)
        fr0._kargs[23][8] = fr0._kargs[23][9] = 0
        fr0._plain(fr, tt, 0, nz, fr0.bk)
    report("loops_plain_us100", best(plain))
    fv = pv.fr
    hv = pv.hl
    A = hv._kargs                        # (the kernels' arguments as feed left them)
    hk = A[7]
    Z = fv._kargs
    kv = Z[23]
    scan = vl.KERNELS[0]

    def viper(fr, tt):
        scan(0, A, hk)
        kv[1] = tt
        kv[8] = kv[9] = 0
        vl.KERNELS[2](0, Z, kv)
    report("loops_viper_us100", best(viper))
    report("loops_events", len(evs))     # 0: the frames were quiet, as meant
