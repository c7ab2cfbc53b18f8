"""The simulated Ascend SoC: profiles, core/thread counts and launch statistics.

The simulator starts on the profile named by ``ASCEND_XENT_SOC`` (and the core
count ``ASCEND_XENT_CORES``, the host thread count ``ASCEND_XENT_THREADS``) when
they are set, else on the simulator's default; these functions change it at run
time for the whole process.
"""

from __future__ import annotations

import json
from typing import Optional

from . import _checks
from ._native import native as _native

__all__ = ["profiles", "current_profile", "set_soc", "set_auto_sync", "set_cores", "set_threads",
           "host_threads", "set_timing", "timing_enabled", "timing_params", "last_launch_stats"]


def native():
    """The extension, when it is the simulator build; the CANN build has no simulator."""
    mod = _native()
    if not hasattr(mod, "profiles"):
        raise RuntimeError("ascend_xent: this build runs on an NPU (CANN) and has no simulator: "
                           "profiles/set_soc/set_cores/set_threads/host_threads are not available "
                           "(install the simulator build with -Ccmake.define.ASCEND_XENT_CANN=OFF)")
    return mod


def profiles() -> list:
    """Every SoC profile the simulator knows, as dicts (name, cores, ub_bytes, ...)."""
    return native().profiles()


def current_profile() -> dict:
    """The profile launches use now (after set_soc / set_cores)."""
    return native().current_profile()


def set_soc(name: Optional[str]) -> None:
    """Select a SoC profile by name; ``None`` restores the default (or ASCEND_XENT_SOC)."""
    if name is not None and not isinstance(name, str):
        raise TypeError(f"name: expected a profile name (str) or None, got {type(name).__name__}")
    if name is not None:
        _check_profile_name(name, "name")
    native().set_soc(name)


def _check_profile_name(name: str, arg: str) -> None:
    known = [p["name"] for p in native().profiles()]
    if name not in known:
        raise ValueError(f"{arg}: unknown SoC profile {_checks.short_repr(name)}; expected one of {', '.join(known)}")


def set_auto_sync(on: Optional[bool]) -> None:
    """Whether the hazard checks assume the compiler's syncs (``--cce-auto-sync=on``, the
    default); ``False`` checks as ``--cce-auto-sync=off``; ``None`` restores ASCEND_XENT_AUTO_SYNC."""
    if on is not None and not isinstance(on, bool):
        raise TypeError(f"on: expected a bool or None, got {type(on).__name__}")
    native().set_auto_sync(-1 if on is None else int(on))


def set_cores(n: int) -> None:
    """Limit the number of AI cores (blockDim ceiling) of the current profile; 0 = all."""
    _check_count(n, "n")
    native().set_cores(int(n))


def set_threads(n: int) -> None:
    """Host threads that run simulated blocks in parallel; 0 = the simulator's default."""
    _check_count(n, "n")
    native().set_threads(int(n))


def host_threads() -> int:
    return int(native().host_threads())


def last_launch_stats() -> Optional[dict]:
    """About the most recent launch in this process (None before the first one).

    In the CANN (NPU) build only the tiling keys are there (mode, tile_rows, tile_cols,
    row_tiles, col_tiles, tiling_block_dim, block_dim, prologue, workspace_bytes,
    min_traffic_bytes, ub_bytes) plus backend="npu" and host_seconds: no counters, no
    kernel time (the launch is asynchronous).

    Keys: kernel, soc, block_dim, blocks_used, host_threads, mode, tile_rows, tile_cols,
    row_tiles, col_tiles, prologue, launches, workspace_bytes, min_traffic_bytes, gm_read_bytes,
    gm_write_bytes, dma_in, dma_out, scalar_gm_reads, scalar_gm_writes,
    scalar_ub_reads, scalar_ub_writes, vector_instructions, vector_repeats,
    ub_peak_bytes, vector_repeats_by_op, wall_seconds, timing.

    ``timing`` is the timing model's record of the launch (None unless timing was on:
    ``set_timing(True)`` or ASCEND_XENT_TIMING=1): the modelled NPU time as msprof
    reports it, task_duration_us, aiv_time_us, aiv_vec/scalar/mte2/mte3_time_us and
    their ratios (means over blocks), l2_hit_bytes, hbm_read_bytes,
    hbm_write_back_bytes and the same per block under ``blocks``. ``timings`` has one such
    record per kernel launch of the call, in order (``launches`` of them: the backward
    queues a sums launch before its main kernel when it needs launch-wide sums); the
    totals count every launch of the call, ``per_block`` and ``timing`` are the main kernel's.
    """
    stats = _native().last_launch_stats()
    if stats is not None and isinstance(stats.get("timing"), str):
        stats["timing"] = json.loads(stats["timing"])
        stats["timings"] = [json.loads(t) for t in stats["timings"]]
    return stats


def set_timing(on: Optional[bool]) -> None:
    """Time every launch on the timing model (a modelled NPU time, not a measurement);
    ``None`` restores the environment (ASCEND_XENT_TIMING, ASCEND_XENT_PROFILE,
    ASCEND_XENT_TRACE). Off by default: it costs the simulator a replay per launch."""
    if on is not None and not isinstance(on, bool):
        raise TypeError(f"on: expected a bool or None, got {type(on).__name__}")
    native().set_timing(-1 if on is None else int(on))


def timing_enabled() -> bool:
    return bool(native().timing_enabled())


def timing_params(soc: str) -> dict:
    """The timing model's constants for a SoC profile (docs/timing_model.md gives their sources)."""
    if not isinstance(soc, str):
        raise TypeError(f"soc: expected a profile name (str), got {type(soc).__name__}")
    _check_profile_name(soc, "soc")
    return dict(native().timing_params(soc))


_UINT32_MAX = 2**32 - 1  # the simulator's counts are uint32


def _check_count(n, name):
    import numbers

    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"{name}: expected an int >= 0, got {type(n).__name__}")
    if not 0 <= n <= _UINT32_MAX:
        raise ValueError(f"{name}: expected an int in [0, {_UINT32_MAX}], got {n}")
