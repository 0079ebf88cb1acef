"""bakumat bench WHAT: benchmarks that print figures (never pass/fail)."""
import argparse
import importlib

from host_tools.errors import UserError

BENCHES = {
    "referee": "host_tools.bench_referee",
    "sensing": "host_tools.bench_sensing",
    "runtime": "host_tools.bench_runtime",
    "phone": "host_tools.bench_phone",
}


def add_arguments(p):
    p.add_argument("what", choices=sorted(BENCHES) + ["all"], help="which benchmark")
    p.add_argument("rest", nargs=argparse.REMAINDER,
                   help="options passed to the benchmark, e.g. `bakumat bench sensing --games 30`")


def run(args):
    names = sorted(BENCHES) if args.what == "all" else [args.what]
    rc = 0
    for name in names:
        try:
            mod = importlib.import_module(BENCHES[name])
        except ImportError as e:
            raise UserError("benchmark %s is not available: %s" % (name, e))
        rc |= int(mod.main(args.rest) or 0)
    return rc
