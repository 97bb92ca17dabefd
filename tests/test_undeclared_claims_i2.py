"""Claims in a project that declares nothing (SPEC §0): layouts blind judge I2 met, each a
minimal copy of the real repository's. Every test keeps a true claim of the same rule beside
the false one it removes."""

from __future__ import annotations

import json

from tests.claims import claims
from tests.conftest import ProjectFactory

# -- ngxs/store: a TutorialKit tutorial --------------------------------------------------------
# `tutorials/create-app` depends on `@tutorialkit/astro`; its tutorial's `meta.md` names the
# template `ngxs`, and each lesson's `_files`/`_solution` holds only what the lesson changes,
# laid over `src/templates/ngxs/` (the solution over the lesson's `_files` too).

APP = "tutorials/create-app"
LESSON = f"{APP}/src/content/tutorial/1-create-a-todo-app/2-installation/2-create-store"
NGXS = {
    "package.json": json.dumps({"name": "ngxs", "private": True}),
    f"{APP}/package.json": json.dumps(
        {
            "name": "@ngxs/create-app-tutorial",
            "scripts": {"build": "astro build"},
            "devDependencies": {"@tutorialkit/astro": "0.0.1-alpha.23", "astro": "4.16.19"},
        }
    ),
    f"{APP}/src/content/tutorial/meta.md": "---\ntype: tutorial\ntemplate: ngxs\n---\n",
    f"{APP}/src/content/tutorial/1-create-a-todo-app/meta.md": "---\ntype: part\n---\n",
    f"{LESSON}/content.md": "---\ntype: lesson\ntitle: Create the store\n---\n\nText.\n",
    f"{APP}/src/templates/ngxs/src/app/todo/types/todo.ts": "export interface Todo {}\n",
    f"{APP}/src/templates/ngxs/src/app/todo/todo.service.ts": "export class TodoService {}\n",
    f"{LESSON}/_files/src/app/todo/store/todo.state.ts": (
        "import { TodoService } from '../todo.service';\n"
        "import { Todo } from '../types/todo';\n"
        "import { Missing } from '../missing';\n"
        "export class TodoState { s?: TodoService; t?: Todo; m?: Missing }\n"
    ),
    f"{LESSON}/_solution/src/app/app.config.ts": (
        "import { TodoState } from './todo/store/todo.state';\nexport const c = TodoState;\n"
    ),
}


def test_a_lesson_import_resolves_in_the_template_its_files_are_laid_over(
    make_project: ProjectFactory,
) -> None:
    # `../missing` finds nothing in the template either: it stays
    assert claims(make_project(NGXS)) == [
        f"unresolved-import {LESSON}/_files/src/app/todo/store/todo.state.ts:3"
    ]


def test_a_lesson_template_counts_only_in_a_tutorialkit_package(
    make_project: ProjectFactory,
) -> None:
    plain = {**NGXS, f"{APP}/package.json": json.dumps({"name": "app", "private": True})}
    assert claims(make_project(plain)) == [
        f"unresolved-import {LESSON}/_files/src/app/todo/store/todo.state.ts:1",
        f"unresolved-import {LESSON}/_files/src/app/todo/store/todo.state.ts:2",
        f"unresolved-import {LESSON}/_files/src/app/todo/store/todo.state.ts:3",
        f"unresolved-import {LESSON}/_solution/src/app/app.config.ts:1",
    ]


def test_the_nearest_template_names_the_folder(make_project: ProjectFactory) -> None:
    # the lesson's own frontmatter names another template, which lacks `todo.service`
    other = {
        **NGXS,
        f"{LESSON}/content.md": "---\ntype: lesson\ntemplate: 'bare'\n---\n",
        f"{APP}/src/templates/bare/src/app/todo/types/todo.ts": "export interface Todo {}\n",
    }
    assert claims(make_project(other)) == [
        f"unresolved-import {LESSON}/_files/src/app/todo/store/todo.state.ts:1",
        f"unresolved-import {LESSON}/_files/src/app/todo/store/todo.state.ts:3",
    ]
