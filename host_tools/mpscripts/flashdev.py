# Runs under the unix port's micropython (mpscripts/heap32.py, savelayouts.py):
# a RAM block device shaped like the chip's flash (4 KB erase blocks) for
# littlefs (vfs.VfsLfs2, as on the ESP32) that counts the erases and the
# bytes programmed: what a save costs the chip's flash, projected on the
# host (bench/chiptime, bench/savelayouts). It also counts the time its own
# methods take (us): Python standing in for the chip's flash driver, which
# the bench takes out of a tick (the flash's own time is projected from the
# counts instead); the firmware's and littlefs's work around it stay in.
import time


class Flash:
    BS = 4096

    def __init__(self, n):
        self.n = n
        self.ff = b"\xff" * self.BS
        self.data = bytearray(self.ff * n)
        self.erases = self.prog = 0
        self.reads = self.read_bytes = 0      # readblocks calls, bytes read
        self.us = 0

    def readblocks(self, block, buf, off=0):
        t0 = time.ticks_us()
        a = block * self.BS + off
        buf[:] = memoryview(self.data)[a:a + len(buf)]
        self.reads += 1
        self.read_bytes += len(buf)
        self.us += time.ticks_diff(time.ticks_us(), t0)

    def writeblocks(self, block, buf, off=None):
        t0 = time.ticks_us()
        if off is None:
            off = 0
            self._erase(block)
        a = block * self.BS + off
        self.data[a:a + len(buf)] = buf
        self.prog += len(buf)
        self.us += time.ticks_diff(time.ticks_us(), t0)

    def ioctl(self, op, arg):
        if op == 4:    # block count
            return self.n
        if op == 5:    # block size
            return self.BS
        if op == 6:    # erase
            t0 = time.ticks_us()
            self._erase(arg)
            self.us += time.ticks_diff(time.ticks_us(), t0)
        return 0

    def _erase(self, block):
        self.erases += 1
        a = block * self.BS
        self.data[a:a + self.BS] = self.ff
