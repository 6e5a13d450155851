#!/usr/bin/python3
"""Synthetic transformer checkpoints and an independent numpy reference of per-pair RoPE usage.

Usage: /usr/bin/python3 synthetic_model.py --layout LAYOUT --out DIR [--seed N]   (seed 0 by default)
LAYOUT: llama_gqa, llama_sharded, qwen3, gemma3, phi3, gpt_neox, meta, falcon_mq (Falcon-7B: multi-query),
falcon_new (Falcon-40B: new decoder, grouped q, k, v) (see LAYOUTS below).
Standard library + numpy only. Writes into DIR (created if missing): the config (config.json, or
params.json for meta), the weights (every tensor BF16, names and shapes of the real checkpoints;
llama_sharded: two shards + model.safetensors.index.json), planted.json and reference.csv.

Weights are float32 randn * 0.02 (norm weights 1 + 0.1 randn, or 0.1 randn where the model scales
by 1 + w), rounded to BF16 with round-to-nearest-even on the uint32 bits. The reference is computed
in float64 from the rounded values, re-extracted from the tensors as stored (fused, per-head or
interleaved layouts undone here), with the model's numbers read from the config written.

Definitions (reference.csv: layer,head,kv_head,pair,original_wavelength,q_norm,k_norm,usage,share; one row
per layer x query head x rotated pair, in that order; floats '%.17g'):
- head_dim hd; rotated dims r = int(hd * fraction), made even (fraction: phi3 partial_rotary_factor,
  gpt_neox rotary_pct, 1 otherwise); pairs = r / 2.
- rows of pair i in head h (offset h*hd within the query rows of the projection, kv_head*hd within
  the key rows): HF layouts (llama, qwen3, gemma3, phi3, gpt_neox; rotate_half within the first r
  dims): a = i, b = i + r/2.  Meta interleaved: a = 2i, b = 2i + 1.
- kv_head = h // (heads // kv_heads)  (gpt_neox: kv_heads = heads).
- q_norm = sqrt(g_a^2 * ||Wq_h[a,:]||^2 + g_b^2 * ||Wq_h[b,:]||^2), g the q_norm scale at those dims
  within the head (qwen3: g_j = w_j; gemma3: g_j = 1 + w_j; 1 when the model has none);
  k_norm: the same with W_k's rows of kv_head and the k_norm scale.
- usage = q_norm * k_norm; share = usage / (sum of usage over that head's pairs).
- original_wavelength = 2*pi / theta_i, theta_i = base^(-2i/r); base = rope_theta (gpt_neox: rotary_emb_base;
  gemma3: rope_theta on its global layers, (layer + 1) % sliding_window_pattern == 0, and
  rope_local_base_freq on the sliding ones, as Gemma3Attention picks its rotary embedding). Unscaled.
Planted: in the last layer, query head 1 and its kv head have the two rows of pair P = pairs - 2
multiplied by 30 (before rounding), so P dominates head 1; DIR/planted.json {"layer","head","pair"}.
"""
import argparse, json, math, os, struct
import numpy as np

LAYOUTS = ("llama_gqa", "llama_sharded", "qwen3", "gemma3", "phi3", "gpt_neox", "meta", "falcon_mq", "falcon_new")


def make_config(layout):
    if layout == "meta":
        return {"dim": 128, "n_layers": 2, "n_heads": 8, "n_kv_heads": 2, "vocab_size": 64, "multiple_of": 32,
                "ffn_dim_multiplier": 1.0, "norm_eps": 1e-05, "rope_theta": 500000.0, "use_scaled_rope": False}
    if layout == "gpt_neox":
        return {"architectures": ["GPTNeoXForCausalLM"], "model_type": "gpt_neox", "hidden_size": 128,
                "num_attention_heads": 4, "num_hidden_layers": 2, "intermediate_size": 512, "vocab_size": 64,
                "rotary_pct": 0.25, "rotary_emb_base": 10000, "use_parallel_residual": True, "hidden_act": "gelu",
                "layer_norm_eps": 1e-05, "max_position_embeddings": 2048, "torch_dtype": "bfloat16",
                "tie_word_embeddings": False}
    if layout == "gemma3":
        text = {"model_type": "gemma3_text", "hidden_size": 128, "num_attention_heads": 4, "num_key_value_heads": 1,
                "head_dim": 32, "num_hidden_layers": 2, "rope_theta": 1000000.0, "rope_local_base_freq": 10000.0,
                "sliding_window": 512, "sliding_window_pattern": 6, "max_position_embeddings": 4096,
                "query_pre_attn_scalar": 32, "intermediate_size": 256, "vocab_size": 64, "rms_norm_eps": 1e-06,
                "hidden_activation": "gelu_pytorch_tanh"}
        vision = {"model_type": "siglip_vision_model", "hidden_size": 32, "intermediate_size": 64,
                  "num_attention_heads": 2, "num_hidden_layers": 1, "image_size": 16, "patch_size": 4,
                  "num_channels": 3}
        return {"architectures": ["Gemma3ForConditionalGeneration"], "model_type": "gemma3", "text_config": text,
                "vision_config": vision, "mm_tokens_per_image": 4, "torch_dtype": "bfloat16"}
    if layout in ("falcon_mq", "falcon_new"):  # Falcon-7B's multi-query layout; Falcon-40B's new decoder
        new = layout == "falcon_new"
        return {"architectures": ["FalconForCausalLM"], "model_type": "falcon", "hidden_size": 128,
                "num_attention_heads": 8, "num_hidden_layers": 2, "multi_query": not new,
                "new_decoder_architecture": new, "num_kv_heads": 2 if new else None, "alibi": False,
                "parallel_attn": True, "bias": False, "rope_theta": 10000.0, "max_position_embeddings": 2048,
                "vocab_size": 64, "layer_norm_epsilon": 1e-05, "torch_dtype": "bfloat16"}
    c = {"hidden_size": 128, "num_hidden_layers": 2, "max_position_embeddings": 2048, "intermediate_size": 256,
         "vocab_size": 64, "rms_norm_eps": 1e-05, "hidden_act": "silu", "torch_dtype": "bfloat16",
         "tie_word_embeddings": False}
    if layout in ("llama_gqa", "llama_sharded"):
        c.update(architectures=["LlamaForCausalLM"], model_type="llama", num_attention_heads=8,
                 num_key_value_heads=2, head_dim=16, rope_theta=10000.0)
    elif layout == "qwen3":
        c.update(architectures=["Qwen3ForCausalLM"], model_type="qwen3", num_attention_heads=4,
                 num_key_value_heads=2, head_dim=48, rope_theta=1000000.0, rms_norm_eps=1e-06,
                 max_position_embeddings=40960)
    elif layout == "phi3":
        c.update(architectures=["Phi3ForCausalLM"], model_type="phi3", hidden_size=96, num_attention_heads=6,
                 num_key_value_heads=2, partial_rotary_factor=0.75, rope_theta=10000.0, intermediate_size=192,
                 max_position_embeddings=4096)
    return c


def dims(layout, cfg):
    """(hidden, heads, kv_heads, hd, layers, r, base, intermediate, vocab) read from the config."""
    if layout == "meta":
        D, H = cfg["dim"], cfg["n_heads"]
        ffn = int(cfg["ffn_dim_multiplier"] * int(2 * 4 * D / 3))
        ffn = cfg["multiple_of"] * ((ffn + cfg["multiple_of"] - 1) // cfg["multiple_of"])
        return D, H, cfg["n_kv_heads"], D // H, cfg["n_layers"], D // H, float(cfg["rope_theta"]), ffn, cfg["vocab_size"]
    c = cfg.get("text_config", cfg)
    D, H = c["hidden_size"], c["num_attention_heads"]
    if layout in ("falcon_mq", "falcon_new"):  # FalconAttention: num_kv_heads if new decoder, else 1 (multi_query)
        KV = c["num_kv_heads"] if layout == "falcon_new" else 1
        return D, H, KV, D // H, c["num_hidden_layers"], D // H, float(c["rope_theta"]), 4 * D, c["vocab_size"]
    hd = c.get("head_dim", D // H)
    frac = c.get("rotary_pct", c.get("partial_rotary_factor", 1.0))
    r = int(hd * frac)
    r -= r % 2
    base = float(c.get("rotary_emb_base", c.get("rope_theta")))
    return D, H, c.get("num_key_value_heads", H), hd, c["num_hidden_layers"], r, base, c["intermediate_size"], c["vocab_size"]


def pair_rows(layout, i, r):
    return (2 * i, 2 * i + 1) if layout == "meta" else (i, i + r // 2)


def to_bf16(x):
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def from_bf16(u16):
    return (u16.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def build(layout, cfg, rng):
    """name -> float32 array of the layout's real tensors, with the planted pair; returns (tensors, planted)."""
    D, H, KV, hd, L, r, _, I, V = dims(layout, cfg)
    n = lambda *s: (rng.standard_normal(s) * 0.02).astype(np.float32)
    one_plus_w = layout == "gemma3"
    nw = lambda *s: ((0.0 if one_plus_w else 1.0) + 0.1 * rng.standard_normal(s)).astype(np.float32)
    P, kvh = r // 2 - 2, 1 // (H // KV)
    t = {}
    for l in range(L):
        q, k, v, o = n(H * hd, D), n(KV * hd, D), n(KV * hd, D), n(D, H * hd)
        if l == L - 1:
            for row in pair_rows(layout, P, r):
                q[hd + row] *= 30
                k[kvh * hd + row] *= 30
        if layout == "meta":
            p = f"layers.{l}."
            t.update({p + "attention.wq.weight": q, p + "attention.wk.weight": k, p + "attention.wv.weight": v,
                      p + "attention.wo.weight": o, p + "feed_forward.w1.weight": n(I, D),
                      p + "feed_forward.w2.weight": n(D, I), p + "feed_forward.w3.weight": n(I, D),
                      p + "attention_norm.weight": nw(D), p + "ffn_norm.weight": nw(D)})
        elif layout in ("falcon_mq", "falcon_new"):
            p = f"transformer.h.{l}."
            if layout == "falcon_mq":  # all q heads, one k head, one v head
                qkv = np.concatenate([q, k, v])
            else:  # per key group: its H/KV q heads, then its k head, then its v head
                g = H // KV
                qkv = np.concatenate([np.concatenate([q[(j * g) * hd:(j + 1) * g * hd], k[j * hd:(j + 1) * hd],
                                                      v[j * hd:(j + 1) * hd]]) for j in range(KV)])
            t.update({p + "self_attention.query_key_value.weight": qkv, p + "self_attention.dense.weight": o,
                      p + "mlp.dense_h_to_4h.weight": n(I, D), p + "mlp.dense_4h_to_h.weight": n(D, I)})
            norms = ("ln_attn", "ln_mlp") if layout == "falcon_new" else ("input_layernorm",)
            for name in norms:
                t.update({p + name + ".weight": nw(D), p + name + ".bias": n(D)})
        elif layout == "gpt_neox":
            p = f"gpt_neox.layers.{l}."
            qkv = np.stack([q.reshape(H, hd, D), k.reshape(H, hd, D), v.reshape(H, hd, D)], axis=1)
            t.update({p + "attention.query_key_value.weight": qkv.reshape(3 * H * hd, D),
                      p + "attention.query_key_value.bias": n(3 * D), p + "attention.dense.weight": o,
                      p + "attention.dense.bias": n(D), p + "mlp.dense_h_to_4h.weight": n(I, D),
                      p + "mlp.dense_h_to_4h.bias": n(I), p + "mlp.dense_4h_to_h.weight": n(D, I),
                      p + "mlp.dense_4h_to_h.bias": n(D), p + "input_layernorm.weight": nw(D),
                      p + "input_layernorm.bias": n(D), p + "post_attention_layernorm.weight": nw(D),
                      p + "post_attention_layernorm.bias": n(D)})
        else:
            p = ("language_model.model." if layout == "gemma3" else "model.") + f"layers.{l}."
            if layout == "phi3":
                t.update({p + "self_attn.qkv_proj.weight": np.concatenate([q, k, v]),
                          p + "mlp.gate_up_proj.weight": n(2 * I, D)})
            else:
                t.update({p + "self_attn.q_proj.weight": q, p + "self_attn.k_proj.weight": k,
                          p + "self_attn.v_proj.weight": v, p + "mlp.gate_proj.weight": n(I, D),
                          p + "mlp.up_proj.weight": n(I, D)})
            t.update({p + "self_attn.o_proj.weight": o, p + "mlp.down_proj.weight": n(D, I),
                      p + "input_layernorm.weight": nw(D), p + "post_attention_layernorm.weight": nw(D)})
            if layout == "qwen3":
                t[p + "self_attn.q_norm.weight"] = (1 + 0.3 * rng.standard_normal(hd)).astype(np.float32)
                t[p + "self_attn.k_norm.weight"] = (1 + 0.3 * rng.standard_normal(hd)).astype(np.float32)
            if layout == "gemma3":
                t[p + "self_attn.q_norm.weight"] = (0.3 * rng.standard_normal(hd)).astype(np.float32)
                t[p + "self_attn.k_norm.weight"] = (0.3 * rng.standard_normal(hd)).astype(np.float32)
                t[p + "pre_feedforward_layernorm.weight"] = nw(D)
                t[p + "post_feedforward_layernorm.weight"] = nw(D)
    if layout == "meta":
        t.update({"tok_embeddings.weight": n(V, D), "norm.weight": nw(D), "output.weight": n(V, D)})
    elif layout in ("falcon_mq", "falcon_new"):
        t.update({"transformer.word_embeddings.weight": n(V, D), "transformer.ln_f.weight": nw(D),
                  "transformer.ln_f.bias": n(D), "lm_head.weight": n(V, D)})
    elif layout == "gpt_neox":
        t.update({"gpt_neox.embed_in.weight": n(V, D), "gpt_neox.final_layer_norm.weight": nw(D),
                  "gpt_neox.final_layer_norm.bias": n(D), "embed_out.weight": n(V, D)})
    elif layout == "gemma3":  # tied embeddings (no lm_head), plus vision tensors the reader must ignore
        vc = cfg["vision_config"]
        Dv, ps = vc["hidden_size"], vc["patch_size"]
        t.update({"language_model.model.embed_tokens.weight": n(V, D), "language_model.model.norm.weight": nw(D),
                  "vision_tower.vision_model.embeddings.patch_embedding.weight": n(Dv, 3, ps, ps),
                  "vision_tower.vision_model.embeddings.patch_embedding.bias": n(Dv),
                  "vision_tower.vision_model.encoder.layers.0.self_attn.q_proj.weight": n(Dv, Dv),
                  "vision_tower.vision_model.post_layernorm.weight": nw(Dv),
                  "multi_modal_projector.mm_input_projection_weight": n(Dv, D),
                  "multi_modal_projector.mm_soft_emb_norm.weight": nw(Dv)})
    else:
        t.update({"model.embed_tokens.weight": n(V, D), "model.norm.weight": nw(D), "lm_head.weight": n(V, D)})
    return t, {"layer": L - 1, "head": 1, "pair": P}


def query_key(layout, cfg, T, l):
    """(Wq [H*hd, D], Wk [KV*hd, D], gq [hd], gk [hd]) in float64, re-extracted from the stored BF16 tensors."""
    D, H, KV, hd, _, _, _, _, _ = dims(layout, cfg)
    ones = np.ones(hd)
    if layout == "meta":
        p = f"layers.{l}.attention."
        return from_bf16(T[p + "wq.weight"]), from_bf16(T[p + "wk.weight"]), ones, ones
    if layout == "falcon_mq":
        W = from_bf16(T[f"transformer.h.{l}.self_attention.query_key_value.weight"])
        return W[:H * hd], W[H * hd:(H + 1) * hd], ones, ones
    if layout == "falcon_new":  # view(num_kv_heads, heads/kv + 2, hd, D), as FalconAttention._split_heads
        W = from_bf16(T[f"transformer.h.{l}.self_attention.query_key_value.weight"]).reshape(KV, H // KV + 2, hd, D)
        return W[:, :-2].reshape(H * hd, D), W[:, -2].reshape(KV * hd, D), ones, ones
    if layout == "gpt_neox":
        W = from_bf16(T[f"gpt_neox.layers.{l}.attention.query_key_value.weight"]).reshape(H, 3, hd, D)
        return W[:, 0].reshape(H * hd, D), W[:, 1].reshape(H * hd, D), ones, ones
    p = ("language_model.model." if layout == "gemma3" else "model.") + f"layers.{l}.self_attn."
    if layout == "phi3":
        W = from_bf16(T[p + "qkv_proj.weight"])
        return W[:H * hd], W[H * hd:(H + KV) * hd], ones, ones
    q, k = from_bf16(T[p + "q_proj.weight"]), from_bf16(T[p + "k_proj.weight"])
    if layout == "qwen3":
        return q, k, from_bf16(T[p + "q_norm.weight"]), from_bf16(T[p + "k_norm.weight"])
    if layout == "gemma3":
        return q, k, 1 + from_bf16(T[p + "q_norm.weight"]), 1 + from_bf16(T[p + "k_norm.weight"])
    return q, k, ones, ones


def reference_rows(layout, cfg, T):
    D, H, KV, hd, L, r, base, _, _ = dims(layout, cfg)
    rows = []
    for l in range(L):
        Wq, Wk, gq, gk = query_key(layout, cfg, T, l)
        layer_base = base
        if layout == "gemma3" and (l + 1) % cfg["text_config"]["sliding_window_pattern"] != 0:
            layer_base = float(cfg["text_config"]["rope_local_base_freq"])
        for h in range(H):
            kv = h // (H // KV)
            per = []
            for i in range(r // 2):
                a, b = pair_rows(layout, i, r)
                qa, qb = Wq[h * hd + a], Wq[h * hd + b]
                ka, kb = Wk[kv * hd + a], Wk[kv * hd + b]
                qn = math.sqrt(gq[a] ** 2 * float(qa @ qa) + gq[b] ** 2 * float(qb @ qb))
                kn = math.sqrt(gk[a] ** 2 * float(ka @ ka) + gk[b] ** 2 * float(kb @ kb))
                wl = 2 * math.pi / (layer_base ** (-2.0 * i / r))
                per.append([l, h, kv, i, wl, qn, kn, qn * kn])
            total = sum(x[7] for x in per)
            rows += [x + [x[7] / total] for x in per]
    return rows


def write_safetensors(path, tensors):
    """tensors: name -> uint16 array. Data in name order (all BF16), header padded with spaces to 8 bytes."""
    names, header, off = sorted(tensors), {"__metadata__": {"format": "pt"}}, 0
    for nm in names:
        nb = tensors[nm].nbytes
        header[nm] = {"dtype": "BF16", "shape": list(tensors[nm].shape), "data_offsets": [off, off + nb]}
        off += nb
    h = json.dumps(header, separators=(",", ":")).encode("utf-8")
    h += b" " * (-(8 + len(h)) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for nm in names:
            f.write(tensors[nm].astype("<u2").tobytes())
    return off


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--layout", required=True, choices=LAYOUTS)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    cfg = make_config(a.layout)
    f32, planted = build(a.layout, cfg, np.random.default_rng(a.seed))
    T = {nm: to_bf16(x) for nm, x in f32.items()}
    with open(os.path.join(a.out, "params.json" if a.layout == "meta" else "config.json"), "w") as f:
        f.write(json.dumps(cfg, indent=2, sort_keys=True) + "\n")
    if a.layout == "meta":
        write_safetensors(os.path.join(a.out, "consolidated.00.safetensors"), T)
    elif a.layout == "llama_sharded":
        files = ("model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors")
        first = lambda nm: nm.startswith("model.layers.0.") or nm.startswith("model.embed_tokens.")
        wmap = {nm: files[0] if first(nm) else files[1] for nm in T}
        total = sum(write_safetensors(os.path.join(a.out, fn), {nm: T[nm] for nm in T if wmap[nm] == fn})
                    for fn in files)
        with open(os.path.join(a.out, "model.safetensors.index.json"), "w") as f:
            f.write(json.dumps({"metadata": {"total_size": total}, "weight_map": wmap}, indent=2, sort_keys=True) + "\n")
    else:
        write_safetensors(os.path.join(a.out, "model.safetensors"), T)
    with open(os.path.join(a.out, "planted.json"), "w") as f:
        f.write(json.dumps(planted) + "\n")
    with open(os.path.join(a.out, "reference.csv"), "w") as f:
        f.write("layer,head,kv_head,pair,original_wavelength,q_norm,k_norm,usage,share\n")
        for row in reference_rows(a.layout, cfg, T):
            f.write("%d,%d,%d,%d," % tuple(row[:4]) + ",".join("%.17g" % x for x in row[4:]) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
