package io.sluice.perf.cli;

import java.io.PrintWriter;
import java.util.function.Supplier;

/**
 * Where a long command's progress goes on stderr: on a terminal one line redrawn in place with
 * {@code \r} at most four times a second (and whenever a step completes); otherwise (a file, a pipe, a
 * test) a line each time another 10% is done, so logs stay short. Used by {@link GenProgress} and
 * {@link ImportProgress}, which say what the line holds.
 */
final class ProgressLine {
    private static final long REDRAW_NANOS = 250_000_000L;

    private final PrintWriter err;
    private final boolean terminal;
    private long lastDrawNanos;
    private int nextMark = 10;
    private int lastWidth;

    /** @param terminal whether {@code err} is a terminal (redraw in place) */
    ProgressLine(final PrintWriter err, final boolean terminal, final long startNanos) {
        this.err = err;
        this.terminal = terminal;
        this.lastDrawNanos = startNanos;
    }

    /**
     * Draws the line when it is due.
     *
     * @param completed whether a step just completed (a terminal redraws at once)
     * @param line      the text, made only when it is drawn
     */
    void offer(final long now, final int percent, final boolean completed, final Supplier<String> line) {
        if (terminal) {
            if (completed || now - lastDrawNanos >= REDRAW_NANOS) {
                lastDrawNanos = now;
                final String text = line.get();
                err.print("\r" + text + " ".repeat(Math.max(0, lastWidth - text.length())));
                lastWidth = text.length();
                err.flush();
            }
        } else if (percent >= nextMark) {
            nextMark = (percent / 10 + 1) * 10;
            err.println(line.get());
            err.flush();
        }
    }

    /** Ends the display (moves a terminal past the redrawn line). */
    void close() {
        if (terminal && lastWidth > 0) {
            err.println();
            err.flush();
        }
    }
}
