"""Whether an attention class's interior is readable where the base `Attention` reads it.

The base reads the interior values at the call of transformers' shared attention
interface and at the softmax and dropout inside the eager function it falls back to.
`interface_gap` reads an attention class's forward source (and its module's eager
function) and says why those reads would miss, before anything runs.
"""

from __future__ import annotations

import inspect
import sys
from functools import cache

from .reasons import NOT_ON_INTERFACE

#: The operations the base attention's interior values are read at, inside the eager function.
EAGER_OPS = ("nn.functional.softmax(", "nn.functional.dropout(")


@cache
def interface_gap(kind: type) -> str | None:
    """Why the base attention's interior cannot be read on modules of `kind`, or `None`.

    The interior values are read at the call of transformers' shared attention
    interface and at the softmax and dropout inside the eager function it falls back
    to. An attention with its own arithmetic makes no such call, whatever
    `attn_implementation` says. A forward whose source cannot be read is taken to
    make it, and the read says otherwise.
    """
    try:
        source = inspect.getsource(kind.forward)
    except (OSError, TypeError):
        return None
    if "attention_interface(" not in source:
        return f"{NOT_ON_INTERFACE} ({kind.__name__}.forward)"
    eager = getattr(sys.modules.get(kind.__module__), "eager_attention_forward", None)
    try:
        eager_source = inspect.getsource(eager) if eager is not None else ""
    except (OSError, TypeError):
        return None
    if eager_source and not all(op in eager_source for op in EAGER_OPS):
        return f"the eager attention function of {kind.__module__} computes its pattern without the softmax and dropout calls the base reads"
    return None
