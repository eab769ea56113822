#!/usr/bin/env python3
"""Writes a RenLib library (.lib) of N random lines for reading benchmarks.

    python3 bench/renlib_gen.py --lines 100000 --plies 40 --seed 1 -o lines.lib
    build-rel/cli/gounki validate --quiet --stats --threads 1 lines.lib

The library: the 20-byte header of version 3.0, then the nodes in pre-order, two bytes each (the
point as (row << 4) | (column + 1), rows and columns from the top-left; then the flags: 0x80 a
sibling follows this node's subtree, 0x40 no child). The root is h8; under it N lines of random
distinct points, each line a chain that ends in a leaf: N games when read line by line.
"""
import argparse
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=100000)
    ap.add_argument("--plies", type=int, default=40, help="moves a line, the root's h8 included")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    centre = (7, 7)
    points = [(r, c) for r in range(15) for c in range(15) if (r, c) != centre]
    out = bytearray(b"\xffRenLib\xff\x03\x00" + b"\xff" * 10)
    out += bytes([(centre[0] << 4) | (centre[1] + 1), 0x00])
    for i in range(a.lines):
        line = rng.sample(points, a.plies - 1)
        for k, (r, c) in enumerate(line):
            flags = 0
            if k == 0 and i + 1 < a.lines:
                flags |= 0x80
            if k + 1 == len(line):
                flags |= 0x40
            out += bytes([(r << 4) | (c + 1), flags])
    with open(a.output, "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main()
