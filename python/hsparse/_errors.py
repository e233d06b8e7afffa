"""hsparse's exceptions: every failure the C++ library detects arrives as an
``hsparse.Error`` subclass that keeps the C++ code and its message (with the
file and line for a malformed input file)."""


class Error(Exception):
    """Base of every hsparse error. ``code`` is the C++ ErrorCode's name
    (e.g. ``"parse error"``); ``message`` the full message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class ParseError(Error, ValueError):
    """A malformed input file or generator spec; the message names the file and line."""


class FileError(Error, OSError):
    """A file that could not be opened, read or written."""


class CorruptFileError(Error, ValueError):
    """A binary (.hsp) file that failed its checksum or header checks."""


class IndexOverflowError(Error, OverflowError):
    """A size that does not fit the index type."""


class InvalidMatrixError(Error, ValueError):
    """A matrix that fails validation (CSR arrays inconsistent)."""


class InvalidArgumentError(Error, ValueError):
    """Inconsistent sizes, an unknown option, or a value out of its range."""


class OutOfMemoryError(Error, MemoryError):
    """Host or GPU memory that is not there."""


class CudaError(Error, RuntimeError):
    """A CUDA runtime failure."""


class UnsupportedError(Error, NotImplementedError):
    """Something this build, CPU or GPU lacks (e.g. CUDA, or a kernel for a value type)."""


class CommunicationError(Error, RuntimeError):
    """An MPI call failed, or another rank failed in a step every rank takes."""


class InternalError(Error, RuntimeError):
    """hsparse broke its own invariant: a bug, please report it."""


_BY_CODE = {
    "invalid argument": InvalidArgumentError,
    "parse error": ParseError,
    "I/O error": FileError,
    "corrupt file": CorruptFileError,
    "index overflow": IndexOverflowError,
    "invalid matrix": InvalidMatrixError,
    "out of memory": OutOfMemoryError,
    "CUDA error": CudaError,
    "unsupported": UnsupportedError,
    "communication error": CommunicationError,
    "internal error": InternalError,
}


def error_class(code: str) -> type:
    """The exception class of a C++ error code (the base class for an unknown one)."""
    return _BY_CODE.get(code, Error)
