package io.sluice.engine.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spill files give back the batches written, every column type with its NULLs; a changed byte is an error
 * naming the file; a query's files go when it closes; the folders of dead processes go when a process
 * first spills under the same root, and those of live ones stay.
 */
class SpillFileTest {
    @TempDir
    Path root;

    @Test
    void aRunGivesBackItsBatchesInOrderWithEveryTypeAndNull() throws Exception {
        final QuerySpill query = SpillSpace.under(root).query();
        final List<Batch> written = List.of(batch(0, 100), batch(100, 3000), batch(5000, 1));
        final SpillRun run;
        try (SpillWriter writer = query.writer("sort [k]")) {
            for (final Batch b : written) {
                writer.write(b);
            }
            writer.write(batch(0, 0));
            run = writer.finish();
        }
        assertThat(run.batches()).isEqualTo(3);
        assertThat(run.rows()).isEqualTo(3101);
        assertThat(query.files()).isEqualTo(1);
        assertThat(query.bytes()).isEqualTo(run.bytes()).isEqualTo(java.nio.file.Files.size(run.file()));
        final List<Batch> read = new ArrayList<>();
        try (SpillReader reader = run.open()) {
            for (Batch b = reader.next(); b != null; b = reader.next()) {
                read.add(b);
            }
        }
        assertThat(read).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(rows(read.get(i))).isEqualTo(rows(written.get(i)));
            for (int c = 0; c < 4; c++) {
                assertThat(read.get(i).column(c).type()).isEqualTo(written.get(i).column(c).type());
            }
        }
        query.close();
        assertThat(query.folder()).doesNotExist();
    }

    @Test
    void aChangedByteIsAnErrorNamingTheFile() throws Exception {
        try (QuerySpill query = SpillSpace.under(root).query()) {
            final SpillRun run;
            try (SpillWriter writer = query.writer("group by [k]")) {
                writer.write(batch(0, 500));
                run = writer.finish();
            }
            try (RandomAccessFile file = new RandomAccessFile(run.file().toFile(), "rw")) {
                final long at = run.bytes() - 7;
                file.seek(at);
                final int b = file.read();
                file.seek(at);
                file.write(b ^ 0x10);
            }
            try (SpillReader reader = run.open()) {
                assertThatThrownBy(reader::next).isInstanceOf(SpillFileException.class)
                        .hasMessageContaining("the spill file " + run.file() + " is corrupt at frame 0")
                        .hasMessageContaining("CRC32C does not match");
            }
            try (RandomAccessFile file = new RandomAccessFile(run.file().toFile(), "rw")) {
                file.setLength(run.bytes() - 100);
            }
            try (SpillReader reader = run.open()) {
                assertThatThrownBy(reader::next).isInstanceOf(SpillFileException.class)
                        .hasMessageContaining(run.file().toString()).hasMessageContaining("bytes, ");
            }
        }
    }

    @Test
    void foldersOfDeadProcessesGoAndThoseOfLiveOnesStay() throws Exception {
        final Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        final Path dead = Files.createDirectories(root.resolve(Long.toString(ended.pid())).resolve("q1"));
        Files.writeString(dead.resolve("1.spill"), "left by a killed CN");
        final Path live = Files.createDirectories(root.resolve(Long.toString(ProcessHandle.current().parent()
                .orElseThrow().pid())).resolve("q1"));
        final Path other = Files.createDirectories(root.resolve("not-a-pid"));
        final SpillSpace space = SpillSpace.under(root);
        assertThat(dead.getParent()).doesNotExist();
        assertThat(live).exists();
        assertThat(other).exists();
        assertThat(space.folder()).isEqualTo(root.resolve(Long.toString(ProcessHandle.current().pid())));
    }

    private static Batch batch(final int from, final int n) {
        final long[] longs = new long[n];
        final int[] ints = new int[n];
        final long[] high = new long[n];
        final long[] low = new long[n];
        final String[] strings = new String[n];
        final long[] nulls = n == 0 ? null : new long[NullMask.words(n)];
        for (int i = 0; i < n; i++) {
            longs[i] = (from + i) * 7919L;
            ints[i] = from + i;
            high[i] = -(i % 3);
            low[i] = i * 31L;
            strings[i] = i % 5 == 0 ? "" : "row " + (from + i) % 13;
            if (i % 11 == 3) {
                NullMask.setNull(nulls, i);
            }
        }
        final ColumnVector s = StringVector.of(strings);
        return Batch.of(new LongVector(ColumnType.INT64, longs, n, nulls),
                new IntVector(ColumnType.DATE, ints, n, null),
                new Decimal128Vector(ColumnType.decimal(30, 2), high, low, n, nulls), s);
    }

    private static List<String> rows(final Batch b) {
        final List<String> out = new ArrayList<>();
        for (int r = 0; r < b.rowCount(); r++) {
            final StringBuilder row = new StringBuilder();
            for (int c = 0; c < b.columnCount(); c++) {
                final ColumnVector v = b.column(c);
                if (v.isNull(r)) {
                    row.append("NULL");
                } else if (v instanceof LongVector l) {
                    row.append(l.get(r));
                } else if (v instanceof IntVector iv) {
                    row.append(iv.get(r));
                } else if (v instanceof Decimal128Vector d) {
                    row.append(d.high()[r]).append(':').append(d.low()[r]);
                } else {
                    row.append(((StringVector) v).getString(r));
                }
                row.append('|');
            }
            out.add(row.toString());
        }
        return out;
    }
}
