package io.sluice.engine.expr;

import static io.sluice.engine.expr.Expr.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * {@link Like} against an independent reference, a {@link Pattern} of the quoted parts joined by
 * {@code .*}: random strings over a small alphabet (with a two-byte and a three-byte UTF-8
 * character, so that matches happen and bytes are not characters), random patterns of up to four
 * {@code %}, over plain vectors (whose neighbouring bytes belong to other rows, and with bytes
 * before the first and after the last row) and dictionary vectors.
 */
class LikePropertiesTest {
    private static final RowType TYPE = new RowType(List.of("s"), List.of(DataType.STRING));
    private static final String ALPHABET = "abï€";

    @Provide
    Arbitrary<String> value() {
        return Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.strings().withChars(ALPHABET).ofMaxLength(3)),
                Tuple.of(3, Arbitraries.strings().withChars(ALPHABET).ofMaxLength(40)),
                Tuple.of(1, Arbitraries.strings().withChars("ab").ofMinLength(8).ofMaxLength(40)));
    }

    @Provide
    Arbitrary<List<String>> parts() {
        final Arbitrary<String> part = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.strings().withChars(ALPHABET).ofMaxLength(4)),
                Tuple.of(2, Arbitraries.strings().withChars("ab").ofMaxLength(10)),
                Tuple.of(1, Arbitraries.strings().withChars(ALPHABET).ofMinLength(10).ofMaxLength(45)));
        return part.list().ofMinSize(1).ofMaxSize(5);
    }

    private static boolean reference(final List<String> parts, final String value) {
        final String regex = parts.stream().map(Pattern::quote).collect(Collectors.joining(".*"));
        return Pattern.compile(regex, Pattern.DOTALL).matcher(value).matches();
    }

    /** The rows' bytes one after the other, after {@code lead} bytes and before {@code trail} bytes of {@code junk}. */
    private static StringVector plain(final List<String> values, final String junk, final int lead, final int trail) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final byte[] filler = junk.repeat(lead + trail + 1).getBytes(StandardCharsets.UTF_8);
        out.write(filler, 0, lead);
        final int[] offsets = new int[values.size() + 1];
        offsets[0] = lead;
        for (int i = 0; i < values.size(); i++) {
            final byte[] b = values.get(i).getBytes(StandardCharsets.UTF_8);
            out.write(b, 0, b.length);
            offsets[i + 1] = offsets[i] + b.length;
        }
        out.write(filler, 0, trail);
        return StringVector.plain(offsets, out.toByteArray(), values.size(), null);
    }

    private static StringVector dictionary(final List<String> values) {
        final Map<String, Integer> codes = new LinkedHashMap<>();
        final int[] rows = new int[values.size()];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = codes.computeIfAbsent(values.get(i), v -> codes.size());
        }
        return StringVector.dictionary(rows, StringVector.of(codes.keySet().toArray(new String[0])), rows.length, null);
    }

    private static void assertMatchesReference(final List<String> parts, final List<String> values,
                                               final StringVector vector) {
        final String pattern = String.join("%", parts);
        final boolean[] got = Expr.like(col("s"), pattern).bind(TYPE).bools(Batch.of(vector));
        for (int i = 0; i < values.size(); i++) {
            assertThat(got[i]).as("'%s' LIKE '%s'", values.get(i), pattern).isEqualTo(reference(parts, values.get(i)));
        }
    }

    @Property(tries = 1000)
    void likeMatchesTheRegexOfItsParts(@ForAll("parts") final List<String> parts,
                                       @ForAll @Size(min = 1, max = 30) final List<@From("value") String> values,
                                       @ForAll("value") final String junk) {
        // Values that contain the pattern's parts, so that long parts match too.
        final List<String> rows = new ArrayList<>(values);
        rows.add(String.join("", parts));
        rows.add(values.get(0) + String.join(values.get(values.size() - 1), parts) + values.get(0));
        assertMatchesReference(parts, rows, plain(rows, junk.isEmpty() ? "a" : junk, 0, 0));
        assertMatchesReference(parts, rows, plain(rows, junk.isEmpty() ? "ab" : junk, 5, 11));
        assertMatchesReference(parts, rows, dictionary(rows));
    }

    @Test
    void edgeCases() {
        final List<String> values = List.of("", "a", "ab", "abc", "abcabc", "xabcx", "%", "naïve",
                "aaaaaaaaaaaaaaaaab", "ababababababababababab");
        for (final String pattern : List.of("", "%", "%%", "%%%", "abc", "a%b", "%x", "x%", "%a%a%", "%abc%abc%",
                "a%%c", "%ï%", "na%ve", "%aab", "%bab%", "%aaaaaaaaab")) {
            final List<String> parts = List.of(pattern.split("%", -1));
            assertMatchesReference(parts, values, plain(values, "ab", 3, 3));
            assertMatchesReference(parts, values, dictionary(values));
        }
    }

    /** Every string over {@code alphabet} up to {@code maxLength} characters, shortest first. */
    private static List<String> allStrings(final String alphabet, final int maxLength) {
        final List<String> all = new ArrayList<>(List.of(""));
        for (int from = 0, length = 1; length <= maxLength; length++) {
            final int to = all.size();
            for (int j = from; j < to; j++) {
                for (final char c : alphabet.toCharArray()) {
                    all.add(all.get(j) + c);
                }
            }
            from = to;
        }
        return all;
    }

    @Test
    void everySmallPatternOverEverySmallString() {
        // All strings over {a, b} up to 5 long in one batch, so that a part found in one row is
        // looked at again from the next (in its prefix, across its end); reversed for the other order.
        final List<String> values = allStrings("ab", 5);
        final List<String> reversed = new ArrayList<>(values);
        Collections.reverse(reversed);
        final List<String> pieces = allStrings("ab", 2);
        List<List<String>> patterns = new ArrayList<>();
        for (final String p : pieces) {
            patterns.add(List.of(p));
        }
        final List<List<String>> all = new ArrayList<>(patterns);
        for (int wildcards = 1; wildcards <= 3; wildcards++) {
            final List<List<String>> longer = new ArrayList<>();
            for (final List<String> pattern : patterns) {
                for (final String p : pieces) {
                    final List<String> parts = new ArrayList<>(pattern);
                    parts.add(p);
                    longer.add(parts);
                }
            }
            all.addAll(longer);
            patterns = longer;
        }
        for (final List<String> parts : all) {
            assertMatchesReference(parts, values, plain(values, "ab", 0, 0));
            assertMatchesReference(parts, reversed, plain(reversed, "ba", 2, 2));
        }
    }
}
