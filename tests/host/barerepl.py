"""A bare MicroPython board for tests: the real unix-port micropython binary
with its REPL on a pty, bridged to socket://127.0.0.1:PORT, its filesystem
root mounted on a host folder (so a test can look at what was copied).
No app runs on it: it stands for a board that has MicroPython and nothing
else (the virtual board of `bakumat vboard` runs the app).

    with BareRepl(tmp_path / "fs") as b:
        b.url        # socket://127.0.0.1:PORT
    with BareRepl(tmp_path / "fs", device=True) as b:
        b.url        # /dev/pts/N: a serial device path, like a USB board
"""
import os
import select
import socket
import subprocess
import threading
import tty

from mptools import tool

BOOT = """
import vfs, os, sys
vfs.umount('/')
vfs.mount(vfs.VfsPosix(%r), '/')
os.chdir('/')
sys.path[:] = ['', '/lib', '.frozen']
"""


class BareRepl:
    def __init__(self, root, device=False):
        self.device = device
        self.root = str(root)
        os.makedirs(self.root, exist_ok=True)
        self.proc = None
        self.srv = None
        self._stop = False

    def __enter__(self):
        master, slave = os.openpty()
        tty.setraw(slave)       # no \n -> \r\n translation: the REPL writes \r\n itself
        boot = os.path.join(os.path.dirname(self.root), "barerepl_boot.py")
        with open(boot, "w") as f:
            f.write(BOOT % self.root)
        self.proc = subprocess.Popen([tool("micropython"), "-i", boot], stdin=slave, stdout=slave,
                                     stderr=slave, close_fds=True)
        os.close(slave)
        self.master = master
        if self.device:
            # a second pty: clients open its slave path as a serial device
            self.dmaster, dslave = os.openpty()
            tty.setraw(dslave)
            self.url = os.ttyname(dslave)
            self.dslave = dslave        # held open so the master never sees EIO
            self.thread = threading.Thread(target=self._serve_device, daemon=True)
            self.thread.start()
            return self
        self.srv = socket.socket()
        self.srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.srv.bind(("127.0.0.1", 0))
        self.srv.listen(4)
        self.url = "socket://127.0.0.1:%d" % self.srv.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()
        return self

    def _serve(self):
        while not self._stop:
            try:
                conn, _ = self.srv.accept()
            except OSError:
                return
            with conn:
                while not self._stop:
                    r, _, _ = select.select([conn, self.master], [], [], 0.1)
                    if conn in r:
                        data = conn.recv(4096)
                        if not data:
                            break
                        os.write(self.master, data)
                    if self.master in r:
                        try:
                            data = os.read(self.master, 4096)
                        except OSError:
                            return
                        try:
                            conn.sendall(data)
                        except OSError:
                            break

    def _serve_device(self):
        while not self._stop:
            r, _, _ = select.select([self.dmaster, self.master], [], [], 0.1)
            try:
                if self.dmaster in r:
                    os.write(self.master, os.read(self.dmaster, 4096))
                if self.master in r:
                    os.write(self.dmaster, os.read(self.master, 4096))
            except OSError:
                return

    def __exit__(self, *a):
        self._stop = True
        if self.srv is not None:
            try:
                self.srv.close()
            except OSError:
                pass
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
        self.thread.join(2)
        os.close(self.master)
        if self.device:
            os.close(self.dmaster)
            os.close(self.dslave)
