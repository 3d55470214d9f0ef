"""Runs at every start and soft reset, before main.py and before any code a PC sends.

While the table lets a PC connect to a game (``usb.open`` on flash, screens/usb.py),
B takes the device back at once, whatever the PC is doing: the device restarts into
its game with the USB port shut. board.py takes the pin over once the firmware runs;
main.py hands it back here if a PC's Ctrl-C stops the firmware.
"""


def _arm():
    import time

    import machine

    from arbiter.hw import wiring
    from arbiter.hw.flash import Flash

    flash = Flash("")
    try:  # read only: board.py reports (and sets aside) a config.json it cannot take
        found = wiring.load(flash.read(wiring.FILE))[0]
    except Exception:
        found = wiring.load(None)[0]

    def back(pin):  # a soft interrupt: it runs between a PC's bytecodes, or as it waits
        if flash.exists("usb.open"):
            flash.remove("usb.open")
            while not pin.value():  # B let go first: held at power-on, it opens the port
                time.sleep_ms(10)
            machine.reset()

    machine.Pin(found["buttons"]["b"], machine.Pin.IN, machine.Pin.PULL_UP).irq(
        back, machine.Pin.IRQ_FALLING)


try:
    _arm()
except Exception:  # never in the way of a boot (the simulator has no machine.Pin.irq)
    pass
del _arm
