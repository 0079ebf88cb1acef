"""`bakumat hw worlds | kernels | layouts`: the computed physics behind the
hardware choice (hardware/sensing-physics.md).

    bakumat hw worlds                 the simulated worlds and their parameters
    bakumat hw kernels                build (or check) the cached slab kernels
    bakumat hw layouts [--world W]    sensor candidates and layouts compared:
                                      worst-spot SNR per world, crosstalk, scan
                                      time, parts, price, current (--json);
                                      with the finite plate's edge term
                                      (host_tools/sim/plate.py) unless --slab
"""
import json
import sys
import time

from host_tools.errors import UserError


def add_arguments(parser):
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    sub.add_parser("worlds", help="list the simulated worlds (plate, magnet, heights)")
    sub.add_parser("kernels", help="build the slab kernels of every computed world into the cache")
    lay = sub.add_parser("layouts", help="compare sensor layouts on the computed worlds")
    lay.add_argument("--world", action="append", metavar="NAME", help="only this world (repeatable)")
    lay.add_argument("--layout", action="append", metavar="NAME", help="only this layout (repeatable)")
    lay.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    lay.add_argument("--slab", action="store_true",
                     help="the infinite slab alone (the fast path without the finite plate's term)")


def run(args):
    from host_tools.sim import worlds as W
    action = getattr(args, "action", None)
    if action == "worlds":
        for name in W.names():
            w = W.get(name)
            mark = (" (retired: the Hall mat's assumed physics, hardware/retired.md)" if name == W.DEFAULT else
                    " (nominal: the reference mat's default)" if name == W.NOMINAL else "")
            print("%-22s %-8s heights %g-%g mm  %s%s" % (name, w.magnet, w.heights[0], w.heights[1], w.about, mark))
        return 0
    if action == "kernels":
        print("cache: %s" % W.cache_dir())
        for name in W.names():
            w = W.get(name)
            if not w.computed or w.plate is None:
                continue
            t0 = time.time()
            w.kernel()
            print("%-22s ready in %.1f s" % (name, time.time() - t0))
        return 0
    if action == "layouts":
        from host_tools.boards import layouts as L
        worlds = args.world or list(L.DOC_WORLDS)
        for name in worlds:
            W.get(name) if name in W.WORLDS else _unknown("world", name, W.names())
        lays = args.layout or list(L.LAYOUTS)
        for name in lays:
            if name not in L.LAYOUTS:
                _unknown("layout", name, list(L.LAYOUTS))
        finite = not args.slab
        rows = L.table(worlds, lays, finite=finite)
        how = "the infinite slab with the finite plate's term" if finite else "the infinite slab alone"
        if args.json:
            sys.stdout.write(json.dumps({"version": 1, "worlds": worlds, "finite_plate": finite, "rows": rows}) + "\n")
        else:
            sys.stdout.write(L.markdown(rows, worlds, finite=finite))
            if L.REFERENCE in lays:
                bad = L.failing_worlds(rows)
                print("\nreference layout %s: below SNR %g by %s in %s" % (L.REFERENCE, L.TARGET_SNR, how,
                                                                      ", ".join(bad) if bad else "no world listed"))
        return 0
    raise UserError("expected an action: `bakumat hw worlds`, `bakumat hw kernels` or `bakumat hw layouts`")


def _unknown(what, name, known):
    raise UserError("unknown %s %r (known: %s)" % (what, name, ", ".join(known)))
