"""The import graph of croupier's packages, and the rules it must keep (DESIGN.md "Second wave").

``python -m scripts.deps`` prints the graph between packages (``engine``, ``hosting.store``, ``tui.widgets``…),
then module by module, and exits 1 (naming each problem) when:

- modules import each other in a cycle (every import counts: at the top, inside a function, or only for the
  type checker — a cycle hidden in a function is still two modules that cannot be understood apart);
- the engine imports ``hosting`` or ``tui`` (the engine is pure: no sockets, disks or screens);
- a ``hosting`` module other than the command line (``hosting.cli``, ``hosting.commands.*``: the composition
  root) imports ``tui`` — or names a ``tui`` module in a string, as a child process started with
  ``python -m tui.served`` does;
- a module outside the command line imports the command line (the composition root uses the packages; none
  of them uses it).

It reads the source with :mod:`ast` (nothing is imported or run). ``scripts/test`` runs it before the tests.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

PACKAGES = ("engine", "hosting", "tui")
COMPOSITION_ROOT = ("hosting.cli", "hosting.commands")
"""The command line: the only hosting code that may import the TUI (it passes the TUI's entry points in)."""


@dataclass(frozen=True)
class Import:
    """One module's use of another: ``how`` is ``import`` or ``by name`` (a module named in a string)."""

    source: str
    target: str
    line: int
    how: str = "import"


@dataclass
class Graph:
    modules: set[str] = field(default_factory=set)
    imports: list[Import] = field(default_factory=list)

    def edges(self) -> dict[str, set[str]]:
        """Module → the modules it uses (imports and names), itself excluded."""
        edges: dict[str, set[str]] = {module: set() for module in self.modules}
        for found in self.imports:
            if found.target != found.source:
                edges[found.source].add(found.target)
        return edges


def module_name(root: Path, path: Path) -> str:
    """``hosting/store/db.py`` → ``hosting.store.db``; a package's ``__init__.py`` is the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def read_graph(root: Path, packages: Sequence[str] = PACKAGES) -> Graph:
    """Every import between the modules of ``packages`` under ``root``."""
    files = {module_name(root, path): path for package in packages
             for path in sorted((root / package).rglob("*.py"))}
    graph = Graph(set(files))
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        graph.imports.extend(_imports(tree, module, package, graph.modules))
    return graph


def _imports(tree: ast.AST, module: str, package: str, known: set[str]) -> Iterable[Import]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _known_prefix(alias.name, known)
                if target:
                    yield Import(module, target, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            for alias in node.names:
                # ``from hosting.store import db`` uses the module ``hosting.store.db``; ``import Store`` the package
                target = _known_prefix(f"{base}.{alias.name}", known) if base else ""
                if target:
                    yield Import(module, target, node.lineno)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "." in node.value \
                and node.value in known:
            yield Import(module, node.value, node.lineno, "by name")


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = parts[:len(parts) - (node.level - 1)] if node.level > 1 else parts
    return ".".join([*base, *([node.module] if node.module else [])])


def _known_prefix(name: str, known: set[str]) -> str:
    """The longest leading part of dotted ``name`` that is one of our modules ('' if none)."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in known:
            return candidate
    return ""


def cycles(edges: Mapping[str, set[str]]) -> list[list[str]]:
    """One shortest cycle through each group of modules that import each other (Tarjan's strongly connected
    components), as ``[a, b, …, a]``; sorted so the output is stable."""
    found = []
    for component in _strong_components(edges):
        if len(component) > 1:
            found.append(_shortest_cycle(min(component), edges, component))
    return sorted(found)


def _strong_components(edges: Mapping[str, set[str]]) -> list[set[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(edges[start]))]  # iterative: no recursion limit
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, pending = work[-1]
            if pending:
                child = pending.pop()
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, sorted(edges.get(child, ()))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                components.append(component)
    return components


def _shortest_cycle(start: str, edges: Mapping[str, set[str]], within: set[str]) -> list[str]:
    """Breadth-first from ``start`` back to itself inside its component."""
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(edges.get(node, ())):
                if child not in within:
                    continue
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [*reversed(path), start]
                if child not in previous:
                    previous[child] = node
                    following.append(child)
        frontier = following
    return [start]


def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def rule_breaks(graph: Graph) -> list[str]:
    """The imports that break the layering: engine → hosting/tui; hosting (outside the command line) → tui;
    anything outside the command line → the command line."""
    problems = []
    for found in sorted(graph.imports, key=lambda item: (item.source, item.line, item.target)):
        where = f"{found.source}:{found.line} {'names' if found.how == 'by name' else 'imports'} {found.target}"
        if _in(found.source, "engine") and (_in(found.target, "hosting") or _in(found.target, "tui")):
            problems.append(f"the engine is pure: {where}")
        elif any(_in(found.source, root) for root in COMPOSITION_ROOT):
            continue
        elif _in(found.source, "hosting") and _in(found.target, "tui"):
            problems.append(f"only the command line (hosting.cli, hosting.commands) may use the TUI: {where}")
        elif any(_in(found.target, root) for root in COMPOSITION_ROOT):
            problems.append(f"nothing uses the command line (it is the composition root): {where}")
    return problems


def problems(graph: Graph) -> list[str]:
    found = [f"import cycle: {' -> '.join(cycle)}" for cycle in cycles(graph.edges())]
    return found + rule_breaks(graph)


def package_of(module: str, packages: set[str]) -> str:
    """The innermost package holding ``module`` (a package is its own)."""
    return module if module in packages else module.rpartition(".")[0]


def package_edges(graph: Graph, root: Path) -> dict[str, set[str]]:
    packages = {module for module in graph.modules if (root / module.replace(".", "/") / "__init__.py").exists()}
    edges: dict[str, set[str]] = defaultdict(set)
    for source, targets in graph.edges().items():
        home = package_of(source, packages)
        edges[home].update(package_of(target, packages) for target in targets)
        edges[home].discard(home)
    return edges


def render(edges: Mapping[str, set[str]]) -> list[str]:
    return [f"  {source} -> {', '.join(sorted(targets)) or '(nothing)'}" for source, targets in sorted(edges.items())]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.deps", description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="the repository (default: this one)")
    parser.add_argument("--packages-only", action="store_true", help="print the package graph, not every module")
    options = parser.parse_args(argv)
    graph = read_graph(options.root)
    print("packages:")
    print("\n".join(render(package_edges(graph, options.root))))
    if not options.packages_only:
        print("modules:")
        print("\n".join(render(graph.edges())))
    found = problems(graph)
    for problem in found:
        print(f"deps: {problem}", file=sys.stderr)
    print(f"deps: {len(graph.modules)} modules, {sum(map(len, graph.edges().values()))} imports, "
          f"{len(found)} problem(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
