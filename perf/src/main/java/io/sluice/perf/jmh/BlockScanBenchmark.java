package io.sluice.perf.jmh;

import io.sluice.format.Block;
import io.sluice.format.BlockChecksum;
import io.sluice.format.BlockLayout;
import io.sluice.format.ColumnType;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.BlockFile;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How fast one long column of {@code lineitem} is scanned from its block files (read the column
 * out of the mapped file into a reused vector, checksum verified on first read, then sum), against
 * plain copies of the same bytes: {@link #copyMapped} copies exactly the column's bytes out of the
 * mapped files, {@link #copy} the same amount between two heap {@code long[]}. One operation is one
 * pass over the whole column; the {@code :bytes} secondary result of each benchmark is the column
 * bytes moved per second, so {@code scan:bytes / copyMapped:bytes} is the scan's fraction of
 * copy speed. {@link #readBlock} is the convenience path that allocates a vector per block.
 *
 * <p>Two more benchmarks split the scan's cost over the same mapped bytes: {@link #checksum}
 * only verifies the column checksums, {@link #sumMapped} sums the values straight from the
 * mapping through the buffer's bounds-checked accessors, with no checksum, copy or allocation.
 *
 * <p>The store is generated with {@link TpchLoader} at {@code scaleFactor} when it has no
 * {@code lineitem} table yet. Run: {@code java -cp perf/target/sluice.jar org.openjdk.jmh.Main BlockScan}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// The decoder path takes about six one-second iterations to reach its compiled steady state.
@Warmup(iterations = 8, time = 1)
@Measurement(iterations = 5, time = 1)
// A fixed, pre-touched heap: otherwise the scan's per-block vectors keep faulting in fresh heap pages while
// the heap grows, and the first iterations measure the kernel instead of the decoder.
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "-Dchronicle.analytics.disable=true",
    "-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
public class BlockScanBenchmark {
    private static final String TABLE = "lineitem";

    /** Store directory holding (or to receive) {@code lineitem}. */
    @Param("data/sf0.1")
    public String store;

    /** Scale factor to generate at when the store has no {@code lineitem}. */
    @Param("0.1")
    public double scaleFactor;

    /** A 64-bit column of {@code lineitem}: {@code l_orderkey} or {@code l_extendedprice}. */
    @Param("l_orderkey")
    public String column;

    private Table table;
    /** Every block file, opened once and kept mapped, so the scans measure reading, not opening. */
    private BlockFile[] files;
    private int[] projection;
    private ColumnType type;
    private LongVector reuse;
    private byte[] copyTarget;
    private int blocks;
    private long columnBytes;
    private long[] source;
    private long[] target;
    private DirectBuffer[] mapped;
    private int[] dataStart;
    private int[] dataLength;
    private int[] valuesStart;
    private int[] valuesEnd;

    /** Column bytes moved, reported by JMH as a rate (bytes/s) next to each benchmark. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Bytes {
        public long bytes;

        @Setup(Level.Iteration)
        public void reset() {
            bytes = 0;
        }
    }

    @Setup(Level.Trial)
    public void open() {
        final Store s = Store.create(Path.of(store));
        final boolean generated = !s.hasTable(TABLE);
        if (generated) {
            TpchLoader.load(s, TpchTable.LINEITEM, scaleFactor, rows -> { });
        }
        table = s.table(TABLE);
        final int index = table.schema().require(column);
        if (!table.schema().type(index).kind().isLong()) {
            throw new IllegalArgumentException("column '" + column + "' of " + TABLE + " is "
                    + table.schema().type(index) + ": choose a 64-bit column such as l_orderkey or l_extendedprice");
        }
        projection = new int[] {index};
        type = table.schema().type(index);
        reuse = new LongVector(type, new long[Block.MAX_ROWS], 0, null);
        copyTarget = new byte[8 * Block.MAX_ROWS];
        blocks = table.blockCount();
        final int rows = Math.toIntExact(table.rowCount());
        columnBytes = 8L * rows;
        source = new long[rows];
        target = new long[rows];
        for (int i = 0; i < rows; i++) {
            source[i] = i;
        }
        locateColumn(index);
        System.out.printf("%n%s.%s in %s%s: %d rows, %d blocks, %.1f MB per pass%n", TABLE, column, store,
                generated ? " (generated now)" : "", rows, blocks, columnBytes / 1e6);
    }

    /** Finds the column's bytes in each mapped block file, for the benchmarks that bypass the decoder. */
    private void locateColumn(final int index) {
        mapped = new DirectBuffer[blocks];
        dataStart = new int[blocks];
        dataLength = new int[blocks];
        valuesStart = new int[blocks];
        valuesEnd = new int[blocks];
        files = new BlockFile[blocks];
        for (int b = 0; b < blocks; b++) {
            files[b] = BlockFile.open(table.blockPath(b), b);
            mapped[b] = files[b].buffer();
            final int entry = BlockLayout.directoryEntry(index);
            dataStart[b] = (int) mapped[b].getLong(entry + BlockLayout.ENTRY_OFFSET, ByteOrder.LITTLE_ENDIAN);
            dataLength[b] = mapped[b].getInt(entry + BlockLayout.ENTRY_LENGTH, ByteOrder.LITTLE_ENDIAN);
            final boolean hasNulls = mapped[b].getByte(entry + BlockLayout.ENTRY_HAS_NULLS) != 0;
            valuesStart[b] = dataStart[b] + (hasNulls ? 8 * NullMask.words(table.blockRowCount(b)) : 0);
            valuesEnd[b] = valuesStart[b] + 8 * table.blockRowCount(b);
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        for (final BlockFile file : files) {
            file.close();
        }
        table.close();
    }

    /** Reads the column block by block from the block files into one reused vector and sums it. */
    @Benchmark
    public long scan(final Bytes moved) {
        long sum = 0;
        final int column = projection[0];
        for (int b = 0; b < blocks; b++) {
            final LongVector vector = (LongVector) files[b].readColumn(column, type, reuse);
            final long[] values = vector.values();
            final int n = vector.rowCount();
            for (int i = 0; i < n; i++) {
                sum += values[i];
            }
        }
        moved.bytes += columnBytes;
        return sum;
    }

    /** Copies exactly the column's value bytes out of the mapped block files: the plain copy a scan competes with. */
    @Benchmark
    public byte[] copyMapped(final Bytes moved) {
        for (int b = 0; b < blocks; b++) {
            mapped[b].getBytes(valuesStart[b], copyTarget, 0, valuesEnd[b] - valuesStart[b]);
        }
        moved.bytes += columnBytes;
        return copyTarget;
    }

    /**
     * Reads the column block by block through {@link Table#readBlock}, a new vector per block, and sums it
     * (through the block file cache, which keeps these blocks open when it can hold them all).
     */
    @Benchmark
    public long readBlock(final Bytes moved) {
        long sum = 0;
        for (int b = 0; b < blocks; b++) {
            final LongVector vector = (LongVector) table.readBlock(b, projection).column(0);
            final long[] values = vector.values();
            final int n = vector.rowCount();
            for (int i = 0; i < n; i++) {
                sum += values[i];
            }
        }
        moved.bytes += columnBytes;
        return sum;
    }

    /** Copies the same number of bytes between two heap arrays: the speed a scan could approach. */
    @Benchmark
    public long[] copy(final Bytes moved) {
        System.arraycopy(source, 0, target, 0, source.length);
        moved.bytes += columnBytes;
        return target;
    }

    /** Only verifies each block's column checksum, as every read does, over the mapped bytes. */
    @Benchmark
    public long checksum(final Bytes moved) {
        long h = 0;
        for (int b = 0; b < blocks; b++) {
            h ^= BlockChecksum.compute(mapped[b], dataStart[b], dataLength[b], BlockChecksum.SEED);
        }
        moved.bytes += columnBytes;
        return h;
    }

    /** Sums the values straight from the mapped block files: no checksum, no copy, no allocation. */
    @Benchmark
    public long sumMapped(final Bytes moved) {
        long sum = 0;
        for (int b = 0; b < blocks; b++) {
            final DirectBuffer buffer = mapped[b];
            final int end = valuesEnd[b];
            for (int p = valuesStart[b]; p < end; p += 8) {
                sum += buffer.getLong(p, ByteOrder.LITTLE_ENDIAN);
            }
        }
        moved.bytes += columnBytes;
        return sum;
    }
}
