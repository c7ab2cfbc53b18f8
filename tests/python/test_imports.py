"""The package's own imports form no cycle (function-level imports included), and the
layers go one way: public API -> argument checks -> backend launch -> _C, with the torch
integration on top of the public API (docs/architecture.md)."""

import ast
import pathlib

import ascend_xent

PKG = pathlib.Path(ascend_xent.__file__).parent
NAME = "ascend_xent"


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PKG).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([NAME] + parts)


def _modules() -> dict:
    return {_module_name(p): p for p in PKG.rglob("*.py")}


NATIVE = f"{NAME}._C"  # the compiled extension: imports nothing of the package


def _imports(name: str, path: pathlib.Path, known) -> set:
    """Package modules ``name`` imports anywhere in its source."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            for a in node.names:  # `from . import x` imports the module x when there is one
                found.add(f"{base}.{a.name}" if f"{base}.{a.name}" in known else base)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module":
            arg = node.args[0] if node.args else None
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.startswith("."):
                found.add(f"{package}{arg.value}")
    return {m for m in found if m in known and m != name}


def _graph() -> dict:
    mods = _modules()
    known = set(mods) | {NATIVE}
    return {NATIVE: set(), **{name: _imports(name, path, known) for name, path in mods.items()}}


def _find_cycle(graph):
    state, stack = {}, []

    def visit(m):
        state[m] = "open"
        stack.append(m)
        for dep in sorted(graph[m]):
            if state.get(dep) == "open":
                return stack[stack.index(dep):] + [dep]
            if dep not in state:
                cycle = visit(dep)
                if cycle:
                    return cycle
        stack.pop()
        state[m] = "done"
        return None

    for m in sorted(graph):
        if m not in state:
            cycle = visit(m)
            if cycle:
                return cycle
    return None


def test_the_graph_sees_the_packages_imports():
    g = _graph()
    assert "ascend_xent._api" in g["ascend_xent"]          # from ._api import ...
    assert "ascend_xent.torch_ops" in g["ascend_xent"]     # importlib.import_module(".torch_ops")
    assert "ascend_xent._checks" in g["ascend_xent._api"]  # from . import _checks


def test_no_import_cycle():
    cycle = _find_cycle(_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_a_call_goes_one_way():
    g = _graph()
    below = {"_api": {"_checks", "_launch"}, "_checks": {"_arrays", "_backends"},
             "_launch": {"_backends", "_native", "_npu"}, "_npu": {"_native"},
             "_arrays": {"_native", "_output_cache"}, "_output_cache": {"_native"},
             "_backends": {"_native"}, "_native": {"_C"}}
    for mod, allowed in below.items():
        assert {m.rsplit(".", 1)[-1] for m in g[f"{NAME}.{mod}"]} == allowed, mod
    # torch sits on the public API; nothing below it knows torch_ops.
    users = {m for m, deps in g.items() if f"{NAME}.torch_ops" in deps}
    assert users == {NAME}
