"""A generator of realistic TypeScript/TSX source trees for parse tests and the benchmark."""

from __future__ import annotations

import random
from pathlib import Path

_IMPORTS = (
    "import {{ {a}, {b} }} from '../{d}/{f}';",
    "import type {{ {T} }} from './{f}';",
    "import * as {a}Ns from '@scope/{f}';",
    "import {a} from 'lodash/{f}';",
    "import {{ type {T}, {a} as {b}Alias }} from './{f}.js';",
    "import './{f}.css';",
)

_BODIES = (
    """export interface {T}Props {{
  id: string;
  name?: string;
  items: ReadonlyArray<{{ key: number; value: string }}>;
  onChange(value: string): void;
}}
""",
    """export type {T}State = {{ status: 'idle' | 'loading' | 'done'; error?: Error }};
""",
    """export function {a}(input: string, count = 3): string[] {{
  const out: string[] = [];
  for (let i = 0; i < count; i++) {{
    if (input.length > i) {{
      out.push(input.slice(0, i).toUpperCase());
    }} else {{
      out.push(`${{input}}-${{i}}`);
    }}
  }}
  return out.filter((x) => x !== '').map((x) => x.trim());
}}
""",
    """export class {T}Service {{
  private readonly cache = new Map<string, number>();
  static instances = 0;
  constructor(private readonly base: string) {{}}
  async load(id: string): Promise<number> {{
    const hit = this.cache.get(id);
    if (hit !== undefined) return hit;
    const res = await fetch(`${{this.base}}/${{id}}`);
    const json = (await res.json()) as {{ value: number }};
    this.cache.set(id, json.value);
    return json.value;
  }}
}}
""",
    """export const {a}Config = {{
  retries: 3,
  timeout: 1000 * 60,
  endpoints: ['/a', '/b', '/c'],
  transform: (x: number) => Math.max(0, x - 1),
}} as const;
""",
    """export enum {T}Kind {{
  First = 'first',
  Second = 'second',
  Third = 'third',
}}
""",
    """const {b}Lazy = () => import('./{f}');
export default {b}Lazy;
""",
)

_JSX = """export function {T}View(props: {{ title: string; items: string[] }}) {{
  const [open, setOpen] = useState(false);
  return (
    <section className="view">
      <h2 onClick={{() => setOpen(!open)}}>{{props.title}}</h2>
      {{open && (
        <ul>
          {{props.items.map((item) => (
            <li key={{item}}>{{item}}</li>
          ))}}
        </ul>
      )}}
    </section>
  );
}}
"""

_WORDS = ("user", "order", "cart", "item", "auth", "token", "price", "list", "form", "menu")


def _fill(template: str, rnd: random.Random) -> str:
    a = rnd.choice(_WORDS) + rnd.choice(_WORDS).capitalize()
    return template.format(
        a=a,
        b=rnd.choice(_WORDS) + "Value",
        T=a[0].upper() + a[1:],
        d=rnd.choice(_WORDS),
        f=rnd.choice(_WORDS) + "-" + rnd.choice(_WORDS),
    )


def render_file(rnd: random.Random, *, tsx: bool) -> str:
    """One plausible module: imports, then a mix of interfaces, functions, classes, JSX."""
    parts = [_fill(rnd.choice(_IMPORTS), rnd) for _ in range(rnd.randint(2, 8))]
    if tsx:
        parts.append("import { useState } from 'react';")
    parts.append("")
    for _ in range(rnd.randint(4, 12)):
        parts.append(_fill(rnd.choice(_BODIES), rnd))
    if tsx:
        parts.append(_fill(_JSX, rnd))
    return "\n".join(parts)


def write_corpus(root: Path, count: int, *, seed: int = 7) -> list[str]:
    """Write ``count`` files under ``root`` (a third of them .tsx); return root-relative paths."""
    rnd = random.Random(seed)
    paths: list[str] = []
    for i in range(count):
        tsx = i % 3 == 0
        rel = f"src/{rnd.choice(_WORDS)}/{rnd.choice(_WORDS)}/file{i}.{'tsx' if tsx else 'ts'}"
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(render_file(rnd, tsx=tsx), encoding="utf-8")
        paths.append(rel)
    return sorted(paths)
