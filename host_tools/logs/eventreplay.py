"""Replaying an event log (docs/formats/event-log-v1.md) through the
referee, as `bakumat replay LOG` prints it: a readable transcript in the
mat's words, or the referee's output events as NDJSON.

    game = replay_events(lines, path, as_json, out)   # the Journal at the end;
                                                     # UserError naming the file and line on bad input
"""
from host_tools import fwpath
from host_tools.errors import UserError


def replay_events(lines, path, as_json, out):
    fwpath.ensure()
    from referee import events
    from referee.errors import SetupError
    from referee.journal import Journal
    from store import eventlog

    game_box = []
    write = out.write

    if as_json:
        def sink(o):
            write(events.encode_json(o) + "\n")
    else:
        import json
        from host_tools.words import Words
        words = []

        def sink(o):
            if not words:
                words.append(Words(game_box[0].header))
            write(words[0].line(json.loads(events.encode_json(o))) + "\n")

    class _Sink:
        # The text transcript needs the game for names; it exists once the
        # header is read, before the first output event.
        def __call__(self, o):
            sink(o)

    try:
        game = None
        t = 0
        for lineno, obj in eventlog.iter_log(lines, deep=False):  # Journal() runs the mode's checks
            if game is None:
                game = Journal(obj, _Sink())
                game_box.append(game)
            else:
                t = obj["t"]
                game.feed(obj)
        game.finish(t)
    except eventlog.LogError as e:
        raise UserError("%s: %s" % (path, e))
    except SetupError as e:
        raise UserError("%s: line 1: %s" % (path, e))
    return game
