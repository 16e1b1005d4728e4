package io.sluice.perf.cli;

import io.sluice.perf.csv.CsvImporter;
import io.sluice.perf.text.Plural;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The progress line of {@code sluice import}: rows read, how much of the file that is (the percent), rows/s
 * and ETA; once the file is read, what is left to do (sorting, writing the table); at the end the time it
 * took. Drawn by a {@link ProgressLine} on stderr. Used by the importing thread only.
 */
final class ImportProgress implements CsvImporter.Progress {
    private final LongSupplier nanoClock;
    private final long fileBytes;
    private final String sortBy;
    private final long startNanos;
    private final ProgressLine display;
    private long rows;
    private long bytes;

    /**
     * @param fileBytes the CSV file's size
     * @param sortBy    the column rows are sorted by once read, or null
     * @param terminal  whether {@code err} is a terminal (redraw in place)
     */
    ImportProgress(final PrintWriter err, final boolean terminal, final LongSupplier nanoClock, final long fileBytes,
                   final String sortBy) {
        this.nanoClock = nanoClock;
        this.fileBytes = Math.max(1, fileBytes);
        this.sortBy = sortBy;
        this.startNanos = nanoClock.getAsLong();
        this.display = new ProgressLine(err, terminal, startNanos);
    }

    @Override
    public void update(final long rowsRead, final long bytesRead) {
        rows = rowsRead;
        bytes = Math.min(bytesRead, fileBytes);
        final long now = nanoClock.getAsLong();
        final int percent = (int) Math.min(99, 100 * bytes / fileBytes);
        display.offer(now, percent, false, () -> line(now, percent, false));
    }

    /** The table is written with {@code rowsImported} rows; draws the last line. */
    void finish(final long rowsImported) {
        rows = rowsImported;
        bytes = fileBytes;
        final long now = nanoClock.getAsLong();
        display.offer(now, 100, true, () -> line(now, 100, true));
    }

    /** Ends the display (moves a terminal past the redrawn line). */
    void close() {
        display.close();
    }

    private String line(final long now, final int percent, final boolean done) {
        final double seconds = Math.max(1e-9, (now - startNanos) / 1e9);
        final StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "import %3d%% %s, %s", percent,
                Plural.of(rows, "row"), Sizes.bytes(bytes)));
        if (done) {
            return sb.append("  done in ").append(Sizes.clock((long) seconds)).toString();
        }
        if (bytes >= fileBytes) {
            // The file is read; what remains happens at the end, in one go.
            return sb.append(" read; ").append(sortBy == null ? "writing the table" : "sorting by " + sortBy
                    + " and writing the table").toString();
        }
        final double rate = bytes / seconds;
        sb.append(" of ").append(Sizes.bytes(fileBytes)).append("  ").append(Sizes.count(rows / seconds))
                .append(" rows/s  ETA ").append(rate > 0 ? Sizes.clock((long) ((fileBytes - bytes) / rate)) : "?");
        return sb.toString();
    }
}
