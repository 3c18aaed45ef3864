"""``fairtable node --api-port`` prints a one-time login link for the browser page; the token stays out of it."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request

from tests.node.nodes import node_process


def test_the_node_prints_a_link_whose_code_gives_the_token_once(tmp_path):
    process = node_process(tmp_path / "me", "me", "--api-port", "0")
    try:
        lines = [process.stdout.readline() for _ in range(3)]
        link = re.search(r"play in a browser: http://127\.0\.0\.1:(\d+)/#login=([A-Za-z0-9_-]+) ", lines[2])
        assert link is not None, lines
        port, code = link.groups()
        token = (tmp_path / "me" / "api-token").read_text().strip()
        assert token not in "".join(lines) and token not in (tmp_path / "me.log").read_text()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
            assert b"<title>fairtable</title>" in page.read()
        login = urllib.request.Request(f"http://127.0.0.1:{port}/login", data=code.encode(), method="POST")
        with urllib.request.urlopen(login, timeout=10) as answer:
            assert json.loads(answer.read()) == {"token": token}
        try:
            urllib.request.urlopen(login, timeout=10)
            raise AssertionError("a login code worked twice")
        except urllib.error.HTTPError as refused:
            assert refused.code == 403
    finally:
        process.terminate()
        process.wait(10)
