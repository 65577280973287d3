"""Writes a small synthetic digit set in torchvision's ImageFolder layout, the stand-in for the
MNIST download of PopTorch's tutorials: DIR/train/<digit>/<n>.png and DIR/test/<digit>/<n>.png,
28x28 grayscale. Each digit is drawn as strokes on a 7-segment layout (as a calculator shows
it), shifted by up to two pixels, with a random stroke width and noise, so a small CNN can learn
it in a few epochs and a test set measures it.

usage: make_digits.py DIR [--train N] [--test N] [--seed S]
"""
import argparse
import os
import sys

import numpy as np
from PIL import Image

# Segments a..g of a 7-segment display (top, upper right, lower right, bottom, lower left, upper
# left, middle) lit for each digit.
SEGMENTS = {
    0: "abcdef", 1: "bc", 2: "abged", 3: "abgcd", 4: "fgbc",
    5: "afgcd", 6: "afgedc", 7: "abc", 8: "abcdefg", 9: "abcdfg",
}
# Each segment as (row0, col0, row1, col1) in a 20x12 box.
BOX = {
    "a": (0, 0, 0, 11), "b": (0, 11, 10, 11), "c": (10, 11, 20, 11), "d": (20, 0, 20, 11),
    "e": (10, 0, 20, 0), "f": (0, 0, 10, 0), "g": (10, 0, 10, 11),
}


def draw(digit, rng):
    image = np.zeros((28, 28), np.float32)
    top, left = 4 + rng.integers(-2, 3), 8 + rng.integers(-2, 3)
    width = int(rng.integers(1, 3))
    for segment in SEGMENTS[digit]:
        r0, c0, r1, c1 = BOX[segment]
        image[top + r0:top + r1 + width, left + c0:left + c1 + width] = 1.0
    image += rng.normal(0.0, 0.15, image.shape).astype(np.float32)
    return Image.fromarray((np.clip(image, 0.0, 1.0) * 255).astype(np.uint8), mode="L")


def write(directory, count, rng):
    for n in range(count):
        digit = n % 10
        folder = os.path.join(directory, str(digit))
        os.makedirs(folder, exist_ok=True)
        draw(digit, rng).save(os.path.join(folder, f"{n}.png"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--train", type=int, default=640)
    parser.add_argument("--test", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.train < 10 or args.test < 10:
        parser.error("--train and --test need at least 10 images (one per digit)")
    rng = np.random.default_rng(args.seed)
    write(os.path.join(args.dir, "train"), args.train, rng)
    write(os.path.join(args.dir, "test"), args.test, rng)
    return 0


if __name__ == "__main__":
    sys.exit(main())
