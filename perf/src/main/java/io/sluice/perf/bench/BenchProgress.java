package io.sluice.perf.bench;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The progress bar of {@code sluice bench} on stderr: runs done out of all runs (Sluice and
 * DuckDB, warm-up included), percent, elapsed time, ETA and the cell running now. On a terminal
 * the bar is redrawn in place a few times a second; otherwise (a file, a pipe, a test) a line is
 * printed each time another 10% is done. Messages (a mismatch, a failed query) are printed on
 * their own lines without breaking the bar. Used from one thread.
 */
public final class BenchProgress {
    private static final long REDRAW_NANOS = 200_000_000L;
    private static final int BAR_WIDTH = 24;

    private final PrintWriter err;
    private final boolean terminal;
    private final LongSupplier nanoClock;
    private final long totalRuns;
    private final long startNanos;
    private long runsDone;
    private long lastDrawNanos;
    private int nextMark = 10;
    private int lastWidth;
    private String current = "";

    /**
     * @param terminal  whether {@code err} is a terminal (redraw in place)
     * @param totalRuns every run the benchmark will make
     */
    public BenchProgress(final PrintWriter err, final boolean terminal, final LongSupplier nanoClock,
                         final long totalRuns) {
        this.err = err;
        this.terminal = terminal;
        this.nanoClock = nanoClock;
        this.totalRuns = Math.max(1, totalRuns);
        this.startNanos = nanoClock.getAsLong();
        this.lastDrawNanos = startNanos - REDRAW_NANOS;
    }

    /** Names the cell whose runs come next. */
    public void cell(final String label) {
        current = label;
        draw(false);
    }

    /** Counts one finished run; may redraw. */
    public void run() {
        runsDone++;
        draw(runsDone == totalRuns);
    }

    /** Prints a line of its own (the bar, on a terminal, is redrawn after it). */
    public void message(final String line) {
        clearLine();
        err.println(line);
        err.flush();
        if (terminal) {
            draw(true);
        }
    }

    /** Ends the display (moves a terminal past the bar). */
    public void close() {
        if (terminal && lastWidth > 0) {
            err.println();
            err.flush();
            lastWidth = 0;
        }
    }

    /** The current bar as text, e.g. {@code bench [#####     ] 21% 96/456 runs 0:41 ETA 2:30 q4 3x2 colocate}. */
    String line(final long now) {
        final double fraction = (double) runsDone / totalRuns;
        final int filled = (int) Math.round(fraction * BAR_WIDTH);
        final long elapsed = Math.max(0, now - startNanos);
        final StringBuilder sb = new StringBuilder("bench [").append("#".repeat(filled))
                .append(" ".repeat(BAR_WIDTH - filled)).append("] ")
                .append(String.format(Locale.ROOT, "%3d%% %d/%d runs %s", (int) (fraction * 100), runsDone, totalRuns,
                        clock(elapsed / 1_000_000_000L)));
        if (runsDone > 0 && runsDone < totalRuns) {
            sb.append(" ETA ").append(clock((long) (elapsed / fraction * (1 - fraction) / 1e9)));
        }
        if (runsDone < totalRuns && !current.isEmpty()) {
            sb.append("  ").append(current);
        }
        return sb.toString();
    }

    private void draw(final boolean force) {
        final long now = nanoClock.getAsLong();
        if (terminal) {
            if (force || now - lastDrawNanos >= REDRAW_NANOS) {
                lastDrawNanos = now;
                final String line = line(now);
                err.print("\r" + line + " ".repeat(Math.max(0, lastWidth - line.length())));
                lastWidth = line.length();
                err.flush();
            }
        } else {
            final int percent = (int) (100 * runsDone / totalRuns);
            if (percent >= nextMark) {
                nextMark = (percent / 10 + 1) * 10;
                err.println(line(now));
                err.flush();
            }
        }
    }

    private void clearLine() {
        if (terminal && lastWidth > 0) {
            err.print("\r" + " ".repeat(lastWidth) + "\r");
            lastWidth = 0;
        }
    }

    private static String clock(final long seconds) {
        final long s = Math.max(0, seconds);
        return s >= 3600
                ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
