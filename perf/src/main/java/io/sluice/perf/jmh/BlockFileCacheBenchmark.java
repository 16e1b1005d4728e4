package io.sluice.perf.jmh;

import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.LongVector;
import io.sluice.perf.tpch.TpchLoader;
import io.sluice.perf.tpch.TpchTable;
import io.sluice.storage.BlockFile;
import io.sluice.storage.BlockFileCache;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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
 * What the block file cache costs a scan: one pass over a long column of {@code lineitem}, every
 * block read into a reused vector and summed, through {@link Table#acquire} and a
 * {@link BlockFileCache} of {@code capacity} files ({@link #cached}), next to the same pass over
 * block files opened once and kept mapped, as tables kept them before the cache ({@link #mapped}).
 * {@code cached / mapped} in one run is the cache's throughput ratio: with {@code capacity} 0 the
 * cache holds every block (hits only); with a capacity below the block count a pass opens, maps,
 * verifies and closes every block again (an LRU cache meeting a scan larger than itself).
 *
 * <p>Run: {@code java -cp perf/target/sluice.jar org.openjdk.jmh.Main BlockFileCache}; the store is
 * generated at {@code scaleFactor} when it has no {@code lineitem}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 6, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "-Dchronicle.analytics.disable=true",
    "-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
public class BlockFileCacheBenchmark {
    private static final String TABLE = "lineitem";

    /** Store directory holding (or to receive) {@code lineitem}. */
    @Param("data/sf0.1")
    public String store;

    /** Scale factor to generate at when the store has no {@code lineitem}. */
    @Param("0.1")
    public double scaleFactor;

    /** Open files the cache keeps; 0: as many as the table has blocks. */
    @Param({"0", "16"})
    public int capacity;

    private Table table;
    private BlockFile[] files;
    private int column;
    private ColumnType type;
    private LongVector reuse;

    @Setup(Level.Trial)
    public void open() {
        final Store s = Store.create(Path.of(store));
        if (!s.hasTable(TABLE)) {
            TpchLoader.load(s, TpchTable.LINEITEM, scaleFactor, rows -> { }).close();
        }
        final Path dir = Path.of(store).resolve(TABLE);
        try (Table probe = Table.open(dir, new BlockFileCache(1))) {
            table = Table.open(dir, new BlockFileCache(capacity == 0 ? probe.blockCount() : capacity));
        }
        column = table.schema().require("l_orderkey");
        type = table.schema().type(column);
        reuse = new LongVector(type, new long[Block.MAX_ROWS], 0, null);
        files = new BlockFile[table.blockCount()];
        for (int b = 0; b < files.length; b++) {
            files[b] = BlockFile.open(table.blockPath(b), b);
        }
        System.out.printf("%n%s in %s: %d blocks, cache of %d files%n", TABLE, store, files.length,
                capacity == 0 ? files.length : capacity);
    }

    @TearDown(Level.Trial)
    public void close() {
        for (final BlockFile f : files) {
            f.close();
        }
        table.close();
    }

    /** The column through the cache: acquire, read, release, block by block. */
    @Benchmark
    public long cached() {
        long sum = 0;
        for (int b = 0; b < files.length; b++) {
            try (BlockFileCache.Handle handle = table.acquire(b)) {
                sum += sum((LongVector) handle.file().readColumn(column, type, reuse));
            }
        }
        return sum;
    }

    /** The column from files opened once and kept mapped. */
    @Benchmark
    public long mapped() {
        long sum = 0;
        for (int b = 0; b < files.length; b++) {
            sum += sum((LongVector) files[b].readColumn(column, type, reuse));
        }
        return sum;
    }

    private static long sum(final LongVector vector) {
        final long[] values = vector.values();
        long sum = 0;
        for (int i = 0, n = vector.rowCount(); i < n; i++) {
            sum += values[i];
        }
        return sum;
    }
}
