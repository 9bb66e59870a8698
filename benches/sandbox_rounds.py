#!/usr/bin/env python3
"""Interleaved whole-process timing for benches/sandbox.sh.

Reads one case from a JSON file: {"title", "rounds", "warmup", "budget",
"variants": [{"label", "argv"}, ...]}; the first variant is the baseline.
Every round runs each variant once, the order rotated round by round, so a
drift in the machine's speed touches them all alike; each variant is then
compared with the baseline *round by round* (the median of the per-round
differences and ratios), not median against median.

A run's wall time is read around the process (start to reaping); its CPU
time is the kernel's accounting of it and every process it waited for
(wait4). A run that exits non-zero is counted, said under the table and
run again; two in a row stop the benchmark with the output: a sandbox that
fails fast must never pass for a cheap one.
"""

import json
import os
import statistics
import subprocess
import sys
import time


def run_once(argv):
    """(wall seconds, cpu seconds) of one run, or None if it failed."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        return None
    return wall, usage.ru_utime + usage.ru_stime


FAILED = {}


def timed(label, argv):
    """One run's times; a failed run is counted and run once more, and a
    second failure in a row stops the benchmark with the output."""
    for _ in range(2):
        result = run_once(argv)
        if result is not None:
            return result
        FAILED[label] = FAILED.get(label, 0) + 1
    shown = subprocess.run(argv, capture_output=True, text=True)
    sys.exit(f"failed twice in a row: {' '.join(argv)}\n"
             f"{shown.stdout[-2000:]}{shown.stderr[-2000:]}")


def spread(values, scale, unit):
    """'median (min–max)' of values, scaled."""
    med = statistics.median(values) * scale
    return f"{med:.1f} {unit} ({min(values) * scale:.1f}–{max(values) * scale:.1f})"


def measure(case):
    """{label: [(wall, cpu), ...]} over the case's rounds, interleaved."""
    variants = case["variants"]
    for _ in range(case.get("warmup", 2)):
        for v in variants:
            timed(v["label"], v["argv"])
    times = {v["label"]: [] for v in variants}
    for i in range(case["rounds"]):
        shift = i % len(variants)
        for v in variants[shift:] + variants[:shift]:
            times[v["label"]].append(timed(v["label"], v["argv"]))
    return times


def table(case, times):
    """The Markdown table of one case."""
    labels = [v["label"] for v in case["variants"]]
    base = times[labels[0]]
    rows = [f"{case['title']} ({case['rounds']} interleaved rounds, "
            f"{case.get('warmup', 2)} warm-up)",
            "",
            "| variant | wall, median (min–max) | CPU, median | "
            "minus baseline, per round (median) | over baseline, per round (median) | "
            "CPU minus baseline, per round (median) |",
            "|---|---|---|---|---|---|"]
    for label in labels:
        runs = times[label]
        wall = [w for w, _ in runs]
        cpu = [c for _, c in runs]
        if label == labels[0]:
            diff, ratio, cpu_diff = "(baseline)", "", ""
        else:
            diffs = [(w - b) * 1000 for (w, _), (b, _) in zip(runs, base)]
            ratios = [w / b for (w, _), (b, _) in zip(runs, base)]
            diff = f"{statistics.median(diffs):+.1f} ms"
            ratio = f"{statistics.median(ratios):.3f}×"
            cpu_diffs = [(c - b) * 1000 for (_, c), (_, b) in zip(runs, base)]
            cpu_diff = f"{statistics.median(cpu_diffs):+.1f} ms"
        rows.append(f"| {label} | {spread(wall, 1000, 'ms')} | "
                    f"{statistics.median(cpu) * 1000:.1f} ms | {diff} | {ratio} | {cpu_diff} |")
    for label, count in FAILED.items():
        rows.append(f"\nnote: {label} failed {count} time(s) and was run again "
                    "(only the runs that succeeded are timed)")
    if case.get("budget"):
        rows += ["", f"budget: {case['budget']}"]
    return "\n".join(rows)


def main():
    case = json.load(open(sys.argv[1]))
    print(table(case, measure(case)), flush=True)
    print()


if __name__ == "__main__":
    main()
