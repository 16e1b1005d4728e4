package io.sluice.zonemap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.Field;
import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import io.sluice.format.StringVector;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import io.sluice.format.spi.BlockTable;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * {@link ColumnSketch} against the exact answers over the same values: ranks within the KLL bound,
 * every key above a share found with about its count, distinct counts within the HLL bound; a merge is
 * the sketch of the union; {@link TableSketch} bytes read back to the same answers.
 */
class ColumnSketchPropertyTest {
    /** KLL's rank error at k = 1024 is about 0.27% at 99% confidence; the test allows twice that. */
    private static final double RANK_ERROR = 0.006;

    /** Keys with a few heavy ones: {@code heavyShare} of the rows on key 7, the rest uniform over {@code domain}. */
    private static long[] keys(final long seed, final int n, final long domain, final double heavyShare) {
        final SplittableRandom random = new SplittableRandom(seed);
        final long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = random.nextDouble() < heavyShare ? 7 : random.nextLong(-domain, domain);
        }
        return keys;
    }

    private static ColumnSketch sketch(final long[] keys, final int from, final int to) {
        final ColumnSketch s = ColumnSketch.empty(TypeKind.INT64);
        for (int start = from; start < to; start += Block.MAX_ROWS) {
            final int n = Math.min(Block.MAX_ROWS, to - start);
            s.update(new LongVector(ColumnType.INT64, Arrays.copyOfRange(keys, start, start + n), n, null));
        }
        return s;
    }

    private static double exactRank(final long[] sorted, final long key) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            final int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return (double) lo / sorted.length;
    }

    @Property(tries = 20)
    void ranksAreWithinTheQuantileError(@ForAll final long seed, @ForAll @IntRange(min = 1, max = 200_000) final int n,
                                        @ForAll @LongRange(min = 1, max = 1_000_000_000L) final long domain,
                                        @ForAll @DoubleRange(min = 0, max = 0.5) final double heavy) {
        final long[] keys = keys(seed, n, domain, heavy);
        final ColumnSketch s = sketch(keys, 0, n);
        final long[] sorted = keys.clone();
        Arrays.sort(sorted);
        assertThat(s.count()).isEqualTo(n);
        for (int i = 0; i < 50; i++) {
            final long probe = sorted[(int) ((long) i * (n - 1) / 49)];
            assertThat(s.rankOf(probe)).as("rank of %d", probe).isCloseTo(exactRank(sorted, probe),
                    org.assertj.core.data.Offset.offset(RANK_ERROR + 1.0 / n));
        }
    }

    @Property(tries = 20)
    void everyKeyAboveAShareIsFoundWithAboutItsCount(@ForAll final long seed,
                                                     @ForAll @IntRange(min = 1_000, max = 200_000) final int n,
                                                     @ForAll @DoubleRange(min = 0.01, max = 0.6) final double heavy) {
        final long[] keys = keys(seed, n, 1_000_000, heavy);
        final Map<Long, Long> exact = new HashMap<>();
        for (final long k : keys) {
            exact.merge(k, 1L, Long::sum);
        }
        final double share = 0.005;
        final List<HeavyKey> found = sketch(keys, 0, n).heavyKeys(share);
        final Set<Long> foundKeys = new HashSet<>();
        for (final HeavyKey h : found) {
            foundKeys.add(h.key());
            assertThat((double) h.rows()).as("rows of %d", h.key()).isCloseTo(exact.get(h.key()),
                    org.assertj.core.data.Offset.offset(3.5 / ColumnSketch.FREQUENT_MAP * n + 1));
        }
        exact.forEach((key, count) -> {
            if (count >= share * n) {
                assertThat(foundKeys).as("key %d with %d of %d rows", key, count, n).contains(key);
            }
        });
        assertThat(found).isSortedAccordingTo((a, b) -> Long.compare(b.rows(), a.rows()));
    }

    @Property(tries = 10)
    void aMergeIsTheSketchOfTheUnion(@ForAll final long seed, @ForAll @IntRange(min = 2, max = 100_000) final int n,
                                     @ForAll @DoubleRange(min = 0, max = 0.5) final double heavy) {
        final long[] keys = keys(seed, n, 50_000, heavy);
        final ColumnSketch merged = sketch(keys, 0, n / 2);
        merged.merge(sketch(keys, n / 2, n));
        final ColumnSketch whole = sketch(keys, 0, n);
        assertThat(merged.count()).isEqualTo(whole.count());
        final long[] sorted = keys.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < 20; i++) {
            final long probe = sorted[(int) ((long) i * (n - 1) / 19)];
            assertThat(merged.rankOf(probe)).isCloseTo(exactRank(sorted, probe),
                    org.assertj.core.data.Offset.offset(RANK_ERROR + 1.0 / n));
        }
        assertThat(merged.distinctEstimate()).isCloseTo(whole.distinctEstimate(),
                org.assertj.core.data.Percentage.withPercentage(5));
        assertThat(merged.heavyKeys(0.05)).extracting(HeavyKey::key)
                .containsExactlyInAnyOrderElementsOf(whole.heavyKeys(0.05).stream().map(HeavyKey::key).toList());
    }

    @Property(tries = 10)
    void distinctCountsAreWithinTheHllError(@ForAll final long seed,
                                            @ForAll @IntRange(min = 1, max = 300_000) final int n) {
        final long[] keys = keys(seed, n, 100_000, 0);
        final long exact = Arrays.stream(keys).distinct().count();
        // HLL with 4096 registers: 1.6% standard error; three of them allowed.
        assertThat(sketch(keys, 0, n).distinctEstimate()).isCloseTo((double) exact,
                org.assertj.core.data.Percentage.withPercentage(5));
    }

    @Test
    void stringsAreSketchedByTheirPrefixKeysAndCountedByTheirWholeBytes() {
        final String[] values = new String[20_000];
        for (int i = 0; i < values.length; i++) {
            // 13 334 distinct strings of one 8-byte prefix; a third of the rows are "zzz".
            values[i] = i % 3 == 0 ? "zzz" : "customer#" + i;
        }
        final ColumnSketch s = ColumnSketch.empty(TypeKind.STRING);
        for (int from = 0; from < values.length; from += Block.MAX_ROWS) {
            s.update(StringVector.of(Arrays.copyOfRange(values, from, Math.min(values.length, from + Block.MAX_ROWS))));
        }
        assertThat(s.distinctEstimate()).isCloseTo(values.length * 2 / 3.0 + 1,
                org.assertj.core.data.Percentage.withPercentage(5));
        // What a range split by prefix keys cannot cut: the 13 334 strings sharing "customer" are one heavy key.
        final List<HeavyKey> heavy = s.heavyKeys(0.2);
        assertThat(heavy).extracting(HeavyKey::key).containsExactly(TestData.prefixKey("customer"),
                TestData.prefixKey("zzz"));
        assertThat(heavy.get(0).share()).isCloseTo(2 / 3.0, org.assertj.core.data.Offset.offset(0.01));
        assertThat(heavy.get(1).share()).isCloseTo(1 / 3.0, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void nullsAreNotValues() {
        final long[] nulls = new long[1];
        nulls[0] = 0b1010L;
        final ColumnSketch s = ColumnSketch.empty(TypeKind.INT64);
        s.update(new LongVector(ColumnType.INT64, new long[] {1, 0, 3, 0, 5}, 5, nulls));
        assertThat(s.count()).isEqualTo(3);
        assertThat(s.rankOf(1)).isCloseTo(1 / 3.0, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void aTableSketchReadsBackToTheSameAnswers() {
        final Schema schema = Schema.of(new Field("k", ColumnType.INT64), new Field("s", ColumnType.STRING));
        final TableSketch built = TableSketch.builder(schema);
        final long[] keys = keys(42, 30_000, 1_000, 0.3);
        final String[] strings = new String[keys.length];
        for (int i = 0; i < keys.length; i++) {
            strings[i] = "v" + (keys[i] % 100);
        }
        for (int from = 0; from < keys.length; from += Block.MAX_ROWS) {
            final int to = Math.min(keys.length, from + Block.MAX_ROWS);
            built.accept(Block.of(new LongVector(ColumnType.INT64, Arrays.copyOfRange(keys, from, to), to - from, null),
                    StringVector.of(Arrays.copyOfRange(strings, from, to))));
        }
        final byte[] bytes = built.finish();
        final TableSketch read = TableSketch.of(tableWithStatistics(schema, bytes));
        for (int c = 0; c < 2; c++) {
            final ColumnSketch a = built.column(c);
            final ColumnSketch b = read.column(c);
            assertThat(b.count()).isEqualTo(a.count());
            assertThat(b.distinctEstimate()).isEqualTo(a.distinctEstimate());
            assertThat(b.heavyKeys(0.1)).isEqualTo(a.heavyKeys(0.1));
            assertThat(b.rankOf(7)).isEqualTo(a.rankOf(7));
        }
        assertThat(read.column("k").heavyKeys(0.2)).extracting(HeavyKey::key).containsExactly(7L);
    }

    @Test
    void statisticsOfAnotherShapeAreRefusedNamingTheTableAndTheFix() {
        final Schema one = Schema.of(new Field("k", ColumnType.INT64));
        final Schema two = Schema.of(new Field("k", ColumnType.INT64), new Field("s", ColumnType.STRING));
        final byte[] ofOne = TableSketch.builder(one).finish();
        assertThatThrownBy(() -> TableSketch.of(tableWithStatistics(two, ofOne)))
                .hasMessageContaining("table 't'").hasMessageContaining("sluice analyze --tables t");
        assertThatThrownBy(() -> TableSketch.of(tableWithStatistics(one, new byte[] {1, 2, 3})))
                .hasMessageContaining("not a table sketch");
        final Schema strings = Schema.of(new Field("k", ColumnType.STRING));
        assertThatThrownBy(() -> TableSketch.of(tableWithStatistics(strings, ofOne)))
                .hasMessageContaining("describe column k as another type");
    }

    private static BlockTable tableWithStatistics(final Schema schema, final byte[] statistics) {
        return new BlockTable() {
            @Override
            public String name() {
                return "t";
            }

            @Override
            public Schema schema() {
                return schema;
            }

            @Override
            public int blockCount() {
                return 0;
            }

            @Override
            public int blockRowCount(final int block) {
                throw new IndexOutOfBoundsException(block);
            }

            @Override
            public ZoneMap zoneMap(final int block, final int column) {
                throw new IndexOutOfBoundsException(block);
            }

            @Override
            public Block readBlock(final int block, final int... projection) {
                throw new IndexOutOfBoundsException(block);
            }

            @Override
            public byte[] statistics() {
                return statistics;
            }
        };
    }
}
