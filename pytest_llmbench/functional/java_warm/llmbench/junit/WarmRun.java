package llmbench.junit;

import static org.junit.platform.engine.discovery.ClassNameFilter.includeClassNamePatterns;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.reporting.legacy.xml.LegacyXmlReportGeneratingListener;

/**
 * One run of the warm server: the workspace's sources compiled (WarmBuild), the test
 * classes the run's files declare loaded in a class loader of the run's own, and run by
 * the JUnit Platform launcher as the console launcher of the cold run runs them: every
 * class (no stop at a failure), the XML reports and the plan (PlannedTests) written to
 * the run's folder, exit code 1 when a test or a container failed, else 0.
 *
 * <p>What is per run and what stays in the server's loader (the JVM's class path: the
 * test tools' jars, then our classes):
 * <ul>
 * <li>per run: the answer's classes, the dataset's, the tests' and the resources (a new
 * {@link URLClassLoader} each run, dropped after it), so no static field or class
 * initialiser of theirs carries over; and the launcher with its engines, listeners and
 * configuration, made anew by {@link LauncherFactory} with the run's loader as the
 * context class loader (as the console launcher finds them on its class path: an
 * answer's junit-platform.properties or listener is found the same way);</li>
 * <li>in the server's loader: the JUnit Platform and Jupiter classes (the engine and the
 * tests must share the annotations and the extension API), our launcher code and
 * listeners (out of the answer's loader: an answer's class of the same name is never the
 * one loaded), Mockito, Byte Buddy, Objenesis, AssertJ, Hamcrest and the EJB/JPA APIs:
 * loaded once, mapped from the class data archive whose class path they head, and compiled
 * by the JIT once (in a loader per run they would be read, verified and interpreted anew
 * in every run: the archive maps only the server's own loaders' classes).
 * Their state that a run could leave behind lives in thread locals (Mockito's stubbing in
 * progress, its mocking session), and every run has a new thread; mock classes of the
 * run's types are made in loaders under the run's own and go with it; the inline mock
 * maker, where an answer turns it on, keeps its mocked types in weak maps, and the
 * classes it redefines are the run's. Mockito's plugins are chosen once, at its first
 * use, from the first run's resources (the same in every run of an answer). AssertJ's
 * static settings are put back after each run (resetAssertJ).</li>
 * </ul>
 */
final class WarmRun {

    private static final Pattern PACKAGE =
            Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE | Pattern.UNICODE_CHARACTER_CLASS);
    static final String COMPILED = "compiled.txt";
    static final String PLANNED = "planned.tsv";
    static final String REPORTS = "reports";
    private static final long GRACE_MS = 200;

    private final Path workspace;
    private final Path work;
    private final WarmBuild build;

    WarmRun(Path workspace, Path work, WarmBuild build) {
        this.workspace = workspace;
        this.work = work;
        this.build = build;
    }

    /** Runs the tests (workspace-relative .java files); the cold run's exit code. */
    int run(List<String> tests) throws Exception {
        Files.createDirectories(work.resolve("tmp"));
        Path classes = work.resolve("classes");
        List<Path> sources = new ArrayList<>(WarmBuild.mainSources(workspace));
        List<Path> testFiles = new ArrayList<>();
        for (String test : new TreeSet<>(tests)) {
            Path path = Path.of(test);
            if (test.endsWith(".java") && Files.isRegularFile(workspace.resolve(path), LinkOption.NOFOLLOW_LINKS)) {
                testFiles.add(path);
                if (!sources.contains(path)) {
                    sources.add(path);
                }
            }
        }
        long started = System.nanoTime();
        List<String> errors = testFiles.isEmpty() ? List.of() : build.compile(workspace, sources, classes);
        double seconds = (System.nanoTime() - started) / 1e9;
        String head = (errors.isEmpty() ? "ok " : "failed ") + String.format(Locale.ROOT, "%.3f", seconds);
        List<String> lines = new ArrayList<>(List.of(head));
        lines.addAll(errors);
        Files.write(work.resolve(COMPILED), lines, StandardCharsets.UTF_8);
        if (!errors.isEmpty() || testFiles.isEmpty()) {
            return 1;
        }
        List<String> selected = new ArrayList<>();
        for (Path test : testFiles) {
            String name = className(Files.readString(workspace.resolve(test), StandardCharsets.UTF_8), test);
            if (Files.isRegularFile(classes.resolve(name.replace('.', '/') + ".class"))) {
                selected.add(name);
            }
        }
        if (selected.isEmpty()) {
            return 1;
        }
        try (URLClassLoader loader = new URLClassLoader("llmbench-run", urls(classes), WarmRun.class.getClassLoader())) {
            try {
                return launch(loader, new TreeSet<>(selected));
            } finally {
                endThreads(loader);
            }
        }
    }

    /**
     * The threads the run's code started and left running (their context class loader is
     * the run's, as a thread started by a test inherits it) end with the run, as they do
     * when a run's own JVM exits: interrupted, then stopped after GRACE_MS (a mutant's
     * endless loop left behind by a preemptive timeout would take the next runs' CPU).
     */
    @SuppressWarnings("deprecation") // Thread.stop: what ends a thread that will not end
    private static void endThreads(ClassLoader loader) throws InterruptedException {
        List<Thread> left = new ArrayList<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread != Thread.currentThread() && thread.isAlive() && thread.getContextClassLoader() == loader) {
                left.add(thread);
                thread.interrupt();
            }
        }
        long deadline = System.nanoTime() + GRACE_MS * 1_000_000L;
        for (Thread thread : left) {
            thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000L));
            if (thread.isAlive()) {
                thread.stop();
            }
        }
    }

    /** The top-level class a source file declares: its package and the file's name. */
    static String className(String source, Path file) {
        Matcher found = PACKAGE.matcher(source);
        String stem = file.getFileName().toString().replaceFirst("\\.java$", "");
        return found.find() ? found.group(1) + "." + stem : stem;
    }

    private URL[] urls(Path classes) throws IOException {
        List<URL> urls = new ArrayList<>(List.of(classes.toUri().toURL()));
        for (String resources : List.of("src/test/resources", "src/main/resources")) {
            if (Files.isDirectory(workspace.resolve(resources))) {
                urls.add(workspace.resolve(resources).toUri().toURL());
            }
        }
        return urls.toArray(new URL[0]);
    }

    private int launch(ClassLoader loader, TreeSet<String> names) throws Exception {
        Thread current = Thread.currentThread();
        ClassLoader before = current.getContextClassLoader();
        current.setContextClassLoader(loader);
        try {
            List<DiscoverySelector> selectors = new ArrayList<>();
            for (String name : names) {
                selectors.add(selectClass(Class.forName(name, false, loader)));
            }
            LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                    .selectors(selectors)
                    .filters(includeClassNamePatterns(".*"))
                    .build();
            Launcher launcher = LauncherFactory.create();
            SummaryGeneratingListener summary = new SummaryGeneratingListener();
            StringWriter ignored = new StringWriter();
            LegacyXmlReportGeneratingListener reports =
                    new LegacyXmlReportGeneratingListener(work.resolve(REPORTS), new PrintWriter(ignored));
            launcher.execute(request, new PlannedTests(work.resolve(PLANNED)), summary, reports);
            return summary.getSummary().getTotalFailureCount() > 0 ? 1 : 0;
        } finally {
            resetAssertJ();
            current.setContextClassLoader(before);
        }
    }

    /**
     * AssertJ's settings (private fields compared, date formats, representation...) are
     * static in the server's loader: put back as its configuration gives them, the one the
     * first run found (an answer's own by ServiceLoader, as in the cold run, hence with the
     * run's loader as the context loader), not as a test left them. AssertJ is optional.
     */
    private static void resetAssertJ() {
        try {
            Class<?> provider = Class.forName(
                    "org.assertj.core.configuration.ConfigurationProvider", true, WarmRun.class.getClassLoader());
            Object configuration = provider.getMethod("configuration")
                    .invoke(provider.getField("CONFIGURATION_PROVIDER").get(null));
            configuration.getClass().getMethod("apply").invoke(configuration);
        } catch (ReflectiveOperationException | LinkageError absent) {
            // no AssertJ on the class path, or one without a configuration
        }
    }
}
