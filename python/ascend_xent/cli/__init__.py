"""Command line: ``ascend-xent <subcommand>`` and ``python -m ascend_xent <subcommand>``.

Each subcommand is one module in this package that defines

    NAME: str                        # the subcommand's name
    HELP: str                        # one line for --help
    def add_arguments(parser): ...   # its options (argparse)
    def run(args) -> int: ...        # its exit code

Modules are discovered automatically (bench, demo, info, model), so a new
subcommand is a new file here and nothing else.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys


def _subcommands():
    mods = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(mod, "run") and hasattr(mod, "add_arguments"):
            mods.append(mod)
    return mods


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__

    parser = argparse.ArgumentParser(
        prog="ascend-xent",
        description="CrossEntropyLossGrad as an Ascend C kernel, run on the Ascend C simulator.")
    parser.add_argument("--version", action="version", version=f"ascend-xent {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for mod in _subcommands():
        name = getattr(mod, "NAME", mod.__name__.rsplit(".", 1)[-1])
        p = sub.add_parser(name, help=getattr(mod, "HELP", ""), description=mod.__doc__)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown and not getattr(args, "_accepts_unknown", False):
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except (ValueError, TypeError, RuntimeError) as e:
        print(f"ascend-xent {args.command}: error: {e}", file=sys.stderr)
        return 1
    except MemoryError as e:  # NumPy's: the case's arrays do not fit in this host's memory
        shape = " (--n x --c)" if hasattr(args, "n") and hasattr(args, "c") else ""
        print(f"ascend-xent {args.command}: error: the case does not fit in this host's memory{shape}: {e}",
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
