package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.ColumnType;
import io.sluice.format.Field;
import io.sluice.format.Schema;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import io.sluice.storage.TableWriter;
import io.sluice.zonemap.TableSketch;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A million rows of a Zipf-skewed key (exponent 0.8 over 1..10^7: half the rows below about
 * 330000, the most frequent key holding 0.6% of the rows), written once sorted by the key and once
 * in arrival order.
 */
class SkewedKeyBoundariesTest {
    static final int ROWS = 1_000_000;
    static final double EXPONENT = 0.8;
    static final long DOMAIN = 10_000_000;

    @TempDir
    static Path dir;
    static Table sorted;
    static Table unsorted;
    static Table sketched;

    @BeforeAll
    static void write() {
        final Store store = Store.create(dir);
        sorted = writeZipf(store, "zipf_sorted", "k");
        unsorted = writeZipf(store, "zipf_unsorted", null);
        sketched = writeZipf(store, "zipf_sketched", null);
    }

    @AfterAll
    static void close() {
        sorted.close();
        unsorted.close();
        sketched.close();
    }

    /** Keys {@code floor(x)} for x drawn from the density proportional to {@code x^-0.8} on [1, DOMAIN], by inversion. */
    private static Table writeZipf(final Store store, final String name, final String sortKey) {
        final SplittableRandom random = new SplittableRandom(20_231_129);
        final double a = 1 - EXPONENT;
        final double top = Math.pow(DOMAIN, a);
        final Schema schema = Schema.of(new Field("k", ColumnType.INT64));
        try (TableWriter writer = store.createTable(name, schema, sortKey)) {
            if (name.endsWith("sketched")) {
                writer.gather(TableSketch.builder(schema));
            }
            for (int i = 0; i < ROWS; i++) {
                final double x = Math.pow(1 + (top - 1) * random.nextDouble(), 1 / a);
                writer.column(0).appendLong(Math.min(DOMAIN, (long) x));
                writer.endRow();
            }
            return writer.finish();
        }
    }

    @Test
    void quantileBoundariesBalanceASkewedKeyThatEqualWidthCannot() {
        for (final String shape : new String[] {"3x2", "3x10"}) {
            final Topology topology = Topology.parse(shape);
            final ColocationPlan quantile = ColocationPlan.of(sorted, "k", topology);
            assertThat(quantile.boundaries().method()).as(shape).isEqualTo(BoundaryMethod.RANGE_QUANTILE);
            // Threshold 0 treats any key as uniform: equal-width ranges over the same statistics.
            final ColocationPlan equalWidth = ColocationPlan.of(sorted, "k", topology,
                    BoundaryConfig.DEFAULT.withUniformityThreshold(0));
            assertThat(equalWidth.boundaries().method()).isEqualTo(BoundaryMethod.RANGE_UNIFORM);
            final double q = ExactShuffle.scan(sorted, "k", quantile.boundaries(), quantile.assignment()).maxOverMean();
            final double w = ExactShuffle.scan(sorted, "k", equalWidth.boundaries(), equalWidth.assignment()).maxOverMean();
            System.out.printf(Locale.ROOT, "zipf %s: quantile max/mean %.4f, equal-width max/mean %.4f, uniformity %.4f%n",
                    shape, q, w, quantile.stats().uniformity());
            assertThat(q).as(shape).isLessThan(1.1);
            assertThat(w).as(shape).isGreaterThan(3);
        }
    }

    @Test
    void aSkewedKeyScoresLowOnUniformity() {
        final ColocationPlan plan = ColocationPlan.of(sorted, "k", Topology.parse("3x2"));
        assertThat(plan.stats().uniformity()).isLessThan(0.05);
        assertThat(plan.stats().overlap()).isLessThan(1e-3);
    }

    @Test
    void unsortedBlocksOverlapAndHideTheSkewFromZonemaps() {
        // Every block of random rows spans nearly the whole domain: zonemaps see overlap, not skew.
        final ColocationPlan plan = ColocationPlan.of(unsorted, "k", Topology.parse("3x2"));
        System.out.printf(Locale.ROOT, "zipf unsorted: uniformity %.4f overlap %.4f%n", plan.stats().uniformity(),
                plan.stats().overlap());
        assertThat(plan.stats().overlap()).isGreaterThan(0.9);
        assertThat(plan.stats().uniformity()).isGreaterThan(0.9);
    }

    @Test
    void theSketchOfUnsortedBlocksShowsTheSkewAndItsQuantilesBalanceTheBuckets() {
        for (final String shape : new String[] {"3x2", "3x10", "7x8"}) {
            final Topology topology = Topology.parse(shape);
            final ColocationPlan zonemapsOnly = ColocationPlan.of(unsorted, "k", topology);
            final ColocationPlan sketch = ColocationPlan.of(sketched, "k", topology);
            assertThat(zonemapsOnly.stats().sketched()).isFalse();
            assertThat(sketch.stats().sketched()).isTrue();
            assertThat(sketch.stats().uniformity()).as(shape).isLessThan(0.05);
            assertThat(sketch.boundaries().method()).as(shape).isEqualTo(BoundaryMethod.RANGE_QUANTILE);
            final double blind = ExactShuffle.scan(unsorted, "k", zonemapsOnly.boundaries(), zonemapsOnly.assignment())
                    .maxOverMean();
            final double seen = ExactShuffle.scan(sketched, "k", sketch.boundaries(), sketch.assignment()).maxOverMean();
            System.out.printf(Locale.ROOT, "zipf unsorted %s: zonemaps max/mean %.4f, sketch max/mean %.4f%n", shape,
                    blind, seen);
            assertThat(seen).as(shape).isLessThan(1.1);
            assertThat(blind).as(shape).isGreaterThan(3);
            // The sketch's estimate of each bucket is its real row count, within a few percent of a bucket.
            final double[] estimated = sketch.boundaries().estimatedRows(sketch.stats());
            final long[] real = ExactShuffle.scan(sketched, "k", sketch.boundaries(), sketch.assignment()).perBucket();
            final double bucket = (double) ROWS / sketch.boundaries().bucketCount();
            for (int b = 0; b < sketch.boundaries().bucketCount(); b++) {
                assertThat(Math.abs(estimated[b] - real[b])).as("%s bucket %d", shape, b).isLessThan(0.1 * bucket);
            }
        }
    }
}
