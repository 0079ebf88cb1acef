"""CRC-16/CCITT-FALSE (link/codec.py's crc16) as a viper loop: machine
code on the chip, where every frame the board sends or takes is checked
byte by byte (16 us per 200 bytes as Python on the unix port, 15 times
less as viper: about 2 ms on an ESP32-S3 otherwise; a raw frame of
`bakumat record` is several hundred bytes every tick). codec.crc16 uses it
where the interpreter compiles viper, its own Python loop elsewhere
(CPython, the WebAssembly port); tests/test_viper_loops.py compares both.
Apart from codec.py because viper's ptr8/ptr16 are names only the viper
compiler knows.
"""
# ruff: noqa: F821
# mypy: ignore-errors
import micropython

from link.codec import _T as _TAB   # the table (codec imports this module after making it)


@micropython.viper
def crc(data: ptr8, start: int, end: int, c: int) -> int:
    """The CRC of data[start:end] from c."""
    t = ptr16(_TAB)
    i = start
    while i < end:
        c = ((c << 8) & 0xFFFF) ^ t[((c >> 8) ^ data[i]) & 0xFF]
        i += 1
    return c
