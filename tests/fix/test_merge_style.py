"""A merged import keeps its comments and the file's style, and passes the project's formatter
check (the real Prettier); minimal copies of vercel/ai's ``packages/mcp`` entry and of its
long merged imports."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from filid.fix.actions import Edit
from filid.fix.formatting import Formatting, FormattingIndex
from filid.fix.merge_imports import merge_equal_specifiers
from tests.conftest import write_files

from .conftest import NODE_DIR

PRETTIER = NODE_DIR / "node_modules" / ".bin" / "prettier"


DEFAULTS = Formatting()


def _merge(source: str, old: str, new: str, formatting: Formatting | None = DEFAULTS) -> str:
    """``source`` with every ``old`` specifier rewritten to ``new`` and equal ones merged."""
    data = source.encode()
    edits = []
    for quote in "'\"":
        at = data.find(f"{quote}{old}{quote}".encode())
        while at >= 0:
            edits.append(Edit(at + 1, at + 1 + len(old), new))
            at = data.find(f"{quote}{old}{quote}".encode(), at + 1)
    merged = merge_equal_specifiers("src/index.ts", data, edits, formatting)
    for edit in sorted(merged, key=lambda e: e.start_byte, reverse=True):
        data = data[: edit.start_byte] + edit.replacement.encode() + data[edit.end_byte :]
    return data.decode()


def test_a_statement_with_its_own_doc_comment_is_not_merged_away() -> None:
    # packages/mcp/src/index.ts: three `/** @deprecated */` blocks were left above nothing.
    source = (
        "export { createMCPClient } from './tool/mcp-client';\n"
        "\n"
        "/**\n * @deprecated Use `createMCPClient` instead.\n */\n"
        "export { createMCPClient as experimental_createMCPClient } from './tool/mcp-client';\n"
    )
    assert _merge(source, "./tool/mcp-client", "./tool") == source.replace(
        "./tool/mcp-client", "./tool"
    )


def test_a_comment_inside_the_braces_moves_with_its_name() -> None:
    source = (
        "export { hasToolCall } from './stop/has-tool-call';\n"
        "export {\n"
        "  isStepCount,\n"
        "\n"
        "  /**\n"
        "   * @deprecated Use `isStepCount` instead.\n"
        "   */\n"
        "  isStepCount as stepCountIs, // kept for v5\n"
        "} from './stop/is-step-count';\n"
    )
    both = _merge(
        source.replace("./stop/has-tool-call", "./stop"), "./stop/is-step-count", "./stop"
    )
    assert both == (
        "export {\n"
        "  hasToolCall,\n"
        "  isStepCount,\n"
        "\n"
        "  /**\n"
        "   * @deprecated Use `isStepCount` instead.\n"
        "   */\n"
        "  isStepCount as stepCountIs, // kept for v5\n"
        "} from './stop';\n"
    )


LONG = (
    "import type { GenerateTextOnEndCallback } from '../generate-text/on-end';\n"
    "import type { GenerateTextOnStartCallback } from '../generate-text/on-start';\n"
    "import type { StreamTextTransform } from '../generate-text/transform';\n"
    "export type A = [GenerateTextOnEndCallback, GenerateTextOnStartCallback];\n"
    "export type B = StreamTextTransform;\n"
)


def test_a_merged_import_wider_than_the_print_width_takes_one_name_per_line() -> None:
    text = _merge(
        LONG.replace("../generate-text/on-end", "../generate-text").replace(
            "../generate-text/on-start", "../generate-text"
        ),
        "../generate-text/transform",
        "../generate-text",
        Formatting(80, None, None),
    )
    assert text.startswith(
        "import type {\n"
        "  GenerateTextOnEndCallback,\n"
        "  GenerateTextOnStartCallback,\n"
        "  StreamTextTransform,\n"
        "} from '../generate-text';\n"
        "export type A"
    )
    wide = _merge(
        LONG.replace("../generate-text/on-end", "../generate-text").replace(
            "../generate-text/on-start", "../generate-text"
        ),
        "../generate-text/transform",
        "../generate-text",
        Formatting(160, "\t", False),
    )
    assert wide.startswith(
        "import type { GenerateTextOnEndCallback, GenerateTextOnStartCallback, "
        "StreamTextTransform } from '../generate-text';\n"
    )


def test_the_files_own_list_style_wins_over_the_defaults() -> None:
    source = (
        'import {\n\tveryLongNameNumberOne,\n\tveryLongNameNumberTwo\n} from "./a/one"\n'
        'import { veryLongNameNumberThree } from "./a/three"\n'
    )
    text = _merge(source.replace("./a/one", "./a"), "./a/three", "./a")
    assert text == (
        "import {\n\tveryLongNameNumberOne,\n\tveryLongNameNumberTwo,\n"
        '\tveryLongNameNumberThree\n} from "./a"\n'
    )


def test_nothing_is_merged_when_the_formatter_settings_are_unknown() -> None:
    source = "import { a } from './x/a';\nimport { b } from './x/b';\n"
    text = _merge(source.replace("./x/a", "./x"), "./x/b", "./x", None)
    assert text == "import { a } from './x';\nimport { b } from './x';\n"


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({}, Formatting(80, None, None)),
        ({".prettierrc": "printWidth: 100\nuseTabs: true\n"}, Formatting(100, "\t", None)),
        (
            {".prettierrc.json": '{"printWidth": 120, "trailingComma": "none"}'},
            Formatting(120, None, False),
        ),
        (
            {
                ".oxfmtrc.jsonc": '// c\n{"tabWidth": 2, "overrides": [{"files": ["**/*.ts"],'
                ' "options": {"printWidth": 90}}],}\n'
            },
            Formatting(90, "  ", None),
        ),
        ({".oxfmtrc.json": "{}"}, Formatting(100, None, None)),
        ({"biome.json": '{"formatter": {"lineWidth": 110}}'}, Formatting(110, None, None)),
        (
            {
                ".editorconfig": "root = true\n[*]\nindent_style = tab\n"
                "[*.{ts,tsx}]\nmax_line_length = 99\n"
            },
            Formatting(99, "\t", None),
        ),
        ({"package.json": '{"prettier": {"printWidth": 70}}'}, Formatting(70, None, None)),
        ({"package.json": '{"prettier": "@company/prettier-config"}'}, None),
        ({"prettier.config.mjs": "export default {};\n"}, None),
        (
            {"pkg/.prettierrc.json": '{"printWidth": 60}', ".prettierrc.json": "{}"},
            Formatting(60, None, None),
        ),
    ],
)
def test_formatter_settings_are_read_like_the_formatters_do(
    tmp_path: Path, files: dict[str, str], expected: Formatting | None
) -> None:
    write_files(tmp_path, {**files, "pkg/src/a.ts": "export const a = 1;\n"})
    assert FormattingIndex(tmp_path).for_file("pkg/src/a.ts") == expected


def test_the_merged_statements_pass_prettier_check(tmp_path: Path) -> None:
    if not PRETTIER.exists():
        if shutil.which("npm") is None:
            pytest.skip(
                "npm is not available to install prettier (npm install --prefix tests/node)"
            )
        subprocess.run(
            ["npm", "install", "--prefix", str(NODE_DIR), "--no-audit", "--no-fund"],
            check=True, capture_output=True, timeout=600,
        )  # fmt: skip
    source = (
        "import type { GenerateTextOnEndCallback } from '../generate-text';\n"
        "import type { GenerateTextOnStartCallback } from '../generate-text/on-start';\n"
        "import type { StreamTextTransform } from '../generate-text/transform';\n"
        "import { a } from './x';\n"
        "import { b } from './x/b';\n"
        "export type A = [GenerateTextOnEndCallback, GenerateTextOnStartCallback];\n"
        "export type B = StreamTextTransform;\n"
        "export const c = [a, b];\n"
    )
    config = '{"singleQuote": true, "printWidth": 80}\n'
    write_files(tmp_path, {".prettierrc.json": config, "src/before.ts": source})
    check = [str(PRETTIER), "--check", "src"]
    assert subprocess.run(check, cwd=tmp_path, capture_output=True).returncode == 0
    formatting = FormattingIndex(tmp_path).for_file("src/index.ts")
    text = _merge(source, "../generate-text/on-start", "../generate-text", formatting)
    text = _merge(text, "../generate-text/transform", "../generate-text", formatting)
    text = _merge(text, "./x/b", "./x", formatting)
    assert text.count("import") == 2
    (tmp_path / "src/before.ts").write_text(text)
    done = subprocess.run(check, cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr + text


def test_the_statements_without_comments_of_their_own_still_merge() -> None:
    # packages/mcp/src/index.ts: the `@deprecated` statement stays, the others merge.
    source = (
        "// Stable exports\n"
        "export { createMCPClient } from './tool/mcp-client';\n"
        "export { auth } from './tool';\n"
        "\n"
        "/**\n * @deprecated Use `createMCPClient` instead.\n */\n"
        "export { createMCPClient as experimental_createMCPClient } from './tool/mcp-client';\n"
    )
    assert _merge(source, "./tool/mcp-client", "./tool") == (
        "// Stable exports\n"
        "export { createMCPClient, auth } from './tool';\n"
        "\n"
        "/**\n * @deprecated Use `createMCPClient` instead.\n */\n"
        "export { createMCPClient as experimental_createMCPClient } from './tool';\n"
    )
