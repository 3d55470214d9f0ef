// A Raspberry Pi Pico in rp2040js: the RP2040 running MicroPython's own rp2 port
// from its UF2, with what rp2040js 1.4.1 lacks done here (README.md, "the chip
// runtime"): flash that can be written, a USB host that waits for input, a watchdog
// that resets, random bits, and a clock that can stand still while the CPU works.
// The board around it: buttons on their pins, the OLED's I2C bytes and the LED
// ring's bitstream handed to the caller, the serial console captured.

import { createHash } from 'node:crypto';
import { Meters } from './meters.mjs';

const FLASH_BYTES = 2 * 1024 * 1024; // a Pico's W25Q16
const CYCLE_NANOS = 8; // 125 MHz
const STACK_PAINT = 0x5a5aa5a5; // an untouched word of the C stack
const TIMER_IRQS = [0, 1, 2, 3]; // TIMER_IRQ_0..3
const SPIN_READS = 16; // the timer read this often with nothing else in between: a busy-wait
const LED_RESET_NANOS = 50000; // a WS2812 latches after 50 us low
const LED_ONE_NANOS = 625; // a high pulse longer than this is a 1 (0: 400 ns, 1: 850 ns)
// py/gc.c with the finaliser table (rp2): a heap of T bytes from start has an
// allocation table of A = (T - 1) * 8 / (8 + 4 + 512) bytes (2 bits a 16-byte block,
// 0 = free), then the finalisers' bits, then a pool of 64 A bytes ending at its end
const TABLE_BITS = 8 + 4 + 512;
const POOL_PER_TABLE_BYTE = 64;
// free blocks in a byte of the allocation table
const FREE_BLOCKS = Uint8Array.from({ length: 256 }, (_, byte) =>
  [0, 2, 4, 6].filter((shift) => !((byte >> shift) & 3)).length);

// rp2's linker script (memmap_mp.ld): the C stack in SCRATCH_X and Y, 8 KiB.
const DEFAULT_STACK = { bottom: 0x20040000, top: 0x20042000 };

/** A few random bits per read, as the ring oscillator gives, from a fixed seed. */
function oscillator(seed) {
  let state = BigInt.asUintN(64, seed) | 1n;
  return () => {
    state ^= state << 13n;
    state ^= state >> 7n;
    state ^= state << 17n;
    state = BigInt.asUintN(64, state);
    return Number(state & 1n);
  };
}

/** The emulated device's entropy (guest/board/vboard.py, entropy_seed): the
 * seed, then SHA-256 of "seed/draw" for each later draw, 8 bytes big-endian. */
function entropyDraws(seed) {
  let draws = 0;
  return () => {
    let value = seed;
    if (draws) {
      const digest = createHash('sha256').update(`${seed}/${draws}`).digest();
      value = digest.readBigUInt64BE(0);
    }
    draws += 1;
    const out = Buffer.alloc(8);
    out.writeBigUInt64BE(BigInt.asUintN(64, value));
    return out;
  };
}

export class Pico {
  /**
   * lib: rp2040js's module. options: bootrom and firmware (bytes: the bootrom,
   * the UF2), filesystem ({offset, image}: littlefs as the port mounts it),
   * symbols (from the firmware's ELF, or null), clock ('script': the timer
   * stands still while the CPU works, as the emulated device's clock does;
   * 'pico': it runs with the CPU at 125 MHz), seed (BigInt), heap (the GC's pool
   * in bytes, smaller than the port's: gc_init is given a lower end; null: the
   * port's own), pins ({buttons, led, i2c, oled}), and the callbacks on ({i2c,
   * leds, serial, pass, reset}).
   */
  constructor(lib, options) {
    this.lib = lib;
    this.options = options;
    this.on = options.on;
    this.symbols = options.symbols || {};
    this.flash = new Uint8Array(FLASH_BYTES).fill(0xff);
    loadUF2(options.firmware, this.flash);
    this.flash.set(options.filesystem.image, options.filesystem.offset);
    this.levels = new Map(options.pins.buttons.map((pin) => [pin, 1]));
    this.scheduled = []; // pin changes due at an instant, pass or no pass: {at, pin, level}
    this.seed = options.seed;
    this.boots = 0;
    this.cyclesBefore = 0; // the cycles of the chips before the last reset
    // heapPeak: the most in use, read as a collection starts (the heap at its
    // fullest) and at each pass's end; heapLive: the most in use as one ends
    this.stats = { passes: 0, deepestStack: 0, leastFree: Infinity, heapBytes: null,
                   heapPeak: 0, heapLive: 0, collections: 0,
                   flashErases: 0, flashBytes: 0, flashOps: 0, resets: 0 };
    // the power goes at a moment armed by cutAt(): {op, part} or {cycles}; then
    // the CPU stops where it is (powerLost) until powerCycle()
    this.cut = null;
    this.powerLost = false;
    this.deepestSince = 0; // the C stack's most since the caller last asked (deepest())
    // options.meter: names of C functions whose cycles the stats count (ELF symbols)
    const metered = Object.fromEntries((options.meter || [])
      .filter((name) => this.symbols[name] !== undefined)
      .map((name) => [name, this.symbols[name]]));
    this.meters = options.meter ? new Meters(metered, () => this.cycles()) : null;
    if (this.meters) this.stats.meters = this.meters.figures;
    this.boot();
  }

  // ---- power ----

  boot() {
    const { lib, options } = this;
    const mcu = new lib.RP2040();
    mcu.logger = new lib.ConsoleLogger(lib.LogLevel.Error);
    const rom = options.bootrom;
    mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4));
    mcu.flash.set(this.flash);
    this.mcu = mcu;
    this.clock = mcu.clock;
    this.micros = 0; // the timer's count in 'script' time
    this.running = false; // between a wake-up and the next sleep
    // where time.sleep_ms enters (the ELF's mp_hal_delay_ms): a pass ends there, as
    // the emulated device's ends in its board's sleep_ms, a sleep of 0 ms included;
    // without the ELF, where the CPU first waits for the timer
    const sleep = this.symbols.mp_hal_delay_ms;
    this.sleepEntry = sleep ? sleep & ~1 : null;
    this.passStart = this.cycles(); // where the pass under way began (its wake-up)
    this.watchHeap();
    this.spin = 0;
    this.spinAt = 0;
    this.breaks = new Map();
    this.timer = new Timer(mcu, this);
    mcu.peripherals[0x40054] = this.timer;
    this.quietFifo(mcu);
    this.watchSpins(mcu);
    this.patchFlash(mcu);
    this.supplyEntropy(mcu);
    mcu.onBreak = () => this.onBreak();
    this.watchdog(mcu);
    this.usb = new SerialHost(lib, mcu, (bytes) => this.on.serial(bytes),
                              () => this.on.usb && this.on.usb());
    this.wireBoard(mcu);
    this.paintStack();
    mcu.core.PC = 0x10000000; // boot2, at the start of flash, as after the ROM
    this.boots += 1;
  }

  /** CPU cycles since the harness started, every chip's since a reset included. */
  cycles() {
    return this.cyclesBefore + this.mcu.core.cycles;
  }

  /** The power goes and comes back: a new chip on the same flash. */
  powerCycle(reason) {
    if (this.meters) this.meters.reset();
    this.cut = null;
    this.powerLost = false;
    this.cyclesBefore += this.mcu.core.cycles;
    const gone = this.now(); // the new timer starts at 0; the player's thumb goes on
    for (const change of this.scheduled) change.at = Math.max(0, change.at - gone);
    this.flash.set(this.mcu.flash.subarray(0, FLASH_BYTES));
    this.stats.resets += 1;
    this.boot();
    this.on.reset(reason);
  }

  /** What the filesystem region of the flash holds now. */
  filesystem() {
    const { offset, image } = this.options.filesystem;
    return this.mcu.flash.slice(offset, offset + image.length);
  }

  // ---- what rp2040js lacks ----

  romFunction(mcu, code) {
    // the bootrom's table: a pointer at 0x14 to entries (two-letter code, address)
    const key = code.charCodeAt(0) | (code.charCodeAt(1) << 8);
    for (let at = mcu.readUint16(0x14); ; at += 4) {
      const found = mcu.readUint16(at);
      if (!found) throw new Error(`the bootrom has no ${code}`);
      if (found === key) return mcu.readUint16(at + 2) & ~1;
    }
  }

  setBreak(mcu, address, handler) {
    // a BKPT in place of the function's first instruction; its handler returns
    const words = address < 0x4000 ? mcu.bootrom : null;
    if (words) {
      const shift = (address & 2) * 8;
      const word = words[address >> 2];
      words[address >> 2] = (word & ~(0xffff << shift)) | ((0xbe00 | this.breaks.size) << shift);
    } else {
      mcu.flashView.setUint16(address - 0x10000000, 0xbe00 | this.breaks.size, true);
    }
    this.breaks.set(address, handler);
  }

  onBreak() {
    const core = this.mcu.core;
    const handler = this.breaks.get((core.PC - 2) >>> 0);
    if (!handler) throw new Error(`breakpoint at ${(core.PC - 2).toString(16)}`);
    handler(core.registers);
    core.PC = core.LR & ~1;
  }

  patchFlash(mcu) {
    // rp2040js's SSI answers status reads only: programs and erases do the work here
    const flash = mcu.flash;
    this.setBreak(mcu, this.romFunction(mcu, 'RP'), ([offset, data, count]) => {
      const done = this.flashOp(count);
      for (let i = 0; i < done; i++) flash[offset + i] &= mcu.readUint8(data + i);
      this.stats.flashBytes += done;
    });
    this.setBreak(mcu, this.romFunction(mcu, 'RE'), ([offset, count]) => {
      // an erase cut short: its first part back to 0xFF, the rest as it was
      flash.fill(0xff, offset, offset + this.flashOp(count));
      this.stats.flashErases += Math.ceil(count / 4096);
    });
  }

  /** A program or erase of ``count`` bytes begins: how many of them get done (all,
   * unless the power goes during this one: then the part armed, and the CPU stops). */
  flashOp(count) {
    this.stats.flashOps += 1;
    const { cut } = this;
    if (!cut || cut.op === undefined || this.stats.flashOps < cut.op) return count;
    this.powerLost = true;
    return Math.floor(count * cut.part);
  }

  /** Arm a power cut: during the ``op``-th flash program or erase from now, with
   * ``part`` (0 to 1) of its bytes done, or once ``cycles`` more have run. */
  cutAt({ op, part, cycles }) {
    this.cut = op !== undefined ? { op: this.stats.flashOps + op, part }
      : { cycles: this.cycles() + cycles };
  }

  supplyEntropy(mcu) {
    // no ring oscillator: os.urandom's bytes are the emulated device's draws when
    // the firmware's symbols say where it asks, else random bits from the seed
    const draw = entropyDraws(this.seed);
    const address = this.symbols.mp_hal_get_random;
    if (address) {
      this.setBreak(mcu, address & ~1, ([count, buffer]) => {
        let bytes = Buffer.alloc(0);
        while (bytes.length < count) bytes = Buffer.concat([bytes, draw()]);
        for (let i = 0; i < count; i++) mcu.writeUint8(buffer + i, bytes[i]);
      });
    }
    const bit = oscillator(this.seed + BigInt(this.boots));
    mcu.peripherals[0x40060] = { // STATUS: stable; RANDOMBIT: a bit
      readUint32: (offset) => (offset === 0x1c ? bit() : offset === 0x18 ? 0x80000000 : 0),
      writeUint32Atomic: () => {},
    };
  }

  watchdog(mcu) {
    // rp2040js only calls this, and at once again from inside the same clock tick,
    // forever: a Pico resets, so the alarm stops here and run() powers it up anew
    const watchdog = mcu.peripherals[0x40058];
    watchdog.onWatchdogTrigger = () => {
      this.bitten = true;
      watchdog.alarm.enable = false;
    };
    this.bitten = false;
  }

  quietFifo(mcu) {
    // rp2040js has no inter-core FIFO and warns on the console at each read of it
    // (MicroPython's soft reset reads it): its same answer, without the warning
    const read = mcu.sio.readUint32.bind(mcu.sio);
    mcu.sio.readUint32 = (offset) => (offset === 0x50 || offset === 0x58 ? 0xffffffff
                                                                        : read(offset));
  }

  watchSpins(mcu) {
    // any other peripheral's register between two reads of the timer: not a busy-wait
    const reset = () => { this.spin = 0; };
    for (const peripheral of [...Object.values(mcu.peripherals), mcu.sio, mcu.ppb]) {
      if (peripheral === this.timer) continue;
      const read = peripheral.readUint32.bind(peripheral);
      const write = peripheral.writeUint32.bind(peripheral);
      peripheral.readUint32 = (offset) => { reset(); return read(offset); };
      peripheral.writeUint32 = (offset, value) => { reset(); write(offset, value); };
    }
  }

  // ---- the clock ----

  /** The timer's microseconds. In 'script' time they move only while the CPU
   * sleeps, or while it spins on the timer itself (a busy-wait must end). */
  now() {
    if (this.options.clock === 'pico') return Math.floor(this.clock.nanos / 1000);
    return Math.floor(this.micros);
  }

  timerRead() {
    if (this.options.clock === 'pico') return;
    const nanos = this.clock.nanos;
    this.spin += 1;
    if (this.spin > SPIN_READS) this.micros += (nanos - this.spinAt) / 1000;
    this.spinAt = nanos;
  }

  /** Whether the sleeping CPU waits for the timer (the main loop's sleep_ms), not
   * for a transfer to finish (a print's USB packet in the middle of a pass). */
  waitsForTimer() {
    const due = this.timer.nextDue();
    if (due === null) return false;
    const clock = this.clock;
    return !clock.nextAlarm || clock.nanosToNextAlarm >= (due - this.now()) * 1000;
  }

  /** Let time pass while the CPU sleeps, to the first thing that wakes it or to
   * ``limit`` (us). Returns false when nothing ever will. */
  sleep(limit) {
    const clock = this.clock;
    const realNanos = clock.nextAlarm ? clock.nanosToNextAlarm : Infinity;
    const due = this.timer.nextDue();
    const timerNanos = due === null ? Infinity : Math.max(0, (due - this.now()) * 1000);
    const limitNanos = Math.max(0, (limit - this.now()) * 1000);
    const nanos = Math.min(realNanos, timerNanos, limitNanos);
    if (nanos === Infinity) return false;
    if (this.options.clock === 'script') this.micros += nanos / 1000;
    clock.tick(nanos);
    this.timer.fireDue();
    return true;
  }

  // ---- running ----

  /** Run until the timer reaches ``limit`` (us) with the CPU asleep: a pin set
   * after this returns never lands inside a pass. A watchdog reset restarts the
   * timer; the run goes on for the time it had left. Returns false when the chip
   * sleeps with nothing that can wake it. ``busyLimit`` (us): return there even
   * in the middle of a pass (a PC's bytes must reach a busy chip, Ctrl-C too). */
  run(limit, busyLimit = Infinity) {
    for (;;) {
      if (this.powerLost) return true;
      this.changePinsDue();
      if (this.bitten) {  // the timer starts again from 0: run what was left to run
        const left = Math.max(0, limit - this.now());
        busyLimit = Math.max(0, busyLimit - this.now());
        this.powerCycle('watchdog');
        limit = left;
      }
      const { core } = this.mcu;
      if (core.waiting) {
        if (this.running && this.sleepEntry === null && this.waitsForTimer()) this.passEnded();
        if (this.now() >= limit) return true;
        if (!this.sleep(Math.min(limit, this.nextPinChange()))) return false;
        continue;
      }
      this.running = true;
      const { sleepEntry, collectEntry, heapInit } = this;
      const registers = core.registers;
      const { cut } = this;
      const stop = cut && cut.cycles !== undefined ? cut.cycles - this.cyclesBefore : Infinity;
      const { meters } = this;
      for (let i = 0; i < 4096 && !core.waiting; i++) {
        if (meters) meters.step(registers[15], registers[14]);
        this.clock.tick(core.executeInstruction() * CYCLE_NANOS);
        const pc = registers[15];
        if (pc === sleepEntry) this.passEnded(); // time.sleep_ms: the pass is done
        else if (pc === collectEntry) this.collecting(registers[14] & ~1);
        else if (pc === this.collectExit) this.collected();
        else if (pc === heapInit) this.shrinkHeap(registers);
        if (this.bitten || this.powerLost) break;
        if (core.cycles >= stop) {
          this.powerLost = true;
          break;
        }
      }
      if (!core.waiting && !this.bitten && this.now() >= busyLimit) return true;
    }
  }

  /** When the sleeping CPU wakes next if nothing comes from outside (the timer's
   * us), now while it works, null when only the outside can wake it. */
  nextWake() {
    if (!this.mcu.core.waiting) return this.now();
    const clock = this.clock;
    const due = this.timer.nextDue();
    const alarm = clock.nextAlarm ? this.now() + clock.nanosToNextAlarm / 1000 : Infinity;
    const wake = Math.min(due === null ? Infinity : due, alarm);
    return wake === Infinity ? null : Math.ceil(wake);
  }

  passEnded() {
    this.running = false;
    this.stats.passes += 1;
    const stack = this.stackUsed();
    if (stack > this.stats.deepestStack) this.stats.deepestStack = stack;
    if (stack > this.deepestSince) this.deepestSince = stack;
    const free = this.heapFree();
    if (free !== null) {
      if (free < this.stats.leastFree) this.stats.leastFree = free;
      this.stats.heapPeak = Math.max(this.stats.heapPeak, this.heapPool() - free);
    }
    this.leds.flush();
    const total = this.cycles();
    this.on.pass(this.now(), total - this.passStart, total);
    this.passStart = total; // the next pass's, from here (its sleep's wake-up included)
  }

  /** The most of the C stack any pass used since the last call, in bytes. */
  deepest() {
    const most = this.deepestSince;
    this.deepestSince = 0;
    return most;
  }

  setPin(pin, level) {
    this.levels.set(pin, level);
    this.mcu.gpio[pin].setInputValue(!!level);
  }

  /** A pin change at the timer's ``at`` (us), even in the middle of a pass, as a
   * player's thumb does not wait for the CPU (run() makes it, to within ~50 us). */
  schedulePin(at, pin, level) {
    const { scheduled } = this;
    let i = scheduled.length;
    while (i > 0 && scheduled[i - 1].at > at) i -= 1;
    scheduled.splice(i, 0, { at, pin, level });
  }

  nextPinChange() {
    return this.scheduled.length ? this.scheduled[0].at : Infinity;
  }

  changePinsDue() {
    const { scheduled } = this;
    while (scheduled.length && scheduled[0].at <= this.now()) {
      const { pin, level } = scheduled.shift();
      this.setPin(pin, level);
    }
  }

  // ---- measures ----

  stackRange() {
    const { __StackBottom: bottom, __StackTop: top } = this.symbols;
    return bottom && top ? { bottom, top } : DEFAULT_STACK;
  }

  paintStack() {
    const { bottom } = this.stackRange();
    const below = (this.mcu.core.SP >>> 0) - 64; // the ROM's and boot2's frames are above
    for (let at = bottom; at < below; at += 4) this.mcu.writeUint32(at, STACK_PAINT);
  }

  /** The most of the C stack used since the last call, in bytes; the paint is
   * renewed below the stack pointer for the next. */
  stackUsed() {
    const { bottom, top } = this.stackRange();
    const sram = this.mcu.sramView;
    const base = 0x20000000;
    let at = bottom;
    while (at < top && sram.getUint32(at - base, true) === STACK_PAINT) at += 4;
    const sp = this.mcu.core.SP >>> 0;
    for (let fill = at; fill < sp - 64; fill += 4) sram.setUint32(fill - base, STACK_PAINT, true);
    return top - at;
  }

  // ---- the heap ----

  /** Where the GC's heap lies (the ELF's symbols) and the hooks on it: gc_init's
   * entry, to give it a lower end when a smaller heap is asked for, and
   * gc_collect's, to read the heap before and after each collection. */
  watchHeap() {
    const { __GcHeapStart: start, __GcHeapEnd: end, gc_init: init,
            gc_collect: collect } = this.symbols;
    this.heapStart = start || null;
    this.heapEnd = end || null;
    this.collectEntry = collect ? collect & ~1 : null;
    this.collectExit = null; // gc_collect's return address, while it runs
    this.heapInit = null;
    this.stats.heapBytes = start && end ? this.heapPool() : null;
    if (this.options.heap) {
      if (!start || !end || !init) throw new Error('a smaller heap needs the ELF\'s gc_init');
      this.heapInit = init & ~1;
    }
  }

  /** At gc_init's entry (r0 start, r1 end): an end that leaves a pool of the heap
   * asked for (gc_init rounds the end down to 16 bytes; the pool ends there). */
  shrinkHeap(registers) {
    const start = registers[0] >>> 0;
    const table = Math.floor(this.options.heap / POOL_PER_TABLE_BYTE);
    let end = start + Math.ceil((table * TABLE_BITS) / 8) + 1;
    end = (end + 15) & ~15;
    if (end > (registers[1] >>> 0)) throw new Error(`the heap asked for is over the port's`);
    registers[1] = end;
    this.heapStart = start;
    this.heapEnd = end;
    this.stats.heapBytes = this.heapPool();
  }

  /** The GC's pool in bytes: gc.mem_free() + gc.mem_alloc(). */
  heapPool() {
    return this.heapTable() * POOL_PER_TABLE_BYTE;
  }

  heapTable() {
    return Math.floor(((this.heapEnd - this.heapStart - 1) * 8) / TABLE_BITS);
  }

  /** gc.mem_free() read from the GC's allocation table, where the ELF says the
   * heap lies; null without it. */
  heapFree() {
    if (!this.heapStart) return null;
    const sram = this.mcu.sram;
    let free = 0;
    for (let i = this.heapStart - 0x20000000, stop = i + this.heapTable(); i < stop; i++) {
      free += FREE_BLOCKS[sram[i]];
    }
    return free * 16;
  }

  /** gc_collect's entry: the heap at its fullest, garbage and all. */
  collecting(returnTo) {
    this.collectExit = returnTo;
    this.stats.collections += 1;
    this.stats.heapPeak = Math.max(this.stats.heapPeak, this.heapPool() - this.heapFree());
  }

  /** gc_collect's return: what is alive (as far as a conservative collector knows). */
  collected() {
    this.collectExit = null;
    this.stats.heapLive = Math.max(this.stats.heapLive, this.heapPool() - this.heapFree());
  }

  // ---- the board ----

  wireBoard(mcu) {
    const { pins } = this.options;
    for (const [pin, level] of this.levels) mcu.gpio[pin].setInputValue(!!level);
    this.leds = new LedDecoder(this.clock, (bytes) => this.on.leds(bytes));
    mcu.gpio[pins.led].addListener((state) => this.leds.edge(state === 1));
    const bus = mcu.i2c[pins.i2c];
    let sending = null;
    const byteNanos = () => 9 * (bus.sclHighPeriod + bus.sclLowPeriod) * CYCLE_NANOS;
    const done = this.clock.createAlarm(() => bus.completeWrite(true));
    bus.onStart = () => bus.completeStart();
    bus.onConnect = (address, mode) => {
      const ack = address === pins.oled && mode === 0; // the panel is written, never read
      sending = ack ? [] : null;
      bus.completeConnect(ack);
    };
    bus.onWriteByte = (value) => {
      sending.push(value);
      done.schedule(byteNanos()); // the byte takes its time on the bus
    };
    bus.onStop = () => {
      if (sending && sending.length) this.on.i2c(Uint8Array.from(sending), this.now());
      sending = null;
      bus.completeStop();
    };
  }
}

/** The RP2040's microsecond timer, reading the chip's time (``Pico.now``). */
class Timer {
  constructor(mcu, pico) {
    this.pico = pico;
    this.rp2040 = mcu;
    this.rawWriteValue = 0;
    this.alarms = [null, null, null, null]; // each: the us it fires at, or null
    this.targets = [0, 0, 0, 0];
    this.raw = 0;
    this.enabled = 0;
    this.forced = 0;
    this.latchedHigh = 0;
  }

  nextDue() {
    let due = null;
    for (const at of this.alarms) if (at !== null && (due === null || at < due)) due = at;
    return due;
  }

  fireDue() {
    const now = this.pico.now();
    for (let i = 0; i < 4; i++) {
      if (this.alarms[i] !== null && this.alarms[i] <= now) {
        this.alarms[i] = null;
        this.raw |= 1 << i;
      }
    }
    this.interrupts();
  }

  interrupts() {
    const status = (this.raw & this.enabled) | this.forced;
    for (const i of TIMER_IRQS) this.rp2040.setInterrupt(i, !!(status & (1 << i)));
  }

  readUint32(offset) {
    this.pico.timerRead();
    const now = this.pico.now();
    const high = Math.floor(now / 2 ** 32);
    switch (offset) {
      case 0x08: return this.latchedHigh; // TIMEHR
      case 0x0c: this.latchedHigh = high; return now >>> 0; // TIMELR
      case 0x24: return high; // TIMERAWH
      case 0x28: return now >>> 0; // TIMERAWL
      case 0x10: case 0x14: case 0x18: case 0x1c: {
        // A fired alarm's target is in the past once time has moved on; where time
        // stands still (the script clock) it would still read as now, and pico-sdk
        // would take it for an alarm to come and sleep on it (ta_wakes_up_on_or_before)
        const i = (offset - 0x10) >> 2;
        const passed = this.alarms[i] === null && this.targets[i] === now >>> 0;
        return passed ? (this.targets[i] - 1) >>> 0 : this.targets[i];
      }
      case 0x20: return this.alarms.reduce((bits, at, i) => bits | (at !== null ? 1 << i : 0), 0);
      case 0x30: return 0; // PAUSE
      case 0x34: return this.raw;
      case 0x38: return this.enabled;
      case 0x3c: return this.forced;
      case 0x40: return (this.raw & this.enabled) | this.forced;
      default: return 0;
    }
  }

  writeUint32(offset, value) {
    switch (offset) {
      case 0x10: case 0x14: case 0x18: case 0x1c: {
        // an alarm matches the low 32 bits: a target just passed comes round again
        const i = (offset - 0x10) >> 2;
        const now = this.pico.now();
        this.targets[i] = value >>> 0;
        this.alarms[i] = now + (((value >>> 0) - (now >>> 0)) >>> 0);
        break;
      }
      case 0x20:
        for (let i = 0; i < 4; i++) if (this.rawWriteValue & (1 << i)) this.alarms[i] = null;
        break;
      case 0x34: this.raw &= ~this.rawWriteValue; this.interrupts(); break;
      case 0x38: this.enabled = value & 0xf; this.interrupts(); break;
      case 0x3c: this.forced = value & 0xf; this.interrupts(); break;
      default: break; // TIMEHW/TIMELW, PAUSE, DBGPAUSE: never written by MicroPython
    }
  }

  writeUint32Atomic(offset, value, atomicType) {
    this.rawWriteValue = value;
    const current = this.readUint32(offset);
    const next = [value, current ^ value, current | value, current & ~value][atomicType];
    this.writeUint32(offset, next);
  }
}

/** WS2812 bits from the data pin's edges: a long high pulse is a 1. */
class LedDecoder {
  constructor(clock, emit) {
    this.clock = clock;
    this.emit = emit;
    this.bits = [];
    this.roseAt = null;
    this.fellAt = 0;
  }

  edge(high) {
    const now = this.clock.nanos;
    if (high) {
      if (this.bits.length && now - this.fellAt > LED_RESET_NANOS) this.flush();
      this.roseAt = now;
    } else if (this.roseAt !== null) {
      this.bits.push(now - this.roseAt > LED_ONE_NANOS ? 1 : 0);
      this.roseAt = null;
      this.fellAt = now;
    }
  }

  flush() {
    const bits = this.bits;
    if (!bits.length) return;
    this.bits = [];
    const bytes = new Uint8Array(bits.length >> 3);
    for (let i = 0; i < bytes.length * 8; i++) bytes[i >> 3] |= bits[i] << (7 - (i & 7));
    this.emit(bytes);
  }
}

/** The PC's end of the USB serial port. rp2040js's host answers every read of
 * the device's OUT endpoint at once, an empty packet when it has nothing: an
 * interrupt storm. A real host NAKs until it has something to send. Its FIFO
 * drops what does not fit: the bytes wait here until it has room. */
class SerialHost {
  constructor(lib, mcu, received, connected) {
    this.cdc = new lib.USBCDC(mcu.usbCtrl);
    this.waiting = null;
    this.pending = [];
    this.cdc.onSerialData = (bytes) => received(bytes);
    this.cdc.onDeviceConnected = connected; // enumerated: the PC's port appears
    const usb = mcu.usbCtrl;
    usb.onEndpointRead = (endpoint, size) => {
      if (endpoint !== this.cdc.outEndpoint) return;
      this.waiting = size;
      this.answer();
    };
  }

  answer() {
    const fifo = this.cdc.txFIFO;
    const { pending } = this;
    let taken = 0;
    while (taken < pending.length && !fifo.full) fifo.push(pending[taken++]);
    if (taken) pending.splice(0, taken);
    if (this.waiting === null || fifo.empty) return;
    const bytes = new Uint8Array(Math.min(this.waiting, fifo.itemCount));
    for (let i = 0; i < bytes.length; i++) bytes[i] = fifo.pull();
    this.waiting = null;
    this.cdc.usb.endpointReadDone(this.cdc.outEndpoint, bytes);
  }

  send(bytes) {
    for (const byte of bytes) this.pending.push(byte);
    this.answer();
  }
}

/** A UF2's blocks into the flash they were made for. */
export function loadUF2(uf2, flash) {
  const view = new DataView(uf2.buffer, uf2.byteOffset, uf2.byteLength);
  for (let at = 0; at + 512 <= uf2.length; at += 512) {
    if (view.getUint32(at, true) !== 0x0a324655) throw new Error('not a UF2 file');
    const target = view.getUint32(at + 12, true) - 0x10000000;
    const size = view.getUint32(at + 16, true);
    if (target < 0 || target + size > flash.length) continue;
    flash.set(uf2.subarray(at + 32, at + 32 + size), target);
  }
}
