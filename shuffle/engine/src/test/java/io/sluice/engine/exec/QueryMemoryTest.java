package io.sluice.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.LongVector;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A query's memory against its budget and its CN's pool: the reservation that would pass the budget or
 * the pool fails naming the operator and the setting and takes nothing; what a query took goes back to
 * the pool when it ends; workers reserving at once add up exactly.
 */
class QueryMemoryTest {
    @AfterEach
    void clearProperties() {
        System.clearProperty(MemoryProperty.QUERY_MAX.key());
        System.clearProperty(MemoryProperty.SPILL.key());
        System.clearProperty(MemoryProperty.SPILL_DIR.key());
    }

    @Test
    void aRefusedTryTakesNothingAndWhatIsReleasedCanBeTakenAgain() {
        final MemoryPool pool = new MemoryPool(1L << 30);
        try (QueryMemory query = QueryMemory.of(pool, 10_000)) {
            final QueryMemory.Operator sort = query.operator("sort [k]");
            assertThat(sort.tryReserve(8_000)).isTrue();
            assertThat(sort.tryReserve(8_000)).isFalse();
            assertThat(query.reserved()).isEqualTo(8_000);
            sort.release(8_000);
            assertThat(sort.reserved()).isZero();
            assertThat(sort.tryReserve(9_000)).isTrue();
            assertThat(query.peak()).isEqualTo(9_000);
            assertThatThrownBy(() -> sort.reserve(2_000)).isInstanceOf(MemoryLimitException.class)
                    .hasMessageContaining("spilling to disk is off: turn it on with -Dsluice.spill=on");
        }
    }

    @Test
    void aQuerysSpillFilesGoWhenItEnds(@org.junit.jupiter.api.io.TempDir final java.nio.file.Path dir) {
        System.setProperty(MemoryProperty.SPILL_DIR.key(), dir.toString());
        final QueryMemory query = QueryMemory.inSharedPool();
        final QueryMemory.Operator sort = query.operator("sort [k]");
        assertThat(sort.spills()).isTrue();
        try (io.sluice.engine.spill.SpillWriter w = sort.spillWriter()) {
            w.write(Batch.of(LongVector.ofInt64(1, 2, 3)));
            sort.spilled(w.finish());
        }
        assertThat(query.spillFiles()).isEqualTo(1);
        assertThat(query.spilledBytes()).isPositive();
        assertThat(sort.spilledBytes()).isEqualTo(query.spilledBytes());
        assertThat(query.operatorPeaks()).containsExactly(
                new QueryMemory.OperatorPeak("sort [k]", 0, query.spilledBytes()));
        final java.nio.file.Path folder = dir.resolve(Long.toString(ProcessHandle.current().pid()));
        assertThat(folder).isNotEmptyDirectory();
        query.close();
        assertThat(folder).isEmptyDirectory();
        System.setProperty(MemoryProperty.SPILL.key(), "off");
        try (QueryMemory off = QueryMemory.inSharedPool()) {
            assertThat(off.spills()).isFalse();
            assertThat(off.operator("sort").spills()).isFalse();
        }
        System.setProperty(MemoryProperty.SPILL.key(), "sometimes");
        assertThatThrownBy(QueryMemory::inSharedPool).hasMessageContaining("-Dsluice.spill=sometimes is not valid: use"
                + " on or off");
    }

    @Test
    void passingTheBudgetFailsNamingTheOperatorTheBudgetAndTheSetting() {
        final MemoryPool pool = new MemoryPool(1L << 30);
        try (QueryMemory query = QueryMemory.of(pool, 10_000)) {
            final QueryMemory.Operator build = query.operator("hash join build [o_orderkey]");
            build.reserve(6_000);
            assertThatThrownBy(() -> build.reserve(6_000)).isInstanceOf(MemoryLimitException.class)
                    .hasMessageContaining("memory budget of 9.8 KiB")
                    .hasMessageContaining("hash join build [o_orderkey] holds 11.7 KiB")
                    .hasMessageContaining("-Dsluice.memory.query.max=SIZE");
            assertThat(query.reserved()).isEqualTo(6_000);
            assertThat(query.peak()).isEqualTo(6_000);
            assertThat(query.operatorPeaks()).containsExactly(
                    new QueryMemory.OperatorPeak("hash join build [o_orderkey]", 6_000, 0));
        }
        assertThat(pool.reserved()).isZero();
    }

    @Test
    void queriesShareThePoolAndGiveBackWhatTheyTookWhenTheyEnd() {
        final MemoryPool pool = new MemoryPool(8L << 20);
        final QueryMemory first = QueryMemory.of(pool, Long.MAX_VALUE);
        first.operator("sort").reserve(6L << 20);
        assertThat(pool.reserved()).isGreaterThanOrEqualTo(6L << 20);
        try (QueryMemory second = QueryMemory.of(pool, Long.MAX_VALUE)) {
            assertThatThrownBy(() -> second.operator("group by [k]").reserve(4L << 20))
                    .isInstanceOf(MemoryLimitException.class).hasMessageContaining("memory pool of 8.0 MiB is taken")
                    .hasMessageContaining("group by [k]").hasMessageContaining("-Dsluice.memory.pool=SIZE");
            assertThat(second.reserved()).isZero();
        }
        first.close();
        assertThat(pool.reserved()).isZero();
        try (QueryMemory third = QueryMemory.of(pool, Long.MAX_VALUE)) {
            third.operator("group by [k]").reserve(4L << 20);
        }
        assertThat(pool.reserved()).isZero();
    }

    @Test
    void workersReservingAtOnceAddUpExactly() throws Exception {
        final MemoryPool pool = new MemoryPool(1L << 40);
        try (QueryMemory query = QueryMemory.of(pool, Long.MAX_VALUE)) {
            final QueryMemory.Operator sort = query.operator("sort");
            final CountDownLatch start = new CountDownLatch(1);
            final List<Thread> workers = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                final Thread t = new Thread(() -> {
                    try {
                        start.await();
                    } catch (final InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    for (int i = 0; i < 10_000; i++) {
                        sort.reserve(100);
                    }
                });
                t.start();
                workers.add(t);
            }
            start.countDown();
            for (final Thread t : workers) {
                t.join();
            }
            assertThat(query.reserved()).isEqualTo(4_000_000);
            assertThat(sort.peak()).isEqualTo(4_000_000);
        }
    }

    @Test
    void aBatchIsCountedByItsValues() {
        final Batch batch = Batch.of(LongVector.ofInt64(1, 2, 3));
        assertThat(QueryMemory.bytesOf(batch)).isEqualTo(24);
        final Batch strings = Batch.of(StringVector.of("ab", "cde"));
        assertThat(QueryMemory.bytesOf(strings)).isEqualTo(5 + 2 * 4);
    }

    @Test
    void theBudgetIsASizeOrAShareOfThePool() {
        System.setProperty(MemoryProperty.QUERY_MAX.key(), "64m");
        assertThat(MemoryProperty.QUERY_MAX.bytes(1L << 30)).isEqualTo(64L << 20);
        System.setProperty(MemoryProperty.QUERY_MAX.key(), "25%");
        assertThat(MemoryProperty.QUERY_MAX.bytes(1L << 30)).isEqualTo(1L << 28);
        for (final String bad : new String[] {"lots", "0", "-5m", "150%", "0%"}) {
            System.setProperty(MemoryProperty.QUERY_MAX.key(), bad);
            assertThatThrownBy(() -> MemoryProperty.QUERY_MAX.bytes(1L << 30))
                    .hasMessageContaining("-Dsluice.memory.query.max=" + bad + " is not valid")
                    .hasMessageContaining("e.g. 512m");
        }
    }
}
