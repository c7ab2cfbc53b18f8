"""scripts/installed_package.py, with which scripts/run_tests.sh decides whether the
package the README's first command installed can be tested as it is (no second build)."""

import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _fake_install(site, url, editable=False):
    info = site / "ascend_xent-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: ascend-xent\nVersion: 0.1.0\n"
                                   "Requires-Dist: numpy>=1.23\n"
                                   'Requires-Dist: pytest; extra == "test"\n'
                                   "Requires-Dist: torch==2.13.0; extra == 'test'\n"
                                   'Requires-Dist: matplotlib>=3.5; extra == "bench"\n')
    (info / "RECORD").write_text("ascend_xent-0.1.0.dist-info/METADATA,,\nascend_xent-0.1.0.dist-info/RECORD,,\n")
    (info / "direct_url.json").write_text(json.dumps({"url": url, "dir_info": {"editable": editable}}))
    return info / "RECORD"


def _run(site, root=ROOT):
    env = dict(os.environ, PYTHONPATH=str(site))  # found before the real installation
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "installed_package.py"), str(root), "test"],
                          capture_output=True, text=True, env=env, timeout=60)


def test_an_install_of_this_tree_gives_its_record_and_the_extras_requirements(tmp_path):
    record = _fake_install(tmp_path, ROOT.as_uri())
    r = _run(tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [str(record), "pytest", "torch==2.13.0"]


def test_an_editable_install_or_one_from_elsewhere_is_rebuilt(tmp_path):
    _fake_install(tmp_path / "editable", ROOT.as_uri(), editable=True)
    _fake_install(tmp_path / "other", (tmp_path / "another-checkout").as_uri())
    for site in ("editable", "other"):
        r = _run(tmp_path / site)
        assert r.returncode == 1 and r.stdout == "", (site, r.stdout)
