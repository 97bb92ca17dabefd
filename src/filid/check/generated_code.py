"""Unresolved imports filid does not claim are broken: targets a build generates, files no
compiler reads and no build reaches, projects a package ships as data to be copied, run-time
requires that resolve from the emitted file, root-absolute URLs outside a Vite root, and
targets that exist outside the file universe (issue 23, SPEC §0; docs/rules.md says why)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from functools import cached_property
from pathlib import Path

from filid.check.alias_targets import AliasTargets
from filid.check.ambient_modules import AmbientModules
from filid.check.bazel_outputs import BazelOutputs
from filid.check.build_copies import BuildCopies
from filid.check.build_layout import (
    emitted_data_target,
    glob_matches,
    names_a_published_file,
    resolves_from_emitted_file,
)
from filid.check.bundler_aliases import CONFIG_QUOTES as _QUOTES
from filid.check.bundler_aliases import MAX_CONFIG_BYTES as _MAX_CONFIG_BYTES
from filid.check.bundler_aliases import build_configs, under_vite_root
from filid.check.component_parts import ComponentParts
from filid.check.copy_steps import CopySteps
from filid.check.data_folders import DataFolders
from filid.check.deno_config import DenoRootDirs
from filid.check.directory_named import DirectoryNamedImports
from filid.check.glob_specifiers import glob_folder_exists
from filid.check.hoisted_packages import HoistedPackages
from filid.check.installer_stubs import InstallerStubs
from filid.check.lint_silenced import lint_silenced
from filid.check.meteor_packages import MeteorPackages
from filid.check.out_dir_images import OutDirImages
from filid.check.parked_files import ParkedFiles
from filid.check.prefixed_siblings import PrefixedSiblings
from filid.check.prisma_outputs import PrismaOutputs
from filid.check.project import Project
from filid.check.reached_files import BuiltFiles, ShippedProjects
from filid.check.rendered_targets import ConfiguredExtensions, rendered_from_template
from filid.check.require_hooks import YamlHooks, hooked_twins
from filid.check.run_time_paths import LeftOutIslands, unclaimed_run_time_imports
from filid.check.script_emits import ScriptEmits
from filid.check.static_assets import StaticAssets
from filid.check.template_tags import finds_template_tag_file
from filid.check.text_reads import read_as_text
from filid.check.tiddler_folders import TiddlerFolders
from filid.check.toolchain_resolved import (
    ENTRY_FIELDS as _ENTRY_FIELDS,
)
from filid.check.toolchain_resolved import (
    ToolchainResolved,
    manifest_targets,
)
from filid.check.ts_extension_swap import resolves_by_ts_substitution
from filid.check.tsconfig_named import TsconfigNamedFiles
from filid.check.tshy_layout import TshyBuilds
from filid.check.twin_trees import TwinTrees
from filid.check.typedoc_media import TypedocMedia
from filid.check.umd_arms import UmdArms
from filid.check.unchecked_files import UncheckedErasedImports
from filid.check.url_imports import BundlerIgnored
from filid.check.workspace_negated import NegatedWorkspacePackages
from filid.graph import DYNAMIC_SPECIFIER, SOURCE_EXTENSIONS
from filid.graph.candidates import DECLARATION_TWINS
from filid.graph.compiler_paths import is_within, join_path, parent_dir
from filid.graph.jsonc import read_jsonc_file
from filid.graph.tsconfig import JS_SUFFIXES
from filid.model.errors import InputError
from filid.model.facts import ImportKind
from filid.model.graph import UnresolvedImport
from filid.scan.classify import is_fixture_path
from filid.scan.universe import counts_when_absent, git_ignored, git_tracked
from filid.store.files import read_regular_file

__all__ = ["generated_imports"]

_JS_EXTENSIONS = frozenset(("js", "jsx", "mjs", "cjs"))
_DECLARATION_EXTENSIONS = (".d.ts", ".d.mts", ".d.cts")
# Single-file components a build compiles to JavaScript (Vue, Svelte, Astro).
_COMPONENT_EXTENSIONS = (".vue", ".svelte", ".astro")


def generated_imports(project: Project) -> frozenset[tuple[str, str]]:
    """(file, specifier) of the unresolved imports filid does not claim are broken: those
    ``Resolver.is_judged_unresolved`` leaves alone, those whose target exists on disk but
    lies outside the file universe (a `build/` or dot folder, a file over 1 MiB: the compiler
    resolves them), and those whose missing target git ignores (a file a build generates:
    ``CompaniesUsing.script.output.ts``, a codegen'd ``routers/`` folder), which resolve once
    the project is built.

    Each import is asked the questions of ``_EXEMPTIONS`` in order (the first that holds
    answers it); the paths of those none exempts are then probed on disk and in git's ignore
    rules, together, once for the whole project."""
    context = _Context(project)
    # the authors silenced their linter's unresolved-import rule on it (`check.lint_silenced`)
    unjudged = lint_silenced(project.root, project.file_graph.unresolved)
    probes: dict[str, set[tuple[str, str]]] = {}
    for item in project.file_graph.unresolved:
        if item.specifier == DYNAMIC_SPECIFIER:
            continue
        query = _Query(item, project)
        if any(exempts(context, query) for exempts in _EXEMPTIONS):
            unjudged.add(query.key)
            continue
        for path in _probe_paths(project, query):
            probes.setdefault(path, set()).add(query.key)
    # on disk, or listed without being on disk (a tracked file the clone never fetched)
    listed = frozenset(project.tree.files) if probes else frozenset()
    present = {path for path in probes if path in listed or os.path.isfile(project.root / path)}
    # a data file git tracks though the work tree lacks it (js-joda's
    # `data/unpacked/latest.json`, whose blob a mirror never fetched: `scan.universe`)
    present.update(
        git_tracked(project.root, [p for p in probes if p not in present and counts_when_absent(p)])
    )
    present.update(path for path in probes if _manifest_main_exists(project.root, path))
    unjudged.update(key for path in present for key in probes[path])
    probes = {path: keys for path, keys in probes.items() if path not in present}
    if not probes:
        return frozenset(unjudged)
    ignored = git_ignored(project.root, probes)
    unjudged.update(key for path in ignored for key in probes.get(path, ()))
    probes = {path: keys for path, keys in probes.items() if path not in ignored}
    texts: dict[str, bytes] = {}  # each config read once, however many imports ask
    for file, specifier in sorted({key for keys in probes.values() for key in keys}):
        bases = project.resolver.candidate_paths(file, specifier)
        if any(
            _is_named_build_output(project.root, file, base, context.configs, texts)
            for base in bases
        ):
            unjudged.add((file, specifier))
    return frozenset(unjudged)


class _Query:
    """One unresolved import, with what several questions ask of it computed once."""

    def __init__(self, item: UnresolvedImport, project: Project) -> None:
        self.file = item.file
        self.line = item.line
        self.specifier = item.specifier
        self.key = (item.file, item.specifier)
        self.facts = project.facts.get(item.file)
        self._resolver = project.resolver

    @cached_property
    def bases(self) -> list[str]:
        """The root-relative paths the specifier could stand for (``candidate_paths``)."""
        return self._resolver.candidate_paths(self.file, self.specifier)

    @cached_property
    def kinds(self) -> frozenset[ImportKind]:
        """The kinds of the facts behind this import (its line and specifier)."""
        return frozenset(
            fact.kind
            for fact in (self.facts.imports if self.facts is not None else ())
            if fact.line == self.line and fact.specifier == self.specifier
        )

    def own_bases(self) -> Iterator[str]:
        """The candidate paths inside the project, the root itself left out."""
        return (base for base in self.bases if not base.startswith("../") and base not in ("", "."))


class _Context:
    """What the questions need of the whole project, built once per check."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.imported = {edge.target for edge in project.file_graph.edges}
        self.data = read_as_text(
            project,
            {i.file for i in project.file_graph.unresolved if i.specifier != DYNAMIC_SPECIFIER},
        )
        self.configs = build_configs(project.tree.files)
        self.submodules = _submodule_paths(project.root)
        self.built = BuiltFiles(project)
        self.shipped = ShippedProjects(project)
        self.ambient = AmbientModules(project)
        self.run_time = unclaimed_run_time_imports(project, project.file_graph.unresolved)
        self.islands = LeftOutIslands(project)
        self.directory_named = DirectoryNamedImports(project)
        self.toolchain = ToolchainResolved(project, self.configs)
        self.build_copies = BuildCopies(project)
        self.copy_steps = CopySteps(project)
        self.out_dir_images = OutDirImages(project)
        self.typedoc_media = TypedocMedia(project.root)
        self.deno_root_dirs = DenoRootDirs(project)
        self.hoisted = HoistedPackages(project)
        self.tshy = TshyBuilds(project)
        self.script_emits = ScriptEmits(project, self.build_copies, self.copy_steps)
        self.unchecked_erased = UncheckedErasedImports(project)
        self.data_folders = DataFolders(project)
        self.tiddlers = TiddlerFolders(project.root)
        self.meteor = MeteorPackages(project.root)
        self.twin_trees = TwinTrees(project)
        self.prefixed_siblings = PrefixedSiblings(project)
        self.alias_targets = AliasTargets(project.root, self.configs)
        self.static_assets = StaticAssets(project)
        self.component_parts = ComponentParts(project)
        self.tsconfig_named = TsconfigNamedFiles(project)
        self.negated = NegatedWorkspacePackages(project)
        self.configured_extensions = ConfiguredExtensions(project.root, self.configs)
        self.parked = ParkedFiles(project)
        self.installer_stubs = InstallerStubs(project)
        self.umd_arms = UmdArms(project)
        self.yaml_hooks = YamlHooks(project.root, frozenset(project.tree.files))
        self.bazel_outputs = BazelOutputs(project)
        self.prisma_outputs = PrismaOutputs(project)
        self.bundler_ignored = BundlerIgnored(project.root)


def _read_as_text(context: _Context, query: _Query) -> bool:
    """Read only as text (`?raw`): data, not a module of the program."""
    return query.file in context.data


def _root_path(context: _Context, query: _Query) -> bool:
    """A root path no tool resolves against the project. Vite's dev server answers the `/@`
    prefix itself (`/@react-refresh`, `/@vite/client`, `/@id/…`) with modules that are no
    files. Neither Node nor tsc resolves `/x.js` against the project (it is a path from the
    file system's root); in browser code it is a URL on the serving origin, which a dev
    server may answer (web-dev-server's `/__web-dev-server__web-socket.js`). Vite resolves it
    against its root, so only there is a missing file a claim."""
    return query.specifier.startswith("/@") or (
        query.specifier.startswith("/") and not under_vite_root(query.file, context.configs)
    )


def _erased_unchecked(context: _Context, query: _Query) -> bool:
    """Erased at emit in a `// @ts-nocheck` file: nothing fails (`check.unchecked_files`)."""
    return context.unchecked_erased.holds(query.file, query.line, query.specifier)


def _in_data_folder(context: _Context, query: _Query) -> bool:
    """A folder a script of the package reads or copies as data through
    `join(__dirname, 'specs', …)` (`check.data_folders`): golden files, a scaffold."""
    return context.data_folders.holds(query.file)


def _substituted_or_ignored(context: _Context, query: _Query) -> bool:
    """tsc finds `./x.tsx` as `x.ts` for an erased import; the bundler leaves a
    `webpackIgnore`/`@vite-ignore` import() for run time (docs/rules.md)."""
    project = context.project
    return resolves_by_ts_substitution(
        project.tree.files, query.facts, query.file, query.line, query.specifier
    ) or context.bundler_ignored.ignored(query.facts, query.file, query.line, query.specifier)


def _tiddler(context: _Context, query: _Query) -> bool:
    """TiddlyWiki resolves it against tiddler titles (`check.tiddler_folders`)."""
    return query.specifier.startswith(".") and context.tiddlers.holds(query.file)


def _meteor_package(context: _Context, query: _Query) -> bool:
    """A package of the Meteor app (`check.meteor_packages`), whatever `paths` says."""
    return context.meteor.resolves(query.file, query.specifier)


def _typedoc_copy(context: _Context, query: _Query) -> bool:
    """A copy TypeDoc made for a generated site's `media/` (nats.js's
    `docs/services/media/01_services.ts`): documentation, never compiled."""
    return context.typedoc_media.holds(query.file)


def _fixture(context: _Context, query: _Query) -> bool:
    """Written to exercise a tool: vite's `playground/hmr/missing-file` imports a file its
    test creates, qwik's optimizer fixtures are sample build output."""
    return is_fixture_path(query.file)


def _in_template_project(context: _Context, query: _Query) -> bool:
    """A generator's template project: its tsconfig is template data (nestjs/schematics'
    `"strict": <%= strict %>`), its imports resolve in the project it is rendered into."""
    folders = context.project.resolver.tsconfigs.template_folders
    return any(is_within(query.file, folder) for folder in folders)


def _installer_stub(context: _Context, query: _Query) -> bool:
    """A PHP installer's `stubs/`, copied into a Laravel application whose skeleton and
    Composer `vendor/` complete it (laravel/breeze, `check.installer_stubs`)."""
    return context.installer_stubs.holds(query.file)


def _template_file(context: _Context, query: _Query) -> bool:
    """A file a tool copies and completes elsewhere (overleaf's migration template,
    `20000000000000_template.mjs`, is copied into `tools/migrations/` by `migrate create`,
    where its `./lib/helpers.mjs` resolves); nothing imports it."""
    return (
        query.file not in context.imported and _is_template_file(query.file)
    ) or context.toolchain.in_template(query.file)


def _native_addon(context: _Context, query: _Query) -> bool:
    """A native addon node-gyp or napi builds (desktop's `build/Release/*.node`)."""
    return query.specifier.endswith(".node")


def _in_submodule(context: _Context, query: _Query) -> bool:
    """Inside a git submodule: its files are another repository's (docmost's `ee`)."""
    return bool(context.submodules) and any(
        is_within(base, module) for module in context.submodules for base in query.bases
    )


def _leaves_project(context: _Context, query: _Query) -> bool:
    """A relative path that leaves the project: filid sees nothing there (openai-node types
    `import('../../../node_modules/undici/index.d.ts')` in the project that installs the SDK,
    one level after another)."""
    return query.specifier.startswith(".") and join_path(
        parent_dir(query.file), query.specifier
    ).startswith("../")


def _uncompiled_script(context: _Context, query: _Query) -> bool:
    """A JavaScript file nothing imports and no tsconfig compiles is not a module of the
    build: a script copies it, or a tool loads it from where it ends up (stencil's jest
    helpers import './index.js' beside the bundled testing/)."""
    return (
        query.file not in context.imported
        and query.file.endswith(JS_SUFFIXES)
        and not context.project.resolver.tsconfigs.compiles(query.file)
    )


def _unbuilt(context: _Context, query: _Query) -> bool:
    """No build reaches it: a sample or a snippet (react-hook-form's CodeSandbox
    `examples/`), an input a tool reads as text or copies (umi's runtime templates
    `libs/qiankun/master/*`, its webpack shims `bundles/webpack/packages/*.js`)."""
    return query.file not in context.built


def _ambient_module(context: _Context, query: _Query) -> bool:
    """tsc falls back to an ambient module of the program when no file answers (ens-app-v3's
    `declare module '@app/local-contracts'` beside `"@app/*"`)."""
    return context.ambient.declares(query.file, query.specifier)


def _typed_by_wildcard(context: _Context, query: _Query) -> bool:
    """Only the type checker reads the file, and a wildcard module of its program types the
    import (lwc's type tests: `'./stylesheet.css'` through `declare module '*.css'`)."""
    return context.ambient.types_only(query.file, query.specifier)


def _left_out_island(context: _Context, query: _Query) -> bool:
    """No compiler ever reads it (a codemod's `*.input.ts` fixture, read as text; a
    schematic's `files/` templates, which import only each other)."""
    return context.islands.holds(query.file)


def _glob(context: _Context, query: _Query) -> bool:
    """A glob resolver's pattern (Parcel's resolver-glob, babel's transform-glob-import:
    react-spectrum's `'../intl/*.json'`) that matches files, or one over a folder that
    exists (Redwood's `src/graphql/**/*.{js,ts}`, `check.glob_specifiers`)."""
    project = context.project
    return glob_matches(project.root, parent_dir(query.file), query.specifier) or (
        glob_folder_exists(project.root, project.resolver, query.file, query.specifier)
    )


def _shipped_as_data(context: _Context, query: _Query) -> bool:
    """A project a package ships as data, to be copied and completed elsewhere."""
    return context.shipped.holds(query.file)


def _from_emitted_file(context: _Context, query: _Query) -> bool:
    """Resolves from where the build emits the importer (`check.build_layout`)."""
    return resolves_from_emitted_file(context.project, query.file, query.line, query.specifier)


def _from_script_emit(context: _Context, query: _Query) -> bool:
    """Resolves from where a package script's `tsc … --outDir` (or `tsc -p <config>`) emits
    the importer, or names a file its build copies there (graphql-voyager's
    `require('../package.json')` in `src/middleware/hapi.ts`, run as `middleware/hapi.js`;
    ng-packagr's schema, copied to `dist/`; `check.script_emits`)."""
    return context.script_emits.resolves(query.file, query.line, query.specifier)


def _tshy_dialect(context: _Context, query: _Query) -> bool:
    """Written for tshy's emitted `dist/<dialect>/` (tapjs's `../commonjs/service-key.js`)."""
    return context.tshy.resolves(query.file, query.line, query.specifier)


def _run_time_only(context: _Context, query: _Query) -> bool:
    """Only a bundler or Node resolves it, from a place filid cannot rule out."""
    return query.key in context.run_time


def _hoisted(context: _Context, query: _Query) -> bool:
    """An alias that finds nothing falls back to the root's node_modules (tsc)."""
    return context.hoisted.holds(query.specifier)


def _deno_root_dirs(context: _Context, query: _Query) -> bool:
    """A Deno config's `rootDirs` merges a generated folder (react-router-templates'
    `deno/`: `./+types/root.ts`), as a tsconfig's does (`check.deno_config`)."""
    return query.specifier.startswith((".", "/")) and context.deno_root_dirs.maps(query.file)


def _not_judged(context: _Context, query: _Query) -> bool:
    """``Resolver.is_judged_unresolved`` leaves it alone (a bare specifier, a `rootDirs`
    program, a bundler query…)."""
    return not context.project.resolver.is_judged_unresolved(query.file, query.specifier)


def _published_file(context: _Context, query: _Query) -> bool:
    """Names a file a package publishes (`check.build_layout`)."""
    return names_a_published_file(context.project, query.file, query.specifier)


def _root_package(context: _Context, query: _Query) -> bool:
    """`require('..')` of the repository's own root package: Node loads its `main`
    (webpack's and eslint's tools, jsdom's benchmarks); `types` for TypeScript (ajv)."""
    return "." in query.bases and _manifest_main_exists(context.project.root, ".")


def _bundler_twin(context: _Context, query: _Query) -> bool:
    """A file the bundler finds (only existing ones count: a twin inside an ignored build
    folder says nothing about the import)."""
    root = context.project.root
    return any(
        os.path.isfile(root / twin)
        for base in query.own_bases()
        for twin in (
            *_bundler_twins(base),
            *hooked_twins(base),
            *context.yaml_hooks.twins(query.file, base),
        )
    )


def _template_tag(context: _Context, query: _Query) -> bool:
    """An Ember template-tag file Glint and Embroider find (`./x` → `x.gts`, `./x.ts` →
    `x.gts`: hashicorp/design-system, `check.template_tags`)."""
    return finds_template_tag_file(context.project.root, query.own_bases())


def _out_dir_image(context: _Context, query: _Query) -> bool:
    """The package's own tsc output: `rootDir` + `lib/util.ts` → `outDir` + `lib/util.js`
    (artillery's shim `./dist/lib/util.js`, `check.out_dir_images`)."""
    return query.specifier.startswith(".") and context.out_dir_images.resolves(
        query.file, query.bases
    )


def _written_beside_copy(context: _Context, query: _Query) -> bool:
    """A sibling the build script writes beside its copy of the importer (vercel's
    `dist/version.mjs` beside `dist/vc.js`)."""
    return context.build_copies.writes_beside_copy(query.file, query.specifier)


def _prefixed_sibling(context: _Context, query: _Query) -> bool:
    """A custom loader answers `./ui.html` of `xr-menu.example.mjs` with its sibling
    `xr-menu.ui.html` (playcanvas's examples, `check.prefixed_siblings`)."""
    return context.prefixed_siblings.holds(query.file, query.specifier)


def _copy_step(context: _Context, query: _Query) -> bool:
    """A `cp`/`mkdir` of a CI step or a package script writes the target (PRQL's
    `./prql-lezer`, copied in by the job that builds the demo)."""
    return context.copy_steps.writes(query.file, query.bases)


def _directory_named(context: _Context, query: _Query) -> bool:
    """A folder's namesake file (`Dir/Dir.js`), which Redwood's babel plugin loads."""
    return context.directory_named.resolves(query.file, query.bases)


def _twin_tree(context: _Context, query: _Query) -> bool:
    """Written for another tree of the repository: a loose course snapshot whose same-named
    home resolves it, a package's other state (same `name`), or an overlay template's piece
    (ionic's `base/src/main.ts` → `./App.vue`; `check.twin_trees`)."""
    return context.twin_trees.resolves(query.file, query.specifier, query.bases)


def _toolchain(context: _Context, query: _Query) -> bool:
    """Resolved by the project's own toolchain (`check.toolchain_resolved`)."""
    return context.toolchain.resolves(query.file, query.specifier, query.bases)


def _build_alias_target(context: _Context, query: _Query) -> bool:
    """A build config's alias finds the file, whatever a stale tsconfig `paths` entry says
    (quickstart-js's `'@': path.resolve(__dirname, 'src')`, `check.alias_targets`)."""
    return context.alias_targets.resolves(query.file, query.specifier)


def _static_asset(context: _Context, query: _Query) -> bool:
    """TypeScript a site serves verbatim from `static/` or `public/` (ionic-docs's StackBlitz
    templates, `check.static_assets`): text for another project's compiler."""
    return context.static_assets.holds(query.file)


def _component_part(context: _Context, query: _Query) -> bool:
    """A part of a component folder (`App/composition.js` + `template.html`) a site assembles
    into `App.vue` beside its siblings (vuejs/docs, `check.component_parts`)."""
    return context.component_parts.holds(query.file, query.specifier)


def _flow_declared(context: _Context, query: _Query) -> bool:
    """Flow reads `x.js.flow` for `./x` or `./x.js`, and an `import type` is erased before
    anything runs it (redux-form's `import type { … } from './types'`). Only a JavaScript
    importer (Flow annotates JavaScript) and only a declaration that exists: one git ignores
    says nothing (fabric.js's TypeScript `import type … from './dist-extensions'`, whose
    ignored `dist-extensions/index.js.flow` no tool writes)."""
    root = context.project.root
    return (
        query.kinds == {ImportKind.TYPE}
        and query.file.endswith(JS_SUFFIXES)
        and any(
            os.path.isfile(root / declaration)
            for base in query.own_bases()
            for declaration in _flow_declarations(base)
        )
    )


def _named_by_tsconfig(context: _Context, query: _Query) -> bool:
    """The importer's tsconfig names the missing file by a literal path in `files` or
    `include`: the build generates it there (grpc-web's `ts-example/echo_pb.js`, which protoc
    writes; `check.tsconfig_named`)."""
    return query.specifier.startswith(".") and context.tsconfig_named.names(query.file, query.bases)


def _in_bundle(context: _Context, query: _Query) -> bool:
    """A relative path inside a committed webpack bundle (`FileFacts.bundle`): its inner
    modules' requires name the original sources' neighbours (cube-ui's `lib/locale/index.js`,
    whose `require('../lang/string')` is `src/common/lang/string.js`'s)."""
    return query.facts is not None and query.facts.bundle and query.specifier.startswith(".")


def _negated_package(context: _Context, query: _Query) -> bool:
    """In a package a workspace declaration negates (`"!archive/**"`): the workspace builds
    it no more (voltagent's archived providers; `check.workspace_negated`)."""
    return context.negated.holds(query.file)


def _rendered_template(context: _Context, query: _Query) -> bool:
    """A template a scaffolding CLI renders into the target (create-tsrouter-app's
    `./root` beside `root.tsx.ejs`, `check.rendered_targets`)."""
    root = context.project.root
    return any(rendered_from_template(root, base) for base in query.own_bases())


def _configured_extension(context: _Context, query: _Query) -> bool:
    """A sibling whose extension a build config adds to `resolve.extensions` (razzle's
    `./Main` beside `Main.elm`, `check.rendered_targets`)."""
    return context.configured_extensions.resolves(query.file, query.specifier, query.bases)


def _parked(context: _Context, query: _Query) -> bool:
    """Parked code opted out of tsc and eslint that only parked code imports (math.gl's
    `gl-matrix/wip/`, `check.parked_files`)."""
    return context.parked.holds(query.file)


def _umd_loader_arm(context: _Context, query: _Query) -> bool:
    """The CommonJS arm of a vendored UMD wrapper no module loader loads (webglstudio's and
    greasemonkey's CodeMirror 5, loaded by `<script>` tags: `check.umd_arms`)."""
    facts = query.facts
    return facts is not None and any(
        fact.line == query.line
        and fact.specifier == query.specifier
        and context.umd_arms.holds(query.file, fact.span.start_byte, fact.span.end_byte)
        for fact in facts.imports
    )


def _bazel_output(context: _Context, query: _Query) -> bool:
    """A file a Bazel rule of the workspace writes (tfjs's `gen_op(dest_dir =
    "operations/op_list/")`, tensorboard's `genrule(outs = ["plottable-style.ts"])`,
    `check.bazel_outputs`)."""
    return context.bazel_outputs.generates(query.file, query.specifier, query.bases)


def _prisma_output(context: _Context, query: _Query) -> bool:
    """The folder a Prisma schema's generator `output` names (`output = "prisma-client"`),
    which `prisma generate` writes (`check.prisma_outputs`)."""
    return context.prisma_outputs.generates(query.specifier, query.bases)


# The questions that exempt an unresolved import, cheapest and surest first; the first that
# holds answers. None has a side effect, so the order changes only what is computed.
_EXEMPTIONS: tuple[Callable[[_Context, _Query], bool], ...] = (
    _read_as_text,
    _in_bundle,
    _root_path,
    _erased_unchecked,
    _in_data_folder,
    _substituted_or_ignored,
    _tiddler,
    _meteor_package,
    _typedoc_copy,
    _fixture,
    _in_template_project,
    _template_file,
    _installer_stub,
    _native_addon,
    _in_submodule,
    _leaves_project,
    _uncompiled_script,
    _unbuilt,
    _negated_package,
    _ambient_module,
    _typed_by_wildcard,
    _left_out_island,
    _glob,
    _shipped_as_data,
    _from_emitted_file,
    _from_script_emit,
    _tshy_dialect,
    _run_time_only,
    _hoisted,
    _deno_root_dirs,
    _not_judged,
    _published_file,
    _root_package,
    _bundler_twin,
    _template_tag,
    _out_dir_image,
    _written_beside_copy,
    _prefixed_sibling,
    _copy_step,
    _directory_named,
    _twin_tree,
    _toolchain,
    _build_alias_target,
    _static_asset,
    _component_part,
    _flow_declared,
    _named_by_tsconfig,
    _rendered_template,
    _configured_extension,
    _parked,
    _umd_loader_arm,
    _bazel_output,
    _prisma_output,
)


def _probe_paths(project: Project, query: _Query) -> Iterator[str]:
    """The paths whose presence on disk (or in git's ignore rules: a build writes them)
    would make the import resolve once the project is built."""
    emitted_data = emitted_data_target(project, query.file, query.line, query.specifier)
    if emitted_data is not None:
        # a data file beside the emitted file, inside `outDir` (theia's install script
        # downloads `lib/browser/catalog.json`): build output when git ignores it
        yield emitted_data
    for base in query.bases:
        # `./x.js` names `x.ts` (TypeScript's twin rule, as the resolver applies it)
        stem, dot, extension = base.rpartition(".")
        twins = (
            # `./jsx.js` names `jsx.ts`… or the declaration file `jsx.d.ts` (solid copies
            # one in and its `.gitignore` names it)
            (
                *(stem + e for e in SOURCE_EXTENSIONS),
                *_declarations(stem, extension),
                # a single-file component its build compiles to `x.js` beside the
                # importer's output (framework7's `'../components/popup.js'`, `popup.vue`)
                *(stem + e for e in _COMPONENT_EXTENSIONS if extension == "js"),
            )
            if dot and "/" not in extension and extension in _JS_EXTENSIONS
            else (f"{stem}.d.{extension}",)  # `./types.ts` finds `types.d.ts` (qwik)
            if dot and "/" not in extension and extension in ("ts", "mts", "cts")
            else ()
        )
        for path in (
            base,
            *(base + e for e in SOURCE_EXTENSIONS),
            *twins,
            # `./typegen` finds a generated `typegen.d.ts` (antfu/eslint-config's
            # `.gitignore` lists `src/typegen.d.ts`, which `nr gen` writes); only for a
            # name without extension: `x.module.css.d.ts` is generated from a
            # `x.module.css` that must exist (openreplay ignores `*.css.d.ts`)
            *(base + d for d in _DECLARATION_EXTENSIONS if not dot or "/" in extension),
            base + ".json",  # Node's require() tries `.json` (vendure's `…/core/package`)
            base + "/index.ts",
            # Node's CommonJS require() tries `.node`: a native addon (bitburner's
            # `require("./lib/greenworks-osx64")` beside `greenworks-osx64.node`)
            *((base + ".node",) if query.kinds == {ImportKind.REQUIRE} else ()),
            # the folder's manifest entries: present, or git ignores them (tutanota's
            # `@tutao/mimimi` folder, whose `types`/`main` lie in napi-rs's `napi-out/`)
            *manifest_targets(project.root, base),
        ):
            if path.startswith("../") or path in ("", "."):
                continue
            yield path


# Style sheets webpack finds for an extensionless import when its `resolve.extensions` lists
# them (simplenote-electron's `import './style'` beside `style.scss`).
_STYLE_EXTENSIONS = (".scss", ".sass", ".css", ".less", ".styl")

# React Native's platform files (Metro picks `X.ios.tsx` for `./X` on iOS; tsconfig's
# `moduleSuffixes: [".ios", ".android", ""]` makes tsc do the same).
_PLATFORM_SUFFIXES = (".ios", ".android", ".native", ".web")


def _bundler_twins(base: str) -> tuple[str, ...]:
    """Files a bundler or Node finds for the extensionless ``base`` that TypeScript's probing
    over the universe does not: a single-file component (``./App`` → ``App.vue``, ``./Tag`` →
    ``Tag/index.vue``: webpack's ``resolve.extensions`` in Vue CLI projects, vue-element-admin,
    marktext), a style sheet (``./style`` → ``style.scss``: simplenote-electron), a platform
    file (``./Icon`` → ``Icon.ios.tsx``: rainbow, mattermost-mobile; ``./PlatformButton`` →
    ``PlatformButton/index.web.jsx``: react-strict-dom) and a folder's index the
    universe leaves out (a tracked ``build/`` folder of sources: simplenote-electron's
    ``detect/build/index.js``). Decision (issue 23, SPEC is silent): such an import resolves
    in the project's real build, so it is no unresolved claim; only files that exist count."""
    return (
        *(base + "/index" + e for e in SOURCE_EXTENSIONS),  # a folder the universe leaves out
        base + ".vue",
        base + "/index.vue",
        *(base + e for e in _STYLE_EXTENSIONS),
        *(base + p + e for p in _PLATFORM_SUFFIXES for e in SOURCE_EXTENSIONS),
        # a folder of platform forks only (react-strict-dom's `PlatformButton/index.web.jsx`
        # beside `index.native.jsx`, no plain `index.jsx`)
        *(base + "/index" + p + e for p in _PLATFORM_SUFFIXES for e in SOURCE_EXTENSIONS),
    )


def _flow_declarations(base: str) -> tuple[str, ...]:
    """The Flow declaration files Flow reads for ``base``: ``x.js.flow`` for ``./x`` (and
    ``x/index.js.flow``), ``x.js.flow`` for ``./x.js``."""
    if base.endswith((".js", ".jsx", ".mjs", ".cjs")):
        return (base + ".flow",)
    return (base + ".js.flow", base + "/index.js.flow")


def _declarations(stem: str, extension: str) -> tuple[str, ...]:
    """The declaration files a ``.js``-style ``stem.extension`` stands for (TypeScript's
    twin rule: ``x.js`` → ``x.d.ts``, ``x.mjs`` → ``x.d.mts``, ``x.cjs`` → ``x.d.cts``)."""
    return tuple(stem + twin for twin in DECLARATION_TWINS.get(f".{extension}", ()))


def _is_template_file(path: str) -> bool:
    """A file named as a template: the stem of its name is ``template`` or ends in
    ``_template``/``-template``, or the name holds ``.template.`` (``main.template.ts``)."""
    name = path.rpartition("/")[2]
    stem = name.partition(".")[0]
    return stem == "template" or stem.endswith(("_template", "-template")) or ".template." in name


def _submodule_paths(root: Path) -> tuple[str, ...]:
    """The folders ``.gitmodules`` declares (``path = ee``): another repository's files,
    which the universe never lists, checked out or not."""
    try:
        text = read_regular_file(root / ".gitmodules", _MAX_CONFIG_BYTES).decode("utf-8")
    except (OSError, InputError, UnicodeDecodeError):
        return ()
    found: list[str] = []
    for line in text.splitlines():
        key, sep, value = line.strip().partition("=")
        if sep and key.strip() == "path" and value.strip():
            path = join_path(".", value.strip().strip('"'))
            if not path.startswith("../") and path != ".":
                found.append(path)
    return tuple(found)


def _is_named_build_output(
    root: Path,
    importer: str,
    missing: str,
    configs: dict[str, list[str]],
    texts: dict[str, bytes],
) -> bool:
    """Whether ``missing`` lies in a folder that does not exist and that a build tool config
    of the importer's folder or one above it names as a path (Paraglide's Vite plugin writes
    ``src/paraglide/`` from ``outdir: './src/paraglide'``): a build generates it.

    Decision (issue 23, SPEC §0 is silent): only a whole missing folder counts, so an import
    of a deleted file beside its siblings is still judged; the folder's name must appear in a
    config as a path segment inside a string (``'./src/paraglide'``, ``"paraglide"``)."""
    folder = parent_dir(missing)
    absent = None
    while folder not in (".", "") and not os.path.isdir(root / folder):
        absent = folder
        folder = parent_dir(folder)
    if absent is None:
        return False
    name = absent.rpartition("/")[2].encode()
    needles = [q + name + end for q in (*_QUOTES, b"/") for end in (*_QUOTES, b"/")]
    directory = parent_dir(importer)
    while True:
        for config in configs.get(directory, ()):
            if config == importer:
                continue  # a config importing a missing file does not generate it
            text = texts.get(config)
            if text is None:
                try:
                    text = read_regular_file(root / config, _MAX_CONFIG_BYTES)
                except (OSError, InputError):  # a link, or over the size limit: says nothing
                    text = b""
                texts[config] = text
            if any(needle in text for needle in needles):
                return True
        if directory == ".":
            return False
        directory = parent_dir(directory)


def _manifest_main_exists(root: Path, directory: str) -> bool:
    """A folder whose ``package.json`` ``main`` (or ``types``, ``typings``, ``module``) names a
    file that exists (a bundler resolves
    the folder to it: amplication's ``icons/`` folder publishes ``amplicationicon.css``) or
    would exist once built (``dist/``, ``build/``, ``lib/``, ``out/``: teable's prisma seed
    imports ``'../'``, its package, whose ``main`` is ``dist/index.js``)."""
    manifest = root / directory / "package.json"
    if not os.path.isfile(manifest):
        return False
    try:
        data = read_jsonc_file(root, f"{directory}/package.json")
    except InputError:
        return False
    if not isinstance(data, dict):
        return False
    for field in _ENTRY_FIELDS:
        main = data.get(field)
        if not isinstance(main, str) or not main:
            continue
        target = join_path(directory, main)
        if target.startswith("../"):
            continue
        built = join_path(".", main).split("/", 1)[0] in ("dist", "build", "lib", "out")
        if built or os.path.isfile(root / target):
            return True
    return False
