"""A RAM block device shaped like ESP32 flash (4 KB erase blocks) that can
lose power at a chosen block write: the power-cut tests' flash
(tests/mp/powercut.py, tests/mp/powercut_app.py). MicroPython only.

    bd = RAMBlockDev(data=None, mode="cut")   # "cut": the write at the cut
    bd.cut_at = n                             # does not happen; "torn": half of it
    vfs.VfsLfs2.mkfs(bd); vfs.mount(vfs.VfsLfs2(bd), "/x")
"""
BS = 4096
NBLOCKS = 8


class PowerCut(Exception):
    pass


_CUT = PowerCut()   # preallocated: may be raised from a finaliser with the heap locked
_FF = b"\xff" * BS


class RAMBlockDev:
    def __init__(self, data=None, mode="cut", nblocks=NBLOCKS):
        self.mode = mode
        self.nblocks = nblocks
        self.data = data if data is not None else bytearray(b"\xff" * (BS * nblocks))
        self.writes = 0
        self.cut_at = -1
        self.dead = False

    def readblocks(self, block, buf, off=0):
        if self.dead:
            raise _CUT
        a = block * BS + off
        buf[:] = self.data[a:a + len(buf)]

    def writeblocks(self, block, buf, off=None):
        if self.dead:
            raise _CUT
        if off is None:
            off = 0
            self._erase(block)  # simple interface: whole-block write
        if self.writes == self.cut_at:
            if self.mode == "torn":
                a = block * BS + off
                h = len(buf) // 2
                self.data[a:a + h] = buf[:h]
            self.writes += 1
            self.dead = True
            raise _CUT
        self.writes += 1
        a = block * BS + off
        self.data[a:a + len(buf)] = buf

    def _erase(self, block):
        if self.dead:
            raise _CUT
        if self.writes == self.cut_at:
            self.writes += 1
            self.dead = True
            raise _CUT
        self.writes += 1
        a = block * BS
        self.data[a:a + BS] = _FF

    def ioctl(self, op, arg):
        if op == 4:
            return self.nblocks
        if op == 5:
            return BS
        if op == 6:
            self._erase(arg)
            return 0
