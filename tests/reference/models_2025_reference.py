#!/usr/bin/python3
"""Independent float64 numpy re-derivation of 2025-26's models' RoPE, each written the way the model's
own code computes it from its config.json (the lines are cited per model). Not shared with the app.

Reads a JSON list of cases from the file named on the command line, prints a JSON list of results.
Each case: {"kind": "model", "path": config.json, "vector": [...head dims...], "positions": [...]}
answers {"model_type", "layers": [{"rotates", "theta", "pairing", "axis", "rotated_dims"}...],
         "shown": index of the layer the app shows first, "rotated": {layer: [R(p) vector per position]}}
The vector is the part of the head the app shows (for DeepSeek-V4 the trailing qk_rope_head_dim dims,
placed at the end of a head_dim vector of zeros and read back from there).
"""
import json
import sys

import numpy as np


def text_config(c):
    if "text_config" in c and "num_attention_heads" not in c and "head_dim" not in c:
        return c["text_config"]
    return c


def default_inv_freq(base, dim):
    # modeling_rope_utils._compute_default_rope_parameters: 1 / base ** (arange(0, dim, 2) / dim)
    return 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim))


def yarn_inv_freq(base, dim, factor, original, beta_fast, beta_slow):
    """DeepSeek's inference/model.py precompute_freqs_cis (DeepSeek-V4-Flash, copied in
    Mockingjay1316/deepseek-v4-flash-spark@0825add4) lines 199-229: the angles only, no mscale."""
    import math
    freqs = default_inv_freq(base, dim)

    def correction_dim(rotations):
        return dim * math.log(original / (rotations * 2 * math.pi)) / (2 * math.log(base))

    low = max(math.floor(correction_dim(beta_fast)), 0)
    high = min(math.ceil(correction_dim(beta_slow)), dim - 1)
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(dim // 2, dtype=np.float64) - low) / (high - low), 0, 1)
    smooth = 1 - ramp
    return freqs / factor * (1 - smooth) + freqs * smooth


def rotate_pairs(x, inv_freq, position, pairing):
    """The first 2 * len(inv_freq) dims turn, the rest pass through. half: cat((freqs, freqs)) with
    rotate_half (x[:d/2], x[d/2:]); interleaved: repeat_interleave(freqs, 2) with x[..., ::2], x[..., 1::2]."""
    x = np.asarray(x, dtype=np.float64)
    rot = 2 * len(inv_freq)
    f = position * inv_freq
    if pairing == "half":
        emb = np.concatenate((f, f))
        h = rot // 2
        swapped = np.concatenate((-x[h:rot], x[:h]))
    else:
        emb = np.repeat(f, 2)
        swapped = np.empty(rot)
        swapped[0::2] = -x[1:rot:2]
        swapped[1::2] = x[0:rot:2]
    return np.concatenate((x[:rot] * np.cos(emb) + swapped * np.sin(emb), x[rot:]))


def layer(theta, rotates=True, pairing="half", axis=None):
    theta = np.asarray(theta, dtype=np.float64)
    return {"rotates": rotates, "theta": (theta if rotates else np.zeros_like(theta)).tolist(), "pairing": pairing,
            "axis": axis or ["t"] * len(theta), "inv_freq": theta}


def hunyuan(c):
    """Tencent-Hunyuan/Hunyuan-A13B@2798f3c8 models/modeling_hunyuan.py: head_dim = hidden_size //
    num_heads (line 544); HunYuanDynamicNTKAlphaRotaryEmbedding base = base * alpha ** (dim / (dim - 2))
    (line 358), emb = cat((freqs, freqs)) and rotate_half on halves (lines 367-376); every layer.
    transformers' HunYuanMoEV1RotaryEmbedding (def9a7ef lines 398-403) reads config.head_dim instead."""
    if c["model_type"] == "hunyuan":
        dim = c["hidden_size"] // c["num_attention_heads"]
    else:
        dim = c["head_dim"]
    rs = c.get("rope_scaling") or {}
    base = c.get("rope_theta", 10000.0)
    if rs.get("rope_type", rs.get("type")) == "dynamic" and rs.get("alpha"):
        base = base * rs["alpha"] ** (dim / (dim - 2))
    inv = default_inv_freq(base, dim)
    return [layer(inv)] * c.get("num_hidden_layers", 1), 0


def cohere2(c):
    """transformers configuration_cohere2.py (def9a7ef) lines 219-228: layer i sliding when (i + 1) %
    sliding_window_pattern, else full; head_dim = hidden_size // heads unless the file gives head_dim
    (line 206, then setattr of the leftover keys). modeling_cohere2.py: repeat_interleave(freqs, 2)
    (line 72), rotate_half on x[..., ::2] / x[..., 1::2] (lines 134-139), and RoPE only `if
    self.sliding_window is not None` (lines 184, 215-217)."""
    n = c.get("num_hidden_layers", 40)
    pattern = c.get("sliding_window_pattern", 4)
    types = c.get("layer_types") or ["sliding_attention" if (i + 1) % pattern else "full_attention" for i in range(n)]
    dim = c.get("head_dim") or c.get("hidden_size", 8192) // c.get("num_attention_heads", 64)
    inv = default_inv_freq(c.get("rope_theta", 10000.0), dim)
    window = c.get("sliding_window", 4096)
    layers = [layer(inv, rotates=(t == "sliding_attention" and window is not None), pairing="interleaved") for t in types]
    shown = next((i for i, t in enumerate(types) if t == "full_attention" and layers[i]["rotates"]), 0)
    return layers, shown


def glm4v(c, model_type):
    """transformers modeling_glm4v.py / modeling_glm4v_moe.py (def9a7ef): inv_freq over head_dim x
    partial_rotary_factor (modeling_rope_utils lines 92-132; glm4v_moe's class default 0.5); the
    attention's apply_multimodal_rotary_pos_emb splits the frequencies by mrope_section in order t, h,
    w; GLM-4.1V then repeat_interleaves and rotates neighbours (rotate_half_llm, lines 427-431, 472),
    GLM-4.5V rotates halves (rotate_half, glm4v_moe lines 168-218)."""
    moe = model_type.startswith("glm4v_moe") or model_type.startswith("Glm4vMoe")
    dim = c.get("head_dim") or c.get("hidden_size", 4096) // c.get("num_attention_heads", 96 if moe else 32)
    frac = c.get("partial_rotary_factor", 0.5 if moe else 1.0)
    rot = int(dim * frac)
    inv = default_inv_freq(c.get("rope_theta", 10000.0), rot)
    section = (c.get("rope_scaling") or c.get("rope_parameters"))["mrope_section"]
    axis = sum(([a] * s for a, s in zip("thw", section)), [])
    return [layer(inv, pairing="half" if moe else "interleaved", axis=axis)] * c.get("num_hidden_layers", 1), 0


def kimi_linear(c):
    """configuration_kimi_linear.py (transformers 0bc4dd0d) lines 159-164: 1-based full_attn_layers are
    MLA, kda_layers KDA; modeling_kimi.py KimiMLAAttention asserts use_nope and never rotates; KDA has no
    RoPE: no layer turns."""
    lac = c["linear_attn_config"]
    n = c["num_hidden_layers"]
    dim = c["qk_rope_head_dim"]
    zero = np.zeros(dim // 2)
    layers = [layer(zero, rotates=False) for _ in range(n)]
    assert sorted(lac["full_attn_layers"] + lac["kda_layers"]) == list(range(1, n + 1))
    return layers, 0


def deepseek_v4(c):
    """DeepSeek's inference/model.py (Mockingjay1316/deepseek-v4-flash-spark@0825add4): layer i's
    compress_ratios[i] (line 453); ratio 0: rope_theta, no YaRN; otherwise compress_rope_theta with
    YaRN from the original length (lines 475-481); neighbouring pairs (view_as_complex of
    unflatten(-1, (-1, 2)), lines 232-244) on the trailing rope_head_dim dims (lines 499, 504)."""
    rs = c.get("rope_scaling") or {}
    dim = c["qk_rope_head_dim"]
    layers = []
    for ratio in c["compress_ratios"][: c["num_hidden_layers"]]:
        if ratio:
            inv = yarn_inv_freq(c["compress_rope_theta"], dim, rs["factor"], rs["original_max_position_embeddings"],
                                rs.get("beta_fast", 32), rs.get("beta_slow", 1))
        else:
            inv = default_inv_freq(c["rope_theta"], dim)
        layers.append(layer(inv, pairing="interleaved"))
    shown = next((i for i, r in enumerate(c["compress_ratios"][: c["num_hidden_layers"]]) if r), 0)
    return layers, shown


def qwen3_5(c):
    """transformers modeling_qwen3_5.py (009e78d6) Qwen3_5TextRotaryEmbedding: dim = head_dim x
    rope_parameters["partial_rotary_factor"], recomposition_frequencies: index j on h when j % 3 == 1
    and j < 3 section[1], on w when j % 3 == 2 and j < 3 section[2], else t; cat((f, f)) and rotate_half
    on the first dim dims; only full_attention layers rotate (Qwen3_5DecoderLayer: linear_attention is
    Gated DeltaNet)."""
    rp = c["rope_parameters"]
    dim = int(c.get("head_dim", 256) * rp.get("partial_rotary_factor", 1.0))
    inv = default_inv_freq(rp["rope_theta"], dim)
    section = rp.get("mrope_section", [11, 11, 10])
    axis = ["t"] * (dim // 2)
    for a, offset in ((1, 1), (2, 2)):
        for j in range(offset, min(section[a] * 3, dim // 2), 3):
            axis[j] = "thw"[a]
    types = c["layer_types"]
    layers = [layer(inv, rotates=(t == "full_attention"), axis=axis) for t in types]
    return layers, types.index("full_attention")


def ernie_4_5_vl(c, root):
    """transformers modeling_ernie4_5_vl_moe.py (147b7aa0): inv_freq over head_dim (hidden // heads,
    lines 91-99); mrope_section [h, w, t] from rope_parameters (default [22, 22, 20], lines 102-104), or
    the released config's freq_allocation as vLLM reads it (ernie45_vl_moe.py lines 148-160); the
    pre-rotation (lines 106-109) and recomposition_to_3d (lines 132-136) put the first h + w pairs on h
    and w by turns (even h, odd w) and the last t on t; repeat_interleave and rotate_half_text: neighbours."""
    dim = c.get("head_dim") or c["hidden_size"] // c["num_attention_heads"]
    rp = c.get("rope_parameters") or {}
    base = rp.get("rope_theta", c.get("rope_theta", 500000.0))
    inv = default_inv_freq(base, dim)
    if "mrope_section" in rp:
        h, w, t = rp["mrope_section"]
    else:
        t = c.get("freq_allocation", 20)
        h = w = (dim // 2 - t) // 2
    # the code's own bookkeeping: inv_freq_3d[:h+w] = cat(inv[:-t][0::2], inv[:-t][1::2]); chunk 0 (h) and
    # chunk 1 (w) are then stacked and flattened, so pair i < h+w takes inv[i] on h (i even) or w (i odd)
    hw = inv[: -t]
    inv3d = np.concatenate((hw[0::2], hw[1::2], inv[-t:]))
    freq_h, freq_w, freq_t = inv3d[:h], inv3d[h:h + w], inv3d[h + w:]
    theta = np.concatenate((np.stack((freq_h, freq_w), axis=-1).reshape(-1), freq_t))
    axis = ["h", "w"] * h + ["t"] * t
    return [layer(theta, pairing="interleaved", axis=axis)] * c["num_hidden_layers"], 0


def ernie_ids(case):
    """Ernie4_5_VL_MoeModel.get_rope_index (147b7aa0 lines 1109-1235): text runs arange + st on all three
    rows; an image or video run, st = the largest id so far + 1, patch (k, r, c) of the merged grid at
    (st + k, st + r, st + c), k the temporal patch (t // temporal_merge_size frames); text resumes at the
    largest id + 1."""
    out = []
    st = 0

    def text(n):
        nonlocal st
        for i in range(n):
            out.append((st + i, st + i, st + i))
        st = (max(max(x) for x in out) + 1) if out else 0

    text(case["text_before"])
    for k in range(case.get("frames", 1) // case.get("temporal", 1)):
        for r in range(case["rows"]):
            for col in range(case["cols"]):
                out.append((st + k, st + r, st + col))
    st = max(max(x) for x in out) + 1
    text(case["text_after"])
    return out


def read(path):
    with open(path) as f:
        root = json.load(f)
    c = text_config(root)
    model_type = c.get("model_type", root.get("model_type"))
    if model_type.startswith("hunyuan"):
        layers, shown = hunyuan(c)
    elif model_type == "cohere2":
        layers, shown = cohere2(c)
    elif model_type.startswith("glm4v") or model_type.startswith("Glm4vMoe"):
        layers, shown = glm4v(c, model_type)
    elif model_type == "kimi_linear":
        layers, shown = kimi_linear(c)
    elif model_type == "deepseek_v4":
        layers, shown = deepseek_v4(c)
    elif model_type.startswith("qwen3_5"):
        layers, shown = qwen3_5(c)
    elif model_type.startswith("ernie4_5"):
        layers, shown = ernie_4_5_vl(c, root)
    else:
        raise ValueError(model_type)
    return model_type, layers, shown


def model(case):
    model_type, layers, shown = read(case["path"])
    out = {"model_type": model_type, "shown": shown, "layers": [], "rotated": {}}
    for i, l in enumerate(layers):
        out["layers"].append({k: l[k] for k in ("rotates", "theta", "pairing", "axis")})
    for i in case.get("rotate_layers", []):
        l = layers[i]
        inv = l["inv_freq"] if l["rotates"] else np.zeros_like(l["inv_freq"])
        if model_type == "deepseek_v4":  # the trailing qk_rope_head_dim dims of a head_dim head turn (x[..., -rd:])
            with open(case["path"]) as f:
                c = json.load(f)
            rd = len(case["vector"])
            head = np.zeros(c["head_dim"])
            head[-rd:] = case["vector"]
            turned = [np.concatenate((head[:-rd], rotate_pairs(head[-rd:], inv, float(p), "interleaved")))[-rd:] for p in case["positions"]]
            out["rotated"][str(i)] = [t.tolist() for t in turned]
            continue
        out["rotated"][str(i)] = [rotate_pairs(case["vector"], inv, float(p), l["pairing"]).tolist() for p in case["positions"]]
    return out


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    out = []
    for case in cases:
        if case["kind"] == "model":
            out.append(model(case))
        elif case["kind"] == "ernie_ids":
            out.append({"ids": ernie_ids(case)})
        elif case["kind"] == "shown":  # rope_reference.py's hf_config for these models: the layer the app shows
            _, layers, shown = read(case["path"])
            out.append({"theta": layers[shown]["theta"], "attention_factor": 1.0})
        else:
            raise ValueError(case["kind"])
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
