package llmbench.junit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.TypeParameterElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.Elements;

/**
 * What the warm server's first full build leaves to later runs (WarmBuild): its class
 * files, read right after javac and before any test ran, the text of each source they
 * came from, and the API of each class. The same idea as the cold runs' carry
 * (functional/javac_carry.py), for a build inside the server.
 *
 * <p>A class's API here is what the bytecode of another class compiled against it depends
 * on: its kind, modifiers, supertypes and type parameters, and of each member its kind,
 * modifiers, name, type (parameters, return type), thrown types and constant value (a
 * constant is copied into the classes that use it). A changed source whose classes keep
 * their API needs no other class compiled again: a full build would make the same bytes
 * of the others.
 */
final class WarmCarry {

    private final Map<Path, String> texts;
    private final Map<Path, byte[]> classFiles;
    private final Map<String, String> apis;
    private final Map<Path, Set<String>> declared; // source -> its top-level classes' binary names

    private WarmCarry(
            Map<Path, String> texts, Map<Path, byte[]> classFiles, Map<String, String> apis,
            Map<Path, Set<String>> declared) {
        this.texts = texts;
        this.classFiles = classFiles;
        this.apis = apis;
        this.declared = declared;
    }

    /** The carry of a full build: `classes` as javac left it. */
    static WarmCarry of(
            Map<Path, String> texts, Path classes, Map<String, String> apis, Map<Path, Set<String>> declared)
            throws IOException {
        Map<Path, byte[]> classFiles = new HashMap<>();
        try (Stream<Path> found = Files.walk(classes)) {
            for (Path path : found.filter(Files::isRegularFile).toList()) {
                classFiles.put(classes.relativize(path), Files.readAllBytes(path));
            }
        }
        return new WarmCarry(Map.copyOf(texts), classFiles, Map.copyOf(apis), Map.copyOf(declared));
    }

    /**
     * Writes the carried class files into `classes` but those of the sources that changed
     * or are gone, and returns the sources to compile (changed or new); null when a main
     * source is gone (compile everything). A source gone from src/test/java is an earlier
     * run's canary class, which nothing else uses.
     */
    List<Path> restore(Map<Path, String> now, Path classes) throws IOException {
        List<Path> changed = new ArrayList<>();
        List<Path> dropped = new ArrayList<>();
        for (Map.Entry<Path, String> source : now.entrySet()) {
            if (!source.getValue().equals(texts.get(source.getKey()))) {
                changed.add(source.getKey());
                dropped.add(source.getKey());
            }
        }
        for (Path source : texts.keySet()) {
            if (!now.containsKey(source)) {
                if (!source.startsWith("src/test/java")) {
                    return null;
                }
                dropped.add(source);
            }
        }
        List<String> gone = new ArrayList<>();
        for (Path source : dropped) {
            for (String name : declared.getOrDefault(source, Set.of())) {
                gone.add(name.replace('.', '/'));
            }
        }
        for (Map.Entry<Path, byte[]> file : classFiles.entrySet()) {
            String name = file.getKey().toString();
            if (gone.stream().noneMatch(g -> name.equals(g + ".class") || name.startsWith(g + "$"))) {
                Path target = classes.resolve(file.getKey());
                Files.createDirectories(target.getParent());
                Files.write(target, file.getValue());
            }
        }
        changed.sort(Comparator.naturalOrder());
        return changed;
    }

    /**
     * Whether every class compiled again that was carried has the carried API, and every
     * source compiled again (`changed`) that was carried declares the classes it declared.
     */
    boolean same(Map<String, String> compiled, List<Path> changed, Map<Path, Set<String>> sources) {
        return compiled.entrySet().stream()
                .allMatch(e -> !apis.containsKey(e.getKey()) || apis.get(e.getKey()).equals(e.getValue()))
                && changed.stream()
                .allMatch(p -> !declared.containsKey(p) || declared.get(p).equals(sources.getOrDefault(p, Set.of())));
    }

    /** Everything in `classes` removed (the folder kept). */
    static void empty(Path classes) throws IOException {
        try (Stream<Path> found = Files.walk(classes)) {
            for (Path path : found.sorted(Comparator.reverseOrder()).toList()) {
                if (!path.equals(classes)) {
                    Files.delete(path);
                }
            }
        }
    }

    /** The API of each class in `analyzed` and their member classes, by binary name. */
    static void api(Iterable<? extends Element> analyzed, Elements elements, Map<String, String> out) {
        for (Element element : analyzed) {
            if (element instanceof TypeElement type) {
                out.put(elements.getBinaryName(type).toString(), api(type));
                api(type.getEnclosedElements(), elements, out);
            }
        }
    }

    private static String api(TypeElement type) {
        StringBuilder api = new StringBuilder();
        api.append(type.getKind()).append(' ').append(type.getModifiers()).append(' ')
                .append(type.getSuperclass()).append(' ').append(type.getInterfaces());
        for (TypeParameterElement parameter : type.getTypeParameters()) {
            api.append(' ').append(parameter).append(parameter.getBounds());
        }
        for (Element member : type.getEnclosedElements()) {
            if (member instanceof TypeElement) {
                api.append('\n').append(member.getKind()).append(' ').append(member.getSimpleName());
                continue;
            }
            api.append('\n').append(member.getKind()).append(' ').append(member.getModifiers())
                    .append(' ').append(member.getSimpleName()).append(' ').append(member.asType());
            if (member instanceof ExecutableElement executable) {
                api.append(" throws ").append(executable.getThrownTypes())
                        .append(" default ").append(executable.getDefaultValue());
            } else if (member instanceof VariableElement variable) {
                api.append(" = ").append(Objects.toString(variable.getConstantValue()));
            }
        }
        return api.toString();
    }
}
