"""Regenerates ascend_gym/sim_api_documented.toml, the documented AscendC API list that
`ascend-gym sim coverage` compares our emulation with, from the public sources it names: the API
lists of asc-devkit's documentation (basic and high-level APIs, the Matmul kernel and tiling pages,
PlatformAscendC and the tiling registration pages), the Ops base library's public headers (logging
and check macros, math, shape and platform helpers) and metadef's runtime headers (gert::Shape,
the tiling and infer-shape contexts). Names and page paths only: no text is copied.

    python benchmarks/sim_api_documented.py ASC_DEVKIT_GIT OPBASE_GIT METADEF_GIT OPS_NN_GIT \
        > ascend_gym/sim_api_documented.toml

Each argument is a git directory (e.g. /work/.mirror/mirror-cann+asc-devkit/repo), read at HEAD.
`--host METADEF_GIT [ASC_DEVKIT_GIT]` prints the host families alone (host_rows), to append to a
list generated before they were added (without asc-devkit their a2 reads "unstated");
`--host-headers ASC_DEVKIT_GIT OPBASE_GIT` the seventh round's (host_header_rows) likewise.
"""

from __future__ import annotations

import re
import subprocess
import sys

API = "docs/zh/api/SIMD-API"
UTILS = "docs/zh/api/Utils-API"

# asc-devkit list sections (## [> ###]) -> our family; None leaves a section out: the Reg-based
# vector API and the TensorAPI cube API target the register-based cores (__NPU_ARCH__ 3510), not
# the A2 cores the simulator models.
BASIC = {
    "基础数据结构": "tensors and resources",
    "资源管理": "tensors and resources",
    "Memory矢量计算 > 基础算术": "vector",
    "Memory矢量计算 > 复合计算": "vector",
    "Memory矢量计算 > 逻辑计算": "vector",
    "Memory矢量计算 > 掩码操作": "vector",
    "Memory矢量计算 > 数据填充": "vector",
    "Memory矢量计算 > 比较与选择": "vector compare/select",
    "Memory矢量计算 > 类型转换": "vector cast",
    "Memory矢量计算 > 归约计算": "reduction",
    "Memory矢量计算 > 排序组合（ISASI）": "sort",
    "Memory矢量计算 > 数据排布转换": "vector rearrange",
    "Memory矢量计算 > 数据重排（ISASI）": "vector rearrange",
    "Memory矢量计算 > 离散与聚合": "vector rearrange",
    "Memory矢量计算 > 数据搬运": "data movement",
    "原子操作": "data movement",
    "缓存控制": "data movement",
    "同步控制": "sync",
    "标量计算": "scalar",
    "矩阵计算（ISASI）": "cube",
    "Cube分组管理（ISASI）": "cube",
    "工具接口": "system",
    "特殊寄存器访问": "system",
    "调试接口": "system",
    "Kernel-Tiling": "system",
    "Reg矢量计算": None,
    "矩阵计算（TensorAPI）": None,
}
ADVANCED = {
    "数学计算": "high-level math",
    "激活函数": "high-level activation",
    "归一化操作": "high-level normalization",
    "归约操作": "reduction",
    "排序操作": "sort",
    "量化操作": "high-level quantization",
    "矩阵计算": None,  # expanded below from the Matmul kernel and tiling pages
}
ADVANCED_OTHER = "high-level transform and other"


def git_show(repo: str, path: str) -> str:
    return subprocess.run(
        ["git", "-C", repo, "show", f"HEAD:{path}"], capture_output=True, text=True, check=True
    ).stdout


def git_ls(repo: str, path: str) -> list[str]:
    out = subprocess.run(
        [
            "git",
            "-C",
            repo,
            "-c",
            "core.quotepath=off",
            "ls-tree",
            "-r",
            "--name-only",
            "HEAD",
            path,
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return out.split()


def symbols(title: str) -> list[str]:
    """C++ identifiers a list title names: `SetFlag/WaitFlag(ISASI)` -> SetFlag, WaitFlag."""
    base = re.sub(r"[（(].*$", "", title).strip()
    return [s.strip() for s in re.split(r"[/、]", base) if IDENT.fullmatch(s.strip())]


def from_list(repo: str, page: str, sections: dict[str, str | None], other: str | None):
    h2 = h3 = ""
    for line in git_show(repo, f"{API}/{page}").splitlines():
        if line.startswith("## "):
            h2, h3 = line[3:].strip(), ""
        elif line.startswith("### "):
            h3 = line[4:].strip()
        m = re.match(r"\| \[([^\]]+)\]\((.+?\.md)\)", line)
        if not m:
            continue
        key = f"{h2} > {h3}" if f"{h2} > {h3}" in sections else h2
        family = sections.get(key, other)
        if family is None:
            continue
        title, link = m.groups()
        doc = f"asc-devkit {API}/{page.rsplit('/', 1)[0]}/{link}"
        variant = title if re.search(r"（(?!ISASI)", title) else ""
        for sym in symbols(title):
            yield family, sym, variant, doc


def from_pages(repo: str, folder: str, family: str):
    for path in git_ls(repo, folder):
        stem = re.sub(r"-\d+$", "", path.rsplit("/", 1)[1].removesuffix(".md"))
        if IDENT.fullmatch(stem):
            yield family, stem, "", f"asc-devkit {path}"


IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
DECL = re.compile(
    r"^\s*(?:template\s*<[^>]*>\s*)?(?:[\w:<>,*&]+\s+)+[*&]?([A-Z]\w*)\s*\(", re.ASCII
)
MACRO = re.compile(r"^#define\s+([A-Z][A-Z0-9_]+)\b(?!\s*$)", re.ASCII)

# Names whose pages are titled in prose (class and struct pages): (family, api, folder page).
NAMED_PAGES = [
    ("Matmul tiling (host)", "MatmulApiTiling", "Matmul-Tiling类/Matmul-Tiling类.md"),
    ("Matmul tiling (host)", "MultiCoreMatmulTiling", "Matmul-Tiling类/Matmul-Tiling类.md"),
    ("Matmul tiling (host)", "BatchMatmulTiling", "Matmul-Tiling类/Matmul-Tiling类.md"),
    ("Matmul tiling (host)", "TCubeTiling", "Matmul-Tiling类/TCubeTiling结构体.md"),
]
# The host-side names a tiling uses that the API lists do not title: the Matmul tiling
# constructors' PlatformInfo, and the high-level APIs' tiling pages (their struct and functions):
# (family, api, page under the SIMD API's 高阶API folder).
HOST_NAMED_PAGES = [
    ("host platform", "PlatformInfo", "矩阵计算/Matmul-Tiling类/Matmul-Tiling类.md"),
    ("high-level API tiling (host)", "TopkTiling", "排序操作/TopK-Tiling.md"),
    ("high-level API tiling (host)", "GetTopKMaxMinTmpSize", "排序操作/TopK-Tiling.md"),
    ("high-level API tiling (host)", "TopKTilingFunc", "排序操作/TopK-Tiling.md"),
]
# Format queries of graph/types.h (the rest of it is type lists and macros).
FORMAT_QUERY = re.compile(r"^(Get|Has)\w*(Format|C0|Size)\w*$")


def from_header(
    repo: str, path: str, family: str, macros_only: bool = False, only: re.Pattern | None = None
):
    seen: set[str] = set()
    for line in git_show(repo, path).splitlines():
        if line.lstrip().startswith(("*", "/")):
            continue
        m = MACRO.match(line) or (None if macros_only else DECL.match(line))
        if not m or m.group(1) in seen or m.group(1).startswith(("OP_COMMON", "OPBASE")):
            continue
        if only is not None and not only.match(m.group(1)):
            continue
        seen.add(m.group(1))
        yield family, m.group(1), "", f"{repo_name(repo)} {path}"


A2_SUPPORT = re.compile(r"Atlas A2 训练系列产品[^\n：:]*[：:]\s*(不支持|支持)")


def a2_support(repo: str, doc: str, api: str) -> str:
    """What an asc-devkit page's product table says of the A2 parts (Atlas A2 training / inference
    series, the 910B): "yes", "no", or "unstated" (no table, or a header source). A list entry that
    links a folder's index page is read from the API's own page beside it."""
    if not doc.startswith("asc-devkit "):
        return "unstated"
    path = doc.removeprefix("asc-devkit ")
    for page in (path, f"{path.rsplit('/', 1)[0]}/{api}.md"):
        try:
            m = A2_SUPPORT.search(git_show(repo, page))
        except subprocess.CalledProcessError:
            continue
        if m:
            return "no" if m.group(1) == "不支持" else "yes"
    return "unstated"


def repo_name(repo: str) -> str:
    return repo.rstrip("/").split("/")[-2].replace("+", "/")


def host_rows(metadef: str):
    """The host APIs of tensor and format descriptions, platform info and the high-level APIs'
    tiling (issue 52): metadef's runtime headers and graph/types.h, and HOST_NAMED_PAGES."""
    family = "host tensor and format descriptions"
    runtime = "inc/external/exe_graph/runtime"
    for header in ("storage_format.h", "compute_node_info.h", "tiling_data.h"):
        yield from from_header(metadef, f"{runtime}/{header}", family)
    yield from from_header(metadef, "inc/external/graph/types.h", family, only=FORMAT_QUERY)
    for fam, api, page in HOST_NAMED_PAGES:
        yield fam, api, "", f"asc-devkit {API}/高阶API/{page}"


# The host families of issue 52's seventh round: the aclnn layer's platform query and log, the
# SoftMax family's tiling helpers, the OpParamDef pages (InitValue) and the names a tiling takes
# from CANN headers that no page titles: (family, api, source).
HOST_NAMED = [
    ("host platform", "GetPlatformRes", "asc-devkit tests/api/common/platform_stub.h"),
    ("host platform", "GetPlatformResWithLock", "asc-devkit tests/api/common/platform_stub.h"),
    (
        "high-level API tiling (host)",
        "BLOCK_CUBE",
        "asc-devkit include/adv_api/transpose/confusion_transpose_tiling.h",
    ),
]


def host_header_rows(asc: str, opbase: str):
    """Issue 52's seventh-round host families (HOST_NAMED and the headers below)."""
    yield from from_header(opbase, "include/nnopbase/opdev/platform.h", "aclnn platform")
    yield from from_header(
        opbase, "include/nnopbase/opdev/op_log.h", "logging and check macros", macros_only=True
    )
    yield from from_header(
        asc, "include/adv_api/activation/softmax_tiling.h", "high-level API tiling (host)"
    )
    yield from from_pages(asc, f"{UTILS}/原型注册与管理/OpParamDef", "host tiling registration")
    yield from ((family, api, "", doc) for family, api, doc in HOST_NAMED)


def main(asc: str, opbase: str, metadef: str, opsnn: str) -> None:
    matmul = f"{API}/高阶API/矩阵计算"
    rows = [
        *from_list(asc, "基础API/基础API列表.md", BASIC, None),
        *from_list(asc, "高阶API/高阶API列表.md", ADVANCED, ADVANCED_OTHER),
        *from_pages(asc, f"{matmul}/Matmul-Kernel侧接口", "Matmul"),
        *from_pages(asc, f"{matmul}/Matmul-Tiling类", "Matmul tiling (host)"),
        *from_pages(asc, f"{matmul}/获取Matmul计算所需空间", "Matmul tiling (host)"),
        *((f, a, "", f"asc-devkit {matmul}/{page}") for f, a, page in NAMED_PAGES),
        *from_pages(asc, f"{UTILS}/平台信息获取/PlatformAscendC", "host platform"),
        *from_pages(asc, f"{UTILS}/Tiling模板编程", "host tiling registration"),
        *from_pages(asc, f"{UTILS}/原型注册与管理/OpDef", "host tiling registration"),
        *from_header(
            opbase, "include/op_common/log/log.h", "logging and check macros", macros_only=True
        ),
        *from_header(
            opsnn, "common/inc/error_util.h", "logging and check macros", macros_only=True
        ),
        *from_header(
            opbase, "include/op_common/op_host/util/math_util.h", "shape and math utilities"
        ),
        *from_header(
            opbase, "include/op_common/op_host/util/shape_util.h", "shape and math utilities"
        ),
        *from_header(opbase, "include/op_common/op_kernel/math_util.h", "shape and math utilities"),
        *from_header(opbase, "include/op_common/op_host/util/platform_util.h", "host platform"),
        *from_header(metadef, "inc/external/exe_graph/runtime/shape.h", "shape and math utilities"),
        *from_header(
            metadef, "inc/external/exe_graph/runtime/storage_shape.h", "shape and math utilities"
        ),
        *from_header(
            metadef, "inc/external/exe_graph/runtime/tiling_context.h", "host tiling context"
        ),
        *from_header(
            metadef,
            "inc/external/exe_graph/runtime/extended_kernel_context.h",
            "host tiling context",
        ),
        *from_header(
            metadef, "inc/external/exe_graph/runtime/runtime_attrs.h", "host tiling context"
        ),
        *from_header(
            metadef,
            "inc/external/register/tilingdata_base.h",
            "host tiling registration",
            macros_only=True,
        ),
        *host_rows(metadef),
        *host_header_rows(asc, opbase),
    ]
    print_rows(rows, asc, header=True)


def print_rows(rows, asc: str, header: bool) -> None:
    if not header:
        return print_list(rows, asc)
    print(
        "# The documented AscendC API the simulator is measured against (`ascend-gym sim coverage`)."
    )
    print(
        "# Generated by benchmarks/sim_api_documented.py from public sources (names and page paths only)."
    )
    print("# family: ours; api: the C++ name; form: the documented variant of a name with several;")
    print(
        "# doc: the page or header it comes from (repository and path); a2: the page's product table"
    )
    print("# for the Atlas A2 parts (910B): yes, no, or unstated.")
    print_list(rows, asc)


def print_list(rows, asc: str) -> None:
    seen: set[tuple[str, str, str]] = set()
    for family, api, form, doc in rows:
        if (family, api, form) in seen:
            continue
        seen.add((family, api, form))
        print(f'\n[[api]]\nfamily = "{family}"\napi = "{api}"')
        if form:
            print(f'form = "{form}"')
        print(f'doc = "{doc}"\na2 = "{a2_support(asc, doc, api)}"')


if __name__ == "__main__":
    if sys.argv[1:2] == ["--host"]:  # host_rows alone: METADEF_GIT [ASC_DEVKIT_GIT]
        print_rows(list(host_rows(sys.argv[2])), sys.argv[3] if len(sys.argv) > 3 else "", False)
    elif sys.argv[1:2] == ["--host-headers"]:  # host_header_rows alone: ASC_DEVKIT_GIT OPBASE_GIT
        print_rows(list(host_header_rows(sys.argv[2], sys.argv[3])), sys.argv[2], False)
    else:
        main(*sys.argv[1:5])
