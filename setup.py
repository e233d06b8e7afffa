"""Builds the hsparse Python package with CMake (pyproject.toml names
setuptools, which Debian provides, as the backend).

    pip install --no-build-isolation .

Environment: HSPARSE_ENABLE_CUDA=OFF for a CPU-only build (default: CUDA
when nvcc is found), CMAKE_BUILD_PARALLEL_LEVEL for the build's jobs,
HSPARSE_CMAKE_ARGS for anything else given to CMake."""
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent
(ROOT / "build-python").mkdir(exist_ok=True)  # egg_info needs its folder to exist


def version() -> str:
    """project(hsparse VERSION x.y.z): the version's one place."""
    m = re.search(r"project\(hsparse VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text())
    if not m:
        raise RuntimeError("CMakeLists.txt has no project(hsparse VERSION ...)")
    return m.group(1)


class CMakeBuild(build_ext):
    """Configures the library and the module, builds the module, copies it in."""

    def build_extension(self, ext: Extension) -> None:
        build_dir = pathlib.Path(self.build_temp).resolve() / "cmake"
        build_dir.mkdir(parents=True, exist_ok=True)
        # Tools ON for hsparse.bench (the benchmark library; only the module's
        # target is built, not the command-line tool).
        args = [
            "cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release", "-DHSPARSE_PYTHON=ON",
            f"-DPython3_EXECUTABLE={sys.executable}", "-DHSPARSE_BUILD_TOOLS=ON", "-DHSPARSE_BUILD_TESTS=OFF",
            "-DHSPARSE_BUILD_BENCHMARKS=OFF", "-DHSPARSE_INSTALL=OFF",
            f"-DHSPARSE_ENABLE_CUDA={os.environ.get('HSPARSE_ENABLE_CUDA', 'ON')}",
        ]
        if shutil.which("ninja"):
            args += ["-G", "Ninja"]
        args += shlex.split(os.environ.get("HSPARSE_CMAKE_ARGS", ""))
        subprocess.run(args, check=True)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "_hsparse", "-j", os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))],
                       check=True)
        built = next((build_dir / "python" / "hsparse").glob("_hsparse*.so"))
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)


setup(
    version=version(),
    packages=["hsparse"],
    package_dir={"hsparse": "python/hsparse"},
    package_data={"hsparse": ["py.typed", "*.pyi"]},
    ext_modules=[Extension("hsparse._hsparse", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
    # setuptools' own build folders beside CMake's build/, not inside it.
    options={"build": {"build_base": "build-python"}, "egg_info": {"egg_base": "build-python"}},
)
