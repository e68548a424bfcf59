"""A Llama in plain torch with Hugging Face's module names (model.embed_tokens,
model.layers.N.self_attn.{q,k,v,o}_proj, mlp.{gate,up,down}_proj, input_layernorm,
post_attention_layernorm, model.norm, lm_head), grouped-query attention as in Llama 3, tiny
sizes. Its forward skips modules set to None (a pipeline chunk's) and reshapes with -1 heads,
so tensor-parallel projections work as is."""
import torch
import torch.nn.functional as F
from torch import nn

# Llama 3 8B's 8 key-value heads (on twice as many query heads), so that every tensor-parallel
# degree the real shape's plans may take (up to 8) splits whole heads here too.
HIDDEN = 128
HEADS = 16
KV_HEADS = 8
HEAD_DIM = HIDDEN // HEADS
INTERMEDIATE = 128
VOCABULARY = 96


class RMSNorm(nn.Module):
    def __init__(self, size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(size) + 0.1 * torch.randn(size))
        self.eps = eps

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rotate(x, positions):
    """Rotary position embedding of x [batch, heads, sequence, head_dim] at positions [batch, sequence]."""
    frequencies = 1.0 / (10000 ** (torch.arange(0, HEAD_DIM, 2, dtype=x.dtype) / HEAD_DIM))
    angles = positions.to(x.dtype)[:, None, :, None] * frequencies
    cos, sin = torch.cat((angles, angles), -1).cos(), torch.cat((angles, angles), -1).sin()
    half = x.size(-1) // 2
    rotated = torch.cat((-x[..., half:], x[..., :half]), -1)
    return x * cos + rotated * sin


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(HIDDEN, HEADS * HEAD_DIM, bias=False)
        self.k_proj = nn.Linear(HIDDEN, KV_HEADS * HEAD_DIM, bias=False)
        self.v_proj = nn.Linear(HIDDEN, KV_HEADS * HEAD_DIM, bias=False)
        self.o_proj = nn.Linear(HEADS * HEAD_DIM, HIDDEN, bias=False)

    def forward(self, x, positions):
        batch, sequence = x.shape[0], x.shape[1]  # a sequence-parallel DTensor reports the whole sequence
        q = self.q_proj(x).view(batch, sequence, -1, HEAD_DIM).transpose(1, 2)
        k = self.k_proj(x).view(batch, sequence, -1, HEAD_DIM).transpose(1, 2)
        v = self.v_proj(x).view(batch, sequence, -1, HEAD_DIM).transpose(1, 2)
        if positions is None:
            positions = torch.arange(sequence).expand(batch, sequence)
        q, k = rotate(q, positions), rotate(k, positions)
        groups = q.size(1) // k.size(1)
        k, v = k.repeat_interleave(groups, dim=1), v.repeat_interleave(groups, dim=1)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o_proj(out.transpose(1, 2).reshape(batch, sequence, -1))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate_proj = nn.Linear(HIDDEN, INTERMEDIATE, bias=False)
        self.up_proj = nn.Linear(HIDDEN, INTERMEDIATE, bias=False)
        self.down_proj = nn.Linear(INTERMEDIATE, HIDDEN, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class DecoderLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.input_layernorm = RMSNorm(HIDDEN)
        self.self_attn = Attention()
        self.post_attention_layernorm = RMSNorm(HIDDEN)
        self.mlp = MLP()

    def forward(self, x, positions=None):
        x = x + self.self_attn(self.input_layernorm(x), positions)
        return x + self.mlp(self.post_attention_layernorm(x))


class LlamaModel(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.embed_tokens = nn.Embedding(VOCABULARY, HIDDEN)
        self.layers = nn.ModuleList(DecoderLayer() for _ in range(layers))
        self.norm = RMSNorm(HIDDEN)


class LlamaForCausalLM(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.model = LlamaModel(layers)
        self.lm_head = nn.Linear(HIDDEN, VOCABULARY, bias=False)

    def forward(self, x, positions=None):
        """Logits of token ids x [batch, sequence] (hidden states after the first pipeline chunk)."""
        if self.model.embed_tokens is not None:
            x = self.model.embed_tokens(x)
        for layer in self.model.layers:
            if layer is not None:
                x = layer(x, positions)
        if self.model.norm is not None:
            x = self.model.norm(x)
        if self.lm_head is not None:
            x = self.lm_head(x)
        return x
