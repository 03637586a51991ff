package llmbench.junit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON the warm server reads: its requests, one object a line, written by our Python
 * (json.dumps). Objects, arrays, strings (with their escapes), true, false, null and
 * numbers (kept as their text); anything else is an IllegalArgumentException.
 */
final class Json {

    private final String text;
    private int at;

    private Json(String text) {
        this.text = text;
    }

    /** The object the line holds. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> object(String line) {
        Json json = new Json(line);
        Object value = json.value();
        json.space();
        if (!(value instanceof Map) || json.at != line.length()) {
            throw new IllegalArgumentException("a request is one JSON object a line");
        }
        return (Map<String, Object>) value;
    }

    private Object value() {
        space();
        char c = peek();
        if (c == '{') {
            Map<String, Object> map = new LinkedHashMap<>();
            at++;
            for (boolean first = true; !take('}'); first = false) {
                if (!first) {
                    expect(',');
                }
                space();
                String key = string();
                space();
                expect(':');
                map.put(key, value());
                space();
            }
            return map;
        }
        if (c == '[') {
            List<Object> list = new ArrayList<>();
            at++;
            for (boolean first = true; !take(']'); first = false) {
                if (!first) {
                    expect(',');
                }
                list.add(value());
                space();
            }
            return list;
        }
        if (c == '"') {
            return string();
        }
        for (String word : new String[] {"true", "false", "null"}) {
            if (text.startsWith(word, at)) {
                at += word.length();
                return word.equals("null") ? null : Boolean.valueOf(word);
            }
        }
        int start = at;
        while (at < text.length() && "+-.eE0123456789".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        if (start == at) {
            throw new IllegalArgumentException("unexpected character at " + at);
        }
        return text.substring(start, at);
    }

    private String string() {
        expect('"');
        StringBuilder built = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                return built.toString();
            }
            if (c != '\\') {
                built.append(c);
                continue;
            }
            char escaped = next();
            switch (escaped) {
                case 'n' -> built.append('\n');
                case 't' -> built.append('\t');
                case 'r' -> built.append('\r');
                case 'b' -> built.append('\b');
                case 'f' -> built.append('\f');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw new IllegalArgumentException("a cut \\u escape");
                    }
                    built.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    at += 4;
                }
                default -> built.append(escaped); // \" \\ \/
            }
        }
    }

    private void space() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private char peek() {
        if (at >= text.length()) {
            throw new IllegalArgumentException("the line ends inside a value");
        }
        return text.charAt(at);
    }

    private char next() {
        char c = peek();
        at++;
        return c;
    }

    private boolean take(char c) {
        space();
        if (at < text.length() && text.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!take(c)) {
            throw new IllegalArgumentException("expected '" + c + "' at " + at);
        }
    }
}
