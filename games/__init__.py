"""Pure game rules: no I/O, no clocks, seeded randomness only."""
