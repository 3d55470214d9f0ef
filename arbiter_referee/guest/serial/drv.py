"""The emulated Arbiter's Python side: a REPL worker inside real MicroPython.

The host (``host_tools/serial_device/vm.py``) answers ``host.call("next")``
with the next piece of work and learns how the last one ended from the
argument. Work is one letter and text: ``x`` code from the raw REPL, ``s`` a
line of the friendly REPL (expression values are printed), ``f`` a file to
run, ``m`` ``main.py`` wrapped in ``__main__()`` by the host (see
``mainpy.py``; it gets the virtual board as ``board``), ``q`` quit. A reply
that starts with ``+`` has more parts to fetch with ``host.call("more")``.

The WASI build's GC does not scan the C stack, so, as in the emulator's
other drivers, automatic collection is off, everything lives in module
globals (``G`` is the REPL's globals, kept between commands as on a Pico)
and the heap is collected here, between commands, and by the firmware's
main loop after a busy pass (at a point where all it holds is reachable).
"""

import gc
import sys

import host

gc.disable()
import os  # noqa: E402,F401  (the wrapper in this folder, cached for every later import)

sys.path[:0] = ["", ".frozen", "/lib"]  # the Pico's path, then this folder and vdevice

G = {"__name__": "__main__"}
JOB = ""
PARTS = None
CODE = None
KIND = ""
STATUS = "ready " + sys.version
FILE = None
EXC = None


def main():
    # Collections happen here and in user code (main.py calls gc.collect()): every
    # frame on the way, this one and run()'s, must stay small enough that
    # MicroPython keeps it on the C stack, not in a heap block only C points to.
    while True:
        gc.collect()
        fetch()
        if KIND == "q":
            return
        run()


def fetch():
    global JOB, PARTS, CODE, KIND, FILE
    CODE = FILE = None
    JOB = host.call("next", STATUS)
    PARTS = [JOB[1:]]
    while JOB[0] == "+":
        JOB = host.call("more", "")
        PARTS.append(JOB[1:])
    JOB = "".join(PARTS)
    PARTS = None
    KIND = JOB[0]


def prepare():
    global JOB, CODE, FILE
    if KIND == "m":
        __import__("emuboard")
        sys.modules["board"] = sys.modules["emuboard"]
        CODE = compile(JOB[1:], "main.py", "exec")
    elif KIND == "f":
        FILE = open(JOB[1:])
        CODE = FILE.read()
        FILE.close()
        CODE = compile(CODE, JOB[1:], "exec")
    else:
        CODE = compile(JOB[1:], "<stdin>", "single" if KIND == "s" else "exec")
    JOB = None


def run():
    # main.py's loop collects while this frame is below it, so it must stay on the
    # C stack: MicroPython puts a bigger frame (a handler with "as NAME" is already
    # too big) on the heap, reachable only from C, and the collection would free it
    # before a KeyboardInterrupt comes back here.
    try:
        work()
    except BaseException:  # noqa: B036  (a REPL reports everything)
        caught()
    report()


def caught():
    global EXC
    EXC = sys.exc_info()[1]  # a global: the GC does not scan the C stack


def work():
    prepare()
    exec(CODE, G)
    if KIND == "m":
        G["__main__"]()


def report():
    global STATUS, EXC
    STATUS = "ok"
    if EXC is None:
        return
    STATUS = "exit" if isinstance(EXC, SystemExit) else "exc"
    if STATUS == "exc":
        sys.print_exception(EXC, sys.stderr)
    EXC = None


main()
