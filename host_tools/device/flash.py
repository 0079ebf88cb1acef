"""Putting MicroPython on an ESP32 with esptool 5 (its Python API).

    flash.flash(port, image=None, expect_mcu=None, api=None, out=sys.stderr)

Steps (each one an esptool call, in this order): detect_chip, run_stub,
the loader's change_baud(baud) (460800 by default, as esptool does),
attach_flash, erase_flash, write_flash([(offset, image)]), reset_chip.
The offset is the chip's: 0x1000 for ESP32 and ESP32-S2, 0x0 for S3/C3/C6.
The image is checked before anything is erased: an ESP image starts with
0xE9 and names its chip in bytes 12-13 of its header (esptool's
IMAGE_CHIP_ID), which must be the chip on the port.

`api` is the esptool boundary: an object with detect_chip, run_stub,
attach_flash, erase_flash, write_flash and reset_chip (esptool.cmds by
default; tests pass a recording fake). Images not given on the command
line are taken from the local cache folder, never downloaded:
$BAKUMAT_CACHE or $XDG_CACHE_HOME/bakumat or ~/.cache/bakumat, then
firmware/<chip>/*.bin (the newest file wins).
"""
import glob
import os
import struct
import sys

from host_tools.device import ports
from host_tools.errors import UserError
from host_tools.device.progress import Progress

# our mcu name -> (esptool CHIP_NAME, IMAGE_CHIP_ID, flash offset of the MicroPython image)
CHIPS = {
    "esp32": ("ESP32", 0, 0x1000),
    "esp32s2": ("ESP32-S2", 2, 0x1000),
    "esp32s3": ("ESP32-S3", 9, 0x0),
    "esp32c3": ("ESP32-C3", 5, 0x0),
    "esp32c6": ("ESP32-C6", 13, 0x0),
}
_BY_ESPTOOL = dict((v[0], k) for k, v in CHIPS.items())
_BY_ID = dict((v[1], k) for k, v in CHIPS.items())

# upstream MicroPython board names (file names of the downloads) -> chip
_NAME_HINTS = (("ESP32_GENERIC_S3", "esp32s3"), ("ESP32_GENERIC_S2", "esp32s2"),
               ("ESP32_GENERIC_C3", "esp32c3"), ("ESP32_GENERIC_C6", "esp32c6"),
               ("ESP32_GENERIC", "esp32"))

ROM_BAUD = 115200       # the ROM bootloader's speed (esptool's ESP_ROM_BAUD)

DOWNLOAD_MODE_HELP = ("put the board in download mode: hold the BOOT button (IO0), tap EN/RESET, "
                      "release BOOT, then run the command again. If it still fails, try another "
                      "USB cable or a lower --baud")


def offset(mcu):
    return CHIPS[mcu][2]


def cache_dir():
    base = os.environ.get("BAKUMAT_CACHE")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = os.path.join(xdg, "bakumat")
    return os.path.join(base, "firmware")


def find_cached(mcu):
    folder = os.path.join(cache_dir(), mcu)
    files = [f for f in glob.glob(os.path.join(folder, "*.bin")) if os.path.isfile(f)]
    if not files:
        raise UserError(
            "no MicroPython image for %s in %s and none given. Download the .bin for your chip "
            "from the MicroPython downloads page (board %s) and put it in that folder, or pass "
            "--image FILE. (bakumat does not download anything itself.)"
            % (CHIPS[mcu][0], folder, _upstream_name(mcu)))
    files.sort(key=lambda f: (os.path.getmtime(f), f))
    return files[-1]


# The stock image to use per chip. The S3 one is the reference board's (an
# ESP32-S3-DevKitC-1 N8R8): only the SPIRAM_OCT variant uses its octal PSRAM,
# where the GC heap goes; the app sets 240 MHz at boot on every image.
IMAGES = {"esp32s3": "ESP32_GENERIC_S3-SPIRAM_OCT"}


def _upstream_name(mcu):
    if mcu in IMAGES:
        return IMAGES[mcu]
    for name, m in _NAME_HINTS:
        if m == mcu:
            return name
    return "?"


def image_chip(path):
    """The mcu an image is built for, from its header (else its file name).
    Raises UserError when the file is not an ESP firmware image."""
    try:
        with open(path, "rb") as f:
            head = f.read(24)
    except OSError as e:
        raise UserError("cannot read image %s: %s" % (path, e.strerror or e))
    if len(head) < 24 or head[0] != 0xE9:
        raise UserError("%s is not an ESP32 firmware image (it must start with byte 0xE9, the "
                        "ESP image magic; is it a MicroPython .bin for ESP32?)" % path)
    chip_id = struct.unpack_from("<H", head, 12)[0]
    if chip_id in _BY_ID:
        return _BY_ID[chip_id]
    base = os.path.basename(path).upper()
    for hint, m in _NAME_HINTS:
        if hint in base:
            return m
    raise UserError("%s: unknown chip id %d in the image header" % (path, chip_id))


def esptool_api():
    import esptool.cmds
    return esptool.cmds


def _is_fatal(e):
    try:
        from esptool.util import FatalError
    except ImportError:
        return False
    return isinstance(e, FatalError)


def explain(e, port):
    """A UserError for an esptool failure."""
    text = str(e)
    low = text.lower()
    if "download mode" in low or "failed to connect" in low or "no serial data received" in low:
        first = text.strip().splitlines()[0]
        return UserError("the chip on %s did not answer the bootloader (%s): %s." % (port, first, DOWNLOAD_MODE_HELP))
    if "could not open" in low or "busy" in low or "permission denied" in low:
        return ports.open_error(e, port)
    first = text.strip().splitlines()[0] if text.strip() else type(e).__name__
    return UserError("esptool failed on %s: %s" % (port, first))


class _Logger:
    """esptool's logger, redirected: progress bars into ours, chatter kept
    (shown with verbose), warnings and errors to our stream."""

    def __new__(cls, *a, **k):
        from esptool.logger import EspLogBase

        class L(EspLogBase):
            def __init__(self, out, verbose):
                self.out = out
                self.verbose = verbose
                self.lines = []
                self.bar = None
                self.label = "Writing"

            def print(self, *args, **kwargs):
                text = " ".join(str(a) for a in args)
                self.lines.append(text)
                if self.verbose:
                    self.out.write(text + kwargs.get("end", "\n"))

            def err(self, *args, suggestion=None):
                self.out.write("esptool: " + " ".join(str(a) for a in args) + "\n")

            def warn(self, *args, suggestion=None):
                self.out.write("esptool warning: " + " ".join(str(a) for a in args) + "\n")

            warning = warn
            error = err

            def note(self, *args):
                self.print(*args)

            def hint(self, *args):
                self.print(*args)

            def debug(self, *args):
                pass

            def set_verbosity(self, mode):
                pass

            def progress_bar(self, cur_iter, total_iters, prefix="", suffix="", bar_length=30):
                if self.bar is None or self.bar.total != total_iters:
                    if self.bar is not None:
                        self.bar.close()
                    self.bar = Progress(self.label, total=total_iters, unit="B", stream=self.out)
                self.bar.set(cur_iter)
                if cur_iter >= total_iters:
                    self.bar.close()

            def finish(self):
                if self.bar is not None:
                    self.bar.close()

        return L(*a, **k)


def flash(port, image=None, expect_mcu=None, api=None, out=None, baud=460800, erase=True, verbose=False):
    """Flash MicroPython; returns (mcu, image path, offset). See the module docstring."""
    out = sys.stderr if out is None else out
    if ports.is_url(port):
        raise UserError("%s is not a USB serial port: flashing needs a real board in download mode "
                        "(the virtual board already runs MicroPython: use `bakumat deploy`)" % port)
    if image is not None:
        image_mcu = image_chip(image)       # check the file before touching the board
    if api is None:
        api = esptool_api()
        from host_tools.device import transport
        transport.check_port(port)          # our clear busy/permission messages first
    try:
        from esptool.logger import EspLog
    except ImportError:
        EspLog = None
    logger = _Logger(out, verbose)
    saved = EspLog.instance if EspLog is not None else None
    if EspLog is not None:
        EspLog.set_logger(logger)
    esp = None
    try:
        try:
            out.write("connecting to the bootloader on %s...\n" % port)
            esp = api.detect_chip(port)
            chip_name = getattr(esp, "CHIP_NAME", "?")
            mcu = _BY_ESPTOOL.get(chip_name)
            if mcu is None:
                raise UserError("the chip on %s is an %s, which BakuMat does not support (supported: %s)"
                                % (port, chip_name, ", ".join(v[0] for v in CHIPS.values())))
            out.write("chip: %s\n" % chip_name)
            if expect_mcu and expect_mcu != mcu:
                raise UserError("the board definition is for %s but the chip on %s is an %s: "
                                "choose the matching --board" % (CHIPS[expect_mcu][0], port, chip_name))
            if image is None:
                image = find_cached(mcu)
                image_mcu = image_chip(image)
                out.write("image: %s (from the cache)\n" % image)
            if image_mcu != mcu:
                raise UserError("wrong image for this chip: %s is built for %s but the board is an %s; "
                                "use the %s image" % (image, CHIPS[image_mcu][0], chip_name, _upstream_name(mcu)))
            off = offset(mcu)
            esp = api.run_stub(esp)
            if baud and baud != ROM_BAUD:
                esp.change_baud(baud)       # as esptool does: the stub talks faster than the ROM
            api.attach_flash(esp)
            if erase:
                out.write("erasing flash (this takes a few seconds)...\n")
                api.erase_flash(esp)
            out.write("writing %s at 0x%x\n" % (os.path.basename(image), off))
            logger.label = "Writing"
            api.write_flash(esp, [(off, image)])
            logger.finish()
            api.reset_chip(esp, "hard-reset")
            out.write("MicroPython written; the board is restarting\n")
            return mcu, image, off
        except UserError:
            raise
        except Exception as e:
            if _is_fatal(e) or type(e).__name__ in ("SerialException", "FatalError") or isinstance(e, OSError):
                raise explain(e, port)
            raise
    finally:
        logger.finish()
        if esp is not None:
            p = getattr(esp, "_port", None)
            try:
                if p is not None:
                    p.close()
            except Exception:
                pass
        if EspLog is not None:
            EspLog.instance = saved
