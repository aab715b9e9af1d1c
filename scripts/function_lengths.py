#!/usr/bin/env python3
"""Lists the C++ functions longer than a limit (docs/architecture.md, "Function length").

Usage: function_lengths.py [--max N] [--all] PATH...

PATH is a file or a directory (searched for *.cpp, *.hpp, *.ipp, *.h). A
function's length is the number of lines from the line of its name to the
line of its closing brace, both included. Lambdas and local classes count
towards the function they are written in. The parse is lexical: comments,
string and character literals (raw strings too) and preprocessor lines are
blanked, then every brace block at namespace or class level whose head
(the text since the previous ';', '{' or '}') holds a parameter list '(' and
does not open a namespace, class, struct, union, enum or a brace
initializer ('= {') is a function body.

Prints one line per function over the limit, longest first:
  LINES  path:line  name
With --all, every function. Exits 1 when a function is over the limit,
0 otherwise, 2 on bad usage (an unreadable path).
"""
import argparse
import os
import re
import sys

SUFFIXES = (".cpp", ".hpp", ".ipp", ".h", ".cc")
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


def sources(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, _, files in os.walk(p):
                for f in sorted(files):
                    if f.endswith(SUFFIXES):
                        yield os.path.join(root, f)
        elif os.path.isfile(p):
            yield p
        else:
            print(f"function_lengths.py: no such file or directory: {p}", file=sys.stderr)
            sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max", type=int, default=80, help="the limit in lines (default 80)")
    ap.add_argument("--all", action="store_true", help="list every function")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    rows = []
    for path in sources(args.paths):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for first, last, name in functions(text):
            rows.append((last - first + 1, f"{path}:{first}", name))
    rows.sort(key=lambda r: (-r[0], r[1]))
    over = [r for r in rows if r[0] > args.max]
    for r in rows if args.all else over:
        print(f"{r[0]:5d}  {r[1]}  {r[2]}")
    print(f"function_lengths.py: {len(rows)} functions, {len(over)} over {args.max} lines", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
