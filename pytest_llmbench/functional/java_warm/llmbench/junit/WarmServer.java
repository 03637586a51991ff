package llmbench.junit;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.InputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TimeZone;
import java.util.logging.LogManager;
import java.util.stream.Stream;

/**
 * The JUnit runner's warm server (functional/junit_warm.py): one JVM per answer, in the
 * runner's sandbox with the workspace as its working folder, running one suite run per
 * request. A request is one JSON line on stdin,
 * {@code {"nonce": "...", "tests": ["src/test/java/ATest.java", ...], "first": ..., "bail": ...}};
 * the run (WarmRun) writes its files to the folder the first argument names (a fresh one
 * each run: compiled.txt, classes/, reports/, planned.tsv, tmp/), then one line
 * {@code @@llmbench-done NONCE CODE} goes to stdout, CODE being the cold run's exit code.
 * {@code first} and {@code bail} are not used: as in the cold run every class
 * runs, the canary class among them.
 *
 * <p>The tests run in a new thread each run, with the answer's classes in a new class
 * loader; after the run the process-wide settings a test may change (standard streams,
 * system properties, default locale and time zone, the default uncaught-exception
 * handler, java.util.logging's configuration; AssertJ's: WarmRun) are put back, and the
 * threads the run left running end (WarmRun). The tests' System.out and System.err write
 * to the server's output but do not close it. The answer's code can still reach the
 * server (reflection, statics of the shared loader): the server is not trusted after its
 * first run (the canaries and the equivalent runs among the mutants are the defence:
 * functional/mutation.py).
 */
public final class WarmServer {

    private static final String DONE = "@@llmbench-done";

    private WarmServer() {
    }

    public static void main(String[] args) throws Exception {
        Path workspace = Path.of("").toAbsolutePath();
        Path work = workspace.resolve(args[0]);
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        BufferedReader requests = new BufferedReader(
                new InputStreamReader(new FileInputStream(FileDescriptor.in), StandardCharsets.UTF_8));
        Settings settings = new Settings(kept(out), kept(err));
        WarmBuild build = new WarmBuild(System.getProperty("java.class.path"));
        String line;
        while ((line = requests.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, Object> request = Json.object(line);
            String nonce = String.valueOf(request.get("nonce"));
            List<String> tests = new ArrayList<>();
            if (request.get("tests") instanceof List<?> given) {
                given.forEach(t -> tests.add(String.valueOf(t)));
            }
            settings.apply();
            int code = runOnNewThread(() -> {
                clear(work);
                return new WarmRun(workspace, work, build).run(tests);
            });
            settings.apply();
            out.print("\n" + DONE + " " + nonce + " " + code + "\n"); // on a line of its own
            out.flush();
        }
    }

    /** The stream the tests get: what they write goes to `stream`, closing it only flushes. */
    private static PrintStream kept(PrintStream stream) {
        return new PrintStream(new FilterOutputStream(stream) {
            @Override
            public void write(byte[] bytes, int offset, int length) {
                stream.write(bytes, offset, length);
            }

            @Override
            public void close() {
                stream.flush();
            }
        }, true, StandardCharsets.UTF_8);
    }

    interface Body {
        int call() throws Exception;
    }

    /** The run on a thread of its own (its thread locals die with it); 1 if it threw. */
    private static int runOnNewThread(Body body) throws InterruptedException {
        int[] code = {1};
        Thread thread = new Thread(() -> {
            try {
                code[0] = body.call();
            } catch (Throwable failure) { // the run's failure is its output, never the server's end
                failure.printStackTrace();
            }
        }, "main");
        thread.start();
        thread.join();
        return code[0];
    }

    private static void clear(Path folder) throws IOException {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> found = Files.walk(folder)) {
            for (Path path : found.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    /** The process-wide settings as the server started, put back before and after each run. */
    private static final class Settings {
        private final PrintStream out;
        private final PrintStream err;
        private final InputStream in = new ByteArrayInputStream(new byte[0]); // the cold run's stdin is empty
        private final Properties properties = copy(System.getProperties());
        private final Locale locale = Locale.getDefault();
        private final TimeZone zone = TimeZone.getDefault();

        Settings(PrintStream out, PrintStream err) {
            this.out = out;
            this.err = err;
        }

        void apply() {
            System.setOut(out);
            System.setErr(err);
            System.setIn(in);
            System.setProperties(copy(properties));
            Locale.setDefault(locale);
            TimeZone.setDefault(zone);
            Thread.setDefaultUncaughtExceptionHandler(null);
            try {
                LogManager.getLogManager().readConfiguration(); // the JDK's logging.properties
            } catch (IOException unreadable) {
                LogManager.getLogManager().reset();
            }
        }

        private static Properties copy(Properties from) {
            Properties copied = new Properties();
            copied.putAll(from);
            return copied;
        }
    }
}
