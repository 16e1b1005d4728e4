package io.sluice.engine.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * Each runtime filter kind over random key sets: no false negatives; the exact kinds (IN list, bitmap)
 * no false positives; merged partials equal the partial of the union, and survive their wire form.
 */
class RuntimeFilterPropertiesTest {
    private static final RuntimeFilterConfig CONFIG = RuntimeFilterConfig.defaults();

    private static long[] array(final List<Long> keys) {
        final long[] out = new long[keys.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = keys.get(i);
        }
        return out;
    }

    private static FilterPartial integerPartial(final long[] keys, final int bloomBytes) {
        final FilterPartial p = FilterPartial.integerKey(bloomBytes);
        p.addValues(keys, keys.length);
        return p;
    }

    @Property(tries = 200)
    void noKindLosesABuildKey(@ForAll @Size(max = 3000) final List<@LongRange(min = -5, max = 50_000) Long> keys,
                              @ForAll @IntRange(min = 0, max = 3000) final int inListMax) {
        final long[] k = array(keys);
        final RuntimeFilterConfig config = new RuntimeFilterConfig(RuntimeFilterMode.GLOBAL, 0, inListMax, 1 << 20,
                0.05, 64, 1 << 16, 16384, 0.1);
        final RuntimeFilter f = integerPartial(k, 1024).finish(config);
        final boolean[] keep = passed(f, k);
        for (int i = 0; i < k.length; i++) {
            assertThat(keep[i]).as("key %d in %s", k[i], f).isTrue();
            assertThat(f.mayContainValue(k[i])).isTrue();
            assertThat(f.mayOverlap(k[i] - 3, k[i])).isTrue();
        }
    }

    @Property(tries = 200)
    void theInListAndTheBitmapPassNoOtherKey(@ForAll @Size(min = 1, max = 2000) final List<@LongRange(min = 0,
            max = 100_000) Long> keys, @ForAll @Size(max = 500) final List<@LongRange(min = -10, max = 100_010) Long> probes,
                                             @ForAll final boolean small) {
        final long[] k = array(keys);
        final RuntimeFilterConfig config = new RuntimeFilterConfig(RuntimeFilterMode.GLOBAL, 0, small ? 4096 : 0,
                1 << 20, 0.01, 64, 1 << 16, 16384, 0.1);
        final RuntimeFilter f = integerPartial(k, 1024).finish(config);
        assertThat(f.kinds()).contains(small ? FilterKind.IN_LIST : FilterKind.BITMAP).doesNotContain(FilterKind.BLOOM);
        final Set<Long> built = new HashSet<>(keys);
        final long[] p = array(probes);
        final boolean[] keep = passed(f, p);
        for (int i = 0; i < p.length; i++) {
            assertThat(keep[i]).as("probe %d", p[i]).isEqualTo(built.contains(p[i]));
        }
    }

    /**
     * Keys too far apart for {@code bitmapMaxBytes} still get the exact bitset when it takes at most
     * {@link RuntimeFilterConfig#BITMAP_BYTES_PER_KEY} bytes per distinct key, and a Bloom filter beyond;
     * the bitset passes exactly the build keys.
     */
    @Property(tries = 100)
    void manyKeysGetABitsetOfUpToSixteenBytesPerKey(@ForAll @IntRange(min = 1, max = 3000) final int distinct,
                                                  @ForAll @IntRange(min = 1, max = 100) final int step,
                                                  @ForAll @Size(max = 300) final List<@LongRange(min = -10, max = 300_010) Long> probes) {
        final long[] k = new long[distinct];
        for (int i = 0; i < distinct; i++) {
            k[i] = 7 + (long) i * step;
        }
        final RuntimeFilterConfig config = new RuntimeFilterConfig(RuntimeFilterMode.GLOBAL, 0, 0, 64, 0.01, 64,
                1 << 16, 16384, 0.1);
        final RuntimeFilter f = integerPartial(k, 1024).finish(config);
        final long spanBytes = ((long) (distinct - 1) * step + 1 + 7) / 8;
        final boolean bitset = spanBytes <= Math.max(64, RuntimeFilterConfig.BITMAP_BYTES_PER_KEY * distinct);
        assertThat(f.kinds()).as("%d keys %d apart", distinct, step)
                .contains(bitset ? FilterKind.BITMAP : FilterKind.BLOOM);
        if (bitset) {
            final long[] p = array(probes);
            final boolean[] keep = passed(f, p);
            for (int i = 0; i < p.length; i++) {
                final long o = p[i] - 7;
                final boolean built = o >= 0 && o % step == 0 && o / step < distinct;
                assertThat(keep[i]).as("probe %d", p[i]).isEqualTo(built);
            }
        }
    }

    @Test
    void noBitsetWhenBitmapMaxBytesIsZero() {
        final long[] k = {1, 2, 3, 4};
        final RuntimeFilterConfig config = new RuntimeFilterConfig(RuntimeFilterMode.GLOBAL, 0, 0, 0, 0.01, 64,
                1 << 16, 16384, 0.1);
        assertThat(integerPartial(k, 1024).finish(config).kinds()).doesNotContain(FilterKind.BITMAP)
                .contains(FilterKind.BLOOM);
    }

    @Property(tries = 200)
    void aBloomFilterLosesNoHash(@ForAll @Size(max = 5000) final List<Long> hashes,
                                 @ForAll @IntRange(min = 5, max = 14) final int log2Bytes) {
        final SplitBlockBloomFilter bloom = new SplitBlockBloomFilter(1 << log2Bytes);
        final long[] h = array(hashes);
        bloom.insert(h, h.length);
        assertThat(bloom.retain(h, identity(h.length), h.length)).isEqualTo(h.length);
    }

    @Property(tries = 200)
    void aFoldedBloomFilterIsTheFilterOfItsKeysAtTheSmallerSize(@ForAll @Size(max = 3000) final List<Long> hashes,
                                                                 @ForAll @IntRange(min = 5, max = 16) final int log2Bytes,
                                                                 @ForAll @IntRange(min = 0, max = 11) final int halvings) {
        final int bytes = 1 << log2Bytes;
        final int smaller = Math.max(SplitBlockBloomFilter.BLOCK_BYTES, bytes >> halvings);
        final long[] h = array(hashes);
        final SplitBlockBloomFilter large = new SplitBlockBloomFilter(bytes);
        large.insert(h, h.length);
        final SplitBlockBloomFilter direct = new SplitBlockBloomFilter(smaller);
        direct.insert(h, h.length);
        final SplitBlockBloomFilter folded = large.folded(smaller);
        assertThat(folded.bytes()).isEqualTo(smaller);
        assertThat(folded).isEqualTo(direct);
        assertThat(large.folded(bytes)).isSameAs(large);
    }

    @Test
    void aBloomFilterFinishesAtTheSizeItsBuildRowsNeedNotItsEstimate() {
        final RuntimeFilterConfig config = new RuntimeFilterConfig(RuntimeFilterMode.GLOBAL, 0, 0, 1 << 20, 0.01,
                64, 1 << 20, 16384, 0.1);
        final FilterPartial p = FilterPartial.hashedKey(1 << 20);
        final long[] h = new long[460];
        for (int i = 0; i < h.length; i++) {
            h[i] = FilterHash.ofLong(i * 7919L);
        }
        p.addHashes(h, h.length);
        final RuntimeFilter f = p.finish(config);
        assertThat(f.bloom().bytes()).isEqualTo(config.bloomBytesFor(h.length)).isLessThan(1 << 20);
        for (final long x : h) {
            assertThat(f.bloom().mightContain(x)).isTrue();
        }
        assertThatThrownBy(() -> f.bloom().folded(f.bloom().bytes() * 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("folds into");
    }

    @Property(tries = 200)
    void aSelectionKeepsTheRowsEachKeyWouldPassAloneInOrder(
            @ForAll @Size(min = 1, max = 1500) final List<@LongRange(min = -20, max = 3_000_000) Long> keys,
            @ForAll @Size(max = 600) final List<@LongRange(min = -50, max = 3_000_050) Long> probes,
            @ForAll @IntRange(min = 0, max = 2000) final int inListMax,
            @ForAll @IntRange(min = 0, max = 1 << 19) final int bitmapMaxBytes) {
        final RuntimeFilterConfig config = new RuntimeFilterConfig(RuntimeFilterMode.GLOBAL, 0, inListMax,
                bitmapMaxBytes, 0.02, 64, 1 << 16, 16384, 0.1);
        final RuntimeFilter f = integerPartial(array(keys), 1024).finish(config);
        final long[] p = array(probes);
        final int[] rows = new int[p.length];
        int count = 0;
        for (int i = 0; i < p.length; i += 2) {
            rows[count++] = i;
        }
        final int kept = f.retainValues(p, rows, count);
        final List<Integer> expected = new java.util.ArrayList<>();
        for (int i = 0; i < p.length; i += 2) {
            if (f.mayContainValue(p[i])) {
                expected.add(i);
            }
        }
        assertThat(Arrays.stream(rows, 0, kept).boxed().toList()).as("%s", f).isEqualTo(expected);
        // every row listed: tested without reading the list (whose old contents must not matter)
        final int[] all = new int[p.length];
        Arrays.fill(all, -1);
        final int allKept = f.retainAllValues(p, all, p.length);
        final List<Integer> allExpected = new java.util.ArrayList<>();
        for (int i = 0; i < p.length; i++) {
            if (f.mayContainValue(p[i])) {
                allExpected.add(i);
            }
        }
        assertThat(Arrays.stream(all, 0, allKept).boxed().toList()).as("every row, %s", f).isEqualTo(allExpected);
        final SplitBlockBloomFilter bloom = new SplitBlockBloomFilter(256);
        final long[] h = array(keys);
        for (int i = 0; i < h.length; i++) {
            h[i] = FilterHash.ofLong(h[i]);
            bloom.insert(h[i]);
        }
        final int[] hashRows = identity(p.length);
        final long[] ph = new long[p.length];
        for (int i = 0; i < p.length; i++) {
            ph[i] = FilterHash.ofLong(p[i]);
        }
        final int hashKept = bloom.retain(ph, hashRows, p.length);
        final List<Integer> hashExpected = new java.util.ArrayList<>();
        for (int i = 0; i < p.length; i++) {
            if (bloom.mightContain(ph[i])) {
                hashExpected.add(i);
            }
        }
        assertThat(Arrays.stream(hashRows, 0, hashKept).boxed().toList()).isEqualTo(hashExpected);
    }

    /** Whether each value passes the filter, tested as one selection of every row. */
    private static boolean[] passed(final RuntimeFilter f, final long[] values) {
        final int[] rows = identity(values.length);
        final int kept = f.retainValues(values, rows, values.length);
        final boolean[] keep = new boolean[values.length];
        for (int j = 0; j < kept; j++) {
            keep[rows[j]] = true;
        }
        return keep;
    }

    private static int[] identity(final int n) {
        final int[] rows = new int[n];
        for (int i = 0; i < n; i++) {
            rows[i] = i;
        }
        return rows;
    }

    @Property(tries = 100)
    void keysOutsideWhatABitmapHoldsGoIntoTheBloomFilterAndStayFound(
            @ForAll @Size(min = 1, max = 2000) final List<Long> keys) {
        final long[] k = array(keys);
        final RuntimeFilter f = integerPartial(k, 4096).finish(CONFIG.withMode(RuntimeFilterMode.GLOBAL));
        for (final long key : k) {
            assertThat(f.mayContainValue(key)).as("key %d in %s", key, f).isTrue();
        }
        assertThat(passed(f, k)).doesNotContain(false);
    }

    @Property(tries = 150)
    void mergedPartialsEqualThePartialOfTheUnion(@ForAll @Size(max = 3) final List<@Size(max = 800) List<Long>> parts,
                                                 @ForAll final boolean hashed) {
        final FilterPartial union = hashed ? FilterPartial.hashedKey(2048) : FilterPartial.integerKey(2048);
        FilterPartial merged = null;
        for (final List<Long> part : parts) {
            final long[] k = array(part);
            final FilterPartial p = hashed ? FilterPartial.hashedKey(2048) : FilterPartial.integerKey(2048);
            if (hashed) {
                p.addHashes(k, k.length);
                union.addHashes(k, k.length);
            } else {
                p.addValues(k, k.length);
                union.addValues(k, k.length);
            }
            final FilterPartial decoded = RuntimeFilterCodec.decode(RuntimeFilterCodec.encode(new FilterPartial[] {p}))[0];
            if (merged == null) {
                merged = decoded;
            } else {
                merged.merge(decoded);
            }
        }
        if (merged == null) {
            return;
        }
        assertThat(merged.rows()).isEqualTo(union.rows());
        assertThat(merged.min()).isEqualTo(union.min());
        assertThat(merged.max()).isEqualTo(union.max());
        if (merged.bitmap() != null && union.bitmap() != null) {
            assertThat(merged.bitmap().keys()).isEqualTo(union.bitmap().keys());
        } else if (merged.bitmap() == null && union.bitmap() == null) {
            assertThat(merged.bloom()).isEqualTo(union.bloom());
        }
    }

    @Test
    void bloomFiltersAreSizedForTheirRateWithinTheirLimits() {
        assertThat(SplitBlockBloomFilter.bytesFor(1_000_000, 0.01, 1024, 1 << 24)).isEqualTo(1 << 21);
        assertThat(SplitBlockBloomFilter.bytesFor(10, 0.01, 1024, 1 << 24)).isEqualTo(1024);
        assertThat(SplitBlockBloomFilter.bytesFor(100_000_000, 0.01, 1024, 1 << 18)).isEqualTo(1 << 18);
        assertThatThrownBy(() -> RuntimeFilterMode.parse("sometimes"))
                .hasMessageContaining("'sometimes'").hasMessageContaining("off, local, global");
    }

    @Test
    void anEmptyBuildRejectsEveryKeyAndEveryBlock() {
        final RuntimeFilter f = FilterPartial.integerKey(1024).finish(CONFIG);
        assertThat(f.empty()).isTrue();
        assertThat(f.mayOverlap(Long.MIN_VALUE, Long.MAX_VALUE)).isFalse();
        assertThat(passed(f, new long[] {1, 2})).containsExactly(false, false);
    }
}
