"""Class data sharing (CDS) for the JVMs the JUnit runner starts: javac, and the tests' JVM
on the test tools' jars (the console launcher with Jupiter, Mockito, Byte Buddy...), load
the classes they always load from an archive mapped read-only, not by reading, parsing and
verifying them from the jars again in every run (figures: bench/jvm_tiers.py).

An archive is made once per JDK and jar list, from runs of OUR warm-up test alone (never
an answer's code): javac compiles it with the JDK listing the classes it loads, the
launcher runs it likewise, and `java -Xshare:dump` archives the listed classes that come
from the JDK and the jars (the classpath a dump records holds only the jars: a run's
classpath starts with the same jars, then the folders of its own classes). The archives
live in the user's cache folder ($LLMBENCH_JVM_CACHE, else $XDG_CACHE_HOME or ~/.cache,
then pytest-llmbench/jvm), named by a hash of the JDK and of each jar's path, size and
time: a changed JDK or jar gets new ones. Each is written under a temporary name and then
renamed, under a lock, so runs started at once make it once and never read half of one.
The sandbox reads the folder, read-only.

A run goes on without an archive (the JDK's default sharing) where none can be made: no
writable cache folder, a dump that fails. The JVM itself checks an archive against the
classpath it runs with and, on any difference, runs as it would without (-Xshare:auto,
silently).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..folders import user_cache_folder

RECIPE = 1  # bump when the warm-up test or the dump changes: archives get new names
TIMEOUT_S = 120.0
WARM_UP_CLASS = "LlmbenchWarmUpTest"
# Jupiter's lifecycle, assertions, a parameterized test and a Mockito mock: what most
# suites load beyond the launcher itself.
WARM_UP = """\
import static org.junit.jupiter.api.Assertions.*;
import static org.mockito.Mockito.*;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

public class LlmbenchWarmUpTest {
  private List<String> names;

  @BeforeEach void setUp() { names = mock(List.class); }

  @Test @DisplayName("a mock answers and is verified") void mocks() {
    when(names.get(0)).thenReturn("a");
    assertEquals("a", names.get(0));
    verify(names).get(0);
    verifyNoMoreInteractions(names);
  }

  @ParameterizedTest @ValueSource(ints = {1, 2, 3}) void counts(int n) {
    assertTrue(n > 0, "positive");
    assertThrows(IllegalStateException.class, () -> { throw new IllegalStateException(); });
  }

  @Nested class Inner { @Test void holds() { assertNotNull(names); } }
}
"""

_lock = threading.Lock()
_made: dict[tuple[str, ...], tuple[Path | None, Path | None]] = {}


@dataclass(frozen=True)
class Archives:
    """The flags that make javac and the tests' JVM use their archives (empty where there
    is none), and the folder the sandbox must let them read."""

    javac: tuple[str, ...] = ()
    java: tuple[str, ...] = ()
    folder: Path | None = None


CACHE_ENV = "LLMBENCH_JVM_CACHE"


def cache_folder() -> Path:
    """$LLMBENCH_JVM_CACHE, else the user's cache folder's pytest-llmbench/jvm."""
    return user_cache_folder("jvm", CACHE_ENV)


def _stamp(path: Path) -> str:
    try:
        info = path.resolve().stat()
    except OSError:
        return f"{path}:missing"
    return f"{path.resolve()}:{info.st_size}:{info.st_mtime_ns}"


def _key(java: str, jars: Sequence[Path]) -> str:
    home = Path(java).resolve().parent.parent
    parts = [str(RECIPE), _stamp(Path(java)), _stamp(home / "lib" / "modules")]
    parts += [_stamp(jar) for jar in jars]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:20]


def _run(command: list[str], cwd: Path) -> bool:
    try:
        done = subprocess.run(
            command, cwd=cwd, capture_output=True, timeout=TIMEOUT_S, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def _dump(java: str, class_list: Path, target: Path, classpath: str | None) -> bool:
    """`java -Xshare:dump` of the classes listed, into `target` (renamed into place)."""
    partial = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}")
    command = [java, "-Xshare:dump", f"-XX:SharedClassListFile={class_list}"]
    command += [f"-XX:SharedArchiveFile={partial}", *(["-cp", classpath] if classpath else [])]
    ok = _run(command, class_list.parent) and partial.is_file()
    if ok:
        os.replace(partial, target)
    partial.unlink(missing_ok=True)
    return ok


def _make(
    javac: str, java: str, jars: Sequence[Path], support: Path, launcher: str, folder: Path
) -> tuple[Path | None, Path | None]:
    """(javac's archive, the tests' JVM's archive) made in `folder` from the warm-up."""
    javac_jsa = folder / f"javac-{_key(java, ())}.jsa"  # javac reads the jars, loads none
    junit_jsa = folder / f"junit-{_key(java, jars)}.jsa"
    if javac_jsa.is_file() and junit_jsa.is_file():
        return javac_jsa, junit_jsa
    jar_path = os.pathsep.join(str(j) for j in jars)
    with tempfile.TemporaryDirectory(prefix="llmbench-jvm-") as scratch:
        work = Path(scratch)
        (work / f"{WARM_UP_CLASS}.java").write_text(WARM_UP, encoding="utf-8")
        sources = [f"{WARM_UP_CLASS}.java", *(str(p) for p in sorted(support.rglob("*.java")))]
        compiled = _run(
            [javac, f"-J-XX:DumpLoadedClassList={work / 'javac.lst'}", "-d", "classes",
             "-cp", jar_path, "--release", "17", "-nowarn", "-proc:none", *sources],
            work,
        )  # fmt: skip
        if not compiled:
            return None, None
        if not javac_jsa.is_file() and not _dump(java, work / "javac.lst", javac_jsa, None):
            return None, None
        ran = _run(
            [java, f"-XX:DumpLoadedClassList={work / 'junit.lst'}",
             "-cp", os.pathsep.join([jar_path, str(support), "classes"]), launcher,
             "--disable-banner", "--details=none", f"--select-class={WARM_UP_CLASS}"],
            work,
        )  # fmt: skip
        if not ran or not _dump(java, work / "junit.lst", junit_jsa, jar_path):
            return javac_jsa, None
    return javac_jsa, junit_jsa


def archives(javac: str, java: str, jars: Sequence[Path], support: Path, launcher: str) -> Archives:
    """The archives for this JDK and jar list (the tests' classpath starts with `jars`),
    made on first use in this process or found from an earlier one; none where they cannot
    be made. Blocks while another process makes them."""
    folder = cache_folder()
    key = (str(folder), javac, java, *(str(j) for j in jars))
    with _lock:
        if key not in _made:
            _made[key] = (None, None)
            try:
                folder.mkdir(parents=True, exist_ok=True)
                with open(folder / ".lock", "w") as lock:
                    fcntl.flock(lock, fcntl.LOCK_EX)
                    _made[key] = _make(javac, java, jars, support, launcher, folder)
            except OSError:
                pass
        javac_jsa, junit_jsa = _made[key]
    return Archives(
        javac=(f"-XX:SharedArchiveFile={javac_jsa}",) if javac_jsa else (),
        java=(f"-XX:SharedArchiveFile={junit_jsa}",) if junit_jsa else (),
        folder=folder if javac_jsa or junit_jsa else None,
    )
