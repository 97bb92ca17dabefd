"""Claims in a project that declares nothing (SPEC §0): layouts blind judge J2 met, each a
minimal copy of the real repository's. Every test keeps a true claim of the same rule beside
the false one it removes."""

from __future__ import annotations

import json

from tests.claims import claims
from tests.conftest import ProjectFactory

# -- remorses/genql: an escape sequence in the specifier ---------------------------------------
# `website/src/components/\x17code-tabs.tsx` (its name starts with U+0017) is imported as
# `'@app/components/\u0017code-tabs'`: the literal's value names the file, tsc and Next find it.

GENQL = {
    "website/package.json": json.dumps({"name": "website", "private": True}),
    "website/tsconfig.json": json.dumps(
        {"compilerOptions": {"baseUrl": ".", "paths": {"@app/*": ["./src/*"]}}}
    ),
    "website/src/components/\x17code-tabs.tsx": "export const CodeTabs = () => null;\n",
    "website/src/components/é.ts": "export const e = 1;\n",
    "website/src/pages/home.tsx": (
        "import { CodeTabs } from '@app/components/\\u0017code-tabs';\n"
        "import { e } from '../components/\\u00e9';\n"
        "import { Gone } from '@app/components/\\u0017gone';\n"
        "import { f } from '../components/\\u00e8';\n"
        "export const Home = () => [CodeTabs, e, Gone, f];\n"
    ),
}


def test_a_specifier_is_resolved_with_its_escapes_decoded(make_project: ProjectFactory) -> None:
    # `\u0017gone` and `\u00e8` (è) name no file once decoded either: they stay
    assert claims(make_project(GENQL)) == [
        "unresolved-import website/src/pages/home.tsx:3",
        "unresolved-import website/src/pages/home.tsx:4",
    ]
