package io.sluice.perf.cli;

import io.sluice.perf.tpcds.TpcdsLoader;
import io.sluice.perf.tpcds.TpcdsTable;
import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchSkew;
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
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

/**
 * Generates benchmark tables (TPC-H or TPC-DS) into a store on a small pool of threads, largest table
 * first so that the long pole starts at once. Each table streams to disk block by block, so memory stays bounded by
 * the thread count, not the scale factor. When one table fails, or a stop is requested, the others
 * stop at their next progress report and remove what they wrote; tables already complete stay.
 */
final class TableGeneration {
    /** One generated table. */
    record Result(String name, long rows, int blocks, long bytes) {
    }

    /**
     * What a run that was asked to stop did.
     *
     * @param written    the tables completed before the stop, in generation order
     * @param unfinished the tables whose partial write was removed
     */
    record Outcome(List<Result> written, List<String> unfinished) {
    }

    /** Writes one table into a store. */
    @FunctionalInterface
    interface Loader {
        /**
         * Writes the table.
         *
         * @param replace  whether a table of that name is replaced
         * @param progress called with the rows written so far; it may throw to stop the write
         */
        Table load(Store store, boolean replace, LongConsumer progress);
    }

    /** One table to generate: its name, the rows it will have, and how to write it. */
    record Job(String name, long expectedRows, Loader loader) {
    }

    private TableGeneration() {
    }

    /** The TPC-H tables as jobs, in the given order, with the foreign keys {@code skew} draws (null: uniform). */
    static List<Job> tpch(final List<TpchTable> tables, final double scaleFactor, final TpchSkew skew) {
        final List<Job> jobs = new ArrayList<>();
        for (final TpchTable t : tables) {
            jobs.add(new Job(t.tableName(), t.expectedRows(scaleFactor),
                    (store, replace, progress) -> TpchLoader.load(store, t, scaleFactor, replace, skew, progress)));
        }
        return jobs;
    }

    /** The TPC-DS tables as jobs, most rows first. */
    static List<Job> tpcds(final List<TpcdsTable> tables, final double scaleFactor) {
        final List<Job> jobs = new ArrayList<>();
        for (final TpcdsTable t : tables) {
            jobs.add(new Job(t.tableName(), t.expectedRows(scaleFactor),
                    (store, replace, progress) -> TpcdsLoader.load(store, t, scaleFactor, replace, progress)));
        }
        jobs.sort(Comparator.comparingLong(Job::expectedRows).reversed());
        return jobs;
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
     * @param replace  whether existing tables of those names are replaced
     * @param skew     the foreign keys' skew, or null for dbgen's uniform rows
     * @param stop     polled at each progress report; once true, unfinished tables are abandoned
     * @param progress receives the table's index in {@code tables} and its rows so far
     * @return the tables written and, when {@code stop} became true, those abandoned
     */
    static Outcome run(final Store store, final List<TpchTable> tables, final double scaleFactor,
                       final int threads, final boolean replace, final TpchSkew skew, final BooleanSupplier stop,
                       final GenProgress progress) {
        return run(store, tpch(tables, scaleFactor, skew), threads, replace, stop, progress);
    }

    /**
     * Generates the tables of the jobs (in the given order) with {@code threads} threads.
     *
     * @param replace  whether existing tables of those names are replaced
     * @param stop     polled at each progress report; once true, unfinished tables are abandoned
     * @param progress receives the table's index in {@code tables} and its rows so far
     * @return the tables written and, when {@code stop} became true, those abandoned
     */
    static Outcome run(final Store store, final List<Job> tables, final int threads, final boolean replace,
                       final BooleanSupplier stop, final GenProgress progress) {
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
                final Job table = tables.get(i);
                futures.add(pool.submit(() -> generate(store, table, replace, index, progress,
                        () -> failed.get() || stop.getAsBoolean(), failed)));
            }
            final List<Result> results = new ArrayList<>();
            final List<String> unfinished = new ArrayList<>();
            Throwable first = null;
            for (int i = 0; i < futures.size(); i++) {
                try {
                    results.add(futures.get(i).get());
                } catch (final ExecutionException e) {
                    failed.set(true);
                    unfinished.add(tables.get(i).name());
                    if (first == null && !(e.getCause() instanceof CancellationException)) {
                        first = e.getCause();
                    }
                } catch (final InterruptedException e) {
                    failed.set(true);
                    Thread.currentThread().interrupt();
                    throw new CancellationException("interrupted while generating tables");
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
            return new Outcome(results, unfinished);
        } finally {
            pool.shutdown();
        }
    }

    private static Result generate(final Store store, final Job table, final boolean replace, final int index,
                                   final GenProgress progress, final BooleanSupplier stop, final AtomicBoolean failed) {
        if (stop.getAsBoolean()) {
            throw new CancellationException("generation stopped before " + table.name() + " began");
        }
        try (Table written = table.loader().load(store, replace, rows -> {
            if (stop.getAsBoolean()) {
                throw new CancellationException("generation stopped");
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
