"""A scenario's options for the JUnit runner: `junit.json` in its hidden tests folder
(optional), read like jest.json and vitest.json:

    {"classpath": ["com.android.json.jar", "/opt/jars/rxjava-2.2.21.jar"],
     "jvmOptions": ["-Xmx1g", "-XX:TieredStopAtLevel=1"]}

- `classpath`: jars added to the tests' classpath (compiling and running), before the
  runner's own (a newer AssertJ than Debian's is the one loaded): a file name is looked for in the runner's library folders
  ($LLMBENCH_JAVA_LIBS or /usr/share/java, where Debian's lib*-java packages put them),
  an absolute path is taken as it is; the folders are readable in the sandbox.
- `jvmOptions`: options of the JVM that runs the tests, after the runner's own (a later
  -Xmx wins), e.g. a bigger heap or the client compiler alone for short suites.

The runner's own JVM options are here too (JVM_FLAGS, C2_LATER, JAVAC_FLAGS).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from ..toolchain.jvm_share import C1_ONLY

OPTIONS = "junit.json"

# javac: a short-lived JVM, fastest with the client compiler only. The tests' JVM keeps
# tiered compilation, since a suite that computes much runs several times slower on C1
# alone, but C2 starts ten times later than by default: a short suite then spends no CPU
# on C2 compiles it does not live to use, while a long one still gets them (figures:
# bench/jvm_tiers.py). Both use the serial collector and a capped heap, so the sandbox's
# RLIMIT_DATA (which counts the committed heap) holds it.
JVM_FLAGS = ("-XX:+UseSerialGC", "-Xms64m", "-Xmx512m", "-Xss1m", "-XX:-UsePerfData")
C2_LATER = (
    "-XX:Tier4InvocationThreshold=50000",
    "-XX:Tier4MinInvocationThreshold=20000",
    "-XX:Tier4CompileThreshold=60000",
    "-XX:Tier4BackEdgeThreshold=400000",
)
JAVAC_FLAGS = (*C1_ONLY, *JVM_FLAGS)


class JUnitOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    classpath: list[str] = []
    jvmOptions: list[str] = Field(default=[], max_length=32)  # noqa: N815 (Java's word)


def jars(options: JUnitOptions, dirs: list[Path]) -> tuple[list[Path], list[str]]:
    """The jars `options.classpath` names, and the names not found (in `dirs`)."""
    found: list[Path] = []
    missing: list[str] = []
    for written in options.classpath:
        path = Path(written)
        candidates = [path] if path.is_absolute() else [d / written for d in dirs]
        jar = next((c for c in candidates if c.suffix == ".jar" and c.is_file()), None)
        if jar is None:
            missing.append(written)
        else:
            found.append(jar)
    return found, missing
