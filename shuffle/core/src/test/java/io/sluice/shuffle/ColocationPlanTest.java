package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.Schema;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import io.sluice.storage.TableWriter;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plans for stored tables: string keys, nullable keys, and the errors a caller can make. */
class ColocationPlanTest {
    @TempDir
    static Path dir;
    static Table words;

    /** 100000 rows sorted by a string key "w000000".."w099999" (ASCII, so prefix order is row order); every 10th key null in n. */
    @BeforeAll
    static void write() {
        try (TableWriter writer = Store.create(dir).createTable("words", Schema.parse("w:string,n:int64,z:int64"), "w")) {
            for (int i = 0; i < 100_000; i++) {
                writer.column(0).appendString(String.format(Locale.ROOT, "w%06d", i));
                if (i % 10 == 0) {
                    writer.column(1).appendNull();
                } else {
                    writer.column(1).appendLong(i);
                }
                writer.column(2).appendNull();
                writer.endRow();
            }
            words = writer.finish();
        }
    }

    @AfterAll
    static void close() {
        words.close();
    }

    @Test
    void sortedStringKeysColocate() {
        final ColocationPlan plan = ColocationPlan.of(words, "w", Topology.parse("3x2"));
        assertThat(plan.boundaries().isRange()).isTrue();
        final ExactShuffle.Counts counts = ExactShuffle.scan(words, "w", plan.boundaries(), plan.assignment());
        // 13 blocks, 2 CN cuts, each splitting at most one block. Digits fill only 10 of the 256 values of
        // each prefix byte, so rows are not uniform over a block's prefix range and the block can go to the
        // CN holding most of its key range but not most of its rows: only the whole block is a bound here.
        assertThat(counts.crossCnRows()).isLessThanOrEqualTo(2 * 8192);
        assertThat(plan.assignment().expectedCrossCnRows()).isLessThanOrEqualTo(8192);
        assertThat(counts.maxOverMean()).isLessThan(1.5);
    }

    @Test
    void nullKeysLandInBucketZeroOnCnZero() {
        final ColocationPlan plan = ColocationPlan.of(words, "n", Topology.parse("2x2"));
        final ExactShuffle.Counts counts = ExactShuffle.scan(words, "n", plan.boundaries(), plan.assignment());
        final double[] estimated = plan.estimatedRows();
        // 10000 null rows plus a quarter of the 90000 others.
        assertThat(estimated[0]).isBetween(32_000.0, 33_000.0);
        assertThat(counts.perBucket()[0]).isBetween(32_000L, 33_000L);
        // Nulls read on CN 1 cross to CN 0, and the estimate knows it.
        assertThat(plan.assignment().expectedCrossCnRows()).isCloseTo(counts.crossCnRows(), org.assertj.core.api.Assertions.within(1500.0));
    }

    @Test
    void anAllNullKeyHashesAndIsReadOnCnZero() {
        final ColocationPlan plan = ColocationPlan.of(words, "z", Topology.parse("3x2"));
        assertThat(plan.boundaries().hashReason()).isEqualTo(HashReason.NO_STATS);
        assertThat(plan.assignment().colocated()).isFalse();
        final ExactShuffle.Counts counts = ExactShuffle.scan(words, "z", plan.boundaries(), plan.assignment());
        assertThat(counts.perBucket()[0]).isEqualTo(100_000);
    }

    @Test
    void badInputNamesTheValueAndTheRule() {
        assertThatThrownBy(() -> ColocationPlan.of(words, "missing", Topology.parse("3x2")))
                .hasMessageContaining("no column 'missing'").hasMessageContaining("[w, n, z]");
        assertThatThrownBy(() -> ColocationPlan.of(null, new ZoneMap[0], Topology.parse("3x2")))
                .hasMessageContaining("no key type given");
        assertThatThrownBy(() -> ColocationPlan.of(TypeKind.INT64, null, Topology.parse("3x2")))
                .hasMessageContaining("no zonemaps (null)");
        assertThatThrownBy(() -> ColocationPlan.of(TypeKind.INT64, new ZoneMap[0], null))
                .hasMessageContaining("topology=null");
        assertThatThrownBy(() -> ColocationPlan.of(TypeKind.INT64, new ZoneMap[] {new ZoneMap(0, 1, -1, 5)},
                Topology.parse("3x2"))).hasMessageContaining("block 0").hasMessageContaining("-1 nulls in 5 rows");
    }
}
