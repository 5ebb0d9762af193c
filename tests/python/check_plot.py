"""Runs a Python example that plots (it takes --plot FILE) and checks what it wrote is a PNG:

    python3 check_plot.py EXAMPLE.py OUT.png [args...]

The example's exit status is this one's when it fails; then OUT.png must exist (removed before
the run, so an old one never passes), start with the PNG signature and an IHDR chunk of 13
bytes, with a width and a height above 0. Exit 1 otherwise, saying what was wrong."""

import os
import struct
import subprocess
import sys

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path):
    """(width, height) of the PNG at path, or a ValueError that says what is wrong."""
    with open(path, "rb") as f:
        head = f.read(33)
    if head[:8] != SIGNATURE:
        raise ValueError(f"{path} does not start with the PNG signature (got {head[:8]!r})")
    length, kind = struct.unpack(">I4s", head[8:16])
    if kind != b"IHDR" or length != 13 or len(head) < 33:
        raise ValueError(f"{path}: the first chunk is {kind!r} of {length} bytes, not IHDR of 13")
    width, height = struct.unpack(">II", head[16:24])
    if width == 0 or height == 0:
        raise ValueError(f"{path}: the image is {width}x{height}")
    return width, height


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    example, png = argv[0], argv[1]
    if os.path.exists(png):
        os.remove(png)
    os.makedirs(os.path.dirname(os.path.abspath(png)), exist_ok=True)
    rc = subprocess.call([sys.executable, example, "--plot", png, *argv[2:]])
    if rc != 0:
        return rc
    if not os.path.exists(png):
        print(f"check_plot: {example} exited 0 but wrote no {png}; it must save its plot to "
              "the path --plot gives", file=sys.stderr)
        return 1
    try:
        width, height = png_size(png)
    except ValueError as e:
        print(f"check_plot: {e}; the example must save a PNG (matplotlib's Agg backend)",
              file=sys.stderr)
        return 1
    print(f"check_plot: {png} is a {width}x{height} PNG")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
