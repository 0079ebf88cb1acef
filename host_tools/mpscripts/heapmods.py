# Runs inside the 32-bit MicroPython WebAssembly port (tools/mp32/run.mjs),
# for host_tools/heap32.modules(): the firmware's modules imported one per
# step in dependency order (params.json: {"path": code dir, "modules": [...]})
# from a ROMFS image or .mpy files; at the start of each step the heap holds
# exactly what is live (run.mjs collects between calls), so "MOD name bytes"
# is what importing that module added (its own imports were done before it),
# then micropython.qstr_info(): the interned names' pools so far, which a
# module loaded from ROMFS or a filesystem adds to the heap and a frozen one
# keeps in flash.
import gc
import json
import micropython
import sys

f = open("params.json")
P = json.load(f)
f.close()
f = None
sys.path.insert(0, P["path"])
S = [0, -1]
gc.collect()


def step():
    i = S[0]
    a = gc.mem_alloc()
    if S[1] >= 0:
        print("MOD", P["modules"][i - 1], a - S[1])
    micropython.qstr_info()     # after each module: its names (the pools are in the heap figure above)
    if i >= len(P["modules"]):
        return False
    S[1] = a
    try:
        __import__(P["modules"][i])
    except (ImportError, SyntaxError, ValueError):
        print("NOTLOADED", P["modules"][i])    # sense.viperloops: no native emitter on this port
    S[0] = i + 1
    gc.collect()
    return True
