#!/usr/bin/env python3
"""Whether this interpreter has ascend-xent installed (not editable) from the source tree
ROOT, for scripts/run_tests.sh. Prints the installed RECORD file's path (its mtime is the
install time), then one requirement per line of the given extra; prints nothing, and exits
1, when the package is missing, editable, or installed from elsewhere.

usage: installed_package.py ROOT EXTRA
"""

import importlib.metadata as md
import json
import pathlib
import re
import sys


def main(root: str, extra: str) -> int:
    try:
        dist = md.distribution("ascend-xent")
    except md.PackageNotFoundError:
        return 1
    origin = json.loads(dist.read_text("direct_url.json") or "{}")
    if origin.get("url") != pathlib.Path(root).resolve().as_uri() or origin.get("dir_info", {}).get("editable"):
        return 1
    record = next((f for f in dist.files or () if f.name == "RECORD"), None)
    if record is None:
        return 1
    marker = re.compile(rf"""\s*;\s*extra\s*==\s*["']{re.escape(extra)}["']\s*$""")
    print(record.locate())
    for req in dist.requires or ():
        if marker.search(req):
            print(marker.sub("", req))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
