"""bakumat plot RAW -o file.png: a raw sensor log's traces as a picture.

For each zone shown: every sensor's deviation from its baseline (counts),
the zone's energy E that the sensing pipeline compares with its threshold,
the threshold, and the moments the pipeline decided (land, leave, fault):
the same traces as the web view's, for issue reports. Needs matplotlib.
"""
from host_tools.errors import UserError
from host_tools.logs.logfile import seconds


def add_arguments(p):
    p.add_argument("raw", help="raw sensor log (docs/formats/raw-log-v1.md)")
    p.add_argument("-o", "--output", required=True, help="picture to write (.png, .svg or .pdf)")
    p.add_argument("--zone", type=int, action="append",
                   help="zone to plot (repeat for several; default: every zone where something was decided)")
    p.add_argument("--from", dest="t_from", type=seconds, help="start time in seconds")
    p.add_argument("--to", dest="t_to", type=seconds, help="end time in seconds")


def _zones(probe, wanted):
    if wanted:
        for z in wanted:
            if z not in probe.zone_ids:
                raise UserError("--zone %d: no such zone on board %s (zones %d..%d)"
                                % (z, probe.board["name"], min(probe.zone_ids), max(probe.zone_ids)))
        return wanted
    busy = [z for zi, z in enumerate(probe.zone_ids) if probe.decisions[zi]]
    return busy or [probe.zone_ids[0]]


def plot(timeline, output, zones=None, t_from=None, t_to=None):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UserError("bakumat plot needs matplotlib: pip install matplotlib")
    probe = timeline.probe
    zones = _zones(probe, zones)
    lo = None if t_from is None else int(t_from * 1000)
    hi = None if t_to is None else int(t_to * 1000)
    ts = list(probe.t)
    idx = [i for i, t in enumerate(ts) if (lo is None or t >= lo) and (hi is None or t <= hi)]
    if not idx:
        raise UserError("no frames between %s and %s s" % (t_from, t_to))
    x = [ts[i] / 1000.0 for i in idx]
    fig, axes = plt.subplots(len(zones), 1, figsize=(13, 2.6 * len(zones) + 0.6), sharex=True, squeeze=False,
                             layout="constrained")
    for ax, z in zip(axes[:, 0], zones):
        d = probe.zone_json(z)
        for c in d["channels"]:
            ax.plot(x, [c["dev"][i] for i in idx], lw=0.6, alpha=0.7, label="ch %d" % c["ch"])
        ax.plot(x, [d["energy"][i] for i in idx], lw=1.8, color="black", label="zone energy E")
        thr = d["thresholds"] or [d["threshold"]] * len(ts)
        ax.plot(x, [thr[i] for i in idx], lw=1.0, ls="--", color="red", label="E threshold")
        if d["coherent"] is not None:
            ax.plot(x, [d["coherent"][i] for i in idx], lw=1.2, color="green", label="coherent sum C")
            ax.axhline(d["coherent_threshold"], lw=1.0, ls="--", color="green", label="C threshold")
        for k, e in enumerate(d["decisions"]):
            t = e["t"] / 1000.0
            if x[0] <= t <= x[-1]:
                col = {"land": "goldenrod", "leave": "slategray", "fault": "magenta"}.get(e["ev"], "gray")
                ax.axvline(t, color=col, lw=1.2)
                what = e.get("bakugan") or e.get("kind") or ("ch %s" % e["ch"] if e.get("ch") is not None else
                                                              "unnamed")
                ax.annotate("%s %s" % (e["ev"], what), (t, 1.0),
                            xycoords=("data", "axes fraction"), xytext=(2, -10 - 10 * (k % 3)),
                            textcoords="offset points", fontsize=7, color=col)
        big = max([abs(v) for c in d["channels"] for v in c["dev"]] + d["energy"] + (d["coherent"] or []) + [1])
        if big > 20 * max(1, d["threshold"]):  # strong fields: a log scale keeps the threshold visible
            from matplotlib.ticker import NullFormatter, SymmetricalLogLocator
            lin = max(1, d["threshold"] / 2)
            ax.set_yscale("symlog", linthresh=lin)
            # decades only, no labels on the minor ticks: labels that never overlap
            ax.yaxis.set_major_locator(SymmetricalLogLocator(base=10, linthresh=lin, subs=[1.0]))
            ax.yaxis.set_minor_formatter(NullFormatter())
        ax.set_ylabel("zone %d\ncounts" % z)
        ax.grid(alpha=0.3)
        # the legend beside the traces, never over them
        ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.005, 1.0), borderaxespad=0.0,
                  ncol=1 + len(d["channels"]) // 8)
    axes[-1, 0].set_xlabel("time (s)")
    fig.suptitle("%s: sensor traces, zone energy vs threshold, pipeline decisions" % timeline.title, fontsize=10)
    try:
        fig.savefig(output, dpi=110)
    except (OSError, ValueError) as e:
        raise UserError("cannot write %s: %s" % (output, e))
    finally:
        plt.close(fig)
    return zones


def run(args):
    from host_tools.logs.logfile import log_kind, read_lines
    from host_tools.webview.timeline import raw_timeline
    if log_kind(read_lines(args.raw), args.raw) != "raw":
        raise UserError("%s: not a raw sensor log (an event log has no sensor data); bakumat plot draws sensor traces"
                        % args.raw)
    tl = raw_timeline(args.raw)
    zones = plot(tl, args.output, args.zone, args.t_from, args.t_to)
    print("wrote %s (zones %s)" % (args.output, ", ".join(str(z) for z in zones)))
    return 0
