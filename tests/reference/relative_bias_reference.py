"""ALiBi slopes and T5's relative-position buckets, written the way the models' code computes them.

- ALiBi: transformers@9d97831a src/transformers/models/bloom/modeling_bloom.py, build_alibi_tensor,
  L73-L86: closest_power_of_2 = 2 ** floor(log2(num_heads)); base = 2 ** (-(2 ** -(log2(cp) - 3)));
  slopes = base ** arange(1, 1 + cp); for other head counts, extra_base from 2 * cp and the odd powers
  arange(1, 1 + 2 * min(cp, n - cp), 2). Given here in float64 (the app's double) and in float32 (torch's).
- MPT's ALiBi: transformers@43526201 src/transformers/models/mpt/modeling_mpt.py, build_mpt_alibi_tensor,
  L47-L67: num_heads_power_of_2 = 2 ** ceil(log2(num_heads)); base = arange(1, p + 1).float() * (alibi_bias_max / p);
  slopes = 1 / 2 ** base; for other head counts concat(slopes[1::2], slopes[::2])[:num_heads]. float32 as torch.
- T5: transformers@6b8b757d src/transformers/models/t5/modeling_t5.py, T5Attention._relative_position_bucket,
  L425-L449, on relative_position = memory_position - context_position (L460), float32 as torch computes it.

- MLA's softmax scale: deepseek-ai/DeepSeek-V3@1ea5a1a7 inference/model.py L431-L434 (softmax_scale =
  qk_head_dim ** -0.5, times mscale * mscale with mscale = 0.1 * mscale_all_dim * log(rope_factor) + 1 when
  the context is extended); transformers@f5a9ec51 models/deepseek_v3/modeling_deepseek_v3.py L330-L333
  (yarn_get_mscale) and L377-L383 (self.scaling).

- FLUX.1's axes and ids: huggingface/diffusers@04a1c9b0 src/diffusers/models/embeddings.py FluxPosEmbed
  L1238-L1266 (one get_1d_rotary_pos_embed per axis, L1151: 1 / theta ** (arange(0, dim, 2)[: dim // 2] / dim),
  concatenated), diffusers@376297a7 transformer_flux.py L243, L249 (axes_dims_rope (16, 56, 56), theta 10000),
  L474 (ids = cat(txt_ids, img_ids)); pipeline_flux.py (@04a1c9b0) L385 (text_ids zeros), L508-L520
  (_prepare_latent_image_ids: (0, row, col)), L588-L589 and L594 (2 * (height // (8 * 2)) latent rows, halved).

Cases in (a JSON file named on the command line), answers out as JSON on stdout.
"""
import json, math, sys

import numpy as np


def alibi(num_heads, dtype):
    cp = 2 ** math.floor(math.log2(num_heads))
    base = dtype(2 ** (-(2 ** -(math.log2(cp) - 3))))
    slopes = np.power(base, np.arange(1, 1 + cp, dtype=np.int32)).astype(dtype)
    if cp != num_heads:
        extra_base = dtype(2 ** (-(2 ** -(math.log2(2 * cp) - 3))))
        remaining = min(cp, num_heads - cp)
        extra = np.power(extra_base, np.arange(1, 1 + 2 * remaining, 2, dtype=np.int32)).astype(dtype)
        slopes = np.concatenate([slopes, extra])
    return slopes


def mpt_alibi(num_heads, alibi_bias_max, dtype):
    p = 2 ** math.ceil(math.log2(num_heads))
    base = np.arange(1, p + 1, dtype=np.int64).astype(dtype) * dtype(alibi_bias_max / p)
    slopes = (dtype(1.0) / np.power(dtype(2), base)).astype(dtype)
    if p != num_heads:
        slopes = np.concatenate([slopes[1::2], slopes[::2]])[:num_heads]
    return slopes


def t5_buckets(relative_position, bidirectional, num_buckets, max_distance):
    rp = np.asarray(relative_position, dtype=np.int64)
    buckets = np.zeros_like(rp)
    if bidirectional:
        num_buckets //= 2
        buckets += (rp > 0).astype(np.int64) * num_buckets
        rp = np.abs(rp)
    else:
        rp = -np.minimum(rp, np.zeros_like(rp))
    max_exact = num_buckets // 2
    is_small = rp < max_exact
    with np.errstate(divide="ignore", invalid="ignore"):
        large = max_exact + (
            np.log(rp.astype(np.float32) / np.float32(max_exact))
            / np.float32(math.log(max_distance / max_exact))
            * np.float32(num_buckets - max_exact)
        ).astype(np.int64)
    large = np.minimum(large, np.full_like(large, num_buckets - 1))
    return buckets + np.where(is_small, rp, large)


def main():
    cases = json.load(open(sys.argv[1]))
    out = []
    for c in cases:
        if c["kind"] == "flux":
            thetas, axes = [], []
            for a, dim in enumerate(c["axes_dim"]):
                freqs = 1.0 / (c["theta"] ** (np.arange(0, dim, 2, dtype=np.float64)[: dim // 2] / dim))
                thetas += [float(x) for x in freqs]
                axes += [a] * (dim // 2)
            vae_scale_factor = 8
            rows = 2 * (c["height"] // (vae_scale_factor * 2)) // 2
            cols = 2 * (c["width"] // (vae_scale_factor * 2)) // 2
            image_ids = np.zeros((rows, cols, 3))
            image_ids[..., 1] = image_ids[..., 1] + np.arange(rows)[:, None]
            image_ids[..., 2] = image_ids[..., 2] + np.arange(cols)[None, :]
            ids = np.concatenate([np.zeros((c["text_tokens"], 3)), image_ids.reshape(rows * cols, 3)])
            out.append({"theta": thetas, "axis": axes, "rows": rows, "cols": cols, "ids": ids.astype(int).tolist()})
        elif c["kind"] == "mla":
            scale = (c["nope"] + c["rope"]) ** -0.5
            if c["factor"] > 1 and c["mscale_all_dim"]:
                mscale = 0.1 * c["mscale_all_dim"] * math.log(c["factor"]) + 1.0
                scale = scale * mscale * mscale
            # the wrong placement of the absorbed-weights kernels: 1/sqrt(kv_lora_rank + rope) (576) for the head's 192
            latent = (512 + c["rope"]) ** -0.5 * (scale / (c["nope"] + c["rope"]) ** -0.5)
            out.append({"softmax_scale": scale, "latent_softmax_scale": latent})
        elif c["kind"] == "mpt_alibi":
            out.append({"double": [float(x) for x in mpt_alibi(c["heads"], c["bias_max"], np.float64)],
                        "float32": [float(x) for x in mpt_alibi(c["heads"], c["bias_max"], np.float32)]})
        elif c["kind"] == "alibi":
            out.append({"double": [float(x) for x in alibi(c["heads"], np.float64)],
                        "float32": [float(x) for x in alibi(c["heads"], np.float32)]})
        else:
            positions = list(range(-c["reach"], c["reach"] + 1))
            b = t5_buckets(positions, c["bidirectional"], c["num_buckets"], c["max_distance"])
            out.append({"positions": positions, "buckets": [int(x) for x in b]})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
