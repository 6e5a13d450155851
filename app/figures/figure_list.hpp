// The figures, in panel order (panel 1 first): one line each. A figure NAME is defined in
// figures/NAME_figure.cpp by `const FigureDescriptor& NAME_figure()`; CMake picks the file up, and
// everything else (pages, keys, sessions, lessons, export, --help, tests) reads the registry.
#pragma once

#define ROPE_FIGURE_LIST(FIGURE) \
    FIGURE(vectors)              \
    FIGURE(heatmap)              \
    FIGURE(sweep)                \
    FIGURE(decay)                \
    FIGURE(context)              \
    FIGURE(scores)               \
    FIGURE(pairing)              \
    FIGURE(precision)            \
    FIGURE(sinusoidal)           \
    FIGURE(partial_vs_proportional) \
    FIGURE(model_anatomy)        \
    FIGURE(patch_grid)           \
    FIGURE(position_ids)         \
    FIGURE(video)                \
    FIGURE(video_frames)         \
    FIGURE(video_ids)            \
    FIGURE(model_card)           \
    FIGURE(trained)              \
    FIGURE(relatives)            \
    FIGURE(mla)                  \
    /* a new figure: one more FIGURE(name) line above this one */
