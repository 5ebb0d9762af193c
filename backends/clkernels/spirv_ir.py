#!/usr/bin/env python3
"""The two build steps of spirv.cmake that the LLVM tools cannot do themselves.

    spirv_ir.py regularize IN.ll OUT.ll
        Rewrites clang-15's optimised LLVM IR so that llvm-spirv-15 translates it into a module
        spirv-val accepts (Note [Regularizing LLVM IR for llvm-spirv-15] below).
    spirv_ir.py embed IN.spv OUT.cpp SYMBOL FP64
        Writes OUT.cpp defining kf::clk::spirv_data::SYMBOL (the module's bytes, 4-byte aligned)
        and SYMBOL_size. With FP64 0 (a module for devices without double arithmetic) it fails
        when the module declares the Float64 capability.
    spirv_ir.py build CLANG LLVM_SPIRV SPIRV_VAL STEM SYMBOL FP64 CLANG_ARGS...
        The whole rule of one module in one process (spirv.cmake's Note says what each step
        does): CLANG CLANG_ARGS -emit-llvm -S to STEM.ll, regularize to STEM.opt.ll, CLANG back
        to STEM.bc, LLVM_SPIRV to STEM.spv.tmp, SPIRV_VAL, embed to STEM.cpp, and STEM.spv.tmp
        renamed STEM.spv last. One interpreter per module instead of two: the build makes some
        500 modules, and starting Python was a third of each one's time.

Note [Regularizing LLVM IR for llvm-spirv-15]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
Two things LLVM 15's -O2 pipeline produces that llvm-spirv 15.0.0 (Debian's) gets wrong:

1. `freeze` (from DivRemPairs, on every a / b next to a % b, as in the index arithmetic of
   KF_OFFSETS): the translator stops with "InvalidInstruction: Can't translate llvm instruction:
   freeze" (KhronosGroup/SPIRV-LLVM-Translator issue 1140; later releases drop freeze the same
   way). SPIR-V has no freeze, so `%x = freeze T %v` becomes `%x = select i1 true, T %v, T %v`
   (the value itself; the driver's compiler folds it), and a frozen undef or poison becomes
   zeroinitializer, one of the values freeze may pick.
2. Block order: LLVM keeps blocks in any order, SPIR-V requires that a block come after every
   block that dominates it. The translator writes blocks in LLVM's order, so after loop
   rotation a loop's exit block can come before the body that defines the values it uses, and
   spirv-val says "ID '149[%149]' has not been defined" (the tiled matmul). So every function's
   blocks are put in reverse post-order from the entry block, which has that property; blocks
   no path reaches keep their order, at the end. Numbered values and blocks are then numbered
   again in the new order, as LLVM's parser wants them (names would end up in the module as
   OpName strings).

Vectorised reductions (llvm.vector.reduce.*, which the translator does not know either) are
avoided by compiling with -fno-vectorize -fno-slp-vectorize (spirv.cmake): the GPU compiler
vectorises across work-items itself.
"""
import os
import re
import subprocess
import sys

NUMBERED = re.compile(r"%(\d+)\b")
LABEL = re.compile(r"^(\d+|[-a-zA-Z$._][-a-zA-Z$._0-9]*):")
SUCCESSOR = re.compile(r"\blabel %([-a-zA-Z$._0-9]+)")
FREEZE = re.compile(r"^(\s*%[-a-zA-Z$._0-9]+) = freeze (.+) (\S+)$")
ESCAPES = [f"\\x{b:02x}" for b in range(256)]  # a byte as a C string escape


def unfreeze(line):
    match = FREEZE.match(line)
    if not match:
        return line
    target, type_, value = match.groups()
    if value in ("undef", "poison"):
        value = "zeroinitializer"
    return f"{target} = select i1 true, {type_} {value}, {type_} {value}"


def argument_list(define_line):
    """The text between the parentheses of a `define` line."""
    start = define_line.index("(")
    depth = 0
    for end in range(start, len(define_line)):
        depth += {"(": 1, ")": -1}.get(define_line[end], 0)
        if depth == 0:
            return define_line[start:end + 1]
    return define_line[start:]


def split_blocks(body, entry):
    """[(name, lines)]: the entry block (no label line in clang's output) first."""
    blocks = [(entry, [])]
    for line in body:
        match = LABEL.match(line)
        if match:
            blocks.append((match.group(1), [line]))
        else:
            blocks[-1][1].append(line)
    if not blocks[0][1] and len(blocks) > 1:
        blocks = blocks[1:]  # the body starts with the entry block's own label
    return blocks


def reverse_post_order(blocks):
    successors = {name: [s for line in lines for s in SUCCESSOR.findall(line)]
                  for name, lines in blocks}
    order, seen = [], {blocks[0][0]}
    stack = [(blocks[0][0], iter(successors[blocks[0][0]]))]
    while stack:
        name, it = stack[-1]
        nxt = next((s for s in it if s not in seen and s in successors), None)
        if nxt is None:
            order.append(name)
            stack.pop()
        else:
            seen.add(nxt)
            stack.append((nxt, iter(successors[nxt])))
    order.reverse()
    by_name = dict(blocks)
    rest = [name for name, _ in blocks if name not in seen]
    return [(name, by_name[name]) for name in order + rest]


def renumber(define, blocks):
    """LLVM's parser wants numbered values and blocks defined in order: number them again in
    the new block order, and rewrite every use."""
    numbers, counter = {}, 0
    for old in NUMBERED.findall(argument_list(define)):
        numbers[old], counter = str(counter), counter + 1
    for name, lines in blocks:
        if name.isdigit():
            numbers[name], counter = str(counter), counter + 1
        for line in lines:
            match = re.match(r"^\s*%(\d+) = ", line)
            if match:
                numbers[match.group(1)], counter = str(counter), counter + 1
    use = lambda m: "%" + numbers.get(m.group(1), m.group(1))
    out = [NUMBERED.sub(use, define)]
    for _, lines in blocks:  # the entry block's number stays implicit (no label line)
        for line in lines:
            line = re.sub(r"^(\d+):", lambda m: numbers[m.group(1)] + ":", line)
            out.append(NUMBERED.sub(use, line))
    return out


def regularize_function(lines):
    """lines: the `define ... {` line, the body, the closing `}`."""
    define, body, close = lines[0], lines[1:-1], lines[-1]
    entry = str(len(NUMBERED.findall(argument_list(define))))
    blocks = reverse_post_order(split_blocks([unfreeze(line) for line in body], entry))
    return renumber(define, blocks) + [close]


def regularize(text):
    out, function = [], None
    for line in text.split("\n"):
        if function is None and line.startswith("define ") and line.rstrip().endswith("{"):
            function = [line]
        elif function is not None:
            function.append(line)
            if line == "}":
                out.extend(regularize_function(function))
                function = None
        else:
            out.append(line)
    result = "\n".join(out)
    if re.search(r"= freeze ", result):
        raise SystemExit("spirv_ir.py: a freeze instruction was left: " +
                         re.search(r"[^\n]*= freeze [^\n]*", result).group(0))
    return result


def embed(spv, out, symbol, fp64):
    with open(spv, "rb") as f:
        data = f.read()
    words = [int.from_bytes(data[i:i + 4], "little") for i in range(20, min(len(data), 532), 4)]
    for i in range(0, len(words) - 1, 2):  # OpCapability: 0x00020011 <capability>, first
        if words[i] != 0x00020011:
            break
        if words[i + 1] == 10 and fp64 == "0":  # Float64
            raise SystemExit(f"{spv}: the module {symbol}, built with -DKF_HAS_FP64=0 for "
                             "devices without double arithmetic, declares the Float64 "
                             "capability: a double in its source is not under #if KF_HAS_FP64")
    rows = []
    for i in range(0, len(data), 32):
        rows.append('    "' + "".join(map(ESCAPES.__getitem__, data[i:i + 32])) + '"')
    text = (f"// Generated by backends/clkernels/spirv_ir.py from {symbol}.spv. Do not edit.\n"
            "#include <cstddef>\n\nnamespace kf::clk::spirv_data {\n\n"
            f"extern const unsigned char {symbol}[];\nextern const size_t {symbol}_size;\n"
            f"alignas(4) const unsigned char {symbol}[] =\n" + "\n".join(rows or ['    ""']) +
            f";\nconst size_t {symbol}_size = {len(data)};\n\n"
            "}  // namespace kf::clk::spirv_data\n")
    try:
        with open(out) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(out, "w") as f:
        f.write(text)


def run(command):
    """Runs one tool of the pipeline; its own message, and the command, when it fails."""
    done = subprocess.run(command, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise SystemExit(f"spirv_ir.py: {command[0]} failed (exit {done.returncode}): " +
                         " ".join(command))


def build(clang, llvm_spirv, spirv_val, stem, symbol, fp64, clang_args):
    run([clang, *clang_args, "-emit-llvm", "-S", "-o", f"{stem}.ll"])
    with open(f"{stem}.ll") as f:
        text = regularize(f.read())
    with open(f"{stem}.opt.ll", "w") as f:
        f.write(text)
    run([clang, "-target", "spir64", "-x", "ir", "-c", "-emit-llvm", f"{stem}.opt.ll",
         "-o", f"{stem}.bc"])
    run([llvm_spirv, "--spirv-max-version=1.2", f"{stem}.bc", "-o", f"{stem}.spv.tmp"])
    run([spirv_val, "--target-env", "opencl1.2", f"{stem}.spv.tmp"])
    embed(f"{stem}.spv.tmp", f"{stem}.cpp", symbol, fp64)
    os.replace(f"{stem}.spv.tmp", f"{stem}.spv")


def main(argv):
    if len(argv) == 4 and argv[1] == "regularize":
        with open(argv[2]) as f:
            text = f.read()
        with open(argv[3], "w") as f:
            f.write(regularize(text))
    elif len(argv) == 6 and argv[1] == "embed":
        embed(argv[2], argv[3], argv[4], argv[5])
    elif len(argv) > 8 and argv[1] == "build":
        build(*argv[2:8], argv[8:])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
