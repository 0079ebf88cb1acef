"""bakumat bench WHAT: benchmarks that print figures (never pass/fail).

`--world NAME` (any benchmark that simulates the mat) picks the simulated
physics (`bakumat hw worlds`; default: the mat's nominal world; the retired
`capture` world is refused): it is passed on as
$BAKUMAT_WORLD, which the simulator reads when neither the caller nor the
board names a world, so worker processes get it too."""
import argparse
import importlib
import os

from host_tools.errors import UserError

BENCHES = {
    "referee": "host_tools.bench.bench_referee",
    "sensing": "host_tools.bench.bench_sensing",
    "runtime": "host_tools.bench.bench_runtime",
    "phone": "host_tools.bench.bench_phone",
}


def add_arguments(p):
    p.add_argument("what", choices=sorted(BENCHES) + ["all"], help="which benchmark")
    p.add_argument("rest", nargs=argparse.REMAINDER,
                   help="options passed to the benchmark, e.g. `bakumat bench sensing --games 30`")


def _take_world(rest):
    """rest without `--world NAME` / `--world=NAME`, and the name (or None)."""
    out = []
    world = None
    i = 0
    while i < len(rest):
        a = rest[i]
        if a == "--world":
            if i + 1 >= len(rest):
                raise UserError("--world: expected a world name (`bakumat hw worlds`)")
            world = rest[i + 1]
            i += 2
            continue
        if a.startswith("--world="):
            world = a.split("=", 1)[1]
        else:
            out.append(a)
        i += 1
    return out, world


def run(args):
    names = sorted(BENCHES) if args.what == "all" else [args.what]
    rest, world = _take_world(list(args.rest))
    if world is not None:
        from host_tools.sim import worlds
        worlds.offered(world)  # a one-line error for an unknown or retired name
        os.environ["BAKUMAT_WORLD"] = world
        print("simulated world: %s (%s)" % (world, worlds.get(world).about), flush=True)
    args.rest = rest
    rc = 0
    for name in names:
        try:
            mod = importlib.import_module(BENCHES[name])
        except ImportError as e:
            raise UserError("benchmark %s is not available: %s" % (name, e))
        rc |= int(mod.main(args.rest) or 0)
    return rc
