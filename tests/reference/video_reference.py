#!/usr/bin/python3
"""Independent reference for the position ids of text + one video + text, written in numpy the way the
models' published code does it (not the way RoPE Explorer's core does):

- Qwen2-VL, transformers' Qwen2VLModel.get_rope_index (v4.57.6 video branch): t_index = arange(T);
- Qwen2.5-VL, Qwen's get_rope_index_25 (qwen-vl-finetune/qwenvl/data/rope2d.py) and transformers
  4.49-4.51: time_tensor = expanded_range * second_per_grid_t * tokens_per_second, an int64 tensor
  times a Python float, so float32 in torch, then .long(); second_per_grid_t = temporal_patch_size /
  fps (processing_qwen2_5_vl.py); "int_bug": transformers 4.52-5.x, torch.as_tensor(second_per_grid_t,
  dtype=int64) before the product;
- Qwen3-VL, processing_qwen3_vl.py (_calculate_timestamps: frame indices padded with the last one,
  idx / fps, the mean of each temporal patch's first and last; the text f"<{t:.1f} seconds>" then
  <|vision_start|>, the frame's pads, <|vision_end|>) and get_rope_index (video_grid_thw split into T
  grids of (1, H, W), each laid out as an image);
- VideoRoPE, modeling_videorope.py (Wiselnn570/VideoRoPE): get_t_scale_rope_index (the diagonal layout,
  t_index * scale_factor, text after from the t row's max + 1) and apply_m_modify_multimodal_rotary_pos_emb
  (which of t, h, w each frequency pair reads).

Reads a JSON list of cases from the file named on the command line, prints a JSON list of results.
{"kind": "video_index", "rule": "frame_index"|"seconds"|"timestamps"|"videorope", "text_before": a,
 "rows": r, "cols": c, "frames": f, "temporal_patch_size": p, "fps": x, "tokens_per_second": y,
 "text_after": b, "int_bug": bool, "spacing": d} -> {"ids": [[t, h, w], ...], "kinds": [...], "frames": [...]}
{"kind": "videorope_axes", "section": [t, h, w]} -> {"axes": ["h", "w", ..., "t"]} (one per frequency pair)
{"kind": "video_scores", "head_dim": d, "base": b, "axes": [...], "ids": [[t, h, w], ...], "q": [...],
 "k": [...], "query": i} -> {"similarity": [...]}: cos similarity of rotated q at token i and rotated k
 at every token (rotate_half pairing)
"""
import json
import re
import sys

import numpy as np

TEXT, VIDEO, VISION_START, VISION_END = 100, 151656, 151652, 151653
SPATIAL_MERGE = 2


def llm_grid(frames, rows, cols):
    return frames, rows, cols  # after merging: the processor's grid is (T, 2 rows, 2 cols)


def qwen_video_ids(text_before, grid, text_after, second_per_grid_t, tokens_per_second, rule, int_bug):
    """get_rope_index's loop for text, one video, text (Qwen2-VL or Qwen2.5-VL)."""
    T, H, W = grid
    pos = []
    pos.append(np.broadcast_to(np.arange(text_before).reshape(1, -1), (3, text_before)))
    st_idx = pos[-1].max() + 1 if text_before > 0 else 0
    text_len = 0
    expanded_range = np.broadcast_to(np.arange(T, dtype=np.int64).reshape(-1, 1), (T, H * W))
    if rule == "frame_index":
        t_index = expanded_range.flatten()
    else:
        if int_bug:
            spg = np.int64(second_per_grid_t)  # torch.as_tensor(x, dtype=int64) truncates toward zero
            tps = tokens_per_second
            if float(tps).is_integer():
                time_tensor = expanded_range * spg * np.int64(tps)
            else:
                time_tensor = (expanded_range * spg).astype(np.float32) * np.float32(tps)
        else:
            # int64 tensor * Python float -> float32 (torch's default dtype), then * tokens_per_second
            time_tensor = expanded_range.astype(np.float32) * np.float32(second_per_grid_t)
            time_tensor = time_tensor * np.float32(tokens_per_second)
        t_index = np.trunc(time_tensor).astype(np.int64).flatten()  # .long()
    h_index = np.broadcast_to(np.arange(H).reshape(1, -1, 1), (T, H, W)).flatten()
    w_index = np.broadcast_to(np.arange(W).reshape(1, 1, -1), (T, H, W)).flatten()
    pos.append(np.stack([t_index, h_index, w_index]) + text_len + st_idx)
    st_idx = max(p.max() for p in pos if p.size) + 1
    pos.append(np.broadcast_to(np.arange(text_after).reshape(1, -1), (3, text_after)) + st_idx)
    ids = np.concatenate(pos, axis=1).T
    kinds = ["text"] * text_before + ["video"] * (T * H * W) + ["text"] * text_after
    frames = [None] * text_before + [int(k) for k in np.repeat(np.arange(T), H * W)] + [None] * text_after
    return ids, kinds, frames


def qwen3_timestamps(frames, fps, temporal_patch_size):
    indices = list(range(frames))
    if len(indices) % temporal_patch_size != 0:
        indices.extend(indices[-1] for _ in range(temporal_patch_size - len(indices) % temporal_patch_size))
    timestamps = [idx / fps for idx in indices]
    return [(timestamps[i] + timestamps[i + temporal_patch_size - 1]) / 2 for i in range(0, len(timestamps), temporal_patch_size)]


def timestamp_tokens(text):
    # Qwen's tokenizer splits digits one by one: "<", each digit, ".", " seconds", ">"
    return re.findall(r"<|\d|\.| seconds|>", text)


def qwen3_video_ids(text_before, grid, text_after, fps, temporal_patch_size, frames):
    T, H, W = grid
    stamps = qwen3_timestamps(frames, fps, temporal_patch_size)
    tokens, kinds, frame_of = [], [], []
    tokens += [TEXT] * text_before
    kinds += ["text"] * text_before
    frame_of += [None] * text_before
    for k in range(T):
        text = f"<{stamps[k]:.1f} seconds>"
        pieces = timestamp_tokens(text)
        assert "".join(pieces) == text
        tokens += [TEXT] * len(pieces) + [VISION_START] + [VIDEO] * (H * W) + [VISION_END]
        kinds += ["timestamp"] * len(pieces) + ["text"] + ["video"] * (H * W) + ["text"]
        frame_of += [k] * len(pieces) + [None] + [k] * (H * W) + [None]
    tokens += [TEXT] * text_after
    kinds += ["text"] * text_after
    frame_of += [None] * text_after
    # get_rope_index with video_grid_thw split into T grids of (1, H, W)
    pos, st = [], 0
    for _ in range(T):
        ed = tokens.index(VIDEO, st)
        text_len = ed - st
        st_idx = pos[-1].max() + 1 if pos else 0
        pos.append(np.broadcast_to(np.arange(text_len).reshape(1, -1), (3, text_len)) + st_idx)
        t_index = np.zeros(H * W, dtype=np.int64)
        h_index = np.broadcast_to(np.arange(H).reshape(-1, 1), (H, W)).flatten()
        w_index = np.broadcast_to(np.arange(W).reshape(1, -1), (H, W)).flatten()
        pos.append(np.stack([t_index, h_index, w_index]) + text_len + st_idx)
        st = ed + H * W
    if st < len(tokens):
        st_idx = pos[-1].max() + 1
        text_len = len(tokens) - st
        pos.append(np.broadcast_to(np.arange(text_len).reshape(1, -1), (3, text_len)) + st_idx)
    return np.concatenate(pos, axis=1).T, kinds, frame_of


def videorope_ids(text_before, grid, text_after, scale_factor):
    """modeling_videorope.py get_t_scale_rope_index: the diagonal layout and the temporal spacing."""
    T, H, W = grid
    pos = [np.broadcast_to(np.arange(text_before, dtype=np.float64).reshape(1, -1), (3, text_before))]
    st_idx = pos[-1][0].max() + 1 if text_before > 0 else 0
    text_len = 0
    t_index = np.broadcast_to(np.arange(T).reshape(-1, 1), (T, H * W)).flatten().astype(np.float64)
    h_index = np.broadcast_to(np.arange(H).reshape(1, -1, 1), (T, H, W)).flatten() - (H - 1) // 2
    w_index = np.broadcast_to(np.arange(W).reshape(1, 1, -1), (T, H, W)).flatten() - (W - 1) // 2
    t_index = t_index * scale_factor
    t_index = t_index + text_len + st_idx
    h_index = h_index + t_index
    w_index = w_index + t_index
    pos.append(np.stack([t_index, h_index, w_index]))
    st_idx = pos[-1][0].max() + 1  # the next text: the t row's max + 1
    pos.append(np.broadcast_to(np.arange(text_after, dtype=np.float64).reshape(1, -1), (3, text_after)) + st_idx)
    ids = np.concatenate(pos, axis=1).T
    kinds = ["text"] * text_before + ["video"] * (T * H * W) + ["text"] * text_after
    frames = [None] * text_before + [int(k) for k in np.repeat(np.arange(T), H * W)] + [None] * text_after
    return ids, kinds, frames


def video_index(case):
    a, b = case["text_before"], case["text_after"]
    tps_frames = case["temporal_patch_size"]
    T = -(-case["frames"] // tps_frames)  # the processor pads the last temporal patch with the last frame
    grid = llm_grid(T, case["rows"], case["cols"])
    rule = case["rule"]
    if rule == "timestamps":
        ids, kinds, frames = qwen3_video_ids(a, grid, b, case["fps"], tps_frames, case["frames"])
    elif rule == "videorope":
        ids, kinds, frames = videorope_ids(a, grid, b, case["spacing"])
    else:
        second_per_grid_t = tps_frames / case["fps"]  # the processor, in Python floats
        ids, kinds, frames = qwen_video_ids(a, grid, b, second_per_grid_t, case["tokens_per_second"], rule, case.get("int_bug", False))
    return {"ids": np.asarray(ids, dtype=np.float64).tolist(), "kinds": kinds, "frames": frames}


def videorope_axes(case):
    """Which row (0 t, 1 h, 2 w) apply_m_modify_multimodal_rotary_pos_emb takes for each of the 64 dims of
    one half: the loop of its code over mrope_section = [t, h + w] * 2 reversed."""
    s = case["section"]
    section = [s[0], s[1] + s[2]]
    section = section * 2
    section = section[::-1]
    rows = []
    for i, n in enumerate(section):
        if i % 2 == 0:
            for j in range(n):
                rows.append(1 if j % 2 == 0 else 2)
        else:
            rows.extend([0] * n)
    half = (s[0] + s[1] + s[2])
    first = rows[:half]  # dims 0..half-1: frequency pair j at dim j (the second half repeats it)
    assert rows[half:] == first
    return {"axes": ["thw"[r] for r in first]}


def rotate_half(x):
    h = x.shape[-1] // 2
    return np.concatenate([-x[..., h:], x[..., :h]], axis=-1)


def video_scores(case):
    d, base = case["head_dim"], case["base"]
    inv_freq = 1.0 / (base ** (np.arange(0, d, 2, dtype=np.float64) / d))
    axes = case["axes"]
    ids = np.asarray(case["ids"], dtype=np.float64)  # (seq, 3)
    row = np.array(["thw".index(a) for a in axes])
    angles = ids[:, row] * inv_freq[None, :]  # (seq, d/2): pair j reads its axis' id
    emb = np.concatenate([angles, angles], axis=-1)
    cos, sin = np.cos(emb), np.sin(emb)
    q, k = np.asarray(case["q"], dtype=np.float64), np.asarray(case["k"], dtype=np.float64)
    i = case["query"]
    rq = q * cos[i] + rotate_half(q) * sin[i]
    rk = k[None, :] * cos + rotate_half(k[None, :]) * sin
    sim = rk @ rq / (np.linalg.norm(q) * np.linalg.norm(k))
    return {"similarity": sim.tolist()}


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    out = []
    for case in cases:
        kind = case["kind"]
        if kind == "video_index":
            out.append(video_index(case))
        elif kind == "videorope_axes":
            out.append(videorope_axes(case))
        elif kind == "video_scores":
            out.append(video_scores(case))
        else:
            raise SystemExit(f"unknown kind {kind}")
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
