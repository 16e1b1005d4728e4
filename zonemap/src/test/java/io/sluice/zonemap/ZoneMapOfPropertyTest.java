package io.sluice.zonemap;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.ColumnType;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.StringVector;
import io.sluice.format.ZoneMap;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** {@link ZoneMap#of} against min, max and null count computed here by brute force, for every kind. */
class ZoneMapOfPropertyTest {
    private static final int MAX_ROWS = 300;

    @Property(tries = 400)
    void longVectorsMatchBruteForce(@ForAll("longs") final List<Long> values, @ForAll final boolean decimal,
                                    @ForAll final boolean emptyMaskWhenNoNulls) {
        final int n = values.size();
        // Slots past the row count are undefined: fill them with extremes the zonemap must ignore.
        final long[] array = new long[n + 2];
        array[n] = Long.MIN_VALUE;
        array[n + 1] = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            array[i] = values.get(i) == null ? 0 : values.get(i);
        }
        final ColumnType type = decimal ? ColumnType.decimal(18, 2) : ColumnType.INT64;
        final ZoneMap actual = ZoneMap.of(new LongVector(type, array, n, mask(values, emptyMaskWhenNoNulls)));

        long min = 0;
        long max = 0;
        int nulls = 0;
        boolean any = false;
        for (final Long v : values) {
            if (v == null) {
                nulls++;
            } else {
                min = any ? Math.min(min, v) : v;
                max = any ? Math.max(max, v) : v;
                any = true;
            }
        }
        assertThat(actual).isEqualTo(new ZoneMap(min, max, nulls, n));
        assertThat(actual.hasValues()).isEqualTo(any);
    }

    @Property(tries = 400)
    void intVectorsMatchBruteForce(@ForAll("ints") final List<Integer> values, @ForAll final boolean date,
                                   @ForAll final boolean emptyMaskWhenNoNulls) {
        final int n = values.size();
        final int[] array = new int[n + 2];
        array[n] = Integer.MIN_VALUE;
        array[n + 1] = Integer.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            array[i] = values.get(i) == null ? 0 : values.get(i);
        }
        final ColumnType type = date ? ColumnType.DATE : ColumnType.INT32;
        final ZoneMap actual = ZoneMap.of(new IntVector(type, array, n, mask(values, emptyMaskWhenNoNulls)));

        long min = 0;
        long max = 0;
        int nulls = 0;
        boolean any = false;
        for (final Integer v : values) {
            if (v == null) {
                nulls++;
            } else {
                min = any ? Math.min(min, v) : v;
                max = any ? Math.max(max, v) : v;
                any = true;
            }
        }
        assertThat(actual).isEqualTo(new ZoneMap(min, max, nulls, n));
    }

    @Property(tries = 400)
    void stringVectorsMatchBruteForce(@ForAll("strings") final List<String> values, @ForAll final boolean dictionary) {
        final int n = values.size();
        final StringVector vector = dictionary ? dictionaryVector(values) : StringVector.of(values.toArray(new String[0]));
        final ZoneMap actual = ZoneMap.of(vector);

        long min = 0;
        long max = 0;
        int nulls = 0;
        boolean any = false;
        for (final String v : values) {
            if (v == null) {
                nulls++;
                continue;
            }
            final long key = TestData.prefixKey(v);
            min = !any || Long.compareUnsigned(key, min) < 0 ? key : min;
            max = !any || Long.compareUnsigned(key, max) > 0 ? key : max;
            any = true;
        }
        assertThat(actual).isEqualTo(new ZoneMap(min, max, nulls, n));
    }

    @Provide
    Arbitrary<List<Long>> longs() {
        return Arbitraries.of(0.0, 0.2, 0.9, 1.0).flatMap(nullShare -> Arbitraries.oneOf(
                        Arbitraries.longs(),
                        Arbitraries.longs().between(-3, 3),
                        Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 1L))
                .injectNull(nullShare).list().ofMaxSize(MAX_ROWS));
    }

    @Provide
    Arbitrary<List<Integer>> ints() {
        return Arbitraries.of(0.0, 0.2, 0.9, 1.0).flatMap(nullShare -> Arbitraries.oneOf(
                        Arbitraries.integers(),
                        Arbitraries.integers().between(-3, 3),
                        Arbitraries.of(Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 1))
                .injectNull(nullShare).list().ofMaxSize(MAX_ROWS));
    }

    @Provide
    Arbitrary<List<String>> strings() {
        return Arbitraries.of(0.0, 0.2, 1.0).flatMap(nullShare -> Arbitraries.oneOf(
                        Arbitraries.strings().withCharRange('\u0000', '\u00ff').ofMaxLength(12),
                        Arbitraries.strings().all().ofMaxLength(10),
                        Arbitraries.strings().withChars("ab").ofMaxLength(10).map(s -> "prefix00" + s),
                        Arbitraries.of("", "\u00ff\u00ff\u00ff", "\u4e2d\u6587", "\u0000", "a", "aaaaaaaaZ"))
                .injectNull(nullShare).list().ofMaxSize(MAX_ROWS));
    }

    private static long[] mask(final List<?> values, final boolean emptyMaskWhenNoNulls) {
        final long[] mask = TestData.nullMask(values, (values.size() + 63) / 64);
        boolean anyNull = false;
        for (final long word : mask) {
            anyNull |= word != 0;
        }
        return anyNull || emptyMaskWhenNoNulls ? mask : null;
    }

    /** A dictionary vector over the distinct non-null values (null rows point at code 0). */
    private static StringVector dictionaryVector(final List<String> values) {
        final LinkedHashSet<String> distinct = new LinkedHashSet<>();
        distinct.add("");
        for (final String v : values) {
            if (v != null) {
                distinct.add(v);
            }
        }
        final List<String> dict = new ArrayList<>(distinct);
        final int[] codes = new int[values.size()];
        for (int i = 0; i < codes.length; i++) {
            codes[i] = values.get(i) == null ? 0 : dict.indexOf(values.get(i));
        }
        final long[] mask = TestData.nullMask(values, (values.size() + 63) / 64);
        return StringVector.dictionary(codes, StringVector.of(dict.toArray(new String[0])), codes.length, mask);
    }
}
