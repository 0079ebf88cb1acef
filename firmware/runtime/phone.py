"""The phone page (docs/formats/web-api-v1.md): an HTTP server on the
listening socket the hw layer made, serving the files in web/ and the API
of this game's web app (link.webapp.WebApp, one per game). Imported only
on a board that serves the page: its modules cost heap.

    phone = PhonePage(listener, clock, board_def, strip, store, web_dir)
    phone.open()               # at boot: the page answers "no game" until one starts
    phone.serve(session)       # the page for the session's game
    phone.stop()               # the game is dropped: the API says "no game"
    phone.service(deadline)    # every tick, with a small budget
"""
import json

WEB_FILES = ("phone.html", "phone.js", "mat.js", "mat.css")   # "/" is phone.html


class NoGame:
    """The web app between games: every API answer says so."""

    @staticmethod
    def handle(method, path, query, body, peer):
        return 503, "application/json", '{"error": "no game: the mat is not set up"}'


class PhonePage:
    def __init__(self, listener, clock, board_def, strip, store, web_dir):
        from link.pageboard import board_json
        self.listener = listener
        self.clock = clock
        self.page_board = json.dumps(board_json(board_def))   # the page's board, encoded once
        self.strip = strip
        self.store = store
        self.web_dir = web_dir
        self.web = None          # this game's web app
        self.server = None       # made once, at boot or with the first game

    def serve(self, session):
        """The page for the session's game (None: no game yet): the server
        is made once, the web app per game."""
        if session is not None and session.table is not None:
            from link.webapp import WebApp
            try:
                codes = self.store.load_claims()
            except OSError:
                codes = None
            self.web = WebApp(self.page_board, session.table, session.now, self.leds, taught=session.taught,
                              codes=codes, keep=session.keep_claims, zones=session.zone_ids)
        app = self.web if self.web is not None else NoGame
        if self.server is None:
            from link.httpd import HttpServer
            self.server = HttpServer(self.listener, app, self.clock, self.web_dir, WEB_FILES, "phone.html")
        else:
            self.server.app = app

    def open(self):
        """The server, if no game made it yet."""
        if self.server is None:
            self.serve(None)

    def stop(self):
        self.web = None
        if self.server is not None:
            self.server.app = NoGame

    def service(self, deadline):
        if self.server is not None:
            self.server.service(deadline)

    def on_event(self, out):
        """A game output (or the sensing's `learnt`) for the phones."""
        if self.web is not None:
            self.web.on_event(out)

    def open_claim(self, player):
        """A press of the side's button: a late claim is open for a while."""
        if self.web is not None:
            self.web.open_claim(player)

    def leds(self):
        strip = self.strip
        if strip is None:
            return []
        return [list(strip.get(i)) for i in range(strip.n)]
