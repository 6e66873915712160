"""croupier's rules engine: pure, synchronous and deterministic (no I/O, no clock, no hidden randomness)."""
