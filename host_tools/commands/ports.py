"""bakumat ports: list the serial ports and say which one is an ESP32 board."""
import sys

from host_tools.device import ports


def add_arguments(p):
    pass


def run(args):
    infos = sorted(ports.comports(), key=lambda i: i.device)
    found = ports.candidates(infos)
    if not infos:
        print("no serial ports found")
        return 1
    for i in infos:
        mark = "*" if i in found else " "
        print("%s %s  %s" % (mark, i.device, ports.describe(i)))
    if found:
        print("(* = a USB-serial chip an ESP32 board uses; `bakumat` picks it when it is the only one)")
    else:
        print("no ESP32 board among them (pass --port PORT to use one anyway)", file=sys.stderr)
    return 0
