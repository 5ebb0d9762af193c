#!/usr/bin/env python3
"""The size budgets of kernforge's own sources: at most 1,000 lines per file and 60 lines per
function (lizard measures functions: the lines from a function's first line to its last).

    python3 tools/checks/budgets.py                 # the whole project, from its root
    python3 tools/checks/budgets.py PATH...         # these files or folders only
    python3 tools/checks/budgets.py --function-budget 80 --file-budget 1200

Checked: C and C++ (.c .h .cc .cpp .cxx .hh .hpp), CUDA (.cu .cuh), OpenCL C (.cl .clh) and
Python (.py), the tests included (a test is read and changed as often as the code it proves, and
a long test hides what it checks). Not checked: anything git ignores (build/ and every other
build output), files the build generates (they live under build/), and the fuzz corpora (inputs,
not code). The project holds no third-party sources; a folder that one day does goes in
NOT_OURS below.

Every violation is one line, `path:line: ...`, then a count; the exit status is 1 when there is
any, 2 when the check cannot run (lizard missing: tools/install-deps.sh installs it).
CTest runs it as `structure.budgets` (tests/structure).
"""

import argparse
import os
import subprocess
import sys

FILE_BUDGET = 1000
FUNCTION_BUDGET = 60

# Extensions lizard reads with its C-family reader (CUDA and OpenCL C are C++ and C to it) and
# with its Python reader.
C_FAMILY = {".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".cu", ".cuh", ".cl", ".clh"}
PYTHON = {".py"}
SOURCES = C_FAMILY | PYTHON

# Folders (relative to the root, with a trailing /) whose files are not the project's code.
NOT_OURS = ("build/", "tests/fuzz/corpus/", ".git/")

# gtest and CTS macros whose name alone says nothing: the violation shows their arguments.
MACRO_FUNCTIONS = {"TEST", "TEST_F", "TEST_P", "TYPED_TEST", "TYPED_TEST_P"}


def project_root():
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def git(root, *args):
    return subprocess.run(["git", "-C", root, *args], check=True, capture_output=True).stdout


def files_of_git(root):
    """Tracked and untracked-but-not-ignored files of the checkout whose top is root, or None
    when root is not one (a source tarball, a folder inside another checkout) or git cannot
    say."""
    try:
        top = git(root, "rev-parse", "--show-toplevel").decode().strip()
        if not top or not os.path.samefile(top, root):
            return None
        out = git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    except (OSError, subprocess.CalledProcessError):
        return None
    names = [n for n in out.decode("utf-8", "replace").split("\0") if n]
    return [n for n in names if os.path.isfile(os.path.join(root, n))]


def files_of_walk(root):
    """Every file under root, for a tree that is not a git checkout (a source tarball)."""
    found = []
    for folder, dirs, files in os.walk(root):
        rel = os.path.relpath(folder, root)
        rel = "" if rel == "." else rel.replace(os.sep, "/") + "/"
        dirs[:] = sorted(d for d in dirs
                         if not (rel == "" and d.startswith("build"))
                         and not d.startswith(".") and d != "__pycache__")
        found.extend(rel + f for f in files)
    return found


def project_sources(root):
    names = files_of_git(root)
    if names is None:
        names = files_of_walk(root)
    return sorted(n for n in names
                  if os.path.splitext(n)[1] in SOURCES and not n.startswith(NOT_OURS))


def given_sources(paths):
    """The source files among paths (files are taken as given, folders walked)."""
    found = []
    for path in paths:
        if os.path.isdir(path):
            found.extend(os.path.join(path, n).replace(os.sep, "/") for n in files_of_walk(path)
                         if os.path.splitext(n)[1] in SOURCES)
        elif os.path.isfile(path):
            found.append(path)
        else:
            raise SystemExit(f"budgets: {path}: no such file or folder")
    return sorted(found)


def read_text(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "replace")


def function_label(fn):
    """lizard's name, or for a test macro its arguments: TEST(Suite, Name), not kfabi::TEST."""
    macro = fn.name.split("::")[-1]
    if macro not in MACRO_FUNCTIONS or "(" not in fn.long_name:
        return fn.name
    args = fn.long_name[fn.long_name.index("(") + 1:].rstrip(") ").split(",")
    return macro + "(" + ", ".join(a.strip() for a in args) + ")"


def analyze(analyzer, path, code):
    """lizard's functions of one file. CUDA and OpenCL files get lizard's C++ reader by name,
    so that a lizard release that maps those extensions elsewhere changes nothing here."""
    ext = os.path.splitext(path)[1]
    reader_name = path if ext in PYTHON else path + ".cpp"
    return analyzer.analyze_source_code(reader_name, code).function_list


def check(files, display, file_budget, function_budget):
    """Yields (path, line, message) for every file and function over its budget."""
    import lizard  # checked by main()

    analyzer = lizard.FileAnalyzer(lizard.get_extensions([]))
    for path in files:
        code = read_text(path)
        lines = code.count("\n") + (0 if code.endswith("\n") or not code else 1)
        name = display(path)
        if lines > file_budget:
            yield name, 1, f"file is {lines} lines (budget {file_budget})"
        for fn in analyze(analyzer, path, code):
            if fn.length > function_budget:
                yield (name, fn.start_line,
                       f"function '{function_label(fn)}' is {fn.length} lines "
                       f"(budget {function_budget})")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="files or folders (default: the whole project)")
    parser.add_argument("--root", default=project_root(), help="the project's root folder")
    parser.add_argument("--file-budget", type=int, default=FILE_BUDGET)
    parser.add_argument("--function-budget", type=int, default=FUNCTION_BUDGET)
    args = parser.parse_args(argv)

    try:
        import lizard  # noqa: F401
    except ImportError:
        print(f"budgets: lizard is not installed for {sys.executable}; run "
              f"tools/install-deps.sh (or `{sys.executable} -m pip install lizard`)",
              file=sys.stderr)
        return 2

    if args.paths:
        files = given_sources(args.paths)
        display = lambda p: p  # noqa: E731
    else:
        root = os.path.abspath(args.root)
        files = [os.path.join(root, n) for n in project_sources(root)]
        display = lambda p: os.path.relpath(p, root).replace(os.sep, "/")  # noqa: E731
    if not files:
        print("budgets: no source file to check", file=sys.stderr)
        return 2

    violations = list(check(files, display, args.file_budget, args.function_budget))
    for path, line, message in violations:
        print(f"{path}:{line}: {message}")
    print(f"budgets: {len(files)} files checked (files: {args.file_budget} lines, functions: "
          f"{args.function_budget} lines); {len(violations)} over budget")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
