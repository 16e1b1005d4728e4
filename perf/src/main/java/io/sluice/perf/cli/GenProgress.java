package io.sluice.perf.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

/**
 * The progress line of {@code sluice gen}: overall rows with percent, rows/s and ETA, plus the
 * percent of each table still being written, drawn by a {@link ProgressLine}. Safe to update from
 * several generating threads.
 */
final class GenProgress {
    private final LongSupplier nanoClock;
    private final String[] names;
    private final long[] expected;
    private final AtomicLongArray done;
    private final boolean[] finished;
    private final long startNanos;
    private final ProgressLine display;

    /**
     * @param names    the tables, in the order their indices are used in {@link #update}
     * @param expected the rows each table is expected to have
     * @param terminal whether {@code err} is a terminal (redraw in place)
     */
    GenProgress(final PrintWriter err, final boolean terminal, final LongSupplier nanoClock, final String[] names,
                final long[] expected) {
        this.nanoClock = nanoClock;
        this.names = names.clone();
        this.expected = expected.clone();
        this.done = new AtomicLongArray(names.length);
        this.finished = new boolean[names.length];
        this.startNanos = nanoClock.getAsLong();
        this.display = new ProgressLine(err, terminal, startNanos);
    }

    /** Records the rows written so far for a table; may draw. */
    void update(final int table, final long rows) {
        done.set(table, rows);
        maybeDraw(false);
    }

    /** Records that a table is complete with its final row count; draws. */
    void finish(final int table, final long rows) {
        synchronized (this) {
            finished[table] = true;
        }
        done.set(table, rows);
        maybeDraw(true);
    }

    /** Ends the progress display (moves a terminal past the redrawn line). */
    synchronized void close() {
        display.close();
    }

    private synchronized void maybeDraw(final boolean tableFinished) {
        final long now = nanoClock.getAsLong();
        final int percent = percent();
        if (percent < 100 && rowsDone() >= total()) {
            // Every row is written but a table is still closing: "99% 25/25 rows" would contradict itself, and
            // the table's finish draws 100% (or the next state) at once.
            return;
        }
        display.offer(now, percent, tableFinished, () -> line(now, percent));
    }

    private int percent() {
        boolean all = true;
        for (final boolean f : finished) {
            all &= f;
        }
        if (all) {
            return 100;
        }
        return (int) Math.min(99, 100 * rowsDone() / total());
    }

    private long rowsDone() {
        long sum = 0;
        for (int i = 0; i < names.length; i++) {
            sum += done.get(i);
        }
        return sum;
    }

    /**
     * A table's rows to reach: the expected rows, or the rows written when there are more (the expected
     * lineitem rows are an estimate) or the table is done, so no count or percent ever passes its total.
     */
    private long tableTotal(final int table) {
        final long rows = done.get(table);
        return finished[table] ? rows : Math.max(expected[table], rows);
    }

    private long total() {
        long sum = 0;
        for (int i = 0; i < names.length; i++) {
            sum += tableTotal(i);
        }
        return Math.max(1, sum);
    }

    private String line(final long now, final int percent) {
        final long rows = rowsDone();
        final long total = Math.max(rows, total());
        final double seconds = Math.max(1e-9, (now - startNanos) / 1e9);
        final double rate = rows / seconds;
        final StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "gen %3d%% %d/%d rows  %s rows/s", percent, rows, total,
                Sizes.count(rate)));
        if (percent < 100) {
            sb.append("  ETA ").append(rate > 0 ? Sizes.clock((long) ((total - rows) / rate)) : "?");
        } else {
            sb.append("  done in ").append(Sizes.clock((long) seconds));
        }
        String separator = "  [";
        for (int i = 0; i < names.length; i++) {
            final long rowsOfTable = done.get(i);
            if (!finished[i] && rowsOfTable > 0) {
                sb.append(separator).append(names[i]).append(' ')
                        .append(Math.min(99, 100 * rowsOfTable / Math.max(1, tableTotal(i)))).append('%');
                separator = ", ";
            }
        }
        if (!separator.equals("  [")) {
            sb.append(']');
        }
        return sb.toString();
    }
}
