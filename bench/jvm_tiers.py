"""Print what the tests' JVM flags cost (functional/junit.py: C2_LATER): a small JUnit suite
run by the console launcher with Mockito (a short JVM, as most suites are) and a program
that computes much (collections and streams), each with the JDK's default tiered
compilation, with C1 alone (-XX:TieredStopAtLevel=1), with C2 starting later, and with C2
later plus the class data archive of the test tools' jars (toolchain/jvm_share.py); and
javac on the two, with its flags, without and with its archive.

    python bench/jvm_tiers.py [--repeat N]

Prints per flag set the wall and CPU seconds of each program (the best of N runs).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from pytest_llmbench.functional.junit import LAUNCHER, SUPPORT, toolchain  # noqa: E402
from pytest_llmbench.functional.junit_options import C2_LATER, JAVAC_FLAGS, JVM_FLAGS  # noqa: E402
from pytest_llmbench.toolchain.jvm_share import C1_ONLY, archives  # noqa: E402

PROGRAMS = {
    "ShortTest": """import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.Mockito.*;
import java.util.List;
import org.junit.jupiter.api.Test;
public class ShortTest {
  @Test void mocks() { List<String> l = mock(List.class); when(l.get(0)).thenReturn("a");
    assertEquals("a", l.get(0)); verify(l).get(0); }
  @Test void adds() { assertEquals(4, 2 + 2); } }""",
    "Streams": """import java.util.*; import java.util.stream.*;
public class Streams { public static void main(String[] a) { long total = 0;
  for (int r = 0; r < 40; r++) { Map<String, Integer> m = new HashMap<>();
    for (int i = 0; i < 100_000; i++) m.merge("k" + (i % 1000), i, Integer::sum);
    total += m.values().stream().mapToLong(Integer::longValue).filter(v -> v % 3 == 0).sum();
    total += IntStream.range(0, 100_000).boxed().map(x -> x * 2).collect(Collectors.toList()).size(); }
  System.out.println(total); } }""",
}
FLAGS = {"default tiers": (), "C1 alone": C1_ONLY, "C2 later": C2_LATER}


def timed(command: list[str]) -> tuple[float, float]:
    """(wall, CPU of the child) seconds of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    tools = toolchain()
    if isinstance(tools, str):
        sys.exit(tools)
    shared = archives(tools.javac, tools.java, tools.jars, SUPPORT, LAUNCHER)
    flag_sets = {**FLAGS, "C2 later, CDS": (*C2_LATER, *shared.java)}
    with tempfile.TemporaryDirectory() as folder:
        for name, source in PROGRAMS.items():
            (Path(folder) / f"{name}.java").write_text(source, encoding="utf-8")
        classpath = ":".join([*(str(j) for j in tools.jars), folder])
        sources = [str(p) for p in Path(folder).glob("*.java")]
        javac = [tools.javac, "-d", folder, "-cp", classpath, "-nowarn", *sources]
        subprocess.run(javac, check=True, capture_output=True)
        for label, flags in {
            "javac": JAVAC_FLAGS,
            "javac, CDS": (*JAVAC_FLAGS, *shared.javac),
        }.items():
            runs = [
                timed([javac[0], *(f"-J{f}" for f in flags), *javac[1:]])
                for _ in range(args.repeat)
            ]
            wall, cpu = min(runs)
            print(f"{label:14s} {'both':8s} wall {wall:5.2f} s  CPU {cpu:5.2f} s")
        launch = {"ShortTest": [LAUNCHER, "--disable-banner", "--select-class=ShortTest"]}
        for label, flags in flag_sets.items():
            for name in PROGRAMS:
                main = launch.get(name, [name])
                command = [tools.java, *JVM_FLAGS, *flags, "-cp", classpath, *main]
                runs = [timed(command) for _ in range(args.repeat)]
                wall, cpu = min(runs)
                print(f"{label:14s} {name:8s} wall {wall:5.2f} s  CPU {cpu:5.2f} s")


if __name__ == "__main__":
    main()
