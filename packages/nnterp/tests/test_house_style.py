"""The contract every shipped value keeps: a layout, a description, and a predicate where it sits inside a forward."""

import re

import pytest

from nnterp import families
from nnterp.components import Attention, Layer, Mlp, Standard
from nnterp.components.vision import TowerValues
from nnterp.standardized import StandardizedTransformer, _root_values


def shipped_classes():
    classes = [Layer, Attention, Mlp]
    for module in families.all_families().values():
        classes += [cls for cls in vars(module).values() if isinstance(cls, type) and issubclass(cls, Standard)]
    return classes


def every_value():
    for cls in shipped_classes():
        for name, attr in cls.values().items():
            yield f"{cls.__module__}.{cls.__name__}.{name}", attr
    for name, attr in _root_values(StandardizedTransformer).items():
        yield f"StandardizedTransformer.{name}", attr


@pytest.mark.parametrize(
    ("where", "attr"), list(every_value()), ids=lambda value: value if isinstance(value, str) else ""
)
def test_every_value_keeps_the_contract(where, attr):
    if attr.is_marker():
        assert attr.unavailable and not attr.unavailable.endswith("."), where
        return
    assert re.fullmatch(r"[A-Z].*[^.]", attr.description or ""), f"{where}: {attr.description!r}"
    if where.endswith(".input_size"):
        assert attr.layout is None  # a torch.Size, not a tensor
    else:
        assert attr.layout is not None, f"{where} has no layout annotation"
    if attr.inside_forward():
        assert attr.unavailable is not None, f"{where} sits inside a forward and carries no unavailable= predicate"


#: The stream values a multi-stream block serves as `Streams` where the base serves `Residual`.
STREAM_VALUES = {"layer_input", "layer_mid", "layer_output"}


def test_a_family_that_redefines_a_value_keeps_the_base_layout():
    for cls in shipped_classes():
        for base in (Layer, Attention, Mlp):
            if issubclass(cls, base):
                for name, attr in cls.values().items():
                    inherited = base.values().get(name)
                    if inherited is not None and not attr.is_marker() and not inherited.is_marker():
                        # A tower block's stream values are `Patches` where the text block's are `Residual`.
                        tower = issubclass(cls, TowerValues) and inherited.layout.__name__ == "Residual"
                        # A block that carries several copies of the stream (hyper-connections, AltUp) serves them all.
                        streams = name in STREAM_VALUES and attr.layout.__name__ == "Streams"
                        assert attr.layout is inherited.layout or tower or streams or cls.__module__.endswith("opt"), (
                            cls,
                            name,
                        )
