"""Class data sharing for the JUnit runner's JVMs (toolchain/jvm_share.py): archives made
from our warm-up alone, mapped by the JVMs of a run, read-only to the answer's code."""

from __future__ import annotations

import os
import subprocess
import zipfile
from pathlib import Path

import pytest

from pytest_llmbench.functional import junit
from pytest_llmbench.functional.outcome import SuiteRun
from pytest_llmbench.toolchain import jvm_share, sandbox


@pytest.fixture
def tools() -> junit.Toolchain:
    found = junit.toolchain()
    if isinstance(found, str):
        pytest.skip(found)
    return found


def _archives(tools: junit.Toolchain) -> jvm_share.Archives:
    return jvm_share.archives(tools.javac, tools.java, tools.jars, junit.SUPPORT, junit.LAUNCHER)


def test_archives_are_made_once_and_both_jvms_map_them(
    tools: junit.Toolchain, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(jvm_share.CACHE_ENV, str(tmp_path / "jvm"))
    monkeypatch.setattr(jvm_share, "_made", {})
    made = _archives(tools)
    assert made.folder == tmp_path / "jvm"
    assert [len(made.javac), len(made.java)] == [1, 1]
    archives = sorted((tmp_path / "jvm").glob("*.jsa"))
    assert [a.name.split("-")[0] for a in archives] == ["javac", "junit"]
    # -Xshare:on refuses to start when the archive does not map (wrong JDK, classpath...)
    classpath = os.pathsep.join([*map(str, tools.jars), str(junit.SUPPORT), "classes"])
    java = [tools.java, "-Xshare:on", *junit.JVM_FLAGS, *made.java, "-cp", classpath]
    shown = subprocess.run([*java, "-version"], capture_output=True, text=True, check=True)
    assert "sharing" in shown.stderr
    javac = [tools.javac, "-J-Xshare:on", *(f"-J{flag}" for flag in made.javac), "-version"]
    subprocess.run(javac, capture_output=True, check=True)
    # a later process finds them: nothing is made again
    times = [a.stat().st_mtime_ns for a in archives]
    monkeypatch.setattr(jvm_share, "_made", {})
    assert _archives(tools) == made
    assert [a.stat().st_mtime_ns for a in archives] == times


def test_an_archive_is_named_after_the_jdk_and_every_jar_it_holds(tmp_path: Path) -> None:
    jar = tmp_path / "tool.jar"
    jar.write_bytes(b"PK one")
    other = tmp_path / "other.jar"
    other.write_bytes(b"PK two")
    key = jvm_share._key("/usr/bin/java", [jar, other])
    assert jvm_share._key("/usr/bin/java", [jar, other]) == key
    assert jvm_share._key("/usr/bin/java", [jar]) != key
    assert jvm_share._key("/usr/bin/java", [other, jar]) != key  # the order is the classpath's
    os.utime(jar, ns=(1, 1))
    assert jvm_share._key("/usr/bin/java", [jar, other]) != key


def test_runs_go_without_archives_where_none_can_be_made(
    tools: junit.Toolchain, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv(jvm_share.CACHE_ENV, str(tmp_path / "a-file" / "jvm"))
    monkeypatch.setattr(jvm_share, "_made", {})
    assert _archives(tools) == jvm_share.Archives()


WRITER_TEST = """package demo;
import static org.junit.jupiter.api.Assertions.assertThrows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
class ArchiveWriterTest {
    // An answer's test that would plant classes in the JVM's archives for later runs.
    @Test void cannotWriteTheArchives() throws Exception {
        Path archive = Path.of(System.getProperty("llmbench.archive"));
        assertThrows(IOException.class, () -> Files.write(archive, new byte[] {1}));
        assertThrows(IOException.class, () -> Files.writeString(archive.resolveSibling("x.jsa"), "x"));
    }
}
"""


def test_a_run_uses_the_archives_and_its_code_cannot_change_them(
    tools: junit.Toolchain, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = _archives(tools)
    assert made.java, "the session's archives could not be made"
    archive = made.java[0].split("=", 1)[1]
    seen: list[list[str]] = []
    real = sandbox.run

    def spy(command: list[str], cwd: Path, **kwargs: object) -> sandbox.Outcome:
        # either JVM fails to start unless it maps its archive in the sandbox; the tests'
        # JVM learns where the archive is
        if command[0] == tools.java:
            command = [command[0], "-Xshare:on", f"-Dllmbench.archive={archive}", *command[1:]]
        else:
            command = [command[0], "-J-Xshare:on", *command[1:]]
        seen.append(command)
        return real(command, cwd, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sandbox, "run", spy)
    test = tmp_path / "src/test/java/demo/ArchiveWriterTest.java"
    test.parent.mkdir(parents=True)
    test.write_text(WRITER_TEST, encoding="utf-8")
    before = Path(archive).read_bytes()
    run = junit.suite(tmp_path, SuiteRun(("src/test/java/demo/ArchiveWriterTest.java",), 120))
    assert run.error is None
    assert [(t.name, t.passed) for t in run.tests] == [
        ("ArchiveWriterTest.cannotWriteTheArchives", True)
    ]
    javac, java = seen
    assert f"-J{made.javac[0]}" in javac and made.java[0] in java
    assert Path(archive).read_bytes() == before


# --- the JUnit runner's warm server (junit_warm.py), made like the archives --------------


def test_the_warm_server_is_made_once_from_our_sources_and_maps_its_archive(
    tools: junit.Toolchain, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_llmbench.functional import junit_warm

    monkeypatch.setenv(jvm_share.CACHE_ENV, str(tmp_path / "jvm"))
    monkeypatch.setattr(jvm_share, "_made", {})
    roots = (junit.SUPPORT, junit_warm.SERVER)
    made = jvm_share.server(tools.javac, tools.java, tools.jars, roots, junit_warm._warm_up())
    assert made is not None and made.folder == tmp_path / "jvm" and len(made.java) == 1
    assert made.jar.parent == made.folder
    with zipfile.ZipFile(made.jar) as jar:
        names = set(jar.namelist())
    assert {"llmbench/junit/WarmServer.class", "llmbench/junit/PlannedTests.class"} <= names
    assert "org/mockito/junit/jupiter/MockitoExtension.class" in names
    # -Xshare:on refuses to start when the archive does not map on the server's classpath,
    # with the client compiler alone (its first JVM) as with tiered compilation
    classpath = os.pathsep.join([*map(str, tools.jars), str(made.jar)])
    for compilers in (jvm_share.C1_ONLY, ()):
        java = [tools.java, "-Xshare:on", *compilers, *junit.JVM_FLAGS, *made.java]
        subprocess.run([*java, "-cp", classpath, "-version"], capture_output=True, check=True)
    # a later process finds it; changed sources make another
    stamp = made.jar.stat().st_mtime_ns
    monkeypatch.setattr(jvm_share, "_made", {})
    assert (
        jvm_share.server(tools.javac, tools.java, tools.jars, roots, junit_warm._warm_up()) == made
    )
    assert made.jar.stat().st_mtime_ns == stamp
    (tmp_path / "more").mkdir()
    (tmp_path / "more" / "Extra.java").write_text("class Extra {}\n", encoding="utf-8")
    monkeypatch.setattr(jvm_share, "_made", {})
    other = jvm_share.server(
        tools.javac, tools.java, tools.jars, (*roots, tmp_path / "more"), junit_warm._warm_up()
    )
    assert other is not None and other.jar != made.jar


# --- the syntax check's javac (metrics/syntax.py) -------------------------------------------


def test_the_syntax_checks_javac_maps_an_archive_of_its_own_in_the_sandbox(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_llmbench.metrics import syntax

    javac = syntax._tool("javac")
    if javac is None:
        pytest.skip("no javac on this machine")
    monkeypatch.setenv(jvm_share.CACHE_ENV, str(tmp_path / "jvm"))
    monkeypatch.setattr(jvm_share, "_made", {})
    made = jvm_share.parse_archive(javac, syntax.JAVAC_FLAGS)
    assert made.folder == tmp_path / "jvm" and len(made.javac) == 1 and not made.java
    [archive] = (tmp_path / "jvm").glob("javac-parse-*.jsa")
    # -Xshare:on refuses to start when the archive does not map: the check's own flags, in
    # its sandbox, reading the folder it is given
    work = tmp_path / "work"
    work.mkdir()
    (work / "Broken.java").write_text("class Broken { int x = ; }\n", encoding="utf-8")
    command = [javac, "-J-Xshare:on", *syntax.JAVAC_FLAGS, f"-J{made.javac[0]}", "Broken.java"]
    ran = sandbox.run(command, work, processes=sandbox.JVM_PROCESS_LIMIT, reads=[made.folder])
    assert ran.returncode == 1 and "Broken.java:1: error: illegal start of expression" in ran.stderr
    # a later process finds it; the check reports what it did without it
    stamp = archive.stat().st_mtime_ns
    monkeypatch.setattr(jvm_share, "_made", {})
    assert jvm_share.parse_archive(javac, syntax.JAVAC_FLAGS) == made
    assert archive.stat().st_mtime_ns == stamp
    syntax._check_cached.cache_clear()
    try:
        checks = syntax.check_files(
            (
                ("Broken.java", "java", "class Broken { int x = ; }"),
                ("Ok.java", "java", "class Ok {}"),
            )
        )
    finally:
        syntax._check_cached.cache_clear()
    assert [(c.status, c.reason) for c in checks] == [
        ("fail", "line 1: illegal start of expression"),
        ("pass", ""),
    ]
