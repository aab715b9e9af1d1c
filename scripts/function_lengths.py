#!/usr/bin/env python3
"""Lists the C++ and Python functions longer than a limit (docs/architecture.md, "Function length").

Usage: function_lengths.py [--max N] [--all] [PATH...] [--python PATH...]

PATH is a file or a directory. A directory given before --python is
searched (recursively) for C++ sources (*.cpp, *.hpp, *.ipp, *.h, *.cc),
one given after it for Python sources (*.py); a file is read as Python
when its name ends in .py, else as C++. Which Python folders the check
covers is thus the caller's choice (tests/CMakeLists.txt,
NHS_FUNCTION_LENGTH_PYTHON).

C++: a function's length is the number of lines from the line of its name
to the line of its closing brace, both included. Lambdas and local classes
count towards the function they are written in. The parse is lexical:
comments, string and character literals (raw strings too) and preprocessor
lines are blanked, then every brace block at namespace or class level whose
head (the text since the previous ';', '{' or '}') holds a parameter list
'(' and does not open a namespace, class, struct, union, enum or a brace
initializer ('= {') is a function body.

Python: the file is parsed by the ast module; a function's length is
end_lineno - lineno + 1, from the line of its `def` to the last line of its
body, both included. Decorators are not counted (they stand above the
`def`); the docstring, comments and blank lines inside the body are.
Functions at module level and methods (of classes at module level, or
nested in such classes) are measured; a function or class defined inside a
function counts towards that function, as a lambda does in C++, and is not
listed on its own.

Prints one line per function over the limit, longest first:
  LINES  path:line  name
With --all, every function. Exits 1 when a function is over the limit,
0 otherwise, 2 on bad usage (an unreadable path, a Python file that does
not parse: path:line and the parser's message).
"""
import argparse
import ast
import os
import re
import sys

SUFFIXES = (".cpp", ".hpp", ".ipp", ".h", ".cc")
PY_SUFFIXES = (".py",)
SCOPE = re.compile(r"(inline\s+)?(namespace|class|struct|union|enum|extern)\b")
NAME = re.compile(r"([~A-Za-z_][\w:<>~,\s*&\[\]=!+\-/%|^]*?)\s*\(")


def blank(text):
    """Replaces comments, literals and preprocessor lines by spaces, keeping newlines."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            # A preprocessor line, with its continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        if c == "\n":
            out.append(c)
            line_start = True
            i += 1
            continue
        if not c.isspace():
            line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        m = re.match(r'R"([^(\s]*)\(', text[i:i + 20])
        if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = text.find(")" + m.group(1) + '"', i)
            end = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        if c in "\"'":
            # A digit separator (1'000) is not a character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        out.append(c)
        i += 1
    return "".join(out)


def strip_template(decl):
    """decl without its leading template<...> heads (angle brackets balanced)."""
    while decl.startswith("template"):
        i = decl.find("<")
        if i < 0:
            return decl
        depth = 0
        for j in range(i, len(decl)):
            depth += {"<": 1, ">": -1}.get(decl[j], 0)
            if depth == 0:
                decl = decl[j + 1:].lstrip()
                break
        else:
            return decl
    return decl


def functions(text):
    """Yields (first line, last line, name) of every function body in text."""
    code = blank(text)
    stack = []  # per open brace: 'scope' (namespace, class, extern) or 'function' or 'other'
    head_start = 0
    line = 1
    line_of = []  # line number of each character
    for ch in code:
        line_of.append(line)
        if ch == "\n":
            line += 1
    for i, ch in enumerate(code):
        if ch in ";":
            head_start = i + 1
        elif ch == "{":
            inside_function = any(k[0] == "function" for k in stack)
            head = code[head_start:i]
            kind = "other"
            if not inside_function:
                decl = strip_template(head.strip())
                if SCOPE.match(decl):
                    kind = "scope"
                elif "(" in decl and not re.search(r"(=|,|\breturn)\s*$", decl):
                    m = NAME.search(decl)
                    name = m.group(1).split()[-1] if m and m.group(1).split() else decl[:40]
                    first = line_of[head_start + len(head) - len(head.lstrip())]
                    kind = ("function", first, name)
            stack.append(kind)
            head_start = i + 1
        elif ch == "}":
            kind = stack.pop() if stack else "other"
            if isinstance(kind, tuple) and not any(isinstance(k, tuple) for k in stack):
                yield kind[1], line_of[i], kind[2]
            head_start = i + 1


def python_functions(text, path="<text>"):
    """Yields (first line, last line, name) of every function of a Python
    source that is not inside another function: module-level functions and
    methods (Class.method). Raises SyntaxError where text does not parse."""
    def walk(body, prefix):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield node.lineno, node.end_lineno, prefix + node.name
            elif isinstance(node, ast.ClassDef):
                yield from walk(node.body, prefix + node.name + ".")

    yield from walk(ast.parse(text, filename=path).body, "")


def sources(paths, suffixes, skip=()):
    """The files of paths: files as given, directories searched for names ending
    in suffixes, without entering the subfolders named in skip. Exits 2 naming a
    path that does not exist."""
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if d not in skip)
                for f in sorted(files):
                    if f.endswith(suffixes):
                        yield os.path.join(root, f)
        elif os.path.isfile(p):
            yield p
        else:
            print(f"{os.path.basename(sys.argv[0])}: no such file or directory: {p}", file=sys.stderr)
            sys.exit(2)


def lengths(path):
    """(lines, "path:line", name) of every function in the file at path."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if path.endswith(PY_SUFFIXES):
        try:
            found = list(python_functions(text, path))
        except SyntaxError as e:
            print(f"function_lengths.py: {path}:{e.lineno}: does not parse as Python: {e.msg}",
                  file=sys.stderr)
            sys.exit(2)
    else:
        found = functions(text)
    return [(last - first + 1, f"{path}:{first}", name) for first, last, name in found]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max", type=int, default=80, help="the limit in lines (default 80)")
    ap.add_argument("--all", action="store_true", help="list every function")
    ap.add_argument("--python", nargs="*", default=[], metavar="PATH",
                    help="files and directories searched for Python sources")
    ap.add_argument("paths", nargs="*", help="files and directories searched for C++ sources")
    args = ap.parse_args()
    if not args.paths and not args.python:
        ap.error("no PATH given")
    files = list(sources(args.paths, SUFFIXES)) + list(sources(args.python, PY_SUFFIXES))
    rows = [row for path in files for row in lengths(path)]
    rows.sort(key=lambda r: (-r[0], r[1]))
    over = [r for r in rows if r[0] > args.max]
    for r in rows if args.all else over:
        print(f"{r[0]:5d}  {r[1]}  {r[2]}")
    print(f"function_lengths.py: {len(rows)} functions, {len(over)} over {args.max} lines", file=sys.stderr)
    return 1 if over else 0

if __name__ == "__main__":
    sys.exit(main())
