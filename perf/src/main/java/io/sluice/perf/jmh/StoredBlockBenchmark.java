package io.sluice.perf.jmh;

import io.sluice.dispatch.BatchCodec;
import io.sluice.shuffle.operator.Batch;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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
 * What a sender pays to put one scanned block of {@code lineitem} into a DATA frame's payload:
 * {@link #encode} encodes the decoded batch again with {@link io.sluice.format.BlockEncoder} (what
 * every remote batch cost before), {@link #stored} copies the block's stored column bytes out of its
 * mapped file under a header for those columns ({@link io.sluice.format.BlockProjection}, through the
 * table's block file cache), both through {@link BatchCodec} into its reused buffer. One operation is
 * one pass over every block of the table; the {@code :bytes} secondary result is the payload bytes
 * written per second.
 *
 * <p>Reads an existing store ({@code store}, opened read-only). Run:
 * {@code java -cp perf/target/sluice.jar org.openjdk.jmh.Main StoredBlock -p store=/path/to/sf0.1}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "-Dchronicle.analytics.disable=true",
    "-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
public class StoredBlockBenchmark {
    private static final String TABLE = "lineitem";

    /** Store directory holding {@code lineitem}. */
    @Param("data/sf0.1")
    public String store;

    /** The columns the scan reads, comma-separated, or {@code all}. */
    @Param({"l_orderkey,l_partkey,l_quantity,l_extendedprice,l_shipdate", "all"})
    public String columns;

    private Table table;
    /** Every block as a scan produces it: decoded, carrying its stored columns. */
    private Batch[] batches;
    private final BatchCodec encoding = new BatchCodec(false);
    private final BatchCodec storing = new BatchCodec(true);

    /** Payload bytes written, reported by JMH as a rate (bytes/s) next to each benchmark. */
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
        table = Store.open(Path.of(store)).table(TABLE);
        final int[] projection;
        if (columns.equals("all")) {
            projection = new int[table.schema().size()];
            for (int c = 0; c < projection.length; c++) {
                projection[c] = c;
            }
        } else {
            final String[] names = columns.split(",");
            projection = new int[names.length];
            for (int i = 0; i < names.length; i++) {
                projection[i] = table.schema().require(names[i].trim());
            }
        }
        batches = new Batch[table.blockCount()];
        long encoded = 0;
        long stored = 0;
        for (int b = 0; b < batches.length; b++) {
            batches[b] = Batch.of(table.readBlock(b, projection)).withStoredBlock(table.storedBlock(b, projection));
            encoded += encoding.encode(batches[b]);
            stored += storing.encode(batches[b]);
        }
        System.out.printf("%n%s [%s] in %s: %d blocks, %.1f MB encoded, %.1f MB stored per pass%n", TABLE, columns,
                store, batches.length, encoded / 1e6, stored / 1e6);
    }

    @TearDown(Level.Trial)
    public void close() {
        table.close();
    }

    /** Encodes every block's batch again, as every remote batch was before. */
    @Benchmark
    public int encode(final Bytes written) {
        int last = 0;
        for (final Batch batch : batches) {
            last = encoding.encode(batch);
            written.bytes += last;
        }
        return last;
    }

    /** Copies every block's stored columns out of its mapped file. */
    @Benchmark
    public int stored(final Bytes written) {
        int last = 0;
        for (final Batch batch : batches) {
            last = storing.encode(batch);
            written.bytes += last;
        }
        return last;
    }
}
