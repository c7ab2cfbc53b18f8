"""The --dtype option of the subcommands that run a case: the same spellings and default
everywhere."""

from __future__ import annotations

# spelling -> short name (the benchmark's and the performance model's)
SPELLINGS = {"bf16": "bf16", "bfloat16": "bf16", "fp16": "fp16", "float16": "fp16",
             "fp32": "fp32", "float32": "fp32"}
LONG = {"bf16": "bfloat16", "fp16": "float16", "fp32": "float32"}
DEFAULT = "bf16"


def add_dtype_argument(p) -> None:
    p.add_argument("--dtype", default=DEFAULT, choices=sorted(SPELLINGS), type=str.lower,
                   help=f"dtype of log_prob and the gradient: bf16, fp16 or fp32, or their long names "
                        f"(default {DEFAULT})")


def short(spelling: str) -> str:
    return SPELLINGS[spelling]


def long(spelling: str) -> str:
    return LONG[SPELLINGS[spelling]]
