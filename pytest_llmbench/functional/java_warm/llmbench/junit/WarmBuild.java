package llmbench.junit;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import com.sun.source.util.JavacTask;
import com.sun.source.util.Trees;

/**
 * The warm server's javac: the JDK's compiler called in the server's JVM, so it is loaded
 * and compiled by the JIT once per answer, not once per run. The file manager is kept
 * across runs: it holds the test tools' jars open.
 *
 * <p>The first run compiles every source (src/main/java and the run's test files) into
 * its fresh class folder; its class files, read right after javac and before any test
 * ran, are carried (WarmCarry). A later run starts from them and compiles only the
 * sources whose text changed or that are new (the mutant's file, the run's canary class),
 * unless a class it compiled shows another API than the carried one (WarmCarry.api: then
 * the classes compiled against the old one might differ from a full build's), a changed
 * source declares other top-level classes than it did, or the smaller build fails: then
 * it compiles everything, as the first run did. No annotation
 * processing: the answer's code never runs in javac.
 */
final class WarmBuild {

    private final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    private final StandardJavaFileManager files =
            javac.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
    private final String classpath;
    private WarmCarry carry; // null until a run compiled everything without error

    WarmBuild(String classpath) {
        this.classpath = classpath;
    }

    /** The workspace's main sources (regular files, no links), sorted. */
    static List<Path> mainSources(Path workspace) throws IOException {
        Path main = workspace.resolve("src/main/java");
        if (!Files.isDirectory(main)) {
            return List.of();
        }
        try (Stream<Path> found = Files.walk(main)) {
            return found.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    .map(workspace::relativize)
                    .sorted()
                    .collect(Collectors.toList());
        }
    }

    /**
     * Compiles {@code sources} (workspace-relative) into {@code classes}, an empty folder;
     * the errors, one {@code path:line: error: message} each as javac prints them, or none.
     */
    List<String> compile(Path workspace, List<Path> sources, Path classes) throws IOException {
        Map<Path, String> texts = new HashMap<>();
        for (Path source : sources) {
            texts.put(source, Files.readString(workspace.resolve(source), StandardCharsets.UTF_8));
        }
        List<Path> changed = carry == null ? null : carry.restore(texts, classes);
        if (changed != null) {
            Result some = run(workspace, changed, classes, classpath + File.pathSeparator + classes);
            if (some.errors.isEmpty() && carry.same(some.apis, changed, some.declared)) {
                return List.of();
            }
            WarmCarry.empty(classes);
        }
        Result all = run(workspace, sources, classes, classpath);
        if (all.errors.isEmpty() && carry == null) {
            carry = WarmCarry.of(texts, classes, all.apis, all.declared);
        }
        return all.errors;
    }

    /** javac's errors; the API of each class compiled; the top-level classes of each source. */
    private record Result(List<String> errors, Map<String, String> apis, Map<Path, Set<String>> declared) {
    }

    private Result run(Path workspace, List<Path> sources, Path classes, String onPath) throws IOException {
        Files.createDirectories(classes);
        List<File> paths = new ArrayList<>();
        for (Path source : sources) {
            paths.add(workspace.resolve(source).toFile());
        }
        List<String> options = List.of(
                "-d", classes.toString(), "-cp", onPath, "--release", "17",
                "-encoding", "UTF-8", "-nowarn", "-proc:none", "-Xmaxerrs", "20");
        DiagnosticCollector<JavaFileObject> found = new DiagnosticCollector<>();
        JavacTask task = (JavacTask) javac.getTask(
                null, files, found, options, null, files.getJavaFileObjectsFromFiles(paths));
        Map<String, String> apis = new HashMap<>();
        Map<Path, Set<String>> declared = new HashMap<>();
        try {
            Iterable<? extends Element> analyzed = task.analyze();
            if (errors(workspace, found).isEmpty()) {
                WarmCarry.api(analyzed, task.getElements(), apis);
                Trees trees = Trees.instance(task);
                for (Element type : analyzed) {
                    Path source = Path.of(trees.getPath(type).getCompilationUnit().getSourceFile().toUri());
                    declared.computeIfAbsent(workspace.relativize(source), k -> new HashSet<>())
                            .add(task.getElements().getBinaryName((TypeElement) type).toString());
                }
                task.generate();
            }
        } catch (IllegalStateException stopped) {
            // javac gave up (its errors are among the diagnostics)
        }
        List<String> errors = errors(workspace, found);
        return new Result(errors, apis, declared);
    }

    private static List<String> errors(Path workspace, DiagnosticCollector<JavaFileObject> found) {
        List<String> errors = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> diagnostic : found.getDiagnostics()) {
            if (diagnostic.getKind() == Diagnostic.Kind.ERROR) {
                errors.add(line(workspace, diagnostic));
            }
        }
        return errors;
    }

    private static String line(Path workspace, Diagnostic<? extends JavaFileObject> diagnostic) {
        String message = diagnostic.getMessage(Locale.ROOT);
        JavaFileObject source = diagnostic.getSource();
        if (source == null) {
            return "error: " + message;
        }
        Path path = Path.of(source.toUri());
        String shown = path.startsWith(workspace) ? workspace.relativize(path).toString() : path.toString();
        return shown + ":" + diagnostic.getLineNumber() + ": error: " + message;
    }
}
