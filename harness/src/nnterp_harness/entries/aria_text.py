from ..entry import TEXT_DEFAULTS, Entry, redraw_by_name

#: The routed experts' parameters as transformers 5.20 on names them, to the names 5.17 (and every checkpoint) uses.
LEGACY_EXPERTS = {"experts.gate_up_proj": "experts.fc1.weight", "experts.down_proj": "experts.fc2.weight"}


def routing_unsupported() -> str | None:
    """Why this release's Aria mixture cannot serve the family's routing values, or `None`.

    transformers 5.17's experts take the router's logits and route inside themselves,
    so no call receives the routing the family serves; later releases route first.
    """
    import nnsight  # noqa: F401  - before any transformers modeling module
    from transformers.models.aria import modeling_aria

    if hasattr(modeling_aria, "AriaTextTopKRouter"):
        return None
    return (
        "this transformers release's Aria mixture routes inside its experts (AriaGroupedExpertsGemm, "
        "called with the router's logits); the family serves the router-then-experts mixture of later releases"
    )


def redraw(model) -> None:
    """Draw the weights by sorted name, with 5.17's expert names: that release builds the routed experts as
    two grouped linear modules and initializes in another order than later releases."""
    redraw_by_name(model, LEGACY_EXPERTS)


ENTRIES = (
    Entry(
        "aria_text",
        "aria_text",
        {
            **TEXT_DEFAULTS,
            # One routed expert's width; the shared experts are `moe_num_shared_experts` times as wide.
            "intermediate_size": 32,
            "moe_num_experts": 4,
            "moe_topk": 2,
            "moe_num_shared_experts": 2,
            "num_hidden_layers": 2,
            "num_key_value_heads": 2,
        },
        prepare=redraw,
        unserved=routing_unsupported,
    ),
)
