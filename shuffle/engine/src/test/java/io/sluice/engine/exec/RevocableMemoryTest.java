package io.sluice.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.spill.SpillSpace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * Revocable memory: a reservation the budget or the pool would refuse first asks the holders of revocable memory to
 * spill, the largest first and only as many as it needs; the memory they give back is what it then takes. A holder
 * growing asks nobody, a holder a thread is inside is passed by, a closed one is never asked, and workers reserving
 * at once never wait for each other.
 */
class RevocableMemoryTest {
    /** Nothing is written under it: the holders here spill by giving their bytes back. */
    private static final Path SPILL_ROOT = Path.of(System.getProperty("java.io.tmpdir"), "sluice-revocable-test");
    private static final long DEADLINE_SECONDS = 120;

    private static QueryMemory query(final MemoryPool pool, final long budget) {
        return QueryMemory.of(pool, budget, SpillSpace.under(SPILL_ROOT).query());
    }

    /** A worker's share of a spilling operator that holds some bytes and, asked, writes them "to disk". */
    private static final class Holder {
        final String name;
        final RevocableMemory memory;
        final List<String> asked;
        long held;

        Holder(final QueryMemory query, final String name, final long bytes, final List<String> asked) {
            this.name = name;
            this.asked = asked;
            this.memory = query.operator(name).revocable(this::spill);
            assertThat(memory.tryReserve(bytes)).as("%s takes %s", name, bytes).isTrue();
            this.held = bytes;
        }

        private void spill() {
            asked.add(name);
            memory.release(held);
            held = 0;
        }
    }

    @Test
    void aRefusedReservationAsksTheLargestHolderFirstAndOnlyAsManyAsItNeeds() {
        final List<String> asked = new ArrayList<>();
        try (QueryMemory query = query(new MemoryPool(1L << 30), 1_000)) {
            final Holder a = new Holder(query, "group by [a]", 300, asked);
            final Holder b = new Holder(query, "sort [b]", 500, asked);
            final Holder c = new Holder(query, "hash join build [c]", 100, asked);
            final QueryMemory.Operator join = query.operator("hash join build [k]");
            assertThat(join.tryReserve(400)).isTrue();
            assertThat(asked).containsExactly("sort [b]");
            assertThat(b.held).isZero();
            assertThat(b.memory.held()).isZero();
            assertThat(b.memory.revocations()).isEqualTo(1);
            assertThat(query.reserved()).isEqualTo(300 + 100 + 400);
            assertThat(join.tryReserve(350)).isTrue();
            assertThat(asked).containsExactly("sort [b]", "group by [a]");
            assertThat(query.reserved()).isEqualTo(100 + 400 + 350);
            assertThat(a.held + c.held).isEqualTo(100);
        }
    }

    @Test
    void aReservationThatCannotBeRefusedAsksEveryHolderBeforeItFailsWithTheNamedError() {
        final List<String> asked = new ArrayList<>();
        try (QueryMemory query = query(new MemoryPool(1L << 30), 1_000)) {
            new Holder(query, "group by [a]", 300, asked);
            new Holder(query, "sort [b]", 500, asked);
            final QueryMemory.Operator window = query.operator("window");
            window.reserve(900);
            assertThat(asked).containsExactly("sort [b]", "group by [a]");
            assertThatThrownBy(() -> window.reserve(200)).isInstanceOf(MemoryLimitException.class)
                    .hasMessageContaining("window holds").hasMessageContaining("-Dsluice.memory.query.max=SIZE");
            assertThat(query.reserved()).isEqualTo(900);
        }
    }

    @Test
    void aHolderGrowingAsksNobodyAndSpillsItsOwnRows() {
        final List<String> asked = new ArrayList<>();
        try (QueryMemory query = query(new MemoryPool(1L << 30), 1_000)) {
            new Holder(query, "group by [a]", 600, asked);
            final Holder b = new Holder(query, "group by [b]", 100, asked);
            assertThat(b.memory.tryReserve(500)).isFalse();
            assertThat(asked).isEmpty();
            assertThat(query.reserved()).isEqualTo(700);
        }
    }

    @Test
    void aHolderAThreadIsInsideIsPassedByAndAClosedOneIsNeverAsked() {
        final List<String> asked = new ArrayList<>();
        try (QueryMemory query = query(new MemoryPool(1L << 30), 1_000)) {
            final Holder a = new Holder(query, "group by [a]", 500, asked);
            final Holder b = new Holder(query, "sort [b]", 300, asked);
            final Holder c = new Holder(query, "sort [c]", 100, asked);
            final QueryMemory.Operator join = query.operator("hash join build [k]");
            a.memory.enter();
            try {
                assertThat(join.tryReserve(300)).isTrue();
            } finally {
                a.memory.exit();
            }
            assertThat(asked).containsExactly("sort [b]");
            c.memory.close();
            // a (500) and c (100) hold 600, the join 300: a spilling frees enough; c, closed, is not asked.
            assertThat(join.tryReserve(600)).isTrue();
            assertThat(asked).containsExactly("sort [b]", "group by [a]");
            assertThat(join.tryReserve(200)).isFalse();
            assertThat(asked).containsExactly("sort [b]", "group by [a]");
            assertThat(query.reserved()).isEqualTo(100 + 900);
        }
    }

    @Test
    void aReservationThePoolRefusesIsServedByTheQuerysOwnHolders() {
        final MemoryPool pool = new MemoryPool(3L << 20);
        final List<String> asked = new ArrayList<>();
        try (QueryMemory other = QueryMemory.of(pool, Long.MAX_VALUE);
             QueryMemory query = query(pool, Long.MAX_VALUE)) {
            other.operator("sort").reserve(2L << 20);
            new Holder(query, "group by [a]", 1L << 20, asked);
            final QueryMemory.Operator join = query.operator("hash join build [k]");
            assertThat(join.tryReserve(512L << 10)).isTrue();
            assertThat(asked).containsExactly("group by [a]");
            assertThat(query.reserved()).isEqualTo(512L << 10);
        }
        assertThat(pool.reserved()).isZero();
    }

    @Test
    void twoWorkersInsideTheirHoldersReservingAtOnceDoNotWaitForEachOther() throws Exception {
        final List<String> asked = new CopyOnWriteArrayList<>();
        final ExecutorService threads = Executors.newFixedThreadPool(2);
        try (QueryMemory query = query(new MemoryPool(1L << 30), 1_000)) {
            final Holder first = new Holder(query, "group by [a]", 500, asked);
            final Holder second = new Holder(query, "group by [b]", 500, asked);
            final QueryMemory.Operator join = query.operator("hash join build [k]");
            final CyclicBarrier inside = new CyclicBarrier(2);
            final List<CompletableFuture<Boolean>> runs = new ArrayList<>();
            for (final Holder own : List.of(first, second)) {
                runs.add(CompletableFuture.supplyAsync(() -> {
                    own.memory.enter();
                    try {
                        inside.await(DEADLINE_SECONDS, TimeUnit.SECONDS);
                        // Each asks for the other's holder while the other is inside it: both are passed by.
                        final boolean granted = join.tryReserve(400);
                        inside.await(DEADLINE_SECONDS, TimeUnit.SECONDS);
                        return granted;
                    } catch (final Exception e) {
                        throw new IllegalStateException(e);
                    } finally {
                        own.memory.exit();
                    }
                }, threads));
            }
            for (final CompletableFuture<Boolean> run : runs) {
                assertThat(run.get(DEADLINE_SECONDS, TimeUnit.SECONDS)).isFalse();
            }
            assertThat(asked).isEmpty();
            assertThat(join.tryReserve(400)).isTrue();
            assertThat(asked).hasSize(1);
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * Holders of any sizes and a request of any size: the holders asked are the largest, in order of size, as few as
     * make room; the request is granted exactly when what all of them hold would make room; the query then holds what
     * the others still hold, plus the request.
     */
    @Property(tries = 300)
    void theHoldersAskedAreTheLargestAndJustEnough(
            @ForAll @Size(max = 8) final List<@LongRange(max = 1_000) Long> sizes,
            @ForAll @LongRange(min = 1, max = 4_000) final long request,
            @ForAll @LongRange(min = 0, max = 2_000) final long slack) {
        final long total = sizes.stream().mapToLong(Long::longValue).sum();
        final long budget = total + slack;
        final List<String> asked = new ArrayList<>();
        final List<Holder> holders = new ArrayList<>();
        try (QueryMemory query = query(new MemoryPool(1L << 30), Math.max(1, budget))) {
            for (int i = 0; i < sizes.size(); i++) {
                holders.add(new Holder(query, "h" + i, sizes.get(i), asked));
            }
            final boolean granted = query.operator("join").tryReserve(request);

            final List<Long> descending = new ArrayList<>(sizes);
            descending.removeIf(s -> s == 0);
            descending.sort(Collections.reverseOrder());
            long free = Math.max(1, budget) - total;
            final List<Long> expected = new ArrayList<>();
            for (final long s : descending) {
                if (free >= request) {
                    break;
                }
                expected.add(s);
                free += s;
            }
            assertThat(granted).isEqualTo(free >= request);
            final List<Long> askedSizes = new ArrayList<>();
            long revoked = 0;
            for (final String name : asked) {
                final long s = sizes.get(Integer.parseInt(name.substring(1)));
                askedSizes.add(s);
                revoked += s;
            }
            assertThat(askedSizes).isEqualTo(expected);
            long stillHeld = 0;
            for (final Holder h : holders) {
                stillHeld += h.held;
            }
            assertThat(stillHeld).isEqualTo(total - revoked);
            assertThat(query.reserved()).isEqualTo(stillHeld + (granted ? request : 0));
        }
    }

    /**
     * Workers that each grow their own holder (spilling it when refused), reserve memory that cannot be revoked and
     * give it back, all at once: none waits for another past the deadline, the budget is never passed, and every byte
     * comes back.
     */
    @Property(tries = 30)
    void workersReservingAtOnceNeverDeadlockAndGiveEveryByteBack(
            @ForAll @IntRange(min = 2, max = 4) final int workers, @ForAll final long seed) throws Exception {
        final ExecutorService threads = Executors.newFixedThreadPool(workers);
        try (QueryMemory query = query(new MemoryPool(1L << 30), 10_000)) {
            final List<CompletableFuture<Void>> runs = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                final Random random = new Random(seed + w);
                final Holder own = new Holder(query, "group by [w" + w + "]", 0, new CopyOnWriteArrayList<>());
                final QueryMemory.Operator join = query.operator("join " + w);
                runs.add(CompletableFuture.runAsync(() -> {
                    long joinHeld = 0;
                    for (int step = 0; step < 2_000; step++) {
                        final long bytes = 1 + random.nextInt(3_000);
                        if (random.nextBoolean()) {
                            own.memory.enter();
                            try {
                                if (own.memory.tryReserve(bytes)) {
                                    own.held += bytes;
                                } else {
                                    own.spill();
                                }
                            } finally {
                                own.memory.exit();
                            }
                        } else if (join.tryReserve(bytes)) {
                            joinHeld += bytes;
                        }
                        if (random.nextInt(4) == 0) {
                            join.release(joinHeld);
                            joinHeld = 0;
                        }
                    }
                    join.release(joinHeld);
                    own.memory.close();
                    own.memory.release(own.held);
                }, threads));
            }
            for (final CompletableFuture<Void> run : runs) {
                run.get(DEADLINE_SECONDS, TimeUnit.SECONDS);
            }
            assertThat(query.reserved()).isZero();
            assertThat(query.peak()).isLessThanOrEqualTo(10_000);
        } finally {
            threads.shutdownNow();
        }
    }
}
