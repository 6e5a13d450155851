#!/usr/bin/python3
"""Reference numbers for tests/gui/test_colours.cpp (Colours.SimulationMatchesNumpy), computed
independently with numpy: Machado, Oliveira & Fernandes (2009) colour-vision-deficiency matrices at
severity 1.0 applied in linear RGB, OKLab (Ottosson 2020) distances, WCAG 2 contrast.
Run: /usr/bin/python3 tests/reference/colour_reference.py"""
import numpy as np

SIMULATIONS = {
    "normal": np.eye(3),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]),
}
TO_LMS = np.array([[0.4122214708, 0.5363325363, 0.0514459929], [0.2119034982, 0.6806995451, 0.1073969566],
                   [0.0883024619, 0.2817188376, 0.6299787005]])
TO_LAB = np.array([[0.2104542553, 0.7936177850, -0.0040720468], [1.9779984951, -2.4285922050, 0.4505937099],
                   [0.0259040371, 0.7827717662, -0.8086757660]])


def srgb(hex_colour):
    return np.array([int(hex_colour[i:i + 2], 16) / 255 for i in (0, 2, 4)])


def linear(c):
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def oklab(hex_colour, vision="normal"):
    rgb = np.clip(SIMULATIONS[vision] @ linear(srgb(hex_colour)), 0, 1)
    return TO_LAB @ np.cbrt(TO_LMS @ rgb)


def contrast(a, b):
    ya, yb = (float(np.dot([0.2126, 0.7152, 0.0722], linear(srgb(c)))) for c in (a, b))
    return (max(ya, yb) + 0.05) / (min(ya, yb) + 0.05)


if __name__ == "__main__":
    for vision in SIMULATIONS:
        print(f"E69F00-56B4E9 {vision}: {np.linalg.norm(oklab('E69F00', vision) - oklab('56B4E9', vision)):.10f}")
    print("0072B2 normal:", oklab("0072B2"))
    print("D55E00 deuteranopia:", oklab("D55E00", "deuteranopia"))
    print("CC79A7 tritanopia:", oklab("CC79A7", "tritanopia"))
    print("009E73 protanopia:", oklab("009E73", "protanopia"))
    print(f"contrast 0072B2 on FFFFFF: {contrast('0072B2', 'FFFFFF'):.9f}")
