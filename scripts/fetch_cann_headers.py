#!/usr/bin/env python3
"""Puts CANN's ACL headers (acl/*.h) into DEST for the syntax checks of tests/cann.

They come from the torch-npu wheel on PyPI, which ships them under torch_npu/include/acl/.
The wheel is pinned (version and sha256) and fetched with `pip download`, for CPython 3.11
on x86_64 whatever this machine is: only its headers are used, and they are text. Nothing
of it is installed. A second run with DEST complete does nothing.

Also writes DEST/op_plugin/op_api_types.h: the aclnn type and function-pointer declarations
of the same wheel's op-plugin (op_api_common_base.h), the signatures by which torch_npu
calls aclnn functions; tests/cann/stand_in_signatures.cpp compares the stand-ins with them.

Exit status: 0 done; 77 the wheel could not be downloaded (the checks are then skipped),
or 1 instead when ASCEND_XENT_REQUIRE_CANN_HEADERS=1 (scripts/run_tests.sh sets it); 1 on
any other failure.
"""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

PACKAGE = "torch-npu==2.14.0"
WHEEL = "torch_npu-2.14.0-cp311-cp311-manylinux_2_28_x86_64.whl"
SHA256 = "7736f7d82cf9f16c7dfc4537f7e7c638153da760273a193455e70857f912189e"
ACL_PREFIX = "torch_npu/include/acl/"
OP_API = "torch_npu/include/third_party/op-plugin/op_plugin/utils/op_api_common_base.h"
# op_api_common_base.h between these lines: plain C declarations (the rest needs ATen).
OP_API_FIRST = "typedef struct aclOpExecutor aclOpExecutor;"
OP_API_LAST = "using OpApiFunc ="
STAMP = ".complete"
SKIP = 77


def download(tmp):
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
           "--python-version", "3.11", "--implementation", "cp", "--platform", "manylinux_2_28_x86_64",
           "--dest", tmp, "--quiet", PACKAGE]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    path = os.path.join(tmp, WHEEL)
    if done.returncode != 0 or not os.path.isfile(path):
        return None, done.stdout.strip() or "pip download exited with %d" % done.returncode
    return path, ""


def op_api_types(text):
    lines = text.splitlines()
    first = next(i for i, l in enumerate(lines) if l.startswith(OP_API_FIRST))
    last = next(i for i, l in enumerate(lines) if l.startswith(OP_API_LAST))
    return ("// Extracted by scripts/fetch_cann_headers.py from %s of %s.\n#pragma once\n#include \"acl/acl_base.h\"\n"
            % (OP_API, WHEEL)) + "\n".join(lines[first:last + 1]) + "\n"


def extract(wheel, dest):
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            if name.startswith(ACL_PREFIX) and name.endswith(".h"):
                out = os.path.join(dest, "acl", name[len(ACL_PREFIX):])
                os.makedirs(os.path.dirname(out), exist_ok=True)
                with open(out, "wb") as f:
                    f.write(z.read(name))
        os.makedirs(os.path.join(dest, "op_plugin"), exist_ok=True)
        with open(os.path.join(dest, "op_plugin", "op_api_types.h"), "w") as f:
            f.write(op_api_types(z.read(OP_API).decode()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dest", required=True)
    dest = ap.parse_args().dest
    stamp = os.path.join(dest, STAMP)
    if os.path.isfile(stamp) and open(stamp).read().strip() == SHA256:
        print("CANN's ACL headers from %s already in %s" % (WHEEL, dest))
        return 0
    shutil.rmtree(dest, ignore_errors=True)
    with tempfile.TemporaryDirectory() as tmp:
        wheel, why = download(tmp)
        if wheel is None:
            required = os.environ.get("ASCEND_XENT_REQUIRE_CANN_HEADERS") == "1"
            print("%s: could not download %s from PyPI, so the syntax checks against CANN's ACL headers "
                  "cannot run:\n%s" % ("failed" if required else "skipped", PACKAGE, why))
            return 1 if required else SKIP
        with open(wheel, "rb") as f:
            got = hashlib.sha256(f.read()).hexdigest()
        if got != SHA256:
            print("%s has sha256 %s, expected %s" % (WHEEL, got, SHA256))
            return 1
        extract(wheel, dest)
    with open(stamp, "w") as f:
        f.write(SHA256 + "\n")
    print("CANN's ACL headers from %s extracted to %s" % (WHEEL, dest))
    return 0


if __name__ == "__main__":
    sys.exit(main())
