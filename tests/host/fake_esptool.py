"""A stand-in for the esptool.cmds boundary (the one part of `bakumat flash`
that needs a chip): same function names and arguments as esptool 5's API,
records every call, reports write progress through esptool's real logger
(as esptool does), and raises esptool's real exception types.
"""
import os

from esptool.logger import log
from esptool.util import FatalError

# What esptool's ESPLoader._connect_attempt raises when the ROM boot log shows
# the chip booted normally (strapping pins not in download mode).
WRONG_BOOT = ("Failed to connect to {chip}: Wrong boot mode detected (0x13)! The chip needs to be in "
              "download mode.\nFor troubleshooting steps visit: "
              "https://docs.espressif.com/projects/esptool/en/latest/troubleshooting.html")


class FakeLoader:
    FLASH_WRITE_SIZE = 0x4000

    def __init__(self, chip, port, ops):
        self.ops = ops
        self.CHIP_NAME = chip
        self.port = port
        self.IS_STUB = False
        self.closed = False
        self._port = self

    def close(self):
        self.closed = True

    def change_baud(self, baud):
        self.ops.append(("change_baud", baud))


class FakeEsptool:
    def __init__(self, chip="ESP32", fail=None):
        self.chip = chip
        self.fail = fail        # None | "download" | "nodata"
        self.ops = []
        self.loaders = []
        self.written = {}

    def detect_chip(self, port, *a, **k):
        self.ops.append(("detect_chip", port))
        if self.fail == "download":
            raise FatalError(WRONG_BOOT.format(chip="ESP32"))
        if self.fail == "nodata":
            raise FatalError("Failed to connect to Espressif device: No serial data received.")
        esp = FakeLoader(self.chip, port, self.ops)
        self.loaders.append(esp)
        return esp

    def run_stub(self, esp):
        self.ops.append(("run_stub",))
        esp.IS_STUB = True
        return esp

    def attach_flash(self, esp, *a, **k):
        self.ops.append(("attach_flash",))

    def erase_flash(self, esp, *a, **k):
        self.ops.append(("erase_flash",))

    def write_flash(self, esp, addr_data, *a, **k):
        pairs = []
        for addr, data in addr_data:
            if isinstance(data, str):
                with open(data, "rb") as f:
                    blob = f.read()
                pairs.append((addr, os.path.basename(data)))
            else:
                blob = bytes(data)
                pairs.append((addr, len(blob)))
            self.written[addr] = blob
            with log.progress(total=len(blob), unit="B") as p:
                for k0 in range(0, len(blob), esp.FLASH_WRITE_SIZE):
                    p.update(advance=min(esp.FLASH_WRITE_SIZE, len(blob) - k0))
        self.ops.append(("write_flash", tuple(pairs)))

    def reset_chip(self, esp, reset_mode="hard-reset"):
        self.ops.append(("reset_chip", reset_mode))


def make_image(path, chip_id, size=40000):
    """A file shaped like a MicroPython ESP32 .bin: the bootloader's image
    header (magic 0xE9, extended header with the chip id in bytes 12-13)."""
    head = bytearray(24)
    head[0] = 0xE9
    head[1] = 3            # segments
    head[2] = 2            # flash mode
    head[3] = 0x20         # size/freq
    head[8] = 0xEE         # wp pin
    head[12] = chip_id & 0xFF
    head[13] = chip_id >> 8
    body = bytes((i * 7) & 0xFF for i in range(size - len(head)))
    with open(path, "wb") as f:
        f.write(bytes(head) + body)
    return path
