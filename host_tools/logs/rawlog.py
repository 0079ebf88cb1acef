"""Raw sensor log, format version 1 (docs/formats/raw-log-v1.md): writing and
reading with validation (CPython).

    hdr = rawlog.make_header(board, game_header)
    rawlog.write(path, hdr, frames, controls)      # frames: [(t_ms, [counts])]
    log = rawlog.read(path)                        # RawLog: header, board, frames, controls
    for lineno, kind, obj in rawlog.iter_raw(lines):   # kind: "header", "frame", "control"
        ...

Every problem raises RawLogError whose text names the line ("line 7: frame
has 95 values, the board has 96 channels"); read() prefixes the file name.
"""
import json

from host_tools import boards, fwpath
from host_tools.errors import UserError
from host_tools.logs.logfile import LimitError, check_line, cut

VERSION = 1
KIND = "raw"
MAX_RATE_HZ = 1000     # header `rate_hz`: scans a second a board can take
BASELINE_SHIFT = 12    # header `baseline`: counts in the sensing pipeline's fixed point
_SEP = (",", ":")


class RawLogError(UserError):
    def __init__(self, line, msg, where=None):
        text = "line %d: %s" % (line, msg)
        super().__init__(text if where is None else "%s: %s" % (where, text))
        self.line = line
        self.msg = msg
        self.where = where


def _eventlog():
    fwpath.ensure()
    from store import eventlog
    return eventlog


def make_header(board, game):
    """The header dict: format fields, board facts, then the game header's
    mode, first, target and players (game may be None for a bare recording)."""
    h = {"bakumat": KIND, "version": VERSION, "board": board["name"], "rate_hz": board["rate_hz"],
         "channels": len(board["sensors"]), "max_counts": board["sensor"]["max_counts"]}
    kt = board.get("kernels")
    if kt:
        h["kernel_world"] = kt["world"]     # the detector's table: a replay fits the same
    if game:
        for k in ("mode", "first", "target", "players"):
            if k in game:
                h[k] = game[k]
        for k in game:      # a mode's own header fields (extras: season)
            if k not in h and k not in ("bakumat", "version", "baseline", "signatures", "kernel_world"):
                h[k] = game[k]
        h.setdefault("mode", "official")
    return h


def frame_line(t, values):
    return '{"t":%d,"v":[%s]}' % (t, ",".join([str(v) for v in values]))


def control_line(ev):
    d = {"t": ev["t"], "ev": ev["ev"]}
    for k in ev:
        if k not in d:
            d[k] = ev[k]
    return json.dumps(d, separators=_SEP)


def lines(header, frames, controls):
    """Yield the log's lines (no newline): header, then frames and control
    events merged by time, a control event before the frames of its ms."""
    yield json.dumps(header, separators=_SEP)
    ci = 0
    nc = len(controls)
    for t, v in frames:
        while ci < nc and controls[ci]["t"] <= t:
            yield control_line(controls[ci])
            ci += 1
        yield frame_line(t, v)
    while ci < nc:
        yield control_line(controls[ci])
        ci += 1


def write(dest, header, frames, controls):
    """Write a raw log to a path or a text file object."""
    if hasattr(dest, "write"):
        for ln in lines(header, frames, controls):
            dest.write(ln)
            dest.write("\n")
        return
    with open(dest, "w", encoding="utf-8", newline="\n") as f:
        write(f, header, frames, controls)


class RawLog:
    def __init__(self, header, board):
        self.header = header
        self.board = board
        self.frames = []  # (t, [counts])
        self.controls = []  # event dicts with "t"


def _check_header(obj, line, load_board):
    el = _eventlog()
    if type(obj) is dict and obj.get("bakumat") == KIND:
        v = obj.get("version")
        if type(v) is int and v > VERSION:
            raise RawLogError(line, "raw log format version %d is newer than this reader (version %d): update bakumat"
                              % (v, VERSION))
    try:
        el.check_header(obj, line, kind=KIND)
    except el.LogError as e:
        raise RawLogError(line, e.msg)
    name = obj.get("board")
    if type(name) is not str or not name:
        raise RawLogError(line, "header: missing field 'board' (the board definition's name)")
    rate = obj.get("rate_hz")
    if type(rate) not in (int, float) or not 1 <= rate <= MAX_RATE_HZ:
        raise RawLogError(line, "header: rate_hz: expected a number of scans a second in 1..%d, got %s"
                          % (MAX_RATE_HZ, cut(json.dumps(rate), 40)))
    try:
        board = load_board(name)
    except UserError as e:
        raise RawLogError(line, "header: board %r: %s" % (name, e))
    n = len(board["sensors"])
    maxc = board["sensor"]["max_counts"]
    if "channels" in obj and obj["channels"] != n:
        raise RawLogError(line, "header: channels is %s but board %r has %d channels" % (json.dumps(obj["channels"]), name, n))
    if "max_counts" in obj and obj["max_counts"] != maxc:
        raise RawLogError(line, "header: max_counts is %s but board %r says %d" % (json.dumps(obj["max_counts"]), name, maxc))
    if "baseline" in obj:
        _check_baseline(obj["baseline"], line, n, maxc)
    if "signatures" in obj:
        _check_signatures(obj["signatures"], line)
    return _with_kernels(board, obj, line)


def _with_kernels(board, obj, line):
    """The board as it sensed: with the kernel table of the world the
    header's `kernel_world` names (what the board's detector fitted), else
    of the world the board would be simulated in (an older log of a kernel
    mat: its nominal world). A log of a retired Hall board is refused: the
    firmware has no detector for it (hardware/retired.md)."""
    from host_tools import boards
    from host_tools.boards import kernels
    from host_tools.sim import worlds
    if board.get("name") in boards.RETIRED:
        raise RawLogError(line, "header: board %r is retired (%s): the firmware has no detector for it, so its "
                                "raw logs no longer replay (hardware/retired.md)"
                          % (board["name"], boards.RETIRED[board["name"]]))
    w = obj.get("kernel_world")
    if w is not None:
        if type(w) is not str or w not in worlds.WORLDS or not worlds.get(w).computed:
            raise RawLogError(line, "header: kernel_world: expected a computed world (%s), got %s"
                              % (", ".join(n for n in worlds.WORLDS if worlds.get(n).computed),
                                 cut(json.dumps(w), 40)))
    try:
        return kernels.for_board(board, w)
    except UserError as e:
        raise RawLogError(line, "header: board %r: %s" % (board.get("name"), e))


def _check_signatures(sigs, line):
    if type(sigs) is not dict:
        raise RawLogError(line, "header: signatures: expected an object {bakugan id: number}, got %s"
                          % json.dumps(sigs))
    for k, v in sigs.items():
        if not k or type(v) not in (int, float) or v != v or v in (float("inf"), float("-inf")):
            raise RawLogError(line, "header: signatures: %s: expected a number, got %s" % (json.dumps(k), json.dumps(v)))


def _check_baseline(b, line, n, maxc):
    if type(b) is not dict:
        raise RawLogError(line, "header: baseline: expected an object {\"frames\", \"v\"}")
    f = b.get("frames")
    if type(f) is not int or f < 1:
        raise RawLogError(line, "header: baseline.frames: expected a positive integer, got %s" % json.dumps(f))
    v = b.get("v")
    if type(v) is not list or len(v) != n:
        raise RawLogError(line, "header: baseline.v: expected %d integers (one per channel), got %s"
                          % (n, "%d values" % len(v) if type(v) is list else json.dumps(v)))
    top = maxc << BASELINE_SHIFT
    for i in range(n):
        x = v[i]
        if type(x) is not int or x < 0 or x > top:
            raise RawLogError(line, "header: baseline.v: channel %d: expected an integer in 0..%d (counts x %d), got %s"
                              % (i, top, 1 << BASELINE_SHIFT, json.dumps(x)))


def resume(match, header):
    """Resume `match`'s sensing from the header's `baseline` (the board's
    state when its recording began) and `signatures` (what it had learnt
    before), where the log has them."""
    b = header.get("baseline")
    if b is not None:
        match.pipeline.resume(b["frames"], b["v"])
    sigs = header.get("signatures")
    if sigs:
        match.pipeline.teach(sigs)


def iter_raw(src, load_board=None):
    """Yield (lineno, kind, obj) for each line of a raw log: kind "header"
    with obj = (header dict, board dict), "frame" with obj = (t, values),
    "control" with obj = the event dict. load_board(name) defaults to
    boards.load."""
    load_board = load_board or boards.load
    el = _eventlog()
    header = None
    ids = None
    n = maxc = 0
    zones = ()
    prev = 0
    lineno = 0
    for raw in src:
        lineno += 1
        text = raw.strip()
        if not text:
            continue
        try:
            check_line(text, lineno)       # the host readers' shared limits
        except LimitError as e:
            raise RawLogError(lineno, e.msg)
        try:
            obj = json.loads(text)
        except ValueError as e:
            if not raw.endswith("\n"):
                raise RawLogError(lineno, "truncated last line: the log ends in the middle of a record")
            raise RawLogError(lineno, "not valid JSON (%s)" % getattr(e, "msg", e))
        if type(obj) is not dict:
            raise RawLogError(lineno, "expected a JSON object")
        if header is None:
            board = _check_header(obj, lineno, load_board)
            header = obj
            ids = el.Ids(header)
            n = len(board["sensors"])
            maxc = board["sensor"]["max_counts"]
            zones = set(z["id"] for z in board["zones"])
            yield lineno, "header", (header, board)
            continue
        try:
            t = el.check_time(obj, lineno, prev)   # the event log's rules for `t`
        except el.LogError as e:
            raise RawLogError(lineno, e.msg)
        prev = t
        if "v" in obj:
            if "ev" in obj:
                raise RawLogError(lineno, "a line is either a frame (\"v\") or an event (\"ev\"), not both")
            v = obj["v"]
            if type(v) is not list:
                raise RawLogError(lineno, "frame: 'v' must be a list of ADC counts")
            if len(v) != n:
                raise RawLogError(lineno, "frame has %d values, the board has %d channels" % (len(v), n))
            for i in range(n):
                x = v[i]
                if type(x) is not int:
                    raise RawLogError(lineno, "frame: channel %d: expected an integer count, got %s" % (i, json.dumps(x)))
                if x < 0 or x > maxc:
                    raise RawLogError(lineno, "frame: channel %d: value %d out of range 0..%d" % (i, x, maxc))
            yield lineno, "frame", (t, v)
            continue
        ev = obj.get("ev")
        if ev == "land":
            raise RawLogError(lineno, "a raw log never holds `land` events: the sensing pipeline finds them")
        if ev is None:
            raise RawLogError(lineno, "neither a frame (no \"v\") nor an event (no \"ev\")")
        try:
            el.check_event(obj, lineno, ids, el.RAW_FIELDS)
        except el.LogError as e:
            raise RawLogError(lineno, e.msg)
        if "zone" in obj and obj["zone"] not in zones:
            # as the board refuses it (runtime.recorder.input_problem): a replay must not take it
            raise RawLogError(lineno, "%s event: no zone %d on board %s" % (ev, obj["zone"], header.get("board")))
        yield lineno, "control", obj
    if header is None:
        raise RawLogError(max(lineno, 1), "empty log: no header line")


def read_lines(src, load_board=None):
    log = None
    for lineno, kind, obj in iter_raw(src, load_board):
        if kind == "header":
            log = RawLog(obj[0], obj[1])
        elif kind == "frame":
            log.frames.append(obj)
        else:
            log.controls.append(obj)
    return log


def read(path, load_board=None):
    """Read and validate a whole raw log; errors name the file and the line
    (the shared limits of host_tools.logs.logfile first)."""
    from host_tools.logs.logfile import read_lines as file_lines
    lines = file_lines(path)
    try:
        return read_lines(lines, load_board)
    except RawLogError as e:
        raise RawLogError(e.line, e.msg, where=str(path)) from None
