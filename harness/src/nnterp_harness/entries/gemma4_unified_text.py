from ..entry import Entry
from .gemma4_text import GEMMA4_SHAPE, scale_blocks

ENTRIES = (Entry("gemma4_unified_text", "gemma4_unified_text", GEMMA4_SHAPE, prepare=scale_blocks),)
