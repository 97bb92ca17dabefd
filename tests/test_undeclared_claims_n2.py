"""Round N2 of the blind judges (skiff-org/skiff-apps): a barrel loop read only inside
functions stays a warning when a file of the loop holds legal TypeScript the grammar cannot
parse (styled-components' ``styled.div<{ … }>`…` ``), while a real syntax error still makes
every import count as read at load (SPEC §0: a project that declares nothing gets only
claims that hold)."""

from __future__ import annotations

from tests.claims import claims
from tests.conftest import ProjectFactory

PREVIEW = "src/Attachments/AttachmentsPreview/AttachmentsPreview.tsx"
LOOP = f"circular-dependency {PREVIEW}:2"
APP = {
    "package.json": '{"name": "a", "private": true}\n',
    "tsconfig.json": '{"compilerOptions": {"jsx": "react-jsx", "strict": true}}\n',
    "src/Attachments/index.ts": (
        "export { default as useAttachments } from './useAttachments';\n"
        "export { AttachmentsPreview } from './AttachmentsPreview';\n"
    ),
    "src/Attachments/useAttachments.ts": (
        "export default function useAttachments(a: object, b: boolean) {\n  return [a, b];\n}\n"
    ),
    "src/Attachments/AttachmentsPreview/index.ts": (
        "export { default as AttachmentsPreview } from './AttachmentsPreview';\n"
    ),
    PREVIEW: (
        "import styled from 'styled-components';\n"
        "import { useAttachments } from '..';\n"
        "const Image = styled.div<{ $zoomLevel: number }>`\n  top: 0;\n`;\n"
        "const AttachmentsPreview = () => useAttachments({}, true);\n"
        "export default AttachmentsPreview;\n"
    ),
}


def test_a_styled_component_with_type_arguments_leaves_the_loop_a_warning(
    make_project: ProjectFactory,
) -> None:
    root = make_project(APP)
    assert claims(root) == []
    assert claims(root, errors_only=False) == [LOOP]


def test_a_read_of_the_barrel_at_load_beside_it_is_still_an_error(
    make_project: ProjectFactory,
) -> None:
    # the same file reads the barrel while it loads: the loop can fail, whatever the grammar
    files = {
        **APP,
        PREVIEW: APP[PREVIEW].replace(
            "export default", "export const first = useAttachments({}, false);\nexport default"
        ),
    }
    assert claims(make_project(files)) == [LOOP]


def test_a_read_inside_the_template_of_such_a_component_is_at_load(
    make_project: ProjectFactory,
) -> None:
    # a template's substitutions run when the tagged template runs: at load here
    files = {
        **APP,
        PREVIEW: APP[PREVIEW].replace("top: 0;", "top: ${String(useAttachments({}, true))};"),
    }
    assert claims(make_project(files)) == [LOOP]


def test_a_real_syntax_error_still_counts_every_import_as_read_at_load(
    make_project: ProjectFactory,
) -> None:
    files = {
        **APP,
        PREVIEW: APP[PREVIEW].replace(
            "const Image = styled.div<{ $zoomLevel: number }>`\n  top: 0;\n`;\n",
            "const broken = (1 as any;\n",
        ),
    }
    assert claims(make_project(files)) == [LOOP]
