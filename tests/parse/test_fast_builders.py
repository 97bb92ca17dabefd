"""The fast constructors of frozen dataclasses (``filid.model.builders``) build instances that
nothing can tell from the class's own: the facts decoded from the workers go through them."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from filid.model.builders import builder
from filid.model.facts import ExportFact, ExportKind, ImportFact, ImportKind, Span
from filid.model.graph import ImportEdge


def test_a_built_span_is_a_span_in_every_respect() -> None:
    built = builder(Span)(1, 2, 3, 4, 5, 6, 7)
    made = Span(1, 2, 3, 4, 5, 6, 7)
    assert type(built) is Span
    assert built == made
    assert hash(built) == hash(made)
    assert repr(built) == repr(made)
    assert pickle.loads(pickle.dumps(built)) == made
    assert copy.deepcopy(built) == made
    assert dataclasses.astuple(built) == (1, 2, 3, 4, 5, 6, 7)
    assert dataclasses.replace(built, line=9) == Span(9, 2, 3, 4, 5, 6, 7)


def test_a_built_instance_is_frozen() -> None:
    built = builder(Span)(1, 2, 3, 4, 5, 6, 7)
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.line = 2  # type: ignore[misc]


def test_every_field_is_set_in_declaration_order() -> None:
    span = Span(1, 1, 1, 9, 0, 8, 1)
    built = builder(ImportFact)(
        "./a", ImportKind.STATIC, span, None, ("a",), False, False, True, True, False
    )
    assert built == ImportFact(
        "./a",
        ImportKind.STATIC,
        span,
        None,
        ("a",),
        is_reexport=False,
        value_used=False,
        deferred=True,
        guarded=True,
        load_read=False,
    )
    edge = builder(ImportEdge)("a.ts", "b.ts", built, True, False)
    assert edge == ImportEdge("a.ts", "b.ts", built, via_manifest=True)
    assert builder(ExportFact)("x", ExportKind.NAMED, False, None, None, 3) == ExportFact(
        "x", ExportKind.NAMED, line=3
    )


def test_a_missing_field_is_an_error() -> None:
    with pytest.raises(TypeError):
        builder(Span)(1, 2, 3)


def test_only_slotted_dataclasses_without_post_init() -> None:
    @dataclasses.dataclass(frozen=True)
    class Plain:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            pass

    with pytest.raises(TypeError):
        builder(Plain)
    with pytest.raises(TypeError):
        builder(Checked)
    with pytest.raises(TypeError):
        builder(int)
