# SPDX-License-Identifier: Apache-2.0
"""Small inputs for the Rodinia programs whose data package is not in ../shared (Rodinia's data
is a separate download): each in the format its program reads, from a fixed seed.
Usage: inputs.py DATA_DIR"""
import os
import random
import struct
import sys

data = sys.argv[1]
rnd = random.Random(2026)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def floats(n, lo, hi, fmt="%.6f"):
    return "".join(fmt % rnd.uniform(lo, hi) + "\n" for _ in range(n))


# hotspot and hotspot3D: a temperature and a power value a line, row by row (layer by layer).
write(f"{data}/hotspot/temp_64", floats(64 * 64, 320, 340))
write(f"{data}/hotspot/power_64", floats(64 * 64, 0, 0.005, "%.9f"))
write(f"{data}/hotspot3D/temp_64x8", floats(64 * 64 * 8, 320, 340))
write(f"{data}/hotspot3D/power_64x8", floats(64 * 64 * 8, 0, 0.005, "%.9f"))

# dwt2d: raw 8-bit RGB, 64 x 64.
os.makedirs(f"{data}/dwt2d", exist_ok=True)
with open(f"{data}/dwt2d/rgb64.bin", "wb") as f:
    f.write(bytes(rnd.randrange(256) for _ in range(64 * 64 * 3)))

# b+tree: the key count, then the keys; commands: k (point queries) and j (range queries).
keys = [rnd.randrange(100000) for _ in range(2000)]
write(f"{data}/b+tree/keys.txt", f"{len(keys)}\n" + "".join(f"{k}\n" for k in keys))
write(f"{data}/b+tree/command.txt", "k 64\nj 64 10\n")

# huffman: bytes with a skewed distribution (an entropy near 3 bits).
os.makedirs(f"{data}/huffman", exist_ok=True)
with open(f"{data}/huffman/text.in", "wb") as f:
    f.write(bytes(97 + min(25, int(rnd.expovariate(1 / 3.0))) for _ in range(65536)))

# nn: hurricane records as its generator writes them, fixed-width (latitude at column 28,
# longitude at 33), in two files; the list of files.
names = ["ALEX", "BONNIE", "CHARLEY", "DANIELLE", "EARL", "FIONA", "GASTON", "HERMINE"]
for j in range(2):
    write(f"{data}/nn/cane2_{j}.db", "".join(
        "%4d %2d %2d %2d %2d %-9s %5.1f %5.1f %4d %4d\n" % (1950 + rnd.randrange(55), 1 + rnd.randrange(12), 1 + rnd.randrange(28),
                                                          6 * rnd.randrange(4), rnd.randrange(25), rnd.choice(names),
                                                          rnd.randrange(70, 630) / 10, rnd.randrange(100, 1800) / 10,
                                                          rnd.randrange(10, 160), rnd.randrange(900, 1010))
        for _ in range(1000)))
write(f"{data}/nn/files.txt", f"../../data/nn/cane2_0.db\n../../data/nn/cane2_1.db\n")

# myocyte: the 91 state variables and 18 parameters of its cell model, near its resting values'
# magnitudes (the data package's are not here); only that it runs is checked.
write(f"{data}/myocyte/y.txt", floats(91, 0.0, 1.0))
write(f"{data}/myocyte/params.txt", floats(18, 0.5, 1.5))

# cfd: elements of a 32 x 32 x 4 brick, each with 4 neighbours (Fortran numbering, -1 a wall), an
# area and the 4 faces' normals.
nx, ny, nz = 8, 8, 2
n = nx * ny * nz
lines = [f"{n}"]
for e in range(n):
    x, y, z = e % nx, e // nx % ny, e // (nx * ny)
    fields = [f"{rnd.uniform(0.5, 1.5):.6f}"]
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        ax, ay = x + dx, y + dy
        nb = ax + ay * nx + z * nx * ny + 1 if 0 <= ax < nx and 0 <= ay < ny else -1
        fields += [str(nb), f"{dx * 0.5:.6f}", f"{dy * 0.5:.6f}", f"{rnd.uniform(-0.05, 0.05):.6f}"]
    lines.append(" ".join(fields))
write(f"{data}/cfd/brick.domn", "\n".join(lines) + "\n")

# heartwall: an uncompressed AVI of 609 x 590 8-bit frames (the size of Rodinia's test video, whose
# tracked points are fixed in the program), 3 frames of noise over a smooth ring.
w, h, frames = 609, 590, 3
movi = b""
for t in range(frames):
    px = bytearray(w * h)
    for r in range(h):
        for c in range(w):
            d = ((r - 300) ** 2 + (c - 320) ** 2) ** 0.5
            px[r * w + c] = max(0, min(255, int(200 - abs(d - 120 - t) * 2 + rnd.randrange(20))))
    movi += b"00db" + struct.pack("<I", len(px)) + bytes(px)
strh = b"vids" + b"DIB " + struct.pack("<IHHIIIIIIIII", 0, 0, 0, 0, 1, 30, 0, frames, w * h, 0, 0, 0) + b"\0" * 8
strf = struct.pack("<IiiHHIIiiII", 40, w, h, 1, 8, 0, w * h, 0, 0, 256, 0)
strl = b"strl" + b"strh" + struct.pack("<I", len(strh)) + strh + b"strf" + struct.pack("<I", len(strf)) + strf
hdrl = b"hdrl" + b"LIST" + struct.pack("<I", len(strl)) + strl
body = b"AVI " + b"LIST" + struct.pack("<I", len(hdrl)) + hdrl + b"LIST" + struct.pack("<I", 4 + len(movi)) + b"movi" + movi
os.makedirs(f"{data}/heartwall", exist_ok=True)
with open(f"{data}/heartwall/test.avi", "wb") as f:
    f.write(b"RIFF" + struct.pack("<I", len(body)) + body)
