package io.sluice.engine.spill;

import io.sluice.format.BlockDecoder;
import io.sluice.format.ColumnType;
import io.sluice.format.CorruptBlockException;
import io.sluice.format.Field;
import io.sluice.format.Schema;
import io.sluice.format.TypeKind;
import io.sluice.shuffle.operator.Batch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.agrona.ExpandableDirectByteBuffer;

/**
 * Reads a spill file's batches back, one frame at a time: checks the file's magic, each frame's length
 * against the bytes left and its CRC32C, then decodes the batch (whose columns the block layout checks
 * again). Anything that does not match is a {@link SpillFileException} naming the file and the frame.
 * Not thread-safe.
 */
public final class SpillReader implements AutoCloseable {
    private static final TypeKind[] KINDS = TypeKind.values();

    private final SpillRun run;
    private final FileChannel channel;
    private final long size;
    private final ExpandableDirectByteBuffer buffer = new ExpandableDirectByteBuffer(64 * 1024);
    private final ByteBuffer header = ByteBuffer.allocate(SpillWriter.FRAME_HEADER).order(ByteOrder.LITTLE_ENDIAN);
    private final BlockDecoder decoder = new BlockDecoder();
    private final CRC32C crc = new CRC32C();
    private long position;
    private int frame;

    SpillReader(final SpillRun run) {
        this.run = run;
        try {
            this.channel = FileChannel.open(run.file(), StandardOpenOption.READ);
            this.size = channel.size();
            header.clear();
            readFully(header, 0);
            if (header.getLong(0) != SpillWriter.MAGIC) {
                throw corrupt("it does not start with the spill file magic", null);
            }
            position = 8;
        } catch (final IOException e) {
            throw new SpillFileException("cannot read the spill file " + run.file() + " back: was it removed while"
                    + " its query ran? Keep -Dsluice.spill.dir out of reach of cleaners", e);
        }
    }

    /** The next batch, or null after the last. */
    public Batch next() {
        if (position == size) {
            return null;
        }
        try {
            if (size - position < SpillWriter.FRAME_HEADER) {
                throw corrupt("it ends inside a frame header", null);
            }
            header.clear();
            readFully(header, position);
            final int length = header.getInt(0);
            final int expected = header.getInt(4);
            if (length < 2 || length > size - position - SpillWriter.FRAME_HEADER) {
                throw corrupt("the frame claims " + length + " bytes, " + (size - position - SpillWriter.FRAME_HEADER)
                        + " are left", null);
            }
            buffer.checkLimit(length);
            final ByteBuffer frameBytes = buffer.byteBuffer().duplicate();
            frameBytes.limit(length).position(0);
            readFully(frameBytes, position + SpillWriter.FRAME_HEADER);
            frameBytes.flip();
            crc.reset();
            crc.update(frameBytes);
            if ((int) crc.getValue() != expected) {
                throw corrupt("its CRC32C does not match", null);
            }
            final int columns = buffer.getShort(0, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
            final int typesLength = (2 + 3 * columns + 7) & ~7;
            if (typesLength > length) {
                throw corrupt("it claims " + columns + " columns, more than its " + length + " bytes hold", null);
            }
            final List<Field> fields = new ArrayList<>(columns);
            for (int c = 0; c < columns; c++) {
                final int kind = buffer.getByte(2 + 3 * c);
                if (kind < 0 || kind >= KINDS.length) {
                    throw corrupt("column " + c + " has unknown kind " + kind, null);
                }
                fields.add(new Field("c" + c, new ColumnType(KINDS[kind], buffer.getByte(3 + 3 * c),
                        buffer.getByte(4 + 3 * c))));
            }
            final Batch batch = Batch.of(decoder.wrap(buffer, typesLength, length - typesLength,
                    run.file().toString(), frame).decode(new Schema(fields), null));
            position += SpillWriter.FRAME_HEADER + length;
            frame++;
            return batch;
        } catch (final IOException e) {
            throw new SpillFileException("cannot read frame " + frame + " of the spill file " + run.file(), e);
        } catch (final CorruptBlockException | IllegalArgumentException e) {
            throw corrupt(e.getMessage(), e);
        }
    }

    private void readFully(final ByteBuffer target, final long at) throws IOException {
        long p = at;
        while (target.hasRemaining()) {
            final int n = channel.read(target, p);
            if (n < 0) {
                throw new IOException("the file ended at " + p);
            }
            p += n;
        }
    }

    private SpillFileException corrupt(final String what, final Throwable cause) {
        return new SpillFileException("the spill file " + run.file() + " is corrupt at frame " + frame + " (byte "
                + position + "): " + what + "; the query cannot go on (its disk returned other bytes than were"
                + " written): run it again, and check the disk under -Dsluice.spill.dir", cause);
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (final IOException e) {
            throw new SpillFileException("cannot close the spill file " + run.file(), e);
        }
    }
}
