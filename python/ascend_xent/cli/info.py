"""Print the version, backend, SoC profiles and build options."""

from __future__ import annotations

import importlib.util
import json
import platform

NAME = "info"
HELP = "version, backend, SoC profiles and build options"


def add_arguments(p) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object instead")


def run(args) -> int:
    import numpy as np

    import ascend_xent as ax
    from .. import _backends

    build = ax.build_info()
    has_sim = build.get("backend") == "sim"
    info = {
        "version": ax.__version__,
        "backend": _backends.default_backend(),
        "npu_available": _backends.npu_available(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "torch": None,
        "build": build,
        "current_profile": ax.current_profile() if has_sim else None,
        "host_threads": ax.host_threads() if has_sim else None,
        "profiles": ax.profiles() if has_sim else [],
    }
    if importlib.util.find_spec("torch") is not None:
        try:
            import torch

            info["torch"] = torch.__version__
        except Exception as e:  # a broken torch install should not break `info`
            info["torch"] = f"unavailable ({e})"
    if args.json:
        print(json.dumps(info, indent=2, default=str))
        return 0
    b = info["build"]
    cur = info["current_profile"]
    if not has_sim:
        print(f"ascend-xent {info['version']}")
        print(f"  backend        npu (CANN build: no simulator; torch_npu tensors on the current NPU "
              f"stream; not yet run on hardware); torch_npu device: "
              f"{'available' if info['npu_available'] else 'not available'}")
        print(f"  python         {info['python']}, numpy {info['numpy']}, torch {info['torch'] or 'not installed'}")
        print(f"  build          {b.get('compiler')}, {b.get('build_type')}, flags '{b.get('cxx_flags')}', "
              f"pybind11 {b.get('pybind11')}")
        return 0
    print(f"ascend-xent {info['version']}")
    print(f"  backend        {info['backend']} (Ascend C simulator on the CPU); "
          f"NPU via torch_npu: {'available' if info['npu_available'] else 'not available'}")
    print(f"  python         {info['python']}, numpy {info['numpy']}, torch {info['torch'] or 'not installed'}")
    print(f"  build          {b.get('compiler')}, {b.get('build_type')}, flags '{b.get('cxx_flags')}', "
          f"native {b.get('native')}, sanitize {b.get('sanitize')}, pybind11 {b.get('pybind11')}")
    print(f"  SoC profile    {cur['name']} ({cur['soc_version']}), {cur['vector_cores']} vector cores, "
          f"host threads {info['host_threads']}")
    print("  profiles:")
    print(f"    {'name':<14}{'SOC_VERSION':<16}{'arch':>6}{'cores':>7}{'UB KiB':>8}{'L2 MiB':>8}")
    for p in info["profiles"]:
        print(f"    {p['name']:<14}{p['soc_version']:<16}{p['npu_arch']:>6}{p['vector_cores']:>7}"
              f"{p['ub_bytes'] // 1024:>8}{p['l2_bytes'] >> 20:>8}")
    print("  select with ASCEND_XENT_SOC / ASCEND_XENT_CORES / ASCEND_XENT_THREADS or "
          "ascend_xent.set_soc / set_cores / set_threads")
    return 0
