"""The live demo's simulated players (host_tools/demo/demo_players.py): they
watch the mat and correct it the way the table allows (undo, a Bakugan put
down again, playing the Bakugan the mat reads), and the game ends with the
winner the board's referee declares.

The misreading mat here is the firmware's sensing and referee under CPython
with its landing reports tampered with between the pipeline and the
referee, so the corrections are exercised whatever the sensing's accuracy;
tests/host/test_webview.py plays a whole demo on the virtual board (the
micropython binary)."""
import io
import re

from host_tools.demo import demo_game, demo_players

FirmwareMat = demo_game.FirmwareMat  # the tests replace the module's name with their own mats


class Misreading(FirmwareMat):
    """Reads the first Bakugan thrown as another of the same player, every
    time (while that one may land), and misses the second landing entirely."""

    def __init__(self, board, header):
        FirmwareMat.__init__(self, board, header)
        self.pipe = self.match.pipeline.sink
        self.match.pipeline.sink = self._tamper
        self.victim = None
        self.reads = []  # (what landed, what the referee was told)
        self.lands = 0
        self.dropped = {}  # Bakugan -> what its last landing was reported as, when tampered with

    def _tamper(self, ev):
        if ev.get("ev") == "ident" and ev.get("bakugan") in self.dropped:
            ev = dict(ev, bakugan=self.dropped[ev["bakugan"]])  # a later, better reading: the same mistake
        elif ev.get("ev") == "land" and not ev.get("learned") and ev.get("bakugan"):
            ev = dict(ev)
            real = ev["bakugan"]
            self.lands += 1
            _, cands = self.match.game.expects()
            if self.victim is None:
                others = [b for b in cands if b != real]
                if others:
                    self.victim = (real, others[0])
            if self.victim is not None and real == self.victim[0] and self.victim[1] in cands:
                ev["bakugan"] = self.victim[1]
                self.dropped[real] = self.victim[1]
            elif self.lands == 2:
                ev["bakugan"] = None  # not identified: the referee hears nothing
                self.dropped[real] = None
            else:
                self.dropped.pop(real, None)
            self.reads.append((real, ev["bakugan"]))
        self.pipe(ev)


def test_players_correct_a_misreading_mat_and_the_board_declares_the_winner(monkeypatch):
    # seed 2 on the demo's board (its mat in its nominal world) plays every
    # correction and ends with a winner (seed 1 does not end: the tampered
    # mat reads robotallion as mantris while mantris stands on the zone it
    # is thrown to, and the players give up after 6 rounds of corrections)
    seed = 2
    mats = []

    def make(board, header):
        mats.append(Misreading(board, header))
        return mats[-1]

    monkeypatch.setattr(demo_game, "FirmwareMat", make)
    out = io.StringIO()
    assert demo_game.run_demo(seed=seed, speed=0, out=out, firmware="cpython") == 0
    text = out.getvalue()
    mat = mats[0]
    real, read = mat.victim
    assert (real, read) in mat.reads, "the mat misread a landing"
    # the players saw it, held BACK, and the board's referee took the landing back
    assert re.search(r"players: on zone \d+ the mat has [^;]*%s[^;]*, the players have [^;]*; they undo the mat's "
                     r"last step \(BACK held\)" % read, text)
    assert re.search(r'takes back the last landing', text), "the board's referee's own undo event"
    # the landing the mat did not hear: put down again
    assert re.search(r"players: the mat did not take \S+ on zone \d+; put it down again", text)
    # the misread one, read the same way again: its player plays the one the mat reads
    assert "players: the mat keeps reading %s as %s on zone" % (real, read) in text
    assert re.search(r"players' corrections: [1-9]\d* undo, [1-9]\d* Bakugan put down again, [1-9]\d* played "
                     r"instead", text)
    # and the game still ends with the winner the board's referee declared
    v = mat.view()
    assert v["phase"] == "over" and v["winner"] is not None
    name = mat.tracker.header["players"][v["winner"]]["name"]
    assert "*** %s WINS ***" % name in text
    assert text.rstrip().splitlines()[-1] == "winner: %s, declared by the board's referee (seed %d)" % (name, seed)


def test_players_give_up_on_a_mat_that_never_hears_a_landing(monkeypatch):
    """A mat deaf to every landing: the players put each Bakugan down again
    a few times, then the demo ends and says why there is no winner."""

    class Deaf(FirmwareMat):
        def __init__(self, board, header):
            FirmwareMat.__init__(self, board, header)
            pipe = self.match.pipeline.sink

            def tamper(ev):
                if ev.get("ev") == "land" and not ev.get("learned"):
                    ev = dict(ev, bakugan=None)
                pipe(ev)
            self.match.pipeline.sink = tamper

    monkeypatch.setattr(demo_game, "FirmwareMat", Deaf)
    out = io.StringIO()
    assert demo_game.run_demo(seed=2, speed=0, out=out, firmware="cpython") == 0
    text = out.getvalue()
    assert text.count("put it down again") + text.count("down first") >= 2
    last = text.rstrip().splitlines()[-1]
    assert last.startswith("no winner (seed 2): the players gave up: after %d rounds of corrections the mat "
                           "still disagrees with the table (on zone " % demo_players.TRIES), last
    assert "*** " not in text


def test_the_generator_plays_until_the_end_without_a_throw_limit():
    from host_tools import boards
    from host_tools.sim import game as sgame
    board = boards.load(boards.REFERENCE)
    for seed in (1, 2, 3):
        import random
        rng = random.Random("game:%s" % seed)
        gen = sgame.GameGen(rng, board, sgame.game_header(rng, None), dict(sgame.DEFAULTS, max_throws=None))
        gen.play()
        assert gen.stopped == "over" and gen.g.phase == 3 and gen.g.winner is not None
    # a limit still stops it, and says so
    rng = random.Random("game:1")
    gen = sgame.GameGen(rng, board, sgame.game_header(rng, None), dict(sgame.DEFAULTS, max_throws=3))
    gen.play()
    assert gen.stopped == "max_throws" and gen.g.phase != 3
