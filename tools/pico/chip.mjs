// The emulated RP2040 (npm rp2040js, core 0) as a process that tools/pico_emulator.py drives.
//
//   node chip.mjs --bootrom BIN --flash IMAGE [--i2c BUS:ADDR,...] [--watch GPIO,...] [--pwm GPIO]
//
// The chip only runs code and reports what its pins and buses do; what is wired to them (the OLED's
// controller, the buttons, the buzzer) is modelled on the Python side, as for the other simulators.
// Every line on stdin is a command, every line on stdout an event; times are emulated nanoseconds
// since the first power-up (what time.ticks_us reads on the device, times 1000).
//
// Commands                      Events
//   run NS     run until NS       T NS READ        the run reached NS; READ: when the firmware last
//                                                  read the GPIO inputs (its buttons), -1 if never
//   usb HEX    bytes to USB CDC   C                the USB serial port is open
//   in G 0|1|- drive GPIO G       U HEX            bytes the device wrote to USB CDC
//              (- = let go: the   I NS BUS ADDR HEX one I2C write, START to STOP, to an address that acked
//              pad's pull decides) S NS BUS HEX     bytes written on an SPI bus
//   dump PATH  flash -> PATH      O NS G 0|1|-     a watched GPIO's driven level (- = not an output)
//   reset      restart the chip   P NS G HZ DUTY   the PWM on the --pwm GPIO (0 0 = silent)
//              (flash kept)       D                the dump (or the profile) is written
//   profile on|off                                 count the cycles at each instruction address (on:
//                                                  afresh); PATH: the counts as JSON [[address, cycles]]
//                                 X NS             the watchdog restarted the chip (machine.reset())
//
// rp2040js does not emulate writing the QSPI flash, so the bootrom's flash_range_erase and
// flash_range_program are patched to BKPT and done here on the flash array (instantly).

import fs from 'fs';
import path from 'path';
import readline from 'readline';
import { fileURLToPath } from 'url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const { Simulator, USBCDC, ConsoleLogger, LogLevel } = await import(
  path.join(HERE, 'node_modules/rp2040js/dist/esm/index.js'));

const FLASH_BASE = 0x10000000;
const CYCLE_NANOS = 1e9 / 125e6;
const FUNCTION_PWM = 4;
const SIO_GPIO_IN = 0x004;

function parseArguments(argv) {
  const options = { flash: null, i2c: [], watch: [], pwm: null };
  for (let i = 0; i < argv.length; i += 2) {
    const [name, value] = [argv[i], argv[i + 1]];
    const list = () => value.split(',').filter((s) => s !== '');
    if (name === '--bootrom') options.bootrom = value;
    else if (name === '--flash') options.flash = value;
    else if (name === '--i2c') options.i2c = list().map((s) => s.split(':').map(Number));
    else if (name === '--watch') options.watch = list().map(Number);
    else if (name === '--pwm') options.pwm = Number(value);
    else throw new Error(`unknown option ${name}`);
  }
  return options;
}

const ROM_ERASE = 1, ROM_PROGRAM = 2; // BKPT numbers
function patchedBootrom(file) {
  const bytes = fs.readFileSync(file);
  const rom = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4).slice();
  const half = (address) => (rom[address >> 2] >>> ((address & 2) * 8)) & 0xffff;
  const functions = {}; // the ROM's function table: two-letter code -> address
  for (let at = half(0x14); half(at) !== 0; at += 4) functions[half(at)] = half(at + 2) & ~1;
  for (const [code, bkpt] of [['RE', ROM_ERASE], ['RP', ROM_PROGRAM]]) {
    const address = functions[code.charCodeAt(0) | (code.charCodeAt(1) << 8)];
    const shift = (address & 2) * 8;
    rom[address >> 2] = (rom[address >> 2] & ~(0xffff << shift)) | ((0xbe00 | bkpt) << shift);
  }
  return rom;
}

const options = parseArguments(process.argv.slice(2));
const bootrom = patchedBootrom(options.bootrom);
const flash = new Uint8Array(fs.readFileSync(options.flash)); // 2 MiB: MicroPython and its filesystem

let out = [];
const emit = (line) => out.push(line);
const hex = (bytes) => Buffer.from(bytes).toString('hex');

// ---- the chip, rebuilt on each reset around the same flash
let simulator, mcu, cdc, timeBase = 0;
const driven = new Map(); // gpio -> true/false/null (null: the pad's pull decides)
let usbQueue = [];
let spiPending = null; // [bus, time, bytes]
let lastPwm = '';
let lastInputRead = -1; // emulated ns of the last read of SIO GPIO_IN: Pin.value() on an input

const now = () => timeBase + Math.round(simulator.clock.nanos);

function flushSpi() {
  if (spiPending && spiPending[2].length) emit(`S ${spiPending[1]} ${spiPending[0]} ${hex(spiPending[2])}`);
  spiPending = null;
}

function build() {
  simulator = new Simulator();
  mcu = simulator.rp2040;
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  mcu.loadBootrom(bootrom);
  mcu.flash.set(flash);
  mcu.onBreak = (code) => {
    const core = mcu.core, r = core.registers;
    if (code === ROM_ERASE) { // flash_range_erase(offset, count, block_size, block_cmd)
      mcu.flash.fill(0xff, r[0] >>> 0, (r[0] >>> 0) + (r[1] >>> 0));
    } else if (code === ROM_PROGRAM) { // flash_range_program(offset, data, count)
      const offset = r[0] >>> 0, data = r[1] >>> 0, count = r[2] >>> 0;
      for (let i = 0; i < count; i++) mcu.flash[offset + i] &= mcu.readUint8(data + i);
    } else {
      process.stderr.write(`[chip] BKPT ${code} at 0x${(core.PC >>> 0).toString(16)}\n`);
      return;
    }
    core.breakRewind = 0;
    core.PC = (core.LR >>> 0) & ~1;
  };
  mcu.peripherals[0x40058].onWatchdogTrigger = () => { resetPending = true; }; // the watchdog
  mcu.i2c.forEach((i2c, bus) => {
    let address = null, bytes = [];
    i2c.onStart = () => i2c.completeStart();
    i2c.onConnect = (target) => {
      const ack = options.i2c.some(([b, a]) => b === bus && a === target);
      address = ack ? target : null; bytes = [];
      i2c.completeConnect(ack);
    };
    i2c.onWriteByte = (value) => { bytes.push(value); i2c.completeWrite(true); };
    i2c.onReadByte = () => i2c.completeRead(0xff);
    i2c.onStop = () => {
      if (address !== null && bytes.length) emit(`I ${now()} ${bus} ${address} ${hex(bytes)}`);
      address = null; bytes = [];
      i2c.completeStop();
    };
  });
  mcu.spi.forEach((spi, bus) => {
    spi.onTransmit = (value) => {
      if (!spiPending || spiPending[0] !== bus) { flushSpi(); spiPending = [bus, now(), []]; }
      spiPending[2].push(value);
      spi.completeTransmit(0);
    };
  });
  for (const gpio of options.watch) {
    const pin = mcu.gpio[gpio];
    pin.addListener(() => {
      flushSpi();
      emit(`O ${now()} ${gpio} ${pin.outputEnable ? (pin.outputValue ? 1 : 0) : '-'}`);
    });
  }
  for (const [gpio, level] of driven) if (level !== null) mcu.gpio[gpio].setInputValue(level);
  const readSio = mcu.sio.readUint32.bind(mcu.sio);
  mcu.sio.readUint32 = (offset) => {
    if (offset === SIO_GPIO_IN) lastInputRead = now();
    return readSio(offset);
  };
  cdc = new USBCDC(mcu.usbCtrl);
  cdc.onDeviceConnected = () => emit('C');
  cdc.onSerialData = (value) => { if (value.length) emit(`U ${hex(value)}`); };
  usbQueue = [];
  lastPwm = '';
  mcu.core.PC = FLASH_BASE;
}

let resetPending = false;
function reset() {
  flushSpi();
  timeBase = now();
  lastInputRead = -1; // the restarted firmware has not read its buttons yet
  flash.set(mcu.flash.subarray(0, flash.length)); // rp2040js's flash array is 16 MB: the Pico's is 2
  build();
}

// A let-go pin reads what its pull gives (rp2040js leaves pulls to the outside world).
function followPulls() {
  for (const [gpio, level] of driven) {
    if (level !== null) continue;
    const pin = mcu.gpio[gpio];
    const pulled = pin.pullupEnabled ? true : pin.pulldownEnabled ? false : null;
    if (pulled !== null && pin.rawInputValue !== pulled) pin.setInputValue(pulled);
  }
}

function pwmState() {
  const gpio = options.pwm, pin = mcu.gpio[gpio];
  const channel = mcu.pwm.channels[(gpio >> 1) & 7];
  if (pin.functionSelect !== FUNCTION_PWM || !(channel.csr & 1)) return '0 0';
  const divider = (((channel.div >> 4) & 0xff) || 256) + (channel.div & 0xf) / 16;
  const period = (channel.top + 1) * (channel.csr & 2 ? 2 : 1);
  const level = gpio & 1 ? channel.cc >>> 16 : channel.cc & 0xffff;
  const duty = Math.min(65535, Math.round((level * 65535) / (channel.top + 1)));
  return duty ? `${Math.round(mcu.clkSys / divider / period)} ${duty}` : '0 0';
}

function hostSide() {
  while (usbQueue.length && cdc.txFIFO.itemCount < cdc.txFIFO.size) cdc.sendSerialByte(usbQueue.shift());
  followPulls();
  if (options.pwm !== null) {
    const state = pwmState();
    if (state !== lastPwm) { lastPwm = state; flushSpi(); emit(`P ${now()} ${options.pwm} ${state}`); }
  }
}

function send() {
  flushSpi();
  if (out.length) { process.stdout.write(out.join('\n') + '\n'); out = []; }
}

// ---- running
let runTarget = null;
let profiling = false;
let profile = new Map(); // instruction address -> cycles spent there while profiling
function batch() {
  const core = mcu.core, clock = simulator.clock, target = runTarget - timeBase;
  for (let i = 0; i < 100000 && clock.nanos < target; i++) {
    if (core.waiting) {
      const step = Math.min(clock.nanosToNextAlarm, target - clock.nanos);
      clock.tick(step);
      i += step / CYCLE_NANOS;
    } else if (!profiling) {
      clock.tick(core.executeInstruction() * CYCLE_NANOS);
    } else {
      const address = core.PC, cycles = core.executeInstruction();
      profile.set(address, (profile.get(address) || 0) + cycles);
      clock.tick(cycles * CYCLE_NANOS);
    }
    if (resetPending) break;
  }
  if (resetPending) { resetPending = false; emit(`X ${now()}`); reset(); }
  hostSide();
  if (now() >= runTarget) { emit(`T ${now()} ${lastInputRead}`); runTarget = null; send(); return; }
  send();
  setImmediate(batch);
}

function command(line) {
  const words = line.trim().split(/\s+/);
  switch (words[0]) {
    case 'run': {
      const start = runTarget === null;
      runTarget = Number(words[1]);
      if (start) setImmediate(batch);
      break;
    }
    case 'usb': for (const b of Buffer.from(words[1], 'hex')) usbQueue.push(b); break;
    case 'in': {
      const gpio = Number(words[1]), level = words[2] === '-' ? null : words[2] === '1';
      driven.set(gpio, level);
      if (level !== null) mcu.gpio[gpio].setInputValue(level); else followPulls();
      break;
    }
    case 'dump': fs.writeFileSync(words[1], mcu.flash.subarray(0, flash.length)); emit('D'); send(); break;
    case 'reset': reset(); break;
    case 'profile':
      if (words[1] === 'on') { profile = new Map(); profiling = true; }
      else if (words[1] === 'off') profiling = false;
      else { fs.writeFileSync(words[1], JSON.stringify(Array.from(profile))); emit('D'); send(); }
      break;
    case '': break;
    default: process.stderr.write(`[chip] unknown command: ${line}\n`);
  }
}

build();
readline.createInterface({ input: process.stdin }).on('line', command).on('close', () => process.exit(0));
