"""numba-cuda's code to link held in memory (``cuda.CUSource``,
``cuda.PTXSource``...), what ``cuda.declare_device(..., link=...)`` takes
beside file paths. The CPU backend compiles CUDA C/C++ sources for the
host (ruchey.cuda.hostlink); the other kinds hold GPU code only."""


class LinkableCode:
    """Code to link from memory: ``data`` (a str or bytes), and ``name``, the
    file name its compile errors give."""

    default_name = "<unnamed-code>"

    def __init__(self, data, name=None):
        self.data = data
        self._name = name

    @property
    def name(self):
        return self._name or self.default_name


class CUSource(LinkableCode):
    """CUDA C/C++ source."""
    default_name = "<unnamed-cu>"


class PTXSource(LinkableCode):
    """PTX source."""
    default_name = "<unnamed-ptx>"


class Fatbin(LinkableCode):
    """An ELF fatbin."""
    default_name = "<unnamed-fatbin>"


class Cubin(LinkableCode):
    """An ELF cubin."""
    default_name = "<unnamed-cubin>"


class Archive(LinkableCode):
    """An archive of objects."""
    default_name = "<unnamed-archive>"


class Object(LinkableCode):
    """An object file."""
    default_name = "<unnamed-object>"


class LTOIR(LinkableCode):
    """NVVM's LTO-IR."""
    default_name = "<unnamed-ltoir>"
