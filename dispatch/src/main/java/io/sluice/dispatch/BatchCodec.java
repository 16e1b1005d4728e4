package io.sluice.dispatch;

import io.sluice.format.Block;
import io.sluice.format.BlockDecoder;
import io.sluice.format.BlockEncoder;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.LongVector;
import io.sluice.format.Schema;
import io.sluice.format.StoredBlock;
import io.sluice.format.StringVector;
import io.sluice.format.ZoneMap;
import io.sluice.shuffle.operator.Batch;
import java.util.Arrays;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;

/**
 * A batch on the wire: its columns in the block layout (the on-disk format, checksummed), with the
 * batch's zonemaps when it has them. A batch that is exactly a stored block's rows of the columns a
 * scan read ({@link Batch#storedBlock()}) is not encoded: its stored column bytes, zonemaps and
 * checksums are copied from the block's file as they lie there, under a header for those columns
 * ({@link io.sluice.format.BlockProjection}); the receiver cannot tell the two apart and verifies both
 * alike. {@code shuffleIdx} is not written: the frame header's bucket says where the rows go. One
 * buffer, reused for every batch; not thread-safe.
 */
public final class BatchCodec {
    private final BlockEncoder encoder = new BlockEncoder();
    private final BlockDecoder decoder = new BlockDecoder();
    private final ExpandableDirectByteBuffer buffer = new ExpandableDirectByteBuffer(64 * 1024);

    private ColumnVector[] vectors = new ColumnVector[0];
    private ZoneMap[] zoneMaps = new ZoneMap[0];
    private final boolean sendStored;
    private boolean stored;

    /** A codec that writes a batch carrying its stored block as stored. */
    public BatchCodec() {
        this(true);
    }

    /**
     * @param sendStored whether a batch carrying its stored block is written as stored (else encoded
     *                   like any batch: {@link DispatchContext#SEND_STORED_PROP_NAME})
     */
    public BatchCodec(final boolean sendStored) {
        this.sendStored = sendStored;
    }

    /**
     * Writes a batch into {@link #buffer()} from offset 0, as stored when it carries its stored block,
     * else encoded, and returns its length.
     */
    public int encode(final Batch batch) {
        final StoredBlock storedBlock = sendStored ? batch.storedBlock() : null;
        stored = storedBlock != null;
        if (stored) {
            return storedBlock.copyTo(buffer, 0);
        }
        final int columns = batch.columnCount();
        if (vectors.length != columns) {
            vectors = new ColumnVector[columns];
            zoneMaps = new ZoneMap[columns];
        }
        for (int c = 0; c < columns; c++) {
            vectors[c] = batch.column(c);
            zoneMaps[c] = batch.zoneMap(c);
            if (zoneMaps[c] == null) {
                zoneMaps[c] = ZoneMap.of(vectors[c]);
            }
        }
        final Block block = new Block(batch.rowCount(), vectors, zoneMaps);
        final int length = encoder.prepare(block);
        buffer.checkLimit(length);
        encoder.writeTo(buffer, 0);
        // The arrays are reused for the next batch: drop the references to this one's columns.
        Arrays.fill(vectors, null);
        return length;
    }

    /** Whether the last {@link #encode} copied a stored block instead of encoding the batch. */
    public boolean lastWasStored() {
        return stored;
    }

    /** The buffer the last {@link #encode} wrote. */
    public DirectBuffer buffer() {
        return buffer;
    }

    /** Decodes a batch of {@code schema} that owns its columns (copied out of {@code source}). */
    public Batch decode(final Schema schema, final DirectBuffer source, final int offset, final int length,
            final String origin, final long sequence) {
        return Batch.of(decoder.wrap(source, offset, length, origin, sequence).decode(schema, null));
    }

    /**
     * The bytes of a batch's column data in memory: values, string offsets and bytes (dictionary
     * codes for a dictionary string column), without null masks. What a local delivery would have
     * sent, for counters; computed per batch, not per row.
     */
    static long columnBytes(final Batch batch) {
        final int n = batch.rowCount();
        long bytes = 0;
        for (int c = 0; c < batch.columnCount(); c++) {
            final ColumnVector v = batch.column(c);
            if (v instanceof LongVector) {
                bytes += 8L * n;
            } else if (v instanceof Decimal128Vector) {
                bytes += 16L * n;
            } else if (v instanceof StringVector s && !s.isDictionary()) {
                bytes += 4L * (n + 1) + (n == 0 ? 0 : s.offset(n) - s.offset(0));
            } else {
                bytes += 4L * n;
            }
        }
        return bytes;
    }
}
