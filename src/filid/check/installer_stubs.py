"""The ``stubs/`` of a PHP package's installer: JavaScript and TypeScript a command copies into
another project (issue 23, after blind judge K2, P6; docs/rules.md, "After blind judges K1
and K2").

laravel/breeze and laravel/jetstream are Composer packages (a ``composer.json`` at the root, no
``package.json`` there). Every JavaScript/TypeScript file of theirs lives under ``stubs/``, and
``php artisan breeze:install`` copies it into a Laravel application
(``(new Filesystem)->copyDirectory(__DIR__.'/../../stubs/inertia-react-ts/resources/js',
resource_path('js'))``), whose skeleton supplies ``resources/js/bootstrap.js`` and
``resources/css/app.css``, and whose Composer ``vendor/`` supplies Ziggy
(``'../../vendor/tightenco/ziggy'``, the stub tsconfig's ``"ziggy-js"`` path). Laravel names
such trees ``stubs/`` (its own ``stub:publish`` writes one); they are what ``templates/`` is to
a JavaScript CLI.

Decision: a file below the root's ``stubs/`` folder of a repository with a root
``composer.json`` is installer scaffold, and its unresolved imports are no claim, unless
something shows the repository builds it in place: a tsconfig outside ``stubs/`` whose program
takes the file in, or a file outside ``stubs/`` importing a file inside it. The PHP installer
itself is not read (filid parses no PHP); the Composer manifest says the repository is a PHP
package, and such a package has no JavaScript build of its own that would compile its stubs.
A ``stubs/`` folder of a JavaScript repository (no root ``composer.json``: TypeScript's
declaration stubs, a test's stubs) is judged like any folder.
"""

from __future__ import annotations

import os

from filid.check.project import Project
from filid.graph.compiler_paths import is_within

__all__ = ["InstallerStubs"]

_STUBS = "stubs"


class InstallerStubs:
    """Answers whether a file lies in a PHP installer's ``stubs/`` (module docstring)."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._active: bool | None = None

    def _is_installer(self) -> bool:
        if self._active is None:
            project = self._project
            self._active = os.path.isfile(project.root / "composer.json") and not any(
                is_within(edge.target, _STUBS) and not is_within(edge.source, _STUBS)
                for edge in project.file_graph.edges
            )
        return self._active

    def holds(self, file: str) -> bool:
        """Whether ``file`` is installer scaffold: below the root's ``stubs/`` of a Composer
        package that neither imports it from outside nor compiles it with an outside
        tsconfig."""
        if not is_within(file, _STUBS) or not self._is_installer():
            return False
        options = self._project.resolver.tsconfigs.for_file(file)
        return options is None or is_within(options.config, _STUBS)
