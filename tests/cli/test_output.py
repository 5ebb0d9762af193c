#!/usr/bin/env python3
"""What the `kernforge` command writes: outside text that is not UTF-8 or holds terminal control
characters (a folder name, manifest fields, a variable) reaches neither `doctor --json` as
invalid JSON nor a terminal as control characters, and a command whose output cannot be
written (`> /dev/full`, a closed stdout) exits 74 with a message on stderr.

    KERNFORGE_CLI=build/default/bin/kernforge python3 tests/cli/test_output.py [-v] [Case.test]
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

LIB_SUFFIX = ".dll" if os.name == "nt" else ".so"
EXIT_OUTPUT_ERROR = 74
# A folder name with an invalid UTF-8 byte and an ESC sequence that would turn text red.
ODD_FOLDER = b"kf_odd_\xff\xfe_\x1b[31mred"
# Manifest fields with a window-title OSC sequence, a C1 CSI, a newline faking a verdict line
# and a bidirectional override.
ODD_NAME = "odd\x1b]0;pwned\x07\u009b2J\nkernforge doctor: all well\u202e"


def cli() -> str:
    path = os.environ.get("KERNFORGE_CLI")
    if not path:
        raise unittest.SkipTest("KERNFORGE_CLI is not set (run through ctest)")
    return path


def clean_env(**extra: str | bytes) -> dict:
    """The caller's environment without any KERNFORGE_* variable, plus `extra`."""
    env: dict = {k: v for k, v in os.environ.items() if not k.startswith("KERNFORGE_")}
    env.update(extra)
    return env


def run(args: list[str], env: dict | None = None, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([cli(), *args], env=env if env is not None else clean_env(),
                          timeout=60, check=False, **kwargs)


def unsafe_for_a_terminal(data: bytes) -> list[str]:
    """What in `data` a terminal would obey or could not show: invalid UTF-8, C0 controls other
    than the newline, DEL, C1 controls, line separators and bidirectional overrides."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return [f"invalid UTF-8 at byte {e.start}"]
    found = []
    for ch in text:
        cp = ord(ch)
        if (cp < 0x20 and ch != "\n") or cp == 0x7F or 0x80 <= cp <= 0x9F or cp in (
                0x2028, 0x2029) or 0x202A <= cp <= 0x202E or 0x2066 <= cp <= 0x2069:
            found.append(f"U+{cp:04X}")
    return found


class OddPlugins:
    """A folder whose name is not UTF-8, holding a manifest with control characters in its
    fields (its library is missing) and one with an invalid UTF-8 byte inside a string."""

    def __init__(self) -> None:
        self._tmp = tempfile.mkdtemp(prefix="kf_output_")
        self.path = os.path.join(os.fsencode(self._tmp), ODD_FOLDER)
        os.mkdir(self.path, 0o755)
        manifest = {"manifest_version": 1, "name": ODD_NAME,
                    "library": f"libkernforge_odd{LIB_SUFFIX}", "version": ODD_NAME,
                    "abi": [2, 0], "device_type": "odd\x1b[2J", "priority": 1,
                    "search": ["$ORIGIN"]}
        with open(os.path.join(self.path, b"odd.json"), "w", encoding="utf-8") as f:
            json.dump(manifest, f, ensure_ascii=False)
        with open(os.path.join(self.path, b"bytes.json"), "wb") as f:
            f.write(b'{"manifest_version": 1, "name": "bytes\xff\xc0\x80", "library": "x"}')

    def env(self) -> dict:
        return clean_env(KERNFORGE_PLUGIN_PATH=self.path,
                         KERNFORGE_DISABLE_PLUGINS=b"none\x1b[5m\xff")

    def close(self) -> None:
        shutil.rmtree(self._tmp, ignore_errors=True)


class OutsideText(unittest.TestCase):
    def setUp(self) -> None:
        self.odd = OddPlugins()
        self.addCleanup(self.odd.close)

    def check_text(self, proc: subprocess.CompletedProcess) -> str:
        for stream, data in (("stdout", proc.stdout), ("stderr", proc.stderr)):
            self.assertEqual(unsafe_for_a_terminal(data), [],
                             f"{stream} would reach a terminal unsafely:\n{data!r}")
        return proc.stdout.decode("utf-8")

    def test_doctor_json_is_valid_with_replacement_characters(self) -> None:
        proc = run(["doctor", "--json"], self.odd.env(), capture_output=True)
        self.assertIn(proc.returncode, (0, 1), proc.stderr.decode(errors="replace"))
        report = json.loads(proc.stdout.decode("utf-8"))  # strict UTF-8, then JSON
        self.assertIn("\ufffd", json.dumps(report, ensure_ascii=False))
        names = [b.get("name") for b in report.get("backends", [])]
        self.assertIn(ODD_NAME, names, "the control characters are data in JSON, kept as they are")
        self.assertIn("cpu", names)

    def test_doctor_text_escapes_control_characters(self) -> None:
        proc = run(["doctor", "-v"], self.odd.env(), capture_output=True)
        self.assertIn(proc.returncode, (0, 1), proc.stderr.decode(errors="replace"))
        text = self.check_text(proc)
        self.assertIn("\\x1b]0;pwned\\x07\\u009b2J\\nkernforge doctor: all well\\u202e", text)
        # The runtime's JSON replaced the invalid bytes; the CLI escaped the ESC.
        self.assertIn("kf_odd_\ufffd\ufffd_\\x1b[31mred", text)
        self.assertNotIn("\nkernforge doctor: all well", text.replace(
            "\nkernforge doctor: all well (", ""), "a plugin's name faked the verdict line")

    def test_info_text_and_json(self) -> None:
        text = self.check_text(run(["info"], self.odd.env(), capture_output=True))
        self.assertIn("\\x1b", text)
        proc = run(["info", "--json"], self.odd.env(), capture_output=True)
        self.assertEqual(proc.returncode, 0, proc.stderr.decode(errors="replace"))
        json.loads(proc.stdout.decode("utf-8"))

    def test_ops_text_escapes_the_unknown_op_name(self) -> None:
        proc = run(["ops", "no\x1b[2Jsuch"], capture_output=True)
        self.assertEqual(proc.returncode, 2)
        self.check_text(proc)
        self.assertIn("no\\x1b[2Jsuch", proc.stderr.decode("utf-8"))


class UnwritableOutput(unittest.TestCase):
    def check_refused(self, args: list[str], **kwargs) -> None:
        proc = run(args, stderr=subprocess.PIPE, **kwargs)
        self.assertEqual(proc.returncode, EXIT_OUTPUT_ERROR,
                         f"kernforge {' '.join(args)}: stderr: {proc.stderr!r}")
        self.assertIn(b"cannot write the output", proc.stderr)

    def full_device(self):
        if not os.path.exists("/dev/full"):
            self.skipTest("no /dev/full on this system")
        return open("/dev/full", "wb")

    def test_doctor_to_a_full_disk(self) -> None:
        with self.full_device() as full:
            self.check_refused(["doctor"], stdout=full)

    def test_doctor_json_to_a_full_disk(self) -> None:
        with self.full_device() as full:
            self.check_refused(["doctor", "--json"], stdout=full)

    def test_ops_json_to_a_full_disk(self) -> None:
        with self.full_device() as full:
            self.check_refused(["ops", "--json"], stdout=full)

    def test_info_with_stdout_closed(self) -> None:
        if os.name == "nt":
            self.skipTest("POSIX descriptors")
        self.check_refused(["info"], stdout=subprocess.DEVNULL, preexec_fn=lambda: os.close(1))

    def test_writable_output_still_exits_0(self) -> None:
        proc = run(["info"], capture_output=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)


if __name__ == "__main__":
    unittest.main()
