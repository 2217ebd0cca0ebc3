"""What a standard value is and how it is read and written, for every family.

Nothing here imports transformers' modeling code, so `import nnterp` stays light.
"""

from .attention import (
    INTERFACE,
    Attention,
    HeadOutputs,
    Keys,
    Pattern,
    Queries,
    Values,
    interface_reason,
    needs_eager,
)
from .eproperty import DerivedEProperty, EProperty, Unavailable, layout_name, pick, put, resolve, unavailable
from .headed_scan import HeadedScan
from .hyper_connections import HyperConnectionLayer, collapse_streams, collapse_through
from .latent import LatentAttention, latent_head_dim, latent_qk_head_dim
from .layer import FlatResidual, Layer, Residual, StreamMixing, Streams, StreamWeights
from .lightning_attention import LightningAttention, block_per_token
from .linear_attention import ChannelGates, Gates, LinearAttention, LinearQK, LinearV
from .logit_lens import LogitLens, module_attribute, only_on
from .mlp import Mlp, Neurons
from .moe import (
    DISPATCH,
    LOGITS,
    NO_SHARED,
    OWN_EXPERT_LOOP,
    PER_SLOT,
    ROUTED,
    ExpertIndices,
    ExpertOutputs,
    ExpertWeights,
    Moe,
    RouterLogits,
    mixture_reason,
    needs_grouped_experts,
    no_shared_expert,
)
from .names import BlockModules
from .own_attention import (
    AS_IS,
    FOLDED_HEADS,
    HEADS_FIRST,
    KEYS_TRANSPOSED,
    MERGED_HEADS,
    OwnAttention,
    always,
    chain,
    folded,
    own_arithmetic,
    own_value,
)
from .parallel import ParallelLayer, block_contribution, parallel_reason
from .post_ln import NO_FINAL_NORM, POST_LN_ATTENTION, PostLNLayer, lm_head_only
from .reasons import (
    DEFAULT_CONTRIBUTION,
    DEFAULT_HEAD,
    DEFAULT_NORM,
    NOT_ON_INTERFACE,
    PARALLEL,
    POST_NORM_ATTENTION,
    POST_NORM_MLP,
    needs_child,
)
from .recurrent import (
    HybridLayer,
    RecurrentMixer,
    State,
    States,
    needs_recurrent_routing,
    needs_torch_kernels,
    route_delta_rule,
    route_kernels,
)
from .regrouped import Regrouping
from .sandwich import PostNormLayer, SandwichAttention, SandwichLayer, SandwichMlp, normed_contribution
from .scaled import (
    ScaledAttention,
    ScaledMlp,
    ScaledMoe,
    ScaledSiblingMoe,
    divide_by_logits_scaling,
    residual_multiplier,
    scaled_output,
    scaled_value,
)
from .scaled_routing import ScaledRoutedMoe, routed_scale
from .selective_scan import ScanDecays, ScanQK, ScanState, ScanStates, ScanSteps, ScanValues, SelectiveScan
from .sink_attention import SinkAttention
from .standard import (
    BATCH,
    CHANNELS,
    EXPERTS,
    GROUPS,
    HEAD_DIM,
    HEADS,
    HIDDEN,
    IMAGE_TOKENS,
    IMAGES,
    INTERMEDIATE,
    KEY,
    KEY_DIM,
    KV_HEADS,
    MASK_TOKENS,
    MIXER_HEADS,
    PATCHES,
    QK_HEAD_DIM,
    QUERY,
    SEQ,
    STATE_DIM,
    STREAMS,
    TOKENS,
    TOP_K,
    VALUE_DIM,
    VISION_HIDDEN,
    VOCAB,
    Standard,
    axis_size,
    block_rows,
    block_values,
    blocks_rows,
    blocks_support,
    first_tensor,
    named_layout,
    rewrap,
    seq_first,
)
from .state_space import (
    SSDHeadOutputs,
    SSDKeys,
    SSDQueries,
    SSDValues,
    StateSpace,
    chunk_per_token,
    needs_per_token_chunks,
)
from .tokens import TokenEProperty
from .vision import (
    ImageFeatures,
    ImageScatter,
    ImageTokenMask,
    Patches,
    PixtralVision,
    QwenVision,
    QwenVisionAttention,
    Vision,
    VisionAttention,
    VisionLayer,
    VisionMlp,
    image_token_id,
    no_tower_run,
    variable_resolution,
)

__all__ = [name for name in dir() if not name.startswith("_")]
