package io.sluice.perf.cli;

import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Generates TPC-H tables into a store on a small pool of threads, largest table first so that the
 * long pole starts at once. Each table streams to disk block by block, so memory stays bounded by
 * the thread count, not the scale factor. When one table fails, the others stop at their next
 * progress report and remove what they wrote.
 */
final class TpchGeneration {
    /** One generated table. */
    record Result(String name, long rows, int blocks, long bytes) {
    }

    private TpchGeneration() {
    }

    /** The tables in generation order: most rows first. */
    static List<TpchTable> largestFirst(final List<TpchTable> tables, final double scaleFactor) {
        final List<TpchTable> order = new ArrayList<>(tables);
        order.sort(Comparator.comparingLong((TpchTable t) -> t.expectedRows(scaleFactor)).reversed());
        return order;
    }

    /**
     * Generates the tables (in the given order) with {@code threads} threads.
     *
     * @param progress receives the table's index in {@code tables} and its rows so far
     * @return one result per table, in the given order
     */
    static List<Result> run(final Store store, final List<TpchTable> tables, final double scaleFactor,
                            final int threads, final GenProgress progress) {
        final AtomicInteger threadNumber = new AtomicInteger();
        final ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, tables.size()), r -> {
            final Thread t = new Thread(r, "sluice-gen-" + threadNumber.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        final AtomicBoolean failed = new AtomicBoolean();
        try {
            final List<Future<Result>> futures = new ArrayList<>();
            for (int i = 0; i < tables.size(); i++) {
                final int index = i;
                final TpchTable table = tables.get(i);
                futures.add(pool.submit(() -> generate(store, table, scaleFactor, index, progress, failed)));
            }
            final List<Result> results = new ArrayList<>();
            Throwable first = null;
            for (final Future<Result> future : futures) {
                try {
                    results.add(future.get());
                } catch (final ExecutionException e) {
                    failed.set(true);
                    if (first == null && !(e.getCause() instanceof CancellationException)) {
                        first = e.getCause();
                    }
                } catch (final InterruptedException e) {
                    failed.set(true);
                    Thread.currentThread().interrupt();
                    throw new CancellationException("interrupted while generating TPC-H tables");
                }
            }
            if (first instanceof RuntimeException re) {
                throw re;
            }
            if (first instanceof Error error) {
                throw error;
            }
            if (first != null) {
                throw new IllegalStateException(first);
            }
            return results;
        } finally {
            pool.shutdown();
        }
    }

    private static Result generate(final Store store, final TpchTable table, final double scaleFactor,
                                   final int index, final GenProgress progress, final AtomicBoolean failed) {
        try (Table written = TpchLoader.load(store, table, scaleFactor, rows -> {
            if (failed.get()) {
                throw new CancellationException("another table failed");
            }
            progress.update(index, rows);
        })) {
            progress.finish(index, written.rowCount());
            return new Result(written.name(), written.rowCount(), written.blockCount(), written.bytes());
        } catch (final RuntimeException | Error e) {
            failed.set(true);
            throw e;
        }
    }
}
