"""One node per data folder: a second node on a folder in use is refused at start; the lock
dies with its process, however it ends."""

from __future__ import annotations

import signal

from tests.node.cli.test_errors import fairtable, refused
from tests.node.nodes import listening_address, node_process


def test_a_second_node_on_a_data_folder_in_use_is_refused_and_a_killed_node_frees_it(tmp_path):
    data = tmp_path / "data"
    first = node_process(data, "first", log=tmp_path / "first.log")
    try:
        listening_address(first)
        line = refused(fairtable("node", "--data", str(data), "--name", "second"), "fairtable node:", str(data), "in use")
        assert f"process {first.pid}" in line
        first.send_signal(signal.SIGKILL)
        first.communicate(timeout=30)
        again = node_process(data, "again", log=tmp_path / "again.log")
        try:
            listening_address(again)
        finally:
            again.kill()
            again.communicate(timeout=30)
    finally:
        first.kill()
        first.communicate(timeout=30)
