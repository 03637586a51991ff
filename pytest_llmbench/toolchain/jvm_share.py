"""Class data sharing (CDS) for the JVMs the JUnit runner starts: javac, and the tests' JVM
on the test tools' jars (the console launcher with Jupiter, Mockito, Byte Buddy...), load
the classes they always load from an archive mapped read-only, not by reading, parsing and
verifying them from the jars again in every run (figures: bench/jvm_tiers.py). The syntax
check's javac (metrics/syntax.py: it parses and stops) maps one of its own, made from a
parse of our warm-up files (`parse_archive`).

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

The JUnit runner's warm server (junit_warm.py) is made the same way: our java/ sources
compiled once into a jar in the cache folder, then run on the warm-up (requests on its
stdin), which writes its archive of the classes it loaded as it exits (the launcher's,
Mockito's and javac's, which the server runs in its own JVM): a dynamic archive over the
JDK's own, made by the run itself instead of a second JVM dumping a list (`_archived`;
that list is still dumped where the JDK has no archive of its own). The syntax check's
archive is made so too.

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
import zipfile
from collections.abc import Callable, Sequence
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

C1_ONLY = ("-XX:TieredStopAtLevel=1",)  # the client compiler alone
# A JVM done before C2 would pay off (our sources' compile once, the syntax check's parse):
SHORT_RUN = (*C1_ONLY, "-XX:+UseSerialGC")  # C1 alone, and the serial GC

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


def _exit(command: list[str], cwd: Path, stdin: str = "") -> int | None:
    """The exit status of `command` (None where it did not start or ran out of time)."""
    try:
        done = subprocess.run(
            command, cwd=cwd, capture_output=True, timeout=TIMEOUT_S, input=stdin.encode()
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.returncode


def _run(command: list[str], cwd: Path, stdin: str = "") -> bool:
    return _exit(command, cwd, stdin) == 0


def _archived(
    command: list[str],
    cwd: Path,
    target: Path,
    java: str,
    classpath: str | None,
    stdin: str = "",
    status: int = 0,
) -> bool:
    """Run our warm-up `command` (java's, or javac's: its JVM's flags then take -J) so that
    its JVM archives the classes it loaded into `target` as it exits: a dynamic archive, on
    top of the JDK's own, made by the run itself. Where the JDK makes none (it has no
    archive of its own), `_dump` makes one from the list of the classes the run loaded
    (with `java`; `classpath`: the jars that list's classes come from). Whether the run ended with
    `status`; a run that ended otherwise leaves no archive."""
    prefix = "-J" if Path(command[0]).name == "javac" else ""
    partial = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}")
    listed = cwd / f"{target.stem}.lst"
    flags = [
        f"{prefix}-XX:DumpLoadedClassList={listed}",
        f"{prefix}-XX:ArchiveClassesAtExit={partial}",
    ]
    ended = _exit([command[0], *flags, *command[1:]], cwd, stdin) == status
    if ended and partial.is_file():
        os.replace(partial, target)
    elif ended and listed.is_file():
        _dump(java, listed, target, classpath)
    partial.unlink(missing_ok=True)
    return ended


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


def _once(
    key: tuple[str, ...], make: Callable[[Path], tuple[Path | None, Path | None]]
) -> tuple[Path | None, Path | None]:
    """`make(folder)` in the cache folder, once in this process and under the folder's lock
    (another process making the same waits, then finds it made); (None, None) where the
    folder cannot be written."""
    folder = cache_folder()
    key = (str(folder), *key)
    with _lock:
        if key not in _made:
            _made[key] = (None, None)
            try:
                folder.mkdir(parents=True, exist_ok=True)
                with open(folder / ".lock", "w") as lock:
                    fcntl.flock(lock, fcntl.LOCK_EX)
                    _made[key] = make(folder)
            except OSError:
                pass
        return _made[key]


def archives(javac: str, java: str, jars: Sequence[Path], support: Path, launcher: str) -> Archives:
    """The archives for this JDK and jar list (the tests' classpath starts with `jars`),
    made on first use in this process or found from an earlier one; none where they cannot
    be made. Blocks while another process makes them."""
    javac_jsa, junit_jsa = _once(
        ("archives", javac, java, *(str(j) for j in jars)),
        lambda folder: _make(javac, java, jars, support, launcher, folder),
    )
    return Archives(
        javac=(f"-XX:SharedArchiveFile={javac_jsa}",) if javac_jsa else (),
        java=(f"-XX:SharedArchiveFile={junit_jsa}",) if junit_jsa else (),
        folder=cache_folder() if javac_jsa or junit_jsa else None,
    )


# What the syntax check's javac loads: a parse of well-formed code that uses most of the
# grammar, and of a file with an error (the diagnostics' classes and messages).
PARSE_WARM_UP = {
    "Warm.java": """\
package llmbench.warm;

import java.util.*;
import java.util.function.Function;
import static java.util.Objects.requireNonNull;

@SuppressWarnings("unchecked")
public final class Warm<T extends Comparable<? super T>> implements Iterable<T> {
  private final List<T> items = new ArrayList<>();
  private static final String NOTE = \"\"\"
      a text block
      \"\"\";
  public record Pair<A, B>(A first, B second) {}
  public enum Kind { ONE, TWO; Kind next() { return this == ONE ? TWO : ONE; } }
  public sealed interface Shape permits Box {}
  public static final class Box implements Shape {}
  interface Named { default String name() { return "n"; } }

  @Override public Iterator<T> iterator() { return items.iterator(); }

  public <R> List<R> map(Function<? super T, ? extends R> f, int... extra) {
    var out = new ArrayList<R>();
    for (T item : items) out.add(f.apply(item));
    items.forEach(System.out::println);
    try (var in = new Scanner("x")) { in.next(); }
    catch (IllegalStateException | NoSuchElementException e) { throw e; }
    finally { extra = new int[] {1, 2}; }
    Object o = requireNonNull(NOTE);
    if (o instanceof String s && !s.isEmpty()) { int n = switch (s.length()) { case 0 -> 0; default -> { yield 1 << 2; } }; }
    Runnable r = new Runnable() { public void run() { synchronized (this) { assert true : "x"; } } };
    stop: while (true) { do { break stop; } while (false); }
    char c = 'c'; long l = 0x1FL; double d = 1.5e3; boolean b = l > 0 ? !false : c == 'd';
    return (List<R>) out;
  }
}
""",
    "Broken.java": "public class Broken { void f() { int x = ; } }\n",
}


def parse_archive(javac: str, flags: Sequence[str]) -> Archives:
    """The archive of the classes javac loads to parse (`flags`: javac's own, -J ones
    included, as the check runs it), for the JDK `javac` belongs to: made on first use
    from a parse of PARSE_WARM_UP (as `archives`); none where it cannot be made."""
    java = str(Path(javac).resolve().parent / "java")
    jsa, _ = _once(("parse", javac, *flags), lambda folder: _make_parse(javac, java, flags, folder))
    if jsa is None:
        return Archives()
    return Archives(javac=(f"-XX:SharedArchiveFile={jsa}",), folder=cache_folder())


def _make_parse(
    javac: str, java: str, flags: Sequence[str], folder: Path
) -> tuple[Path | None, None]:
    recipe = hashlib.sha256(repr((sorted(PARSE_WARM_UP.items()), list(flags))).encode())
    target = folder / f"javac-parse-{_key(java, ())}-{recipe.hexdigest()[:8]}.jsa"
    if target.is_file():
        return target, None
    with tempfile.TemporaryDirectory(prefix="llmbench-jvm-") as scratch:
        work = Path(scratch)
        for name, text in PARSE_WARM_UP.items():
            (work / name).write_text(text, encoding="utf-8")
        command = [javac, *flags, "-d", "out", *sorted(PARSE_WARM_UP)]
        if not _archived(command, work, target, java, None, status=1):  # Broken.java's error
            return None, None
    return target if target.is_file() else None, None


@dataclass(frozen=True)
class Server:
    """The warm server's jar (our java/ sources compiled), the flag that maps its archive
    (none where it could not be made) and the folder the sandbox must let it read."""

    jar: Path
    java: tuple[str, ...]
    folder: Path


def _java_files(roots: Sequence[Path]) -> list[Path]:
    return [path for root in roots for path in sorted(root.rglob("*.java"))]


def _sources_key(java: str, jars: Sequence[Path], roots: Sequence[Path]) -> str:
    digest = hashlib.sha256(_key(java, jars).encode())
    for source in _java_files(roots):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:20]


def _jar(classes: Path, target: Path) -> None:
    partial = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}")
    with zipfile.ZipFile(partial, "w") as jar:
        for path in sorted(classes.rglob("*.class")):
            jar.write(path, path.relative_to(classes).as_posix())
    os.replace(partial, target)


def _make_server(
    javac: str,
    java: str,
    jars: Sequence[Path],
    roots: Sequence[Path],
    run: tuple[list[str], str],
    folder: Path,
) -> tuple[Path | None, Path | None]:
    """(the server's jar, its archive) made in `folder`; `run`: the server's arguments after
    its class path, and the requests of its warm-up."""
    key = _sources_key(java, jars, roots)
    jar, jsa = folder / f"warm-{key}.jar", folder / f"warm-{key}.jsa"
    if jar.is_file():
        return jar, jsa if jsa.is_file() else None
    jar_path = os.pathsep.join(str(j) for j in jars)
    with tempfile.TemporaryDirectory(prefix="llmbench-jvm-") as scratch:
        work = Path(scratch)
        sources = [str(p) for p in _java_files(roots)]
        compile_once = [f"-J{flag}" for flag in SHORT_RUN]
        if not _run([javac, *compile_once, "-d", "classes", "-cp", jar_path, "--release", "17",
                     "-nowarn", "-proc:none", *sources], work):  # fmt: skip
            return None, None
        _jar(work / "classes", jar)
        test = work / "src" / "test" / "java" / f"{WARM_UP_CLASS}.java"
        test.parent.mkdir(parents=True)
        test.write_text(WARM_UP, encoding="utf-8")
        arguments, requests = run
        classpath = os.pathsep.join([jar_path, str(jar)])
        _archived([java, "-cp", classpath, *arguments], work, jsa, java, classpath, requests)
    return jar, jsa if jsa.is_file() else None


def server(
    javac: str, java: str, jars: Sequence[Path], roots: Sequence[Path], run: tuple[list[str], str]
) -> Server | None:
    """The warm server for this JDK, jar list and our sources (every .java file under
    `roots`), made on first use (as `archives`); None where it cannot be compiled. `run`:
    its arguments after the class path (the main class first), and requests that run the
    warm-up test (src/test/java/LlmbenchWarmUpTest.java) in its working folder."""
    jar, jsa = _once(
        ("server", javac, java, *(str(j) for j in jars), *(str(r) for r in roots)),
        lambda folder: _make_server(javac, java, jars, roots, run, folder),
    )
    if jar is None:
        return None
    return Server(jar, (f"-XX:SharedArchiveFile={jsa}",) if jsa else (), cache_folder())
