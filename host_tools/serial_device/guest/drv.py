"""The emulated Arbiter's Python side: a REPL worker inside real MicroPython.

The host (``host_tools/serial_device/vm.py``) answers ``host.call("next")``
with the next piece of work and learns how the last one ended from the
argument. Work is one letter and text: ``x`` code from the raw REPL, ``s`` a
line of the friendly REPL (expression values are printed), ``f`` a file to
run (``main.py`` gets the virtual board as ``board``), ``q`` quit. A reply
that starts with ``+`` has more parts to fetch with ``host.call("more")``.

The WASI build's GC does not scan the C stack, so, as in the emulator's
other drivers, automatic collection is off, everything lives in module
globals (``G`` is the REPL's globals, kept between commands as on a Pico)
and the heap is collected only here, between commands.
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
    if KIND == "f":
        if JOB[1:] == "main.py":
            __import__("emuboard")
            sys.modules["board"] = sys.modules["emuboard"]
            sys.modules["gc"] = __import__("emugc")
        FILE = open(JOB[1:])
        CODE = FILE.read()
        FILE.close()
        CODE = compile(CODE, JOB[1:], "exec")
    else:
        CODE = compile(JOB[1:], "<stdin>", "single" if KIND == "s" else "exec")
    JOB = None


def run():
    global STATUS, EXC
    STATUS = "ok"
    try:
        prepare()
        exec(CODE, G)
    except SystemExit:
        STATUS = "exit"
    except BaseException as exc:  # noqa: B036  (a REPL reports everything)
        EXC = exc  # a global: the GC does not scan the C stack, where this frame is
        report()


def report():
    global STATUS, EXC
    STATUS = "heap" if type(EXC).__name__ == "HeapFull" else "exc"
    sys.print_exception(EXC, sys.stderr)
    EXC = None


main()
