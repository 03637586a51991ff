package llmbench.junit;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.reporting.legacy.LegacyReportingUtils;

/**
 * The benchmark's plan of a JUnit run, registered with the launcher through
 * META-INF/services beside this folder: when the plan starts, before any test runs, every
 * test it holds is written to the file the system property {@code llmbench.planned} names,
 * one line each, {@code classname TAB name} as the launcher's XML report gives them. A
 * test method whose tests are registered as it runs (parameterized, repeated, a factory)
 * is written {@code classname TAB name TAB +}: it stands for its tests, which are
 * written as they are registered (named {@code name[1]}, ...). The runner lists each
 * planned test that has no outcome in the reports as not run (functional/junit.py). Tabs
 * and line breaks in a name are written as spaces. The warm server (WarmRun) registers
 * it itself, with the run's file.
 */
public class PlannedTests implements TestExecutionListener {

    private static final String FILE = "llmbench.planned";
    private final Path file; // null: the file the system property names
    private TestPlan plan;

    public PlannedTests() {
        this(null);
    }

    PlannedTests(Path file) {
        this.file = file;
    }

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
        StringBuilder lines = new StringBuilder();
        for (TestIdentifier root : testPlan.getRoots()) {
            for (TestIdentifier identifier : testPlan.getDescendants(root)) {
                if (identifier.isTest()) {
                    lines.append(line(identifier)).append('\n');
                } else if (identifier.getSource().filter(MethodSource.class::isInstance).isPresent()) {
                    lines.append(line(identifier)).append("\t+\n");
                }
            }
        }
        write(lines.toString(), StandardOpenOption.TRUNCATE_EXISTING);
    }

    @Override
    public void dynamicTestRegistered(TestIdentifier testIdentifier) {
        if (plan != null && testIdentifier.isTest()) {
            write(line(testIdentifier) + "\n", StandardOpenOption.APPEND);
        }
    }

    private String line(TestIdentifier identifier) {
        String owner = LegacyReportingUtils.getClassName(plan, identifier);
        return flat(owner) + "\t" + flat(identifier.getLegacyReportingName());
    }

    private static String flat(String text) {
        return text.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }

    private void write(String text, StandardOpenOption mode) {
        String where = System.getProperty(FILE);
        if (file == null && (where == null || where.isEmpty())) {
            return;
        }
        Path path = file != null ? file : Paths.get(where);
        try (Writer out = Files.newBufferedWriter(
                path, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.WRITE, mode)) {
            out.write(text);
        } catch (IOException e) {
            // no plan: the run's tests are listed as they are reported
        }
    }
}
