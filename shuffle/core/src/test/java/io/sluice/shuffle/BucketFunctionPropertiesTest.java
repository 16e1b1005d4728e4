package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.StringVector;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * Properties of the bucket functions, checked against independent reference implementations
 * written here: a linear count of cut points for range, a byte-by-byte prefix key for strings.
 */
class BucketFunctionPropertiesTest {

    // ---------------------------------------------------------------- references

    /** Bucket by counting cut points at or below the key (the definition, without the search). */
    static int referenceRange(final TypeKind kind, final long[] cuts, final long key) {
        int bucket = 0;
        for (final long cut : cuts) {
            final boolean atOrBelow = kind == TypeKind.STRING ? Long.compareUnsigned(cut, key) <= 0 : cut <= key;
            if (atOrBelow) {
                bucket++;
            }
        }
        return bucket;
    }

    /** First 8 bytes, big-endian, zero-padded. */
    static long prefixKey(final byte[] bytes) {
        long key = 0;
        for (int i = 0; i < 8; i++) {
            key = (key << 8) | (i < bytes.length ? bytes[i] & 0xFF : 0);
        }
        return key;
    }

    static long[] sortedDistinct(final List<Long> values, final boolean unsigned) {
        final TreeSet<Long> set = new TreeSet<>(unsigned ? Long::compareUnsigned : Long::compare);
        set.addAll(values);
        final long[] out = new long[set.size()];
        int i = 0;
        for (final long v : set) {
            out[i++] = v;
        }
        return out;
    }

    static int[] buckets(final BucketFunction f, final ColumnVector... keys) {
        final int[] out = new int[keys[0].rowCount()];
        f.buckets(keys, keys[0].rowCount(), out);
        return out;
    }

    /** Keys around the cut points as well as anywhere, so that boundaries are hit exactly. */
    static long[] keysNear(final long[] cuts, final List<Long> random) {
        final List<Long> keys = new ArrayList<>(random);
        for (final long c : cuts) {
            keys.add(c);
            keys.add(c - 1);
            keys.add(c + 1);
        }
        keys.add(Long.MIN_VALUE);
        keys.add(Long.MAX_VALUE);
        keys.add(0L);
        keys.add(-1L);
        return keys.stream().mapToLong(Long::longValue).toArray();
    }

    @Provide
    Arbitrary<List<Long>> cutValues() {
        final Arbitrary<Long> small = Arbitraries.longs().between(-1000, 1000);
        final Arbitrary<Long> any = Arbitraries.longs();
        return Arbitraries.oneOf(small, any, Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L))
                .list().ofMinSize(0).ofMaxSize(70);
    }

    @Provide
    Arbitrary<List<Long>> keyValues() {
        return Arbitraries.oneOf(Arbitraries.longs().between(-1100, 1100), Arbitraries.longs())
                .list().ofMinSize(1).ofMaxSize(300);
    }

    // ---------------------------------------------------------------- range: integers

    @Property(tries = 300)
    void rangeLongKeysLandInTheBucketOfTheirCutPoints(@ForAll("cutValues") final List<Long> cutList,
                                                       @ForAll("keyValues") final List<Long> keyList) {
        final long[] cuts = sortedDistinct(cutList, false);
        final RangeBucketFunction f = new RangeBucketFunction(TypeKind.INT64, cuts);
        final long[] keys = keysNear(cuts, keyList);
        final int[] out = buckets(f, LongVector.ofInt64(keys));
        for (int i = 0; i < keys.length; i++) {
            assertThat(out[i]).as("bucket of %d with cuts %s", keys[i], Arrays.toString(cuts))
                    .isEqualTo(referenceRange(TypeKind.INT64, cuts, keys[i]))
                    .isBetween(0, f.bucketCount() - 1);
            assertThat(f.bucket(keys[i])).isEqualTo(out[i]);
        }
    }

    @Provide
    Arbitrary<List<Long>> clusteredCuts() {
        // Evenly spread cut points take the slot table; a few bunched ones force the search.
        return Arbitraries.longs().between(-3, 3).flatMap(scale -> Arbitraries.longs().between(0, 1L << 20)
                .map(v -> scale >= 0 ? v << (scale * 14) : -(v << (-scale * 14)))
                .list().ofMinSize(1).ofMaxSize(80));
    }

    @Property(tries = 300)
    void slotTableAndSearchBothMatchTheReference(@ForAll("clusteredCuts") final List<Long> cutList,
                                                 @ForAll("keyValues") final List<Long> keyList) {
        final long[] cuts = sortedDistinct(cutList, false);
        final RangeBucketFunction f = new RangeBucketFunction(TypeKind.INT64, cuts);
        final long[] keys = keysNear(cuts, keyList);
        final int[] out = buckets(f, LongVector.ofInt64(keys));
        final int[] ints = new int[keys.length];
        for (int i = 0; i < keys.length; i++) {
            ints[i] = (int) keys[i];
        }
        final int[] outInts = buckets(f, IntVector.ofInt32(ints));
        for (int i = 0; i < keys.length; i++) {
            assertThat(out[i]).as("bucket of %d, slot table %s", keys[i], f.usesSlotTable())
                    .isEqualTo(referenceRange(TypeKind.INT64, cuts, keys[i]));
            assertThat(outInts[i]).isEqualTo(referenceRange(TypeKind.INT64, cuts, ints[i]));
        }
    }

    @Test
    void evenCutPointsUseTheSlotTableAndBunchedOnesTheSearch() {
        final long[] even = new long[63];
        for (int i = 0; i < even.length; i++) {
            even[i] = (1L << 30) / 64 * (i + 1);
        }
        assertThat(new RangeBucketFunction(TypeKind.INT64, even).usesSlotTable()).isTrue();
        assertThat(new RangeBucketFunction(TypeKind.STRING, new long[] {1, -1}).usesSlotTable()).isTrue();
        final RangeBucketFunction bunched = new RangeBucketFunction(TypeKind.INT64, new long[] {1, 2, 3, 1L << 40});
        assertThat(bunched.usesSlotTable()).isFalse();
        assertThat(buckets(bunched, LongVector.ofInt64(0, 1, 2, 3, 4, 1L << 40, Long.MAX_VALUE)))
                .containsExactly(0, 1, 2, 3, 3, 4, 4);
    }

    @Property(tries = 300)
    void rangeBucketsAreOrderedBySignedKey(@ForAll("cutValues") final List<Long> cutList,
                                           @ForAll("keyValues") final List<Long> keyList) {
        final long[] cuts = sortedDistinct(cutList, false);
        final RangeBucketFunction f = new RangeBucketFunction(TypeKind.INT64, cuts);
        final long[] keys = keysNear(cuts, keyList);
        Arrays.sort(keys);
        final int[] out = buckets(f, LongVector.ofInt64(keys));
        // Every key of bucket i is below every key of bucket i + 1: along sorted keys, buckets never go down.
        for (int i = 1; i < keys.length; i++) {
            assertThat(out[i]).as("key %d after %d", keys[i], keys[i - 1]).isGreaterThanOrEqualTo(out[i - 1]);
            if (out[i] > out[i - 1]) {
                assertThat(keys[i]).isGreaterThan(keys[i - 1]);
            }
        }
    }

    @Property(tries = 200)
    void rangeInt32AndInt64KeysOfEqualValueAgree(@ForAll("cutValues") final List<Long> cutList,
                                                 @ForAll @Size(min = 1, max = 300) final List<Integer> values) {
        final long[] cuts = sortedDistinct(cutList, false);
        final RangeBucketFunction f = new RangeBucketFunction(TypeKind.INT64, cuts);
        final int[] ints = values.stream().mapToInt(Integer::intValue).toArray();
        final long[] longs = values.stream().mapToLong(Integer::longValue).toArray();
        assertThat(buckets(f, IntVector.ofInt32(ints))).containsExactly(buckets(f, LongVector.ofInt64(longs)));
    }

    // ---------------------------------------------------------------- range: strings

    @Provide
    Arbitrary<List<byte[]>> strings() {
        final Arbitrary<byte[]> ascii = Arbitraries.strings().withChars("abcxyz").ofMinLength(0).ofMaxLength(11)
                .map(s -> s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        final Arbitrary<byte[]> raw = Arbitraries.bytes().array(byte[].class).ofMinSize(0).ofMaxSize(12);
        return Arbitraries.oneOf(ascii, raw).list().ofMinSize(1).ofMaxSize(200);
    }

    static StringVector plain(final List<byte[]> values) {
        final int[] offsets = new int[values.size() + 1];
        final byte[] bytes = new byte[values.stream().mapToInt(b -> b.length).sum()];
        for (int i = 0; i < values.size(); i++) {
            final byte[] v = values.get(i);
            System.arraycopy(v, 0, bytes, offsets[i], v.length);
            offsets[i + 1] = offsets[i] + v.length;
        }
        return StringVector.plain(offsets, bytes, values.size(), null);
    }

    @Property(tries = 300)
    void rangeStringBucketsFollowUnsignedPrefixOrder(@ForAll("strings") final List<byte[]> values,
                                                     @ForAll("strings") final List<byte[]> cutStrings) {
        final List<Long> cutKeys = new ArrayList<>();
        for (final byte[] c : cutStrings) {
            cutKeys.add(prefixKey(c));
        }
        final long[] cuts = sortedDistinct(cutKeys, true);
        final RangeBucketFunction f = new RangeBucketFunction(TypeKind.STRING, cuts);
        final List<byte[]> sorted = new ArrayList<>(values);
        sorted.sort(Arrays::compareUnsigned);
        final int[] out = buckets(f, plain(sorted));
        for (int i = 0; i < sorted.size(); i++) {
            assertThat(out[i]).isEqualTo(referenceRange(TypeKind.STRING, cuts, prefixKey(sorted.get(i))));
            if (i > 0) {
                assertThat(out[i]).isGreaterThanOrEqualTo(out[i - 1]);
            }
        }
    }

    @Property(tries = 200)
    void dictionaryAndPlainStringsGetTheSameBuckets(@ForAll("strings") final List<byte[]> entries,
                                                    @ForAll @Size(min = 1, max = 300) final List<@IntRange(min = 0, max = 10_000) Integer> picks,
                                                    @ForAll @IntRange(min = 1, max = 100) final int hashBuckets) {
        final StringVector dictionary = plain(entries);
        final int[] codes = new int[picks.size()];
        final List<byte[]> expanded = new ArrayList<>();
        for (int i = 0; i < codes.length; i++) {
            codes[i] = picks.get(i) % entries.size();
            expanded.add(entries.get(codes[i]));
        }
        final StringVector dict = StringVector.dictionary(codes, dictionary, codes.length, null);
        final RangeBucketFunction range = new RangeBucketFunction(TypeKind.STRING, new long[] {prefixKey(new byte[] {'b'})});
        final HashBucketFunction hash = new HashBucketFunction(hashBuckets, TypeKind.STRING);
        assertThat(buckets(range, dict)).containsExactly(buckets(range, plain(expanded)));
        assertThat(buckets(hash, dict)).containsExactly(buckets(hash, plain(expanded)));
    }

    // ---------------------------------------------------------------- determinism

    @Property(tries = 200)
    void theSameKeyGetsTheSameBucketAcrossCallsAndInstances(@ForAll("cutValues") final List<Long> cutList,
                                                            @ForAll("keyValues") final List<Long> keyList,
                                                            @ForAll @IntRange(min = 1, max = Topology.MAX_BUCKETS) final int hashBuckets,
                                                            @ForAll final long seed) {
        final long[] cuts = sortedDistinct(cutList, false);
        final long[] keys = keyList.stream().mapToLong(Long::longValue).toArray();
        final List<Long> shuffledList = new ArrayList<>(keyList);
        Collections.shuffle(shuffledList, new Random(seed));
        final long[] shuffled = shuffledList.stream().mapToLong(Long::longValue).toArray();
        final BucketFunction[][] pairs = {
                {new RangeBucketFunction(TypeKind.INT64, cuts), new RangeBucketFunction(TypeKind.INT64, cuts)},
                {new HashBucketFunction(hashBuckets, TypeKind.INT64), new HashBucketFunction(hashBuckets, TypeKind.INT64)}};
        for (final BucketFunction[] pair : pairs) {
            final int[] first = buckets(pair[0], LongVector.ofInt64(keys));
            final int[] again = buckets(pair[0], LongVector.ofInt64(keys));
            final int[] other = buckets(pair[1], LongVector.ofInt64(shuffled));
            assertThat(again).containsExactly(first);
            final java.util.Map<Long, Integer> seen = new java.util.HashMap<>();
            for (int i = 0; i < keys.length; i++) {
                assertThat(first[i]).isBetween(0, pair[0].bucketCount() - 1);
                final Integer before = seen.putIfAbsent(keys[i], first[i]);
                assertThat(before == null ? first[i] : before).as("key %d", keys[i]).isEqualTo(first[i]);
            }
            for (int i = 0; i < shuffled.length; i++) {
                assertThat(other[i]).as("key %d in another instance", shuffled[i]).isEqualTo(seen.get(shuffled[i]));
            }
        }
    }

    @Property(tries = 200)
    void hashOfInt32AndInt64ColumnsWithEqualValuesAgree(@ForAll @Size(min = 1, max = 300) final List<Integer> values,
                                                        @ForAll @IntRange(min = 1, max = Topology.MAX_BUCKETS) final int bucketCount) {
        final int[] ints = values.stream().mapToInt(Integer::intValue).toArray();
        final long[] longs = values.stream().mapToLong(Integer::longValue).toArray();
        final int[] fromInts = buckets(new HashBucketFunction(bucketCount, TypeKind.INT32), IntVector.ofInt32(ints));
        final int[] fromLongs = buckets(new HashBucketFunction(bucketCount, TypeKind.INT64), LongVector.ofInt64(longs));
        assertThat(fromInts).containsExactly(fromLongs);
        // A join of INT32 with INT64 uses one function for both sides.
        assertThat(buckets(new HashBucketFunction(bucketCount, TypeKind.INT64), IntVector.ofInt32(ints)))
                .containsExactly(fromLongs);
        // Two-column keys too, column by column.
        final HashBucketFunction two = new HashBucketFunction(bucketCount, TypeKind.INT64, TypeKind.INT32);
        assertThat(buckets(two, IntVector.ofInt32(ints), IntVector.ofInt32(ints)))
                .containsExactly(buckets(two, LongVector.ofInt64(longs), LongVector.ofInt64(longs)));
    }

    @Property(tries = 200)
    void multiColumnHashGivesEqualTuplesEqualBuckets(@ForAll @Size(min = 1, max = 300) final List<@IntRange(min = 0, max = 5) Integer> a,
                                                     @ForAll final long seed) {
        final Random random = new Random(seed);
        final long[] first = new long[a.size()];
        final String[] second = new String[a.size()];
        for (int i = 0; i < a.size(); i++) {
            first[i] = a.get(i);
            second[i] = "v" + random.nextInt(3);
        }
        final HashBucketFunction f = new HashBucketFunction(37, TypeKind.INT64, TypeKind.STRING);
        final int[] out = buckets(f, LongVector.ofInt64(first), StringVector.of(second));
        final java.util.Map<String, Integer> seen = new java.util.HashMap<>();
        for (int i = 0; i < out.length; i++) {
            assertThat(out[i]).isBetween(0, 36);
            final Integer before = seen.putIfAbsent(first[i] + "|" + second[i], out[i]);
            assertThat(before == null ? out[i] : before).isEqualTo(out[i]);
        }
    }

    // ---------------------------------------------------------------- nulls

    @Property(tries = 200)
    void nullKeysGoToTheNullBucketAndOthersAreUnchanged(@ForAll("keyValues") final List<Long> keyList,
                                                        @ForAll final long seed,
                                                        @ForAll @IntRange(min = 2, max = 200) final int hashBuckets) {
        final Random random = new Random(seed);
        final int rows = keyList.size();
        final long[] nulls = new long[NullMask.words(rows)];
        for (int i = 0; i < rows; i++) {
            if (random.nextInt(3) == 0) {
                NullMask.setNull(nulls, i);
            }
        }
        final long[] longs = keyList.stream().mapToLong(Long::longValue).toArray();
        final int[] ints = new int[rows];
        final String[] strings = new String[rows];
        final String[] stringsWithNulls = new String[rows];
        for (int i = 0; i < rows; i++) {
            ints[i] = (int) longs[i];
            strings[i] = Long.toString(longs[i], 36);
            stringsWithNulls[i] = NullMask.isNull(nulls, i) ? null : strings[i];
        }
        final long[] cuts = {-500, 0, 700};
        final Object[][] cases = {
                {new RangeBucketFunction(TypeKind.INT64, cuts), new LongVector(ColumnType.INT64, longs, rows, nulls),
                        LongVector.ofInt64(longs)},
                {new RangeBucketFunction(TypeKind.INT32, cuts), new IntVector(ColumnType.INT32, ints, rows, nulls),
                        IntVector.ofInt32(ints)},
                {new RangeBucketFunction(TypeKind.STRING, new long[] {prefixKey("2".getBytes()), prefixKey("k".getBytes())}),
                        StringVector.of(stringsWithNulls), StringVector.of(strings)},
                {new HashBucketFunction(hashBuckets, TypeKind.INT64), new LongVector(ColumnType.INT64, longs, rows, nulls),
                        LongVector.ofInt64(longs)},
                {new HashBucketFunction(hashBuckets, TypeKind.STRING), StringVector.of(stringsWithNulls),
                        StringVector.of(strings)}};
        for (final Object[] c : cases) {
            final BucketFunction f = (BucketFunction) c[0];
            final int[] withNulls = buckets(f, (ColumnVector) c[1]);
            final int[] without = buckets(f, (ColumnVector) c[2]);
            for (int i = 0; i < rows; i++) {
                assertThat(withNulls[i]).as("%s row %d", f.getClass().getSimpleName(), i)
                        .isEqualTo(NullMask.isNull(nulls, i) ? BucketFunction.NULL_BUCKET : without[i]);
            }
        }
        // A multi-column key with a null in any column is a null key.
        final HashBucketFunction two = new HashBucketFunction(hashBuckets, TypeKind.INT64, TypeKind.INT64);
        final int[] out = buckets(two, LongVector.ofInt64(longs), new LongVector(ColumnType.INT64, longs, rows, nulls));
        for (int i = 0; i < rows; i++) {
            if (NullMask.isNull(nulls, i)) {
                assertThat(out[i]).isEqualTo(BucketFunction.NULL_BUCKET);
            }
        }
    }

    // ---------------------------------------------------------------- whole ranges

    @Property(tries = 300)
    void bucketOfRangeIsTheBucketOfEveryRowWhenItAnswers(@ForAll("cutValues") final List<Long> cutList,
                                                         @ForAll("keyValues") final List<Long> keyList,
                                                         @ForAll final boolean withNulls) {
        final long[] cuts = sortedDistinct(cutList, false);
        final long[] keys = keyList.stream().mapToLong(Long::longValue).toArray();
        final long[] nulls = new long[NullMask.words(keys.length)];
        if (withNulls) {
            NullMask.setNull(nulls, 0);
        }
        final LongVector vector = new LongVector(ColumnType.INT64, keys, keys.length, withNulls ? nulls : null);
        final ZoneMap zoneMap = ZoneMap.of(vector);
        final RangeBucketFunction range = new RangeBucketFunction(TypeKind.INT64, cuts);
        final int whole = range.bucketOfRange(zoneMap);
        final int[] out = buckets(range, vector);
        // Exactly when every row (nulls in bucket 0) shares one bucket by the reference, range answers it.
        final java.util.Set<Integer> distinct = new java.util.HashSet<>();
        for (int i = 0; i < keys.length; i++) {
            distinct.add(vector.isNull(i) ? 0 : referenceRange(TypeKind.INT64, cuts, keys[i]));
        }
        final boolean oneBucketByRange = !zoneMap.hasValues()
                || referenceRange(TypeKind.INT64, cuts, zoneMap.min()) == referenceRange(TypeKind.INT64, cuts, zoneMap.max())
                && (zoneMap.nullCount() == 0 || referenceRange(TypeKind.INT64, cuts, zoneMap.min()) == 0);
        assertThat(whole >= 0).isEqualTo(oneBucketByRange);
        if (whole >= 0) {
            assertThat(distinct).containsExactly(whole);
            for (final int b : out) {
                assertThat(b).isEqualTo(whole);
            }
        }
        final HashBucketFunction hash = new HashBucketFunction(64, TypeKind.INT64);
        final int hashWhole = hash.bucketOfRange(zoneMap);
        if (hashWhole >= 0) {
            for (final int b : buckets(hash, vector)) {
                assertThat(b).isEqualTo(hashWhole);
            }
        }
    }

    // ---------------------------------------------------------------- spread

    @Test
    void hashSpreadsSequentialKeysEvenly() {
        final int n = 1_000_000;
        final int bucketCount = 64;
        final long[] longs = new long[n];
        final int[] ints = new int[n];
        final String[] strings = new String[n];
        for (int i = 0; i < n; i++) {
            longs[i] = i;
            ints[i] = i;
            strings[i] = "key" + i;
        }
        final HashBucketFunction f = new HashBucketFunction(bucketCount, TypeKind.INT64);
        assertEven(buckets(f, LongVector.ofInt64(longs)), bucketCount);
        assertEven(buckets(new HashBucketFunction(bucketCount, TypeKind.INT32), IntVector.ofInt32(ints)), bucketCount);
        assertEven(buckets(new HashBucketFunction(bucketCount, TypeKind.STRING), StringVector.of(strings)), bucketCount);
        // Keys that are multiples of the bucket count are a classic trap for modulo hashing.
        for (int i = 0; i < n; i++) {
            longs[i] = (long) i * bucketCount;
        }
        assertEven(buckets(f, LongVector.ofInt64(longs)), bucketCount);
    }

    static void assertEven(final int[] buckets, final int bucketCount) {
        final long[] counts = new long[bucketCount];
        for (final int b : buckets) {
            counts[b]++;
        }
        final double mean = (double) buckets.length / bucketCount;
        double chiSquare = 0;
        long max = 0;
        for (final long c : counts) {
            chiSquare += (c - mean) * (c - mean) / mean;
            max = Math.max(max, c);
        }
        assertThat(max / mean).as("max/mean of %s", Arrays.toString(counts)).isLessThan(1.05);
        // 63 degrees of freedom: mean 63, standard deviation ~11.2; 130 is six deviations out.
        assertThat(chiSquare).as("chi-square of %s", Arrays.toString(counts)).isLessThan(130.0);
    }

    // ---------------------------------------------------------------- bad input

    @Test
    void keysOfAKindTheFunctionCannotTakeAreRefused() {
        final RangeBucketFunction numbers = new RangeBucketFunction(TypeKind.INT64, new long[] {10});
        final RangeBucketFunction strings = new RangeBucketFunction(TypeKind.STRING, new long[] {10});
        final int[] out = new int[1];
        assertThatThrownBy(() -> numbers.buckets(new ColumnVector[] {StringVector.of("a")}, 1, out))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("STRING").hasMessageContaining("INT64");
        assertThatThrownBy(() -> strings.buckets(new ColumnVector[] {LongVector.ofInt64(1)}, 1, out))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("INT64").hasMessageContaining("STRING");
        assertThatThrownBy(() -> numbers.checkKeyKinds(TypeKind.DECIMAL)).hasMessageContaining("DECIMAL");
        assertThatThrownBy(() -> numbers.checkKeyKinds(TypeKind.INT64, TypeKind.INT64)).hasMessageContaining("one key column");
        numbers.checkKeyKinds(TypeKind.INT32);
        final HashBucketFunction hash = new HashBucketFunction(8, TypeKind.INT64, TypeKind.STRING);
        hash.checkKeyKinds(TypeKind.INT32, TypeKind.STRING);
        assertThatThrownBy(() -> hash.checkKeyKinds(TypeKind.STRING, TypeKind.STRING)).hasMessageContaining("key column 0");
        assertThatThrownBy(() -> hash.checkKeyKinds(TypeKind.INT64)).hasMessageContaining("2 key columns");
        assertThatThrownBy(() -> hash.buckets(new ColumnVector[] {LongVector.ofInt64(1)}, 1, out))
                .hasMessageContaining("2 key columns");
    }

    @Test
    void cutPointsMustIncrease() {
        assertThatThrownBy(() -> new RangeBucketFunction(TypeKind.INT64, new long[] {5, 5}))
                .hasMessageContaining("strictly increasing");
        // Unsigned order for strings: -1 is the largest prefix key, so it may come last.
        new RangeBucketFunction(TypeKind.STRING, new long[] {1, -1});
        assertThatThrownBy(() -> new RangeBucketFunction(TypeKind.STRING, new long[] {-1, 1}))
                .hasMessageContaining("strictly increasing");
    }
}
