"""Every Python example of the documentation runs as a test, so the pages
cannot say what ruchey no longer does. Each ```python block of a page is a
test item; a page's blocks run in order in one module of their own (later
examples use earlier ones, and functions pickle by reference to it), each
block compiled from its text as exec() users do."""
import re
import sys
import types

import pytest

BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def pytest_collect_file(file_path, parent):
    if file_path.suffix == ".md" and not file_path.name.startswith("_"):
        return Page.from_parent(parent, path=file_path)
    return None


class Page(pytest.File):
    def collect(self):
        text = self.path.read_text()
        module = types.ModuleType(f"docs_{self.path.stem.replace('-', '_')}")
        for match in BLOCK.finditer(text):
            line = text.count("\n", 0, match.start(1)) + 1
            yield Example.from_parent(self, name=f"line {line}", module=module,
                                      source=match.group(1), line=line)


class Example(pytest.Item):
    def __init__(self, *, module, source, line, **kwargs):
        super().__init__(**kwargs)
        self.module, self.source, self.line = module, source, line

    def runtest(self):
        sys.modules[self.module.__name__] = self.module
        # the block's lines keep their numbers in the page
        code = compile("\n" * (self.line - 1) + self.source, str(self.path), "exec")
        exec(code, self.module.__dict__)

    def reportinfo(self):
        return self.path, self.line - 1, f"example at line {self.line}"
