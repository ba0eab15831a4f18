"""No module circles (issue 29): assay's import graph has no cycle and no private imports.

The graph is read from the source with :mod:`ast`: every ``import`` and ``from … import``
anywhere in a module (inside functions and ``if TYPE_CHECKING:`` blocks too, where the
lazy imports live), relative imports resolved, and ``importlib.import_module`` of a
constant name; an f-string name (``f"assay.metrics.{home}"``, a package's lazy loader)
stands for every module directly in that package. An edge runs from a module to the
module it names (``from assay.io import sources`` names ``assay.io.sources``; a name
defined in a package's ``__init__`` names the package). The implicit import of a
module's parent packages is not an edge: a package that re-exports its modules would
otherwise be a cycle with each of them.

Two rules hold over that graph:

* no cycle: where two modules need the same code, it lives in the lower one (or one
  below both), public, and the arrow runs one way;
* no module imports an underscore-private name of another module, or reads one off
  an imported module (``from assay.metrics.ter import _search``, ``ter._search``).
  A private module (``assay.metrics._vector``) may still be imported: its underscore
  keeps it out of the public namespace, and its names are public to its callers.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

Edge = tuple[str, int, str, str | None]  # (importer, line, imported module, name or None)


def module_names(src: Path, package: str = "assay") -> dict[str, Path]:
    """Every module under ``src/package`` by its dotted name (a package by its own name)."""
    out = {}
    for path in sorted((src / package).rglob("*.py")):
        parts = path.relative_to(src).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _home(name: str, modules: dict[str, Path]) -> str | None:
    """The module a dotted name lives in: the longest prefix that is a module."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` of an attribute chain on a name, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


def edges(module: str, path: Path, modules: dict[str, Path], top: str) -> Iterator[Edge]:
    """The imports of one module, each as ``(module, line, imported module, name)``.

    ``name`` is the name taken from the imported module (``from m import name``, or a
    private ``m._name`` read off a module bound by an import), None for a whole module.
    """
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    bound: dict[str, str] = {}  # local name -> the module it is bound to
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == top:
                    yield module, node.lineno, alias.name, None
                    if alias.asname:
                        bound[alias.asname] = alias.name
                    else:
                        bound[alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            if source.split(".")[0] != top:
                continue
            for alias in node.names:
                if f"{source}.{alias.name}" in modules:  # a module taken from its package
                    yield module, node.lineno, f"{source}.{alias.name}", None
                    bound[alias.asname or alias.name] = f"{source}.{alias.name}"
                else:
                    yield module, node.lineno, source, alias.name
        elif (
            isinstance(node, ast.Call)
            and _dotted(node.func) in ("importlib.import_module", "import_module")
            and node.args
        ):
            yield from _dynamic(module, node.lineno, node.args[0], modules, top)
    for node in ast.walk(tree):  # names read off bound modules: ``ter._search``
        dotted = _dotted(node) if isinstance(node, ast.Attribute) else None
        if dotted is None or "." not in dotted:
            continue
        head, _, rest = dotted.partition(".")
        if head not in bound:
            continue
        full = f"{bound[head]}.{rest}" if bound[head] != head else dotted
        owner, _, name = full.rpartition(".")
        if _is_private(name) and owner in modules and full not in modules:
            yield module, node.lineno, owner, name


Graph = dict[str, dict[str, int]]  # module -> {imported module: line of its first import}


def _dynamic(
    module: str, line: int, name: ast.expr, modules: dict[str, Path], top: str
) -> Iterator[Edge]:
    """``import_module("a.b")``: an edge to ``a.b``; ``import_module(f"a.b.{x}")`` (a
    package's lazy loader): an edge to every module directly in ``a.b``."""
    if isinstance(name, ast.Constant) and isinstance(name.value, str):
        if name.value.split(".")[0] == top:
            yield module, line, name.value, None
    elif isinstance(name, ast.JoinedStr) and name.values:
        head = name.values[0]
        if isinstance(head, ast.Constant) and str(head.value).endswith("."):
            package = str(head.value)[:-1]
            if package.split(".")[0] == top:
                for other in modules:
                    if other.rpartition(".")[0] == package:
                        yield module, line, other, None


def import_graph(src: Path = SRC, package: str = "assay") -> tuple[Graph, list[str]]:
    """The import graph of ``src/package`` and a message per private name imported."""
    modules = module_names(src, package)
    graph: Graph = {name: {} for name in modules}
    private: dict[str, str] = {}  # message -> its first place
    for module, path in modules.items():
        for _, line, target, name in edges(module, path, modules, package):
            home = _home(target, modules)
            if home is None or home == module:
                continue
            graph[module].setdefault(home, line)
            if name is not None and _is_private(name):
                where = f"{path.relative_to(src)}:{line}"
                private.setdefault(f"{module} imports {home}.{name}", where)
    return graph, [f"{where}: {what}" for what, where in private.items()]


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _describe(component: list[str], graph: Graph) -> str:
    inside = set(component)
    arrows = [
        f"  {a} -> {b} (line {line})"
        for a in component
        for b, line in sorted(graph[a].items())
        if b in inside
    ]
    return "cycle: " + ", ".join(component) + "\n" + "\n".join(arrows)


def test_the_import_graph_has_no_cycle() -> None:
    graph, _ = import_graph()
    found = cycles(graph)
    assert not found, (
        "put what both modules need in the lower one, public, so the arrow runs one way:\n"
        + "\n".join(_describe(component, graph) for component in found)
    )


def test_no_module_imports_another_modules_private_name() -> None:
    _, private = import_graph()
    assert not private, "make the name public in its module (drop the underscore):\n" + "\n".join(
        private
    )


def _package(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = root / "pkg" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_the_checks_see_lazy_relative_and_attribute_imports(tmp_path: Path) -> None:
    """The two rules on a package written here, whose answer is known by reading it."""
    src = _package(
        tmp_path,
        {
            "__init__.py": "",
            "low.py": "def helper():\n    from pkg.high import run\n    return run\n",
            "high.py": "from .low import helper\n\ndef run():\n    return helper\n",
            "sub/__init__.py": "from pkg.sub import a\n",
            "sub/a.py": "import importlib\n\nf = lambda: importlib.import_module('pkg.sub.b')\n",
            "sub/b.py": "from .. import sub\nfrom pkg.sub.a import _hidden, __all__\n",
            "c.py": "from pkg.sub import a as m\nimport pkg.low\n\nx = m._secret, pkg.low._also",
            "d.py": "from pkg.sub import a\n\nfrom pkg.metrics_like import _vector_like\n",
            "e.py": "import importlib\n\ng = lambda n: importlib.import_module(f'pkg.sub.{n}')\n",
            "metrics_like/__init__.py": "",
            "metrics_like/_vector_like.py": "def _own():\n    return _own\n",
        },
    )
    graph, private = import_graph(src, "pkg")
    assert cycles(graph) == [["pkg.high", "pkg.low"], ["pkg.sub", "pkg.sub.a", "pkg.sub.b"]]
    assert graph["pkg.d"] == {"pkg.sub.a": 1, "pkg.metrics_like._vector_like": 3}
    assert graph["pkg.e"] == {"pkg.sub.a": 3, "pkg.sub.b": 3}
    assert sorted(message.split(": ", 1)[1] for message in private) == [
        "pkg.c imports pkg.low._also",
        "pkg.c imports pkg.sub.a._secret",
        "pkg.sub.b imports pkg.sub.a._hidden",
    ]
