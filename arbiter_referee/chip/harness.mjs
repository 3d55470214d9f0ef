// The chip runtime's process: a Pico (pico.mjs) driven by lines on stdin,
// answering with lines on stdout. Started by arbiter_referee/chip/session.py,
// with the path of a JSON file saying what to load.
//
// Commands:  run US        run until the timer reads US with the CPU asleep
//            pin N LEVEL   set a button's pin (1: released)
//            at US N LEVEL set a button's pin when the timer reads US, mid-pass or not
//            live US BUSY  run as run does, but return once the timer reads BUSY even
//                          mid-pass; answers when the chip wakes next by itself (its
//                          timer's US, or -1: only the PC or a pin can wake it)
//            serial HEX    bytes from the PC on the USB serial port
//            cut SEED      the power goes and comes back (SEED: the new boot's entropy)
//            lose op N PART  the power goes during the N-th flash program or erase
//                          from now, PART (0 to 1) of its bytes done; the CPU stops
//            lose cycles N the power goes once N more cycles have run
//            flash PATH    write the filesystem's part of the flash to PATH
//            stats         the figures so far, as JSON
//            stack         the most of the C stack a pass used since last asked
// Events:    i US C HEX    an I2C write to the OLED (control and data bytes) at US,
//                          after C cycles of the CPU (since the harness started)
//            l HEX         a frame of the LED ring, in the wire's order
//            o HEX         bytes on the serial console
//            p US C T D    the CPU went to sleep after a pass of C cycles (US: the
//                          timer then; T: the cycles since the harness started;
//                          D: 1 if the pass wrote to the OLED or the LEDs)
//            w REASON      the chip reset itself (a new chip on the same flash)
//            u             the chip's USB serial is enumerated: a PC sees its port
//            r US C [idle] [off]  a command is done (US: the timer; C: the cycles so
//                          far; idle: nothing can wake it; off: the power went)

import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

import { Pico } from './pico.mjs';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const lib = await import(pathToFileURL(`${config.rp2040js}/dist/esm/index.js`).href);

let out = [];
const hex = (bytes) => Buffer.from(bytes).toString('hex');
const emit = (line) => {
  out.push(line);
  if (out.length > 512) flush();
};
const flush = () => {
  if (out.length) process.stdout.write(out.join('\n') + '\n');
  out = [];
};

let drew = false; // the OLED or the LEDs changed during this pass
const pico = new Pico(lib, {
  bootrom: readFileSync(config.bootrom),
  firmware: readFileSync(config.firmware),
  filesystem: { offset: config.filesystem_offset, image: readFileSync(config.filesystem) },
  symbols: config.symbols,
  meter: config.meter,
  clock: config.clock,
  seed: BigInt(config.seed),
  heap: config.heap,
  pins: config.pins,
  on: {
    i2c: (bytes, micros) => {
      drew = true;
      emit(`i ${micros} ${pico.cycles()} ${hex(bytes)}`);
    },
    leds: (bytes) => { drew = true; emit(`l ${hex(bytes)}`); },
    serial: (bytes) => emit(`o ${hex(bytes)}`),
    pass: (micros, cycles, total) => {
      emit(`p ${micros} ${cycles} ${total} ${drew ? 1 : 0}`);
      drew = false;
    },
    reset: (reason) => emit(`w ${reason}`),
    usb: () => emit('u'),
  },
});

const commands = {
  run: ([limit]) => (pico.run(Number(limit)) ? '' : ' idle') + (pico.powerLost ? ' off' : ''),
  live: ([limit, busy]) => {
    pico.run(Number(limit), Number(busy));
    const wake = pico.nextWake();
    return ` wake ${wake === null ? -1 : wake}`;
  },
  lose: ([kind, count, part]) => {
    if (kind === 'op') pico.cutAt({ op: Number(count), part: Number(part) });
    else if (kind === 'cycles') pico.cutAt({ cycles: Number(count) });
    else throw new Error(`lose what? ${kind} (op or cycles)`);
  },
  pin: ([pin, level]) => { pico.setPin(Number(pin), Number(level)); },
  at: ([micros, pin, level]) => { pico.schedulePin(Number(micros), Number(pin), Number(level)); },
  serial: ([bytes]) => { pico.usb.send(Buffer.from(bytes, 'hex')); },
  cut: ([seed]) => {
    pico.seed = BigInt(seed);
    pico.powerCycle('power');
  },
  flash: ([path]) => { writeFileSync(path, pico.filesystem()); },
  stats: () => { emit(`s ${JSON.stringify({ ...pico.stats, cycles: pico.cycles() })}`); },
  stack: () => ` ${pico.deepest()}`,
};

for await (const line of createInterface({ input: process.stdin })) {
  const [name, ...args] = line.trim().split(/\s+/);
  if (!name) continue;
  if (name === 'quit') break;
  const command = commands[name];
  if (!command) {
    emit(`x unknown command ${name}`);
  } else {
    try {
      const said = command(args) || '';
      emit(`r ${pico.now()} ${pico.cycles()}${said}`);
    } catch (error) {
      emit(`x ${String(error.stack || error).replace(/\n/g, ' | ')}`);
    }
  }
  flush();
}
flush();
process.exit(0);
