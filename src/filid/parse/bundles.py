"""Whether a file is a bundler's output: a webpack bundle (issue 23, K2 P12).

didi/cube-ui commits its webpack UMD build `lib/locale/index.js`: the bootstrap defines
``function __webpack_require__(moduleId)`` and each inner module is the original source,
wrapped; babel's UMD wrappers keep a CommonJS branch that never runs, whose
``require('../lang/string')`` is relative to the original `src/common/locale/` module, not to
`lib/locale/`. Such a file is not a module whose relative requires name files beside it.

The signal is the bootstrap's own declaration of ``__webpack_require__`` (a function
declaration of that name, or a parameter of a module function): source code written for
webpack reads ``__webpack_require__`` as a free variable (``__webpack_require__.e``), it
never declares it. Found like ``filid.parse.module_calls`` finds calls: each occurrence of
the word is looked up in the tree and kept only when the tree says it declares the name.
"""

from __future__ import annotations

from itertools import islice

from tree_sitter import Node

from filid.parse.rare_words import occurrences

__all__ = ["is_bundle"]

_WORD = b"__webpack_require__"
_RARE = _WORD.index(b"q")  # searched by its `q` (filid.parse.rare_words)
# How many occurrences are looked up before giving up (a bundle declares it near the top).
_MAX_LOOKUPS = 64


def is_bundle(root: Node, source: bytes) -> bool:
    """Whether the file declares webpack's ``__webpack_require__``: its bootstrap's function
    or an inner module's parameter (``function(module, exports, __webpack_require__)``)."""
    for position in islice(occurrences(source, _WORD, _RARE), _MAX_LOOKUPS):
        token = root.descendant_for_byte_range(position, position + len(_WORD))
        if (
            token is not None
            and token.type == "identifier"
            and token.start_byte == position
            and token.end_byte == position + len(_WORD)
            and _declares(token)
        ):
            return True
    return False


def _declares(token: Node) -> bool:
    """Whether the identifier ``token`` is the name of a function declaration or one of a
    function's parameters."""
    parent = token.parent
    if parent is None:
        return False
    if parent.type in ("function_declaration", "generator_function_declaration"):
        name = parent.child_by_field_name("name")
        return name is not None and name.id == token.id
    if parent.type == "formal_parameters":
        return True
    # TypeScript's grammar wraps a parameter: required_parameter > identifier
    return parent.type == "required_parameter" and (
        parent.parent is not None and parent.parent.type == "formal_parameters"
    )
