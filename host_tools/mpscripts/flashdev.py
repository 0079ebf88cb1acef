# Runs under the unix port's micropython (mpscripts/heap32.py, savelayouts.py):
# a RAM block device shaped like the chip's flash (4 KB erase blocks) for
# littlefs (vfs.VfsLfs2, as on the ESP32) that counts the erases and the
# bytes programmed: what a save costs the chip's flash, projected on the
# host (bench/chiptime, bench/savelayouts).


class Flash:
    BS = 4096

    def __init__(self, n):
        self.n = n
        self.ff = b"\xff" * self.BS
        self.data = bytearray(self.ff * n)
        self.erases = self.prog = 0

    def readblocks(self, block, buf, off=0):
        a = block * self.BS + off
        buf[:] = memoryview(self.data)[a:a + len(buf)]

    def writeblocks(self, block, buf, off=None):
        if off is None:
            off = 0
            self.ioctl(6, block)
        a = block * self.BS + off
        self.data[a:a + len(buf)] = buf
        self.prog += len(buf)

    def ioctl(self, op, arg):
        if op == 4:    # block count
            return self.n
        if op == 5:    # block size
            return self.BS
        if op == 6:    # erase
            self.erases += 1
            a = arg * self.BS
            self.data[a:a + self.BS] = self.ff
        return 0
