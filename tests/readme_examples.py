#!/usr/bin/python3
"""Runs the examples of README.md and compares their output with what README shows.

An example is a fenced block written with a bare ``` fence whose lines start with `$ ` (a command)
followed by the lines it prints (standard output and standard error together). Blocks fenced as
```sh, ```text or anything else are not run (commands that need a server, a network or files that
are not in the repository). All examples run in order, in one temporary folder that holds copies of
the repository's samples/, tests/ and docs/ (an example may rewrite them), so a database made by one example is there for the
next, as in a user's session. `gounki` is the built binary given on the command line.

In the shown output, a line `...` stands for any number of lines, and `[..]` inside a line for any
text (times and rates that change between runs). Exit status: 0 when every example prints what
README shows, 1 otherwise (each difference is printed with the README line of its command).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^(\s*)```(\S*)\s*$")


def examples(readme_lines):
    """Yields (line number, command, expected output lines) for every checked command."""
    in_block, checked, indent, block = False, False, "", []
    for number, line in enumerate(readme_lines, 1):
        m = FENCE.match(line)
        if m and not in_block:
            in_block, checked, indent, block = True, m.group(2) == "", m.group(1), []
            continue
        if m and in_block:
            in_block = False
            if checked:
                yield from commands(block)
            continue
        if in_block:
            block.append((number, line[len(indent):] if line.startswith(indent) else line.lstrip()))


def commands(block):
    """Splits a block into its commands and the lines each prints."""
    current = None
    for number, line in block:
        if line.startswith("$ "):
            if current:
                yield current
            current = (number, line[2:], [])
        elif current:
            current[2].append(line)
    if current:
        yield current


def line_matches(pattern, line):
    parts = [re.escape(p) for p in pattern.split("[..]")]
    return re.fullmatch(".*".join(parts), line) is not None


def output_matches(expected, actual):
    """Whether `actual` lines fit `expected`, where `...` takes any number of lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(output_matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and line_matches(expected[0], actual[0]) and output_matches(expected[1:], actual[1:])


def main():
    if len(sys.argv) != 3:
        print("usage: readme_examples.py GOUNKI README.md", file=sys.stderr)
        return 2
    gounki, readme = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    source = os.path.dirname(readme)
    with open(readme, encoding="utf-8") as f:
        lines = f.read().split("\n")
    env = dict(os.environ)
    env.pop("GOUNKI_DB", None)
    env["PATH"] = os.path.dirname(gounki) + os.pathsep + env.get("PATH", "")
    env["LC_ALL"] = "C.UTF-8"
    env["COLUMNS"] = "100"
    failures, count = 0, 0
    work = tempfile.mkdtemp(prefix="gounki-readme-")
    try:
        for name in ("samples", "tests", "docs"):
            shutil.copytree(os.path.join(source, name), os.path.join(work, name), symlinks=True)
        for number, command, expected in examples(lines):
            count += 1
            run = subprocess.run(["/bin/sh", "-c", command], cwd=work, env=env, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
            actual = run.stdout.decode("utf-8", "replace").split("\n")
            if actual and actual[-1] == "":
                actual.pop()
            if not output_matches(expected, actual):
                failures += 1
                print(f"README.md:{number}: $ {command}\n  README shows:", flush=True)
                print("".join(f"    | {l}\n" for l in expected), end="")
                print("  the command printed:")
                print("".join(f"    | {l}\n" for l in actual), end="")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{count} README examples run, {failures} differ")
    return 1 if failures or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
