"""The load's keywords, checked at construction: a name no part of the load reads is refused with the close match.

A load's keywords go to nnsight, then to transformers' `pipeline` and
`from_pretrained`, which hands a name it does not read to the config when the
config has such an attribute (`num_hidden_layers=2`), and otherwise to the model's
constructor, which fails on it at the first trace of a lazy load. A name that is
neither a keyword of one of those calls nor an attribute of the checkpoint's config
is therefore a mistake, refused before anything loads.
"""

from __future__ import annotations

import difflib
import inspect
import re
from collections.abc import Callable
from functools import cache
from typing import Any


def check_load_keywords(owner: type, kwargs: dict, config: Callable[[], Any]) -> None:
    """Refuse a keyword of `kwargs` that no load call takes and that names no attribute of `config()`.

    `owner` is the model class, whose constructors' parameters are keywords;
    `config` gives the checkpoint's config, read only when a name is left to judge.
    """
    own = _constructor_keywords(owner)
    left = [name for name in kwargs if name not in own]
    if not left:
        return
    known = _transformers_keywords()
    left = [name for name in left if name not in known]
    if not left:
        return
    read = config()
    unknown = [name for name in left if not _is_config_attribute(read, name)]
    if not unknown:
        return
    name = unknown[0]
    names = sorted((own | known) - {name for name in own | known if name.startswith("_")})
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]}=?" if close else "; check the spelling"
    raise TypeError(
        f"StandardizedTransformer got an unknown keyword {name}=: no load call (nnterp, nnsight, transformers' "
        f"from_pretrained or pipeline) takes it, and the checkpoint's {type(read).__name__} has no such "
        f"attribute{hint}"
    )


def _is_config_attribute(config: Any, name: str) -> bool:
    try:
        return hasattr(config, name)
    except Exception:  # a config refusing a model-wide read of a per-layer size still has the name
        return True


def _parameters(function: Any) -> set[str]:
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return set()
    return {p.name for p in parameters if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}


@cache
def _constructor_keywords(owner: type) -> frozenset[str]:
    names: set[str] = set()
    for klass in owner.__mro__:
        init = vars(klass).get("__init__")
        if init is not None:
            names |= _parameters(init)
    return frozenset(names - {"self", "repo_id", "args", "kwargs"})


@cache
def _transformers_keywords() -> frozenset[str]:
    """The keywords transformers' load reads: its calls' parameters and the names their bodies take from kwargs."""
    from transformers import PretrainedConfig, pipeline
    from transformers.modeling_utils import PreTrainedModel
    from transformers.models.auto.auto_factory import _BaseAutoModelClass

    functions = [
        pipeline,
        PreTrainedModel.from_pretrained,
        _BaseAutoModelClass.from_pretrained,
        PretrainedConfig.from_pretrained,
        PretrainedConfig.get_config_dict,
        getattr(PretrainedConfig, "_get_config_dict", None),
    ]
    names: set[str] = set()
    taken = re.compile(r"""kwargs\.(?:pop|get)\(\s*["'](\w+)["']""")
    # `for name in ["mirror", ...]: kwargs.pop(name, None)`: names read, and dropped, in a loop.
    looped = re.compile(r"for (\w+) in \[([^\]]*)\]:\s*\n[^\n]*kwargs\.pop\(\1")
    for function in functions:
        if function is None:
            continue
        names |= _parameters(function)
        try:
            source = inspect.getsource(function)
        except (OSError, TypeError):
            continue
        names |= set(taken.findall(source))
        for _, listed in looped.findall(source):
            names |= set(re.findall(r"""["'](\w+)["']""", listed))
    # The hub keywords the auto class passes on by a list rather than by name.
    names |= {"cache_dir", "force_download", "local_files_only", "proxies", "revision", "subfolder", "token"}
    return frozenset(names - {"self", "cls", "model_args", "kwargs"})
