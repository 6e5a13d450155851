#!/usr/bin/python3
"""numpy float64 versions of the benchmark workloads, written the way a user would, timed on the
same sizes as the C++ core, and compared value by value with the core's outputs.

Usage: numpy_baseline.py DIR  (DIR holds the core's outputs and core_times.json from rope-bench)
"""
import json
import os
import sys
import time

import numpy as np

BASE = 10000.0


def frequencies(base, d):
    # scalar pow per pair, the way the core (and Python's math) computes it
    return np.array([1.0 / base ** (2 * i / d) for i in range(d // 2)])


def angle_table(length, d):
    angles = np.outer(np.arange(length, dtype=np.float64), frequencies(BASE, d))
    return np.cos(angles), np.sin(angles)


def rotate(x):
    length, d = x.shape
    c, s = angle_table(length, d)
    x1, x2 = x[:, 0::2], x[:, 1::2]
    out = np.empty_like(x)
    out[:, 0::2] = x1 * c - x2 * s
    out[:, 1::2] = x1 * s + x2 * c
    return out


def decay(theta, r_max):
    r = np.arange(r_max + 1, dtype=np.float64)
    partial_sums = np.cumsum(np.exp(1j * np.outer(r, theta)), axis=1)
    return np.abs(partial_sums).mean(axis=1)


def decay_many_bases(bases, d, r_max):
    return np.stack([decay(frequencies(b, d), r_max) for b in bases])


def best_ms(fn, repeats):
    best, result = float("inf"), None
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, (time.perf_counter() - t0) * 1000.0)
    return best, result


def main():
    folder = sys.argv[1]
    with open(os.path.join(folder, "core_times.json")) as f:
        core = json.load(f)
    load = lambda name, shape: np.fromfile(os.path.join(folder, name), dtype=np.float64).reshape(shape)
    L, D = 131072, 128
    x = load("rotate_input.f64", (L, D))
    bases = np.logspace(2, 7, 64)

    rows = []
    ms, (c, s) = best_ms(lambda: angle_table(L, D), 3)
    diff = max(np.abs(c - load("angle_cos.f64", c.shape)).max(), np.abs(s - load("angle_sin.f64", s.shape)).max())
    rows.append(("angle table cos+sin, L=131072 x d=128", "angle_table", ms, diff, 4))
    ms, out = best_ms(lambda: rotate(x), 3)
    rows.append(("rotate 131072 vectors d=128 to 0..L-1", "rotate", ms, np.abs(out - load("rotate_output.f64", out.shape)).max(), 8))
    theta = frequencies(BASE, D)
    ms, out = best_ms(lambda: decay(theta, 131072), 3)
    rows.append(("decay bound d=128, r <= 131072", "decay_131072", ms, np.abs(out - load("decay_131072.f64", out.shape)).max(), 20))
    ms, out = best_ms(lambda: decay(theta, 1048576), 2)
    rows.append(("decay bound d=128, r <= 1048576", "decay_1048576", ms, np.abs(out - load("decay_1048576.f64", out.shape)).max(), 20))
    ms, out = best_ms(lambda: decay_many_bases(bases, D, 8192), 3)
    rows.append(("decay bound, 64 bases 1e2..1e7 x r <= 8192", "decay_bases", ms, np.abs(out - load("decay_bases.f64", out.shape)).max(), 20))

    print(f"{'workload':<44} {'core ms':>9} {'numpy ms':>9} {'ratio':>8} {'target':>7} {'max |diff|':>11}")
    ok = True
    for label, key, numpy_ms, diff, target in rows:
        core_ms = core[key]
        ratio = numpy_ms / core_ms
        ok = ok and diff <= 1e-10
        print(f"{label:<44} {core_ms:9.2f} {numpy_ms:9.1f} {ratio:7.1f}x {target:6d}x {diff:11.2e}")
    print("every value within 1e-10 of numpy's:", "yes" if ok else "NO")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
