#!/usr/bin/python3
"""Independent float64 reference for RoPE on several position axes, written in numpy the way the
models' published code does it (not the way RoPE Explorer's core does):

- transformers' Qwen2-VL get_rope_index (the text/vision loop), the text rotary embedding's cos/sin of
  shape (3, seq, head_dim), Qwen2-VL / Qwen2.5-VL apply_multimodal_rotary_pos_emb (mrope_section * 2,
  cos.split, m[i % 3]) and Qwen3-VL apply_interleaved_mrope (the slice assignment), then rotate_half;
- naver-ai/rope-vit compute_axial_cis (Heo et al. 2024, RoPE-Axial) with complex adjacent pairs;
- transformers' Pixtral rotary embedding (freqs[::2] for rows, freqs[1::2] for columns, rotate_half).

Reads a JSON list of cases from the file named on the command line, prints a JSON list of results.
Each case: {"kind": "rope_index", "text_before": a, "rows": r, "cols": c, "text_after": b}
or {"kind": "mrope", "head_dim": d, "base": b, "section": [t, h, w], "interleaved": bool, "pairing": "half"|"interleaved",
    "ids": [[t, h, w], ...], "q": [...], "k": [...], "score_at": [[i, j], ...],
    "grid": {"rows": r, "cols": c, "query": [row, col]}}
or {"kind": "axial", "schedule": "heo"|"pixtral"|"split", "head_dim": d, "base": b, "pairing": "half"|"interleaved",
    "rows": r, "cols": c, "query": [row, col], "q": [...], "k": [...]}
or {"kind": "hf_mrope", "path": config.json}: the M-RoPE settings of a Qwen VL config, read as transformers does.
"""
import json
import sys

import numpy as np

IMAGE_TOKEN, TEXT_TOKEN, VISION_START = 151655, 100, 151652
SPATIAL_MERGE = 2


def get_rope_index(input_ids, image_grid_thw):
    """Qwen2VLModel.get_rope_index for one sequence of text and images (no video, no padding)."""
    input_tokens = list(input_ids)
    llm_pos_ids_list = []
    st = 0
    for t, h, w in image_grid_thw:
        ed = input_tokens.index(IMAGE_TOKEN, st)
        llm_grid_t, llm_grid_h, llm_grid_w = t, h // SPATIAL_MERGE, w // SPATIAL_MERGE
        text_len = ed - st
        st_idx = llm_pos_ids_list[-1].max() + 1 if llm_pos_ids_list else 0
        llm_pos_ids_list.append(np.broadcast_to(np.arange(text_len).reshape(1, -1), (3, text_len)) + st_idx)
        t_index = np.broadcast_to(np.arange(llm_grid_t).reshape(-1, 1), (llm_grid_t, llm_grid_h * llm_grid_w)).flatten()
        h_index = np.broadcast_to(np.arange(llm_grid_h).reshape(1, -1, 1), (llm_grid_t, llm_grid_h, llm_grid_w)).flatten()
        w_index = np.broadcast_to(np.arange(llm_grid_w).reshape(1, 1, -1), (llm_grid_t, llm_grid_h, llm_grid_w)).flatten()
        llm_pos_ids_list.append(np.stack([t_index, h_index, w_index]) + text_len + st_idx)
        st = ed + llm_grid_t * llm_grid_h * llm_grid_w
    if st < len(input_tokens):
        st_idx = llm_pos_ids_list[-1].max() + 1 if llm_pos_ids_list else 0
        text_len = len(input_tokens) - st
        llm_pos_ids_list.append(np.broadcast_to(np.arange(text_len).reshape(1, -1), (3, text_len)) + st_idx)
    return np.concatenate(llm_pos_ids_list, axis=1)  # (3, seq)


def rope_index(case):
    a, r, c, b = case["text_before"], case["rows"], case["cols"], case["text_after"]
    # the processor's layout: text ... <|vision_start|> image pads ... text
    ids = [TEXT_TOKEN] * a + [IMAGE_TOKEN] * (r * c) + [TEXT_TOKEN] * b
    if a > 0:
        ids[a - 1] = VISION_START
    pos = get_rope_index(ids, [(1, r * SPATIAL_MERGE, c * SPATIAL_MERGE)])
    kinds = ["image" if t == IMAGE_TOKEN else "text" for t in ids]
    return {"ids": pos.T.tolist(), "kinds": kinds}


def text_rotary(inv_freq, position_ids):
    """Qwen2VLRotaryEmbedding.forward: freqs (3, seq, d/2) = inv_freq x position_ids per axis row."""
    inv_freq_expanded = inv_freq[None, :, None]  # (1, d/2, 1), expanded to 3 rows by broadcasting
    position_ids_expanded = position_ids[:, None, :].astype(np.float64)  # (3, 1, seq)
    return np.transpose(inv_freq_expanded @ position_ids_expanded, (0, 2, 1))  # (3, seq, d/2)


def multimodal_select(cos, mrope_section):
    """apply_multimodal_rotary_pos_emb's selection on a (3, seq, head_dim) table."""
    sizes = mrope_section * 2
    chunks = np.split(cos, np.cumsum(sizes)[:-1], axis=-1)
    return np.concatenate([m[i % 3] for i, m in enumerate(chunks)], axis=-1)


def interleaved_mrope(freqs, mrope_section):
    """Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope on (3, seq, d/2)."""
    freqs_t = freqs[0].copy()
    for dim, offset in enumerate((1, 2), start=1):
        length = mrope_section[dim] * 3
        idx = slice(offset, length, 3)
        freqs_t[..., idx] = freqs[dim, ..., idx]
    return freqs_t


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return np.concatenate((-x2, x1), axis=-1)


def rotate_every_two(x):
    out = np.empty_like(x)
    out[..., 0::2] = -x[..., 1::2]
    out[..., 1::2] = x[..., 0::2]
    return out


def mrope_tables(inv_freq, position_ids, section, interleaved):
    """(angles per pair (seq, d/2), cos (seq, head_dim), sin (seq, head_dim)) as each model's code builds them."""
    freqs = text_rotary(inv_freq, position_ids)
    if interleaved:  # Qwen3-VL: select on the d/2 frequencies, then cat and cos
        selected = interleaved_mrope(freqs, section)
        emb = np.concatenate((selected, selected), axis=-1)
        return selected, np.cos(emb), np.sin(emb)
    # Qwen2-VL / 2.5-VL: cat and cos for all three rows, then select chunks of cos and sin
    emb = np.concatenate((freqs, freqs), axis=-1)
    angles = multimodal_select(emb, list(section))
    return angles[..., : len(inv_freq)], multimodal_select(np.cos(emb), list(section)), multimodal_select(np.sin(emb), list(section))


def apply_tables(x, cos, sin, angles, pairing):
    """q * cos + rotate_half(q) * sin (the models' pairing); for adjacent pairs the same angles, each repeated."""
    if pairing == "half":
        return x * cos + rotate_half(x) * sin
    emb = np.repeat(angles, 2, axis=-1)
    return x * np.cos(emb) + rotate_every_two(x) * np.sin(emb)


def axis_sets(inv_freq, section, interleaved):
    """Which pairs turn with t, h and w: probe with a position of 1 on one axis and 0 on the others."""
    out = {}
    for name, probe in (("t", [1, 0, 0]), ("h", [0, 1, 0]), ("w", [0, 0, 1])):
        angles, _, _ = mrope_tables(inv_freq, np.array(probe, dtype=np.int64).reshape(3, 1), section, interleaved)
        out[name] = np.nonzero(angles[0] != 0)[0].tolist()
    return out


def mrope(case):
    d, base = int(case["head_dim"]), float(case["base"])
    section, interleaved, pairing = case["section"], bool(case["interleaved"]), case.get("pairing", "half")
    inv_freq = 1.0 / (base ** (np.arange(0, d, 2, dtype=np.int64).astype(np.float64) / d))
    out = {"theta": inv_freq.tolist(), "axes": axis_sets(inv_freq, section, interleaved)}
    ids = np.array(case.get("ids") or [[0, 0, 0]], dtype=np.int64).T  # (3, seq)
    angles, cos, sin = mrope_tables(inv_freq, ids, section, interleaved)
    out["angles"] = angles.tolist()
    out["cos"], out["sin"] = cos.tolist(), sin.tolist()
    q, k = np.array(case["q"], dtype=np.float64), np.array(case["k"], dtype=np.float64)
    qs = apply_tables(np.broadcast_to(q, cos.shape), cos, sin, angles, pairing)
    ks = apply_tables(np.broadcast_to(k, cos.shape), cos, sin, angles, pairing)
    out["scores"] = [float(qs[i] @ ks[j]) for i, j in case.get("score_at", [])]
    if "grid" in case:  # one image: every patch (t0, t0 + row, t0 + col) from get_rope_index
        g = case["grid"]
        rows, cols, (qr, qc) = g["rows"], g["cols"], g["query"]
        pos = get_rope_index([IMAGE_TOKEN] * (rows * cols), [(1, rows * SPATIAL_MERGE, cols * SPATIAL_MERGE)])
        ga, gc, gs = mrope_tables(inv_freq, pos, section, interleaved)
        gq = apply_tables(np.broadcast_to(q, gc.shape), gc, gs, ga, pairing)
        gk = apply_tables(np.broadcast_to(k, gc.shape), gc, gs, ga, pairing)
        sim = gk @ gq[qr * cols + qc] / (np.linalg.norm(q) * np.linalg.norm(k))
        out["similarity"] = sim.reshape(rows, cols).tolist()
    return out


def init_t_xy(end_x, end_y):
    t = np.arange(end_x * end_y, dtype=np.float64)
    return t % end_x, np.floor(t / end_x)


def compute_axial_cis(dim, end_x, end_y, theta):
    """rope-vit's compute_axial_cis: (patches, dim/2) complex rotations, x (column) first, then y (row)."""
    freqs_x = 1.0 / (theta ** (np.arange(0, dim, 4)[: dim // 4].astype(np.float64) / dim))
    freqs_y = 1.0 / (theta ** (np.arange(0, dim, 4)[: dim // 4].astype(np.float64) / dim))
    t_x, t_y = init_t_xy(end_x, end_y)
    freqs_x = np.outer(t_x, freqs_x)
    freqs_y = np.outer(t_y, freqs_y)
    return np.concatenate([np.exp(1j * freqs_x), np.exp(1j * freqs_y)], axis=-1)


def heo_angles(dim, end_x, end_y, theta):
    """compute_axial_cis's angles before torch.polar (unwrapped)."""
    freqs = 1.0 / (theta ** (np.arange(0, dim, 4)[: dim // 4].astype(np.float64) / dim))
    t_x, t_y = init_t_xy(end_x, end_y)
    return np.concatenate([np.outer(t_x, freqs), np.outer(t_y, freqs)], axis=-1)


def pixtral_angles(dim, base, rows, cols):
    """PixtralRotaryEmbedding's table (patches, dim/2) indexed by h * max_width + w."""
    side = max(rows, cols)
    h, w = np.arange(side), np.arange(side)
    freqs = 1.0 / (base ** (np.arange(0, dim, 2).astype(np.float64) / dim))
    freqs_h = np.outer(h, freqs[::2])
    freqs_w = np.outer(w, freqs[1::2])
    inv = np.concatenate([np.repeat(freqs_h[:, None, :], side, axis=1), np.repeat(freqs_w[None, :, :], side, axis=0)],
                         axis=-1).reshape(-1, dim // 2)
    mesh = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    ids = (mesh[0] * side + mesh[1]).reshape(-1)  # position_ids_in_meshgrid with max_width = side
    return inv[ids]


def split_angles(dim, base, rows, cols):
    """The 1D schedule cut in two: the fast half of the pairs with the column, the slow half with the row."""
    inv = 1.0 / (base ** (np.arange(0, dim, 2).astype(np.float64) / dim))
    t_x, t_y = init_t_xy(cols, rows)
    return np.concatenate([np.outer(t_x, inv[: dim // 4]), np.outer(t_y, inv[dim // 4:])], axis=-1)


def axial(case):
    d, base, rows, cols = int(case["head_dim"]), float(case["base"]), int(case["rows"]), int(case["cols"])
    schedule, pairing = case["schedule"], case["pairing"]
    q, k = np.array(case["q"], dtype=np.float64), np.array(case["k"], dtype=np.float64)
    if schedule == "heo":
        cis = compute_axial_cis(d, cols, rows, base)
        angles = heo_angles(d, cols, rows, base)
    else:
        angles = (pixtral_angles if schedule == "pixtral" else split_angles)(d, base, rows, cols)
        cis = np.exp(1j * angles)
    patches = rows * cols
    if pairing == "interleaved":  # rope-vit apply_rotary_emb: view_as_complex on adjacent pairs
        def rotate(x):
            out = (x[0::2] + 1j * x[1::2])[None, :] * cis
            return np.stack([out.real, out.imag], axis=-1).reshape(patches, d)
    else:  # Pixtral: cat(angles, angles), x * cos + rotate_half(x) * sin
        emb = np.concatenate([angles, angles], axis=-1)

        def rotate(x):
            xb = np.broadcast_to(x, (patches, d))
            return xb * np.cos(emb) + rotate_half(xb) * np.sin(emb)
    qs, ks = rotate(q), rotate(k)
    qr, qc = case["query"]
    sim = ks @ qs[qr * cols + qc] / (np.linalg.norm(q) * np.linalg.norm(k))
    return {"similarity": sim.reshape(rows, cols).tolist(), "angles": angles.tolist()}


def hf_mrope(path):
    """transformers' reading: flat Qwen2-VL / 2.5-VL files, text_config for Qwen3-VL; rope_scaling or
    rope_parameters (where rope_theta may sit); Qwen3-VL's default section [24, 20, 20]."""
    with open(path) as f:
        c = json.load(f)
    text = c.get("text_config", c)
    params = text.get("rope_parameters") or text.get("rope_scaling") or {}
    head_dim = text.get("head_dim") or text["hidden_size"] // text["num_attention_heads"]
    base = params.get("rope_theta", text.get("rope_theta"))
    qwen3 = c.get("model_type", "").startswith("qwen3_vl")
    section = params.get("mrope_section", [24, 20, 20] if qwen3 else None)
    return {"head_dim": head_dim, "base": base, "section": section,
            "interleaved": bool(params.get("mrope_interleaved", False)),
            "max_position": text.get("max_position_embeddings")}


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    out = []
    for case in cases:
        kind = case["kind"]
        if kind == "rope_index":
            out.append(rope_index(case))
        elif kind == "mrope":
            out.append(mrope(case))
        elif kind == "axial":
            out.append(axial(case))
        elif kind == "hf_mrope":
            out.append(hf_mrope(case["path"]))
        else:
            raise ValueError(kind)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
