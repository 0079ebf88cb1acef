"""Where the firmware tree lives, and making it importable under CPython.

The host runs the very same firmware modules (referee, sense, store) that run
on the board; they are top-level modules there, so the firmware folder goes
on sys.path here.
"""
import os
import sys

REPO_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE_DIR = os.path.join(REPO_DIR, "firmware")
BOARDS_DIR = os.path.join(REPO_DIR, "boards")


def ensure():
    if FIRMWARE_DIR not in sys.path:
        sys.path.insert(0, FIRMWARE_DIR)
    return FIRMWARE_DIR
