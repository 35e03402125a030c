// The emulated RP2040 (npm rp2040js, core 0) as a process that tools/device/pico_emulator.py drives.
//
//   node chip.mjs --bootrom BIN --flash IMAGE [--i2c BUS:ADDR,...] [--watch GPIO,...] [--pwm GPIO] [--uart N]
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
//   adc CH N   what ADC input CH  X NS             the watchdog restarted the chip (machine.reset())
//              (0-3: GP26-29, 4:  Z NS asleep|awake the crystal stopped (DORMANT) / a wake pin restarted it
//              the temperature sensor) converts to, 0-4095 (12 bits: N / 4095 x 3.3 V at the pin); kept
//              over resets
//   uart HEX   bytes arriving on  L HEX            bytes UART --uart N sent (the link cable's TX wire)
//              --uart N's RX pin,
//              one a frame's time at its baud rate
//   power                         W NS JSON        the chip's time since power-up by what it did:
//                                                  {"run": {clk_sys Hz: ns}, "wait": {clk_sys Hz: ns in
//                                                  WFI/WFE}, "dormant": ns, "undervolted": ns above 133 MHz
//                                                  under 1.15 V, "clk_sys": Hz now, "vsel": the VREG
//                                                  register's voltage field now (11: 1.10 V, 12: 1.15 V)}
//
// Time: each instruction advances the emulated clock by its cycles at the chip's clk_sys as the PLL and
// CLOCKS registers set it (rp2040js recomputes clkSys when the firmware writes them; 125 MHz at
// power-up, 200 MHz after machine.freq(200_000_000), 12 MHz from the crystal in a lightsleep), so device
// times at any clock are cycles at the real clock. A core waiting in WFI/WFE (time.sleep_ms, lightsleep)
// skips to the next timer alarm. DORMANT (machine.lightsleep() with no period) stops the crystal: the chip
// runs no instruction and its timer stands still while the outside time goes on, until a GPIO enabled in
// IO_BANK0's DORMANT_WAKE_INTE0-3 (which rp2040js does not model: done here) has the level or edge asked.
// VBUS (USB power) is GP24 on the Pico: drive it with `in 24 1`. The VREG register (core voltage), which
// rp2040js leaves unimplemented (reads of all ones), holds what the firmware writes, in regulation at once.
//
// The --uart UART sends each byte the moment the firmware writes it, and raises its TX interrupt then, as
// the real one does when its FIFO drains below the threshold; rp2040js's own UART raises it again on every
// interrupt clear, and MicroPython's handler, which clears it and finds nothing to send, would never return.
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
const IO_BANK0 = 0x40014, XOSC = 0x40024, VREG_AND_CHIP_RESET = 0x40064;
const VREG_RESET = 0xb1, VREG_WRITABLE = 0xf3, VREG_ROK = 0x1000; // EN, VSEL 1.10 V; EN, HIZ, VSEL; in regulation
const DORMANT_WAKE_INTE0 = 0x160, DORMANT_WAKE_INTS3 = 0x18c;
const XOSC_DORMANT = 0x08, XOSC_WAKE = 0x77616b65; // "wake"
const DORMANT_STEP_NS = 100000; // how often a dormant chip looks at its wake pins (0.1 ms of outside time)
const FUNCTION_PWM = 4;
const SIO_GPIO_IN = 0x004;
const UART_TXINTR = 1 << 5;
const UART_FRAME_BITS = 10; // start, 8 data bits, stop

function parseArguments(argv) {
  const options = { flash: null, i2c: [], watch: [], pwm: null, uart: null };
  for (let i = 0; i < argv.length; i += 2) {
    const [name, value] = [argv[i], argv[i + 1]];
    const list = () => value.split(',').filter((s) => s !== '');
    if (name === '--bootrom') options.bootrom = value;
    else if (name === '--flash') options.flash = value;
    else if (name === '--i2c') options.i2c = list().map((s) => s.split(':').map(Number));
    else if (name === '--watch') options.watch = list().map(Number);
    else if (name === '--pwm') options.pwm = Number(value);
    else if (name === '--uart') options.uart = Number(value);
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
const analog = new Map(); // ADC channel -> its 12-bit reading (rp2040js's channelValues), kept over resets
let usbQueue = [];
let usbRead = null; // [endpoint, size]: the device's armed receive buffer, while the host has nothing for it
let uartSent = []; // bytes the --uart UART sent since the last report
let uartQueue = []; // bytes on their way to its RX pin
let uartNextNs = 0; // when the next of them has arrived, at the UART's baud rate
let spiPending = null; // [bus, time, bytes]
let lastPwm = '';
let lastInputRead = -1; // emulated ns of the last read of SIO GPIO_IN: Pin.value() on an input
let cycleNanos = 8; // ns per clk_sys cycle (125 MHz at power-up); follows the clock (build())
let vreg = VREG_RESET; // the core voltage regulator's register, which rp2040js leaves unimplemented
let dormantWake = [0, 0, 0, 0]; // IO_BANK0 DORMANT_WAKE_INTE0-3: 4 bits a GPIO (level low/high, edge low/high)
let dormantLevels = null; // each GPIO's level when the chip went dormant (edge wakes)
// emulated ns since the first power-up, by clk_sys; "undervolted": ns run above 133 MHz with the core
// under 1.15 V, where the RP2040 is not certified (the firmware must raise VSEL before the clock)
const account = { run: {}, wait: {}, dormant: 0, undervolted: 0 };
const count = (table, hz, nanos) => { table[hz] = (table[hz] || 0) + nanos; };
// The instructions' time is summed here and counted into account.run when clk_sys changes and at the end of
// each batch: a table entry per instruction took a good part of the emulator's time.
let running = 0; // ns run at clk_sys since the last count
let undervolting = false; // clk_sys above 133 MHz with the core under 1.15 V (followed as either changes)
function countRunning(hz = mcu.clkSys) {
  if (!running) return;
  count(account.run, hz, running);
  if (undervolting) account.undervolted += running;
  running = 0;
}
function followPower() {
  undervolting = mcu.clkSys > 133e6 && ((vreg >> 4) & 0xf) < 12;
}

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
  cycleNanos = 1e9 / mcu.clkSys;
  // rp2040js calls this within the instruction that changed the clock, with clkSys already the new one
  mcu.addClockListener((hz, oldHz) => {
    countRunning(oldHz);
    cycleNanos = 1e9 / hz;
    followPower();
  });
  dormantWake = [0, 0, 0, 0];
  dormantLevels = null;
  vreg = VREG_RESET;
  followPower();
  const chipReset = mcu.peripherals[VREG_AND_CHIP_RESET];
  const vregRead = chipReset.readUint32.bind(chipReset), vregWrite = chipReset.writeUint32.bind(chipReset);
  chipReset.readUint32 = (offset) => (offset === 0 ? vreg | VREG_ROK : vregRead(offset));
  chipReset.writeUint32 = (offset, value) => {
    if (offset === 0) { countRunning(); vreg = value & VREG_WRITABLE; followPower(); } else vregWrite(offset, value);
  };
  const io = mcu.peripherals[IO_BANK0];
  const ioRead = io.readUint32.bind(io), ioWrite = io.writeUint32.bind(io);
  io.readUint32 = (offset) => (offset >= DORMANT_WAKE_INTE0 && offset <= DORMANT_WAKE_INTS3
    ? (offset < DORMANT_WAKE_INTE0 + 16 ? dormantWake[(offset - DORMANT_WAKE_INTE0) >> 2] : 0) : ioRead(offset));
  io.writeUint32 = (offset, value) => {
    if (offset >= DORMANT_WAKE_INTE0 && offset < DORMANT_WAKE_INTE0 + 16) dormantWake[(offset - DORMANT_WAKE_INTE0) >> 2] = value >>> 0;
    else if (offset >= DORMANT_WAKE_INTE0 + 16 && offset <= DORMANT_WAKE_INTS3) { /* INTF/INTS: not used */ }
    else ioWrite(offset, value);
  };
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
  for (const [channel, value] of analog) mcu.adc.channelValues[channel] = value;
  const readSio = mcu.sio.readUint32.bind(mcu.sio);
  mcu.sio.readUint32 = (offset) => {
    if (offset === SIO_GPIO_IN) lastInputRead = now();
    return readSio(offset);
  };
  if (options.uart !== null) {
    const uart = mcu.uart[options.uart];
    uart.checkInterrupts = () => mcu.setInterrupt(uart.irq, !!(uart.interruptStatus & uart.interruptMask));
    uart.onByte = (value) => {
      uartSent.push(value);
      uart.interruptStatus |= UART_TXINTR;
      uart.checkInterrupts();
    };
  }
  uartSent = [];
  cdc = new USBCDC(mcu.usbCtrl);
  // rp2040js's host answers every receive buffer the device arms at once, with an empty packet when it
  // has nothing to send, and the firmware's USB interrupt then never rests; a real host sends nothing
  // (the USB controller NAKs without an interrupt), so the buffer waits here until there are bytes.
  const answerRead = cdc.usb.onEndpointRead;
  cdc.usb.onEndpointRead = (endpoint, size) => {
    if (endpoint === cdc.outEndpoint && cdc.txFIFO.empty) usbRead = [endpoint, size];
    else answerRead(endpoint, size);
  };
  cdc.answerWaitingRead = () => {
    if (usbRead && !cdc.txFIFO.empty) { const [endpoint, size] = usbRead; usbRead = null; answerRead(endpoint, size); }
  };
  usbRead = null;
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

// The bytes of the cable whose time has come go into --uart's RX FIFO, a frame's time apart at the
// firmware's baud rate. A UART not enabled loses them, as on the chip; a full FIFO holds them back (on the
// chip its interrupt would have emptied it: the firmware reads with interrupts on).
function feedUart() {
  const uart = mcu.uart[options.uart];
  const frameNs = uart.baudDivider ? (UART_FRAME_BITS * 1e9) / uart.baudRate : 0;
  while (uartQueue.length && uartNextNs <= now()) {
    if (!(uart.enabled && uart.rxEnabled)) uartQueue.shift();
    else if (uart.rxFIFO.full) { uartNextNs = now() + frameNs; return; }
    else uart.feedByte(uartQueue.shift());
    uartNextNs += frameNs;
  }
}

function feedUsb() {
  while (usbQueue.length && cdc.txFIFO.itemCount < cdc.txFIFO.size) cdc.sendSerialByte(usbQueue.shift());
  cdc.answerWaitingRead();
}

function hostSide() {
  feedUsb();
  if (uartSent.length) { flushSpi(); emit(`L ${hex(uartSent)}`); uartSent = []; }
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

// A dormant chip wakes when a pin enabled in DORMANT_WAKE_INTE has its level, or has changed the way asked.
function dormantWoken() {
  for (let gpio = 0; gpio < 30; gpio++) {
    const bits = (dormantWake[gpio >> 3] >>> ((gpio & 7) * 4)) & 0xf;
    if (!bits) continue;
    const level = mcu.gpio[gpio].rawInputValue, before = dormantLevels[gpio];
    if ((bits & 1 && !level) || (bits & 2 && level) || (bits & 4 && before && !level) || (bits & 8 && !before && level)) return true;
  }
  return false;
}

// ---- running
let runTarget = null;
let profiling = false;
let profile = new Map(); // instruction address -> cycles spent there while profiling
function batch() {
  const core = mcu.core, clock = simulator.clock, xosc = mcu.peripherals[XOSC];
  feedUsb(); // what the host sent since the last batch, before a waiting core skips ahead
  for (let i = 0; i < 100000 && now() < runTarget; i++) {
    if (xosc.isDormant) {
      if (dormantLevels === null) {
        dormantLevels = mcu.gpio.map((pin) => pin.rawInputValue);
        flushSpi(); emit(`Z ${now()} asleep`);
      }
      followPulls();
      if (dormantWoken()) {
        xosc.writeUint32(XOSC_DORMANT, XOSC_WAKE);
        dormantLevels = null;
        emit(`Z ${now()} awake`);
        continue;
      }
      // the crystal and every clock stand still: outside time passes, the chip's own (its timer) does not
      const step = Math.min(DORMANT_STEP_NS, runTarget - now());
      timeBase += step;
      account.dormant += step;
      i += 1000;
    } else if (core.waiting) {
      // A core waiting with no alarm set waits for the outside world: the host's commands come between
      // batches, so time runs on to the end of the run.
      let step = Math.min(clock.nextAlarm ? clock.nanosToNextAlarm : Infinity, runTarget - now());
      if (uartQueue.length) step = Math.max(1, Math.min(step, uartNextNs - now()));
      clock.tick(step);
      if (uartQueue.length) feedUart();
      count(account.wait, mcu.clkSys, step);
      i += step / cycleNanos;
    } else if (!profiling) {
      // Up to 256 instructions, as long as the core runs: the checks above once a run, not per instruction.
      const endNanos = runTarget - timeBase;
      let n = 0;
      do {
        const nanos = core.executeInstruction() * cycleNanos;
        running += nanos;
        clock.tick(nanos);
      } while (++n < 256 && !core.waiting && !xosc.isDormant && !resetPending && Math.round(clock.nanos) < endNanos);
      i += n - 1;
    } else {
      const address = core.PC, cycles = core.executeInstruction();
      count(account.run, mcu.clkSys, cycles * cycleNanos);
      profile.set(address, (profile.get(address) || 0) + cycles);
      clock.tick(cycles * cycleNanos);
    }
    if (uartQueue.length) feedUart();
    if (resetPending) break;
  }
  countRunning();
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
    case 'uart':
      if (options.uart === null) { process.stderr.write('[chip] uart: no --uart to carry the bytes\n'); break; }
      if (!uartQueue.length) uartNextNs = Math.max(uartNextNs, now());
      for (const b of Buffer.from(words[1], 'hex')) uartQueue.push(b);
      break;
    case 'in': {
      const gpio = Number(words[1]), level = words[2] === '-' ? null : words[2] === '1';
      driven.set(gpio, level);
      if (level !== null) mcu.gpio[gpio].setInputValue(level); else followPulls();
      break;
    }
    case 'adc': {
      const channel = Number(words[1]), value = Number(words[2]);
      if (!(channel >= 0 && channel <= 4) || !(value >= 0 && value <= 4095)) {
        process.stderr.write(`[chip] adc: channel 0-4 and a value 0-4095, not ${words[1]} ${words[2]}\n`);
        break;
      }
      analog.set(channel, Math.round(value));
      mcu.adc.channelValues[channel] = Math.round(value);
      break;
    }
    case 'power':
      emit(`W ${now()} ${JSON.stringify({ ...account, clk_sys: mcu.clkSys, vsel: (vreg >> 4) & 0xf })}`);
      send();
      break;
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
