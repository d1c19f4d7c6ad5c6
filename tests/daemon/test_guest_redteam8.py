"""An eighth red team of the guest engine (issue 50, docs/trust_boundary.md, "An eighth red
team"): what the seventh round left open and new faces, each asserting the honest outcome against
a real `sim-guest` daemon, or the trusted code itself where the attack is on its own step.

Safe if containment fails: every process the tests start has bounded memory and time, and
connections go to 127.0.0.1 only.
"""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from ascend_core.package import OperatorPackage
from ascend_core.protocol import EvalRequest, EvalResult, Stage, Status
from ascend_gym.corpus import find_ops, runner
from tests.cann.conftest import cann_env, fake_toolkit  # noqa: F401 (the fake toolkit's fixtures)

CORPUS = Path(__file__).parents[1] / "corpus"
SECRET = "outside_secret_token"  # a compile error quotes it whole


# ---- the corpus runner: a hostile checkout's links ----------------------------------------------
def hostile_checkout(tmp_path: Path, how: str) -> Path:
    """tests/corpus/project with its own spec, whose kernel reaches `outside/secret.h` (a file
    the user can read, outside the checkout) by `how`: a link in the operator's op_kernel/, a
    link in an include root of its build files, or a relative include that climbs out."""
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    shutil.copytree(CORPUS / "project", repo, symlinks=True)
    outside.mkdir()
    (outside / "secret.h").write_text(f"{SECRET}\n")
    op = repo / "vector" / "offset_scale"
    specs = (CORPUS / "layout_specs.toml").read_text()
    (op / "op.toml").write_text(specs.partition("[offset_scale]\n")[2].partition("\n[")[0])
    assert tomllib.loads((op / "op.toml").read_text())["name"] == "offset_scale"
    include = {
        "op_kernel link": "leak.h",
        "include root link": "far.h",
        "relative climb": "../../../../outside/secret.h",
    }[how]
    if how == "op_kernel link":
        (op / "op_kernel" / "leak.h").symlink_to(outside / "secret.h")
    elif how == "include root link":
        (repo / "common" / "include" / "far.h").symlink_to(outside / "secret.h")
    kernel = op / "op_kernel" / "offset_scale.cpp"
    kernel.write_text(f'#include "{include}"\n{kernel.read_text()}')
    return repo


@pytest.mark.parametrize("how", ["op_kernel link", "include root link", "relative climb"])
def test_a_checkouts_links_put_no_outside_file_into_a_package(tmp_path: Path, how: str):
    # The corpus runner read a checkout's files through links and relative includes wherever
    # they led: the outside file's text went into the package, the compile quoted it back in the
    # outcome's message (a hostile checkout's way to a file its user can read). Now a file whose
    # real path leaves the checkout is refused before anything is packaged or sent.
    repo = hostile_checkout(tmp_path, how)
    source = next(s for s in find_ops(repo) if s.op == "offset_scale")
    outcome = runner.evaluate(source, compile_only=True)
    assert SECRET not in outcome.message
    assert outcome.status == "REJECTED", (outcome.status, outcome.message[:300])
    assert "outside the checkout" in outcome.message


# ---- the cann backend: what its app cache keys -------------------------------------------------
def cann_evaluate(pkg: OperatorPackage, tmp_path: Path, name: str) -> EvalResult:
    from npu_daemon.backends.cann import CannBackend, CannConfig

    backend = CannBackend(CannConfig(warmup=1, repeats=2, state_dir=tmp_path / "state"))
    (tmp_path / name).mkdir()
    request = EvalRequest(package=pkg, stages=[Stage.COMPILE, Stage.CHECK], cases=["aligned_fp16"])
    return backend.evaluate(request, tmp_path / name)


# One build directory is the family's default representative (with the spec's key below);
# op_host/ is the same key's other directory, and each case builds the cann app twice.
@pytest.mark.usefixtures("cann_env")
@pytest.mark.parametrize(
    "where", ["scale_cfg.h", pytest.param("op_host/scale_cfg.h", marks=pytest.mark.slow)]
)
def test_the_cann_app_cache_keys_every_file_its_build_can_read(tmp_path: Path, where: str):
    # The cann backend's kernel-launch project is the package written whole, compiled with -I on
    # its top and op_host/; the app cache keyed op_kernel/, inc/, tree/ and the tiling header
    # only. A kernel including a header at the top or in op_host/ got the app of the package
    # before it with the same kernel: the second package, whose own header does not compile,
    # was OK with the first's latency (another request's build decided its result).
    from tests.cann.test_cann_backend import small_add

    pkg = small_add()
    kernel = f'#include "scale_cfg.h"\n{pkg.kernel_source}'
    honest = pkg.with_sources(kernel=kernel)
    honest = honest.model_copy(update={"files": {**honest.files, where: "#define CFG 1\n"}})
    first = cann_evaluate(honest, tmp_path, "first")
    assert first.status is Status.OK, (first.status, first.message)
    broken = honest.model_copy(update={"files": {**honest.files, where: "#error bad config\n"}})
    second = cann_evaluate(broken, tmp_path, "second")
    assert second.status is Status.COMPILE_ERROR, (second.status, second.message)
    assert "bad config" in second.message


@pytest.mark.usefixtures("cann_env")
def test_the_cann_app_cache_keys_the_spec(tmp_path: Path):
    # The app's launch line names the spec's kernel entry and passes one pointer per argument the
    # spec declares, and the spec names the kernel file; none of it was in the app's key, so a
    # client operator naming an entry its kernel lacks was served the app of the one before it.
    from tests.cann.test_cann_backend import small_add

    pkg = small_add()
    first = cann_evaluate(pkg, tmp_path, "first")
    assert first.status is Status.OK, (first.status, first.message)
    renamed = pkg.model_copy(update={"spec": pkg.spec.model_copy(update={"kernel": "absent"})})
    second = cann_evaluate(renamed, tmp_path, "second")
    assert second.status is Status.COMPILE_ERROR, (second.status, second.message)


@pytest.mark.usefixtures("cann_env")
def test_a_cann_build_cut_short_leaves_no_app_of_the_packages_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # The project's `ready` marker and `build/` lay among the package's own files: a package
    # holding `ready` and a `build/ascend_gym_app` of its own, whose build was cut short (a worker
    # or daemon stopped mid-build: no BuildFailure, so nothing cleared it), left a project that
    # every later request of its key took as built, running the package's file as the app (a
    # script on the host, under msprof, beside the CSVs it reads). Now the marker is outside the
    # project and `build/` is CMake's alone.
    from npu_daemon.backends.cann import project
    from npu_daemon.backends.cann.backend import dtype_macros
    from npu_daemon.backends.cann.toolkit import Toolkit
    from tests.cann.test_cann_backend import small_add

    pkg = small_add()
    script = "#!/bin/sh\nexit 0\n"
    files = {**pkg.files, "ready": "built\n", f"build/{project.APP}": script}
    pkg = pkg.model_copy(update={"files": files})
    build = (
        pkg,
        dtype_macros(pkg.spec, pkg.spec.cases[0]),
        0,
        "Ascend910B4",
        Toolkit.discover(),
        60,
    )

    def stopped(*args: object) -> None:
        raise KeyboardInterrupt  # the worker stopped mid-build

    with monkeypatch.context() as m:
        m.setattr(project, "_step", stopped)
        with pytest.raises(KeyboardInterrupt):
            project.build_app(*build)
    app, hit = project.build_app(*build)
    assert not hit and app.read_bytes() != script.encode()


# The kernel file's host-side code (here a static object's destructor) runs in the app's process.
HOST_ANSWER = r"""
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
struct HostAnswer {
  ~HostAnswer() {
    std::ifstream spec("run.txt");
    std::string line, key, path;
    size_t bytes = 0;
    std::vector<std::pair<std::string, size_t>> in, out;
    while (std::getline(spec, line)) {
      std::istringstream s(line);
      s >> key;
      if (key == "input" || key == "output") {
        s >> path >> bytes;
        (key == "input" ? in : out).push_back({path, bytes});
      }
    }
    if (in.size() != 2 || out.size() != 1) return;
    std::vector<half> x(in[0].second / 2), y(in[1].second / 2), z(out[0].second / 2);
    std::ifstream(in[0].first, std::ios::binary).read(reinterpret_cast<char*>(x.data()), in[0].second);
    std::ifstream(in[1].first, std::ios::binary).read(reinterpret_cast<char*>(y.data()), in[1].second);
    for (size_t i = 0; i < z.size(); ++i) z[i] = half(float(x[i]) + float(y[i]));
    std::ofstream(out[0].first, std::ios::binary).write(reinterpret_cast<const char*>(z.data()), out[0].second);
  }
} hostAnswer;
"""


@pytest.mark.xfail(strict=True, reason="open: the cann app runs the kernel file's host-side code")
@pytest.mark.usefixtures("cann_env")
def test_the_cann_app_takes_its_outputs_from_the_device_not_the_kernels_host_code(tmp_path: Path):
    # Found this round, not fixed (docs/trust_boundary.md, An eighth red team): ascendc_library
    # builds the kernel file for the host too, into the library the app links, so its host-side
    # code runs in the app's process: a destructor rewrote the outputs with a sum computed on the
    # host after a device kernel that adds 16 elements a block, and every case passed.
    from tests.cann.test_cann_backend import small_add

    pkg = small_add()
    loop = "done < blockLength; done += tileLength"
    tile = "blockLength - done < tileLength ? blockLength - done : tileLength"
    assert loop in pkg.kernel_source and tile in pkg.kernel_source
    tiny = pkg.kernel_source.replace(loop, "done < 16; done += 16").replace(tile, "16u")
    result = cann_evaluate(pkg.with_sources(kernel=HOST_ANSWER + tiny), tmp_path, "host")
    assert result.status is Status.WRONG_ANSWER, (result.status, result.message)
