"""The graph stage: specifier resolution, the file and module graphs, cycles and LCA (SPEC §4, §7).

Everything here is pure over its inputs except ``build_resolver``, which reads the project's
tsconfig/jsconfig and package.json files once.
"""

from __future__ import annotations

from filid.graph.candidates import SOURCE_EXTENSIONS
from filid.graph.cycles import Cycle, find_cycles
from filid.graph.file_graph import DYNAMIC_SPECIFIER, build_file_graph
from filid.graph.jsonc import parse_jsonc
from filid.graph.lca import normalize_module_path, resolve_lca
from filid.graph.module_graph import build_module_graph
from filid.graph.resolve import Resolution, ResolutionKind, Resolver, build_resolver

__all__ = [
    "DYNAMIC_SPECIFIER",
    "SOURCE_EXTENSIONS",
    "Cycle",
    "Resolution",
    "ResolutionKind",
    "Resolver",
    "build_file_graph",
    "build_module_graph",
    "build_resolver",
    "find_cycles",
    "normalize_module_path",
    "parse_jsonc",
    "resolve_lca",
]
