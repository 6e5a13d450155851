#!/usr/bin/python3
"""The command line as a user meets it: start to exit of `compute summary`, and the million-row decay
table written to a file by the app and by numpy (float64, the same numbers in shortest round-trip
form), timed in the same run.

Usage: bench/cli_bench.py [path/to/rope-explorer] [--runs N]
Prints one `name value` line per measure. A benchmark, not a test: read the spread.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

MAX_DISTANCE = 1 << 20
DIM = 128
BASE = 10000.0
CHUNK = 1 << 15


def timed(fn):
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1e3


def run_app(binary, args, out=subprocess.DEVNULL):
    subprocess.run([binary, *args], stdout=out, check=True)


def numpy_decay():
    """The RoFormer bound (1/(d/2)) sum_j |sum_{i<=j} e^{i r theta_i}| for r = 0..MAX_DISTANCE, in
    chunks of rows (the whole table at once would need 1 GB)."""
    theta = np.array([BASE ** (-2 * i / DIM) for i in range(DIM // 2)])
    chunks = []
    for first in range(0, MAX_DISTANCE + 1, CHUNK):
        r = np.arange(first, min(first + CHUNK, MAX_DISTANCE + 1), dtype=np.float64)
        chunks.append(np.abs(np.cumsum(np.exp(1j * np.outer(r, theta)), axis=1)).mean(axis=1))
    return np.concatenate(chunks)


def numpy_decay_csv(path):
    """The same, written as `distance,bound` rows with numbers that read back exactly (repr)."""
    bound = numpy_decay()
    with open(path, "w") as f:
        f.write("distance,bound\n")
        f.write("".join(f"{d},{b!r}\n" for d, b in enumerate(bound.tolist())))


def main():
    args = sys.argv[1:]
    runs = 50
    if "--runs" in args:
        i = args.index("--runs")
        runs = int(args[i + 1])
        del args[i:i + 2]
    binary = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "build", "rope-explorer")

    run_app(binary, ["compute", "summary"])  # warm the page cache
    summary = sorted(timed(lambda: run_app(binary, ["compute", "summary"])) for _ in range(runs))
    print(f"summary_runs {runs}")
    print(f"summary_p50_ms {statistics.median(summary):.2f}")
    print(f"summary_p90_ms {summary[int(0.9 * (runs - 1))]:.2f}")
    print(f"summary_min_ms {summary[0]:.2f}")

    with tempfile.TemporaryDirectory() as work:
        app_csv, numpy_csv = os.path.join(work, "app.csv"), os.path.join(work, "numpy.csv")

        def app_decay():
            with open(app_csv, "w") as out:
                run_app(binary, ["compute", "decay", "--set", f"dim={DIM}", "--set", f"max_distance={MAX_DISTANCE}"], out)

        app_times = sorted(timed(app_decay) for _ in range(5))
        numpy_times = sorted(timed(lambda: numpy_decay_csv(numpy_csv)) for _ in range(3))
        numpy_compute_times = sorted(timed(numpy_decay) for _ in range(3))
        app_rows = np.loadtxt(app_csv, delimiter=",", skiprows=1)
        numpy_rows = np.loadtxt(numpy_csv, delimiter=",", skiprows=1)
        print(f"decay_rows {len(app_rows)}")
        print(f"decay_app_ms {statistics.median(app_times):.1f}")
        app_ms = statistics.median(app_times)
        print(f"decay_numpy_to_file_ms {statistics.median(numpy_times):.1f}")
        print(f"decay_numpy_compute_only_ms {statistics.median(numpy_compute_times):.1f}")
        print(f"decay_speedup_to_file {statistics.median(numpy_times) / app_ms:.1f}")
        # the stricter ratio: the app's whole run, file included, against numpy's arithmetic alone
        print(f"decay_speedup_against_numpy_compute_only {statistics.median(numpy_compute_times) / app_ms:.1f}")
        print(f"decay_max_abs_difference {np.max(np.abs(app_rows[:, 1] - numpy_rows[:, 1])):.3g}")


if __name__ == "__main__":
    main()
