"""A stand-in board at the other end of a TCP socket, speaking serial
protocol v1 (docs/formats/serial-protocol-v1.md) with the firmware's own
codec, for tests of host commands against behaviour the virtual board cannot
produce. Subclasses answer frames in on_frame(seq, typ, body) and reply with
send(seq, typ, body)."""
import socket
import threading

from host_tools import fwpath


class LinkBoard:
    def __init__(self):
        fwpath.ensure()
        from link import codec
        self.codec = codec
        self.conn = None
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(1)
        self.port = self.sock.getsockname()[1]
        self.url = "socket://127.0.0.1:%d" % self.port
        self.th = threading.Thread(target=self.serve, daemon=True)

    def start(self):
        self.th.start()

    def serve(self):
        conn, _ = self.sock.accept()
        self.conn = conn
        dec = self.codec.Decoder(self.on_frame)
        while True:
            try:
                data = conn.recv(4096)
            except OSError:
                return
            if not data:
                return
            dec.feed(data)

    def send(self, seq, typ, body):
        self.conn.sendall(self.codec.encode(seq, typ, body))

    def on_frame(self, seq, typ, body):
        raise NotImplementedError
