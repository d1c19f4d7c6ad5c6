"""cann-bench's direct-launch layout as an operator package (examples/direct_launch_example).

Such an operator is `csrc/ops/<op>/op_kernel/<op>_kernel.cpp`, which holds the kernel, the
project's tiling function and `extern "C"` launch wrappers (`kernel<<<blocks, l2ctrl,
stream>>>(args)`), its `<op>_launch.h`, and `op_plugin/<op>_plugin.cpp`, the torch function its
`build.sh` builds into the `cann_bench` wheel: it reads the tensors, calls the tiling function and
one launch wrapper. The package keeps those parts as they are and adds what the simulator's
contract wants (docs/cann_bench.md, Submissions):

- host tiling, `op_host/<op>_tiling.cpp` (generated): the plugin and the kernel file's host part
  (`op_kernel/<op>_kernel_host.cpp`, the file without its device code) against a small torch API
  (`direct_launch_host.h`); it calls the plugin with the case's tensors and writes the launch the
  plugin makes, the launch statement, its block count and arguments, as the tiling data;
- kernel, the project's file with an entry appended that makes that launch's call on each block.
"""

from __future__ import annotations

import re
from pathlib import Path

from ascend_core.package import GE_DTYPES, OperatorPackage
from ascend_gym.cannbench import NotASubmission, project_text

HERE = Path(__file__).parent
HOST_HEADER = "op_host/cann_bench_direct_host.h"
RECORD_HEADER = "op_kernel/cann_bench_launch_record.h"
# The plugin's includes from torch, ATen, c10 and torch_npu all resolve to the small torch API.
TORCH_INCLUDE = re.compile(r'#\s*include\s*[<"]((?:torch|ATen|c10|torch_npu)/[^>"]+)[>"]')
LAUNCH = re.compile(r"\b(\w+(?:\s*<[^<>;]*>)?)\s*<<<([^;]*?)>>>\s*\(")
DEVICE_INCLUDE = re.compile(
    r'^[ \t]*#\s*include\s*[<"](?:kernel_operator\.h|lib/[^>"]*)[>"].*$', re.M
)
DEVICE_WORD = re.compile(r"\b(?:__global__|__aicore__)\b")
BLOCK_HEAD = re.compile(r'^\s*(?:extern\s+"[^"]*"|(?:inline\s+)?namespace\b[\w:\s]*)\s*$')


def _blank(text: str) -> str:
    """The text with comments and string literals' contents made spaces (newlines kept), so that
    braces and words in them do not count."""
    pattern = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)

    def keep(m: re.Match[str]) -> str:
        s = m.group(0)
        if s[0] in "\"'":
            return s[0] + re.sub(r"[^\n]", " ", s[1:-1]) + s[-1]
        return re.sub(r"[^\n]", " ", s)

    return pattern.sub(keep, text)


def _without_device(blank: str) -> list[tuple[int, int]]:
    """The spans to drop: every declaration at namespace scope naming __global__ or __aicore__
    (kernels, device helpers, kernel classes, their template heads); namespace and extern "C"
    blocks are looked into."""
    drop: list[tuple[int, int]] = []
    pos, depth, head, blocks = 0, 0, 0, 0
    while pos < len(blank):
        c = blank[pos]
        if depth == 0 and c == "#" and blank[blank.rfind("\n", 0, pos) + 1 : pos].strip() == "":
            pos = blank.find("\n", pos)  # a preprocessor line is its own declaration
            pos = len(blank) if pos < 0 else pos
            head = pos + 1
        elif c == "{" and depth == 0 and BLOCK_HEAD.match(blank[head:pos]):
            blocks, head = blocks + 1, pos + 1
        elif c == "}" and depth == 0 and blocks:
            blocks, head = blocks - 1, pos + 1
        elif c == "{":
            depth += 1
        elif c == "}" or (c == ";" and depth == 0):
            depth -= c == "}"
            if depth == 0:
                if DEVICE_WORD.search(blank[head : pos + 1]):
                    drop.append((head, pos + 1))
                head = pos + 1
        pos += 1
    return drop


def host_part(kernel: str) -> str:
    """The kernel file as the host compiles it: its device code and AscendC includes blanked
    (lines kept, so diagnostics point at the project's lines), its launch statements recorded."""
    text = DEVICE_INCLUDE.sub("", kernel)
    for a, b in reversed(_without_device(_blank(text))):
        text = text[:a] + re.sub(r"[^\n]", "", text[a:b]) + text[b:]
    launches = iter(range(1 << 20))
    return LAUNCH.sub(
        lambda m: f"::cann_bench_direct::Launch({next(launches)}, {m.group(2)})(", text
    )


def launched_kernels(kernel: str) -> list[str]:
    """The kernels the launch statements launch, in the file's order (a record's instance)."""
    return [re.sub(r"\s+", "", m.group(1)) for m in LAUNCH.finditer(_blank(kernel))]


def entry(task: OperatorPackage, kernels: list[str]) -> str:
    """The kernel entry the simulator calls: the recorded launch, made on this block."""
    spec = task.spec
    args = [a.name for a in spec.inputs] + [o.name for o in spec.outputs if o.param]
    params = ", ".join(f"GM_ADDR cb_{a}" for a in [*args, "workspace", "tiling"])
    cases = "\n".join(
        f"    case {i}:\n"
        f"      cann_bench_direct::CallRecorded(&{k}, cann_bench_launch, cann_bench_gm);\n"
        "      break;"
        for i, k in enumerate(kernels)
    )
    return f"""

// ---- cann-bench direct launch: the entry the simulator calls (generated by ascend_gym) ----
#include "cann_bench_launch_record.h"
extern "C" __global__ __aicore__ void {spec.kernel}({params}) {{
  GET_TILING_DATA_WITH_STRUCT(cann_bench_direct::LaunchRecord, cann_bench_launch, cb_tiling);
  GM_ADDR const cann_bench_gm[] = {{{", ".join(f"cb_{a}" for a in args)}}};
  switch (cann_bench_launch.instance) {{
{cases}
  }}
}}
"""


_ATTR_VALUE = {
    "int": "int64_t(*given->GetInt({i}))",
    "float": "double(*given->GetFloat({i}))",
    "bool": "bool(*given->GetBool({i}))",
    "str": "std::string(given->GetStr({i}))",
    "list_int": "std::vector<int64_t>(given->GetListInt({i})->GetData(), "
    "given->GetListInt({i})->GetData() + given->GetListInt({i})->GetSize())",
    "list_float": "std::vector<double>(given->GetListFloat({i})->GetData(), "
    "given->GetListFloat({i})->GetData() + given->GetListFloat({i})->GetSize())",
}


def tiling_program(task: OperatorPackage, op: str, kernel_host: str, plugin: str) -> str:
    """op_host/<op>_tiling.cpp: the plugin called with the case, its launch the tiling data."""
    spec = task.spec
    values = [
        f"  inputs.push_back(cann_bench_direct::Input(ctx, {i}));" for i in range(len(spec.inputs))
    ]
    for i, a in enumerate(spec.attrs):
        if a.type not in _ATTR_VALUE:
            raise NotASubmission(f"{spec.name}: a {a.type} attribute is not handed to a plugin")
        values.append(f'  attrs["{a.name}"] = {_ATTR_VALUE[a.type].format(i=i)};')
    optional = {n for c in spec.cases for n in c.absent}

    def param(kind: str, name: str, dtypes: list[str], required: bool) -> str:
        types = ", ".join(f"ge::{GE_DTYPES[d]}" for d in dtypes)
        return (
            f'    this->{kind}("{name}").ParamType({"REQUIRED" if required else "OPTIONAL"})'
            f".DataType({{{types}}});"
        )

    params = [param("Input", a.name, a.dtypes, a.name not in optional) for a in spec.inputs]
    params += [param("Output", o.name, o.dtypes, True) for o in spec.outputs if o.param]
    newline = "\n"
    return f"""// cann-bench direct launch (generated by ascend_gym): the project's host side, its plugin and
// its kernel file's host part, as the tiling program; the launch the plugin makes is the tiling.
#include "cann_bench_direct_host.h"
#include "../{kernel_host}"
#include "{Path(plugin).name}"

namespace optiling {{
static ge::graphStatus DirectLaunchTiling(gert::TilingContext* ctx) {{
  cann_bench_direct::Begin();
  [[maybe_unused]] const gert::RuntimeAttrs* given = ctx->GetAttrs();
  std::vector<cann_bench_direct::Value> inputs;
  std::map<std::string, cann_bench_direct::Value> attrs;
{newline.join(values)}
  return cann_bench_direct::Run(ctx, "{op}", inputs, attrs);
}}
}}  // namespace optiling

namespace ops {{
class {spec.op_type} : public OpDef {{
 public:
  explicit {spec.op_type}(const char* name) : OpDef(name) {{
{newline.join(params)}
    this->AICore().SetTiling(optiling::DirectLaunchTiling);
  }}
}};
OP_ADD({spec.op_type});
}}  // namespace ops
"""


def _source(folder: Path, names: list[str], what: str) -> Path:
    for name in names:
        if (folder / name).is_file():
            return folder / name
    found = sorted(folder.glob("*.cpp")) if folder.is_dir() else []
    if len(found) == 1:
        return found[0]
    raise NotASubmission(f"{folder}: no {what} ({' or '.join(names)})")


def package(op_dir: Path, task: OperatorPackage) -> OperatorPackage:
    """The direct-launch operator under `op_dir` with the task's spec and golden."""
    op = op_dir.name
    if any(a.dynamic for a in task.spec.inputs + task.spec.outputs):
        raise NotASubmission(f"{task.spec.name}: a list argument is not handed to a plugin")
    kernel = _source(op_dir / "op_kernel", [f"{op}_kernel.cpp", f"{op}.cpp"], "kernel source")
    plugin = _source(op_dir / "op_plugin", [f"{op}_plugin.cpp", f"{op}.cpp"], "plugin source")
    kernel_text = project_text(kernel, op_dir)
    kernels = launched_kernels(kernel_text)
    if not kernels:
        raise NotASubmission(f"{kernel}: no launch statement (kernel<<<blocks, ...>>>(args))")
    files = {
        f"op_kernel/{p.relative_to(op_dir / 'op_kernel').as_posix()}": project_text(p, op_dir)
        for p in sorted((op_dir / "op_kernel").rglob("*"))
        if p.is_file() and p.suffix in (".h", ".hpp", ".cpp", ".cc", ".inl")
    }
    kernel_path = f"op_kernel/{kernel.name}"
    kernel_host = f"op_kernel/{kernel.stem}_host{kernel.suffix}"
    plugin_text = project_text(plugin, op_dir)
    files[kernel_path] = kernel_text + entry(task, kernels)
    files[kernel_host] = host_part(kernel_text)
    files[f"op_host/{plugin.name}"] = plugin_text
    files[RECORD_HEADER] = (HERE / "cann_bench_launch_record.h").read_text()
    files[HOST_HEADER] = (HERE / "direct_launch_host.h").read_text()
    for header in sorted(set(TORCH_INCLUDE.findall(plugin_text))):
        files[f"op_host/{header}"] = '#pragma once\n#include "cann_bench_direct_host.h"\n'
    host = f"op_host/{op}_tiling.cpp"
    files[host] = tiling_program(task, op, kernel_host, plugin.name)
    spec = task.spec.model_copy(
        update={
            "host_file": host,
            "tiling_header": RECORD_HEADER,
            "kernel_file": kernel_path,
            "host_sources": [],
        }
    )
    golden = {p: t for p, t in task.files.items() if not p.startswith(("op_host", "op_kernel"))}
    return OperatorPackage(spec=spec, files={**files, **golden}, uri=str(op_dir.resolve()))
