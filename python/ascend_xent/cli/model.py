"""The modelled NPU time of one case (a MODEL, not a measurement).

Runs the case once on the simulator with its timing model on: the kernel's
instructions, synchronisation and DMAs replayed pipe by pipe on an Atlas A2 vector
core (docs/timing_model.md: the constants, their sources and the model's error
against the vendor's published measurements). Prints the modelled Task Duration, each
pipe's busy time, the L2 traffic and the fraction of the HBM roofline.
--path picks the kernel (the backward by default; the forward; the fused loss and
gradient); --step models a training step's loss three ways (fused, our forward and
backward, torch's forward and our backward). --table prints the standing table of the
benchmark's shape families (markdown).
"""

from __future__ import annotations

import json

from ._dtype import add_dtype_argument, short
from ._sim_options import apply as apply_sim_options

NAME = "model"
HELP = "modelled NPU time of a case on the timing model (Task Duration, pipes, L2, HBM roofline)"


def add_arguments(p) -> None:
    p.add_argument("--n", type=int, default=4096, help="rows N (default 4096)")
    p.add_argument("--c", type=int, default=32000, help="classes C (default 32000)")
    add_dtype_argument(p)
    p.add_argument("--label-smoothing", type=float, default=0.0, help="label smoothing in [0, 1] (default 0)")
    p.add_argument("--weight", action="store_true", help="with class weights")
    p.add_argument("--zloss", action="store_true", help="with z-loss")
    p.add_argument("--reduction", default="mean", choices=["mean", "sum", "none"], help="default mean")
    p.add_argument("--soc", default=None, help="SoC profile (default: the current one)")
    p.add_argument("--path", default="backward", choices=["backward", "forward", "fused", "fused-inplace"],
                   help="the kernel: backward (from log_prob, default), forward, fused (the loss and gradient "
                        "from the logits), fused-inplace (its gradient over the logits)")
    p.add_argument("--softcap", type=float, default=None, help="fused paths: cap the logits at this value")
    p.add_argument("--step", action="store_true",
                   help="a training step's loss three ways: fused, our forward + backward, torch's forward + "
                        "our backward")
    p.add_argument("--json", action="store_true", help="print one JSON object instead")
    p.add_argument("--table", action="store_true",
                   help="the standing table of the benchmark's shape families, markdown (a few minutes); "
                        "of --path's kernel")


def run(args) -> int:
    from .. import perf_model

    apply_sim_options(soc=args.soc)
    if args.table:
        from . import _model_table

        table = _model_table.rows(args.path)
        print(json.dumps(table, indent=1) if args.json else _model_table.markdown(table))
        return 0
    if args.n < 1 or args.c < 1:
        raise ValueError("--n and --c must be >= 1")
    case = (args.n, args.c, short(args.dtype), args.label_smoothing, args.weight, args.zloss, args.reduction,
            args.soc)
    if args.step:
        res = perf_model.compare_step(*case)
        print(json.dumps(res, indent=1, ensure_ascii=False) if args.json else perf_model.format_step(res))
        return 0
    res = perf_model.model_case(*case, path=args.path, softcap=args.softcap)
    if args.json:
        print(json.dumps(res, indent=1, ensure_ascii=False))
    else:
        print(perf_model.format_report(res))
    return 0
