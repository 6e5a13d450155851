#!/usr/bin/python3
"""Independent float64 reference for RoPE Explorer's core, written in numpy the way the reference
code (RoFormer, Hugging Face transformers' modeling_rope_utils.py) computes it.

Reads a JSON list of cases from the file named on the command line, prints a JSON list of results.
Each case: {"kind": "freqs", "config": {...}} or {"kind": "decay", "theta": [...], "r": [...]}
or {"kind": "angles", "theta": [...], "m": [...]}
or {"kind": "cell_means", "theta": [...], "cells": [[position_from, position_to, pair_from, pair_to], ...]}
or {"kind": "layout", "layout": "proportional"|"partial", "head_dim": d, "fraction": p, "base": b, "factor": f,
    "pairing": "half"|"interleaved", "x": [...], "q": [...], "k": [...], "positions": [...], "matrix_positions": [...], "score_at": [[m, n], ...]}
or {"kind": "temperature", "positions": [...], "floor_scale": 8192, "attn_scale": 0.1}.
"""
import json
import math
import os
import sys

import numpy as np


def inv_freq_default(base, dim):
    return 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim))


def rotated_dims(cfg):
    d = int(cfg["dim"] * cfg.get("rotary_fraction", 1.0))
    return d - d % 2


def freqs(cfg):
    base = float(cfg["base"])
    dim = rotated_dims(cfg)
    scaling = cfg.get("scaling", "none")
    factor = float(cfg.get("factor", 1.0))
    l0 = float(cfg.get("original_max_position", 4096))
    attention = 1.0
    if scaling == "none":
        inv = inv_freq_default(base, dim)
    elif scaling == "linear":
        inv = inv_freq_default(base, dim) / factor
    elif scaling == "ntk":
        inv = inv_freq_default(base * factor ** (dim / (dim - 2)), dim)
    elif scaling == "dynamic":
        seq = max(float(cfg.get("sequence_length", 4096)), l0)
        new_base = base * ((factor * seq / l0) - (factor - 1)) ** (dim / (dim - 2))
        inv = inv_freq_default(new_base, dim)
    elif scaling == "yarn":
        beta_fast = cfg.get("beta_fast", 32.0)
        beta_slow = cfg.get("beta_slow", 1.0)
        truncate = cfg.get("truncate", True)

        def correction_dim(rot):
            return (dim * math.log(l0 / (rot * 2 * math.pi))) / (2 * math.log(base))

        low, high = correction_dim(beta_fast), correction_dim(beta_slow)
        if truncate:
            low, high = math.floor(low), math.ceil(high)
        low, high = max(low, 0), min(high, dim - 1)
        if low == high:
            high += 0.001
        ramp = np.clip((np.arange(dim // 2, dtype=np.float64) - low) / (high - low), 0, 1)
        pos = base ** (np.arange(0, dim, 2).astype(np.float64) / dim)
        extrapolation_share = 1 - ramp
        inv = (1.0 / (factor * pos)) * (1 - extrapolation_share) + (1.0 / pos) * extrapolation_share

        def mscale(f, m=1.0):
            return 1.0 if f <= 1 else 0.1 * m * math.log(f) + 1.0

        if cfg.get("mscale") and cfg.get("mscale_all_dim"):
            attention = mscale(factor, cfg["mscale"]) / mscale(factor, cfg["mscale_all_dim"])
        else:
            attention = mscale(factor)
    elif scaling == "llama3":
        lff = cfg.get("low_freq_factor", 1.0)
        hff = cfg.get("high_freq_factor", 4.0)
        inv0 = inv_freq_default(base, dim)
        wavelen = 2 * math.pi / inv0
        low_wl, high_wl = l0 / lff, l0 / hff
        inv = np.where(wavelen > low_wl, inv0 / factor, inv0)
        with np.errstate(divide="ignore", invalid="ignore"):  # equal factors (Llama 4 Scout): no medium band
            smooth = (l0 / wavelen - lff) / (hff - lff)
        smoothed = (1 - smooth) * inv / factor + smooth * inv
        medium = ~(wavelen < high_wl) & ~(wavelen > low_wl)
        inv = np.where(medium, smoothed, inv)
    elif scaling == "proportional":  # transformers' _compute_proportional_rope_parameters (Gemma 4)
        head_dim = int(cfg["dim"])
        turning = int(cfg.get("rotary_fraction", 1.0) * head_dim // 2)
        turned = 1.0 / (base ** (np.arange(0, 2 * turning, 2, dtype=np.int64).astype(np.float64) / head_dim))
        inv = np.concatenate((turned, np.zeros(head_dim // 2 - turning))) / factor
    elif scaling == "longrope":
        seq = cfg.get("sequence_length", 4096)
        key = "long_factors" if seq > l0 else "short_factors"
        ext = np.array(cfg.get(key) or [1.0] * (dim // 2), dtype=np.float64)
        inv = 1.0 / (ext * base ** (np.arange(0, dim, 2).astype(np.float64) / dim))
        attention = 1.0 if factor <= 1 else math.sqrt(1 + math.log(factor) / math.log(l0))
    else:
        raise ValueError(scaling)
    if cfg.get("attention_factor") is not None:
        attention = cfg["attention_factor"]
    return {"theta": inv.tolist(), "attention_factor": attention}


# The config classes' defaults for keys a file leaves out (transformers' Llama4TextConfig, SmolLM3Config,
# Gemma3TextConfig, Gemma4TextConfig, Qwen2VLTextConfig, Qwen2_5_VLTextConfig, Qwen3VLTextConfig, Qwen3NextConfig,
# Qwen3VLMoeTextConfig, Phi3Config, DeepseekV3Config, GPTNeoXConfig, GPTJConfig, Glm4MoeConfig, Qwen3Config, GemmaConfig, GptOssConfig)
CLASS_DEFAULTS = {
    "llama4_text": {"rope_theta": 500000.0, "head_dim": 128},
    "smollm3": {"rope_theta": 2000000.0, "hidden_size": 2048, "num_attention_heads": 16},
    "gemma3_text": {"rope_theta": 1000000.0, "head_dim": 256, "rope_local_base_freq": 10000.0, "max_position_embeddings": 131072},
    "gemma4_text": {"head_dim": 256, "global_head_dim": 512, "max_position_embeddings": 131072,
                    "rope_parameters": {"sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
                                        "full_attention": {"rope_type": "proportional", "partial_rotary_factor": 0.25,
                                                           "rope_theta": 1000000.0}}},
    "qwen2_vl": {"rope_theta": 1000000.0, "hidden_size": 8192, "num_attention_heads": 64, "max_position_embeddings": 32768},
    "qwen3_vl": {"rope_theta": 500000.0, "head_dim": 128, "max_position_embeddings": 128000},
    "qwen3_vl_moe": {"rope_theta": 500000.0, "hidden_size": 2048, "num_attention_heads": 16, "max_position_embeddings": 128000},
    "qwen3_next": {"head_dim": 256, "partial_rotary_factor": 0.25, "max_position_embeddings": 32768},
    "phi3": {"hidden_size": 3072, "num_attention_heads": 32, "max_position_embeddings": 4096,
             "original_max_position_embeddings": 4096},
    "deepseek_v3": {"qk_rope_head_dim": 64, "max_position_embeddings": 4096},
    "gpt_neox": {"rotary_pct": 0.25, "max_position_embeddings": 2048},
    "gptj": {"rotary_dim": 64, "n_positions": 2048},
    "glm4_moe": {"partial_rotary_factor": 0.5, "max_position_embeddings": 131072},
    "qwen3": {"head_dim": 128, "max_position_embeddings": 32768},
    "gemma": {"head_dim": 256, "max_position_embeddings": 8192},
    "gpt_oss": {"rope_theta": 150000.0, "head_dim": 64, "max_position_embeddings": 131072},
}
MODEL_TYPE_OF_CLASS = {"llama4": "llama4_text", "gemma3": "gemma3_text", "gemma4": "gemma4_text", "qwen2_vl_text": "qwen2_vl",
                       "qwen2_5_vl": "qwen2_vl", "qwen2_5_vl_text": "qwen2_vl", "qwen3_vl_text": "qwen3_vl",
                       "qwen3_vl_moe_text": "qwen3_vl_moe"}
GPT_OSS_ROPE = {"rope_type": "yarn", "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0, "truncate": False,
                "original_max_position_embeddings": 4096}


NEW_MODEL_TYPES = ("hunyuan", "cohere2", "glm4v", "Glm4vMoe", "kimi_linear", "deepseek_v4", "qwen3_5", "ernie4_5")


def hf_config(path, layer_type="full_attention", sequence_length=None):
    """The RoPE settings of a Hugging Face config.json, read the way transformers' rope-init reads them."""
    with open(path) as f:
        c = json.load(f)
    root_type = c.get("model_type")
    # No RoPE: BLOOM and MPT (ALiBi; BloomConfig n_head default 8, hidden 64, n_embed popped into it;
    # MptConfig n_heads 16, d_model 2048) and T5 (d_kv 64; old files name no model_type but have the
    # buckets): every pair's frequency is 0, the attention factor 1.
    if root_type in ("bloom", "mpt", "t5") or "relative_attention_num_buckets" in c:
        if root_type == "bloom":
            head_dim = c.get("n_embed", c.get("hidden_size", 64)) // c.get("n_head", c.get("num_attention_heads", 8))
        elif root_type == "mpt":
            head_dim = c.get("d_model", 2048) // c.get("n_heads", 16)
        else:
            head_dim = c.get("d_kv", 64)
        return {"theta": [0.0] * (head_dim // 2), "attention_factor": 1.0}
    if "text_config" in c and "num_attention_heads" not in c and "head_dim" not in c:
        c = c["text_config"]
    # 2025-26's models: each written as its own code in models_2025_reference.py (the layer the app shows)
    if str(c.get("model_type", root_type)).startswith(NEW_MODEL_TYPES):
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import models_2025_reference
        _, layers, shown = models_2025_reference.read(path)
        return {"theta": layers[shown]["theta"], "attention_factor": 1.0}
    model_type = MODEL_TYPE_OF_CLASS.get(c.get("model_type", root_type), c.get("model_type", root_type))
    defaults = dict(CLASS_DEFAULTS.get(model_type, {}))
    if "rope_parameters" in c:
        defaults.pop("rope_theta", None)  # v5: the base is inside
    if any((c.get(k) or {}).get("partial_rotary_factor") is not None for k in ("rope_parameters", "rope_scaling")):
        defaults.pop("partial_rotary_factor", None)  # the class's setdefault: the dict's own wins
    c = {**defaults, **c}
    if model_type == "gemma4_text" and c.get("rope_parameters") is None:
        c["rope_parameters"] = CLASS_DEFAULTS["gemma4_text"]["rope_parameters"]
    if model_type == "gpt_oss" and not c.get("rope_parameters") and not c.get("rope_scaling"):
        c["rope_scaling"] = GPT_OSS_ROPE
    params = c.get("rope_parameters")
    local_base = None
    if params is not None:
        if "full_attention" in params or "sliding_attention" in params:
            params = params[layer_type]
        scaling = dict(params)
    else:
        scaling = dict(c.get("rope_scaling") or {})
        if layer_type == "sliding_attention" and c.get("rope_local_base_freq") is not None:
            local_base, scaling = c["rope_local_base_freq"], {}  # Gemma 3: local layers, own base, no scaling
    if c.get("qk_rope_head_dim") is not None:  # DeepSeek: the rotary part of the head
        head_dim = int(c["qk_rope_head_dim"])
    elif c.get("head_dim") is not None:
        head_dim = int(c["head_dim"])
    elif "hidden_size" in c:
        head_dim = c["hidden_size"] // c["num_attention_heads"]
    else:
        head_dim = c["n_embd"] // c["n_head"]
    # Gemma 4: full-attention layers with proportional RoPE read global_head_dim
    if layer_type == "full_attention" and scaling.get("rope_type") == "proportional" and c.get("global_head_dim"):
        head_dim = int(c["global_head_dim"])
    base = local_base if local_base is not None else scaling.get("rope_theta", c.get("rope_theta", c.get("rotary_emb_base", 10000.0)))
    if "partial_rotary_factor" in scaling:
        fraction = scaling["partial_rotary_factor"]
    elif "partial_rotary_factor" in c:
        fraction = c["partial_rotary_factor"]
    elif "rotary_pct" in c:
        fraction = c["rotary_pct"]
    elif "rotary_dim" in c:
        fraction = c["rotary_dim"] / head_dim
    else:
        fraction = 1.0
    rope_type = scaling.get("rope_type", scaling.get("type", "default"))
    rope_type = {"su": "longrope", "default": "none", "mrope": "none"}.get(rope_type, rope_type)
    if c.get("model_type") == "phi3" and rope_type == "yarn":
        rope_type = "longrope"
    max_positions = c.get("max_position_embeddings", c.get("n_positions", 4096))
    top, inner = c.get("original_max_position_embeddings"), scaling.get("original_max_position_embeddings")
    if rope_type == "dynamic":
        original = max_positions  # dynamic NTK scales against max_position_embeddings
    elif rope_type == "longrope":
        original = top or inner or max_positions
    else:
        original = inner or top or max_positions
    factor = scaling.get("factor", 1.0)
    if rope_type == "longrope" and (top or inner):
        factor = max(1.0, max_positions / original)
    cfg = {"dim": head_dim, "base": base, "rotary_fraction": fraction, "scaling": rope_type, "factor": factor,
           "original_max_position": original, "sequence_length": sequence_length or original,  # rope init: no sequence yet
           "low_freq_factor": scaling.get("low_freq_factor", 1.0), "high_freq_factor": scaling.get("high_freq_factor", 4.0),
           "beta_fast": scaling.get("beta_fast") or 32.0, "beta_slow": scaling.get("beta_slow") or 1.0,
           "truncate": scaling.get("truncate", True), "long_factors": scaling.get("long_factor"),
           "short_factors": scaling.get("short_factor")}
    for key in ("mscale", "mscale_all_dim", "attention_factor"):
        if scaling.get(key) is not None and (key != "attention_factor" or rope_type in ("yarn", "longrope")):
            cfg[key] = scaling[key]
    return freqs(cfg)


def decay(theta, r):
    theta = np.asarray(theta, dtype=np.float64)
    r = np.asarray(r, dtype=np.float64)
    s = np.cumsum(np.exp(1j * np.outer(r, theta)), axis=1)
    return {"bound": np.abs(s).mean(axis=1).tolist()}


def angles(theta, m):
    a = np.outer(np.asarray(m, dtype=np.float64), np.asarray(theta, dtype=np.float64))
    wrapped = np.angle(np.exp(1j * a))
    return {"cos": np.cos(a).ravel().tolist(), "sin": np.sin(a).ravel().tolist(), "wrapped": wrapped.ravel().tolist()}


def cell_means(theta, cells):
    """The mean of cos and sin of m theta_k over every position m and pair k of each cell (half-open ranges)."""
    theta = np.asarray(theta, dtype=np.float64)
    cos, sin = [], []
    for p0, p1, k0, k1 in (map(int, cell) for cell in cells):
        a = np.outer(np.arange(p0, p1, dtype=np.int64).astype(np.float64), theta[k0:k1])
        cos.append(float(np.cos(a).mean()))
        sin.append(float(np.sin(a).mean()))
    return {"cos": cos, "sin": sin}


def cosine_sum(theta, context):
    """B(m) = sum_i cos(m theta_i) for m = 0..context, and the first m where it is negative (-1: none)."""
    m = np.arange(context + 1, dtype=np.float64)
    b = np.cos(np.outer(m, np.asarray(theta, dtype=np.float64))).sum(axis=1)
    neg = np.nonzero(b < 0)[0]
    return {"values": b.tolist(), "first_negative": int(neg[0]) if neg.size else -1}


def base_feasible(bases, rotated, context):
    """For each base: does sum_i cos(m base^(-2i/d)) stay >= 0 for every m in 0..context?"""
    m = np.arange(context + 1, dtype=np.float64)
    out = []
    for b in bases:
        theta = float(b) ** (-np.arange(0, rotated, 2, dtype=np.float64) / rotated)
        ok = True
        for start in range(0, context + 1, 4096):
            chunk = m[start:start + 4096]
            if (np.cos(np.outer(chunk, theta)).sum(axis=1) < 0).any():
                ok = False
                break
        out.append(ok)
    return {"feasible": out}


# Proportional RoPE (transformers' _compute_proportional_rope_parameters, Gemma 4's full-attention
# layers) against ordinary partial rotary (transformers' other rope-init functions with
# partial_rotary_factor, GPT-NeoX rotary_pct): written from the transformers code, not from ours.

def proportional_inv_freq(base, head_dim, fraction, factor=1.0):
    rope_angles = int(fraction * head_dim // 2)
    inv_rotated = 1.0 / (base ** (np.arange(0, 2 * rope_angles, 2, dtype=np.int64).astype(np.float64) / head_dim))
    nope_angles = head_dim // 2 - rope_angles
    inv = np.concatenate((inv_rotated, np.zeros(nope_angles))) if nope_angles > 0 else inv_rotated
    return inv / factor


def partial_inv_freq(base, head_dim, fraction, factor=1.0):
    dim = int(head_dim * fraction)
    # An odd rotary width (head_dim 10 x 0.3 = 3) makes transformers' cos/sin (2 * len(arange(0, 3, 2))
    # = 4 wide) disagree with q[..., :3]: the model code fails. The app rounds down to even; so does this.
    dim -= dim % 2
    return 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim)) / factor


def rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate((-x[..., half:], x[..., :half]), axis=-1)


def rotate_every_two(x):
    out = np.empty_like(x)
    out[..., 0::2] = -x[..., 1::2]
    out[..., 1::2] = x[..., 0::2]
    return out


def apply_rope(x, inv_freq, position, pairing):
    """x * cos + swap(x) * sin over the first 2 * len(inv_freq) dims, the rest passed through (the
    modeling code's q_rot / q_pass split; for proportional RoPE there is no pass part)."""
    x = np.asarray(x, dtype=np.float64)
    rot = 2 * len(inv_freq)
    freqs = position * inv_freq
    if pairing == "half":
        emb = np.concatenate((freqs, freqs))
        swapped = rotate_half(x[:rot])
    else:
        emb = np.repeat(freqs, 2)
        swapped = rotate_every_two(x[:rot])
    out = x[:rot] * np.cos(emb) + swapped * np.sin(emb)
    return np.concatenate((out, x[rot:]))


def layout(case):
    head_dim, fraction, base = int(case["head_dim"]), float(case["fraction"]), float(case["base"])
    factor = float(case.get("factor", 1.0))
    if case["layout"] == "proportional":
        inv = proportional_inv_freq(base, head_dim, fraction, factor)
    else:
        inv = partial_inv_freq(base, head_dim, fraction, factor)
    pairing = case.get("pairing", "half")
    out = {"theta": inv.tolist()}
    out["rotated"] = [apply_rope(case["x"], inv, float(m), pairing).tolist() for m in case.get("positions", [])]
    # The matrix of x -> R(m) x at each position, column j = R(m) e_j.
    eye = np.eye(head_dim)
    out["matrices"] = [np.stack([apply_rope(eye[j], inv, float(m), pairing) for j in range(head_dim)], axis=1).ravel().tolist()
                       for m in case.get("matrix_positions", [])]
    # Which dim each dim pairs with: the off-diagonal entry of R(1) with every frequency set to 1
    # (so even a zero-frequency pair of the layout shows its partner), -1 when none.
    ones = np.ones_like(inv)
    r1 = np.stack([apply_rope(eye[j], ones, 1.0, pairing) for j in range(head_dim)], axis=1)
    partner = []
    for j in range(head_dim):
        off = [i for i in range(head_dim) if i != j and abs(r1[i, j]) > 1e-12]
        partner.append(off[0] if off else -1)
    out["partner"] = partner
    # Which dims actually turn with these frequencies (a zero frequency leaves its pair alone).
    r_real = np.stack([apply_rope(eye[j], inv, 1.0, pairing) for j in range(head_dim)], axis=1)
    out["moves"] = [bool(abs(r_real[j, j] - 1.0) > 1e-15) for j in range(head_dim)]
    q, k = case.get("q"), case.get("k")
    out["scores"] = [float(apply_rope(q, inv, float(m), pairing) @ apply_rope(k, inv, float(n), pairing))
                     for m, n in case.get("score_at", [])]
    return out


def temperature(positions, floor_scale, attn_scale):
    """Llama4TextAttention: log1p(floor((cache_position + 1) / floor_scale)) * attn_scale + 1."""
    p = np.asarray(positions, dtype=np.float64)
    return {"scale": (np.log1p(np.floor((p + 1.0) / floor_scale)) * attn_scale + 1.0).tolist()}


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    out = []
    for case in cases:
        kind = case["kind"]
        if kind == "freqs":
            out.append(freqs(case["config"]))
        elif kind == "decay":
            out.append(decay(case["theta"], case["r"]))
        elif kind == "hf_config":
            out.append(hf_config(case["path"], case.get("layer_type", "full_attention"), case.get("sequence_length")))
        elif kind == "cosine_sum":
            out.append(cosine_sum(case["theta"], case["context"]))
        elif kind == "base_feasible":
            out.append(base_feasible(case["bases"], case["rotated"], case["context"]))
        elif kind == "cell_means":
            out.append(cell_means(case["theta"], case["cells"]))
        elif kind == "layout":
            out.append(layout(case))
        elif kind == "temperature":
            out.append(temperature(case["positions"], case["floor_scale"], case["attn_scale"]))
        elif kind == "angles":
            out.append(angles(case["theta"], case["m"]))
        else:
            raise ValueError(kind)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
