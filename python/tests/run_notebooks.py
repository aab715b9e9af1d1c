#!/usr/bin/python3
"""ctest PythonNotebook: executes every notebook under the given directory
with nbclient (a fresh python3 kernel, cells in order, 600 s per cell), as a
reader running it top to bottom would; any error in a cell fails the test
with that cell's traceback. The notebooks are not rewritten."""
import pathlib
import sys

import nbclient
import nbformat

root = pathlib.Path(sys.argv[1])
books = sorted(root.glob("*.ipynb"))
if not books:
    sys.exit(f"run_notebooks.py: no notebook under {root}")
for path in books:
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    print(f"run_notebooks.py: {path.name}: {len(nb.cells)} cells executed")
