"""``kill -USR1`` a running node: it logs its task tree and goes on (node/cli/stuck.py)."""

import signal
import time

from tests.node.nodes import listening_address, node_process


def test_a_node_asked_by_sigusr1_logs_where_its_tasks_wait_and_keeps_running(tmp_path):
    node = node_process(tmp_path / "a", "alice", "--discovery", "off")
    try:
        listening_address(node)
        node.send_signal(signal.SIGUSR1)
        log = tmp_path / "a.log"
        deadline = time.monotonic() + 30  # a guard against hanging, not a timing assertion
        while "tasks, as asked by SIGUSR1" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.02)
        text = log.read_text()
        assert "tasks, as asked by SIGUSR1" in text
        report = text[text.index("tasks, as asked by SIGUSR1"):]
        assert "report_on_signal (stuck.py:" in report  # the task that answers is in the tree, with its frame
        assert "\n  " in report  # child tasks indented under their parent
        assert "Traceback" not in text
        assert node.poll() is None  # it goes on
    finally:
        node.terminate()
        node.wait()
