"""Machine formats name files relative to the git repository root, not the project root."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from click.testing import CliRunner

from filid.cli import cli
from tests.conftest import write_files

_INTENT = "# M\n## Always do\n- a\n## Ask first\n- b\n## Never do\n- c\n"
_DETAIL = (
    "# M\n## Requirements\n- r\n## API Contracts\n- c\n## Acceptance Criteria\n"
    "### AC-m — Works\n- w\n## Last Updated\n2026-01-01\n"
)


def test_sarif_and_annotations_are_relative_to_the_repository_root(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "frontend/.filid/config.json": '{"version": "2.0"}\n',  # declares FCA (SPEC §0)
            "frontend/src/app/index.ts": "export { go } from './app';\n",
            "frontend/src/app/app.ts": "import { a } from '../auth/auth';\nexport const go = a;\n",
            "frontend/src/auth/index.ts": "export { a } from './auth';\n",
            "frontend/src/auth/auth.ts": "export const a = 1;\n",
            # The FCA 1.0 documents of both modules: the deep import is the first finding.
            **{
                f"frontend/src/{name}/{doc}": text
                for name in ("app", "auth")
                for doc, text in (("INTENT.md", _INTENT), ("DETAIL.md", _DETAIL))
            },
        },
    )
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    sarif = tmp_path / "out.sarif"
    runner = CliRunner()
    done = runner.invoke(
        cli,
        [
            "check",
            str(tmp_path / "frontend"),
            "--no-cache",
            "--format",
            "github",
            "--sarif",
            str(sarif),
        ],
    )
    assert done.exit_code == 1
    assert "file=frontend/src/app/app.ts,line=1" in done.stdout
    result = json.loads(sarif.read_text())["runs"][0]["results"][0]
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "frontend/src/app/app.ts"
    text = runner.invoke(cli, ["check", str(tmp_path / "frontend"), "--no-cache"]).stdout
    assert text.startswith("src/app/app.ts:1:1:")
