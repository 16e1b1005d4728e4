package io.sluice.dispatch;

import static io.sluice.dispatch.ExchangeRun.pollUntilFailure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.exec.Vectors;
import io.sluice.format.Block;
import io.sluice.format.BlockLayout;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.Field;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import io.sluice.format.StringVector;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.Batch;
import io.sluice.shuffle.operator.DispatchMode;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import io.sluice.storage.TableWriter;
import io.sluice.transport.FrameKind;
import io.sluice.transport.FramePublisher;
import io.sluice.transport.TransportContext;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scan's batch that is a stored block's rows goes to a remote CN as the stored bytes of its
 * columns, counted as sent stored, and arrives as the rows written (NULLs, dictionary strings,
 * 128-bit decimals, a last partial block); a batch a filter cut, or a stored block too large for one
 * frame, is encoded as before; a stored block damaged before it was sent is refused on receipt with
 * an error naming the sending CN and the frame.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StoredBlockExchangeTest {
    private static final Schema TABLE_SCHEMA = Schema.parse("id:int64,flag:string,note:string,wide:decimal(38,2),d:date");
    /** The scan's columns: not all of the table's, not in its order. */
    private static final int[] PROJECTION = {0, 3, 1, 4};
    private static final int ROWS = Block.MAX_ROWS + 1500;
    private static final Topology TOPOLOGY = new Topology(2, 1);

    @TempDir
    static Path dir;

    private Table table;
    private final List<Object[]> written = new ArrayList<>();
    private EmbeddedCluster cluster;
    private int nextExchangeId = 1;

    @BeforeAll
    void start() {
        final Random random = new Random(42);
        final String[] flags = {"A", "N", "R"};
        try (TableWriter writer = Store.create(dir).createTable("t", TABLE_SCHEMA, null)) {
            for (int i = 0; i < ROWS; i++) {
                final BigInteger wide = i % 9 == 4 ? null : new BigInteger(110, random).negate();
                final Object[] row = {(long) i, i % 13 == 3 ? null : flags[random.nextInt(3)], "n" + random.nextInt(),
                        wide, i % 7 == 1 ? null : 9000 + i % 500};
                writer.column(0).appendLong((Long) row[0]);
                if (row[1] == null) writer.column(1).appendNull(); else writer.column(1).appendString((String) row[1]);
                writer.column(2).appendString((String) row[2]);
                if (wide == null) writer.column(3).appendNull();
                else writer.column(3).appendDecimal128(wide.shiftRight(64).longValueExact(), wide.longValue());
                if (row[4] == null) writer.column(4).appendNull(); else writer.column(4).appendInt((Integer) row[4]);
                writer.endRow();
                written.add(row);
            }
            table = writer.finish();
        }
        // Terms of 4 MiB: a frame of up to 512 KiB holds one stored block of the projection.
        cluster = EmbeddedCluster.ipc(2, new TransportContext().termLength(4 * 1024 * 1024)
                        .connectTimeoutNs(TimeUnit.SECONDS.toNanos(10)),
                new DispatchContext().queueCapacity(4).senderTimeoutNs(TimeUnit.SECONDS.toNanos(10)));
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
        if (table != null) {
            table.close();
        }
    }

    private Schema exchangeSchema() {
        final List<Field> fields = new ArrayList<>();
        for (final int c : PROJECTION) {
            fields.add(TABLE_SCHEMA.field(c));
        }
        return new Schema(fields);
    }

    /** Block {@code b} as a scan reads it: its projected rows, carrying its stored columns. */
    private Batch scanned(final int b) {
        return Batch.of(table.readBlock(b, PROJECTION)).withStoredBlock(table.storedBlock(b, PROJECTION));
    }

    @Test
    void aScannedBlockGoesAsStoredAndArrivesAsTheRowsWritten() throws Exception {
        final Exchange exchange = Exchange.of(7, nextExchangeId++, TOPOLOGY, DispatchMode.TO_OWNER, exchangeSchema(), 1);
        final List<Batch> received;
        try (ExchangeSource source = cluster.node(0).openSource(exchange, 0);
             ExchangeSource other = cluster.node(1).openSource(exchange, 0);
             ExchangeSink local = cluster.node(0).openSink(exchange, 0);
             ExchangeSink remote = cluster.node(1).openSink(exchange, 0)) {
            local.finish();
            for (int b = 0; b < table.blockCount(); b++) {
                remote.send(scanned(b).withShuffleIdx(0));
            }
            // Every third row of block 0, as a filter leaves it: no longer the stored block, so encoded.
            final Batch whole = scanned(0);
            final int[] every3rd = new int[(whole.rowCount() + 2) / 3];
            for (int i = 0; i < every3rd.length; i++) {
                every3rd[i] = 3 * i;
            }
            remote.send(Vectors.select(whole, every3rd, every3rd.length).withShuffleIdx(0));
            remote.finish();
            received = drain(source);
        }
        assertThat(received).hasSize(3);
        assertRowsWritten(received.get(0), 0, 1);
        assertRowsWritten(received.get(1), Block.MAX_ROWS, 1);
        assertThat(received.get(1).rowCount()).as("the last, partial block").isEqualTo(ROWS - Block.MAX_ROWS);
        assertRowsWritten(received.get(2), 0, 3);
        final ExchangeCounters counters = cluster.counters(exchange);
        assertThat(counters.remoteBatches()).isEqualTo(3);
        assertThat(counters.storedBatches()).as("the two whole blocks went as stored").isEqualTo(2);
        assertThat(counters.storedBytes()).isPositive().isLessThan(counters.remoteBytes());
        assertThat(received.get(0).zoneMap(1)).as("the stored zonemap arrives")
                .isEqualTo(table.zoneMap(0, PROJECTION[1]));
    }

    @Test
    void aStoredBlockTooLargeForOneFrameIsSplitAndEncoded() throws Exception {
        try (EmbeddedCluster small = EmbeddedCluster.ipc(2, new TransportContext().termLength(1024 * 1024)
                        .connectTimeoutNs(TimeUnit.SECONDS.toNanos(10)),
                new DispatchContext().queueCapacity(8).senderTimeoutNs(TimeUnit.SECONDS.toNanos(10)))) {
            final Exchange exchange = Exchange.of(8, 1, TOPOLOGY, DispatchMode.TO_OWNER, exchangeSchema(), 1);
            final List<Batch> received;
            try (ExchangeSource source = small.node(0).openSource(exchange, 0);
                 ExchangeSource other = small.node(1).openSource(exchange, 0);
                 ExchangeSink local = small.node(0).openSink(exchange, 0);
                 ExchangeSink remote = small.node(1).openSink(exchange, 0)) {
                local.finish();
                remote.send(scanned(0).withShuffleIdx(0));
                remote.finish();
                    received = drain(source);
            }
            int row = 0;
            for (final Batch batch : received) {
                assertRowsWritten(batch, row, 1);
                row += batch.rowCount();
            }
            assertThat(row).isEqualTo(Block.MAX_ROWS);
            final ExchangeCounters counters = small.counters(exchange);
            assertThat(counters.splitBatches()).isPositive();
            assertThat(counters.storedBatches()).isZero();
        }
    }

    @Test
    void aStoredBlockDamagedBeforeItWasSentIsRefusedNamingTheSenderAndTheFrame() {
        final Exchange exchange = Exchange.of(7, nextExchangeId++, TOPOLOGY, DispatchMode.TO_OWNER, exchangeSchema(), 1);
        try (ExchangeSource source = cluster.node(0).openSource(exchange, 0);
             FramePublisher raw = ExchangeRun.rawPublisher(cluster.node(1), 0)) {
            final ExpandableArrayBuffer payload = new ExpandableArrayBuffer(1024);
            final int length = table.storedBlock(1, PROJECTION).copyTo(payload, 0);
            // One bit of the decimal column's data, as a disk or memory fault would flip it.
            final int data = (int) payload.getLong(BlockLayout.directoryEntry(1) + BlockLayout.ENTRY_OFFSET,
                    ByteOrder.LITTLE_ENDIAN);
            payload.putByte(data + 200, (byte) (payload.getByte(data + 200) ^ 0x10));
            raw.send(7, exchange.exchangeId(), 1, 0, FrameKind.DATA, payload, 0, length);
            assertThat(pollUntilFailure(source, 10_000)).hasMessageContaining("refused the DATA frame")
                    .hasMessageContaining("from CN 1").hasMessageContaining("column 1 checksum mismatch")
                    .hasMessageContaining("damaged at CN 1").hasMessageContaining("query 7");
        }
    }

    @Test
    void aStoredBlockIsAttachedOnlyToItsOwnRowsAndKeptOnlyWhileTheyStayTheSame() {
        final Batch first = Batch.of(table.readBlock(0, PROJECTION));
        assertThatThrownBy(() -> first.withStoredBlock(table.storedBlock(1, PROJECTION)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("block 1 of table 't'")
                .hasMessageContaining("unfiltered and unprojected");
        assertThatThrownBy(() -> first.withStoredBlock(table.storedBlock(0, 0, 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2 columns");
        final Batch stored = scanned(0);
        assertThat(stored.withShuffleIdx(1).withSortedBy(0).storedBlock()).isSameAs(stored.storedBlock());
        final int[] allButLast = new int[stored.rowCount() - 1];
        for (int i = 0; i < allButLast.length; i++) {
            allButLast[i] = i;
        }
        assertThat(Vectors.select(stored, allButLast, allButLast.length).storedBlock()).isNull();
        assertThat(BatchSlicer.slice(stored.withShuffleIdx(0), 0, 10).storedBlock()).isNull();
    }

    /** Every batch until the source finishes, within a generous deadline. */
    private static List<Batch> drain(final ExchangeSource source) {
        final List<Batch> batches = new ArrayList<>();
        final Deadline deadline = Deadline.in(60_000, "bucket 0 to receive everything");
        final IdleStrategy idle = new BackoffIdleStrategy();
        while (!source.isFinished()) {
            deadline.check();
            final Batch batch = source.poll();
            if (batch != null) {
                batches.add(batch);
            } else {
                idle.idle();
            }
        }
        return batches;
    }

    /** Row {@code r} of the batch is written row {@code first + r * step}, column by column of the projection. */
    private void assertRowsWritten(final Batch batch, final int first, final int step) {
        for (int r = 0; r < batch.rowCount(); r++) {
            final Object[] row = written.get(first + r * step);
            for (int i = 0; i < PROJECTION.length; i++) {
                assertThat(value(batch.column(i), r)).as("row %d column %d", first + r * step, PROJECTION[i])
                        .isEqualTo(row[PROJECTION[i]]);
            }
        }
    }

    private static Object value(final ColumnVector v, final int r) {
        if (v.isNull(r)) {
            return null;
        }
        if (v instanceof LongVector lv) {
            return lv.get(r);
        }
        if (v instanceof IntVector iv) {
            return iv.get(r);
        }
        if (v instanceof Decimal128Vector dv) {
            return dv.get(r).unscaledValue();
        }
        return ((StringVector) v).getString(r);
    }
}
