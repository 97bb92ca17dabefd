"""Round M1 of the blind judges, D1 and D2 (weaviate/typescript-client, VisActor/VTable): barrel
loops read only lazily that filid took for load-time loops (SPEC §0: a project that declares
nothing gets only claims that hold), with the error of the same shape kept beside them."""

from __future__ import annotations

from tests.claims import claims
from tests.conftest import ProjectFactory

# VTable: `aggregation.ts` reads the enum of its parent barrel in an instance field's
# initialiser, which runs with each `new`, never while the loop loads.
VTABLE = {
    "package.json": '{"name": "vtable", "private": true}\n',
    "src/main.ts": "import { SumAggregator } from './ts-types';\nexport const s = SumAggregator;\n",
    "src/ts-types/index.ts": "export * from './dataset';\nexport * from './new-data-set';\n",
    "src/ts-types/new-data-set.ts": "export enum AggregationType {\n  SUM = 'SUM',\n}\n",
    "src/ts-types/dataset/index.ts": "export * from './aggregation';\n",
    "src/ts-types/dataset/aggregation.ts": (
        "import { AggregationType } from '..';\n"
        "export class SumAggregator {\n  type: string = AggregationType.SUM;\n}\n"
    ),
}
LOOP = "circular-dependency src/ts-types/dataset/aggregation.ts:1"


def test_an_instance_field_read_of_the_barrel_is_no_error(make_project: ProjectFactory) -> None:
    root = make_project(VTABLE)
    assert claims(root) == []
    assert claims(root, errors_only=False) == [LOOP]  # the loop stays, as a warning


def test_a_static_field_read_of_the_barrel_is_an_error(make_project: ProjectFactory) -> None:
    aggregation = VTABLE["src/ts-types/dataset/aggregation.ts"].replace("  type:", "  static type:")
    files = {**VTABLE, "src/ts-types/dataset/aggregation.ts": aggregation}
    assert claims(make_project(files)) == [LOOP]


# weaviate: the serializer reads the barrel's names only inside static arrow functions; the
# name `BatchReference` is also the imported name of an aliased import from another module.
WEAVIATE = {
    "package.json": '{"name": "weaviate-client", "type": "module"}\n',
    "tsconfig.json": '{"compilerOptions": {"module": "node16", "moduleResolution": "node16"}}\n',
    "src/main.ts": "export * from './collections/index.js';\n",
    "src/proto/batch.ts": "export const BatchReference = { fromPartial: (x: unknown) => x };\n",
    "src/collections/index.ts": (
        "export * from './aggregate/index.js';\nexport * from './types/index.js';\n"
    ),
    "src/collections/types/index.ts": (
        "export class DiversityGuards {\n  static isMMR(d?: unknown): boolean {\n"
        "    return !!d;\n  }\n}\nexport type BatchReference = { from: string };\n"
    ),
    "src/collections/aggregate/index.ts": (
        "import { Serialize } from '../serialize/index.js';\n"
        "export class AggregateManager {\n  m() {\n    return Serialize.x();\n  }\n}\n"
    ),
    "src/collections/serialize/index.ts": (
        "import { BatchReference as BRG } from '../../proto/batch.js';\n"
        "import { BatchReference, DiversityGuards } from '../index.js';\n"
        "export class Serialize {\n"
        "  static x = () => 1;\n"
        "  public static sel = (d: unknown) => DiversityGuards.isMMR(d);\n"
        "  public static batchReference = (ref: BatchReference) => BRG.fromPartial(ref);\n"
        "}\n"
    ),
}
SERIALIZE = "src/collections/serialize/index.ts"


def test_a_name_another_import_mentions_makes_no_load_time_loop(
    make_project: ProjectFactory,
) -> None:
    assert claims(make_project(WEAVIATE)) == []


def test_the_same_loop_read_at_load_is_an_error(make_project: ProjectFactory) -> None:
    serialize = WEAVIATE[SERIALIZE] + "export const guard = DiversityGuards.isMMR(1);\n"
    files = {**WEAVIATE, SERIALIZE: serialize}
    assert claims(make_project(files)) == [f"circular-dependency {SERIALIZE}:2"]
