#!/usr/bin/python3
"""Independent numpy reference for RoPE Explorer's low-precision rounding (core/src/precision.cpp).

Reads doubles (Python float.hex() text, one a line) from the file named on the command line and
prints, for each, the value rounded to float32, bfloat16 and float16, as float.hex() text on one line.
float32 and float16 are numpy's own casts; bfloat16 is float32 with its low 16 bits rounded away to
nearest even by integer arithmetic on the bits (PyTorch's conversion).
"""
import sys

import numpy as np


def bf16(values):
    f = values.astype(np.float32)
    bits = f.view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    out = bits.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(f), f, out)


def main():
    with open(sys.argv[1]) as fh:
        xs = np.array([float.fromhex(line.strip()) for line in fh if line.strip()], dtype=np.float64)
    with np.errstate(over="ignore"):
        f32 = xs.astype(np.float32)
        f16 = xs.astype(np.float16)
    b16 = bf16(xs)
    for a, b, c in zip(f32, b16, f16):
        print(float(a).hex(), float(b).hex(), float(c).hex())


if __name__ == "__main__":
    main()
