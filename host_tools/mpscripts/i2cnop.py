# Runs under the unix port's micropython (mpscripts/i2cbus.py): machine-code
# functions that do nothing, standing for machine.I2C's C calls while
# heap32 times an I2C scanner's loop (their cost is added from the chip's
# figures, bench/chiptime.py). A file of its own: a port without a native
# emitter cannot compile it.
import micropython


@micropython.viper
def nop1(a):
    pass


@micropython.viper
def nop2(a, b):
    pass


@micropython.viper
def nop3(a, b, c):
    pass
