"""Parsing what the real tools print: msprof op CSVs (multi-block, several launches) and npu-smi."""

from __future__ import annotations

from pathlib import Path

import pytest

from npu_daemon.backends.cann import device, msprof

BASIC_HEADER = "Op Name,Op Type,Task Duration(us),Block Dim,Mix Block Dim,Device Id,Pid,Current Freq,Rated Freq\n"
PIPE_HEADER = (
    "block_id,sub_block_id,aic_time(us),aic_total_cycles,aiv_time(us),aiv_total_cycles,aiv_vec_time(us),aiv_vec_ratio,"
    "aic_cube_time(us),aic_cube_ratio,aiv_scalar_time(us),aiv_scalar_ratio,aiv_mte2_time(us),aiv_mte2_ratio,"
    "aiv_mte3_time(us),aiv_mte3_ratio,aiv_icache_miss_rate\n"
)


def pipe_rows(blocks: list[tuple[float, float, float, float, float]]) -> str:
    """One row per block: (aiv_time, vec, scalar, mte2, mte3) in us; aic columns N/A (vector-only kernel)."""
    rows = []
    for i, (total, vec, scalar, mte2, mte3) in enumerate(blocks):
        rows.append(
            f"{i},vector0,N/A,N/A,{total},{int(total * 1800)},{vec},{vec / total:.3f},N/A,N/A,{scalar},{scalar / total:.3f},"
            f"{mte2},{mte2 / total:.3f},{mte3},{mte3 / total:.3f},0.01\n"
        )
    return "".join(rows)


def write_launch(
    folder: Path, duration: float, blocks: list[tuple[float, float, float, float, float]]
) -> None:
    folder.mkdir(parents=True)
    (folder / "OpBasicInfo.csv").write_text(
        BASIC_HEADER + f"add_custom,vector,{duration},{len(blocks)},N/A,0,4242,1800,1800\n"
    )
    (folder / "PipeUtilization.csv").write_text(PIPE_HEADER + pipe_rows(blocks))


def test_pipe_utilization_means_over_blocks_and_ratios_over_time(tmp_path: Path) -> None:
    # Three blocks, the last one a short tail block: means are per block, ratios weigh by time.
    blocks = [(10.0, 2.0, 1.0, 6.0, 3.0), (10.0, 2.0, 1.0, 6.0, 3.0), (4.0, 1.0, 0.5, 2.0, 1.0)]
    path = tmp_path / "PipeUtilization.csv"
    path.write_text(
        PIPE_HEADER
        + pipe_rows(blocks)
        + "3,cube0,1.5,2700,N/A,N/A,N/A,N/A,0.2,0.1,N/A,N/A,N/A,N/A,N/A,N/A,N/A\n"
    )
    pipes, n = msprof.read_pipe_utilization(path)
    assert n == 3  # the cube row has no vector time and is not a vector block
    assert pipes["aiv_time_us"] == pytest.approx(8.0)
    assert pipes["aiv_mte2_time_us"] == pytest.approx(14.0 / 3)
    assert pipes["aiv_mte2_ratio"] == pytest.approx(14.0 / 24.0)
    assert pipes["aiv_vec_ratio"] == pytest.approx(5.0 / 24.0)
    assert pipes["aiv_scalar_time_us"] == pytest.approx(2.5 / 3)
    assert pipes["aiv_mte3_ratio"] == pytest.approx(7.0 / 24.0)


def test_launches_in_nested_folders_give_median_and_spread(tmp_path: Path) -> None:
    root = tmp_path / "OPPROF_20250101120000_ABCDEF"
    durations = [30.0, 12.0, 10.0, 11.0, 13.0]
    for i, d in enumerate(durations):
        fast = d <= 11.0
        write_launch(
            root / "device0" / "add_custom" / str(i),
            d,
            [(8.0, 1.0, 0.5, 5.0 if fast else 6.0, 2.0)] * 4,
        )
    launches = msprof.read_output(tmp_path)
    assert [
        l.task_duration_us for l in launches
    ] == durations  # natural order of the launch folders
    latency, fields = msprof.summarise(launches)
    assert latency == 12.0
    assert fields["block_dim"] == 4 and fields["timing_repeats"] == 5
    assert fields["latency_min_us"] == 10.0 and fields["latency_max_us"] == 30.0
    assert fields["latency_iqr_us"] == pytest.approx(13.0 - 11.0)
    assert fields["aiv_mte2_time_us"] == pytest.approx(6.0)  # the pipes of the median launch
    assert fields["current_freq_mhz"] == 1800.0
    assert "gm_read_bytes" not in fields  # no Memory.csv collected


def test_memory_csv_gives_gm_traffic_over_all_blocks(tmp_path: Path) -> None:
    folder = tmp_path / "OPPROF_20250101120000_ABCDEFGHIJKLMNOP"
    write_launch(folder, 20.0, [(8.0, 1.0, 0.5, 5.0, 2.0)] * 3)
    (folder / "Memory.csv").write_text(
        "block_id,sub_block_id,aic_time(us),aiv_time(us),aiv_gm_to_ub_bw(GB/s),GM_to_UB_datas(KB),UB_to_GM_datas(KB)\n"
        "0,vector0,N/A,8.0,40.1,250.5,125.25\n1,vector0,N/A,8.0,40.1,250.5,125.25\n2,vector0,N/A,8.0,40.0,249.0,124.5\n"
        "3,cube0,1.0,N/A,N/A,N/A,N/A\n"
    )
    _, fields = msprof.summarise(msprof.read_output(tmp_path))
    assert fields["gm_read_bytes"] == round(750.0 * 1024) and fields["gm_write_bytes"] == round(
        375.0 * 1024
    )


def test_output_without_csv_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "OPPROF_x").mkdir()
    with pytest.raises(msprof.MsprofError, match="OpBasicInfo"):
        msprof.read_output(tmp_path)


def test_command_line() -> None:
    cmd = msprof.command(Path("/b/app"), "time.txt", Path("/o"), "add", 5, 20)
    assert cmd[:2] == ["msprof", "op"]
    assert (
        "--kernel-name=add" in cmd
        and "--launch-skip-before-match=5" in cmd
        and "--launch-count=20" in cmd
    )
    assert cmd[-2:] == ["/b/app", "time.txt"]  # the app and its arguments come last


NPU_SMI = """\
+------------------------------------------------------------------------------------------------+
| npu-smi 23.0.6                   Version: 23.0.6                                               |
+---------------------------+---------------+----------------------------------------------------+
| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
+===========================+===============+====================================================+
| 0     910B4               | OK            | 89.7        38                0    / 0             |
| 0                         | 0000:C1:00.0  | 0           0    / 0          3391 / 32768         |
+===========================+===============+====================================================+
| 1     910B4               | Alarm         | 90.2        40                0    / 0             |
| 0                         | 0000:C2:00.0  | 0           0    / 0          3390 / 32768         |
+===========================+===============+====================================================+
+---------------------------+---------------+----------------------------------------------------+
| NPU     Chip              | Process id    | Process name             | Process memory(MB)      |
+===========================+===============+====================================================+
| 0       0                 | 81234         | python3                  | 2048                    |
+===========================+===============+====================================================+
"""


def test_npu_smi_table() -> None:
    info = device.parse_npu_smi(NPU_SMI)
    assert info.driver == "23.0.6"
    assert [(d.device_id, d.name, d.health) for d in info.devices] == [
        (0, "910B4", "OK"),
        (1, "910B4", "Alarm"),
    ]
    with pytest.raises(device.DeviceError, match="no device 3"):
        info.device(3)
