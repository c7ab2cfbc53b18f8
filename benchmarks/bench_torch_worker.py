#!/usr/bin/env python3
"""PyTorch's CPU backward timed in a process of its own, one rep at a time on request.

For an allocator setting that PyTorch reads once, at import (THP_MEM_ALLOC_ENABLE=1:
2 MiB pages for its CPU allocations): the benchmark cannot switch it in its own
process, so it starts this one with the setting in its environment and asks it for
one timed backward per rep, between its own contenders, so that this contender's
reps are interleaved with the others' like those of the contenders in its process.

Protocol, one JSON object per line: the parent sends {"case": {...}} (answer
{"ready": true, "anon_huge_kib": ...} or {"error": "..."}), then {"rep": true} per
rep (answer {"s": seconds}); end of input ends the process.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _bench():
    spec = importlib.util.spec_from_file_location("bench_xent_for_worker", os.path.join(HERE, "bench_xent.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _anon_huge_kib():
    """AnonHugePages of this process: evidence that the setting took effect."""
    try:
        with open("/proc/self/smaps_rollup") as f:
            for line in f:
                if line.startswith("AnonHugePages:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def serve(stdin=sys.stdin, stdout=sys.stdout):
    import torch
    import torch.nn.functional as F

    bench = _bench()
    backward = None
    for line in stdin:
        msg = json.loads(line)
        if "case" in msg:
            backward = None  # frees the previous case's tensors first
            backward = bench.torch_backward(torch, F, msg["case"], *bench.make_inputs(torch, msg["case"])[:3])
            try:
                backward()  # warm-up
                reply = {"ready": True, "anon_huge_kib": _anon_huge_kib()}
            except (RuntimeError, TypeError) as e:
                backward, reply = None, {"error": str(e).splitlines()[0]}
        else:
            reply = {"s": backward()}
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()
    return 0


class Worker:
    """The parent's handle: a child running serve() with ``env_extra`` in its environment."""

    def __init__(self, env_extra):
        self.env_extra = dict(env_extra)
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env={**os.environ, **self.env_extra})

    def _ask(self, msg):
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the PyTorch worker ({self.env_extra}) ended, exit code {self.proc.wait()}")
        return json.loads(line)

    def start_case(self, case):
        return self._ask({"case": case})

    def rep(self):
        return self._ask({"rep": True})["s"]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


if __name__ == "__main__":
    sys.exit(serve())
