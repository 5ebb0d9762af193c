"""pytest configuration of the Python frontend's tests.

The suite runs against whatever `import kernforge` finds: the build tree's package
(build/<preset>/python, PYTHONPATH set by CTest) or an installed one. KF_CDEV_PLUGIN_DIR, set by
CTest, is the folder of the dispatch tests' cdev plugin (it defines cdev::scale and cdev::axpy),
used by the tests of plugin-defined ops and entry points; without it those tests are skipped.
KF_NULLCOLL_PLUGIN_DIR is the folder of tests/distributed's collective plugin without slots
(nullcoll), used by the test of the entry-point group kernforge.distributed.backends.
KF_TOY_PLUGIN_DIR is the folder of the toy device built for the tests (examples/toy_device: its
toy::scale has a backward formula), used by the test that trains through a plugin's op.
"""

import os

import pytest


@pytest.fixture(scope="session")
def cdev_dir():
    d = os.environ.get("KF_CDEV_PLUGIN_DIR", "")
    if not d or not os.path.exists(os.path.join(d, "cdev.json")):
        pytest.skip("KF_CDEV_PLUGIN_DIR does not name the cdev test plugin's folder")
    return d


@pytest.fixture(scope="session")
def toy_dir():
    d = os.environ.get("KF_TOY_PLUGIN_DIR", "")
    if not d or not os.path.exists(os.path.join(d, "toy.json")):
        pytest.skip("KF_TOY_PLUGIN_DIR does not name the folder of the toy plugin built for the tests")
    return d
