"""ALiBi slopes and T5's relative-position buckets, written the way the models' code computes them.

- ALiBi: transformers@9d97831a src/transformers/models/bloom/modeling_bloom.py, build_alibi_tensor,
  L73-L86: closest_power_of_2 = 2 ** floor(log2(num_heads)); base = 2 ** (-(2 ** -(log2(cp) - 3)));
  slopes = base ** arange(1, 1 + cp); for other head counts, extra_base from 2 * cp and the odd powers
  arange(1, 1 + 2 * min(cp, n - cp), 2). Given here in float64 (the app's double) and in float32 (torch's).
- T5: transformers@6b8b757d src/transformers/models/t5/modeling_t5.py, T5Attention._relative_position_bucket,
  L425-L449, on relative_position = memory_position - context_position (L460), float32 as torch computes it.

- MLA's softmax scale: deepseek-ai/DeepSeek-V3@1ea5a1a7 inference/model.py L431-L434 (softmax_scale =
  qk_head_dim ** -0.5, times mscale * mscale with mscale = 0.1 * mscale_all_dim * log(rope_factor) + 1 when
  the context is extended); transformers@f5a9ec51 models/deepseek_v3/modeling_deepseek_v3.py L330-L333
  (yarn_get_mscale) and L377-L383 (self.scaling).

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
        if c["kind"] == "mla":
            scale = (c["nope"] + c["rope"]) ** -0.5
            if c["factor"] > 1 and c["mscale_all_dim"]:
                mscale = 0.1 * c["mscale_all_dim"] * math.log(c["factor"]) + 1.0
                scale = scale * mscale * mscale
            out.append({"softmax_scale": scale})
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
