"""`ascend-gym sim coverage` lists the host families of issue 52's seventh round (the aclnn
layer's platform query and log, the SoftMax family's tiling helpers, OpParamDef, the platform
description's resources) and reads them from our host headers and tests."""

from ascend_gym import sim_coverage


def test_the_new_host_families_are_measured():
    apis = {(a.family, a.api): a for a in sim_coverage.measure()}
    for key in [
        ("aclnn platform", "GetCurrentPlatformInfo"),
        ("high-level API tiling (host)", "GetSoftMaxGradMaxTmpSize"),
        ("high-level API tiling (host)", "BLOCK_CUBE"),
        ("host tiling registration", "InitValue"),
        ("host platform", "GetPlatformRes"),
        ("logging and check macros", "CHECK_RET"),
    ]:
        assert apis[key].emulated and apis[key].tested, key
    # documented, emulated, in no test of ours yet
    assert apis[("high-level API tiling (host)", "SoftMaxFlashV2TilingFunc")].emulated
    # an internal setter of the aclnn layer: listed by its header, not emulated
    assert not apis[("aclnn platform", "SetPlatformImpl")].emulated
