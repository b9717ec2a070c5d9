# SPDX-License-Identifier: Apache-2.0
"""Every irrgpu command line the docs show works as written (docs/**/*.md and the README): the lines
of fenced blocks that begin `irrgpu ` (or a path to it), and inline code that does. Sample sessions,
`$ irrgpu ...` with their output, are samples_test.py's.

- A concrete command runs, in a scratch folder that sees the project's top-level folders (so
  `experiments/iru.yaml` is found): `run`, `exec`, `calibrate` and `sweep run` with --dry-run
  and `area` and `formal` with --dry-run (command line, configuration, input, sweep file and RTL
  block checked, the model elaborated, nothing simulated, synthesised or proved: studies take
  hours, a large block's synthesis or proof minutes), the others as written (ptx check, config, gtkw, dac, workloads, ...).
  exec's program is the reader's: where the page's is not there an empty executable stands in.
- A synopsis (placeholders: [optional], A|B, FILE, DIR, ..., $var) and a bare mention
  (`irrgpu dac run`) have each subcommand and option checked against the command's --help.

Usage: commands_test.py IRRGPU SOURCE_DIR
"""
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

irrgpu, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
pages = sorted(glob.glob(os.path.join(source, "docs", "**", "*.md"), recursive=True)) + [os.path.join(source, "README.md")]
INLINE = re.compile(r"`((?:[\w./-]*/)?irrgpu [^`]+)`")
PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9_]*(\.[a-z]+)?$")  # FILE, DIR, K, SPEC.yaml, FIGURE.png
DRY = {("run",), ("exec",), ("calibrate",), ("sweep", "run"), ("area",), ("formal",)}


def commands(path):
    """(line number, argument list after irrgpu) of each command line of the page."""
    out, block = [], None  # block: the fenced block's (number, line)s until its end
    for number, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if line.startswith("```"):
            if block is not None and not any(text.startswith("$ ") for _, text in block):  # a session's are samples_test's
                out += [(n, args) for n, text in block for args in command_lines(text)]
            block = None if block is not None else []
        elif block is not None:
            block.append((number, line.strip()))
        else:
            out += [(number, args) for text in INLINE.findall(line) for args in command_lines(text)]
    return out


def command_lines(text):
    out = []
    for part in text.split("; "):  # `irrgpu area a; irrgpu area b`
        try:
            args = shlex.split(part, comments=True)
        except ValueError:
            args = part.split()
        if args and re.fullmatch(r"([\w./-]*/)?irrgpu", args[0]):
            out.append(args[1:])
    return out


def help_text(path, cache={}):
    if path not in cache:
        r = subprocess.run([irrgpu, *path, "--help"], capture_output=True, text=True)
        cache[path] = r.stdout if r.returncode == 0 else None
    return cache[path]


def subcommands(path):
    """The subcommand names `irrgpu PATH --help` lists (CLI11's list, or argparse's {a,b} for plot)."""
    text = help_text(path) or ""
    listed = text.split("Subcommands:", 1)[1] if "Subcommands:" in text else ""
    names = {line.split()[0] for line in listed.split("\n") if line.startswith("  ") and line.split()}
    choices = re.match(r"usage: [^{\n]*\{([\w,]+)\}", text)
    return names | set(choices.group(1).split(",")) if choices else names


def is_synopsis(args):
    for a in args:
        if any(c in a for c in "[]|<>$") or "..." in a:
            return True
        if any(PLACEHOLDER.match(part) for part in re.split(r"[=/]", a) if not a.startswith("-")):
            return True
    return False


def check_synopsis(args):
    """What of a synopsis the command does not know, or None."""
    path, rest = (), list(args)
    while rest and rest[0].strip("[]") and not rest[0].startswith("-"):
        names = rest[0].strip("[]").split("|")
        known = subcommands(path)
        if not any(n in known for n in names):
            break
        if any(n not in known for n in names):
            return f"no subcommand {[n for n in names if n not in known][0]} of `irrgpu {' '.join(path)}`"
        path += (names[0],)
        rest.pop(0)
    if not path:
        return f"no subcommand {args[0] if args else ''}"
    if path == ("plot",):
        return None  # plot's options are its own (plot.py), checked by the plot tests
    text = help_text(path) or ""
    for a in rest:
        for option in re.findall(r"(?:^|[\[|])(--?[A-Za-z][\w-]*)", a):
            if not re.search(r"(^|[\s,])" + re.escape(option) + r"\b", text):
                return f"no option {option} in `irrgpu {' '.join(path)} --help`"
    return None


def run_concrete(args, work):
    path = ()
    for a in args:
        if a.startswith("-") or a not in subcommands(path):
            break
        path += (a,)
    if not path:
        return f"no subcommand {args[0] if args else ''}"
    if len(path) == len(args):
        return check_synopsis(args)  # a bare mention
    argv = list(args)
    if path in DRY:
        argv.insert(len(path), "--dry-run")
    if path == ("exec",) and "--" in argv:
        program = os.path.join(work, argv[argv.index("--") + 1])
        if not os.path.exists(program):
            os.makedirs(os.path.dirname(program), exist_ok=True)
            with open(program, "w") as f:
                f.write("#!/bin/sh\n")
            os.chmod(program, 0o755)
    r = subprocess.run([irrgpu] + argv, cwd=work, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        return f"exited {r.returncode}: " + (r.stderr.strip() or r.stdout.strip()).split("\n")[-1]
    return None


failures, checked, seen = [], 0, {}
with tempfile.TemporaryDirectory() as work:
    for entry in os.listdir(source):
        if not entry.startswith(".") and entry != "build":
            os.symlink(os.path.join(source, entry), os.path.join(work, entry))
    for page in pages:
        for number, args in commands(page):
            where = f"{os.path.relpath(page, source)}:{number}"
            key = tuple(args)
            if key not in seen:
                seen[key] = check_synopsis(args) if is_synopsis(args) else run_concrete(args, work)
                checked += 1
            problem = seen[key]
            print(("FAIL " if problem else "ok   ") + f"{where}: irrgpu {shlex.join(args)}")
            if problem:
                failures.append(f"{where}: `irrgpu {shlex.join(args)}`: {problem}")

print(f"{checked} distinct command lines, {len(failures)} failing")
for f in failures:
    print(f)
sys.exit(1 if failures or checked == 0 else 0)
