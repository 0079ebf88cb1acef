"""Talking to a real board: finding its port (ports), the serial protocol
(link, boardlink, linkshare), files over mpremote (transport), putting
MicroPython on it (flash), compiling and copying the firmware (mpybuild,
mpmanifest, deploy) and the progress bars they show (progress)."""
