"""The game's journal as the table sees it: every accepted input is saved.

    rec = Recorder(journal, ids, zone_ids, note, save, changed)
    rec.feed(ev)      # checked, fed to the referee, saved; False: refused

Every accepted input event -- landings, controls from the link, button
presses, phone inputs, inferences, `undo` included -- is saved (store)
before the loop goes on, so a replay of the stored log reproduces them.
An input whose save fails is taken back and refused: the live game never
differs from the saved one.
"""
from store.eventcheck import FIELDS, LogError, check_event


def input_problem(ev, ids, zone_ids):
    """Why an input event may not go into the game (None: it may): its
    fields checked as a log's are (store.eventcheck: types, the game's
    ids), a zone must be one of the board's; fields its kind does not
    have are dropped (whoever sent them: link, phone, buttons), so the
    saved game holds nothing else."""
    if type(ev) is not dict:
        return "an input event must be an object"
    kind = ev.get("ev")
    if kind == "undo" or kind == "end":
        return None
    spec = FIELDS.get(kind) if type(kind) is str else None
    if spec is None or ids is None:
        return "unknown input"
    try:
        check_event(ev, 0, ids)
    except LogError as e:
        return e.msg
    except (KeyError, TypeError, ValueError):
        return "malformed event"
    z = ev.get("zone")
    if z is not None and z not in zone_ids:
        return "no zone %d on this mat" % z
    for k in list(ev):
        if k != "t" and k != "ev" and k != "by":
            keep = False
            for name, _typ, _req in spec:
                if name == k:
                    keep = True
            if not keep:
                del ev[k]
    by = ev.get("by")
    if by is not None and (type(by) is not str or len(by) > 12):
        del ev["by"]
    return None


class Recorder:
    """journal: referee.journal.Journal; ids: the game's ids
    (store.eventcheck.Ids); zone_ids: the board's zones; note(ev): told
    of every input first (the sink knows which zone it was about, for the
    reject feedback); save(ev): None once saved, else why not; changed():
    the game's view may have changed. Anything else (game, expects(),
    view()) is the journal's."""

    def __init__(self, journal, ids, zone_ids, note, save, changed):
        self.journal = journal
        self.ids = ids
        self.zone_ids = zone_ids
        self.note = note
        self.save = save
        self.changed = changed

    def feed(self, ev):
        self.note(ev)
        why = input_problem(ev, self.ids, self.zone_ids)
        if why is not None:
            if self.journal.sink is not None:
                t = ev.get("t")
                self.journal.sink(("reject", t if type(t) is int else self.journal.game.t,
                             (("input", ev.get("ev") if type(ev.get("ev")) is str else "?"), ("reason", why))))
            return False
        before = list(self.journal.events)
        ok = self.journal.feed(ev)
        if ok:
            err = self.save(ev)
            if err is not None:
                self._unsaved(before, ev, err)
                ok = False
        self.changed()
        return ok

    def undo(self, t):
        """Take back the last event (a button's long press, a phone): saved
        as an `undo` input event like the link's."""
        before = list(self.journal.events)
        last = self.journal.undo(t)
        if last is not None:
            ev = {"t": t, "ev": "undo"}
            err = self.save(ev)
            if err is not None:
                self._unsaved(before, ev, err)
                last = None
        self.changed()
        return last

    def _unsaved(self, before, ev, err):
        """The input was accepted but its save failed (a full filesystem,
        a flash error): the game goes back to what is saved, and the
        input is refused, so the live game never differs from the saved."""
        self.journal.restore(before)
        if self.journal.sink is not None:
            self.journal.sink(("reject", ev.get("t", 0), (("input", ev.get("ev")),
                                                    ("reason", "not saved: %s" % err))))

    def finish(self, t=None):
        self.journal.finish(t)
        self.changed()

    def __getattr__(self, name):
        return getattr(self.journal, name)
