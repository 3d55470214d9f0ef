// The device in a browser: MicroPython's WebAssembly port runs the unchanged
// firmware on the virtual board (device/web/webdevice.py); this file moves its
// clock, presses its buttons, draws its OLED and LED ring, and keeps its flash.
//
// URL parameters: seed=N (the entropy seed; default random), keys=SCRIPT (a
// button script played first, as `arbiter sim --keys`), clock=manual (the
// clock moves only in arbiter.advance(ms): for tests).
// For tests, window.arbiter has play(seed, script) -> the lines `arbiter demo`
// would print, advance(ms), frames (every frame line, with clock=manual).

import { loadMicroPython } from "./micropython.js";

const FLASH = "/flash/";
const STORE = "arbiter.flash"; // localStorage key: the flash, one entry
const KEYS = {
  ArrowUp: 0, ArrowDown: 1, ArrowLeft: 2, ArrowRight: 3,
  Enter: 4, z: 4, Z: 4, Backspace: 5, x: 5, X: 5,
};
const WIDTH = 128, HEIGHT = 64, LEDS_RADIUS = 0.44;

const arbiter = window.arbiter;
const params = new URLSearchParams(location.search);
const manual = params.get("clock") === "manual";
const serialLines = [];
let sink = serial; // where MicroPython's output goes
let mp, webdevice, live, timer = null, savedChanges = -1;
let last = 0, plays = 0;
arbiter.frames = [];
arbiter.saves = 0;

function status(text) {
  document.getElementById("status").textContent = text;
}

function serial(line) {
  serialLines.push(line);
  if (serialLines.length > 200) serialLines.shift();
  document.getElementById("serial").textContent = serialLines.join("\n");
}

function lastLine(error) {
  // A Python exception arrives with its traceback: the last line says what.
  const lines = String(error.message || error).trim().split("\n");
  return lines[lines.length - 1];
}

// --- the flash, kept in localStorage as {path: bytes as a binary string} ---

function walk(folder, found) {
  for (const name of mp.FS.readdir(folder)) {
    if (name === "." || name === "..") continue;
    const path = folder + name;
    if (mp.FS.isDir(mp.FS.stat(path).mode)) walk(path + "/", found);
    else found.push(path);
  }
  return found;
}

function toBinary(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    text += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
  }
  return text;
}

function fromBinary(text) {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

function writeFile(path, bytes) {
  mp.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
  mp.FS.writeFile(path, bytes);
}

function loadFlash() {
  mp.FS.mkdirTree(FLASH);
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(STORE) || "null");
  } catch (error) {
    status("The saved flash could not be read: a new device (" + error.message + ")");
  }
  if (!(saved && saved.files && typeof saved.files === "object")) return false;
  for (const [name, text] of Object.entries(saved.files)) writeFile(FLASH + name, fromBinary(text));
  return true;
}

function saveFlash() {
  const files = {};
  for (const path of walk(FLASH, [])) files[path.slice(FLASH.length)] = toBinary(mp.FS.readFile(path));
  try {
    localStorage.setItem(STORE, JSON.stringify({ format: 1, files }));
    arbiter.saves++;
  } catch (error) {
    status("The flash could not be saved in this browser: " + error.message);
  }
}

function afterPass() {
  const changes = live.changes();
  if (changes !== savedChanges) {
    savedChanges = changes;
    saveFlash();
  }
}

// --- drawing ---

let pending = null;

function show(line) {
  arbiter.frame = line;
  if (manual) arbiter.frames.push(line);
  if (pending === null) requestAnimationFrame(() => { draw(pending); pending = null; });
  pending = line;
}

function parseFrame(line) {
  const fields = {};
  for (const item of line.slice(2).split(" ")) {
    const at = item.indexOf("=");
    fields[item.slice(0, at)] = item.slice(at + 1);
  }
  return fields;
}

function hexBytes(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(i * 2, 2), 16);
  return bytes;
}

function draw(line) {
  const frame = parseFrame(line);
  drawOled(frame.on === "1", frame.inv === "1", Number(frame.c), hexBytes(frame.ram));
  drawRing(hexBytes(frame.leds));
}

function drawOled(on, inverted, contrast, ram) {
  const canvas = document.getElementById("oled");
  const ctx = canvas.getContext("2d");
  const image = ctx.createImageData(WIDTH, HEIGHT);
  const level = 0.45 + 0.55 * contrast / 255; // contrast dims the lit pixels
  const lit = [170 * level + 30, 215 * level + 25, 255 * level];
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const bit = (ram[(y >> 3) * WIDTH + x] >> (y & 7)) & 1;
      const colour = on && (bit ^ inverted) ? lit : [6, 10, 16];
      const i = (y * WIDTH + x) * 4;
      image.data.set(colour, i);
      image.data[i + 3] = 255;
    }
  }
  ctx.putImageData(image, 0, 0);
}

function drawRing(leds) {
  const canvas = document.getElementById("ring");
  const ctx = canvas.getContext("2d");
  const size = canvas.width, count = leds.length / 3;
  ctx.clearRect(0, 0, size, size);
  // The device caps its LEDs low: the brightest is drawn at full, the rest in proportion.
  const peak = Math.max(1, ...leds);
  for (let i = 0; i < count; i++) {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / count;
    const x = size / 2 + Math.cos(angle) * size * LEDS_RADIUS;
    const y = size / 2 + Math.sin(angle) * size * LEDS_RADIUS;
    const [r, g, b] = [0, 1, 2].map((c) => Math.round((leds[i * 3 + c] * 255) / peak));
    const off = r + g + b === 0;
    ctx.beginPath();
    ctx.arc(x, y, size * 0.035, 0, 2 * Math.PI);
    ctx.shadowBlur = off ? 0 : size * 0.05;
    ctx.shadowColor = `rgb(${r},${g},${b})`;
    ctx.fillStyle = off ? "#23262b" : `rgb(${r},${g},${b})`;
    ctx.fill();
  }
  ctx.shadowBlur = 0;
}

// --- the clock ---

function start() {
  if (manual || timer !== null) return;
  last = performance.now();
  timer = setTimeout(tick, 0);
}

function stop() {
  const running = timer !== null;
  clearTimeout(timer);
  timer = null;
  return running;
}

function tick() {
  // Whole ms of the page's time, the rest carried; the device runs the passes due.
  const ms = Math.floor(performance.now() - last);
  last += ms;
  let wait;
  try {
    wait = live.run(ms);
    afterPass();
  } catch (error) {
    timer = null;
    status("The emulator stopped: " + lastLine(error));
    throw error;
  }
  timer = setTimeout(tick, Math.max(1, wait));
}

// --- buttons: the keyboard and the on-screen pad ---

const holds = [0, 0, 0, 0, 0, 0]; // how many keys and pointers hold each button

function hold(button, down) {
  const before = holds[button];
  holds[button] = Math.max(0, before + (down ? 1 : -1));
  if ((before === 0) === (holds[button] === 0)) return;
  document.querySelector(`[data-button="${button}"]`).classList.toggle("held", down);
  if (down) live.press(button);
  else live.release(button);
}

function listen() {
  window.addEventListener("keydown", (event) => {
    const button = KEYS[event.key];
    if (button === undefined || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("summary, .controls")) return;
    event.preventDefault();
    if (!event.repeat) hold(button, true);
  });
  window.addEventListener("keyup", (event) => {
    const button = KEYS[event.key];
    if (button !== undefined) hold(button, false);
  });
  window.addEventListener("blur", () => {
    for (let button = 0; button < 6; button++) while (holds[button]) hold(button, false);
  });
  for (const element of document.querySelectorAll("[data-button]")) {
    const button = Number(element.dataset.button);
    let held = false;
    const up = () => {
      if (held) hold(button, false);
      held = false;
    };
    element.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      if (held) return;
      held = true;
      try {
        element.setPointerCapture(event.pointerId);
      } catch {
        // a synthetic pointer has nothing to capture
      }
      hold(button, true);
    });
    element.addEventListener("pointerup", up);
    element.addEventListener("pointercancel", up);
    element.addEventListener("lostpointercapture", up);
    element.addEventListener("contextmenu", (event) => event.preventDefault());
  }
  document.getElementById("restart").addEventListener("click", () => {
    stop();
    location.reload();
  });
  document.getElementById("factory").addEventListener("click", () => {
    if (!confirm("Erase the device's flash? Settings and the game in play are lost.")) return;
    stop();
    localStorage.removeItem(STORE);
    location.reload();
  });
}

// --- for tests ---

function removeTree(folder) {
  for (const path of walk(folder, [])) mp.FS.unlink(path);
  const folders = [];
  (function collect(path) {
    folders.push(path);
    for (const name of mp.FS.readdir(path)) {
      if (name !== "." && name !== ".." && mp.FS.isDir(mp.FS.stat(path + name).mode)) {
        collect(path + name + "/");
      }
    }
  })(folder);
  for (const path of folders.reverse()) mp.FS.rmdir(path);
}

arbiter.play = async (seed, script) => {
  // A fresh device with the factory flash, as run_session gives it; the
  // visitor's device waits meanwhile.
  const running = stop();
  const lines = [];
  const root = `/play/${++plays}/`;
  sink = (line) => lines.push(line);
  try {
    webdevice.factory_flash(root, "/rulesets");
    const session = webdevice.Play(String(seed), script, root);
    while (session.run(2000)) await new Promise((resolve) => setTimeout(resolve, 0));
  } finally {
    sink = serial;
    removeTree(root);
    if (running) start();
  }
  return lines;
};

arbiter.advance = (ms) => {
  if (!manual) throw new Error("advance needs clock=manual");
  const elapsed = live.advance(ms);
  afterPass();
  return elapsed;
};

// --- boot ---

function randomSeed() {
  return crypto.getRandomValues(new BigUint64Array(1))[0].toString();
}

async function boot() {
  const manifest = await (await fetch("manifest.json")).json();
  mp = await loadMicroPython({ stdout: (line) => sink(line), stderr: (line) => sink(line) });
  await Promise.all(manifest.files.map(async (rel) => {
    const response = await fetch("device/" + rel);
    if (!response.ok) throw new Error(`device/${rel}: ${response.status}`);
    writeFile("/" + rel, new Uint8Array(await response.arrayBuffer()));
  }));
  mp.runPython("import sys\nsys.path[:0] = ['/web', '/board', '/fw']");
  webdevice = mp.pyimport("webdevice");
  const restored = loadFlash();
  webdevice.factory_flash(FLASH, "/rulesets"); // a new device gets the bundled games
  const seed = params.get("seed") || randomSeed();
  if (!/^\d+$/.test(seed)) throw new Error("seed must be a whole number, not " + seed);
  arbiter.seed = seed;
  live = webdevice.Live(seed, params.get("keys") || "", FLASH, show);
  afterPass();
  listen();
  start();
  status(`MicroPython ${manifest.micropython}, Arbiter ${manifest.arbiter}: ` +
    `${manifest.games.length} games; ` +
    (restored ? "the flash comes from this browser." : "a new device."));
  arbiter.resolveReady({ seed, restored, manual });
}

boot().catch((error) => {
  status("The device could not start: " + lastLine(error));
  arbiter.rejectReady(error);
});
