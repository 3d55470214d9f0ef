// CPU cycles spent inside some of MicroPython's C functions (the ELF's symbols):
// where a Pico's time goes, for the bench. A function's time runs from its entry to
// its return (LR), the calls it makes included; a call while it runs (recursion)
// counts in the outer one.

export class Meters {
  /** ``symbols``: name -> address (Thumb bit set or not); ``cycles``: a clock. */
  constructor(symbols, cycles) {
    this.cycles = cycles;
    this.entries = new Map();
    this.figures = {};
    for (const [name, address] of Object.entries(symbols)) {
      const meter = { name, ret: -1, start: 0 };
      this.entries.set(address & ~1, meter);
      this.figures[name] = { calls: 0, cycles: 0 };
    }
    this.active = []; // the meters inside their function, waiting for its return
  }

  /** Before each instruction: ``pc`` about to run, ``lr`` the link register. */
  step(pc, lr) {
    const { active } = this;
    for (let i = 0; i < active.length; i++) {
      const meter = active[i];
      if (meter.ret === pc) {
        const figure = this.figures[meter.name];
        figure.calls += 1;
        figure.cycles += this.cycles() - meter.start;
        meter.ret = -1;
        active.splice(i, 1);
        return;
      }
    }
    const meter = this.entries.get(pc);
    if (meter !== undefined && meter.ret < 0) {
      meter.ret = lr & ~1;
      meter.start = this.cycles();
      active.push(meter);
    }
  }

  /** A new chip: nothing is running. */
  reset() {
    for (const meter of this.active) meter.ret = -1;
    this.active = [];
  }
}
