package io.sluice.dispatch.cluster;

import io.sluice.dispatch.BatchCodec;
import io.sluice.dispatch.BatchSlicer;
import io.sluice.dispatch.control.ControlMessage;
import io.sluice.dispatch.control.ControlMessage.ResultBatch;
import io.sluice.dispatch.control.ControlMessage.ResultEnd;
import io.sluice.dispatch.control.ControlPublisher;
import io.sluice.engine.exec.QueryResult;
import io.sluice.engine.expr.RowType;
import io.sluice.format.Field;
import io.sluice.format.Schema;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A query's result rows on the control plane: CN 0 sends each batch in the block layout as a
 * {@link ResultBatch} (split into row ranges when one would exceed the largest message), then a
 * {@link ResultEnd}; the coordinator relays them unchanged; the client decodes them back into a
 * {@link QueryResult} with the result's row type.
 */
final class ResultRows {
    /** Bytes of a ResultBatch besides its block: header, query id, sequence, block length. */
    private static final int OVERHEAD = 64;

    private ResultRows() {
    }

    /** Encodes a result's batches as messages, in row order, ending with a {@link ResultEnd}. */
    static void encode(final long queryId, final QueryResult result, final int maxMessageLength,
            final Consumer<ControlMessage> out) {
        final BatchCodec codec = new BatchCodec();
        final int[] sequence = {0};
        long rows = 0;
        for (final Batch batch : result.batches()) {
            rows += batch.rowCount();
            encodeFitting(codec, batch, maxMessageLength - OVERHEAD, block -> out.accept(
                    new ResultBatch(queryId, sequence[0]++, block)));
        }
        out.accept(new ResultEnd(queryId, sequence[0], rows));
    }

    private static void encodeFitting(final BatchCodec codec, final Batch batch, final int maxBytes,
            final Consumer<byte[]> out) {
        final int length = codec.encode(batch);
        if (length <= maxBytes) {
            final byte[] block = new byte[length];
            codec.buffer().getBytes(0, block);
            out.accept(block);
            return;
        }
        if (batch.rowCount() < 2) {
            throw new IllegalArgumentException("one result row of " + length + " bytes exceeds the largest result"
                    + " message of " + maxBytes + " bytes: raise sluice.transport.term.length");
        }
        final int half = batch.rowCount() / 2;
        encodeFitting(codec, BatchSlicer.slice(batch, 0, half), maxBytes, out);
        encodeFitting(codec, BatchSlicer.slice(batch, half, batch.rowCount()), maxBytes, out);
    }

    /** Sends a result's messages to the coordinator, each within {@code timeoutNs}. */
    static void send(final long queryId, final QueryResult result, final ControlPublisher to, final long timeoutNs) {
        encode(queryId, result, to.maxMessageLength(), m -> to.send(m, timeoutNs));
    }

    /** The rows of the given batches, in order, with the result's column names and types. */
    static QueryResult decode(final RowType rowType, final List<ResultBatch> batches) {
        final List<Field> fields = new ArrayList<>();
        for (int c = 0; c < rowType.size(); c++) {
            fields.add(new Field("c" + c, rowType.type(c).storage()));
        }
        final Schema schema = new Schema(fields);
        final BatchCodec codec = new BatchCodec();
        final List<Batch> decoded = new ArrayList<>(batches.size());
        for (final ResultBatch b : batches) {
            decoded.add(codec.decode(schema, new UnsafeBuffer(b.block()), 0, b.block().length,
                    "result batch " + b.sequence() + " of query " + b.queryId(), b.sequence()));
        }
        return new QueryResult(rowType, decoded);
    }
}
