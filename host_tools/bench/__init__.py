"""`bakumat bench`: the benchmarks that print figures (bench_referee,
bench_sensing, bench_runtime, bench_phone), the chip projections they use
(chiptime: times as ratios to pystone, heap32: the heap at 32 bits) and the
serial link's budget for raw streams (linkbudget)."""
