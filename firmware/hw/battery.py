"""The battery's voltage at VSYS through the ADC, and whether USB gives power (VBUS sense)."""

from machine import ADC, Pin

from othello.compat import const

_SAMPLES = const(8)  # readings averaged: the RP2040's ADC wanders by a few steps (its noise and DNL)
_ADC_REFERENCE_MV = const(3300)  # the Pico's ADC reference is its 3.3 V rail
_FULL_SCALE = const(65535)  # read_u16's top


class Battery:
    """read() -> (volts at VSYS, or None when the ADC failed; True while USB gives power)."""

    def __init__(self, spec):
        self.spec = spec  # the config's BatterySpec: the chemistry's voltages, for the gauge
        self.adc = ADC(Pin(spec.adc))
        self.volts_per_count = spec.divider * _ADC_REFERENCE_MV / 1000 / _FULL_SCALE / _SAMPLES
        # The Pico's VBUS sense (GP24) is driven by a divider from VBUS: no pull, or it would skew the level.
        self.vbus = None if spec.vbus is None else Pin(spec.vbus, Pin.IN, None)

    def read(self):
        usb = self.vbus is not None and self.vbus.value() == 1
        total = 0
        try:
            for _ in range(_SAMPLES):
                total += self.adc.read_u16()
        except OSError:
            return None, usb
        return total * self.volts_per_count, usb
