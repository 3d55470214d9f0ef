"""Bus traffic per key press, beside micropython-lib's ``ssd1306`` driver.

micropython-lib's SSD1306_I2C.show() (micropython-lib/micropython/drivers/
display/ssd1306/ssd1306.py) calls write_cmd six times (SET_COL_ADDR, x0, x1,
SET_PAGE_ADDR, 0, pages - 1), each an I2C write of the 2 bytes [0x80, cmd],
then write_data(buffer): one writevto of [b"\\x40", buffer]. For 128x64 that
is, on every show() whatever changed:
    bytes        = 6 * 2 + 1 + 128 * 64 // 8 = 1,037
    transactions = 6 + 1 = 7
Commands outside show() (power, contrast) cost both drivers the same, so the
full-frame figure of a key press is: our bytes - what our show() sent + shows *
1,037. Time on the bus at 400 kHz: every byte is 9 clocks (8 bits and the
ACK), and every transaction adds its address byte (9 clocks; start and stop
conditions are ignored).
"""

from __future__ import annotations

from dataclasses import dataclass

FULL_FRAME_BYTES = 6 * 2 + 1 + 128 * 64 // 8
FULL_FRAME_TRANSACTIONS = 6 + 1
BUS_HZ = 400_000
BUDGET_RATIO = 0.25  # median bytes per key press at most a quarter of full frames


@dataclass
class KeyPress:
    bytes: int  # our driver, on the bus
    transactions: int
    shows: int  # show() calls by the firmware
    show_bytes: int  # bytes those calls sent
    show_transactions: int
    fuel: int  # fuel of the passes until the key's frame is flushed; -1: none flushed

    @property
    def full_bytes(self) -> int:
        return self.bytes - self.show_bytes + self.shows * FULL_FRAME_BYTES

    @property
    def full_transactions(self) -> int:
        return self.transactions - self.show_transactions + \
            self.shows * FULL_FRAME_TRANSACTIONS


def bus_ms(payload: int, transactions: int) -> float:
    return (payload + transactions) * 9 * 1000 / BUS_HZ


def median(values: list[float]) -> float:
    ordered = sorted(values)
    n = len(ordered)
    if not n:
        return 0
    mid = n // 2
    return ordered[mid] if n % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def percentile(values: list[float], p: float) -> float:
    """Nearest rank: the smallest value at or above p percent of the values."""
    ordered = sorted(values)
    if not ordered:
        return 0
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


def summarize(presses: list[KeyPress]) -> dict:
    ours = [k.bytes for k in presses]
    full = [k.full_bytes for k in presses]
    ours_ms = [bus_ms(k.bytes, k.transactions) for k in presses]
    full_ms = [bus_ms(k.full_bytes, k.full_transactions) for k in presses]
    result = {
        "presses": len(presses),
        "median_bytes": median(ours), "p95_bytes": percentile(ours, 95),
        "full_median_bytes": median(full), "full_p95_bytes": percentile(full, 95),
        "median_ms": round(median(ours_ms), 2), "p95_ms": round(percentile(ours_ms, 95), 2),
        "full_median_ms": round(median(full_ms), 2),
        "full_p95_ms": round(percentile(full_ms, 95), 2),
    }
    result["ratio"] = round(result["median_bytes"] / result["full_median_bytes"], 3) \
        if result["full_median_bytes"] else None
    result["budget_ok"] = within_budget(result["median_bytes"], result["full_median_bytes"])
    return result


def within_budget(median_bytes: float, full_median_bytes: float) -> bool:
    return median_bytes <= BUDGET_RATIO * full_median_bytes


def cpu(presses: list[KeyPress]) -> dict:
    fuel = [k.fuel for k in presses if k.fuel >= 0]
    return {"flushed": len(fuel), "median_fuel": median(fuel), "worst_fuel": max(fuel, default=0)}
