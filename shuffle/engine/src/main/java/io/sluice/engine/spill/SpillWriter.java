package io.sluice.engine.spill;

import io.sluice.format.Block;
import io.sluice.format.BlockEncoder;
import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.StringVector;
import io.sluice.format.ZoneMap;
import io.sluice.shuffle.operator.Batch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.LongConsumer;
import java.util.zip.CRC32C;
import org.agrona.ExpandableDirectByteBuffer;

/**
 * Writes one spill file: a run of batches, each a frame of {@code [length, CRC32C, column types, the
 * batch in the block layout]} (the layout stored tables use, with its own column checksums), after an
 * 8-byte magic. {@link #finish()} closes the file and hands back the {@link SpillRun} that reads it. One
 * writer per worker; not thread-safe.
 */
public final class SpillWriter implements AutoCloseable {
    /** The first 8 bytes of every spill file. */
    static final long MAGIC = 0x314C4C4950534C53L; // "SLSPILL1", little-endian
    /** A frame's length and checksum, before its bytes. */
    static final int FRAME_HEADER = 8;

    private final Path file;
    /** Told of every byte written, for the query's and the process's counts. */
    private final LongConsumer counter;
    private final FileChannel channel;
    private final BlockEncoder encoder = new BlockEncoder();
    private final ExpandableDirectByteBuffer buffer = new ExpandableDirectByteBuffer(64 * 1024);
    private final CRC32C crc = new CRC32C();
    private long bytes;
    private long rows;
    private long valueBytes;
    private int batches;

    SpillWriter(final Path file, final LongConsumer counter) {
        this.file = file;
        this.counter = counter;
        try {
            this.channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            final ByteBuffer magic = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, MAGIC);
            writeFully(magic);
            bytes = 8;
            counter.accept(8);
        } catch (final IOException e) {
            throw new SpillFileException("cannot make the spill file " + file + ": set -Dsluice.spill.dir=PATH to a"
                    + " writable folder with free space, or turn spilling off with -Dsluice.spill=off", e);
        }
    }

    /** Appends a batch; an empty one is skipped. */
    public void write(final Batch batch) {
        final int rowCount = batch.rowCount();
        if (rowCount == 0) {
            return;
        }
        final int columns = batch.columnCount();
        final ColumnVector[] vectors = new ColumnVector[columns];
        final ZoneMap[] zoneMaps = new ZoneMap[columns];
        // The block starts 8-aligned, as the block layout's columns must.
        final int typesLength = (2 + 3 * columns + 7) & ~7;
        buffer.checkLimit(FRAME_HEADER + typesLength);
        buffer.putShort(FRAME_HEADER, (short) columns, ByteOrder.LITTLE_ENDIAN);
        for (int c = 0; c < columns; c++) {
            vectors[c] = batch.column(c);
            valueBytes += vectors[c] instanceof StringVector s ? s.valueBytes() + 4L * rowCount
                    : (long) vectors[c].type().kind().width() * rowCount;
            zoneMaps[c] = batch.zoneMap(c) != null ? batch.zoneMap(c) : ZoneMap.of(vectors[c]);
            final ColumnType type = vectors[c].type();
            final int at = FRAME_HEADER + 2 + 3 * c;
            buffer.putByte(at, (byte) type.kind().ordinal());
            buffer.putByte(at + 1, (byte) type.precision());
            buffer.putByte(at + 2, (byte) type.scale());
        }
        final int blockLength = encoder.prepare(new Block(rowCount, vectors, zoneMaps));
        final int frameLength = typesLength + blockLength;
        buffer.checkLimit(FRAME_HEADER + frameLength);
        encoder.writeTo(buffer, FRAME_HEADER + typesLength);
        final ByteBuffer frame = buffer.byteBuffer().duplicate();
        frame.limit(FRAME_HEADER + frameLength).position(FRAME_HEADER);
        crc.reset();
        crc.update(frame);
        buffer.putInt(0, frameLength, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(4, (int) crc.getValue(), ByteOrder.LITTLE_ENDIAN);
        final ByteBuffer out = buffer.byteBuffer().duplicate();
        out.limit(FRAME_HEADER + frameLength).position(0);
        try {
            writeFully(out);
        } catch (final IOException e) {
            throw new SpillFileException("cannot write " + (FRAME_HEADER + frameLength) + " bytes to the spill file "
                    + file + " (is its disk full?): set -Dsluice.spill.dir=PATH to a folder with free space, or"
                    + " raise -Dsluice.memory.query.max so that less spills", e);
        }
        final long written = FRAME_HEADER + frameLength;
        bytes += written;
        counter.accept(written);
        rows += rowCount;
        batches++;
    }

    private void writeFully(final ByteBuffer source) throws IOException {
        while (source.hasRemaining()) {
            channel.write(source);
        }
    }

    /** Closes the file and returns the run it holds. */
    public SpillRun finish() {
        close();
        return new SpillRun(file, batches, rows, bytes, valueBytes);
    }

    /** Bytes written so far. */
    public long bytes() {
        return bytes;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (final IOException e) {
            throw new SpillFileException("cannot close the spill file " + file, e);
        }
    }
}
